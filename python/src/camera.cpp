// facet.Camera: facet-render's camera (engine/core/camera.h): eye, yaw and pitch in degrees
// (yaw = pitch = 0 looks down -Z; positive yaw turns left, positive pitch looks up), or an
// orientation given whole (look_at, a pose); vertical fov, or pixel intrinsics (K); near and far
// planes. Matrices are float32, row-major as NumPy prints them. Invalid values raise ValueError
// naming them.
#include "bindings.h"
#include "scene_binding.h"

#include "asset/model.h"
#include "core/camera.h"
#include "core/error.h"
#include "core/names.h"

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

// The camera placed(), with its lens and clip planes; the engine's refusals as ValueError.
template <class Place>
Camera withLens(Place placed, float fov, float nearPlane, float farPlane) {
    Camera c;
    try {
        c = placed();
    } catch (const Error& e) {
        throw py::value_error(e.what());
    }
    c.fovYDegrees = fov;
    c.nearPlane = nearPlane;
    c.farPlane = farPlane;
    validated(c);
    return c;
}

Camera lookAt(const Vec3& eye, const Vec3& target, const Vec3& up, float fov, float nearPlane, float farPlane) {
    return withLens([&] { return Camera::lookAt(vec(eye), vec(target), vec(up)); }, fov, nearPlane, farPlane);
}

PoseConvention conventionOf(const std::string& name) {
    if (const std::optional<PoseConvention> c = fromName<PoseConvention>(name)) return *c;
    throw py::value_error("convention must be " + nameChoices<PoseConvention>() + ", got '" + name + "'");
}

glm::mat4 poseFrom(py::handle value) { return matrix4From(value, "pose"); }

py::array_t<float> kArray(const Intrinsics& k) {
    py::array_t<float> out({3, 3});
    const float rows[3][3] = {{k.fx, 0.0f, k.cx}, {0.0f, k.fy, k.cy}, {0.0f, 0.0f, 1.0f}};
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) out.mutable_at(r, c) = rows[r][c];
    return out;
}

Camera fromIntrinsics(float fx, float fy, float cx, float cy, int width, int height, const py::object& pose,
                      const std::string& convention, float nearPlane, float farPlane) {
    const PoseConvention axes = conventionOf(convention);
    Camera c;
    try {
        c = Camera::fromIntrinsics(Intrinsics{fx, fy, cx, cy, width, height}, poseFrom(pose), axes);
    } catch (const Error& e) {
        throw py::value_error(e.what());
    }
    c.nearPlane = nearPlane;
    c.farPlane = farPlane;
    validated(c);
    return c;
}

Camera fromPose(const py::object& pose, const std::string& convention, float fov, float nearPlane, float farPlane) {
    const PoseConvention axes = conventionOf(convention);
    return withLens([&] { return Camera::fromPose(poseFrom(pose), axes); }, fov, nearPlane, farPlane);
}

// Runs f, a Camera method that may throw facet::Error, raising ValueError instead.
template <class F>
auto checked(F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const Error& e) {
        throw py::value_error(e.what());
    }
}

py::array_t<float> rotationArray(const Camera& c) {
    py::array_t<float> out({3, 3});
    const glm::mat3 r = c.rotation();
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) out.mutable_at(i, j) = r[j][i]; // glm is column-major
    return out;
}

py::tuple picklable(const Camera& c) {
    py::object orientation = py::none(), intrinsics = py::none();
    if (c.orientation) orientation = rotationArray(c);
    if (c.intrinsics) {
        const Intrinsics& k = *c.intrinsics;
        intrinsics = py::make_tuple(k.fx, k.fy, k.cx, k.cy, k.width, k.height);
    }
    return py::make_tuple(tuple(c.eye), c.yawDegrees, c.pitchDegrees, c.fovYDegrees, c.nearPlane, c.farPlane,
                          orientation, intrinsics, nameOf(c.convention));
}

Camera unpickled(const py::tuple& t) {
    Camera c = make(t[0].cast<Vec3>(), t[1].cast<float>(), 0.0f, t[3].cast<float>(), t[4].cast<float>(),
                    t[5].cast<float>());
    c.pitchDegrees = t[2].cast<float>();
    if (t.size() > 6) { // pickles from before orientations and intrinsics hold six values
        if (!t[6].is_none()) {
            const auto m = matrixFrom<3, 3>(t[6], "orientation");
            glm::mat3 r;
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j) r[j][i] = m[i][j];
            c.orientation = r;
        }
        if (!t[7].is_none()) {
            const auto k = t[7].cast<py::tuple>();
            c.intrinsics = Intrinsics{k[0].cast<float>(), k[1].cast<float>(), k[2].cast<float>(),
                                      k[3].cast<float>(), k[4].cast<int>(),   k[5].cast<int>()};
        }
        c.convention = conventionOf(t[8].cast<std::string>());
    }
    validated(c);
    return c;
}

std::string repr(const Camera& c) {
    const glm::vec2 yp = c.yawPitch();
    std::string lens = "fov=" + std::to_string(c.fovYDegrees);
    if (c.intrinsics) {
        const Intrinsics& k = *c.intrinsics;
        lens = "fx=" + std::to_string(k.fx) + ", fy=" + std::to_string(k.fy) + ", cx=" + std::to_string(k.cx) +
               ", cy=" + std::to_string(k.cy) + ", size=(" + std::to_string(k.width) + ", " +
               std::to_string(k.height) + ")";
    }
    return "facet.Camera(eye=(" + std::to_string(c.eye.x) + ", " + std::to_string(c.eye.y) + ", " +
           std::to_string(c.eye.z) + "), " + (c.orientation ? "oriented, " : "") + "yaw=" + std::to_string(yp.x) +
           ", pitch=" + std::to_string(yp.y) + ", " + lens + ", near=" + std::to_string(c.nearPlane) +
           ", far=" + std::to_string(c.farPlane) + ")";
}

} // namespace

void bindCamera(py::module_& m) {
    py::class_<Camera>(m, "Camera", "facet-render's camera: eye, yaw/pitch in degrees, vertical fov, near/far.")
        .def(py::init(&make), py::arg("eye") = Vec3{0, 0, 0}, py::arg("yaw") = 0.0f, py::arg("pitch") = 0.0f,
             py::arg("fov") = 60.0f, py::arg("near") = 0.1f, py::arg("far") = 1000.0f)
        .def_static("look_at", &lookAt, py::arg("eye"), py::arg("target"), py::arg("up") = Vec3{0, 1, 0},
                    py::arg("fov") = 60.0f, py::arg("near") = 0.1f, py::arg("far") = 1000.0f,
                    "A camera at eye looking at target, the picture's up as near up as the view allows (as "
                    "glm::lookAt: any up, so rolled and straight-down views too).")
        .def_static("from_intrinsics", &fromIntrinsics, py::arg("fx"), py::arg("fy"), py::arg("cx"), py::arg("cy"),
                    py::arg("width"), py::arg("height"), py::arg("pose") = py::none(),
                    py::arg("convention") = "opencv", py::kw_only(), py::arg("near") = 0.1f,
                    py::arg("far") = 1000.0f,
                    "A lens in pixels for a width x height image, as OpenCV's K (u = cx + fx X / Z, pixel centres "
                    "at whole numbers, row 0 at the top), at pose: camera to world, (4, 4), a rigid transform whose "
                    "axes are convention's ('opencv': +Y down, looking down +Z; 'opengl': +Y up, looking down -Z). "
                    "None: the identity.")
        .def_static("from_pose", &fromPose, py::arg("pose"), py::arg("convention") = "opencv", py::kw_only(),
                    py::arg("fov") = 60.0f, py::arg("near") = 0.1f, py::arg("far") = 1000.0f,
                    "A camera at pose (camera to world, as from_intrinsics') with a vertical field of view.")
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
        // A given orientation reads as its yaw and pitch; setting either folds it (Camera::fold: its roll is lost).
        .def_property(
            "yaw", [](const Camera& c) { return c.yawPitch().x; },
            [](Camera& c, float v) {
                c.fold();
                c.yawDegrees = v;
            })
        .def_property(
            "pitch", [](const Camera& c) { return c.yawPitch().y; },
            [](Camera& c, float v) {
                c.fold();
                c.pitchDegrees = v;
            })
        .def_property(
            "fov",
            [](const Camera& c) {
                return c.intrinsics ? 2.0f * std::atan(1.0f / c.focus()) * (180.0f / 3.14159265358979323846f)
                                    : c.fovYDegrees;
            },
            [](Camera& c, float v) {
                if (c.intrinsics)
                    throw py::value_error("this camera's lens is its intrinsics (K); make another camera to change it");
                c.fovYDegrees = v;
            },
            "vertical field of view in degrees (an intrinsic camera's, from fy and its height)")
        .def_readwrite("near", &Camera::nearPlane)
        .def_readwrite("far", &Camera::farPlane)
        .def_property_readonly("forward", [](const Camera& c) { return tuple(c.forward()); })
        .def_property_readonly("right", [](const Camera& c) { return tuple(c.right()); })
        .def_property_readonly("up", [](const Camera& c) { return tuple(c.up()); })
        .def_property_readonly("rotation", &rotationArray, "R: (3, 3) float32, rows right, up, forward")
        .def_property_readonly("focus", &Camera::focus, "1 / tan(fov / 2) (2 fy / height with intrinsics)")
        .def_property_readonly(
            "K",
            [](const Camera& c) {
                if (!c.intrinsics)
                    throw py::value_error("a camera made with a field of view has K only for an image size: "
                                          "camera.intrinsics_for(width, height)");
                return kArray(*c.intrinsics);
            },
            "(3, 3) float32: the intrinsics the camera was made with, exactly")
        .def_property_readonly(
            "size", [](const Camera& c) -> py::object {
                if (!c.intrinsics) return py::none();
                return py::make_tuple(c.intrinsics->width, c.intrinsics->height);
            },
            "(width, height) the intrinsics are for; None with a field of view")
        .def(
            "intrinsics_for",
            [](const Camera& c, int width, int height) { return kArray(checked([&] { return c.intrinsicsFor(width, height); })); },
            py::arg("width"), py::arg("height"),
            "K (3, 3) for a width x height image: K itself at its own size, scaled at another of its shape")
        .def_property(
            "convention", [](const Camera& c) { return std::string(nameOf(c.convention)); },
            [](Camera& c, const std::string& v) { c.convention = conventionOf(v); },
            "the axes .pose reports in: 'opencv' or 'opengl' (a camera's own: the convention it was made with)")
        .def_property_readonly(
            "pose", [](const Camera& c) { return matrix4Array(c.pose()); },
            "(4, 4) float32 camera to world, axes as .convention: exactly the pose the camera was made from")
        .def_property_readonly(
            "view_matrix", [](const Camera& c) { return matrix4Array(c.viewMatrix()); },
            "(4, 4) float32 world to camera in OpenGL's axes (glm::lookAt's)")
        .def(
            "projection",
            [](const Camera& c, int width, int height) {
                return matrix4Array(checked([&] { return c.projectionMatrix(width, height); }));
            },
            py::arg("width"), py::arg("height"),
            "(4, 4) float32 OpenGL projection for a width x height image (glm::perspective's, with the principal "
            "point): projection @ view_matrix @ (x, y, z, 1) is the clip position facet draws")
        .def("__repr__", &repr)
        .def(py::pickle(&picklable, &unpickled));
}

} // namespace facet::python
