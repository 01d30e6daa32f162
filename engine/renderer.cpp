#include "renderer.h"

#include "core/error.h"
#include "cpu/cpu_renderer.h"
#include "cuda/device.h"
#include "cuda/gpu_renderer.h"
#include "gl/gl_reference.h"
#include "host/line_aligned.h"
#if defined(FACET_HAVE_KERNELS_HOST)
#include "cuda/host_kernel_renderer.h"
#endif

#include <chrono>
#include <new>
#include <vector>

namespace facet {

namespace {

// What a frame of `scene` says besides its stats: that nothing was there to draw.
std::string sceneNote(const Scene& scene) {
    for (const Instance& i : scene.instances)
        if (i.visible) return {};
    return scene.instances.empty() ? "the scene is empty: only the background is drawn"
                                   : "every instance of the scene is hidden: only the background is drawn";
}

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// What every backend counts; Stats is CpuFrameStats or KernelFrameStats.
template <class Stats>
FrameStats commonStats(const Stats& s) {
    FrameStats f;
    f.trianglesIn = s.trianglesIn;
    f.trianglesClipped = s.trianglesClipped;
    f.trianglesCulled = s.trianglesCulled;
    f.vertexMs = s.vertexMs;
    f.triangleMs = s.triangleMs;
    f.rasterMs = s.rasterMs;
    return f;
}

FrameStats fromKernels(const KernelFrameStats& k) {
    FrameStats s = commonStats(k);
    s.trianglesDrawn = k.trianglesDrawn;
    return s;
}

FrameStats fromCpu(const CpuFrameStats& c) {
    FrameStats s = commonStats(c);
    s.fragments = c.fragmentsShaded;
    return s;
}

// The whole-frame backends take no per-stage placement.
void refuseStageOptions(const RendererOptions& o) {
    if (o.vertex || o.raster)
        throw Error(std::string("where the vertex and raster stages run is chosen for the cpu and gpu backends only, "
                                "not for ") +
                    nameOf(o.backend));
}

} // namespace

BackendStatus probeBackend(Backend backend) {
    switch (backend) {
    case Backend::Gpu: {
        const GpuStatus gpu = probeGpu(-1);
        return {gpu.usable, gpu.reason, gpu.deviceName};
    }
    case Backend::Gl: {
        const GlAvailability gl = GlReferenceRenderer::probe();
        return {gl.usable, gl.reason, gl.usable ? gl.renderer + " (" + gl.context + ")" : std::string()};
    }
    case Backend::Kernels:
#if defined(FACET_HAVE_KERNELS_HOST)
        return {true, {}, {}};
#else
        return {false, "this build has no CPU-run CUDA kernels (the CUDA toolkit's CCCL headers were not found)", {}};
#endif
    default: return {true, {}, {}};
    }
}

std::vector<std::string> describeGpus() {
    std::vector<std::string> lines;
    for (const GpuDeviceInfo& d : listGpuDevices())
        lines.push_back(std::to_string(d.index) + ": " + d.name + " (compute " + std::to_string(d.computeMajor) + "." +
                        std::to_string(d.computeMinor) + ", " + std::to_string(d.memoryBytes >> 20) + " MiB)");
    if (lines.empty()) lines.push_back("none: " + probeGpu(0).reason);
    return lines;
}

std::string Placement::describe() const {
    if (!pipeline()) return backend == Backend::Kernels ? "kernels on the CPU" : nameOf(backend);
    return std::string("vertex ") + nameOf(vertex) + ", raster " + nameOf(raster);
}

struct Renderer::Impl {
    RendererOptions options;
    Placement placement;
    std::string gpuUnavailable; // empty while GPU stages can be chosen
    bool fallBack = false;      // Auto: a GPU that fails at set-up or upload gives way to the CPU
    Scene ownScene;             // setModel's one-instance scene
    const Scene* scene = nullptr; // what is drawn: ownScene, or setScene's
    std::vector<std::uint32_t> materialBases; // each mesh's first material in the scene's table
    ModelFacts facts;      // the scene's, for each frame's plan
    BackendLimits limits;  // what the frame plan may ask of the backends (the GL reference's, where it draws)
    std::unique_ptr<CpuRenderer> cpu;
    std::unique_ptr<GpuRenderer> gpu;
    std::unique_ptr<GlReferenceRenderer> gl;
#if defined(FACET_HAVE_KERNELS_HOST)
    std::unique_ptr<HostKernelRenderer> kernels;
#endif
    std::vector<float> dx, dy, dz; // camera-space positions handed between CPU and GPU
    LineAlignedVector<float> depth; // the depth buffer where the caller keeps none
    // cpuOutputs' frame, whose picture is dropped: kept from frame to frame, as `depth` is.
    std::vector<std::uint32_t> outputsColor;
    std::vector<float> outputsDepth;

    explicit Impl(const RendererOptions& o) : options(o) {}

    void resolve();
    void resolvePipeline();
    void makeGpu();
    void updateBackend() {
        if (placement.pipeline())
            placement.backend =
                placement.vertex == Side::Gpu || placement.raster == Side::Gpu ? Backend::Gpu : Backend::Cpu;
    }
    // The CPU backend, made when first needed, with the model.
    CpuRenderer& cpuRenderer() {
        if (!cpu) {
            auto made = std::make_unique<CpuRenderer>(options.threads);
            if (scene) made->setScene(*scene);
            cpu = std::move(made);
        }
        return *cpu;
    }
    void uploadToGpu();
    void moveToCpu(const std::string& note, const std::string& why);
    // The frame's plan: its settings checked against what the drawing backend can honour.
    FramePlan planFrameFor(const ViewParams& view, const RenderSettings& settings, int width, int height,
                           const FrameOutputs& outputs = {}) const {
        return planFrame(settings, facts, view, width, height, limits, outputs);
    }
    FrameStats renderHost(const ViewParams& view, const FramePlan& plan, const FrameView& target,
                          const FrameOutputs& outputs = {});
    // This frame on the CPU, where it is beyond what the GPU pipeline can draw (LimitError): the
    // GPU stays in use for the next frames, and the frame's note says why.
    FrameStats cpuFrameForLimit(const ViewParams& view, const FramePlan& plan, const FrameView& target,
                                const FrameOutputs& outputs, const LimitError& why);
    std::string frameNote; // what this frame's stats add to the scene's note (cpuFrameForLimit)
    // The frame's note: the scene's (empty, all hidden) and this frame's own; frameNote is then
    // cleared for the next frame.
    std::string takeNotes() {
        std::string note = sceneNote(*scene);
        if (!frameNote.empty()) note += (note.empty() ? "" : "; ") + frameNote;
        frameNote.clear();
        return note;
    }
    FrameStats renderPipeline(const ViewParams& view, const FramePlan& plan, const FrameView& target,
                              const FrameOutputs& outputs);
    void cpuOutputs(const ViewParams& view, const FramePlan& plan, const FrameOutputs& outputs);
    FrameStats renderDisplay(const ViewParams& view, const FramePlan& plan, DisplayTarget& target);
    // draw(frame) into the display's buffer mapped for the host, unmapped after, whatever happens.
    template <class Draw> FrameStats drawMappedHost(DisplayTarget& target, Draw&& draw);
    FrameStats renderInterop(const ViewParams& view, const FramePlan& plan, DisplayTarget& target);
    CameraSpacePositions cpuVertexStage(const ViewParams& view, const FramePlan& plan, double& ms);
    CameraSpacePositions gpuVertexStage(const ViewParams& view, const FramePlan& plan, double& ms);
    float* depthFor(const FrameView& target);
};

void Renderer::Impl::resolve() {
    if (options.threads > 0 && options.backend == Backend::Gl)
        throw Error("the OpenGL reference renderer does not run on facet's CPU threads (threads = " +
                    std::to_string(options.threads) + ")");
    switch (options.backend) {
    case Backend::Gl:
        refuseStageOptions(options);
        placement.backend = Backend::Gl;
        gl = std::make_unique<GlReferenceRenderer>();
        limits = gl->limits();
        return;
    case Backend::Kernels:
        refuseStageOptions(options);
        placement.backend = Backend::Kernels;
#if defined(FACET_HAVE_KERNELS_HOST)
        kernels = std::make_unique<HostKernelRenderer>(options.threads);
        return;
#else
        throw Error("this build has no CPU-run CUDA kernels (the CUDA toolkit's CCCL headers were not found when it "
                    "was configured)");
#endif
    default: resolvePipeline();
    }
}

void Renderer::Impl::resolvePipeline() {
    const GpuStatus status = probeGpu(options.device);
    gpuUnavailable = status.usable ? std::string() : status.reason;
    Side base = options.backend == Backend::Gpu ? Side::Gpu : Side::Cpu;
    if (options.backend == Backend::Auto) {
        base = status.usable ? Side::Gpu : Side::Cpu;
        if (!status.usable) placement.note = "rendering on the CPU: " + status.reason;
        // Only a GPU Auto chose by itself gives way quietly; one asked for by name fails aloud.
        fallBack = status.usable && !options.vertex && !options.raster;
    }
    placement.vertex = options.vertex.value_or(base);
    placement.raster = options.raster.value_or(base);
    placement.backend = Backend::Cpu;
    updateBackend();
    if (placement.backend != Backend::Gpu) return;
    if (!status.usable) throw Error("the GPU is unusable: " + status.reason);
    try {
        makeGpu();
    } catch (const Error& e) {
        if (!fallBack) throw;
        moveToCpu("rendering on the CPU: ", e.what());
    }
}

// Every stage on the CPU from now on: the placement's note is `note` followed by `why`, the
// GPU's fault, which also says why GPU stages cannot be chosen again.
void Renderer::Impl::moveToCpu(const std::string& note, const std::string& why) {
    gpu.reset();
    gpuUnavailable = why;
    if (!placement.pipeline()) return;
    placement.vertex = placement.raster = Side::Cpu;
    updateBackend();
    placement.note = note + why;
}

void Renderer::Impl::makeGpu() {
    gpu = std::make_unique<GpuRenderer>(options.device);
    if (scene) gpu->setScene(*scene);
}

void Renderer::Impl::uploadToGpu() {
    try {
        gpu->setScene(*scene);
    } catch (const Error& e) {
        if (!fallBack) throw;
        moveToCpu("rendering on the CPU: uploading the model failed: ", e.what());
    }
}

float* Renderer::Impl::depthFor(const FrameView& target) {
    if (target.depth) return target.depth;
    const std::size_t pixels = std::size_t(target.width > 0 ? target.width : 0) *
                               std::size_t(target.height > 0 ? target.height : 0);
    try {
        depth.resize(pixels);
    } catch (const std::bad_alloc&) {
        throw Error("not enough memory for a " + std::to_string(target.width) + "x" + std::to_string(target.height) +
                    " depth buffer");
    }
    return depth.data();
}

// The vertex stage on one side for the raster stage on the other: each drawn instance's
// camera-space positions where frameInstances places them, as the raster side lays them out.
CameraSpacePositions Renderer::Impl::cpuVertexStage(const ViewParams& view, const FramePlan& plan, double& ms) {
    const auto start = Clock::now();
    const FrameInstances frame = frameInstances(*scene, materialBases, view, plan.planes);
    const auto n = std::size_t(frame.vertices);
    dx.resize(n);
    dy.resize(n);
    dz.resize(n);
    for (const InstanceDraw& d : frame.draws) {
        const Mesh& mesh = scene->meshes[d.mesh]->mesh;
        transformVertices(mesh, d.view, 0, mesh.vertexCount(), dx.data() + d.firstVertex, dy.data() + d.firstVertex,
                          dz.data() + d.firstVertex);
    }
    ms = millisecondsSince(start);
    return CameraSpacePositions{dx.data(), dy.data(), dz.data()};
}

CameraSpacePositions Renderer::Impl::gpuVertexStage(const ViewParams& view, const FramePlan& plan, double& ms) {
    const FrameInstances frame = frameInstances(*scene, materialBases, view, plan.planes);
    const auto n = std::size_t(frame.vertices);
    dx.resize(n);
    dy.resize(n);
    dz.resize(n);
    ms = gpu->cameraSpaceToHost(frame, dx.data(), dy.data(), dz.data());
    return CameraSpacePositions{dx.data(), dy.data(), dz.data()};
}

FrameStats Renderer::Impl::renderPipeline(const ViewParams& view, const FramePlan& plan, const FrameView& target,
                                          const FrameOutputs& outputs) {
    double handMs = 0.0;
    FrameStats stats;
    if (placement.raster == Side::Gpu) {
        const CameraSpacePositions given =
            placement.vertex == Side::Cpu ? cpuVertexStage(view, plan, handMs) : CameraSpacePositions{};
        stats = fromKernels(gpu->renderToHost(view, plan, target, given));
        if (outputs.any()) cpuOutputs(view, plan, outputs);
    } else {
        const CameraSpacePositions given =
            placement.vertex == Side::Gpu ? gpuVertexStage(view, plan, handMs) : CameraSpacePositions{};
        stats = fromCpu(cpuRenderer().render(view, plan, target, given, outputs));
    }
    stats.vertexMs += handMs;
    return stats;
}

// The outputs of a frame another backend drew (core/outputs.h): a one-sample frame of the CPU
// backend, whose picture is dropped. Its outputs are those the CPU's own frames give, so they
// are the same from every backend.
void Renderer::Impl::cpuOutputs(const ViewParams& view, const FramePlan& plan, const FrameOutputs& outputs) {
    RenderSettings settings = plan.settings;
    settings.msaa = 1;
    settings.view = View::Shaded;
    const FramePlan own = planFrame(settings, facts, view, plan.width, plan.height, {}, outputs);
    const std::size_t pixels = std::size_t(plan.width) * std::size_t(plan.height);
    outputsColor.resize(pixels);
    outputsDepth.resize(pixels);
    cpuRenderer().render(view, own, FrameView{outputsColor.data(), outputsDepth.data(), plan.width, plan.height}, {},
                         outputs);
}

FrameStats Renderer::Impl::renderHost(const ViewParams& view, const FramePlan& plan, const FrameView& target,
                                      const FrameOutputs& outputs) {
    if (placement.backend == Backend::Gl) {
        gl->render(view, plan, target);
        if (outputs.any()) cpuOutputs(view, plan, outputs);
        return {};
    }
#if defined(FACET_HAVE_KERNELS_HOST)
    if (placement.backend == Backend::Kernels) {
        FrameStats stats = fromKernels(kernels->render(view, plan, target));
        if (outputs.any()) cpuOutputs(view, plan, outputs);
        return stats;
    }
#endif
    if (placement.backend == Backend::Cpu || !fallBack) return renderPipeline(view, plan, target, outputs);
    try {
        return renderPipeline(view, plan, target, outputs);
    } catch (const LimitError& e) {
        return cpuFrameForLimit(view, plan, target, outputs, e);
    } catch (const Error& e) {
        moveToCpu("rendering on the CPU: the GPU failed: ", e.what());
        return renderPipeline(view, plan, target, outputs);
    }
}

// The GPU's raster stage into the display's buffer: mapped through interop where the window's
// context is on the renderer's GPU, else drawn into device memory and copied through the host.
FrameStats Renderer::Impl::renderInterop(const ViewParams& view, const FramePlan& plan, DisplayTarget& target) {
    double handMs = 0.0;
    const CameraSpacePositions given =
        placement.vertex == Side::Cpu ? cpuVertexStage(view, plan, handMs) : CameraSpacePositions{};
    FrameStats stats;
    if (std::uint32_t* device = target.mapDevice(gpu->device(), gpu->stream())) {
        try {
            stats = fromKernels(gpu->renderColor(view, plan, device, given));
        } catch (const LimitError&) {
            target.unmapDevice(); // refused before any kernel ran: the buffer goes back as it was
            throw;
        }
        target.unmapDevice();
    } else {
        const FrameView host{target.mapHost(), nullptr, target.width(), target.height()};
        try {
            stats = fromKernels(
                gpu->renderToHost(view, plan, FrameView{host.color, depthFor(host), host.width, host.height}, given));
        } catch (const LimitError&) {
            target.unmapHost();
            throw;
        }
        target.unmapHost();
    }
    stats.vertexMs += handMs;
    return stats;
}

FrameStats Renderer::Impl::cpuFrameForLimit(const ViewParams& view, const FramePlan& plan, const FrameView& target,
                                            const FrameOutputs& outputs, const LimitError& why) {
    frameNote = std::string("this frame was drawn on the CPU: ") + why.what();
    return fromCpu(cpuRenderer().render(view, plan, target, {}, outputs));
}

template <class Draw> FrameStats Renderer::Impl::drawMappedHost(DisplayTarget& target, Draw&& draw) {
    const FrameView host{target.mapHost(), nullptr, target.width(), target.height()};
    try {
        const FrameStats stats = draw(FrameView{host.color, depthFor(host), host.width, host.height});
        target.unmapHost();
        return stats;
    } catch (...) {
        target.unmapHost();
        throw;
    }
}

FrameStats Renderer::Impl::renderDisplay(const ViewParams& view, const FramePlan& plan, DisplayTarget& target) {
    if (placement.pipeline() && placement.raster == Side::Gpu) {
        try {
            return renderInterop(view, plan, target);
        } catch (const LimitError& e) {
            return drawMappedHost(target, [&](const FrameView& host) { return cpuFrameForLimit(view, plan, host, {}, e); });
        } catch (const Error& e) {
            // The window must go on: the GPU is dropped, with the reason, and the CPU draws.
            target.abandonDevice();
            moveToCpu("GPU dropped, drawing on the CPU: ", e.what());
        }
    }
    return drawMappedHost(target, [&](const FrameView& host) { return renderHost(view, plan, host); });
}

Renderer::Renderer(const RendererOptions& options) : impl_(std::make_unique<Impl>(options)) { impl_->resolve(); }
Renderer::~Renderer() = default;
Renderer::Renderer(Renderer&&) noexcept = default;
Renderer& Renderer::operator=(Renderer&&) noexcept = default;

const Placement& Renderer::placement() const { return impl_->placement; }
int Renderer::threadCount() const { return impl_->cpuRenderer().threadCount(); }
std::string Renderer::deviceName() const {
    if (impl_->gl) return impl_->gl->rendererName();
    return impl_->gpu && impl_->placement.backend == Backend::Gpu ? impl_->gpu->deviceName() : std::string();
}
const std::string& Renderer::gpuUnavailable() const { return impl_->gpuUnavailable; }

void Renderer::setStages(Side vertex, Side raster) {
    Impl& r = *impl_;
    if (!r.placement.pipeline())
        throw Error(std::string("stages cannot be moved on the ") + nameOf(r.placement.backend) + " backend");
    if ((vertex == Side::Gpu || raster == Side::Gpu) && !r.gpu) {
        if (!r.gpuUnavailable.empty()) throw Error("the GPU is unusable: " + r.gpuUnavailable);
        r.makeGpu();
    }
    r.placement.vertex = vertex;
    r.placement.raster = raster;
    r.updateBackend();
}

void Renderer::setThreads(int threads) {
    impl_->options.threads = threads;
    impl_->cpu.reset();
}

void Renderer::dropGpu(const std::string& why) { impl_->moveToCpu("GPU dropped, drawing on the CPU: ", why); }

// Checked here first, so a refused scene leaves the previous one in place; then each backend the
// placement draws with takes it (the CPU backend, where first needed later, when it is made).
void Renderer::setScene(const Scene& scene) {
    Impl& r = *impl_;
    validateScene(scene);
    r.scene = &scene;
    r.facts = sceneFacts(scene);
    r.materialBases = shadeMaterials(scene).bases;
    if (r.gl) r.gl->setScene(scene);
#if defined(FACET_HAVE_KERNELS_HOST)
    if (r.kernels) r.kernels->setScene(scene);
#endif
    if (r.cpu) r.cpu->setScene(scene);
    if (r.gpu) r.uploadToGpu();
}

void Renderer::setModel(const Model& model) {
    Impl& r = *impl_;
    validateMesh(model.mesh, model.materials.size(), model.source);
    r.ownScene = sceneOf(model);
    setScene(r.ownScene);
}

FrameStats Renderer::render(const ViewParams& view, const RenderSettings& settings, const FrameView& target,
                           const FrameOutputs& outputs) {
    if (!impl_->scene) throw Error("nothing to render: call setModel or setScene first");
    const FramePlan plan = impl_->planFrameFor(view, settings, target.width, target.height, outputs);
    if (!target.color) throw Error("render target has no colour buffer");
    const auto start = Clock::now();
    FrameStats stats = impl_->renderHost(
        view, plan, FrameView{target.color, impl_->depthFor(target), target.width, target.height}, outputs);
    stats.frameMs = millisecondsSince(start);
    stats.placement = impl_->placement;
    stats.note = impl_->takeNotes();
    return stats;
}

FrameStats Renderer::render(const ViewParams& view, const RenderSettings& settings, DisplayTarget& target) {
    if (!impl_->scene) throw Error("nothing to render: call setModel or setScene first");
    const FramePlan plan = impl_->planFrameFor(view, settings, target.width(), target.height());
    const auto start = Clock::now();
    FrameStats stats = impl_->renderDisplay(view, plan, target);
    stats.frameMs = millisecondsSince(start);
    stats.placement = impl_->placement;
    stats.note = impl_->takeNotes();
    return stats;
}

} // namespace facet
