// Texel sampling shared by both backends, matching OpenGL's GL_NEAREST, GL_LINEAR and
// GL_LINEAR_MIPMAP_LINEAR with GL_REPEAT wrapping on an RGBA8 texture (spec 8.14, 8.15).
#pragma once

#include "core/material.h"

#include <cstdint>
#if defined(__SSE4_1__) && !defined(__CUDA_ARCH__)
#include <immintrin.h>
#endif

namespace facet {

enum class TextureFilter { Nearest, Bilinear, Trilinear };

// What a kernel needs to sample one texture: raw pointers, valid on whichever side samples.
struct TextureView {
    const std::uint32_t* texels = nullptr;
    const MipLevel* levels = nullptr;
    int levelCount = 0;
};

FACET_HD glm::vec4 unpackRgba8(std::uint32_t c) {
#if defined(__SSE4_1__) && !defined(__CUDA_ARCH__)
    // On the host, widen the four bytes and convert them in one instruction each: the same
    // exact values as the scalar casts below, for the hottest few lines of the CPU backend.
    glm::vec4 v;
    _mm_storeu_ps(&v.x, _mm_cvtepi32_ps(_mm_cvtepu8_epi32(_mm_cvtsi32_si128(static_cast<int>(c)))));
    return v;
#else
    return {static_cast<float>(c & 0xFFu), static_cast<float>((c >> 8) & 0xFFu),
            static_cast<float>((c >> 16) & 0xFFu), static_cast<float>(c >> 24)};
#endif
}

// Channels in [0, 255], rounded to nearest.
FACET_HD std::uint32_t packRgba8(glm::vec4 c) {
    const glm::vec4 k = glm::clamp(c, 0.0f, 255.0f) + 0.5f;
    return static_cast<std::uint32_t>(k.x) | (static_cast<std::uint32_t>(k.y) << 8) |
           (static_cast<std::uint32_t>(k.z) << 16) | (static_cast<std::uint32_t>(k.w) << 24);
}

// GL_REPEAT: the integer texel index i taken modulo size, for negative i too. Indices are
// nearly always in range already (coordinates are reduced into [0, size) first), so that case
// skips the integer division, the costliest step of a texel fetch.
FACET_HD int wrapRepeat(int i, int size) {
    if (static_cast<unsigned>(i) < static_cast<unsigned>(size)) return i;
    const int m = i % size;
    return m < 0 ? m + size : m;
}

FACET_HD std::uint32_t fetchTexel(const TextureView& t, int level, int x, int y) {
    const MipLevel& l = t.levels[level];
    const int w = static_cast<int>(l.width), h = static_cast<int>(l.height);
    return t.texels[l.offset + static_cast<std::uint32_t>(wrapRepeat(y, h) * w + wrapRepeat(x, w))];
}

// Texel space coordinate u * size, reduced into [0, size) first so huge uvs keep precision.
FACET_HD float texelCoordinate(float u, std::uint32_t size) {
    return (u - glm::floor(u)) * static_cast<float>(size);
}

// How a sampler reads a texel before filtering: RawTexel as stored (channels in [0, 255]);
// core/lighting.h's SrgbTexel decodes sRGB colour to linear light first, as OpenGL does for an
// sRGB texture.
struct RawTexel {
    FACET_HD glm::vec4 operator()(std::uint32_t c) const { return unpackRgba8(c); }
};

template <class Texel = RawTexel>
FACET_HD glm::vec4 sampleNearest(const TextureView& t, int level, glm::vec2 uv, Texel texel = {}) {
    const MipLevel& l = t.levels[level];
    const int x = static_cast<int>(glm::floor(texelCoordinate(uv.x, l.width)));
    const int y = static_cast<int>(glm::floor(texelCoordinate(uv.y, l.height)));
    return texel(fetchTexel(t, level, x, y));
}

template <class Texel = RawTexel>
FACET_HD glm::vec4 sampleBilinear(const TextureView& t, int level, glm::vec2 uv, Texel texel = {}) {
    const MipLevel& l = t.levels[level];
    const float s = texelCoordinate(uv.x, l.width) - 0.5f;
    const float r = texelCoordinate(uv.y, l.height) - 0.5f;
    const float fs = glm::floor(s), fr = glm::floor(r);
    const int x0 = static_cast<int>(fs), y0 = static_cast<int>(fr);
    const float a = s - fs, b = r - fr;
    // The same texels as four fetchTexel calls, wrapping each row and column only once.
    const int w = static_cast<int>(l.width), h = static_cast<int>(l.height);
    const std::uint32_t* texels = t.texels + l.offset;
    const int col0 = wrapRepeat(x0, w), col1 = wrapRepeat(x0 + 1, w);
    const int row0 = wrapRepeat(y0, h) * w, row1 = wrapRepeat(y0 + 1, h) * w;
    const glm::vec4 c00 = texel(texels[static_cast<std::uint32_t>(row0 + col0)]);
    const glm::vec4 c10 = texel(texels[static_cast<std::uint32_t>(row0 + col1)]);
    const glm::vec4 c01 = texel(texels[static_cast<std::uint32_t>(row1 + col0)]);
    const glm::vec4 c11 = texel(texels[static_cast<std::uint32_t>(row1 + col1)]);
    return (1.0f - a) * (1.0f - b) * c00 + a * (1.0f - b) * c10 + (1.0f - a) * b * c01 + a * b * c11;
}

// Whether trilinear filtering at this lod minifies (blends two mip levels); otherwise the
// magnification filter (bilinear on level 0) applies, as in OpenGL with GL_LINEAR mag filter.
// "!(lod > 0)" also catches a NaN lod (helper pixels past the horizon): level 0 then.
FACET_HD bool minifies(const TextureView& t, float lod) { return lod > 0.0f && t.levelCount > 1; }

// For a minifying lod: the two mip levels to blend and the weight f of the upper one.
struct MipBlend {
    int lo, hi;
    float f;
};

FACET_HD MipBlend mipBlend(const TextureView& t, float lod) {
    const float maxLevel = static_cast<float>(t.levelCount - 1);
    const float d = glm::min(lod, maxLevel);
    const int lo = static_cast<int>(glm::floor(d));
    const int hi = glm::min(lo + 1, t.levelCount - 1);
    return MipBlend{lo, hi, d - static_cast<float>(lo)};
}

// lod is log2 of the texel footprint on level 0 (see textureLod). The CPU backend samples the
// four pixels of a quad at once (cpu/simd_quad.h) with these same steps.
template <class Texel = RawTexel>
FACET_HD glm::vec4 sampleTexture(const TextureView& t, TextureFilter filter, glm::vec2 uv, float lod, Texel texel = {}) {
    if (filter == TextureFilter::Nearest) return sampleNearest(t, 0, uv, texel);
    if (filter == TextureFilter::Bilinear || !minifies(t, lod)) return sampleBilinear(t, 0, uv, texel);
    const MipBlend m = mipBlend(t, lod);
    const glm::vec4 a = sampleBilinear(t, m.lo, uv, texel);
    return m.f > 0.0f ? (1.0f - m.f) * a + m.f * sampleBilinear(t, m.hi, uv, texel) : a;
}

} // namespace facet
