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

float degrees(float radians) { return radians * (180.0f / 3.14159265358979323846f); }

std::string describe(glm::vec3 v) {
    std::ostringstream s;
    s << "(" << v.x << ", " << v.y << ", " << v.z << ")";
    return s.str();
}

glm::vec3 row(const glm::mat3& m, int i) { return {m[0][i], m[1][i], m[2][i]}; }

// Rows right, up, forward as the matrix R (glm is column-major: build columns, transpose).
glm::mat3 rows(glm::vec3 right, glm::vec3 up, glm::vec3 forward) { return glm::transpose(glm::mat3(right, up, forward)); }

// What keeps `r` from being a camera's rotation, or empty: its rows must be orthonormal within
// Camera::kRotationTolerance and must not mirror. Rows right, up, forward are a left-handed
// frame in facet's right-handed world (right x up = -forward), so a proper one has determinant
// -1; the message gives -det(R), the determinant of the pose's rotation as the user wrote it.
std::string notARotation(const glm::mat3& r) {
    float worst = 0.0f;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            const float v = r[0][i] * r[0][j] + r[1][i] * r[1][j] + r[2][i] * r[2][j];
            if (!std::isfinite(v)) return "has an entry that is not finite";
            worst = std::max(worst, std::abs(v - (i == j ? 1.0f : 0.0f)));
        }
    }
    std::ostringstream s;
    if (worst > Camera::kRotationTolerance) {
        s << "is not orthonormal: R R^T differs from the identity by " << worst << " (tolerance "
          << Camera::kRotationTolerance << "), so it scales or shears";
        return s.str();
    }
    if (glm::determinant(r) > 0.0f) {
        s << "mirrors (determinant " << -glm::determinant(r) << ")";
        return s.str();
    }
    return {};
}

} // namespace

glm::vec3 Camera::forward() const {
    if (orientation) return row(*orientation, 2);
    const float yaw = radians(yawDegrees), pitch = radians(pitchDegrees);
    return {-std::sin(yaw) * std::cos(pitch), std::sin(pitch), -std::cos(yaw) * std::cos(pitch)};
}

glm::vec3 Camera::right() const {
    if (orientation) return row(*orientation, 0);
    const float yaw = radians(yawDegrees);
    return {std::cos(yaw), 0.0f, -std::sin(yaw)};
}

glm::vec3 Camera::up() const { return orientation ? row(*orientation, 1) : glm::cross(right(), forward()); }

glm::mat3 Camera::rotation() const { return orientation ? *orientation : rows(right(), up(), forward()); }

float Camera::focus() const {
    if (intrinsics) return 2.0f * intrinsics->fy / static_cast<float>(intrinsics->height);
    return 1.0f / std::tan(radians(fovYDegrees) * 0.5f);
}

glm::vec2 Camera::yawPitch() const {
    if (!orientation) return {yawDegrees, pitchDegrees};
    const glm::vec3 f = forward(), r = right();
    // Straight up or down the forward axis has no heading; the right axis still has one.
    const float yaw = f.x * f.x + f.z * f.z > 1e-8f ? std::atan2(-f.x, -f.z) : std::atan2(-r.z, r.x);
    return {degrees(yaw), degrees(std::asin(std::clamp(f.y, -1.0f, 1.0f)))};
}

void Camera::validate() const {
    if (!std::isfinite(eye.x) || !std::isfinite(eye.y) || !std::isfinite(eye.z))
        throw Error("camera eye (" + std::to_string(eye.x) + ", " + std::to_string(eye.y) + ", " +
                    std::to_string(eye.z) + ") is not finite");
    if (orientation) {
        const std::string why = notARotation(*orientation);
        if (!why.empty()) throw Error("camera orientation " + why);
    } else {
        if (!std::isfinite(yawDegrees)) throw Error(describe("yaw is not finite:", yawDegrees));
        if (!(std::abs(pitchDegrees) <= kMaxPitchDegrees))
            throw Error(describe("pitch must lie within +-89 degrees, got", pitchDegrees));
    }
    if (intrinsics) {
        const Intrinsics& k = *intrinsics;
        if (!(k.fx > 0.0f && std::isfinite(k.fx))) throw Error(describe("intrinsics fx must be positive, got", k.fx));
        if (!(k.fy > 0.0f && std::isfinite(k.fy))) throw Error(describe("intrinsics fy must be positive, got", k.fy));
        if (!std::isfinite(k.cx)) throw Error(describe("intrinsics cx is not finite:", k.cx));
        if (!std::isfinite(k.cy)) throw Error(describe("intrinsics cy is not finite:", k.cy));
        if (k.width < 1 || k.height < 1)
            throw Error("camera intrinsics need an image of at least 1x1 pixels, got " + std::to_string(k.width) + "x" +
                        std::to_string(k.height));
    } else if (!(fovYDegrees > 0.0f && fovYDegrees < 180.0f)) {
        throw Error(describe("fov must lie strictly between 0 and 180 degrees, got", fovYDegrees));
    }
    if (!(nearPlane > 0.0f && std::isfinite(nearPlane)))
        throw Error(describe("near plane must be positive, got", nearPlane));
    if (!(farPlane > nearPlane && std::isfinite(farPlane)))
        throw Error(describe("far plane must be finite and beyond the near plane, got", farPlane));
}

ViewParams Camera::view(float aspect) const {
    validate();
    if (!(aspect > 0.0f && std::isfinite(aspect))) throw Error(describe("aspect ratio must be positive, got", aspect));
    if (!intrinsics) return ViewParams{eye, rotation(), focus(), aspect, nearPlane, farPlane};
    const Intrinsics& k = *intrinsics;
    const float own = static_cast<float>(k.width) / static_cast<float>(k.height);
    if (aspect != own) { // ratios of whole numbers: equal shapes give equal floats
        std::ostringstream s;
        s << "camera intrinsics are for a " << k.width << "x" << k.height << " image (aspect " << own
          << "); an image of aspect " << aspect << " would stretch them: render at a size of that shape";
        throw Error(s.str());
    }
    // u + 0.5 = cx + 0.5 + fx d.x / d.z is the window x (pixel centres at half-integers), and
    // x_ndc = 2 x / W - 1; rows run down, so y_ndc = 1 - 2 (cy + 0.5 - fy d.y / d.z) / H. In
    // double, so a centred lens ((W - 1) / 2) gives exactly 0.
    const double w = k.width, h = k.height;
    const float focus = static_cast<float>(2.0 * k.fy / h);
    ViewParams v{eye, rotation(), focus, focus / static_cast<float>(2.0 * k.fx / w), nearPlane, farPlane};
    v.principal = {static_cast<float>((2.0 * k.cx + 1.0 - w) / w), static_cast<float>((h - 2.0 * k.cy - 1.0) / h)};
    return v;
}

glm::mat4 Camera::pose(PoseConvention axes) const {
    const glm::vec3 r = right(), u = up(), f = forward();
    // Negation is exact, so a pose given in either convention comes back bit for bit.
    const bool cv = axes == PoseConvention::OpenCv;
    return glm::mat4(glm::vec4(r, 0.0f), glm::vec4(cv ? -u : u, 0.0f), glm::vec4(cv ? f : -f, 0.0f),
                     glm::vec4(eye, 1.0f));
}

glm::mat4 Camera::viewMatrix() const {
    const glm::vec3 r = right(), u = up(), b = -forward();
    glm::mat4 m(1.0f);
    for (int i = 0; i < 3; ++i) {
        m[i][0] = r[i];
        m[i][1] = u[i];
        m[i][2] = b[i];
    }
    m[3] = glm::vec4(-glm::dot(r, eye), -glm::dot(u, eye), -glm::dot(b, eye), 1.0f);
    return m;
}

glm::mat4 Camera::projectionMatrix(int width, int height) const {
    const ViewParams v = view(static_cast<float>(width) / static_cast<float>(height));
    // Clip x = kx d.x + px d.z with d = (x, y, -z) in OpenGL's axes and w = d.z; z as
    // glm::perspective's, so GL's window depth is windowDepth's.
    const double n = v.nearPlane, f = v.farPlane;
    glm::mat4 m(0.0f);
    m[0][0] = v.focus / v.aspect;
    m[1][1] = v.focus;
    m[2][0] = -v.principal.x;
    m[2][1] = -v.principal.y;
    m[2][2] = static_cast<float>(-(f + n) / (f - n));
    m[2][3] = -1.0f;
    m[3][2] = static_cast<float>(-2.0 * f * n / (f - n));
    return m;
}

Intrinsics Camera::intrinsicsFor(int width, int height) const {
    const ViewParams v = view(static_cast<float>(width) / static_cast<float>(height));
    if (intrinsics && intrinsics->width == width && intrinsics->height == height) return *intrinsics;
    // view()'s mapping backwards: fx = kx W / 2, cx = ((px + 1) W - 1) / 2, and for y likewise.
    const double w = width, h = height, kx = double(v.focus) / double(v.aspect);
    return Intrinsics{static_cast<float>(kx * w / 2.0), static_cast<float>(double(v.focus) * h / 2.0),
                      static_cast<float>(((v.principal.x + 1.0) * w - 1.0) / 2.0),
                      static_cast<float>(((1.0 - v.principal.y) * h - 1.0) / 2.0), width, height};
}

void Camera::moveLocal(float alongRight, float alongUp, float alongForward) {
    eye += alongRight * right() + alongUp * up() + alongForward * forward();
}

void Camera::turn(float yawDeltaDegrees, float pitchDeltaDegrees) {
    fold();
    yawDegrees = std::remainder(yawDegrees + yawDeltaDegrees, 360.0f);
    pitchDegrees = std::clamp(pitchDegrees + pitchDeltaDegrees, -kMaxPitchDegrees, kMaxPitchDegrees);
}

void Camera::fold() {
    if (!orientation) return;
    const glm::vec2 yp = yawPitch();
    yawDegrees = yp.x;
    pitchDegrees = std::clamp(yp.y, -kMaxPitchDegrees, kMaxPitchDegrees);
    orientation.reset();
}

Camera Camera::lookAt(glm::vec3 eye, glm::vec3 target, glm::vec3 up) {
    const glm::vec3 d = target - eye;
    const float length = glm::length(d);
    if (!(length > 0.0f) || !std::isfinite(length))
        throw Error("look-at target " + describe(target) + " must differ from the eye " + describe(eye) +
                    " (both finite)");
    const glm::vec3 f = d / length;
    const glm::vec3 side = glm::cross(f, up);
    const float upLength = glm::length(up), sideLength = glm::length(side);
    // |f x up| = |up| sin(angle): under 1e-6 of |up|, right would be noise.
    if (!(sideLength > 1e-6f * upLength) || !std::isfinite(sideLength))
        throw Error("look-at up " + describe(up) + " is parallel to the view direction " + describe(f) +
                    " (or zero): give another up");
    const glm::vec3 r = side / sideLength;
    Camera c;
    c.eye = eye;
    c.orientation = rows(r, glm::cross(r, f), f);
    c.validate();
    return c;
}

Camera Camera::fromPose(const glm::mat4& m, PoseConvention axes) {
    // glm is column-major: m[column][row].
    if (m[0][3] != 0.0f || m[1][3] != 0.0f || m[2][3] != 0.0f || m[3][3] != 1.0f) {
        std::ostringstream s;
        s << "pose's last row is (" << m[0][3] << ", " << m[1][3] << ", " << m[2][3] << ", " << m[3][3]
          << "), not (0, 0, 0, 1): not a rigid transform";
        throw Error(s.str());
    }
    const glm::vec3 x(m[0]), y(m[1]), z(m[2]);
    const bool cv = axes == PoseConvention::OpenCv;
    const glm::mat3 r = rows(x, cv ? -y : y, cv ? z : -z);
    const std::string why = notARotation(r);
    if (!why.empty()) throw Error("pose's rotation " + why + ": not a rigid transform");
    Camera c;
    c.eye = glm::vec3(m[3]);
    c.orientation = r;
    c.convention = axes;
    c.validate();
    return c;
}

Camera Camera::fromIntrinsics(const Intrinsics& k, const glm::mat4& cameraToWorld, PoseConvention axes) {
    Camera c = fromPose(cameraToWorld, axes);
    c.intrinsics = k;
    c.validate();
    return c;
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
