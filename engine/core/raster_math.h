// Rasterization math shared by the CPU rasterizer and the CUDA kernels: fixed-point snapping,
// edge functions with OpenGL's fill rule, and the texture level of detail.
#pragma once

#include "core/hd.h"

#include <cstdint>

namespace facet {

// Screen positions snap to 1/256 pixel (8 sub-pixel bits), as GPUs do, so coverage decisions
// are exact integer arithmetic and two triangles sharing an edge agree on every pixel.
inline constexpr int kSubpixelBits = 8;
inline constexpr std::int32_t kSubpixelOne = 1 << kSubpixelBits;

// Round to nearest sub-pixel step. The caller keeps |pixels| well inside 2^22 (guard band).
FACET_HD std::int32_t snapToFixed(float pixels) {
    const float scaled = pixels * static_cast<float>(kSubpixelOne);
    return static_cast<std::int32_t>(scaled >= 0.0f ? scaled + 0.5f : scaled - 0.5f);
}

// The centre of pixel i in fixed point: i + 0.5.
FACET_HD std::int32_t pixelCentreFixed(int i) { return i * kSubpixelOne + kSubpixelOne / 2; }

struct FixedPoint2 {
    std::int32_t x, y;
};

// Twice the signed area of (a, b, p) in screen space (y down); 64-bit so snapped coordinates
// up to 2^23 sub-pixels never overflow. Positive when p lies to the right of a->b as seen on
// screen, i.e. inside a triangle whose edges all give positive values.
FACET_HD std::int64_t edgeFunction(FixedPoint2 a, FixedPoint2 b, FixedPoint2 p) {
    return static_cast<std::int64_t>(b.x - a.x) * (p.y - a.y) - static_cast<std::int64_t>(b.y - a.y) * (p.x - a.x);
}

// The fill rule for edges of a triangle oriented so its interior is positive: a pixel centre
// exactly on an edge belongs to the triangle only for a left edge (going up the screen) or a
// horizontal edge with the interior above it. This is the top-left rule as OpenGL applies it:
// in OpenGL's framebuffer row order, whose row 0 is the bottom of the picture (Mesa and
// desktop GPUs alike), so in our top-down picture horizontal edges count at the bottom.
// Returned as the bias to add before testing "> 0": coverage is edge + bias > 0.
FACET_HD std::int64_t fillRuleBias(FixedPoint2 a, FixedPoint2 b) {
    const std::int32_t dx = b.x - a.x, dy = b.y - a.y;
    const bool owned = dy < 0 || (dy == 0 && dx < 0);
    return owned ? 1 : 0;
}

// Texture level of detail from the screen-space derivatives of the texel coordinates
// (OpenGL 4.6 core spec, 8.14.1: rho = max of the two derivative lengths, lambda = log2 rho).
FACET_HD float textureLod(glm::vec2 dTexelDx, glm::vec2 dTexelDy) {
    const float rho2 = glm::max(glm::dot(dTexelDx, dTexelDx), glm::dot(dTexelDy, dTexelDy));
    return 0.5f * glm::log2(glm::max(rho2, 1e-20f));
}

} // namespace facet
