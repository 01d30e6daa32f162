// The CUDA pipeline's algorithm, run on the CPU: the kernels' per-thread functions launched by
// the host executor (binning with atomics, scans and the stable sort included) must draw what the
// CPU renderer draws, bit for bit, on crafted scenes, the default scene and corpus meshes.
#include "draw_with.h"
#include "asset/image.h"
#include "asset/load_model.h"
#include "core/camera.h"
#include "cpu/cpu_renderer.h"
#include "test_support.h"

#if defined(FACET_HAVE_KERNELS_HOST)
#include "bench/counting_kernel_renderer.h"
#include "cuda/host_kernel_renderer.h"
#endif

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <sstream>
#include <utility>
#include <vector>

namespace facet {
namespace {

#if defined(FACET_HAVE_KERNELS_HOST)

// Filled with values no renderer writes, so a pixel left untouched shows as a difference.
struct Picture : test::Frame {
    Picture(int w, int h) : test::Frame(w, h, 0xDEADBEEFu, -7.0f) {}
};

void expectSameAsCpu(const Model& model, const ViewParams& view, const RenderSettings& settings, int width,
                     int height, const std::string& what, int threads = 2) {
    CpuRenderer cpu(threads);
    HostKernelRenderer kernels(threads);
    Picture a(width, height), b(width, height);
    const CpuFrameStats cs = test::drawWith(cpu, model, view, settings, a.view());
    const KernelFrameStats ks = test::drawWith(kernels, model, view, settings, b.view());
    test::expectSameBytes(a, b, what);
    EXPECT_EQ(cs.trianglesIn, ks.trianglesIn) << what;
    EXPECT_EQ(cs.trianglesClipped, ks.trianglesClipped) << what;
    EXPECT_EQ(cs.trianglesCulled, ks.trianglesCulled) << what;
}

Model defaultScene() { return loadModel(test::sourceDir() / "assets/default_scene/scene.obj"); }

TEST(KernelPipeline, DefaultSceneEqualsTheCpuRenderer) {
    const Model model = defaultScene();
    struct Case {
        int width, height;
        TextureFilter filter;
        bool headlight, cull, low;
    };
    const Case cases[] = {{640, 360, TextureFilter::Trilinear, true, false, false},
                          {321, 241, TextureFilter::Trilinear, false, false, false},
                          {400, 300, TextureFilter::Bilinear, true, true, true},
                          {257, 130, TextureFilter::Nearest, false, false, true}};
    for (const Case& c : cases) {
        const float aspect = float(c.width) / float(c.height);
        const Camera camera = test::sceneCamera(model.mesh, aspect, c.low);
        RenderSettings settings;
        settings.filter = c.filter;
        settings.headlight = c.headlight;
        settings.cull = c.cull ? CullMode::Back : CullMode::None;
        std::ostringstream name;
        name << c.width << "x" << c.height << (c.low ? ", low view" : "") << ", filter " << int(c.filter)
             << (c.headlight ? ", headlight" : "") << (c.cull ? ", culled" : "");
        expectSameAsCpu(model, camera.view(aspect), settings, c.width, c.height, name.str());
    }
}

TEST(KernelPipeline, CameraInsideTheSceneAndEveryThreadCount) {
    const Model model = defaultScene();
    Camera camera = Camera::framing(model.mesh, 1.5f);
    camera.eye = model.mesh.bounds.center();
    camera.nearPlane = 0.01f;
    for (const int threads : {1, 2, 3})
        expectSameAsCpu(model, camera.view(1.5f), RenderSettings{}, 150, 100,
                        "inside, " + std::to_string(threads) + " threads", threads);
}

// A camera as users give them: OpenCV intrinsics with an off-centre principal point and
// non-square pixels, at a rolled pose; at its own size and at twice it (K scaled).
TEST(KernelPipeline, IntrinsicCameraOffCentreEqualsTheCpuRenderer) {
    const Model model = defaultScene();
    const Camera camera = test::offCentreIntrinsicCamera(model.mesh, PoseConvention::OpenCv);
    RenderSettings settings;
    settings.headlight = true;
    expectSameAsCpu(model, camera.view(321.0f / 241.0f), settings, 321, 241, "intrinsics, 321x241");
    expectSameAsCpu(model, camera.view(642.0f / 482.0f), settings, 642, 482, "intrinsics, 642x482");
}

TEST(KernelPipeline, SameBytesEveryTime) {
    const Model model = defaultScene();
    const ViewParams view = Camera::framing(model.mesh, 2.0f).view(2.0f);
    HostKernelRenderer kernels(3);
    Picture a(200, 100), b(200, 100);
    test::drawWith(kernels, model, view, RenderSettings{}, a.view());
    test::drawWith(kernels, model, view, RenderSettings{}, b.view());
    test::expectSameBytes(a, b, "two frames");
}

TEST(KernelPipeline, CorpusMeshesEqualTheCpuRenderer) {
    const std::filesystem::path dir = test::modelsDir();
    if (!std::filesystem::exists(dir)) FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_CORPUS", "no corpus at " << dir);
    const char* meshes[] = {"common-3d-test-models/stanford-bunny.obj", "common-3d-test-models/teapot.obj",
                            "common-3d-test-models/spot/spot_triangulated.obj", "tinyobjloader/cornell_box.obj",
                            "obj2gltf/box-textured/box-textured.obj",
                            "obj2gltf/box-objects-groups-materials/box-objects-groups-materials.obj"};
    int drawn = 0;
    for (const char* m : meshes) {
        const std::filesystem::path path = dir / m;
        if (!std::filesystem::exists(path)) continue;
        const Model model = loadModel(path);
        const ViewParams view = Camera::framing(model.mesh, 4.0f / 3.0f).view(4.0f / 3.0f);
        for (const bool cull : {false, true}) {
            RenderSettings settings;
            settings.headlight = true;
            settings.cull = cull ? CullMode::Back : CullMode::None;
            expectSameAsCpu(model, view, settings, 320, 240, std::string(m) + (cull ? ", culled" : ""));
        }
        ++drawn;
    }
    if (drawn == 0) FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_CORPUS", "none of the meshes is in the corpus at " << dir);
}

TEST(KernelPipeline, HostileMeshesAreRefusedOrDrawnLikeTheCpu) {
    Model model;
    Mesh& mesh = model.mesh;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    mesh.px = {0.0f, 1.0f, 0.0f, nan, 1e30f, 0.0f};
    mesh.py = {0.0f, 0.0f, 1.0f, 0.0f, 1.0f, -1e30f};
    mesh.pz = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    mesh.indices = {0, 1, 2, 0, 3, 1, 0, 4, 2, 5, 1, 2, 0, 0, 1};
    generateNormals(mesh);
    computeBounds(mesh);
    Camera camera;
    camera.eye = {0.3f, 0.3f, 3.0f};
    expectSameAsCpu(model, camera.view(1.0f), RenderSettings{}, 64, 64, "NaN, huge and degenerate triangles");

    mesh.indices.push_back(6); // names no vertex
    mesh.indices.push_back(0);
    mesh.indices.push_back(1);
    HostKernelRenderer kernels(1);
    Picture p(8, 8);
    try {
        test::drawWith(kernels, model, camera.view(1.0f), RenderSettings{}, p.view());
        ADD_FAILURE() << "an index past the last vertex was drawn";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("index 6 names no vertex"), std::string::npos) << e.what();
    }
}

// `count` copies of one triangle whose bounding box spans the whole square picture (its
// vertices a little beyond the corners, inside the guard band: never clipped), so each gives
// exactly one bin entry per tile.
Model pictureCoveringTriangles(std::size_t count) {
    Model model;
    Mesh& mesh = model.mesh;
    mesh.px = {-2.0f, 2.0f, -2.0f};
    mesh.py = {-2.0f, -2.0f, 2.0f};
    mesh.pz = {0.0f, 0.0f, 0.0f};
    mesh.indices.reserve(3 * count);
    for (std::size_t i = 0; i < count; ++i) mesh.indices.insert(mesh.indices.end(), {0u, 1u, 2u});
    generateNormals(mesh);
    computeBounds(mesh);
    return model;
}

ViewParams pictureCoveringView() {
    Camera camera;
    camera.eye = {0.0f, 0.0f, 3.0f}; // the picture spans +-1.73 at the triangles' distance
    return camera.view(1.0f);
}

TEST(KernelPipeline, BinEntriesAreOneTilePerTriangleAndTile) {
    // The scene of the test below at a size that draws: 3 triangles x 10x10 tiles.
    const Model model = pictureCoveringTriangles(3);
    HostKernelRenderer kernels(2);
    Picture p(640, 640);
    const KernelFrameStats stats = test::drawWith(kernels, model, pictureCoveringView(), RenderSettings{}, p.view());
    EXPECT_EQ(stats.trianglesDrawn, 3u);
    EXPECT_EQ(stats.trianglesClipped, 0u);
    EXPECT_EQ(stats.binEntries, 300u);
    expectSameAsCpu(model, pictureCoveringView(), RenderSettings{}, 640, 640, "three covering triangles");
}

// triangleCount zeroes the counts the scans and triangleWrite start from (zeroCounts), with no
// memsets: every frame counts from zero, with more triangles than tiles or fewer, and after a
// larger mesh left its counts in the buffers.
TEST(KernelPipeline, EveryFrameCountsFromZero) {
    const Model scene = defaultScene();
    Camera camera = Camera::framing(scene.mesh, 1.5f);
    camera.eye = scene.mesh.bounds.center();
    camera.nearPlane = 0.01f;
    const ViewParams inside = camera.view(1.5f);
    CpuRenderer cpu(2);
    HostKernelRenderer kernels(2);
    Picture want(150, 100);
    const CpuFrameStats cs = test::drawWith(cpu, scene, inside, RenderSettings{}, want.view());
    ASSERT_GT(cs.trianglesClipped, 0u);
    ASSERT_GT(cs.trianglesCulled, 0u);
    for (int frame = 1; frame <= 3; ++frame) { // 84,913 triangles, 6 tiles
        Picture p(150, 100);
        const KernelFrameStats ks = test::drawWith(kernels, scene, inside, RenderSettings{}, p.view());
        const std::string what = "inside the default scene, frame " + std::to_string(frame);
        test::expectSameBytes(want, p, what);
        EXPECT_EQ(ks.trianglesClipped, cs.trianglesClipped) << what;
        EXPECT_EQ(ks.trianglesCulled, cs.trianglesCulled) << what;
    }
    const Model few = pictureCoveringTriangles(3);
    for (int frame = 1; frame <= 2; ++frame) { // 3 triangles, 100 tiles
        Picture p(640, 640);
        const KernelFrameStats ks = test::drawWith(kernels, few, pictureCoveringView(), RenderSettings{}, p.view());
        const std::string what = "three covering triangles after the default scene, frame " + std::to_string(frame);
        EXPECT_EQ(ks.trianglesDrawn, 3u) << what;
        EXPECT_EQ(ks.binEntries, 300u) << what;
        EXPECT_EQ(ks.trianglesClipped, 0u) << what;
        EXPECT_EQ(ks.trianglesCulled, 0u) << what;
    }
    expectSameAsCpu(few, pictureCoveringView(), RenderSettings{}, 640, 640, "three covering triangles");
}

// `count` small triangles (about 4 pixels across at 128x128 in pictureCoveringView) in one
// plane, scattered over the picture, each in its own colour: where they overlap the first drawn
// keeps the pixel (equal depths), so every covered pixel shows the draw order.
Model overlappingSmallTriangles(std::size_t count) {
    Model model;
    Mesh& mesh = model.mesh;
    std::uint32_t state = 12345u;
    const auto next = [&state] { // a linear congruential generator's top bits, in [0, 1)
        state = state * 1664525u + 1013904223u;
        return float(state >> 8) / float(1u << 24);
    };
    for (std::size_t t = 0; t < count; ++t) {
        const float x = 3.4f * next() - 1.7f, y = 3.4f * next() - 1.7f;
        const float r = next(), g = next(), b = next();
        for (const auto& [dx, dy] : {std::pair{0.0f, 0.0f}, std::pair{0.12f, 0.01f}, std::pair{0.03f, 0.11f}}) {
            mesh.px.push_back(x + dx);
            mesh.py.push_back(y + dy);
            mesh.pz.push_back(0.0f);
            mesh.cr.push_back(r);
            mesh.cg.push_back(g);
            mesh.cb.push_back(b);
        }
        const auto first = static_cast<std::uint32_t>(3 * t);
        mesh.indices.insert(mesh.indices.end(), {first, first + 1, first + 2});
    }
    generateNormals(mesh);
    computeBounds(mesh);
    return model;
}

TEST(KernelPipeline, TileListsLongerThanABlockCullsAtOnceKeepTheDrawOrder) {
    // 6,000 triangles over 2x2 tiles: each tile's list is longer than a raster block culls into
    // shared memory at once (kBandChunk entries), so the blocks walk their bands' triangles in
    // chunks, and must walk them in draw order across the chunks.
    const Model model = overlappingSmallTriangles(6000);
    CountingKernelRenderer kernels(2);
    Picture p(128, 128);
    test::drawWith(kernels, model, pictureCoveringView(), RenderSettings{}, p.view());
    const RasterCounts& r = kernels.lastRasterCounts();
    EXPECT_EQ(r.blocks, 16u);
    EXPECT_GE(r.bandChunks, 2 * r.blocks);
    EXPECT_LT(r.bandTriangles, r.bandEntries / 2); // a band meets about a quarter of its tile's list
    for (const int msaa : {1, 4}) {
        RenderSettings settings;
        settings.msaa = msaa;
        expectSameAsCpu(model, pictureCoveringView(), settings, 128, 128, "msaa " + std::to_string(msaa));
    }
    RenderSettings lit;
    lit.shading = ShadingModel::Lit;
    expectSameAsCpu(model, pictureCoveringView(), lit, 128, 128, "lit");
    // Half-transparent (lit): blended in draw order, every tile drawn forward.
    Model glass = overlappingSmallTriangles(6000);
    Material material;
    material.opacity = 0.5f;
    glass.materials = {material};
    glass.mesh.ranges = {MaterialRange{0, 6000, 0}};
    expectSameAsCpu(glass, pictureCoveringView(), lit, 128, 128, "blended");
}

TEST(KernelPipeline, VisibilityKeysOrderAsTheDepthTestInDrawOrder) {
    // The raster kernel merges a pixel's candidates as the smallest key (visibilityKey), in
    // whatever order they arrive: nearer first, then the earlier triangle, as the walk in draw
    // order keeps the first of the nearest; -0 ties with +0 as the depth test has them equal.
    EXPECT_LT(visibilityKey(0.25f, 7), visibilityKey(0.5f, 3));
    EXPECT_LT(visibilityKey(0.5f, 3), visibilityKey(0.5f, 7));
    EXPECT_LT(visibilityKey(-0.0f, 3), visibilityKey(0.0f, 7));
    EXPECT_LT(visibilityKey(0.0f, 3), visibilityKey(-0.0f, 7));
    const float justUnderOne = std::nextafter(1.0f, 0.0f);
    EXPECT_LT(visibilityKey(justUnderOne, kNoTriangle - 1), kClearKey);
    // Each key gives back its depth's bits (-0 included) and its triangle.
    for (const float depth : {0.0f, -0.0f, 1e-30f, 0.5f, justUnderOne})
        for (const std::uint32_t id : {0u, 1u, 0x80000000u, kNoTriangle - 1}) {
            const std::uint64_t key = visibilityKey(depth, id);
            EXPECT_EQ(floatBits(keyDepth(key)), floatBits(depth)) << depth << " " << id;
            EXPECT_EQ(keyTriangle(key), id) << depth << " " << id;
        }
    EXPECT_EQ(keyDepth(kClearKey), 1.0f);
    EXPECT_EQ(keyTriangle(kClearKey), kNoTriangle);
}

TEST(KernelPipeline, BinEntriesBeyond32BitsAreRefusedNotWrapped) {
    // 65,536 triangles x 256x256 tiles at 16384x16384 = 2^32 bin entries: a 32-bit total wraps
    // to 0, the bins are sized for none and triangleWrite writes past them. The frame must be
    // refused, with the count, before anything is written (the target is never touched: it is
    // left uninitialised, so its 2 GiB are never committed).
    const Model model = pictureCoveringTriangles(65536);
    const int size = 16384;
    const std::size_t pixels = std::size_t(size) * size;
    const std::unique_ptr<std::uint32_t[]> color(new std::uint32_t[pixels]);
    const std::unique_ptr<float[]> depth(new float[pixels]);
    HostKernelRenderer kernels(2);
    try {
        test::drawWith(kernels, model, pictureCoveringView(), RenderSettings{}, FrameView{color.get(), depth.get(), size, size});
        ADD_FAILURE() << "2^32 bin entries were drawn";
    } catch (const LimitError& e) { // a limit of the pipeline, not a fault: the GPU is not dropped for it
        EXPECT_NE(std::string(e.what()).find("4294967296 bin entries"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("at 16384x16384 exceed the 4294967295"), std::string::npos) << e.what();
    } catch (const Error& e) {
        ADD_FAILURE() << "refused as a fault, not as a limit (LimitError): " << e.what();
    }
}

#else

TEST(KernelPipeline, NeedsTheCudaToolkitHeaders) {
#if defined(FACET_HAVE_CUDA)
    FAIL() << "nvcc was found, but not the CCCL headers beside it (include/cccl/cuda/atomic for CUDA 13, "
              "include/cuda/atomic for CUDA 12): the CUDA kernels' CPU stage and its tests are left out";
#endif
    FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_KERNELS", "the CUDA toolkit's CCCL headers were not found at configure "
                                                        "time, so the CUDA kernels are not built for the CPU");
}

#endif

} // namespace
} // namespace facet
