// Which CUDA devices exist, which one to use, and whether it is usable (and if not, why):
// every program asks this once and shows the reason next to its disabled GPU options instead
// of crashing.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace facet {

struct GpuStatus {
    bool usable = false;
    std::string reason;     // why not, when !usable (the CUDA error string where there is one)
    std::string deviceName; // when usable
    int computeMajor = 0;
    int computeMinor = 0;
};

struct GpuDeviceInfo {
    int index = 0; // the CUDA runtime's device index (as CUDA_VISIBLE_DEVICES leaves them)
    std::string name;
    int computeMajor = 0, computeMinor = 0;
    std::size_t memoryBytes = 0;
};

bool builtWithCuda();

// Every CUDA device, in index order; empty without CUDA, a driver or a device. Never throws.
std::vector<GpuDeviceInfo> listGpuDevices();

// The device to use: `requested` when >= 0, else the environment variable FACET_DEVICE when
// set, else 0. Throws facet::Error for a FACET_DEVICE that is not a whole number >= 0 (naming
// it) and for an index no device has (saying how many devices there are).
int chooseGpuDevice(int requested);

// Whether device `device` (as chooseGpuDevice picks it; -1: FACET_DEVICE or 0) exists and
// runs facet's kernels, and if not, why. Never throws.
GpuStatus probeGpu(int device = -1);

} // namespace facet
