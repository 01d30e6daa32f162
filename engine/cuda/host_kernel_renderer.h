// The CUDA pipeline run on the CPU: the kernels' own per-thread functions, launched by a host
// executor. It is how the GPU algorithm (binning with atomics and scans included) is tested
// where there is no GPU, and what `facet-render --stage kernels` draws with; the CPU
// renderer (cpu/cpu_renderer.h) is the fast CPU path.
#pragma once

#include "asset/model.h"
#include "cpu/thread_pool.h"
#include "cuda/host_exec.h"
#include "cuda/kernel_pipeline.h"
#include "cuda/kernel_work.h"

#include <vector>

namespace facet {

class HostKernelRenderer {
public:
    explicit HostKernelRenderer(int threads = 0);

    int threadCount() const { return pool_.threadCount(); }

    // The backend contract, as CpuRenderer's (cpu/cpu_renderer.h), and the same picture.
    void setModel(const Model& model);
    BackendLimits limits() const { return {}; }
    KernelFrameStats render(const ViewParams& view, const FramePlan& plan, const FrameView& target);

    // For the GPU cost model (cuda/gpu_model.h): with counting on, each frame logs its kernel
    // launches, scans and sorts, and after it the raster kernel's work is counted from the
    // frame's tile bins (about as long again as the frame's raster stage).
    void setWorkCounting(bool on) { counting_ = on; }
    // The last frame's work per kernel, in the order they ran; empty without counting.
    const std::vector<KernelWorkItem>& lastWork() const { return work_; }
    // The raster kernel's counts behind it.
    const RasterCounts& lastRasterCounts() const { return raster_; }

private:
    void countWork(const KernelFrameStats& stats);

    ThreadPool pool_;
    HostExec exec_;
    KernelPipeline<HostExec> pipeline_;
    const Model* model_ = nullptr;         // setModel's
    std::vector<ShadeMaterial> materials_; // the model's, as shading reads them (setModel)
    bool counting_ = false;
    std::vector<LaunchRecord> log_;
    std::vector<KernelWorkItem> work_;
    RasterCounts raster_;
};

} // namespace facet
