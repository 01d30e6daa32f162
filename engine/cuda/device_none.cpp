#include "cuda/device.h"

namespace facet {

bool builtWithCuda() { return false; }

std::vector<GpuDeviceInfo> listGpuDevices() { return {}; }

GpuStatus probeGpu(int) {
    GpuStatus status;
    status.reason = "facet was built without CUDA (nvcc was not found when it was configured)";
    return status;
}

} // namespace facet
