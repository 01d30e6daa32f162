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

// One drawn instance as the vertex and triangle kernels read it (the executor's memory).
struct InstanceStage {
    TriangleStageInput in; // the triangle stage's input: its mesh as the stages read it (normals and
                           // tangents in world space where it is posed), its slices of the frame's arrays
    MeshView stored;       // its mesh as stored, in object space: the vertex stage reads it
    InstanceDraw draw;     // its view, matrices and place in the frame (core/instances.h)
};

// Where the frame's camera-space positions and the posed instances' world-space normals and
// tangents are written: the frame's arrays, one element per drawn vertex.
struct FrameVertexArrays {
    float *dx, *dy, *dz;
    float *nx, *ny, *nz;      // null unless some drawn instance is posed
    float *tx, *ty, *tz, *tw; // null unless some posed instance's tangents are read
    std::uint8_t* outside;
    ScreenVertex* projected;
};

// The instance holding frame vertex i.
FACET_HD const InstanceStage& instanceOfVertex(const InstanceStage* instances, std::uint32_t count, std::uint32_t i) {
    return instances[instanceHolding(count, i, [&](std::uint32_t k) { return instances[k].draw.firstVertex; })];
}

// Frame vertex i (local vertex `local` of instance s): its posed normal and tangent, where the
// stages read them.
FACET_HD void posedVertex(const InstanceStage& s, const FrameVertexArrays& a, std::uint32_t local, std::uint32_t i) {
    const MeshView& m = s.stored;
    if (s.in.mesh.nx) {
        const glm::vec3 n = posedDirection(s.draw.normalMatrix, glm::vec3(m.nx[local], m.ny[local], m.nz[local]));
        a.nx[i] = n.x;
        a.ny[i] = n.y;
        a.nz[i] = n.z;
    }
    if (s.in.mesh.tx) {
        const glm::vec3 t = posedDirection(s.draw.tangentMatrix, glm::vec3(m.tx[local], m.ty[local], m.tz[local]));
        a.tx[i] = t.x;
        a.ty[i] = t.y;
        a.tz[i] = t.z;
        a.tw[i] = s.draw.mirrored ? -m.tw[local] : m.tw[local];
    }
}

// Frame vertex i's clip classification and projection, through its instance's view.
FACET_HD void classifyFrameVertex(const InstanceStage& s, const FrameVertexArrays& a, const ClipPlanes& planes,
                                  int width, int height, std::uint32_t local) {
    const std::uint32_t first = s.draw.firstVertex;
    classifyVertex(s.in.mesh, s.in.dx, s.in.dy, s.in.dz, planes, s.draw.view, width, height, a.outside + first,
                   a.projected + first, local);
}

// ---- 1. vertexSetup -------------------------------------------------------------------------
struct VertexSetupParams {
    const InstanceStage* instances; // the drawn instances, their first vertices rising
    std::uint32_t instanceCount;
    std::uint32_t vertexCount;      // the drawn instances' vertices together
    ClipPlanes planes;
    int width, height;
    FrameVertexArrays arrays;
};

FACET_HD void vertexSetupThread(const VertexSetupParams& p, std::uint32_t i) {
    if (i >= p.vertexCount) return;
    const InstanceStage& s = instanceOfVertex(p.instances, p.instanceCount, i);
    const std::uint32_t local = i - s.draw.firstVertex;
    const MeshView& m = s.stored;
    const glm::vec3 d = rotate(s.draw.view.rotation, shift(glm::vec3(m.px[local], m.py[local], m.pz[local]), s.draw.view.eye));
    p.arrays.dx[i] = d.x;
    p.arrays.dy[i] = d.y;
    p.arrays.dz[i] = d.z;
    if (s.draw.posed) posedVertex(s, p.arrays, local, i);
    classifyFrameVertex(s, p.arrays, p.planes, p.width, p.height, local);
}

// The same without the transform, for camera-space positions computed elsewhere (the CPU's
// vertex stage, uploaded into arrays.dx, dy, dz).
struct ClassifyParams {
    const InstanceStage* instances;
    std::uint32_t instanceCount;
    std::uint32_t vertexCount;
    ClipPlanes planes;
    int width, height;
    FrameVertexArrays arrays;
};

FACET_HD void classifyThread(const ClassifyParams& p, std::uint32_t i) {
    if (i >= p.vertexCount) return;
    const InstanceStage& s = instanceOfVertex(p.instances, p.instanceCount, i);
    const std::uint32_t local = i - s.draw.firstVertex;
    if (s.draw.posed) posedVertex(s, p.arrays, local, i);
    classifyFrameVertex(s, p.arrays, p.planes, p.width, p.height, local);
}

#if defined(FACET_HAVE_CUDA)
// The plain vertex stage (vertexStageThread, core/vertex_math.h) on a ceil-div grid on `stream`
// (a cudaStream_t; 0 for the default stream), for camera-space positions the CPU raster stage
// takes (GpuRenderer::cameraSpaceToHost). The pointers in the params must be device pointers.
// Returns the launch's error (cudaGetLastError) for the caller to check.
cudaError_t launchVertexStage(const VertexStageParams& params, void* stream);
#endif

} // namespace facet
