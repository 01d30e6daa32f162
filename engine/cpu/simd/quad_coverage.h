// The CPU's lanes for the coverage walk of core/coverage_walk.h, in AVX2 registers: thin types
// with the operators the walk and the shared formulas (BarycentricPlane, interpolate,
// depthPasses) are written with, and the two lane sets the CPU walks with.
//   - SmallBlock: blocks of 4x2 pixels in eight 32-bit lanes, for triangles whose edge values
//     fit 32 bits (kSmallTriangleExtent); branch-free, since a small triangle's blocks are few
//     and their outcomes hard to predict.
//   - BigQuad: 2x2 quads in four 64-bit lanes (the floats in four), for any triangle; it skips
//     the depth work of quads with nothing covered. A large triangle's walk (walkBlocks) takes
//     it only for the blocks its edges cross, and PixelRow8's rows for the blocks inside it.
// SmallBlock's multisampled walk on CPUs with AVX-512 takes cpu/visibility/sample_pair_walk.cpp's lanes.
#pragma once

#include "core/coverage_walk.h"

#include <immintrin.h>

#include <cstdint>

namespace facet::lanes {

// Four or eight floats.
struct F32x4 {
    __m128 v;
    F32x4() = default;
    F32x4(float x) : v(_mm_set1_ps(x)) {}
    explicit F32x4(__m128 x) : v(x) {}
};
struct F32x8 {
    __m256 v;
    F32x8() = default;
    F32x8(float x) : v(_mm256_set1_ps(x)) {}
    explicit F32x8(__m256 x) : v(x) {}
};
// Eight 32-bit or four 64-bit integers.
struct I32x8 {
    static constexpr int kLanes = 8;
    __m256i v;
    I32x8() = default;
    I32x8(std::int32_t x) : v(_mm256_set1_epi32(x)) {}
    explicit I32x8(__m256i x) : v(x) {}
};
struct I64x4 {
    __m256i v;
    I64x4() = default;
    I64x4(std::int64_t x) : v(_mm256_set1_epi64x(x)) {}
    explicit I64x4(__m256i x) : v(x) {}
};
// Comparison results: all-ones or all-zero lanes.
struct Mask4 {
    __m128 v;
};
struct Mask8 {
    __m256 v;
};
struct Mask64x4 {
    __m256i v;
};

// The float operators for four lanes (_mm_ intrinsics) and eight (_mm256_).
#define FACET_FLOAT_LANE_OPERATORS(F, M, mm)                                                  \
    inline F operator+(F a, F b) { return F(mm##_add_ps(a.v, b.v)); }                        \
    inline F operator-(F a, F b) { return F(mm##_sub_ps(a.v, b.v)); }                        \
    inline F operator*(F a, F b) { return F(mm##_mul_ps(a.v, b.v)); }                        \
    inline M operator>=(F a, F b) { return {mm##_cmp_ps(a.v, b.v, _CMP_GE_OQ)}; }            \
    inline M operator<=(F a, F b) { return {mm##_cmp_ps(a.v, b.v, _CMP_LE_OQ)}; }            \
    inline M operator<(F a, F b) { return {mm##_cmp_ps(a.v, b.v, _CMP_LT_OQ)}; }             \
    inline M operator&(M a, M b) { return {mm##_and_ps(a.v, b.v)}; }
FACET_FLOAT_LANE_OPERATORS(F32x4, Mask4, _mm)
FACET_FLOAT_LANE_OPERATORS(F32x8, Mask8, _mm256)
#undef FACET_FLOAT_LANE_OPERATORS

inline I32x8 operator+(I32x8 a, I32x8 b) { return I32x8(_mm256_add_epi32(a.v, b.v)); }
inline I32x8 operator-(I32x8 a, I32x8 b) { return I32x8(_mm256_sub_epi32(a.v, b.v)); }
inline I32x8 operator*(I32x8 a, I32x8 b) { return I32x8(_mm256_mullo_epi32(a.v, b.v)); }
inline I32x8 operator>>(I32x8 a, int bits) { return I32x8(_mm256_srai_epi32(a.v, bits)); } // arithmetic
inline I32x8 operator&(I32x8 a, I32x8 b) { return I32x8(_mm256_and_si256(a.v, b.v)); }
inline I32x8 operator|(I32x8 a, I32x8 b) { return I32x8(_mm256_or_si256(a.v, b.v)); }
inline I32x8 laneMin(I32x8 a, I32x8 b) { return I32x8(_mm256_min_epi32(a.v, b.v)); }
inline I32x8 laneMax(I32x8 a, I32x8 b) { return I32x8(_mm256_max_epi32(a.v, b.v)); }
inline Mask8 operator>(I32x8 a, I32x8 b) { return {_mm256_castsi256_ps(_mm256_cmpgt_epi32(a.v, b.v))}; }

inline I64x4 operator+(I64x4 a, I64x4 b) { return I64x4(_mm256_add_epi64(a.v, b.v)); }
inline Mask64x4 operator>(I64x4 a, I64x4 b) { return {_mm256_cmpgt_epi64(a.v, b.v)}; }
inline Mask64x4 operator&(Mask64x4 a, Mask64x4 b) { return {_mm256_and_si256(a.v, b.v)}; }

// Pixels (x + lanes) as floats.
inline F32x4 pixels4(int x, __m128i lanes) { return F32x4(_mm_cvtepi32_ps(_mm_add_epi32(_mm_set1_epi32(x), lanes))); }
inline F32x8 pixels8(int x, __m256i lanes) {
    return F32x8(_mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_set1_epi32(x), lanes)));
}

// The lanes of a quad: lane k is pixel (qx + (k & 1), qy + (k >> 1)).
inline F32x4 quadColumns(int qx) { return pixels4(qx, _mm_setr_epi32(0, 1, 0, 1)); }
inline F32x4 quadRows(int qy) { return pixels4(qy, _mm_setr_epi32(0, 0, 1, 1)); }

// Lane k of a 4-bit quad mask as an all-ones or all-zeros 32-bit lane.
inline __m128i laneMask(unsigned bits) {
    return _mm_cmpgt_epi32(_mm_and_si128(_mm_set1_epi32(int(bits)), _mm_setr_epi32(1, 2, 4, 8)), _mm_setzero_si128());
}

// Lane k of an 8-bit mask as an all-ones or all-zeros 32-bit lane (bits above 8 ignored).
inline __m256i laneMask8(unsigned bits) {
    const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    return _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(int(bits)), bit), bit);
}

// 4x2 blocks: lane k is pixel (x + (k & 3), y + (k >> 2)). Every edge value the walk meets
// fits 32 bits (see kSmallTriangleExtent).
struct SmallBlock {
    static constexpr int kWidth = 4;
    static constexpr bool kSkipEmpty = false;
    static constexpr int kSamples = 1;
    using EdgeScalar = std::int32_t;
    using Edge = I32x8;
    using Float = F32x8;
    using Mask = Mask8;

    static __m256i laneX() { return _mm256_setr_epi32(0, 1, 2, 3, 0, 1, 2, 3); }
    static __m256i laneY() { return _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1); }

    static Edge spread(std::int32_t v, std::int32_t sx, std::int32_t sy) {
        return Edge(v) + (Edge(laneX()) * Edge(sx) + Edge(laneY()) * Edge(sy));
    }
    static Float columns(int x) { return pixels8(x, laneX()); }
    static Float rows(int y) { return pixels8(y, laneY()); }
    // minX <= x <= maxX as x > minX - 1 and maxX + 1 > x.
    static Mask columnsIn(int x, const QuadRange& q) { return within(x, laneX(), q.minX, q.maxX); }
    static Mask rowsIn(int y, const QuadRange& q) { return within(y, laneY(), q.minY, q.maxY); }
    static Mask mask(Mask8 m) { return m; }
    static Mask all() { return {_mm256_castsi256_ps(_mm256_set1_epi32(-1))}; }
    static bool none(Mask m) { return _mm256_movemask_ps(m.v) == 0; }
    static std::uint32_t count(Mask m) { return std::uint32_t(__builtin_popcount(unsigned(_mm256_movemask_ps(m.v)))); }
    // walkSamples' thresholds, -sampleOffset of each edge at each of the S samples (group s
    // is sample s), every sample's at once: sample s's in lane s, each then spread to all eight.
    // The set-up of a triangle of a few pixels is a good part of its walk, and this is most of
    // what S samples add to it.
    static constexpr bool kFindsThresholds = true;
    template <int S>
    static void sampleThresholds(const EdgeStepper<std::int32_t>& edges, Edge (&threshold)[S][3]) {
        static_assert(S <= 8, "one lane a sample");
        const auto offsets = [](bool y) {
            alignas(32) std::int32_t o[8] = {};
            for (int s = 0; s < S; ++s) o[s] = y ? samplePoint(S, s).fy : samplePoint(S, s).fx;
            return _mm256_load_si256(reinterpret_cast<const __m256i*>(o));
        };
        const __m256i fx = offsets(false), fy = offsets(true);
        for (int i = 0; i < 3; ++i) {
            const __m256i offset = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_set1_epi32(edges.stepX[i] / kSubpixelOne), fx),
                                                    _mm256_mullo_epi32(_mm256_set1_epi32(edges.stepY[i] / kSubpixelOne), fy));
            const __m256i negated = _mm256_sub_epi32(_mm256_setzero_si256(), offset);
            for (int s = 0; s < S; ++s) threshold[s][i] = Edge(_mm256_permutevar8x32_epi32(negated, _mm256_set1_epi32(s)));
        }
    }
    // A walk's count (WalkTally) per lane: a passing lane's mask is -1, so subtracting it adds 1.
    struct Tally {
        __m256i n = _mm256_setzero_si256();
        void add(Mask passed) { n = _mm256_sub_epi32(n, _mm256_castps_si256(passed.v)); }
        std::uint32_t total() const {
            const __m128i four = _mm_add_epi32(_mm256_castsi256_si128(n), _mm256_extracti128_si256(n, 1));
            const __m128i two = _mm_add_epi32(four, _mm_unpackhi_epi64(four, four));
            return std::uint32_t(_mm_cvtsi128_si32(_mm_add_epi32(two, _mm_shuffle_epi32(two, 1))));
        }
    };

    // The stored depths or ids of the block whose first pixel is at row0, rows of 4 elements
    // at row0 and row1; and written back.
    static Float load(const float* row0, const float* row1) {
        return Float(_mm256_set_m128(_mm_loadu_ps(row1), _mm_loadu_ps(row0)));
    }
    static __m256i load(const std::uint32_t* row0, const std::uint32_t* row1) {
        return _mm256_set_m128i(_mm_loadu_si128(reinterpret_cast<const __m128i*>(row1)),
                                _mm_loadu_si128(reinterpret_cast<const __m128i*>(row0)));
    }
    static void store(float* row0, float* row1, Float f) {
        _mm_storeu_ps(row0, _mm256_castps256_ps128(f.v));
        _mm_storeu_ps(row1, _mm256_extractf128_ps(f.v, 1));
    }
    static void store(std::uint32_t* row0, std::uint32_t* row1, __m256i i) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(row0), _mm256_castsi256_si128(i));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(row1), _mm256_extracti128_si256(i, 1));
    }
    // Where `keep`, a; else b.
    static Float select(Mask keep, Float a, Float b) { return Float(_mm256_blendv_ps(b.v, a.v, keep.v)); }
    static __m256i select(Mask keep, std::uint32_t a, __m256i b) {
        return _mm256_blendv_epi8(b, _mm256_set1_epi32(int(a)), _mm256_castps_si256(keep.v));
    }

private:
    static Mask within(int at, __m256i lanes, int lo, int hi) {
        const __m256i p = _mm256_add_epi32(_mm256_set1_epi32(at), lanes);
        return {_mm256_castsi256_ps(
            _mm256_and_si256(_mm256_cmpgt_epi32(p, _mm256_set1_epi32(lo - 1)), _mm256_cmpgt_epi32(_mm256_set1_epi32(hi + 1), p)))};
    }
};

// Rows of eight pixels: lane k is pixel (x + k, y). Only for the depth tests of a block inside
// a triangle (walkBlocks), which need no edge values; its target's row(y) is pixel row y, and a
// row's elements are read and written whole.
struct PixelRow8 {
    static constexpr int kWidth = 8, kHeight = 1;
    static constexpr bool kSkipEmpty = false;
    using Float = F32x8;
    using Mask = Mask8;

    static Float columns(int x) { return pixels8(x, _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)); }
    static Float rows(int y) { return Float(static_cast<float>(y)); }
    static Mask mask(Mask8 m) { return m; }
    static Mask all() { return SmallBlock::all(); }
    static std::uint32_t count(Mask m) { return SmallBlock::count(m); }
    using Tally = SmallBlock::Tally;

    // The row's eight elements from row0 (the target's second row pointer is not used).
    static Float load(const float* row0, const float*) { return Float(_mm256_loadu_ps(row0)); }
    static __m256i load(const std::uint32_t* row0, const std::uint32_t*) {
        return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row0));
    }
    static void store(float* row0, float*, Float f) { _mm256_storeu_ps(row0, f.v); }
    static void store(std::uint32_t* row0, std::uint32_t*, __m256i i) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(row0), i);
    }
    static Float select(Mask keep, Float a, Float b) { return SmallBlock::select(keep, a, b); }
    static __m256i select(Mask keep, std::uint32_t a, __m256i b) { return SmallBlock::select(keep, a, b); }
};

// 2x2 quads with 64-bit edge values, one per lane, and 4-bit masks.
struct BigQuad : QuadMasks {
    using EdgeScalar = std::int64_t;
    using Edge = I64x4;
    using Float = F32x4;

    static Edge spread(std::int64_t v, std::int64_t sx, std::int64_t sy) {
        return Edge(v) + Edge(_mm256_setr_epi64x(0, sx, sy, sx + sy));
    }
    static Float columns(int qx) { return quadColumns(qx); }
    static Float rows(int qy) { return quadRows(qy); }
    static unsigned mask(Mask64x4 m) { return unsigned(_mm256_movemask_pd(_mm256_castsi256_pd(m.v))); }
    static unsigned mask(Mask4 m) { return unsigned(_mm_movemask_ps(m.v)); }

    // A quad's two rows of 2 elements.
    static Float load(const float* row0, const float* row1) {
        return Float(_mm_castsi128_ps(_mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(row0)),
                                                         _mm_loadl_epi64(reinterpret_cast<const __m128i*>(row1)))));
    }
    static __m128i load(const std::uint32_t* row0, const std::uint32_t* row1) {
        return _mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(row0)),
                                  _mm_loadl_epi64(reinterpret_cast<const __m128i*>(row1)));
    }
    static void store(float* row0, float* row1, Float f) {
        _mm_storel_epi64(reinterpret_cast<__m128i*>(row0), _mm_castps_si128(f.v));
        _mm_storel_epi64(reinterpret_cast<__m128i*>(row1), _mm_castps_si128(_mm_movehl_ps(f.v, f.v)));
    }
    static void store(std::uint32_t* row0, std::uint32_t* row1, __m128i i) {
        _mm_storel_epi64(reinterpret_cast<__m128i*>(row0), i);
        _mm_storel_epi64(reinterpret_cast<__m128i*>(row1), _mm_unpackhi_epi64(i, i));
    }
    static Float select(unsigned keep, Float a, Float b) {
        return Float(_mm_blendv_ps(b.v, a.v, _mm_castsi128_ps(laneMask(keep))));
    }
    static __m128i select(unsigned keep, std::uint32_t a, __m128i b) {
        return _mm_blendv_epi8(b, _mm_set1_epi32(int(a)), laneMask(keep));
    }
};

} // namespace facet::lanes
