#include "cpu/shading/outputs_tile.h"

namespace facet {

void writeTileOutputs(const OutputFrame& frame, const TileTriangle* triangles, const std::uint32_t* sources,
                      const TileRect& tile, const TileBuffers& buffers, bool clear) {
    for (int y = tile.y0; y <= tile.y1; ++y) {
        const std::size_t row = std::size_t(y) * std::size_t(frame.width);
        for (int x = tile.x0; x <= tile.x1; ++x) {
            const std::size_t at = buffers.at(x, y);
            const std::uint32_t id = buffers.ids[at];
            if (id != 0) {
                const TileTriangle& t = triangles[id - 1];
                writeOutputPixel(frame, OutputWinner{t.tri, t.attributes, sources ? sources[id - 1] : 0u}, x, y);
            } else {
                writeOutputBackground(frame, row + std::size_t(x), 1);
            }
            if (clear) buffers.ids[at] = 0;
        }
    }
}

void clearTileOutputs(const OutputFrame& frame, const TileRect& tile) {
    for (int y = tile.y0; y <= tile.y1; ++y)
        writeOutputBackground(frame, std::size_t(y) * std::size_t(frame.width) + std::size_t(tile.x0),
                              std::size_t(tile.x1 - tile.x0 + 1));
}

} // namespace facet
