// The CPU's pixel stream: the textured pixels that shading jobs won, gathered across triangles
// into vectors of one texture and sampled a vector at a time (cpu/shading/quad_jobs.h and
// cpu/shading/pair_jobs.h fill it; cpu/shading/tile_shading.cpp makes the jobs). Internal to engine/cpu.
#pragma once

#include "core/lighting.h"
#include "core/shading.h"
#include "cpu/simd/lit_lanes.h"
#include "cpu/simd/simd_quad.h"
#include "cpu/simd/wide_filter.h"
#include "cpu/visibility/tile_buffers.h"

#include <cstdint>
#include <immintrin.h>

namespace facet {

// The pixels of jobs sampling one texture with a bilinear or trilinear filter, gathered to
// vectors: a job's quad usually holds only one or two pixels its triangle won, so sampling
// whole quads would spend half the work on pixels that are thrown away. Per pixel: its texel
// coordinates, the levels its job samples, the headlight factor, the lit model's normal and
// its place in the tile's colour buffer. A job's four lanes (a pair job's eight) are packed
// left (the won ones first) and stored whole, overlapping the next job's; the arrays' spare
// lanes leave room for that and for the padded last vector.
struct PixelLanes {
    // 128 rather than 64: a flush plans twice the vectors before their texels are read, and the
    // textured frames took 0.95-0.99 of the time (facet-bench A/B, AVX2 and AVX-512 filters).
    static constexpr int kCapacity = 128;
    int count = 0;
    alignas(32) float u[kCapacity + 8], v[kCapacity + 8], f[kCapacity + 8], light[kCapacity + 8];
    alignas(32) float nx[kCapacity + 8], ny[kCapacity + 8], nz[kCapacity + 8];
    alignas(32) std::int32_t lo[kCapacity + 8], hi[kCapacity + 8], at[kCapacity + 8];
};

// The stream's pixels in two lists: those sampling one level (magnified, or the bilinear
// filter) take one lane of a bilinear vector, eight pixels to a vector; those blending two
// levels take a lane on each, four to a vector. In a close view most pixels are magnified,
// and one list for both would give half their lanes to a second level they do not blend.
struct PixelStream {
    const TextureView* texture = nullptr;
    simd::LevelTable levels;                 // texture's, built when the stream takes it (not per flush)
    WideLevels wideLevels;                   // likewise, for RasterContext::wideFilter
    const ShadeMaterial* material = nullptr; // the lit model's: one material per stream
    LightRig rig{};                          // the lit model's lights for this frame
    PixelLanes oneLevel, twoLevels;
};

// For each N-bit mask, the lane order that packs its set lanes first.
template <int N> struct LeftPack {
    alignas(32) std::int32_t order[1 << N][N];
    constexpr LeftPack() : order{} {
        for (unsigned mask = 0; mask < (1u << N); ++mask) {
            int n = 0;
            for (int k = 0; k < N; ++k)
                if (mask >> k & 1) order[mask][n++] = k;
            for (int k = n; k < N; ++k) order[mask][k] = 0;
        }
    }
};
inline constexpr LeftPack<4> kLeftPack4;
inline constexpr LeftPack<8> kLeftPack8;

// Lanes 0-3 (h = 0) or 4-7 (h = 1) of eight, or of a colour.
inline __m128 halfOf(__m256 v, int h) { return h ? _mm256_extractf128_ps(v, 1) : _mm256_castps256_ps128(v); }
inline simd::Rgba4 halfOf(const simd::Rgba8& c, int h) {
    return {halfOf(c.r, h), halfOf(c.g, h), halfOf(c.b, h), halfOf(c.a, h)};
}

// The lit model's packed colours of eight pixels of `m` with normals (nx, ny, nz), into `out`:
// its texture's sample `t` (in linear light; null for an untextured material) applied as
// litSurface applies it, then litFragment and encodeFragment on the lanes.
inline void litColors8(const ShadeMaterial& m, const simd::Rgba8* t, __m256 nx, __m256 ny, __m256 nz,
                       const LightRig& rig, const RasterContext& ctx, std::uint32_t* out) {
    using F = lanes::F32x8;
    LitSurfaceLanes<F> s{splat3<F>(m.kd), splat3<F>(m.ks), splat3<F>(m.ke), F(m.ns), F(m.opacity)};
    if (t) {
        s.kd = s.kd * Vec3Lanes<F>{F(t->r), F(t->g), F(t->b)};
        s.alpha = s.alpha * F(t->a);
    }
    const ColorLanes<F> c = encodeFragmentLanes(
        litFragmentLanes(s, m.illumination, m.ka, ctx.plan.settings.lights, rig, Vec3Lanes<F>{F(nx), F(ny), F(nz)}));
    const simd::Rgba8 colors{c.r.v, c.g.v, c.b.v, c.a.v};
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), simd::pack4(halfOf(colors, 0)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 4), simd::pack4(halfOf(colors, 1)));
}

// Whether the vectorised passes draw the lit model's pixels of `m`: a Blinn-Phong material (not
// glTF's metallic-roughness) whose only map is map_Kd, sampled bilinear or trilinear (with the
// CPU's sRGB table). Others (and vertex colours, see shadeBatch) take the scalar path,
// shadeQuadPixel itself.
inline bool litVectorised(const ShadeMaterial& m, TextureFilter filter) {
    const bool onlyKd = m.specularMap.levelCount == 0 && m.shininessMap.levelCount == 0 &&
                        m.emissionMap.levelCount == 0 && m.alphaMap.levelCount == 0 && m.bumpMap.levelCount == 0;
    return onlyKd && !m.pbr && (m.texture.levelCount == 0 || (filter != TextureFilter::Nearest && m.srgbTable));
}

// Samples the stream's pixels of one level, of two levels, or both, and writes their colours.
void flushOneLevel(PixelStream& s, const RasterContext& ctx, const TileBuffers& buffers);
void flushTwoLevels(PixelStream& s, const RasterContext& ctx, const TileBuffers& buffers);
void flushPixels(PixelStream& s, const RasterContext& ctx, const TileBuffers& buffers);

// Makes the stream one of `material`'s: samples what it holds, then takes its texture.
void switchStream(PixelStream& s, const ShadeMaterial* material, const RasterContext& ctx, const TileBuffers& buffers);

// Makes the stream one of `material`'s texture (and, in the lit model, of `material`), first
// sampling what it holds if it is for another. The test inline, the switch out of line: whole,
// with the level table's build, GCC called it for every job, a prologue and epilogue of about
// 20 instructions.
[[gnu::always_inline]] inline void streamMaterial(PixelStream& s, const ShadeMaterial* material,
                                                  const RasterContext& ctx, const TileBuffers& buffers) {
    const bool lit = ctx.plan.lit;
    if (s.texture != &material->texture || (lit && s.material != material)) switchStream(s, material, ctx, buffers);
}

} // namespace facet
