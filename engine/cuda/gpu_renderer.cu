#include "cuda/gpu_renderer.h"

#include "core/triangle_stage.h"
#include "cuda/device.h"
#include "cuda/device_exec.h"
#include "cuda/kernel_pipeline.h"
#include "shaders_cuda/vertex.h"

#include <vector>

namespace facet {

// Makes `index` the calling thread's current device when constructed and again when
// destroyed: the Impl holds one first and one last, so its stream, events and buffers are
// made and released on its device whichever device the thread had current meanwhile.
struct CurrentDevice {
    int index;
    explicit CurrentDevice(int i) : index(i) { FACET_CUDA_CHECK(cudaSetDevice(index)); }
    CurrentDevice(const CurrentDevice&) = delete;
    CurrentDevice& operator=(const CurrentDevice&) = delete;
    ~CurrentDevice() { cudaSetDevice(index); } // best effort: nobody to tell at teardown
};

struct GpuRenderer::Impl {
    explicit Impl(int d) : device(d) {}

    CurrentDevice device;
    std::string deviceName;
    CudaStream stream;
    DeviceExec exec{stream.get()};
    KernelPipeline<DeviceExec> pipeline{exec};

    // The resident model.
    DeviceBuffer<float> px, py, pz, u, v, nx, ny, nz, cr, cg, cb;
    DeviceBuffer<float> tx, ty, tz, tw; // tangents, for normal mapping
    DeviceBuffer<std::uint32_t> indices;
    DeviceBuffer<MaterialRange> ranges;
    std::vector<DeviceBuffer<std::uint32_t>> texels;
    std::vector<DeviceBuffer<MipLevel>> levels;
    DeviceBuffer<ShadeMaterial> materials;
    MeshView mesh;

    // The headless renderer's picture, and camera-space positions uploaded from the CPU.
    DeviceBuffer<std::uint32_t> color;
    DeviceBuffer<float> depth;
    DeviceBuffer<float> dx, dy, dz;
    CudaEvent vertexStart, vertexEnd;
    CurrentDevice releasedOn{device.index}; // destroyed first: the members above are freed on the device

    void upload(const Model& model);

    CameraSpacePositions uploadPositions(const CameraSpacePositions& host) {
        if (!host.dx) return {};
        const std::size_t bytes = std::size_t(mesh.vertexCount) * sizeof(float);
        dx.ensure(mesh.vertexCount);
        dy.ensure(mesh.vertexCount);
        dz.ensure(mesh.vertexCount);
        FACET_CUDA_CHECK(cudaMemcpyAsync(dx.data(), host.dx, bytes, cudaMemcpyHostToDevice, stream.get()));
        FACET_CUDA_CHECK(cudaMemcpyAsync(dy.data(), host.dy, bytes, cudaMemcpyHostToDevice, stream.get()));
        FACET_CUDA_CHECK(cudaMemcpyAsync(dz.data(), host.dz, bytes, cudaMemcpyHostToDevice, stream.get()));
        return CameraSpacePositions{dx.data(), dy.data(), dz.data()};
    }
};

GpuRenderer::GpuRenderer(int device) {
    const GpuStatus status = probeGpu(device);
    if (!status.usable) throw Error("the GPU is unusable: " + status.reason);
    impl_ = std::make_unique<Impl>(chooseGpuDevice(device));
    impl_->deviceName = status.deviceName;
}

// cudaSetDevice is per host thread: every call makes the renderer's device current first.
GpuRenderer::Impl& GpuRenderer::current() const {
    FACET_CUDA_CHECK(cudaSetDevice(impl_->device.index));
    return *impl_;
}

GpuRenderer::~GpuRenderer() = default;
GpuRenderer::GpuRenderer(GpuRenderer&&) noexcept = default;
GpuRenderer& GpuRenderer::operator=(GpuRenderer&&) noexcept = default;

std::string GpuRenderer::deviceName() const { return impl_->deviceName; }

int GpuRenderer::device() const { return impl_->device.index; }

void* GpuRenderer::stream() const { return impl_->stream.get(); }

void GpuRenderer::setModel(const Model& model) {
    validateMesh(model.mesh, model.materials.size(), model.source);
    Impl& g = current();
    g.mesh = MeshView{}; // nothing is drawn from buffers an upload failed half way through
    try {
        g.upload(model);
    } catch (...) {
        // Copies queued before the failure may still read host memory about to be released.
        cudaStreamSynchronize(g.stream.get());
        cudaGetLastError(); // the failure is being reported; keep later checks clean
        throw;
    }
}

// Every copy is queued on the renderer's stream (ordered before the frames that read it) and
// waited for once, at the end.
void GpuRenderer::Impl::upload(const Model& model) {
    Impl& g = *this;
    const Mesh& m = model.mesh;
    const std::size_t n = m.vertexCount();
    g.px.upload(m.px.data(), n, g.stream.get());
    g.py.upload(m.py.data(), n, g.stream.get());
    g.pz.upload(m.pz.data(), n, g.stream.get());
    MeshView view = meshView(m); // host pointers, replaced by their device copies below
    view.px = g.px.data();
    view.py = g.py.data();
    view.pz = g.pz.data();
    if (view.u) {
        g.u.upload(m.u.data(), n, g.stream.get());
        g.v.upload(m.v.data(), n, g.stream.get());
        view.u = g.u.data();
        view.v = g.v.data();
    }
    if (view.nx) {
        g.nx.upload(m.nx.data(), n, g.stream.get());
        g.ny.upload(m.ny.data(), n, g.stream.get());
        g.nz.upload(m.nz.data(), n, g.stream.get());
        view.nx = g.nx.data();
        view.ny = g.ny.data();
        view.nz = g.nz.data();
    }
    if (view.cr) { // vertex colours, channel by channel
        const std::vector<float>* from[3] = {&m.cr, &m.cg, &m.cb};
        DeviceBuffer<float>* to[3] = {&g.cr, &g.cg, &g.cb};
        const float** at[3] = {&view.cr, &view.cg, &view.cb};
        for (int k = 0; k < 3; ++k) {
            to[k]->upload(from[k]->data(), n, g.stream.get());
            *at[k] = to[k]->data();
        }
    }
    if (view.tx) { // tangents and handedness, likewise
        const std::vector<float>* from[4] = {&m.tx, &m.ty, &m.tz, &m.tw};
        DeviceBuffer<float>* to[4] = {&g.tx, &g.ty, &g.tz, &g.tw};
        const float** at[4] = {&view.tx, &view.ty, &view.tz, &view.tw};
        for (int k = 0; k < 4; ++k) {
            to[k]->upload(from[k]->data(), n, g.stream.get());
            *at[k] = to[k]->data();
        }
    }
    g.indices.upload(m.indices.data(), m.indices.size(), g.stream.get());
    g.ranges.upload(m.ranges.data(), m.ranges.size(), g.stream.get());
    view.indices = g.indices.data();
    view.ranges = g.ranges.data();

    g.texels.clear();
    g.levels.clear();
    g.texels.resize(model.textures.size());
    g.levels.resize(model.textures.size());
    for (std::size_t i = 0; i < model.textures.size(); ++i) {
        g.texels[i].upload(model.textures[i].texels.data(), model.textures[i].texels.size(), g.stream.get());
        g.levels[i].upload(model.textures[i].levels.data(), model.textures[i].levels.size(), g.stream.get());
    }
    std::vector<ShadeMaterial> materials = shadeMaterials(model);
    for (std::size_t i = 0; i < model.materials.size(); ++i)
        forEachMap(materials[i], model.materials[i], [&](TextureView& t, std::int32_t index) {
            if (t.levelCount == 0) return;
            t.texels = g.texels[static_cast<std::size_t>(index)].data();
            t.levels = g.levels[static_cast<std::size_t>(index)].data();
        });
    g.materials.upload(materials.data(), materials.size(), g.stream.get());
    // The copies read the model's arrays and `materials` until here.
    FACET_CUDA_CHECK(cudaStreamSynchronize(g.stream.get()));
    g.mesh = view;
}

KernelFrameStats GpuRenderer::render(const ViewParams& view, const FramePlan& plan, const FrameView& deviceTarget,
                                     const CameraSpacePositions& hostPositions) {
    Impl& g = current();
    return g.pipeline.render(g.mesh, g.materials.data(), view, plan, deviceTarget, g.uploadPositions(hostPositions));
}

KernelFrameStats GpuRenderer::renderColor(const ViewParams& view, const FramePlan& plan, std::uint32_t* deviceColor,
                                          const CameraSpacePositions& hostPositions) {
    Impl& g = current();
    g.depth.ensure(std::size_t(plan.width) * std::size_t(plan.height));
    return render(view, plan, FrameView{deviceColor, g.depth.data(), plan.width, plan.height}, hostPositions);
}

KernelFrameStats GpuRenderer::renderToHost(const ViewParams& view, const FramePlan& plan, const FrameView& hostTarget,
                                           const CameraSpacePositions& hostPositions) {
    Impl& g = current();
    const std::size_t pixels = std::size_t(hostTarget.width > 0 ? hostTarget.width : 0) *
                               std::size_t(hostTarget.height > 0 ? hostTarget.height : 0);
    g.color.ensure(pixels);
    g.depth.ensure(pixels);
    const FrameView device{g.color.data(), g.depth.data(), hostTarget.width, hostTarget.height};
    const KernelFrameStats stats = render(view, plan, device, hostPositions);
    FACET_CUDA_CHECK(cudaMemcpyAsync(hostTarget.color, device.color, pixels * sizeof(std::uint32_t),
                                     cudaMemcpyDeviceToHost, g.stream.get()));
    FACET_CUDA_CHECK(cudaMemcpyAsync(hostTarget.depth, device.depth, pixels * sizeof(float), cudaMemcpyDeviceToHost,
                                     g.stream.get()));
    FACET_CUDA_CHECK(cudaStreamSynchronize(g.stream.get()));
    return stats;
}

double GpuRenderer::cameraSpaceToHost(const ViewParams& view, float* dx, float* dy, float* dz) {
    Impl& g = current();
    const std::uint32_t n = g.mesh.vertexCount;
    g.dx.ensure(n);
    g.dy.ensure(n);
    g.dz.ensure(n);
    FACET_CUDA_CHECK(cudaEventRecord(g.vertexStart.get(), g.stream.get()));
    FACET_CUDA_CHECK(launchVertexStage(
        VertexStageParams{g.mesh.px, g.mesh.py, g.mesh.pz, g.dx.data(), g.dy.data(), g.dz.data(), n, view},
        g.stream.get()));
    FACET_CUDA_CHECK(cudaEventRecord(g.vertexEnd.get(), g.stream.get()));
    const std::size_t bytes = std::size_t(n) * sizeof(float);
    FACET_CUDA_CHECK(cudaMemcpyAsync(dx, g.dx.data(), bytes, cudaMemcpyDeviceToHost, g.stream.get()));
    FACET_CUDA_CHECK(cudaMemcpyAsync(dy, g.dy.data(), bytes, cudaMemcpyDeviceToHost, g.stream.get()));
    FACET_CUDA_CHECK(cudaMemcpyAsync(dz, g.dz.data(), bytes, cudaMemcpyDeviceToHost, g.stream.get()));
    FACET_CUDA_CHECK(cudaStreamSynchronize(g.stream.get()));
    float ms = 0.0f;
    FACET_CUDA_CHECK(cudaEventElapsedTime(&ms, g.vertexStart.get(), g.vertexEnd.get()));
    return ms;
}

} // namespace facet
