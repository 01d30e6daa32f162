// A mesh drawn at a pose, as the stages read it: the camera composed with the pose, so the
// vertex stage's arithmetic (d = R (v - eye), core/vertex_math.h) serves every instance
// unchanged. For a pose x -> A x + t (world from object),
//     R (A v + t - eye) = (R A) (v - A^-1 (eye - t)),
// so an instance's ViewParams has rotation R A and eye A^-1 (eye - t), in object space. Its
// normals go to world space by the inverse transpose of A, its tangents by A; a pose that turns
// space inside out (det A < 0) swaps each triangle's last two corners, so culling and the
// corners' order see the winding the mesh meant. An identity pose leaves the view as it is, so a
// model drawn as a one-instance scene rounds exactly as before.
#pragma once

#include "core/bounds.h"
#include "core/clip.h"
#include "core/transform.h"

#include <cstdint>

namespace facet {

// One instance as a frame draws it (Scene::frameInstances finds these).
struct InstanceDraw {
    ViewParams view;             // object space to camera space: the camera composed with the pose
    glm::mat3 normalMatrix{1.0f};  // object to world for normals: the inverse transpose of A
    glm::mat3 tangentMatrix{1.0f}; // object to world for tangents: A
    std::uint32_t mesh = 0;          // which of the scene's meshes
    std::uint32_t id = 0;            // the scene's instance id
    std::uint32_t firstVertex = 0;   // its first vertex in the frame's camera-space arrays
    std::uint32_t firstTriangle = 0; // its first triangle in the frame's draw order
    std::uint32_t materialBase = 0;  // its mesh's first material in the frame's material table
    bool posed = false;              // the pose is not the identity: normals and tangents move
    bool mirrored = false;           // det A < 0: corners 1 and 2 swap
};

// Whether `pose` is exactly the identity.
inline bool isIdentity(const glm::mat4& pose) { return pose == glm::mat4(1.0f); }

// The instance's view of `view` at `pose` (world from object; its last row 0 0 0 1), and its
// normal and tangent matrices. The pose must be finite with det A != 0 (Scene checks).
inline InstanceDraw placeInstance(const glm::mat4& pose, const ViewParams& view) {
    InstanceDraw d;
    d.view = view;
    if (isIdentity(pose)) return d;
    const glm::mat3 a(pose);
    const glm::vec3 t(pose[3]);
    d.posed = true;
    d.mirrored = glm::determinant(a) < 0.0f;
    d.view.rotation = view.rotation * a;
    d.view.eye = glm::inverse(a) * (view.eye - t);
    d.tangentMatrix = a;
    d.normalMatrix = glm::transpose(glm::inverse(a));
    return d;
}

// Whether the box `bounds` (object space) lies wholly outside one of the clip planes as seen
// through `view` (an instance's): then none of its triangles can draw, and its vertices are
// never touched. An empty box (bounds never computed, for a mesh built by hand) is not outside.
inline bool boundsOutside(const Bounds& bounds, const ViewParams& view, const ClipPlanes& planes) {
    if (bounds.empty()) return false;
    unsigned outAll = 0x1Fu;
    for (int c = 0; c < 8; ++c) {
        const glm::vec3 corner{(c & 1) ? bounds.max.x : bounds.min.x, (c & 2) ? bounds.max.y : bounds.min.y,
                               (c & 4) ? bounds.max.z : bounds.min.z};
        outAll &= outsideMask(planes, rotate(view.rotation, shift(corner, view.eye)));
        if (outAll == 0) return false;
    }
    return true;
}

// A normal or tangent direction moved to world space by `m`, unit length again (a zero one stays
// zero: the mesh had none there).
FACET_HD glm::vec3 posedDirection(const glm::mat3& m, glm::vec3 v) {
    const glm::vec3 w = m * v;
    const float length2 = w.x * w.x + w.y * w.y + w.z * w.z;
    return length2 > 0.0f ? w * (1.0f / sqrtf(length2)) : w;
}

// The instance that holds item i, of `count` instances whose first items rise (firstOf(k)):
// the last one starting at or before i, by bisection.
template <class FirstOf>
FACET_HD std::uint32_t instanceHolding(std::uint32_t count, std::uint32_t i, FirstOf firstOf) {
    std::uint32_t lo = 0, hi = count;
    while (hi - lo > 1) {
        const std::uint32_t mid = lo + (hi - lo) / 2;
        if (firstOf(mid) <= i)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

} // namespace facet
