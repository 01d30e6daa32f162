// The colour of one pixel of a 2x2 quad drawn by a set-up triangle, shared by both backends'
// shading: perspective-correct uv and normal at the pixel centre, and for trilinear filtering
// the level of detail from the quad's uv differences (its helper pixels included, as on a
// GPU). The level depends only on the triangle and the quad, so shading a pixel alone (after
// a visibility pass) gives the bits drawing the whole quad would.
#pragma once

#include "core/shading.h"
#include "core/triangle_setup.h"
#include "core/vertex_color.h"

namespace facet {

// Pixel k of the quad whose top-left pixel is (qx, qy) is (qx + (k & 1), qy + (k >> 1)).
FACET_HD glm::vec2 quadPixelUv(const ScreenTriangle& tri, int qx, int qy, int k) {
    const glm::vec3 b = barycentrics(tri, qx + (k & 1), qy + (k >> 1));
    return interpolateUv(tri, b, interpolateInvW(tri, b));
}

// `colors`: the triangle's vertex colours, null for a mesh without them.
FACET_HD std::uint32_t shadeQuadPixel(const ScreenTriangle& tri, const ShadeMaterial& material,
                                      const RenderSettings& settings, glm::vec3 viewForward, int qx, int qy, int k,
                                      const TriangleColors* colors = nullptr) {
    const bool textured = material.texture.levelCount > 0;
    const glm::vec3 b = barycentrics(tri, qx + (k & 1), qy + (k >> 1));
    const float invW = textured || settings.headlight || colors ? interpolateInvW(tri, b) : 0.0f;
    const glm::vec2 uv = textured ? interpolateUv(tri, b, invW) : glm::vec2(0.0f);
    float lod = 0.0f;
    if (textured && settings.filter == TextureFilter::Trilinear) {
        const glm::vec2 texSize(material.texture.levels[0].width, material.texture.levels[0].height);
        const glm::vec2 uv0 = quadPixelUv(tri, qx, qy, 0), uv2 = quadPixelUv(tri, qx, qy, 2),
                        uv3 = quadPixelUv(tri, qx, qy, 3);
        // Derivatives along the quad's lower row and left column: OpenGL's first quad row is
        // the lower one (its rows count up from the bottom of the picture).
        lod = textureLod((uv3 - uv2) * texSize, (uv0 - uv2) * texSize);
    }
    const glm::vec3 n = settings.headlight ? interpolateNormal(tri, b, invW) : glm::vec3(0.0f);
    const glm::vec3 vertexColor = colors ? interpolateVertexColor(tri, *colors, b, invW) : glm::vec3(1.0f);
    return packRgba8(shadeFragment(material, settings.filter, uv, lod, settings.headlight, n, viewForward,
                                   colors ? &vertexColor : nullptr));
}

} // namespace facet
