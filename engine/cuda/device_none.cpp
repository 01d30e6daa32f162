#include "cuda/device.h"

namespace facet {

bool builtWithCuda() { return false; }

GpuStatus probeGpu() {
    GpuStatus status;
    status.reason = "facet was built without CUDA (nvcc was not found when it was configured)";
    return status;
}

} // namespace facet
