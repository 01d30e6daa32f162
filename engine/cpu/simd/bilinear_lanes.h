// sampleBilinear's plan (bilinearTexels: the texel coordinates, the weights and the four wrapped
// texel indices) and the classic look's fixed-point filter (filterWeight, lerpRgba8), written
// once over a lane type, as core/coverage_walk.h's walk is: the AVX2 passes take them on eight
// lanes (cpu/simd/simd_quad.h), the AVX-512 filters on sixteen (cpu/simd/wide_filter.cpp). Each lane
// performs the scalar functions' integer and float steps in their order, so the same bits
// (tests/cpu_raster_equivalence_test.cpp).
//
// A lane type is a float vector F, a 32-bit integer vector I and a comparison's result M, with
// F and I made from a scalar (every lane), F's + - * floor, clampUnit (wrapCoordinate's clamp,
// a NaN kept) and truncate (to I), I's + - * & | laneMin laneMax, toFloat (to F), > (to M) and
// lowWordsUp (each 32-bit lane shifted left 16), its 16-bit
// halves' addWords, subWords, mulWords, highBytesDown and lowBytesUp (each shifted 8 right or
// left), M's & and all, addWhere (x + w where m, else x) and subUnless (x - w where not m, else
// x), store/load to int arrays of I::kLanes, and wrapOutOfRange: wrapLanes below, inlined or
// called as suits the width (the planning loops are measured both ways).
#pragma once

#include "core/texture_sampling.h"

#include <climits>
#include <cstdint>

namespace facet::lanes {

// Mip levels' sizes and first texels, per lane, and the texture's wraps (alike in every lane).
template <class I> struct LevelLanes {
    I width, height, offset;
    Wrap wrapS = Wrap::Repeat, wrapT = Wrap::Repeat;
};

// Each lane's four texels (indices into the texture's array) and their weights along x and y.
template <class F, class I> struct BilinearPlan {
    I c00, c10, c01, c11;
    F a, b;
    bool adjacent; // in every lane c10 is c00 + 1 and c11 is c01 + 1 (no column wraps)
};

// wrapTexel of every lane's x0, x0 + 1, y0 and y0 + 1, lane by lane: planBilinear's rare case,
// through the lanes' wrapOutOfRange. A NaN coordinate truncated to INT_MIN (no finite one does,
// reduced by wrapCoordinate) is taken as truncateToInt takes it: 0.
template <class I>
[[gnu::always_inline]] inline void wrapLanes(I x0, I y0, const LevelLanes<I>& l, I& col0, I& col1, I& row0, I& row1) {
    constexpr int n = I::kLanes;
    alignas(64) std::int32_t xs[n], ys[n], ws[n], hs[n], c0[n], c1[n], r0[n], r1[n];
    store(xs, x0);
    store(ys, y0);
    store(ws, l.width);
    store(hs, l.height);
    for (int k = 0; k < n; ++k) {
        xs[k] = xs[k] == INT_MIN ? 0 : xs[k];
        ys[k] = ys[k] == INT_MIN ? 0 : ys[k];
        c0[k] = wrapTexel(xs[k], ws[k], l.wrapS);
        c1[k] = wrapTexel(xs[k] + 1, ws[k], l.wrapS);
        r0[k] = wrapTexel(ys[k], hs[k], l.wrapT);
        r1[k] = wrapTexel(ys[k] + 1, hs[k], l.wrapT);
    }
    load(col0, c0);
    load(col1, c1);
    load(row0, r0);
    load(row1, r1);
}

// wrapCoordinate on every lane, the same steps.
template <class F> [[gnu::always_inline]] inline F wrapCoordinate(F u, Wrap wrap) {
    if (wrap == Wrap::Repeat) return u - floor(u);
    if (wrap == Wrap::MirroredRepeat) return u - F(2.0f) * floor(F(0.5f) * u);
    return clampUnit(u);
}

// GL_REPEAT of i and i + 1 for i in [-1, size - 1]: one conditional add or subtract each.
template <class I> [[gnu::always_inline]] inline void repeatPair(I i, I size, I& w0, I& w1) {
    const I i1 = i + I(1);
    w0 = addWhere(I(0) > i, i, size);
    w1 = subUnless(size > i1, i1, size);
}

// wrapTexel of every lane's i and i + 1 along an axis wrapped by `wrap`, in vector steps where
// they hold: false where some lane needs wrapTexel's general case (wrapOutOfRange). A finite
// coordinate reduced by wrapCoordinate gives i in [-1, size - 1] when it repeats, [-1, size]
// clamped (any i clamps here) and [-1, 2 size - 1] mirrored (rarely 2 size, rounded up).
template <class I> [[gnu::always_inline]] inline bool wrapPair(I i, I size, Wrap wrap, I& w0, I& w1) {
    if (wrap == Wrap::ClampToEdge) {
        const I last = size - I(1);
        w0 = laneMin(laneMax(i, I(0)), last);
        w1 = laneMin(laneMax(i + I(1), I(0)), last);
        return true;
    }
    if (wrap == Wrap::Repeat) {
        if (!all(i > I(-2))) return false;
        repeatPair(i, size, w0, w1);
        return true;
    }
    // Mirrored, for i and i + 1 in [-1, 2 size - 1]: -1 mirrors to 0, and the fold at size is
    // the lesser of t and 2 size - 1 - t.
    const I top = size + size - I(1);
    if (!all((i > I(-2)) & (top > i))) return false;
    const I t0 = laneMax(i, I(0)), t1 = i + I(1);
    w0 = laneMin(t0, top - t0);
    w1 = laneMin(t1, top - t1);
    return true;
}

// bilinearTexels on every (level `l`, uv) lane. Always inlined: GCC called the eight-lane one
// out of line from the sampling passes once those became templates (IndexedLoads), 7% of the
// textured sheet's frame in perf. `kRepeats`: the caller knows both of l's wraps are REPEAT (as
// nearly every texture's are), so the plan tests no wrap: the sampling passes choose per
// stream (their loops tested them per vector 3% slower on the textured sheet, AVX2).
template <bool kRepeats = false, class F, class I>
[[gnu::always_inline]] inline BilinearPlan<F, I> planBilinear(const LevelLanes<I>& l, F u, F v) {
    const Wrap wrapS = kRepeats ? Wrap::Repeat : l.wrapS, wrapT = kRepeats ? Wrap::Repeat : l.wrapT;
    // texelCoordinate (wrapCoordinate(u) * size), then - 0.5; the sizes converted as
    // static_cast<float> of the unsigned ones (they are far below 2^31).
    const F s = wrapCoordinate(u, wrapS) * toFloat(l.width) - F(0.5f);
    const F r = wrapCoordinate(v, wrapT) * toFloat(l.height) - F(0.5f);
    const F fs = floor(s), fr = floor(r);
    const I x0 = truncate(fs), y0 = truncate(fr);
    BilinearPlan<F, I> p;
    p.a = s - fs;
    p.b = r - fr;

    // wrapTexel of x0, x0 + 1, y0 and y0 + 1. The common case, both axes repeating, tests both
    // at once: for a finite coordinate, s lies in [-0.5, size - 0.5], so x0 in [-1, size - 1].
    // Anything else takes wrapTexel lane by lane (a NaN or infinite uv truncates to INT_MIN).
    I col0, col1, row0, row1;
    const bool repeats = wrapS == Wrap::Repeat && wrapT == Wrap::Repeat;
    if (repeats && all((x0 > I(-2)) & (y0 > I(-2)))) {
        p.adjacent = all((x0 > I(-1)) & (l.width > x0 + I(1)));
        repeatPair(x0, l.width, col0, col1);
        repeatPair(y0, l.height, row0, row1);
    } else if (!repeats && wrapPair(x0, l.width, wrapS, col0, col1) && wrapPair(y0, l.height, wrapT, row0, row1)) {
        p.adjacent = all((x0 > I(-1)) & (l.width > x0 + I(1)));
    } else {
        p.adjacent = false;
        wrapOutOfRange(x0, y0, l, col0, col1, row0, row1);
    }
    // Texel indices as sampleBilinear forms them (offset + row * width + column; a texture
    // holds far fewer than 2^31 texels).
    row0 = l.offset + row0 * l.width;
    row1 = l.offset + row1 * l.width;
    p.c00 = row0 + col0;
    p.c10 = row0 + col1;
    p.c01 = row1 + col0;
    p.c11 = row1 + col1;
    return p;
}

// The classic look's fixed-point filter with lerpRgba8's split of the channels: R and B in the
// 16-bit halves of a lane of `rb`, G and A in those of `ga`, each in [0, 255]. Splitting takes a
// mask and a shift where unpacking to words takes shuffles, and Intel cores run shuffles on one
// port only.
template <class I> struct Split { I rb, ga; };

template <class I> inline Split<I> splitChannels(I c) { return {c & I(0x00FF00FF), highBytesDown(c)}; }

template <class I> inline I joinChannels(const Split<I>& c) { return c.rb | lowBytesUp(c.ga); }

// filterWeight per lane (a NaN truncates to INT_MIN, which gives 0 as there), in both 16-bit
// halves of its lane.
template <class F> inline auto filterWeights(F f) {
    const auto i = laneMax(truncate(f * F(256.0f) + F(0.5f)), decltype(truncate(f))(0));
    return i | lowWordsUp(i);
}

// lerpRgba8 on split channels, w in both halves of each lane: the products and their sum fit
// 16 bits unsigned.
template <class I> inline Split<I> lerpSplit(const Split<I>& x0, const Split<I>& x1, I w) {
    const I nw = subWords(I(0x01000100), w), half = I(0x00800080); // 256 and 128 in each half
    const auto lerp = [&](I a, I b) {
        return highBytesDown(addWords(addWords(mulWords(a, nw), mulWords(b, w)), half));
    };
    return {lerp(x0.rb, x1.rb), lerp(x0.ga, x1.ga)};
}

// filterBilinear8's blends of a plan's four texels c00, c10, c01 and c11 (packed, per lane).
template <class F, class I>
inline Split<I> filterBilinearSplit(const BilinearPlan<F, I>& p, I c00, I c10, I c01, I c11) {
    const I a = filterWeights(p.a);
    return lerpSplit(lerpSplit(splitChannels(c00), splitChannels(c10), a),
                     lerpSplit(splitChannels(c01), splitChannels(c11), a), filterWeights(p.b));
}

} // namespace facet::lanes
