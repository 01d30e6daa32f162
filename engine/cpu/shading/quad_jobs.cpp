#include "cpu/shading/quad_jobs.h"
#include "core/quad_shading.h"

#include <algorithm>

namespace facet {

namespace {

using lanes::F32x4;

// For trilinear filtering, the squared lengths of a quad's texel coordinates' derivatives (as
// shadeQuadPixel forms them) into job.dx2 and job.dy2: textureLod((uv3 - uv2) * texSize,
// (uv0 - uv2) * texSize), both differences in one register: (u3 - u2) w, (v3 - v2) h,
// (u0 - u2) w, (v0 - v2) h; then each dot product x x + y y.
inline void quadSquaredLengths(const TextureView& texture, __m128 u, __m128 v, ShadeJob& job) {
    const MipLevel& level0 = texture.levels[0];
    // static_cast<float> of the unsigned sizes, through int (they are far below 2^31): GCC
    // converted the two unsigned ones in eleven instructions, these take one conversion.
    const __m128 size = _mm_cvtepi32_ps(_mm_setr_epi32(int(level0.width), int(level0.height), 0, 0));
    const __m128 uv01 = _mm_unpacklo_ps(u, v), uv23 = _mm_unpackhi_ps(u, v); // u0 v0 u1 v1, u2 v2 u3 v3
    const __m128 ends = _mm_shuffle_ps(uv23, uv01, _MM_SHUFFLE(1, 0, 3, 2));  // u3 v3 u0 v0
    const __m128 d = _mm_mul_ps(_mm_sub_ps(ends, _mm_movelh_ps(uv23, uv23)), _mm_movelh_ps(size, size));
    const __m128 dots = _mm_hadd_ps(_mm_mul_ps(d, d), _mm_setzero_ps());
    job.dx2 = _mm_cvtss_f32(dots);
    job.dy2 = _mm_cvtss_f32(_mm_movehdup_ps(dots));
}

// Shading, first pass: the job's headlight factor (from interpolateNormal per lane) and
// perspective-correct texel coordinates (interpolateUv per lane); for trilinear filtering,
// the squared lengths its level of detail comes from (as shadeQuadPixel forms them). Always
// inlined: GCC called it out of line from shadeBatch once the sampling passes shrank, 1.4 M
// more instructions a frame on facet-bench's textured sheet.
[[gnu::always_inline]] inline void jobTexelCoordinates(ShadeJob& job, const RasterContext& ctx) {
    const ScreenTriangle& tri = *job.triangle->tri;
    const TriangleAttributes& attributes = *job.triangle->attributes;
    const TextureView& texture = job.triangle->material->texture;
    job.lod = 0.0f;
    job.dx2 = job.dy2 = 0.0f;
    job.light = _mm_set1_ps(1.0f);
    const bool textured = texture.levelCount > 0;
    const bool lit = ctx.plan.lit;
    if (!textured && !ctx.plan.settings.headlight && !lit) return;
    F32x4 b[3];
    BarycentricPlane<F32x4>(tri).at(lanes::quadColumns(job.qx), lanes::quadRows(job.qy), b);
    const CornerAttributes &v0 = attributes.v[0], &v1 = attributes.v[1], &v2 = attributes.v[2];
    // The interpolated attributes of interpolateInvW, interpolateNormal and interpolateUv.
    const auto attribute = [&b](float a0, float a1, float a2) {
        return interpolate(b, F32x4(a0), F32x4(a1), F32x4(a2)).v;
    };
    const __m128 invW = attribute(v0.invW, v1.invW, v2.invW);
    if (ctx.plan.settings.headlight || lit) {
        const __m128 nx = _mm_div_ps(attribute(v0.nOverW.x, v1.nOverW.x, v2.nOverW.x), invW);
        const __m128 ny = _mm_div_ps(attribute(v0.nOverW.y, v1.nOverW.y, v2.nOverW.y), invW);
        const __m128 nz = _mm_div_ps(attribute(v0.nOverW.z, v1.nOverW.z, v2.nOverW.z), invW);
        if (lit) {
            job.nx = nx;
            job.ny = ny;
            job.nz = nz;
        } else {
            job.light = simd::headlightFactor4(nx, ny, nz, ctx.plan.viewForward);
        }
    }
    if (!textured) return;
    // interpolateUv: both coordinates divided by 1/w in one division of eight lanes.
    const __m256 uv = _mm256_div_ps(_mm256_set_m128(attribute(v0.uvOverW.y, v1.uvOverW.y, v2.uvOverW.y),
                                                    attribute(v0.uvOverW.x, v1.uvOverW.x, v2.uvOverW.x)),
                                    _mm256_set_m128(invW, invW));
    const __m128 u = _mm256_castps256_ps128(uv), v = _mm256_extractf128_ps(uv, 1);
    job.u = u;
    job.v = v;
    if (ctx.plan.settings.filter == TextureFilter::Trilinear) quadSquaredLengths(texture, u, v, job);
}

// Appends the pixels the job won, in their planes, to `p`: its quad's pixel 0 is element `at` of
// plane 0.
inline void appendPixels(PixelLanes& p, const ShadeJob& job, std::int32_t at, const simd::LevelChoice& levels,
                         bool lit) {
    const __m128i order = _mm_load_si128(reinterpret_cast<const __m128i*>(kLeftPack4.order[job.mask]));
    const int n = p.count;
    _mm_storeu_ps(p.u + n, _mm_permutevar_ps(job.u, order));
    _mm_storeu_ps(p.v + n, _mm_permutevar_ps(job.v, order));
    _mm_storeu_ps(p.light + n, _mm_permutevar_ps(job.light, order));
    if (lit) {
        _mm_storeu_ps(p.nx + n, _mm_permutevar_ps(job.nx, order));
        _mm_storeu_ps(p.ny + n, _mm_permutevar_ps(job.ny, order));
        _mm_storeu_ps(p.nz + n, _mm_permutevar_ps(job.nz, order));
    }
    const __m128i places = _mm_add_epi32(
        _mm_add_epi32(_mm_set1_epi32(at), _mm_setr_epi32(0, 1, kTileBufferStride, kTileBufferStride + 1)), job.plane);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p.at + n),
                     _mm_castps_si128(_mm_permutevar_ps(_mm_castsi128_ps(places), order)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p.lo + n), _mm_set1_epi32(levels.lo));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p.hi + n), _mm_set1_epi32(levels.hi));
    _mm_storeu_ps(p.f + n, _mm_set1_ps(levels.f));
    p.count = n + __builtin_popcount(job.mask);
}

// Adds the pixels `job` won to the list of the stream (one of its material's, streamMaterial)
// for their levels, first sampling what the list holds if it is full.
inline void appendJob(PixelStream& s, const ShadeJob& job, const RasterContext& ctx, const TileBuffers& buffers) {
    const simd::LevelChoice levels = simd::chooseLevels(*s.texture, ctx.plan.settings.filter, job.lod);
    const bool one = levels.f == 0.0f; // chooseLevels's one level: lo = hi
    PixelLanes& p = one ? s.oneLevel : s.twoLevels;
    if (p.count > PixelLanes::kCapacity - 4) (one ? flushOneLevel : flushTwoLevels)(s, ctx, buffers);
    appendPixels(p, job, std::int32_t(buffers.at(job.qx, job.qy)), levels,
                 ctx.plan.lit);
}

// Adds the pixels `job` won to the stream.
void streamPixels(PixelStream& s, const ShadeJob& job, const RasterContext& ctx, const TileBuffers& buffers) {
    streamMaterial(s, job.triangle->material, ctx, buffers);
    appendJob(s, job, ctx, buffers);
}

// The packed colours of a job's four pixels that the stream does not take: an untextured
// material, or nearest filtering.
inline __m128i jobColor(const ShadeJob& job, const RasterContext& ctx, const LightRig& rig) {
    const ShadeMaterial& material = *job.triangle->material;
    if (ctx.plan.lit) {
        alignas(32) std::uint32_t colors[8];
        litColors8(material, nullptr, _mm256_set_m128(job.nx, job.nx), _mm256_set_m128(job.ny, job.ny),
                   _mm256_set_m128(job.nz, job.nz), rig, ctx, colors);
        return _mm_load_si128(reinterpret_cast<const __m128i*>(colors));
    }
    simd::Rgba4 c = materialColor4(material);
    if (material.texture.levelCount > 0) {
        const __m128i index = simd::nearestIndex4(material.texture, job.u, job.v);
        c = ctx.indexedLoads == IndexedLoads::ByLane
                ? simd::fetchNearest4<IndexedLoads::ByLane>(material.texture, index)
                : simd::fetchNearest4<IndexedLoads::Gather>(material.texture, index);
    }
    if (ctx.plan.settings.headlight) c = simd::applyHeadlight4(c, job.light);
    return simd::pack4(c);
}

// A job of a triangle with vertex colours, which the vectorised passes do not interpolate: each
// pixel it won shaded by the scalar reference itself (meshes without vertex colours never
// come here, so they keep the vectorised passes at no cost). Out of line, so the vectorised
// passes' code stays as it was.
[[gnu::noinline]] void shadeJobScalar(const ShadeJob& job, const TriangleColors* colors, const RasterContext& ctx,
                                      const TileBuffers& buffers) {
    alignas(16) std::int32_t plane[4];
    _mm_store_si128(reinterpret_cast<__m128i*>(plane), job.plane);
    std::uint32_t* c0 = buffers.color + buffers.at(job.qx, job.qy);
    for (int k = 0; k < 4; ++k)
        if (job.mask >> k & 1)
            c0[quadElement(std::size_t(plane[k]), k)] =
                shadeQuadPixel({*job.triangle->tri, *job.triangle->attributes}, *job.triangle->material, ctx.plan, job.qx, job.qy, k, colors);
}

// The levels of detail of jobs [0, count) from their squared lengths (trilinear filtering),
// eight at a time.
void jobLevelsOfDetail(ShadeJob* jobs, int count) {
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

} // namespace

void shadeBatch(ShadeJob* jobs, int count, PixelStream& stream, TileTriangles drawn, const RasterContext& ctx,
                const TileBuffers& buffers) {
    // Every triangle has vertex colours, or none has.
    if (__builtin_expect(ctx.plan.sideRecords, false)) {
        for (int j = 0; j < count; ++j)
            shadeJobScalar(jobs[j], ctx.plan.sideRecords ? drawn.colors[jobs[j].triangle - drawn.triangles] : nullptr, ctx,
                           buffers);
        return;
    }
    for (int j = 0; j < count; ++j) jobTexelCoordinates(jobs[j], ctx);
    if (ctx.plan.settings.filter == TextureFilter::Trilinear) jobLevelsOfDetail(jobs, count);
    const bool streamed = ctx.plan.settings.filter != TextureFilter::Nearest;
    const bool lit = ctx.plan.lit;
    for (int j = 0; j < count; ++j) {
        const ShadeJob& job = jobs[j];
        if (lit && !litVectorised(*job.triangle->material, ctx.plan.settings.filter)) {
            shadeJobScalar(job, nullptr, ctx, buffers);
            continue;
        }
        if (streamed && job.triangle->material->texture.levelCount > 0) {
            streamPixels(stream, job, ctx, buffers);
            continue;
        }
        storeLayerColors(buffers.color + buffers.at(job.qx, job.qy), jobColor(job, ctx, stream.rig), job.mask,
                         job.plane);
    }
}

} // namespace facet
