#include "bench/gpu_model.h"

#include "core/error.h"

#include <algorithm>

namespace facet {

// Peak figures from the vendors' documents (boost clocks; FP32 and FP64 without tensor cores):
//   t4        NVIDIA T4 datasheet: 320 GB/s GDDR6, 8.1 TFLOPS FP32, 2560 cores (40 SMs) at
//             1590 MHz; FP64 1/32 of FP32 (Turing architecture whitepaper, two FP64 units a SM).
//   rtx3060   GeForce RTX 3060 (12 GB) specifications: 3584 cores (28 SMs) at 1.78 GHz, 360 GB/s;
//             FP32 = cores x 2 x clock; FP64 1/64 of FP32 (NVIDIA Ampere GA102 GPU architecture
//             whitepaper, GA10x).
//   rtx3090   GeForce RTX 3090 specifications: 10496 cores (82 SMs) at 1.70 GHz, 936 GB/s;
//             35.6 TFLOPS FP32 (GA102 whitepaper), FP64 1/64.
//   rtx4090   GeForce RTX 4090 specifications: 16384 cores (128 SMs) at 2.52 GHz, 1008 GB/s;
//             82.6 TFLOPS FP32 (NVIDIA Ada GPU architecture whitepaper), FP64 1/64.
//   a100      NVIDIA A100 Tensor Core GPU datasheet (40 GB SXM): 1555 GB/s, 19.5 TFLOPS FP32,
//             9.7 TFLOPS FP64; 108 SMs at 1410 MHz (A100 architecture whitepaper).
//   h100      NVIDIA H100 Tensor Core GPU datasheet (SXM5): 3.35 TB/s, 67 TFLOPS FP32, 34 TFLOPS
//             FP64; 132 SMs at 1.98 GHz (H100 architecture whitepaper).
//   orin      Jetson AGX Orin 64 GB datasheet and technical brief: 204.8 GB/s LPDDR5 shared with
//             the CPU, 2048 cores (16 SMs) at 1.3 GHz, 5.3 TFLOPS FP32; FP64 assumed 1/64 (GA10B
//             is an Ampere GA10x-class part).
const std::vector<GpuSpec>& gpuSpecs() {
    static const std::vector<GpuSpec> specs = {
        {"t4", "NVIDIA T4", 320.0, 8.1, 8.1 / 32.0, 40, 1.59},
        {"rtx3060", "GeForce RTX 3060 12 GB", 360.0, 12.7, 12.7 / 64.0, 28, 1.78},
        {"rtx3090", "GeForce RTX 3090", 936.0, 35.6, 35.6 / 64.0, 82, 1.70},
        {"rtx4090", "GeForce RTX 4090", 1008.0, 82.6, 82.6 / 64.0, 128, 2.52},
        {"a100", "NVIDIA A100 40 GB SXM", 1555.0, 19.5, 9.7, 108, 1.41},
        {"h100", "NVIDIA H100 SXM5", 3350.0, 67.0, 34.0, 132, 1.98},
        {"orin", "Jetson AGX Orin 64 GB", 204.8, 5.3, 5.3 / 64.0, 16, 1.30},
    };
    return specs;
}

std::string gpuModelNames() {
    std::string names;
    for (const GpuSpec& g : gpuSpecs()) names += (names.empty() ? "" : ", ") + std::string(g.name);
    return names;
}

const GpuSpec& findGpuSpec(const std::string& name) {
    for (const GpuSpec& g : gpuSpecs())
        if (name == g.name) return g;
    throw Error("unknown GPU model '" + name + "': the model knows " + gpuModelNames());
}

double fp32OpsPerSecond(const GpuSpec& gpu) { return gpu.fp32Tflops * 1e12 / 2.0; }
double fp64OpsPerSecond(const GpuSpec& gpu) { return gpu.fp64Tflops * 1e12 / 2.0; }
double intOpsPerSecond(const GpuSpec& gpu) { return double(gpu.sms) * 64.0 * gpu.boostGHz * 1e9; }

KernelEstimate estimateKernel(const GpuSpec& gpu, const KernelWork& work) {
    KernelEstimate e;
    e.memoryUs = work.bytes / (gpu.bandwidthGBs * 1e9) * 1e6;
    e.fp32Us = work.fp32Ops / fp32OpsPerSecond(gpu) * 1e6;
    e.fp64Us = work.fp64Ops / fp64OpsPerSecond(gpu) * 1e6;
    e.intUs = work.intOps / intOpsPerSecond(gpu) * 1e6;
    e.overheadUs = double(work.launches) * kLaunchOverheadUs + double(work.roundTrips) * kHostRoundTripUs;
    const double roof = std::max({e.memoryUs, e.fp32Us, e.fp64Us, e.intUs});
    e.totalUs = roof + e.overheadUs;
    if (e.overheadUs >= roof) e.bound = "overhead";
    else if (roof == e.memoryUs) e.bound = "memory";
    else if (roof == e.fp32Us) e.bound = "fp32";
    else if (roof == e.fp64Us) e.bound = "fp64";
    else e.bound = "int";
    return e;
}

double estimateFrameUs(const GpuSpec& gpu, const std::vector<KernelWork>& kernels) {
    double us = 0.0;
    for (const KernelWork& k : kernels) us += estimateKernel(gpu, k).totalUs;
    return us;
}

} // namespace facet
