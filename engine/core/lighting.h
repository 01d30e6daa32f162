// The lit shading model's light and colour math, shared by both backends (and mirrored in the
// OpenGL reference's GLSL): sRGB decoding and encoding, and Blinn-Phong with a headlight, a few
// directional lights and ambient light. Colours are lit in linear light; the picture is encoded
// back to sRGB, as OpenGL does with sRGB textures and an sRGB framebuffer.
//
// The powers are computed with the functions below (+, *, / and bit operations only, no FMA on
// either side), not the C library's powf, so the host and the device round them identically.
#pragma once

#include "core/raster_math.h"
#include "core/texture_sampling.h"

namespace facet {

// Classic: the old look (texture or Kd, times the vertex colour, times an optional headlight
// Lambert term; no sRGB conversion). Lit: the MTL material under the lights, in linear light.
enum class ShadingModel { Classic, Lit };

// A light infinitely far away. `direction` points from the scene towards the light, in world
// space (any length; zero means "off"), as the viewer's panel and facet-render's --sun set it.
struct DirectionalLight {
    glm::vec3 direction{0.0f, 1.0f, 0.0f};
    glm::vec3 color{1.0f, 1.0f, 1.0f}; // linear
    float intensity = 0.0f;            // 0: off
};

inline constexpr int kMaxDirectionalLights = 3;

// The lit model's lights. The default (a headlight at 0.7, a key light from above, front right
// at 0.3, and 0.15 ambient) lights a mesh with normals from wherever the camera looks, with a
// highlight on glossy materials, and never sums past 1.15 times the diffuse colour.
struct Lights {
    glm::vec3 headlightColor{1.0f, 1.0f, 1.0f};
    float headlight = 0.7f; // a light at the eye, shining along the view
    glm::vec3 ambientColor{1.0f, 1.0f, 1.0f};
    float ambient = 0.15f;
    DirectionalLight directional[kMaxDirectionalLights] = {{{0.4f, 1.0f, 0.6f}, {1.0f, 1.0f, 1.0f}, 0.3f}, {}, {}};
};

// 2^x for x in [-126, 128): x = i + f with |f| <= 1/2, 2^f by its Taylor series in f ln 2.
FACET_HD float exp2Shared(float x) {
    x = glm::clamp(x, -126.0f, 127.0f);
    const float i = glm::floor(x + 0.5f);
    const float t = (x - i) * 0.693147181f;
    const float series =
        1.0f + t * (1.0f + t * (0.5f + t * (0.166666667f + t * (0.0416666667f + t * (0.00833333333f +
                                                                                       t * 0.00138888889f)))));
    return series * bitsFloat(static_cast<std::uint32_t>(truncateToInt(i) + 127) << 23); // NaN x: NaN
}

// x^e for x >= 0 and e >= 0 (0^0 = 1), as GLSL's pow for those; x^e = 2^(e log2 x).
FACET_HD float powShared(float x, float e) {
    if (!(x > 1e-20f)) return e > 0.0f ? 0.0f : 1.0f;
    return exp2Shared(e * lodLog2(x));
}

// sRGB-encoded c in [0, 1] to linear light (IEC 61966-2-1).
FACET_HD float srgbToLinear(float c) {
    return c <= 0.04045f ? c / 12.92f : powShared((c + 0.055f) / 1.055f, 2.4f);
}

// The lit model's per-pixel math below is written once, over a lane type F: float for one
// pixel (the kernels, the CPU's scalar path), or the CPU's SIMD lanes (cpu/simd/lit_lanes.h, which
// gives these primitives for them, found by argument-dependent lookup). Each lane takes both
// sides of a choice and selects, so the lanes' operations are the float's, in the same order.
FACET_HD float laneSelect(bool m, float a, float b) { return m ? a : b; }
FACET_HD bool laneAny(bool m) { return m; }
FACET_HD float laneSqrt(float x) { return glm::sqrt(x); }
FACET_HD float laneMin(float x, float y) { return glm::min(x, y); }
FACET_HD float laneMax(float x, float y) { return glm::max(x, y); }
FACET_HD float lanePow(float x, float e) { return powShared(x, e); }

// glm::clamp(c, 0, 1).
template <class F>
FACET_HD F clampUnit(F c) {
    return laneMin(laneMax(c, F(0.0f)), F(1.0f));
}

// Linear light to sRGB-encoded, clamped into [0, 1] first.
template <class F>
FACET_HD F linearToSrgbLanes(F c) {
    c = clampUnit(c);
    return laneSelect(c <= F(0.0031308f), c * F(12.92f), F(1.055f) * lanePow(c, F(1.0f / 2.4f)) - F(0.055f));
}

FACET_HD float linearToSrgb(float c) { return linearToSrgbLanes(c); }

FACET_HD glm::vec3 srgbToLinear(glm::vec3 c) { return {srgbToLinear(c.x), srgbToLinear(c.y), srgbToLinear(c.z)}; }
FACET_HD glm::vec3 linearToSrgb(glm::vec3 c) { return {linearToSrgb(c.x), linearToSrgb(c.y), linearToSrgb(c.z)}; }

// The 256 values srgbToLinear(b / 255) of the bytes b, which SrgbTexel can read instead of
// computing them: the same bits, since it is the same function of the byte.
struct SrgbTable {
    float linear[256];
};

inline SrgbTable makeSrgbTable() {
    SrgbTable t{};
    for (std::uint32_t b = 0; b < 256; ++b) t.linear[b] = srgbToLinear(static_cast<float>(b) / 255.0f);
    return t;
}

// A sampler's texel read (see sampleTexture) for an sRGB colour texture: colour in linear light and
// alpha in [0, 1]. With a table (the CPU backend's) the decode is a look-up, else computed (the
// kernels'); both give the same bits.
struct SrgbTexel {
    const SrgbTable* table = nullptr;

    FACET_HD glm::vec4 operator()(std::uint32_t c) const {
        const glm::vec4 v = unpackRgba8(c) / 255.0f;
        if (table)
            return {table->linear[c & 0xFFu], table->linear[(c >> 8) & 0xFFu], table->linear[(c >> 16) & 0xFFu], v.w};
        return {srgbToLinear(v.x), srgbToLinear(v.y), srgbToLinear(v.z), v.w};
    }
};

// A data texture's texel (map_Ns, map_d, bump): channels in [0, 1], not decoded.
struct UnitTexel {
    FACET_HD glm::vec4 operator()(std::uint32_t c) const { return unpackRgba8(c) / 255.0f; }
};

// What the directional lights and the headlight give a surface point: the diffuse and specular
// irradiance, to be multiplied by the material's diffuse and specular colours. (The ambient
// light is the shading's, scaled by Ka.)
struct LightSum {
    glm::vec3 diffuse;
    glm::vec3 specular;
};

// A colour or direction per lane.
template <class F>
struct Vec3Lanes {
    F x, y, z;
};

template <class F>
FACET_HD Vec3Lanes<F> splat3(glm::vec3 v) {
    return {F(v.x), F(v.y), F(v.z)};
}
template <class F>
FACET_HD Vec3Lanes<F> operator+(const Vec3Lanes<F>& a, const Vec3Lanes<F>& b) {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}
template <class F>
FACET_HD Vec3Lanes<F> operator*(const Vec3Lanes<F>& a, const Vec3Lanes<F>& b) {
    return {a.x * b.x, a.y * b.y, a.z * b.z};
}
template <class F>
FACET_HD Vec3Lanes<F> scale3(glm::vec3 a, F s) {
    return {F(a.x) * s, F(a.y) * s, F(a.z) * s};
}
// glm::dot's order: (x x' + y y') + z z'.
template <class F>
FACET_HD F dot3(const Vec3Lanes<F>& a, glm::vec3 b) {
    return a.x * F(b.x) + a.y * F(b.y) + a.z * F(b.z);
}
template <class M, class F>
FACET_HD Vec3Lanes<F> select3(M m, const Vec3Lanes<F>& a, const Vec3Lanes<F>& b) {
    return {laneSelect(m, a.x, b.x), laneSelect(m, a.y, b.y), laneSelect(m, a.z, b.z)};
}

// Normal mapping: the interpolated normal `normal` (not unit) turned by a tangent-space normal
// `mapped` (a normal map's texel decoded as rgb * 2 - 1: x along the tangent, y along the
// bitangent, z along the normal). The frame is N = normal / |normal|, T = the interpolated
// tangent's xyz made orthogonal to N again (interpolation bends it) and unit, B = sign cross(N, T)
// with the sign of tangent.w. Where the frame is degenerate (a zero normal or a tangent along
// it: a mesh without tangents) the normal is returned as it is, so the surface is drawn flat.
FACET_HD glm::vec3 perturbNormal(glm::vec3 normal, glm::vec4 tangent, glm::vec3 mapped) {
    const float nl = glm::length(normal);
    if (!(nl > 0.0f)) return normal;
    const glm::vec3 n = normal / nl;
    const glm::vec3 t3(tangent);
    const glm::vec3 along = t3 - n * glm::dot(n, t3);
    const float tl = glm::length(along);
    if (!(tl > 1e-6f)) return normal;
    const glm::vec3 t = along / tl;
    const glm::vec3 b = (tangent.w < 0.0f ? -1.0f : 1.0f) * glm::cross(n, t);
    return t * mapped.x + b * mapped.y + n * mapped.z;
}

// A normal map's texel (channels in [0, 1], see UnitTexel) as a tangent-space direction.
FACET_HD glm::vec3 decodeNormalTexel(glm::vec4 texel) { return glm::vec3(texel) * 2.0f - 1.0f; }

// One light as every pixel sees it: its unit direction l, the Blinn-Phong halfway vector
// between l and the viewer (infinitely far along -viewForward, OpenGL's default light model,
// so the same at every pixel) and its radiance.
struct LitLight {
    glm::vec3 direction, halfway, radiance;
};

// The lights that are on, in sumLights' order (the headlight, then the directional ones).
struct LightRig {
    LitLight light[1 + kMaxDirectionalLights];
    int count;
    glm::vec3 toViewer;
};

FACET_HD LightRig lightRig(const Lights& lights, glm::vec3 viewForward) {
    LightRig rig{};
    rig.toViewer = -viewForward;
    const auto add = [&rig](glm::vec3 l, glm::vec3 radiance) {
        rig.light[rig.count++] = LitLight{l, glm::normalize(l + rig.toViewer), radiance};
    };
    if (lights.headlight > 0.0f) add(rig.toViewer, lights.headlightColor * lights.headlight);
    for (int i = 0; i < kMaxDirectionalLights; ++i) {
        const DirectionalLight& d = lights.directional[i];
        const float dl = glm::length(d.direction);
        if (d.intensity > 0.0f && dl > 0.0f) add(d.direction / dl, d.color * d.intensity);
    }
    return rig;
}

template <class F>
struct LightSumLanes {
    Vec3Lanes<F> diffuse, specular;
};

// Every light at a surface with the (interpolated, not unit) normal `normal`. Two-sided: OBJ
// normals in the wild point either way, so the normal is turned to face the viewer. A zero
// normal (a degenerate one) is lit as facing the viewer. Per light, Blinn-Phong with n and l
// unit length: nothing where n.l <= 0.
template <class F>
FACET_HD LightSumLanes<F> sumLightsLanes(const LightRig& rig, const Vec3Lanes<F>& normal, F shininess, bool specular) {
    const F len = laneSqrt(normal.x * normal.x + normal.y * normal.y + normal.z * normal.z);
    Vec3Lanes<F> n = select3(len > F(0.0f), Vec3Lanes<F>{normal.x / len, normal.y / len, normal.z / len},
                             splat3<F>(rig.toViewer));
    n = select3(dot3(n, rig.toViewer) < F(0.0f), Vec3Lanes<F>{-n.x, -n.y, -n.z}, n);
    LightSumLanes<F> sum{splat3<F>(glm::vec3(0.0f)), splat3<F>(glm::vec3(0.0f))};
    for (int i = 0; i < rig.count; ++i) {
        const LitLight& light = rig.light[i];
        const F nl = dot3(n, light.direction);
        const auto lit = nl > F(0.0f);
        sum.diffuse = select3(lit, sum.diffuse + scale3(light.radiance, nl), sum.diffuse);
        if (!specular) continue;
        const F power = lanePow(laneMax(dot3(n, light.halfway), F(0.0f)), shininess);
        sum.specular = select3(lit, sum.specular + scale3(light.radiance, power), sum.specular);
    }
    return sum;
}

FACET_HD LightSum sumLights(const Lights& lights, glm::vec3 normal, glm::vec3 viewForward, float shininess,
                            bool specular) {
    const LightSumLanes<float> s =
        sumLightsLanes(lightRig(lights, viewForward), Vec3Lanes<float>{normal.x, normal.y, normal.z}, shininess, specular);
    return {{s.diffuse.x, s.diffuse.y, s.diffuse.z}, {s.specular.x, s.specular.y, s.specular.z}};
}

} // namespace facet
