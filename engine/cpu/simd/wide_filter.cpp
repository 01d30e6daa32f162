// Compiled with AVX-512 as the default (engine/CMakeLists.txt) and run only where the CPU has
// it, for the reasons engine/cpu/visibility/sample_pair_walk.cpp gives: nothing here may be shared with the
// rest of facet (Build.WideFilterSharesNoCode checks the object file), so the lane types are
// local to the file (cpu/simd/lanes16.h) and the filters are flattened: the inline functions of
// other headers called here (wrapTexel, cpu/simd/bilinear_lanes.h's on these lanes) are inlined,
// never emitted.
#include "cpu/simd/wide_filter.h"
#include "cpu/simd/bilinear_lanes.h"
#include "cpu/simd/lanes16.h"

#if !defined(__AVX512F__) || !defined(__AVX512VL__) || !defined(__AVX512BW__)
#error "wide_filter.cpp is compiled with -mavx512f -mavx512vl -mavx512bw (engine/CMakeLists.txt)"
#endif

#include <algorithm>
#include <immintrin.h>

namespace facet {
namespace {

using Level16 = lanes::LevelLanes<I32x16>;
using Plan16 = lanes::BilinearPlan<F32x16, I32x16>;
using Split16 = lanes::Split<I32x16>;

// lanes::wrapLanes out of line: inlined, its spills and stores made the planning loops 7-12%
// slower (the filters alone, on an AMD EPYC Zen 4).
[[gnu::noinline]] void wrapOutOfRange(I32x16 x0, I32x16 y0, const Level16& l, I32x16& col0, I32x16& col1, I32x16& row0,
                                      I32x16& row1) {
    lanes::wrapLanes(x0, y0, l, col0, col1, row0, row1);
}

// Eight lanes' values in both halves.
inline __m512 twice(__m256 x) { return _mm512_castpd_ps(_mm512_broadcast_f64x4(_mm256_castps_pd(x))); }

// Each lane's level's width, height and first texel, from the levels in registers.
inline Level16 levelLanes(const Level16& table, __m512i level) {
    const auto pick = [&](I32x16 field) { return I32x16(_mm512_permutexvar_epi32(level, field.v)); };
    return {pick(table.width), pick(table.height), pick(table.offset), table.wrapS, table.wrapT};
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

// simd::filterBilinearSplit8 on sixteen lanes: the plan's texels read, then blended.
inline Split16 filterBilinear16(const TextureView& t, const Plan16& p) {
    __m512i c00, c10, c01, c11;
    if (p.adjacent) {
        fetchTexelPairs16(t.texels, p.c00.v, c00, c10);
        fetchTexelPairs16(t.texels, p.c01.v, c01, c11);
    } else {
        const auto* texels = reinterpret_cast<const int*>(t.texels);
        c00 = _mm512_i32gather_epi32(p.c00.v, texels, 4);
        c10 = _mm512_i32gather_epi32(p.c10.v, texels, 4);
        c01 = _mm512_i32gather_epi32(p.c01.v, texels, 4);
        c11 = _mm512_i32gather_epi32(p.c11.v, texels, 4);
    }
    return lanes::filterBilinearSplit(p, I32x16(c00), I32x16(c10), I32x16(c01), I32x16(c11));
}

template <class T> inline __m256i load8(const T* p) { return _mm256_load_si256(reinterpret_cast<const __m256i*>(p)); }

// The plans of pixels [first, first + 16) on their levels (kRepeats: lanes::planBilinear's).
template <bool kRepeats> inline Plan16 planOneLevel(const Level16& table, const WidePixels& p, int first) {
    return lanes::planBilinear<kRepeats>(levelLanes(table, _mm512_loadu_si512(p.lo + first)),
                               F32x16(_mm512_loadu_ps(p.u + first)), F32x16(_mm512_loadu_ps(p.v + first)));
}

// The plans of pixels [first, first + 8) on their lo (lanes 0-7) and hi (8-15) levels.
template <bool kRepeats> inline Plan16 planTwoLevels(const Level16& table, const WidePixels& p, int first) {
    const __m512i level = _mm512_inserti64x4(_mm512_castsi256_si512(load8(p.lo + first)), load8(p.hi + first), 1);
    return lanes::planBilinear<kRepeats>(levelLanes(table, level), F32x16(twice(_mm256_load_ps(p.u + first))),
                               F32x16(twice(_mm256_load_ps(p.v + first))));
}

// simd::filterSamples4's blend on sixteen lanes: each pixel's lo sample (lanes 0-7) with its hi
// sample (8-15, swapped into 0-7), in the low half.
inline __m256i blendLevels16(const Split16& both, const float* f) {
    const auto upper = [](I32x16 c) { return I32x16(_mm512_shuffle_i64x2(c.v, c.v, _MM_SHUFFLE(1, 0, 3, 2))); };
    const Split16 mixed = lanes::lerpSplit(both, {upper(both.rb), upper(both.ga)},
                                           lanes::filterWeights(F32x16(twice(_mm256_load_ps(f)))));
    return _mm512_castsi512_si256(lanes::joinChannels(mixed).v);
}

inline Level16 loadLevels(const WideLevels& levels) {
    return {I32x16(_mm512_load_si512(levels.width)), I32x16(_mm512_load_si512(levels.height)),
            I32x16(_mm512_load_si512(levels.offset)), levels.wrapS, levels.wrapT};
}

// Pixels [0, count), `step` to a vector: up to eight vectors planned (`plan(first)`) before
// any is fetched, so their gathers overlap (as the AVX2 passes plan theirs,
// cpu/shading/pixel_stream.cpp), then each filtered and stored (`finish(first, plan)`).
template <int step, class Plan, class Finish> inline void filterVectors(int count, Plan plan, Finish finish) {
    constexpr int kPlans = 8;
    Plan16 plans[kPlans];
    for (int start = 0; start < count; start += step * kPlans) {
        const int vectors = std::min(kPlans, (count - start + step - 1) / step);
        for (int g = 0; g < vectors; ++g) plans[g] = plan(start + step * g);
        for (int g = 0; g < vectors; ++g) finish(start + step * g, plans[g]);
    }
}

} // namespace

[[gnu::flatten]] void filterOneLevel16(const TextureView& t, const WideLevels& levels, const WidePixels& p,
                                       std::uint32_t* colors) {
    const Level16 table = loadLevels(levels);
    const auto finish = [&](int first, const Plan16& plan) {
        _mm512_storeu_si512(colors + first, lanes::joinChannels(filterBilinear16(t, plan)).v);
    };
    if (repeats(t))
        filterVectors<16>(p.count, [&](int first) { return planOneLevel<true>(table, p, first); }, finish);
    else
        filterVectors<16>(p.count, [&](int first) { return planOneLevel<false>(table, p, first); }, finish);
}

[[gnu::flatten]] void filterTwoLevels16(const TextureView& t, const WideLevels& levels, const WidePixels& p,
                                        std::uint32_t* colors) {
    const Level16 table = loadLevels(levels);
    const auto finish = [&](int first, const Plan16& plan) {
        _mm256_store_si256(reinterpret_cast<__m256i*>(colors + first),
                           blendLevels16(filterBilinear16(t, plan), p.f + first));
    };
    if (repeats(t))
        filterVectors<8>(p.count, [&](int first) { return planTwoLevels<true>(table, p, first); }, finish);
    else
        filterVectors<8>(p.count, [&](int first) { return planTwoLevels<false>(table, p, first); }, finish);
}

} // namespace facet
