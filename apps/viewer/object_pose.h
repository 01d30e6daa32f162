// An object's pose as the panel edits it: a translation, Euler angles and a scale, composed
// into the 4x4 an Instance keeps. The fields are kept beside the scene rather than read back
// from the matrix each frame, since Euler angles recovered from a matrix jump (at +-90 degrees,
// or by 360) while the user drags them. No ImGui here, so the arithmetic is tested alone.
#pragma once

#include <glm/glm.hpp>

namespace facet::viewer {

struct ObjectPose {
    glm::vec3 translation{0.0f};
    glm::vec3 rotationDegrees{0.0f}; // about x, then y, then z (fixed axes)
    glm::vec3 scale{1.0f};           // per axis; negative mirrors
};

// T * Rz * Ry * Rx * S: scaled, then turned about x, y and z, then moved.
glm::mat4 composePose(const ObjectPose& pose);

// The fields of composePose that give `pose` back where it is a translation, a rotation and a
// scale along the object's axes (what composePose makes): a shear is lost. A mirror is given
// to the x scale.
ObjectPose decomposePose(const glm::mat4& pose);

// A scale that keeps the pose invertible (the renderer refuses a singular one): each factor at
// least kMinScale from 0, its sign kept.
inline constexpr float kMinScale = 1e-4f;
glm::vec3 invertibleScale(glm::vec3 scale);

} // namespace facet::viewer
