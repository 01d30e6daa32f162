// Clipping in camera space, shared by both backends. A triangle is clipped against the near
// plane (so nothing behind the eye is ever divided by) and against a guard band far outside
// the viewport (so snapped coordinates always fit the fixed-point range); Sutherland-Hodgman,
// one plane at a time, so a triangle becomes a convex polygon of at most 3 + 5 vertices.
#pragma once

#include "core/transform.h"

namespace facet {

inline constexpr int kMaxClippedVertices = 8;
// How far past the viewport's edges geometry may reach before it is clipped, in pixels.
inline constexpr float kGuardBandPixels = 8192.0f;

struct ClipVertex {
    glm::vec3 d;  // camera space position (d.z > 0 in front)
    glm::vec2 uv; // texture coordinates
    glm::vec3 n;  // world space normal
    glm::vec3 c{1.0f}; // vertex colour in [0, 1]; white for a mesh without colours
    glm::vec4 t{0.0f}; // world space tangent, w its handedness (+-1); zero for a mesh without tangents
};

// The five planes as (a, b, c, e) with a point inside when a d.x + b d.y + c d.z + e >= 0.
struct ClipPlanes {
    glm::vec4 plane[5];
};

FACET_HD ClipPlanes makeClipPlanes(const ViewParams& view, int width, int height) {
    // x_ndc = kx d.x / d.z + px stays within +-gx  <=>  (gx -+ px) d.z -+ kx d.x >= 0 (d.z > 0
    // there): the band stays around the viewport wherever the principal point puts the axis.
    const float kx = view.focus / view.aspect, ky = view.focus, px = view.principal.x, py = view.principal.y;
    const float gx = 1.0f + 2.0f * kGuardBandPixels / static_cast<float>(width);
    const float gy = 1.0f + 2.0f * kGuardBandPixels / static_cast<float>(height);
    return ClipPlanes{{glm::vec4(0.0f, 0.0f, 1.0f, -view.nearPlane), glm::vec4(-kx, 0.0f, gx - px, 0.0f),
                       glm::vec4(kx, 0.0f, gx + px, 0.0f), glm::vec4(0.0f, -ky, gy - py, 0.0f),
                       glm::vec4(0.0f, ky, gy + py, 0.0f)}};
}

FACET_HD float planeDistance(const glm::vec4& p, const glm::vec3& d) { return p.x * d.x + p.y * d.y + p.z * d.z + p.w; }

FACET_HD ClipVertex lerpClipVertex(const ClipVertex& a, const ClipVertex& b, float t) {
    return ClipVertex{a.d + t * (b.d - a.d), a.uv + t * (b.uv - a.uv), a.n + t * (b.n - a.n), a.c + t * (b.c - a.c),
                      a.t + t * (b.t - a.t)};
}

// Bit i set when the vertex is outside plane i.
FACET_HD unsigned outsideMask(const ClipPlanes& planes, const glm::vec3& d) {
    unsigned mask = 0;
    for (int i = 0; i < 5; ++i)
        if (planeDistance(planes.plane[i], d) < 0.0f) mask |= 1u << i;
    return mask;
}

// Clips the polygon in[0..count) in place against every plane in `planesToClip`; returns the
// new vertex count (0 when nothing is left). `scratch` must hold kMaxClippedVertices.
FACET_HD int clipPolygon(const ClipPlanes& planes, unsigned planesToClip, ClipVertex* poly, int count,
                         ClipVertex* scratch) {
    for (int i = 0; i < 5 && count > 0; ++i) {
        if (!(planesToClip & (1u << i))) continue;
        const glm::vec4 plane = planes.plane[i];
        int out = 0;
        for (int k = 0; k < count; ++k) {
            const ClipVertex& a = poly[k];
            const ClipVertex& b = poly[(k + 1) % count];
            const float da = planeDistance(plane, a.d), db = planeDistance(plane, b.d);
            if (da >= 0.0f) scratch[out++] = a;
            if ((da >= 0.0f) != (db >= 0.0f)) scratch[out++] = lerpClipVertex(a, b, da / (da - db));
        }
        for (int k = 0; k < out; ++k) poly[k] = scratch[k];
        count = out;
    }
    return count;
}

} // namespace facet
