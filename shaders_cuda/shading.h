// The CUDA pipeline's raster stage, its shading half (see kernels.h), beside the CPU's
// (engine/cpu/shading/): each pixel of a quad shaded once by its winner (visibility.h), the
// multisampled quads and their resolve, the quads of tiles drawn forward, and the raster
// thread that picks among them (rasterQuadThread).
#pragma once

#include "core/forward_draw.h"
#include "core/multisample.h"
#include "core/quad_shading.h"
#include "core/view_shading.h"
#include "shaders_cuda/visibility.h"

#include <cstdint>

namespace facet {

// Pixel k's colour in a debug view that colours pixels by their winners.
FACET_HD std::uint32_t viewWinnerColor(const RasterParams& p, std::uint32_t winner, std::uint32_t fragments, int qx,
                                       int qy, int k) {
    const ViewPixel pixel{&p.triangles[winner], &p.triangleAttributes[winner],
                          &p.materials[p.triangleMaterials[winner]],
                          p.triangleColors ? &p.triangleColors[winner] : nullptr,
                          p.triangleSources ? p.triangleSources[winner] : 0u, fragments};
    return viewQuadPixel(p.plan, pixel, qx, qy, k);
}

// Pixel k of the quad at (qx, qy) as an index into the target, or -1 where it lies outside.
FACET_HD long long quadPixelIndex(const FrameView& target, int qx, int qy, int k) {
    const int x = qx + (k & 1), y = qy + (k >> 1);
    if (x >= target.width || y < 0 || y >= target.height) return -1;
    return static_cast<long long>(y) * target.width + x;
}

// The raster thread with S samples per pixel (S > 1): the quad's visibility per sample, each at
// its own sample point (a tile holding a cut-out or blended material is drawn forward instead:
// drawsForward); then per pixel each distinct winner shaded once at the pixel centre,
// weighted by the samples it won, and the box resolve, exactly as the CPU's
// resolveTileSamples (cpu/shading/multisample_tile.h) adds it up, so the two agree bit for bit.
template <int S, class Band>
FACET_HD void rasterQuadSamples(const RasterParams& p, Band& band, int qx, int qy) {
    QuadVisibility visibility[S];
    FACET_UNROLL
    for (int s = 0; s < S; ++s)
        visibility[s] = QuadVisibility{{1.0f, 1.0f, 1.0f, 1.0f}, {kNoTriangle, kNoTriangle, kNoTriangle, kNoTriangle}, 0};
    forBandTriangles(band, qy, [&](std::uint32_t id) {
        const ScreenTriangle& tri = p.triangles[id];
        QuadRange range;
        if (!quadRange(tri, TileRect{qx, qy, qx + 1, qy + 1}, p.plan.grid.quadRowOffset, range)) return;
        FACET_UNROLL
        for (int s = 0; s < S; ++s) {
            visibility[s].id = id;
            walkCoverage<QuadLanes, true>(tri, range, visibility[s], samplePoint(S, s));
        }
    });
    for (int k = 0; k < 4; ++k) {
        const long long pixel = quadPixelIndex(p.target, qx, qy, k);
        if (pixel < 0) continue;
        ColorSum sum;
        std::uint32_t covered = 0;
        float depth = visibility[0].nearest[k];
        for (int s = 0; s < S; ++s) {
            depth = resolveDepth(depth, visibility[s].nearest[k]);
            const std::uint32_t winner = visibility[s].winner[k];
            bool seen = winner == kNoTriangle;
            for (int t = 0; t < s; ++t) seen = seen || visibility[t].winner[k] == winner;
            if (seen) continue; // no triangle, or one already shaded
            std::uint32_t won = 0;
            for (int t = s; t < S; ++t) won += visibility[t].winner[k] == winner ? 1u : 0u;
            sum.add(shadeQuadPixel({p.triangles[winner], p.triangleAttributes[winner]},
                                   p.materials[p.triangleMaterials[winner]], p.plan, qx, qy, k,
                                   p.triangleColors ? &p.triangleColors[winner] : nullptr),
                    won);
            covered += won;
        }
        sum.add(p.plan.settings.clearColor, static_cast<std::uint32_t>(S) - covered);
        p.target.color[pixel] = sum.resolve(S);
        p.target.depth[pixel] = depth;
    }
}

// Forward drawing's walk target for a quad of a tile holding a blended triangle (lit model, see
// core/forward_draw.h): the quad's colours and depths (sample `sample`'s with multisampling),
// drawn triangle by triangle.
struct ForwardQuadTarget {
    std::uint32_t color[4];
    float depth[4];
    ForwardTriangle triangle;
    const RasterParams* p;
    int qx, qy, sample;

    FACET_HD ForwardQuadTarget& row(int) { return *this; }
    FACET_HD Quad<float> depthAt(int) const {
        return quadOf(depth);
    }
    FACET_HD void write(int, unsigned keep, const Quad<float>& value, const Quad<float>&) {
        std::uint32_t* const colors[4] = {&color[0], &color[1], &color[2], &color[3]};
        float* const depths[4] = {&depth[0], &depth[1], &depth[2], &depth[3]};
        drawForwardLanes(triangle, p->plan, qx, qy, keep, value, colors, depths, sample);
    }
};

// The quad of a tile holding a material drawn forward (drawsForward): every triangle in draw
// order; with multisampling each sample drawn as a picture of its own at its point (so blending
// is per sample), then the box resolve and the nearest depth, as the CPU's forward tiles. The
// samples are a loop over a run-time count (at most Capacity, the kernel's: see
// rasterQuadThread), so a kernel inlines the walk and the shading once.
template <int Capacity, class Band>
FACET_HD void forwardQuad(const RasterParams& p, Band& band, int qx, int qy, int samples) {
    const std::uint32_t clear = p.plan.settings.clearColor;
    ForwardQuadTarget target[Capacity];
    FACET_NO_UNROLL
    for (int s = 0; s < samples; ++s)
        target[s] = ForwardQuadTarget{{clear, clear, clear, clear}, {1.0f, 1.0f, 1.0f, 1.0f}, {}, &p, qx, qy, s};
    forBandTriangles(band, qy, [&](std::uint32_t id) {
        const ScreenTriangle& tri = p.triangles[id];
        QuadRange range;
        if (!quadRange(tri, TileRect{qx, qy, qx + 1, qy + 1}, p.plan.grid.quadRowOffset, range)) return;
        const ForwardTriangle triangle{&tri, &p.triangleAttributes[id], &p.materials[p.triangleMaterials[id]],
                                       p.triangleColors ? &p.triangleColors[id] : nullptr};
        FACET_NO_UNROLL
        for (int s = 0; s < samples; ++s) {
            target[s].triangle = triangle;
            walkCoverage<QuadLanes, true>(tri, range, target[s], samples > 1 ? samplePoint(samples, s) : pixelCentreSample());
        }
    });
    const FrameView& frame = p.target;
    FACET_UNROLL
    for (int k = 0; k < 4; ++k) {
        const long long pixel = quadPixelIndex(frame, qx, qy, k);
        if (pixel < 0) continue;
        ColorSum sum;
        float depth = target[0].depth[k];
        for (int s = 0; s < samples; ++s) {
            sum.add(target[s].color[k], 1u);
            depth = resolveDepth(depth, target[s].depth[k]);
        }
        frame.color[pixel] = samples > 1 ? sum.resolve(samples) : target[0].color[k];
        frame.depth[pixel] = depth;
    }
}

// The quad at (qx, qy) of a one-sample frame, not drawn forward: its visibility (in the overdraw
// view counting fragments too, so in order), then each pixel shaded once by its winner; the
// rest get the background.
template <class Band>
FACET_HD void rasterQuadNearest(const RasterParams& p, Band& band, int qx, int qy) {
    QuadVisibility visibility{{1.0f, 1.0f, 1.0f, 1.0f}, {kNoTriangle, kNoTriangle, kNoTriangle, kNoTriangle}, 0};
    std::uint32_t fragments[4] = {0u, 0u, 0u, 0u};
    if (viewCountsFragments(p.plan.settings.view)) {
        CountingQuadVisibility counting{visibility, {0u, 0u, 0u, 0u}};
        walkQuadTriangles(p, band, qx, qy, counting);
        visibility = counting;
        FACET_UNROLL
        for (int k = 0; k < 4; ++k) fragments[k] = counting.fragments[k];
    } else {
        visibility = quadVisibility(p, band, qx, qy);
    }
    const bool byWinners = viewShadesWinners(p.plan.settings.view);
    FACET_UNROLL
    for (int k = 0; k < 4; ++k) {
        const long long pixel = quadPixelIndex(p.target, qx, qy, k);
        if (pixel < 0) continue;
        const std::uint32_t winner = visibility.winner[k];
        std::uint32_t color = viewBackground(p.plan.settings);
        if (winner != kNoTriangle && byWinners)
            color = viewWinnerColor(p, winner, fragments[k], qx, qy, k);
        else if (winner != kNoTriangle)
            color = shadeQuadPixel({p.triangles[winner], p.triangleAttributes[winner]},
                                   p.materials[p.triangleMaterials[winner]], p.plan, qx, qy, k,
                                   p.triangleColors ? &p.triangleColors[winner] : nullptr);
        p.target.color[pixel] = color;
        p.target.depth[pixel] = visibility.nearest[k];
    }
}

// The quad at (qx, qy) of a multisampled frame, not drawn forward, at its sample count.
template <class Band>
FACET_HD void rasterQuadMultisampled(const RasterParams& p, Band& band, int qx, int qy) {
    switch (p.plan.settings.msaa) {
    case 2:
        return rasterQuadSamples<2>(p, band, qx, qy);
    case 4:
        return rasterQuadSamples<4>(p, band, qx, qy);
    default:
        return rasterQuadSamples<8>(p, band, qx, qy); // 8 (the pipeline refuses other counts)
    }
}

// Thread i draws quad i % kQuadsPerTile of tile i / kQuadsPerTile, walking `band`, the list of
// its block (rasterBand(p, i / kRasterBlock), live). One-sample and multisampled frames run
// apart (rasterKernel<Multisampled>; on the host, runHostBlock), so the one-sample frame's
// kernel, the common one, holds none of the multisampled paths' per-sample arrays: fewer
// registers and a smaller stack frame. Every path below is the same for all of a block's
// threads (the settings', the tile's), and each walks the band once: see kRasterBlock.
template <bool Multisampled, class Band>
FACET_HD void rasterQuadThread(const RasterParams& p, std::uint32_t i, Band& band) {
    const std::uint32_t tile = i / kQuadsPerTile, q = i % kQuadsPerTile;
    if (tile >= static_cast<std::uint32_t>(p.plan.grid.tilesX * p.plan.grid.tilesY)) return;
    const TilePlace place = tilePlace(p.plan.grid, tile);
    const int qx = place.x + 2 * static_cast<int>(q % kQuadsPerTileRow);
    const int qy = place.y + 2 * static_cast<int>(q / kQuadsPerTileRow);
    // A tile holding a blended triangle (lit model), or multisampled a cut-out, is drawn forward.
    if (band.drawsForward()) {
        if constexpr (Multisampled)
            forwardQuad<kMaxSamples>(p, band, qx, qy, p.plan.settings.msaa);
        else
            forwardQuad<1>(p, band, qx, qy, 1);
    } else if constexpr (Multisampled) {
        rasterQuadMultisampled(p, band, qx, qy);
    } else {
        rasterQuadNearest(p, band, qx, qy);
    }
}

} // namespace facet
