// Triangle setup and per-pixel interpolation, shared by both backends: a clipped vertex is
// projected and snapped; a triangle is oriented so its interior has positive edge values;
// attributes divided by w interpolate linearly on screen, which makes them perspective-correct
// after dividing by the interpolated 1/w (Heckbert & Moreton, "Interpolation for Polygon
// Texture Mapping and Shading", 1991).
#pragma once

#include "core/clip.h"
#include "core/raster_math.h"

namespace facet {

struct ScreenVertex {
    FixedPoint2 p;     // snapped pixel position
    float depth;       // window depth in [0, 1]
    float invW;        // 1 / d.z
    glm::vec2 uvOverW; // uv / d.z
    glm::vec3 nOverW;  // n / d.z
};

FACET_HD ScreenVertex projectVertex(const ClipVertex& v, const ViewParams& view, int width, int height) {
    const glm::vec2 px = ndcToPixel(perspectiveDivide(v.d, view.focus, view.aspect), width, height);
    const float invW = 1.0f / v.d.z;
    return ScreenVertex{{snapToFixed(px.x), snapToFixed(px.y)},
                        windowDepth(v.d.z, view.nearPlane, view.farPlane),
                        invW,
                        v.uv * invW,
                        v.n * invW};
}

struct ScreenTriangle {
    ScreenVertex v[3];     // ordered so the interior is positive
    std::int64_t area;     // twice the area in sub-pixel units squared, > 0
    std::int64_t bias[3];  // top-left rule bias of the edge opposite vertex i
    int minX, minY, maxX, maxY; // pixel bounds, clamped to the target, inclusive
};

// Why setupTriangle refused a triangle.
enum class SetupResult { Ok, Degenerate, Culled, Offscreen };

// Orients the triangle, applies back-face culling (front faces are counter-clockwise in
// OpenGL's y-up window coordinates, i.e. negative area on our y-down screen) and computes
// pixel bounds. Pixel i is a candidate when its centre lies within the snapped bounds.
FACET_HD SetupResult setupTriangle(const ScreenVertex& a, const ScreenVertex& b, const ScreenVertex& c,
                                   bool cullBackFaces, int width, int height, ScreenTriangle& tri) {
    std::int64_t area = edgeFunction(a.p, b.p, c.p);
    if (area == 0) return SetupResult::Degenerate;
    if (cullBackFaces && area > 0) return SetupResult::Culled;
    tri.v[0] = a;
    tri.v[1] = area > 0 ? b : c;
    tri.v[2] = area > 0 ? c : b;
    tri.area = area > 0 ? area : -area;
    tri.bias[0] = topLeftBias(tri.v[1].p, tri.v[2].p);
    tri.bias[1] = topLeftBias(tri.v[2].p, tri.v[0].p);
    tri.bias[2] = topLeftBias(tri.v[0].p, tri.v[1].p);

    const std::int32_t loX = glm::min(a.p.x, glm::min(b.p.x, c.p.x)), hiX = glm::max(a.p.x, glm::max(b.p.x, c.p.x));
    const std::int32_t loY = glm::min(a.p.y, glm::min(b.p.y, c.p.y)), hiY = glm::max(a.p.y, glm::max(b.p.y, c.p.y));
    // First centre >= lo: ceil((lo - half) / one); last centre <= hi: floor((hi - half) / one).
    const auto firstCentre = [](std::int32_t lo) {
        const std::int32_t t = lo - kSubpixelOne / 2 + kSubpixelOne - 1;
        return t >= 0 ? t / kSubpixelOne : -((-t + kSubpixelOne - 1) / kSubpixelOne);
    };
    const auto lastCentre = [](std::int32_t hi) {
        const std::int32_t t = hi - kSubpixelOne / 2;
        return t >= 0 ? t / kSubpixelOne : -((-t + kSubpixelOne - 1) / kSubpixelOne);
    };
    tri.minX = glm::max(firstCentre(loX), 0);
    tri.minY = glm::max(firstCentre(loY), 0);
    tri.maxX = glm::min(lastCentre(hiX), width - 1);
    tri.maxY = glm::min(lastCentre(hiY), height - 1);
    if (tri.minX > tri.maxX || tri.minY > tri.maxY) return SetupResult::Offscreen;
    return SetupResult::Ok;
}

// The three edge values at the centre of pixel (x, y); weight i belongs to vertex i.
struct EdgeValues {
    std::int64_t w[3];
};

FACET_HD EdgeValues edgeValues(const ScreenTriangle& t, int x, int y) {
    const FixedPoint2 p{pixelCentreFixed(x), pixelCentreFixed(y)};
    return EdgeValues{{edgeFunction(t.v[1].p, t.v[2].p, p), edgeFunction(t.v[2].p, t.v[0].p, p),
                       edgeFunction(t.v[0].p, t.v[1].p, p)}};
}

FACET_HD bool covers(const ScreenTriangle& t, const EdgeValues& e) {
    return e.w[0] + t.bias[0] > 0 && e.w[1] + t.bias[1] > 0 && e.w[2] + t.bias[2] > 0;
}

// Screen-space barycentrics (they also extrapolate, for the helper pixels of a 2x2 quad).
FACET_HD glm::vec3 barycentrics(const ScreenTriangle& t, const EdgeValues& e) {
    const float inv = 1.0f / static_cast<float>(t.area);
    return {static_cast<float>(e.w[0]) * inv, static_cast<float>(e.w[1]) * inv, static_cast<float>(e.w[2]) * inv};
}

FACET_HD float interpolateDepth(const ScreenTriangle& t, glm::vec3 b) {
    return b.x * t.v[0].depth + b.y * t.v[1].depth + b.z * t.v[2].depth;
}

FACET_HD float interpolateInvW(const ScreenTriangle& t, glm::vec3 b) {
    return b.x * t.v[0].invW + b.y * t.v[1].invW + b.z * t.v[2].invW;
}

FACET_HD glm::vec2 interpolateUv(const ScreenTriangle& t, glm::vec3 b, float invW) {
    return (b.x * t.v[0].uvOverW + b.y * t.v[1].uvOverW + b.z * t.v[2].uvOverW) / invW;
}

FACET_HD glm::vec3 interpolateNormal(const ScreenTriangle& t, glm::vec3 b, float invW) {
    return (b.x * t.v[0].nOverW + b.y * t.v[1].nOverW + b.z * t.v[2].nOverW) / invW;
}

} // namespace facet
