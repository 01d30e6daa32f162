// The colour of one pixel of a 2x2 quad drawn by a set-up triangle, shared by both backends'
// shading: perspective-correct uv and normal at the pixel centre, and for trilinear filtering
// the level of detail from the quad's uv differences (its helper pixels included, as on a
// GPU). The level depends only on the triangle and the quad, so shading a pixel alone (after
// a visibility pass) gives the bits drawing the whole quad would.
#pragma once

#include "core/frame_plan.h"
#include "core/pbr.h"
#include "core/multisample.h"
#include "core/shading.h"
#include "core/triangle_setup.h"
#include "core/vertex_color.h"

namespace facet {

// Whether shading reads the attributes (TriangleAttributes) of a triangle of a material with or
// without a texture (map_Kd): not under the classic model for an untextured material without
// the headlight or vertex colours (`vertexColors`: the mesh has them), in a view that shades it
// or colours it some other way. Triangles whose attributes nothing reads need not keep them: a
// dense mesh's triangle stage then writes half the bytes.
inline bool shadingReadsAttributes(bool textured, const RenderSettings& settings, bool vertexColors) {
    return settings.shading == ShadingModel::Lit || settings.headlight || vertexColors || textured ||
           settings.view == View::Normals || settings.view == View::Uv;
}

// Whether any of the `count` materials has a texture: shadingReadsAttributes' `textured` for a
// backend that decides for a frame's triangles together.
inline bool anyTextured(const ShadeMaterial* materials, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i)
        if (materials[i].texture.levelCount > 0) return true;
    return false;
}

// Pixel k of the quad whose top-left pixel is (qx, qy) is (qx + (k & 1), qy + (k >> 1)).
FACET_HD glm::vec2 quadPixelUv(const ShadedTriangle& t, int qx, int qy, int k) {
    const glm::vec3 b = barycentrics(t.tri, qx + (k & 1), qy + (k >> 1));
    return interpolateUv(t.attributes, b, interpolateInvW(t.attributes, b));
}

// The uv differences a quad's level of detail comes from (see shadeQuadPixel), for the lit
// model's maps, each of which scales them by its own size.
struct QuadUvDerivatives {
    glm::vec2 dx, dy;
};

// Zero but for trilinear filtering, where they are along OpenGL's lower quad row and left
// column, as shadeQuadPixel takes them.
FACET_HD QuadUvDerivatives quadUvDerivatives(const ShadedTriangle& t, TextureFilter filter, int qx, int qy) {
    if (filter != TextureFilter::Trilinear) return QuadUvDerivatives{glm::vec2(0.0f), glm::vec2(0.0f)};
    const glm::vec2 uv0 = quadPixelUv(t, qx, qy, 0), uv2 = quadPixelUv(t, qx, qy, 2), uv3 = quadPixelUv(t, qx, qy, 3);
    return QuadUvDerivatives{uv3 - uv2, uv0 - uv2};
}

template <class Texel>
FACET_HD glm::vec4 sampleMap(const TextureView& t, TextureFilter filter, glm::vec2 uv, const QuadUvDerivatives& d,
                             Texel texel) {
    float lod = 0.0f;
    if (filter == TextureFilter::Trilinear) {
        const glm::vec2 texSize(t.levels[0].width, t.levels[0].height);
        lod = textureLod(d.dx * texSize, d.dy * texSize);
    }
    return sampleTexture(t, filter, uv, lod, texel);
}

// The material's values at the pixel of barycentrics b in quad (qx, qy) (its maps sampled, the vertex colour applied).
FACET_HD LitSurface litSurface(const ShadedTriangle& t, const ShadeMaterial& m, TextureFilter filter, int qx, int qy,
                               glm::vec3 b, float invW, const TriangleColors* colors) {
    LitSurface s{m.kd, m.ks, m.ke, m.ns, m.opacity};
    const bool mapped = m.texture.levelCount > 0 || m.specularMap.levelCount > 0 ||
                        m.shininessMap.levelCount > 0 || m.emissionMap.levelCount > 0 || m.alphaMap.levelCount > 0;
    if (mapped) {
        const glm::vec2 uv = interpolateUv(t.attributes, b, invW);
        const QuadUvDerivatives d = quadUvDerivatives(t, filter, qx, qy);
        if (m.texture.levelCount > 0) {
            const glm::vec4 texel = sampleMap(m.texture, filter, uv, d, SrgbTexel{m.srgbTable});
            s.kd *= glm::vec3(texel);
            s.alpha *= texel.w;
        }
        if (m.specularMap.levelCount > 0) s.ks *= glm::vec3(sampleMap(m.specularMap, filter, uv, d, SrgbTexel{m.srgbTable}));
        if (m.shininessMap.levelCount > 0) s.ns *= sampleMap(m.shininessMap, filter, uv, d, UnitTexel{}).x;
        if (m.emissionMap.levelCount > 0) s.ke *= glm::vec3(sampleMap(m.emissionMap, filter, uv, d, SrgbTexel{m.srgbTable}));
        if (m.alphaMap.levelCount > 0) {
            const glm::vec4 texel = sampleMap(m.alphaMap, filter, uv, d, UnitTexel{});
            s.alpha *= m.alphaMapUsesAlpha ? texel.w : texel.x;
        }
    }
    if (hasVertexColors(colors)) s.kd *= srgbToLinear(interpolateVertexColor(t.attributes, *colors, b, invW));
    return s;
}

// The cut-out alpha at pixel (qx + (k & 1), qy + (k >> 1)): map_Kd's alpha times map_d's value,
// sampled as litSurface samples them.
FACET_HD float cutoutAlpha(const ShadedTriangle& t, const ShadeMaterial& m, TextureFilter filter, int qx, int qy,
                           int k) {
    const glm::vec3 b = barycentrics(t.tri, qx + (k & 1), qy + (k >> 1));
    const glm::vec2 uv = interpolateUv(t.attributes, b, interpolateInvW(t.attributes, b));
    const QuadUvDerivatives d = quadUvDerivatives(t, filter, qx, qy);
    float alpha = 1.0f;
    if (m.texture.levelCount > 0) alpha *= sampleMap(m.texture, filter, uv, d, UnitTexel{}).w;
    if (m.alphaMap.levelCount > 0) {
        const glm::vec4 texel = sampleMap(m.alphaMap, filter, uv, d, UnitTexel{});
        alpha *= m.alphaMapUsesAlpha ? texel.w : texel.x;
    }
    return alpha;
}

// The lanes of `lanes` (bit k: pixel k of quad (qx, qy)) whose cut-out alpha passes the test.
FACET_HD unsigned cutoutMask(const ShadedTriangle& t, const ShadeMaterial& m, TextureFilter filter, int qx, int qy,
                             unsigned lanes) {
    unsigned kept = 0;
    for (int k = 0; k < 4; ++k)
        if ((lanes >> k & 1u) && cutoutAlpha(t, m, filter, qx, qy, k) >= m.alphaCutoff) kept |= 1u << k;
    return kept;
}

// Whether a cut-out pixel of cut-out alpha `alpha` keeps sample `sample` of the settings' msaa:
// with alpha-to-coverage (at msaa > 1) where its fragment alpha (the opacity times the cut-out
// alpha, clamped, as the reference's shader writes it) covers the sample, else where it passes
// the alpha test, the pixel's for all its samples (OpenGL's discard without sample shading).
// The alpha is the pixel centre's either way, as the fragment is shaded there.
FACET_HD bool cutoutKeepsSample(const ShadeMaterial& m, const RenderSettings& settings, float alpha, int sample) {
    if (!(settings.alphaToCoverage && settings.msaa > 1)) return alpha >= m.alphaCutoff;
    return alphaCoversSample(glm::clamp(m.opacity * alpha, 0.0f, 1.0f), sample, settings.msaa);
}

// The lanes of `lanes` (bit k: pixel k of quad (qx, qy)) a cut-out keeps at sample `sample`.
FACET_HD unsigned cutoutSampleMask(const ShadedTriangle& t, const ShadeMaterial& m, const RenderSettings& settings,
                                   int qx, int qy, unsigned lanes, int sample) {
    unsigned kept = 0;
    for (int k = 0; k < 4; ++k)
        if ((lanes >> k & 1u) && cutoutKeepsSample(m, settings, cutoutAlpha(t, m, settings.filter, qx, qy, k), sample))
            kept |= 1u << k;
    return kept;
}

// The normal the lit model lights at the pixel of barycentrics b: the interpolated normal, turned
// by the material's normal map (a bump map made into one at load, see asset/bump_map.h) in the
// interpolated tangent frame where it has one (`side`, the triangle's side record: null, or zero
// tangents, for a mesh without them, drawn flat).
FACET_HD glm::vec3 litNormal(const ShadedTriangle& t, const ShadeMaterial& m, TextureFilter filter, int qx, int qy,
                             glm::vec3 b, float invW, const TriangleColors* side) {
    const glm::vec3 n = interpolateNormal(t.attributes, b, invW);
    if (m.bumpMap.levelCount == 0 || !side) return n;
    const glm::vec2 uv = interpolateUv(t.attributes, b, invW);
    const glm::vec4 texel = sampleMap(m.bumpMap, filter, uv, quadUvDerivatives(t, filter, qx, qy), UnitTexel{});
    glm::vec3 mapped = decodeNormalTexel(texel);
    mapped.x *= m.normalScale;
    mapped.y *= m.normalScale;
    return perturbNormal(n, interpolateTangent(t.attributes, *side, b, invW), mapped);
}

// glTF's metallic-roughness surface at the pixel of barycentrics b (core/pbr.h), its maps sampled
// as litSurface samples its own; the vertex colour (stored sRGB-encoded, as every loader gives
// them) multiplies the base colour. Alpha counts where the material blends; an opaque or masked
// one is drawn at alpha 1.
FACET_HD PbrSurface pbrSurface(const ShadedTriangle& t, const ShadeMaterial& m, TextureFilter filter, int qx, int qy,
                               glm::vec3 b, float invW, const TriangleColors* colors) {
    PbrSurface s{m.kd, m.opacity, m.metallic, m.roughness, 1.0f, m.ke};
    const bool mapped = m.texture.levelCount > 0 || m.metalRoughMap.levelCount > 0 ||
                        m.occlusionMap.levelCount > 0 || m.emissionMap.levelCount > 0;
    if (mapped) {
        const glm::vec2 uv = interpolateUv(t.attributes, b, invW);
        const QuadUvDerivatives d = quadUvDerivatives(t, filter, qx, qy);
        if (m.texture.levelCount > 0) {
            const glm::vec4 texel = sampleMap(m.texture, filter, uv, d, SrgbTexel{m.srgbTable});
            s.baseColor *= glm::vec3(texel);
            s.alpha *= texel.w;
        }
        if (m.metalRoughMap.levelCount > 0) {
            const glm::vec4 texel = sampleMap(m.metalRoughMap, filter, uv, d, UnitTexel{});
            s.roughness *= texel.y;
            s.metallic *= texel.z;
        }
        if (m.occlusionMap.levelCount > 0)
            s.occlusion = 1.0f + m.occlusionStrength * (sampleMap(m.occlusionMap, filter, uv, d, UnitTexel{}).x - 1.0f);
        if (m.emissionMap.levelCount > 0)
            s.emission *= glm::vec3(sampleMap(m.emissionMap, filter, uv, d, SrgbTexel{m.srgbTable}));
    }
    if (hasVertexColors(colors)) s.baseColor *= srgbToLinear(interpolateVertexColor(t.attributes, *colors, b, invW));
    if (!translucent(m)) s.alpha = 1.0f;
    return s;
}

// The lit model's pixel k (see shadeQuadPixel), in linear light.
FACET_HD glm::vec4 litQuadPixel(const ShadedTriangle& t, const ShadeMaterial& material, const FramePlan& plan, int qx,
                                int qy, int k, const TriangleColors* colors) {
    const glm::vec3 b = barycentrics(t.tri, qx + (k & 1), qy + (k >> 1));
    const float invW = interpolateInvW(t.attributes, b);
    const TextureFilter filter = plan.settings.filter;
    const glm::vec3 n = litNormal(t, material, filter, qx, qy, b, invW, colors);
    if (material.pbr)
        return pbrFragment(pbrSurface(t, material, filter, qx, qy, b, invW, colors), plan.settings.lights, plan.rig, n);
    const LitSurface s = litSurface(t, material, filter, qx, qy, b, invW, colors);
    return litFragment(s, material.illumination, material.ka, plan.settings.lights, plan.rig, n);
}

FACET_HD std::uint32_t shadeQuadPixelLit(const ShadedTriangle& t, const ShadeMaterial& material, const FramePlan& plan,
                                         int qx, int qy, int k, const TriangleColors* colors) {
    return packRgba8(encodeFragment(litQuadPixel(t, material, plan, qx, qy, k, colors)));
}

// `colors`: the triangle's side record (vertex colours, tangents), null for a mesh without one.
FACET_HD std::uint32_t shadeQuadPixel(const ShadedTriangle& t, const ShadeMaterial& material, const FramePlan& plan,
                                      int qx, int qy, int k, const TriangleColors* colors = nullptr) {
    const RenderSettings& settings = plan.settings;
    if (settings.shading == ShadingModel::Lit) return shadeQuadPixelLit(t, material, plan, qx, qy, k, colors);
    if (!hasVertexColors(colors)) colors = nullptr; // a record with tangents only: no colour to multiply by
    const bool textured = material.texture.levelCount > 0;
    const glm::vec3 b = barycentrics(t.tri, qx + (k & 1), qy + (k >> 1));
    const float invW = textured || settings.headlight || colors ? interpolateInvW(t.attributes, b) : 0.0f;
    const glm::vec2 uv = textured ? interpolateUv(t.attributes, b, invW) : glm::vec2(0.0f);
    float lod = 0.0f;
    if (textured && settings.filter == TextureFilter::Trilinear) {
        const glm::vec2 texSize(material.texture.levels[0].width, material.texture.levels[0].height);
        const glm::vec2 uv0 = quadPixelUv(t, qx, qy, 0), uv2 = quadPixelUv(t, qx, qy, 2),
                        uv3 = quadPixelUv(t, qx, qy, 3);
        // Derivatives along the quad's lower row and left column: OpenGL's first quad row is
        // the lower one (its rows count up from the bottom of the picture).
        lod = textureLod((uv3 - uv2) * texSize, (uv0 - uv2) * texSize);
    }
    const glm::vec3 n = settings.headlight ? interpolateNormal(t.attributes, b, invW) : glm::vec3(0.0f);
    const glm::vec3 vertexColor = colors ? interpolateVertexColor(t.attributes, *colors, b, invW) : glm::vec3(1.0f);
    return packRgba8(shadeFragment(material, settings.filter, uv, lod, settings.headlight, n, plan.viewForward,
                                   colors ? &vertexColor : nullptr));
}

// Forward drawing (the lit model with blended materials, see blends()): what pixel k of a
// fragment that passed the depth (and alpha) test leaves in the colour `stored`: its colour, or
// for a blended material its colour over `stored`.
FACET_HD std::uint32_t drawQuadPixel(const ShadedTriangle& t, const ShadeMaterial& material, const FramePlan& plan,
                                     int qx, int qy, int k, const TriangleColors* colors, std::uint32_t stored) {
    if (!blends(material, plan.settings)) return shadeQuadPixel(t, material, plan, qx, qy, k, colors);
    return blendOver(litQuadPixel(t, material, plan, qx, qy, k, colors), stored);
}

} // namespace facet
