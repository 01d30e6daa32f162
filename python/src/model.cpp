// facet.Model: a loaded or hand-made mesh with its materials and textures, immutable from
// Python (renderers read it from other threads). facet.load turns loader warnings into Python
// warnings at the file and line they concern; Model.from_arrays takes NumPy arrays as they are.
#include "bindings.h"

#include "asset/image.h"
#include "asset/load_model.h"
#include "asset/model.h"
#include "core/error.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>

namespace facet::python {

void emitWarnings(const std::vector<Warning>& warnings) {
    const py::object category = py::module_::import("facet._facet").attr("LoadWarning");
    for (const Warning& w : warnings) {
        const py::str message(w.message), file(w.file);
        if (PyErr_WarnExplicitObject(category.ptr(), message.ptr(), file.ptr(), static_cast<int>(w.line), nullptr,
                                     nullptr) != 0)
            throw py::error_already_set();
    }
}

namespace {

Model load(const std::filesystem::path& path) {
    Model model;
    {
        py::gil_scoped_release release;
        model = loadModel(path);
    }
    emitWarnings(model.warnings);
    return model;
}

// Columns of an (N, k) float32 array into the mesh's per-component arrays.
void splitColumns(const py::array_t<float>& a, std::initializer_list<std::vector<float>*> columns) {
    const auto n = static_cast<std::size_t>(a.shape(0));
    const std::size_t k = columns.size();
    const float* data = a.data();
    std::size_t c = 0;
    for (std::vector<float>* column : columns) {
        column->resize(n);
        for (std::size_t i = 0; i < n; ++i) (*column)[i] = data[i * k + c];
        ++c;
    }
}

// The mesh's per-component arrays as one (N, k) float32 array.
py::array_t<float> joinColumns(std::initializer_list<const std::vector<float>*> columns) {
    const std::size_t n = (*columns.begin())->size(), k = columns.size();
    py::array_t<float> out({py::ssize_t(n), py::ssize_t(k)});
    float* data = out.mutable_data();
    std::size_t c = 0;
    for (const std::vector<float>* column : columns) {
        for (std::size_t i = 0; i < n; ++i) data[i * k + c] = (*column)[i];
        ++c;
    }
    return out;
}

// An (H, W, 3|4) uint8 image, top row first, as a mip-mapped texture.
Texture textureFrom(py::handle value) {
    const auto a = requireArray<std::uint8_t>(value, "texture", {kAny, kAny, kAny});
    const py::ssize_t channels = a.shape(2);
    if ((channels != 3 && channels != 4) || a.shape(0) < 1 || a.shape(1) < 1)
        throw py::value_error("texture must be a uint8 array of shape (H, W, 3) or (H, W, 4) with H, W >= 1, got (" +
                              std::to_string(a.shape(0)) + ", " + std::to_string(a.shape(1)) + ", " +
                              std::to_string(channels) + ")");
    Image image{static_cast<std::uint32_t>(a.shape(1)), static_cast<std::uint32_t>(a.shape(0)), {}};
    image.pixels.resize(std::size_t(image.width) * image.height);
    const std::uint8_t* p = a.data();
    for (std::uint32_t& pixel : image.pixels) {
        const std::uint32_t alpha = channels == 4 ? p[3] : 255u;
        pixel = std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 | alpha << 24;
        p += channels;
    }
    return makeTexture(image, "texture array");
}

// As the OBJ loader does with a vertex it cannot place: triangles using a position that is not
// finite are dropped, with one warning naming the first such row and the counts.
void dropNonFiniteTriangles(Model& model) {
    Mesh& mesh = model.mesh;
    std::vector<bool> bad(mesh.vertexCount());
    std::size_t badRows = 0, first = 0;
    for (std::size_t i = 0; i < mesh.vertexCount(); ++i) {
        bad[i] = !(std::isfinite(mesh.px[i]) && std::isfinite(mesh.py[i]) && std::isfinite(mesh.pz[i]));
        if (bad[i] && badRows++ == 0) first = i;
    }
    if (badRows == 0) return;
    std::vector<std::uint32_t> kept;
    for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3)
        if (!bad[mesh.indices[t]] && !bad[mesh.indices[t + 1]] && !bad[mesh.indices[t + 2]])
            kept.insert(kept.end(), mesh.indices.begin() + std::ptrdiff_t(t), mesh.indices.begin() + std::ptrdiff_t(t + 3));
    const std::size_t dropped = mesh.triangleCount() - kept.size() / 3;
    mesh.indices = std::move(kept);
    mesh.ranges = {MaterialRange{0, static_cast<std::uint32_t>(mesh.triangleCount()), 0}};
    model.warnings.push_back({model.source, 0,
                              "positions row " + std::to_string(first) + (badRows > 1 ? " (and " + std::to_string(badRows - 1) + " more)" : std::string()) +
                                  " has a non-finite coordinate; " +
                                  (dropped == 1 ? std::string("the 1 triangle using it is")
                                                : "the " + std::to_string(dropped) + " triangles using them are") +
                                  " dropped"});
}

Model fromArrays(py::handle positions, py::handle triangles, py::handle uv, py::handle normals, py::handle colors,
                 py::handle texture, const std::string& name) {
    const auto p = requireArray<float>(positions, "positions", {kAny, 3});
    const py::ssize_t n = p.shape(0);
    const auto t = requireArray<std::uint32_t>(triangles, "triangles", {kAny, 3});
    Model model;
    model.source = name;
    Mesh& mesh = model.mesh;
    splitColumns(p, {&mesh.px, &mesh.py, &mesh.pz});
    mesh.indices.assign(t.data(), t.data() + t.size());
    if (!uv.is_none())
        splitColumns(requireArray<float>(uv, "uv", {n, 2}), {&mesh.u, &mesh.v});
    else
        mesh.u.assign(std::size_t(n), 0.0f), mesh.v.assign(std::size_t(n), 0.0f);
    mesh.hasTexCoords = !uv.is_none();
    if (!colors.is_none()) splitColumns(requireArray<float>(colors, "colors", {n, 3}), {&mesh.cr, &mesh.cg, &mesh.cb});
    mesh.ranges.push_back({0, static_cast<std::uint32_t>(t.shape(0)), 0});
    model.materials.push_back(Material{"default", glm::vec3(0.8f), -1});
    if (!texture.is_none()) {
        model.textures.push_back(textureFrom(texture));
        model.materials[0].texture = 0;
        model.materials[0].diffuse = glm::vec3(1.0f); // the texture's own colours (Kd multiplies map_Kd)
        if (!mesh.hasTexCoords) model.warnings.push_back({name, 0, "a texture without uv cannot show"});
    }
    try {
        validateMesh(mesh, model.materials.size(), name); // indices within the vertices, before normals read them
        dropNonFiniteTriangles(model);
        if (!normals.is_none())
            splitColumns(requireArray<float>(normals, "normals", {n, 3}), {&mesh.nx, &mesh.ny, &mesh.nz});
        else
            generateNormals(mesh);
    } catch (const Error& e) {
        throw py::value_error(e.what());
    }
    computeBounds(mesh);
    model.fileCounts = {mesh.vertexCount(), uv.is_none() ? 0 : mesh.vertexCount(),
                        normals.is_none() ? 0 : mesh.vertexCount(), mesh.triangleCount()};
    emitWarnings(model.warnings);
    return model;
}

template <class T> py::bytes bytesOf(const std::vector<T>& v) {
    return py::bytes(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

template <class T> std::vector<T> vectorOf(const py::bytes& b) {
    const std::string s = b;
    std::vector<T> v(s.size() / sizeof(T));
    std::memcpy(v.data(), s.data(), v.size() * sizeof(T));
    return v;
}

using Floats = std::vector<float>;

// The whole model as plain values, so it pickles (Dask sends it to each worker once).
py::tuple pickleState(const Model& m) {
    const Mesh& s = m.mesh;
    py::list mesh, materials, textures, warnings;
    for (const Floats* f : {&s.px, &s.py, &s.pz, &s.u, &s.v, &s.nx, &s.ny, &s.nz, &s.cr, &s.cg, &s.cb})
        mesh.append(bytesOf(*f));
    mesh.append(bytesOf(s.indices));
    mesh.append(bytesOf(s.ranges));
    for (const Material& x : m.materials)
        materials.append(py::make_tuple(x.name, x.diffuse.x, x.diffuse.y, x.diffuse.z, x.texture));
    for (const Texture& x : m.textures) textures.append(py::make_tuple(x.source, bytesOf(x.texels), bytesOf(x.levels)));
    for (const Warning& x : m.warnings) warnings.append(py::make_tuple(x.file, x.line, x.message));
    const FileCounts& c = m.fileCounts;
    return py::make_tuple(m.source, py::make_tuple(c.positions, c.texcoords, c.normals, c.faces), mesh, s.hasTexCoords,
                          materials, textures, warnings);
}

Model unpickleState(const py::tuple& t) {
    if (t.size() != 7) throw py::value_error("not a pickled facet.Model");
    Model m;
    m.source = t[0].cast<std::string>();
    const auto c = t[1].cast<std::tuple<std::size_t, std::size_t, std::size_t, std::size_t>>();
    m.fileCounts = {std::get<0>(c), std::get<1>(c), std::get<2>(c), std::get<3>(c)};
    const auto mesh = t[2].cast<py::list>();
    Mesh& s = m.mesh;
    std::size_t i = 0;
    for (Floats* f : {&s.px, &s.py, &s.pz, &s.u, &s.v, &s.nx, &s.ny, &s.nz, &s.cr, &s.cg, &s.cb})
        *f = vectorOf<float>(mesh[i++]);
    s.indices = vectorOf<std::uint32_t>(mesh[i++]);
    s.ranges = vectorOf<MaterialRange>(mesh[i++]);
    s.hasTexCoords = t[3].cast<bool>();
    for (const auto x : t[4].cast<py::list>()) {
        const auto v = x.cast<std::tuple<std::string, float, float, float, std::int32_t>>();
        m.materials.push_back({std::get<0>(v), {std::get<1>(v), std::get<2>(v), std::get<3>(v)}, std::get<4>(v)});
    }
    for (const auto x : t[5].cast<py::list>()) {
        const auto v = x.cast<py::tuple>();
        m.textures.push_back({v[0].cast<std::string>(), vectorOf<std::uint32_t>(v[1]), vectorOf<MipLevel>(v[2])});
    }
    for (const auto x : t[6].cast<py::list>()) {
        const auto v = x.cast<std::tuple<std::string, std::size_t, std::string>>();
        m.warnings.push_back({std::get<0>(v), std::get<1>(v), std::get<2>(v)});
    }
    computeBounds(s);
    validateMesh(s, m.materials.size(), m.source);
    return m;
}

py::tuple boundsOf(const Model& m) {
    const Bounds& b = m.mesh.bounds;
    if (b.empty()) return py::make_tuple(py::none(), py::none());
    return py::make_tuple(py::make_tuple(b.min.x, b.min.y, b.min.z), py::make_tuple(b.max.x, b.max.y, b.max.z));
}

} // namespace

void bindModel(py::module_& m) {
    // Held by a shared pointer, which a facet.Scene shares to keep its meshes without copies.
    py::class_<Model, std::shared_ptr<Model>>(
        m, "Model", "A mesh with its materials and textures (immutable); see facet.load and Model.from_arrays.")
        .def_static("from_arrays", &fromArrays, py::arg("positions"), py::arg("triangles"), py::arg("uv") = py::none(),
                    py::arg("normals") = py::none(), py::arg("colors") = py::none(), py::arg("texture") = py::none(),
                    py::arg("name") = "from_arrays",
                    "A model from (N, 3) float32 positions and (M, 3) uint32 triangles, with optional (N, 2) float32 "
                    "uv, (N, 3) float32 normals (else area-weighted), (N, 3) float32 vertex colours in [0, 1], and an "
                    "(H, W, 3|4) uint8 texture (top row first, as images are stored).")
        .def_readonly("source", &Model::source)
        .def_property_readonly("vertex_count", [](const Model& x) { return x.mesh.vertexCount(); })
        .def_property_readonly("triangle_count", [](const Model& x) { return x.mesh.triangleCount(); })
        .def_property_readonly("material_count", [](const Model& x) { return x.materials.size(); })
        .def_property_readonly("texture_count", [](const Model& x) { return x.textures.size(); })
        .def_property_readonly(
            "positions",
            [](const Model& x) {
                return joinColumns({&x.mesh.px, &x.mesh.py, &x.mesh.pz});
            },
            "(N, 3) float32, a copy")
        .def_property_readonly(
            "normals",
            [](const Model& x) {
                return joinColumns({&x.mesh.nx, &x.mesh.ny, &x.mesh.nz});
            },
            "(N, 3) float32, a copy")
        .def_property_readonly(
            "uv",
            [](const Model& x) {
                return joinColumns({&x.mesh.u, &x.mesh.v});
            },
            "(N, 2) float32, a copy")
        .def_property_readonly(
            "triangles",
            [](const Model& x) {
                py::array_t<std::uint32_t> out({py::ssize_t(x.mesh.triangleCount()), py::ssize_t(3)});
                std::memcpy(out.mutable_data(), x.mesh.indices.data(), x.mesh.indices.size() * sizeof(std::uint32_t));
                return out;
            },
            "(M, 3) uint32, a copy")
        .def_property_readonly("bounds", &boundsOf, "((min x, y, z), (max x, y, z)), or (None, None) when empty")
        .def_property_readonly("warnings",
                               [](const Model& x) {
                                   std::vector<std::string> out;
                                   for (const Warning& w : x.warnings) out.push_back(w.toString());
                                   return out;
                               })
        .def("__repr__",
             [](const Model& x) {
                 return "<facet.Model '" + x.source + "': " + std::to_string(x.mesh.vertexCount()) + " vertices, " +
                        std::to_string(x.mesh.triangleCount()) + " triangles, " + std::to_string(x.materials.size()) +
                        " materials>";
             })
        .def(py::pickle(&pickleState, &unpickleState));
    m.def("load", &load, py::arg("path"),
          "Loads a mesh (OBJ with its MTL and textures). Loader warnings become facet.LoadWarning warnings at the "
          "file and line they concern; a rejected file raises facet.ParseError with .file and .line.");
    m.attr("model_extensions") = modelExtensions();
}

} // namespace facet::python
