#include "cpu/shading/view_tile.h"

#include "core/view_shading.h"

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

} // namespace facet
