// Sixteen floats or 32-bit integers, and a comparison's result as a mask register: the lanes
// of the files compiled for AVX-512 (cpu/visibility/sample_pair_walk.cpp, cpu/simd/wide_filter.cpp), with the
// operators the shared formulas are written with (BarycentricPlane, interpolate and depthPasses
// for the walk; cpu/simd/bilinear_lanes.h's plan and filter for the texture filters).
//
// Only for those files: the types and operators are in an unnamed namespace, so each file has
// its own copy and none is ever a symbol another object could share (see
// cpu/visibility/sample_pair_walk.cpp).
#pragma once

#if !defined(__AVX512F__) || !defined(__AVX512VL__)
#error "cpu/simd/lanes16.h is for the files compiled with AVX-512 (engine/CMakeLists.txt)"
#endif

#include <immintrin.h>

#include <cstdint>

namespace facet {
namespace {

struct F32x16 {
    __m512 v;
    F32x16() = default;
    F32x16(float x) : v(_mm512_set1_ps(x)) {}
    explicit F32x16(__m512 x) : v(x) {}
};
struct I32x16 {
    static constexpr int kLanes = 16;
    __m512i v;
    I32x16() = default;
    I32x16(std::int32_t x) : v(_mm512_set1_epi32(x)) {}
    explicit I32x16(__m512i x) : v(x) {}
};
struct Mask16 {
    __mmask16 v;
};

inline F32x16 operator+(F32x16 a, F32x16 b) { return F32x16(_mm512_add_ps(a.v, b.v)); }
inline F32x16 operator-(F32x16 a, F32x16 b) { return F32x16(_mm512_sub_ps(a.v, b.v)); }
inline F32x16 operator*(F32x16 a, F32x16 b) { return F32x16(_mm512_mul_ps(a.v, b.v)); }
inline Mask16 operator>=(F32x16 a, F32x16 b) { return {_mm512_cmp_ps_mask(a.v, b.v, _CMP_GE_OQ)}; }
inline Mask16 operator<=(F32x16 a, F32x16 b) { return {_mm512_cmp_ps_mask(a.v, b.v, _CMP_LE_OQ)}; }
inline Mask16 operator<(F32x16 a, F32x16 b) { return {_mm512_cmp_ps_mask(a.v, b.v, _CMP_LT_OQ)}; }
inline Mask16 operator&(Mask16 a, Mask16 b) { return {__mmask16(a.v & b.v)}; }
inline I32x16 operator+(I32x16 a, I32x16 b) { return I32x16(_mm512_add_epi32(a.v, b.v)); }
inline I32x16 operator*(I32x16 a, I32x16 b) { return I32x16(_mm512_mullo_epi32(a.v, b.v)); }
inline Mask16 operator>(I32x16 a, I32x16 b) { return {_mm512_cmpgt_epi32_mask(a.v, b.v)}; }

#if defined(__AVX512BW__)
// The rest of cpu/simd/bilinear_lanes.h's operations (its 16-bit ones need AVX-512BW).
inline F32x16 floor(F32x16 x) { return F32x16(_mm512_roundscale_ps(x.v, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)); }
// maxps and minps return their second operand where either is NaN: x's NaN is kept.
inline F32x16 clampUnit(F32x16 x) {
    return F32x16(_mm512_min_ps(_mm512_set1_ps(1.0f), _mm512_max_ps(_mm512_setzero_ps(), x.v)));
}
inline I32x16 operator-(I32x16 a, I32x16 b) { return I32x16(_mm512_sub_epi32(a.v, b.v)); }
inline I32x16 laneMin(I32x16 a, I32x16 b) { return I32x16(_mm512_min_epi32(a.v, b.v)); }
inline I32x16 truncate(F32x16 x) { return I32x16(_mm512_cvttps_epi32(x.v)); } // see lanes::truncate (simd_quad.h)
inline F32x16 toFloat(I32x16 x) { return F32x16(_mm512_cvtepi32_ps(x.v)); }
inline I32x16 operator&(I32x16 a, I32x16 b) { return I32x16(_mm512_and_si512(a.v, b.v)); }
inline I32x16 operator|(I32x16 a, I32x16 b) { return I32x16(_mm512_or_si512(a.v, b.v)); }
inline I32x16 laneMax(I32x16 a, I32x16 b) { return I32x16(_mm512_max_epi32(a.v, b.v)); }
inline I32x16 lowWordsUp(I32x16 a) { return I32x16(_mm512_slli_epi32(a.v, 16)); }
inline I32x16 addWords(I32x16 a, I32x16 b) { return I32x16(_mm512_add_epi16(a.v, b.v)); }
inline I32x16 subWords(I32x16 a, I32x16 b) { return I32x16(_mm512_sub_epi16(a.v, b.v)); }
inline I32x16 mulWords(I32x16 a, I32x16 b) { return I32x16(_mm512_mullo_epi16(a.v, b.v)); }
inline I32x16 highBytesDown(I32x16 a) { return I32x16(_mm512_srli_epi16(a.v, 8)); }
inline I32x16 lowBytesUp(I32x16 a) { return I32x16(_mm512_slli_epi16(a.v, 8)); }
inline bool all(Mask16 m) { return m.v == 0xFFFF; }
inline I32x16 addWhere(Mask16 m, I32x16 x, I32x16 w) { return I32x16(_mm512_mask_add_epi32(x.v, m.v, x.v, w.v)); }
inline I32x16 subUnless(Mask16 m, I32x16 x, I32x16 w) {
    return I32x16(_mm512_mask_sub_epi32(x.v, __mmask16(~m.v), x.v, w.v));
}
inline void store(std::int32_t* to, I32x16 x) { _mm512_storeu_si512(to, x.v); }
inline void load(I32x16& x, const std::int32_t* from) { x = I32x16(_mm512_loadu_si512(from)); }
#endif

} // namespace
} // namespace facet
