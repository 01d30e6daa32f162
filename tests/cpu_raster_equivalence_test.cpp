// The CPU backend's fast paths against the straightforward evaluation of the shared functions
// they stand in for: they must agree bit for bit, since the CUDA backend runs the originals.
#include "core/texture_sampling.h"
#include "core/triangle_setup.h"
#include "cpu/quad_coverage.h"

#include <gtest/gtest.h>

#include <random>

namespace facet {
namespace {

ScreenVertex vertexAt(glm::vec2 p) {
    return ScreenVertex{{snapToFixed(p.x), snapToFixed(p.y)}, p, 0.5f, 1.0f, glm::vec2(0.0f), glm::vec3(0.0f)};
}

// Stepped quad coverage equals covers(edgeValues()) on every pixel of the triangle's bounds,
// for triangles from sub-pixel slivers to ones far larger than the target (guard band sized).
TEST(CpuRasterEquivalence, SteppedCoverageMatchesEdgeValues) {
    std::mt19937 rng(7);
    const int w = 97, h = 61;
    int covered = 0;
    for (int n = 0; n < 3000; ++n) {
        const float scale = n % 3 == 0 ? 4.0f : n % 3 == 1 ? 40.0f : 9000.0f;
        std::uniform_real_distribution<float> d(-scale, scale);
        const glm::vec2 centre(std::uniform_real_distribution<float>(0.0f, float(w))(rng),
                               std::uniform_real_distribution<float>(0.0f, float(h))(rng));
        ScreenVertex v[3];
        for (ScreenVertex& s : v) s = vertexAt(centre + glm::vec2(d(rng), d(rng)));
        // Snapped coordinates on exact pixel centres and shared edges exercise the fill rule.
        if (n % 5 == 0) v[1].p.y = v[0].p.y;
        if (n % 7 == 0) v[2].p.x = v[1].p.x = pixelCentreFixed(w / 2);
        ScreenTriangle tri;
        if (setupTriangle(v[0], v[1], v[2], false, w, h, tri) != SetupResult::Ok) continue;
        for (int quadRowOffset = 0; quadRowOffset < 2; ++quadRowOffset) {
            const int firstQx = tri.minX & ~1, firstQy = ((tri.minY + quadRowOffset) & ~1) - quadRowOffset;
            const EdgeStepper edges(tri, firstQx, firstQy);
            std::int64_t rowStart[3] = {edges.value[0], edges.value[1], edges.value[2]};
            for (int qy = firstQy; qy <= tri.maxY; qy += 2) {
                std::int64_t at[3] = {rowStart[0], rowStart[1], rowStart[2]};
                for (int qx = firstQx; qx <= tri.maxX; qx += 2) {
                    const unsigned mask =
                        edges.quadMask(at) & boundsMask(qx, qy, tri.minX, tri.maxX, tri.minY, tri.maxY);
                    for (int k = 0; k < 4; ++k) {
                        const int x = qx + (k & 1), y = qy + (k >> 1);
                        const bool expected = x >= tri.minX && x <= tri.maxX && y >= tri.minY && y <= tri.maxY &&
                                              covers(tri, edgeValues(tri, x, y));
                        ASSERT_EQ(bool(mask >> k & 1), expected) << "triangle " << n << " pixel " << x << "," << y;
                        covered += expected;
                    }
                    for (int i = 0; i < 3; ++i) at[i] += 2 * edges.stepX[i];
                }
                for (int i = 0; i < 3; ++i) rowStart[i] += 2 * edges.stepY[i];
            }
        }
    }
    EXPECT_GT(covered, 10000);
}

// The host's vector unpack gives the scalar casts' values for every byte in every channel.
TEST(CpuRasterEquivalence, UnpackMatchesScalarCasts) {
    for (std::uint32_t b = 0; b < 256; ++b)
        for (std::uint32_t other : {0u, 1u, 127u, 128u, 255u}) {
            for (int channel = 0; channel < 4; ++channel) {
                std::uint32_t c = other * 0x01010101u;
                c = (c & ~(0xFFu << (8 * channel))) | (b << (8 * channel));
                const glm::vec4 v = unpackRgba8(c);
                for (int i = 0; i < 4; ++i) ASSERT_EQ(v[i], float((c >> (8 * i)) & 0xFFu)) << std::hex << c;
            }
        }
}

// wrapRepeat's fast path for in-range indices agrees with the plain modulo everywhere.
TEST(CpuRasterEquivalence, WrapRepeatMatchesModulo) {
    for (int size : {1, 2, 3, 7, 64, 100, 1024})
        for (int i = -3 * size - 2; i <= 3 * size + 2; ++i) {
            const int m = i % size;
            ASSERT_EQ(wrapRepeat(i, size), m < 0 ? m + size : m) << i << " mod " << size;
        }
}

} // namespace
} // namespace facet
