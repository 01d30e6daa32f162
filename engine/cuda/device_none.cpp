#include "cuda/device.h"

namespace facet {

bool builtWithCuda() { return false; }

std::vector<GpuDeviceInfo> listGpuDevices() { return {}; }

GpuStatus probeGpu(int) {
    GpuStatus status;
    status.reason = "facet was built without CUDA (" FACET_CUDA_OFF_REASON ")";
    return status;
}

} // namespace facet
