#include "cpu/project.h"

#include "cpu/isa.h"

namespace facet {

namespace {

// projectThread's arithmetic as a loop over restrict-qualified parameters (GCC 12 does not
// vectorise through restrict locals copied from a struct), inlined into each target below.
// Stride is 1 for columns, 3 for interleaved (x, y, z) rows.
template <std::uint32_t Stride>
inline void projectLoop(const float* __restrict px, const float* __restrict py, const float* __restrict pz,
                        float* __restrict ox, float* __restrict oy, float* __restrict oz, const ProjectParams& p,
                        std::uint32_t begin, std::uint32_t end) {
    const glm::mat3& r = p.rotation;
    const float ex = p.eye.x, ey = p.eye.y, ez = p.eye.z, focus = p.focus;
    const float r00 = r[0][0], r01 = r[1][0], r02 = r[2][0];
    const float r10 = r[0][1], r11 = r[1][1], r12 = r[2][1];
    const float r20 = r[0][2], r21 = r[1][2], r22 = r[2][2];
    for (std::uint32_t i = begin; i < end; ++i) {
        const std::size_t at = std::size_t(Stride) * i;
        const float sx = px[at] - ex, sy = py[at] - ey, sz = pz[at] - ez;
        const float dx = r00 * sx + r01 * sy + r02 * sz;
        const float dy = r10 * sx + r11 * sy + r12 * sz;
        const float dz = r20 * sx + r21 * sy + r22 * sz;
        const float k = focus / absolute(dz);
        ox[at] = dx * k;
        oy[at] = dy * k;
        oz[at] = dz;
    }
}

template <std::uint32_t Stride>
inline void projectRange(const ProjectParams& p, std::uint32_t begin, std::uint32_t end) {
    projectLoop<Stride>(p.px, p.py, p.pz, p.x, p.y, p.z, p, begin, end);
}

template <std::uint32_t Stride>
__attribute__((target("avx512f,avx512vl"))) void projectAvx512(const ProjectParams& p, std::uint32_t b,
                                                               std::uint32_t e) {
    projectRange<Stride>(p, b, e);
}

template <std::uint32_t Stride>
void projectAvx2(const ProjectParams& p, std::uint32_t b, std::uint32_t e) {
    projectRange<Stride>(p, b, e);
}

template <std::uint32_t Stride>
void projectChosen(const ProjectParams& params, std::size_t begin, std::size_t end) {
    const auto b = static_cast<std::uint32_t>(begin), e = static_cast<std::uint32_t>(end);
    switch (chosenIsa()) {
    case Isa::Avx512: projectAvx512<Stride>(params, b, e); break;
    case Isa::Avx2: projectAvx2<Stride>(params, b, e); break;
    case Isa::Scalar: projectRange<Stride>(params, b, e); break;
    }
}

} // namespace

void projectVertices(const ProjectParams& params, std::size_t begin, std::size_t end) {
    if (chosenIsa() == Isa::Scalar) projectVerticesScalar(params, begin, end);
    else projectChosen<1>(params, begin, end);
}

void projectVertexRows(const ProjectParams& params, std::size_t begin, std::size_t end) {
    projectChosen<3>(params, begin, end);
}

__attribute__((optimize("no-tree-vectorize"))) void projectVerticesScalar(const ProjectParams& params,
                                                                          std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) projectThread(params, static_cast<std::uint32_t>(i));
}

} // namespace facet
