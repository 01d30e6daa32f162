// The vertex stage's per-thread work, declared once for the CUDA kernel and the CPU backend:
// thread i computes d = R (v_i - eye) for one vertex of the structure-of-arrays positions.
#pragma once

#include "core/transform.h"

#include <cstdint>

namespace facet {

struct VertexStageParams {
    const float* px;
    const float* py;
    const float* pz;
    float* dx;
    float* dy;
    float* dz;
    std::uint32_t count;
    ViewParams view;
};

FACET_HD void vertexStageThread(const VertexStageParams& p, std::uint32_t i) {
    if (i >= p.count) return;
    const glm::vec3 d = rotate(p.view.rotation, shift(glm::vec3(p.px[i], p.py[i], p.pz[i]), p.view.eye));
    p.dx[i] = d.x;
    p.dy[i] = d.y;
    p.dz[i] = d.z;
}

// The seed's whole vertex stage in one pass, as its NumPy code computes it: d = R (v - eye),
// then x, y *= focus / |d.z|, z kept. (The renderer divides after clipping instead, since a
// vertex behind the eye has no picture position; this is the benchmarkable form.)
struct ProjectParams {
    const float* px;
    const float* py;
    const float* pz;
    float* x;
    float* y;
    float* z;
    std::uint32_t count;
    glm::vec3 eye;
    glm::mat3 rotation; // rows: right, up, forward
    float focus;
};

FACET_HD void projectThread(const ProjectParams& p, std::uint32_t i) {
    if (i >= p.count) return;
    const glm::vec3 d = rotate(p.rotation, shift(glm::vec3(p.px[i], p.py[i], p.pz[i]), p.eye));
    const float k = p.focus / glm::abs(d.z);
    p.x[i] = d.x * k;
    p.y[i] = d.y * k;
    p.z[i] = d.z;
}

#if defined(FACET_HAVE_CUDA)
// Launches the fused vertex kernel on `stream` (a cudaStream_t; 0 for the default stream).
// The pointers in `params` must be device pointers.
void launchVertexStage(const VertexStageParams& params, void* stream);
#endif

} // namespace facet
