// What one frame of the CUDA pipeline reports (on the GPU or run on the CPU).
#pragma once

#include "core/triangle_stage.h"

#include <cstddef>

namespace facet {

struct KernelFrameStats {
    std::size_t trianglesIn = 0;
    std::size_t trianglesClipped = 0;
    std::size_t trianglesCulled = 0;
    std::size_t trianglesDrawn = 0; // set-up triangles (a clipped triangle may give several)
    std::size_t binEntries = 0;     // (tile, triangle) pairs
    double vertexMs = 0.0, triangleMs = 0.0, rasterMs = 0.0;
};

} // namespace facet
