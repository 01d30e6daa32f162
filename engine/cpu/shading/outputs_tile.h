// The outputs of a tile (core/outputs.h): each pixel's metric depth, instance id and normal from
// its winner, as view_tile.h colours a debug view's pixels. A one-sample deferred tile's ids
// serve as they are, before shading; another tile's come from a visibility pass of their own.
#pragma once

#include "core/outputs.h"
#include "cpu/visibility/tile_buffers.h"

#include <cstdint>

namespace facet {

// The tile's outputs from its ids (one sample plane); `sources`: each recorded triangle's place
// in the frame's draw order (index id - 1), read where instance ids are asked. The ids are left
// as they are, for shading, or with `clear` 0, ready for the next tile.
void writeTileOutputs(const OutputFrame& frame, const TileTriangle* triangles, const std::uint32_t* sources,
                      const TileRect& tile, const TileBuffers& buffers, bool clear);

// A tile nothing is drawn in: every output's background.
void clearTileOutputs(const OutputFrame& frame, const TileRect& tile);

} // namespace facet
