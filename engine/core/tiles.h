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

// Tile t (row-major) of the grid: its column and row, and the top-left pixel of its first quad
// (row -1 for the first tile row of an odd-height target).
struct TilePlace {
    int tx, ty;
    int x, y;
};

FACET_HD TilePlace tilePlace(const TileGrid& grid, unsigned tile) {
    const int tx = static_cast<int>(tile % static_cast<unsigned>(grid.tilesX));
    const int ty = static_cast<int>(tile / static_cast<unsigned>(grid.tilesX));
    return TilePlace{tx, ty, tx * kTileSize, ty * kTileSize - grid.quadRowOffset};
}

// Inclusive pixel bounds.
struct TileRect {
    int x0, y0, x1, y1;
};

// The pixels of a tile that lie within a width x height target.
FACET_HD TileRect tileRect(const TilePlace& place, int width, int height) {
    return TileRect{place.x, glm::max(place.y, 0), glm::min(width, place.x + kTileSize) - 1,
                    glm::min(height, place.y + kTileSize) - 1};
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
