// The CUDA pipeline's vertex stage (see kernels.h), beside the CPU's (engine/cpu/vertex/): per
// vertex, d = R (v - eye), clip classification and projection.
#pragma once

#include "core/triangle_stage.h"
#include "core/vertex_math.h"

#if defined(FACET_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

#include <cstdint>

namespace facet {

// ---- 1. vertexSetup -------------------------------------------------------------------------
struct VertexSetupParams {
    MeshView mesh;
    ViewParams view;
    ClipPlanes planes;
    int width, height;
    float *dx, *dy, *dz;
    std::uint8_t* outside;
    ScreenVertex* projected;
};

FACET_HD void vertexSetupThread(const VertexSetupParams& p, std::uint32_t i) {
    if (i >= p.mesh.vertexCount) return;
    const glm::vec3 d = rotate(p.view.rotation, shift(glm::vec3(p.mesh.px[i], p.mesh.py[i], p.mesh.pz[i]), p.view.eye));
    p.dx[i] = d.x;
    p.dy[i] = d.y;
    p.dz[i] = d.z;
    classifyVertex(p.mesh, p.dx, p.dy, p.dz, p.planes, p.view, p.width, p.height, p.outside, p.projected, i);
}

// The same without the transform, for camera-space positions computed elsewhere (the CPU's
// vertex stage, uploaded).
struct ClassifyParams {
    MeshView mesh;
    ViewParams view;
    ClipPlanes planes;
    int width, height;
    const float *dx, *dy, *dz;
    std::uint8_t* outside;
    ScreenVertex* projected;
};

FACET_HD void classifyThread(const ClassifyParams& p, std::uint32_t i) {
    if (i >= p.mesh.vertexCount) return;
    classifyVertex(p.mesh, p.dx, p.dy, p.dz, p.planes, p.view, p.width, p.height, p.outside, p.projected, i);
}

#if defined(FACET_HAVE_CUDA)
// The plain vertex stage (vertexStageThread, core/vertex_math.h) on a ceil-div grid on `stream`
// (a cudaStream_t; 0 for the default stream), for camera-space positions the CPU raster stage
// takes (GpuRenderer::cameraSpaceToHost). The pointers in the params must be device pointers.
// Returns the launch's error (cudaGetLastError) for the caller to check.
cudaError_t launchVertexStage(const VertexStageParams& params, void* stream);
#endif

} // namespace facet
