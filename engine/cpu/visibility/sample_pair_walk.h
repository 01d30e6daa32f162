// The multisampled visibility walk of a small triangle (SmallBlock's: 32-bit edge values) on a
// CPU with AVX-512: core/coverage_walk.h's walkSamples in lanes that hold SmallBlock's 4x2
// pixels at two samples at once, so one pass of sixteen lanes does what two of eight did,
// with AVX-512's mask registers and mask stores. The same decisions bit for bit
// (tests/cpu_raster_equivalence_test.cpp).
#pragma once

#include "core/coverage_walk.h"
#include "cpu/visibility/tile_buffers.h"

#include <cstddef>
#include <cstdint>

namespace facet {

// rasterizeVisibility's walk of `tri` over `q` at `samples` (2, 4 or 8) per pixel into the
// tile's sample planes; `bounds` as walkSamples' Bounds. Only for a CPU with AVX-512
// (RasterContext::avx512): the file is compiled for it.
std::size_t walkSamplePairs(const ScreenTriangle& tri, std::uint32_t id, const QuadRange& q, const TileBuffers& buffers,
                            int samples, bool bounds);

} // namespace facet
