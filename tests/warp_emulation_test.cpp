// The raster kernel's device-only code (DeviceBand's shuffle scans, ballots, shared-memory
// atomics and the block's barriers, shaders_cuda/visibility_device.h) run on the CPU under warp
// emulation (engine/cuda/warp_emulation.h): its primitives give what the hardware defines, it
// stops on divergence naming the threads, and the device path draws the host executor's
// picture (HostBand's) byte for byte on every kind of frame and band.
#include "draw_with.h"
#include "asset/load_model.h"
#include "core/camera.h"
#include "core/tiles.h"
#include "test_support.h"

#if defined(FACET_HAVE_KERNELS_HOST)
#include "cuda/host_kernel_renderer.h"
#include "cuda/warp_emulation.h"
#endif

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace facet {
namespace {

#if defined(FACET_HAVE_KERNELS_HOST)

TEST(WarpEmulation, PrimitivesGiveWhatTheHardwareDefines) {
    constexpr unsigned kThreads = 64; // two warps
    WarpEmulator emulator(kThreads);
    std::vector<std::uint32_t> scan(kThreads), broadcast(kThreads), rotated(kThreads), ballot(kThreads),
        neighbour(kThreads), shared(kThreads);
    std::vector<int> negated(kThreads);
    std::vector<bool> anyOf40(kThreads), anyNone(kThreads);
    auto body = [&](EmulatedThread& t) {
        const unsigned i = t.threadIndex(), lane = i % 32;
        std::uint32_t inclusive = i + 1;
        for (unsigned d = 1; d < 32; d *= 2) {
            const std::uint32_t before = t.shuffleUp(inclusive, d);
            if (lane >= d) inclusive += before;
        }
        scan[i] = inclusive;
        broadcast[i] = t.shuffle(i * 10, 31);
        rotated[i] = t.shuffle(i, lane + 33); // source lanes wrap modulo the warp
        negated[i] = t.shuffle(-static_cast<int>(i), 0);
        ballot[i] = t.ballot(lane % 3 == 0);
        shared[i] = i * 7;
        t.syncThreads();
        neighbour[i] = shared[(i + 32) % kThreads]; // the other warp's, after the barrier
        anyOf40[i] = t.syncThreadsOr(i == 40);
        anyNone[i] = t.syncThreadsOr(false);
        t.syncWarp();
    };
    emulator.run(7, body);
    for (unsigned i = 0; i < kThreads; ++i) {
        const unsigned lane = i % 32, warpBase = i - lane;
        std::uint32_t want = 0;
        for (unsigned j = warpBase; j <= i; ++j) want += j + 1;
        EXPECT_EQ(scan[i], want) << "thread " << i;
        EXPECT_EQ(broadcast[i], (warpBase + 31) * 10) << "thread " << i;
        EXPECT_EQ(rotated[i], warpBase + (lane + 1) % 32) << "thread " << i;
        EXPECT_EQ(negated[i], -static_cast<int>(warpBase)) << "thread " << i;
        EXPECT_EQ(ballot[i], 0x49249249u) << "thread " << i; // lanes 0, 3, ..., 30
        EXPECT_EQ(neighbour[i], (i + 32) % kThreads * 7) << "thread " << i;
        EXPECT_TRUE(anyOf40[i]) << "thread " << i;
        EXPECT_FALSE(anyNone[i]) << "thread " << i;
    }
    EXPECT_EQ(emulator.blockSteps(), 3u);
    EXPECT_EQ(emulator.warpSteps(), 2u * (5 + 3 + 1 + 1)); // per warp: scan, shuffles, ballot, syncwarp
}

std::string divergenceOf(void (*body)(EmulatedThread&)) {
    WarpEmulator emulator(64);
    try {
        emulator.run(3, body);
    } catch (const Error& e) {
        return e.what();
    }
    return "no error";
}

TEST(WarpEmulation, DivergenceStopsTheBlockNamingTheThreads) {
    // A lane that skips a full-mask shuffle its warp takes.
    EXPECT_EQ(divergenceOf([](EmulatedThread& t) {
                  if (t.threadIndex() != 5) t.shuffle(1u, 0);
              }),
              "warp emulation: block 3 cannot go on, its threads disagree: in warp 0, thread 0 waits at __shfl_sync "
              "but thread 5 has returned");
    // Half a warp at a ballot, the other half at a shuffle.
    EXPECT_EQ(divergenceOf([](EmulatedThread& t) {
                  if (t.threadIndex() % 32 < 16)
                      t.ballot(true);
                  else
                      t.shuffle(1u, 0);
              }),
              "warp emulation: block 3 cannot go on, its threads disagree: in warp 0, thread 0 waits at "
              "__ballot_sync but thread 16 waits at __shfl_sync");
    // A warp that returns before a barrier the other reaches.
    EXPECT_EQ(divergenceOf([](EmulatedThread& t) {
                  if (t.threadIndex() < 32) t.syncThreads();
              }),
              "warp emulation: block 3 cannot go on, its threads disagree: thread 0 waits at __syncthreads but "
              "thread 32 has returned");
    // Two warps at different barriers. (A barrier is matched by kind, not by its place in the
    // code, as the hardware counts arrivals: two __syncthreads() in different branches pass.)
    EXPECT_EQ(divergenceOf([](EmulatedThread& t) {
                  if (t.threadIndex() < 32)
                      t.syncThreads();
                  else
                      t.syncThreadsOr(true);
              }),
              "warp emulation: block 3 cannot go on, its threads disagree: thread 0 waits at __syncthreads but "
              "thread 32 waits at __syncthreads_or");
}

TEST(WarpEmulation, AThreadsExceptionReachesTheCaller) {
    WarpEmulator emulator(32);
    auto body = [](EmulatedThread& t) {
        t.syncWarp();
        if (t.threadIndex() == 9) throw Error("thread 9 failed");
        t.syncWarp();
    };
    try {
        emulator.run(0, body);
        ADD_FAILURE() << "the thread's exception was lost";
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "thread 9 failed");
    }
    // The emulator runs the next block from scratch.
    int done = 0;
    auto counting = [&](EmulatedThread& t) {
        t.syncWarp();
        ++done;
    };
    emulator.run(1, counting);
    EXPECT_EQ(done, 32);
}

// The frame drawn by the host executor's raster blocks (HostBand) and by the device's code under
// warp emulation (DeviceBand): the same bytes, and the emulated frame did step warps and blocks.
void expectDevicePathEqualsHostPath(const Model& model, const ViewParams& view, const RenderSettings& settings,
                                    int width, int height, const std::string& what) {
    HostKernelRenderer host(2), device(2);
    device.executor().emulateWarps(true);
    test::Frame a(width, height, 0xDEADBEEFu, -7.0f), b(width, height, 0x12345678u, -3.0f);
    test::drawWith(host, model, view, settings, a.view());
    test::drawWith(device, model, view, settings, b.view());
    test::expectSameBytes(a, b, what);
    EXPECT_GT(device.executor().emulatedSteps().warps, 0u) << what;
    EXPECT_GT(device.executor().emulatedSteps().blocks, 0u) << what;
}

Model defaultScene() { return loadModel(test::sourceDir() / "assets/default_scene/scene.obj"); }
Model materialScene() { return loadModel(test::sourceDir() / "assets/material_scene/scene.obj"); }

// One sample: the warps take (triangle, quad) pairs (quadKeys). 321x241's first band starts a
// row above the picture and its last tiles' bands lie partly past it; the low view clips.
TEST(WarpEmulation, DefaultSceneOneSample) {
    const Model model = defaultScene();
    for (const bool low : {false, true}) {
        const float aspect = 321.0f / 241.0f;
        RenderSettings settings;
        settings.headlight = true;
        settings.cull = low ? CullMode::Back : CullMode::None;
        expectDevicePathEqualsHostPath(model, test::sceneCamera(model.mesh, aspect, low).view(aspect), settings, 321,
                                       241, low ? "default scene, low view, culled" : "default scene");
    }
}

// Multisampled: each quad walks its row's triangles found by ballot (forRow).
TEST(WarpEmulation, DefaultSceneEverySampleCount) {
    const Model model = defaultScene();
    const float aspect = 161.0f / 121.0f;
    const ViewParams view = test::sceneCamera(model.mesh, aspect, false).view(aspect);
    for (const int samples : {2, 4, 8}) {
        RenderSettings settings;
        settings.msaa = samples;
        expectDevicePathEqualsHostPath(model, view, settings, 161, 121, std::to_string(samples) + " samples");
    }
}

// Glossy, cut-out, vertex-coloured, emissive and transparent materials: tiles holding a blended
// triangle drawn forward (blockDrawsForward's barrier), cut-outs alpha-tested in the pairs, and
// alpha-to-coverage at 4 samples.
TEST(WarpEmulation, MaterialSceneLit) {
    const Model model = materialScene();
    const float aspect = 257.0f / 199.0f;
    const ViewParams view = Camera::framing(model.mesh, aspect).view(aspect);
    RenderSettings one;
    expectDevicePathEqualsHostPath(model, view, one, 257, 199, "material scene");
    RenderSettings four;
    four.msaa = 4;
    four.alphaToCoverage = true;
    expectDevicePathEqualsHostPath(model, view, four, 257, 199, "material scene, 4 samples, alpha to coverage");
}

// Every view: the overdraw view counts fragments in order (forRow), the others colour winners.
TEST(WarpEmulation, EveryView) {
    const Model model = materialScene();
    const float aspect = 130.0f / 97.0f;
    const ViewParams view = Camera::framing(model.mesh, aspect).view(aspect);
    for (std::size_t i = 0; i < nameCount<View>(); ++i) {
        RenderSettings settings;
        settings.view = valueAt<View>(i);
        expectDevicePathEqualsHostPath(model, view, settings, 130, 97, std::string("view ") + nameOf(settings.view));
    }
}

// 3,000 small triangles at scattered depths in one corner of the picture: the corner tile's list
// is three chunks of the band's cull (kBandChunk entries each, the last one partial), while the
// other tiles' lists, and many bands, are empty.
TEST(WarpEmulation, ManyChunksPartialChunksAndEmptyBands) {
    Model model;
    Mesh& mesh = model.mesh;
    std::uint32_t state = 12345u;
    auto next = [&] { // a fixed LCG: the same scene every run
        state = state * 1664525u + 1013904223u;
        return float(state >> 8) / float(1u << 24);
    };
    for (std::uint32_t t = 0; t < 3000; ++t) {
        const float x = -1.7f + 0.7f * next(), y = 1.0f + 0.7f * next(), z = -3.5f - 0.5f * next(); // the top-left tile
        const float s = 0.04f + 0.04f * next(); // 1.5 to 3 pixels
        mesh.px.insert(mesh.px.end(), {x, x + s, x + 0.3f * s});
        mesh.py.insert(mesh.py.end(), {y, y + 0.2f * s, y + s});
        mesh.pz.insert(mesh.pz.end(), {z, z + 0.1f * next(), z - 0.1f * next()});
        mesh.indices.insert(mesh.indices.end(), {3 * t, 3 * t + 1, 3 * t + 2});
    }
    generateNormals(mesh);
    computeBounds(mesh);
    RenderSettings settings;
    settings.headlight = true;
    HostKernelRenderer probe(1);
    test::Frame frame(200, 150);
    const KernelFrameStats stats = test::drawWith(probe, model, test::facingView(), settings, frame.view());
    ASSERT_GT(stats.binEntries, 2u * 1024u) << "the scene must fill more than two chunks of a tile's list";
    ASSERT_LT(stats.binEntries, 3u * 1024u) << "the last chunk must be partial";
    for (int y = 0; y < frame.height; ++y)
        for (int x = 0; x < frame.width; ++x)
            if (frame.depth[std::size_t(y) * std::size_t(frame.width) + std::size_t(x)] < 1.0f) {
                ASSERT_TRUE(x < kTileSize && y < kTileSize) << "drawn outside the top-left tile at " << x << ", " << y;
            }
    expectDevicePathEqualsHostPath(model, test::facingView(), settings, 200, 150, "3,000 small triangles");
    settings.view = View::Overdraw;
    expectDevicePathEqualsHostPath(model, test::facingView(), settings, 200, 150, "3,000 small triangles, overdraw");
}

#endif

} // namespace
} // namespace facet
