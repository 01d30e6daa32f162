// The camera convention, identical to OpenGL with glm::lookAt + glm::perspective:
// right-handed world, +Y up; yaw = pitch = 0 looks down -Z; positive yaw turns left (about +Y),
// positive pitch looks up (about the camera's right axis); fov is vertical, in degrees.
// The vertex stage sees d = R (v - eye) with R's rows right, up, forward, so d.z > 0 in front;
// x_ndc = (focus / aspect) d.x / d.z + principal.x and y_ndc = focus d.y / d.z + principal.y
// with focus = 1 / tan(fov / 2) and a principal point of (0, 0), unless pixel intrinsics say
// otherwise. A camera's orientation is its yaw and pitch, or a rotation given whole (look-at, a
// pose), which may roll or look straight down.
#pragma once

#include "core/mesh.h"
#include "core/transform.h"

#include <optional>
#include <vector>

namespace facet {

// The axes a camera-to-world pose's columns name. OpenCv: +X right, +Y down, looking down +Z
// (OpenCV, COLMAP). OpenGl: +X right, +Y up, looking down -Z (OpenGL, glTF, facet itself).
enum class PoseConvention { OpenCv, OpenGl };

// A pinhole lens in pixels for a width x height image, as OpenCV's K: a point (X, Y, Z) in
// OpenCV's camera axes lands at u = cx + fx X / Z, v = cy + fy Y / Z, with pixel centres at whole
// numbers: facet's pixel (i, j), row 0 at the top, is (u, v) = (i, j).
struct Intrinsics {
    float fx = 1.0f, fy = 1.0f, cx = 0.0f, cy = 0.0f;
    int width = 1, height = 1;
};

struct Camera {
    static constexpr float kMaxPitchDegrees = 89.0f;

    glm::vec3 eye{0.0f, 0.0f, 0.0f};
    float yawDegrees = 0.0f;
    float pitchDegrees = 0.0f;
    float fovYDegrees = 60.0f;
    float nearPlane = 0.1f;
    float farPlane = 1000.0f;
    // A rotation given whole, rows right, up, forward (world space): when set it is the camera's
    // orientation and yaw and pitch are unused until fold() turns it back into them.
    std::optional<glm::mat3> orientation;
    // A lens given in pixels: when set it replaces fovYDegrees (see view() for other sizes).
    std::optional<Intrinsics> intrinsics;
    // The axes pose() reports in, by default: the convention the camera was made with.
    PoseConvention convention = PoseConvention::OpenGl;

    // A rotation whose rows are more than this from orthonormal (any entry of R R^T - I), or
    // which mirrors, is refused.
    static constexpr float kRotationTolerance = 1e-4f;

    glm::vec3 forward() const;
    glm::vec3 right() const;
    glm::vec3 up() const;
    glm::mat3 rotation() const; // rows: right, up, forward
    float focus() const;        // y_ndc per unit of d.y / d.z: 1 / tan(fov / 2), or 2 fy / height
    // Yaw and pitch in degrees as turn() would fold them (the orientation's, without its roll;
    // pitch unclamped).
    glm::vec2 yawPitch() const;

    // Throws facet::Error naming the offending value (non-finite eye, fov outside (0, 180),
    // near <= 0, far <= near, pitch beyond the clamp, an orientation that is no rotation,
    // intrinsics with fx or fy <= 0 or an empty image).
    void validate() const;

    // The vertex stage's parameters for an image of the given aspect ratio (width / height > 0).
    // A camera with intrinsics draws the same picture at any size of its image's shape (K scaled
    // with the image, intrinsicsFor's); another shape would stretch it, and is refused.
    ViewParams view(float aspect) const;

    // Camera-to-world, columns the camera's axes in `axes`' convention and the eye: exactly the
    // pose the camera was made from. pose() uses the camera's own convention.
    glm::mat4 pose(PoseConvention axes) const;
    glm::mat4 pose() const { return pose(convention); }
    // World to camera in OpenGL's axes, as glm::lookAt's: the inverse of pose(OpenGl).
    glm::mat4 viewMatrix() const;
    // OpenGL's clip space from viewMatrix()'s, as glm::perspective's with the principal point's
    // offset: the matrix the OpenGL reference draws with, for a width x height image.
    glm::mat4 projectionMatrix(int width, int height) const;
    // The lens as pixel intrinsics for a width x height image: exactly `intrinsics` at its own
    // size, scaled at another of its shape; a field of view's square pixels, centred, otherwise.
    Intrinsics intrinsicsFor(int width, int height) const;

    // Fly-camera moves: distances along the camera's right, up and forward axes, and turns in
    // degrees with pitch clamped short of +-90 so the view never flips. turn() folds a given
    // orientation first (its roll is lost: the fly camera stays upright).
    void moveLocal(float alongRight, float alongUp, float alongForward);
    void turn(float yawDeltaDegrees, float pitchDeltaDegrees);
    // Replaces a given orientation by yawPitch() (pitch clamped to +-89); nothing otherwise.
    void fold();

    // At eye, looking at target, the image's up as near `up` as the view allows (glm::lookAt's
    // axes; any up, so rolled and straight-down views too). Throws naming the values when target
    // is the eye or up is parallel to the view direction.
    static Camera lookAt(glm::vec3 eye, glm::vec3 target, glm::vec3 up = {0.0f, 1.0f, 0.0f});
    // From a camera-to-world pose whose columns name `axes` (SceneCamera's: OpenGl). Throws
    // naming the value when the pose is not a rigid transform: a last row other than 0, 0, 0, 1,
    // a non-finite entry, a rotation beyond kRotationTolerance of orthonormal, or a mirror.
    static Camera fromPose(const glm::mat4& cameraToWorld, PoseConvention axes);
    // A lens in pixels at a pose (fromPose's); throws naming fx or fy <= 0 and the like.
    static Camera fromIntrinsics(const Intrinsics& k, const glm::mat4& cameraToWorld = glm::mat4(1.0f),
                                 PoseConvention axes = PoseConvention::OpenCv);

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
