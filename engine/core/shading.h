// Fragment shading shared by both backends: the texture (or the material colour where there
// is none), times the vertex colour where the mesh has one (as OBJ viewers show vertex-coloured
// meshes, textured or not), times an optional headlight Lambert term.
#pragma once

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
};

// A material as a kernel sees it.
struct ShadeMaterial {
    glm::vec4 color;     // Kd in [0, 255], alpha 255
    TextureView texture; // levelCount 0 when untextured
};

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
