// The OpenGL reference path against the CPU backend: the same scenes rendered both ways must
// agree on coverage (pixel covered iff depth < 1), on colour where both cover, and on depth.
// Skipped where no OpenGL 3.3 context can be made. Each comparison prints its numbers.
#include "draw_with.h"
#include "asset/image.h"
#include "asset/load_model.h"
#include "core/camera.h"
#include "core/error.h"
#include "cpu/cpu_renderer.h"
#include "gl/gl_reference.h"
#include "gl_support.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <random>
#include <sstream>

namespace facet {
namespace {

// What agreement the two paths must reach. Colour: llvmpipe takes log2 of the LOD with a
// piecewise-linear approximation (error up to 0.043 in lambda), which on the white-noise mip
// chain below moves trilinear results by up to 5. Depth: on smooth surfaces both sides
// interpolate the same plane; at creases and silhouettes a pixel's depth comes from a plane
// extrapolated up to half a sub-pixel step past its snapped edge, or from whichever of two
// nearly equal surfaces won, so those pixels (a kink in the depth) only meet the looser bound
// over all pixels. Vertex positions round differently on the two sides (GL divides clip
// coordinates in its own order), so a snapped vertex may rarely land one sub-pixel step away
// and hand a silhouette pixel to the surface behind: percentiles, not maxima, are bounded.
// Coverage: the hand-built scenes below measure 0 mismatches and must stay there; meshes from
// files (the corpus, the default scene), with vertices anywhere, get the percentile bound.
constexpr double kMinCoverageAgreement = 0.999;
constexpr double kExactCoverage = 1.0; // no pixel covered on one side only
constexpr int kMaxColorDiffP999 = 6;             // per channel, 99.9th percentile over pixels both cover
constexpr float kMaxSmoothDepthDiffP999 = 1e-6f; // 99.9th percentile over smooth pixels
constexpr float kMaxDepthDiffP999 = 1e-5f;       // 99.9th percentile over all pixels both cover

using test::channelDiff;
using test::Frame;

struct Agreement {
    std::size_t pixels = 0, covered = 0, coverageMismatches = 0, bothCovered = 0;
    int maxColorDiff = 0, p999ColorDiff = 0;
    std::size_t colorDiffOver4 = 0;
    float maxDepthDiff = 0.0f, p999DepthDiff = 0.0f, p999SmoothDepthDiff = 0.0f; // smooth: no depth kink
    std::vector<glm::ivec2> mismatchSamples;                                     // a few (x, y) where coverage differs

    double coverageAgreement() const { return 1.0 - double(coverageMismatches) / double(pixels); }
    std::string summary() const {
        std::ostringstream s;
        s << "coverage " << covered << " px, " << coverageMismatches << " mismatched ("
          << 100.0 * double(coverageMismatches) / double(pixels) << "%); colour max " << maxColorDiff << ", p99.9 "
          << p999ColorDiff << ", >4: " << colorDiffOver4 << " of " << bothCovered << "; depth max " << maxDepthDiff
          << ", p99.9 " << p999DepthDiff << ", p99.9 on smooth pixels " << p999SmoothDepthDiff;
        if (!mismatchSamples.empty()) {
            s << "; coverage differs at";
            for (const glm::ivec2& p : mismatchSamples) s << " (" << p.x << "," << p.y << ")";
        }
        return s.str();
    }
};

// A pixel whose depth neighbourhood is a smooth plane in both pictures: all 8 neighbours
// covered and no kink (second difference) in either direction.
bool smoothDepth(const Frame& f, std::size_t i) {
    const int x = int(i % std::size_t(f.width)), y = int(i / std::size_t(f.width));
    if (x < 1 || y < 1 || x + 1 >= f.width || y + 1 >= f.height) return false;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
            if (!(f.depth[i + std::size_t(dy * f.width + dx)] < 1.0f)) return false;
    const float* d = &f.depth[i];
    const std::ptrdiff_t w = f.width;
    constexpr float kKink = 1e-5f;
    return std::abs(d[-1] - 2 * d[0] + d[1]) < kKink && std::abs(d[-w] - 2 * d[0] + d[w]) < kKink;
}

Agreement compare(const Frame& cpu, const Frame& gl) {
    Agreement a;
    a.pixels = cpu.color.size();
    std::vector<int> diffs;
    std::vector<float> depthDiffs, smoothDepthDiffs;
    for (std::size_t i = 0; i < a.pixels; ++i) {
        const bool c = cpu.depth[i] < 1.0f, g = gl.depth[i] < 1.0f;
        a.covered += c;
        if (c != g) {
            ++a.coverageMismatches;
            if (a.mismatchSamples.size() < 8) a.mismatchSamples.push_back({int(i % cpu.width), int(i / cpu.width)});
            continue;
        }
        if (!c) continue;
        ++a.bothCovered;
        diffs.push_back(channelDiff(cpu.color[i], gl.color[i]));
        const float depthDiff = std::abs(cpu.depth[i] - gl.depth[i]);
        depthDiffs.push_back(depthDiff);
        if (smoothDepth(cpu, i) && smoothDepth(gl, i)) smoothDepthDiffs.push_back(depthDiff);
    }
    const auto p999 = [](auto& v) {
        return v[std::min(v.size() - 1, std::size_t(std::ceil(0.999 * double(v.size()))) - 1)];
    };
    if (!diffs.empty()) {
        std::sort(diffs.begin(), diffs.end());
        a.maxColorDiff = diffs.back();
        a.p999ColorDiff = p999(diffs);
        a.colorDiffOver4 = std::size_t(diffs.end() - std::upper_bound(diffs.begin(), diffs.end(), 4));
    }
    if (!depthDiffs.empty()) {
        std::sort(depthDiffs.begin(), depthDiffs.end());
        a.maxDepthDiff = depthDiffs.back();
        a.p999DepthDiff = p999(depthDiffs);
    }
    if (!smoothDepthDiffs.empty()) {
        std::sort(smoothDepthDiffs.begin(), smoothDepthDiffs.end());
        a.p999SmoothDepthDiff = p999(smoothDepthDiffs);
    }
    return a;
}

// Renders on both paths, prints the numbers, and checks them against the bounds above.
Agreement renderBoth(const std::string& scene, const Model& model, const ViewParams& view,
                     const RenderSettings& settings, int width, int height,
                     double minCoverageAgreement = kExactCoverage) {
    Frame cpu(width, height), gl(width, height);
    CpuRenderer cpuRenderer(2);
    test::drawWith(cpuRenderer, model, view, settings, cpu.view());
    GlReferenceRenderer glRenderer;
    test::drawWith(glRenderer, model, view, settings, gl.view());
    const Agreement a = compare(cpu, gl);
    std::cout << "[ GL vs CPU ] " << scene << " (" << width << "x" << height << "): " << a.summary() << "\n";
    if (minCoverageAgreement == kExactCoverage)
        EXPECT_EQ(a.coverageMismatches, 0u) << scene << ": " << a.summary();
    else
        EXPECT_GE(a.coverageAgreement(), minCoverageAgreement) << scene << ": " << a.summary();
    EXPECT_LE(a.p999ColorDiff, kMaxColorDiffP999) << scene << ": " << a.summary();
    EXPECT_LE(a.p999SmoothDepthDiff, kMaxSmoothDepthDiffP999) << scene << ": " << a.summary();
    EXPECT_LE(a.p999DepthDiff, kMaxDepthDiffP999) << scene << ": " << a.summary();
    return a;
}

// ---- crafted scenes --------------------------------------------------------------------

// A camera at the origin looking down +Z with focus 1 on a square target: a point at depth
// z lands on pixel ((x / z + 1) w / 2, (1 - y / z) h / 2), exactly in binary for the values
// used here, so vertices sit exactly where the scene says.
constexpr int kCraftedSize = 64;
ViewParams pixelView() { return ViewParams{glm::vec3(0.0f), glm::mat3(1.0f), 1.0f, 1.0f, 0.5f, 100.0f}; }

glm::vec3 atPixel(float px, float py, float z) {
    const float half = 0.5f * kCraftedSize;
    return {(px / half - 1.0f) * z, (1.0f - py / half) * z, z};
}

// Distinct, exactly representable colours, so who owns a shared edge's pixels shows in colour.
glm::vec3 distinctColor(std::size_t i) {
    return glm::vec3(float((40 + 67 * i) % 256), float((90 + 151 * i) % 256), float((200 + 29 * i) % 256)) / 255.0f;
}

// Each triangle gets its own vertices and its own flat material.
void addFlatTriangle(Model& m, glm::vec3 a, glm::vec3 b, glm::vec3 c) {
    Mesh& mesh = m.mesh;
    const auto first = std::uint32_t(mesh.vertexCount());
    for (const glm::vec3& p : {a, b, c}) {
        mesh.px.push_back(p.x);
        mesh.py.push_back(p.y);
        mesh.pz.push_back(p.z);
        mesh.u.push_back(0.0f);
        mesh.v.push_back(0.0f);
    }
    const auto triangle = std::uint32_t(mesh.triangleCount());
    mesh.indices.insert(mesh.indices.end(), {first, first + 1, first + 2});
    const auto material = std::uint32_t(m.materials.size());
    m.materials.push_back(Material{"flat" + std::to_string(material), distinctColor(material), -1});
    mesh.ranges.push_back({triangle, 1, material});
}

void finish(Model& m) {
    generateNormals(m.mesh);
    computeBounds(m.mesh);
}

TEST(GlReference, ProbeReportsRendererOrReason) {
    const GlAvailability& a = glAvailability();
    std::cout << "[ GL ] usable " << a.usable << ", renderer '" << a.renderer << "', context '" << a.context << "'"
              << (a.usable ? "" : ", reason: " + a.reason) << "\n";
    if (a.usable) {
        EXPECT_FALSE(a.renderer.empty());
        EXPECT_TRUE(a.reason.empty());
    } else {
        EXPECT_FALSE(a.reason.empty());
        EXPECT_FALSE(test::required("FACET_REQUIRE_GL")) << "OpenGL unusable: " << a.reason;
    }
}

TEST(GlReference, ClearsToTheClearColourAndFarDepth) {
    FACET_REQUIRE_GL();
    Model empty;
    RenderSettings settings;
    settings.clearColor = 0x80C04020u;
    Frame gl(33, 17);
    GlReferenceRenderer renderer;
    test::drawWith(renderer, empty, pixelView(), settings, gl.view());
    for (std::size_t i = 0; i < gl.color.size(); ++i) {
        ASSERT_EQ(gl.color[i], settings.clearColor) << i;
        ASSERT_EQ(gl.depth[i], 1.0f) << i;
    }
}

TEST(GlReference, RowZeroIsTheTop) {
    FACET_REQUIRE_GL();
    Model m; // one triangle in the top-left corner only
    addFlatTriangle(m, atPixel(1, 1, 2), atPixel(1, 9, 2), atPixel(9, 1, 2));
    finish(m);
    Frame gl(kCraftedSize, kCraftedSize);
    GlReferenceRenderer renderer;
    test::drawWith(renderer, m, pixelView(), RenderSettings{}, gl.view());
    EXPECT_LT(gl.depth[2 * kCraftedSize + 2], 1.0f);
    EXPECT_EQ(gl.depth[(kCraftedSize - 3) * kCraftedSize + 2], 1.0f);
}

TEST(GlReference, EdgesThroughPixelCentres) {
    FACET_REQUIRE_GL();
    // A grid of cells with corners on pixel centres, each split along alternating diagonals
    // (which pass through pixel centres too): every edge type meets the fill rule.
    Model m;
    for (int j = 0; j < 7; ++j)
        for (int i = 0; i < 7; ++i) {
            const float x0 = 4.5f + 8.0f * i, y0 = 4.5f + 8.0f * j, x1 = x0 + 8.0f, y1 = y0 + 8.0f;
            const glm::vec3 a = atPixel(x0, y0, 2), b = atPixel(x1, y0, 2), c = atPixel(x1, y1, 2),
                            d = atPixel(x0, y1, 2);
            if ((i + j) % 2 == 0) {
                addFlatTriangle(m, a, b, c);
                addFlatTriangle(m, a, c, d);
            } else {
                addFlatTriangle(m, a, b, d);
                addFlatTriangle(m, b, c, d);
            }
        }
    finish(m);
    renderBoth("pixel-centre grid", m, pixelView(), RenderSettings{}, kCraftedSize, kCraftedSize);
}

TEST(GlReference, SingleTrianglesShowTheFillRule) {
    FACET_REQUIRE_GL();
    // One triangle per case, edges exactly through pixel centres: a top edge, a bottom edge,
    // a left and a right edge (both windings render the same; no culling).
    const struct {
        const char* name;
        glm::vec2 a, b, c;
    } cases[] = {
        {"flat top", {10.5f, 10.5f}, {40.5f, 10.5f}, {25.5f, 40.5f}},
        {"flat bottom", {25.5f, 10.5f}, {40.5f, 40.5f}, {10.5f, 40.5f}},
        {"vertical left", {10.5f, 10.5f}, {40.5f, 25.5f}, {10.5f, 40.5f}},
        {"vertical right", {40.5f, 10.5f}, {40.5f, 40.5f}, {10.5f, 25.5f}},
    };
    for (const auto& c : cases) {
        Model m;
        addFlatTriangle(m, atPixel(c.a.x, c.a.y, 2), atPixel(c.b.x, c.b.y, 2), atPixel(c.c.x, c.c.y, 2));
        finish(m);
        renderBoth(std::string("fill rule, ") + c.name, m, pixelView(), RenderSettings{}, kCraftedSize, kCraftedSize);
    }
}

TEST(GlReference, Fan) {
    FACET_REQUIRE_GL();
    // 24 triangles around a centre on a pixel centre; the rim alternates between pixel centres
    // and arbitrary positions, so shared edges cross pixels at every angle.
    Model m;
    const glm::vec2 centre(32.5f, 32.5f);
    std::vector<glm::vec2> rim;
    for (int k = 0; k < 24; ++k) {
        const float angle = 2.0f * 3.14159265f * float(k) / 24.0f + 0.1f;
        glm::vec2 p = centre + 27.3f * glm::vec2(std::cos(angle), std::sin(angle));
        if (k % 2 == 0) p = glm::floor(p) + 0.5f;
        rim.push_back(p);
    }
    for (int k = 0; k < 24; ++k) {
        const glm::vec2 a = rim[std::size_t(k)], b = rim[std::size_t((k + 1) % 24)];
        addFlatTriangle(m, atPixel(centre.x, centre.y, 2), atPixel(a.x, a.y, 2), atPixel(b.x, b.y, 2));
    }
    finish(m);
    const Agreement all = renderBoth("fan", m, pixelView(), RenderSettings{}, kCraftedSize, kCraftedSize);
    // The fan winds one way throughout: culled, all of it or none shows. The same fan wound
    // the other way shows the other; every other triangle turned round shows half of them.
    // So culling must neither keep nor drop everything.
    RenderSettings culled;
    culled.cull = CullMode::Back;
    Model reversed = m, alternating = m;
    for (std::size_t t = 0; t < m.mesh.triangleCount(); ++t) {
        std::swap(reversed.mesh.indices[3 * t + 1], reversed.mesh.indices[3 * t + 2]);
        if (t % 2 == 1) std::swap(alternating.mesh.indices[3 * t + 1], alternating.mesh.indices[3 * t + 2]);
    }
    finish(reversed);
    finish(alternating);
    const Agreement one = renderBoth("fan, back faces culled", m, pixelView(), culled, kCraftedSize, kCraftedSize);
    const Agreement other =
        renderBoth("fan wound the other way, back faces culled", reversed, pixelView(), culled, kCraftedSize, kCraftedSize);
    const Agreement half = renderBoth("fan wound both ways, back faces culled", alternating, pixelView(), culled,
                                      kCraftedSize, kCraftedSize);
    EXPECT_GT(all.covered, 0u);
    EXPECT_EQ(std::min(one.covered, other.covered), 0u) << "one winding is culled entirely";
    EXPECT_EQ(std::max(one.covered, other.covered), all.covered) << "the other is kept entirely";
    EXPECT_GT(half.covered, all.covered / 4) << "culling dropped triangles facing the camera";
    EXPECT_LT(half.covered, all.covered * 3 / 4) << "culling kept triangles facing away";
}

TEST(GlReference, OverlappingQuadsAtDifferentDepths) {
    FACET_REQUIRE_GL();
    Model m;
    const auto quad = [&m](glm::vec2 lo, glm::vec2 hi, float zTop, float zBottom) {
        const glm::vec3 a = atPixel(lo.x, lo.y, zTop), b = atPixel(hi.x, lo.y, zTop);
        const glm::vec3 c = atPixel(hi.x, hi.y, zBottom), d = atPixel(lo.x, hi.y, zBottom);
        addFlatTriangle(m, a, b, c);
        addFlatTriangle(m, a, c, d);
    };
    quad({6.3f, 8.7f}, {44.1f, 40.2f}, 3.0f, 3.0f);   // near, drawn first
    quad({20.6f, 20.2f}, {58.9f, 57.4f}, 5.0f, 5.0f); // far, behind it
    quad({2.2f, 30.1f}, {61.7f, 50.6f}, 2.5f, 6.5f);  // slanted, cutting through both
    finish(m);
    const Agreement a = renderBoth("overlapping quads", m, pixelView(), RenderSettings{}, kCraftedSize, kCraftedSize);
    EXPECT_GT(a.bothCovered, 1000u);
}

TEST(GlReference, FarPlaneCutsAQuadReachingPastIt) {
    FACET_REQUIRE_GL();
    // A quad sloping from depth 40 at the top to 160 at the bottom, through the far plane at
    // 100: its lower part must vanish on both paths alike, and only it.
    Model m;
    const glm::vec3 a = atPixel(8.5f, 6.5f, 40.0f), b = atPixel(56.5f, 6.5f, 40.0f);
    const glm::vec3 c = atPixel(56.5f, 58.5f, 160.0f), d = atPixel(8.5f, 58.5f, 160.0f);
    addFlatTriangle(m, a, b, c);
    addFlatTriangle(m, a, c, d);
    finish(m);
    const ViewParams view = pixelView();
    ASSERT_EQ(view.farPlane, 100.0f);
    const Agreement cut = renderBoth("quad through the far plane", m, view, RenderSettings{}, kCraftedSize, kCraftedSize);
    ViewParams farther = view;
    farther.farPlane = 200.0f;
    const Agreement whole = renderBoth("the same quad, far plane behind it", m, farther, RenderSettings{},
                                       kCraftedSize, kCraftedSize);
    // Depth 100 is halfway along the quad in space, 80% of the way down on screen
    // (t * 160 / ((1 - t) * 40 + t * 160) at t = 1/2): that much of it shows.
    EXPECT_GT(cut.covered, whole.covered * 7 / 10) << "the part nearer than the far plane is drawn";
    EXPECT_LT(cut.covered, whole.covered * 9 / 10) << "the part past the far plane is not";
}

// A deterministic noise texture: every texel differs, so any filtering difference shows.
Texture noiseTexture(std::uint32_t size, unsigned seed) {
    std::mt19937 rng(seed);
    Image image{size, size, std::vector<std::uint32_t>(std::size_t(size) * size)};
    for (std::uint32_t& p : image.pixels) p = rng() | 0xFF000000u;
    return makeTexture(image, "noise");
}

// A ground plane y = 0 seen at a grazing angle, uv repeating every 2 units.
Model texturedPlane(Texture texture) {
    Model m;
    Mesh& mesh = m.mesh;
    const float x0 = -30.0f, x1 = 30.0f, z0 = -80.0f, z1 = 3.0f;
    for (const glm::vec2 p : {glm::vec2(x0, z0), glm::vec2(x1, z0), glm::vec2(x1, z1), glm::vec2(x0, z1)}) {
        mesh.px.push_back(p.x);
        mesh.py.push_back(0.0f);
        mesh.pz.push_back(p.y);
        mesh.u.push_back(p.x / 2.0f);
        mesh.v.push_back(p.y / 2.0f);
    }
    mesh.indices = {0, 2, 1, 0, 3, 2};
    mesh.hasTexCoords = true;
    mesh.ranges.push_back({0, 2, 0});
    m.materials.push_back(Material{"ground", glm::vec3(1.0f), 0});
    m.textures.push_back(std::move(texture));
    finish(m);
    return m;
}

ViewParams planeView(int width, int height) {
    Camera camera;
    camera.eye = {0.37f, 1.3f, 1.1f};
    camera.yawDegrees = 12.0f;
    camera.pitchDegrees = -17.0f;
    camera.nearPlane = 0.1f;
    camera.farPlane = 200.0f;
    return camera.view(float(width) / float(height));
}

TEST(GlReference, TexturedSlantedPlane) {
    FACET_REQUIRE_GL();
    const Model plane = texturedPlane(noiseTexture(64, 3));
    const struct {
        const char* name;
        TextureFilter filter;
    } filters[] = {{"nearest", TextureFilter::Nearest},
                   {"bilinear", TextureFilter::Bilinear},
                   {"trilinear", TextureFilter::Trilinear}};
    for (const glm::ivec2 size : {glm::ivec2(160, 120), glm::ivec2(161, 121)})
        for (const auto& f : filters) {
            RenderSettings settings;
            settings.filter = f.filter;
            renderBoth(std::string("textured plane, ") + f.name, plane, planeView(size.x, size.y), settings, size.x,
                       size.y);
        }
}

// Vertex colours multiply the texel (or the material colour), interpolated perspective-correctly:
// the plane's four corners in four colours, seen at a grazing angle.
TEST(GlReference, VertexColoursOnASlantedPlane) {
    FACET_REQUIRE_GL();
    Model plane = texturedPlane(noiseTexture(64, 5));
    const glm::vec3 colors[4] = {{1.0f, 0.2f, 0.0f}, {0.0f, 1.0f, 0.4f}, {0.3f, 0.0f, 1.0f}, {1.0f, 1.0f, 1.0f}};
    for (const glm::vec3& c : colors) {
        plane.mesh.cr.push_back(c.r);
        plane.mesh.cg.push_back(c.g);
        plane.mesh.cb.push_back(c.b);
    }
    for (const TextureFilter filter : {TextureFilter::Nearest, TextureFilter::Bilinear, TextureFilter::Trilinear}) {
        RenderSettings settings;
        settings.filter = filter;
        renderBoth(std::string("vertex-coloured textured plane, ") + nameOf(filter), plane,
                   planeView(161, 121), settings, 161, 121);
    }
    plane.materials[0] = Material{"tinted", glm::vec3(0.9f, 0.7f, 0.5f), -1};
    RenderSettings settings;
    settings.headlight = true;
    renderBoth("vertex-coloured plane, headlight", plane, planeView(160, 120), settings, 160, 120);
}

// A box around the camera, one texture over each face, flat normals (own vertices per face).
Model boxAround(float half) {
    Model m;
    Mesh& mesh = m.mesh;
    const glm::vec3 axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int axis = 0; axis < 3; ++axis)
        for (const float side : {-1.0f, 1.0f}) {
            const glm::vec3 n = side * axes[axis];
            const glm::vec3 t = axes[(axis + 1) % 3], b = axes[(axis + 2) % 3];
            const auto first = std::uint32_t(mesh.vertexCount());
            const glm::vec2 corners[4] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
            for (const glm::vec2 c : corners) {
                const glm::vec3 p = half * (n + c.x * t + c.y * b);
                mesh.px.push_back(p.x);
                mesh.py.push_back(p.y);
                mesh.pz.push_back(p.z);
                mesh.u.push_back(1.5f * (c.x + 1.0f));
                mesh.v.push_back(1.5f * (c.y + 1.0f));
                mesh.nx.push_back(n.x);
                mesh.ny.push_back(n.y);
                mesh.nz.push_back(n.z);
            }
            mesh.indices.insert(mesh.indices.end(), {first, first + 1, first + 2, first, first + 2, first + 3});
        }
    mesh.hasTexCoords = true;
    mesh.ranges.push_back({0, 6, 0});
    mesh.ranges.push_back({6, 6, 1});
    m.materials.push_back(Material{"checker", glm::vec3(1.0f), 0});
    m.materials.push_back(Material{"plain", glm::vec3(0.25f, 0.5f, 0.75f), -1});
    m.textures.push_back(makeCheckerTexture(64, 8));
    computeBounds(mesh);
    return m;
}

TEST(GlReference, CameraInsideABoxClipsAtTheNearPlane) {
    FACET_REQUIRE_GL();
    const Model box = boxAround(2.0f);
    Camera camera;
    camera.eye = {0.3f, -0.2f, 0.5f};
    camera.yawDegrees = 30.0f;
    camera.pitchDegrees = 10.0f;
    camera.fovYDegrees = 90.0f;
    camera.nearPlane = 0.05f;
    camera.farPlane = 10.0f;
    for (const bool headlight : {false, true}) {
        RenderSettings settings;
        settings.headlight = headlight;
        renderBoth(headlight ? "inside a box, headlight" : "inside a box", box, camera.view(200.0f / 150.0f), settings,
                   200, 150);
    }
    // Near plane cutting through walls close by: the eye almost touching a corner.
    camera.eye = {1.97f, 1.96f, -1.95f};
    camera.yawDegrees = -135.0f;
    camera.pitchDegrees = 35.0f;
    camera.nearPlane = 0.1f;
    renderBoth("inside a box, near a corner", box, camera.view(200.0f / 150.0f), RenderSettings{}, 200, 150);

    // With vertex colours, which clipping interpolates to the polygon's new corners.
    Model colored = box;
    for (std::size_t i = 0; i < colored.mesh.vertexCount(); ++i) {
        const glm::vec3 c = (colored.mesh.position(i) + 2.0f) / 4.0f; // each corner its own colour
        colored.mesh.cr.push_back(c.x);
        colored.mesh.cg.push_back(c.y);
        colored.mesh.cb.push_back(1.0f - c.z);
    }
    RenderSettings lit;
    lit.headlight = true;
    renderBoth("vertex-coloured box, near a corner", colored, camera.view(200.0f / 150.0f), lit, 200, 150);
}

// ---- the corpus ------------------------------------------------------------------------

struct CorpusCase {
    const char* path;    // under modelsDir()
    const char* texture; // bound to every material when the model has none of its own, or null
    bool headlight;
};

TEST(GlReference, CorpusMeshes) {
    FACET_REQUIRE_GL();
    const std::filesystem::path dir = test::modelsDir();
    if (!std::filesystem::exists(dir)) FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_CORPUS", "no corpus at " << dir);
    const CorpusCase cases[] = {
        {"common-3d-test-models/stanford-bunny.obj", nullptr, true},
        {"common-3d-test-models/teapot.obj", nullptr, true},
        {"common-3d-test-models/spot/spot_triangulated.obj", "common-3d-test-models/spot/spot_texture.png", false},
        {"tinyobjloader/cornell_box.obj", nullptr, true},
        {"obj2gltf/box-textured/box-textured.obj", nullptr, false},
        {"obj2gltf/box-objects-groups-materials/box-objects-groups-materials.obj", nullptr, true},
        {"tinyobjloader/cube-vertexcol.obj", nullptr, true},
    };
    for (const CorpusCase& c : cases) {
        const std::filesystem::path path = dir / c.path;
        if (!std::filesystem::exists(path)) {
            std::cout << "[ GL vs CPU ] " << c.path << ": not in the corpus, skipped\n";
            continue;
        }
        Model model = loadModel(path);
        if (c.texture) {
            model.textures.push_back(makeTexture(loadImage(dir / c.texture), c.texture));
            if (model.materials.empty()) model.materials.push_back(Material{});
            for (Material& mat : model.materials) mat.texture = std::int32_t(model.textures.size() - 1);
        }
        const Camera camera = Camera::framing(model.mesh, 320.0f / 240.0f);
        for (const bool cull : {false, true}) {
            RenderSettings settings;
            settings.headlight = c.headlight;
            settings.cull = cull ? CullMode::Back : CullMode::None;
            renderBoth(std::string(c.path) + (cull ? ", culled" : ""), model, camera.view(320.0f / 240.0f), settings,
                       320, 240, kMinCoverageAgreement);
        }
    }
}

} // namespace
} // namespace facet

namespace facet {
namespace {

// A camera as users give them through OpenGL's projection: OpenCV intrinsics with an off-centre
// principal point and non-square pixels, at a rolled pose.
TEST(GlReference, IntrinsicCameraOffCentreAndNonSquare) {
    FACET_REQUIRE_GL();
    const Model model = loadModel(test::sourceDir() / "assets/default_scene/scene.obj");
    const Camera camera = test::offCentreIntrinsicCamera(model.mesh, PoseConvention::OpenGl);
    RenderSettings settings;
    settings.headlight = true;
    renderBoth("default scene, intrinsics off centre", model, camera.view(321.0f / 241.0f), settings, 321, 241,
               kMinCoverageAgreement);
}

TEST(GlReference, DefaultScene) {
    FACET_REQUIRE_GL();
    const Model model = loadModel(test::sourceDir() / "assets/default_scene/scene.obj");
    // Even and odd sizes (odd heights shift OpenGL's quad pairing), the default view and a
    // low view close to the ground, every filter, with and without the headlight.
    struct Case {
        int width, height;
        TextureFilter filter;
        bool headlight, low;
    };
    const Case cases[] = {{640, 360, TextureFilter::Trilinear, true, false},
                          {321, 241, TextureFilter::Trilinear, false, false},
                          {400, 300, TextureFilter::Bilinear, true, true},
                          {400, 300, TextureFilter::Nearest, false, true}};
    for (const Case& c : cases) {
        const float aspect = float(c.width) / float(c.height);
        const Camera camera = test::sceneCamera(model.mesh, aspect, c.low);
        RenderSettings settings;
        settings.filter = c.filter;
        settings.headlight = c.headlight;
        std::ostringstream name;
        name << "default scene" << (c.low ? ", low view" : "") << ", filter " << int(c.filter)
             << (c.headlight ? ", headlight" : "");
        renderBoth(name.str(), model, camera.view(aspect), settings, c.width, c.height, kMinCoverageAgreement);
    }
}

} // namespace
} // namespace facet
