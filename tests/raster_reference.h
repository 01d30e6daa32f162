// The plain definition the CPU's raster stage is checked against: one triangle drawn straight
// from the shared per-pixel functions, pixel by pixel, shading each fragment as it passes the
// depth test (a quad's helper pixels give the uv derivatives for the level of detail, as on a
// GPU). Test-only: the renderer draws deferred (cpu/visibility/tile_buffers.h).
#pragma once

#include "core/coverage_walk.h"
#include "core/quad_shading.h"
#include "cpu/visibility/tile_buffers.h"

#include <algorithm>
#include <cstddef>

namespace facet {

// Draws `tri` (with its corners' `attributes`) within the tile rect into ctx.target; returns the
// number of fragments written.
inline std::size_t drawTriangleReference(const ScreenTriangle& tri, const TriangleAttributes& attributes,
                                         const ShadeMaterial& material, const RasterContext& ctx,
                                         const TileRect& tile) {
    QuadRange q;
    if (!quadRange(tri, tile, ctx.plan.grid.quadRowOffset, q)) return 0;
    const FrameView& target = ctx.target;
    std::size_t shaded = 0;
    for (int qy = q.firstQy; qy <= q.maxY; qy += 2)
        for (int qx = q.firstQx; qx <= q.maxX; qx += 2)
            for (int k = 0; k < 4; ++k) {
                const int x = qx + (k & 1), y = qy + (k >> 1);
                if (x < q.minX || x > q.maxX || y < q.minY || y > q.maxY || !covers(tri, edgeValues(tri, x, y))) continue;
                const float depth = interpolateDepth(tri, barycentrics(tri, x, y));
                const std::size_t pixel = std::size_t(y) * std::size_t(target.width) + std::size_t(x);
                // Beyond the far plane nothing is drawn.
                if (!(depth >= 0.0f && depth <= 1.0f && depth < target.depth[pixel])) continue;
                target.depth[pixel] = depth;
                target.color[pixel] =
                    shadeQuadPixel({tri, attributes}, material, ctx.plan, qx, qy, k);
                ++shaded;
            }
    return shaded;
}

// The tile rect's depths from the target into the tile's depth buffer, for drawing deferred
// over existing depths (the renderer starts every tile at depth 1).
inline void loadTileDepth(const RasterContext& ctx, const TileRect& tile, const TileBuffers& buffers) {
    for (int y = tile.y0; y <= tile.y1; ++y)
        std::copy_n(ctx.target.depth + std::size_t(y) * std::size_t(ctx.target.width) + std::size_t(tile.x0),
                    tile.x1 - tile.x0 + 1, buffers.depth + buffers.at(tile.x0, y));
}

} // namespace facet
