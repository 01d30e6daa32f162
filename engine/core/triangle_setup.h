// Triangle setup and per-pixel interpolation, shared by both backends. A clipped vertex is
// projected; coverage uses its position snapped to fixed point (exact, watertight), while
// interpolation uses the unsnapped position, as OpenGL implementations do. Attributes divided
// by w interpolate linearly on screen, which makes them perspective-correct after dividing by
// the interpolated 1/w (Heckbert & Moreton, "Interpolation for Polygon Texture Mapping and
// Shading", 1991).
#pragma once

#include "core/clip.h"
#include "core/raster_math.h"

namespace facet {

// What a set-up triangle keeps of each corner for coverage and depth.
struct TriangleCorner {
    FixedPoint2 p; // snapped pixel position, for coverage
    float depth;   // window depth in [0, 1]
};

// A corner's attributes divided by w, which interpolate linearly on screen (see above).
struct CornerAttributes {
    float invW;        // 1 / d.z
    glm::vec2 uvOverW; // uv / d.z
    glm::vec3 nOverW;  // n / d.z
};

// A projected vertex: its corner, its attributes, then its exact position (which interpolation
// needs at a triangle's first corner only, ScreenTriangle::origin).
struct ScreenVertex : TriangleCorner {
    CornerAttributes attributes;
    glm::vec2 pos; // exact pixel position, for interpolation
};

FACET_HD ScreenVertex projectVertex(const ClipVertex& v, const ViewParams& view, int width, int height) {
    const glm::vec2 px = ndcToPixel(perspectiveDivide(v.d, view), width, height);
    const float invW = 1.0f / v.d.z;
    return ScreenVertex{{{snapToFixed(px.x), snapToFixed(px.y)}, windowDepth(v.d.z, view.nearPlane, view.farPlane)},
                        {invW, v.uv * invW, v.n * invW},
                        px};
}

// A triangle whose snapped corners' extent is under kSmallTriangleExtent sub-pixels on each axis
// (64 pixels) is `small`, and takes the CPU's 32-bit walk (rasterizeVisibility). Its edge
// vectors are then under 2^14, and every point the walk meets lies within 9 pixels (2^11.2
// sub-pixels) of its bounds, so every edge value there is under 2 * 2^14 * (2^14 + 2^11.2) + 1 <
// 2^30, and a step over the walk's extent (< 2^14 / 256 + 9 pixels) adds under 2^22 * 2^6.2: all
// within 32 bits. setupTriangle decides it once, from the corners' bounds it has at hand;
// deciding it in each walk of each tile took 1.9% more instructions a frame on a 1M-triangle grid.
inline constexpr std::int32_t kSmallTriangleExtent = 1 << 14;

// The raster stage reads every set-up triangle back from memory (a dense mesh's are written and
// read at hundreds of megabytes a frame), so it holds only what the walks read: one exact
// position, the fill rule's biases (0 or 1) and whether it is small, as bytes. Its corners'
// attributes, which shading alone reads, are kept apart (TriangleAttributes), and only for
// frames whose shading reads them.
struct ScreenTriangle {
    TriangleCorner v[3];   // ordered so the interior is positive
    glm::vec2 origin;      // the exact position of v[0], the barycentrics' origin (see barycentricGradients)
    std::uint8_t bias[3];  // fill rule bias (fillRuleBias, 0 or 1) of the edge opposite vertex i
    std::uint8_t small;    // 1 when its corners' extent is under kSmallTriangleExtent on both axes
    glm::vec2 db1, db2;    // gradients of barycentrics 1 and 2 over the exact positions
    int minX, minY, maxX, maxY; // pixel bounds, clamped to the target, inclusive
};
// `small` sits in the padding after the biases: the raster stage reads 80 bytes a triangle.
static_assert(sizeof(ScreenTriangle) == 80, "ScreenTriangle grew: every walk reads it from memory");

// The attributes of a set-up triangle's corners, in its order.
struct TriangleAttributes {
    CornerAttributes v[3];
};

// A set-up triangle as shading reads it: its barycentrics' plane, and its corners' attributes.
struct ShadedTriangle {
    const ScreenTriangle& tri;
    const TriangleAttributes& attributes;
};

// Gradients of barycentrics 1 and 2 (each 0 at vertex 0): b1 = dot(db1, p - origin), etc., for
// the triangle's corners a, b, c in its order. Computed in double from the exact positions;
// where rounding makes those degenerate or flipped although the snapped triangle is not, the
// snapped positions stand in.
FACET_HD void barycentricGradients(ScreenTriangle& t, const ScreenVertex& a, const ScreenVertex& b,
                                   const ScreenVertex& c) {
    const auto gradients = [&t](double x0, double y0, double x1, double y1, double x2, double y2) {
        const double area = (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0);
        if (!(area > 0.0)) return false;
        const double r = 1.0 / area; // one division: FP64 divides are slow on consumer GPUs
        t.db1 = glm::vec2(static_cast<float>((y2 - y0) * r), static_cast<float>((x0 - x2) * r));
        t.db2 = glm::vec2(static_cast<float>((y0 - y1) * r), static_cast<float>((x1 - x0) * r));
        return true;
    };
    if (gradients(a.pos.x, a.pos.y, b.pos.x, b.pos.y, c.pos.x, c.pos.y)) return;
    const double s = 1.0 / kSubpixelOne;
    gradients(a.p.x * s, a.p.y * s, b.p.x * s, b.p.y * s, c.p.x * s, c.p.y * s);
    // Interpolation is then relative to the snapped vertex 0.
    t.origin = glm::vec2(static_cast<float>(a.p.x * s), static_cast<float>(a.p.y * s));
}

// The three edge values at the centre of pixel (x, y); weight i belongs to vertex i.
struct EdgeValues {
    std::int64_t w[3];
};

FACET_HD EdgeValues edgeValues(const ScreenTriangle& t, int x, int y) {
    const FixedPoint2 p{pixelCentreFixed(x), pixelCentreFixed(y)};
    return EdgeValues{{edgeFunction(t.v[1].p, t.v[2].p, p), edgeFunction(t.v[2].p, t.v[0].p, p),
                       edgeFunction(t.v[0].p, t.v[1].p, p)}};
}

FACET_HD bool covers(const ScreenTriangle& t, const EdgeValues& e) {
    return e.w[0] + t.bias[0] > 0 && e.w[1] + t.bias[1] > 0 && e.w[2] + t.bias[2] > 0;
}

// Whether the triangle with corners p0, p1, p2, ordered so the interior is positive, covers the
// centre of pixel (x, y): covers(t, edgeValues(t, x, y)) for corners not yet copied into a
// ScreenTriangle, with the fill rule's biases worked out on the spot.
FACET_HD bool coversCentre(FixedPoint2 p0, FixedPoint2 p1, FixedPoint2 p2, int x, int y) {
    const FixedPoint2 p{pixelCentreFixed(x), pixelCentreFixed(y)};
    // `&`, not `&&`: all three are cheap, and a short cut was a branch on data, often mispredicted.
    return (unsigned(edgeFunction(p1, p2, p) + fillRuleBias(p1, p2) > 0) &
            unsigned(edgeFunction(p2, p0, p) + fillRuleBias(p2, p0) > 0) &
            unsigned(edgeFunction(p0, p1, p) + fillRuleBias(p0, p1) > 0)) != 0u;
}

// setupTriangle's triangle, for a coverage test: its corners ordered so the interior is positive
// (`area`, edgeFunction(a.p, b.p, c.p), not 0, says which way round they are), a's exact
// position as the origin and the fill rule's biases.
FACET_HD void orientTriangle(const ScreenVertex& a, const ScreenVertex& b, const ScreenVertex& c, std::int64_t area,
                             ScreenTriangle& tri) {
    tri.v[0] = a;
    tri.v[1] = area > 0 ? b : c;
    tri.v[2] = area > 0 ? c : b;
    tri.origin = a.pos;
    tri.bias[0] = static_cast<std::uint8_t>(fillRuleBias(tri.v[1].p, tri.v[2].p));
    tri.bias[1] = static_cast<std::uint8_t>(fillRuleBias(tri.v[2].p, tri.v[0].p));
    tri.bias[2] = static_cast<std::uint8_t>(fillRuleBias(tri.v[0].p, tri.v[1].p));
}

// Why setupTriangle refused a triangle.
enum class SetupResult { Ok, Degenerate, Culled, Offscreen, Uncovered };

// setupTriangle's rest, for a triangle with pixel centres in its bounds, whose first is (x, y)
// (given as values, not read back from `tri`: GCC merged two such reads into one 64-bit load of
// two 32-bit fields just stored, which the store buffer cannot forward, a stall in every
// set-up). `missable`: its bounds hold that one centre only, and it is refused if it misses
// it, so covers none. Most of a very dense mesh's triangles hold one centre at most, and would
// otherwise cost a set-up, a bin and a walk each for nothing; they are refused before the
// corners are copied. Bounds holding more are left to the walk: testing up to 2x2 centres so
// cost more than it saved on a mesh whose triangles mostly cover a centre (facet-bench's
// grid_1m).
FACET_HD SetupResult setupInBounds(const ScreenVertex& a, const ScreenVertex& b, const ScreenVertex& c,
                                   std::int64_t area, ScreenTriangle& tri, TriangleAttributes* attributes,
                                   bool gradients, bool missable, int x, int y) {
    const ScreenVertex& second = area > 0 ? b : c; // the corners in orientTriangle's order
    const ScreenVertex& third = area > 0 ? c : b;
    if (missable && !coversCentre(a.p, second.p, third.p, x, y)) return SetupResult::Uncovered;
    orientTriangle(a, b, c, area, tri);
    if (attributes) { // member by member: GCC built a whole TriangleAttributes on the stack, then copied it
        attributes->v[0] = a.attributes;
        attributes->v[1] = second.attributes;
        attributes->v[2] = third.attributes;
    }
    // Last: most triangles of a dense mesh cover no pixel centre, and this is the costly part.
    if (gradients) barycentricGradients(tri, a, second, third);
    return SetupResult::Ok;
}

// The scalar lanes of axisBounds (the CPU's lane types have their own, cpu/simd/quad_coverage.h).
FACET_HD std::int32_t laneMin(std::int32_t x, std::int32_t y) { return glm::min(x, y); }
FACET_HD std::int32_t laneMax(std::int32_t x, std::int32_t y) { return glm::max(x, y); }

// A triangle's pixel-centre bounds on one axis, as setupTriangle finds them: its snapped
// corners' extent grown by the sample reach, the first and last pixel centres within that,
// and those clamped to the target's [0, last]. For one triangle (I = std::int32_t) or lanes of
// triangles (the CPU's set-up front, eight in AVX2 lanes), with the same operations. Per axis,
// without arrays, so that the host compiler keeps every value in a register.
template <class I> struct AxisBounds {
    I first, last; // the first and last centres, unclamped
    I min, max;    // clamped to the target
    I extent;      // the corners' extent (hi - lo), for `small`
};

template <class I> FACET_HD_INLINED AxisBounds<I> axisBounds(I p0, I p1, I p2, I reach, I last) {
    // First centre >= lo: ceil((lo - half) / one); last centre <= hi: floor((hi - half) / one),
    // each a floor division by the power of two kSubpixelOne, an arithmetic shift.
    static_assert((-1 >> 1) == -1, "the bounds' floor division needs an arithmetic right shift");
    const I lo = laneMin(p0, laneMin(p1, p2)), hi = laneMax(p0, laneMax(p1, p2));
    const I first = (lo - reach + I(kSubpixelOne - 1 - kSubpixelOne / 2)) >> kSubpixelBits;
    const I lastCentre = (hi + reach - I(kSubpixelOne / 2)) >> kSubpixelBits;
    return AxisBounds<I>{first, lastCentre, laneMax(first, I(0)), laneMin(lastCentre, last), hi - lo};
}

// Orients the triangle, applies back-face culling (front faces are counter-clockwise in
// OpenGL's y-up window coordinates, i.e. negative area on our y-down screen) and computes
// pixel bounds. Pixel i is a candidate when its centre lies within the snapped bounds grown by
// `sampleReach` (core/multisample.h's, for the sample count), which then hold every pixel with
// a sample inside them: the samples lie within that reach of their pixel's centre. With one
// sample (reach 0), a triangle whose bounds hold one centre and which misses it is refused
// (setupInBounds).
// Without `gradients` the barycentric gradients are left unset: enough to know whether the
// triangle is drawn and which tiles it touches (the result is the same either way). Its
// corners' attributes, in its order, go to `attributes` where that is given. A triangle
// refused as Offscreen or Uncovered holds only its bounds: most triangles of a dense mesh stop
// there (no pixel centre between their corners, or one they miss), and are not copied
// (orientTriangle gives the rest). Inlined on the host as well, rest and all: called, it cost
// the CPU's set-up about 27 more instructions a triangle (callgrind, a 1M-triangle grid).
FACET_HD_INLINED SetupResult setupTriangle(const ScreenVertex& a, const ScreenVertex& b, const ScreenVertex& c,
                                           bool cullBackFaces, int width, int height, ScreenTriangle& tri,
                                           bool gradients = true, std::int32_t sampleReach = 0,
                                           TriangleAttributes* attributes = nullptr) {
    std::int64_t area = edgeFunction(a.p, b.p, c.p);
    if (area == 0) return SetupResult::Degenerate;
    if (cullBackFaces && area > 0) return SetupResult::Culled;

    const AxisBounds<std::int32_t> bx = axisBounds(a.p.x, b.p.x, c.p.x, sampleReach, width - 1);
    const AxisBounds<std::int32_t> by = axisBounds(a.p.y, b.p.y, c.p.y, sampleReach, height - 1);
    const int minX = bx.min, minY = by.min, maxX = bx.max, maxY = by.max;
    tri.minX = minX;
    tri.minY = minY;
    tri.maxX = maxX;
    tri.maxY = maxY;
    if (minX > maxX || minY > maxY) return SetupResult::Offscreen;
    // Both extents (not negative) are under the power of two when their OR is.
    static_assert((kSmallTriangleExtent & (kSmallTriangleExtent - 1)) == 0, "a power of two");
    tri.small = static_cast<std::uint8_t>((bx.extent | by.extent) < kSmallTriangleExtent);
    return setupInBounds(a, b, c, area, tri, attributes, gradients, sampleReach == 0 && minX == maxX && minY == maxY,
                         minX, minY);
}

// A triangle's screen-space barycentrics, for one pixel (F = float) or lanes of pixels (the
// CPU's SIMD lanes, the CUDA raster thread's quad) with the same operations in the same order.
// The triangle's values are read once, so a walk keeps them in registers.
template <class F>
struct BarycentricPlane {
    F x0, y0, db1x, db1y, db2x, db2y;

    FACET_HD explicit BarycentricPlane(const ScreenTriangle& t)
        : x0(t.origin.x), y0(t.origin.y), db1x(t.db1.x), db1y(t.db1.y), db2x(t.db2.x), db2y(t.db2.y) {}
    // Lanes of different triangles' planes.
    FACET_HD BarycentricPlane(F originX, F originY, F db1X, F db1Y, F db2X, F db2Y)
        : x0(originX), y0(originY), db1x(db1X), db1y(db1Y), db2x(db2X), db2y(db2Y) {}

    // At the centres of pixels (x, y), given as floats: px = (x + 0.5) - origin.x,
    // b1 = db1.x px + db1.y py, b0 = (1 - b1) - b2. They extrapolate outside the triangle, for
    // the helper pixels of a 2x2 quad.
    FACET_HD void at(F x, F y, F b[3]) const {
        F column[2], row[2];
        columnTerms(x, column);
        rowTerms(y, row);
        combine(column, row, b);
    }

    // `at` in three steps, for a walk that reuses the terms of a column or a row: the products
    // that depend on x alone, those on y alone, and their sums.
    FACET_HD void columnTerms(F x, F t[2]) const {
        const F px = x + F(0.5f) - x0;
        t[0] = db1x * px;
        t[1] = db2x * px;
    }
    FACET_HD void rowTerms(F y, F t[2]) const {
        const F py = y + F(0.5f) - y0;
        t[0] = db1y * py;
        t[1] = db2y * py;
    }
    FACET_HD static void combine(const F column[2], const F row[2], F b[3]) {
        b[1] = column[0] + row[0];
        b[2] = column[1] + row[1];
        b[0] = F(1.0f) - b[1] - b[2];
    }
};

FACET_HD glm::vec3 barycentrics(const ScreenTriangle& t, int x, int y) {
    float b[3];
    BarycentricPlane<float>(t).at(static_cast<float>(x), static_cast<float>(y), b);
    return {b[0], b[1], b[2]};
}

// b0 a0 + b1 a1 + b2 a2, left to right: one attribute at one pixel or lanes of them.
template <class F>
FACET_HD F interpolate(const F b[3], F a0, F a1, F a2) {
    return b[0] * a0 + b[1] * a1 + b[2] * a2;
}

FACET_HD float interpolateDepth(const ScreenTriangle& t, glm::vec3 b) {
    const float bs[3] = {b.x, b.y, b.z};
    return interpolate(bs, t.v[0].depth, t.v[1].depth, t.v[2].depth);
}

FACET_HD float interpolateInvW(const TriangleAttributes& t, glm::vec3 b) {
    const float bs[3] = {b.x, b.y, b.z};
    return interpolate(bs, t.v[0].invW, t.v[1].invW, t.v[2].invW);
}

FACET_HD glm::vec2 interpolateUv(const TriangleAttributes& t, glm::vec3 b, float invW) {
    return (b.x * t.v[0].uvOverW + b.y * t.v[1].uvOverW + b.z * t.v[2].uvOverW) / invW;
}

FACET_HD glm::vec3 interpolateNormal(const TriangleAttributes& t, glm::vec3 b, float invW) {
    return (b.x * t.v[0].nOverW + b.y * t.v[1].nOverW + b.z * t.v[2].nOverW) / invW;
}

} // namespace facet
