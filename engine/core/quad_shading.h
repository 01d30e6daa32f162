// The colour of one pixel of a 2x2 quad drawn by a set-up triangle, shared by both backends'
// shading: perspective-correct uv and normal at the pixel centre, and for trilinear filtering
// the level of detail from the quad's uv differences (its helper pixels included, as on a
// GPU). The level depends only on the triangle and the quad, so shading a pixel alone (after
// a visibility pass) gives the bits drawing the whole quad would.
#pragma once

#include "core/shading.h"
#include "core/triangle_setup.h"

namespace facet {

// Pixel k of the quad whose top-left pixel is (qx, qy) is (qx + (k & 1), qy + (k >> 1)).
FACET_HD glm::vec2 quadPixelUv(const ScreenTriangle& tri, int qx, int qy, int k) {
    const glm::vec3 b = barycentrics(tri, qx + (k & 1), qy + (k >> 1));
    return interpolateUv(tri, b, interpolateInvW(tri, b));
}

// The vertex colour at barycentrics b in [0, 1], perspective-correct: sum b_i c_i / w_i over
// sum b_i / w_i (invW), as OpenGL interpolates a colour attribute.
FACET_HD glm::vec3 interpolateVertexColor(const ScreenTriangle& tri, glm::vec3 b, float invW) {
    const glm::vec3 c = b.x * tri.v[0].invW * glm::vec3(unpackRgba8(tri.v[0].color)) +
                        b.y * tri.v[1].invW * glm::vec3(unpackRgba8(tri.v[1].color)) +
                        b.z * tri.v[2].invW * glm::vec3(unpackRgba8(tri.v[2].color));
    return c / (invW * 255.0f);
}

FACET_HD std::uint32_t shadeQuadPixel(const ScreenTriangle& tri, const ShadeMaterial& material,
                                      const RenderSettings& settings, glm::vec3 viewForward, int qx, int qy, int k) {
    const bool textured = material.texture.levelCount > 0;
    const glm::vec3 b = barycentrics(tri, qx + (k & 1), qy + (k >> 1));
    const float invW = textured || settings.headlight || material.vertexColors ? interpolateInvW(tri, b) : 0.0f;
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
    const glm::vec3 vertexColor = material.vertexColors ? interpolateVertexColor(tri, b, invW) : glm::vec3(1.0f);
    return packRgba8(shadeFragment(material, settings.filter, uv, lod, settings.headlight, n, viewForward, vertexColor));
}

} // namespace facet
