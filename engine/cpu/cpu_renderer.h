// The CPU backend: the reference every other path must match, and the fallback without a GPU.
#pragma once

#include "asset/model.h"
#include "core/frame.h"
#include "core/shading.h"
#include "core/transform.h"

#include <cstddef>
#include <vector>

namespace facet {

struct CpuFrameStats {
    std::size_t trianglesIn = 0;
    std::size_t trianglesClipped = 0; // crossed the near plane or the guard band
    std::size_t trianglesCulled = 0;  // outside the frustum, back-facing or degenerate
    std::size_t fragmentsShaded = 0;
};

class CpuRenderer {
public:
    // Renders the model into `target` (cleared first). Throws facet::Error for an empty or
    // invalid target. Buffers grow with the mesh and are reused from frame to frame.
    CpuFrameStats render(const Model& model, const ViewParams& view, const RenderSettings& settings,
                         const FrameView& target);

private:
    std::vector<float> dx_, dy_, dz_; // camera-space positions from the vertex stage
};

// The vertex stage: d = R (v - eye) for every vertex, into structure-of-arrays outputs.
void transformVertices(const Mesh& mesh, const ViewParams& view, float* dx, float* dy, float* dz);

} // namespace facet
