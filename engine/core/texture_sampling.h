// Texel sampling shared by both backends, matching OpenGL's GL_NEAREST, GL_LINEAR and
// GL_LINEAR_MIPMAP_LINEAR on an RGBA8 texture (spec 8.14, 8.15), wrapped per axis by GL_REPEAT,
// GL_CLAMP_TO_EDGE or GL_MIRRORED_REPEAT (8.14.2; Wrap, core/material.h).
#pragma once

#include "core/material.h"
#include "core/to_int.h"

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
    Wrap wrapS = Wrap::Repeat, wrapT = Wrap::Repeat;
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

// Channels in [0, 255], rounded to nearest; a NaN channel is 0.
FACET_HD std::uint32_t packRgba8(glm::vec4 c) {
    const glm::vec4 k(clampOrLow(c.x, 0.0f, 255.0f) + 0.5f, clampOrLow(c.y, 0.0f, 255.0f) + 0.5f,
                      clampOrLow(c.z, 0.0f, 255.0f) + 0.5f, clampOrLow(c.w, 0.0f, 255.0f) + 0.5f);
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

// GL_CLAMP_TO_EDGE: clamp(i, 0, size - 1).
FACET_HD int wrapClampToEdge(int i, int size) { return i < 0 ? 0 : i < size ? i : size - 1; }

// GL_MIRRORED_REPEAT: (size - 1) - mirror((i mod 2 size) - size), mirror(a) = a >= 0 ? a : -1 - a.
FACET_HD int wrapMirroredRepeat(int i, int size) {
    const int period = 2 * size;
    int m = i % period;
    if (m < 0) m += period;
    const int a = m - size;
    return (size - 1) - (a >= 0 ? a : -1 - a);
}

// Whether t repeats on both axes (nearly every texture: OBJ/MTL maps always do).
FACET_HD bool repeats(const TextureView& t) { return t.wrapS == Wrap::Repeat && t.wrapT == Wrap::Repeat; }

// Texel index i on an axis of `size` texels wrapped by `wrap`. An index in range is its own
// under every wrap, so the common case tests no wrap and divides nothing.
// (Always inlined: see sampleOffset in core/coverage_walk.h.)
FACET_HD_INLINED int wrapTexel(int i, int size, Wrap wrap) {
    if (static_cast<unsigned>(i) < static_cast<unsigned>(size)) return i;
    if (wrap == Wrap::ClampToEdge) return wrapClampToEdge(i, size);
    if (wrap == Wrap::MirroredRepeat) return wrapMirroredRepeat(i, size);
    return wrapRepeat(i, size);
}

// Where texel (x, y) of `level`, wrapped, lies in t.texels.
FACET_HD std::uint32_t texelIndex(const TextureView& t, int level, int x, int y) {
    const MipLevel& l = t.levels[level];
    const int w = static_cast<int>(l.width), h = static_cast<int>(l.height);
    return l.offset + static_cast<std::uint32_t>(wrapTexel(y, h, t.wrapT) * w + wrapTexel(x, w, t.wrapS));
}

// A texture coordinate reduced by its wrap's period, so huge uvs keep precision and texel
// indices stay far from int's limits: into [0, 1) for GL_REPEAT, [0, 2) for GL_MIRRORED_REPEAT
// (exact: a float minus a whole multiple of its period). GL_CLAMP_TO_EDGE clamps it to [0, 1]
// instead: beyond, every texel a sample reads is the edge's, as at 0 or 1. A NaN stays NaN.
FACET_HD float wrapCoordinate(float u, Wrap wrap) {
    if (wrap == Wrap::Repeat) return u - glm::floor(u);
    if (wrap == Wrap::MirroredRepeat) return u - 2.0f * glm::floor(0.5f * u);
    return u < 0.0f ? 0.0f : 1.0f < u ? 1.0f : u;
}

// Texel space coordinate u * size, of the coordinate reduced by wrapCoordinate.
FACET_HD float texelCoordinate(float u, std::uint32_t size, Wrap wrap) {
    return wrapCoordinate(u, wrap) * static_cast<float>(size);
}

// The texel GL_NEAREST reads at uv, as its place in t.texels, and the texel itself.
FACET_HD std::uint32_t nearestIndex(const TextureView& t, int level, glm::vec2 uv) {
    const MipLevel& l = t.levels[level];
    const int x = truncateToInt(glm::floor(texelCoordinate(uv.x, l.width, t.wrapS)));
    const int y = truncateToInt(glm::floor(texelCoordinate(uv.y, l.height, t.wrapT)));
    return texelIndex(t, level, x, y);
}

FACET_HD std::uint32_t nearestTexel(const TextureView& t, int level, glm::vec2 uv) {
    return t.texels[nearestIndex(t, level, uv)];
}

// `texel`: how the sampler reads a texel before filtering (core/lighting.h): SrgbTexel decodes
// sRGB colour to linear light first, as OpenGL does for an sRGB texture; UnitTexel scales
// channels to [0, 1].
template <class Texel> FACET_HD glm::vec4 sampleNearest(const TextureView& t, int level, glm::vec2 uv, Texel texel) {
    return texel(nearestTexel(t, level, uv));
}

// The four texels a bilinear sample blends, and its weights a (along x) and b (along y), in
// [0, 1).
struct BilinearTexels {
    std::uint32_t c00, c10, c01, c11;
    float a, b;
};

FACET_HD BilinearTexels bilinearTexels(const TextureView& t, int level, glm::vec2 uv) {
    const MipLevel& l = t.levels[level];
    const float s = texelCoordinate(uv.x, l.width, t.wrapS) - 0.5f;
    const float r = texelCoordinate(uv.y, l.height, t.wrapT) - 0.5f;
    const float fs = glm::floor(s), fr = glm::floor(r);
    const int x0 = truncateToInt(fs), y0 = truncateToInt(fr); // a NaN uv reads texel 0
    // The same texels as four texelIndex reads, wrapping each row and column only once: the
    // neighbours x0 + 1 and y0 + 1 wrap as their own indices (clamped to the edge, or mirrored).
    const int w = static_cast<int>(l.width), h = static_cast<int>(l.height);
    const std::uint32_t* texels = t.texels + l.offset;
    const int col0 = wrapTexel(x0, w, t.wrapS), col1 = wrapTexel(x0 + 1, w, t.wrapS);
    const int row0 = wrapTexel(y0, h, t.wrapT) * w, row1 = wrapTexel(y0 + 1, h, t.wrapT) * w;
    return BilinearTexels{texels[static_cast<std::uint32_t>(row0 + col0)],
                          texels[static_cast<std::uint32_t>(row0 + col1)],
                          texels[static_cast<std::uint32_t>(row1 + col0)],
                          texels[static_cast<std::uint32_t>(row1 + col1)],
                          s - fs,
                          r - fr};
}

template <class Texel> FACET_HD glm::vec4 sampleBilinear(const TextureView& t, int level, glm::vec2 uv, Texel texel) {
    const BilinearTexels q = bilinearTexels(t, level, uv);
    const float a = q.a, b = q.b;
    return (1.0f - a) * (1.0f - b) * texel(q.c00) + a * (1.0f - b) * texel(q.c10) + (1.0f - a) * b * texel(q.c01) +
           a * b * texel(q.c11);
}

// The classic model's colour texture is filtered in 8-bit fixed point, as a GPU's texture unit
// and llvmpipe's 8-bit path filter an RGBA8 texture: a weight of 8 fractional bits, rounded to
// the nearest (llvmpipe rounds the texel coordinate to 1/256), and each blend of two texels
// rounded to the nearest byte. (The lit model filters in float: it blends in linear light,
// which 8 bits cannot hold.) A weight in [0, 1) gives [0, 256]; a NaN, from a NaN uv, gives 0
// (a defined value where the cast's would not be).
FACET_HD std::uint32_t filterWeight(float f) {
    const float w = f * 256.0f + 0.5f;
    return w > 0.0f ? static_cast<std::uint32_t>(w) : 0u;
}

// (x0 (256 - w) + x1 w + 128) >> 8 per channel, for w in [0, 256]: two channels at a time, each
// in its own 16 bits (at most 255 * 256 + 128, so no carry reaches the next).
FACET_HD std::uint32_t lerpRgba8(std::uint32_t x0, std::uint32_t x1, std::uint32_t w) {
    const std::uint32_t m = 0x00FF00FFu, nw = 256u - w, half = 0x00800080u;
    const std::uint32_t rb = (((x0 & m) * nw + (x1 & m) * w + half) >> 8) & m;
    const std::uint32_t ga = (((x0 >> 8) & m) * nw + ((x1 >> 8) & m) * w + half) & ~m;
    return rb | ga;
}

FACET_HD std::uint32_t filterBilinear8(const TextureView& t, int level, glm::vec2 uv) {
    const BilinearTexels q = bilinearTexels(t, level, uv);
    const std::uint32_t a = filterWeight(q.a);
    return lerpRgba8(lerpRgba8(q.c00, q.c10, a), lerpRgba8(q.c01, q.c11, a), filterWeight(q.b));
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
// four pixels of a quad at once (cpu/simd/simd_quad.h) with these same steps.
template <class Texel>
FACET_HD glm::vec4 sampleTexture(const TextureView& t, TextureFilter filter, glm::vec2 uv, float lod, Texel texel) {
    if (filter == TextureFilter::Nearest) return sampleNearest(t, 0, uv, texel);
    if (filter == TextureFilter::Bilinear || !minifies(t, lod)) return sampleBilinear(t, 0, uv, texel);
    const MipBlend m = mipBlend(t, lod);
    const glm::vec4 a = sampleBilinear(t, m.lo, uv, texel);
    return m.f > 0.0f ? (1.0f - m.f) * a + m.f * sampleBilinear(t, m.hi, uv, texel) : a;
}

// sampleTexture's steps in 8-bit fixed point (see filterWeight): the classic model's colour.
FACET_HD std::uint32_t sampleTexture8(const TextureView& t, TextureFilter filter, glm::vec2 uv, float lod) {
    if (filter == TextureFilter::Nearest) return nearestTexel(t, 0, uv);
    if (filter == TextureFilter::Bilinear || !minifies(t, lod)) return filterBilinear8(t, 0, uv);
    const MipBlend m = mipBlend(t, lod);
    const std::uint32_t a = filterBilinear8(t, m.lo, uv);
    return m.f > 0.0f ? lerpRgba8(a, filterBilinear8(t, m.hi, uv), filterWeight(m.f)) : a;
}

} // namespace facet
