// Compiled with AVX-512 as the default (engine/CMakeLists.txt) and run only where the CPU has
// it, for the reasons engine/cpu/sample_pair_walk.cpp gives: nothing here may be shared with the
// rest of facet (Build.WideFilterSharesNoCode checks the object file), so the functions are
// flattened: the only inline function of another header called here (wrapRepeat) is inlined,
// never emitted.
#include "cpu/wide_filter.h"

#if !defined(__AVX512F__) || !defined(__AVX512VL__) || !defined(__AVX512BW__)
#error "wide_filter.cpp is compiled with -mavx512f -mavx512vl -mavx512bw (engine/CMakeLists.txt)"
#endif

#include <algorithm>
#include <immintrin.h>

namespace facet {
namespace {

// Per lane its level's width, height and first texel.
struct Level16 {
    __m512i width, height, offset;
};

// simd::Bilinear8Plan on sixteen lanes: each lane's four texels and their weights.
struct Bilinear16Plan {
    __m512i c00, c10, c01, c11;
    __m512 a, b;
    bool adjacent; // in every lane c10 is c00 + 1 and c11 is c01 + 1 (no column wraps)
};

inline __m512 floor16(__m512 x) { return _mm512_roundscale_ps(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); }

// Eight lanes' values in both halves.
inline __m512 twice(__m256 x) { return _mm512_castpd_ps(_mm512_broadcast_f64x4(_mm256_castps_pd(x))); }

// wrapRepeat of each lane's x and y, x + 1 and y + 1 where some lane's coordinate lies outside
// [-1, size - 1] (a NaN or infinite uv truncates to INT_MIN), lane by lane.
[[gnu::noinline, gnu::flatten]] void wrapByLane(__m512i x0, __m512i y0, const Level16& l, __m512i& col0, __m512i& col1,
                                                __m512i& row0, __m512i& row1) {
    alignas(64) std::int32_t xs[16], ys[16], ws[16], hs[16], c0[16], c1[16], r0[16], r1[16];
    _mm512_store_si512(xs, x0);
    _mm512_store_si512(ys, y0);
    _mm512_store_si512(ws, l.width);
    _mm512_store_si512(hs, l.height);
    for (int k = 0; k < 16; ++k) {
        c0[k] = wrapRepeat(xs[k], ws[k]);
        c1[k] = wrapRepeat(xs[k] + 1, ws[k]);
        r0[k] = wrapRepeat(ys[k], hs[k]);
        r1[k] = wrapRepeat(ys[k] + 1, hs[k]);
    }
    col0 = _mm512_load_si512(c0);
    col1 = _mm512_load_si512(c1);
    row0 = _mm512_load_si512(r0);
    row1 = _mm512_load_si512(r1);
}

// simd::planBilinear8's steps on sixteen (level, uv) lanes.
inline Bilinear16Plan planBilinear16(const Level16& table, __m512i level, __m512 u, __m512 v) {
    const Level16 l{_mm512_permutexvar_epi32(level, table.width), _mm512_permutexvar_epi32(level, table.height),
                    _mm512_permutexvar_epi32(level, table.offset)};
    const __m512 half = _mm512_set1_ps(0.5f);
    // texelCoordinate, then - 0.5 (bilinearTexels)
    const __m512 s = _mm512_sub_ps(_mm512_mul_ps(_mm512_sub_ps(u, floor16(u)), _mm512_cvtepi32_ps(l.width)), half);
    const __m512 r = _mm512_sub_ps(_mm512_mul_ps(_mm512_sub_ps(v, floor16(v)), _mm512_cvtepi32_ps(l.height)), half);
    const __m512 fs = floor16(s), fr = floor16(r);
    const __m512i x0 = _mm512_cvttps_epi32(fs), y0 = _mm512_cvttps_epi32(fr);
    Bilinear16Plan p;
    p.a = _mm512_sub_ps(s, fs);
    p.b = _mm512_sub_ps(r, fr);

    // As planBilinear8: a finite coordinate gives x0 in [-1, size - 1], wrapped by one
    // conditional add or subtract.
    __m512i col0, col1, row0, row1;
    const __m512i minusTwo = _mm512_set1_epi32(-2), zero = _mm512_setzero_si512(), ones = _mm512_set1_epi32(1);
    if (__mmask16(_mm512_cmpgt_epi32_mask(x0, minusTwo) & _mm512_cmpgt_epi32_mask(y0, minusTwo)) == 0xFFFF) {
        const __m512i x1 = _mm512_add_epi32(x0, ones), y1 = _mm512_add_epi32(y0, ones);
        p.adjacent = __mmask16(_mm512_cmpgt_epi32_mask(x0, _mm512_set1_epi32(-1)) &
                               _mm512_cmpgt_epi32_mask(l.width, x1)) == 0xFFFF;
        col0 = _mm512_mask_add_epi32(x0, _mm512_cmpgt_epi32_mask(zero, x0), x0, l.width);
        col1 = _mm512_mask_sub_epi32(x1, _mm512_cmpge_epi32_mask(x1, l.width), x1, l.width);
        row0 = _mm512_mask_add_epi32(y0, _mm512_cmpgt_epi32_mask(zero, y0), y0, l.height);
        row1 = _mm512_mask_sub_epi32(y1, _mm512_cmpge_epi32_mask(y1, l.height), y1, l.height);
    } else {
        p.adjacent = false;
        wrapByLane(x0, y0, l, col0, col1, row0, row1);
    }
    row0 = _mm512_add_epi32(l.offset, _mm512_mullo_epi32(row0, l.width));
    row1 = _mm512_add_epi32(l.offset, _mm512_mullo_epi32(row1, l.width));
    p.c00 = _mm512_add_epi32(row0, col0);
    p.c10 = _mm512_add_epi32(row0, col1);
    p.c01 = _mm512_add_epi32(row1, col0);
    p.c11 = _mm512_add_epi32(row1, col1);
    return p;
}

// Texels c and c + 1 of each lane, in one 64-bit gather per lane (simd::fetchTexelPairs8).
inline void fetchTexelPairs16(const std::uint32_t* texels, __m512i c, __m512i& left, __m512i& right) {
    const auto* pairs = reinterpret_cast<const long long*>(texels);
    const __m512i lo = _mm512_i32gather_epi64(_mm512_castsi512_si256(c), pairs, 4);
    const __m512i hi = _mm512_i32gather_epi64(_mm512_extracti64x4_epi64(c, 1), pairs, 4);
    const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    left = _mm512_permutex2var_epi32(lo, even, hi);
    right = _mm512_permutex2var_epi32(lo, _mm512_add_epi32(even, _mm512_set1_epi32(1)), hi);
}

// simd::Split8 and its steps (filterWeight, lerpRgba8) on sixteen lanes.
struct Split16 {
    __m512i rb, ga;
};

inline Split16 splitChannels16(__m512i c) {
    return {_mm512_and_si512(c, _mm512_set1_epi32(0x00FF00FF)), _mm512_srli_epi16(c, 8)};
}

inline __m512i filterWeights16(__m512 f) {
    const __m512 w = _mm512_add_ps(_mm512_mul_ps(f, _mm512_set1_ps(256.0f)), _mm512_set1_ps(0.5f));
    const __m512i i = _mm512_max_epi32(_mm512_cvttps_epi32(w), _mm512_setzero_si512());
    return _mm512_or_si512(i, _mm512_slli_epi32(i, 16));
}

inline __m512i lerpWords16(__m512i a, __m512i b, __m512i w, __m512i nw) {
    const __m512i sum = _mm512_add_epi16(_mm512_mullo_epi16(a, nw), _mm512_mullo_epi16(b, w));
    return _mm512_srli_epi16(_mm512_add_epi16(sum, _mm512_set1_epi16(128)), 8);
}

inline Split16 lerpSplit16(const Split16& x0, const Split16& x1, __m512i w) {
    const __m512i nw = _mm512_sub_epi16(_mm512_set1_epi16(256), w);
    return {lerpWords16(x0.rb, x1.rb, w, nw), lerpWords16(x0.ga, x1.ga, w, nw)};
}

// filterBilinearSplit8 on sixteen lanes.
inline Split16 filterBilinear16(const TextureView& t, const Bilinear16Plan& p) {
    __m512i c00, c10, c01, c11;
    if (p.adjacent) {
        fetchTexelPairs16(t.texels, p.c00, c00, c10);
        fetchTexelPairs16(t.texels, p.c01, c01, c11);
    } else {
        const auto* texels = reinterpret_cast<const int*>(t.texels);
        c00 = _mm512_i32gather_epi32(p.c00, texels, 4);
        c10 = _mm512_i32gather_epi32(p.c10, texels, 4);
        c01 = _mm512_i32gather_epi32(p.c01, texels, 4);
        c11 = _mm512_i32gather_epi32(p.c11, texels, 4);
    }
    const __m512i a = filterWeights16(p.a);
    return lerpSplit16(lerpSplit16(splitChannels16(c00), splitChannels16(c10), a),
                       lerpSplit16(splitChannels16(c01), splitChannels16(c11), a), filterWeights16(p.b));
}

inline __m512i joinChannels16(const Split16& c) { return _mm512_or_si512(c.rb, _mm512_slli_epi16(c.ga, 8)); }

template <class T> inline __m256i load8(const T* p) { return _mm256_load_si256(reinterpret_cast<const __m256i*>(p)); }

// The plans of pixels [first, first + 16) on their levels.
inline Bilinear16Plan planOneLevel(const Level16& table, const WidePixels& p, int first) {
    return planBilinear16(table, _mm512_loadu_si512(p.lo + first), _mm512_loadu_ps(p.u + first),
                          _mm512_loadu_ps(p.v + first));
}

// The plans of pixels [first, first + 8) on their lo (lanes 0-7) and hi (8-15) levels.
inline Bilinear16Plan planTwoLevels(const Level16& table, const WidePixels& p, int first) {
    const __m512i level = _mm512_inserti64x4(_mm512_castsi256_si512(load8(p.lo + first)), load8(p.hi + first), 1);
    return planBilinear16(table, level, twice(_mm256_load_ps(p.u + first)), twice(_mm256_load_ps(p.v + first)));
}

// filterSamples4's blend on sixteen lanes: each pixel's lo sample (lanes 0-7) with its hi
// sample (8-15, swapped into 0-7), in the low half.
inline __m256i blendLevels16(const Split16& both, const float* f) {
    const auto upper = [](__m512i c) { return _mm512_shuffle_i64x2(c, c, _MM_SHUFFLE(1, 0, 3, 2)); };
    const Split16 mixed =
        lerpSplit16(both, {upper(both.rb), upper(both.ga)}, filterWeights16(twice(_mm256_load_ps(f))));
    return _mm512_castsi512_si256(joinChannels16(mixed));
}

Level16 loadLevels(const WideLevels& levels) {
    return {_mm512_load_si512(levels.width), _mm512_load_si512(levels.height), _mm512_load_si512(levels.offset)};
}

// Up to eight vectors are planned before any is fetched: their gathers then overlap (as the
// AVX2 passes plan theirs, cpu/raster_triangle.cpp).
constexpr int kPlans = 8;

} // namespace

[[gnu::flatten]] void filterOneLevel16(const TextureView& t, const WideLevels& levels, const WidePixels& p,
                                       std::uint32_t* colors) {
    const Level16 table = loadLevels(levels);
    Bilinear16Plan plans[kPlans];
    for (int start = 0; start < p.count; start += 16 * kPlans) {
        const int vectors = std::min(kPlans, (p.count - start + 15) / 16);
        for (int g = 0; g < vectors; ++g) plans[g] = planOneLevel(table, p, start + 16 * g);
        for (int g = 0; g < vectors; ++g)
            _mm512_storeu_si512(colors + start + 16 * g, joinChannels16(filterBilinear16(t, plans[g])));
    }
}

[[gnu::flatten]] void filterTwoLevels16(const TextureView& t, const WideLevels& levels, const WidePixels& p,
                                        std::uint32_t* colors) {
    const Level16 table = loadLevels(levels);
    Bilinear16Plan plans[kPlans];
    for (int start = 0; start < p.count; start += 8 * kPlans) {
        const int vectors = std::min(kPlans, (p.count - start + 7) / 8);
        for (int g = 0; g < vectors; ++g) plans[g] = planTwoLevels(table, p, start + 8 * g);
        for (int g = 0; g < vectors; ++g) {
            const int first = start + 8 * g;
            _mm256_store_si256(reinterpret_cast<__m256i*>(colors + first),
                               blendLevels16(filterBilinear16(t, plans[g]), p.f + first));
        }
    }
}

} // namespace facet
