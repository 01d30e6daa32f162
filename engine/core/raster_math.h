// Rasterization math shared by the CPU rasterizer and the CUDA kernels: fixed-point snapping,
// edge functions with OpenGL's fill rule, and the texture level of detail.
#pragma once

#include "core/hd.h"

#include <cmath>
#include <cstdint>
#include <cstring>

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
// screen, i.e. inside a triangle whose edges all give positive values. (32 bits, I =
// std::int32_t, only where the caller has bounded the values: see kSmallTriangleExtent.)
// (Always inlined: see sampleOffset in core/coverage_walk.h.)
template <class I = std::int64_t>
FACET_HD_INLINED I edgeFunction(FixedPoint2 a, FixedPoint2 b, FixedPoint2 p) {
    return static_cast<I>(b.x - a.x) * static_cast<I>(p.y - a.y) - static_cast<I>(b.y - a.y) * static_cast<I>(p.x - a.x);
}

// The fill rule for edges of a triangle oriented so its interior is positive: a pixel centre
// exactly on an edge belongs to the triangle only for a left edge (going up the screen) or a
// horizontal edge with the interior above it. This is the top-left rule as OpenGL applies it:
// in OpenGL's framebuffer row order, whose row 0 is the bottom of the picture (Mesa and
// desktop GPUs alike), so in our top-down picture horizontal edges count at the bottom.
// Returned as the bias to add before testing "> 0": coverage is edge + bias > 0.
FACET_HD std::int64_t fillRuleBias(FixedPoint2 a, FixedPoint2 b) {
    const std::int32_t dx = b.x - a.x, dy = b.y - a.y;
    // Bitwise, not short-circuit: no branch in set-up's hot loop, where a dense mesh's edges
    // point every way.
    return std::int64_t(dy < 0) | (std::int64_t(dy == 0) & std::int64_t(dx < 0));
}

// A float's bits and back.
FACET_HD std::uint32_t floatBits(float x) {
#if defined(__CUDA_ARCH__)
    return __float_as_uint(x);
#else
    std::uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    return bits;
#endif
}

FACET_HD float bitsFloat(std::uint32_t bits) {
#if defined(__CUDA_ARCH__)
    return __uint_as_float(bits);
#else
    float x;
    std::memcpy(&x, &bits, sizeof x);
    return x;
#endif
}

// log2 of a positive float for the level of detail: the same bits on every path (each C
// library and CUDA round their log2f as they like) and inline, a few multiplies instead of a
// library call per shaded quad. The exponent, plus for the mantissa m in [sqrt(1/2), sqrt(2))
// the series 2/ln 2 (t + t^3/3 + t^5/5 + t^7/7), t = (m - 1) / (m + 1) (Abramowitz & Stegun
// 4.1.27), whose truncation error is below 5e-8; exact for powers of two. NaN and +infinity
// pass through, as in log2f.
FACET_HD float lodLog2(float x) {
    if (!(x < HUGE_VALF)) return x;
    const std::uint32_t bits = floatBits(x);
    // The mantissa in [1, 2); past sqrt 2 it is halved (its exponent field lowered by one) and
    // the exponent raised. Positive floats order as their bits, so an integer comparison with
    // 0x3FB504F3 (the float 1.41421356f) decides it, with no branch on the mantissa.
    const std::uint32_t mantissaBits = (bits & 0x7FFFFFu) | 0x3F800000u;
    const std::uint32_t high = mantissaBits > 0x3FB504F3u ? 1u : 0u;
    const int e = static_cast<int>(bits >> 23) - 127 + static_cast<int>(high); // x >= 1e-20: never subnormal
    const float m = bitsFloat(mantissaBits - (high << 23));
    const float t = (m - 1.0f) / (m + 1.0f), t2 = t * t;
    const float series = t * (2.88539008f + t2 * (0.961796694f + t2 * (0.577078016f + t2 * 0.412198583f)));
    return static_cast<float>(e) + series;
}

// Texture level of detail from the screen-space derivatives of the texel coordinates
// (OpenGL 4.6 core spec, 8.14.1: rho = max of the two derivative lengths, lambda = log2 rho).
// The level from the two squared lengths, lambda = log2 sqrt(max) without the square root.
FACET_HD float lodFromSquaredLengths(float dx2, float dy2) {
    return 0.5f * lodLog2(glm::max(glm::max(dx2, dy2), 1e-20f));
}

FACET_HD float textureLod(glm::vec2 dTexelDx, glm::vec2 dTexelDy) {
    return lodFromSquaredLengths(glm::dot(dTexelDx, dTexelDx), glm::dot(dTexelDy, dTexelDy));
}

} // namespace facet
