// A GPU cost model for the CUDA pipeline's kernels, since no GPU is at hand: the work each
// kernel of a frame does (bytes moved, FP32, FP64 and integer operations, threads, launches;
// counted by bench/kernel_work.h from a frame run on the CPU) turned into an estimated time on a
// named GPU. The estimate is a roofline: per kernel the larger of its memory time and its
// compute time at the GPU's peak rates, plus a fixed overhead per launch and per host round
// trip. Peak rates, perfect overlap and no latency make it a lower bound, not a prediction:
// use it to compare kernels and designs, never as a measurement.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace facet {

struct GpuSpec {
    const char* name;        // what --gpu-model takes: lower case, no spaces
    const char* description; // the product, as its vendor names it
    double bandwidthGBs;     // DRAM bandwidth, GB/s (10^9 bytes)
    double fp32Tflops;       // peak FP32, TFLOPS (an FMA counts as two operations)
    double fp64Tflops;       // peak FP64 without tensor cores, TFLOPS (likewise)
    int sms;                 // streaming multiprocessors
    double boostGHz;         // boost clock, for the INT32 rate
};

// The model's GPUs, in the table's order.
const std::vector<GpuSpec>& gpuSpecs();

// "t4, rtx3060, ...": every name gpuSpecs() has.
std::string gpuModelNames();

// The GPU of that name. Throws facet::Error naming the unknown name and listing the known ones.
const GpuSpec& findGpuSpec(const std::string& name);

// Fixed costs the roofline leaves out, named here because no datasheet gives them: a kernel
// launch (or a memset or copy on the stream) back to back with the previous one, and a host
// round trip that waits for the stream (a download of totals followed by a synchronize).
inline constexpr double kLaunchOverheadUs = 4.0;
inline constexpr double kHostRoundTripUs = 10.0;

// One kernel's (or one library call's, a scan or a sort) work in one frame.
struct KernelWork {
    std::string name;
    std::uint64_t launches = 0;
    std::uint64_t threads = 0;     // over all its launches
    std::uint64_t roundTrips = 0;  // host waits that follow it
    double bytes = 0.0;            // DRAM traffic, read + written
    double fp32Ops = 0.0, fp64Ops = 0.0;
    double intOps = 0.0;           // 32-bit integer operations (a 64-bit one counts as two or more)
    std::string formula;           // how the work was counted, for the reader of the table
};

struct KernelEstimate {
    double memoryUs = 0.0, fp32Us = 0.0, fp64Us = 0.0, intUs = 0.0;
    double overheadUs = 0.0; // launches and round trips
    double totalUs = 0.0;    // max(memory, fp32, fp64, int) + overhead
    const char* bound = "";  // memory, fp32, fp64, int or overhead: the largest term
};

// Operation rates: the kernels are built with --fmad=false, so every multiply and add is an
// instruction of its own, half the peak's FMA-counted rate. Integer operations issue at 64 per
// SM and clock on every architecture in the table (half the FP32 lanes of Ampere and Ada, a
// separate pipe on Turing, A100 and Hopper).
double fp32OpsPerSecond(const GpuSpec& gpu);
double fp64OpsPerSecond(const GpuSpec& gpu);
double intOpsPerSecond(const GpuSpec& gpu);

KernelEstimate estimateKernel(const GpuSpec& gpu, const KernelWork& work);

// The frame: the kernels run one after another on one stream, so their estimates add up.
double estimateFrameUs(const GpuSpec& gpu, const std::vector<KernelWork>& kernels);

} // namespace facet
