// Fragment shading shared by both backends. The classic model: the texture (or the material
// colour where there is none), times the vertex colour where the mesh has one (as OBJ viewers
// show vertex-coloured meshes, textured or not), times an optional headlight Lambert term. The
// lit model (RenderSettings::shading): the MTL material under core/lighting.h's lights.
#pragma once

#include "core/lighting.h"
#include "core/material.h"
#include "core/names.h"
#include "core/texture_sampling.h"

namespace facet {

struct RenderSettings {
    TextureFilter filter = TextureFilter::Trilinear;
    CullMode cull = CullMode::None; // OBJ files in the wild mix windings, so culling is opt-in
    bool headlight = false;     // Lambert term for a light at the eye
    std::uint32_t clearColor = 0xFF3A2B22u; // dark slate blue, RGBA8 with R in the low byte
    View view = View::Shaded; // what the frame shows (core/view_shading.h)
    int msaa = 1; // samples per pixel: 1, 2, 4 or 8 (core/multisample.h); others are refused
    // The lit model's cut-outs at msaa > 1: each sample kept by the fragment's alpha
    // (alphaCoversSample) instead of the alpha test; at msaa 1, as in OpenGL, nothing changes.
    bool alphaToCoverage = false;
    ShadingModel shading = ShadingModel::Lit; // the material model under `lights`; Classic: the old flat look
    Lights lights;                                // the lit model's lights (headlight above is the classic one's)
};

// A material as a kernel sees it.
struct ShadeMaterial {
    glm::vec4 color;     // Kd in [0, 255], alpha 255
    TextureView texture; // levelCount 0 when untextured
    // The lit model's: colours in linear light, [0, 1].
    glm::vec3 kd{0.6038f, 0.6038f, 0.6038f}; // sRGB 0.8 grey
    glm::vec3 ka{1.0f, 1.0f, 1.0f};
    glm::vec3 ks{0.0f, 0.0f, 0.0f};
    glm::vec3 ke{0.0f, 0.0f, 0.0f};
    float ns = 32.0f;
    float opacity = 1.0f;
    Illumination illumination = Illumination::Specular;
    TextureView specularMap{}, shininessMap{}, emissionMap{}, alphaMap{}, bumpMap{};
    float bumpScale = 1.0f;
    bool alphaMapUsesAlpha = false; // map_d's value is its alpha (an image with alpha), else its red
    bool cutout = false;            // alpha-tested at alphaCutoff (map_d, or map_Kd with alpha): cutoutMask
    float alphaCutoff = 0.5f;       // kAlphaCutoff for MTL; glTF's MASK gives its own
    const SrgbTable* srgbTable = nullptr; // host memory where the CPU backend gives one (see SrgbTexel)
    // glTF's metallic-roughness materials (core/pbr.h) under the lit model: kd is the base colour
    // (linear), opacity its alpha, texture the base colour map, ke and emissionMap the emission,
    // bumpMap the normal map. MTL materials leave these as they are.
    bool pbr = false;
    float metallic = 1.0f, roughness = 1.0f;
    TextureView metalRoughMap{}; // data: roughness in green, metalness in blue
    TextureView occlusionMap{};  // data: occlusion in red
    float occlusionStrength = 1.0f;
    float normalScale = 1.0f; // scales the normal map's x and y (glTF normalTexture.scale)
    bool alphaBlend = false;  // blended (glTF BLEND) even at opacity 1: its base colour map's alpha
};

// The alpha test of cut-out materials (leaves, fences): a pixel is drawn only where its
// cut-out alpha (map_Kd's alpha times map_d's value) is at least this, as OpenGL's
// "if (a < 0.5) discard".
inline constexpr float kAlphaCutoff = 0.5f;

// The pixel's lit colour in linear light from the material's values at it (maps applied).
struct LitSurface {
    glm::vec3 kd, ks, ke;
    float ns;
    float alpha;
};

// The lit surface per lane, and a colour per lane.
template <class F>
struct LitSurfaceLanes {
    Vec3Lanes<F> kd, ks, ke;
    F ns, alpha;
};
template <class F>
struct ColorLanes {
    F r, g, b, a;
};

// The lit model in linear light, clamped into [0, 1] as a fragment's colour is: kd (Ka times
// the ambient light plus the lights' diffuse) + ks specular + ke; illum 0 is kd + ke unlit,
// illum 1 has no specular. Alpha is the surface's. Where Ks is zero in every lane the specular
// term is left out: it adds zero (the powers are finite), so nothing changes but the time.
template <class F>
FACET_HD ColorLanes<F> litFragmentLanes(const LitSurfaceLanes<F>& s, Illumination illumination, glm::vec3 ka,
                                        const Lights& lights, const LightRig& rig, const Vec3Lanes<F>& normal) {
    Vec3Lanes<F> c = s.kd + s.ke;
    if (illumination != Illumination::Color) {
        const F zero(0.0f);
        const bool specular = illumination == Illumination::Specular &&
                              (laneAny(s.ks.x != zero) || laneAny(s.ks.y != zero) || laneAny(s.ks.z != zero));
        const LightSumLanes<F> sum = sumLightsLanes(rig, normal, s.ns, specular);
        c = s.kd * (splat3<F>(ka * lights.ambientColor * lights.ambient) + sum.diffuse) + s.ks * sum.specular + s.ke;
    }
    return {clampUnit(c.x), clampUnit(c.y), clampUnit(c.z), clampUnit(s.alpha)};
}

// `rig`: the lights as the camera sees them (FramePlan::rig), made once a frame.
FACET_HD glm::vec4 litFragment(const LitSurface& s, Illumination illumination, glm::vec3 ka, const Lights& lights,
                               const LightRig& rig, glm::vec3 normal) {
    const LitSurfaceLanes<float> lanes{{s.kd.x, s.kd.y, s.kd.z}, {s.ks.x, s.ks.y, s.ks.z}, {s.ke.x, s.ke.y, s.ke.z},
                                       s.ns, s.alpha};
    const ColorLanes<float> c =
        litFragmentLanes(lanes, illumination, ka, lights, rig, Vec3Lanes<float>{normal.x, normal.y, normal.z});
    return {c.r, c.g, c.b, c.a};
}

// A lit fragment as stored: colour encoded to sRGB, channels in [0, 255].
template <class F>
FACET_HD ColorLanes<F> encodeFragmentLanes(const ColorLanes<F>& linear) {
    const F top(255.0f);
    return {linearToSrgbLanes(linear.r) * top, linearToSrgbLanes(linear.g) * top, linearToSrgbLanes(linear.b) * top,
            linear.a * top};
}

FACET_HD glm::vec4 encodeFragment(glm::vec4 linear) {
    const ColorLanes<float> c = encodeFragmentLanes(ColorLanes<float>{linear.x, linear.y, linear.z, linear.w});
    return {c.r, c.g, c.b, c.a};
}

// Whether the lit model blends a material's fragments (d < 1) rather than writing them: in draw
// order over what is drawn, without writing depth, as OpenGL does with blending
// (GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA) into an sRGB framebuffer and depth writes off.
FACET_HD bool translucent(const ShadeMaterial& m) { return m.opacity < 1.0f || m.alphaBlend; }
FACET_HD bool blends(const ShadeMaterial& m, const RenderSettings& settings) {
    return settings.shading == ShadingModel::Lit && translucent(m);
}

// Whether a tile holding the material is drawn forward (core/forward_draw.h) rather than
// deferred: a blended material, and with multisampling a cut-out too, whose alpha test (or
// alpha-to-coverage) then decides sample by sample as each sample is drawn; the deferred
// passes keep their plain per-sample visibility.
FACET_HD bool drawsForward(const ShadeMaterial& m, const RenderSettings& settings) {
    return blends(m, settings) || (settings.shading == ShadingModel::Lit && settings.msaa > 1 && m.cutout);
}

// `fragment` (linear, alpha a) over the stored RGBA8 `dst` (sRGB-encoded colour): in linear
// light, src a + dst (1 - a), the alpha channel likewise, then encoded.
FACET_HD std::uint32_t blendOver(glm::vec4 fragment, std::uint32_t dst) {
    const glm::vec4 d = unpackRgba8(dst) / 255.0f;
    const float a = fragment.w;
    const glm::vec3 rgb = glm::vec3(fragment) * a + srgbToLinear(glm::vec3(d)) * (1.0f - a);
    return packRgba8(encodeFragment(glm::vec4(rgb, a * a + d.w * (1.0f - a))));
}

// Ambient share of the headlight term, so faces seen edge-on stay visible.
inline constexpr float kAmbient = 0.2f;

// `vertexColor` in [0, 1], or null for a mesh without vertex colours.
FACET_HD glm::vec4 shadeFragment(const ShadeMaterial& m, TextureFilter filter, glm::vec2 uv, float lod,
                                 bool headlight, glm::vec3 normal, glm::vec3 viewForward,
                                 const glm::vec3* vertexColor = nullptr) {
    glm::vec4 c = m.texture.levelCount > 0 ? unpackRgba8(sampleTexture8(m.texture, filter, uv, lod)) : m.color;
    if (vertexColor) c = glm::vec4(glm::vec3(c) * *vertexColor, c.w);
    if (headlight) {
        // Two-sided: OBJ normals in the wild point either way.
        const float len = glm::length(normal);
        const float lambert = len > 0.0f ? glm::abs(glm::dot(normal, viewForward)) / len : 1.0f;
        const float k = kAmbient + (1.0f - kAmbient) * lambert;
        c = glm::vec4(glm::vec3(c) * k, c.w);
    }
    return c;
}

} // namespace facet
