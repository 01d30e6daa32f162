// The outputs vision users ask for beside the picture (FrameOutputs, core/frame.h): metric depth,
// instance ids and normals, written once for every backend. Each pixel's come from the surface
// nearest the camera at the pixel's centre, as a one-sample visibility pass finds it (the
// frame's own, or one for the outputs where the frame is multisampled or drawn forward:
// cpu/shading/outputs_tile.h): so with multisampling they are those of a one-sample frame, and
// a see-through surface counts as opaque (as in pyrender's masks).
//   - metric depth: the camera-space depth (distance along the optical axis) at the pixel's
//     centre, in scene units, 1 / (1 / z interpolated) (closer than the window depth inverted);
//     0 where nothing is drawn, as pyrender gives it;
//   - instance: the scene's id of the instance whose triangle won the pixel (ids are never 0);
//   - normal: the interpolated vertex normal (before any normal map), unit length, turned to the
//     side the camera sees, in OpenCV's camera axes (x right, y down, z forward, as the pose
//     and intrinsics of Camera::fromIntrinsics); a mesh without normals gives the direction
//     back to the camera.
#pragma once

#include "core/frame.h"
#include "core/instances.h"
#include "core/lighting.h"
#include "core/transform.h"
#include "core/triangle_setup.h"

#include <cstdint>

namespace facet {

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

// Metric depth and the normal at pixels (x, y) of one winner, lane by lane: F is float, or the
// CPU's eight lanes (cpu/simd/lit_lanes.h), whose operations are the float ones in the same
// order, so a pixel's bits do not depend on the width it was computed at.
//   - metric depth: 1 / (1 / z interpolated);
//   - normal: the corners' n / z interpolated (the interpolated normal times 1 / z: the same
//     direction without a division), turned to camera space, unit length (the direction back
//     along the ray where it is zero), turned to the side seen (facing back along the ray),
//     then in OpenCV's axes: facet's camera space is right, up, forward; OpenCV's right, down,
//     forward.
template <class F>
struct WinnerLanes {
    BarycentricPlane<F> plane;
    F invW[3];                // each corner's 1 / z
    Vec3Lanes<F> nOverW[3];   // each corner's n / z
};

// One winner in every lane.
template <class F>
FACET_HD WinnerLanes<F> winnerLanes(const ScreenTriangle& tri, const TriangleAttributes& a) {
    WinnerLanes<F> w{BarycentricPlane<F>(tri), {}, {}};
    for (int c = 0; c < 3; ++c) {
        w.invW[c] = F(a.v[c].invW);
        w.nOverW[c] = splat3<F>(a.v[c].nOverW);
    }
    return w;
}

template <class F>
FACET_HD void surfaceOutputs(const OutputFrame& f, const WinnerLanes<F>& w, F x, F y, F& metric,
                             Vec3Lanes<F>& normal) {
    F b[3];
    w.plane.at(x, y, b);
    metric = F(1.0f) / interpolate(b, w.invW[0], w.invW[1], w.invW[2]);
    const Vec3Lanes<F>* n3 = w.nOverW;
    const Vec3Lanes<F> n{interpolate(b, n3[0].x, n3[1].x, n3[2].x), interpolate(b, n3[0].y, n3[1].y, n3[2].y),
                         interpolate(b, n3[0].z, n3[1].z, n3[2].z)};
    const glm::mat3& r = f.rotation; // rows right, up, forward, as rotate() reads them
    const Vec3Lanes<F> c{F(r[0][0]) * n.x + F(r[1][0]) * n.y + F(r[2][0]) * n.z,
                         F(r[0][1]) * n.x + F(r[1][1]) * n.y + F(r[2][1]) * n.z,
                         F(r[0][2]) * n.x + F(r[1][2]) * n.y + F(r[2][2]) * n.z};
    const Vec3Lanes<F> ray{x * F(f.rayScale.x) + F(f.rayOffset.x), y * F(f.rayScale.y) + F(f.rayOffset.y), F(1.0f)};
    const F length2 = c.x * c.x + c.y * c.y + c.z * c.z;
    const F toUnit = F(1.0f) / laneSqrt(length2);
    const F back = F(-1.0f) / laneSqrt(ray.x * ray.x + ray.y * ray.y + ray.z * ray.z);
    Vec3Lanes<F> u = select3(length2 > F(0.0f), Vec3Lanes<F>{c.x * toUnit, c.y * toUnit, c.z * toUnit},
                             Vec3Lanes<F>{ray.x * back, ray.y * back, ray.z * back});
    const F along = u.x * ray.x + u.y * ray.y + u.z * ray.z;
    u = select3(along > F(0.0f), Vec3Lanes<F>{-u.x, -u.y, -u.z}, u);
    normal = Vec3Lanes<F>{u.x, -u.y, u.z};
}

// The instance id of a winner set up as triangle `source` of the frame's draw order.
FACET_HD std::uint32_t instanceOf(const OutputFrame& f, std::uint32_t source) {
    const InstanceDraw* draws = f.instances;
    return draws[instanceHolding(f.instanceCount, source, [draws](std::uint32_t k) { return draws[k].firstTriangle; })]
        .id;
}

// A pixel's outputs: those the frame asks for (the others are not written to the target).
struct OutputPixel {
    float metricDepth = 0.0f;
    std::uint32_t instance = 0;
    glm::vec3 normal{0.0f};
};

// Pixel (x, y)'s outputs, from its winner.
FACET_HD OutputPixel outputPixel(const OutputFrame& f, const OutputWinner& w, int x, int y) {
    OutputPixel p;
    if (f.outputs.metricDepth || f.outputs.normal) {
        Vec3Lanes<float> n;
        surfaceOutputs(f, winnerLanes<float>(*w.tri, *w.attributes), float(x), float(y), p.metricDepth, n);
        p.normal = {n.x, n.y, n.z};
    }
    if (f.outputs.instance) p.instance = instanceOf(f, w.source);
    return p;
}

} // namespace facet
