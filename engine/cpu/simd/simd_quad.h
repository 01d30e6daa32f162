// The shared per-pixel functions of core/texture_sampling.h and core/shading.h for the four
// pixels of a 2x2 quad at once, lane k holding pixel (qx + (k & 1), qy + (k >> 1)). AVX2 is the
// host baseline (x86-64-v3).
//
// Every lane performs exactly the float operations of the scalar function it stands in for,
// in the same order: separate multiplies and adds (no FMA; the host builds with
// -ffp-contract=off), real divisions and square roots (IEEE exact, no approximations), floor
// by rounding, truncating conversions where the scalar code casts, and glm's min/max with
// their operand order (which decides what a NaN gives); the fixed-point filter's integer steps
// give the scalar ones' exact values. tests/cpu_raster_equivalence_test.cpp
// checks each against its scalar original on random and special inputs, bit for bit.
#pragma once

#include "core/shading.h"
#include "cpu/simd/bilinear_lanes.h"
#include "cpu/simd/isa.h"
#include "cpu/simd/quad_coverage.h"

#include <climits>
#include <immintrin.h>
#include <type_traits>

#if !defined(__AVX2__)
#error "the CPU raster stage needs AVX2: build with the project's host flags (-march=x86-64-v3)"
#endif

namespace facet::lanes {

// The operations of cpu/simd/bilinear_lanes.h on AVX2's eight lanes.
inline F32x8 floor(F32x8 x) { return F32x8(_mm256_floor_ps(x.v)); }
// maxps and minps return their second operand where either is NaN: x's NaN is kept.
inline F32x8 clampUnit(F32x8 x) {
    return F32x8(_mm256_min_ps(_mm256_set1_ps(1.0f), _mm256_max_ps(_mm256_setzero_ps(), x.v)));
}
// cvttps: a NaN lane gives INT_MIN, which the lanes' rare paths make truncateToInt's 0
// (wrapLanes, nearestIndex4): masking here cost the textured sheet 4% of its frame.
inline I32x8 truncate(F32x8 x) { return I32x8(_mm256_cvttps_epi32(x.v)); }
inline F32x8 toFloat(I32x8 x) { return F32x8(_mm256_cvtepi32_ps(x.v)); }
inline I32x8 lowWordsUp(I32x8 a) { return I32x8(_mm256_slli_epi32(a.v, 16)); }
inline I32x8 addWords(I32x8 a, I32x8 b) { return I32x8(_mm256_add_epi16(a.v, b.v)); }
inline I32x8 subWords(I32x8 a, I32x8 b) { return I32x8(_mm256_sub_epi16(a.v, b.v)); }
inline I32x8 mulWords(I32x8 a, I32x8 b) { return I32x8(_mm256_mullo_epi16(a.v, b.v)); }
inline I32x8 highBytesDown(I32x8 a) { return I32x8(_mm256_srli_epi16(a.v, 8)); }
inline I32x8 lowBytesUp(I32x8 a) { return I32x8(_mm256_slli_epi16(a.v, 8)); }
inline bool all(Mask8 m) { return _mm256_movemask_ps(m.v) == 0xFF; }
inline I32x8 addWhere(Mask8 m, I32x8 x, I32x8 w) {
    return I32x8(_mm256_add_epi32(x.v, _mm256_and_si256(_mm256_castps_si256(m.v), w.v)));
}
inline I32x8 subUnless(Mask8 m, I32x8 x, I32x8 w) {
    return I32x8(_mm256_sub_epi32(x.v, _mm256_andnot_si256(_mm256_castps_si256(m.v), w.v)));
}
inline void store(std::int32_t* to, I32x8 x) { _mm256_store_si256(reinterpret_cast<__m256i*>(to), x.v); }
inline void load(I32x8& x, const std::int32_t* from) {
    x = I32x8(_mm256_load_si256(reinterpret_cast<const __m256i*>(from)));
}
// Inlined though rarely taken: as a call, the vector registers it may clobber made the
// planning loops around it rebuild their constants every iteration (0.7% of the textured
// sheet's instructions).
[[gnu::always_inline]] inline void wrapOutOfRange(I32x8 x0, I32x8 y0, const LevelLanes<I32x8>& l, I32x8& col0,
                                                  I32x8& col1, I32x8& row0, I32x8& row1) {
    wrapLanes(x0, y0, l, col0, col1, row0, row1);
}

} // namespace facet::lanes

namespace facet::simd {

// glm::min(x, y) is (y < x) ? y : x and glm::max(x, y) is (x < y) ? y : x; minps/maxps return
// their second operand when either is NaN, so swapping the operands gives glm's results.
inline __m128 glmMin(__m128 x, __m128 y) { return _mm_min_ps(y, x); }
inline __m128 glmMax(__m128 x, __m128 y) { return _mm_max_ps(y, x); }

// Reads by index, by gathers or by a load per lane (IndexedLoads, cpu/simd/isa.h): base[index] per
// lane, of 32-bit elements.
template <IndexedLoads L>
inline __m128i loadLanes4(const std::int32_t* base, __m128i index) {
    if constexpr (L == IndexedLoads::Gather) return _mm_i32gather_epi32(base, index, 4);
    alignas(16) std::int32_t at[4];
    _mm_store_si128(reinterpret_cast<__m128i*>(at), index);
    return _mm_setr_epi32(base[at[0]], base[at[1]], base[at[2]], base[at[3]]);
}

template <IndexedLoads L, class T>
inline auto loadLanes8(const T* base, __m256i index) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, std::int32_t>, "32-bit lanes");
    if constexpr (L == IndexedLoads::Gather) {
        if constexpr (std::is_same_v<T, float>)
            return _mm256_i32gather_ps(base, index, 4);
        else
            return _mm256_i32gather_epi32(base, index, 4);
    } else {
        alignas(32) std::int32_t at[8];
        _mm256_store_si256(reinterpret_cast<__m256i*>(at), index);
        const auto v = [&](int k) { return base[at[k]]; };
        if constexpr (std::is_same_v<T, float>)
            return _mm256_setr_ps(v(0), v(1), v(2), v(3), v(4), v(5), v(6), v(7));
        else
            return _mm256_setr_epi32(v(0), v(1), v(2), v(3), v(4), v(5), v(6), v(7));
    }
}

// The 64-bit elements at base + index (counted in 32-bit elements), for four lanes.
template <IndexedLoads L>
inline __m256i loadPairs4(const std::uint32_t* base, __m128i index) {
    if constexpr (L == IndexedLoads::Gather)
        return _mm256_i32gather_epi64(reinterpret_cast<const long long*>(base), index, 4);
    alignas(16) std::int32_t at[4];
    _mm_store_si128(reinterpret_cast<__m128i*>(at), index);
    // _mm_loadl_epi64 reads through __m128i, which may alias the texels' uint32_t.
    const auto load = [&](int k) { return _mm_loadl_epi64(reinterpret_cast<const __m128i*>(base + at[k])); };
    return _mm256_set_m128i(_mm_unpacklo_epi64(load(2), load(3)), _mm_unpacklo_epi64(load(0), load(1)));
}

// lodLog2 on eight lanes: the same steps, in integer and float lanes.
inline __m256 lodLog2x8(__m256 x) {
    const __m256i bits = _mm256_castps_si256(x);
    const __m256i mantissaBits =
        _mm256_or_si256(_mm256_and_si256(bits, _mm256_set1_epi32(0x7FFFFF)), _mm256_set1_epi32(0x3F800000));
    const __m256i high = _mm256_srli_epi32(_mm256_cmpgt_epi32(mantissaBits, _mm256_set1_epi32(0x3FB504F3)), 31);
    const __m256i e = _mm256_add_epi32(_mm256_sub_epi32(_mm256_srli_epi32(bits, 23), _mm256_set1_epi32(127)), high);
    const __m256 m = _mm256_castsi256_ps(_mm256_sub_epi32(mantissaBits, _mm256_slli_epi32(high, 23)));
    const __m256 one = _mm256_set1_ps(1.0f);
    const __m256 t = _mm256_div_ps(_mm256_sub_ps(m, one), _mm256_add_ps(m, one)), t2 = _mm256_mul_ps(t, t);
    __m256 series = _mm256_add_ps(_mm256_set1_ps(0.577078016f), _mm256_mul_ps(t2, _mm256_set1_ps(0.412198583f)));
    series = _mm256_add_ps(_mm256_set1_ps(0.961796694f), _mm256_mul_ps(t2, series));
    series = _mm256_mul_ps(t, _mm256_add_ps(_mm256_set1_ps(2.88539008f), _mm256_mul_ps(t2, series)));
    const __m256 log2 = _mm256_add_ps(_mm256_cvtepi32_ps(e), series);
    // lodLog2 gives infinity and NaN back as they are.
    const __m256 finite = _mm256_cmp_ps(x, _mm256_set1_ps(HUGE_VALF), _CMP_LT_OQ);
    return _mm256_blendv_ps(x, log2, finite);
}

// lodFromSquaredLengths on eight lanes.
inline __m256 lodFromSquaredLengths8(__m256 dx2, __m256 dy2) {
    const __m256 x = _mm256_max_ps(_mm256_set1_ps(1e-20f), _mm256_max_ps(dy2, dx2)); // glm::max order
    return _mm256_mul_ps(_mm256_set1_ps(0.5f), lodLog2x8(x));
}

// A colour per lane, channel by channel.
struct Rgba4 {
    __m128 r, g, b, a;
};
struct Rgba8 {
    __m256 r, g, b, a;
};

// unpackRgba8 on four texels.
inline Rgba4 unpack4(__m128i c) {
    const __m128i byte = _mm_set1_epi32(0xFF);
    return {_mm_cvtepi32_ps(_mm_and_si128(c, byte)), _mm_cvtepi32_ps(_mm_and_si128(_mm_srli_epi32(c, 8), byte)),
            _mm_cvtepi32_ps(_mm_and_si128(_mm_srli_epi32(c, 16), byte)), _mm_cvtepi32_ps(_mm_srli_epi32(c, 24))};
}

// packRgba8 on four colours: clamp to [0, 255], + 0.5, truncate. A NaN channel gives 0, as
// there: the NaN is kept by the clamp and truncates to INT_MIN, whose low byte the mask keeps.
inline __m128i pack4(const Rgba4& c) {
    const __m128 zero = _mm_setzero_ps(), top = _mm_set1_ps(255.0f), half = _mm_set1_ps(0.5f);
    const __m128i byte = _mm_set1_epi32(0xFF);
    const auto channel = [&](__m128 v) {
        return _mm_and_si128(_mm_cvttps_epi32(_mm_add_ps(glmMin(glmMax(v, zero), top), half)), byte);
    };
    return _mm_or_si128(_mm_or_si128(channel(c.r), _mm_slli_epi32(channel(c.g), 8)),
                        _mm_or_si128(_mm_slli_epi32(channel(c.b), 16), _mm_slli_epi32(channel(c.a), 24)));
}

// Mip levels' sizes and places, per lane.
// (The lane types under names of their own: within LevelTable, `lanes` is its member.)
using Level8 = lanes::LevelLanes<lanes::I32x8>;
using F32Lanes8 = lanes::F32x8;
using I32Lanes8 = lanes::I32x8;

// A texture's levels looked up per lane by level index: from registers holding the sizes
// and places of up to 16 levels (one permute per eight levels), else gathered from the levels;
// with the texture's wraps.
class LevelTable {
public:
    LevelTable() = default; // no levels: a stream's before its first texture
    explicit LevelTable(const TextureView& t) : t_(t) {
        if (t.levelCount > 16) return;
        alignas(32) int values[3][16] = {};
        for (int l = 0; l < t.levelCount; ++l) {
            values[0][l] = int(t.levels[l].width);
            values[1][l] = int(t.levels[l].height);
            values[2][l] = int(t.levels[l].offset);
        }
        for (int i = 0; i < 3; ++i)
            for (int half = 0; half < 2; ++half)
                table_[i][half] = _mm256_load_si256(reinterpret_cast<const __m256i*>(values[i] + 8 * half));
    }

    // Every lane's level is in [0, levelCount).
    Level8 lanes(__m256i level) const {
        if (t_.levelCount <= 8) {
            const auto pick = [&](const __m256i* table) {
                return I32Lanes8(_mm256_permutevar8x32_epi32(table[0], level));
            };
            return {pick(table_[0]), pick(table_[1]), pick(table_[2]), t_.wrapS, t_.wrapT};
        }
        if (t_.levelCount <= 16) {
            const __m256i upper = _mm256_cmpgt_epi32(level, _mm256_set1_epi32(7));
            const auto pick = [&](const __m256i* table) {
                return I32Lanes8(_mm256_blendv_epi8(_mm256_permutevar8x32_epi32(table[0], level),
                                                    _mm256_permutevar8x32_epi32(table[1], level), upper));
            };
            return {pick(table_[0]), pick(table_[1]), pick(table_[2]), t_.wrapS, t_.wrapT};
        }
        static_assert(sizeof(MipLevel) == 3 * sizeof(int), "MipLevel is three 32-bit fields");
        const int* fields = reinterpret_cast<const int*>(t_.levels);
        const __m256i at = _mm256_mullo_epi32(level, _mm256_set1_epi32(3));
        const auto gather = [&](int field) { return I32Lanes8(_mm256_i32gather_epi32(fields + field, at, 4)); };
        return {gather(0), gather(1), gather(2), t_.wrapS, t_.wrapT};
    }

private:
    TextureView t_{};
    __m256i table_[3][2] = {}; // width, height, offset of levels 0-7 and 8-15
};

// sampleBilinear on eight (uv, level) lanes, in two steps: planBilinear8 finds the four texels
// of each lane and their weights (lanes::planBilinear), fetchBilinear8 reads and blends them.
// (Splitting them lets a caller plan many quads before it waits for any texel: see
// cpu/shading/pixel_stream.cpp.)
using Bilinear8Plan = lanes::BilinearPlan<F32Lanes8, I32Lanes8>;

template <bool kRepeats = false>
[[gnu::always_inline]] inline Bilinear8Plan planBilinear8(const Level8& l, __m256 u, __m256 v) {
    return lanes::planBilinear<kRepeats>(l, F32Lanes8(u), F32Lanes8(v));
}

// SrgbTexel on eight lanes (the lit model's colour texture): colour in linear light, alpha in
// [0, 1].
template <IndexedLoads L>
struct SrgbTexel8 {
    const SrgbTable* table;
    Rgba8 operator()(__m256i c) const {
        const __m256i byte = _mm256_set1_epi32(0xFF);
        const float* linear = table->linear;
        return {loadLanes8<L>(linear, _mm256_and_si256(c, byte)),
                loadLanes8<L>(linear, _mm256_and_si256(_mm256_srli_epi32(c, 8), byte)),
                loadLanes8<L>(linear, _mm256_and_si256(_mm256_srli_epi32(c, 16), byte)),
                _mm256_div_ps(_mm256_cvtepi32_ps(_mm256_srli_epi32(c, 24)), _mm256_set1_ps(255.0f))};
    }
};

// Texels c and c + 1 of each lane, in one 64-bit read per lane: half the elements that
// gathering each alone reads. (c + 1 is in c's row: the caller knows no column wraps.)
template <IndexedLoads L>
inline void fetchTexelPairs8(const std::uint32_t* texels, __m256i c, __m256i& left, __m256i& right) {
    const __m256 lo = _mm256_castsi256_ps(loadPairs4<L>(texels, _mm256_castsi256_si128(c)));
    const __m256 hi = _mm256_castsi256_ps(loadPairs4<L>(texels, _mm256_extracti128_si256(c, 1)));
    // lo holds lanes 0-3 as (left, right) pairs and hi lanes 4-7; the shuffles take lanes
    // 0 1 4 5 | 2 3 6 7 of each side, and the permutes put them in order.
    const __m256 l = _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0)), r = _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1));
    left = _mm256_permute4x64_epi64(_mm256_castps_si256(l), _MM_SHUFFLE(3, 1, 2, 0));
    right = _mm256_permute4x64_epi64(_mm256_castps_si256(r), _MM_SHUFFLE(3, 1, 2, 0));
}

// bilinearTexels' texels on eight lanes.
struct Texels8 {
    __m256i c00, c10, c01, c11;
};

template <IndexedLoads L> inline Texels8 fetchTexels8(const TextureView& t, const Bilinear8Plan& p) {
    Texels8 q;
    if (p.adjacent) {
        fetchTexelPairs8<L>(t.texels, p.c00.v, q.c00, q.c10);
        fetchTexelPairs8<L>(t.texels, p.c01.v, q.c01, q.c11);
    } else {
        const auto* texels = reinterpret_cast<const std::int32_t*>(t.texels);
        q.c00 = loadLanes8<L>(texels, p.c00.v);
        q.c10 = loadLanes8<L>(texels, p.c10.v);
        q.c01 = loadLanes8<L>(texels, p.c01.v);
        q.c11 = loadLanes8<L>(texels, p.c11.v);
    }
    return q;
}

// sampleBilinear (the lit model's, in float).
template <IndexedLoads L, class Texel>
inline Rgba8 fetchBilinear8(const TextureView& t, const Bilinear8Plan& p, Texel texel) {
    const Texels8 q = fetchTexels8<L>(t, p);
    const Rgba8 c00 = texel(q.c00), c10 = texel(q.c10), c01 = texel(q.c01), c11 = texel(q.c11);

    // (1 - a)(1 - b) c00 + a (1 - b) c10 + (1 - a) b c01 + a b c11, summed left to right.
    const __m256 one = _mm256_set1_ps(1.0f);
    const __m256 a = p.a.v, b = p.b.v;
    const __m256 na = _mm256_sub_ps(one, a), nb = _mm256_sub_ps(one, b);
    const __m256 w00 = _mm256_mul_ps(na, nb), w10 = _mm256_mul_ps(a, nb), w01 = _mm256_mul_ps(na, b),
                 w11 = _mm256_mul_ps(a, b);
    const auto blend = [&](__m256 p00, __m256 p10, __m256 p01, __m256 p11) {
        __m256 sum = _mm256_add_ps(_mm256_mul_ps(w00, p00), _mm256_mul_ps(w10, p10));
        sum = _mm256_add_ps(sum, _mm256_mul_ps(w01, p01));
        return _mm256_add_ps(sum, _mm256_mul_ps(w11, p11));
    };
    return {blend(c00.r, c10.r, c01.r, c11.r), blend(c00.g, c10.g, c01.g, c11.g), blend(c00.b, c10.b, c01.b, c11.b),
            blend(c00.a, c10.a, c01.a, c11.a)};
}

// The classic model's 8-bit fixed-point filter on eight lanes, its channels split
// (lanes::Split).
using Split8 = lanes::Split<I32Lanes8>;

// filterBilinear8 on eight lanes, split.
template <IndexedLoads L> inline Split8 filterBilinearSplit8(const TextureView& t, const Bilinear8Plan& p) {
    const Texels8 q = fetchTexels8<L>(t, p);
    return lanes::filterBilinearSplit(p, I32Lanes8(q.c00), I32Lanes8(q.c10), I32Lanes8(q.c01), I32Lanes8(q.c11));
}

// filterBilinear8 on eight lanes, packed.
template <IndexedLoads L> inline __m256i filterBilinear8x8(const TextureView& t, const Bilinear8Plan& p) {
    return lanes::joinChannels(filterBilinearSplit8<L>(t, p)).v;
}

// sampleNearest on level 0 for four lanes: the texel indices, then the fetch. A texture that
// does not repeat on both axes (a glTF sampler's choice) takes nearestIndex lane by lane.
inline __m128i nearestIndex4(const TextureView& t, __m128 u, __m128 v) {
    if (!repeats(t)) {
        alignas(16) float us[4], vs[4];
        alignas(16) std::uint32_t at[4];
        _mm_store_ps(us, u);
        _mm_store_ps(vs, v);
        for (int k = 0; k < 4; ++k) at[k] = nearestIndex(t, 0, glm::vec2(us[k], vs[k]));
        return _mm_load_si128(reinterpret_cast<const __m128i*>(at));
    }
    const MipLevel& l = t.levels[0];
    const __m128 x = _mm_floor_ps(_mm_mul_ps(_mm_sub_ps(u, _mm_floor_ps(u)), _mm_set1_ps(static_cast<float>(l.width))));
    const __m128 y =
        _mm_floor_ps(_mm_mul_ps(_mm_sub_ps(v, _mm_floor_ps(v)), _mm_set1_ps(static_cast<float>(l.height))));
    const __m128i xi = _mm_cvttps_epi32(x), yi = _mm_cvttps_epi32(y);
    const __m128i w = _mm_set1_epi32(int(l.width)), h = _mm_set1_epi32(int(l.height));
    __m128i col, row;
    // A finite coordinate gives x in [0, size] (size when u - floor(u) rounds up to 1).
    const __m128i minusOne = _mm_set1_epi32(-1);
    if (_mm_movemask_epi8(_mm_and_si128(_mm_cmpgt_epi32(xi, minusOne), _mm_cmpgt_epi32(yi, minusOne))) == 0xFFFF) {
        col = _mm_sub_epi32(xi, _mm_andnot_si128(_mm_cmpgt_epi32(w, xi), w));
        row = _mm_sub_epi32(yi, _mm_andnot_si128(_mm_cmpgt_epi32(h, yi), h));
    } else {
        alignas(16) int xs[4], ys[4];
        _mm_store_si128(reinterpret_cast<__m128i*>(xs), xi);
        _mm_store_si128(reinterpret_cast<__m128i*>(ys), yi);
        // A NaN coordinate (from a NaN or infinite uv) truncated to INT_MIN: truncateToInt's 0.
        for (int k = 0; k < 4; ++k) {
            xs[k] = wrapRepeat(xs[k] == INT_MIN ? 0 : xs[k], int(l.width));
            ys[k] = wrapRepeat(ys[k] == INT_MIN ? 0 : ys[k], int(l.height));
        }
        col = _mm_load_si128(reinterpret_cast<const __m128i*>(xs));
        row = _mm_load_si128(reinterpret_cast<const __m128i*>(ys));
    }
    return _mm_add_epi32(_mm_set1_epi32(int(l.offset)), _mm_add_epi32(_mm_mullo_epi32(row, w), col));
}

// The mip levels sampleTexture samples at a level of detail: level 0 alone for bilinear
// filtering or a lod that does not minify; otherwise levels lo and hi blended with weight f on
// hi. One level is given as lo = hi with f = 0, which blends to exactly the lo sample: in fixed
// point always, and in float as the samples are finite and not negative (or NaN, on both levels
// alike), so (1 - 0) lo + 0 lo is lo.
struct LevelChoice {
    int lo, hi;
    float f;
};

inline LevelChoice chooseLevels(const TextureView& t, TextureFilter filter, float lod) {
    if (filter == TextureFilter::Bilinear || !minifies(t, lod)) return {0, 0, 0.0f};
    const MipBlend m = mipBlend(t, lod);
    return m.f > 0.0f ? LevelChoice{m.lo, m.hi, m.f} : LevelChoice{m.lo, m.lo, 0.0f};
}

// chooseLevels for eight pixels, each with its own lod: lane by lane the same lo, hi and f (the
// minimum, floor and difference of mipBlend are exact on both sides); `blends`: the lanes whose
// f is above 0, which sample two levels.
struct LevelChoice8 {
    __m256i lo, hi;
    __m256 f;
    unsigned blends;
};

inline LevelChoice8 chooseLevels8(const TextureView& t, TextureFilter filter, __m256 lod) {
    const __m256i zero = _mm256_setzero_si256();
    if (filter == TextureFilter::Bilinear || t.levelCount <= 1) return {zero, zero, _mm256_setzero_ps(), 0u};
    // minifies(): lod > 0, false for NaN. glm::min(lod, maxLevel) and _mm256_min_ps differ only
    // where the two are equal.
    const __m256i minifies = _mm256_castps_si256(_mm256_cmp_ps(lod, _mm256_setzero_ps(), _CMP_GT_OQ));
    const __m256 d = _mm256_min_ps(lod, _mm256_set1_ps(static_cast<float>(t.levelCount - 1)));
    const __m256 lower = _mm256_floor_ps(d);
    const __m256i lo = _mm256_and_si256(_mm256_cvttps_epi32(lower), minifies);
    const __m256i next =
        _mm256_min_epi32(_mm256_add_epi32(lo, _mm256_set1_epi32(1)), _mm256_set1_epi32(t.levelCount - 1));
    const __m256 f = _mm256_and_ps(_mm256_sub_ps(d, lower), _mm256_castsi256_ps(minifies));
    const __m256 blends = _mm256_cmp_ps(f, _mm256_setzero_ps(), _CMP_GT_OQ);
    return {lo, _mm256_blendv_epi8(lo, next, _mm256_castps_si256(blends)), f, unsigned(_mm256_movemask_ps(blends))};
}

// sampleTexture (bilinear or trilinear) for four pixels, each with its own uv and levels, in
// two steps: planSamples4 finds the texels and weights (lanes 0-3 on the pixels' lo levels,
// 4-7 on their hi levels), fetchSamples4 reads, blends and mixes them.
struct SamplePlan4 {
    Bilinear8Plan bilinear;
    __m128 f; // the weight of the hi level, per pixel
};

template <bool kRepeats = false>
inline SamplePlan4 planSamples4(const LevelTable& levels, __m128 u, __m128 v, __m128i lo, __m128i hi, __m128 f) {
    return {planBilinear8<kRepeats>(levels.lanes(_mm256_set_m128i(hi, lo)), _mm256_set_m128(u, u),
                                    _mm256_set_m128(v, v)),
            f};
}

template <IndexedLoads L, class Texel>
inline Rgba4 fetchSamples4(const TextureView& t, const SamplePlan4& p, Texel texel) {
    const Rgba8 both = fetchBilinear8<L>(t, p.bilinear, texel);
    // (1 - f) * lo + f * hi
    const __m128 nf = _mm_sub_ps(_mm_set1_ps(1.0f), p.f);
    const auto mix = [&](__m256 c) {
        return _mm_add_ps(_mm_mul_ps(nf, _mm256_castps256_ps128(c)), _mm_mul_ps(p.f, _mm256_extractf128_ps(c, 1)));
    };
    return {mix(both.r), mix(both.g), mix(both.b), mix(both.a)};
}

// fetchSamples4 in sampleTexture8's fixed point (the classic model's colour), packed: each
// pixel's lo-level sample (lanes 0-3) blended with its hi-level one (lanes 4-7, swapped into
// 0-3), in the low half.
template <IndexedLoads L> inline __m128i filterSamples4(const TextureView& t, const SamplePlan4& p) {
    const Split8 both = filterBilinearSplit8<L>(t, p.bilinear);
    const auto upper = [](I32Lanes8 c) { return I32Lanes8(_mm256_permute2x128_si256(c.v, c.v, 0x01)); };
    const Split8 mixed = lanes::lerpSplit(both, {upper(both.rb), upper(both.ga)},
                                          lanes::filterWeights(F32Lanes8(_mm256_set_m128(p.f, p.f))));
    return _mm256_castsi256_si128(lanes::joinChannels(mixed).v);
}

// sampleNearest's texels, fetched: packed, and unpacked.
template <IndexedLoads L> inline __m128i fetchNearestTexels4(const TextureView& t, __m128i index) {
    return loadLanes4<L>(reinterpret_cast<const std::int32_t*>(t.texels), index);
}

template <IndexedLoads L>
inline Rgba4 fetchNearest4(const TextureView& t, __m128i index) {
    return unpack4(fetchNearestTexels4<L>(t, index));
}

// sampleTexture8 for four pixels sharing one level of detail, every filter.
template <IndexedLoads L>
inline __m128i sampleTexture4(const TextureView& t, TextureFilter filter, __m128 u, __m128 v, float lod) {
    if (filter == TextureFilter::Nearest) return fetchNearestTexels4<L>(t, nearestIndex4(t, u, v));
    const LevelChoice c = chooseLevels(t, filter, lod);
    return filterSamples4<L>(
        t, planSamples4(LevelTable(t), u, v, _mm_set1_epi32(c.lo), _mm_set1_epi32(c.hi), _mm_set1_ps(c.f)));
}

// shadeFragment's headlight factor k for four pixels with normals (nx, ny, nz), and its use.
inline __m128 headlightFactor4(__m128 nx, __m128 ny, __m128 nz, glm::vec3 viewForward) {
    // length: sqrt((x x + y y) + z z); dot likewise left to right.
    const __m128 len = _mm_sqrt_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(nx, nx), _mm_mul_ps(ny, ny)), _mm_mul_ps(nz, nz)));
    const __m128 dot = _mm_add_ps(_mm_add_ps(_mm_mul_ps(nx, _mm_set1_ps(viewForward.x)),
                                             _mm_mul_ps(ny, _mm_set1_ps(viewForward.y))),
                                  _mm_mul_ps(nz, _mm_set1_ps(viewForward.z)));
    // |dot| / len where len > 0, else 1. (Clearing the sign bit differs from glm::abs only on
    // -0 and NaN, neither of which changes the packed result.)
    const __m128 absDot = _mm_andnot_ps(_mm_set1_ps(-0.0f), dot);
    const __m128 lambert = _mm_blendv_ps(_mm_set1_ps(1.0f), _mm_div_ps(absDot, len),
                                         _mm_cmp_ps(len, _mm_setzero_ps(), _CMP_GT_OQ));
    return _mm_add_ps(_mm_set1_ps(kAmbient), _mm_mul_ps(_mm_set1_ps(1.0f - kAmbient), lambert));
}

inline Rgba4 applyHeadlight4(const Rgba4& c, __m128 k) {
    return {_mm_mul_ps(c.r, k), _mm_mul_ps(c.g, k), _mm_mul_ps(c.b, k), c.a};
}

} // namespace facet::simd
