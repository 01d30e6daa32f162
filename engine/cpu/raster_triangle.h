// The CPU raster stage's inner loop: one set-up triangle drawn into one screen tile, in 2x2
// pixel quads. Two implementations of the same function:
//   - rasterizeTriangleScalar: the reference, a direct evaluation of the shared FACET_HD
//     functions (core/triangle_setup.h, core/shading.h) pixel by pixel;
//   - rasterizeTriangleSimd: the four pixels of a quad in the four lanes of SSE/AVX2 registers,
//     performing per lane exactly the float operations of the reference, in the same order.
// They produce the same bits (tests/cpu_raster_equivalence_test.cpp); the renderer runs the
// SIMD one.
#pragma once

#include "core/frame.h"
#include "core/shading.h"
#include "core/triangle_setup.h"

#include <cstddef>

namespace facet {

struct TileRect {
    int x0, y0, x1, y1; // inclusive pixel bounds, within the target
};

// What every triangle of a frame's raster stage shares.
struct RasterContext {
    const RenderSettings& settings;
    glm::vec3 viewForward;
    const FrameView& target;
    int quadRowOffset; // 1 for an odd target height: quads pair rows counting from the bottom
};

// Both return the number of fragments written.
std::size_t rasterizeTriangleScalar(const ScreenTriangle& tri, const ShadeMaterial& material,
                                    const RasterContext& ctx, const TileRect& tile);
std::size_t rasterizeTriangleSimd(const ScreenTriangle& tri, const ShadeMaterial& material, const RasterContext& ctx,
                                  const TileRect& tile);

} // namespace facet
