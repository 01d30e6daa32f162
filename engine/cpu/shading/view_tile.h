// Pass 2 of a tile in the debug views that colour a pixel by its winner (core/view_shading.h):
// each pixel on its own through the scalar viewQuadPixel, not shadeTile's vectorised passes,
// which the shaded picture keeps to itself.
#pragma once

#include "cpu/visibility/tile_buffers.h"

#include <cstdint>

namespace facet {

// What shadeTileView reads beside the tile's ids, per recorded triangle (index id - 1):
// `colors` where RasterContext::vertexColors, `sources` (its mesh triangle) in views that need
// them, and per pixel `counts` (laid out as the ids) in views that count fragments; each may
// be null where unread. The ids and counts are left 0, ready for the next tile.
struct TileViewInputs {
    const TileTriangle* triangles;
    const TriangleColors* const* colors;
    const std::uint32_t* sources;
    std::uint32_t* counts;
};

void shadeTileView(const TileViewInputs& in, const RasterContext& ctx, const TileRect& tile, const TileBuffers& buffers);

} // namespace facet
