// The CPU raster stage's second pass with multisampling (RenderSettings::msaa > 1). The
// visibility pass (rasterizeVisibility with `samples`) leaves, in the tile's sample planes,
// per sample the id of the triangle that last passed its depth test there and its depth.
// resolveTileSamples then, per pixel:
//   - makes the ids distinct: plane L holds the pixel's L-th distinct triangle ("layer" L) and
//     a count word how many of its samples each covers;
//   - shades every layer in one pass over the quads (shadeTileLayers), so each triangle is
//     shaded once per pixel, at the pixel centre, whatever number of its samples it covers
//     (OpenGL without sample shading), and a quad's level of detail stays the one-sample
//     picture's; a triangle in several layers of a quad is one job of the shading;
//   - resolves: the box filter of ColorSum (core/multisample.h) over the layers' colours, each
//     weighted by its samples, and the clear colour for the samples nothing covers; the depth
//     is the nearest sample's (resolveDepth).
// The CUDA raster thread resolves the same way (shaders_cuda/shading.h), bit for bit.
#pragma once

#include "cpu/visibility/tile_buffers.h"

#include <cstdint>

namespace facet {

// `buffers` holds ctx.plan.settings.msaa planes of ids, depths and colours (see samplePlane), as the
// visibility pass left them; `counts` kTileBufferElements words of scratch. Writes the tile
// rect's resolved colours and depths to the target and leaves the planes' ids 0 and depths 1,
// ready for the next tile.
void resolveTileSamples(const TileTriangle* triangles, const TriangleColors* const* colors, const RasterContext& ctx,
                        const TileRect& tile, const TileBuffers& buffers, std::uint32_t* counts);

} // namespace facet
