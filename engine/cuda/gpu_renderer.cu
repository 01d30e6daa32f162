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

// One scene mesh resident in device memory: its arrays, its textures, and its view of them.
struct ResidentMesh {
    DeviceBuffer<float> px, py, pz, u, v, nx, ny, nz, cr, cg, cb;
    DeviceBuffer<float> tx, ty, tz, tw; // tangents, for normal mapping
    DeviceBuffer<std::uint32_t> indices;
    DeviceBuffer<MaterialRange> ranges;
    std::vector<DeviceBuffer<std::uint32_t>> texels;
    std::vector<DeviceBuffer<MipLevel>> levels;
    MeshView view;

    // Queues the copies of `model` on `stream`; the caller waits for them.
    void upload(const Model& model, cudaStream_t stream);
};

struct GpuRenderer::Impl {
    explicit Impl(int d) : device(d) {}

    CurrentDevice device;
    std::string deviceName;
    CudaStream stream;
    DeviceExec exec{stream.get()};
    KernelPipeline<DeviceExec> pipeline{exec};

    // The resident scene: each mesh once, and every mesh's materials in one table.
    const Scene* scene = nullptr;
    std::vector<ResidentMesh> meshes;
    std::vector<MeshView> meshViews;
    std::vector<std::uint32_t> materialBases;
    DeviceBuffer<ShadeMaterial> materials;

    // The headless renderer's picture, and camera-space positions uploaded from the CPU.
    DeviceBuffer<std::uint32_t> color;
    DeviceBuffer<float> depth;
    DeviceBuffer<float> dx, dy, dz;
    CudaEvent vertexStart, vertexEnd;
    CurrentDevice releasedOn{device.index}; // destroyed first: the members above are freed on the device

    void upload(const Scene& scene);

    CameraSpacePositions uploadPositions(const CameraSpacePositions& host, std::size_t vertices) {
        if (!host.dx) return {};
        const std::size_t bytes = vertices * sizeof(float);
        dx.ensure(vertices);
        dy.ensure(vertices);
        dz.ensure(vertices);
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

void GpuRenderer::setScene(const Scene& scene) {
    validateScene(scene);
    Impl& g = current();
    g.scene = nullptr; // nothing is drawn from buffers an upload failed half way through
    try {
        g.upload(scene);
    } catch (...) {
        // Copies queued before the failure may still read host memory about to be released.
        cudaStreamSynchronize(g.stream.get());
        cudaGetLastError(); // the failure is being reported; keep later checks clean
        throw;
    }
}

void ResidentMesh::upload(const Model& model, cudaStream_t stream) {
    const Mesh& m = model.mesh;
    const std::size_t n = m.vertexCount();
    view = meshView(m); // host pointers, replaced by their device copies below
    const auto copy = [&](DeviceBuffer<float>& to, const std::vector<float>& from, const float*& at) {
        to.upload(from.data(), n, stream);
        at = to.data();
    };
    copy(px, m.px, view.px);
    copy(py, m.py, view.py);
    copy(pz, m.pz, view.pz);
    if (view.u) {
        copy(u, m.u, view.u);
        copy(v, m.v, view.v);
    }
    if (view.nx) {
        copy(nx, m.nx, view.nx);
        copy(ny, m.ny, view.ny);
        copy(nz, m.nz, view.nz);
    }
    if (view.cr) { // vertex colours, channel by channel
        copy(cr, m.cr, view.cr);
        copy(cg, m.cg, view.cg);
        copy(cb, m.cb, view.cb);
    }
    if (view.tx) { // tangents and handedness, likewise
        copy(tx, m.tx, view.tx);
        copy(ty, m.ty, view.ty);
        copy(tz, m.tz, view.tz);
        copy(tw, m.tw, view.tw);
    }
    indices.upload(m.indices.data(), m.indices.size(), stream);
    ranges.upload(m.ranges.data(), m.ranges.size(), stream);
    view.indices = indices.data();
    view.ranges = ranges.data();
    texels.clear();
    levels.clear();
    texels.resize(model.textures.size());
    levels.resize(model.textures.size());
    for (std::size_t i = 0; i < model.textures.size(); ++i) {
        texels[i].upload(model.textures[i].texels.data(), model.textures[i].texels.size(), stream);
        levels[i].upload(model.textures[i].levels.data(), model.textures[i].levels.size(), stream);
    }
}

// Every copy is queued on the renderer's stream (ordered before the frames that read it) and
// waited for once, at the end.
void GpuRenderer::Impl::upload(const Scene& s) {
    meshes.clear();
    meshes.resize(s.meshes.size());
    meshViews.clear();
    SceneMaterials table = shadeMaterials(s);
    for (std::size_t k = 0; k < s.meshes.size(); ++k) {
        const Model& model = *s.meshes[k];
        ResidentMesh& resident = meshes[k];
        resident.upload(model, stream.get());
        meshViews.push_back(resident.view);
        for (std::size_t i = 0; i < model.materials.size(); ++i)
            forEachMap(table.table[table.bases[k] + i], model.materials[i], [&](TextureView& t, std::int32_t index) {
                if (t.levelCount == 0) return;
                t.texels = resident.texels[static_cast<std::size_t>(index)].data();
                t.levels = resident.levels[static_cast<std::size_t>(index)].data();
            });
    }
    materials.upload(table.table.data(), table.table.size(), stream.get());
    // The copies read the models' arrays and the table until here.
    FACET_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    materialBases = std::move(table.bases);
    scene = &s;
}

KernelFrameStats GpuRenderer::render(const ViewParams& view, const FramePlan& plan, const FrameView& deviceTarget,
                                     const CameraSpacePositions& hostPositions) {
    Impl& g = current();
    if (!g.scene) throw Error("no scene to render: call setScene first");
    const FrameInstances frame = frameInstances(*g.scene, g.materialBases, view, plan.planes);
    return g.pipeline.render(g.meshViews, frame, g.materials.data(), view, plan, deviceTarget,
                             g.uploadPositions(hostPositions, std::size_t(frame.vertices)));
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

double GpuRenderer::cameraSpaceToHost(const FrameInstances& frame, float* dx, float* dy, float* dz) {
    Impl& g = current();
    const auto n = std::size_t(frame.vertices);
    g.dx.ensure(n);
    g.dy.ensure(n);
    g.dz.ensure(n);
    FACET_CUDA_CHECK(cudaEventRecord(g.vertexStart.get(), g.stream.get()));
    for (const InstanceDraw& d : frame.draws) { // one launch an instance: a split placement is for measuring
        const MeshView& m = g.meshViews[d.mesh];
        const std::size_t f = d.firstVertex;
        FACET_CUDA_CHECK(launchVertexStage(VertexStageParams{m.px, m.py, m.pz, g.dx.data() + f, g.dy.data() + f,
                                                             g.dz.data() + f, m.vertexCount, d.view},
                                           g.stream.get()));
    }
    FACET_CUDA_CHECK(cudaEventRecord(g.vertexEnd.get(), g.stream.get()));
    const std::size_t bytes = n * sizeof(float);
    if (bytes) {
        FACET_CUDA_CHECK(cudaMemcpyAsync(dx, g.dx.data(), bytes, cudaMemcpyDeviceToHost, g.stream.get()));
        FACET_CUDA_CHECK(cudaMemcpyAsync(dy, g.dy.data(), bytes, cudaMemcpyDeviceToHost, g.stream.get()));
        FACET_CUDA_CHECK(cudaMemcpyAsync(dz, g.dz.data(), bytes, cudaMemcpyDeviceToHost, g.stream.get()));
    }
    FACET_CUDA_CHECK(cudaStreamSynchronize(g.stream.get()));
    float ms = 0.0f;
    FACET_CUDA_CHECK(cudaEventElapsedTime(&ms, g.vertexStart.get(), g.vertexEnd.get()));
    return ms;
}

} // namespace facet
