#include "cpu/raster_triangle.h"
#include "core/quad_shading.h"
#include "cpu/quad_coverage.h"
#include "cpu/simd_quad.h"

#include <algorithm>

namespace facet {

namespace {

// The quads to walk: those holding a pixel of the triangle's bounds within the tile. Quads
// pair rows as OpenGL does, counting from the bottom of the picture, so they start at row
// `quadRowOffset` (1 for an odd height; row -1 is then only ever a helper).
struct QuadRange {
    int minX, maxX, minY, maxY; // pixel bounds
    int firstQx, firstQy;
};

bool quadRange(const ScreenTriangle& tri, const RasterContext& ctx, const TileRect& tile, QuadRange& q) {
    q.minX = std::max(tri.minX, tile.x0);
    q.maxX = std::min(tri.maxX, tile.x1);
    q.minY = std::max(tri.minY, tile.y0);
    q.maxY = std::min(tri.maxY, tile.y1);
    q.firstQx = q.minX & ~1;
    q.firstQy = ((q.minY + ctx.quadRowOffset) & ~1) - ctx.quadRowOffset;
    return q.minX <= q.maxX && q.minY <= q.maxY;
}

} // namespace

// The reference: the quad's helper pixels give the uv derivatives for the texture level of
// detail, as on a GPU. Per pixel this computes exactly what the shared functions compute; it
// only skips work whose result would be thrown away: the depth test runs before uv and level
// of detail, and a quad none of whose covered pixels passes it is done.
std::size_t rasterizeTriangleScalar(const ScreenTriangle& tri, const ShadeMaterial& material,
                                    const RasterContext& ctx, const TileRect& tile) {
    QuadRange q;
    if (!quadRange(tri, ctx, tile, q)) return 0;
    const RenderSettings& settings = ctx.settings;
    const FrameView& target = ctx.target;
    const EdgeStepper edges(tri, q.firstQx, q.firstQy);
    std::int64_t rowStart[3] = {edges.value[0], edges.value[1], edges.value[2]};
    std::size_t shaded = 0;
    for (int qy = q.firstQy; qy <= q.maxY; qy += 2) {
        std::int64_t at[3] = {rowStart[0], rowStart[1], rowStart[2]};
        for (int qx = q.firstQx; qx <= q.maxX; qx += 2) {
            const unsigned covered = edges.quadMask(at) & boundsMask(qx, qy, q.minX, q.maxX, q.minY, q.maxY);
            for (int i = 0; i < 3; ++i) at[i] += 2 * edges.stepX[i];
            if (covered == 0) continue;

            float depth[4] = {};
            unsigned visible = 0; // covered, within the depth range and nearer than the depth buffer
            for (int k = 0; k < 4; ++k) {
                if (!(covered >> k & 1)) continue;
                depth[k] = interpolateDepth(tri, barycentrics(tri, qx + (k & 1), qy + (k >> 1)));
                if (!(depth[k] >= 0.0f && depth[k] <= 1.0f)) continue; // beyond the far plane
                const std::size_t pixel =
                    std::size_t(qy + (k >> 1)) * std::size_t(target.width) + std::size_t(qx + (k & 1));
                if (depth[k] < target.depth[pixel]) visible |= 1u << k;
            }
            if (visible == 0) continue;

            for (int k = 0; k < 4; ++k) {
                if (!(visible >> k & 1)) continue;
                const std::size_t pixel =
                    std::size_t(qy + (k >> 1)) * std::size_t(target.width) + std::size_t(qx + (k & 1));
                target.depth[pixel] = depth[k];
                target.color[pixel] = shadeQuadPixel(tri, material, settings, ctx.viewForward, qx, qy, k);
                ++shaded;
            }
        }
        for (int i = 0; i < 3; ++i) rowStart[i] += 2 * edges.stepY[i];
    }
    return shaded;
}

namespace {

// b.x * p0 + b.y * p1 + b.z * p2 per lane, left to right: the shared interpolate* functions'
// sum for one attribute.
inline __m128 interpolate4(const __m128 b[3], float p0, float p1, float p2) {
    return _mm_add_ps(_mm_add_ps(_mm_mul_ps(b[0], _mm_set1_ps(p0)), _mm_mul_ps(b[1], _mm_set1_ps(p1))),
                      _mm_mul_ps(b[2], _mm_set1_ps(p2)));
}

// Lane k of a 4-bit quad mask as an all-ones or all-zeros 32-bit lane.
inline __m128i laneMask(unsigned bits) {
    return _mm_cmpgt_epi32(_mm_and_si128(_mm_set1_epi32(int(bits)), _mm_setr_epi32(1, 2, 4, 8)), _mm_setzero_si128());
}

inline float lane(__m128 v, int k) {
    alignas(16) float f[4];
    _mm_store_ps(f, v);
    return f[k];
}

// The packed colours of a quad's four pixels, given their barycentrics: everything after the
// depth test (shadeFragment and packRgba8 per lane). Out of line, so the coverage loop that
// calls it stays a small loop of its own.
__attribute__((noinline)) __m128i shadeQuad(const ScreenTriangle& tri, const ShadeMaterial& material,
                                            const RasterContext& ctx, const __m128 b[3]) {
    const RenderSettings& settings = ctx.settings;
    const bool textured = material.texture.levelCount > 0;
    const ScreenVertex &v0 = tri.v[0], &v1 = tri.v[1], &v2 = tri.v[2];
    simd::Rgba4 c{_mm_set1_ps(material.color.r), _mm_set1_ps(material.color.g), _mm_set1_ps(material.color.b),
                  _mm_set1_ps(material.color.a)};
    __m128 invW = _mm_setzero_ps();
    if (textured || settings.headlight) invW = interpolate4(b, v0.invW, v1.invW, v2.invW);
    if (textured) {
        const __m128 u = _mm_div_ps(interpolate4(b, v0.uvOverW.x, v1.uvOverW.x, v2.uvOverW.x), invW);
        const __m128 v = _mm_div_ps(interpolate4(b, v0.uvOverW.y, v1.uvOverW.y, v2.uvOverW.y), invW);
        float lod = 0.0f;
        if (settings.filter == TextureFilter::Trilinear) {
            const glm::vec2 texSize(material.texture.levels[0].width, material.texture.levels[0].height);
            const glm::vec2 uv0(lane(u, 0), lane(v, 0)), uv2(lane(u, 2), lane(v, 2)), uv3(lane(u, 3), lane(v, 3));
            lod = textureLod((uv3 - uv2) * texSize, (uv0 - uv2) * texSize);
        }
        c = simd::sampleTexture4(material.texture, settings.filter, u, v, lod);
    }
    if (settings.headlight) {
        const __m128 nx = _mm_div_ps(interpolate4(b, v0.nOverW.x, v1.nOverW.x, v2.nOverW.x), invW);
        const __m128 ny = _mm_div_ps(interpolate4(b, v0.nOverW.y, v1.nOverW.y, v2.nOverW.y), invW);
        const __m128 nz = _mm_div_ps(interpolate4(b, v0.nOverW.z, v1.nOverW.z, v2.nOverW.z), invW);
        c = simd::headlight4(c, nx, ny, nz, ctx.viewForward);
    }
    return simd::pack4(c);
}

} // namespace

// The coverage and depth test, the quad's four pixels in four lanes (each lane the scalar
// reference's float operations, in the same order); where a pixel passes, its depth is written
// and its id set. Nothing is shaded here.
std::size_t rasterizeVisibility(const ScreenTriangle& tri, std::uint32_t id, const RasterContext& ctx,
                                const TileRect& tile, const TileIds& ids) {
    QuadRange q;
    if (!quadRange(tri, ctx, tile, q)) return 0;
    const FrameView& target = ctx.target;
    const std::size_t width = std::size_t(target.width);
    const ScreenVertex &v0 = tri.v[0], &v1 = tri.v[1], &v2 = tri.v[2];

    // Coverage: the three edge values at the quad's four pixels, one int64 lane each. (Set up
    // per call, not once per triangle in the triangle stage: on the default scene a triangle
    // touches 1.0 tiles on average, and setting them up ahead cost more than it saved.)
    const EdgeStepper edges(tri, q.firstQx, q.firstQy);
    __m256i rowStart[3], stepX2[3], stepY2[3];
    for (int i = 0; i < 3; ++i) {
        const std::int64_t sx = edges.stepX[i], sy = edges.stepY[i];
        rowStart[i] = _mm256_add_epi64(_mm256_set1_epi64x(edges.value[i]), _mm256_setr_epi64x(0, sx, sy, sx + sy));
        stepX2[i] = _mm256_set1_epi64x(2 * sx);
        stepY2[i] = _mm256_set1_epi64x(2 * sy);
    }
    const __m256i zero64 = _mm256_setzero_si256();

    const __m128 half = _mm_set1_ps(0.5f), one = _mm_set1_ps(1.0f);
    const __m128 db1x = _mm_set1_ps(tri.db1.x), db1y = _mm_set1_ps(tri.db1.y);
    const __m128 db2x = _mm_set1_ps(tri.db2.x), db2y = _mm_set1_ps(tri.db2.y);
    const __m128 pos0x = _mm_set1_ps(v0.pos.x), pos0y = _mm_set1_ps(v0.pos.y);
    const __m128i laneX = _mm_setr_epi32(0, 1, 0, 1), laneY = _mm_setr_epi32(0, 0, 1, 1);
    const __m128i newId = _mm_set1_epi32(int(id));

    std::size_t won = 0;
    for (int qy = q.firstQy; qy <= q.maxY; qy += 2) {
        __m256i at[3] = {rowStart[0], rowStart[1], rowStart[2]};
        for (int i = 0; i < 3; ++i) rowStart[i] = _mm256_add_epi64(rowStart[i], stepY2[i]);
        const __m128 py = _mm_sub_ps(_mm_add_ps(_mm_cvtepi32_ps(_mm_add_epi32(_mm_set1_epi32(qy), laneY)), half), pos0y);
        const __m128 b1y = _mm_mul_ps(db1y, py), b2y = _mm_mul_ps(db2y, py);
        const bool rowsInside = qy >= tile.y0 && qy + 1 <= tile.y1;
        float* depthRow = target.depth + std::size_t(std::max(qy, 0)) * width;
        // The ids of the quad's rows: always within the tile's buffer, even where the pixels
        // are not within the target, so they are read and written whole.
        std::uint32_t* idRow = ids.ids + std::size_t(qy - ids.originY) * kTileSize;

        for (int qx = q.firstQx; qx <= q.maxX; qx += 2) {
            const __m256i inside = _mm256_and_si256(
                _mm256_and_si256(_mm256_cmpgt_epi64(at[0], zero64), _mm256_cmpgt_epi64(at[1], zero64)),
                _mm256_cmpgt_epi64(at[2], zero64));
            for (int i = 0; i < 3; ++i) at[i] = _mm256_add_epi64(at[i], stepX2[i]);
            const unsigned covered = unsigned(_mm256_movemask_pd(_mm256_castsi256_pd(inside))) &
                                     boundsMask(qx, qy, q.minX, q.maxX, q.minY, q.maxY);
            if (covered == 0) continue;

            const __m128 px =
                _mm_sub_ps(_mm_add_ps(_mm_cvtepi32_ps(_mm_add_epi32(_mm_set1_epi32(qx), laneX)), half), pos0x);
            __m128 b[3];
            b[1] = _mm_add_ps(_mm_mul_ps(db1x, px), b1y);
            b[2] = _mm_add_ps(_mm_mul_ps(db2x, px), b2y);
            b[0] = _mm_sub_ps(_mm_sub_ps(one, b[1]), b[2]);
            const __m128 depth = interpolate4(b, v0.depth, v1.depth, v2.depth);

            const bool whole = rowsInside && qx + 1 <= tile.x1;
            __m128 buffer;
            if (whole) {
                buffer = _mm_castsi128_ps(
                    _mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(depthRow + qx)),
                                       _mm_loadl_epi64(reinterpret_cast<const __m128i*>(depthRow + width + qx))));
            } else {
                alignas(16) float z[4] = {0.0f, 0.0f, 0.0f, 0.0f};
                for (int k = 0; k < 4; ++k)
                    if (covered >> k & 1) z[k] = target.depth[std::size_t(qy + (k >> 1)) * width + std::size_t(qx + (k & 1))];
                buffer = _mm_load_ps(z);
            }
            const __m128 passes = _mm_and_ps(
                _mm_and_ps(_mm_cmp_ps(depth, _mm_setzero_ps(), _CMP_GE_OQ), _mm_cmp_ps(depth, one, _CMP_LE_OQ)),
                _mm_cmp_ps(depth, buffer, _CMP_LT_OQ));
            const unsigned visible = covered & unsigned(_mm_movemask_ps(passes));
            if (visible == 0) continue;

            const __m128i keep = laneMask(visible);
            std::uint32_t* i0 = idRow + (qx - ids.originX);
            std::uint32_t* i1 = i0 + kTileSize;
            const __m128i oldIds = _mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(i0)),
                                                      _mm_loadl_epi64(reinterpret_cast<const __m128i*>(i1)));
            const __m128i newIds = _mm_blendv_epi8(oldIds, newId, keep);
            _mm_storel_epi64(reinterpret_cast<__m128i*>(i0), newIds);
            _mm_storel_epi64(reinterpret_cast<__m128i*>(i1), _mm_unpackhi_epi64(newIds, newIds));
            if (whole) {
                const __m128 newDepth = _mm_blendv_ps(buffer, depth, _mm_castsi128_ps(keep));
                _mm_storel_epi64(reinterpret_cast<__m128i*>(depthRow + qx), _mm_castps_si128(newDepth));
                _mm_storel_epi64(reinterpret_cast<__m128i*>(depthRow + width + qx),
                                 _mm_castps_si128(_mm_movehl_ps(newDepth, newDepth)));
            } else {
                alignas(16) float depths[4];
                _mm_store_ps(depths, depth);
                for (int k = 0; k < 4; ++k)
                    if (visible >> k & 1)
                        target.depth[std::size_t(qy + (k >> 1)) * width + std::size_t(qx + (k & 1))] = depths[k];
            }
            won += unsigned(__builtin_popcount(visible));
        }
    }
    return won;
}

// Every quad of the tile: each distinct id among its pixels is shaded once, with the quad's
// four lanes (each lane the scalar reference's shading; the helpers give that triangle's
// level of detail), and kept in the lanes that triangle won.
void shadeTile(const TileTriangle* triangles, const RasterContext& ctx, const TileRect& tile, const TileIds& ids) {
    const FrameView& target = ctx.target;
    const std::size_t width = std::size_t(target.width);
    const __m128 half = _mm_set1_ps(0.5f), one = _mm_set1_ps(1.0f);
    const __m128i laneX = _mm_setr_epi32(0, 1, 0, 1), laneY = _mm_setr_epi32(0, 0, 1, 1);
    const __m128i zero = _mm_setzero_si128();
    for (int qy = ids.originY; qy <= tile.y1; qy += 2) {
        const bool rowsInside = qy >= tile.y0 && qy + 1 <= tile.y1;
        std::uint32_t* colorRow = target.color + std::size_t(std::max(qy, 0)) * width;
        const std::uint32_t* idRow = ids.ids + std::size_t(qy - ids.originY) * kTileSize;
        const __m128 pixelY = _mm_add_ps(_mm_cvtepi32_ps(_mm_add_epi32(_mm_set1_epi32(qy), laneY)), half);
        for (int qx = ids.originX; qx <= tile.x1; qx += 2) {
            const std::uint32_t* i0 = idRow + (qx - ids.originX);
            const __m128i quadIds =
                _mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(i0)),
                                   _mm_loadl_epi64(reinterpret_cast<const __m128i*>(i0 + kTileSize)));
            const unsigned drawn = 0xFu & ~unsigned(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(quadIds, zero))));
            if (drawn == 0) continue;
            const __m128 pixelX = _mm_add_ps(_mm_cvtepi32_ps(_mm_add_epi32(_mm_set1_epi32(qx), laneX)), half);

            // Most quads hold one triangle; an edge between two gives two, rarely more.
            __m128i color = zero;
            unsigned left = drawn;
            alignas(16) std::uint32_t idLanes[4];
            _mm_store_si128(reinterpret_cast<__m128i*>(idLanes), quadIds);
            while (left != 0) {
                const std::uint32_t id = idLanes[__builtin_ctz(left)];
                const unsigned mine =
                    unsigned(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(quadIds, _mm_set1_epi32(int(id))))));
                left &= ~mine;
                const TileTriangle& t = triangles[id - 1];
                const ScreenTriangle& tri = *t.tri;
                // The barycentrics as the scalar reference forms them: px = (x + 0.5) - v0.x,
                // b1 = db1.x px + db1.y py, b0 = (1 - b1) - b2.
                const __m128 px = _mm_sub_ps(pixelX, _mm_set1_ps(tri.v[0].pos.x));
                const __m128 py = _mm_sub_ps(pixelY, _mm_set1_ps(tri.v[0].pos.y));
                __m128 b[3];
                b[1] = _mm_add_ps(_mm_mul_ps(_mm_set1_ps(tri.db1.x), px), _mm_mul_ps(_mm_set1_ps(tri.db1.y), py));
                b[2] = _mm_add_ps(_mm_mul_ps(_mm_set1_ps(tri.db2.x), px), _mm_mul_ps(_mm_set1_ps(tri.db2.y), py));
                b[0] = _mm_sub_ps(_mm_sub_ps(one, b[1]), b[2]);
                color = _mm_blendv_epi8(color, shadeQuad(tri, *t.material, ctx, b), laneMask(mine));
            }

            if (rowsInside && qx + 1 <= tile.x1) {
                const __m128i keep = laneMask(drawn);
                std::uint32_t* c0 = colorRow + qx;
                std::uint32_t* c1 = colorRow + width + qx;
                const __m128i oldColor = _mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(c0)),
                                                            _mm_loadl_epi64(reinterpret_cast<const __m128i*>(c1)));
                const __m128i newColor = _mm_blendv_epi8(oldColor, color, keep);
                _mm_storel_epi64(reinterpret_cast<__m128i*>(c0), newColor);
                _mm_storel_epi64(reinterpret_cast<__m128i*>(c1), _mm_unpackhi_epi64(newColor, newColor));
            } else {
                alignas(16) std::uint32_t colors[4];
                _mm_store_si128(reinterpret_cast<__m128i*>(colors), color);
                for (int k = 0; k < 4; ++k)
                    if (drawn >> k & 1) target.color[std::size_t(qy + (k >> 1)) * width + std::size_t(qx + (k & 1))] = colors[k];
            }
        }
    }
}

} // namespace facet
