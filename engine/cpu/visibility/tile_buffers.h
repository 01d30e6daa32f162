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
// Pass 1 (and forward tiles, and the depth store) is cpu/visibility/visibility.cpp (declared in
// visibility.h); pass 2 is cpu/shading/tile_shading.cpp (tile_shading.h), which reads the ids
// into quad jobs (shading/quad_jobs.h) and pair jobs (shading/pair_jobs.h), whose textured pixels
// the pixel stream samples (shading/pixel_stream.h). This header holds what both passes share:
// the frame's raster context, a tile's buffers and the triangles its ids name.
#pragma once

#include "core/frame.h"
#include "core/frame_plan.h"
#include "core/multisample.h"
#include "core/outputs.h"
#include "core/shading.h"
#include "core/tiles.h"
#include "core/triangle_setup.h"
#include "core/vertex_color.h"
#include "cpu/simd/isa.h"

#include <cstddef>
#include <cstdint>

namespace facet {

// What every triangle of a frame's raster stage shares.
struct RasterContext {
    const FramePlan& plan; // the frame's (core/frame_plan.h): its settings, grid, what shading reads
    const FrameView& target;
    bool avx512 = false;       // the multisampled walk takes AVX-512's pairs (samplePairWalkChosen(), cpu/simd/isa.h)
    IndexedLoads indexedLoads = IndexedLoads::Gather; // how sampling reads texels (chosenIndexedLoads(), cpu/simd/isa.h)
    bool wideFilter = false; // the classic model's textured pixels take cpu/simd/wide_filter.h (wideFilterChosen())
    const OutputFrame* outputs = nullptr; // the outputs asked beside the picture (core/outputs.h); null: none
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
    // stored there in any sample plane (cpu/visibility/block_depth_bounds.h), which the walk of a large
    // triangle keeps and culls by. Null: none kept.
    float* farthest = nullptr;

    // Pixel (x, y)'s element in each buffer.
    // (Always inlined: see sampleOffset in core/coverage_walk.h.)
    [[gnu::always_inline]] std::size_t at(int x, int y) const {
        return std::size_t((y - originY) * kTileBufferStride + (x - originX));
    }
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

// Buffers of sample plane s: each of `buffers`' arrays moved on by s planes.
inline TileBuffers samplePlane(const TileBuffers& buffers, int s) {
    const std::size_t at = std::size_t(s) * kTileBufferElements;
    return TileBuffers{buffers.ids + at, buffers.depth + at, buffers.color + at, buffers.originX, buffers.originY};
}

// A multisampled tile's layers (cpu/shading/multisample_tile.h): plane L holds each pixel's L-th
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

} // namespace facet
