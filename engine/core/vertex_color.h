// Vertex colours, shared by both backends. A set-up triangle's colours are kept beside it (in a
// parallel array), not in ScreenTriangle, and only for meshes that have them: the raster stage
// reads every triangle, and meshes without colours should not pay for bigger ones.
#pragma once

#include "core/texture_sampling.h"
#include "core/triangle_setup.h"

#include <cstdint>

namespace facet {

// A set-up triangle's vertex colours, RGBA8 (R in the low byte) in its vertex order. Eight bits
// a channel: the pictures have eight bits a channel anyway.
struct TriangleColors {
    std::uint32_t rgba[3];
};

// A colour in [0, 1] as RGBA8: each channel rounded to the nearest of 0..255, alpha 255.
FACET_HD std::uint32_t packVertexColor(glm::vec3 c) {
    const glm::vec3 k = glm::clamp(c, 0.0f, 1.0f) * 255.0f + 0.5f;
    return static_cast<std::uint32_t>(k.x) | (static_cast<std::uint32_t>(k.y) << 8) |
           (static_cast<std::uint32_t>(k.z) << 16) | 0xFF000000u;
}

// The colours ca, cb, cc of a triangle set up from screen vertices a, b, c, in the order setupTriangle put
// them: it keeps a first and swaps b and c where their snapped area is negative.
FACET_HD TriangleColors setupColors(const ScreenVertex& a, const ScreenVertex& b, const ScreenVertex& c,
                                    glm::vec3 ca, glm::vec3 cb, glm::vec3 cc) {
    const bool kept = edgeFunction(a.p, b.p, c.p) > 0;
    return TriangleColors{{packVertexColor(ca), packVertexColor(kept ? cb : cc), packVertexColor(kept ? cc : cb)}};
}

// The vertex colour at barycentrics b in [0, 1], perspective-correct: sum b_i c_i / w_i over
// sum b_i / w_i (invW), as OpenGL interpolates a colour attribute.
FACET_HD glm::vec3 interpolateVertexColor(const ScreenTriangle& tri, const TriangleColors& colors, glm::vec3 b,
                                          float invW) {
    const glm::vec3 c = b.x * tri.v[0].invW * glm::vec3(unpackRgba8(colors.rgba[0])) +
                        b.y * tri.v[1].invW * glm::vec3(unpackRgba8(colors.rgba[1])) +
                        b.z * tri.v[2].invW * glm::vec3(unpackRgba8(colors.rgba[2]));
    return c / (invW * 255.0f);
}

} // namespace facet
