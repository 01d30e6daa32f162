#include "bench/raster_paths.h"

#include "bench/records.h"
#include "core/error.h"
#include "renderer.h"

#include <exception>
#include <string>

namespace facet::bench {

namespace {

// An absent path's note is never empty.
std::string reasonOf(const std::exception& e) {
    const std::string why = e.what();
    return why.empty() ? "no reason given" : why;
}

// A renderer for `backend` with `threads`, or the reason it cannot be made.
std::unique_ptr<Renderer> tryMake(Backend backend, int threads, int device, std::string& why) {
    RendererOptions options;
    options.backend = backend;
    options.threads = threads;
    options.device = device;
    try {
        return std::make_unique<Renderer>(options);
    } catch (const std::exception& e) {
        why = reasonOf(e);
        return nullptr;
    }
}

} // namespace

OpenGlStatus probeOpenGl() {
    const BackendStatus gl = probeBackend(Backend::Gl);
    return {gl.usable, gl.usable ? gl.device : "unusable: " + gl.reason};
}

struct RasterPaths::Impl {
    std::vector<std::unique_ptr<Renderer>> cpus; // one per thread count
    std::unique_ptr<Renderer> gpu, gl;
    std::string gpuWhy, glWhy;
    std::string uploadWhy; // why the scene could not be made resident on the GPU
    const Scene* scene = nullptr;

    Renderer& renderer(const RasterPath& path) {
        if (path.kind == RasterPathKind::Gpu) return *gpu;
        if (path.kind == RasterPathKind::OpenGl) return *gl;
        for (const std::unique_ptr<Renderer>& c : cpus)
            if (c->threadCount() == path.threads) return *c;
        throw Error("facet-bench: no CPU renderer of " + std::to_string(path.threads) + " threads");
    }
};

RasterPaths::RasterPaths(int maxThreads, int gpuDevice, RasterPathsWanted wanted)
    : impl_(std::make_unique<Impl>()), wanted_(wanted) {
    std::string unused;
    if (wanted.cpu)
        for (int t = 1; t <= maxThreads; ++t) impl_->cpus.push_back(tryMake(Backend::Cpu, t, -1, unused));
    if (wanted.gpu) impl_->gpu = tryMake(Backend::Gpu, 0, gpuDevice, impl_->gpuWhy);
    if (wanted.gl) impl_->gl = tryMake(Backend::Gl, 0, -1, impl_->glWhy);
}

RasterPaths::~RasterPaths() = default;

std::vector<RasterPath> RasterPaths::paths() const {
    std::vector<RasterPath> all;
    for (const std::unique_ptr<Renderer>& cpu : impl_->cpus) all.push_back({RasterPathKind::Cpu, cpu->threadCount()});
    if (wanted_.gpu) all.push_back({RasterPathKind::Gpu, 0});
    if (wanted_.gl) all.push_back({RasterPathKind::OpenGl, 0});
    return all;
}

void RasterPaths::setScene(const Scene& scene) {
    impl_->scene = &scene;
    impl_->uploadWhy.clear();
    for (const std::unique_ptr<Renderer>& cpu : impl_->cpus) cpu->setScene(scene);
    if (impl_->gl) impl_->gl->setScene(scene);
    if (!impl_->gpu) return;
    try {
        impl_->gpu->setScene(scene);
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
    case RasterPathKind::OpenGl: return impl_->gl ? impl_->gl->deviceName() + ", read back" : std::string();
    }
    return {};
}

FrameSample RasterPaths::renderFrame(const RasterPath& path, const ViewParams& view, const FrameView& target,
                                     int msaa, const FrameOutputs& outputs) {
    Impl& im = *impl_;
    if (!im.scene) throw Error("facet-bench: a frame asked for before its scene");
    if (const std::string why = whyAbsent(path); !why.empty())
        throw Error("facet-bench: a frame asked of an absent path: " + why);
    const FrameStats stats = im.renderer(path).render(view, benchSettings(msaa), target, outputs);
    FrameSample sample;
    sample.frameMs = stats.frameMs;
    if (path.kind != RasterPathKind::OpenGl) sample.stages = StageTimes{stats.vertexMs, stats.triangleMs, stats.rasterMs};
    return sample;
}

RenderSettings benchSettings(int msaa) {
    RenderSettings settings;
    settings.shading = ShadingModel::Classic;
    settings.msaa = msaa;
    return settings;
}

} // namespace facet::bench
