// chooseGpuDevice, the same with CUDA or without (listGpuDevices is empty there).
#include "cuda/device.h"

#include "core/error.h"

#include <cerrno>
#include <cstdlib>
#include <limits>
#include <string>

namespace facet {

namespace {

// FACET_DEVICE's index, or -1 when it is not set.
int deviceFromEnvironment() {
    const char* text = std::getenv("FACET_DEVICE");
    if (text == nullptr || *text == '\0') return -1;
    char* end = nullptr;
    errno = 0;
    const long value = std::strtol(text, &end, 10);
    if (*end != '\0' || end == text || errno != 0 || value < 0 || value > std::numeric_limits<int>::max())
        throw Error(std::string("FACET_DEVICE expects a CUDA device index (a whole number from 0), got '") + text +
                    "'");
    return static_cast<int>(value);
}

} // namespace

int chooseGpuDevice(int requested) {
    const int fromEnvironment = requested >= 0 ? -1 : deviceFromEnvironment();
    const int device = requested >= 0 ? requested : fromEnvironment >= 0 ? fromEnvironment : 0;
    const std::size_t count = listGpuDevices().size();
    if (static_cast<std::size_t>(device) >= count)
        throw Error("CUDA device " + std::to_string(device) + " does not exist: " +
                    (count == 0 ? std::string("no CUDA device was found")
                                : std::to_string(count) + " device" + (count == 1 ? "" : "s") + " (0 to " +
                                      std::to_string(count - 1) + ")") +
                    (fromEnvironment >= 0 ? " (FACET_DEVICE)" : ""));
    return device;
}

} // namespace facet
