#include "cpu/project.h"

#include "cpu/isa.h"

#include <immintrin.h>

#include <algorithm>

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

// Eight (x, y, z) rows in three registers to x, y and z columns and back: one blend picks each
// column's lanes from the three registers (lanes 0, 3, 6 of one, 1, 4, 7 of the next, 2, 5 of
// the last, rotating), one permutation puts them in order.
struct RowShuffle {
    __m256i xOrder = _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5);
    __m256i yOrder = _mm256_setr_epi32(1, 4, 7, 2, 5, 0, 3, 6);
    __m256i zOrder = _mm256_setr_epi32(2, 5, 0, 3, 6, 1, 4, 7);
    __m256i yBack = _mm256_setr_epi32(5, 0, 3, 6, 1, 4, 7, 2);
};

// Lanes 0, 3, 6 from a, 1, 4, 7 from b, 2, 5 from c.
inline __m256 pick(__m256 a, __m256 b, __m256 c) { return _mm256_blend_ps(_mm256_blend_ps(a, b, 0x92), c, 0x24); }

void splitRows(const float* rows, std::size_t n, float* x, float* y, float* z) {
    const RowShuffle s;
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 a = _mm256_loadu_ps(rows + 3 * i), b = _mm256_loadu_ps(rows + 3 * i + 8),
                     c = _mm256_loadu_ps(rows + 3 * i + 16);
        _mm256_storeu_ps(x + i, _mm256_permutevar8x32_ps(pick(a, b, c), s.xOrder));
        _mm256_storeu_ps(y + i, _mm256_permutevar8x32_ps(pick(c, a, b), s.yOrder));
        _mm256_storeu_ps(z + i, _mm256_permutevar8x32_ps(pick(b, c, a), s.zOrder));
    }
    for (; i < n; ++i) x[i] = rows[3 * i], y[i] = rows[3 * i + 1], z[i] = rows[3 * i + 2];
}

void joinRows(const float* x, const float* y, const float* z, std::size_t n, float* rows) {
    const RowShuffle s;
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 tx = _mm256_permutevar8x32_ps(_mm256_loadu_ps(x + i), s.xOrder);
        const __m256 ty = _mm256_permutevar8x32_ps(_mm256_loadu_ps(y + i), s.yBack);
        const __m256 tz = _mm256_permutevar8x32_ps(_mm256_loadu_ps(z + i), s.zOrder);
        _mm256_storeu_ps(rows + 3 * i, pick(tx, ty, tz));
        _mm256_storeu_ps(rows + 3 * i + 8, pick(tz, tx, ty));
        _mm256_storeu_ps(rows + 3 * i + 16, pick(ty, tz, tx));
    }
    for (; i < n; ++i) rows[3 * i] = x[i], rows[3 * i + 1] = y[i], rows[3 * i + 2] = z[i];
}

} // namespace

void projectVertexRows(const ProjectParams& params, std::size_t begin, std::size_t end) {
    constexpr std::size_t kChunk = 256; // six columns of it stay in L1
    alignas(64) float columns[6][kChunk];
    ProjectParams p = params;
    p.px = columns[0], p.py = columns[1], p.pz = columns[2], p.x = columns[3], p.y = columns[4], p.z = columns[5];
    for (std::size_t first = begin; first < end; first += kChunk) {
        const std::size_t count = std::min(kChunk, end - first);
        splitRows(params.px + 3 * first, count, columns[0], columns[1], columns[2]);
        projectVertices(p, 0, count);
        joinRows(columns[3], columns[4], columns[5], count, params.x + 3 * first);
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

__attribute__((optimize("no-tree-vectorize"))) void projectVerticesScalar(const ProjectParams& params,
                                                                          std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) projectThread(params, static_cast<std::uint32_t>(i));
}

} // namespace facet
