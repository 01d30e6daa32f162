#include "bench/raster_paths.h"

#include "bench/records.h"
#include "core/error.h"
#include "cpu/cpu_renderer.h"
#include "cuda/gpu_renderer.h"
#include "gl/gl_reference.h"

#include <chrono>
#include <exception>
#include <string>

namespace facet::bench {

namespace {

template <class Stats>
StageTimes stageTimes(const Stats& s) {
    return {s.vertexMs, s.triangleMs, s.rasterMs};
}

// An absent path's note is never empty.
std::string reasonOf(const std::exception& e) {
    const std::string why = e.what();
    return why.empty() ? "no reason given" : why;
}

// Makes a renderer, or says why it cannot be made.
template <class Renderer>
void tryMake(std::optional<Renderer>& renderer, std::string& why) {
    try {
        renderer.emplace();
    } catch (const std::exception& e) {
        why = reasonOf(e);
    }
}

} // namespace

OpenGlStatus probeOpenGl() {
    const GlAvailability gl = GlReferenceRenderer::probe();
    return {gl.usable, gl.usable ? gl.renderer + " (" + gl.context + ")" : "unusable: " + gl.reason};
}

struct RasterPaths::Impl {
    std::vector<std::unique_ptr<CpuRenderer>> cpus; // a renderer owns its thread pool, so it cannot move
    std::optional<GpuRenderer> gpu;
    std::optional<GlReferenceRenderer> gl;
    std::string gpuWhy, glWhy;
    std::string uploadWhy; // why the scene could not be made resident on the GPU
    const Model* scene = nullptr;
    const RenderSettings settings;

    CpuRenderer& cpu(int threads) {
        for (const std::unique_ptr<CpuRenderer>& c : cpus)
            if (c->threadCount() == threads) return *c;
        throw Error("facet-bench: no CPU renderer of " + std::to_string(threads) + " threads");
    }
};

RasterPaths::RasterPaths(int maxThreads) : impl_(std::make_unique<Impl>()) {
    for (int t = 1; t <= maxThreads; ++t) impl_->cpus.push_back(std::make_unique<CpuRenderer>(t));
    tryMake(impl_->gpu, impl_->gpuWhy);
    tryMake(impl_->gl, impl_->glWhy);
}

RasterPaths::~RasterPaths() = default;

std::vector<RasterPath> RasterPaths::paths() const {
    std::vector<RasterPath> all;
    for (const std::unique_ptr<CpuRenderer>& cpu : impl_->cpus)
        all.push_back({RasterPathKind::Cpu, cpu->threadCount()});
    all.push_back({RasterPathKind::Gpu, 0});
    all.push_back({RasterPathKind::OpenGl, 0});
    return all;
}

void RasterPaths::setScene(const Model& model) {
    impl_->scene = &model;
    impl_->uploadWhy.clear();
    if (!impl_->gpu) return;
    try {
        impl_->gpu->upload(model);
    } catch (const std::exception& e) {
        impl_->uploadWhy = reasonOf(e);
    }
}

std::string RasterPaths::whyAbsent(const RasterPath& path) const {
    switch (path.kind) {
    case RasterPathKind::Cpu: return {};
    case RasterPathKind::Gpu: return impl_->gpu ? impl_->uploadWhy : impl_->gpuWhy;
    case RasterPathKind::OpenGl: return impl_->gl ? std::string() : "OpenGL is unusable: " + impl_->glWhy;
    }
    return {};
}

std::string RasterPaths::howMeasured(const RasterPath& path) const {
    switch (path.kind) {
    case RasterPathKind::Cpu: return {};
    case RasterPathKind::Gpu: return "frame copied to the host";
    case RasterPathKind::OpenGl: return impl_->gl ? impl_->gl->rendererName() + ", read back" : std::string();
    }
    return {};
}

FrameSample RasterPaths::renderFrame(const RasterPath& path, const ViewParams& view, const FrameView& target) {
    Impl& im = *impl_;
    if (!im.scene) throw Error("facet-bench: a frame asked for before its scene");
    if (const std::string why = whyAbsent(path); !why.empty())
        throw Error("facet-bench: a frame asked of an absent path: " + why);
    CpuRenderer* cpu = path.kind == RasterPathKind::Cpu ? &im.cpu(path.threads) : nullptr;
    FrameSample sample;
    const auto t0 = std::chrono::steady_clock::now();
    switch (path.kind) {
    case RasterPathKind::Cpu: sample.stages = stageTimes(cpu->render(*im.scene, view, im.settings, target)); break;
    case RasterPathKind::Gpu: sample.stages = stageTimes(im.gpu->renderToHost(view, im.settings, target)); break;
    case RasterPathKind::OpenGl: im.gl->render(*im.scene, view, im.settings, target); break;
    }
    sample.frameMs = msSince(t0);
    return sample;
}

} // namespace facet::bench
