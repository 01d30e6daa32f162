#include "cpu/raster_triangle.h"
#include "core/forward_draw.h"
#include "core/quad_shading.h"
#include "cpu/block_depth_bounds.h"
#include "cpu/lit_lanes.h"
#include "cpu/quad_coverage.h"
#include "cpu/sample_pair_walk.h"
#include "cpu/simd_quad.h"
#include "cpu/stream_store.h"
#include "cpu/wide_filter.h"

#include <algorithm>
#include <type_traits>

namespace facet {

namespace {

using lanes::F32x4;
using lanes::laneMask;

// A quad's pixels that one triangle won: a unit of shading. The shading passes collect a batch
// of them and shade the batch in passes, each a loop whose iterations are independent: the
// texel coordinates (and headlight) of every job, the levels of detail eight at a time, then
// the colours. A quad's shading is one long chain of dependent steps (divisions, the
// logarithm, the texel addresses, the gathers, the blends); one quad after another, each
// chain waited for the last, while a loop of independent iterations lets the processor run
// several at once.
struct ShadeJob {
    __m128 u, v;    // texel coordinates per pixel (textured materials)
    __m128 light;   // the headlight factor per pixel (1 without the headlight)
    __m128 nx, ny, nz; // the lit model's interpolated normal per pixel
    const TileTriangle* triangle;
    float dx2, dy2; // squared lengths of the texel coordinates' derivatives (trilinear filtering)
    float lod;      // level of detail (trilinear filtering)
    __m128i plane;  // per pixel, its element's distance from plane 0's: with multisampling the
                    // plane of the layer the triangle is in there (a pixel holds it in one only)
    int qx, qy;     // the quad's top-left pixel
    unsigned mask;  // the pixels this triangle won (bit k: pixel k)
};

constexpr int kShadeBatch = 16;

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
    const bool lit = ctx.settings.shading == ShadingModel::Lit;
    if (!textured && !ctx.settings.headlight && !lit) return;
    F32x4 b[3];
    BarycentricPlane<F32x4>(tri).at(lanes::quadColumns(job.qx), lanes::quadRows(job.qy), b);
    const CornerAttributes &v0 = attributes.v[0], &v1 = attributes.v[1], &v2 = attributes.v[2];
    // The interpolated attributes of interpolateInvW, interpolateNormal and interpolateUv.
    const auto attribute = [&b](float a0, float a1, float a2) {
        return interpolate(b, F32x4(a0), F32x4(a1), F32x4(a2)).v;
    };
    const __m128 invW = attribute(v0.invW, v1.invW, v2.invW);
    if (ctx.settings.headlight || lit) {
        const __m128 nx = _mm_div_ps(attribute(v0.nOverW.x, v1.nOverW.x, v2.nOverW.x), invW);
        const __m128 ny = _mm_div_ps(attribute(v0.nOverW.y, v1.nOverW.y, v2.nOverW.y), invW);
        const __m128 nz = _mm_div_ps(attribute(v0.nOverW.z, v1.nOverW.z, v2.nOverW.z), invW);
        if (lit) {
            job.nx = nx;
            job.ny = ny;
            job.nz = nz;
        } else {
            job.light = simd::headlightFactor4(nx, ny, nz, ctx.viewForward);
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
    if (ctx.settings.filter == TextureFilter::Trilinear) quadSquaredLengths(texture, u, v, job);
}

// The pixels of jobs sampling one texture with a bilinear or trilinear filter, gathered to
// vectors: a job's quad usually holds only one or two pixels its triangle won, so sampling
// whole quads would spend half the work on pixels that are thrown away. Per pixel: its texel
// coordinates, the levels its job samples, the headlight factor, the lit model's normal and
// its place in the tile's colour buffer. A job's four lanes (a pair job's eight) are packed
// left (the won ones first) and stored whole, overlapping the next job's; the arrays' spare
// lanes leave room for that and for the padded last vector.
struct PixelLanes {
    // 128 rather than 64: a flush plans twice the vectors before their texels are read, and the
    // textured frames took 0.95-0.99 of the time (facet-bench A/B, AVX2 and AVX-512 filters).
    static constexpr int kCapacity = 128;
    int count = 0;
    alignas(32) float u[kCapacity + 8], v[kCapacity + 8], f[kCapacity + 8], light[kCapacity + 8];
    alignas(32) float nx[kCapacity + 8], ny[kCapacity + 8], nz[kCapacity + 8];
    alignas(32) std::int32_t lo[kCapacity + 8], hi[kCapacity + 8], at[kCapacity + 8];
};

// The stream's pixels in two lists: those sampling one level (magnified, or the bilinear
// filter) take one lane of a bilinear vector, eight pixels to a vector; those blending two
// levels take a lane on each, four to a vector. In a close view most pixels are magnified,
// and one list for both would give half their lanes to a second level they do not blend.
struct PixelStream {
    const TextureView* texture = nullptr;
    simd::LevelTable levels;                 // texture's, built when the stream takes it (not per flush)
    WideLevels wideLevels;                   // likewise, for RasterContext::wideFilter
    const ShadeMaterial* material = nullptr; // the lit model's: one material per stream
    LightRig rig{};                          // the lit model's lights for this frame
    PixelLanes oneLevel, twoLevels;
};

// For each N-bit mask, the lane order that packs its set lanes first.
template <int N> struct LeftPack {
    alignas(32) std::int32_t order[1 << N][N];
    constexpr LeftPack() : order{} {
        for (unsigned mask = 0; mask < (1u << N); ++mask) {
            int n = 0;
            for (int k = 0; k < N; ++k)
                if (mask >> k & 1) order[mask][n++] = k;
            for (int k = n; k < N; ++k) order[mask][k] = 0;
        }
    }
};
constexpr LeftPack<4> kLeftPack4;
constexpr LeftPack<8> kLeftPack8;

// Lanes 0-3 (h = 0) or 4-7 (h = 1) of eight, or of a colour.
inline __m128 halfOf(__m256 v, int h) { return h ? _mm256_extractf128_ps(v, 1) : _mm256_castps256_ps128(v); }
inline simd::Rgba4 halfOf(const simd::Rgba8& c, int h) {
    return {halfOf(c.r, h), halfOf(c.g, h), halfOf(c.b, h), halfOf(c.a, h)};
}

// The lit model's packed colours of eight pixels of `m` with normals (nx, ny, nz), into `out`:
// its texture's sample `t` (in linear light; null for an untextured material) applied as
// litSurface applies it, then litFragment and encodeFragment on the lanes.
inline void litColors8(const ShadeMaterial& m, const simd::Rgba8* t, __m256 nx, __m256 ny, __m256 nz,
                       const LightRig& rig, const RasterContext& ctx, std::uint32_t* out) {
    using F = lanes::F32x8;
    LitSurfaceLanes<F> s{splat3<F>(m.kd), splat3<F>(m.ks), splat3<F>(m.ke), F(m.ns), F(m.opacity)};
    if (t) {
        s.kd = s.kd * Vec3Lanes<F>{F(t->r), F(t->g), F(t->b)};
        s.alpha = s.alpha * F(t->a);
    }
    const ColorLanes<F> c = encodeFragmentLanes(
        litFragmentLanes(s, m.illumination, m.ka, ctx.settings.lights, rig, Vec3Lanes<F>{F(nx), F(ny), F(nz)}));
    const simd::Rgba8 colors{c.r.v, c.g.v, c.b.v, c.a.v};
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), simd::pack4(halfOf(colors, 0)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 4), simd::pack4(halfOf(colors, 1)));
}

// The colours of pixels [first, first + N) of `p`, to their places in the tile. Those past its
// count are padLanes' copies of its last pixel: its colour to its place again. (A fixed count
// unrolls; a loop to the count took about three times the instructions.)
template <int N>
inline void writeColors(const PixelLanes& p, int first, const std::uint32_t* colors, const TileBuffers& buffers) {
    for (int k = 0; k < N; ++k) buffers.color[p.at[first + k]] = colors[k];
}

// The lit model's colours of the two-level pixels: their texture sampled four pixels at a time
// (decoded to linear light per texel), lit eight at a time. Out of line, so the classic
// look's loop in flushTwoLevels stays as it was.
template <IndexedLoads L>
[[gnu::noinline]] void litStreamColors(const PixelStream& s, const simd::SamplePlan4* plans, int vectors,
                                       const RasterContext& ctx, const TileBuffers& buffers) {
    const PixelLanes& p = s.twoLevels;
    const simd::SrgbTexel8<L> texel{s.material->srgbTable};
    for (int g = 0; g < vectors; g += 2) {
        const simd::Rgba4 a = simd::fetchSamples4<L>(*s.texture, plans[g], texel);
        const simd::Rgba4 b = g + 1 < vectors ? simd::fetchSamples4<L>(*s.texture, plans[g + 1], texel) : a;
        const simd::Rgba8 t{_mm256_set_m128(b.r, a.r), _mm256_set_m128(b.g, a.g), _mm256_set_m128(b.b, a.b),
                            _mm256_set_m128(b.a, a.a)};
        alignas(32) std::uint32_t colors[8];
        litColors8(*s.material, &t, _mm256_loadu_ps(p.nx + 4 * g), _mm256_loadu_ps(p.ny + 4 * g),
                   _mm256_loadu_ps(p.nz + 4 * g), s.rig, ctx, colors);
        if (g + 1 < vectors)
            writeColors<8>(p, 4 * g, colors, buffers);
        else // lanes 4-7 repeat a's
            writeColors<4>(p, 4 * g, colors, buffers);
    }
}

// Whether the vectorised passes draw the lit model's pixels of `m`: a material whose only map
// is map_Kd, sampled bilinear or trilinear (with the CPU's sRGB table). Others (and vertex
// colours, see shadeBatch) take the scalar path, shadeQuadPixel itself.
inline bool litVectorised(const ShadeMaterial& m, TextureFilter filter) {
    const bool onlyKd = m.specularMap.levelCount == 0 && m.shininessMap.levelCount == 0 &&
                        m.emissionMap.levelCount == 0 && m.alphaMap.levelCount == 0 && m.bumpMap.levelCount == 0;
    return onlyKd && (m.texture.levelCount == 0 || (filter != TextureFilter::Nearest && m.srgbTable));
}

// The classic model's packed texture colours of pixels [first, first + 4) of `p`, times their
// headlight factors where the headlight is on (as shadeFragment: the sample unpacked, lit, packed).
inline __m128i withHeadlight(__m128i colors, const PixelLanes& p, int first, const RasterContext& ctx) {
    if (!ctx.settings.headlight) return colors;
    return simd::pack4(simd::applyHeadlight4(simd::unpack4(colors), _mm_load_ps(p.light + first)));
}

// The last vector's unused lanes, up to `end`, copy the last pixel: they sample (and the lit
// model's light) it again, for nothing, and write its colour to its place again.
void padLanes(PixelLanes& p, int end) {
    const int last = p.count - 1;
    for (int k = p.count; k < end; ++k) {
        p.u[k] = p.u[last];
        p.v[k] = p.v[last];
        p.f[k] = p.f[last];
        p.light[k] = p.light[last];
        p.lo[k] = p.lo[last];
        p.hi[k] = p.hi[last];
        p.nx[k] = p.nx[last];
        p.ny[k] = p.ny[last];
        p.nz[k] = p.nz[last];
        p.at[k] = p.at[last];
    }
}

// The classic model's colours of the pixels of `p`, by cpu/wide_filter.h's AVX-512 filter
// `filter` (`step` pixels to a vector).
template <int step, class Filter>
[[gnu::noinline]] void flushWide(PixelLanes& p, Filter filter, const PixelStream& s, const RasterContext& ctx,
                                 const TileBuffers& buffers) {
    padLanes(p, (p.count + step - 1) & ~(step - 1));
    alignas(32) std::uint32_t colors[PixelLanes::kCapacity + 8];
    filter(*s.texture, s.wideLevels, WidePixels{p.u, p.v, p.lo, p.hi, p.f, p.count}, colors);
    for (int g = 0; g < p.count; g += 8) {
        if (ctx.settings.headlight)
            for (int h = 0; h < 8; h += 4) {
                __m128i* at = reinterpret_cast<__m128i*>(colors + g + h);
                _mm_store_si128(at, withHeadlight(_mm_load_si128(at), p, g + h, ctx));
            }
        writeColors<8>(p, g, colors + g, buffers);
    }
    p.count = 0;
}

// Whether the stream's classic-model pixels take cpu/wide_filter.h's filters.
inline bool wideFilters(const PixelStream& s, const RasterContext& ctx) {
    return ctx.wideFilter && s.wideLevels.fits && ctx.settings.shading == ShadingModel::Classic;
}

// Samples the pixels blending two levels, four at a time (lanes 0-3 on their lo levels, 4-7
// on their hi levels), and writes their colours.
template <IndexedLoads L>
void flushTwoLevelsBy(PixelStream& s, const RasterContext& ctx, const TileBuffers& buffers) {
    PixelLanes& p = s.twoLevels;
    if (p.count == 0) return;
    if (wideFilters(s, ctx)) return flushWide<8>(p, filterTwoLevels16, s, ctx, buffers);
    const TextureView& texture = *s.texture;
    const simd::LevelTable& levels = s.levels;
    const int vectors = (p.count + 3) / 4;
    const bool lit = ctx.settings.shading == ShadingModel::Lit;
    padLanes(p, lit ? (p.count + 7) & ~7 : 4 * vectors);
    simd::SamplePlan4 plans[PixelLanes::kCapacity / 4];
    for (int g = 0; g < vectors; ++g) {
        const auto ints = [&](const std::int32_t* a) {
            return _mm_load_si128(reinterpret_cast<const __m128i*>(a + 4 * g));
        };
        plans[g] = simd::planSamples4(levels, _mm_load_ps(p.u + 4 * g), _mm_load_ps(p.v + 4 * g), ints(p.lo),
                                      ints(p.hi), _mm_load_ps(p.f + 4 * g));
    }
    if (lit) {
        litStreamColors<L>(s, plans, vectors, ctx, buffers);
        p.count = 0;
        return;
    }
    for (int g = 0; g < vectors; ++g) {
        alignas(16) std::uint32_t colors[4];
        _mm_store_si128(reinterpret_cast<__m128i*>(colors),
                        withHeadlight(simd::filterSamples4<L>(texture, plans[g]), p, 4 * g, ctx));
        writeColors<4>(p, 4 * g, colors, buffers);
    }
    p.count = 0;
}

// Samples the pixels of one level, eight at a time, and writes their colours: the bilinear
// sample of their level is what fetchSamples4 and filterSamples4 give them, as a blend of lo
// with weight 0 is lo (see simd::LevelChoice).
template <IndexedLoads L>
void flushOneLevelBy(PixelStream& s, const RasterContext& ctx, const TileBuffers& buffers) {
    PixelLanes& p = s.oneLevel;
    if (p.count == 0) return;
    if (wideFilters(s, ctx)) return flushWide<16>(p, filterOneLevel16, s, ctx, buffers);
    const TextureView& texture = *s.texture;
    const simd::LevelTable& levels = s.levels;
    const bool lit = ctx.settings.shading == ShadingModel::Lit;
    padLanes(p, (p.count + 7) & ~7);
    for (int g = 0; g < p.count; g += 8) {
        const simd::Bilinear8Plan plan = simd::planBilinear8(
            levels.lanes(_mm256_load_si256(reinterpret_cast<const __m256i*>(p.lo + g))), _mm256_load_ps(p.u + g),
            _mm256_load_ps(p.v + g));
        alignas(32) std::uint32_t colors[8];
        if (lit) {
            const simd::Rgba8 t = simd::fetchBilinear8<L>(texture, plan, simd::SrgbTexel8<L>{s.material->srgbTable});
            litColors8(*s.material, &t, _mm256_load_ps(p.nx + g), _mm256_load_ps(p.ny + g), _mm256_load_ps(p.nz + g),
                       s.rig, ctx, colors);
        } else {
            const __m256i c = simd::filterBilinear8x8<L>(texture, plan);
            for (int h = 0; h < 2; ++h)
                _mm_store_si128(
                    reinterpret_cast<__m128i*>(colors + 4 * h),
                    withHeadlight(h ? _mm256_extracti128_si256(c, 1) : _mm256_castsi256_si128(c), p, g + 4 * h, ctx));
        }
        writeColors<8>(p, g, colors, buffers);
    }
    p.count = 0;
}

// The two above with the context's IndexedLoads.
void flushTwoLevels(PixelStream& s, const RasterContext& ctx, const TileBuffers& buffers) {
    if (ctx.indexedLoads == IndexedLoads::ByLane)
        flushTwoLevelsBy<IndexedLoads::ByLane>(s, ctx, buffers);
    else
        flushTwoLevelsBy<IndexedLoads::Gather>(s, ctx, buffers);
}

void flushOneLevel(PixelStream& s, const RasterContext& ctx, const TileBuffers& buffers) {
    if (ctx.indexedLoads == IndexedLoads::ByLane)
        flushOneLevelBy<IndexedLoads::ByLane>(s, ctx, buffers);
    else
        flushOneLevelBy<IndexedLoads::Gather>(s, ctx, buffers);
}

// Samples the stream's pixels and writes their colours.
void flushPixels(PixelStream& s, const RasterContext& ctx, const TileBuffers& buffers) {
    flushOneLevel(s, ctx, buffers);
    flushTwoLevels(s, ctx, buffers);
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

// Makes the stream one of `material`'s: samples what it holds, then takes its texture.
[[gnu::noinline]] void switchStream(PixelStream& s, const ShadeMaterial* material, const RasterContext& ctx,
                                    const TileBuffers& buffers) {
    flushPixels(s, ctx, buffers);
    if (s.texture != &material->texture) {
        s.levels = simd::LevelTable(material->texture);
        if (ctx.wideFilter) s.wideLevels = WideLevels(material->texture);
    }
    s.texture = &material->texture;
    s.material = material;
}

// Makes the stream one of `material`'s texture (and, in the lit model, of `material`), first
// sampling what it holds if it is for another. The test inline, the switch out of line: whole,
// with the level table's build, GCC called it for every job, a prologue and epilogue of about
// 20 instructions.
[[gnu::always_inline]] inline void streamMaterial(PixelStream& s, const ShadeMaterial* material,
                                                  const RasterContext& ctx, const TileBuffers& buffers) {
    const bool lit = ctx.settings.shading == ShadingModel::Lit;
    if (s.texture != &material->texture || (lit && s.material != material)) switchStream(s, material, ctx, buffers);
}

// Adds the pixels `job` won to the list of the stream (one of its material's, streamMaterial)
// for their levels, first sampling what the list holds if it is full.
inline void appendJob(PixelStream& s, const ShadeJob& job, const RasterContext& ctx, const TileBuffers& buffers) {
    const simd::LevelChoice levels = simd::chooseLevels(*s.texture, ctx.settings.filter, job.lod);
    const bool one = levels.f == 0.0f; // chooseLevels's one level: lo = hi
    PixelLanes& p = one ? s.oneLevel : s.twoLevels;
    if (p.count > PixelLanes::kCapacity - 4) (one ? flushOneLevel : flushTwoLevels)(s, ctx, buffers);
    appendPixels(p, job, std::int32_t(buffers.at(job.qx, job.qy)), levels,
                 ctx.settings.shading == ShadingModel::Lit);
}

// Adds the pixels `job` won to the stream.
void streamPixels(PixelStream& s, const ShadeJob& job, const RasterContext& ctx, const TileBuffers& buffers) {
    streamMaterial(s, job.triangle->material, ctx, buffers);
    appendJob(s, job, ctx, buffers);
}

// An untextured material's colour in the classic look, in every lane.
inline simd::Rgba4 materialColor4(const ShadeMaterial& material) {
    return simd::Rgba4{_mm_set1_ps(material.color.r), _mm_set1_ps(material.color.g), _mm_set1_ps(material.color.b),
                       _mm_set1_ps(material.color.a)};
}

// The packed colours of a job's four pixels that the stream does not take: an untextured
// material, or nearest filtering.
inline __m128i jobColor(const ShadeJob& job, const RasterContext& ctx, const LightRig& rig) {
    const ShadeMaterial& material = *job.triangle->material;
    if (ctx.settings.shading == ShadingModel::Lit) {
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
    if (ctx.settings.headlight) c = simd::applyHeadlight4(c, job.light);
    return simd::pack4(c);
}

// Pixel k's element of the quad whose pixel 0 is element `at` of a tile buffer.
inline std::size_t quadElement(std::size_t at, int k) { return at + std::size_t((k >> 1) * kTileBufferStride + (k & 1)); }

// The packed colours of a quad's pixels `mask` (lane k: pixel k) into the colour buffer whose
// element 0 is the quad's pixel 0; its other pixels keep theirs.
inline void storeQuadColors(std::uint32_t* c0, __m128i colors, unsigned mask) {
    std::uint32_t* c1 = c0 + kTileBufferStride;
    const __m128i old = _mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(c0)),
                                           _mm_loadl_epi64(reinterpret_cast<const __m128i*>(c1)));
    const __m128i color = _mm_blendv_epi8(old, colors, laneMask(mask));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(c0), color);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(c1), _mm_unpackhi_epi64(color, color));
}

// storeQuadColors with each pixel in its plane (`plane`, as ShadeJob::plane); all in plane 0
// without multisampling.
inline void storeLayerColors(std::uint32_t* c0, __m128i colors, unsigned mask, __m128i plane) {
    if (_mm_testz_si128(plane, plane)) {
        storeQuadColors(c0, colors, mask);
        return;
    }
    alignas(16) std::int32_t offset[4];
    alignas(16) std::uint32_t color[4];
    _mm_store_si128(reinterpret_cast<__m128i*>(offset), plane);
    _mm_store_si128(reinterpret_cast<__m128i*>(color), colors);
    for (int k = 0; k < 4; ++k)
        if (mask >> k & 1) c0[quadElement(std::size_t(offset[k]), k)] = color[k];
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
                shadeQuadPixel({*job.triangle->tri, *job.triangle->attributes}, *job.triangle->material, ctx.settings,
                               ctx.viewForward, job.qx, job.qy, k, colors);
}

// The triangles the tile's ids name, and their vertex colours (see shadeTile).
struct TileTriangles {
    const TileTriangle* triangles;
    const TriangleColors* const* colors;
};

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

// Shades a batch of jobs into the tile's colour buffer, each in the pixels it won.
void shadeBatch(ShadeJob* jobs, int count, PixelStream& stream, TileTriangles drawn, const RasterContext& ctx,
                const TileBuffers& buffers) {
    // Every triangle has vertex colours, or none has.
    if (__builtin_expect(ctx.vertexColors, false)) {
        for (int j = 0; j < count; ++j)
            shadeJobScalar(jobs[j], ctx.vertexColors ? drawn.colors[jobs[j].triangle - drawn.triangles] : nullptr, ctx,
                           buffers);
        return;
    }
    for (int j = 0; j < count; ++j) jobTexelCoordinates(jobs[j], ctx);
    if (ctx.settings.filter == TextureFilter::Trilinear) jobLevelsOfDetail(jobs, count);
    const bool streamed = ctx.settings.filter != TextureFilter::Nearest;
    const bool lit = ctx.settings.shading == ShadingModel::Lit;
    for (int j = 0; j < count; ++j) {
        const ShadeJob& job = jobs[j];
        if (lit && !litVectorised(*job.triangle->material, ctx.settings.filter)) {
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

// The walk's target on the CPU: the tile's depth and id buffers, a block's rows (a quad row's
// two, or PixelRow8's one) read and written whole (within the tile's padded rows even where
// its pixels are outside the target).
template <class L>
struct TileVisibility {
    TileBuffers buffers;
    std::uint32_t id;

    // A quad row's elements, from column originX.
    struct Row {
        std::uint32_t* ids;
        float* depth;
        std::uint32_t id;
        int originX;

        typename L::Float depthAt(int qx) const {
            const float* d0 = depth + (qx - originX);
            return L::load(d0, d0 + kTileBufferStride);
        }
        void write(int qx, typename L::Mask keep, typename L::Float value, typename L::Float stored) const {
            std::uint32_t *i0 = ids + (qx - originX), *i1 = i0 + kTileBufferStride;
            L::store(i0, i1, L::select(keep, id, L::load(i0, i1)));
            float *d0 = depth + (qx - originX), *d1 = d0 + kTileBufferStride;
            L::store(d0, d1, L::select(keep, value, stored));
        }
        // The same row of sample s's plane (multisampling).
        Row sample(int s) const {
            const std::size_t plane = std::size_t(s) * kTileBufferElements;
            return Row{ids + plane, depth + plane, id, originX};
        }
    };
    Row row(int qy) const {
        const std::size_t at = buffers.at(buffers.originX, qy);
        return Row{buffers.ids + at, buffers.depth + at, id, buffers.originX};
    }
};

// The tile's stored depths of quad (qx, qy), in the portable quad lanes.
inline Quad<float> tileQuadDepths(const TileBuffers& buffers, int qx, int qy) {
    const std::size_t at = buffers.at(qx, qy);
    Quad<float> q;
    for (int k = 0; k < 4; ++k) q.v[k] = buffers.depth[quadElement(at, k)];
    return q;
}

// A cut-out triangle's walk target: the portable quad lanes of core/coverage_walk.h (the CUDA
// raster thread's), each quad's passing lanes alpha-tested before they are written.
struct CutoutTileVisibility {
    const TileBuffers& buffers;
    std::uint32_t id;
    const ScreenTriangle& tri;
    const TriangleAttributes& attributes;
    const ShadeMaterial& material;
    TextureFilter filter;

    struct Row {
        const CutoutTileVisibility& t;
        int qy;

        Quad<float> depthAt(int qx) const { return tileQuadDepths(t.buffers, qx, qy); }
        void write(int qx, unsigned keep, const Quad<float>& value, const Quad<float>&) const {
            keep = cutoutMask({t.tri, t.attributes}, t.material, t.filter, qx, qy, keep);
            const std::size_t at = t.buffers.at(qx, qy);
            for (int k = 0; k < 4; ++k)
                if (keep >> k & 1u) {
                    const std::size_t e = quadElement(at, k);
                    t.buffers.ids[e] = t.id;
                    t.buffers.depth[e] = value.v[k];
                }
        }
    };
    Row row(int qy) const { return Row{*this, qy}; }
};

// Forward drawing's walk target on the CPU: the tile's buffers (sample `sampleIndex`'s plane
// with multisampling), in the portable quad lanes.
struct ForwardTileTarget {
    const TileBuffers& buffers;
    ForwardTriangle triangle;
    const RasterContext& ctx;
    int sampleIndex;

    struct Row {
        const ForwardTileTarget& t;
        int qy;

        Quad<float> depthAt(int qx) const { return tileQuadDepths(t.buffers, qx, qy); }
        void write(int qx, unsigned keep, const Quad<float>& value, const Quad<float>&) const {
            const std::size_t at = t.buffers.at(qx, qy);
            std::uint32_t* color[4];
            float* depth[4];
            for (int k = 0; k < 4; ++k) {
                const std::size_t e = quadElement(at, k);
                color[k] = t.buffers.color + e;
                depth[k] = t.buffers.depth + e;
            }
            drawForwardLanes(t.triangle, t.ctx.settings, t.ctx.viewForward, qx, qy, keep, value, color, depth,
                             t.sampleIndex);
        }
    };
    Row row(int qy) const { return Row{*this, qy}; }
};

// One walk of `tri` over the range in lanes L, into the tile's buffers, at the pixel centres
// (whose sampleDepthStep, -0, the compiler then drops).
template <class L, bool Bounds>
[[gnu::noinline]] std::size_t walkTile(const ScreenTriangle& tri, std::uint32_t id, const QuadRange& q,
                                       const TileBuffers& buffers) {
    TileVisibility<L> target{buffers, id};
    return walkCoverage<L, Bounds>(tri, q, target);
}

// walkTile for a range of one block (see walkCoverage's OneBlock), as most of a dense mesh's
// tiny triangles are: a function of its own, so the general walk's registers do not crowd it.
template <class L, bool Bounds>
[[gnu::noinline]] std::size_t walkTileOneBlock(const ScreenTriangle& tri, std::uint32_t id, const QuadRange& q,
                                               const TileBuffers& buffers) {
    TileVisibility<L> target{buffers, id};
    return walkCoverage<L, Bounds, TileVisibility<L>, true>(tri, q, target);
}

// The same at S samples per pixel, each into its own plane.
template <class L, bool Bounds, int S>
[[gnu::noinline]] std::size_t walkTileSamples(const ScreenTriangle& tri, std::uint32_t id, const QuadRange& q,
                                              const TileBuffers& buffers) {
    TileVisibility<L> target{buffers, id};
    return walkSamples<L, Bounds, S>(tri, q, target);
}

// A large triangle's walk at S samples per pixel: walkBlocks, its inside blocks in rows of
// eight lanes (PixelRow8), the rest in BigQuad's quads; culled by the tile's block depth bounds
// where it keeps them.
template <int S>
[[gnu::noinline]] std::size_t walkTileBlocks(const ScreenTriangle& tri, std::uint32_t id, const QuadRange& q,
                                             const TileBuffers& buffers) {
    TileVisibility<lanes::PixelRow8> inside{buffers, id};
    TileVisibility<lanes::BigQuad> crossed{buffers, id};
    if (buffers.farthest)
        return walkBlocks<lanes::PixelRow8, lanes::BigQuad, S>(tri, alignedToBoundBlocks(q, buffers), inside, crossed,
                                                               pixelCentreSample(), BlockDepthBounds(tri, q, buffers, S));
    return walkBlocks<lanes::PixelRow8, lanes::BigQuad, S>(tri, q, inside, crossed);
}

// The walk in lanes L for `samples` per pixel. BigQuad's (a large triangle's) goes block by
// block; with `avx512`, SmallBlock's multisampled walks take cpu/sample_pair_walk.h's (the same
// decisions, two samples at once).
template <class L, bool Bounds>
std::size_t walkTileAt(const ScreenTriangle& tri, std::uint32_t id, const QuadRange& q, const TileBuffers& buffers,
                       int samples, bool avx512) {
    if constexpr (std::is_same_v<L, lanes::BigQuad>) {
        static_assert(Bounds, "a large triangle's walk always masks by the range");
        switch (samples) {
        case 2: return walkTileBlocks<2>(tri, id, q, buffers);
        case 4: return walkTileBlocks<4>(tri, id, q, buffers);
        case 8: return walkTileBlocks<8>(tri, id, q, buffers);
        default: return walkTileBlocks<1>(tri, id, q, buffers);
        }
    } else {
        if (avx512 && samples > 1) return walkSamplePairs(tri, id, q, buffers, samples, Bounds);
        switch (samples) {
        case 2: return walkTileSamples<L, Bounds, 2>(tri, id, q, buffers);
        case 4: return walkTileSamples<L, Bounds, 4>(tri, id, q, buffers);
        case 8: return walkTileSamples<L, Bounds, 8>(tri, id, q, buffers);
        default: return walkTile<L, Bounds>(tri, id, q, buffers);
        }
    }
}

// The overdraw view's target: the tile's visibility, and per pixel a count of the fragments
// that passed the depth test (`counts`, laid out as the tile's ids).
inline __m256i addLanes(__m256i a, __m256i b) { return _mm256_add_epi32(a, b); }
inline __m128i addLanes(__m128i a, __m128i b) { return _mm_add_epi32(a, b); }

template <class L>
struct TileCountingVisibility {
    TileVisibility<L> visibility;
    std::uint32_t* counts;

    struct Row {
        typename TileVisibility<L>::Row row;
        std::uint32_t* counts;

        typename L::Float depthAt(int qx) const { return row.depthAt(qx); }
        void write(int qx, typename L::Mask keep, typename L::Float value, typename L::Float stored) const {
            row.write(qx, keep, value, stored);
            std::uint32_t *c0 = counts + (qx - row.originX), *c1 = c0 + kTileBufferStride;
            const auto old = L::load(c0, c1);
            L::store(c0, c1, addLanes(old, L::select(keep, 1u, decltype(old){})));
        }
    };
    Row row(int qy) const {
        const std::size_t at = visibility.buffers.at(visibility.buffers.originX, qy);
        return Row{visibility.row(qy), counts + at};
    }
};

template <class L, bool Bounds>
[[gnu::noinline]] std::size_t walkTileCounting(const ScreenTriangle& tri, std::uint32_t id, const QuadRange& q,
                                               const TileBuffers& buffers, std::uint32_t* counts) {
    TileCountingVisibility<L> target{{buffers, id}, counts};
    if constexpr (std::is_same_v<L, lanes::BigQuad>) {
        TileCountingVisibility<lanes::PixelRow8> inside{{buffers, id}, counts};
        return walkBlocks<lanes::PixelRow8, L, 1>(tri, q, inside, target);
    } else {
        return walkCoverage<L, Bounds>(tri, q, target);
    }
}

// A small triangle takes the 32-bit blocks, any other the 64-bit quads: walk(lanes, bounds, q)
// with lanes and bounds as a lane type and a std::bool_constant. (The edge values are set up
// per call, not once per triangle in the triangle stage: on the default scene a triangle
// touches 1.0 tiles on average, and setting them up ahead cost more than it saved.)
// With multisampling, the walk over every sample (walkSamples).
template <class Walk>
[[gnu::always_inline]] inline std::size_t chooseWalk(const ScreenTriangle& tri, const RasterContext& ctx,
                                                     const TileRect& tile, Walk&& walk) {
    QuadRange q;
    if (!quadRange(tri, tile, ctx.quadRowOffset, q)) return 0;
    if (!tri.small) return walk(lanes::BigQuad{}, std::true_type{}, q);
    // The tile's bounds matter only where they (or the target's) cut the triangle's: at its
    // right or bottom, or above it (the first quad row of an odd-height target is row -1).
    const FrameView& frame = ctx.target;
    const bool cut = q.maxX != tri.maxX || q.minY != tri.minY || q.maxY != tri.maxY || tri.maxX == frame.width - 1 ||
                     tri.minY == 0 || tri.maxY == frame.height - 1;
    return cut ? walk(lanes::SmallBlock{}, std::true_type{}, q) : walk(lanes::SmallBlock{}, std::false_type{}, q);
}

// The depth test, at one sample per pixel, of a triangle whose range in the tile is the one
// pixel (x, y), straight from the per-pixel definition the walks' lanes reproduce (covers,
// interpolateDepth, depthPasses), without a walk's set-up: most of a very dense mesh's
// triangles have one pixel centre in their bounds. (Ranges of up to 2x2 pixels tested so, a
// loop, were no faster than the walk.)
std::size_t depthTestPixel(const ScreenTriangle& tri, std::uint32_t id, const TileBuffers& buffers, int x, int y) {
    if (!covers(tri, edgeValues(tri, x, y))) return 0;
    const float depth = interpolateDepth(tri, barycentrics(tri, x, y));
    const std::size_t e = buffers.at(x, y);
    if (!depthPasses(depth, buffers.depth[e])) return 0;
    buffers.depth[e] = depth;
    buffers.ids[e] = id;
    return 1;
}

// A cut-out triangle's visibility: the portable quad lanes, each quad's passing lanes alpha-tested.
// Out of line: inlined, its walk's registers and stack crowded the common path's.
[[gnu::noinline]] std::size_t rasterizeCutout(const ScreenTriangle& tri, std::uint32_t id, const RasterContext& ctx,
                                              const TileRect& tile, const TileBuffers& buffers,
                                              const TileTriangle& cutout) {
    QuadRange q;
    if (!quadRange(tri, tile, ctx.quadRowOffset, q)) return 0;
    CutoutTileVisibility target{buffers, id, tri, *cutout.attributes, *cutout.material, ctx.settings.filter};
    return walkCoverage<QuadLanes, true>(tri, q, target);
}

} // namespace

std::size_t rasterizeVisibility(const ScreenTriangle& tri, std::uint32_t id, const RasterContext& ctx,
                                const TileRect& tile, const TileBuffers& buffers, int samples,
                                const TileTriangle* cutout) {
    if (cutout) return rasterizeCutout(tri, id, ctx, tile, buffers, *cutout);
    return chooseWalk(tri, ctx, tile, [&](auto lanes, auto bounds, const QuadRange& q) {
        using L = decltype(lanes);
        // One pixel, or (in the 32-bit walk's lanes) one block: without the walk's loops.
        if (samples == 1) {
            if (q.minX == q.maxX && q.minY == q.maxY) return depthTestPixel(tri, id, buffers, q.minX, q.minY);
            if constexpr (std::is_same_v<L, lanes::SmallBlock>)
                if (inOneBlock<L>(q)) return walkTileOneBlock<L, decltype(bounds)::value>(tri, id, q, buffers);
        }
        return walkTileAt<L, decltype(bounds)::value>(tri, id, q, buffers, samples, ctx.avx512);
    });
}

std::size_t rasterizeVisibilityCounting(const ScreenTriangle& tri, std::uint32_t id, const RasterContext& ctx,
                                        const TileRect& tile, const TileBuffers& buffers, std::uint32_t* counts) {
    return chooseWalk(tri, ctx, tile, [&](auto lanes, auto bounds, const QuadRange& q) {
        return walkTileCounting<decltype(lanes), decltype(bounds)::value>(tri, id, q, buffers, counts);
    });
}

namespace {

// A forward tile's samples resolved into plane 0: each pixel's colours box-resolved (ColorSum,
// one each) and its depths to the nearest (resolveDepth); the other planes' depths back to 1.
void resolveForwardSamples(const RasterContext& ctx, const TileRect& tile, const TileBuffers& buffers) {
    const int samples = ctx.settings.msaa;
    for (int y = tile.y0; y <= tile.y1; ++y)
        for (std::size_t e = buffers.at(tile.x0, y), end = e + std::size_t(tile.x1 - tile.x0 + 1); e < end; ++e) {
            ColorSum sum;
            float depth = buffers.depth[e];
            for (int s = 0; s < samples; ++s) {
                const TileBuffers plane = samplePlane(buffers, s);
                sum.add(plane.color[e], 1u);
                depth = resolveDepth(depth, plane.depth[e]);
                if (s > 0) plane.depth[e] = 1.0f;
            }
            buffers.color[e] = sum.resolve(samples);
            buffers.depth[e] = depth;
        }
}

} // namespace

std::size_t drawTileForward(const TileTriangle* triangles, const TriangleColors* const* colors, std::uint32_t count,
                            const RasterContext& ctx, const TileRect& tile, const TileBuffers& buffers) {
    const int samples = ctx.settings.msaa;
    for (int s = 0; s < samples; ++s)
        for (int y = buffers.originY; y <= tile.y1; ++y)
            std::fill_n(samplePlane(buffers, s).color + buffers.at(buffers.originX, y), kTileBufferStride,
                        ctx.settings.clearColor);
    std::size_t won = 0;
    for (std::uint32_t n = 0; n < count; ++n) {
        const ScreenTriangle& tri = *triangles[n].tri;
        QuadRange q;
        if (!quadRange(tri, tile, ctx.quadRowOffset, q)) continue;
        const ForwardTriangle triangle{&tri, triangles[n].attributes, triangles[n].material,
                                       ctx.vertexColors ? colors[n] : nullptr};
        for (int s = 0; s < samples; ++s) { // each sample drawn as a picture of its own, at its point
            const TileBuffers plane = samplePlane(buffers, s);
            ForwardTileTarget target{plane, triangle, ctx, s};
            won += walkCoverage<QuadLanes, true>(tri, q, target, samples > 1 ? samplePoint(samples, s) : pixelCentreSample());
        }
    }
    if (samples > 1) resolveForwardSamples(ctx, tile, buffers);
    const FrameView& frame = ctx.target;
    for (int y = tile.y0; y <= tile.y1; ++y)
        streamRow(frame.color + std::size_t(y) * std::size_t(frame.width) + std::size_t(tile.x0),
                  buffers.color + buffers.at(tile.x0, y), std::size_t(tile.x1 - tile.x0 + 1));
    streamFence();
    return won;
}

void storeTileDepth(const RasterContext& ctx, const TileRect& tile, const TileBuffers& buffers) {
    for (int y = tile.y0; y <= tile.y1; ++y) {
        float* row = buffers.depth + buffers.at(tile.x0, y);
        const std::size_t n = std::size_t(tile.x1 - tile.x0 + 1);
        streamRow(ctx.target.depth + std::size_t(y) * std::size_t(ctx.target.width) + std::size_t(tile.x0), row, n);
        std::fill_n(row, n, 1.0f); // ready for the next tile
    }
    streamFence();
}

// Every quad of the tile: each distinct id among its pixels is shaded on the quad's four lanes
// (the helpers give that triangle's level of detail); its colours (each lane shadeQuadPixel's)
// are kept in the pixels that triangle won, and the other pixels get the clear colour.
// Bilinear and trilinear samples are taken four or eight won pixels at a time, across
// triangles (PixelStream). A one-sample tile is read two quads at a time (shadeQuadPairs); a
// multisampled one a quad at a time, each distinct id a job, where a span that one triangle won
// whole skips the look at its quads' ids (SpanShading). The tile's colours then go to the
// target.
namespace {

// A span: eight columns of a quad row's two rows (four quads), from a column a multiple of 8
// from the tile buffer's origin (so within the tile's row). A large triangle's inside is made
// of spans it won whole, which both shading passes take without looking at their quads one by
// one (SpanShading).
inline __m256i loadSpanRow(const std::uint32_t* ids) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(ids)); }

// The id of the one triangle that won every pixel of the span whose element 0 is `ids`, in
// plane 0 only (`next`, the same span in plane 1, all 0; null: no plane 1); else 0.
inline std::uint32_t spanTriangle(const std::uint32_t* ids, const std::uint32_t* next) {
    const __m256i row0 = loadSpanRow(ids), row1 = loadSpanRow(ids + kTileBufferStride);
    const std::uint32_t id = ids[0];
    const __m256i same = _mm256_set1_epi32(int(id));
    const __m256i both = _mm256_and_si256(_mm256_cmpeq_epi32(row0, same), _mm256_cmpeq_epi32(row1, same));
    if (id == 0 || _mm256_movemask_epi8(both) != -1) return 0;
    if (next != nullptr) {
        const __m256i layered = _mm256_or_si256(loadSpanRow(next), loadSpanRow(next + kTileBufferStride));
        if (!_mm256_testz_si256(layered, layered)) return 0;
    }
    return id;
}

// The span's ids back to 0, ready for the next tile.
inline void clearSpanIds(std::uint32_t* ids) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(ids), _mm256_setzero_si256());
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(ids + kTileBufferStride), _mm256_setzero_si256());
}

// Flat colours: in the classic look without the headlight or vertex colours, an untextured
// material's pixels all get its colour (jobColor's, with no texture or headlight), whatever
// triangle they are of. So the shading passes colour them where they find them, without jobs: a
// quad's or a quad pair's pixels of such a triangle, and a span that one such triangle won.
class FlatColors {
public:
    explicit FlatColors(const RasterContext& ctx)
        : apply_(ctx.settings.shading == ShadingModel::Classic && !ctx.settings.headlight && !ctx.vertexColors) {}

    // Whether the look makes `m`'s pixels one colour, which colorSpan and colorQuad then write.
    bool flat(const ShadeMaterial* m) {
        if (m == material_) return true;
        if (!apply_ || m->texture.levelCount > 0) return false;
        color_ = _mm256_broadcastd_epi32(simd::pack4(materialColor4(*m)));
        material_ = m;
        return true;
    }
    bool any() const { return apply_; }

    // The span whose element 0 is element 0 of `colors`, in the colour of the material flat()
    // last took.
    void colorSpan(std::uint32_t* colors) const {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(colors), color_);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(colors + kTileBufferStride), color_);
    }

    // The pixels `mask` of the quad whose pixel 0 is element 0 of `colors`, each in its plane
    // (as storeLayerColors), in the colour of the material flat() last took.
    void colorQuad(std::uint32_t* colors, unsigned mask, __m128i plane) const {
        storeLayerColors(colors, _mm256_castsi256_si128(color_), mask, plane);
    }

    // That colour in eight lanes.
    __m256i color() const { return color_; }

private:
    bool apply_;                              // the look makes untextured materials flat
    const ShadeMaterial* material_ = nullptr; // the material whose colour color_ holds
    __m256i color_ = _mm256_setzero_si256();
};

// Whether the frame's settings send textured pixels to the stream from eight lanes at once (as
// pair jobs, below: without vertex colours, with a bilinear or trilinear filter); and then
// whether `m`'s go (in the lit model, a material the vectorised passes draw).
inline bool streamedTexturesApply(const RasterContext& ctx) {
    return !ctx.vertexColors && ctx.settings.filter != TextureFilter::Nearest;
}
inline bool streamedMaterial(const ShadeMaterial& m, const RasterContext& ctx) {
    return m.texture.levelCount > 0 &&
           (ctx.settings.shading == ShadingModel::Classic || litVectorised(m, ctx.settings.filter));
}

// Two quads of a quad row in eight lanes: quad (qx, qy) in lanes 0-3 and quad (qx + 2, qy) in
// lanes 4-7, lane k of each its pixel k. A triangle's texel coordinates there, each lane with
// jobTexelCoordinates's operations, and what the frame's settings read besides: with the
// headlight its factor (1 under the lit model), under the lit model or the headlight the normals.
struct QuadPairLanes {
    __m256 u, v, light, nx, ny, nz;
};

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
    const bool lit = ctx.settings.shading == ShadingModel::Lit;
    if (!ctx.settings.headlight && !lit) return;
    l.nx = _mm256_div_ps(attribute(v0.nOverW.x, v1.nOverW.x, v2.nOverW.x), invW);
    l.ny = _mm256_div_ps(attribute(v0.nOverW.y, v1.nOverW.y, v2.nOverW.y), invW);
    l.nz = _mm256_div_ps(attribute(v0.nOverW.z, v1.nOverW.z, v2.nOverW.z), invW);
    if (!ctx.settings.headlight) return;
    if (lit) {
        l.light = _mm256_set1_ps(1.0f);
        return;
    }
    const auto factor = [&](int h) {
        return simd::headlightFactor4(halfOf(l.nx, h), halfOf(l.ny, h), halfOf(l.nz, h), ctx.viewForward);
    };
    l.light = _mm256_set_m128(factor(1), factor(0));
}

// One-sample shading reads the tile a quad pair at a time (four columns of a quad row, from a
// column a multiple of 4 from the tile buffer's origin, so within the tile's row), and shades
// each triangle there in the lanes it won: a textured triangle's pixels (streamedMaterial) go
// to the stream from eight lanes at once, every quad's level of detail found in its own lanes;
// a triangle of one flat colour is coloured; the others become a job per quad, as
// shadeTileLayers makes them. A triangle's work in a pair (texel coordinates, levels of detail,
// packing) costs about what a quad's job did, and pairs hold few more triangles than quads: on
// facet-bench's textured sheet 95,000 pair jobs a frame where there were 141,000 quad jobs.

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
    if (ctx.settings.headlight) floats(p.light + n, l.light); // read only with the headlight
    if (ctx.settings.shading == ShadingModel::Lit) {
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

// A textured triangle's pixels `mask` (bit k: lane k of QuadPairLanes) in the quad pair at
// (qx, qy), bound for the stream: shadeQuadPairs collects a batch of them and shades it in
// passes of independent iterations, as shadeBatch does jobs (see ShadeJob).
struct PairJob {
    QuadPairLanes lanes;
    __m256 lod; // per lane, its quad's (trilinear filtering)
    const TileTriangle* triangle;
    int qx, qy;
    unsigned mask;
};

// The job's pixels to the stream (made one of its material's), each to the list for its levels.
// Inlined into shadePairJobs' last pass: as a call, its frame and its reloads of the settings
// cost a job ~29 instructions (3.8% of the textured sheet's frame).
[[gnu::always_inline]] inline void streamPairJob(PixelStream& s, const PairJob& job, const RasterContext& ctx,
                                                 const TileBuffers& buffers) {
    streamMaterial(s, job.triangle->material, ctx, buffers);
    const TextureFilter filter = ctx.settings.filter;
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
    if (ctx.settings.filter == TextureFilter::Trilinear) pairJobLevelsOfDetail(jobs, count);
    for (int j = 0; j < count; ++j) streamPairJob(s, jobs[j], ctx, buffers);
}

// Pair jobs, collected and shaded a batch at a time.
class PairBatch {
public:
    PairBatch(PixelStream& stream, const RasterContext& ctx, const TileBuffers& buffers)
        : stream_(stream), ctx_(ctx), buffers_(buffers) {}

    // A job of `t`'s pixels `mask` in the quad pair at (qx, qy); the batch shaded once full.
    void add(const TileTriangle& t, int qx, int qy, unsigned mask) {
        PairJob& job = jobs_[count_++];
        job.triangle = &t;
        job.qx = qx;
        job.qy = qy;
        job.mask = mask;
        if (count_ == kShadeBatch) shade();
    }

    // Shades the jobs the batch holds.
    void shade() {
        shadePairJobs(jobs_, count_, stream_, ctx_, buffers_);
        count_ = 0;
    }

private:
    PixelStream& stream_;
    const RasterContext& ctx_;
    const TileBuffers& buffers_;
    PairJob jobs_[kShadeBatch];
    int count_ = 0;
};

// The spans both shading passes take whole: flat ones, coloured at once, and textured ones, two
// pair jobs (a span is in plane 0 alone, as pair jobs are).
class SpanShading {
public:
    SpanShading(const TileTriangle* triangles, const RasterContext& ctx, PairBatch& pairs)
        : triangles_(triangles), ctx_(ctx), pairs_(pairs), flat_(ctx), textured_(streamedTexturesApply(ctx)) {}

    FlatColors& flat() { return flat_; }
    bool any() const { return flat_.any() || textured_; }

    // The span at (qx, qy), whose element 0 is `ids` in the id buffer and `colors` in the
    // colour buffer (`next`: as spanTriangle's), if one triangle won it whole and it is flat or
    // textured: coloured or made pair jobs, its ids back to 0.
    bool take(std::uint32_t* ids, std::uint32_t* colors, const std::uint32_t* next, int qx, int qy) {
        const std::uint32_t id = spanTriangle(ids, next);
        if (id == 0) return false;
        const TileTriangle& t = triangles_[id - 1];
        if (flat_.flat(t.material)) {
            flat_.colorSpan(colors);
        } else if (textured_ && streamedMaterial(*t.material, ctx_)) {
            pairs_.add(t, qx, qy, 0xFFu);
            pairs_.add(t, qx + 4, qy, 0xFFu);
        } else {
            return false;
        }
        clearSpanIds(ids);
        return true;
    }

private:
    const TileTriangle* triangles_;
    const RasterContext& ctx_;
    PairBatch& pairs_;
    FlatColors flat_;
    bool textured_;
};

// A quad pair's ids (one sample) in QuadPairLanes's lanes, read once and set back to 0, ready for
// the next tile.
struct QuadPairIds {
    __m256i ids;
    alignas(32) std::uint32_t lanes[8];
    unsigned left; // the lanes with an id not yet shaded

    explicit QuadPairIds(std::uint32_t* i0) {
        std::uint32_t* i1 = i0 + kTileBufferStride;
        const __m128i row0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(i0));
        const __m128i row1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(i1));
        ids = _mm256_set_m128i(_mm_unpackhi_epi64(row0, row1), _mm_unpacklo_epi64(row0, row1));
        _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), ids);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(i0), _mm_setzero_si128());
        _mm_storeu_si128(reinterpret_cast<__m128i*>(i1), _mm_setzero_si128());
        left =
            ~unsigned(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(ids, _mm256_setzero_si256())))) & 0xFFu;
    }

    // The next triangle's id and its lanes, which are then taken.
    std::uint32_t next(unsigned& mask) {
        const std::uint32_t id = lanes[__builtin_ctz(left)];
        mask = unsigned(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(ids, _mm256_set1_epi32(int(id))))));
        left &= ~mask;
        return id;
    }
};

// The lanes `mask` of a quad pair's colours (in QuadPairLanes's lanes) into the colour buffer
// whose element 0 is the pair's pixel 0, a row's four at once; its other pixels keep theirs.
inline void storePairColors(std::uint32_t* c0, __m256i colors, unsigned mask) {
    const __m128i a = _mm256_castsi256_si128(colors), b = _mm256_extracti128_si256(colors, 1);
    const __m128i rows[2] = {_mm_unpacklo_epi64(a, b), _mm_unpackhi_epi64(a, b)};
    const unsigned inRow[2] = {(mask & 3u) | (mask >> 2 & 0xCu), (mask >> 2 & 3u) | (mask >> 4 & 0xCu)};
    for (int r = 0; r < 2; ++r) {
        auto* row = reinterpret_cast<__m128i*>(c0 + r * kTileBufferStride);
        if (inRow[r] == 0xFu)
            _mm_storeu_si128(row, rows[r]);
        else if (inRow[r] != 0)
            _mm_storeu_si128(row, _mm_blendv_epi8(_mm_loadu_si128(row), rows[r], laneMask(inRow[r])));
    }
}

// shadeBatch's jobs, collected and shaded a batch at a time.
struct JobBatch {
    ShadeJob jobs[kShadeBatch];
    int count = 0;

    JobBatch() {
        for (ShadeJob& job : jobs) job.plane = _mm_setzero_si128(); // and so it stays without multisampling
    }

    ShadeJob& add() { return jobs[count++]; }
    // Shades the jobs if the batch is full (`all`: if it holds any).
    void shade(PixelStream& stream, TileTriangles drawn, const RasterContext& ctx, const TileBuffers& buffers,
               bool all = false) {
        if (count == kShadeBatch || (all && count > 0)) {
            shadeBatch(jobs, count, stream, drawn, ctx, buffers);
            count = 0;
        }
    }
};

// shadeTile's colours, a quad pair at a time (see above): pixels without an id get the clear
// colour. A span that one flat or textured triangle won is taken whole (SpanShading).
class PairShading {
public:
    PairShading(const TileTriangle* triangles, const TriangleColors* const* colors, const RasterContext& ctx,
                const TileBuffers& buffers)
        : drawn_{triangles, colors}, ctx_(ctx), buffers_(buffers), streamed_(streamedTexturesApply(ctx)),
          clear_(_mm256_set1_epi32(int(ctx.settings.clearColor))), pairs_(stream_, ctx, buffers),
          spans_(triangles, ctx, pairs_) {
        if (ctx.settings.shading == ShadingModel::Lit) stream_.rig = lightRig(ctx.settings.lights, ctx.viewForward);
    }

    // The span at (qx, qy), whose element 0 is element `at` of the buffers: SpanShading::take.
    bool span(std::size_t at, int qx, int qy) {
        return spans_.take(buffers_.ids + at, buffers_.color + at, nullptr, qx, qy);
    }

    // The quad pair at (qx, qy), whose element 0 is element `at` of the buffers: each triangle
    // in the lanes it won. Flat colours and the clear colour are kept in lanes and stored once.
    void pair(std::size_t at, int qx, int qy) {
        QuadPairIds ids(buffers_.ids + at);
        FlatColors& flat = spans_.flat();
        __m256i painted = clear_;
        unsigned found = ~ids.left & 0xFFu;
        while (ids.left != 0) {
            unsigned mask;
            const TileTriangle& t = drawn_.triangles[ids.next(mask) - 1];
            if (flat.flat(t.material)) {
                painted = _mm256_blendv_epi8(painted, flat.color(), lanes::laneMask8(mask));
                found |= mask;
            } else if (streamed_ && streamedMaterial(*t.material, ctx_)) {
                pairs_.add(t, qx, qy, mask);
            } else {
                addQuadJobs(t, qx, qy, mask);
            }
        }
        storePairColors(buffers_.color + at, painted, found);
    }

    // Shades what the batches hold and samples the stream.
    void finish() {
        pairs_.shade();
        jobs_.shade(stream_, drawn_, ctx_, buffers_, true);
        flushPixels(stream_, ctx_, buffers_);
    }

private:
    // The quads of the pixels `mask` of the quad pair at (qx, qy) that `t` won, as jobs.
    void addQuadJobs(const TileTriangle& t, int qx, int qy, unsigned mask) {
        for (int h = 0; h < 2; ++h) {
            const unsigned quad = mask >> 4 * h & 0xFu;
            if (quad == 0) continue;
            ShadeJob& job = jobs_.add();
            job.triangle = &t;
            job.qx = qx + 2 * h;
            job.qy = qy;
            job.mask = quad;
            jobs_.shade(stream_, drawn_, ctx_, buffers_);
        }
    }

    TileTriangles drawn_;
    const RasterContext& ctx_;
    const TileBuffers& buffers_;
    bool streamed_;
    __m256i clear_;
    PixelStream stream_;
    PairBatch pairs_;
    SpanShading spans_;
    JobBatch jobs_;
};

void shadeQuadPairs(const TileTriangle* triangles, const TriangleColors* const* colors, const RasterContext& ctx,
                    const TileRect& tile, const TileBuffers& buffers) {
    PairShading shading(triangles, colors, ctx, buffers);
    for (int qy = buffers.originY; qy <= tile.y1; qy += 2) {
        const std::size_t row = std::size_t(qy - buffers.originY) * kTileBufferStride;
        for (int qx = buffers.originX; qx <= tile.x1; qx += 4) {
            const std::size_t at = row + std::size_t(qx - buffers.originX);
            // A span's eight columns from a multiple of 8 lie within the tile's row.
            if ((qx - buffers.originX) % 8 == 0 && shading.span(at, qx, qy))
                qx += 4; // and the loop's 4: past the span's two pairs
            else
                shading.pair(at, qx, qy);
        }
    }
    shading.finish();
}

// A quad's ids in the first `planes` sample planes (a quad row's TileLayers::inQuadRow), read
// once and set back to 0, ready for the next tile.
struct QuadIds {
    __m128i ids[kMaxSamples];
    alignas(16) std::uint32_t lanes[kMaxSamples][4];
    unsigned left = 0; // the pixels with an id not yet given to a job (bit 4 L + k: pixel k of plane L)
    int found = 0;     // the planes with an id in the quad

    QuadIds(std::uint32_t* i0, int planes) {
        const __m128i zero = _mm_setzero_si128();
        for (int layer = 0; layer < planes; ++layer) {
            std::uint32_t* at = i0 + std::size_t(layer) * kTileBufferElements;
            ids[layer] = _mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(at)),
                                            _mm_loadl_epi64(reinterpret_cast<const __m128i*>(at + kTileBufferStride)));
            const unsigned none = unsigned(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(ids[layer], zero))));
            // A pixel with layer L has layer L - 1: past a plane without an id there is none.
            if (none == 0xFu) break;
            found = layer + 1;
            left |= (0xFu & ~none) << 4 * layer;
            _mm_store_si128(reinterpret_cast<__m128i*>(lanes[layer]), ids[layer]);
            _mm_storel_epi64(reinterpret_cast<__m128i*>(at), zero);
            _mm_storel_epi64(reinterpret_cast<__m128i*>(at + kTileBufferStride), zero);
        }
    }

    // The next id not yet given to a job, with its pixels in every plane (which are then given)
    // as ShadeJob's mask and plane. Most quads hold one triangle; an edge between two gives two,
    // rarely more.
    std::uint32_t next(unsigned& mask, __m128i& plane) {
        const int first = __builtin_ctz(left);
        const std::uint32_t id = lanes[first >> 2][first & 3];
        const __m128i wanted = _mm_set1_epi32(int(id));
        mask = 0;
        plane = _mm_setzero_si128();
        for (int layer = first >> 2; layer < found; ++layer) {
            const __m128i in = _mm_cmpeq_epi32(ids[layer], wanted);
            const unsigned pixels = unsigned(_mm_movemask_ps(_mm_castsi128_ps(in)));
            mask |= pixels;
            left &= ~(pixels << 4 * layer);
            plane = _mm_or_si128(plane, _mm_and_si128(in, _mm_set1_epi32(layer * int(kTileBufferElements))));
        }
        return id;
    }
};

} // namespace

// shadeTileLayers' colours: plane 0's pixels without an id get the clear colour, and each
// triangle is a job in the pixels it holds in any plane of the quad.
void shadeTileLayers(const TileTriangle* triangles, const TriangleColors* const* colors, const RasterContext& ctx,
                     const TileRect& tile, const TileBuffers& buffers, const TileLayers& layers) {
    const TileTriangles drawn{triangles, colors};
    const __m128i clear = _mm_set1_epi32(int(ctx.settings.clearColor));
    JobBatch batch;
    PixelStream stream;
    if (ctx.settings.shading == ShadingModel::Lit) stream.rig = lightRig(ctx.settings.lights, ctx.viewForward);
    PairBatch pairs(stream, ctx, buffers);
    SpanShading spans(triangles, ctx, pairs);
    FlatColors& flat = spans.flat();
    for (int qy = buffers.originY; qy <= tile.y1; qy += 2) {
        const int planes = layers.inQuadRow(qy);
        const std::size_t row = std::size_t(qy - buffers.originY) * kTileBufferStride;
        std::uint32_t* idRow = buffers.ids + row;
        std::uint32_t* colorRow = buffers.color + row;
        for (int qx = buffers.originX; qx <= tile.x1; qx += 2) {
            std::uint32_t* i0 = idRow + (qx - buffers.originX);
            std::uint32_t* c0 = colorRow + (qx - buffers.originX);
            // A span's eight columns from a multiple of 8 lie within the tile's row.
            if (spans.any() && (qx - buffers.originX) % 8 == 0 &&
                spans.take(i0, c0, planes > 1 ? i0 + kTileBufferElements : nullptr, qx, qy)) {
                qx += 6; // and the loop's 2: past the span's four quads
                continue;
            }
            _mm_storel_epi64(reinterpret_cast<__m128i*>(c0), clear);
            _mm_storel_epi64(reinterpret_cast<__m128i*>(c0 + kTileBufferStride), clear);
            QuadIds quad(i0, planes);
            while (quad.left != 0) {
                unsigned mask;
                __m128i plane;
                const std::uint32_t id = quad.next(mask, plane);
                if (flat.flat(triangles[id - 1].material)) {
                    flat.colorQuad(c0, mask, plane);
                    continue;
                }
                ShadeJob& job = batch.add();
                job.triangle = &triangles[id - 1];
                job.qx = qx;
                job.qy = qy;
                job.mask = mask;
                job.plane = plane;
                batch.shade(stream, drawn, ctx, buffers);
            }
        }
    }
    pairs.shade();
    batch.shade(stream, drawn, ctx, buffers, true);
    flushPixels(stream, ctx, buffers);
}

void shadeTile(const TileTriangle* triangles, const TriangleColors* const* colors, const RasterContext& ctx,
               const TileRect& tile, const TileBuffers& buffers) {
    shadeQuadPairs(triangles, colors, ctx, tile, buffers);
    const FrameView& target = ctx.target;
    for (int y = tile.y0; y <= tile.y1; ++y)
        streamRow(target.color + std::size_t(y) * std::size_t(target.width) + std::size_t(tile.x0),
                  buffers.color + buffers.at(tile.x0, y),
                  std::size_t(tile.x1 - tile.x0 + 1));
    streamFence();
}

} // namespace facet
