#include "bench/machine.h"

#include <algorithm>
#include <fstream>
#include <thread>

namespace facet::bench {

namespace {

// The model name from /proc/cpuinfo, and the widest vector path the engine picks at run time
// (the same test as engine/cpu/project.cpp).
std::string cpuModel() {
    std::ifstream in("/proc/cpuinfo");
    std::string model = "unknown (no model name in /proc/cpuinfo)";
    for (std::string line; std::getline(in, line);) {
        const auto colon = line.find(':');
        if (line.rfind("model name", 0) == 0 && colon != std::string::npos) {
            model = line.substr(std::min(line.size(), colon + 2));
            break;
        }
    }
    __builtin_cpu_init();
    const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
    return model + (avx512 ? ", AVX-512" : __builtin_cpu_supports("avx2") ? ", AVX2 (no AVX-512)" : ", no AVX2");
}

} // namespace

Machine probeMachine(int gpuDevice) {
    Machine m;
    m.cpu = cpuModel();
    m.hardwareThreads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    m.gpuDevice = gpuDevice;
    m.gpu = probeGpu(gpuDevice);
    m.gl = probeOpenGl();
    return m;
}

std::string gpuText(const GpuStatus& gpu) {
    return gpu.usable ? gpu.deviceName + " (compute " + std::to_string(gpu.computeMajor) + "." +
                            std::to_string(gpu.computeMinor) + ")"
                      : "none: " + gpu.reason;
}

} // namespace facet::bench
