// The camera convention, identical to OpenGL with glm::lookAt + glm::perspective:
// right-handed world, +Y up; yaw = pitch = 0 looks down -Z; positive yaw turns left (about +Y),
// positive pitch looks up (about the camera's right axis); fov is vertical, in degrees.
// The vertex stage sees d = R (v - eye) with R's rows right, up, forward, so d.z > 0 in front;
// x_ndc = (focus / aspect) d.x / d.z and y_ndc = focus d.y / d.z with focus = 1 / tan(fov / 2).
#pragma once

#include "core/mesh.h"
#include "core/transform.h"

#include <vector>

namespace facet {

struct Camera {
    static constexpr float kMaxPitchDegrees = 89.0f;

    glm::vec3 eye{0.0f, 0.0f, 0.0f};
    float yawDegrees = 0.0f;
    float pitchDegrees = 0.0f;
    float fovYDegrees = 60.0f;
    float nearPlane = 0.1f;
    float farPlane = 1000.0f;

    glm::vec3 forward() const;
    glm::vec3 right() const;
    glm::vec3 up() const;
    glm::mat3 rotation() const; // rows: right, up, forward
    float focus() const;

    // Throws facet::Error naming the offending value (non-finite eye, fov outside (0, 180),
    // near <= 0, far <= near, pitch beyond the clamp).
    void validate() const;

    // The vertex stage's parameters for an image of the given aspect ratio (width / height > 0).
    ViewParams view(float aspect) const;

    // Fly-camera moves: distances along the camera's right, up and forward axes, and turns in
    // degrees with pitch clamped short of +-90 so the view never flips.
    void moveLocal(float alongRight, float alongUp, float alongForward);
    void turn(float yawDeltaDegrees, float pitchDeltaDegrees);

    // A view of the whole mesh from the front, slightly above and to the right, as close as
    // its vertices allow in an image of the given aspect ratio (they fill 90% of the frame),
    // with near and far planes that enclose it. An empty mesh gives the default camera.
    // `coveredLeft`, in [0, 1): the share of the image's width, from its left edge, that
    // something hides (the viewer's panel); the mesh is framed in the rest, centred there, by
    // moving the eye sideways, so the view's direction stays that of the uncovered framing.
    static Camera framing(const Mesh& mesh, float aspect, float fovYDegrees = 60.0f, float coveredLeft = 0.0f);
    // The same for a set of points (a scene's instances' bounding-box corners).
    static Camera framing(const std::vector<glm::vec3>& points, float aspect, float fovYDegrees = 60.0f,
                          float coveredLeft = 0.0f);
};

} // namespace facet
