// The GPU backend. The vertex kernels' step-by-step and fused forms are checked on the CPU
// (their per-thread functions); everything that needs a device (the GPU picture against the
// CPU's, mixed stages, the kernels on the device, the interop round trip) runs where one is
// usable and otherwise reports itself skipped with the probe's reason. On a GPU machine:
//   build/tests/facet_tests --gtest_filter='Gpu*:VertexKernels*'
#include "draw_with.h"
#include "asset/obj_loader.h"
#include "bench/project.h"
#include "bench/project_kernels.h"
#include "core/camera.h"
#include "core/error.h"
#include "cpu/cpu_renderer.h"
#include "cuda/device.h"
#include "cuda/gpu_renderer.h"
#include "test_support.h"

#include "display/pixel_buffer.h"
#include "gl/gl_context.h"

#if defined(FACET_HAVE_CUDA)
#include "cuda/device_buffer.h"
#include "display/cuda_interop.h"
#endif

#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <random>
#include <vector>

namespace facet {
namespace {

struct SeedVertices {
    std::vector<float> px, py, pz;
    explicit SeedVertices(std::size_t n) : px(n), py(n), pz(n) {
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> pos(-50.0f, 50.0f);
        for (std::size_t i = 0; i < n; ++i) px[i] = pos(rng), py[i] = pos(rng), pz[i] = pos(rng);
    }
};

glm::mat3 someRotation() {
    Camera camera;
    camera.yawDegrees = 30.0f;
    camera.pitchDegrees = -20.0f;
    return camera.rotation();
}

TEST(VertexKernels, StepByStepEqualsFusedBitForBit) {
    const std::uint32_t n = 1003;
    SeedVertices v(n);
    std::vector<float> fx(n), fy(n), fz(n), sx(n), sy(n), sz(n);
    const glm::vec3 eye(0.5f, -2.0f, 10.0f);
    const glm::mat3 r = someRotation();
    const ProjectParams fused{v.px.data(), v.py.data(), v.pz.data(), fx.data(), fy.data(), fz.data(), n, eye, r, 5.0f};
    for (std::uint32_t i = 0; i < n + 5; ++i) projectThread(fused, i); // past the end: bounds-checked
    const ShiftParams s{v.px.data(), v.py.data(), v.pz.data(), sx.data(), sy.data(), sz.data(), n, eye};
    const RotateParams rot{sx.data(), sy.data(), sz.data(), n, r};
    const DivideParams div{sx.data(), sy.data(), sz.data(), n, 5.0f};
    for (std::uint32_t i = 0; i < n + 5; ++i) shiftThread(s, i);
    for (std::uint32_t i = 0; i < n + 5; ++i) rotateThread(rot, i);
    for (std::uint32_t i = 0; i < n + 5; ++i) divideThread(div, i);
    EXPECT_EQ(std::memcmp(fx.data(), sx.data(), n * 4), 0);
    EXPECT_EQ(std::memcmp(fy.data(), sy.data(), n * 4), 0);
    EXPECT_EQ(std::memcmp(fz.data(), sz.data(), n * 4), 0);
    // And the CPU's vectorised loop computes the same bits.
    std::vector<float> cx(n), cy(n), cz(n);
    projectVertices(ProjectParams{v.px.data(), v.py.data(), v.pz.data(), cx.data(), cy.data(), cz.data(), n, eye, r, 5.0f},
                    0, n);
    EXPECT_EQ(std::memcmp(fx.data(), cx.data(), n * 4), 0);
    EXPECT_EQ(std::memcmp(fy.data(), cy.data(), n * 4), 0);
}

TEST(Gpu, RendererWithoutADeviceSaysWhy) {
    const GpuStatus status = probeGpu();
    if (status.usable) GTEST_SKIP() << "a GPU is usable here (" << status.deviceName << ")";
    try {
        GpuRenderer renderer;
        ADD_FAILURE() << "a GPU renderer was made without a usable GPU";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(status.reason), std::string::npos) << e.what();
    }
}

#define FACET_REQUIRE_GPU()                                                                             \
    do {                                                                                               \
        const GpuStatus gpuStatus_ = probeGpu();                                                        \
        if (!gpuStatus_.usable) GTEST_SKIP() << "no usable GPU: " << gpuStatus_.reason;                 \
    } while (0)

using test::Frame;

// Coverage and depth identical; colour within 1 unit per channel (the device's log2 for the
// mip level may round differently from the host's).
void expectMatchesCpu(const Frame& gpu, const Frame& cpu, const RenderSettings& settings, const std::string& what) {
    std::size_t coverage = 0, depth = 0, colour = 0;
    for (std::size_t i = 0; i < cpu.color.size(); ++i) {
        const bool a = gpu.color[i] != settings.clearColor || gpu.depth[i] != 1.0f;
        const bool b = cpu.color[i] != settings.clearColor || cpu.depth[i] != 1.0f;
        coverage += a != b;
        depth += std::memcmp(&gpu.depth[i], &cpu.depth[i], 4) != 0;
        colour += test::channelDiff(gpu.color[i], cpu.color[i]) > 1;
    }
    EXPECT_EQ(coverage, 0u) << what;
    EXPECT_EQ(depth, 0u) << what;
    EXPECT_EQ(colour, 0u) << what;
}

TEST(Gpu, DefaultScenePictureEqualsTheCpu) {
    FACET_REQUIRE_GPU();
    const Model model = loadObj(test::sourceDir() / "assets/default_scene/scene.obj");
    GpuRenderer gpu;
    const Scene scene = sceneOf(model);
    gpu.setScene(scene);
    CpuRenderer cpu(2);
    for (const TextureFilter filter : {TextureFilter::Nearest, TextureFilter::Bilinear, TextureFilter::Trilinear})
        for (const auto& [w, h] : {std::pair{1280, 720}, std::pair{321, 241}}) {
            RenderSettings settings;
            settings.filter = filter;
            settings.headlight = true;
            const ViewParams view = Camera::framing(model.mesh, float(w) / float(h)).view(float(w) / float(h));
            Frame a(w, h), b(w, h), c(w, h);
            gpu.renderToHost(view, test::planFor(model, view, settings, a.view()), a.view());
            test::drawWith(cpu, model, view, settings, b.view());
            const std::string what = std::to_string(w) + "x" + std::to_string(h) + ", filter " + std::to_string(int(filter));
            expectMatchesCpu(a, b, settings, what);
            // Deterministic: the same frame again gives the same bytes.
            gpu.renderToHost(view, test::planFor(model, view, settings, c.view()), c.view());
            EXPECT_EQ(a.color, c.color) << what;
            EXPECT_EQ(std::memcmp(a.depth.data(), c.depth.data(), a.depth.size() * 4), 0) << what;
        }
}

TEST(Gpu, MixedStagesEqualTheCpu) {
    FACET_REQUIRE_GPU();
    const Model model = loadObj(test::sourceDir() / "assets/default_scene/scene.obj");
    GpuRenderer gpu;
    const Scene scene = sceneOf(model);
    gpu.setScene(scene);
    CpuRenderer cpu(2);
    const ViewParams view = Camera::framing(model.mesh, 2.0f).view(2.0f);
    const std::size_t n = model.mesh.vertexCount();
    std::vector<float> dx(n), dy(n), dz(n);
    Frame reference(400, 200), gpuVertex(400, 200), cpuVertex(400, 200);
    test::drawWith(cpu, model, view, RenderSettings{}, reference.view());
    const FrameInstances frame = frameInstances(scene, {0}, view, makeClipPlanes(view, 400, 200));
    gpu.cameraSpaceToHost(frame, dx.data(), dy.data(), dz.data());
    test::drawWith(cpu, model, view, RenderSettings{}, gpuVertex.view(), CameraSpacePositions{dx.data(), dy.data(), dz.data()});
    EXPECT_EQ(gpuVertex.color, reference.color);
    transformVertices(model.mesh, view, 0, n, dx.data(), dy.data(), dz.data());
    gpu.renderToHost(view, test::planFor(model, view, RenderSettings{}, cpuVertex.view()), cpuVertex.view(),
                     CameraSpacePositions{dx.data(), dy.data(), dz.data()});
    expectMatchesCpu(cpuVertex, reference, RenderSettings{}, "vertex cpu, raster gpu");
}

// An offscreen OpenGL context, or none with the reason in `why`.
std::optional<GlContext> makeGlContext(std::string& why) {
    try {
        return GlContext::create();
    } catch (const Error& e) {
        why = e.what();
        return std::nullopt;
    }
}

// What CUDA-GL interop keys its registration on (no GPU needed): a resize A -> B -> A gives the
// buffer its old name and size back but new storage, which a registration of the old does not
// reach; keyed on name and size, it would be kept, and CUDA would write the replaced storage.
TEST(GpuInterop, EveryReallocationIsANewGeneration) {
    std::string glWhy;
    const std::optional<GlContext> context = makeGlContext(glWhy);
    if (!context) FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_GL", "no OpenGL context: " + glWhy);
    PixelBuffer pbo;
    pbo.resize(300, 200);
    const GLuint name = pbo.name();
    const std::uint64_t first = pbo.generation();
    pbo.resize(300, 200); // the same size: nothing reallocated
    EXPECT_EQ(pbo.generation(), first);
    pbo.resize(150, 100);
    pbo.resize(300, 200);
    EXPECT_EQ(pbo.name(), name);
    EXPECT_EQ(pbo.byteSize(), std::size_t(300) * 200 * 4);
    EXPECT_EQ(pbo.generation(), first + 2);
}

// After a CUDA failure the display gives its buffer up without deleting it (a poisoned context
// may still hold it) and the next resize makes a fresh one: a new name, a new generation.
TEST(GpuInterop, AnAbandonedBufferIsReplacedNotDeleted) {
    std::string glWhy;
    const std::optional<GlContext> context = makeGlContext(glWhy);
    if (!context) FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_GL", "no OpenGL context: " + glWhy);
    PixelBuffer pbo;
    pbo.resize(64, 32);
    const GLuint old = pbo.name();
    const std::uint64_t generation = pbo.generation();
    pbo.abandon();
    EXPECT_EQ(pbo.name(), 0u);
    EXPECT_EQ(pbo.byteSize(), 0u);
    pbo.resize(64, 32);
    EXPECT_NE(pbo.name(), old);
    EXPECT_GT(pbo.generation(), generation);
    EXPECT_EQ(glIsBuffer(old), GL_TRUE) << "the abandoned buffer was deleted";
    glDeleteBuffers(1, &old); // the test's own cleanup: nothing holds it here
}

#if defined(FACET_HAVE_CUDA)

// Where no CUDA device drives the GL context (this machine, Mesa's contexts), registering says
// why with CUDA's reason and leaves nothing registered; releasing and abandoning are safe.
TEST(GpuInterop, WithoutADeviceForTheContextRegisteringSaysWhy) {
    std::string glWhy;
    const std::optional<GlContext> context = makeGlContext(glWhy);
    if (!context) FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_GL", "no OpenGL context: " + glWhy);
    if (!cudaDevicesForCurrentGlContext().empty())
        GTEST_SKIP() << "a CUDA device drives this OpenGL context: Gpu.InteropRoundTrip covers it";
    PixelBuffer pbo;
    pbo.resize(8, 8);
    InteropBuffer interop;
    try {
        interop.attach(pbo);
        ADD_FAILURE() << "a pixel buffer was registered with no CUDA device behind the context";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("cudaGraphicsGLRegisterBuffer"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(interop.attached());
    EXPECT_NO_THROW(interop.release());
    interop.abandon();
    EXPECT_FALSE(interop.attached());
}

TEST(Gpu, VertexKernelVariantsAgreeWithTheCpu) {
    FACET_REQUIRE_GPU();
    const std::uint32_t n = 100003;
    SeedVertices v(n);
    DeviceBuffer<float> px, py, pz, x, y, z, fx, fy, fz;
    px.upload(v.px.data(), n, nullptr); // the legacy default stream, as the launches below
    py.upload(v.py.data(), n, nullptr);
    pz.upload(v.pz.data(), n, nullptr);
    for (DeviceBuffer<float>* b : {&x, &y, &z, &fx, &fy, &fz}) b->ensure(n);
    const glm::vec3 eye(0.0f, 0.0f, 10.0f);
    const glm::mat3 r = someRotation();
    launchProject(ProjectParams{px.data(), py.data(), pz.data(), fx.data(), fy.data(), fz.data(), n, eye, r, 5.0f}, nullptr);
    launchShift(ShiftParams{px.data(), py.data(), pz.data(), x.data(), y.data(), z.data(), n, eye}, nullptr);
    launchRotate(RotateParams{x.data(), y.data(), z.data(), n, r}, nullptr);
    launchDivide(DivideParams{x.data(), y.data(), z.data(), n, 5.0f}, nullptr);
    std::vector<float> a(n), b(n), c(n);
    projectVertices(ProjectParams{v.px.data(), v.py.data(), v.pz.data(), a.data(), b.data(), c.data(), n, eye, r, 5.0f},
                    0, n);
    std::vector<float> gx(n), sx(n);
    FACET_CUDA_CHECK(cudaMemcpy(gx.data(), fx.data(), n * 4, cudaMemcpyDeviceToHost));
    FACET_CUDA_CHECK(cudaMemcpy(sx.data(), x.data(), n * 4, cudaMemcpyDeviceToHost));
    EXPECT_EQ(std::memcmp(gx.data(), a.data(), n * 4), 0) << "fused kernel vs CPU";
    EXPECT_EQ(std::memcmp(sx.data(), a.data(), n * 4), 0) << "three kernels vs CPU";
}

TEST(Gpu, InteropRoundTrip) {
    FACET_REQUIRE_GPU();
    std::string glWhy;
    const std::optional<GlContext> context = makeGlContext(glWhy);
    if (!context) FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_GL", "no OpenGL context: " + glWhy);
    const std::vector<int> devices = cudaDevicesForCurrentGlContext();
    if (devices.empty())
        GTEST_SKIP() << "no CUDA device drives the OpenGL context (cudaGLGetDevices found none; Mesa's, say), "
                        "so its buffers cannot be registered";
    const Model model = loadObj(test::sourceDir() / "assets/default_scene/scene.obj");
    GpuRenderer gpu(devices.front());
    const Scene scene = sceneOf(model);
    gpu.setScene(scene);
    const ViewParams view = Camera::framing(model.mesh, 1.5f).view(1.5f);
    PixelBuffer pbo;
    InteropBuffer interop;
    DeviceBuffer<float> depth;
    for (const auto& [w, h] : {std::pair{300, 200}, std::pair{150, 100}, std::pair{300, 200}}) { // resized twice
        interop.release(); // the rule: no reallocation while registered
        pbo.resize(w, h);
        interop.attach(pbo);
        depth.ensure(std::size_t(w) * h);
        Frame expected(w, h);
        gpu.renderToHost(view, test::planFor(model, view, RenderSettings{}, expected.view()), expected.view());
        {
            MappedInterop mapped(interop, gpu.stream());
            ASSERT_GE(mapped.bytes(), std::size_t(w) * h * 4);
            const FrameView target{mapped.pixels(), depth.data(), w, h};
            gpu.render(view, test::planFor(model, view, RenderSettings{}, target), target);
            mapped.unmap();
        }
        std::vector<std::uint32_t> back(std::size_t(w) * h);
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo.name());
        glGetBufferSubData(GL_PIXEL_UNPACK_BUFFER, 0, GLsizeiptr(back.size() * 4), back.data());
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
        EXPECT_EQ(back, expected.color) << w << "x" << h;
    }
}

#endif

} // namespace
} // namespace facet
