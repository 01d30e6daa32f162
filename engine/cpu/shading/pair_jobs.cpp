#include "cpu/shading/pair_jobs.h"
#include "core/quad_shading.h"

#include <algorithm>

namespace facet {

namespace {

// Sets the lanes of `l` the frame reads (appendPairPixels' choice) and leaves the others: their
// stores were 1% of a textured frame's instructions.
[[gnu::always_inline]] inline void quadPairLanes(QuadPairLanes& l, const TileTriangle& t, int qx, int qy,
                                                 const RasterContext& ctx) {
    const CornerAttributes &v0 = t.attributes->v[0], &v1 = t.attributes->v[1], &v2 = t.attributes->v[2];
    lanes::F32x8 b[3];
    BarycentricPlane<lanes::F32x8>(*t.tri).at(lanes::pixels8(qx, _mm256_setr_epi32(0, 1, 0, 1, 2, 3, 2, 3)),
                                              lanes::pixels8(qy, _mm256_setr_epi32(0, 0, 1, 1, 0, 0, 1, 1)), b);
    const auto attribute = [&b](float a0, float a1, float a2) {
        return interpolate(b, lanes::F32x8(a0), lanes::F32x8(a1), lanes::F32x8(a2)).v;
    };
    const __m256 invW = attribute(v0.invW, v1.invW, v2.invW);
    l.u = _mm256_div_ps(attribute(v0.uvOverW.x, v1.uvOverW.x, v2.uvOverW.x), invW);
    l.v = _mm256_div_ps(attribute(v0.uvOverW.y, v1.uvOverW.y, v2.uvOverW.y), invW);
    const bool lit = ctx.plan.lit;
    if (!ctx.plan.settings.headlight && !lit) return;
    l.nx = _mm256_div_ps(attribute(v0.nOverW.x, v1.nOverW.x, v2.nOverW.x), invW);
    l.ny = _mm256_div_ps(attribute(v0.nOverW.y, v1.nOverW.y, v2.nOverW.y), invW);
    l.nz = _mm256_div_ps(attribute(v0.nOverW.z, v1.nOverW.z, v2.nOverW.z), invW);
    if (!ctx.plan.settings.headlight) return;
    if (lit) {
        l.light = _mm256_set1_ps(1.0f);
        return;
    }
    const auto factor = [&](int h) {
        return simd::headlightFactor4(halfOf(l.nx, h), halfOf(l.ny, h), halfOf(l.nz, h), ctx.plan.viewForward);
    };
    l.light = _mm256_set_m128(factor(1), factor(0));
}

// Four vectors of quad pairs' lanes transposed by quads: row k holds pixel k of the four first
// quads in lanes 0-3 and of the four second quads in lanes 4-7 (a 4x4 transpose in each half).
inline void transposeQuads(const __m256 (&x)[4], __m256 (&rows)[4]) {
    const __m256 t0 = _mm256_unpacklo_ps(x[0], x[1]), t1 = _mm256_unpackhi_ps(x[0], x[1]); // a0 b0 a1 b1, a2 b2 a3 b3
    const __m256 t2 = _mm256_unpacklo_ps(x[2], x[3]), t3 = _mm256_unpackhi_ps(x[2], x[3]); // c0 d0 c1 d1, c2 d2 c3 d3
    rows[0] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
    rows[1] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    rows[2] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
    rows[3] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
}

// Appends the lanes `mask` of `l` to `p`, packed left as appendPixels packs a job's, at levels
// `levels`: the pixels of the quad pair whose pixel 0 is element `at` (plane 0).
inline void appendPairPixels(PixelLanes& p, unsigned mask, const QuadPairLanes& l, std::int32_t at,
                             const simd::LevelChoice8& levels, const RasterContext& ctx) {
    const __m256i order = _mm256_load_si256(reinterpret_cast<const __m256i*>(kLeftPack8.order[mask]));
    const auto floats = [&order](float* to, __m256 x) { _mm256_storeu_ps(to, _mm256_permutevar8x32_ps(x, order)); };
    const auto ints = [&order](std::int32_t* to, __m256i x) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(to), _mm256_permutevar8x32_epi32(x, order));
    };
    const int n = p.count;
    floats(p.u + n, l.u);
    floats(p.v + n, l.v);
    if (ctx.plan.settings.headlight) floats(p.light + n, l.light); // read only with the headlight
    if (ctx.plan.lit) {
        floats(p.nx + n, l.nx);
        floats(p.ny + n, l.ny);
        floats(p.nz + n, l.nz);
    }
    constexpr int s = kTileBufferStride;
    ints(p.at + n, _mm256_add_epi32(_mm256_set1_epi32(at), _mm256_setr_epi32(0, 1, s, s + 1, 2, 3, s + 2, s + 3)));
    ints(p.lo + n, levels.lo);
    ints(p.hi + n, levels.hi);
    floats(p.f + n, levels.f);
    p.count = n + __builtin_popcount(mask);
}

// The job's pixels to the stream (made one of its material's), each to the list for its levels.
// Inlined into shadePairJobs' last pass: as a call, its frame and its reloads of the settings
// cost a job ~29 instructions (3.8% of the textured sheet's frame).
[[gnu::always_inline]] inline void streamPairJob(PixelStream& s, const PairJob& job, const RasterContext& ctx,
                                                 const TileBuffers& buffers) {
    streamMaterial(s, job.triangle->material, ctx, buffers);
    const TextureFilter filter = ctx.plan.settings.filter;
    const simd::LevelChoice8 levels =
        simd::chooseLevels8(*s.texture, filter, filter == TextureFilter::Trilinear ? job.lod : _mm256_setzero_ps());
    const std::int32_t at = std::int32_t(buffers.at(job.qx, job.qy));
    if (const unsigned one = job.mask & ~levels.blends) {
        if (s.oneLevel.count > PixelLanes::kCapacity - 8) flushOneLevel(s, ctx, buffers);
        appendPairPixels(s.oneLevel, one, job.lanes, at, levels, ctx);
    }
    if (const unsigned two = job.mask & levels.blends) {
        if (s.twoLevels.count > PixelLanes::kCapacity - 8) flushTwoLevels(s, ctx, buffers);
        appendPairPixels(s.twoLevels, two, job.lanes, at, levels, ctx);
    }
}

// The levels of detail of jobs [0, count) of a batch, each quad's in its four lanes, found for
// four jobs' eight quads in one vector (a job's eight lanes hold two): quadSquaredLengths's
// differences (across: pixel 3 minus pixel 2; down: pixel 0 minus pixel 2; times the texture's
// size) and jobLevelsOfDetail's logarithm (a division and a polynomial), with the same
// operations. The batch's jobs from `count` to the next multiple of four take the last job's
// values, unread.
inline void pairJobLevelsOfDetail(PairJob (&jobs)[kShadeBatch], int count) {
    static_assert(kShadeBatch % 4 == 0, "jobs four at a time");
    for (int j = 0; j < count; j += 4) {
        const PairJob* four[4];
        for (int i = 0; i < 4; ++i) four[i] = &jobs[std::min(j + i, count - 1)];
        __m256 u[4], v[4];
        transposeQuads({four[0]->lanes.u, four[1]->lanes.u, four[2]->lanes.u, four[3]->lanes.u}, u);
        transposeQuads({four[0]->lanes.v, four[1]->lanes.v, four[2]->lanes.v, four[3]->lanes.v}, v);
        // Each job's texture size in its lanes (k and k + 4). static_cast<float> of the unsigned
        // sizes through int: they are far below 2^31.
        const auto size = [&four](auto field) {
            const auto at = [&](int i) {
                return static_cast<float>(int(field(four[i]->triangle->material->texture.levels[0])));
            };
            const __m128 s = _mm_setr_ps(at(0), at(1), at(2), at(3));
            return _mm256_set_m128(s, s);
        };
        const __m256 w = size([](const MipLevel& l) { return l.width; });
        const __m256 h = size([](const MipLevel& l) { return l.height; });
        const __m256 dxu = _mm256_mul_ps(_mm256_sub_ps(u[3], u[2]), w),
                     dxv = _mm256_mul_ps(_mm256_sub_ps(v[3], v[2]), h);
        const __m256 dyu = _mm256_mul_ps(_mm256_sub_ps(u[0], u[2]), w),
                     dyv = _mm256_mul_ps(_mm256_sub_ps(v[0], v[2]), h);
        const __m256 lods =
            simd::lodFromSquaredLengths8(_mm256_add_ps(_mm256_mul_ps(dxu, dxu), _mm256_mul_ps(dxv, dxv)),
                                         _mm256_add_ps(_mm256_mul_ps(dyu, dyu), _mm256_mul_ps(dyv, dyv)));
        // Lane i of each half is job i's quad: spread to its four lanes.
        jobs[j].lod = _mm256_permute_ps(lods, 0x00);
        jobs[j + 1].lod = _mm256_permute_ps(lods, 0x55);
        jobs[j + 2].lod = _mm256_permute_ps(lods, 0xAA);
        jobs[j + 3].lod = _mm256_permute_ps(lods, 0xFF);
    }
}

// Shades jobs [0, count) of a batch: their lanes, then their levels of detail, then the stream.
void shadePairJobs(PairJob (&jobs)[kShadeBatch], int count, PixelStream& s, const RasterContext& ctx,
                   const TileBuffers& buffers) {
    for (int j = 0; j < count; ++j) quadPairLanes(jobs[j].lanes, *jobs[j].triangle, jobs[j].qx, jobs[j].qy, ctx);
    if (ctx.plan.settings.filter == TextureFilter::Trilinear) pairJobLevelsOfDetail(jobs, count);
    for (int j = 0; j < count; ++j) streamPairJob(s, jobs[j], ctx, buffers);
}

} // namespace

void PairBatch::shade() {
    shadePairJobs(jobs_, count_, stream_, ctx_, buffers_);
    count_ = 0;
}

void PairBatch::shadeFull() {
    shadePairJobs(jobs_, kShadeBatch, stream_, ctx_, buffers_);
    count_ = 0;
}

} // namespace facet
