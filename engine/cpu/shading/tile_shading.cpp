// Pass 2 of the CPU raster stage (cpu/shading/tile_shading.h): a tile's ids read back and made jobs.
#include "cpu/shading/tile_shading.h"
#include "cpu/shading/pair_jobs.h"
#include "cpu/shading/pixel_stream.h"
#include "cpu/shading/quad_jobs.h"
#include "cpu/simd/stream_store.h"

namespace facet {

// Every quad of the tile: each distinct id among its pixels is shaded on the quad's four lanes
// (the helpers give that triangle's level of detail); its colours (each lane shadeQuadPixel's)
// are kept in the pixels that triangle won, and the other pixels get the clear colour.
// Bilinear and trilinear samples are taken four or eight won pixels at a time, across
// triangles (PixelStream). A one-sample tile is read two quads at a time (shadeQuadPairs); a
// multisampled one a quad at a time, each distinct id a job, where a span that one triangle won
// whole skips the look at its quads' ids (SpanShading). The tile's colours then go to the
// target.
namespace {

using lanes::laneMask;

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
        : apply_(ctx.plan.settings.shading == ShadingModel::Classic && !ctx.plan.settings.headlight && !ctx.plan.sideRecords) {}

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
// pair jobs, cpu/shading/pair_jobs.h: without vertex colours, with a bilinear or trilinear filter); and
// then whether `m`'s go (in the lit model, a material the vectorised passes draw).
inline bool streamedTexturesApply(const RasterContext& ctx) {
    return !ctx.plan.sideRecords && ctx.plan.settings.filter != TextureFilter::Nearest;
}
inline bool streamedMaterial(const ShadeMaterial& m, const RasterContext& ctx) {
    return m.texture.levelCount > 0 &&
           (ctx.plan.settings.shading == ShadingModel::Classic || litVectorised(m, ctx.plan.settings.filter));
}

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

// One-sample shading reads the tile a quad pair at a time (four columns of a quad row, from a
// column a multiple of 4 from the tile buffer's origin, so within the tile's row), and shades
// each triangle there in the lanes it won: a textured triangle's pixels (streamedMaterial) go
// to the stream from eight lanes at once, every quad's level of detail found in its own lanes;
// a triangle of one flat colour is coloured; the others become a job per quad, as
// shadeTileLayers makes them. A triangle's work in a pair (texel coordinates, levels of detail,
// packing) costs about what a quad's job did, and pairs hold few more triangles than quads: on
// facet-bench's textured sheet 95,000 pair jobs a frame where there were 141,000 quad jobs.

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

// shadeTile's colours, a quad pair at a time (see above): pixels without an id get the clear
// colour. A span that one flat or textured triangle won is taken whole (SpanShading).
class PairShading {
public:
    PairShading(const TileTriangle* triangles, const TriangleColors* const* colors, const RasterContext& ctx,
                const TileBuffers& buffers)
        : drawn_{triangles, colors}, ctx_(ctx), buffers_(buffers), streamed_(streamedTexturesApply(ctx)),
          clear_(_mm256_set1_epi32(int(ctx.plan.settings.clearColor))), pairs_(stream_, ctx, buffers),
          spans_(triangles, ctx, pairs_) {
        if (ctx.plan.lit) stream_.rig = ctx.plan.rig;
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
    const __m128i clear = _mm_set1_epi32(int(ctx.plan.settings.clearColor));
    JobBatch batch;
    PixelStream stream;
    if (ctx.plan.lit) stream.rig = ctx.plan.rig;
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
