// Coverage of 2x2 pixel quads for the CPU rasterizer: the same decisions as edgeValues() and
// covers() in core/triangle_setup.h, stepped incrementally (tests/cpu_raster_equivalence_test.cpp
// checks them against each other).
#pragma once

#include "core/triangle_setup.h"

#include <cstdint>

namespace facet {

// The coverage of one 2x2 quad as a 4-bit mask (bit k: pixel (qx + (k & 1), qy + (k >> 1))).
// A triangle's edge functions are affine in the pixel position, so rather than evaluating
// edgeValues() per pixel the rasterizer steps them in exact integer arithmetic: moving one
// pixel right adds stepX, one pixel down adds stepY. The values already include the fill-rule
// bias, so a pixel is covered when all three are > 0, exactly as covers() decides.
struct EdgeStepper {
    std::int64_t value[3]; // at the quad's top-left pixel, bias included
    std::int64_t stepX[3], stepY[3];

    EdgeStepper(const ScreenTriangle& tri, int x, int y) {
        const EdgeValues e = edgeValues(tri, x, y);
        for (int i = 0; i < 3; ++i) {
            // Edge i runs from vertex i + 1 to vertex i + 2 (see edgeValues).
            const FixedPoint2 a = tri.v[(i + 1) % 3].p, b = tri.v[(i + 2) % 3].p;
            value[i] = e.w[i] + tri.bias[i];
            stepX[i] = -std::int64_t(b.y - a.y) * kSubpixelOne;
            stepY[i] = std::int64_t(b.x - a.x) * kSubpixelOne;
        }
    }

    // `at`: the three values (as in `value`) stepped to the quad's top-left pixel.
    unsigned quadMask(const std::int64_t* at) const {
        unsigned mask = 0;
        for (int k = 0; k < 4; ++k) {
            bool inside = true;
            for (int i = 0; i < 3; ++i)
                inside = inside && at[i] + (k & 1) * stepX[i] + (k >> 1) * stepY[i] > 0;
            mask |= unsigned(inside) << k;
        }
        return mask;
    }
};

// The pixels of quad (qx, qy) within the inclusive bounds, as a quad mask.
inline unsigned boundsMask(int qx, int qy, int minX, int maxX, int minY, int maxY) {
    const unsigned columns = (qx >= minX ? 1u : 0u) | (qx + 1 <= maxX ? 2u : 0u);
    const unsigned rows = (qy >= minY ? 3u : 0u) | (qy + 1 <= maxY ? 12u : 0u);
    return (columns | columns << 2) & rows;
}

} // namespace facet
