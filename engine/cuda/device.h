// Whether a usable CUDA device exists, and if not, why: every program asks this once and
// shows the reason next to its disabled GPU options instead of crashing.
#pragma once

#include <string>

namespace facet {

struct GpuStatus {
    bool usable = false;
    std::string reason;     // why not, when !usable (the CUDA error string where there is one)
    std::string deviceName; // when usable
    int computeMajor = 0;
    int computeMinor = 0;
};

bool builtWithCuda();
GpuStatus probeGpu();

} // namespace facet
