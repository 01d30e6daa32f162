// The GPU backend. The vertex kernels' step-by-step and fused forms are checked on the CPU
// (their per-thread functions); everything that needs a device (the GPU's pictures against the
// CPU's, byte for byte, mixed stages, the kernels on the device, the interop round trip) runs
// where one is usable and otherwise reports itself skipped with the probe's reason, or fails
// under FACET_REQUIRE_GPU=1. On a GPU machine, scripts/gpu_check.sh builds and runs them all;
// by hand:
//   FACET_REQUIRE_GPU=1 build/tests/facet_tests --gtest_filter='Gpu*:VertexKernels*'
#include "draw_with.h"
#include "asset/obj_loader.h"
#include "asset/scene.h"
#include "bench/project.h"
#include "bench/project_kernels.h"
#include "core/camera.h"
#include "core/error.h"
#include "core/names.h"
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
#include <glm/gtc/matrix_transform.hpp>

#include <cstring>
#include <iomanip>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
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

// Skipped without a usable GPU, failed instead under FACET_REQUIRE_GPU=1 (scripts/gpu_check.sh),
// where a GPU should be there and a probe failing means the driver or facet's device code broke.
#define FACET_REQUIRE_GPU()                                                                             \
    do {                                                                                               \
        const GpuStatus gpuStatus_ = probeGpu();                                                        \
        if (!gpuStatus_.usable)                                                                         \
            FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_GPU", "no usable GPU: " << gpuStatus_.reason);    \
    } while (0)

using test::Frame;

// Filled with values no renderer writes, each side its own, so a pixel either leaves untouched
// shows as a difference.
Frame gpuFrame(int w, int h) { return Frame(w, h, 0xDEADBEEFu, -7.0f); }
Frame cpuFrame(int w, int h) { return Frame(w, h, 0x12345678u, -3.0f); }

// One scene resident on the GPU and set on the CPU backend (two threads): each frame drawn by
// both, as the front door plans it, must be the same bytes, from the same triangle counts.
class GpuAgainstCpu {
public:
    explicit GpuAgainstCpu(const Scene& scene) : facts_(sceneFacts(scene)) {
        gpu_.setScene(scene);
        cpu_.setScene(scene);
    }

    void expectSame(const ViewParams& view, const RenderSettings& settings, int w, int h, const std::string& what) {
        Frame a = gpuFrame(w, h), b = cpuFrame(w, h);
        const KernelFrameStats gs = gpu_.renderToHost(view, plan(view, settings, w, h), a.view());
        const CpuFrameStats cs = cpu_.render(view, plan(view, settings, w, h), b.view());
        test::expectSameBytes(a, b, what);
        EXPECT_EQ(gs.trianglesIn, cs.trianglesIn) << what;
        EXPECT_EQ(gs.trianglesClipped, cs.trianglesClipped) << what;
        EXPECT_EQ(gs.trianglesCulled, cs.trianglesCulled) << what;
    }

    GpuRenderer& gpu() { return gpu_; }

private:
    FramePlan plan(const ViewParams& view, const RenderSettings& settings, int w, int h) const {
        return planFrame(settings, facts_, view, w, h, gpu_.limits());
    }
    ModelFacts facts_;
    GpuRenderer gpu_;
    CpuRenderer cpu_{2};
};

const Model& defaultScene() {
    static const Model model = loadObj(test::sourceDir() / "assets/default_scene/scene.obj");
    return model;
}

// facet-scenegen --scene materials: glossy, bump-mapped, cut-out, vertex-coloured, emissive and
// transparent (blended) materials.
const Model& materialScene() {
    static const Model model = loadObj(test::sourceDir() / "assets/material_scene/scene.obj");
    return model;
}

ViewParams framing(const Model& model, int w, int h) {
    const float aspect = float(w) / float(h);
    return Camera::framing(model.mesh, aspect).view(aspect);
}

// The lit model under every light it has: the default rig and a second, blue sun from the left.
RenderSettings litWithTwoSuns(TextureFilter filter) {
    RenderSettings s;
    s.shading = ShadingModel::Lit;
    s.filter = filter;
    s.lights.directional[1] = DirectionalLight{{-1.0f, 0.2f, 0.3f}, {0.3f, 0.4f, 1.0f}, 0.4f};
    return s;
}

RenderSettings classicWithHeadlight(TextureFilter filter) {
    RenderSettings s = test::classicSettings();
    s.filter = filter;
    s.headlight = true;
    return s;
}

// The default scene under both shading models and every filter, at a size of whole tiles and an
// odd one, framed and from a low camera (near-plane clipping); and the same frame twice, the
// same bytes (deterministic, whatever order the atomics land in).
TEST(Gpu, DefaultScenePictureEqualsTheCpu) {
    FACET_REQUIRE_GPU();
    const Model& model = defaultScene();
    const Scene scene = sceneOf(model);
    GpuAgainstCpu both(scene);
    for (const TextureFilter filter : {TextureFilter::Nearest, TextureFilter::Bilinear, TextureFilter::Trilinear})
        for (const RenderSettings& settings : {classicWithHeadlight(filter), litWithTwoSuns(filter)})
            for (const auto& [w, h] : {std::pair{1280, 720}, std::pair{321, 241}})
                for (const bool low : {false, true}) {
                    const float aspect = float(w) / float(h);
                    const ViewParams view = test::sceneCamera(model.mesh, aspect, low).view(aspect);
                    std::ostringstream what;
                    what << w << "x" << h << ", " << nameOf(settings.shading) << ", " << nameOf(filter)
                         << (low ? ", low view" : "");
                    both.expectSame(view, settings, w, h, what.str());
                }
    const ViewParams view = framing(model, 640, 360);
    const RenderSettings settings = litWithTwoSuns(TextureFilter::Trilinear);
    Frame a = gpuFrame(640, 360), b = cpuFrame(640, 360);
    both.gpu().renderToHost(view, test::planFor(model, view, settings, a.view()), a.view());
    both.gpu().renderToHost(view, test::planFor(model, view, settings, b.view()), b.view());
    test::expectSameBytes(a, b, "the same frame twice");
}

// The material scene lit (cut-outs, the blended pane's tiles drawn forward, the bump-mapped
// floor), framed and from low over the floor (clipped triangles, whose tangents the clipper
// interpolates), as LitShading.MaterialScene*OnEveryPath draws it through the CPU-run kernels.
TEST(Gpu, MaterialScenePictureEqualsTheCpu) {
    FACET_REQUIRE_GPU();
    const Model& model = materialScene();
    const Scene scene = sceneOf(model);
    GpuAgainstCpu both(scene);
    for (const TextureFilter filter : {TextureFilter::Nearest, TextureFilter::Bilinear, TextureFilter::Trilinear})
        for (const auto& [w, h] : {std::pair{480, 300}, std::pair{257, 199}})
            for (const bool low : {false, true}) {
                const float aspect = float(w) / float(h);
                const ViewParams view = test::sceneCamera(model.mesh, aspect, low).view(aspect);
                std::ostringstream what;
                what << "material scene, " << w << "x" << h << ", " << nameOf(filter) << (low ? ", low view" : "");
                both.expectSame(view, litWithTwoSuns(filter), w, h, what.str());
            }
}

// Multisampled frames (their own raster kernel, walking in order): the material scene lit at 2,
// 4 and 8 samples, with and without alpha-to-coverage (its cut-out foliage kept per sample by its
// alpha), and the default scene's classic look at 4 (LitMultisample.KernelsEqualTheCpuOnTheMaterialScene,
// Multisample.KernelsEqualTheCpuAtEverySampleCount).
TEST(Gpu, MultisampledPicturesEqualTheCpu) {
    FACET_REQUIRE_GPU();
    {
        const Scene scene = sceneOf(materialScene());
        GpuAgainstCpu both(scene);
        const ViewParams view = framing(materialScene(), 320, 201);
        for (const int samples : {2, 4, 8})
            for (const bool toCoverage : {false, true}) {
                RenderSettings s = litWithTwoSuns(TextureFilter::Trilinear);
                s.msaa = samples;
                s.alphaToCoverage = toCoverage;
                both.expectSame(view, s, 320, 201,
                                "material scene, msaa " + std::to_string(samples) +
                                    (toCoverage ? ", alpha-to-coverage" : ""));
            }
    }
    const Scene scene = sceneOf(defaultScene());
    GpuAgainstCpu both(scene);
    RenderSettings s = classicWithHeadlight(TextureFilter::Trilinear);
    s.msaa = 4;
    for (const bool low : {false, true}) {
        const ViewParams view = test::sceneCamera(defaultScene().mesh, 400.0f / 300.0f, low).view(400.0f / 300.0f);
        both.expectSame(view, s, 400, 300, std::string("default scene, classic, msaa 4") + (low ? ", low view" : ""));
    }
}

// Every view (core/names.h's View), on the default scene from inside it at an odd size (fanned
// clipped triangles: the triangles view keeps their mesh index) under both shading models, and
// on the material scene lit, whose blended tiles the shaded views draw forward
// (Views.KernelsDrawEveryViewAsTheCpu).
TEST(Gpu, EveryViewEqualsTheCpu) {
    FACET_REQUIRE_GPU();
    const Camera inside = test::insideDefaultScene();
    const Scene defaultOne = sceneOf(defaultScene()), materialOne = sceneOf(materialScene());
    GpuAgainstCpu onDefault(defaultOne), onMaterials(materialOne);
    for (std::size_t i = 0; i < nameCount<View>(); ++i) {
        const View v = valueAt<View>(i);
        for (RenderSettings s : {classicWithHeadlight(TextureFilter::Trilinear), litWithTwoSuns(TextureFilter::Trilinear)}) {
            s.view = v;
            onDefault.expectSame(inside.view(333.0f / 201.0f), s, 333, 201,
                                 std::string("default scene, inside, ") + nameOf(s.shading) + ", view " + nameOf(v));
        }
        RenderSettings s = litWithTwoSuns(TextureFilter::Trilinear);
        s.view = v;
        onMaterials.expectSame(framing(materialScene(), 320, 200), s, 320, 200,
                               std::string("material scene, lit, view ") + nameOf(v));
    }
}

// Several meshes at poses (scene_test.cpp's posedScene): the default scene as it is, the material
// scene turned, shrunk and moved, again mirrored in x (its winding turned round), and stretched
// along one axis; classic, lit, and lit at 4 samples with alpha-to-coverage.
TEST(Gpu, PosedInstancesEqualTheCpu) {
    FACET_REQUIRE_GPU();
    const auto shared = [](const Model& m) { return std::shared_ptr<const Model>(&m, [](const Model*) {}); };
    Scene scene;
    const std::uint32_t a = scene.addMesh(shared(defaultScene()));
    const std::uint32_t b = scene.addMesh(shared(materialScene()));
    scene.add(a, glm::mat4(1.0f), "default");
    const glm::mat4 turned = glm::rotate(glm::translate(glm::mat4(1.0f), {12.0f, 0.0f, 0.0f}), 0.7f, {0.0f, 1.0f, 0.0f});
    scene.add(b, glm::scale(turned, glm::vec3(0.6f)), "turned");
    scene.add(b, glm::scale(glm::translate(glm::mat4(1.0f), {-12.0f, 0.0f, 0.0f}), {-0.6f, 0.6f, 0.6f}), "mirrored");
    scene.add(b, glm::scale(glm::translate(glm::mat4(1.0f), {0.0f, 1.0f, -14.0f}), {1.0f, 0.5f, 0.4f}), "stretched");
    GpuAgainstCpu both(scene);
    const ViewParams view = sceneFraming(scene, 320.0f / 200.0f).view(320.0f / 200.0f);
    RenderSettings culled = classicWithHeadlight(TextureFilter::Trilinear);
    culled.cull = CullMode::Back;
    RenderSettings multisampled = litWithTwoSuns(TextureFilter::Trilinear);
    multisampled.msaa = 4;
    multisampled.alphaToCoverage = true;
    both.expectSame(view, classicWithHeadlight(TextureFilter::Trilinear), 320, 200, "posed instances, classic");
    both.expectSame(view, culled, 320, 200, "posed instances, classic, back faces culled");
    both.expectSame(view, litWithTwoSuns(TextureFilter::Trilinear), 320, 200, "posed instances, lit");
    both.expectSame(view, multisampled, 320, 200, "posed instances, lit, msaa 4, alpha-to-coverage");
}

TEST(Gpu, MixedStagesEqualTheCpu) {
    FACET_REQUIRE_GPU();
    const Model& model = defaultScene();
    GpuRenderer gpu;
    const Scene scene = sceneOf(model);
    gpu.setScene(scene);
    CpuRenderer cpu(2);
    const ViewParams view = Camera::framing(model.mesh, 2.0f).view(2.0f);
    const std::size_t n = model.mesh.vertexCount();
    std::vector<float> dx(n), dy(n), dz(n);
    Frame reference = cpuFrame(400, 200), gpuVertex = cpuFrame(400, 200), cpuVertex = gpuFrame(400, 200);
    test::drawWith(cpu, model, view, RenderSettings{}, reference.view());
    const FrameInstances frame = frameInstances(scene, {0}, view, makeClipPlanes(view, 400, 200));
    gpu.cameraSpaceToHost(frame, dx.data(), dy.data(), dz.data());
    test::drawWith(cpu, model, view, RenderSettings{}, gpuVertex.view(), CameraSpacePositions{dx.data(), dy.data(), dz.data()});
    test::expectSameBytes(gpuVertex, reference, "vertex gpu, raster cpu");
    transformVertices(model.mesh, view, 0, n, dx.data(), dy.data(), dz.data());
    gpu.renderToHost(view, test::planFor(model, view, RenderSettings{}, cpuVertex.view()), cpuVertex.view(),
                     CameraSpacePositions{dx.data(), dy.data(), dz.data()});
    test::expectSameBytes(cpuVertex, reference, "vertex cpu, raster gpu");
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
    // A skip even under FACET_REQUIRE_GPU=1: the GPU is there (checked above), but a headless
    // GPU machine's context is Mesa's (Xvfb, EGL), which no CUDA device drives.
    if (devices.empty())
        GTEST_SKIP() << "no CUDA device drives the OpenGL context (cudaGLGetDevices found none; Mesa's, say), "
                        "so its buffers cannot be registered";
    const Model& model = defaultScene();
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
