// The CPU set-up's front in AVX2 lanes (cpu/triangle/set_up_front.h) against the shared scalar set-up it
// stands in for: for every mesh triangle, the same decision (drawn, refused, or clipped), and
// for every drawn one the same set-up triangle and attributes, byte for byte.
#include "core/multisample.h"
#include "core/triangle_stage.h"
#include "cpu/triangle/set_up_front.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

namespace facet {
namespace {

// A projected vertex at pixel position p (snapped as projectVertex snaps), with attributes
// that tell the corners apart.
ScreenVertex projectedAt(glm::vec2 p, float seed) {
    return ScreenVertex{{{snapToFixed(p.x), snapToFixed(p.y)}, 0.25f + seed * 1e-3f},
                        {1.0f + seed, glm::vec2(seed, -seed), glm::vec3(seed, 2.0f * seed, 3.0f * seed)},
                        p};
}

// Corners near `centre` of one of several kinds of triangle on a target of `size` pixels:
// slivers and sub-pixel triangles (most holding one pixel centre or none), small ones, large
// ones, ones reaching far past the target's edges (clamped bounds) to the guard band; ones with
// a corner repeated or on the line through the other two (degenerate, or nearly so once
// snapped); ones on the half-pixel grid (edges through pixel centres: the fill rule decides);
// thin ones reaching from the target's first or last row or column far beyond it (one centre
// in bounds clamped on one side) or from a corner pixel (clamped on two, its edges far from
// the centre); and right triangles whose legs are the small walk's limit, or a sub-pixel step
// under it.
void cornersNear(std::mt19937& rng, int kind, glm::vec2 centre, glm::vec2 size, glm::vec2 (&p)[3]) {
    const float scales[] = {0.7f, 1.6f, 6.0f, 70.0f, 8000.0f};
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    const float s = scales[kind % 5];
    for (glm::vec2& corner : p) corner = centre + glm::vec2(d(rng) * s, d(rng) * s);
    if (kind == 5) p[2] = p[0];
    if (kind == 6) p[2] = p[0] + (p[1] - p[0]) * 2.0f;
    if (kind == 7)
        for (glm::vec2& corner : p) corner = glm::floor((centre + glm::vec2(d(rng), d(rng))) * 2.0f) * 0.5f;
    if (kind == 8) {
        const float far = 10.0f + 500.0f * std::abs(d(rng)), inside = 0.1f + 1.3f * std::abs(d(rng));
        const int axis = int(rng() % 2);
        const bool low = rng() % 2 == 0;                 // the top or left edge, else the bottom or right one
        p[0][axis] = low ? inside : size[axis] - inside; // in the first or last row or column of pixels
        p[1][axis] = p[2][axis] = p[0][axis] + (low ? -far : far);
        p[1][1 - axis] = p[0][1 - axis] + 0.6f * d(rng);
        p[2][1 - axis] = p[0][1 - axis] + 0.6f * d(rng);
    }
    if (kind == 9) {
        const float leg = float(kSmallTriangleExtent - int(rng() % 2)) / float(kSubpixelOne);
        p[0] = glm::floor(centre);
        p[1] = p[0] + glm::vec2(leg, 0.0f);
        p[2] = p[0] + glm::vec2(0.0f, leg);
    }
    if (kind == 10) { // a right angle in a corner pixel of the target, its legs reaching far out
        const float far = 10.0f + 500.0f * std::abs(d(rng));
        const glm::vec2 inside(0.1f + 1.3f * std::abs(d(rng)), 0.1f + 1.3f * std::abs(d(rng)));
        const glm::vec2 out(rng() % 2 == 0 ? -1.0f : 1.0f, rng() % 2 == 0 ? -1.0f : 1.0f);
        p[0] = glm::vec2(out.x < 0.0f ? inside.x : size.x - inside.x, out.y < 0.0f ? inside.y : size.y - inside.y);
        p[1] = p[0] + glm::vec2(out.x * far, 0.0f);
        p[2] = p[0] + glm::vec2(0.0f, out.y * far);
    }
}

struct Soup {
    std::vector<ScreenVertex> projected;
    std::vector<std::uint8_t> outside; // and 3 bytes more, as setupFront8 reads them
    std::vector<std::uint32_t> indices;
};

// `count` triangles of their own three vertices each over a w x h target, a few with corners
// outside a clip plane or not finite.
Soup makeSoup(std::mt19937& rng, std::size_t count, int w, int h) {
    Soup s;
    std::uniform_real_distribution<float> x(-40.0f, float(w) + 40.0f), y(-40.0f, float(h) + 40.0f);
    for (std::size_t t = 0; t < count; ++t) {
        const int kind = int(rng() % 11);
        glm::vec2 p[3];
        cornersNear(rng, kind, glm::vec2(x(rng), y(rng)), glm::vec2(float(w), float(h)), p);
        for (int k = 0; k < 3; ++k) {
            s.projected.push_back(projectedAt(p[k], float(3 * t + std::size_t(k))));
            const unsigned r = rng() % 40;
            s.outside.push_back(std::uint8_t(r == 0 ? kNonFiniteVertex : r < 3 ? 1u << (rng() % 5) : 0u));
            s.indices.push_back(std::uint32_t(3 * t + std::size_t(k)));
        }
        if (t % 3 == 0) std::swap(s.indices[3 * t + 1], s.indices[3 * t + 2]); // both windings
    }
    s.outside.resize(s.outside.size() + 3, 0xEE);
    return s;
}

TriangleStageInput inputOf(const Soup& s, int w, int h, bool cull, std::int32_t reach) {
    TriangleStageInput in{};
    in.mesh.indices = s.indices.data();
    in.mesh.vertexCount = std::uint32_t(s.projected.size());
    in.mesh.triangleCount = std::uint32_t(s.indices.size() / 3);
    in.outside = s.outside.data();
    in.projected = s.projected.data();
    in.width = w;
    in.height = h;
    in.cullBackFaces = cull;
    in.sampleReach = reach;
    return in;
}

// A set-up triangle and its attributes, zeroed first so that any field left unset compares too.
struct Record {
    ScreenTriangle tri;
    TriangleAttributes attributes;
    Record() { std::memset(static_cast<void*>(this), 0, sizeof *this); }
};

// What the scalar set-up makes of an unclipped triangle: whether it is drawn, and as what.
bool scalarSetUp(const TriangleStageInput& in, std::uint32_t t, Record& r) {
    const std::uint32_t* c = in.mesh.indices + 3 * std::size_t(t);
    return setupTriangle(in.projected[c[0]], in.projected[c[1]], in.projected[c[2]], in.cullBackFaces, in.width,
                         in.height, r.tri, true, in.sampleReach, &r.attributes) == SetupResult::Ok;
}

TEST(SetUpFront, MatchesTheScalarSetUp) {
    std::mt19937 rng(41);
    std::size_t drawn = 0, refused = 0, clipped = 0, clampedCentres = 0;
    for (int round = 0; round < 48; ++round) {
        const bool narrow = round % 6 == 5; // a row or column of pixels: many bounds clamped to one centre
        const int w = 1 + int(rng() % (narrow ? 3 : 300)), h = 1 + int(rng() % (narrow ? 3 : 200));
        const Soup soup = makeSoup(rng, 8 * (50 + rng() % 50), w, h);
        const std::int32_t reach = round % 4 == 3 ? sampleReach(4) : 0;
        const TriangleStageInput in = inputOf(soup, w, h, round % 2 == 1, reach);
        ASSERT_TRUE(setupFrontFits(in));
        for (std::uint32_t first = 0; first < in.mesh.triangleCount; first += 8) {
            const SetupFront8 front = setupFront8(in, first);
            ASSERT_EQ(front.ready & front.scalar, 0u);
            for (int k = 0; k < 8; ++k) {
                const std::uint32_t t = first + std::uint32_t(k);
                const std::uint32_t* c = in.mesh.indices + 3 * std::size_t(t);
                const unsigned all = in.outside[c[0]] & in.outside[c[1]] & in.outside[c[2]];
                const unsigned any = in.outside[c[0]] | in.outside[c[1]] | in.outside[c[2]];
                const bool ready = front.ready >> k & 1u, scalar = front.scalar >> k & 1u;
                const auto where = [&] { return ::testing::Message() << "round " << round << " triangle " << t; };
                if ((any & kNonFiniteVertex) != 0 || all != 0) {
                    ASSERT_FALSE(ready || scalar) << where();
                    continue;
                }
                if (any != 0) {
                    ASSERT_TRUE(scalar) << where() << ": a triangle to clip is the scalar set-up's";
                    ++clipped;
                    continue;
                }
                Record expected, found;
                const bool drawnByScalar = scalarSetUp(in, t, expected);
                if (scalar) { // only a triangle whose one centre's bounds were clamped
                    ASSERT_EQ(reach, 0) << where();
                    ASSERT_TRUE(expected.tri.minX == expected.tri.maxX && expected.tri.minY == expected.tri.maxY)
                        << where();
                    ++clampedCentres;
                    continue;
                }
                ASSERT_EQ(ready, drawnByScalar) << where();
                if (!ready) {
                    ++refused;
                    continue;
                }
                ++drawn;
                setUpReady(in, c, front, k, TriangleSlot{found.tri, &found.attributes}, true);
                ASSERT_EQ(std::memcmp(&expected, &found, sizeof expected), 0) << where();
            }
        }
    }
    // Every kind of decision was made, many times.
    EXPECT_GT(drawn, 3000u);
    EXPECT_GT(refused, 3000u);
    EXPECT_GT(clipped, 300u);
    EXPECT_GT(clampedCentres, 10u);
}

// The clip flags are read four bytes at a time: the last vertex's, at the end of the flags,
// reads the three bytes after it, which must not change anything.
TEST(SetUpFront, IgnoresTheBytesAfterTheLastFlag) {
    std::mt19937 rng(5);
    Soup soup = makeSoup(rng, 8, 50, 40);
    for (std::size_t i = 0; i + 3 < soup.outside.size(); ++i) soup.outside[i] = 0;
    const TriangleStageInput in = inputOf(soup, 50, 40, false, 0);
    const SetupFront8 clean = setupFront8(in, 0);
    for (std::size_t i = soup.outside.size() - 3; i < soup.outside.size(); ++i) soup.outside[i] = 0xFF;
    const SetupFront8 padded = setupFront8(in, 0);
    EXPECT_EQ(clean.ready, padded.ready);
    EXPECT_EQ(clean.scalar, padded.scalar);
}

} // namespace
} // namespace facet
