// Pass 1 of the CPU raster stage (see cpu/visibility/tile_buffers.h): the visibility walks,
// forward tiles and the depth store, defined in visibility.cpp.
#pragma once

#include "cpu/visibility/tile_buffers.h"

#include <cstddef>
#include <cstdint>

namespace facet {

// Pass 1: coverage and depth test of `tri` in the tile rect; where it passes, the tile's depth
// is written and the pixel's id set to `id`. Returns the number of pixels it won (the fragments
// drawing the triangle on its own would write).
// With `samples` > 1 (multisampling), the same at each sample point of core/multisample.h:
// sample s has buffers of its own, `buffers` moved on by s planes (kTileBufferElements), and
// the count is of samples won.
// `cutout`: the triangle, where its material is alpha-tested (ShadeMaterial::cutout, lit model),
// whose pixels are then kept only where cutoutMask passes them (one sample per pixel only: the
// renderers refuse multisampling with the lit model).
std::size_t rasterizeVisibility(const ScreenTriangle& tri, std::uint32_t id, const RasterContext& ctx,
                                const TileRect& tile, const TileBuffers& buffers, int samples = 1,
                                const TileTriangle* cutout = nullptr);

// rasterizeVisibility for the overdraw view: also adds 1 to `counts` (laid out as the tile's
// ids, left 0 by the last tile) at every pixel whose depth test the triangle passes.
std::size_t rasterizeVisibilityCounting(const ScreenTriangle& tri, std::uint32_t id, const RasterContext& ctx,
                                        const TileRect& tile, const TileBuffers& buffers, std::uint32_t* counts);

// A tile holding a material drawn forward (drawsForward: the lit model's d < 1, and
// multisampled cut-outs), drawn forward instead of deferred (core/forward_draw.h): the `count`
// triangles in draw order into the tile's colour and depth buffers (starting at the clear colour
// and depth 1), the colours then written to the target; the depths are left for storeTileDepth.
// With multisampling each sample is drawn into its own plane, then resolved into plane 0.
// Returns the fragments (samples) that passed the depth test.
std::size_t drawTileForward(const TileTriangle* triangles, const TriangleColors* const* colors, std::uint32_t count,
                            const RasterContext& ctx, const TileRect& tile, const TileBuffers& buffers);

// The tile rect's depths from the tile's depth buffer to the target; the tile's depths are left
// 1 again. (The renderer starts every tile at depth 1; the tests, drawing over existing depths,
// load them first: tests/raster_reference.h.)
void storeTileDepth(const RasterContext& ctx, const TileRect& tile, const TileBuffers& buffers);

} // namespace facet
