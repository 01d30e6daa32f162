#include "cpu/raster_triangle.h"
#include "core/quad_shading.h"
#include "cpu/quad_coverage.h"
#include "cpu/simd_quad.h"
#include "cpu/stream_store.h"

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

// A quad's pixels that one triangle won: a unit of shading. shadeTile collects a batch of
// them and shades the batch in passes, each a loop whose iterations are independent: the
// texel coordinates (and headlight) of every job, the levels of detail eight at a time, then
// the colours. A quad's shading is one long chain of dependent steps (divisions, the
// logarithm, the texel addresses, the gathers, the blends); one quad after another, each
// chain waited for the last, while a loop of independent iterations lets the processor run
// several at once.
struct ShadeJob {
    __m128 u, v;    // texel coordinates per pixel (textured materials)
    __m128 light;   // the headlight factor per pixel (1 without the headlight)
    const TileTriangle* triangle;
    float dx2, dy2; // squared lengths of the texel coordinates' derivatives (trilinear filtering)
    float lod;      // level of detail (trilinear filtering)
    int qx, qy;     // the quad's top-left pixel
    unsigned mask;  // the pixels this triangle won (bit k: pixel k)
};

constexpr int kShadeBatch = 16;

// The barycentrics of the quad's four pixels as the scalar reference forms them:
// px = (x + 0.5) - v0.x, b1 = db1.x px + db1.y py, b0 = (1 - b1) - b2.
inline void quadBarycentrics(const ScreenTriangle& tri, int qx, int qy, __m128 b[3]) {
    const __m128 half = _mm_set1_ps(0.5f);
    const __m128 pixelX = _mm_add_ps(_mm_cvtepi32_ps(_mm_add_epi32(_mm_set1_epi32(qx), _mm_setr_epi32(0, 1, 0, 1))), half);
    const __m128 pixelY = _mm_add_ps(_mm_cvtepi32_ps(_mm_add_epi32(_mm_set1_epi32(qy), _mm_setr_epi32(0, 0, 1, 1))), half);
    const __m128 px = _mm_sub_ps(pixelX, _mm_set1_ps(tri.v[0].pos.x));
    const __m128 py = _mm_sub_ps(pixelY, _mm_set1_ps(tri.v[0].pos.y));
    b[1] = _mm_add_ps(_mm_mul_ps(_mm_set1_ps(tri.db1.x), px), _mm_mul_ps(_mm_set1_ps(tri.db1.y), py));
    b[2] = _mm_add_ps(_mm_mul_ps(_mm_set1_ps(tri.db2.x), px), _mm_mul_ps(_mm_set1_ps(tri.db2.y), py));
    b[0] = _mm_sub_ps(_mm_sub_ps(_mm_set1_ps(1.0f), b[1]), b[2]);
}

// Shading, first pass: the job's headlight factor (from interpolateNormal per lane) and
// perspective-correct texel coordinates (interpolateUv per lane); for trilinear filtering,
// the squared lengths its level of detail comes from (as shadeQuadPixel forms them).
inline void jobTexelCoordinates(ShadeJob& job, const RasterContext& ctx) {
    const ScreenTriangle& tri = *job.triangle->tri;
    const TextureView& texture = job.triangle->material->texture;
    job.lod = 0.0f;
    job.dx2 = job.dy2 = 0.0f;
    job.light = _mm_set1_ps(1.0f);
    const bool textured = texture.levelCount > 0;
    if (!textured && !ctx.settings.headlight) return;
    __m128 b[3];
    quadBarycentrics(tri, job.qx, job.qy, b);
    const ScreenVertex &v0 = tri.v[0], &v1 = tri.v[1], &v2 = tri.v[2];
    const __m128 invW = interpolate4(b, v0.invW, v1.invW, v2.invW);
    if (ctx.settings.headlight) {
        const __m128 nx = _mm_div_ps(interpolate4(b, v0.nOverW.x, v1.nOverW.x, v2.nOverW.x), invW);
        const __m128 ny = _mm_div_ps(interpolate4(b, v0.nOverW.y, v1.nOverW.y, v2.nOverW.y), invW);
        const __m128 nz = _mm_div_ps(interpolate4(b, v0.nOverW.z, v1.nOverW.z, v2.nOverW.z), invW);
        job.light = simd::headlightFactor4(nx, ny, nz, ctx.viewForward);
    }
    if (!textured) return;
    // interpolateUv: both coordinates divided by 1/w in one division of eight lanes.
    const __m256 uv = _mm256_div_ps(_mm256_set_m128(interpolate4(b, v0.uvOverW.y, v1.uvOverW.y, v2.uvOverW.y),
                                                    interpolate4(b, v0.uvOverW.x, v1.uvOverW.x, v2.uvOverW.x)),
                                    _mm256_set_m128(invW, invW));
    const __m128 u = _mm256_castps256_ps128(uv), v = _mm256_extractf128_ps(uv, 1);
    job.u = u;
    job.v = v;
    if (ctx.settings.filter == TextureFilter::Trilinear) {
        // textureLod((uv3 - uv2) * texSize, (uv0 - uv2) * texSize), both differences in one
        // register: (u3 - u2) w, (v3 - v2) h, (u0 - u2) w, (v0 - v2) h; then each dot
        // product x x + y y.
        const MipLevel& level0 = texture.levels[0];
        const float w = static_cast<float>(level0.width), h = static_cast<float>(level0.height);
        const __m128 uv01 = _mm_unpacklo_ps(u, v), uv23 = _mm_unpackhi_ps(u, v); // u0 v0 u1 v1, u2 v2 u3 v3
        const __m128 ends = _mm_shuffle_ps(uv23, uv01, _MM_SHUFFLE(1, 0, 3, 2));  // u3 v3 u0 v0
        const __m128 d = _mm_mul_ps(_mm_sub_ps(ends, _mm_movelh_ps(uv23, uv23)), _mm_setr_ps(w, h, w, h));
        const __m128 dots = _mm_hadd_ps(_mm_mul_ps(d, d), _mm_setzero_ps());
        job.dx2 = _mm_cvtss_f32(dots);
        job.dy2 = _mm_cvtss_f32(_mm_movehdup_ps(dots));
    }
}

// The pixels of jobs sampling one texture with a bilinear or trilinear filter, gathered four
// to a vector: a job's quad usually holds only one or two pixels its triangle won, so sampling
// whole quads would spend half the work on pixels that are thrown away. Per pixel: its texel
// coordinates, the levels its job samples, the headlight factor and its place in the tile's
// colour buffer. A job's four lanes are packed left (the won ones first) and stored whole,
// overlapping the next job's, hence the arrays' spare four.
struct PixelStream {
    static constexpr int kCapacity = 64;
    const TextureView* texture = nullptr;
    int count = 0;
    alignas(16) float u[kCapacity + 4], v[kCapacity + 4], f[kCapacity + 4], light[kCapacity + 4];
    alignas(16) std::int32_t lo[kCapacity + 4], hi[kCapacity + 4], at[kCapacity + 4];
};

// For each 4-bit mask, the lane order that packs its set lanes first.
struct LeftPack {
    alignas(16) std::int32_t order[16][4];
    constexpr LeftPack() : order{} {
        for (unsigned mask = 0; mask < 16; ++mask) {
            int n = 0;
            for (int k = 0; k < 4; ++k)
                if (mask >> k & 1) order[mask][n++] = k;
            for (int k = n; k < 4; ++k) order[mask][k] = 0;
        }
    }
};
constexpr LeftPack kLeftPack;

// Samples the stream's pixels, four at a time, and writes their colours.
void flushPixels(PixelStream& s, const RasterContext& ctx, const TileBuffers& buffers) {
    if (s.count == 0) return;
    const TextureView& texture = *s.texture;
    const simd::LevelTable levels(texture);
    const int vectors = (s.count + 3) / 4;
    // The last vector's unused lanes sample the last pixel again, for nothing.
    for (int k = s.count; k < 4 * vectors; ++k) {
        s.u[k] = s.u[s.count - 1];
        s.v[k] = s.v[s.count - 1];
        s.f[k] = s.f[s.count - 1];
        s.light[k] = s.light[s.count - 1];
        s.lo[k] = s.lo[s.count - 1];
        s.hi[k] = s.hi[s.count - 1];
    }
    simd::SamplePlan4 plans[PixelStream::kCapacity / 4];
    for (int g = 0; g < vectors; ++g) {
        const auto ints = [&](const std::int32_t* a) { return _mm_load_si128(reinterpret_cast<const __m128i*>(a + 4 * g)); };
        plans[g] = simd::planSamples4(levels, _mm_load_ps(s.u + 4 * g), _mm_load_ps(s.v + 4 * g), ints(s.lo), ints(s.hi),
                                      _mm_load_ps(s.f + 4 * g));
    }
    for (int g = 0; g < vectors; ++g) {
        simd::Rgba4 c = simd::fetchSamples4(texture, plans[g]);
        if (ctx.settings.headlight) c = simd::applyHeadlight4(c, _mm_load_ps(s.light + 4 * g));
        alignas(16) std::uint32_t colors[4];
        _mm_store_si128(reinterpret_cast<__m128i*>(colors), simd::pack4(c));
        const int n = std::min(4, s.count - 4 * g);
        for (int k = 0; k < n; ++k) buffers.color[s.at[4 * g + k]] = colors[k];
    }
    s.count = 0;
}

// Adds the pixels `job` won to the stream, first sampling what the stream holds if it is full
// or for another texture.
void streamPixels(PixelStream& s, const ShadeJob& job, const RasterContext& ctx, const TileBuffers& buffers) {
    const TextureView& texture = job.triangle->material->texture;
    if (s.texture != &texture || s.count > PixelStream::kCapacity - 4) {
        flushPixels(s, ctx, buffers);
        s.texture = &texture;
    }
    const simd::LevelChoice levels = simd::chooseLevels(texture, ctx.settings.filter, job.lod);
    const __m128i order = _mm_load_si128(reinterpret_cast<const __m128i*>(kLeftPack.order[job.mask]));
    const std::int32_t at = (job.qy - buffers.originY) * kTileBufferStride + (job.qx - buffers.originX);
    const int n = s.count;
    _mm_storeu_ps(s.u + n, _mm_permutevar_ps(job.u, order));
    _mm_storeu_ps(s.v + n, _mm_permutevar_ps(job.v, order));
    _mm_storeu_ps(s.light + n, _mm_permutevar_ps(job.light, order));
    const __m128i places = _mm_add_epi32(_mm_set1_epi32(at), _mm_setr_epi32(0, 1, kTileBufferStride, kTileBufferStride + 1));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(s.at + n),
                     _mm_castps_si128(_mm_permutevar_ps(_mm_castsi128_ps(places), order)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(s.lo + n), _mm_set1_epi32(levels.lo));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(s.hi + n), _mm_set1_epi32(levels.hi));
    _mm_storeu_ps(s.f + n, _mm_set1_ps(levels.f));
    s.count = n + __builtin_popcount(job.mask);
}

// The packed colours of a job's four pixels that the stream does not take: an untextured
// material, or nearest filtering.
inline __m128i jobColor(const ShadeJob& job, const RasterContext& ctx) {
    const ShadeMaterial& material = *job.triangle->material;
    simd::Rgba4 c{_mm_set1_ps(material.color.r), _mm_set1_ps(material.color.g), _mm_set1_ps(material.color.b),
                  _mm_set1_ps(material.color.a)};
    if (material.texture.levelCount > 0)
        c = simd::fetchNearest4(material.texture, simd::nearestIndex4(material.texture, job.u, job.v));
    if (ctx.settings.headlight) c = simd::applyHeadlight4(c, job.light);
    return simd::pack4(c);
}

// A job of a triangle with vertex colours, which the vectorised passes do not interpolate: each
// pixel it won shaded by the scalar reference itself (meshes without vertex colours never
// come here, so they keep the vectorised passes at no cost). Out of line, so the vectorised
// passes' code stays as it was.
[[gnu::noinline]] void shadeJobScalar(const ShadeJob& job, const RasterContext& ctx, const TileBuffers& buffers) {
    std::uint32_t* c0 =
        buffers.color + std::size_t(job.qy - buffers.originY) * kTileBufferStride + std::size_t(job.qx - buffers.originX);
    for (int k = 0; k < 4; ++k)
        if (job.mask >> k & 1)
            c0[(k >> 1) * kTileBufferStride + (k & 1)] = shadeQuadPixel(
                *job.triangle->tri, *job.triangle->material, ctx.settings, ctx.viewForward, job.qx, job.qy, k,
                job.triangle->colors);
}

// Shades a batch of jobs into the tile's colour buffer, each in the pixels it won.
void shadeBatch(ShadeJob* jobs, int count, PixelStream& stream, const RasterContext& ctx, const TileBuffers& buffers) {
    if (__builtin_expect(ctx.vertexColors, false)) { // every triangle has vertex colours, or none has
        for (int j = 0; j < count; ++j) shadeJobScalar(jobs[j], ctx, buffers);
        return;
    }
    for (int j = 0; j < count; ++j) jobTexelCoordinates(jobs[j], ctx);
    if (ctx.settings.filter == TextureFilter::Trilinear) {
        for (int j = 0; j < count; j += 8) {
            alignas(32) float dx2[8] = {}, dy2[8] = {}, lod[8];
            const int n = std::min(8, count - j);
            for (int k = 0; k < n; ++k) {
                dx2[k] = jobs[j + k].dx2;
                dy2[k] = jobs[j + k].dy2;
            }
            _mm256_store_ps(lod, simd::lodFromSquaredLengths8(_mm256_load_ps(dx2), _mm256_load_ps(dy2)));
            for (int k = 0; k < n; ++k) jobs[j + k].lod = lod[k];
        }
    }
    const bool streamed = ctx.settings.filter != TextureFilter::Nearest;
    for (int j = 0; j < count; ++j) {
        const ShadeJob& job = jobs[j];
        if (streamed && job.triangle->material->texture.levelCount > 0) {
            streamPixels(stream, job, ctx, buffers);
            continue;
        }
        std::uint32_t* c0 =
            buffers.color + std::size_t(job.qy - buffers.originY) * kTileBufferStride + std::size_t(job.qx - buffers.originX);
        std::uint32_t* c1 = c0 + kTileBufferStride;
        const __m128i old = _mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(c0)),
                                               _mm_loadl_epi64(reinterpret_cast<const __m128i*>(c1)));
        const __m128i color = _mm_blendv_epi8(old, jobColor(job, ctx), laneMask(job.mask));
        _mm_storel_epi64(reinterpret_cast<__m128i*>(c0), color);
        _mm_storel_epi64(reinterpret_cast<__m128i*>(c1), _mm_unpackhi_epi64(color, color));
    }
}

// The coverage and depth test of a small triangle, in blocks of 4x2 pixels: eight int32 lanes,
// lane k holding pixel (x + (k & 3), y + (k >> 2)). Per lane, the same integer edge values and
// float operations as the scalar reference, in the same order. Lanes outside the triangle's
// bounds fail its edge tests; `Bounds` adds the tile's bounds, for a triangle the tile (or the
// target) cuts.
template <bool Bounds>
std::size_t visibilityBlocks(const ScreenTriangle& tri, std::uint32_t id, const QuadRange& q, const TileBuffers& buffers) {
    const __m256i laneX = _mm256_setr_epi32(0, 1, 2, 3, 0, 1, 2, 3), laneY = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
    const std::int32_t cx = pixelCentreFixed(q.firstQx), cy = pixelCentreFixed(q.firstQy);
    __m256i rowStart[3], step4[3], step2[3];
    for (int i = 0; i < 3; ++i) {
        // Edge i runs from vertex i + 1 to vertex i + 2 (see edgeValues): its value at the first
        // block's first pixel, bias included, and its steps per pixel right and down.
        const FixedPoint2 a = tri.v[(i + 1) % 3].p, b = tri.v[(i + 2) % 3].p;
        const std::int32_t ex = b.x - a.x, ey = b.y - a.y;
        const std::int32_t value = ex * (cy - a.y) - ey * (cx - a.x) + std::int32_t(tri.bias[i]);
        const __m256i sx = _mm256_set1_epi32(-ey * kSubpixelOne), sy = _mm256_set1_epi32(ex * kSubpixelOne);
        rowStart[i] = _mm256_add_epi32(_mm256_set1_epi32(value),
                                       _mm256_add_epi32(_mm256_mullo_epi32(laneX, sx), _mm256_mullo_epi32(laneY, sy)));
        step4[i] = _mm256_slli_epi32(sx, 2);
        step2[i] = _mm256_slli_epi32(sy, 1);
    }
    const __m256i zero = _mm256_setzero_si256();
    // Bounds as lane compares: minX <= x <= maxX is x > minX - 1 and maxX + 1 > x.
    const __m256i minX = _mm256_set1_epi32(q.minX - 1), maxX = _mm256_set1_epi32(q.maxX + 1);
    const __m256i minY = _mm256_set1_epi32(q.minY - 1), maxY = _mm256_set1_epi32(q.maxY + 1);

    const ScreenVertex &v0 = tri.v[0], &v1 = tri.v[1], &v2 = tri.v[2];
    const __m256 half = _mm256_set1_ps(0.5f), one = _mm256_set1_ps(1.0f), zeroF = _mm256_setzero_ps();
    const __m256 db1x = _mm256_set1_ps(tri.db1.x), db1y = _mm256_set1_ps(tri.db1.y);
    const __m256 db2x = _mm256_set1_ps(tri.db2.x), db2y = _mm256_set1_ps(tri.db2.y);
    const __m256 pos0x = _mm256_set1_ps(v0.pos.x), pos0y = _mm256_set1_ps(v0.pos.y);
    const __m256 depth0 = _mm256_set1_ps(v0.depth), depth1 = _mm256_set1_ps(v1.depth), depth2 = _mm256_set1_ps(v2.depth);
    const __m256i newId = _mm256_set1_epi32(int(id));

    std::size_t won = 0;
    for (int qy = q.firstQy; qy <= q.maxY; qy += 2) {
        __m256i at[3] = {rowStart[0], rowStart[1], rowStart[2]};
        for (int i = 0; i < 3; ++i) rowStart[i] = _mm256_add_epi32(rowStart[i], step2[i]);
        const __m256i ys = _mm256_add_epi32(_mm256_set1_epi32(qy), laneY);
        const __m256i rowsIn =
            Bounds ? _mm256_and_si256(_mm256_cmpgt_epi32(ys, minY), _mm256_cmpgt_epi32(maxY, ys)) : _mm256_set1_epi32(-1);
        const __m256 py = _mm256_sub_ps(_mm256_add_ps(_mm256_cvtepi32_ps(ys), half), pos0y);
        const __m256 b1y = _mm256_mul_ps(db1y, py), b2y = _mm256_mul_ps(db2y, py);
        const std::size_t row = std::size_t(qy - buffers.originY) * kTileBufferStride;
        std::uint32_t* idRow = buffers.ids + row;
        float* depthRow = buffers.depth + row;

        for (int qx = q.firstQx; qx <= q.maxX; qx += 4) {
            const __m256i xs = _mm256_add_epi32(_mm256_set1_epi32(qx), laneX);
            __m256i inside = _mm256_and_si256(_mm256_and_si256(_mm256_cmpgt_epi32(at[0], zero), _mm256_cmpgt_epi32(at[1], zero)),
                                              _mm256_cmpgt_epi32(at[2], zero));
            if (Bounds)
                inside = _mm256_and_si256(_mm256_and_si256(inside, rowsIn),
                                          _mm256_and_si256(_mm256_cmpgt_epi32(xs, minX), _mm256_cmpgt_epi32(maxX, xs)));
            for (int i = 0; i < 3; ++i) at[i] = _mm256_add_epi32(at[i], step4[i]);

            const __m256 px = _mm256_sub_ps(_mm256_add_ps(_mm256_cvtepi32_ps(xs), half), pos0x);
            const __m256 b1 = _mm256_add_ps(_mm256_mul_ps(db1x, px), b1y);
            const __m256 b2 = _mm256_add_ps(_mm256_mul_ps(db2x, px), b2y);
            const __m256 b0 = _mm256_sub_ps(_mm256_sub_ps(one, b1), b2);
            // interpolateDepth: b0 d0 + b1 d1 + b2 d2, left to right.
            const __m256 depth = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(b0, depth0), _mm256_mul_ps(b1, depth1)),
                                               _mm256_mul_ps(b2, depth2));
            float* d0 = depthRow + (qx - buffers.originX);
            float* d1 = d0 + kTileBufferStride;
            const __m256 buffer = _mm256_set_m128(_mm_loadu_ps(d1), _mm_loadu_ps(d0));
            const __m256 passes = _mm256_and_ps(
                _mm256_and_ps(_mm256_cmp_ps(depth, zeroF, _CMP_GE_OQ), _mm256_cmp_ps(depth, one, _CMP_LE_OQ)),
                _mm256_cmp_ps(depth, buffer, _CMP_LT_OQ));
            const __m256 keep = _mm256_and_ps(passes, _mm256_castsi256_ps(inside));
            const unsigned visible = unsigned(_mm256_movemask_ps(keep));
            // No branch on `visible`: a small triangle's blocks are a few, their outcomes hard to
            // predict, and blending in nothing costs less than a mispredicted branch.
            std::uint32_t* i0 = idRow + (qx - buffers.originX);
            std::uint32_t* i1 = i0 + kTileBufferStride;
            const __m256i oldIds = _mm256_set_m128i(_mm_loadu_si128(reinterpret_cast<const __m128i*>(i1)),
                                                    _mm_loadu_si128(reinterpret_cast<const __m128i*>(i0)));
            const __m256i newIds = _mm256_blendv_epi8(oldIds, newId, _mm256_castps_si256(keep));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(i0), _mm256_castsi256_si128(newIds));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(i1), _mm256_extracti128_si256(newIds, 1));
            const __m256 newDepth = _mm256_blendv_ps(buffer, depth, keep);
            _mm_storeu_ps(d0, _mm256_castps256_ps128(newDepth));
            _mm_storeu_ps(d1, _mm256_extractf128_ps(newDepth, 1));
            won += unsigned(__builtin_popcount(visible));
        }
    }
    return won;
}

} // namespace

// The coverage and depth test (each lane the scalar reference's float operations, in the same
// order); where a pixel passes, its depth is written and its id set. Nothing is shaded here.
std::size_t rasterizeVisibility(const ScreenTriangle& tri, std::uint32_t id, const RasterContext& ctx,
                                const TileRect& tile, const TileBuffers& buffers) {
    QuadRange q;
    if (!quadRange(tri, ctx, tile, q)) return 0;
    const ScreenVertex &v0 = tri.v[0], &v1 = tri.v[1], &v2 = tri.v[2];

    const FixedPoint2 p0 = v0.p, p1 = v1.p, p2 = v2.p;
    const std::int32_t extentX = std::max(p0.x, std::max(p1.x, p2.x)) - std::min(p0.x, std::min(p1.x, p2.x));
    const std::int32_t extentY = std::max(p0.y, std::max(p1.y, p2.y)) - std::min(p0.y, std::min(p1.y, p2.y));
    if (extentX < kSmallTriangleExtent && extentY < kSmallTriangleExtent) {
        // The tile's bounds matter only where they (or the target's) cut the triangle's: at its
        // right or bottom, or above it (the first quad row of an odd-height target is row -1).
        const FrameView& target = ctx.target;
        const bool cut = q.maxX != tri.maxX || q.minY != tri.minY || q.maxY != tri.maxY || tri.maxX == target.width - 1 ||
                         tri.minY == 0 || tri.maxY == target.height - 1;
        return cut ? visibilityBlocks<true>(tri, id, q, buffers) : visibilityBlocks<false>(tri, id, q, buffers);
    }

    // The three edge values at the first quad's top-left pixel, bias included, and their steps
    // per pixel. (Set up per call, not once per triangle in the triangle stage: on the default
    // scene a triangle touches 1.0 tiles on average, and setting them up ahead cost more than
    // it saved.)
    const EdgeStepper edges(tri, q.firstQx, q.firstQy);

    // Otherwise quad by quad in 64 bits: the three edge values at the quad's four pixels, one
    // int64 lane each.
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
    const __m128 depth0 = _mm_set1_ps(v0.depth), depth1 = _mm_set1_ps(v1.depth), depth2 = _mm_set1_ps(v2.depth);
    const __m128i laneX = _mm_setr_epi32(0, 1, 0, 1), laneY = _mm_setr_epi32(0, 0, 1, 1);
    const __m128i newId = _mm_set1_epi32(int(id));

    std::size_t won = 0;
    for (int qy = q.firstQy; qy <= q.maxY; qy += 2) {
        __m256i at[3] = {rowStart[0], rowStart[1], rowStart[2]};
        for (int i = 0; i < 3; ++i) rowStart[i] = _mm256_add_epi64(rowStart[i], stepY2[i]);
        const __m128 py = _mm_sub_ps(_mm_add_ps(_mm_cvtepi32_ps(_mm_add_epi32(_mm_set1_epi32(qy), laneY)), half), pos0y);
        const __m128 b1y = _mm_mul_ps(db1y, py), b2y = _mm_mul_ps(db2y, py);
        // The quad's two rows in the tile's buffers: always within them, even where the
        // pixels are not within the target, so they are read and written whole.
        const std::size_t row = std::size_t(qy - buffers.originY) * kTileBufferStride;
        std::uint32_t* idRow = buffers.ids + row;
        float* depthRow = buffers.depth + row;

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
            // interpolateDepth: b0 d0 + b1 d1 + b2 d2, left to right.
            const __m128 depth = _mm_add_ps(_mm_add_ps(_mm_mul_ps(b[0], depth0), _mm_mul_ps(b[1], depth1)),
                                            _mm_mul_ps(b[2], depth2));

            float* d0 = depthRow + (qx - buffers.originX);
            float* d1 = d0 + kTileBufferStride;
            const __m128 buffer = _mm_castsi128_ps(_mm_unpacklo_epi64(
                _mm_loadl_epi64(reinterpret_cast<const __m128i*>(d0)), _mm_loadl_epi64(reinterpret_cast<const __m128i*>(d1))));
            const __m128 passes = _mm_and_ps(
                _mm_and_ps(_mm_cmp_ps(depth, _mm_setzero_ps(), _CMP_GE_OQ), _mm_cmp_ps(depth, one, _CMP_LE_OQ)),
                _mm_cmp_ps(depth, buffer, _CMP_LT_OQ));
            const unsigned visible = covered & unsigned(_mm_movemask_ps(passes));
            if (visible == 0) continue;

            const __m128i keep = laneMask(visible);
            std::uint32_t* i0 = idRow + (qx - buffers.originX);
            std::uint32_t* i1 = i0 + kTileBufferStride;
            const __m128i oldIds = _mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(i0)),
                                                      _mm_loadl_epi64(reinterpret_cast<const __m128i*>(i1)));
            const __m128i newIds = _mm_blendv_epi8(oldIds, newId, keep);
            _mm_storel_epi64(reinterpret_cast<__m128i*>(i0), newIds);
            _mm_storel_epi64(reinterpret_cast<__m128i*>(i1), _mm_unpackhi_epi64(newIds, newIds));
            const __m128 newDepth = _mm_blendv_ps(buffer, depth, _mm_castsi128_ps(keep));
            _mm_storel_epi64(reinterpret_cast<__m128i*>(d0), _mm_castps_si128(newDepth));
            _mm_storel_epi64(reinterpret_cast<__m128i*>(d1), _mm_castps_si128(_mm_movehl_ps(newDepth, newDepth)));
            won += unsigned(__builtin_popcount(visible));
        }
    }
    return won;
}

void loadTileDepth(const RasterContext& ctx, const TileRect& tile, const TileBuffers& buffers) {
    for (int y = tile.y0; y <= tile.y1; ++y)
        std::copy_n(ctx.target.depth + std::size_t(y) * std::size_t(ctx.target.width) + std::size_t(tile.x0),
                    tile.x1 - tile.x0 + 1,
                    buffers.depth + std::size_t(y - buffers.originY) * kTileBufferStride + std::size_t(tile.x0 - buffers.originX));
}

void storeTileDepth(const RasterContext& ctx, const TileRect& tile, const TileBuffers& buffers) {
    for (int y = tile.y0; y <= tile.y1; ++y) {
        float* row = buffers.depth + std::size_t(y - buffers.originY) * kTileBufferStride + std::size_t(tile.x0 - buffers.originX);
        const std::size_t n = std::size_t(tile.x1 - tile.x0 + 1);
        streamRow(ctx.target.depth + std::size_t(y) * std::size_t(ctx.target.width) + std::size_t(tile.x0), row, n);
        std::fill_n(row, n, 1.0f); // ready for the next tile
    }
    streamFence();
}

// Every quad of the tile: each distinct id among its pixels is a job, whose texel coordinates
// are found on the quad's four lanes (the helpers give that triangle's level of detail); its
// colours (each lane the scalar reference's shading) are kept in the pixels that triangle won,
// and the other pixels get the clear colour. Bilinear and trilinear samples are taken four won
// pixels at a time, across jobs (PixelStream). The tile's colours then go to the target.
void shadeTile(const TileTriangle* triangles, const RasterContext& ctx, const TileRect& tile,
               const TileBuffers& buffers) {
    const __m128i zero = _mm_setzero_si128(), clear = _mm_set1_epi32(int(ctx.settings.clearColor));
    ShadeJob jobs[kShadeBatch];
    PixelStream stream;
    int count = 0;
    for (int qy = buffers.originY; qy <= tile.y1; qy += 2) {
        const std::size_t row = std::size_t(qy - buffers.originY) * kTileBufferStride;
        std::uint32_t* idRow = buffers.ids + row;
        std::uint32_t* colorRow = buffers.color + row;
        for (int qx = buffers.originX; qx <= tile.x1; qx += 2) {
            std::uint32_t* i0 = idRow + (qx - buffers.originX);
            std::uint32_t* c0 = colorRow + (qx - buffers.originX);
            _mm_storel_epi64(reinterpret_cast<__m128i*>(c0), clear);
            _mm_storel_epi64(reinterpret_cast<__m128i*>(c0 + kTileBufferStride), clear);
            const __m128i quadIds =
                _mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(i0)),
                                   _mm_loadl_epi64(reinterpret_cast<const __m128i*>(i0 + kTileBufferStride)));
            // The ids are read once: they go back to 0, ready for the next tile.
            _mm_storel_epi64(reinterpret_cast<__m128i*>(i0), zero);
            _mm_storel_epi64(reinterpret_cast<__m128i*>(i0 + kTileBufferStride), zero);
            alignas(16) std::uint32_t idLanes[4];
            _mm_store_si128(reinterpret_cast<__m128i*>(idLanes), quadIds);
            unsigned left = 0xFu & ~unsigned(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(quadIds, zero))));
            // Most quads hold one triangle; an edge between two gives two, rarely more.
            while (left != 0) {
                const std::uint32_t id = idLanes[__builtin_ctz(left)];
                const unsigned mine =
                    unsigned(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(quadIds, _mm_set1_epi32(int(id))))));
                left &= ~mine;
                ShadeJob& job = jobs[count++];
                job.triangle = &triangles[id - 1];
                job.qx = qx;
                job.qy = qy;
                job.mask = mine;
                if (count == kShadeBatch) {
                    shadeBatch(jobs, count, stream, ctx, buffers);
                    count = 0;
                }
            }
        }
    }
    shadeBatch(jobs, count, stream, ctx, buffers);
    flushPixels(stream, ctx, buffers);

    const FrameView& target = ctx.target;
    for (int y = tile.y0; y <= tile.y1; ++y)
        streamRow(target.color + std::size_t(y) * std::size_t(target.width) + std::size_t(tile.x0),
                  buffers.color + std::size_t(y - buffers.originY) * kTileBufferStride + std::size_t(tile.x0 - buffers.originX),
                  std::size_t(tile.x1 - tile.x0 + 1));
    streamFence();
}

} // namespace facet
