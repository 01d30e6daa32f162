#include "bench/project.h"
#include "core/hd.h"

#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cstdint>

namespace facet {

namespace {

// projectThread's arithmetic as a loop over restrict-qualified parameters (GCC 12 does not
// vectorise through restrict locals copied from a struct), inlined into each target below.
inline void projectLoop(const float* __restrict px, const float* __restrict py, const float* __restrict pz,
                        float* __restrict ox, float* __restrict oy, float* __restrict oz, const ProjectParams& p,
                        std::uint32_t begin, std::uint32_t end) {
    const glm::mat3& r = p.rotation;
    const float ex = p.eye.x, ey = p.eye.y, ez = p.eye.z, focus = p.focus;
    const float r00 = r[0][0], r01 = r[1][0], r02 = r[2][0];
    const float r10 = r[0][1], r11 = r[1][1], r12 = r[2][1];
    const float r20 = r[0][2], r21 = r[1][2], r22 = r[2][2];
    for (std::uint32_t i = begin; i < end; ++i) {
        const float sx = px[i] - ex, sy = py[i] - ey, sz = pz[i] - ez;
        const float dx = r00 * sx + r01 * sy + r02 * sz;
        const float dy = r10 * sx + r11 * sy + r12 * sz;
        const float dz = r20 * sx + r21 * sy + r22 * sz;
        const float k = focus / absolute(dz);
        ox[i] = dx * k;
        oy[i] = dy * k;
        oz[i] = dz;
    }
}

inline void projectRange(const ProjectParams& p, std::uint32_t begin, std::uint32_t end) {
    projectLoop(p.px, p.py, p.pz, p.x, p.y, p.z, p, begin, end);
}

__attribute__((target("avx512f,avx512vl"))) void projectAvx512(const ProjectParams& p, std::uint32_t b,
                                                               std::uint32_t e) {
    projectRange(p, b, e);
}

void projectAvx2(const ProjectParams& p, std::uint32_t b, std::uint32_t e) { projectRange(p, b, e); }

// projectPoint's arithmetic on registers of x, y and z columns (__m256 or __m512, on which GCC
// defines +, -, * and / lane by lane, a float operand standing for all lanes): the same
// operations in the same order, so every path rounds as the per-thread function does.
// Always inlined, so it is compiled for the instruction set of the function it is used in.
template <class V> [[gnu::always_inline]] inline void projectLanes(const ProjectParams& p, V& x, V& y, V& z) {
    typedef std::int32_t Bits __attribute__((vector_size(sizeof(V))));
    const glm::mat3& r = p.rotation;
    const V sx = x - p.eye.x, sy = y - p.eye.y, sz = z - p.eye.z;
    const V dx = r[0][0] * sx + r[1][0] * sy + r[2][0] * sz;
    const V dy = r[0][1] * sx + r[1][1] * sy + r[2][1] * sz;
    const V dz = r[0][2] * sx + r[1][2] * sy + r[2][2] * sz;
    const V k = p.focus / reinterpret_cast<V>(reinterpret_cast<Bits>(dz) & 0x7fffffff); // |dz|, as fabsf
    x = dx * k;
    y = dy * k;
    z = dz;
}

// The scalar path over rows, one vertex at a time (FACET_ISA=scalar), and the AVX2 path's tail.
FACET_NOT_VECTORIZED void projectRowsScalar(const ProjectParams& p, const float* in, float* out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        const glm::vec3 o = projectPoint(p, {in[3 * i], in[3 * i + 1], in[3 * i + 2]});
        out[3 * i] = o.x, out[3 * i + 1] = o.y, out[3 * i + 2] = o.z;
    }
}

// AVX2: eight (x, y, z) rows in three registers to x, y and z columns and back: one blend picks
// each column's lanes from the three registers (lanes 0, 3, 6 of one, 1, 4, 7 of the next, 2, 5
// of the last, rotating), one permutation puts them in order.
struct RowShuffle {
    __m256i xOrder = _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5);
    __m256i yOrder = _mm256_setr_epi32(1, 4, 7, 2, 5, 0, 3, 6);
    __m256i zOrder = _mm256_setr_epi32(2, 5, 0, 3, 6, 1, 4, 7);
    __m256i yBack = _mm256_setr_epi32(5, 0, 3, 6, 1, 4, 7, 2);
};

// Lanes 0, 3, 6 from a, 1, 4, 7 from b, 2, 5 from c.
inline __m256 pick(__m256 a, __m256 b, __m256 c) { return _mm256_blend_ps(_mm256_blend_ps(a, b, 0x92), c, 0x24); }

void projectRowsAvx2(const ProjectParams& params, const float* in, float* out, std::size_t n) {
    const ProjectParams p = params; // which the stores cannot change: its numbers stay in registers
    const RowShuffle s;
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 a = _mm256_loadu_ps(in + 3 * i), b = _mm256_loadu_ps(in + 3 * i + 8),
                     c = _mm256_loadu_ps(in + 3 * i + 16);
        __m256 x = _mm256_permutevar8x32_ps(pick(a, b, c), s.xOrder);
        __m256 y = _mm256_permutevar8x32_ps(pick(c, a, b), s.yOrder);
        __m256 z = _mm256_permutevar8x32_ps(pick(b, c, a), s.zOrder);
        projectLanes(p, x, y, z);
        x = _mm256_permutevar8x32_ps(x, s.xOrder);
        y = _mm256_permutevar8x32_ps(y, s.yBack);
        z = _mm256_permutevar8x32_ps(z, s.zOrder);
        _mm256_storeu_ps(out + 3 * i, pick(x, y, z));
        _mm256_storeu_ps(out + 3 * i + 8, pick(z, x, y));
        _mm256_storeu_ps(out + 3 * i + 16, pick(y, z, x));
    }
    projectRowsScalar(p, in + 3 * i, out + 3 * i, n - i);
}

// AVX-512: sixteen rows are three registers, 48 floats; row element f = 3 r + c (row r, column
// c) is lane f % 16 of register f / 16. Each column is gathered by two two-register
// permutations (the first takes what lies in the first two registers, the second the rest from
// the third), into a lane order that lets the z column go back without any: lane l holds row
// rowOf(l), rows 0-5 in lanes 0, 3, ..., 15, rows 6-10 in lanes 1, 4, ..., 13 and rows 11-15 in
// lanes 2, 5, ..., 14, so a masked store of the z register's lanes 3k + g at float
// kGroupOffset[g] + 2 puts each z where it belongs. x and y go back by one permutation per
// register, stored where they belong (the z floats masked off): nine permutations rather than
// twelve, on the one port they share with half the arithmetic. (Gathering the columns the same
// way, by masked loads at those offsets, measured a third slower: most straddle two lines.)
using Lanes16 = std::array<std::int32_t, 16>;

constexpr int rowOf(int lane) { return lane % 3 == 0 ? lane / 3 : lane % 3 == 1 ? 6 + lane / 3 : 11 + lane / 3; }
constexpr int laneOf(int row) { return row < 6 ? 3 * row : row < 11 ? 1 + 3 * (row - 6) : 2 + 3 * (row - 11); }
constexpr int kGroupOffset[3] = {0, 17, 31};                  // 3 rowOf(g) - g
constexpr unsigned kGroupLanes[3] = {0x9249, 0x2492, 0x4924}; // lanes 3k, 3k + 1, 3k + 2

// Column c: first from registers 0 and 1 (lane indices 0-31), then lanes kept or from 2.
constexpr Lanes16 splitFirst(int c) {
    Lanes16 l{};
    for (int lane = 0; lane < 16; ++lane) l[lane] = 3 * rowOf(lane) + c < 32 ? 3 * rowOf(lane) + c : 0;
    return l;
}
constexpr Lanes16 splitSecond(int c) {
    Lanes16 l{};
    for (int lane = 0; lane < 16; ++lane) l[lane] = 3 * rowOf(lane) + c < 32 ? lane : 3 * rowOf(lane) + c - 16;
    return l;
}
// Register g's x lanes from the x column (0-15) and y lanes from the y column (16-31).
constexpr Lanes16 joinXy(int g) {
    Lanes16 l{};
    for (int lane = 0; lane < 16; ++lane) {
        const int f = 16 * g + lane;
        l[lane] = (f % 3 == 1 ? 16 : 0) + laneOf(f / 3);
    }
    return l;
}

// For each count of rows (0-16), the lanes holding rows below it.
constexpr std::array<unsigned, 17> rowLanes() {
    std::array<unsigned, 17> lanes{};
    for (unsigned count = 0; count <= 16; ++count)
        for (int lane = 0; lane < 16; ++lane) lanes[count] |= unsigned(unsigned(rowOf(lane)) < count) << lane;
    return lanes;
}
// Register g's x and y floats.
constexpr unsigned xyFloats(int g) {
    unsigned floats = 0;
    for (int lane = 0; lane < 16; ++lane) floats |= unsigned((16 * g + lane) % 3 != 2) << lane;
    return floats;
}

struct RowTranspose {
    static constexpr std::array<unsigned, 17> rowsBelow = rowLanes();
    static constexpr unsigned xy[3] = {xyFloats(0), xyFloats(1), xyFloats(2)};
    static constexpr Lanes16 split[2][3] = {{splitFirst(0), splitFirst(1), splitFirst(2)},
                                            {splitSecond(0), splitSecond(1), splitSecond(2)}};
    static constexpr Lanes16 join[3] = {joinXy(0), joinXy(1), joinXy(2)};
};

#define FACET_AVX512 __attribute__((target("avx512f,avx512vl")))

FACET_AVX512 inline __m512i lanes(const Lanes16& l) { return _mm512_loadu_si512(l.data()); }

// Up to sixteen rows, `count` of them (no float past them is read or written).
FACET_AVX512 inline void projectSixteen(const ProjectParams& p, const float* in, float* out, unsigned count,
                                        const __m512i (&split)[2][3], const __m512i (&join)[3]) {
    const unsigned floats = 3 * count;
    const auto below = [&](unsigned g) { // register g's floats below 3 count
        const unsigned n = floats > 16 * g ? std::min(floats - 16 * g, 16u) : 0u;
        return (1u << n) - 1u;
    };
    const unsigned rows = RowTranspose::rowsBelow[count]; // the lanes of rows below count
    const __m512 a = _mm512_maskz_loadu_ps(__mmask16(below(0)), in),
                 b = _mm512_maskz_loadu_ps(__mmask16(below(1)), in + 16),
                 c = _mm512_maskz_loadu_ps(__mmask16(below(2)), in + 32);
    __m512 column[3];
    for (int k = 0; k < 3; ++k)
        column[k] = _mm512_permutex2var_ps(_mm512_permutex2var_ps(a, split[0][k], b), split[1][k], c);
    projectLanes(p, column[0], column[1], column[2]);
    for (unsigned g = 0; g < 3; ++g) {
        _mm512_mask_storeu_ps(out + 16 * g, __mmask16(RowTranspose::xy[g] & below(g)),
                              _mm512_permutex2var_ps(column[0], join[g], column[1]));
        _mm512_mask_storeu_ps(out + kGroupOffset[g] + 2, __mmask16(kGroupLanes[g] & rows), column[2]);
    }
}

FACET_AVX512 void projectRowsAvx512(const ProjectParams& p, const float* in, float* out, std::size_t n) {
    __m512i split[2][3], join[3];
    for (int k = 0; k < 3; ++k)
        split[0][k] = lanes(RowTranspose::split[0][k]), split[1][k] = lanes(RowTranspose::split[1][k]),
        join[k] = lanes(RowTranspose::join[k]);
    const ProjectParams local = p; // which the stores cannot change: its numbers stay in registers
    // Sixteen rows are three cache lines: after a head of up to fifteen rows, the loads start
    // where a line does and none straddles two (which made the loop a fifth slower, in L1).
    std::size_t i = 0;
    const auto address = reinterpret_cast<std::uintptr_t>(in);
    if (n >= 32 && address % 4 == 0) { // a head costs more than the straddling loads of a block or two
        i = (0u - address / 4 * 11u) % 16u; // 3 i + address / 4 = 0 (mod 16), as 3 * 11 = 1 (mod 16)
        if (i > 0) projectSixteen(local, in, out, unsigned(i), split, join);
    }
    for (; i + 16 <= n; i += 16) projectSixteen(local, in + 3 * i, out + 3 * i, 16, split, join);
    if (i < n) projectSixteen(local, in + 3 * i, out + 3 * i, unsigned(n - i), split, join);
}

#undef FACET_AVX512

} // namespace

void projectVertexRows(const ProjectParams& params, std::size_t begin, std::size_t end) {
    projectVertexRows(params, begin, end, chosenIsa());
}

void projectVertexRows(const ProjectParams& params, std::size_t begin, std::size_t end, Isa isa) {
    const float* in = params.px + 3 * begin;
    float* out = params.x + 3 * begin;
    switch (isa) {
    case Isa::Avx512: projectRowsAvx512(params, in, out, end - begin); break;
    case Isa::Avx2: projectRowsAvx2(params, in, out, end - begin); break;
    case Isa::Scalar: projectRowsScalar(params, in, out, end - begin); break;
    }
}

void projectVertices(const ProjectParams& params, std::size_t begin, std::size_t end) {
    const auto b = static_cast<std::uint32_t>(begin), e = static_cast<std::uint32_t>(end);
    switch (chosenIsa()) {
    case Isa::Avx512: projectAvx512(params, b, e); break;
    case Isa::Avx2: projectAvx2(params, b, e); break;
    case Isa::Scalar: projectVerticesScalar(params, begin, end); break;
    }
}

FACET_NOT_VECTORIZED void projectVerticesScalar(const ProjectParams& params, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) projectThread(params, static_cast<std::uint32_t>(i));
}

} // namespace facet
