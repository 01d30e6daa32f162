#include "core/camera.h"

#include "core/error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace facet {

namespace {

float radians(float degrees) { return degrees * (3.14159265358979323846f / 180.0f); }

std::string describe(const char* what, float value) {
    std::ostringstream s;
    s << "camera " << what << " " << value;
    return s.str();
}

} // namespace

glm::vec3 Camera::forward() const {
    const float yaw = radians(yawDegrees), pitch = radians(pitchDegrees);
    return {-std::sin(yaw) * std::cos(pitch), std::sin(pitch), -std::cos(yaw) * std::cos(pitch)};
}

glm::vec3 Camera::right() const {
    const float yaw = radians(yawDegrees);
    return {std::cos(yaw), 0.0f, -std::sin(yaw)};
}

glm::vec3 Camera::up() const { return glm::cross(right(), forward()); }

glm::mat3 Camera::rotation() const {
    // glm is column-major: build the columns right|up|forward, then transpose so they are rows.
    return glm::transpose(glm::mat3(right(), up(), forward()));
}

float Camera::focus() const { return 1.0f / std::tan(radians(fovYDegrees) * 0.5f); }

void Camera::validate() const {
    if (!std::isfinite(eye.x) || !std::isfinite(eye.y) || !std::isfinite(eye.z))
        throw Error("camera eye (" + std::to_string(eye.x) + ", " + std::to_string(eye.y) + ", " +
                    std::to_string(eye.z) + ") is not finite");
    if (!std::isfinite(yawDegrees)) throw Error(describe("yaw is not finite:", yawDegrees));
    if (!(std::abs(pitchDegrees) <= kMaxPitchDegrees))
        throw Error(describe("pitch must lie within +-89 degrees, got", pitchDegrees));
    if (!(fovYDegrees > 0.0f && fovYDegrees < 180.0f))
        throw Error(describe("fov must lie strictly between 0 and 180 degrees, got", fovYDegrees));
    if (!(nearPlane > 0.0f && std::isfinite(nearPlane)))
        throw Error(describe("near plane must be positive, got", nearPlane));
    if (!(farPlane > nearPlane && std::isfinite(farPlane)))
        throw Error(describe("far plane must be finite and beyond the near plane, got", farPlane));
}

ViewParams Camera::view(float aspect) const {
    validate();
    if (!(aspect > 0.0f && std::isfinite(aspect))) throw Error(describe("aspect ratio must be positive, got", aspect));
    return ViewParams{eye, rotation(), focus(), aspect, nearPlane, farPlane};
}

void Camera::moveLocal(float alongRight, float alongUp, float alongForward) {
    eye += alongRight * right() + alongUp * up() + alongForward * forward();
}

void Camera::turn(float yawDeltaDegrees, float pitchDeltaDegrees) {
    yawDegrees = std::remainder(yawDegrees + yawDeltaDegrees, 360.0f);
    pitchDegrees = std::clamp(pitchDegrees + pitchDeltaDegrees, -kMaxPitchDegrees, kMaxPitchDegrees);
}

namespace {

// Camera::framing over `count` points, point(i) the i-th, in `bounds`.
template <class Point>
Camera framePoints(std::size_t count, Point point, const Bounds& bounds, float aspect, float fovY, float coveredLeft) {
    Camera camera;
    camera.fovYDegrees = fovY;
    camera.yawDegrees = 25.0f;
    camera.pitchDegrees = -20.0f;
    if (bounds.empty() || !(aspect > 0.0f)) return camera;
    if (!(coveredLeft >= 0.0f && coveredLeft < 1.0f))
        throw Error(describe("framing: the covered share of the image width must lie in [0, 1), got", coveredLeft));
    // Back away from the centre along -forward until every vertex lies inside 90% of the
    // uncovered part of the frustum, whose x in NDC spans [2c - 1, 1]: centre c, half-width
    // h = 1 - c. With the eye also moved by -s along right, s = c D / kx (the centre lands on
    // x = c), a vertex at (x, y, z) in camera axes has x_ndc - c = (kx x - c z) / (z + D), so
    // it needs D >= |kx x - c z| / (m h) - z, and for y, D >= |y| ky / m - z.
    constexpr float kMargin = 0.9f;
    const float ky = camera.focus(), kx = ky / aspect, c = coveredLeft, h = 1.0f - coveredLeft;
    const glm::vec3 centre = bounds.center(), right = camera.right(), up = camera.up(), fwd = camera.forward();
    float distance = 0.0f, nearest = std::numeric_limits<float>::max(), farthest = -nearest;
    for (std::size_t i = 0; i < count; ++i) {
        const glm::vec3 r = point(i) - centre;
        const float z = glm::dot(r, fwd);
        distance = std::max({distance, std::abs(kx * glm::dot(r, right) - c * z) / (kMargin * h) - z,
                             std::abs(glm::dot(r, up)) * ky / kMargin - z});
        nearest = std::min(nearest, z);
        farthest = std::max(farthest, z);
    }
    distance = std::max(distance, std::max(bounds.radius(), 1e-6f) * 1e-3f);
    camera.eye = centre - distance * fwd;
    if (c > 0.0f) camera.eye -= (c * distance / kx) * right;
    camera.nearPlane = std::max(nearest + distance, distance * 1e-3f) * 0.5f;
    camera.farPlane = (farthest + distance) * 2.0f;
    return camera;
}

} // namespace

Camera Camera::framing(const Mesh& mesh, float aspect, float fovY, float coveredLeft) {
    return framePoints(mesh.vertexCount(), [&](std::size_t i) { return mesh.position(i); }, mesh.bounds, aspect, fovY,
                       coveredLeft);
}

Camera Camera::framing(const std::vector<glm::vec3>& points, float aspect, float fovY, float coveredLeft) {
    Bounds bounds;
    for (const glm::vec3& p : points) bounds.extend(p);
    return framePoints(points.size(), [&](std::size_t i) { return points[i]; }, bounds, aspect, fovY, coveredLeft);
}

} // namespace facet
