// Pass 1 of the CPU raster stage (cpu/visibility/visibility.h), the visibility walks; forward tiles;
// the tile's depths to the target. Pass 2, shading, is cpu/shading/tile_shading.cpp.
#include "cpu/visibility/visibility.h"
#include "core/forward_draw.h"
#include "core/quad_shading.h"
#include "cpu/simd/quad_coverage.h"
#include "cpu/simd/stream_store.h"
#include "cpu/visibility/block_depth_bounds.h"
#include "cpu/visibility/sample_pair_walk.h"

#include <algorithm>
#include <type_traits>

namespace facet {

namespace {

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
            drawForwardLanes(t.triangle, t.ctx.plan, qx, qy, keep, value, color, depth,
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
// block; with `avx512`, SmallBlock's multisampled walks take cpu/visibility/sample_pair_walk.h's (the same
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
    if (!quadRange(tri, tile, ctx.plan.grid.quadRowOffset, q)) return 0;
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
    if (!quadRange(tri, tile, ctx.plan.grid.quadRowOffset, q)) return 0;
    CutoutTileVisibility target{buffers, id, tri, *cutout.attributes, *cutout.material, ctx.plan.settings.filter};
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
    const int samples = ctx.plan.settings.msaa;
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
    const int samples = ctx.plan.settings.msaa;
    for (int s = 0; s < samples; ++s)
        for (int y = buffers.originY; y <= tile.y1; ++y)
            std::fill_n(samplePlane(buffers, s).color + buffers.at(buffers.originX, y), kTileBufferStride,
                        ctx.plan.settings.clearColor);
    std::size_t won = 0;
    for (std::uint32_t n = 0; n < count; ++n) {
        const ScreenTriangle& tri = *triangles[n].tri;
        QuadRange q;
        if (!quadRange(tri, tile, ctx.plan.grid.quadRowOffset, q)) continue;
        const ForwardTriangle triangle{&tri, triangles[n].attributes, triangles[n].material,
                                       ctx.plan.sideRecords ? colors[n] : nullptr};
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

} // namespace facet
