#include "cuda/device.h"

#include <cuda_runtime_api.h>

#include <string>

namespace facet {

bool builtWithCuda() { return true; }

GpuStatus probeGpu() {
    GpuStatus status;
    // Without a driver cudaGetDeviceCount fails (cudaErrorInsufficientDriver) and leaves the
    // count untouched, hence the initial 0.
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        status.reason = std::string("no usable CUDA driver or device: ") + cudaGetErrorString(err) + " (" +
                        cudaGetErrorName(err) + ")";
        cudaGetLastError(); // the failure is reported here; do not let it leak into later calls
        return status;
    }
    if (count == 0) {
        status.reason = "the CUDA driver reports no device";
        return status;
    }
    cudaDeviceProp prop{};
    const cudaError_t propErr = cudaGetDeviceProperties(&prop, 0);
    if (propErr != cudaSuccess) {
        status.reason = std::string("cannot query CUDA device 0: ") + cudaGetErrorString(propErr);
        cudaGetLastError();
        return status;
    }
    status.deviceName = prop.name;
    status.computeMajor = prop.major;
    status.computeMinor = prop.minor;
    if (prop.major * 10 + prop.minor < 75) {
        status.reason = std::string(prop.name) + " has compute capability " + std::to_string(prop.major) + "." +
                        std::to_string(prop.minor) + "; facet's kernels are built for 7.5 and newer";
        return status;
    }
    status.usable = true;
    return status;
}

} // namespace facet
