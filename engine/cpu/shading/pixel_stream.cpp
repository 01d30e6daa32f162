#include "cpu/shading/pixel_stream.h"

#include <type_traits>

namespace facet {

namespace {

// The colours of pixels [first, first + N) of `p`, to their places in the tile. Those past its
// count are padLanes' copies of its last pixel: its colour to its place again. (A fixed count
// unrolls; a loop to the count took about three times the instructions.)
template <int N>
inline void writeColors(const PixelLanes& p, int first, const std::uint32_t* colors, const TileBuffers& buffers) {
    for (int k = 0; k < N; ++k) buffers.color[p.at[first + k]] = colors[k];
}

// The lit model's colours of the two-level pixels: their texture sampled four pixels at a time
// (decoded to linear light per texel), lit eight at a time. Out of line, so the classic
// look's loop in flushTwoLevels stays as it was.
template <IndexedLoads L>
[[gnu::noinline]] void litStreamColors(const PixelStream& s, const simd::SamplePlan4* plans, int vectors,
                                       const RasterContext& ctx, const TileBuffers& buffers) {
    const PixelLanes& p = s.twoLevels;
    const simd::SrgbTexel8<L> texel{s.material->srgbTable};
    for (int g = 0; g < vectors; g += 2) {
        const simd::Rgba4 a = simd::fetchSamples4<L>(*s.texture, plans[g], texel);
        const simd::Rgba4 b = g + 1 < vectors ? simd::fetchSamples4<L>(*s.texture, plans[g + 1], texel) : a;
        const simd::Rgba8 t{_mm256_set_m128(b.r, a.r), _mm256_set_m128(b.g, a.g), _mm256_set_m128(b.b, a.b),
                            _mm256_set_m128(b.a, a.a)};
        alignas(32) std::uint32_t colors[8];
        litColors8(*s.material, &t, _mm256_loadu_ps(p.nx + 4 * g), _mm256_loadu_ps(p.ny + 4 * g),
                   _mm256_loadu_ps(p.nz + 4 * g), s.rig, ctx, colors);
        if (g + 1 < vectors)
            writeColors<8>(p, 4 * g, colors, buffers);
        else // lanes 4-7 repeat a's
            writeColors<4>(p, 4 * g, colors, buffers);
    }
}

// The classic model's packed texture colours of pixels [first, first + 4) of `p`, times their
// headlight factors where the headlight is on (as shadeFragment: the sample unpacked, lit, packed).
inline __m128i withHeadlight(__m128i colors, const PixelLanes& p, int first, const RasterContext& ctx) {
    if (!ctx.plan.settings.headlight) return colors;
    return simd::pack4(simd::applyHeadlight4(simd::unpack4(colors), _mm_load_ps(p.light + first)));
}

// The last vector's unused lanes, up to `end`, copy the last pixel: they sample (and the lit
// model's light) it again, for nothing, and write its colour to its place again.
void padLanes(PixelLanes& p, int end) {
    const int last = p.count - 1;
    for (int k = p.count; k < end; ++k) {
        p.u[k] = p.u[last];
        p.v[k] = p.v[last];
        p.f[k] = p.f[last];
        p.light[k] = p.light[last];
        p.lo[k] = p.lo[last];
        p.hi[k] = p.hi[last];
        p.nx[k] = p.nx[last];
        p.ny[k] = p.ny[last];
        p.nz[k] = p.nz[last];
        p.at[k] = p.at[last];
    }
}

// The classic model's colours of the pixels of `p`, by cpu/simd/wide_filter.h's AVX-512 filter
// `filter` (`step` pixels to a vector).
template <int step, class Filter>
[[gnu::noinline]] void flushWide(PixelLanes& p, Filter filter, const PixelStream& s, const RasterContext& ctx,
                                 const TileBuffers& buffers) {
    padLanes(p, (p.count + step - 1) & ~(step - 1));
    alignas(32) std::uint32_t colors[PixelLanes::kCapacity + 8];
    filter(*s.texture, s.wideLevels, WidePixels{p.u, p.v, p.lo, p.hi, p.f, p.count}, colors);
    for (int g = 0; g < p.count; g += 8) {
        if (ctx.plan.settings.headlight)
            for (int h = 0; h < 8; h += 4) {
                __m128i* at = reinterpret_cast<__m128i*>(colors + g + h);
                _mm_store_si128(at, withHeadlight(_mm_load_si128(at), p, g + h, ctx));
            }
        writeColors<8>(p, g, colors + g, buffers);
    }
    p.count = 0;
}

// Whether the stream's classic-model pixels take cpu/simd/wide_filter.h's filters.
inline bool wideFilters(const PixelStream& s, const RasterContext& ctx) {
    return ctx.wideFilter && s.wideLevels.fits && ctx.plan.settings.shading == ShadingModel::Classic;
}

// Samples the pixels blending two levels, four at a time (lanes 0-3 on their lo levels, 4-7
// on their hi levels), and writes their colours. kRepeats: the texture repeats on both axes
// (lanes::planBilinear).
template <IndexedLoads L, bool kRepeats>
void flushTwoLevelsBy(PixelStream& s, const RasterContext& ctx, const TileBuffers& buffers) {
    PixelLanes& p = s.twoLevels;
    if (p.count == 0) return;
    if (wideFilters(s, ctx)) return flushWide<8>(p, filterTwoLevels16, s, ctx, buffers);
    const TextureView& texture = *s.texture;
    const simd::LevelTable& levels = s.levels;
    const int vectors = (p.count + 3) / 4;
    const bool lit = ctx.plan.lit;
    padLanes(p, lit ? (p.count + 7) & ~7 : 4 * vectors);
    simd::SamplePlan4 plans[PixelLanes::kCapacity / 4];
    for (int g = 0; g < vectors; ++g) {
        const auto ints = [&](const std::int32_t* a) {
            return _mm_load_si128(reinterpret_cast<const __m128i*>(a + 4 * g));
        };
        plans[g] = simd::planSamples4<kRepeats>(levels, _mm_load_ps(p.u + 4 * g), _mm_load_ps(p.v + 4 * g), ints(p.lo),
                                      ints(p.hi), _mm_load_ps(p.f + 4 * g));
    }
    if (lit) {
        litStreamColors<L>(s, plans, vectors, ctx, buffers);
        p.count = 0;
        return;
    }
    for (int g = 0; g < vectors; ++g) {
        alignas(16) std::uint32_t colors[4];
        _mm_store_si128(reinterpret_cast<__m128i*>(colors),
                        withHeadlight(simd::filterSamples4<L>(texture, plans[g]), p, 4 * g, ctx));
        writeColors<4>(p, 4 * g, colors, buffers);
    }
    p.count = 0;
}

// Samples the pixels of one level, eight at a time, and writes their colours: the bilinear
// sample of their level is what fetchSamples4 and filterSamples4 give them, as a blend of lo
// with weight 0 is lo (see simd::LevelChoice).
template <IndexedLoads L, bool kRepeats>
void flushOneLevelBy(PixelStream& s, const RasterContext& ctx, const TileBuffers& buffers) {
    PixelLanes& p = s.oneLevel;
    if (p.count == 0) return;
    if (wideFilters(s, ctx)) return flushWide<16>(p, filterOneLevel16, s, ctx, buffers);
    const TextureView& texture = *s.texture;
    const simd::LevelTable& levels = s.levels;
    const bool lit = ctx.plan.lit;
    padLanes(p, (p.count + 7) & ~7);
    for (int g = 0; g < p.count; g += 8) {
        const simd::Bilinear8Plan plan = simd::planBilinear8<kRepeats>(
            levels.lanes(_mm256_load_si256(reinterpret_cast<const __m256i*>(p.lo + g))), _mm256_load_ps(p.u + g),
            _mm256_load_ps(p.v + g));
        alignas(32) std::uint32_t colors[8];
        if (lit) {
            const simd::Rgba8 t = simd::fetchBilinear8<L>(texture, plan, simd::SrgbTexel8<L>{s.material->srgbTable});
            litColors8(*s.material, &t, _mm256_load_ps(p.nx + g), _mm256_load_ps(p.ny + g), _mm256_load_ps(p.nz + g),
                       s.rig, ctx, colors);
        } else {
            const __m256i c = simd::filterBilinear8x8<L>(texture, plan);
            for (int h = 0; h < 2; ++h)
                _mm_store_si128(
                    reinterpret_cast<__m128i*>(colors + 4 * h),
                    withHeadlight(h ? _mm256_extracti128_si256(c, 1) : _mm256_castsi256_si128(c), p, g + 4 * h, ctx));
        }
        writeColors<8>(p, g, colors, buffers);
    }
    p.count = 0;
}

} // namespace

// `flush` (a flushXBy<L, kRepeats> above) with the context's IndexedLoads and whether the
// stream's texture repeats, each given as a type's value.
template <class Flush> void flushChosen(const PixelStream& s, const RasterContext& ctx, Flush flush) {
    using ByLane = std::integral_constant<IndexedLoads, IndexedLoads::ByLane>;
    using Gather = std::integral_constant<IndexedLoads, IndexedLoads::Gather>;
    const bool byLane = ctx.indexedLoads == IndexedLoads::ByLane;
    if (repeats(*s.texture)) {
        if (byLane)
            flush(ByLane{}, std::true_type{});
        else
            flush(Gather{}, std::true_type{});
    } else if (byLane) {
        flush(ByLane{}, std::false_type{});
    } else {
        flush(Gather{}, std::false_type{});
    }
}

void flushTwoLevels(PixelStream& s, const RasterContext& ctx, const TileBuffers& buffers) {
    if (s.twoLevels.count == 0) return;
    flushChosen(s, ctx, [&](auto loads, auto repeat) {
        flushTwoLevelsBy<decltype(loads)::value, decltype(repeat)::value>(s, ctx, buffers);
    });
}

void flushOneLevel(PixelStream& s, const RasterContext& ctx, const TileBuffers& buffers) {
    if (s.oneLevel.count == 0) return;
    flushChosen(s, ctx, [&](auto loads, auto repeat) {
        flushOneLevelBy<decltype(loads)::value, decltype(repeat)::value>(s, ctx, buffers);
    });
}

// Samples the stream's pixels and writes their colours.
void flushPixels(PixelStream& s, const RasterContext& ctx, const TileBuffers& buffers) {
    flushOneLevel(s, ctx, buffers);
    flushTwoLevels(s, ctx, buffers);
}

// Makes the stream one of `material`'s: samples what it holds, then takes its texture.
void switchStream(PixelStream& s, const ShadeMaterial* material, const RasterContext& ctx, const TileBuffers& buffers) {
    flushPixels(s, ctx, buffers);
    if (s.texture != &material->texture) {
        s.levels = simd::LevelTable(material->texture);
        if (ctx.wideFilter) s.wideLevels = WideLevels(material->texture);
    }
    s.texture = &material->texture;
    s.material = material;
}

} // namespace facet
