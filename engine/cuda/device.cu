#include "cuda/device.h"

#include "core/error.h"

#include <cuda_runtime_api.h>

#include <string>

namespace facet {

bool builtWithCuda() { return true; }

std::vector<GpuDeviceInfo> listGpuDevices() {
    std::vector<GpuDeviceInfo> devices;
    int count = 0; // left untouched when there is no driver
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError(); // reported by probeGpu; must not leak into later calls
        return devices;
    }
    for (int i = 0; i < count; ++i) {
        cudaDeviceProp prop{};
        if (cudaGetDeviceProperties(&prop, i) != cudaSuccess) {
            cudaGetLastError();
            continue;
        }
        devices.push_back(GpuDeviceInfo{i, prop.name, prop.major, prop.minor, prop.totalGlobalMem});
    }
    return devices;
}

GpuStatus probeGpu(int device) {
    GpuStatus status;
    int count = 0; // without a driver cudaGetDeviceCount fails and leaves the count untouched
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
    int chosen = 0;
    try {
        chosen = chooseGpuDevice(device);
    } catch (const Error& e) {
        status.reason = e.what();
        return status;
    }
    cudaDeviceProp prop{};
    const cudaError_t propErr = cudaGetDeviceProperties(&prop, chosen);
    if (propErr != cudaSuccess) {
        status.reason = "cannot query CUDA device " + std::to_string(chosen) + ": " + cudaGetErrorString(propErr);
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
