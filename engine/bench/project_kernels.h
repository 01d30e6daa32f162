// The seed's vertex stage as benchmark kernels (facet-bench, facet-vertex-bench, facet.project):
// not the renderer's, whose vertex stage is core/vertex_math.h's (the CPU's engine/cpu/vertex/,
// the CUDA pipeline's shaders_cuda/vertex.h).
#pragma once

#include "core/transform.h"

#include <cstdint>

namespace facet {

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

// One vertex of it: (d.x k, d.y k, d.z) with k = focus / |d.z|.
FACET_HD glm::vec3 projectPoint(const ProjectParams& p, glm::vec3 v) {
    const glm::vec3 d = rotate(p.rotation, shift(v, p.eye));
    const float k = p.focus / absolute(d.z);
    return {d.x * k, d.y * k, d.z};
}

FACET_HD void projectThread(const ProjectParams& p, std::uint32_t i) {
    if (i >= p.count) return;
    const glm::vec3 o = projectPoint(p, glm::vec3(p.px[i], p.py[i], p.pz[i]));
    p.x[i] = o.x;
    p.y[i] = o.y;
    p.z[i] = o.z;
}

// The same math step by step, as the NumPy code does it: three kernels, three passes over
// memory (shift into x, y, z; rotate in place; divide in place). Bit for bit what
// projectThread computes in one pass.
struct ShiftParams {
    const float* px;
    const float* py;
    const float* pz;
    float* x;
    float* y;
    float* z;
    std::uint32_t count;
    glm::vec3 eye;
};

FACET_HD void shiftThread(const ShiftParams& p, std::uint32_t i) {
    if (i >= p.count) return;
    const glm::vec3 d = shift(glm::vec3(p.px[i], p.py[i], p.pz[i]), p.eye);
    p.x[i] = d.x;
    p.y[i] = d.y;
    p.z[i] = d.z;
}

struct RotateParams {
    float* x;
    float* y;
    float* z;
    std::uint32_t count;
    glm::mat3 rotation;
};

FACET_HD void rotateThread(const RotateParams& p, std::uint32_t i) {
    if (i >= p.count) return;
    const glm::vec3 d = rotate(p.rotation, glm::vec3(p.x[i], p.y[i], p.z[i]));
    p.x[i] = d.x;
    p.y[i] = d.y;
    p.z[i] = d.z;
}

struct DivideParams {
    float* x;
    float* y;
    const float* z;
    std::uint32_t count;
    float focus;
};

FACET_HD void divideThread(const DivideParams& p, std::uint32_t i) {
    if (i >= p.count) return;
    const float k = p.focus / absolute(p.z[i]);
    p.x[i] = p.x[i] * k;
    p.y[i] = p.y[i] * k;
}

#if defined(FACET_HAVE_CUDA)
// Launchers: ceil-div grids on `stream` (a cudaStream_t; 0 for the default stream), each
// launch checked. The pointers in the params must be device pointers.
void launchProject(const ProjectParams& params, void* stream);
void launchShift(const ShiftParams& params, void* stream);
void launchRotate(const RotateParams& params, void* stream);
void launchDivide(const DivideParams& params, void* stream);
#endif

} // namespace facet
