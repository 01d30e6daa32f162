// The coverage and depth test, written once for every rasterizer of facet: one walk over a
// triangle's pixels in blocks of lanes, templated over the lanes (in the manner of llvmpipe's
// per-size variants of one routine). Its instantiations:
//   - the CPU's small-triangle blocks: 4x2 pixels in eight 32-bit AVX2 lanes (cpu/simd/quad_coverage.h);
//   - the CPU's quads of larger triangles: 2x2 pixels in four 64-bit AVX2 lanes (the same file),
//     where their edges cross a block of walkBlocks, and rows of eight pixels in float lanes
//     (PixelRow8) inside them;
//   - the CUDA raster thread's quad: 2x2 pixels in four portable lanes (QuadLanes, below), run
//     on the GPU and, in the tests, on the CPU.
// Every lane makes exactly the decisions of the per-pixel definition in core/triangle_setup.h:
// covers(edgeValues()) for coverage (the edge values stepped in exact integers), then
// interpolateDepth(barycentrics()) with the same float operations in the same order (at a
// sample, plus its sampleDepthStep), and the depth test depthPasses.
// tests/cpu_raster_equivalence_test.cpp checks the CPU's lanes against that definition bit for
// bit, and the kernel pipeline tests the quad's against the CPU.
#pragma once

#include "core/multisample.h"
#include "core/tiles.h"
#include "core/triangle_setup.h"

#include <cstdint>
#include <type_traits>

namespace facet {

// The per-pixel predicates, for one pixel or lanes of them (any type with the comparison and
// & operators): all three edge values, fill-rule bias included, above 0 ...
template <class I>
FACET_HD auto edgesCover(const I (&e)[3]) {
    return (e[0] > I(0)) & (e[1] > I(0)) & (e[2] > I(0));
}

// edgesCover of e + o, tested as e > -o (`threshold` holding -o): the same decisions wherever the
// sums cannot overflow, as in every walk, without the adds.
template <class I>
FACET_HD auto edgesCoverAbove(const I (&e)[3], const I (&threshold)[3]) {
    return (e[0] > threshold[0]) & (e[1] > threshold[1]) & (e[2] > threshold[2]);
}

// ... and a depth within [0, 1] (beyond the far plane nothing is drawn) and nearer than the
// stored one. Every depth buffer starts at 1 and takes only depths that pass, so a stored depth
// is never above 1, and depth < stored is the far plane's test as well (depth <= 1 follows from
// it): the lanes test two things, not three. (tests/raster_reference.h keeps all three.)
template <class F>
FACET_HD auto depthPasses(F depth, F stored) {
    return (depth >= F(0.0f)) & (depth < stored);
}

// The three edge values of edgeValues() at pixel (x, y), bias included, and their steps per
// pixel, in integers I (64 bits, or 32 where the triangle is small enough). A triangle's edge
// functions are affine in the pixel position, so rather than evaluating edgeValues() per pixel
// a walk steps them exactly: one pixel right adds stepX, one pixel down adds stepY. At a
// sample point other than the centre, the same at (x, y) + the sample's offset.
template <class I>
struct EdgeStepper {
    I value[3];
    I stepX[3], stepY[3];

    FACET_HD_INLINED EdgeStepper(const ScreenTriangle& tri, int x, int y, const SamplePoint& s = pixelCentreSample()) {
        const FixedPoint2 p{x * kSubpixelOne + s.fx, y * kSubpixelOne + s.fy};
        FACET_UNROLL
        for (int i = 0; i < 3; ++i) {
            // Edge i runs from vertex i + 1 to vertex i + 2 (see edgeValues).
            const FixedPoint2 a = tri.v[(i + 1) % 3].p, b = tri.v[(i + 2) % 3].p;
            value[i] = edgeFunction<I>(a, b, p) + static_cast<I>(tri.bias[i]);
            stepX[i] = -static_cast<I>(b.y - a.y) * kSubpixelOne;
            stepY[i] = static_cast<I>(b.x - a.x) * kSubpixelOne;
        }
    }
};

// The pixels a walk visits: a triangle's bounds within a rect, walked from the quad holding
// their top-left pixel. Quads pair rows as OpenGL does, counting from the bottom of the
// picture, so they start at row `quadRowOffset` (1 for an odd height; row -1 is then only ever
// a helper).
struct QuadRange {
    int minX, maxX, minY, maxY; // pixel bounds, inclusive
    int firstQx, firstQy;       // the first quad's top-left pixel
};

// False when the triangle has no pixel in the rect.
FACET_HD bool quadRange(const ScreenTriangle& tri, const TileRect& rect, int quadRowOffset, QuadRange& q) {
    q.minX = glm::max(tri.minX, rect.x0);
    q.maxX = glm::min(tri.maxX, rect.x1);
    q.minY = glm::max(tri.minY, rect.y0);
    q.maxY = glm::min(tri.maxY, rect.y1);
    q.firstQx = q.minX & ~1;
    q.firstQy = ((q.minY + quadRowOffset) & ~1) - quadRowOffset;
    return q.minX <= q.maxX && q.minY <= q.maxY;
}

// The walk is inlined into each caller whatever the compiler's size heuristics say: only then
// does the CPU's loop keep the triangle's values and the target's row in registers (its stores
// could alias them otherwise), as fast as the hand-written loops it replaces.
#if defined(__CUDACC__)
#define FACET_WALK_INLINE FACET_HD
#else
#define FACET_WALK_INLINE [[gnu::always_inline]] inline
#endif

// A sample's depth: the depth at its pixel's centre (interpolateDepth of barycentrics(), as
// without multisampling) plus this, the depth plane's step from the centre to sample point p,
// dz/dx (x - 1/2) + dz/dy (y - 1/2). Depth is affine in the pixel position,
// b0 d0 + b1 d1 + b2 d2 = d0 + b1 (d1 - d0) + b2 (d2 - d0), so dz/dx = db1.x (d1 - d0) +
// db2.x (d2 - d0). One add a sample, where barycentrics at each cost seventeen operations; a
// plane equation per sample is how llvmpipe evaluates depth too (its set-up gives z as
// a0 + x dadx + y dady, src/gallium/drivers/llvmpipe/lp_state_setup.c). At the centre
// the step is -0, whose add leaves every depth (-0 too) exactly as it is. A walk finds the
// slopes once a triangle (DepthSlope) and the steps from them.
struct DepthSlope {
    float dzdx, dzdy;

    FACET_HD_INLINED explicit DepthSlope(const ScreenTriangle& t) {
        const float e1 = t.v[1].depth - t.v[0].depth, e2 = t.v[2].depth - t.v[0].depth;
        dzdx = t.db1.x * e1 + t.db2.x * e2;
        dzdy = t.db1.y * e1 + t.db2.y * e2;
    }
};

FACET_HD float sampleDepthStep(const DepthSlope& slope, const SamplePoint& p) {
    if (p.x == 0.5f && p.y == 0.5f) return -0.0f;
    return slope.dzdx * (p.x - 0.5f) + slope.dzdy * (p.y - 0.5f);
}

FACET_HD float sampleDepthStep(const ScreenTriangle& t, const SamplePoint& p) {
    return sampleDepthStep(DepthSlope(t), p);
}

// How a walk counts the lanes that pass its depth tests: a running sum of L::count(), or, where
// the lanes give one, L::Tally, which may keep the count in lanes and sum them once at the end
// (a vector's subtract a test, where count() costs a movemask, a popcount and an add).
template <class L> struct CountTally {
    std::uint32_t n = 0;
    FACET_HD void add(typename L::Mask passed) { n += L::count(passed); }
    FACET_HD std::uint32_t total() const { return n; }
};

template <class L, class = void> struct WalkTally : CountTally<L> {};

template <class L>
struct WalkTally<L, std::void_t<typename L::Tally>> : L::Tally {};

// What a depth test keeps of a triangle in lanes, read once (the target's stores could alias
// the triangle): the barycentric plane and the vertex depths.
template <class L>
struct DepthLanes {
    using Float = typename L::Float;
    BarycentricPlane<Float> plane;
    Float depths[3];

    FACET_HD explicit DepthLanes(const ScreenTriangle& tri)
        : plane(tri), depths{Float(tri.v[0].depth), Float(tri.v[1].depth), Float(tri.v[2].depth)} {}

    // The depths at the centres of the block at (qx, y)'s pixels.
    FACET_WALK_INLINE Float centreDepth(int qx, const Float& y) const {
        Float b[3];
        plane.at(L::columns(qx), y, b);
        return centreDepth(b);
    }
    // The same from the lanes' barycentrics at the centres.
    FACET_WALK_INLINE Float centreDepth(const Float (&b)[3]) const {
        return interpolate(b, depths[0], depths[1], depths[2]);
    }

    // The depth test of the block at (qx, y)'s `covered` lanes, at the sample point whose
    // sampleDepthStep is `step`, against `row`'s stored depths; writes the lanes that pass and
    // adds them to `won`.
    template <class Row, class Tally>
    FACET_WALK_INLINE void depthTest(Row& row, int qx, const Float& y, const Float& step, typename L::Mask covered,
                                     Tally& won) const {
        if constexpr (L::kSkipEmpty)
            if (L::none(covered)) return;
        depthTestAt(row, qx, centreDepth(qx, y) + step, covered, won);
    }

    // The same with the lanes' depths given.
    template <class Row, class Tally>
    FACET_WALK_INLINE void depthTestAt(Row& row, int qx, const Float& depth, typename L::Mask covered,
                                       Tally& won) const {
        const Float stored = row.depthAt(qx);
        const typename L::Mask keep = covered & L::mask(depthPasses(depth, stored));
        if constexpr (L::kSkipEmpty)
            if (L::none(keep)) return;
        row.write(qx, keep, depth, stored);
        won.add(keep);
    }
};

// What both walks keep of a triangle in lanes: DepthLanes', and the edge values at the first
// block and their steps a block right and a quad row down.
template <class L>
struct TriangleLanes : DepthLanes<L> {
    using Edge = typename L::Edge;
    Edge rowStart[3], right[3], down[3];

    FACET_HD TriangleLanes(const ScreenTriangle& tri, const EdgeStepper<typename L::EdgeScalar>& edges)
        : DepthLanes<L>(tri) {
        FACET_UNROLL
        for (int i = 0; i < 3; ++i) {
            rowStart[i] = L::spread(edges.value[i], edges.stepX[i], edges.stepY[i]);
            // kWidth (a power of two) and 2 steps, by doubling: the lanes' adds are their
            // cheapest operation.
            right[i] = Edge(edges.stepX[i]);
            for (int w = 1; w < L::kWidth; w *= 2) right[i] = right[i] + right[i];
            down[i] = Edge(edges.stepY[i]) + Edge(edges.stepY[i]);
        }
    }
};

// Whether walkCoverage's loops over the range in lanes L run once: its blocks (L::kWidth x 2
// pixels from the first quad) hold it in one.
template <class L> FACET_HD bool inOneBlock(const QuadRange& q) {
    return q.maxX < q.firstQx + L::kWidth && q.maxY < q.firstQy + 2;
}

// The walk: `tri`'s coverage and depth test over the range, block by block (L::kWidth x 2
// pixels, starting at the first quad), reading the stored depths from `target` and handing it
// the lanes that pass; returns how many passed. Each pixel is tested at `sample`: its centre,
// or with multisampling one of its samples (one walk per sample, each into its own depths).
// With `Bounds` the range's bounds mask the lanes too; without, the caller knows the range is
// the triangle's whole bounds (lanes outside them fail its edge tests). L supplies the lane
// types and their few width-specific steps:
//   EdgeScalar, Edge, Float, Mask; kWidth; kSkipEmpty (branch past blocks with no lane left,
//   or go on branch-free); spread(v, sx, sy) (the lanes' edge values from a block's first
//   pixel's); columns(x) and rows(y) (the lanes' pixel coordinates as floats); columnsIn and
//   rowsIn (the bounds); mask() of comparison results; none() and count() of a mask.
// Target supplies row(qy), the quad row at qy (a value or a reference), whose depthAt(qx) gives
// the stored depths of the block at (qx, qy) and write(qx, keep, depth, stored) takes the lanes
// that passed. With Bounds the walk masks by a copy of the range (`bounds`): the target's
// stores could alias the caller's, and then every block reloaded it and found the row's mask
// again (19 of a CPU block's 70 instructions). Without Bounds, no copy: taking the range by
// value cost the 1M-triangle grid's frame 1.8% more instructions, in its tiny triangles' walks.
// With OneBlock the caller knows the range is one block (inOneBlock<L>): both loops run once,
// and the compiler drops their steps and the registers they kept across blocks (spilled to the
// stack on the CPU, where such a walk took 250 instructions and takes 181 so).
template <class L, bool Bounds, class Target, bool OneBlock = false>
FACET_WALK_INLINE std::uint32_t walkCoverage(const ScreenTriangle& tri, const QuadRange& q, Target& target,
                                             const SamplePoint& sample = pixelCentreSample()) {
    using Edge = typename L::Edge;
    using Float = typename L::Float;
    const TriangleLanes<L> lanes(tri, EdgeStepper<typename L::EdgeScalar>(tri, q.firstQx, q.firstQy, sample));
    Edge rowStart[3] = {lanes.rowStart[0], lanes.rowStart[1], lanes.rowStart[2]};
    const Float step(sampleDepthStep(tri, sample));
    [[maybe_unused]] const QuadRange bounds = Bounds ? q : QuadRange{};
    std::conditional_t<OneBlock, CountTally<L>, WalkTally<L>> won; // one block: one count, no sum of lanes
    const int lastQy = OneBlock ? q.firstQy : q.maxY, lastQx = OneBlock ? q.firstQx : q.maxX;
    for (int qy = q.firstQy; qy <= lastQy; qy += 2) {
        Edge at[3] = {rowStart[0], rowStart[1], rowStart[2]};
        FACET_UNROLL
        for (int i = 0; i < 3; ++i) rowStart[i] = rowStart[i] + lanes.down[i];
        const Float y = L::rows(qy);
        decltype(auto) row = target.row(qy);
        [[maybe_unused]] const typename L::Mask rowsIn = L::rowsIn(qy, bounds);
        for (int qx = q.firstQx; qx <= lastQx; qx += L::kWidth) {
            typename L::Mask covered = L::mask(edgesCover(at));
            if constexpr (Bounds) covered = covered & rowsIn & L::columnsIn(qx, bounds);
            FACET_UNROLL
            for (int i = 0; i < 3; ++i) at[i] = at[i] + lanes.right[i];
            lanes.depthTest(row, qx, y, step, covered, won);
        }
    }
    return won.total();
}

// A lane set's values, one per sample it holds: L::kSamples samples side by side (most lane
// sets hold one sample of a block's pixels; cpu/visibility/sample_pair_walk.cpp's two).
template <class L, class V, class T>
FACET_WALK_INLINE V bySample(const T (&v)[L::kSamples]) {
    if constexpr (L::kSamples == 1)
        return V(v[0]);
    else
        return L::bySample(v);
}

// Edge i's value at sample point p of a pixel less its value at the pixel's corner: exact,
// since the steps are whole multiples of kSubpixelOne. It, EdgeStepper's and DepthSlope's
// constructors, edgeFunction, wrapTexel and TileBuffers::at are always inlined: the AVX-512
// files (cpu/visibility/sample_pair_walk.cpp, cpu/simd/wide_filter.cpp) must never emit a copy
// another object's callers could be linked to, and clang at -O1 leaves them out of line
// otherwise (Build.*SharesNoCode).
template <class I>
FACET_HD_INLINED I sampleOffset(const EdgeStepper<I>& edges, int i, const SamplePoint& p) {
    return static_cast<I>(edges.stepX[i] / kSubpixelOne * p.fx + edges.stepY[i] / kSubpixelOne * p.fy);
}

// Whether lanes L find a walk's sample thresholds themselves (L::kFindsThresholds, with
// L::sampleThresholds<S>): the same integers as walkSamples' own loop, found their own way.
template <class L, class = void>
struct LanesFindThresholds : std::false_type {};
template <class L>
struct LanesFindThresholds<L, std::void_t<decltype(L::kFindsThresholds)>> : std::bool_constant<L::kFindsThresholds> {};

// The walk at S samples per pixel (multisampling) in one pass over the blocks: per block, each
// sample's lanes in turn, making exactly the decisions of walkCoverage at that sample point
// (the edge values differ from the pixel corner's by exact integer offsets; the depths are the
// centres', found once a block, plus each sample's step), without setting the triangle up once
// per sample. A lane set holds L::kSamples samples of the block at once (group g: samples
// g kSamples on). Target's row(qy) has sample(s), a row of the depths of sample s (and the next
// kSamples - 1) as walkCoverage's target has.
template <class L, bool Bounds, int S, class Target>
FACET_WALK_INLINE std::uint32_t walkSamples(const ScreenTriangle& tri, const QuadRange& q, Target& target) {
    using Edge = typename L::Edge;
    using Float = typename L::Float;
    using Scalar = typename L::EdgeScalar;
    constexpr int P = L::kSamples, G = S / P;
    const EdgeStepper<Scalar> edges(tri, q.firstQx, q.firstQy, SamplePoint{0, 0, 0.0f, 0.0f});
    const TriangleLanes<L> lanes(tri, edges);
    // Sample g's coverage is edgesCover(at + offset) for the edge values `at` at the pixels'
    // corners, tested as at > threshold[g] = -offset.
    Edge rowStart[3] = {lanes.rowStart[0], lanes.rowStart[1], lanes.rowStart[2]}, threshold[G][3];
    Float step[G];
    const DepthSlope slope(tri);
    FACET_UNROLL
    for (int g = 0; g < G; ++g) {
        float steps[P];
        FACET_UNROLL
        for (int k = 0; k < P; ++k) steps[k] = sampleDepthStep(slope, samplePoint(S, g * P + k));
        step[g] = bySample<L, Float>(steps);
        if constexpr (!LanesFindThresholds<L>::value) {
            Scalar negated[3][P];
            FACET_UNROLL
            for (int k = 0; k < P; ++k) {
                const SamplePoint p = samplePoint(S, g * P + k);
                FACET_UNROLL
                for (int i = 0; i < 3; ++i) negated[i][k] = -sampleOffset(edges, i, p);
            }
            FACET_UNROLL
            for (int i = 0; i < 3; ++i) threshold[g][i] = bySample<L, Edge>(negated[i]);
        }
    }
    if constexpr (LanesFindThresholds<L>::value) L::template sampleThresholds<S>(edges, threshold);
    [[maybe_unused]] const QuadRange bounds = Bounds ? q : QuadRange{};
    WalkTally<L> won;
    for (int qy = q.firstQy; qy <= q.maxY; qy += 2) {
        Edge at[3] = {rowStart[0], rowStart[1], rowStart[2]};
        FACET_UNROLL
        for (int i = 0; i < 3; ++i) rowStart[i] = rowStart[i] + lanes.down[i];
        const Float y = L::rows(qy);
        decltype(auto) row = target.row(qy);
        [[maybe_unused]] const typename L::Mask rowsIn = L::rowsIn(qy, bounds);
        for (int qx = q.firstQx; qx <= q.maxX; qx += L::kWidth) {
            // Every sample's coverage first. Lanes that branch past empty work (kSkipEmpty) skip
            // a block none of whose samples is covered (a small triangle's bounds hold many)
            // with one branch and, with four groups or more, a group none of whose lanes is
            // covered. The CPU's blocks of eight go on branch-free: those branches follow a
            // small triangle's edges, too irregular to predict, and cost more than they save
            // (the 4-sample frame 4 to 5% faster without them; SamplePairBlock is as branch-free).
            typename L::Mask covered[G];
            FACET_UNROLL
            for (int g = 0; g < G; ++g) {
                covered[g] = L::mask(edgesCoverAbove(at, threshold[g]));
                if constexpr (Bounds) covered[g] = covered[g] & rowsIn & L::columnsIn(qx, bounds);
            }
            FACET_UNROLL
            for (int i = 0; i < 3; ++i) at[i] = at[i] + lanes.right[i];
            if constexpr (L::kSkipEmpty) {
                bool empty = true;
                FACET_UNROLL
                for (int g = 0; g < G; ++g) empty = empty && L::none(covered[g]);
                if (empty) continue;
            }
            // The centres' depths once for every sample (sampleDepthStep).
            const Float centre = lanes.centreDepth(qx, y);
            FACET_UNROLL
            for (int g = 0; g < G; ++g) {
                if (L::kSkipEmpty && G >= 4 && L::none(covered[g])) continue;
                decltype(auto) sampleRow = row.sample(g * P);
                lanes.depthTestAt(sampleRow, qx, centre + step[g], covered[g], won);
            }
        }
    }
    return won.total();
}

// Large triangles are walked in blocks of kCoverBlock x kCoverBlock pixels (whole quads),
// each first classified from its corners, as llvmpipe's rasterizer classifies its blocks
// (src/gallium/drivers/llvmpipe/lp_rast_tri.c): a block outside the triangle is skipped, one
// inside it needs no edge work, and only blocks the edges cross are walked pixel by pixel.
inline constexpr int kCoverBlock = 8;

enum class BlockCover { Outside, Partial, Inside };

// How a triangle covers the block whose first pixel's edge values (at the point the sample
// offsets are taken from) are `value`, at every pixel of the block and every sample of a pixel
// (whose offsets from that point lie in [offsetLo, offsetHi] per edge): Outside where some edge
// fails at all of them, Inside where every edge passes at all of them. An affine function's
// least and greatest values over a rectangle lie at its corners, so each edge's steps' signs
// name them. (The 64-bit values are bounded far below overflow: see edgeFunction.)
template <class I>
FACET_HD BlockCover classifyBlock(const I (&value)[3], const EdgeStepper<I>& edges, const I (&offsetLo)[3],
                                  const I (&offsetHi)[3]) {
    bool inside = true;
    FACET_UNROLL
    for (int i = 0; i < 3; ++i) {
        const I spanX = edges.stepX[i] * (kCoverBlock - 1), spanY = edges.stepY[i] * (kCoverBlock - 1);
        const I zero(0);
        const I hi = value[i] + offsetHi[i] + (spanX > zero ? spanX : zero) + (spanY > zero ? spanY : zero);
        if (!(hi > zero)) return BlockCover::Outside;
        const I lo = value[i] + offsetLo[i] + (spanX < zero ? spanX : zero) + (spanY < zero ? spanY : zero);
        inside = inside && lo > zero;
    }
    return inside ? BlockCover::Inside : BlockCover::Partial;
}

// Row y of `target`, or of its sample s's plane.
template <int S, class Target>
FACET_WALK_INLINE decltype(auto) sampleRow(Target& target, int y, int s) {
    if constexpr (S == 1)
        return target.row(y);
    else
        return target.row(y).sample(s);
}

// The depth tests of an inside block at (bx, by), every pixel at each of S sample points
// (sampleDepthStep `steps`): in lanes Full of Full::kWidth x Full::kHeight pixels, which need
// no edge values, with their target. The barycentrics' terms of a column of lanes, or of a
// row, serve the whole block, and the centres' depths every sample.
template <class Full, int S, class Target>
FACET_WALK_INLINE std::uint32_t depthTestInsideBlock(const DepthLanes<Full>& lanes, Target& target, int bx, int by,
                                                     const typename Full::Float (&steps)[S]) {
    using Float = typename Full::Float;
    constexpr int kColumns = kCoverBlock / Full::kWidth;
    Float column[kColumns][2];
    FACET_UNROLL
    for (int c = 0; c < kColumns; ++c) lanes.plane.columnTerms(Full::columns(bx + c * Full::kWidth), column[c]);
    WalkTally<Full> won;
    for (int y = by; y < by + kCoverBlock; y += Full::kHeight) {
        Float row[2];
        lanes.plane.rowTerms(Full::rows(y), row);
        FACET_UNROLL
        for (int c = 0; c < kColumns; ++c) {
            Float b[3];
            BarycentricPlane<Float>::combine(column[c], row, b);
            const Float depth = lanes.centreDepth(b);
            FACET_UNROLL
            for (int s = 0; s < S; ++s) {
                decltype(auto) targetRow = sampleRow<S>(target, y, s);
                lanes.depthTestAt(targetRow, bx + c * Full::kWidth, depth + steps[s], Full::all(), won);
            }
        }
    }
    return won.total();
}

// walkBlocks' block filter that skips no block. Another (cpu/visibility/block_depth_bounds.h) may skip
// blocks that `occluded` names, where every depth test would fail, and is told of each block
// whose every pixel was depth-tested (`covered`).
struct EveryBlock {
    FACET_HD bool occluded(int, int) const { return false; }
    FACET_HD void covered(int, int) {}
};

// The walk of a large triangle (edge values in 64 bits) at S samples per pixel (with S = 1, at
// `sample`), block by block: outside blocks skipped (and those `blocks` finds occluded),
// inside ones depth-tested in lanes Full into `full`, and the rest walked in lanes Partial into
// `partial` by walkCoverage (or walkSamples) over the block's part of the range. Every pixel
// and sample gets exactly the decisions of those walks (inside a block every edge test passes,
// and Full's depth test is the same per-lane formula), as tests/cpu_raster_equivalence_test.cpp
// checks.
template <class Full, class Partial, int S, class FullTarget, class PartialTarget, class Blocks = EveryBlock>
FACET_WALK_INLINE std::uint32_t walkBlocks(const ScreenTriangle& tri, const QuadRange& q, FullTarget& full,
                                           PartialTarget& partial, const SamplePoint& sample = pixelCentreSample(),
                                           Blocks blocks = Blocks{}) {
    using I = typename Partial::EdgeScalar;
    const EdgeStepper<I> edges(tri, q.firstQx, q.firstQy, S == 1 ? sample : SamplePoint{0, 0, 0.0f, 0.0f});
    I offsetLo[3] = {0, 0, 0}, offsetHi[3] = {0, 0, 0}, rowValue[3], right[3], down[3];
    FACET_UNROLL
    for (int i = 0; i < 3; ++i) {
        if (S > 1) {
            offsetLo[i] = offsetHi[i] = sampleOffset(edges, i, samplePoint(S, 0));
            for (int s = 1; s < S; ++s) {
                const I o = sampleOffset(edges, i, samplePoint(S, s));
                offsetLo[i] = o < offsetLo[i] ? o : offsetLo[i];
                offsetHi[i] = o > offsetHi[i] ? o : offsetHi[i];
            }
        }
        rowValue[i] = edges.value[i];
        right[i] = edges.stepX[i] * kCoverBlock;
        down[i] = edges.stepY[i] * kCoverBlock;
    }
    const DepthLanes<Full> lanes(tri);
    typename Full::Float steps[S];
    const DepthSlope slope(tri);
    FACET_UNROLL
    for (int s = 0; s < S; ++s)
        steps[s] = typename Full::Float(sampleDepthStep(slope, S == 1 ? sample : samplePoint(S, s)));
    std::uint32_t won = 0;
    for (int by = q.firstQy; by <= q.maxY; by += kCoverBlock) {
        I value[3] = {rowValue[0], rowValue[1], rowValue[2]};
        FACET_UNROLL
        for (int i = 0; i < 3; ++i) rowValue[i] += down[i];
        for (int bx = q.firstQx; bx <= q.maxX; bx += kCoverBlock) {
            const BlockCover cover = classifyBlock(value, edges, offsetLo, offsetHi);
            FACET_UNROLL
            for (int i = 0; i < 3; ++i) value[i] += right[i];
            if (cover == BlockCover::Outside || blocks.occluded(bx, by)) continue;
            const int lastX = bx + kCoverBlock - 1, lastY = by + kCoverBlock - 1;
            if (cover == BlockCover::Inside && bx >= q.minX && by >= q.minY && lastX <= q.maxX && lastY <= q.maxY) {
                won += depthTestInsideBlock<Full, S>(lanes, full, bx, by, steps);
                blocks.covered(bx, by);
                continue;
            }
            const QuadRange part{bx < q.minX ? q.minX : bx, lastX < q.maxX ? lastX : q.maxX,
                                 by < q.minY ? q.minY : by, lastY < q.maxY ? lastY : q.maxY, bx, by};
            if constexpr (S == 1)
                won += walkCoverage<Partial, true>(tri, part, partial, sample);
            else
                won += walkSamples<Partial, true, S>(tri, part, partial);
        }
    }
    return won;
}

// What the lanes of a 2x2 quad share, whatever holds their values: lane k is pixel
// (qx + (k & 1), qy + (k >> 1)), and masks are 4-bit (bit k: lane k).
struct QuadMasks {
    static constexpr int kWidth = 2;
    static constexpr bool kSkipEmpty = true;
    static constexpr int kSamples = 1;
    using Mask = unsigned;

    FACET_HD static unsigned columnsIn(int qx, const QuadRange& q) {
        const unsigned columns = (qx >= q.minX ? 1u : 0u) | (qx + 1 <= q.maxX ? 2u : 0u);
        return columns | columns << 2;
    }
    FACET_HD static unsigned rowsIn(int qy, const QuadRange& q) {
        return (qy >= q.minY ? 3u : 0u) | (qy + 1 <= q.maxY ? 12u : 0u);
    }
    FACET_HD static bool none(unsigned m) { return m == 0; }
    FACET_HD static std::uint32_t count(unsigned m) { return (m & 1u) + (m >> 1 & 1u) + (m >> 2 & 1u) + (m >> 3 & 1u); }
};

// Four values of a quad, one per lane, with the operators the walk and the shared formulas use.
template <class T>
struct Quad {
    T v[4];
    Quad() = default;
    FACET_HD Quad(T x) : v{x, x, x, x} {}
};

#define FACET_QUAD_OPERATOR(op, Result)                                               \
    template <class T>                                                                \
    FACET_HD Quad<Result> operator op(const Quad<T>& a, const Quad<T>& b) {           \
        Quad<Result> r;                                                               \
        FACET_UNROLL                                                                  \
        for (int k = 0; k < 4; ++k) r.v[k] = a.v[k] op b.v[k];                        \
        return r;                                                                     \
    }
FACET_QUAD_OPERATOR(+, T)
FACET_QUAD_OPERATOR(-, T)
FACET_QUAD_OPERATOR(*, T)
FACET_QUAD_OPERATOR(>, bool)
FACET_QUAD_OPERATOR(>=, bool)
FACET_QUAD_OPERATOR(<=, bool)
FACET_QUAD_OPERATOR(<, bool)
#undef FACET_QUAD_OPERATOR

FACET_HD Quad<bool> operator&(const Quad<bool>& a, const Quad<bool>& b) {
    Quad<bool> r;
    FACET_UNROLL
    for (int k = 0; k < 4; ++k) r.v[k] = a.v[k] && b.v[k];
    return r;
}

// The CUDA raster thread's lanes: one quad, 64-bit edge values, plain code.
struct QuadLanes : QuadMasks {
    using EdgeScalar = std::int64_t;
    using Edge = Quad<std::int64_t>;
    using Float = Quad<float>;

    FACET_HD static Edge spread(std::int64_t v, std::int64_t sx, std::int64_t sy) {
        Edge e;
        FACET_UNROLL
        for (int k = 0; k < 4; ++k) e.v[k] = v + (k & 1) * sx + (k >> 1) * sy;
        return e;
    }
    FACET_HD static Float columns(int qx) { return offsets(static_cast<float>(qx), static_cast<float>(qx + 1), 1); }
    FACET_HD static Float rows(int qy) { return offsets(static_cast<float>(qy), static_cast<float>(qy + 1), 2); }
    FACET_HD static unsigned mask(const Quad<bool>& m) {
        unsigned bits = 0;
        FACET_UNROLL
        for (int k = 0; k < 4; ++k) bits |= (m.v[k] ? 1u : 0u) << k;
        return bits;
    }

private:
    // Lane k holds `first` or `second` as bit `bit` of k is clear or set.
    FACET_HD static Float offsets(float first, float second, int bit) {
        Float f;
        FACET_UNROLL
        for (int k = 0; k < 4; ++k) f.v[k] = (k & bit) ? second : first;
        return f;
    }
};

} // namespace facet
