// The outputs vision users ask for beside the picture (FrameOutputs, core/frame.h): metric depth,
// instance ids and normals, written once for every backend. Each pixel's come from the surface
// nearest the camera at the pixel's centre, found by a visibility pass of their own at one
// sample per pixel over the frame's set-up triangles (cpu/shading/outputs_tile.h): so with
// multisampling they are those of a one-sample frame, and a see-through surface counts as
// opaque (as in pyrender's masks).
//   - metric depth: the camera-space depth (distance along the optical axis) at the pixel's
//     centre, in scene units, 1 / (1 / z interpolated): a few roundings off, where inverting
//     the window depth lost up to 1.6e-5 (relative) near the far side of a tilted plane; 0
//     where nothing is drawn, as pyrender gives it;
//   - instance: the scene's id of the instance whose triangle won the pixel (ids are never 0);
//   - normal: the interpolated vertex normal (before any normal map), unit length, turned to the
//     side the camera sees, in OpenCV's camera axes (x right, y down, z forward, as the pose
//     and intrinsics of Camera::fromIntrinsics); a mesh without normals gives the direction
//     back to the camera.
#pragma once

#include "core/frame.h"
#include "core/instances.h"
#include "core/transform.h"
#include "core/triangle_setup.h"

#include <cstddef>
#include <cstdint>

namespace facet {

// The normal output for the world-space normal `n` (interpolated, not unit; zero where the mesh
// has none) seen along `ray` (the camera-space direction through the pixel's centre) by a camera
// whose rotation is `rotation`.
FACET_HD glm::vec3 cameraNormal(glm::vec3 n, glm::vec3 ray, const glm::mat3& rotation) {
    glm::vec3 c = rotate(rotation, n);
    const float length2 = glm::dot(c, c);
    c = length2 > 0.0f ? c * (1.0f / sqrtf(length2)) : ray * (-1.0f / glm::length(ray));
    if (glm::dot(c, ray) > 0.0f) c = -c; // the side seen faces back along the ray
    return {c.x, -c.y, c.z};            // right, up, forward to OpenCV's right, down, forward
}

// What writing a frame's outputs reads besides the pixel's winner.
struct OutputFrame {
    FrameOutputs outputs;
    int width, height;
    glm::mat3 rotation;               // the camera's (rows right, up, forward)
    // The camera-space ray through pixel (x, y)'s centre is (x, y) * rayScale + rayOffset, 1
    // (perspectiveDivide and ndcToPixel inverted, worked out once: outputFrame).
    glm::vec2 rayScale, rayOffset;
    const InstanceDraw* instances;    // the frame's drawn instances, their first triangles rising
    std::uint32_t instanceCount;
};

inline OutputFrame outputFrame(const FrameOutputs& outputs, int width, int height, const ViewParams& camera,
                               const InstanceDraw* instances, std::uint32_t instanceCount) {
    // ndc x = (x + 0.5) 2 / width - 1 and ray x = (ndc x - principal x) aspect / focus; y alike,
    // ndc y = 1 - (y + 0.5) 2 / height and ray y = (ndc y - principal y) / focus.
    const double w = width, h = height, ax = double(camera.aspect) / camera.focus, ay = 1.0 / camera.focus;
    const glm::vec2 scale{float(2.0 / w * ax), float(-2.0 / h * ay)};
    const glm::vec2 offset{float((1.0 / w - 1.0 - camera.principal.x) * ax),
                           float((1.0 - 1.0 / h - camera.principal.y) * ay)};
    return OutputFrame{outputs, width, height, camera.rotation, scale, offset, instances, instanceCount};
}

// The winner of a pixel, as the outputs read it.
struct OutputWinner {
    const ScreenTriangle* tri;
    const TriangleAttributes* attributes; // for metric depth and the normal
    std::uint32_t source;                 // its triangle in the frame's draw order, for the instance
};

// Pixel i = (x, y)'s outputs, from its winner.
FACET_HD void writeOutputPixel(const OutputFrame& f, const OutputWinner& w, int x, int y) {
    const std::size_t i = std::size_t(y) * std::size_t(f.width) + std::size_t(x);
    const FrameOutputs& o = f.outputs;
    const TriangleAttributes& a = *w.attributes;
    const glm::vec3 b = o.metricDepth || o.normal ? barycentrics(*w.tri, x, y) : glm::vec3(0.0f);
    if (o.metricDepth) o.metricDepth[i] = 1.0f / interpolateInvW(a, b);
    if (o.instance) {
        const InstanceDraw* draws = f.instances;
        o.instance[i] =
            draws[instanceHolding(f.instanceCount, w.source, [draws](std::uint32_t k) { return draws[k].firstTriangle; })]
                .id;
    }
    if (o.normal) {
        const glm::vec3 ray{glm::vec2(float(x), float(y)) * f.rayScale + f.rayOffset, 1.0f};
        // The corners' n / z interpolated: the interpolated normal times 1 / z, as good a
        // direction (1 / z > 0) without the division.
        const glm::vec3 n =
            cameraNormal(b.x * a.v[0].nOverW + b.y * a.v[1].nOverW + b.z * a.v[2].nOverW, ray, f.rotation);
        o.normal[3 * i] = n.x;
        o.normal[3 * i + 1] = n.y;
        o.normal[3 * i + 2] = n.z;
    }
}

// Pixels i to i + count - 1 where nothing is drawn: 0 in every output.
FACET_HD void writeOutputBackground(const OutputFrame& f, std::size_t i, std::size_t count) {
    const FrameOutputs& o = f.outputs;
    for (std::size_t k = i; k < i + count; ++k) {
        if (o.metricDepth) o.metricDepth[k] = 0.0f;
        if (o.instance) o.instance[k] = 0u;
    }
    if (o.normal)
        for (std::size_t k = 3 * i; k < 3 * (i + count); ++k) o.normal[k] = 0.0f;
}

} // namespace facet
