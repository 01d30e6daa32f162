// The debug views (RenderSettings::view, core/view_shading.h): each view's colours at chosen
// pixels of a small scene whose every value is known, the CUDA kernels run on the CPU drawing
// every view byte for byte as the CPU backend does, and the OpenGL reference drawing the views
// it can as facet does (and refusing tiles, saying why).
#include "draw_with.h"
#include "asset/image.h"
#include "asset/load_model.h"
#include "core/camera.h"
#include "core/error.h"
#include "core/lighting.h"
#include "core/vertex_color.h"
#include "core/view_shading.h"
#include "cpu/cpu_renderer.h"
#include "gl/gl_reference.h"
#include "gl_support.h"
#include "test_support.h"

#if defined(FACET_HAVE_KERNELS_HOST)
#include "cuda/host_kernel_renderer.h"
#endif

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <iostream>
#include <limits>
#include <string>

namespace facet {
namespace {

using test::Frame;

constexpr int kWidth = 128, kHeight = 64; // two tiles side by side

// Identity rotation, focus 1: a point at depth z lands on pixel ((x / (a z) + 1) w / 2,
// (1 - y / z) h / 2) with a = w / h, exactly in binary for the values used here.
ViewParams pixelView() {
    return ViewParams{glm::vec3(0.0f), glm::mat3(1.0f), 1.0f, float(kWidth) / float(kHeight), 0.5f, 100.0f};
}

glm::vec3 atPixel(float px, float py, float z) {
    const float aspect = float(kWidth) / float(kHeight);
    return {(px / (0.5f * kWidth) - 1.0f) * aspect * z, (1.0f - py / (0.5f * kHeight)) * z, z};
}

// An axis-aligned square of pixels [lo, hi]^2 at depth z with normal n and uv = pixel / 64, as
// triangles (top-left, top-right, bottom-right) and (top-left, bottom-right, bottom-left).
void addSquare(Mesh& m, float lo, float hi, float z, glm::vec3 n) {
    const auto first = std::uint32_t(m.px.size());
    for (const glm::vec2 p : {glm::vec2(lo, lo), glm::vec2(hi, lo), glm::vec2(hi, hi), glm::vec2(lo, hi)}) {
        const glm::vec3 q = atPixel(p.x, p.y, z);
        m.px.push_back(q.x);
        m.py.push_back(q.y);
        m.pz.push_back(q.z);
        m.u.push_back(p.x / 64.0f);
        m.v.push_back(p.y / 64.0f);
        m.nx.push_back(n.x);
        m.ny.push_back(n.y);
        m.nz.push_back(n.z);
    }
    m.indices.insert(m.indices.end(), {first, first + 1, first + 2, first, first + 2, first + 3});
}

// Square A (triangles 0 and 1) over pixels [8, 40]^2 at depth 2 facing the camera, then square
// B (triangles 2 and 3), nearer at depth 1 with normal +X, over [24, 56]^2: B hides A where they
// overlap. One grey material (128 once shaded); everything lies in the left tile.
Model twoSquares() {
    Model model;
    model.source = "two squares";
    Mesh& m = model.mesh;
    addSquare(m, 8.0f, 40.0f, 2.0f, {0.0f, 0.0f, -1.0f});
    addSquare(m, 24.0f, 56.0f, 1.0f, {1.0f, 0.0f, 0.0f});
    m.hasTexCoords = true;
    m.ranges.push_back({0, 4, 0});
    model.materials.push_back(Material{"grey", glm::vec3(0.5f), -1});
    computeBounds(m);
    return model;
}

RenderSettings inView(View view) {
    RenderSettings s = test::classicSettings();
    s.view = view;
    return s;
}

Frame renderCpu(const Model& model, View view) {
    Frame f(kWidth, kHeight);
    test::drawWith(CpuRenderer(2), model, pixelView(), inView(view), f.view());
    return f;
}

std::uint32_t rgb(std::uint32_t r, std::uint32_t g, std::uint32_t b) { return r | g << 8 | b << 16 | 0xFF000000u; }

std::uint32_t at(const Frame& f, int x, int y) { return f.color[std::size_t(y) * std::size_t(f.width) + std::size_t(x)]; }

// Pixels of the scene: A alone (in its lower-left triangle, 1), where B hides A (in B's
// upper-right triangle, 2), B's diagonal, and the background.
constexpr int kAx = 12, kAy = 30, kBx = 34, kBy = 30, kDiagonal = 44, kBackX = 60, kBackY = 4;
const std::uint32_t kClear = RenderSettings{}.clearColor;
const std::uint32_t kGrey = rgb(128, 128, 128);

// Both backends keep a set-up triangle's attributes only in frames whose shading reads them
// (shadingReadsAttributes); elsewhere shading is handed zeros (the CPU) or whatever an earlier
// frame left (the CUDA pipeline's array). So in every combination of view, shading model,
// light, texture and vertex colours the predicate calls unread, a pixel's colour must not
// depend on the attributes: here they are NaN, and the colours must equal those of the true
// attributes. Where the colours differ, the predicate must say the attributes are read. (The
// CPU's vectorised shading equals these scalar functions: cpu_raster_equivalence_test.cpp.)
TEST(Views, ShadingReadsAttributesOnlyWhereThePredicateSaysSo) {
    const ViewParams view = pixelView();
    const ClipVertex corners[3] = {
        {atPixel(3.2f, 2.7f, 2.0f), {0.1f, 0.2f}, {0.0f, 0.6f, -0.8f}, {0.9f, 0.2f, 0.4f}},
        {atPixel(13.9f, 4.1f, 3.0f), {0.9f, 0.3f}, {0.6f, 0.0f, -0.8f}, {0.1f, 0.8f, 0.3f}},
        {atPixel(6.4f, 12.8f, 1.5f), {0.4f, 0.8f}, {0.0f, -0.6f, -0.8f}, {0.5f, 0.5f, 0.9f}}};
    ScreenVertex v[3];
    for (int k = 0; k < 3; ++k) v[k] = projectVertex(corners[k], view, kWidth, kHeight);
    ScreenTriangle tri{};
    TriangleAttributes attributes, poisoned;
    ASSERT_EQ(setupTriangle(v[0], v[1], v[2], false, kWidth, kHeight, tri, true, 0, &attributes), SetupResult::Ok);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (CornerAttributes& c : poisoned.v) c = CornerAttributes{nan, glm::vec2(nan), glm::vec3(nan)};
    const TriangleColors colors = setupSideRecord(v[0], v[1], v[2], corners[0], corners[1], corners[2], true);

    Model model;
    Image image{4, 4, std::vector<std::uint32_t>(16)};
    for (std::uint32_t i = 0; i < 16; ++i) image.pixels[i] = 0xFF000000u | (i * 0x0F1D37u);
    model.textures.push_back(makeTexture(image, "ramp"));
    model.materials = {Material{"plain", glm::vec3(0.5f), -1}, Material{"textured", glm::vec3(1.0f), 0}};
    std::vector<ShadeMaterial> materials = shadeMaterials(model);
    const SrgbTable srgb = makeSrgbTable();
    for (ShadeMaterial& m : materials) m.srgbTable = &srgb;

    // Whether some pixel of the triangle's quads takes another colour with the attributes poisoned.
    const auto colourDependsOnAttributes = [&](const RenderSettings& s, const ShadeMaterial& m,
                                               const TriangleColors* side) {
        const FramePlan plan = test::tilePlan(s, glm::vec3(0.0f, 0.0f, 1.0f), 0);
        for (int qy = tri.minY & ~1; qy <= tri.maxY; qy += 2)
            for (int qx = tri.minX & ~1; qx <= tri.maxX; qx += 2)
                for (int k = 0; k < 4; ++k)
                    if (viewQuadPixel(plan, ViewPixel{&tri, &attributes, &m, side, 7, 2}, qx, qy, k) !=
                        viewQuadPixel(plan, ViewPixel{&tri, &poisoned, &m, side, 7, 2}, qx, qy, k))
                        return true;
        return false;
    };
    int differing = 0;
    for (const View shown : {View::Shaded, View::Normals, View::Uv, View::Overdraw, View::Wireframe, View::Triangles})
        for (const ShadingModel shading : {ShadingModel::Classic, ShadingModel::Lit})
            for (const bool headlight : {false, true})
                for (const bool textured : {false, true})
                    for (const bool vertexColors : {false, true}) {
                        RenderSettings s = test::classicSettings();
                        s.view = shown;
                        s.shading = shading;
                        s.headlight = headlight;
                        if (!colourDependsOnAttributes(s, materials[textured ? 1 : 0],
                                                       vertexColors ? &colors : nullptr))
                            continue;
                        ++differing;
                        EXPECT_TRUE(shadingReadsAttributes(textured, s, vertexColors))
                            << nameOf(shown) << ", " << nameOf(shading) << (headlight ? ", headlight" : "")
                            << (textured ? ", textured" : "") << (vertexColors ? ", colours" : "");
                    }
    // The check can fail: most combinations do read the attributes.
    EXPECT_GT(differing, 40);
}

TEST(Views, NamesAreTheBriefs) {
    EXPECT_EQ(nameChoices<View>(), "shaded, normals, depth, uv, overdraw, wireframe, triangles or tiles");
    for (std::size_t i = 0; i < nameCount<View>(); ++i)
        EXPECT_EQ(fromName<View>(nameOf(valueAt<View>(i))), valueAt<View>(i));
    EXPECT_EQ(RenderSettings{}.view, View::Shaded);
}

TEST(Views, HeatMapStops) {
    EXPECT_EQ(heatColor(0.0f), rgb(0, 0, 0));
    EXPECT_EQ(heatColor(1.0f), rgb(0, 0, 255));
    EXPECT_EQ(heatColor(2.0f), rgb(0, 255, 255));
    EXPECT_EQ(heatColor(2.5f), rgb(0, 255, 128));
    EXPECT_EQ(heatColor(4.0f), rgb(255, 255, 0));
    EXPECT_EQ(heatColor(5.0f), rgb(255, 128, 0));
    EXPECT_EQ(overdrawColor(8), rgb(255, 255, 255));
    EXPECT_EQ(overdrawColor(1000), rgb(255, 255, 255));
    // Tiles: level log4(n + 1), half over the picture: 3 triangles is level 1 (blue).
    EXPECT_EQ(tileColor(rgb(100, 50, 10), 3), rgb(50, 25, 133));
    EXPECT_EQ(tileColor(rgb(100, 50, 10), 0), rgb(50, 25, 5));
}

TEST(Views, ShadedIsTheMaterial) {
    const Frame f = renderCpu(twoSquares(), View::Shaded);
    EXPECT_EQ(at(f, kAx, kAy), kGrey);
    EXPECT_EQ(at(f, kBx, kBy), kGrey);
    EXPECT_EQ(at(f, kBackX, kBackY), kClear);
}

TEST(Views, NormalsAreColours) {
    const Frame f = renderCpu(twoSquares(), View::Normals);
    EXPECT_EQ(at(f, kAx, kAy), rgb(128, 128, 0));   // (0, 0, -1)
    EXPECT_EQ(at(f, kBx, kBy), rgb(255, 128, 128)); // (1, 0, 0)
    EXPECT_EQ(at(f, kBackX, kBackY), kClear);
}

TEST(Views, UvIsRedAndGreen) {
    const Frame f = renderCpu(twoSquares(), View::Uv);
    // u = 12.5 / 64 -> 49.8; v = 30.5 / 64 -> 121.5; u = 34.5 / 64 -> 137.5 (rounded up)
    EXPECT_EQ(at(f, kAx, kAy), rgb(50, 122, 0));
    EXPECT_EQ(at(f, kBx, kBy), rgb(137, 122, 0)) << std::hex << at(f, kBx, kBy);
    EXPECT_EQ(at(f, kBackX, kBackY), kClear);
}

TEST(Views, DepthIsGreyNearWhiteFarDark) {
    const Frame f = renderCpu(twoSquares(), View::Depth);
    EXPECT_EQ(at(f, kAx, kAy), rgb(32, 32, 32));    // A is the farthest drawn
    EXPECT_EQ(at(f, kBx, kBy), rgb(255, 255, 255)); // B the nearest
    EXPECT_EQ(at(f, kBackX, kBackY), rgb(0, 0, 0));
}

TEST(Views, OverdrawCountsFragmentsThatPassTheDepthTest) {
    const Frame f = renderCpu(twoSquares(), View::Overdraw);
    EXPECT_EQ(at(f, kAx, kAy), rgb(0, 0, 255));   // 1: A
    EXPECT_EQ(at(f, kBx, kBy), rgb(0, 255, 255)); // 2: A, then B in front
    EXPECT_EQ(at(f, kBackX, kBackY), rgb(0, 0, 0));
    EXPECT_EQ(at(f, 100, 30), rgb(0, 0, 0)); // an empty tile is black too

    // The counts add up to the frame's fragments (here every count is 1 or 2).
    Frame g(kWidth, kHeight);
    const CpuFrameStats stats = test::drawWith(CpuRenderer(2), twoSquares(), pixelView(), inView(View::Overdraw), g.view());
    std::size_t sum = 0;
    for (const std::uint32_t c : g.color) sum += c == rgb(0, 0, 255) ? 1 : c == rgb(0, 255, 255) ? 2 : 0;
    EXPECT_EQ(sum, 2u * 32u * 32u);
    EXPECT_EQ(sum, stats.fragmentsShaded);

    // Drawn the other way round, A fails the depth test behind B: 1.
    Model reversed = twoSquares();
    std::rotate(reversed.mesh.indices.begin(), reversed.mesh.indices.begin() + 6, reversed.mesh.indices.end());
    EXPECT_EQ(at(renderCpu(reversed, View::Overdraw), kBx, kBy), rgb(0, 0, 255));
}

TEST(Views, TrianglesAreColouredByMeshIndex) {
    const Frame f = renderCpu(twoSquares(), View::Triangles);
    EXPECT_EQ(at(f, kAx, kAy), triangleColor(1));
    EXPECT_EQ(at(f, kBx, kBy), triangleColor(2));
    EXPECT_EQ(at(f, kAy, kAx), triangleColor(0)); // above A's diagonal
    EXPECT_NE(triangleColor(0), triangleColor(1));
    EXPECT_EQ(at(f, kBackX, kBackY), kClear);
}

TEST(Views, WireframeDrawsEdgesOverTheShadedPicture) {
    const Frame f = renderCpu(twoSquares(), View::Wireframe);
    EXPECT_EQ(at(f, kAx, kAy), kGrey);
    EXPECT_EQ(at(f, kBx, kBy), kGrey);
    EXPECT_EQ(at(f, kDiagonal, kDiagonal), kWireColor); // B's diagonal
    EXPECT_EQ(at(f, 39, 8), kWireColor);                // A's top-right corner
    EXPECT_EQ(at(f, 45, 24), kWireColor);               // B's top edge
    EXPECT_EQ(at(f, 45, 26), kGrey);
    EXPECT_EQ(at(f, kBackX, kBackY), kClear);
    // A's edges hidden behind B are not drawn.
    EXPECT_EQ(at(f, 40, 30), kGrey);
}

TEST(Views, TilesShowTheTrianglesBinnedPerTile) {
    const Frame f = renderCpu(twoSquares(), View::Tiles);
    EXPECT_EQ(at(f, kAx, kAy), tileColor(kGrey, 4)); // the left tile holds all four triangles
    EXPECT_EQ(at(f, kBackX, kBackY), tileColor(kClear, 4));
    EXPECT_EQ(at(f, 100, 30), tileColor(kClear, 0)); // the right tile none
    EXPECT_EQ(at(f, 100, 30), rgb(0x11, 0x16, 0x1D));
}

TEST(Views, EveryViewLeavesTheDepthBufferAsShaded) {
    const Frame shaded = renderCpu(twoSquares(), View::Shaded);
    for (std::size_t i = 0; i < nameCount<View>(); ++i) {
        const Frame f = renderCpu(twoSquares(), valueAt<View>(i));
        EXPECT_EQ(f.depth, shaded.depth) << nameOf(valueAt<View>(i));
    }
}

Model defaultScene() { return loadModel(test::sourceDir() / "assets/default_scene/scene.obj"); }

#if defined(FACET_HAVE_KERNELS_HOST)

// Every view, on the crafted scene and on the default scene at an odd size with the camera
// inside it (near-plane clipping fans triangles out: the triangles view keeps their mesh index),
// drawn byte for byte alike by the CPU and the kernels run on the CPU; and the crafted scene
// half-transparent under the lit model, whose tiles the shaded views draw forward and the views
// that colour pixels by their winners do not (litMaterialsShown).
TEST(Views, KernelsDrawEveryViewAsTheCpu) {
    const Model scene = defaultScene();
    const Camera inside = test::insideDefaultScene();
    struct Case {
        const Model* model;
        ViewParams view;
        int width, height;
        const char* name;
        ShadingModel shading = ShadingModel::Classic;
    };
    const Model squares = twoSquares();
    Model glass = twoSquares();
    glass.materials[0].opacity = 0.5f;
    Model colored = twoSquares(); // vertex colours take the scalar shading on the CPU too
    for (std::size_t i = 0; i < colored.mesh.px.size(); ++i) {
        colored.mesh.cr.push_back(float(i % 3) * 0.5f);
        colored.mesh.cg.push_back(float(i % 4) * 0.25f);
        colored.mesh.cb.push_back(1.0f);
    }
    const Case cases[] = {
        {&squares, pixelView(), kWidth, kHeight, "two squares"},
        {&colored, pixelView(), kWidth, kHeight, "two vertex-coloured squares"},
        {&scene, inside.view(333.0f / 201.0f), 333, 201, "default scene, inside"},
        {&glass, pixelView(), kWidth, kHeight, "two half-transparent squares, lit", ShadingModel::Lit}};
    CpuRenderer cpu(2);
    HostKernelRenderer kernels(3);
    for (const Case& c : cases)
        for (std::size_t i = 0; i < nameCount<View>(); ++i) {
            const View v = valueAt<View>(i);
            Frame a(c.width, c.height, 0xDEADBEEFu, -7.0f), b(c.width, c.height, 0x12345678u, -3.0f);
            RenderSettings s = inView(v);
            s.headlight = true;
            s.shading = c.shading;
            test::drawWith(cpu, *c.model, c.view, s, a.view());
            test::drawWith(kernels, *c.model, c.view, s, b.view());
            EXPECT_TRUE(a.color == b.color) << c.name << ", view " << nameOf(v);
            EXPECT_EQ(std::memcmp(a.depth.data(), b.depth.data(), a.depth.size() * sizeof(float)), 0)
                << c.name << ", view " << nameOf(v);
        }
}

#endif

// ---- the OpenGL reference ---------------------------------------------------------------

TEST(Views, GlRefusesTilesSayingWhy) {
    FACET_REQUIRE_GL();
    GlReferenceRenderer gl;
    Frame f(kWidth, kHeight);
    try {
        test::drawWith(gl, twoSquares(), pixelView(), inView(View::Tiles), f.view());
        FAIL() << "the tiles view was drawn by OpenGL";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("cannot draw the tiles view"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("64x64 tile"), std::string::npos) << e.what();
    }
}

// Pixels whose colours differ by more than `tolerance` in a channel, and the largest difference.
struct ViewAgreement {
    std::size_t differing = 0, pixels = 0;
    int maxDiff = 0;
};

ViewAgreement compareViews(const Frame& a, const Frame& b, int tolerance) {
    ViewAgreement r;
    r.pixels = a.color.size();
    for (std::size_t i = 0; i < a.color.size(); ++i) {
        const int d = test::channelDiff(a.color[i], b.color[i]);
        r.maxDiff = std::max(r.maxDiff, d);
        r.differing += d > tolerance;
    }
    return r;
}

// The views GL draws, on the crafted scene: the same colours at every pixel, within a unit of
// rounding (GL converts to 8 bits itself) for normals, uv and depth, exactly for the rest.
TEST(Views, GlDrawsTheViewsAsTheCpuOnTheCraftedScene) {
    FACET_REQUIRE_GL();
    GlReferenceRenderer gl;
    const Model squares = twoSquares();
    for (const View v : {View::Shaded, View::Normals, View::Depth, View::Uv, View::Overdraw, View::Triangles,
                         View::Wireframe}) {
        const Frame cpu = renderCpu(squares, v);
        Frame g(kWidth, kHeight);
        test::drawWith(gl, squares, pixelView(), inView(v), g.view());
        const int tolerance = v == View::Normals || v == View::Uv || v == View::Depth ? 1 : 0;
        const ViewAgreement r = compareViews(cpu, g, tolerance);
        std::cout << "[ GL vs CPU ] view " << nameOf(v) << ": " << r.differing << " of " << r.pixels
                  << " pixels differ by more than " << tolerance << ", max " << r.maxDiff << "\n";
        EXPECT_EQ(r.differing, 0u) << nameOf(v);
    }
}

// And on the default scene, whose vertices lie anywhere, on 99.9% of pixels: normals, uv and
// depth within 2; triangles and overdraw exactly (depth-test ties between nearly coincident
// surfaces can go either way, as in the shaded comparison of gl_reference_test.cpp); wireframe
// within the shaded picture's 6 (gl_reference_test.cpp), its edge pixels alike.
TEST(Views, GlDrawsTheViewsAsTheCpuOnTheDefaultScene) {
    FACET_REQUIRE_GL();
    GlReferenceRenderer gl;
    CpuRenderer cpuRenderer(2);
    const Model scene = defaultScene();
    const int w = 320, h = 180;
    const ViewParams view = Camera::framing(scene.mesh, float(w) / float(h)).view(float(w) / float(h));
    for (const View v : {View::Normals, View::Depth, View::Uv, View::Overdraw, View::Triangles, View::Wireframe}) {
        Frame cpu(w, h), g(w, h);
        test::drawWith(cpuRenderer, scene, view, inView(v), cpu.view());
        test::drawWith(gl, scene, view, inView(v), g.view());
        const int tolerance = v == View::Wireframe ? 6 : v == View::Normals || v == View::Uv || v == View::Depth ? 2 : 0;
        const ViewAgreement r = compareViews(cpu, g, tolerance);
        std::cout << "[ GL vs CPU ] default scene, view " << nameOf(v) << ": " << r.differing << " of " << r.pixels
                  << " pixels differ by more than " << tolerance << ", max " << r.maxDiff << "\n";
        EXPECT_LE(double(r.differing), 0.001 * double(r.pixels)) << nameOf(v);
    }
}

} // namespace
} // namespace facet
