// The CPU pipeline's machinery: the vectorised vertex stage equals the kernel's per-thread
// function bit for bit, the thread pool runs every task once, and the picture does not depend
// on the thread count.
#include "draw_with.h"
#include "test_support.h"
#include "core/camera.h"
#include "core/error.h"
#include "core/vertex_math.h"
#include "cpu/cpu_renderer.h"
#include "host/thread_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

#include <unistd.h>

namespace facet {
namespace {

Mesh randomMesh(std::size_t vertices, std::size_t triangles, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> pos(-50.0f, 50.0f);
    Mesh m;
    for (std::size_t i = 0; i < vertices; ++i) {
        m.px.push_back(pos(rng));
        m.py.push_back(pos(rng));
        m.pz.push_back(pos(rng) - 60.0f);
    }
    std::uniform_int_distribution<std::uint32_t> idx(0, std::uint32_t(vertices - 1));
    for (std::size_t t = 0; t < 3 * triangles; ++t) m.indices.push_back(idx(rng));
    m.u.assign(vertices, 0.0f);
    m.v.assign(vertices, 0.0f);
    generateNormals(m);
    computeBounds(m);
    m.ranges.push_back({0, std::uint32_t(triangles), 0});
    return m;
}

TEST(CpuPipeline, VectorisedVertexStageEqualsThePerThreadKernelLogic) {
    const Mesh mesh = randomMesh(1003, 0, 11); // an odd count exercises the loop tails
    Camera cam;
    cam.eye = {1.5f, -2.25f, 10.0f};
    cam.yawDegrees = 31.0f;
    cam.pitchDegrees = -17.0f;
    const ViewParams view = cam.view(16.0f / 9.0f);
    std::vector<float> dx(mesh.vertexCount()), dy(dx.size()), dz(dx.size());
    transformVertices(mesh, view, 0, mesh.vertexCount(), dx.data(), dy.data(), dz.data());

    std::vector<float> rx(dx.size()), ry(dx.size()), rz(dx.size());
    const VertexStageParams p{mesh.px.data(), mesh.py.data(), mesh.pz.data(), rx.data(), ry.data(), rz.data(),
                              std::uint32_t(mesh.vertexCount()), view};
    for (std::uint32_t i = 0; i < p.count + 5; ++i) vertexStageThread(p, i); // past the end: bounds-checked
    EXPECT_EQ(std::memcmp(dx.data(), rx.data(), dx.size() * 4), 0);
    EXPECT_EQ(std::memcmp(dy.data(), ry.data(), dy.size() * 4), 0);
    EXPECT_EQ(std::memcmp(dz.data(), rz.data(), dz.size() * 4), 0);
}

TEST(CpuPipeline, ThreadPoolRunsEveryTaskOnceAndPropagatesErrors) {
    ThreadPool pool(3);
    EXPECT_EQ(pool.threadCount(), 3);
    for (int round = 0; round < 50; ++round) {
        std::vector<std::atomic<int>> hits(257);
        pool.run(hits.size(), [&](std::size_t i, int thread) {
            ASSERT_GE(thread, 0);
            ASSERT_LT(thread, 3);
            hits[i]++;
        });
        for (auto& h : hits) ASSERT_EQ(h.load(), 1);
    }
    EXPECT_THROW(pool.run(10, [](std::size_t i, int) {
        if (i == 4) throw Error("task 4 failed");
    }),
                 Error);
    int after = 0;
    pool.run(1, [&](std::size_t, int) { ++after; }); // still usable after an error
    EXPECT_EQ(after, 1);
}

TEST(CpuPipeline, PictureIsTheSameForAnyThreadCount) {
    Model model;
    model.mesh = randomMesh(3000, 6000, 5);
    model.materials.push_back(Material{});
    Camera cam;
    const int w = 301, h = 203; // not a multiple of the tile size
    const ViewParams view = cam.view(float(w) / h);
    std::vector<std::uint32_t> reference;
    std::vector<float> referenceDepth;
    for (const int threads : {1, 2, 3, 5}) {
        std::vector<std::uint32_t> color(std::size_t(w) * h);
        std::vector<float> depth(color.size());
        RenderSettings s;
        s.headlight = true;
        CpuRenderer r(threads);
        const CpuFrameStats stats = test::drawWith(r, model, view, s, FrameView{color.data(), depth.data(), w, h});
        EXPECT_EQ(stats.trianglesIn, 6000u);
        EXPECT_GT(stats.fragmentsShaded, 0u);
        if (reference.empty()) {
            reference = color;
            referenceDepth = depth;
        } else {
            EXPECT_EQ(color, reference) << threads << " threads";
            EXPECT_EQ(std::memcmp(depth.data(), referenceDepth.data(), depth.size() * 4), 0) << threads << " threads";
        }
    }
}

// Set-up triangles keep their attributes only in frames whose shading reads them (here: with the
// headlight; the flat mesh without it keeps none), so a renderer's storage changes layout from
// frame to frame: every frame draws what a fresh renderer draws.
TEST(CpuPipeline, FramesWithAndWithoutAttributesAlternate) {
    Model model;
    model.mesh = randomMesh(3000, 6000, 11);
    model.materials.push_back(Material{});
    Camera cam;
    const int w = 257, h = 190;
    const ViewParams view = cam.view(float(w) / h);
    const auto render = [&](CpuRenderer& r, bool headlight) {
        std::vector<std::uint32_t> color(std::size_t(w) * h);
        std::vector<float> depth(color.size());
        RenderSettings s = test::classicSettings(); // the classic headlight
        s.headlight = headlight;
        test::drawWith(r, model, view, s, FrameView{color.data(), depth.data(), w, h});
        return color;
    };
    CpuRenderer lit(2), flat(2);
    const std::vector<std::uint32_t> litPicture = render(lit, true), flatPicture = render(flat, false);
    ASSERT_NE(litPicture, flatPicture); // the headlight shows
    CpuRenderer alternating(2);
    for (int frame = 0; frame < 6; ++frame) {
        const bool headlight = frame % 3 != 1; // lit, flat, lit, lit, flat, lit
        EXPECT_EQ(render(alternating, headlight), headlight ? litPicture : flatPicture) << "frame " << frame;
    }
}

// The CPU's set-up finds each triangle's material walking the ranges as its chunk's triangles
// rise (RisingMaterials); that must name the range triangleMaterial's bisection finds, from
// any first triangle (a chunk starts anywhere), over empty ranges and with no ranges at all.
TEST(CpuPipeline, RisingMaterialsEqualTheBisection) {
    const std::vector<MaterialRange> ranges = {{0, 5, 2}, {5, 0, 7}, {5, 1, 4}, {6, 10, 1}, {16, 0, 9}, {16, 4, 3}};
    MeshView mesh{};
    mesh.ranges = ranges.data();
    mesh.rangeCount = std::uint32_t(ranges.size());
    for (std::uint32_t first = 0; first < 20; ++first) {
        RisingMaterials materials(mesh, first);
        for (std::uint32_t t = first; t < 20; t += 1 + t % 3)
            EXPECT_EQ(materials.at(t), triangleMaterial(mesh, t)) << "from " << first << ", triangle " << t;
    }
    EXPECT_EQ(RisingMaterials(mesh, 5).at(5), 4u); // the last of the ranges starting at 5
    MeshView none{};
    EXPECT_EQ(RisingMaterials(none, 0).at(3), 0u);
}

TEST(CpuPipeline, BadMaterialRangeIsAnError) {
    Model model;
    model.mesh = randomMesh(10, 4, 1);
    model.mesh.ranges[0].material = 3;
    std::vector<std::uint32_t> color(16);
    std::vector<float> depth(16);
    EXPECT_THROW(test::drawWith(CpuRenderer(1), model, Camera{}.view(1.0f), RenderSettings{}, FrameView{color.data(), depth.data(), 4, 4}),
                 Error);
}

// A hand-built mesh is checked before anything reads it: each fault is named, never drawn.
TEST(CpuPipeline, InvalidHandBuiltMeshesAreNamed) {
    const auto message = [](const Model& model) {
        std::vector<std::uint32_t> color(16);
        std::vector<float> depth(16);
        try {
            test::drawWith(CpuRenderer(1), model, Camera{}.view(1.0f), RenderSettings{}, FrameView{color.data(), depth.data(), 4, 4});
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("drawn");
    };
    Model model;
    model.source = "hand-built";
    model.mesh = randomMesh(10, 4, 1);
    model.mesh.indices[5] = 10;
    EXPECT_NE(message(model).find("mesh hand-built: index 10 names no vertex (10 vertices)"), std::string::npos)
        << message(model);
    model.mesh = randomMesh(10, 4, 1);
    model.mesh.indices.pop_back();
    EXPECT_NE(message(model).find("not whole triangles"), std::string::npos) << message(model);
    model.mesh = randomMesh(10, 4, 1);
    model.mesh.hasTexCoords = true;
    model.mesh.u.resize(3);
    EXPECT_NE(message(model).find("texture coordinates for some vertices only"), std::string::npos) << message(model);
    model.mesh = randomMesh(10, 4, 1);
    model.mesh.ranges.push_back(model.mesh.ranges[0]);
    EXPECT_NE(message(model).find("material ranges overlap"), std::string::npos) << message(model);
}

// The indices are checked by the triangle stage, a part at a time on the thread that sets the
// part up (validateMeshLayout leaves them): a bad index in any part, the first, a middle or
// the last, stops the frame with its error before the target is touched, and the renderer
// draws the next model as it should.
TEST(CpuPipeline, BadIndexInAnyPartOfALargeMeshIsNamed) {
    Model good;
    good.source = "large";
    good.mesh = randomMesh(1000, 40000, 2);
    CpuRenderer renderer(2);
    const auto draw = [&renderer](const Model& model, std::vector<std::uint32_t>& color) {
        std::vector<float> depth(color.size());
        test::drawWith(renderer, model, Camera{}.view(1.0f), RenderSettings{}, FrameView{color.data(), depth.data(), 32, 32});
    };
    std::vector<std::uint32_t> expected(32 * 32);
    draw(good, expected);
    ASSERT_GT(std::count_if(expected.begin(), expected.end(),
                            [](std::uint32_t c) { return c != RenderSettings{}.clearColor; }),
              100)
        << "the good mesh draws too little for the picture to tell";
    for (const std::size_t at : {std::size_t(0), good.mesh.indices.size() / 2, good.mesh.indices.size() - 1}) {
        Model bad = good;
        bad.mesh.indices[at] = 1000 + std::uint32_t(at);
        std::vector<std::uint32_t> color(32 * 32, 7u);
        try {
            draw(bad, color);
            ADD_FAILURE() << "index " << at << " past the last vertex was drawn";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("mesh large: index " + std::to_string(1000 + at) +
                                                 " names no vertex (1000 vertices)"),
                      std::string::npos)
                << e.what();
        }
        EXPECT_EQ(color, std::vector<std::uint32_t>(32 * 32, 7u)) << "the target was touched (index " << at << ")";
        std::vector<std::uint32_t> again(32 * 32);
        draw(good, again);
        EXPECT_EQ(again, expected) << "after the bad index " << at;
    }
}

} // namespace
} // namespace facet

#include "bench/project.h"

namespace facet {
namespace {

// The seed's projection written out here, apart from projectThread: shift by the eye, the
// rotation's rows (right, up, forward) dotted with it left to right, then x and y times
// focus / |z|. With FP contraction off, every path must round exactly like this.
glm::vec3 projectByHand(glm::vec3 v, glm::vec3 eye, const glm::mat3& r, float focus) {
    const float sx = v.x - eye.x, sy = v.y - eye.y, sz = v.z - eye.z;
    const float dx = r[0][0] * sx + r[1][0] * sy + r[2][0] * sz;
    const float dy = r[0][1] * sx + r[1][1] * sy + r[2][1] * sz;
    const float dz = r[0][2] * sx + r[1][2] * sy + r[2][2] * sz;
    const float k = focus / std::fabs(dz);
    return {dx * k, dy * k, dz};
}

TEST(CpuPipeline, SeedProjectionEqualsTheCameraMath) {
    // The seed's workload: random vertices in [-50, 50]^3 seen from (0, 0, 10), focus 5; and a
    // rotated camera, with an odd count for the loop tails. The vectorised and the scalar path
    // equal the math written above bit for bit, and the camera's axes in double precision to
    // within float rounding.
    for (const float yaw : {0.0f, 37.0f}) {
        const std::size_t n = 1003;
        std::mt19937 rng(3);
        std::uniform_real_distribution<float> pos(-50.0f, 50.0f);
        std::vector<float> px(n), py(n), pz(n);
        for (std::size_t i = 0; i < n; ++i) px[i] = pos(rng), py[i] = pos(rng), pz[i] = pos(rng);
        Camera cam;
        cam.yawDegrees = yaw;
        const glm::vec3 eye(0.0f, 0.0f, 10.0f);
        const glm::mat3 rotation = yaw == 0.0f ? glm::mat3(1.0f) : cam.rotation();
        const glm::dvec3 right = yaw == 0.0f ? glm::dvec3(1, 0, 0) : glm::dvec3(cam.right());
        const glm::dvec3 up = yaw == 0.0f ? glm::dvec3(0, 1, 0) : glm::dvec3(cam.up());
        const glm::dvec3 forward = yaw == 0.0f ? glm::dvec3(0, 0, 1) : glm::dvec3(cam.forward());
        std::vector<float> out[2][3];
        for (auto& o : out)
            for (auto& v : o) v.assign(n, 0.0f);
        for (int way = 0; way < 2; ++way) {
            const ProjectParams p{px.data(), py.data(), pz.data(), out[way][0].data(), out[way][1].data(),
                                  out[way][2].data(), std::uint32_t(n), eye, rotation, 5.0f};
            if (way == 0) projectVertices(p, 0, n);
            if (way == 1) projectVerticesScalar(p, 0, n);
        }
        for (std::size_t i = 0; i < n; ++i) {
            const glm::vec3 expected = projectByHand({px[i], py[i], pz[i]}, eye, rotation, 5.0f);
            const glm::dvec3 d = glm::dvec3(px[i], py[i], pz[i]) - glm::dvec3(eye);
            const double z = glm::dot(forward, d), k = 5.0 / std::abs(z);
            const glm::dvec3 exact(glm::dot(right, d) * k, glm::dot(up, d) * k, z);
            for (int way = 0; way < 2; ++way) {
                const glm::vec3 got(out[way][0][i], out[way][1][i], out[way][2][i]);
                ASSERT_EQ(std::memcmp(&got, &expected, sizeof got), 0)
                    << (way ? "scalar" : "vector") << " path, vertex " << i << ", yaw " << yaw;
                // Float sums round by a few ulps of the terms (|v - eye| at most), and z's
                // rounding comes back relative to |z| through k.
                const double s = glm::length(d);
                for (int c = 0; c < 3; ++c)
                    ASSERT_NEAR(got[c], exact[c], 2.5e-7 * s * (std::max(k, 1.0) + std::abs(exact[c]) / std::abs(z)))
                        << "vertex " << i << " component " << c << ", yaw " << yaw;
            }
        }
        if (yaw == 0.0f) { // identity rotation: x * focus / |z - 10|, by hand
            EXPECT_EQ(out[0][0][0], px[0] * (5.0f / std::abs(pz[0] - 10.0f)));
            EXPECT_EQ(out[1][2][0], pz[0] - 10.0f);
        }
    }
    // A vertex in the eye's plane whose depth rounds to -0: |-0| is +0, so x and y go to +inf
    // on every path (a sign test instead of the absolute value would give -inf).
    const float px[] = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f};
    const float py[] = {1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f};
    const float pz[] = {10.0f, 10.0f, 10.0f, 10.0f, 10.0f, 10.0f, 10.0f, 10.0f, 10.0f};
    glm::mat3 rotation(1.0f);
    rotation[0][2] = -0.0f; // forward row (-0, -0, -1)
    rotation[1][2] = -0.0f;
    rotation[2][2] = -1.0f;
    float out[2][3][9];
    for (int way = 0; way < 2; ++way) {
        const ProjectParams p{px, py, pz, out[way][0], out[way][1], out[way][2], 9, {0.0f, 0.0f, 10.0f}, rotation, 5.0f};
        if (way == 0) projectVertices(p, 0, 9);
        if (way == 1)
            for (std::uint32_t i = 0; i < 9; ++i) projectThread(p, i);
    }
    EXPECT_TRUE(std::signbit(out[0][2][0])) << "the depth is -0";
    EXPECT_EQ(std::memcmp(out[0], out[1], sizeof out[0]), 0);
    EXPECT_EQ(out[0][0][8], std::numeric_limits<float>::infinity());
}

TEST(CpuPipeline, SeedProjectionOverRowsEqualsColumns) {
    // projectVertexRows (the seed's interleaved (N, 3) layout, facet.project's) computes what
    // projectVertices does on columns, bit for bit, on every path this CPU has: for counts
    // around the sixteen-row blocks (heads, tails, both), rows starting at every 4-byte offset
    // of a cache line (the AVX-512 path first aligns its loads), in place, and with params.count
    // left 0 (the rows functions do not read it: the scalar path once wrote nothing then).
    const std::size_t most = 1003;
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> pos(-50.0f, 50.0f);
    std::vector<float> px(most), py(most), pz(most), x(most), y(most), z(most);
    for (std::size_t i = 0; i < most; ++i) px[i] = pos(rng), py[i] = pos(rng), pz[i] = pos(rng);
    pz[7] = 10.0f; // depth 0: infinite x and y
    Camera cam;
    cam.yawDegrees = 37.0f;
    cam.pitchDegrees = -12.0f;
    const glm::vec3 eye(1.0f, 2.0f, 10.0f);
    projectVertices({px.data(), py.data(), pz.data(), x.data(), y.data(), z.data(), std::uint32_t(most), eye,
                     cam.rotation(), 5.0f},
                    0, most);
    std::vector<float> inBuffer(3 * most + 64), outBuffer(3 * most + 64);
    for (const Isa isa : {Isa::Scalar, Isa::Avx2, Isa::Avx512}) {
        if (!cpuSupports(isa)) continue;
        for (const std::size_t n : {std::size_t(1), std::size_t(15), std::size_t(16), std::size_t(17),
                                    std::size_t(40), most})
            for (std::size_t offset = 0; offset < 16; ++offset) {
                float* rows = inBuffer.data() + offset;
                float* out = outBuffer.data() + 15 - offset;
                for (std::size_t i = 0; i < n; ++i) rows[3 * i] = px[i], rows[3 * i + 1] = py[i], rows[3 * i + 2] = pz[i];
                projectVertexRows({rows, nullptr, nullptr, out, nullptr, nullptr, 0, eye, cam.rotation(), 5.0f}, 0, n,
                                  isa);
                projectVertexRows({rows, nullptr, nullptr, rows, nullptr, nullptr, 0, eye, cam.rotation(), 5.0f}, 0, n,
                                  isa);
                for (std::size_t i = 0; i < n; ++i) {
                    const float column[3] = {x[i], y[i], z[i]};
                    ASSERT_EQ(std::memcmp(column, &out[3 * i], sizeof column), 0)
                        << nameOf(isa) << ", " << n << " rows at +" << offset << ", vertex " << i;
                    ASSERT_EQ(std::memcmp(column, &rows[3 * i], sizeof column), 0)
                        << nameOf(isa) << ", in place, " << n << " rows at +" << offset << ", vertex " << i;
                }
            }
    }
    // The overload without a path takes chosenIsa()'s, and begin offsets the rows.
    std::vector<float> rows(3 * most), out(3 * most, -1.0f);
    for (std::size_t i = 0; i < most; ++i) rows[3 * i] = px[i], rows[3 * i + 1] = py[i], rows[3 * i + 2] = pz[i];
    projectVertexRows({rows.data(), nullptr, nullptr, out.data(), nullptr, nullptr, 0, eye, cam.rotation(), 5.0f}, 5,
                      most);
    EXPECT_EQ(out[14], -1.0f) << "rows before begin are not written";
    for (std::size_t i = 5; i < most; ++i) {
        const float column[3] = {x[i], y[i], z[i]};
        ASSERT_EQ(std::memcmp(column, &out[3 * i], sizeof column), 0) << "vertex " << i;
    }
}


// Resident memory of this process in bytes (Linux), or 0 where /proc cannot say.
std::size_t residentBytes() {
    std::FILE* f = std::fopen("/proc/self/statm", "r");
    if (!f) return 0;
    unsigned long pages = 0, resident = 0;
    const int got = std::fscanf(f, "%lu %lu", &pages, &resident);
    std::fclose(f);
    return got == 2 ? std::size_t(resident) * std::size_t(sysconf(_SC_PAGESIZE)) : 0;
}

// A flat grid of cols x rows cells (two triangles each) over [-2, 2] x [-1.2, 1.2] at z = 0.
Mesh denseGrid(std::size_t cols, std::size_t rows) {
    Mesh m;
    for (std::size_t j = 0; j <= rows; ++j)
        for (std::size_t i = 0; i <= cols; ++i) {
            m.px.push_back(-2.0f + 4.0f * float(i) / float(cols));
            m.py.push_back(-1.2f + 2.4f * float(j) / float(rows));
            m.pz.push_back(0.0f);
        }
    for (std::size_t j = 0; j < rows; ++j)
        for (std::size_t i = 0; i < cols; ++i) {
            const auto a = std::uint32_t(j * (cols + 1) + i), b = a + 1, c = a + std::uint32_t(cols + 1), d = c + 1;
            for (std::uint32_t k : {a, b, d, a, d, c}) m.indices.push_back(k);
        }
    m.u.assign(m.px.size(), 0.0f);
    m.v.assign(m.px.size(), 0.0f);
    generateNormals(m);
    computeBounds(m);
    m.ranges.push_back({0, std::uint32_t(m.triangleCount()), 0});
    return m;
}

// The 4M-triangle scene peaked at 1.1 GB: the set-up storage, sized for every triangle, was
// zeroed, so every triangle cost its ~220 bytes of resident memory though most of a dense mesh
// covers no pixel centre and is never set up. Now only what is drawn becomes resident: here
// 720k sub-pixel triangles (about 8k of them hold a pixel centre) may add at most 64 bytes per
// triangle (the vertex stage's arrays and the drawn triangles: about 30), where the old 220
// added 150 MB.
TEST(CpuPipeline, FrameMemoryFollowsTheDrawnTrianglesNotTheMesh) {
    if (residentBytes() == 0) GTEST_SKIP() << "no /proc/self/statm: resident memory cannot be read here";
#if defined(FACET_TEST_TSAN)
    GTEST_SKIP() << "under ThreadSanitizer resident memory follows what is allocated, not what is written: its "
                    "allocator marks the shadow memory of every block it hands out (the normal and ASan "
                    "builds check this bound)";
#endif
    Model model;
    model.mesh = denseGrid(600, 600);
    model.materials.push_back(Material{});
    Camera cam;
    cam.eye = glm::vec3(0.0f, 0.0f, 2.0f);
    cam.nearPlane = 0.1f;
    cam.farPlane = 10.0f;
    const int w = 160, h = 90;
    std::vector<std::uint32_t> color(std::size_t(w) * h);
    std::vector<float> depth(color.size());
    CpuRenderer r(2);
    const std::size_t before = residentBytes();
    const CpuFrameStats stats =
        test::drawWith(r, model, cam.view(float(w) / h), RenderSettings{}, FrameView{color.data(), depth.data(), w, h});
    const std::size_t grown = residentBytes() - std::min(before, residentBytes());
    EXPECT_EQ(stats.trianglesIn, model.mesh.triangleCount());
    EXPECT_GT(stats.trianglesCulled, stats.trianglesIn * 9 / 10); // most cover no pixel centre
    EXPECT_LT(grown, 64 * model.mesh.triangleCount()) << grown / 1048576 << " MiB for " << stats.trianglesIn << " triangles";
}

} // namespace
} // namespace facet
