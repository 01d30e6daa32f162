// The front of the CPU's triangle set-up, eight mesh triangles at a time in AVX2 lanes: what
// setupMeshTriangleIn and setupTriangle decide before a triangle's corners are copied (its
// corners' clip flags, its area's sign, culling, its pixel bounds, whether it is small, and the
// one-centre test of setupInBounds). Most of a dense mesh's triangles end there, and the scalar
// front cost about 150 instructions a triangle (its values spilled around the loop); the
// triangles it finds drawn are finished one by one (setUpReady), the rare rest (clipped, or one
// centre in bounds clamped to the target) left to setupMeshTriangleIn whole. Every decision
// equals setupTriangle's (tests/set_up_front_test.cpp); the bounds are found by the same
// template over the lane type (axisBounds, core/triangle_setup.h).
#pragma once

#include "core/triangle_stage.h"

#include <cstdint>

namespace facet {

// What the front found for mesh triangles first .. first + 7.
struct SetupFront8 {
    std::uint32_t ready = 0;  // bit k: triangle k is drawn, one set-up triangle, as found below
    std::uint32_t scalar = 0; // bit k: left to setupMeshTriangleIn (clipped, or a clamped centre)
    std::uint32_t small = 0;  // bit k: ScreenTriangle::small, where ready
    // Triangles in neither mask draw nothing: outside a plane, not finite, degenerate, culled,
    // offscreen, or missing the one pixel centre their bounds hold.
    alignas(32) std::int32_t minX[8], minY[8], maxX[8], maxY[8];
    alignas(32) std::int64_t area[8]; // edgeFunction(a, b, c)
};

// Whether setupFront8 may read `in`: its gathers index the projected vertices in 32-bit lanes,
// in units of 4 bytes, and read each vertex's clip flags as 4 bytes (`in.outside` holds 3 more).
bool setupFrontFits(const TriangleStageInput& in);

// The front for mesh triangles first .. first + 7, whose indices have been checked.
SetupFront8 setupFront8(const TriangleStageInput& in, std::uint32_t first);

// setupTriangle's result, Ok, for triangle k of a front that found it ready: the bounds it
// found, then setupInBounds, whose one-centre test the front has made.
inline void setUpReady(const TriangleStageInput& in, const std::uint32_t* corner, const SetupFront8& front, int k,
                       const TriangleSlot& place, bool gradients) {
    ScreenTriangle& tri = place.tri;
    tri.minX = front.minX[k];
    tri.minY = front.minY[k];
    tri.maxX = front.maxX[k];
    tri.maxY = front.maxY[k];
    tri.small = static_cast<std::uint8_t>(front.small >> k & 1u);
    setupInBounds(in.projected[corner[0]], in.projected[corner[1]], in.projected[corner[2]], front.area[k], tri,
                  place.attributes, gradients, false, front.minX[k], front.minY[k]);
}

} // namespace facet
