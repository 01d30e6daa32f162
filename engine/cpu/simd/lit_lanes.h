// The primitives core/lighting.h's lit model is written with (laneSelect, lanePow, ...) for
// the CPU's eight float lanes, so its templates run on eight pixels at once (two quads' worth:
// the powers of the sRGB encoding cost as much on eight lanes as on four). Each lane does
// the float function's operations in the same order (see cpu/simd/simd_quad.h), so a lane gives the
// bits the scalar path gives for that pixel; tests/cpu_raster_equivalence_test.cpp checks the
// powers on random and special inputs.
#pragma once

#include "core/shading.h"
#include "cpu/simd/quad_coverage.h"
#include "cpu/simd/simd_quad.h"

namespace facet::lanes {

inline F32x8 operator/(F32x8 a, F32x8 b) { return F32x8(_mm256_div_ps(a.v, b.v)); }
inline F32x8 operator-(F32x8 a) { return F32x8(_mm256_xor_ps(a.v, _mm256_set1_ps(-0.0f))); }
inline Mask8 operator>(F32x8 a, F32x8 b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_GT_OQ)}; }
inline Mask8 operator!=(F32x8 a, F32x8 b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_NEQ_UQ)}; }

inline bool laneAny(Mask8 m) { return _mm256_movemask_ps(m.v) != 0; }
inline F32x8 laneSelect(Mask8 m, F32x8 a, F32x8 b) { return F32x8(_mm256_blendv_ps(b.v, a.v, m.v)); }
inline F32x8 laneSqrt(F32x8 x) { return F32x8(_mm256_sqrt_ps(x.v)); }
// glm::min and glm::max: see simd::glmMin.
inline F32x8 laneMin(F32x8 x, F32x8 y) { return F32x8(_mm256_min_ps(y.v, x.v)); }
inline F32x8 laneMax(F32x8 x, F32x8 y) { return F32x8(_mm256_max_ps(y.v, x.v)); }

// exp2Shared on eight lanes. A NaN x truncates to INT_MIN here, to 0 there (truncateToInt), and
// (INT_MIN + 127) << 23 is 127 << 23 all the same: 1.0f, times a NaN series.
inline __m256 exp2Lanes(F32x8 x) {
    x = laneMin(laneMax(x, F32x8(-126.0f)), F32x8(127.0f));
    const __m256 i = _mm256_floor_ps(_mm256_add_ps(x.v, _mm256_set1_ps(0.5f)));
    const __m256 t = _mm256_mul_ps(_mm256_sub_ps(x.v, i), _mm256_set1_ps(0.693147181f));
    const auto step = [t](float c, __m256 inner) { return _mm256_add_ps(_mm256_set1_ps(c), _mm256_mul_ps(t, inner)); };
    __m256 series = step(0.00833333333f, _mm256_set1_ps(0.00138888889f));
    series = step(0.0416666667f, series);
    series = step(0.166666667f, series);
    series = step(0.5f, series);
    series = step(1.0f, series);
    series = step(1.0f, series);
    const __m256i scale = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvttps_epi32(i), _mm256_set1_epi32(127)), 23);
    return _mm256_mul_ps(series, _mm256_castsi256_ps(scale));
}

// powShared on eight lanes: 2^(e log2 x) where x > 1e-20, else 0 (e > 0) or 1.
inline F32x8 lanePow(F32x8 x, F32x8 e) {
    const __m256 power = exp2Lanes(F32x8(_mm256_mul_ps(e.v, simd::lodLog2x8(x.v))));
    const __m256 zero = _mm256_setzero_ps();
    const __m256 tiny = _mm256_blendv_ps(_mm256_set1_ps(1.0f), zero, _mm256_cmp_ps(e.v, zero, _CMP_GT_OQ));
    return F32x8(_mm256_blendv_ps(tiny, power, _mm256_cmp_ps(x.v, _mm256_set1_ps(1e-20f), _CMP_GT_OQ)));
}

} // namespace facet::lanes
