#include "cpu/triangle/set_up_front.h"

#include "cpu/simd/quad_coverage.h"

#include <immintrin.h>

#include <limits>

namespace facet {
namespace {

// A projected vertex in 4-byte units; its snapped position (TriangleCorner::p, first in the
// first base) is its units 0 and 1.
constexpr int kVertexUnits = int(sizeof(ScreenVertex) / 4);
static_assert(sizeof(ScreenVertex) % 4 == 0, "the gathers index projected vertices in 4-byte units");

// Bit k of a mask of eight 32-bit lanes: lane k's top bit.
inline std::uint32_t bitsOf(__m256i lanes) {
    return static_cast<std::uint32_t>(_mm256_movemask_ps(_mm256_castsi256_ps(lanes)));
}

// 64-bit products of 32-bit lanes, those of the even lanes and those of the odd ones.
struct Products {
    __m256i even, odd;
};

inline Products multiply(__m256i u, __m256i v) {
    return {_mm256_mul_epi32(u, v), _mm256_mul_epi32(_mm256_srli_epi64(u, 32), _mm256_srli_epi64(v, 32))};
}

// The bits of 64-bit comparisons of the even and the odd lanes, back in lane order (a table, not
// pdep, which some AMD CPUs run in microcode).
inline std::uint32_t interleaved(__m256i even, __m256i odd) {
    static constexpr std::uint8_t kSpread[16] = {0x00, 0x01, 0x04, 0x05, 0x10, 0x11, 0x14, 0x15,
                                                 0x40, 0x41, 0x44, 0x45, 0x50, 0x51, 0x54, 0x55};
    const auto bits = [](__m256i m) { return _mm256_movemask_pd(_mm256_castsi256_pd(m)); };
    return std::uint32_t(kSpread[bits(even)]) | std::uint32_t(kSpread[bits(odd)]) << 1;
}

// 64-bit values of the even and the odd lanes, stored in lane order.
inline void storeInOrder(__m256i even, __m256i odd, std::int64_t (&to)[8]) {
    const __m256i low = _mm256_unpacklo_epi64(even, odd), high = _mm256_unpackhi_epi64(even, odd); // 0 1 4 5, 2 3 6 7
    _mm256_store_si256(reinterpret_cast<__m256i*>(to), _mm256_permute2x128_si256(low, high, 0x20));
    _mm256_store_si256(reinterpret_cast<__m256i*>(to + 4), _mm256_permute2x128_si256(low, high, 0x31));
}

// The eight triangles' corners (snapped positions, where all three are inside every plane).
struct Corners {
    lanes::I32x8 x[3], y[3];
};

// Whether each lane's edge a -> b covers pixel centre (px, py) (coversCentre's terms), in 32
// bits: exact for a triangle whose bounds hold one centre unclamped, its corners then within
// a pixel of it (setupFront8).
inline __m256i edgeCovers(__m256i ax, __m256i ay, __m256i bx, __m256i by, __m256i px, __m256i py) {
    const __m256i dx = _mm256_sub_epi32(bx, ax), dy = _mm256_sub_epi32(by, ay), zero = _mm256_setzero_si256();
    const __m256i value = _mm256_sub_epi32(_mm256_mullo_epi32(dx, _mm256_sub_epi32(py, ay)),
                                           _mm256_mullo_epi32(dy, _mm256_sub_epi32(px, ax)));
    // fillRuleBias as a mask (-1 for 1): dy < 0, or dy == 0 and dx < 0.
    const __m256i bias = _mm256_or_si256(_mm256_cmpgt_epi32(zero, dy),
                                         _mm256_and_si256(_mm256_cmpeq_epi32(dy, zero), _mm256_cmpgt_epi32(zero, dx)));
    return _mm256_cmpgt_epi32(_mm256_sub_epi32(value, bias), zero);
}

// coversCentre for each lane's corners in orientTriangle's order (a, then b and c swapped
// where the area is not positive) and the centre of pixel (x, y).
inline std::uint32_t coverCentres(const Corners& c, std::uint32_t positive, __m256i x, __m256i y) {
    const __m256i swap = lanes::laneMask8(~positive);
    const __m256i sx = _mm256_blendv_epi8(c.x[1].v, c.x[2].v, swap), sy = _mm256_blendv_epi8(c.y[1].v, c.y[2].v, swap);
    const __m256i tx = _mm256_blendv_epi8(c.x[2].v, c.x[1].v, swap), ty = _mm256_blendv_epi8(c.y[2].v, c.y[1].v, swap);
    const __m256i half = _mm256_set1_epi32(kSubpixelOne / 2);
    const __m256i px = _mm256_add_epi32(_mm256_slli_epi32(x, kSubpixelBits), half);
    const __m256i py = _mm256_add_epi32(_mm256_slli_epi32(y, kSubpixelBits), half);
    return bitsOf(_mm256_and_si256(
        _mm256_and_si256(edgeCovers(sx, sy, tx, ty, px, py), edgeCovers(tx, ty, c.x[0].v, c.y[0].v, px, py)),
        edgeCovers(c.x[0].v, c.y[0].v, sx, sy, px, py)));
}

// What the front decides from the corners' clip flags: the triangles inside every plane, and
// those to clip (crossing one, all corners finite).
struct ClipFlags {
    std::uint32_t inside, clip;
    __m256i insideLanes;
};

ClipFlags clipFlags(const TriangleStageInput& in, const __m256i (&corner)[3]) {
    const int* flags = reinterpret_cast<const int*>(in.outside);
    const __m256i byte = _mm256_set1_epi32(0xff), zero = _mm256_setzero_si256();
    __m256i all = byte, any = zero;
    for (int c = 0; c < 3; ++c) {
        const __m256i out = _mm256_and_si256(_mm256_i32gather_epi32(flags, corner[c], 1), byte);
        all = _mm256_and_si256(all, out);
        any = _mm256_or_si256(any, out);
    }
    const __m256i insideLanes = _mm256_cmpeq_epi32(any, zero);
    const std::uint32_t inside = bitsOf(insideLanes);
    const std::uint32_t finite =
        bitsOf(_mm256_cmpeq_epi32(_mm256_and_si256(any, _mm256_set1_epi32(kNonFiniteVertex)), zero));
    return {inside, finite & bitsOf(_mm256_cmpeq_epi32(all, zero)) & ~inside, insideLanes};
}

// The eight triangles' corner c's indices, corner[c], from their 24 indices: each a blend of the
// three vectors that hold them (lane sets that do not overlap), put in order.
void cornerIndices(const std::uint32_t* indices, __m256i (&corner)[3]) {
    const __m256i* at = reinterpret_cast<const __m256i*>(indices);
    const __m256i a = _mm256_loadu_si256(at), b = _mm256_loadu_si256(at + 1), c = _mm256_loadu_si256(at + 2);
    corner[0] = _mm256_permutevar8x32_epi32(_mm256_blend_epi32(_mm256_blend_epi32(a, b, 0x92), c, 0x24),
                                            _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5));
    corner[1] = _mm256_permutevar8x32_epi32(_mm256_blend_epi32(_mm256_blend_epi32(a, b, 0x24), c, 0x49),
                                            _mm256_setr_epi32(1, 4, 7, 2, 5, 0, 3, 6));
    corner[2] = _mm256_permutevar8x32_epi32(_mm256_blend_epi32(_mm256_blend_epi32(a, b, 0x49), c, 0x92),
                                            _mm256_setr_epi32(2, 5, 0, 3, 6, 1, 4, 7));
}

// The corners' snapped positions, gathered where all three are inside every plane (only those
// vertices were projected).
Corners gatherCorners(const TriangleStageInput& in, const __m256i (&corner)[3], __m256i insideLanes) {
    Corners v;
    const int* projected = reinterpret_cast<const int*>(in.projected);
    for (int c = 0; c < 3; ++c) {
        const __m256i at = _mm256_mullo_epi32(corner[c], _mm256_set1_epi32(kVertexUnits));
        v.x[c].v = _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), projected, at, insideLanes, 4);
        v.y[c].v = _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), projected + 1, at, insideLanes, 4);
    }
    return v;
}

// edgeFunction(a, b, c) of each lane's corners into `area`; which are 0 and which positive,
// from its two products compared.
struct AreaSigns {
    std::uint32_t zero, positive;
};

AreaSigns areas(const Corners& v, std::int64_t (&area)[8]) {
    const Products p = multiply((v.x[1] - v.x[0]).v, (v.y[2] - v.y[0]).v);
    const Products q = multiply((v.y[1] - v.y[0]).v, (v.x[2] - v.x[0]).v);
    storeInOrder(_mm256_sub_epi64(p.even, q.even), _mm256_sub_epi64(p.odd, q.odd), area);
    return {interleaved(_mm256_cmpeq_epi64(p.even, q.even), _mm256_cmpeq_epi64(p.odd, q.odd)),
            interleaved(_mm256_cmpgt_epi64(p.even, q.even), _mm256_cmpgt_epi64(p.odd, q.odd))};
}

// The eight triangles' centre bounds on the two axes (setupTriangle's: axisBounds), and what the
// front asks of them.
struct Bounds8 {
    AxisBounds<lanes::I32x8> axis[2]; // x, y
};

Bounds8 boundsOf(const Corners& v, const TriangleStageInput& in) {
    const lanes::I32x8 reach(in.sampleReach);
    return {{axisBounds(v.x[0], v.x[1], v.x[2], reach, lanes::I32x8(in.width - 1)),
             axisBounds(v.y[0], v.y[1], v.y[2], reach, lanes::I32x8(in.height - 1))}};
}

// Lanes whose bounds hold no pixel centre in the target.
std::uint32_t offscreen(const Bounds8& b) {
    const auto none = [&b](int a) { return _mm256_cmpgt_epi32(b.axis[a].min.v, b.axis[a].max.v); };
    return bitsOf(_mm256_or_si256(none(0), none(1)));
}

// Lanes whose bounds hold one centre.
std::uint32_t oneCentre(const Bounds8& b) {
    const auto one = [&b](int a) { return _mm256_cmpeq_epi32(b.axis[a].min.v, b.axis[a].max.v); };
    return bitsOf(_mm256_and_si256(one(0), one(1)));
}

// Lanes whose bounds the target cut.
std::uint32_t clamped(const Bounds8& b) {
    const auto cut = [&b](int a) {
        const AxisBounds<lanes::I32x8>& axis = b.axis[a];
        return _mm256_or_si256(_mm256_cmpgt_epi32(axis.min.v, axis.first.v),
                               _mm256_cmpgt_epi32(axis.last.v, axis.max.v));
    };
    return bitsOf(_mm256_or_si256(cut(0), cut(1)));
}

} // namespace

bool setupFrontFits(const TriangleStageInput& in) {
    return in.mesh.vertexCount <= std::uint32_t(std::numeric_limits<std::int32_t>::max() / kVertexUnits);
}

// setupMeshTriangleIn's and setupTriangle's decisions, in their order, for the eight triangles.
SetupFront8 setupFront8(const TriangleStageInput& in, std::uint32_t first) {
    SetupFront8 front;
    __m256i corner[3];
    cornerIndices(in.mesh.indices + 3 * std::size_t(first), corner);
    const ClipFlags flags = clipFlags(in, corner);
    front.scalar = flags.clip;
    if (flags.inside == 0) return front;
    const Corners v = gatherCorners(in, corner, flags.insideLanes);
    const AreaSigns area = areas(v, front.area);
    const Bounds8 bounds = boundsOf(v, in);
    const AxisBounds<lanes::I32x8>& bx = bounds.axis[0];
    const AxisBounds<lanes::I32x8>& by = bounds.axis[1];
    _mm256_store_si256(reinterpret_cast<__m256i*>(front.minX), bx.min.v);
    _mm256_store_si256(reinterpret_cast<__m256i*>(front.minY), by.min.v);
    _mm256_store_si256(reinterpret_cast<__m256i*>(front.maxX), bx.max.v);
    _mm256_store_si256(reinterpret_cast<__m256i*>(front.maxY), by.max.v);
    front.small = bitsOf(_mm256_cmpgt_epi32(_mm256_set1_epi32(kSmallTriangleExtent), (bx.extent | by.extent).v));
    const std::uint32_t live =
        flags.inside & ~area.zero & (in.cullBackFaces ? ~area.positive : ~0u) & ~offscreen(bounds) & 0xffu;
    // One centre in bounds: refused if it misses it. Where the target cut the bounds, the
    // corners may lie far from that centre, beyond 32-bit products: left to the scalar set-up.
    const std::uint32_t missable = in.sampleReach == 0 ? oneCentre(bounds) & live : 0u;
    if (missable == 0) {
        front.ready = live;
        return front;
    }
    const std::uint32_t cut = clamped(bounds);
    const std::uint32_t covered = coverCentres(v, area.positive, bx.min.v, by.min.v);
    front.ready = live & ~(missable & (cut | ~covered));
    front.scalar |= missable & cut;
    return front;
}

} // namespace facet
