// Float to int the same on every backend. C++ leaves converting NaN, infinities and values out
// of int's range undefined: x86 gives INT_MIN, a GPU's cvt.rzi.s32.f32 gives 0 for NaN and
// saturates the rest. So a NaN texture coordinate could fetch another texel on each backend (and
// UBSan stops on it). Every scalar conversion of a value that may not be finite goes through
// here; the CPU's vector paths convert with cvttps and take its INT_MIN as 0 where it can come.
#pragma once

#include "core/hd.h"

#include <climits>

namespace facet {

// Toward zero, as static_cast; NaN is 0, and values beyond int's range its nearest end, as the
// GPU converts.
FACET_HD int truncateToInt(float x) {
    if (x != x) return 0;
    if (x >= 2147483648.0f) return INT_MAX;
    if (x <= -2147483648.0f) return INT_MIN;
    return static_cast<int>(x);
}

// x clamped to [lo, hi], NaN to lo: glm::clamp lets a NaN through, to a conversion after it.
FACET_HD float clampOrLow(float x, float lo, float hi) { return x > lo ? (x < hi ? x : hi) : lo; }

} // namespace facet
