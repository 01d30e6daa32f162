// The CPU vertex stage: the kernel's per-thread function in a loop that the compiler
// vectorises, built twice: for the x86-64-v3 baseline (AVX2) and for AVX-512, picked at run
// time (cpu/simd/isa.h; FACET_ISA=scalar runs the per-thread function unvectorised). With FP
// contraction off all of them compute exactly the same roundings as the scalar code.
#include "cpu/vertex/vertex_stage.h"
#include "cpu/simd/isa.h"

#include "core/vertex_math.h"

namespace facet {

namespace {

// vertexStageThread's arithmetic as a loop over restrict-qualified parameters (GCC 12 does not
// vectorise through restrict locals copied from a struct), inlined into each target below.
inline void transformLoop(const float* __restrict px, const float* __restrict py, const float* __restrict pz,
                          float* __restrict dx, float* __restrict dy, float* __restrict dz, const ViewParams& view,
                          std::uint32_t begin, std::uint32_t end) {
    const glm::mat3& r = view.rotation;
    const float ex = view.eye.x, ey = view.eye.y, ez = view.eye.z;
    const float r00 = r[0][0], r01 = r[1][0], r02 = r[2][0];
    const float r10 = r[0][1], r11 = r[1][1], r12 = r[2][1];
    const float r20 = r[0][2], r21 = r[1][2], r22 = r[2][2];
    for (std::uint32_t i = begin; i < end; ++i) {
        const float sx = px[i] - ex, sy = py[i] - ey, sz = pz[i] - ez;
        dx[i] = r00 * sx + r01 * sy + r02 * sz;
        dy[i] = r10 * sx + r11 * sy + r12 * sz;
        dz[i] = r20 * sx + r21 * sy + r22 * sz;
    }
}

inline void transformRange(const VertexStageParams& p, std::uint32_t begin, std::uint32_t end) {
    transformLoop(p.px, p.py, p.pz, p.dx, p.dy, p.dz, p.view, begin, end);
}

__attribute__((target("avx512f,avx512vl"))) void transformRangeAvx512(const VertexStageParams& p, std::uint32_t begin,
                                                                      std::uint32_t end) {
    transformRange(p, begin, end);
}

void transformRangeAvx2(const VertexStageParams& p, std::uint32_t begin, std::uint32_t end) {
    transformRange(p, begin, end);
}

// FACET_ISA=scalar: the per-thread function one vertex at a time, not vectorised.
FACET_NOT_VECTORIZED void transformRangeScalar(const VertexStageParams& p, std::uint32_t begin, std::uint32_t end) {
    for (std::uint32_t i = begin; i < end; ++i) vertexStageThread(p, i);
}

} // namespace

void transformVertices(const Mesh& mesh, const ViewParams& view, std::size_t begin, std::size_t end, float* dx,
                       float* dy, float* dz) {
    const VertexStageParams params{mesh.px.data(), mesh.py.data(), mesh.pz.data(), dx, dy, dz,
                                   static_cast<std::uint32_t>(mesh.vertexCount()), view};
    const auto b = static_cast<std::uint32_t>(begin), e = static_cast<std::uint32_t>(end);
    switch (chosenIsa()) {
    case Isa::Avx512: transformRangeAvx512(params, b, e); break;
    case Isa::Avx2: transformRangeAvx2(params, b, e); break;
    case Isa::Scalar: transformRangeScalar(params, b, e); break;
    }
}

} // namespace facet
