// Pass 2 of the CPU raster stage (see cpu/visibility/tile_buffers.h): a tile's shading, defined
// in tile_shading.cpp.
#pragma once

#include "cpu/visibility/tile_buffers.h"

namespace facet {

// Pass 2: the colour of every pixel of the tile rect, into the tile's colour buffer and then
// the target: a pixel with an id gets the shading of triangles[id - 1], the others the clear
// colour.
// `colors[n]` is triangles[n]'s side record (vertex colours, tangents) where RasterContext::vertexColors, else unread
// (may be null).
void shadeTile(const TileTriangle* triangles, const TriangleColors* const* colors, const RasterContext& ctx,
               const TileRect& tile, const TileBuffers& buffers);

// shadeTile's shading over every layer's plane of a multisampled tile at once, the colours
// left in the planes for the resolve: the quads' ids in all planes set back to 0, and each
// pixel's colour per layer into that layer's plane (plane 0's pixels without an id get the
// clear colour; the others' are left as they were, never read). A triangle found in several
// planes of a quad (a pixel's first layer here, another's second) is shaded for all of them at
// once, its colours the same as shading each plane alone.
void shadeTileLayers(const TileTriangle* triangles, const TriangleColors* const* colors, const RasterContext& ctx,
                     const TileRect& tile, const TileBuffers& buffers, const TileLayers& layers);

} // namespace facet
