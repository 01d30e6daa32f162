// The debug views (RenderSettings::view, names in core/names.h), written once for every
// backend: the colour of one pixel in each view, from what the visibility pass found there.
// Views fall in three groups, by what they need:
//   - per pixel, from the pixel's winner (the triangle that last passed its depth test):
//     normals, uv, triangles, wireframe, and overdraw (which also needs the pixel's count of
//     fragments that passed the depth test); the CPU shades these with viewQuadPixel, a
//     scalar function, not its vectorised shading;
//   - per frame, after the shaded picture is drawn: depth (from the depth buffer, normalised
//     over the frame's drawn depths) and tiles (each 64x64 tile's triangles binned, as a heat
//     map over the picture): finishViewPixel;
//   - shaded: the picture, untouched by anything here.
// docs/guide.md says how to read each view's colours.
#pragma once

#include "core/frame.h"
#include "core/names.h"
#include "core/quad_shading.h"
#include "core/tiles.h"
#include "core/transform.h"

#include <cstddef>
#include <cstdint>

namespace facet {

// Views whose colour comes from the pixel's winner (viewQuadPixel).
FACET_HD bool viewShadesWinners(View v) {
    return v == View::Normals || v == View::Uv || v == View::Overdraw || v == View::Wireframe || v == View::Triangles;
}
// Views that rewrite the finished picture (finishViewPixel).
FACET_HD bool viewFinishesFrame(View v) { return v == View::Depth || v == View::Tiles; }
// Views that need each set-up triangle's mesh triangle index.
FACET_HD bool viewNeedsSources(View v) { return v == View::Triangles; }
// Views that count the fragments passing the depth test per pixel.
FACET_HD bool viewCountsFragments(View v) { return v == View::Overdraw; }

// The heat map's stops, level 0 to 8: black, blue, cyan, green, yellow, orange, red, magenta,
// white.
FACET_HD glm::vec3 heatStop(int level) {
    switch (level) {
    case 0: return {0.0f, 0.0f, 0.0f};
    case 1: return {0.0f, 0.0f, 255.0f};
    case 2: return {0.0f, 255.0f, 255.0f};
    case 3: return {0.0f, 255.0f, 0.0f};
    case 4: return {255.0f, 255.0f, 0.0f};
    case 5: return {255.0f, 128.0f, 0.0f};
    case 6: return {255.0f, 0.0f, 0.0f};
    case 7: return {255.0f, 0.0f, 255.0f};
    default: return {255.0f, 255.0f, 255.0f};
    }
}

// The heat map at `level` in [0, 8] (clamped), blending linearly between the two stops around it.
FACET_HD std::uint32_t heatColor(float level) {
    const float l = glm::clamp(level, 0.0f, 8.0f);
    const int i = static_cast<int>(l);
    const float f = l - static_cast<float>(i);
    const glm::vec3 c = heatStop(i) * (1.0f - f) + heatStop(i + 1) * f;
    return packRgba8(glm::vec4(c, 255.0f));
}

// Overdraw: n fragments passed the depth test at the pixel; 8 and more are white.
FACET_HD std::uint32_t overdrawColor(std::uint32_t fragments) {
    return heatColor(static_cast<float>(fragments < 8u ? fragments : 8u));
}

// Tiles: a tile with n triangles binned, at level log4(n + 1) (stops at 0, 3, 15, 63, 255,
// 1023, 4095, 16383 and 65535 triangles), half over the shaded picture.
FACET_HD std::uint32_t tileColor(std::uint32_t shaded, std::uint32_t triangles) {
    const std::uint32_t heat = heatColor(0.5f * lodLog2(1.0f + static_cast<float>(triangles)));
    std::uint32_t out = 0xFF000000u;
    for (int shift = 0; shift < 24; shift += 8) {
        const std::uint32_t a = (shaded >> shift) & 0xFFu, b = (heat >> shift) & 0xFFu;
        out |= ((a + b + 1u) >> 1) << shift;
    }
    return out;
}

// Triangles: mesh triangle `index`'s colour, its bits mixed by MurmurHash3's 32-bit finaliser;
// every channel has bit 6 set, so no triangle is near black.
FACET_HD std::uint32_t triangleColor(std::uint32_t index) {
    std::uint32_t h = index + 1u;
    h ^= h >> 16;
    h *= 0x85EBCA6Bu;
    h ^= h >> 13;
    h *= 0xC2B2AE35u;
    h ^= h >> 16;
    return (h & 0x00FFFFFFu) | 0xFF404040u;
}

// Normals: the unit normal n as (n + 1) / 2 in red, green and blue (+X red, +Y green, +Z blue,
// world space); a zero normal is mid grey.
FACET_HD std::uint32_t normalColor(glm::vec3 n) {
    const float len = glm::length(n);
    const glm::vec3 unit = len > 0.0f ? n / len : glm::vec3(0.0f);
    return packRgba8(glm::vec4((unit + 1.0f) * 127.5f, 255.0f));
}

// Uv: the fractional parts of u and v as red and green.
FACET_HD std::uint32_t uvColor(glm::vec2 uv) {
    const glm::vec2 f = uv - glm::floor(uv);
    return packRgba8(glm::vec4(f.x * 255.0f, f.y * 255.0f, 0.0f, 255.0f));
}

// Wireframe: the colour of edge pixels, black.
inline constexpr std::uint32_t kWireColor = 0xFF000000u;

// Whether the centre of pixel (x, y) lies within half a pixel of one of the triangle's edges
// (inclusive, so an edge along pixel boundaries shows too): barycentric b_i over the length of
// its gradient is the distance to edge i in pixels. A shared edge's pixels go to one triangle or
// the other, so a line is one pixel wide, two along pixel boundaries.
FACET_HD bool onEdge(const ScreenTriangle& tri, int x, int y) {
    const glm::vec3 b = barycentrics(tri, x, y);
    const glm::vec2 g0 = -(tri.db1 + tri.db2);
    return b.x <= 0.5f * glm::length(g0) || b.y <= 0.5f * glm::length(tri.db1) || b.z <= 0.5f * glm::length(tri.db2);
}

// What a pixel's view colour needs to know of its winner.
struct ViewPixel {
    const ScreenTriangle* tri;
    const TriangleAttributes* attributes;
    const ShadeMaterial* material;
    const TriangleColors* colors; // null for a mesh without vertex colours
    std::uint32_t source;         // the mesh triangle it was set up from (View::Triangles)
    std::uint32_t fragments;      // passed the depth test at the pixel (View::Overdraw)
};

// Pixel k of the quad at (qx, qy) in a view that shades winners; in the other views, the shaded
// colour (shadeQuadPixel), as under the wireframe's edges.
FACET_HD std::uint32_t viewQuadPixel(const FramePlan& plan, const ViewPixel& p, int qx, int qy, int k) {
    const int x = qx + (k & 1), y = qy + (k >> 1);
    const View view = plan.settings.view;
    switch (view) {
    case View::Normals:
    case View::Uv: {
        const glm::vec3 b = barycentrics(*p.tri, x, y);
        const float invW = interpolateInvW(*p.attributes, b);
        return view == View::Normals ? normalColor(interpolateNormal(*p.attributes, b, invW))
                                       : uvColor(interpolateUv(*p.attributes, b, invW));
    }
    case View::Triangles: return triangleColor(p.source);
    case View::Overdraw: return overdrawColor(p.fragments);
    case View::Wireframe:
        if (onEdge(*p.tri, x, y)) return kWireColor;
        break;
    default: break;
    }
    return shadeQuadPixel({*p.tri, *p.attributes}, *p.material, plan, qx, qy, k, p.colors);
}

// A pixel no triangle drew: black in overdraw (no fragment), else the clear colour.
FACET_HD std::uint32_t viewBackground(const RenderSettings& settings) {
    return settings.view == View::Overdraw ? overdrawColor(0u) : settings.clearColor;
}

// ---- Views of the finished frame ------------------------------------------------------------

// The window depths of a frame's nearest and farthest drawn pixels (those with depth < 1).
struct DepthRange {
    float nearest = 1.0f, farthest = 0.0f; // nearest > farthest: nothing drawn
};

// Depth: linear in camera-space depth over the frame's drawn range, the nearest pixel white
// (255) and the farthest dark grey (32); undrawn pixels (depth 1) black.
FACET_HD std::uint32_t depthColor(float depth, const DepthRange& range, float nearPlane, float farPlane) {
    if (!(depth < 1.0f)) return 0xFF000000u;
    const float zNear = eyeDepth(range.nearest, nearPlane, farPlane);
    const float zFar = eyeDepth(range.farthest, nearPlane, farPlane);
    const float t = zFar > zNear ? (eyeDepth(depth, nearPlane, farPlane) - zNear) / (zFar - zNear) : 0.0f;
    const float grey = 255.0f - 223.0f * t;
    return packRgba8(glm::vec4(grey, grey, grey, 255.0f));
}

// What finishing a frame's view reads.
struct ViewFinish {
    View view;
    FrameView target;             // its colours are rewritten
    float nearPlane, farPlane;    // View::Depth
    DepthRange range;             // View::Depth
    const std::uint32_t* tileWork; // View::Tiles: triangles binned to each tile
    TileGrid grid;
};

// Pixel i (row-major) of the finished frame, in a view that finishes frames.
FACET_HD void finishViewPixel(const ViewFinish& f, std::size_t i) {
    const auto width = static_cast<std::size_t>(f.target.width);
    if (f.view == View::Depth) {
        f.target.color[i] = depthColor(f.target.depth[i], f.range, f.nearPlane, f.farPlane);
    } else if (f.view == View::Tiles) {
        const int x = static_cast<int>(i % width), y = static_cast<int>(i / width);
        const TileSpan t = tileSpan(f.grid, x, y, x, y);
        f.target.color[i] = tileColor(f.target.color[i], f.tileWork[t.ty0 * f.grid.tilesX + t.tx0]);
    }
}

// On the host: the frame's depth range, then every pixel finished.
inline DepthRange depthRange(const FrameView& target) {
    DepthRange r;
    const std::size_t n = static_cast<std::size_t>(target.width) * static_cast<std::size_t>(target.height);
    for (std::size_t i = 0; i < n; ++i) {
        const float d = target.depth[i];
        if (!(d < 1.0f)) continue;
        r.nearest = glm::min(r.nearest, d);
        r.farthest = glm::max(r.farthest, d);
    }
    return r;
}

inline ViewFinish makeViewFinish(View view, const FrameView& target, const ViewParams& camera,
                                 const std::uint32_t* tileWork) {
    return ViewFinish{view, target, camera.nearPlane, camera.farPlane,
                      view == View::Depth ? depthRange(target) : DepthRange{}, tileWork,
                      makeTileGrid(target.width, target.height)};
}

inline void finishView(View view, const FrameView& target, const ViewParams& camera, const std::uint32_t* tileWork) {
    if (!viewFinishesFrame(view)) return;
    const ViewFinish f = makeViewFinish(view, target, camera, tileWork);
    const std::size_t n = static_cast<std::size_t>(target.width) * static_cast<std::size_t>(target.height);
    for (std::size_t i = 0; i < n; ++i) finishViewPixel(f, i);
}

} // namespace facet
