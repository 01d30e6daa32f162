// The shared rasterization math and the CPU renderer: watertight edges, the top-left rule,
// depth order, near-plane clipping, perspective-correct texture coordinates, mip selection.
#include "draw_with.h"
#include "test_support.h"
#include "asset/image.h"
#include "core/camera.h"
#include "core/error.h"
#include "core/multisample.h"
#include "core/triangle_setup.h"
#include "cpu/cpu_renderer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace facet {
namespace {

// Counts, for every pixel, how many of the screen triangles cover it (shared setup + coverage).
std::vector<int> coverageCounts(const std::vector<glm::vec2>& pixelPositions, const std::vector<glm::uvec3>& tris,
                                int w, int h) {
    std::vector<int> counts(std::size_t(w) * h, 0);
    for (const glm::uvec3& t : tris) {
        ScreenVertex v[3];
        for (int k = 0; k < 3; ++k) {
            const glm::vec2 p = pixelPositions[t[k]];
            v[k] =
                ScreenVertex{{{snapToFixed(p.x), snapToFixed(p.y)}, 0.5f}, {1.0f, glm::vec2(0.0f), glm::vec3(0.0f)}, p};
        }
        ScreenTriangle tri{};
        if (setupTriangle(v[0], v[1], v[2], false, w, h, tri) != SetupResult::Ok) continue;
        for (int y = tri.minY; y <= tri.maxY; ++y)
            for (int x = tri.minX; x <= tri.maxX; ++x)
                if (covers(tri, edgeValues(tri, x, y))) ++counts[std::size_t(y) * w + x];
    }
    return counts;
}

TEST(Raster, JitteredGridIsWatertight) {
    // A grid over the whole target with interior vertices jittered to arbitrary sub-pixel
    // positions, each cell split along a random diagonal with random winding.
    const int w = 97, h = 61, n = 23;
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> jitter(-0.6f, 0.6f); // under a quarter cell: no folds
    std::vector<glm::vec2> pos;
    for (int j = 0; j <= n; ++j)
        for (int i = 0; i <= n; ++i) {
            glm::vec2 p{float(i) * w / n, float(j) * h / n};
            if (i > 0 && i < n) p.x += jitter(rng);
            if (j > 0 && j < n) p.y += jitter(rng);
            pos.push_back(p);
        }
    std::vector<glm::uvec3> tris;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const unsigned a = j * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
            const bool flip = rng() & 1, diag = rng() & 1;
            glm::uvec3 t0 = diag ? glm::uvec3(a, b, d) : glm::uvec3(a, b, c);
            glm::uvec3 t1 = diag ? glm::uvec3(a, d, c) : glm::uvec3(b, d, c);
            if (flip) {
                std::swap(t0.y, t0.z);
                std::swap(t1.y, t1.z);
            }
            tris.push_back(t0);
            tris.push_back(t1);
        }
    const std::vector<int> counts = coverageCounts(pos, tris, w, h);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) ASSERT_EQ(counts[std::size_t(y) * w + x], 1) << "pixel " << x << "," << y;
}

TEST(Raster, FanAroundOneVertexIsWatertight) {
    // 37 triangles around a centre at a pixel centre, reaching past the target on all sides.
    const int w = 64, h = 64;
    std::vector<glm::vec2> pos{{32.5f, 32.5f}};
    const int spokes = 37;
    for (int k = 0; k < spokes; ++k) {
        const float a = 6.2831853f * float(k) / spokes;
        pos.push_back(glm::vec2(32.5f, 32.5f) + 80.0f * glm::vec2(std::cos(a), std::sin(a)));
    }
    std::vector<glm::uvec3> tris;
    for (unsigned k = 0; k < spokes; ++k) tris.push_back({0u, 1u + k, 1u + (k + 1) % spokes});
    const std::vector<int> counts = coverageCounts(pos, tris, w, h);
    for (int i = 0; i < w * h; ++i) ASSERT_EQ(counts[std::size_t(i)], 1) << "pixel " << i % w << "," << i / w;
}

TEST(Raster, FillRuleOnEdgesThroughPixelCentres) {
    // An axis-aligned rectangle whose edges pass exactly through pixel centres: the left and
    // bottom edges include their pixels, the right and top edges do not (OpenGL's top-left
    // rule, applied in its bottom-up row order).
    const std::vector<glm::vec2> pos{{2.5f, 3.5f}, {8.5f, 3.5f}, {8.5f, 9.5f}, {2.5f, 9.5f}};
    for (const bool ccw : {false, true}) {
        const std::vector<glm::uvec3> tris = ccw ? std::vector<glm::uvec3>{{0, 3, 2}, {0, 2, 1}}
                                                 : std::vector<glm::uvec3>{{0, 1, 2}, {0, 2, 3}};
        const std::vector<int> counts = coverageCounts(pos, tris, 12, 12);
        for (int y = 0; y < 12; ++y)
            for (int x = 0; x < 12; ++x) {
                const int expected = (x >= 2 && x < 8 && y > 3 && y <= 9) ? 1 : 0;
                EXPECT_EQ(counts[std::size_t(y) * 12 + x], expected) << "pixel " << x << "," << y << " ccw " << ccw;
            }
    }
}

// A model with one material whose triangles are given in world space.
Model makeModel(const std::vector<glm::vec3>& p, const std::vector<glm::vec2>& uv, int texture = -1) {
    Model m;
    for (std::size_t i = 0; i < p.size(); ++i) {
        m.mesh.px.push_back(p[i].x);
        m.mesh.py.push_back(p[i].y);
        m.mesh.pz.push_back(p[i].z);
        m.mesh.u.push_back(uv.empty() ? 0.0f : uv[i].x);
        m.mesh.v.push_back(uv.empty() ? 0.0f : uv[i].y);
        m.mesh.indices.push_back(static_cast<std::uint32_t>(i));
    }
    m.mesh.hasTexCoords = !uv.empty();
    generateNormals(m.mesh);
    computeBounds(m.mesh);
    m.mesh.ranges.push_back({0, static_cast<std::uint32_t>(p.size() / 3), 0});
    Material mat;
    mat.texture = texture;
    m.materials.push_back(mat);
    return m;
}

struct Frame {
    int w, h;
    std::vector<std::uint32_t> color;
    std::vector<float> depth;
    Frame(int width, int height) : w(width), h(height), color(std::size_t(w) * h), depth(std::size_t(w) * h) {}
    FrameView view() { return FrameView{color.data(), depth.data(), w, h}; }
    std::uint32_t at(int x, int y) const { return color[std::size_t(y) * w + x]; }
};

// The pixel centres of the w x h target a triangle covers, counted from the definition alone
// (its edge functions oriented inside-positive, with the fill rule's bias), not from set-up.
int centresCovered(const FixedPoint2 (&p)[3], int w, int h) {
    const bool flip = edgeFunction(p[0], p[1], p[2]) > 0; // setupTriangle's orientation
    const FixedPoint2 a = p[0], b = flip ? p[1] : p[2], c = flip ? p[2] : p[1];
    int n = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const FixedPoint2 q{pixelCentreFixed(x), pixelCentreFixed(y)};
            n += edgeFunction(b, c, q) + fillRuleBias(b, c) > 0 && edgeFunction(c, a, q) + fillRuleBias(c, a) > 0 &&
                 edgeFunction(a, b, q) + fillRuleBias(a, b) > 0;
        }
    return n;
}

// Set-up refuses a triangle whose bounds hold one pixel centre it misses (setupInBounds),
// and only such a triangle: over tiny triangles anywhere in and around a small target, every
// one refused as Uncovered covers no centre, every one kept with one centre in its bounds covers
// it, and with multisampling (whose samples lie off the centres) none is refused so.
TEST(Raster, SetUpRefusesOnlyTrianglesCoveringNoPixel) {
    std::mt19937 rng(29);
    const int w = 9, h = 7;
    std::uniform_real_distribution<float> place(-1.0f, 10.0f), size(0.05f, 2.5f), unit(-1.0f, 1.0f);
    int uncovered = 0, kept = 0;
    for (int n = 0; n < 100000; ++n) {
        const glm::vec2 centre(place(rng), place(rng) * float(h) / float(w));
        const float scale = size(rng);
        ScreenVertex v[3];
        FixedPoint2 p[3];
        for (int k = 0; k < 3; ++k) {
            // Half the triangles with corners on exact sub-pixel steps through pixel centres,
            // where the fill rule decides.
            glm::vec2 at = centre + scale * glm::vec2(unit(rng), unit(rng));
            if (n % 2 == 0) at = glm::round(at * 2.0f) * 0.5f;
            v[k] = ScreenVertex{
                {{snapToFixed(at.x), snapToFixed(at.y)}, 0.5f}, {1.0f, glm::vec2(0.0f), glm::vec3(0.0f)}, at};
            p[k] = v[k].p;
        }
        ScreenTriangle tri{};
        const SetupResult result = setupTriangle(v[0], v[1], v[2], false, w, h, tri);
        const int covered = centresCovered(p, w, h);
        if (result == SetupResult::Uncovered) {
            ++uncovered;
            ASSERT_EQ(covered, 0) << "triangle " << n << " refused as covering no pixel";
        } else if (result == SetupResult::Ok && tri.minX == tri.maxX && tri.minY == tri.maxY) {
            ++kept;
            ASSERT_EQ(covered, 1) << "triangle " << n << " kept with one centre in its bounds";
        }
        ScreenTriangle multisampled{};
        EXPECT_NE(setupTriangle(v[0], v[1], v[2], false, w, h, multisampled, true, sampleReach(2)), SetupResult::Uncovered)
            << "triangle " << n << " at several samples per pixel";
    }
    EXPECT_GT(uncovered, 5000);
    EXPECT_GT(kept, 2000);
}

// Set-up's bounds are the first and last pixel centres within the snapped corners (grown by
// the sample reach), clamped to the target: checked against the definition in doubles, with
// corners left of and above the target too, where the bounds' integer rounding turns negative.
TEST(Raster, SetUpBoundsAreTheCentresWithinTheCorners) {
    std::mt19937 rng(29);
    std::uniform_int_distribution<std::int32_t> at(-6 * kSubpixelOne, 14 * kSubpixelOne);
    const int w = 8, h = 8;
    int checked = 0;
    for (int n = 0; n < 20000; ++n) {
        ScreenVertex v[3];
        for (ScreenVertex& c : v) {
            c = ScreenVertex{};
            c.p = {at(rng), at(rng)};
            c.pos = glm::vec2(c.p.x, c.p.y) / float(kSubpixelOne);
        }
        const std::int32_t reach = n % 2 ? sampleReach(8) : 0;
        ScreenTriangle tri{};
        const SetupResult result = setupTriangle(v[0], v[1], v[2], false, w, h, tri, false, reach);
        if (result == SetupResult::Degenerate) continue;
        const auto bound = [&](auto pick, int k, std::int32_t grow) {
            const auto of = [k](const ScreenVertex& c) { return k == 0 ? c.p.x : c.p.y; };
            const std::int32_t c = pick(of(v[0]), pick(of(v[1]), of(v[2]))) + grow;
            return double(c) / kSubpixelOne - 0.5; // the centre of pixel i is at i + 0.5
        };
        const auto lo = [](std::int32_t a, std::int32_t b) { return std::min(a, b); };
        const auto hi = [](std::int32_t a, std::int32_t b) { return std::max(a, b); };
        EXPECT_EQ(tri.minX, std::max(0, int(std::ceil(bound(lo, 0, -reach))))) << "triangle " << n;
        EXPECT_EQ(tri.minY, std::max(0, int(std::ceil(bound(lo, 1, -reach))))) << "triangle " << n;
        EXPECT_EQ(tri.maxX, std::min(w - 1, int(std::floor(bound(hi, 0, reach))))) << "triangle " << n;
        EXPECT_EQ(tri.maxY, std::min(h - 1, int(std::floor(bound(hi, 1, reach))))) << "triangle " << n;
        ++checked;
    }
    EXPECT_GT(checked, 19000);
}

TEST(Raster, NearerSurfaceWinsWhateverTheOrder) {
    // Two full-screen quads at z = -5 (red) and z = -3 (green), drawn in both orders.
    const auto quad = [](float z) {
        return std::vector<glm::vec3>{{-10, -10, z}, {10, -10, z}, {10, 10, z}, {-10, -10, z}, {10, 10, z}, {-10, 10, z}};
    };
    for (const bool nearFirst : {false, true}) {
        std::vector<glm::vec3> p = nearFirst ? quad(-3.0f) : quad(-5.0f);
        const std::vector<glm::vec3> second = nearFirst ? quad(-5.0f) : quad(-3.0f);
        p.insert(p.end(), second.begin(), second.end());
        Model m = makeModel(p, {});
        m.mesh.ranges = {{0, 2, 0}, {2, 2, 1}};
        m.materials.push_back(m.materials[0]);
        m.materials[nearFirst ? 0 : 1].diffuse = {0, 1, 0};
        m.materials[nearFirst ? 1 : 0].diffuse = {1, 0, 0};
        Frame f(32, 24);
        Camera cam;
        CpuRenderer r;
        test::drawWith(r, m, cam.view(32.0f / 24.0f), test::classicSettings(), f.view());
        for (std::uint32_t c : f.color) ASSERT_EQ(c, 0xFF00FF00u);
        // Depth is OpenGL's window depth of z = 3.
        EXPECT_NEAR(f.depth[0], windowDepth(3.0f, cam.nearPlane, cam.farPlane), 1e-6f);
    }
}

TEST(Raster, CameraInsideABoxSeesWallsEverywhere) {
    // A closed box around the eye: after near-plane clipping every pixel is covered once by a
    // wall, whatever the view direction, and nothing behind the eye leaks in.
    std::vector<glm::vec3> p;
    const float s = 2.0f;
    const glm::vec3 c[8] = {{-s, -s, -s}, {s, -s, -s}, {s, s, -s}, {-s, s, -s}, {-s, -s, s}, {s, -s, s}, {s, s, s}, {-s, s, s}};
    const int faces[6][4] = {{0, 1, 2, 3}, {5, 4, 7, 6}, {4, 0, 3, 7}, {1, 5, 6, 2}, {3, 2, 6, 7}, {4, 5, 1, 0}};
    for (const auto& q : faces)
        for (const int t : {0, 1})
            for (const int k : {0, t + 1, t + 2}) p.push_back(c[q[k % 4]]);
    Model m = makeModel(p, {});
    CpuRenderer r;
    for (const float yaw : {0.0f, 45.0f, 137.0f, -90.0f})
        for (const float pitch : {-80.0f, 0.0f, 33.0f}) {
            Camera cam;
            cam.eye = {0.3f, -0.2f, 0.1f};
            cam.yawDegrees = yaw;
            cam.pitchDegrees = pitch;
            const ViewParams view = cam.view(40.0f / 30.0f);
            Frame f(40, 30);
            test::drawWith(r, m, view, test::classicSettings(), f.view());
            // Each triangle on its own: every pixel is covered by exactly one of them (none
            // missing, none doubled on a shared edge, none leaking in from behind the eye), and
            // the box's picture shows that one's depth there.
            std::vector<int> covers(f.depth.size(), 0);
            std::vector<float> depthOfCover(f.depth.size(), 1.0f);
            for (std::size_t t = 0; t < p.size(); t += 3) {
                Frame one(40, 30);
                test::drawWith(r, makeModel({p[t], p[t + 1], p[t + 2]}, {}), view, test::classicSettings(), one.view());
                for (std::size_t i = 0; i < one.depth.size(); ++i)
                    if (one.depth[i] < 1.0f) ++covers[i], depthOfCover[i] = one.depth[i];
            }
            for (std::size_t i = 0; i < f.depth.size(); ++i) {
                ASSERT_EQ(covers[i], 1) << "pixel " << i % 40 << "," << i / 40 << ", yaw " << yaw << " pitch " << pitch;
                ASSERT_EQ(f.depth[i], depthOfCover[i]) << "pixel " << i << ", yaw " << yaw << " pitch " << pitch;
            }
        }
}

TEST(Raster, PerspectiveCorrectTextureCoordinatesOnASlantedPlane) {
    // A floor plane y = -1 with uv = world (x, -z) / 8, seen at a grazing angle. Each texel of a
    // 64x64 nearest-filtered texture has a unique colour, so the texel drawn at a pixel can be
    // compared with the analytic ray-plane intersection.
    const int ts = 64;
    Image img{ts, ts, std::vector<std::uint32_t>(ts * ts)};
    for (std::uint32_t y = 0; y < ts; ++y)
        for (std::uint32_t x = 0; x < ts; ++x) img.pixels[y * ts + x] = 0xFF000000u | x | ((ts - 1 - y) << 8);
    std::vector<glm::vec3> p{{-8, -1, 0}, {8, -1, 0}, {8, -1, -16}, {-8, -1, 0}, {8, -1, -16}, {-8, -1, -16}};
    std::vector<glm::vec2> uv;
    for (const glm::vec3& q : p) uv.push_back({q.x / 8.0f, -q.z / 8.0f});
    Model m = makeModel(p, uv, 0);
    m.textures.push_back(makeTexture(img, "unique texels"));

    Camera cam;
    cam.eye = {0.0f, 0.5f, 0.5f};
    cam.pitchDegrees = -20.0f;
    const int w = 160, h = 120;
    const ViewParams vp = cam.view(float(w) / h);
    RenderSettings settings = test::classicSettings();
    settings.filter = TextureFilter::Nearest;
    Frame f(w, h);
    test::drawWith(CpuRenderer(), m, vp, settings, f.view());

    int compared = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            // The ray through the pixel centre, intersected with y = -1.
            const float ndcX = (2.0f * (x + 0.5f) / w - 1.0f), ndcY = 1.0f - 2.0f * (y + 0.5f) / h;
            const glm::vec3 dir = cam.right() * (ndcX * vp.aspect / vp.focus) + cam.up() * (ndcY / vp.focus) + cam.forward();
            if (dir.y >= -1e-3f) continue;
            const glm::vec3 hit = cam.eye + dir * ((-1.0f - cam.eye.y) / dir.y);
            if (std::abs(hit.x) > 7.9f || hit.z > -0.1f || hit.z < -15.9f) continue;
            const glm::vec2 texel = glm::vec2(hit.x / 8.0f, -hit.z / 8.0f) * float(ts);
            const glm::vec2 frac = texel - glm::floor(texel);
            // Skip pixels within a hair of a texel boundary, where rounding may pick either.
            if (glm::min(frac.x, frac.y) < 0.02f || glm::max(frac.x, frac.y) > 0.98f) continue;
            const int tx = (int(std::floor(texel.x)) % ts + ts) % ts, ty = (int(std::floor(texel.y)) % ts + ts) % ts;
            const std::uint32_t c = f.at(x, y);
            ASSERT_EQ(c & 0xFFu, std::uint32_t(tx)) << "pixel " << x << "," << y;
            ASSERT_EQ((c >> 8) & 0xFFu, std::uint32_t(ty)) << "pixel " << x << "," << y;
            ++compared;
        }
    EXPECT_GT(compared, w * h / 4);
}

// Each mip level of a size x size texture filled with one colour of its own (the last ones
// share white), so the level a sample read is plain from its colour.
constexpr std::uint32_t kLevelColour[] = {0xFF0000FFu, 0xFF00FF00u, 0xFFFF0000u, 0xFFFFFFFFu};

Texture levelColouredTexture(std::uint32_t size) {
    Image img{size, size, std::vector<std::uint32_t>(std::size_t(size) * size, kLevelColour[0])};
    Texture tex = makeTexture(img, "levels");
    for (std::size_t l = 0; l < tex.levels.size(); ++l)
        std::fill_n(tex.texels.begin() + tex.levels[l].offset, tex.levels[l].width * tex.levels[l].height,
                    kLevelColour[std::min<std::size_t>(l, 3)]);
    return tex;
}

// A quad filling a 64x64 target, facing the camera, with uv from 0 to `uvSpan`: the texture
// repeats uvSpan times across 64 pixels.
Frame texturedScreenQuad(const Texture& tex, float uvSpan, TextureFilter filter) {
    // At distance 1 with fov 90, the quad [-1, 1]^2 fills the 64x64 target exactly.
    std::vector<glm::vec3> p{{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, -1, -1}, {1, 1, -1}, {-1, 1, -1}};
    std::vector<glm::vec2> uv{{0, 0}, {1, 0}, {1, 1}, {0, 0}, {1, 1}, {0, 1}};
    for (glm::vec2& t : uv) t *= uvSpan;
    Model m = makeModel(p, uv, 0);
    m.textures.push_back(tex);
    Camera cam;
    cam.fovYDegrees = 90.0f;
    Frame f(64, 64);
    RenderSettings s = test::classicSettings();
    s.filter = filter;
    test::drawWith(CpuRenderer(), m, cam.view(1.0f), s, f.view());
    return f;
}

TEST(Raster, TrilinearPicksTheMipLevelOfTheFootprint) {
    // 4 texels per pixel in each direction: the level of detail is log2(4) = 2, so trilinear
    // filtering returns level 2's colour exactly.
    const Texture tex = levelColouredTexture(256);
    EXPECT_NEAR(textureLod({4.0f, 0.0f}, {0.0f, 4.0f}), 2.0f, 1e-6f);
    for (std::uint32_t c : texturedScreenQuad(tex, 1.0f, TextureFilter::Trilinear).color) ASSERT_EQ(c, kLevelColour[2]);
    // bilinear always reads level 0
    for (std::uint32_t c : texturedScreenQuad(tex, 1.0f, TextureFilter::Bilinear).color) ASSERT_EQ(c, kLevelColour[0]);
}

TEST(Raster, TrilinearLevelOfDetailStopsAtBothEndsOfTheChain) {
    // Magnified (a 256-texel texture's first 16 texels over 64 pixels: a quarter texel per
    // pixel, level of detail -2): level 0, not some level below it.
    for (std::uint32_t c : texturedScreenQuad(levelColouredTexture(256), 1.0f / 16.0f, TextureFilter::Trilinear).color)
        ASSERT_EQ(c, kLevelColour[0]);
    // Past the last level (an 8-texel texture, levels 8, 4, 2 and 1 texels, repeated 256 times
    // over 64 pixels: 32 texels per pixel, level of detail 5): the 1x1 level, white.
    const Texture small = levelColouredTexture(8);
    ASSERT_EQ(small.levels.size(), 4u);
    for (std::uint32_t c : texturedScreenQuad(small, 256.0f, TextureFilter::Trilinear).color)
        ASSERT_EQ(c, kLevelColour[3]);
}

// The classic look's 8-bit filter: lerpRgba8 is (x0 (256 - w) + x1 w + 128) >> 8 in every
// channel for every weight in [0, 256] (its endpoints give x0 and x1 exactly), and filterWeight
// rounds to 1/256 with a NaN giving 0.
TEST(Raster, FixedPointFilterBlendsEachChannelRounded) {
    std::mt19937 rng(21);
    for (int n = 0; n < 2000; ++n) {
        const std::uint32_t x0 = rng(), x1 = rng();
        for (std::uint32_t w = 0; w <= 256; ++w) {
            std::uint32_t expected = 0;
            for (int c = 0; c < 4; ++c) {
                const std::uint32_t a = x0 >> (8 * c) & 0xFFu, b = x1 >> (8 * c) & 0xFFu;
                expected |= ((a * (256 - w) + b * w + 128) >> 8) << (8 * c);
            }
            ASSERT_EQ(lerpRgba8(x0, x1, w), expected) << std::hex << x0 << " " << x1 << std::dec << " w " << w;
        }
        ASSERT_EQ(lerpRgba8(x0, x1, 0), x0);
        ASSERT_EQ(lerpRgba8(x0, x1, 256), x1);
    }
    EXPECT_EQ(filterWeight(0.0f), 0u);
    EXPECT_EQ(filterWeight(0.5f / 256.0f), 1u);
    EXPECT_EQ(filterWeight(0.49f / 256.0f), 0u);
    EXPECT_EQ(filterWeight(0.25f), 64u);
    EXPECT_EQ(filterWeight(std::nextafter(1.0f, 0.0f)), 256u);
    EXPECT_EQ(filterWeight(std::numeric_limits<float>::quiet_NaN()), 0u);
}

// Bilinear filtering at a texel's centre gives the texel, and halfway between two texels their
// rounded mean, channel by channel.
TEST(Raster, FixedPointBilinearAtCentresAndHalfway) {
    Image img;
    img.width = 2;
    img.height = 1;
    img.pixels = {0xFF1E140Au, 0x0000280Bu}; // (10, 20, 30, 255) and (11, 40, 0, 0)
    const Texture tex = makeTexture(img, "two texels");
    const TextureView view{tex.texels.data(), tex.levels.data(), int(tex.levels.size())};
    EXPECT_EQ(sampleTexture8(view, TextureFilter::Bilinear, {0.25f, 0.5f}, 0.0f), tex.texels[0]);
    EXPECT_EQ(sampleTexture8(view, TextureFilter::Bilinear, {0.75f, 0.5f}, 0.0f), tex.texels[1]);
    // (10 + 11) / 2 = 10.5 rounds up, (255 + 0) / 2 = 127.5 too.
    EXPECT_EQ(sampleTexture8(view, TextureFilter::Bilinear, {0.5f, 0.5f}, 0.0f), 0x800F1E0Bu);
}

// The level of detail's own log2 (the same bits on the CPU and the GPU): within 1e-6 of the
// C library's over the whole range it is used on, exact for powers of two, on both sides of
// the mantissa's sqrt 2 split, and NaN and infinity pass through.
TEST(Raster, LevelOfDetailLog2MatchesLog2) {
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> exponent(-66.0f, 100.0f);
    for (int n = 0; n < 200000; ++n) {
        const float x = std::exp2(exponent(rng));
        ASSERT_NEAR(lodLog2(x), std::log2(double(x)), 1e-6 * std::max(1.0, std::fabs(std::log2(double(x))))) << x;
    }
    for (int e = -66; e <= 100; ++e) ASSERT_EQ(lodLog2(std::ldexp(1.0f, e)), float(e)) << e;
    const float split = 1.41421356f, below = std::nextafter(split, 0.0f), above = std::nextafter(split, 2.0f);
    for (float m : {below, split, above})
        for (int e = -20; e <= 20; e += 5) {
            const float x = std::ldexp(m, e);
            ASSERT_NEAR(lodLog2(x), std::log2(double(x)), 1e-6 * std::max(1.0, std::fabs(std::log2(double(x))))) << x;
        }
    EXPECT_TRUE(std::isnan(lodLog2(std::numeric_limits<float>::quiet_NaN())));
    EXPECT_EQ(lodLog2(std::numeric_limits<float>::infinity()), std::numeric_limits<float>::infinity());
}

TEST(Raster, EmptyTargetIsAnError) {
    Model m = makeModel({{0, 0, -1}, {1, 0, -1}, {0, 1, -1}}, {});
    Frame f(1, 1);
    FrameView v = f.view();
    v.width = 0;
    EXPECT_THROW(test::drawWith(CpuRenderer(), m, Camera{}.view(1.0f), test::classicSettings(), v), Error);
}

} // namespace
} // namespace facet
