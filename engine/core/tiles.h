// Screen tiles, as both backends bin triangles into them. Tiles are kTileSize pixels square;
// columns start at x = 0 and rows at y = -quadRowOffset, so the 2x2 quads (which pair rows
// counting from the bottom of the picture, as OpenGL does) never straddle two tiles.
#pragma once

#include "core/hd.h"

namespace facet {

inline constexpr int kTileSize = 64; // even, so quads never straddle two tiles

struct TileGrid {
    int tilesX, tilesY;
    int quadRowOffset; // 1 for an odd target height, else 0
};

FACET_HD TileGrid makeTileGrid(int width, int height) {
    const int offset = height & 1;
    return TileGrid{(width + kTileSize - 1) / kTileSize, (height + offset + kTileSize - 1) / kTileSize, offset};
}

// The tiles [tx0, tx1] x [ty0, ty1] that pixel bounds [minX, maxX] x [minY, maxY] touch.
struct TileSpan {
    int tx0, ty0, tx1, ty1;
    FACET_HD int count() const { return (tx1 - tx0 + 1) * (ty1 - ty0 + 1); }
};

FACET_HD TileSpan tileSpan(const TileGrid& grid, int minX, int minY, int maxX, int maxY) {
    return TileSpan{minX / kTileSize, (minY + grid.quadRowOffset) / kTileSize, maxX / kTileSize,
                    (maxY + grid.quadRowOffset) / kTileSize};
}

} // namespace facet
