// facet.Scene: models placed by 4x4 poses (world from object), each instance with an id, a name
// and a visible flag. A pose is any (4, 4) array-like of numbers, row-major as NumPy prints it
// (pose[r][c], the translation in the last column), turned into glm's column-major here and
// back; one the renderer could not draw is refused at once with ValueError. facet.load_scene
// reads files as scenes.
#include "scene_binding.h"

#include "asset/load_model.h"
#include "core/error.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace facet::python {

PyScene::PyScene(Scene loaded) : scene(std::move(loaded)) {
    for (std::uint32_t i = 0; i < scene.meshes.size(); ++i) {
        // facet.Model is immutable from Python: nothing writes through the pointer made mutable
        // here, which only pybind11's holder type (shared_ptr<Model>) needs.
        models.push_back(std::const_pointer_cast<Model>(scene.meshes[i]));
        meshIndex_.emplace(models.back().get(), i);
    }
}

std::uint32_t PyScene::meshOf(const std::shared_ptr<Model>& model) {
    const auto found = meshIndex_.find(model.get());
    if (found != meshIndex_.end()) return found->second;
    const std::uint32_t index = scene.addMesh(model);
    models.push_back(model);
    meshIndex_.emplace(model.get(), index);
    return index;
}

Scene frameCopy(const PyScene& scene) {
    Scene copy;
    copy.meshes = scene.scene.meshes;
    copy.instances = scene.scene.instances;
    return copy;
}

namespace {

// A pose from Python: None is the identity. Refuses, naming the problem, what the renderer
// would refuse at its frame (the engine's checkPose in asset/scene.cpp): a wrong shape, a value
// that is not finite, a last row other than 0 0 0 1, a singular 3x3 part.
glm::mat4 poseFrom(py::handle value) {
    if (value.is_none()) return glm::mat4(1.0f);
    const glm::mat4 pose = matrix4From(value, "pose (world from object)");
    if (pose[0][3] != 0.0f || pose[1][3] != 0.0f || pose[2][3] != 0.0f || pose[3][3] != 1.0f)
        throw py::value_error("pose's last row must be 0, 0, 0, 1 (an affine placement), got " +
                              std::string(py::str(py::repr(matrix4Array(pose)[py::int_(3)]))));
    const glm::mat3 m(pose);
    const float scale = glm::length(m[0]) * glm::length(m[1]) * glm::length(m[2]);
    if (!(std::fabs(glm::determinant(m)) > 1e-12f * scale) || !(scale > 0.0f))
        throw py::value_error("pose's 3x3 part must be invertible, got a singular one (it flattens the mesh)");
    return pose;
}

Instance& instanceOf(PyScene& s, std::uint32_t id) {
    if (Instance* i = s.scene.find(id)) return *i;
    throw py::key_error("no instance with id " + std::to_string(id) + " in the scene");
}

std::uint32_t add(PyScene& s, const std::shared_ptr<Model>& model, py::handle pose,
                  const std::optional<std::string>& name) {
    if (!model) throw py::type_error("add expects a facet.Model, got None");
    const glm::mat4 p = poseFrom(pose);
    if (name && name->empty()) throw py::value_error("name must not be empty (None: the model's file name)");
    return s.scene.add(s.meshOf(model), p, name.value_or(std::string()));
}

PyScene loadScenePaths(const py::handle& paths) {
    std::vector<std::filesystem::path> list;
    if (py::isinstance<py::str>(paths) || py::hasattr(paths, "__fspath__"))
        list.push_back(paths.cast<std::filesystem::path>());
    else
        list = paths.cast<std::vector<std::filesystem::path>>();
    Scene scene;
    {
        py::gil_scoped_release release;
        scene = loadScene(list);
    }
    emitWarnings(scene.warnings);
    return PyScene(std::move(scene));
}

py::tuple boundsOf(const Scene& scene) {
    const Bounds b = scene.bounds();
    if (b.empty()) return py::make_tuple(py::none(), py::none());
    return py::make_tuple(py::make_tuple(b.min.x, b.min.y, b.min.z), py::make_tuple(b.max.x, b.max.y, b.max.z));
}

// The scene as plain values, so it pickles: each mesh once (a facet.Model, which pickles
// itself), then the instances naming them by index.
py::tuple pickleState(const PyScene& s) {
    py::list models, instances, warnings;
    for (const auto& model : s.models) models.append(py::cast(model));
    for (const Instance& i : s.scene.instances)
        instances.append(py::make_tuple(i.mesh, matrix4Array(i.pose), i.visible, i.id, i.name));
    for (const Warning& w : s.scene.warnings) warnings.append(py::make_tuple(w.file, w.line, w.message));
    py::list cameras;
    for (const SceneCamera& c : s.scene.cameras)
        cameras.append(py::make_tuple(c.name, matrix4Array(c.pose), c.yfov, c.aspect, c.znear, c.zfar));
    return py::make_tuple(models, instances, warnings, cameras);
}

PyScene unpickleState(const py::tuple& t) {
    if (t.size() != 3 && t.size() != 4) throw py::value_error("not a pickled facet.Scene"); // 3: before cameras
    PyScene s;
    for (const auto model : t[0].cast<py::list>()) s.meshOf(model.cast<std::shared_ptr<Model>>());
    for (const auto x : t[1].cast<py::list>()) {
        const auto v = x.cast<py::tuple>();
        Instance i;
        i.mesh = v[0].cast<std::uint32_t>();
        i.pose = poseFrom(v[1]);
        i.visible = v[2].cast<bool>();
        i.id = v[3].cast<std::uint32_t>();
        i.name = v[4].cast<std::string>();
        if (i.mesh >= s.models.size() || i.id == 0 || s.scene.find(i.id))
            throw py::value_error("not a pickled facet.Scene: instance " + std::to_string(i.id) + " is not valid");
        s.scene.instances.push_back(std::move(i)); // with its id: Scene::add numbers on after the highest
    }
    for (const auto x : t[2].cast<py::list>()) {
        const auto v = x.cast<std::tuple<std::string, std::size_t, std::string>>();
        s.scene.warnings.push_back({std::get<0>(v), std::get<1>(v), std::get<2>(v)});
    }
    if (t.size() == 4)
        for (const auto x : t[3].cast<py::list>()) {
            const auto v = x.cast<py::tuple>();
            s.scene.cameras.push_back(SceneCamera{v[0].cast<std::string>(), poseFrom(v[1]), v[2].cast<float>(),
                                                  v[3].cast<float>(), v[4].cast<float>(), v[5].cast<float>()});
        }
    return s;
}

std::string repr(const PyScene& s) {
    return "<facet.Scene: " + std::to_string(s.scene.instances.size()) + " instances of " +
           std::to_string(s.models.size()) + " meshes, " + std::to_string(s.scene.triangleCount()) +
           " triangles shown>";
}

void bindInstance(py::module_& m) {
    py::class_<Instance>(m, "Instance",
                         "One placement of a scene's mesh, as it was when read (a copy: change the scene through "
                         "Scene.set_pose and Scene.set_visible).")
        .def_readonly("id", &Instance::id)
        .def_readonly("name", &Instance::name)
        .def_readonly("mesh", &Instance::mesh, "the index of its model in Scene.meshes")
        .def_readonly("visible", &Instance::visible)
        .def_property_readonly(
            "pose", [](const Instance& i) { return matrix4Array(i.pose); },
            "(4, 4) float32, world from object, pose[row][column] (the translation in the last column)")
        .def("__repr__", [](const Instance& i) {
            return "<facet.Instance " + std::to_string(i.id) + " '" + i.name + "': mesh " + std::to_string(i.mesh) +
                   (i.visible ? "" : ", hidden") + ">";
        });
}

} // namespace

void bindScene(py::module_& m) {
    bindInstance(m);
    py::class_<PyScene>(m, "Scene",
                        "Models placed by 4x4 poses (world from object), each instance with an id, a name and a "
                        "visible flag. A model added twice is one mesh, drawn twice.")
        .def(py::init<>())
        .def("add", &add, py::arg("model"), py::arg("pose") = py::none(), py::arg("name") = py::none(),
             "Places model at pose, a (4, 4) array-like, world from object, pose[row][column] with the translation "
             "in the last column (None: the identity); returns the new instance's id. The name defaults to the "
             "model's file name.")
        .def(
            "remove",
            [](PyScene& s, std::uint32_t id) {
                instanceOf(s, id); // KeyError when there is none
                s.scene.remove(id);
            },
            py::arg("id"), "Removes the instance (its model stays a mesh of the scene); KeyError when there is none.")
        .def(
            "set_pose", [](PyScene& s, std::uint32_t id, py::handle pose) { instanceOf(s, id).pose = poseFrom(pose); },
            py::arg("id"), py::arg("pose"), "A new pose for the instance, as add's.")
        .def(
            "set_visible", [](PyScene& s, std::uint32_t id, bool visible) { instanceOf(s, id).visible = visible; },
            py::arg("id"), py::arg("visible"))
        .def(
            "instance", [](PyScene& s, std::uint32_t id) { return instanceOf(s, id); }, py::arg("id"),
            "The instance with this id (a copy); KeyError when there is none.")
        .def_property_readonly(
            "instances", [](const PyScene& s) { return s.scene.instances; }, "the instances in order (copies)")
        .def_property_readonly(
            "meshes", [](const PyScene& s) { return s.models; }, "the models the instances place, each once")
        .def_property_readonly(
            "triangle_count", [](const PyScene& s) { return s.scene.triangleCount(); }, "over the visible instances")
        .def_property_readonly(
            "bounds", [](const PyScene& s) { return boundsOf(s.scene); },
            "world-space ((min x, y, z), (max x, y, z)) of the visible instances, or (None, None)")
        .def_property_readonly("warnings",
                               [](const PyScene& s) {
                                   std::vector<std::string> out;
                                   for (const Warning& w : s.scene.warnings) out.push_back(w.toString());
                                   return out;
                               })
        .def_property_readonly(
            "cameras",
            [](const PyScene& s) {
                std::vector<Camera> out;
                for (std::size_t i = 0; i < s.scene.cameras.size(); ++i) out.push_back(sceneCamera(s.scene, i));
                return out;
            },
            "the file's cameras (glTF's perspective ones) as facet.Camera, in the file's order: each at its node's "
            "pose, with its field of view and clip planes (far enclosing the scene where the file gives none); the "
            "image's aspect ratio is the one rendered")
        .def_property_readonly(
            "camera_names",
            [](const PyScene& s) {
                std::vector<std::string> out;
                for (const SceneCamera& c : s.scene.cameras) out.push_back(c.name);
                return out;
            },
            "the names of `cameras`, in the same order")
        .def("__len__", [](const PyScene& s) { return s.scene.instances.size(); })
        .def("__repr__", &repr)
        .def(py::pickle(&pickleState, &unpickleState));
    m.def("load_scene", &loadScenePaths, py::arg("paths"),
          "Loads a file, or a list of files, as one scene: each .obj, .ply or .stl file one instance at the "
          "identity pose, named after the file. Warnings as facet.load's; facet.load still gives a Model.");
}

} // namespace facet::python
