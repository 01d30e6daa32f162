// The CUDA pipeline's kernels run on the CPU (cuda/host_kernel_renderer.h) with each frame's work
// counted, for the GPU cost model (bench/gpu_model.h): the executor logs the frame's kernel
// launches, scans and sorts, and after the frame the raster kernel's work is counted from its
// tile bins (about as long again as the frame's raster stage). Bench-only: the renderer's
// HostKernelRenderer counts nothing.
#pragma once

#include "asset/scene.h"
#include "bench/kernel_work.h"
#include "cuda/host_exec.h"
#include "cuda/host_kernel_renderer.h"

#include <vector>

namespace facet {

class CountingKernelRenderer {
public:
    explicit CountingKernelRenderer(int threads = 0) : kernels_(threads) {}

    // HostKernelRenderer's contract, and the same picture, with each frame's work counted.
    void setScene(const Scene& scene) {
        kernels_.setScene(scene);
        scene_ = &scene;
    }
    BackendLimits limits() const { return kernels_.limits(); }
    KernelFrameStats render(const ViewParams& view, const FramePlan& plan, const FrameView& target);
    // The last frame's work per kernel, in the order they ran.
    const std::vector<KernelWorkItem>& lastWork() const { return work_; }
    // The raster kernel's counts behind it.
    const RasterCounts& lastRasterCounts() const { return raster_; }

private:
    void countWork(const KernelFrameStats& stats);

    HostKernelRenderer kernels_;
    const Scene* scene_ = nullptr; // setScene's
    std::vector<LaunchRecord> log_;
    std::vector<KernelWorkItem> work_;
    RasterCounts raster_;
};

} // namespace facet
