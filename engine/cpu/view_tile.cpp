#include "cpu/view_tile.h"

#include "core/view_shading.h"
#include "cpu/cpu_renderer.h"

namespace facet {

void shadeTileView(const TileViewInputs& in, const RasterContext& ctx, const TileRect& tile, const TileBuffers& buffers) {
    const FrameView& target = ctx.target;
    const std::uint32_t background = viewBackground(ctx.plan.settings);
    for (int y = tile.y0; y <= tile.y1; ++y) {
        const int qy = buffers.originY + ((y - buffers.originY) & ~1);
        std::uint32_t* row = target.color + std::size_t(y) * std::size_t(target.width);
        for (int x = tile.x0; x <= tile.x1; ++x) {
            const int qx = buffers.originX + ((x - buffers.originX) & ~1);
            const std::size_t at = buffers.at(x, y);
            const std::uint32_t id = buffers.ids[at];
            std::uint32_t color = background;
            if (id != 0) {
                const TileTriangle& t = in.triangles[id - 1];
                const TriangleColors* colors = ctx.plan.sideRecords ? in.colors[id - 1] : nullptr;
                const ViewPixel pixel{t.tri, t.attributes, t.material, colors, in.sources ? in.sources[id - 1] : 0u,
                                      in.counts ? in.counts[at] : 0u};
                color = viewQuadPixel(ctx.plan, pixel, qx, qy, (x - qx) + 2 * (y - qy));
            }
            row[x] = color;
            buffers.ids[at] = 0;
            if (in.counts) in.counts[at] = 0;
        }
    }
}

// drawTile for the views that colour a pixel by its winner: the same visibility pass (counting
// fragments where the view needs them, and keeping each triangle's mesh triangle), then
// shadeTileView.
std::size_t CpuRenderer::drawTileView(RasterContext context, std::uint32_t tile, TilePlace place, TileRect rect,
                                      std::size_t chunkCount, TileScratch& scratch) {
    const TileBuffers buffers{scratch.ids.data(), scratch.depth.data(), scratch.color.data(), place.x, place.y};
    const View view = context.plan.settings.view;
    std::uint32_t* counts = viewCountsFragments(view) ? scratch.counts.data() : nullptr;
    const bool sources = viewNeedsSources(view);
    std::size_t won = 0;
    std::uint32_t count = 0;
    for (std::size_t c = 0; c < chunkCount; ++c) {
        const Chunk& chunk = chunks_[c];
        for (std::uint32_t k = chunk.binOffsets[tile]; k < chunk.binOffsets[tile + 1]; ++k) {
            const std::uint32_t i = chunk.binTriangles[k];
            scratch.triangles[count] = tileTriangle(chunk, i);
            if (context.plan.sideRecords) scratch.colors[count] = &chunk.colors[i];
            if (sources) scratch.sources[count] = chunk.sources[i];
            ++count;
            const ScreenTriangle& tri = chunk.triangles.triangle(i);
            won += counts ? rasterizeVisibilityCounting(tri, count, context, rect, buffers, counts)
                          : rasterizeVisibility(tri, count, context, rect, buffers);
        }
    }
    storeTileDepth(context, rect, buffers);
    shadeTileView(TileViewInputs{scratch.triangles.data(), scratch.colors.data(),
                                 sources ? scratch.sources.data() : nullptr, counts},
                  context, rect, buffers);
    return won;
}

} // namespace facet
