// Says whether this machine has a usable CUDA device, for tests whose expectation depends on
// it (tests/run_app.cmake): exit 0 and the device's name, or exit 1 and the reason.
#include "cuda/device.h"

#include <iostream>

int main() {
    const facet::GpuStatus gpu = facet::probeGpu();
    if (gpu.usable) {
        std::cout << "usable GPU: " << gpu.deviceName << " (compute " << gpu.computeMajor << "." << gpu.computeMinor
                  << ")\n";
        return 0;
    }
    std::cout << "no usable GPU: " << gpu.reason << "\n";
    return 1;
}
