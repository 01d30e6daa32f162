// classifyVertex (core/triangle_stage.h) eight vertices at a time in AVX2 lanes: per lane the
// scalar function's float operations in the same order (separate multiplies and adds, IEEE
// divisions, truncating conversions), so the results are the same bits; the CUDA kernels and
// the tests call the scalar function itself.
#include "cpu/vertex/vertex_stage.h"

#include <cstddef>
#include <cstring>
#include <immintrin.h>

namespace facet {

namespace {

// The lanes' values of an attribute array, or zeros where the mesh has none (as
// meshClipVertex gives them).
inline __m256 loadOrZero(const float* a, std::size_t i) { return a ? _mm256_loadu_ps(a + i) : _mm256_setzero_ps(); }

// planeDistance: p.x d.x + p.y d.y + p.z d.z + p.w, left to right.
inline __m256 planeDistance8(const glm::vec4& p, __m256 x, __m256 y, __m256 z) {
    const __m256 xy = _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(p.x), x), _mm256_mul_ps(_mm256_set1_ps(p.y), y));
    return _mm256_add_ps(_mm256_add_ps(xy, _mm256_mul_ps(_mm256_set1_ps(p.z), z)), _mm256_set1_ps(p.w));
}

// snapToFixed: pixels * 256, then +-0.5 away from zero and truncated.
inline __m256i snap8(__m256 pixels) {
    const __m256 scaled = _mm256_mul_ps(pixels, _mm256_set1_ps(static_cast<float>(kSubpixelOne)));
    const __m256 half = _mm256_set1_ps(0.5f);
    const __m256 rounded = _mm256_blendv_ps(_mm256_sub_ps(scaled, half), _mm256_add_ps(scaled, half),
                                            _mm256_cmp_ps(scaled, _mm256_setzero_ps(), _CMP_GE_OQ));
    return _mm256_cvttps_epi32(rounded);
}

// ScreenVertex as storeProjections writes it: eleven 32-bit fields (p, depth, invW, uvOverW,
// nOverW, then pos), one register each.
// (ScreenVertex is not standard-layout, so its sizes say it: no padding between its parts.)
static_assert(sizeof(TriangleCorner) == 3 * sizeof(float) && offsetof(CornerAttributes, nOverW) == 3 * sizeof(float) &&
                  sizeof(CornerAttributes) == 6 * sizeof(float) && sizeof(ScreenVertex) == 11 * sizeof(float),
              "ScreenVertex is TriangleCorner's three 32-bit fields, CornerAttributes' six, then pos");

// Eight vertices' projections, every one inside every plane, from their fields one register
// each (`f`, ScreenVertex's order, p's integers as their bits) to projected[0, 8): the first
// eight fields transposed to one register per vertex (unpack, shuffle, swap halves) and stored
// whole, the last three (nOverW.z, pos) from a transpose with a zero fourth.
inline void storeProjections(const __m256 (&f)[11], ScreenVertex* projected) {
    const __m256 a0 = _mm256_unpacklo_ps(f[0], f[1]), a1 = _mm256_unpackhi_ps(f[0], f[1]);
    const __m256 a2 = _mm256_unpacklo_ps(f[2], f[3]), a3 = _mm256_unpackhi_ps(f[2], f[3]);
    const __m256 a4 = _mm256_unpacklo_ps(f[4], f[5]), a5 = _mm256_unpackhi_ps(f[4], f[5]);
    const __m256 a6 = _mm256_unpacklo_ps(f[6], f[7]), a7 = _mm256_unpackhi_ps(f[6], f[7]);
    // Fields 0-3 and 4-7 of vertices 0, 1, 2, 3 in lanes 0-3, of 4, 5, 6, 7 in lanes 4-7.
    const __m256 b[8] = {_mm256_shuffle_ps(a0, a2, 0x44), _mm256_shuffle_ps(a4, a6, 0x44),
                         _mm256_shuffle_ps(a0, a2, 0xEE), _mm256_shuffle_ps(a4, a6, 0xEE),
                         _mm256_shuffle_ps(a1, a3, 0x44), _mm256_shuffle_ps(a5, a7, 0x44),
                         _mm256_shuffle_ps(a1, a3, 0xEE), _mm256_shuffle_ps(a5, a7, 0xEE)};
    const __m256 zero = _mm256_setzero_ps();
    const __m256 t0 = _mm256_unpacklo_ps(f[8], f[9]), t1 = _mm256_unpackhi_ps(f[8], f[9]);
    const __m256 t2 = _mm256_unpacklo_ps(f[10], zero), t3 = _mm256_unpackhi_ps(f[10], zero);
    const __m256 tail[4] = {_mm256_shuffle_ps(t0, t2, 0x44), _mm256_shuffle_ps(t0, t2, 0xEE),
                            _mm256_shuffle_ps(t1, t3, 0x44), _mm256_shuffle_ps(t1, t3, 0xEE)};
    // The permute's selector is an immediate, so the two halves are spelled out rather than left
    // to an optimiser to unroll (an -O1 build refuses a selector it cannot see is constant).
    const auto store = [](float* to, __m256 fields, __m128 last) {
        _mm256_storeu_ps(to, fields);
        _mm_storel_pi(reinterpret_cast<__m64*>(to + 8), last);
        _mm_store_ss(to + 10, _mm_movehl_ps(last, last));
    };
    for (int k = 0; k < 4; ++k) { // vertex k (lanes 0-3) and k + 4 (lanes 4-7)
        store(reinterpret_cast<float*>(projected + k), _mm256_permute2f128_ps(b[2 * k], b[2 * k + 1], 0x20),
              _mm256_castps256_ps128(tail[k]));
        store(reinterpret_cast<float*>(projected + k + 4), _mm256_permute2f128_ps(b[2 * k], b[2 * k + 1], 0x31),
              _mm256_extractf128_ps(tail[k], 1));
    }
}

} // namespace

void classifyVertices(const MeshView& mesh, const float* dx, const float* dy, const float* dz, const ClipPlanes& planes,
                      const ViewParams& view, int width, int height, std::uint8_t* outside, ScreenVertex* projected,
                      std::size_t begin, std::size_t end) {
    const __m256 one = _mm256_set1_ps(1.0f), half = _mm256_set1_ps(0.5f), zero = _mm256_setzero_ps();
    const __m256 kx = _mm256_set1_ps(view.focus / view.aspect), ky = _mm256_set1_ps(view.focus);
    const __m256 px = _mm256_set1_ps(view.principal.x), py = _mm256_set1_ps(view.principal.y);
    const __m256 w = _mm256_set1_ps(static_cast<float>(width)), h = _mm256_set1_ps(static_cast<float>(height));
    const __m256 nearPlane = _mm256_set1_ps(view.nearPlane);
    const __m256 depthScale = _mm256_set1_ps(view.farPlane / (view.farPlane - view.nearPlane));
    std::size_t i = begin;
    for (; i + 8 <= end; i += 8) {
        const __m256 x = _mm256_loadu_ps(dx + i), y = _mm256_loadu_ps(dy + i), z = _mm256_loadu_ps(dz + i);
        // isFinite: x - x == 0.
        const __m256 finite = _mm256_and_ps(
            _mm256_and_ps(_mm256_cmp_ps(_mm256_sub_ps(x, x), zero, _CMP_EQ_OQ),
                          _mm256_cmp_ps(_mm256_sub_ps(y, y), zero, _CMP_EQ_OQ)),
            _mm256_cmp_ps(_mm256_sub_ps(z, z), zero, _CMP_EQ_OQ));
        __m256i mask = _mm256_setzero_si256();
        for (int p = 0; p < 5; ++p) {
            const __m256 out = _mm256_cmp_ps(planeDistance8(planes.plane[p], x, y, z), zero, _CMP_LT_OQ);
            mask = _mm256_or_si256(mask, _mm256_and_si256(_mm256_castps_si256(out), _mm256_set1_epi32(1 << p)));
        }
        mask = _mm256_blendv_epi8(_mm256_set1_epi32(kNonFiniteVertex), mask, _mm256_castps_si256(finite));
        alignas(32) std::int32_t masks[8];
        _mm256_store_si256(reinterpret_cast<__m256i*>(masks), mask);
        for (int k = 0; k < 8; ++k) outside[i + std::size_t(k)] = static_cast<std::uint8_t>(masks[k]);
        if (_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(mask, _mm256_setzero_si256()))) == 0)
            continue; // none inside every plane: nothing to project

        // projectVertex: perspectiveDivide, ndcToPixel, snapToFixed, windowDepth, 1 / d.z.
        const __m256 invZ = _mm256_div_ps(one, z); // perspectiveDivide's 1 / d.z, and invW
        const __m256 ndcX = _mm256_add_ps(_mm256_mul_ps(_mm256_mul_ps(kx, x), invZ), px);
        const __m256 ndcY = _mm256_add_ps(_mm256_mul_ps(_mm256_mul_ps(ky, y), invZ), py);
        const __m256 pixelX = _mm256_mul_ps(_mm256_mul_ps(_mm256_add_ps(ndcX, one), half), w);
        const __m256 pixelY = _mm256_mul_ps(_mm256_mul_ps(_mm256_sub_ps(one, ndcY), half), h);
        const __m256 depth = _mm256_mul_ps(depthScale, _mm256_sub_ps(one, _mm256_div_ps(nearPlane, z)));
        const __m256 fields[11] = {_mm256_castsi256_ps(snap8(pixelX)),
                                   _mm256_castsi256_ps(snap8(pixelY)),
                                   depth,
                                   invZ,
                                   _mm256_mul_ps(loadOrZero(mesh.u, i), invZ),
                                   _mm256_mul_ps(loadOrZero(mesh.v, i), invZ),
                                   _mm256_mul_ps(loadOrZero(mesh.nx, i), invZ),
                                   _mm256_mul_ps(loadOrZero(mesh.ny, i), invZ),
                                   _mm256_mul_ps(loadOrZero(mesh.nz, i), invZ),
                                   pixelX,
                                   pixelY};
        if (_mm256_testz_si256(mask, mask)) { // the common case: all eight inside
            storeProjections(fields, projected + i);
            continue;
        }
        alignas(32) float f[11][8];
        for (int field = 0; field < 11; ++field) _mm256_store_ps(f[field], fields[field]);
        for (int k = 0; k < 8; ++k) {
            if (masks[k] != 0) continue; // as the scalar function: projected only inside every plane
            ScreenVertex& s = projected[i + std::size_t(k)];
            std::memcpy(&s.p.x, &f[0][k], sizeof(float));
            std::memcpy(&s.p.y, &f[1][k], sizeof(float));
            s.depth = f[2][k];
            s.attributes.invW = f[3][k];
            s.attributes.uvOverW = glm::vec2(f[4][k], f[5][k]);
            s.attributes.nOverW = glm::vec3(f[6][k], f[7][k], f[8][k]);
            s.pos = glm::vec2(f[9][k], f[10][k]);
        }
    }
    for (; i < end; ++i)
        classifyVertex(mesh, dx, dy, dz, planes, view, width, height, outside, projected, std::uint32_t(i));
}

} // namespace facet
