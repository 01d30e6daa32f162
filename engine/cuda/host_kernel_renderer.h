// The CUDA pipeline run on the CPU: the kernels' own per-thread functions, launched by a host
// executor. It is how the GPU algorithm (binning with atomics and scans included) is tested
// where there is no GPU, and what `facet-render --stage kernels` draws with; the CPU
// renderer (cpu/cpu_renderer.h) is the fast CPU path.
#pragma once

#include "asset/scene.h"
#include "cuda/host_exec.h"
#include "cuda/kernel_pipeline.h"
#include "host/thread_pool.h"

#include <vector>

namespace facet {

class HostKernelRenderer {
public:
    explicit HostKernelRenderer(int threads = 0);

    int threadCount() const { return pool_.threadCount(); }

    // The backend contract, as CpuRenderer's (cpu/cpu_renderer.h), and the same picture.
    void setScene(const Scene& scene);
    BackendLimits limits() const { return {}; }
    KernelFrameStats render(const ViewParams& view, const FramePlan& plan, const FrameView& target);

    // What the GPU cost model's work count (engine/bench/counting_kernel_renderer.h) reads of a
    // frame: the executor, whose launch log it sets, the pipeline's last frame and the threads.
    HostExec& executor() { return exec_; }
    const KernelPipeline<HostExec>& pipeline() const { return pipeline_; }
    ThreadPool& pool() { return pool_; }

private:
    ThreadPool pool_;
    HostExec exec_;
    KernelPipeline<HostExec> pipeline_;
    const Scene* scene_ = nullptr;         // setScene's
    SceneMaterials materials_;             // its meshes', one table, as shading reads them (setScene)
    std::vector<MeshView> meshes_;         // its meshes' views
};

} // namespace facet
