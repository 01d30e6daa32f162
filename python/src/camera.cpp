// facet.Camera: facet-render's camera (engine/core/camera.h): eye, yaw and pitch in degrees
// (yaw = pitch = 0 looks down -Z; positive yaw turns left, positive pitch looks up), vertical
// fov, near and far planes. Invalid values raise ValueError naming them.
#include "bindings.h"
#include "scene_binding.h"

#include "asset/model.h"
#include "core/camera.h"
#include "core/error.h"

#include <array>
#include <cmath>

namespace facet::python {

namespace {

using Vec3 = std::array<float, 3>;

glm::vec3 vec(const Vec3& v) { return {v[0], v[1], v[2]}; }
Vec3 tuple(glm::vec3 v) { return {v.x, v.y, v.z}; }

void validated(const Camera& c) {
    try {
        c.validate();
    } catch (const Error& e) {
        throw py::value_error(e.what());
    }
}

Camera make(const Vec3& eye, float yaw, float pitch, float fov, float nearPlane, float farPlane) {
    Camera c;
    c.eye = vec(eye);
    c.yawDegrees = yaw;
    c.pitchDegrees = pitch;
    c.fovYDegrees = fov;
    c.nearPlane = nearPlane;
    c.farPlane = farPlane;
    validated(c);
    return c;
}

float degrees(float radians) { return radians * (180.0f / 3.14159265358979323846f); }

// facet's camera has no roll: its right axis is horizontal, as glm::lookAt's with up = +Y.
// Any `up` that gives the same picture is accepted; one that would roll it is refused.
Camera lookAt(const Vec3& eye, const Vec3& target, const Vec3& up, float fov, float nearPlane, float farPlane) {
    const glm::vec3 d = vec(target) - vec(eye);
    const float length = glm::length(d);
    if (!(length > 0.0f) || !std::isfinite(length))
        throw py::value_error("look_at: target must differ from eye (both finite)");
    const glm::vec3 f = d / length;
    Camera c = make(eye, degrees(std::atan2(-f.x, -f.z)), degrees(std::asin(glm::clamp(f.y, -1.0f, 1.0f))), fov,
                    nearPlane, farPlane);
    const glm::vec3 side = glm::cross(f, vec(up));
    const float sideLength = glm::length(side);
    if (!(sideLength > 1e-6f) || std::abs(side.y) > 1e-4f * sideLength || glm::dot(c.up(), vec(up)) <= 0.0f)
        throw py::value_error("look_at: facet's camera has no roll, so up must lie in the vertical plane of the view "
                              "direction, pointing up (e.g. (0, 1, 0)), and not along the view direction");
    return c;
}

py::array_t<float> rotationArray(const Camera& c) {
    py::array_t<float> out({3, 3});
    const glm::mat3 r = c.rotation();
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) out.mutable_at(i, j) = r[j][i]; // glm is column-major
    return out;
}

std::string repr(const Camera& c) {
    return "facet.Camera(eye=(" + std::to_string(c.eye.x) + ", " + std::to_string(c.eye.y) + ", " +
           std::to_string(c.eye.z) + "), yaw=" + std::to_string(c.yawDegrees) +
           ", pitch=" + std::to_string(c.pitchDegrees) + ", fov=" + std::to_string(c.fovYDegrees) +
           ", near=" + std::to_string(c.nearPlane) + ", far=" + std::to_string(c.farPlane) + ")";
}

} // namespace

void bindCamera(py::module_& m) {
    py::class_<Camera>(m, "Camera", "facet-render's camera: eye, yaw/pitch in degrees, vertical fov, near/far.")
        .def(py::init(&make), py::arg("eye") = Vec3{0, 0, 0}, py::arg("yaw") = 0.0f, py::arg("pitch") = 0.0f,
             py::arg("fov") = 60.0f, py::arg("near") = 0.1f, py::arg("far") = 1000.0f)
        .def_static("look_at", &lookAt, py::arg("eye"), py::arg("target"), py::arg("up") = Vec3{0, 1, 0},
                    py::arg("fov") = 60.0f, py::arg("near") = 0.1f, py::arg("far") = 1000.0f,
                    "A camera at eye looking at target (as glm::lookAt; facet's camera has no roll).")
        .def_static(
            "framing",
            [](const Model& model, float aspect, float fov) { return Camera::framing(model.mesh, aspect, fov); },
            py::arg("model"), py::arg("aspect"), py::arg("fov") = 60.0f,
            "facet-render's default view of the whole model for an image of this aspect (width / height).")
        .def_static(
            "framing",
            [](const PyScene& scene, float aspect, float fov) { return sceneFraming(scene.scene, aspect, fov); },
            py::arg("scene"), py::arg("aspect"), py::arg("fov") = 60.0f,
            "The same over a scene's visible instances (a lone instance at the identity pose: its model's).")
        .def_property(
            "eye", [](const Camera& c) { return tuple(c.eye); }, [](Camera& c, const Vec3& v) { c.eye = vec(v); })
        .def_readwrite("yaw", &Camera::yawDegrees)
        .def_readwrite("pitch", &Camera::pitchDegrees)
        .def_readwrite("fov", &Camera::fovYDegrees)
        .def_readwrite("near", &Camera::nearPlane)
        .def_readwrite("far", &Camera::farPlane)
        .def_property_readonly("forward", [](const Camera& c) { return tuple(c.forward()); })
        .def_property_readonly("right", [](const Camera& c) { return tuple(c.right()); })
        .def_property_readonly("up", [](const Camera& c) { return tuple(c.up()); })
        .def_property_readonly("rotation", &rotationArray, "R: (3, 3) float32, rows right, up, forward")
        .def_property_readonly("focus", &Camera::focus, "1 / tan(fov / 2)")
        .def("__repr__", &repr)
        .def(py::pickle(
            [](const Camera& c) {
                return py::make_tuple(tuple(c.eye), c.yawDegrees, c.pitchDegrees, c.fovYDegrees, c.nearPlane,
                                      c.farPlane);
            },
            [](const py::tuple& t) {
                return make(t[0].cast<Vec3>(), t[1].cast<float>(), t[2].cast<float>(), t[3].cast<float>(),
                            t[4].cast<float>(), t[5].cast<float>());
            }));
}

} // namespace facet::python
