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

} // namespace facet
