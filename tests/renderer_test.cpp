// The front door (engine/renderer.h): every placement this machine can run draws through the one
// Renderer, the CPU and the CPU-run kernels give the same bytes, the display path gives the host
// path's picture, and placements the machine cannot honour are refused with the reason.
#include "asset/obj_loader.h"
#include "core/camera.h"
#include "core/error.h"
#include "cuda/device.h"
#include "gl/gl_reference.h"
#include "renderer.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace facet {
namespace {

const Model& defaultScene() {
    static const Model model = loadObj(test::sourceDir() / "assets" / "default_scene" / "scene.obj");
    return model;
}

ViewParams sceneView(int width, int height) {
    const float aspect = float(width) / float(height);
    return Camera::framing(defaultScene().mesh, aspect).view(aspect);
}

RenderSettings litTrilinear() {
    RenderSettings s;
    s.headlight = true;
    return s;
}

test::Frame renderWith(const RendererOptions& options, int width, int height, FrameStats* stats = nullptr) {
    Renderer renderer(options);
    renderer.setModel(defaultScene());
    test::Frame frame(width, height, 0x12345678u, -1.0f);
    const FrameStats s = renderer.render(sceneView(width, height), litTrilinear(), frame.view());
    if (stats) *stats = s;
    return frame;
}

RendererOptions on(Backend backend) {
    RendererOptions o;
    o.backend = backend;
    return o;
}

// The display's pixel buffer stood in for by host memory, with no interop (as on a machine
// whose window runs on another GPU than CUDA's).
class HostDisplay : public DisplayTarget {
public:
    HostDisplay(int w, int h) : frame(w, h, 0xDEADBEEFu) {}
    int width() const override { return frame.width; }
    int height() const override { return frame.height; }
    std::uint32_t* mapHost() override {
        ++hostMaps;
        return frame.color.data();
    }
    void unmapHost() override { ++hostUnmaps; }
    std::uint32_t* mapDevice(int, void*) override { return nullptr; }
    void unmapDevice() override {}
    void abandonDevice() noexcept override {}

    test::Frame frame;
    int hostMaps = 0, hostUnmaps = 0;
};

TEST(Renderer, CpuAndCpuRunKernelsDrawTheSameBytes) {
#if !defined(FACET_HAVE_KERNELS_HOST)
    FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_KERNELS", "this build has no CPU-run CUDA kernels (CCCL headers not found at configure time)");
#else
    FrameStats cpuStats, kernelStats;
    const test::Frame cpu = renderWith(on(Backend::Cpu), 161, 91, &cpuStats);
    const test::Frame kernels = renderWith(on(Backend::Kernels), 161, 91, &kernelStats);
    EXPECT_EQ(cpu.color, kernels.color);
    EXPECT_EQ(std::memcmp(cpu.depth.data(), kernels.depth.data(), cpu.depth.size() * sizeof(float)), 0);
    EXPECT_EQ(cpuStats.placement.backend, Backend::Cpu);
    EXPECT_EQ(kernelStats.placement.backend, Backend::Kernels);
    EXPECT_EQ(cpuStats.trianglesIn, defaultScene().mesh.triangleCount());
    EXPECT_EQ(kernelStats.trianglesIn, cpuStats.trianglesIn);
    EXPECT_EQ(kernelStats.trianglesCulled, cpuStats.trianglesCulled);
    EXPECT_GT(cpuStats.fragments, 0u);
    EXPECT_GT(kernelStats.trianglesDrawn, 0u);
    EXPECT_GT(cpuStats.frameMs, 0.0);
#endif
}

TEST(Renderer, AutoWithoutAGpuDrawsOnTheCpuAndSaysWhy) {
    const GpuStatus gpu = probeGpu();
    FrameStats stats;
    const test::Frame picture = renderWith(on(Backend::Auto), 96, 54, &stats);
    if (gpu.usable) {
        EXPECT_EQ(stats.placement.backend, Backend::Gpu);
        EXPECT_EQ(stats.placement.raster, Side::Gpu);
        EXPECT_EQ(stats.placement.vertex, Side::Gpu);
    } else {
        EXPECT_EQ(stats.placement.backend, Backend::Cpu);
        EXPECT_EQ(stats.placement.describe(), "vertex cpu, raster cpu");
        EXPECT_EQ(stats.placement.note, "rendering on the CPU: " + gpu.reason);
    }
    EXPECT_EQ(picture.color, renderWith(on(Backend::Cpu), 96, 54).color);
}

TEST(Renderer, GpuStagesWithoutAGpuAreRefusedWithTheReason) {
    const GpuStatus gpu = probeGpu();
    if (gpu.usable) GTEST_SKIP() << "a usable GPU is present (" << gpu.deviceName << "): nothing to refuse";
    RendererOptions vertexOnGpu = on(Backend::Cpu);
    vertexOnGpu.vertex = Side::Gpu;
    for (const RendererOptions& o : {on(Backend::Gpu), vertexOnGpu}) {
        try {
            Renderer renderer(o);
            ADD_FAILURE() << "a GPU placement was accepted without a GPU";
        } catch (const Error& e) {
            EXPECT_EQ(std::string(e.what()), "the GPU is unusable: " + gpu.reason);
        }
    }
    Renderer cpu(on(Backend::Cpu));
    EXPECT_EQ(cpu.gpuUnavailable(), gpu.reason);
    EXPECT_THROW(cpu.setStages(Side::Cpu, Side::Gpu), Error);
    EXPECT_EQ(cpu.placement().raster, Side::Cpu);
}

TEST(Renderer, SettingsABackendCannotHonourAreRefused) {
    RendererOptions glThreads = on(Backend::Gl);
    glThreads.threads = 3;
    try {
        Renderer renderer(glThreads);
        ADD_FAILURE() << "threads accepted for the OpenGL reference";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("does not run on facet's CPU threads (threads = 3)"), std::string::npos)
            << e.what();
    }
    RendererOptions kernelsRaster = on(Backend::Kernels);
    kernelsRaster.raster = Side::Cpu;
    try {
        Renderer renderer(kernelsRaster);
        ADD_FAILURE() << "a stage placement accepted for the kernels backend";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("not for kernels"), std::string::npos) << e.what();
    }
    Renderer cpu(on(Backend::Cpu));
    test::Frame frame(8, 8);
    EXPECT_THROW(cpu.render(sceneView(8, 8), {}, frame.view()), Error); // no model yet
    cpu.setModel(defaultScene());
    try {
        cpu.render(sceneView(8, 8), {}, FrameView{frame.color.data(), nullptr, 0, 8});
        ADD_FAILURE() << "an empty target was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("render target is empty (0x8)"), std::string::npos) << e.what();
    }
}

TEST(Renderer, DisplayTargetGetsTheHostPicture) {
    Renderer renderer(on(Backend::Cpu));
    renderer.setModel(defaultScene());
    HostDisplay display(120, 70);
    const FrameStats stats = renderer.render(sceneView(120, 70), litTrilinear(), display);
    EXPECT_EQ(display.hostMaps, 1);
    EXPECT_EQ(display.hostUnmaps, 1);
    EXPECT_EQ(display.frame.color, renderWith(on(Backend::Cpu), 120, 70).color);
    EXPECT_EQ(stats.placement.raster, Side::Cpu);
}

TEST(Renderer, ThreadCountChangesKeepTheModelAndThePicture) {
    RendererOptions one = on(Backend::Cpu);
    one.threads = 1;
    Renderer renderer(one);
    EXPECT_EQ(renderer.threadCount(), 1);
    renderer.setModel(defaultScene());
    test::Frame a(100, 60), b(100, 60);
    renderer.render(sceneView(100, 60), litTrilinear(), a.view());
    renderer.setThreads(3);
    EXPECT_EQ(renderer.threadCount(), 3);
    renderer.render(sceneView(100, 60), litTrilinear(), b.view());
    EXPECT_EQ(a.color, b.color);
}

TEST(Renderer, DropGpuMovesEveryStageToTheCpuWithTheReason) {
    Renderer renderer(on(Backend::Cpu));
    renderer.dropGpu("test: the device was lost");
    EXPECT_EQ(renderer.placement().describe(), "vertex cpu, raster cpu");
    EXPECT_EQ(renderer.placement().note, "GPU dropped, drawing on the CPU: test: the device was lost");
    EXPECT_EQ(renderer.gpuUnavailable(), "test: the device was lost");
    EXPECT_THROW(renderer.setStages(Side::Gpu, Side::Cpu), Error);
}

TEST(Renderer, OpenGlReferenceThroughTheFrontDoor) {
    const GlAvailability gl = GlReferenceRenderer::probe();
    if (!gl.usable) FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_GL", "no OpenGL here: " + gl.reason);
    FrameStats stats;
    const test::Frame picture = renderWith(on(Backend::Gl), 64, 36, &stats);
    EXPECT_EQ(stats.placement.backend, Backend::Gl);
    EXPECT_EQ(stats.placement.describe(), "gl");
    // Drawn: the clear colour's fill value is gone, and depth is in [0, 1].
    for (std::size_t i = 0; i < picture.color.size(); ++i) {
        ASSERT_NE(picture.color[i], 0x12345678u) << "pixel " << i << " untouched";
        ASSERT_GE(picture.depth[i], 0.0f);
        ASSERT_LE(picture.depth[i], 1.0f);
    }
}

TEST(Names, EveryTableRoundTripsAndListsItsChoices) {
    EXPECT_EQ(nameChoices<TextureFilter>(), "nearest, bilinear or trilinear");
    EXPECT_EQ(nameChoices<CullMode>(), "none or back");
    EXPECT_EQ(nameChoices<Side>(), "cpu or gpu");
    EXPECT_EQ(nameChoices<Backend>(), "auto, cpu, gpu, gl or kernels");
    for (std::size_t i = 0; i < nameCount<Backend>(); ++i) {
        const Backend b = valueAt<Backend>(i);
        EXPECT_EQ(fromName<Backend>(nameOf(b)), b);
        EXPECT_EQ(indexOf(b), int(i));
    }
    EXPECT_FALSE(fromName<TextureFilter>("linear").has_value());
    EXPECT_STREQ(nameOf(static_cast<CullMode>(7)), "?");
}

} // namespace
} // namespace facet
