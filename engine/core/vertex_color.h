// Vertex colours, shared by both backends. A set-up triangle's colours are kept beside it (in a
// parallel array), not in ScreenTriangle, and only for meshes that have them: the raster stage
// reads every triangle, and meshes without colours should not pay for bigger ones. The vertex
// tangents (normal maps under the lit model) are kept in the same side record, for the same reason.
#pragma once

#include "core/texture_sampling.h"
#include "core/triangle_setup.h"

#include <cstdint>

namespace facet {

// A set-up triangle's vertex colours, RGBA8 (R in the low byte) in its vertex order. Eight bits
// a channel: the pictures have eight bits a channel anyway.
// The record also holds the vertex tangents (xyz, handedness w), zero for a mesh without them;
// it is kept for a mesh with colours or tangents (see keepsSideRecords). rgba is all zero for a
// mesh without colours: packVertexColor's alpha is 255, so no colour is zero.
struct TriangleColors {
    std::uint32_t rgba[3];
    glm::vec4 tangent[3];
};

// Whether a triangle's side record (null: none) holds vertex colours to multiply by.
FACET_HD bool hasVertexColors(const TriangleColors* side) { return side && side->rgba[0] != 0u; }

// A colour in [0, 1] as RGBA8: each channel rounded to the nearest of 0..255, alpha 255.
FACET_HD std::uint32_t packVertexColor(glm::vec3 c) {
    const glm::vec3 k(clampOrLow(c.x, 0.0f, 1.0f) * 255.0f + 0.5f, clampOrLow(c.y, 0.0f, 1.0f) * 255.0f + 0.5f,
                      clampOrLow(c.z, 0.0f, 1.0f) * 255.0f + 0.5f);
    return static_cast<std::uint32_t>(k.x) | (static_cast<std::uint32_t>(k.y) << 8) |
           (static_cast<std::uint32_t>(k.z) << 16) | 0xFF000000u;
}

// The colours ca, cb, cc of a triangle set up from screen vertices a, b, c, in the order setupTriangle put
// them: it keeps a first and swaps b and c where their snapped area is negative.
FACET_HD TriangleColors setupColors(const ScreenVertex& a, const ScreenVertex& b, const ScreenVertex& c,
                                    glm::vec3 ca, glm::vec3 cb, glm::vec3 cc) {
    const bool kept = edgeFunction(a.p, b.p, c.p) > 0;
    return TriangleColors{{packVertexColor(ca), packVertexColor(kept ? cb : cc), packVertexColor(kept ? cc : cb)}, {}};
}

// The side record of a triangle set up from screen vertices a, b, c (projected from va, vb, vc),
// in setupColors' order: the colours where `colored`, else zero, and the tangents as they are.
FACET_HD TriangleColors setupSideRecord(const ScreenVertex& a, const ScreenVertex& b, const ScreenVertex& c,
                                        const ClipVertex& va, const ClipVertex& vb, const ClipVertex& vc, bool colored) {
    const bool kept = edgeFunction(a.p, b.p, c.p) > 0;
    const ClipVertex& v1 = kept ? vb : vc;
    const ClipVertex& v2 = kept ? vc : vb;
    TriangleColors side = colored ? setupColors(a, b, c, va.c, vb.c, vc.c) : TriangleColors{{0u, 0u, 0u}, {}};
    side.tangent[0] = va.t;
    side.tangent[1] = v1.t;
    side.tangent[2] = v2.t;
    return side;
}

// The tangent at barycentrics b, perspective-correct as the normal (interpolateNormal): each
// vertex's tangent over its w, summed, times w.
FACET_HD glm::vec4 interpolateTangent(const TriangleAttributes& attributes, const TriangleColors& side, glm::vec3 b,
                                      float invW) {
    return (b.x * (side.tangent[0] * attributes.v[0].invW) + b.y * (side.tangent[1] * attributes.v[1].invW) +
            b.z * (side.tangent[2] * attributes.v[2].invW)) /
           invW;
}

// The vertex colour at barycentrics b in [0, 1], perspective-correct: sum b_i c_i / w_i over
// sum b_i / w_i (invW), as OpenGL interpolates a colour attribute.
FACET_HD glm::vec3 interpolateVertexColor(const TriangleAttributes& attributes, const TriangleColors& colors,
                                          glm::vec3 b, float invW) {
    const glm::vec3 c = b.x * attributes.v[0].invW * glm::vec3(unpackRgba8(colors.rgba[0])) +
                        b.y * attributes.v[1].invW * glm::vec3(unpackRgba8(colors.rgba[1])) +
                        b.z * attributes.v[2].invW * glm::vec3(unpackRgba8(colors.rgba[2]));
    return c / (invW * 255.0f);
}

} // namespace facet
