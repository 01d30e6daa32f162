// The GPU cost model (engine/bench/gpu_model.h, kernel_work.h): the roofline's arithmetic on
// known inputs, the GPU table's look-up, and the work a frame of the CPU-run kernels counts,
// exactly, on a scene whose counts are known by hand.
#if defined(FACET_HAVE_KERNELS_HOST)
#include "draw_with.h"
#include "asset/image.h"
#include "bench/counting_kernel_renderer.h"
#include "bench/gpu_model.h"
#include "cuda/host_kernel_renderer.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <string>

namespace facet {
namespace {

const KernelWork* findKernel(const std::vector<KernelWorkItem>& items, const std::string& name) {
    for (const KernelWorkItem& i : items)
        if (i.work.name == name) return &i.work;
    return nullptr;
}

TEST(GpuModel, RooflineTakesTheLargestTermPlusTheOverheads) {
    const GpuSpec& t4 = findGpuSpec("t4"); // 320 GB/s, 8.1 TFLOPS FP32, FP64 1/32, 40 SMs at 1.59 GHz
    EXPECT_DOUBLE_EQ(fp32OpsPerSecond(t4), 4.05e12); // no FMA (--fmad=false): half the peak
    EXPECT_DOUBLE_EQ(fp64OpsPerSecond(t4), 8.1e12 / 64.0);
    EXPECT_DOUBLE_EQ(intOpsPerSecond(t4), 40.0 * 64.0 * 1.59e9);

    KernelWork w;
    w.launches = 3;
    w.bytes = 640e6;      // 2000 us at 320 GB/s
    w.fp32Ops = 4.05e9;   // 1000 us
    KernelEstimate e = estimateKernel(t4, w);
    EXPECT_NEAR(e.memoryUs, 2000.0, 1e-9);
    EXPECT_NEAR(e.fp32Us, 1000.0, 1e-9);
    EXPECT_NEAR(e.overheadUs, 3 * kLaunchOverheadUs, 1e-12);
    EXPECT_NEAR(e.totalUs, 2000.0 + 3 * kLaunchOverheadUs, 1e-9);
    EXPECT_STREQ(e.bound, "memory");

    w.fp64Ops = 3.0 * 8.1e12 / 64.0 * 1e-3; // 3000 us
    w.roundTrips = 2;
    e = estimateKernel(t4, w);
    EXPECT_NEAR(e.totalUs, 3000.0 + 3 * kLaunchOverheadUs + 2 * kHostRoundTripUs, 1e-9);
    EXPECT_STREQ(e.bound, "fp64");

    KernelWork tiny; // nothing but its launch
    tiny.launches = 1;
    tiny.intOps = 1000;
    EXPECT_STREQ(estimateKernel(t4, tiny).bound, "overhead");
    EXPECT_NEAR(estimateFrameUs(t4, {w, tiny}), e.totalUs + estimateKernel(t4, tiny).totalUs, 1e-9);
}

TEST(GpuModel, UnknownGpuNameListsTheKnownOnes) {
    try {
        findGpuSpec("gtx9000");
        FAIL() << "no error for an unknown GPU";
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()),
                  "unknown GPU model 'gtx9000': the model knows t4, rtx3060, rtx3090, rtx4090, a100, h100, orin");
    }
    for (const GpuSpec& g : gpuSpecs()) {
        EXPECT_EQ(&findGpuSpec(g.name), &g);
        EXPECT_GT(g.bandwidthGBs, 0.0);
        EXPECT_GT(g.fp32Tflops, g.fp64Tflops) << g.name;
    }
}

// A 16 x 16 pixel square, pixels [8, 24) x [8, 24), of two textured triangles in a 64 x 64
// target (one tile): seen straight on from the origin (focus 1, aspect 1, z = 1), pixel
// x = 32 (x + 1) and y = 32 (1 - y).
Model texturedSquare() {
    Model model;
    model.mesh = test::texturedQuadMesh(-0.75f, 0.25f, -0.25f, 0.75f, 1.0f);
    model.textures = {makeCheckerTexture()};
    Material material;
    material.texture = 0;
    model.materials = {material};
    return model;
}

TEST(GpuModel, CountsTheRasterWalkAndTheShadingOfAKnownScene) {
    const Model model = texturedSquare();
    const ViewParams view{glm::vec3(0.0f), glm::mat3(1.0f), 1.0f, 1.0f, 0.5f, 100.0f};
    CountingKernelRenderer kernels(2);
    test::Frame frame(64, 64);
    const KernelFrameStats stats = test::drawWith(kernels, model, view, RenderSettings{}, frame.view());
    ASSERT_EQ(stats.trianglesDrawn, 2u);
    ASSERT_EQ(stats.binEntries, 2u);

    const RasterCounts& r = kernels.lastRasterCounts();
    EXPECT_EQ(r.blocks, 4u);        // the tile's four 64x16-pixel bands
    EXPECT_EQ(r.bandChunks, 4u);    // a chunk each
    EXPECT_EQ(r.bandEntries, 8u);   // each culls both entries ...
    EXPECT_EQ(r.bandTriangles, 4u); // ... and keeps both in the bands of rows 0-15 and 16-31
    EXPECT_EQ(r.liveWarps, 32u);    // one warp per quad row of the tile
    EXPECT_EQ(r.liveQuads, 1024u);
    EXPECT_EQ(r.warpEntries, 32u);  // the warps of those two bands take both entries ...
    EXPECT_EQ(r.rowTests, 16u);     // ... in one batch each
    EXPECT_EQ(r.rowEntries, 16u);   // quad rows 8, 10, ..., 22 meet each triangle's bounds
    EXPECT_EQ(r.walkLanes, 128u);   // 8 x 8 quads each
    EXPECT_EQ(r.pairRounds, 8u);    // a round in each of those rows' warps (16 pairs)
    EXPECT_EQ(r.tileEntries, 2u);
    EXPECT_EQ(r.pixels, 4096u);
    EXPECT_EQ(r.shaded, 256u);
    EXPECT_EQ(r.textured, 256u);
    EXPECT_EQ(r.trilinear, 256u);   // the default filter
    EXPECT_EQ(r.lit, 0u);
    EXPECT_EQ(r.vertexColored, 0u);

    const std::vector<KernelWorkItem>& work = kernels.lastWork();
    const struct {
        const char* name;
        std::uint64_t launches, threads, roundTrips;
    } expected[] = {{"vertexSetup", 1, 4, 0},   {"triangleCount", 1, 3, 0}, {"triangleWrite", 1, 2, 0},
                    {"rasterQuad", 1, 1024, 0}, {"scan", 4, 8, 0},          {"sortPairs", 3, 2, 0},
                    {"roundTrip", 0, 0, 2}};
    // triangleCount: a thread per triangle and one more, which zero triangleWrite's counts too
    // (no memsets); scans: the triangles' pairs of counts (3 x 2) in one, the tile counts (2) in
    // another, two launches each.
    for (const auto& x : expected) {
        const KernelWork* k = findKernel(work, x.name);
        ASSERT_NE(k, nullptr) << x.name;
        EXPECT_EQ(k->launches, x.launches) << x.name;
        EXPECT_EQ(k->threads, x.threads) << x.name;
        EXPECT_EQ(k->roundTrips, x.roundTrips) << x.name;
    }
    EXPECT_EQ(work.size(), std::size(expected));
    // The one FP64 user: two set-up triangles' barycentric gradients.
    EXPECT_GT(findKernel(work, "triangleWrite")->fp64Ops, 0.0);
    EXPECT_EQ(findKernel(work, "triangleCount")->fp64Ops, 0.0);
    EXPECT_EQ(findKernel(work, "rasterQuad")->fp64Ops, 0.0);
}

// The work the CPU-run kernels count for one frame of `model` seen straight on.
std::vector<KernelWorkItem> countedWork(const Model& model) {
    const ViewParams view{glm::vec3(0.0f), glm::mat3(1.0f), 1.0f, 1.0f, 0.5f, 100.0f};
    CountingKernelRenderer kernels(2);
    test::Frame frame(64, 64);
    test::drawWith(kernels, model, view, RenderSettings{}, frame.view());
    return kernels.lastWork();
}

// A mesh with vertex colours keeps a side record (sizeof(TriangleColors), 60 B: colours and
// tangents share it) per set-up triangle: its write and its corners' colours in triangleWrite,
// its read beside each tile entry in rasterQuad, the colours in vertexSetup.
TEST(GpuModel, CountsTheSideRecordsOfAMeshWithVertexColours) {
    const Model plain = texturedSquare();
    Model colored = texturedSquare();
    colored.mesh.cr = colored.mesh.cg = colored.mesh.cb = {0.25f, 0.5f, 0.75f, 1.0f};
    const std::vector<KernelWorkItem> a = countedWork(plain), b = countedWork(colored);
    const double record = double(sizeof(TriangleColors));
    ASSERT_EQ(record, 60.0);
    EXPECT_DOUBLE_EQ(findKernel(b, "vertexSetup")->bytes - findKernel(a, "vertexSetup")->bytes, 4 * 12.0);
    EXPECT_DOUBLE_EQ(findKernel(b, "triangleWrite")->bytes - findKernel(a, "triangleWrite")->bytes,
                     2 * (record + 3 * 12.0));
    EXPECT_DOUBLE_EQ(findKernel(b, "rasterQuad")->bytes - findKernel(a, "rasterQuad")->bytes, 2 * record);
}

TEST(GpuModel, CountingLeavesThePictureAsItWas) {
    const Model model = texturedSquare();
    const ViewParams view{glm::vec3(0.0f), glm::mat3(1.0f), 1.0f, 1.0f, 0.5f, 100.0f};
    HostKernelRenderer plain(2);
    CountingKernelRenderer counting(2);
    test::Frame a(64, 64), b(64, 64);
    test::drawWith(plain, model, view, RenderSettings{}, a.view());
    test::drawWith(counting, model, view, RenderSettings{}, b.view());
    EXPECT_EQ(a.color, b.color);
    EXPECT_EQ(a.depth, b.depth);
    EXPECT_FALSE(counting.lastWork().empty());
}

} // namespace
} // namespace facet
#endif
