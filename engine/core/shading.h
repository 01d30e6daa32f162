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
    ShadingModel shading = ShadingModel::Classic; // Lit: the material model under `lights`
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
    bool cutout = false;            // alpha-tested at 0.5 (map_d, or map_Kd with alpha): cutoutMask
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

// The lit model: kd (Ka times the ambient light plus the lights' diffuse) + ks specular + ke,
// encoded to sRGB in [0, 255]; illum 0 is kd + ke unlit, illum 1 has no specular.
FACET_HD glm::vec4 shadeLitFragment(const LitSurface& s, Illumination illumination, glm::vec3 ka, const Lights& lights,
                                    glm::vec3 normal, glm::vec3 viewForward) {
    glm::vec3 c = s.kd + s.ke;
    if (illumination != Illumination::Color) {
        const LightSum sum =
            sumLights(lights, normal, viewForward, s.ns, illumination == Illumination::Specular);
        c = s.kd * (ka * lights.ambientColor * lights.ambient + sum.diffuse) + s.ks * sum.specular + s.ke;
    }
    return glm::vec4(linearToSrgb(c) * 255.0f, glm::clamp(s.alpha, 0.0f, 1.0f) * 255.0f);
}

// Ambient share of the headlight term, so faces seen edge-on stay visible.
inline constexpr float kAmbient = 0.2f;

// `vertexColor` in [0, 1], or null for a mesh without vertex colours.
FACET_HD glm::vec4 shadeFragment(const ShadeMaterial& m, TextureFilter filter, glm::vec2 uv, float lod,
                                 bool headlight, glm::vec3 normal, glm::vec3 viewForward,
                                 const glm::vec3* vertexColor = nullptr) {
    glm::vec4 c = m.texture.levelCount > 0 ? sampleTexture(m.texture, filter, uv, lod) : m.color;
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
