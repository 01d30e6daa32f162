// The CPU raster stage's inner loops, for one screen tile. The renderer draws a tile deferred:
// rasterizeVisibility walks the tile's triangles in order doing only coverage and the depth
// test (the walk of core/coverage_walk.h, in AVX2 lanes), recording per pixel which triangle
// won it; shadeTile then shades each pixel once, for the triangle that won it, a quad's four
// pixels in four lanes of SSE/AVX2 registers, or two quads in eight (per lane exactly the float
// operations of core/quad_shading.h, in the same order). A pixel's colour is the shading of the last
// triangle that passed its depth test, which is what drawing the triangles one by one ends
// with, and a quad's level of detail depends only on the triangle and the quad, so the picture
// is the same bits (tests/cpu_raster_equivalence_test.cpp checks it against that plain
// definition); but no fragment that a later triangle overwrites is shaded.
// Pass 1 (and forward tiles, and the depth store) is raster_triangle.cpp; pass 2 is
// tile_shading.cpp, which reads the ids into quad jobs (quad_jobs.h) and pair jobs
// (pair_jobs.h), whose textured pixels the pixel stream samples (pixel_stream.h).
#pragma once

#include "core/frame.h"
#include "core/frame_plan.h"
#include "core/multisample.h"
#include "core/shading.h"
#include "core/tiles.h"
#include "core/triangle_setup.h"
#include "core/vertex_color.h"
#include "cpu/isa.h"

#include <cstddef>
#include <cstdint>

namespace facet {

// What every triangle of a frame's raster stage shares.
struct RasterContext {
    const FramePlan& plan; // the frame's (core/frame_plan.h): its settings, grid, what shading reads
    const FrameView& target;
    bool avx512 = false;       // the multisampled walk takes AVX-512's pairs (samplePairWalkChosen(), cpu/isa.h)
    IndexedLoads indexedLoads = IndexedLoads::Gather; // how sampling reads texels (chosenIndexedLoads(), cpu/isa.h)
    bool wideFilter = false; // the classic model's textured pixels take cpu/wide_filter.h (wideFilterChosen())
};

// A tile's own buffers, kTileSize rows of kTileBufferStride elements, element 0 at pixel
// (originX, originY): the tile's first quad, whose row is -1 for the first tile row of an
// odd-height target.
//   - ids: the visibility buffer, per pixel 1 + the index (in `TileTriangle`s) of the triangle
//     that last passed its depth test, 0 for none;
//   - depth: the tile's depth buffer, which the visibility pass tests and writes. Being the
//     tile's own, it stays in the L1 cache while the tile is drawn; storeTileDepth writes it
//     to the target once;
//   - color: the tile's colours, which shadeTile fills and then writes to the target.
// ids start at 0 and depth at 1; only pixels within the tile rect are ever covered, so the
// others are read and written back unchanged. shadeTile leaves the ids 0 and storeTileDepth the
// depths 1 again, so the buffers are ready for the next tile without a pass of their own.
// The visibility pass reads and writes blocks of 4 pixels per row from an even column, so a
// row reaches up to 2 elements past the tile's last column: rows are padded to keep those
// within their own row.
inline constexpr int kTileBufferStride = kTileSize + 4;
inline constexpr std::size_t kTileBufferElements = std::size_t(kTileBufferStride) * kTileSize;

struct TileBuffers {
    std::uint32_t* ids;
    float* depth;
    std::uint32_t* color;
    int originX, originY;
    // Optionally: per 8x8 block of the tile, row by row, a bound no nearer than any depth
    // stored there in any sample plane (cpu/block_depth_bounds.h), which the walk of a large
    // triangle keeps and culls by. Null: none kept.
    float* farthest = nullptr;

    // Pixel (x, y)'s element in each buffer.
    std::size_t at(int x, int y) const { return std::size_t((y - originY) * kTileBufferStride + (x - originX)); }
};

// Pixel k's element of the quad whose pixel 0 is element `at` of a tile buffer.
inline std::size_t quadElement(std::size_t at, int k) {
    return at + std::size_t((k >> 1) * kTileBufferStride + (k & 1));
}

// What shadeTile needs to shade a triangle recorded in the ids. A tile's vertex colours, where
// the mesh has them, are kept in an array beside these, so meshes without colours do not pay
// for bigger ones.
struct TileTriangle {
    const ScreenTriangle* tri;
    const TriangleAttributes* attributes; // written only where the frame's shading reads them
    const ShadeMaterial* material;
};

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

// Buffers of sample plane s: each of `buffers`' arrays moved on by s planes.
inline TileBuffers samplePlane(const TileBuffers& buffers, int s) {
    const std::size_t at = std::size_t(s) * kTileBufferElements;
    return TileBuffers{buffers.ids + at, buffers.depth + at, buffers.color + at, buffers.originX, buffers.originY};
}

// rasterizeVisibility for the overdraw view: also adds 1 to `counts` (laid out as the tile's
// ids, left 0 by the last tile) at every pixel whose depth test the triangle passes.
std::size_t rasterizeVisibilityCounting(const ScreenTriangle& tri, std::uint32_t id, const RasterContext& ctx,
                                        const TileRect& tile, const TileBuffers& buffers, std::uint32_t* counts);

// Pass 2: the colour of every pixel of the tile rect, into the tile's colour buffer and then
// the target: a pixel with an id gets the shading of triangles[id - 1], the others the clear
// colour.
// `colors[n]` is triangles[n]'s side record (vertex colours, tangents) where RasterContext::vertexColors, else unread
// (may be null).
void shadeTile(const TileTriangle* triangles, const TriangleColors* const* colors, const RasterContext& ctx,
               const TileRect& tile, const TileBuffers& buffers);
// A multisampled tile's layers (cpu/multisample_tile.h): plane L holds each pixel's L-th
// distinct triangle, found in rows first[L] to last[L] only. A pixel with layer L has every
// layer below it, so the rows of layer L lie within those of layer L - 1.
struct TileLayers {
    int count;
    int first[kMaxSamples], last[kMaxSamples];

    // How many planes the quad row at qy has ids in.
    int inQuadRow(int qy) const {
        int n = 0;
        while (n < count && first[n] <= qy + 1 && last[n] >= qy) ++n;
        return n;
    }
};

// shadeTile's shading over every layer's plane of a multisampled tile at once, the colours
// left in the planes for the resolve: the quads' ids in all planes set back to 0, and each
// pixel's colour per layer into that layer's plane (plane 0's pixels without an id get the
// clear colour; the others' are left as they were, never read). A triangle found in several
// planes of a quad (a pixel's first layer here, another's second) is shaded for all of them at
// once, its colours the same as shading each plane alone.
void shadeTileLayers(const TileTriangle* triangles, const TriangleColors* const* colors, const RasterContext& ctx,
                     const TileRect& tile, const TileBuffers& buffers, const TileLayers& layers);

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
