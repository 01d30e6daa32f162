// glTF 2.0's metallic-roughness BRDF (the specification's Appendix B), written once for both
// backends and mirrored in the OpenGL reference's GLSL: Lambert diffuse, the GGX
// (Trowbridge-Reitz) distribution, the height-correlated Smith joint visibility and Schlick's
// Fresnel, in linear light. The lights are facet's rig (core/lighting.h): directional lights and
// a headlight, the viewer infinitely far along the camera's axis as in the Blinn-Phong model, so
// every backend sees the same V at every pixel. A punctual light's radiance E is taken as the
// irradiance it gives a surface facing it, so a light lights a rough white dielectric as brightly
// under both models (the BRDF times pi: E (f_diffuse + f_specular) pi n.l). Image-based light is
// one constant: the ambient light times (c_diff + F0), dimmed by the occlusion map, so a metal
// under the ambient light alone keeps its colour instead of turning black.
#pragma once

#include "core/lighting.h"

namespace facet {

// A pixel's metallic-roughness surface, maps applied: base colour in linear light, alpha, the
// metalness and perceptual roughness in [0, 1], ambient occlusion in [0, 1], emission.
struct PbrSurface {
    glm::vec3 baseColor;
    float alpha;
    float metallic, roughness;
    float occlusion;
    glm::vec3 emission;
};

inline constexpr float kPbrPi = 3.14159265358979f;
inline constexpr float kDielectricF0 = 0.04f;   // the specification's reflectance of dielectrics
inline constexpr float kMinRoughness = 0.03f;   // keeps alpha^2 away from 0: a perfect mirror's
                                                // highlight is a delta no rasterizer samples

// Schlick's Fresnel: f0 + (1 - f0) (1 - v.h)^5.
FACET_HD glm::vec3 schlickFresnel(glm::vec3 f0, float vh) {
    const float m = glm::clamp(1.0f - vh, 0.0f, 1.0f);
    const float m2 = m * m;
    return f0 + (glm::vec3(1.0f) - f0) * (m2 * m2 * m);
}

// The GGX distribution D for alpha^2 = a2 (alpha the squared perceptual roughness).
FACET_HD float ggxDistribution(float a2, float nh) {
    const float f = nh * nh * (a2 - 1.0f) + 1.0f;
    return a2 / (kPbrPi * f * f);
}

// The height-correlated Smith joint visibility V = G / (4 n.l n.v), 0 where either is 0.
FACET_HD float smithVisibility(float a2, float nl, float nv) {
    const float gv = nl * glm::sqrt(nv * nv * (1.0f - a2) + a2);
    const float gl = nv * glm::sqrt(nl * nl * (1.0f - a2) + a2);
    const float sum = gv + gl;
    return sum > 0.0f ? 0.5f / sum : 0.0f;
}

// The pixel's colour in linear light (clamped into [0, 1], alpha the surface's) under `rig` and
// the ambient light, with `normal` the interpolated (possibly normal-mapped) normal, not unit.
// Two-sided as the Blinn-Phong model: the normal is turned to face the viewer.
FACET_HD glm::vec4 pbrFragment(const PbrSurface& s, const Lights& lights, const LightRig& rig, glm::vec3 normal) {
    const float len = glm::length(normal);
    glm::vec3 n = len > 0.0f ? normal / len : rig.toViewer;
    if (glm::dot(n, rig.toViewer) < 0.0f) n = -n;
    const glm::vec3 v = rig.toViewer;
    const float nv = glm::max(glm::dot(n, v), 0.0f);
    const float roughness = glm::clamp(s.roughness, kMinRoughness, 1.0f);
    const float a2 = roughness * roughness * roughness * roughness;
    const glm::vec3 cDiff = s.baseColor * (1.0f - s.metallic);
    const glm::vec3 f0 = glm::mix(glm::vec3(kDielectricF0), s.baseColor, s.metallic);
    glm::vec3 c = (cDiff + f0) * (lights.ambientColor * lights.ambient) * s.occlusion + s.emission;
    for (int i = 0; i < rig.count; ++i) {
        const LitLight& light = rig.light[i];
        const float nl = glm::dot(n, light.direction);
        if (!(nl > 0.0f)) continue;
        const float nh = glm::max(glm::dot(n, light.halfway), 0.0f);
        const float vh = glm::max(glm::dot(v, light.halfway), 0.0f);
        const glm::vec3 f = schlickFresnel(f0, vh);
        const glm::vec3 diffuse = (glm::vec3(1.0f) - f) * cDiff;                    // (1 - F) c_diff / pi, times pi
        const glm::vec3 specular = f * (ggxDistribution(a2, nh) * smithVisibility(a2, nl, nv) * kPbrPi); // times pi
        c += (diffuse + specular) * light.radiance * nl;
    }
    return {glm::clamp(c, 0.0f, 1.0f), glm::clamp(s.alpha, 0.0f, 1.0f)};
}

} // namespace facet
