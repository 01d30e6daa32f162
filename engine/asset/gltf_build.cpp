#include "asset/gltf_build.h"

#include "asset/bump_map.h"
#include "asset/gltf_access.h"
#include "asset/gltf_accessor.h"
#include "asset/image.h"
#include "asset/warning_log.h"
#include "core/error.h"
#include "core/lighting.h"
#include "core/mesh.h"

#include <tiny_gltf.h>

#include <algorithm>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>

namespace facet {

namespace {

namespace fs = std::filesystem;

constexpr std::uint32_t kNoMesh = 0xFFFFFFFFu;
constexpr std::size_t kMaxVertices = 0xFFFFFFFEu; // 32-bit indices

// A primitive's vertices and triangles before they join their mesh. Colours are sRGB-encoded
// (as facet's vertex colours are), v is flipped (facet's v = 0 is the picture's bottom row).
struct Primitive {
    std::vector<float> p, n, uv, color, tangent; // 3, 3, 2, 3 and 4 per vertex, or empty
    std::vector<std::uint32_t> triangles;
    std::size_t vertexCount() const { return p.size() / 3; }
};

// A Model being built from one glTF mesh, with the glTF materials and images it uses mapped
// to its own tables.
struct ModelState {
    Model model;
    std::unordered_map<int, std::uint32_t> materialOf; // glTF material (-1: none) -> model's
    std::map<std::tuple<int, Wrap, Wrap>, std::int32_t> textureOf; // glTF image and its wraps -> model's texture
    std::int32_t checker = -1;
    bool allTangents = true; // every primitive carried TANGENT
    bool colors = false;     // some primitive carried COLOR_0
    FileCounts file;         // the primitives' POSITION and NORMAL counts, before flat normals split vertices
};

std::string quoted(const std::string& name) { return name.empty() ? std::string() : " '" + name + "'"; }

bool finite3(const float* v) { return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]); }

// The corner indices of a primitive's triangles, by its mode (4, 5 or 6), as the spec orders
// them: a strip's odd triangles swap their last two corners to keep the winding.
std::vector<std::uint32_t> assemble(int mode, const std::vector<std::uint32_t>& idx) {
    std::vector<std::uint32_t> out;
    const std::size_t n = idx.size();
    if (mode == TINYGLTF_MODE_TRIANGLES) {
        out.assign(idx.begin(), idx.begin() + static_cast<std::ptrdiff_t>(n - n % 3));
        return out;
    }
    if (n < 3) return out;
    out.reserve(3 * (n - 2));
    for (std::size_t i = 0; i + 2 < n; ++i) {
        if (mode == TINYGLTF_MODE_TRIANGLE_FAN) out.insert(out.end(), {idx[i + 1], idx[i + 2], idx[0]});
        else if (i % 2 == 0) out.insert(out.end(), {idx[i], idx[i + 1], idx[i + 2]});
        else out.insert(out.end(), {idx[i], idx[i + 2], idx[i + 1]});
    }
    return out;
}

// A primitive without normals gets flat ones, as the spec asks: every corner its own vertex,
// its normal its triangle's.
void flatNormals(Primitive& prim) {
    Primitive out;
    const auto gather = [](const std::vector<float>& from, std::vector<float>& to, std::uint32_t v, std::size_t k) {
        if (!from.empty()) to.insert(to.end(), from.begin() + std::ptrdiff_t(v * k), from.begin() + std::ptrdiff_t((v + 1) * k));
    };
    for (std::size_t t = 0; t + 2 < prim.triangles.size(); t += 3) {
        const std::uint32_t* c = &prim.triangles[t];
        const glm::vec3 a(prim.p[3 * c[0]], prim.p[3 * c[0] + 1], prim.p[3 * c[0] + 2]);
        const glm::vec3 b(prim.p[3 * c[1]], prim.p[3 * c[1] + 1], prim.p[3 * c[1] + 2]);
        const glm::vec3 d(prim.p[3 * c[2]], prim.p[3 * c[2] + 1], prim.p[3 * c[2] + 2]);
        const glm::vec3 normal = unitVector(glm::cross(b - a, d - a)).value_or(glm::vec3(0.0f, 1.0f, 0.0f));
        for (int k = 0; k < 3; ++k) {
            gather(prim.p, out.p, c[k], 3);
            gather(prim.uv, out.uv, c[k], 2);
            gather(prim.color, out.color, c[k], 3);
            gather(prim.tangent, out.tangent, c[k], 4);
            out.n.insert(out.n.end(), {normal.x, normal.y, normal.z});
            out.triangles.push_back(static_cast<std::uint32_t>(out.triangles.size()));
        }
    }
    prim = std::move(out);
}

// Whether `pose` is one the vertex stage can draw (as frameInstances checks it).
bool drawablePose(const glm::mat4& pose) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (!std::isfinite(pose[c][r])) return false;
    const glm::mat3 a(pose);
    const float scale = glm::length(a[0]) * glm::length(a[1]) * glm::length(a[2]);
    return std::fabs(glm::determinant(a)) > 1e-12f * scale && scale > 0.0f;
}

template <int N>
glm::vec<N, float> factor(const std::vector<double>& values, float fallback) {
    glm::vec<N, float> out(fallback);
    if (values.size() == N)
        for (int i = 0; i < N; ++i) out[i] = std::isfinite(values[std::size_t(i)]) ? float(values[std::size_t(i)]) : fallback;
    return out;
}

float unitOr(double value, float fallback) {
    return std::isfinite(value) ? std::clamp(static_cast<float>(value), 0.0f, 1.0f) : fallback;
}

// Where a texture reads its coordinates: TEXCOORD_<set>, through KHR_texture_transform's offset,
// rotation and scale (uv' = T R S uv in glTF's uv space, v down, as the extension defines it).
// facet keeps one set of coordinates per vertex, so a primitive's are read and transformed as its
// material's first texture asks (uvOfMaterial), at load time: every path draws them alike.
struct TextureUv {
    int set = 0;
    glm::vec2 offset{0.0f}, scale{1.0f};
    float rotation = 0.0f;

    bool operator==(const TextureUv& o) const {
        return set == o.set && offset == o.offset && scale == o.scale && rotation == o.rotation;
    }
    bool moves() const { return offset != glm::vec2(0.0f) || scale != glm::vec2(1.0f) || rotation != 0.0f; }
    glm::vec2 apply(glm::vec2 uv) const {
        const float c = std::cos(rotation), s = std::sin(rotation);
        const glm::vec2 scaled = uv * scale;
        return {offset.x + c * scaled.x + s * scaled.y, offset.y - s * scaled.x + c * scaled.y};
    }
};

// The finite numbers of a JSON array of `n` numbers, or nothing.
template <int N>
std::optional<glm::vec<N, float>> numbers(const tinygltf::Value& v) {
    if (!v.IsArray() || v.ArrayLen() != N) return std::nullopt;
    glm::vec<N, float> out;
    for (int i = 0; i < N; ++i) {
        const tinygltf::Value& x = v.Get(i);
        if (!x.IsNumber() || !std::isfinite(x.GetNumberAsDouble())) return std::nullopt;
        out[i] = static_cast<float>(x.GetNumberAsDouble());
    }
    return out;
}

// A texture reference's coordinates; a KHR_texture_transform value of the wrong kind is left at
// its default.
template <class Info>
TextureUv textureUv(const Info& info) {
    TextureUv uv;
    uv.set = info.texCoord;
    const auto ext = info.extensions.find("KHR_texture_transform");
    if (ext == info.extensions.end()) return uv;
    const tinygltf::Value& t = ext->second;
    if (const auto offset = numbers<2>(t.Get("offset"))) uv.offset = *offset;
    if (const auto scale = numbers<2>(t.Get("scale"))) uv.scale = *scale;
    const tinygltf::Value& rotation = t.Get("rotation");
    if (rotation.IsNumber() && std::isfinite(rotation.GetNumberAsDouble()))
        uv.rotation = static_cast<float>(rotation.GetNumberAsDouble());
    if (t.Get("texCoord").IsInt()) uv.set = t.Get("texCoord").GetNumberAsInt();
    return uv;
}

class GltfBuilder {
public:
    GltfBuilder(const tinygltf::Model& doc, const std::string& file, const UriRule& rule, Scene& scene)
        : doc_(doc), file_(file), rule_(rule), scene_(scene), log_(scene.warnings), reader_(doc, file),
          meshOf_(doc.meshes.size()), images_(doc.images.size()), imageTried_(doc.images.size(), false) {}

    void build();

private:
    void warn(std::string message) { log_.add(WarningKind::Other, file_, 0, std::move(message)); }
    [[noreturn]] void fail(const std::string& what) const { throw ParseError(file_, 0, what); }

    std::vector<int> checkHierarchy();
    std::vector<int> sceneRoots(const std::vector<int>& parent);
    glm::mat4 localTransform(int node);
    void placeNode(int node, const glm::mat4& world);
    void addCamera(int camera, int node, const glm::mat4& world);

    std::uint32_t sceneMesh(int mesh);
    Model buildModel(int mesh);
    bool blended(int material) const;
    bool readPrimitive(int mesh, int index, Primitive& out);
    void readAttributes(const tinygltf::Primitive& prim, const std::string& path, std::size_t n, Primitive& out);
    TextureUv uvOfMaterial(int material) const;
    void appendPrimitive(ModelState& s, Primitive& prim, std::uint32_t material);
    void finishTangents(ModelState& s);

    std::uint32_t materialOf(ModelState& s, int material);
    Material convertMaterial(ModelState& s, int index);
    template <class Info>
    std::int32_t textureSlot(ModelState& s, const Info& info, bool color, const std::string& what, const TextureUv& uv);
    const Texture* decoded(int image);
    Wrap wrapOf(int value, int sampler, const char* axis);
    std::int32_t checker(ModelState& s);

    const tinygltf::Model& doc_;
    const std::string& file_;
    const UriRule& rule_;
    Scene& scene_;
    WarningLog log_;
    AccessorReader reader_;
    std::vector<std::optional<std::uint32_t>> meshOf_; // glTF mesh -> scene mesh (kNoMesh: nothing to draw)
    std::vector<std::optional<Texture>> images_;
    std::vector<bool> imageTried_;
    std::vector<bool> warnedCamera_;
    bool warnedWrap_ = false, warnedUv_ = false;
};

void GltfBuilder::build() {
    const std::vector<int> parent = checkHierarchy();
    warnedCamera_.assign(doc_.cameras.size(), false);
    std::vector<std::pair<int, glm::mat4>> stack; // depth first without recursion: a deep tree cannot overflow
    const std::vector<int> roots = sceneRoots(parent);
    for (auto r = roots.rbegin(); r != roots.rend(); ++r) stack.emplace_back(*r, glm::mat4(1.0f));
    std::vector<bool> seen(doc_.nodes.size(), false);
    while (!stack.empty()) {
        const auto [node, parentWorld] = stack.back();
        stack.pop_back();
        if (seen[std::size_t(node)]) continue; // a root listed twice
        seen[std::size_t(node)] = true;
        const glm::mat4 world = parentWorld * localTransform(node);
        placeNode(node, world);
        const std::vector<int>& children = doc_.nodes[std::size_t(node)].children;
        for (auto c = children.rbegin(); c != children.rend(); ++c) stack.emplace_back(*c, world);
    }
    if (scene_.instances.empty()) warn("nothing to draw: the scene places no triangles");
}

// Every node reference in range, one parent at most, no cycles; returns each node's parent.
std::vector<int> GltfBuilder::checkHierarchy() {
    const std::size_t n = doc_.nodes.size();
    std::vector<int> parent(n, -1);
    for (std::size_t i = 0; i < n; ++i) {
        const tinygltf::Node& node = doc_.nodes[i];
        const std::string at = "nodes[" + std::to_string(i) + "]";
        if (node.mesh >= 0 && std::size_t(node.mesh) >= doc_.meshes.size())
            fail(at + ".mesh: mesh " + std::to_string(node.mesh) + " does not exist (" + std::to_string(doc_.meshes.size()) + " meshes)");
        if (node.camera >= 0 && std::size_t(node.camera) >= doc_.cameras.size())
            fail(at + ".camera: camera " + std::to_string(node.camera) + " does not exist");
        for (std::size_t k = 0; k < node.children.size(); ++k) {
            const int c = node.children[k];
            if (c < 0 || std::size_t(c) >= n)
                fail(at + ".children[" + std::to_string(k) + "]: node " + std::to_string(c) + " does not exist (" +
                     std::to_string(n) + " nodes)");
            if (parent[std::size_t(c)] >= 0 || std::size_t(c) == i)
                fail("node hierarchy: node " + std::to_string(c) + " has two parents (nodes " +
                     std::to_string(parent[std::size_t(c)] >= 0 ? parent[std::size_t(c)] : c) + " and " + std::to_string(i) +
                     "); glTF nodes form trees");
            parent[std::size_t(c)] = int(i);
        }
    }
    // Each node's ancestors, followed up: a walk that meets itself is a cycle.
    std::vector<std::uint8_t> state(n, 0); // 0 unknown, 1 under a root, 2 on the current walk
    std::vector<std::size_t> walk;
    for (std::size_t i = 0; i < n; ++i) {
        walk.clear();
        int j = int(i);
        while (j >= 0 && state[std::size_t(j)] == 0) {
            state[std::size_t(j)] = 2;
            walk.push_back(std::size_t(j));
            j = parent[std::size_t(j)];
        }
        if (j >= 0 && state[std::size_t(j)] == 2)
            fail("node hierarchy cycle: node " + std::to_string(j) + " is its own ancestor");
        for (const std::size_t w : walk) state[w] = 1;
    }
    return parent;
}

// The nodes the scene starts from: the default scene's, else scene 0's, else every root.
std::vector<int> GltfBuilder::sceneRoots(const std::vector<int>& parent) {
    std::vector<int> roots;
    if (doc_.scenes.empty()) {
        for (std::size_t i = 0; i < parent.size(); ++i)
            if (parent[i] < 0) roots.push_back(int(i));
        return roots;
    }
    if (doc_.defaultScene >= 0 && std::size_t(doc_.defaultScene) >= doc_.scenes.size())
        fail("scene: scene " + std::to_string(doc_.defaultScene) + " does not exist (" + std::to_string(doc_.scenes.size()) +
             " scenes)");
    const std::size_t s = doc_.defaultScene >= 0 ? std::size_t(doc_.defaultScene) : 0;
    roots = doc_.scenes[s].nodes;
    for (std::size_t k = 0; k < roots.size(); ++k) {
        const std::string at = "scenes[" + std::to_string(s) + "].nodes[" + std::to_string(k) + "]";
        if (roots[k] < 0 || std::size_t(roots[k]) >= parent.size())
            fail(at + ": node " + std::to_string(roots[k]) + " does not exist (" + std::to_string(parent.size()) + " nodes)");
        if (parent[std::size_t(roots[k])] >= 0)
            fail(at + ": node " + std::to_string(roots[k]) + " is not a root (it is a child of node " +
                 std::to_string(parent[std::size_t(roots[k])]) + ")");
    }
    return roots;
}

// The node's matrix, else translation * rotation * scale (glTF's order); arrays of the wrong
// length are warned about and taken as absent.
glm::mat4 GltfBuilder::localTransform(int index) {
    const tinygltf::Node& node = doc_.nodes[std::size_t(index)];
    const std::string at = "nodes[" + std::to_string(index) + "]";
    const auto sized = [&](const std::vector<double>& v, std::size_t n, const char* what) {
        if (!v.empty() && v.size() != n)
            warn(at + "." + what + " has " + std::to_string(v.size()) + " numbers, not " + std::to_string(n) + "; ignored");
        return v.size() == n;
    };
    if (sized(node.matrix, 16, "matrix")) {
        glm::mat4 m(1.0f);
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 4; ++r) m[c][r] = static_cast<float>(node.matrix[std::size_t(4 * c + r)]); // column-major
        return m;
    }
    glm::mat4 m(1.0f);
    if (sized(node.translation, 3, "translation"))
        m = glm::translate(m, glm::vec3(float(node.translation[0]), float(node.translation[1]), float(node.translation[2])));
    if (sized(node.rotation, 4, "rotation")) {
        const glm::quat q(float(node.rotation[3]), float(node.rotation[0]), float(node.rotation[1]), float(node.rotation[2]));
        const float length = glm::length(q);
        if (length > 0.0f && std::isfinite(length)) m *= glm::mat4_cast(q / length);
        else warn(at + ".rotation is not a usable quaternion; ignored");
    }
    if (sized(node.scale, 3, "scale"))
        m = glm::scale(m, glm::vec3(float(node.scale[0]), float(node.scale[1]), float(node.scale[2])));
    return m;
}

void GltfBuilder::placeNode(int index, const glm::mat4& world) {
    const tinygltf::Node& node = doc_.nodes[std::size_t(index)];
    if (node.camera >= 0) addCamera(node.camera, index, world);
    if (node.mesh < 0) return;
    const std::uint32_t mesh = sceneMesh(node.mesh);
    if (mesh == kNoMesh) return;
    if (!drawablePose(world)) {
        warn("node " + std::to_string(index) + quoted(node.name) +
             ": its transform is not finite or flattens the mesh; the node is not drawn");
        return;
    }
    scene_.add(mesh, world, node.name.empty() ? doc_.meshes[std::size_t(node.mesh)].name : node.name);
}

void GltfBuilder::addCamera(int index, int node, const glm::mat4& world) {
    const tinygltf::Camera& c = doc_.cameras[std::size_t(index)];
    if (c.type != "perspective") {
        if (!warnedCamera_[std::size_t(index)])
            warn((c.type == "orthographic" ? "orthographic camera " : "camera of type '" + c.type + "' ") +
                 std::to_string(index) + " not supported; it is not kept");
        warnedCamera_[std::size_t(index)] = true;
        return;
    }
    SceneCamera camera;
    camera.name = !c.name.empty() ? c.name : !doc_.nodes[std::size_t(node)].name.empty() ? doc_.nodes[std::size_t(node)].name
                                                                                          : "camera " + std::to_string(index);
    camera.pose = world;
    const tinygltf::PerspectiveCamera& p = c.perspective;
    const auto positive = [](double v, float fallback) { return v > 0.0 && std::isfinite(v) ? float(v) : fallback; };
    camera.yfov = positive(p.yfov, camera.yfov);
    camera.aspect = positive(p.aspectRatio, 0.0f);
    camera.znear = positive(p.znear, camera.znear);
    camera.zfar = positive(p.zfar, 0.0f);
    scene_.cameras.push_back(std::move(camera));
}

std::uint32_t GltfBuilder::sceneMesh(int mesh) {
    std::optional<std::uint32_t>& slot = meshOf_[std::size_t(mesh)];
    if (!slot) {
        Model model = buildModel(mesh);
        slot = model.mesh.triangleCount() == 0 ? kNoMesh : scene_.addMesh(std::make_shared<Model>(std::move(model)));
    }
    return *slot;
}

// Whether glTF material `material` (-1: none) is alphaMode BLEND.
bool GltfBuilder::blended(int material) const {
    return material >= 0 && std::size_t(material) < doc_.materials.size() &&
           doc_.materials[std::size_t(material)].alphaMode == "BLEND";
}

Model GltfBuilder::buildModel(int mesh) {
    ModelState s;
    s.model.source = file_ + " (mesh " + std::to_string(mesh) + ")";
    const tinygltf::Mesh& m = doc_.meshes[std::size_t(mesh)];
    // Blended primitives last, opaque and masked ones first in file order: facet blends in draw
    // order, over what is drawn before, as glTF viewers draw blended surfaces after the rest.
    std::vector<std::size_t> order(m.primitives.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_partition(order.begin(), order.end(), [&](std::size_t i) { return !blended(m.primitives[i].material); });
    for (const std::size_t i : order) {
        Primitive prim;
        if (!readPrimitive(mesh, int(i), prim)) continue;
        const int material = m.primitives[i].material;
        if (material >= 0 && std::size_t(material) >= doc_.materials.size())
            fail("meshes[" + std::to_string(mesh) + "].primitives[" + std::to_string(i) + "].material: material " +
                 std::to_string(material) + " does not exist (" + std::to_string(doc_.materials.size()) + " materials)");
        appendPrimitive(s, prim, materialOf(s, material));
    }
    Mesh& out = s.model.mesh;
    if (out.triangleCount() == 0) {
        warn("mesh " + std::to_string(mesh) + quoted(m.name) + " has no triangles to draw");
        return std::move(s.model);
    }
    finishTangents(s);
    computeBounds(out);
    s.model.fileCounts = s.file;
    return std::move(s.model);
}

// One primitive's triangles and vertices; false (with a warning) for one facet does not draw.
bool GltfBuilder::readPrimitive(int mesh, int index, Primitive& out) {
    const tinygltf::Mesh& m = doc_.meshes[std::size_t(mesh)];
    const tinygltf::Primitive& prim = m.primitives[std::size_t(index)];
    const std::string path = "meshes[" + std::to_string(mesh) + "].primitives[" + std::to_string(index) + "]";
    const std::string which = "mesh " + std::to_string(mesh) + quoted(m.name) + ", primitive " + std::to_string(index);
    static constexpr const char* kModes[] = {"POINTS", "LINES", "LINE_LOOP", "LINE_STRIP"};
    if (prim.mode >= 0 && prim.mode <= 3) {
        warn(which + ": " + kModes[prim.mode] + " dropped (facet draws triangles only)");
        return false;
    }
    if (prim.mode < 4 || prim.mode > 6) {
        warn(which + ": unknown mode " + std::to_string(prim.mode) + "; dropped");
        return false;
    }
    const auto position = prim.attributes.find("POSITION");
    if (position == prim.attributes.end()) {
        warn(which + ": no POSITION attribute; dropped");
        return false;
    }
    AccessorFloats p = reader_.floats(position->second, path + ".attributes.POSITION", {3});
    const std::size_t n = p.count;
    if (n > kMaxVertices) fail(path + ": " + std::to_string(n) + " vertices, more than facet's 32-bit indices name");
    out.p = std::move(p.values);
    std::vector<std::uint32_t> idx;
    if (prim.indices >= 0) {
        idx = reader_.indices(prim.indices, path + ".indices");
        for (const std::uint32_t i : idx)
            if (i >= n)
                fail(path + ".indices: index " + std::to_string(i) + " out of range (the primitive has " + std::to_string(n) +
                     " vertices)");
    } else {
        idx.resize(n);
        for (std::size_t i = 0; i < n; ++i) idx[i] = std::uint32_t(i);
    }
    if (prim.mode == TINYGLTF_MODE_TRIANGLES && idx.size() % 3 != 0)
        warn(which + ": " + std::to_string(idx.size()) + " corners, not a multiple of 3; the last " +
             std::to_string(idx.size() % 3) + " dropped");
    out.triangles = assemble(prim.mode, idx);
    readAttributes(prim, path, n, out);
    return true;
}

// The optional attributes, checked to have POSITION's count; values that are not finite or
// not usable are warned about once and replaced.
void GltfBuilder::readAttributes(const tinygltf::Primitive& prim, const std::string& path, std::size_t n, Primitive& out) {
    const auto read = [&](const char* name, std::initializer_list<int> components) -> AccessorFloats {
        const auto it = prim.attributes.find(name);
        if (it == prim.attributes.end()) return {};
        AccessorFloats a = reader_.floats(it->second, path + ".attributes." + name, components);
        if (a.count != n)
            fail(path + ".attributes." + name + ": " + std::to_string(a.count) + " elements, but POSITION has " + std::to_string(n));
        return a;
    };
    out.n = read("NORMAL", {3}).values;
    const TextureUv map = uvOfMaterial(prim.material);
    const std::string texcoord = "TEXCOORD_" + std::to_string(map.set);
    AccessorFloats uv = read(texcoord.c_str(), {2});
    if (map.set != 0 && uv.values.empty() && prim.attributes.count("TEXCOORD_0"))
        warn(path + ": its material's textures read " + texcoord + ", which it lacks; they are drawn at (0, 0)");
    AccessorFloats color = read("COLOR_0", {3, 4});
    out.tangent = read("TANGENT", {4}).values;

    bool badNormal = false, badUv = false, badTangent = false;
    for (std::size_t i = 0; i < out.n.size() && !badNormal; i += 3) {
        const std::optional<glm::vec3> unit = unitVector({out.n[i], out.n[i + 1], out.n[i + 2]});
        badNormal = !unit;
        for (int k = 0; k < 3 && unit; ++k) out.n[i + std::size_t(k)] = (*unit)[k];
    }
    if (badNormal) {
        warn(path + ": a NORMAL is not finite or has zero length; flat normals are used instead");
        out.n.clear();
    }
    for (std::size_t i = 0; i < uv.values.size(); i += 2) {
        float& u = uv.values[i];
        float& v = uv.values[i + 1];
        if (map.moves()) {
            const glm::vec2 moved = map.apply({u, v});
            u = moved.x;
            v = moved.y;
        }
        badUv = badUv || !std::isfinite(u) || !std::isfinite(v);
        u = std::isfinite(u) ? u : 0.0f;
        v = std::isfinite(v) ? 1.0f - v : 0.0f; // glTF's v = 0 is the picture's top row
    }
    if (badUv) warn(path + ": some " + texcoord + " values are not finite; they are taken as 0");
    out.uv = std::move(uv.values);
    for (std::size_t i = 0; i < n && !color.values.empty(); ++i)
        for (int k = 0; k < 3; ++k) {
            const float c = color.values[i * std::size_t(color.components) + std::size_t(k)];
            out.color.push_back(linearToSrgb(std::isfinite(c) ? c : 1.0f)); // glTF's are linear
        }
    for (std::size_t i = 0; i < out.tangent.size() && !badTangent; i += 4) {
        const std::optional<glm::vec3> unit = unitVector({out.tangent[i], out.tangent[i + 1], out.tangent[i + 2]});
        badTangent = !unit || !std::isfinite(out.tangent[i + 3]);
        for (int k = 0; k < 3 && !badTangent; ++k) out.tangent[i + std::size_t(k)] = (*unit)[k];
        if (!badTangent) out.tangent[i + 3] = out.tangent[i + 3] < 0.0f ? -1.0f : 1.0f;
    }
    if (badTangent) out.tangent.clear();
    for (std::size_t i = 0; i < n; ++i)
        if (!finite3(&out.p[3 * i])) {
            warn(path + ": vertex " + std::to_string(i) + " (and maybe others) has a non-finite position; its triangles are dropped");
            break;
        }
}

// The coordinates a material's textures are drawn with: those of its first texture, in the
// order base colour, metal-roughness, normal, occlusion, emission (the default for none).
TextureUv GltfBuilder::uvOfMaterial(int material) const {
    if (material < 0 || std::size_t(material) >= doc_.materials.size()) return {};
    const tinygltf::Material& g = doc_.materials[std::size_t(material)];
    const tinygltf::PbrMetallicRoughness& pbr = g.pbrMetallicRoughness;
    if (pbr.baseColorTexture.index >= 0) return textureUv(pbr.baseColorTexture);
    if (pbr.metallicRoughnessTexture.index >= 0) return textureUv(pbr.metallicRoughnessTexture);
    if (g.normalTexture.index >= 0) return textureUv(g.normalTexture);
    if (g.occlusionTexture.index >= 0) return textureUv(g.occlusionTexture);
    if (g.emissiveTexture.index >= 0) return textureUv(g.emissiveTexture);
    return {};
}

void GltfBuilder::appendPrimitive(ModelState& s, Primitive& prim, std::uint32_t material) {
    // Triangles on a vertex that is not finite are left out, the vertex kept at the origin.
    std::vector<std::uint32_t> kept;
    kept.reserve(prim.triangles.size());
    for (std::size_t t = 0; t + 2 < prim.triangles.size(); t += 3)
        if (finite3(&prim.p[3 * prim.triangles[t]]) && finite3(&prim.p[3 * prim.triangles[t + 1]]) &&
            finite3(&prim.p[3 * prim.triangles[t + 2]]))
            kept.insert(kept.end(), &prim.triangles[t], &prim.triangles[t] + 3);
    prim.triangles = std::move(kept);
    for (float& x : prim.p) x = std::isfinite(x) ? x : 0.0f;
    s.file.positions += prim.vertexCount();
    s.file.texcoords += prim.uv.size() / 2;
    s.file.normals += prim.n.size() / 3;
    s.file.faces += prim.triangles.size() / 3;
    if (prim.n.empty()) flatNormals(prim);
    Mesh& mesh = s.model.mesh;
    const std::size_t base = mesh.vertexCount(), n = prim.vertexCount();
    if (base + n > kMaxVertices) fail("a mesh of more vertices than facet's 32-bit indices name");
    if (!prim.color.empty() && !s.colors)
        for (std::vector<float>* c : {&mesh.cr, &mesh.cg, &mesh.cb}) c->assign(base, 1.0f); // earlier primitives: white
    s.colors = s.colors || !prim.color.empty();
    s.allTangents = s.allTangents && !prim.tangent.empty();
    for (std::size_t i = 0; i < n; ++i) {
        mesh.px.push_back(prim.p[3 * i]);
        mesh.py.push_back(prim.p[3 * i + 1]);
        mesh.pz.push_back(prim.p[3 * i + 2]);
        mesh.nx.push_back(prim.n[3 * i]);
        mesh.ny.push_back(prim.n[3 * i + 1]);
        mesh.nz.push_back(prim.n[3 * i + 2]);
        mesh.u.push_back(prim.uv.empty() ? 0.0f : prim.uv[2 * i]);
        mesh.v.push_back(prim.uv.empty() ? 0.0f : prim.uv[2 * i + 1]);
        if (s.colors) {
            mesh.cr.push_back(prim.color.empty() ? 1.0f : prim.color[3 * i]);
            mesh.cg.push_back(prim.color.empty() ? 1.0f : prim.color[3 * i + 1]);
            mesh.cb.push_back(prim.color.empty() ? 1.0f : prim.color[3 * i + 2]);
        }
        const float* t = prim.tangent.empty() ? nullptr : &prim.tangent[4 * i];
        mesh.tx.push_back(t ? t[0] : 1.0f);
        mesh.ty.push_back(t ? t[1] : 0.0f);
        mesh.tz.push_back(t ? t[2] : 0.0f);
        mesh.tw.push_back(t ? t[3] : 1.0f);
    }
    mesh.hasTexCoords = mesh.hasTexCoords || !prim.uv.empty();
    const auto first = static_cast<std::uint32_t>(mesh.triangleCount());
    for (const std::uint32_t i : prim.triangles) mesh.indices.push_back(static_cast<std::uint32_t>(base + i));
    const auto added = static_cast<std::uint32_t>(prim.triangles.size() / 3);
    if (added == 0) return;
    if (!mesh.ranges.empty() && mesh.ranges.back().material == material) mesh.ranges.back().triangleCount += added;
    else mesh.ranges.push_back(MaterialRange{first, added, material});
}

// The file's tangents where every primitive has them and a normal map needs them; generated
// where some lack them (prepareBumpMapping); none where no normal map is drawn.
void GltfBuilder::finishTangents(ModelState& s) {
    Mesh& mesh = s.model.mesh;
    bool normalMapped = false;
    for (const MaterialRange& r : mesh.ranges) normalMapped = normalMapped || s.model.materials[r.material].bumpMap >= 0;
    if (normalMapped && s.allTangents) return;
    for (std::vector<float>* t : {&mesh.tx, &mesh.ty, &mesh.tz, &mesh.tw}) t->clear();
    if (!normalMapped) return;
    prepareBumpMapping(s.model, file_);
    for (Warning& w : s.model.warnings) scene_.warnings.push_back(std::move(w));
    s.model.warnings.clear();
}

std::uint32_t GltfBuilder::materialOf(ModelState& s, int material) {
    const auto [it, added] = s.materialOf.emplace(material, static_cast<std::uint32_t>(s.model.materials.size()));
    if (added) s.model.materials.push_back(material < 0 ? Material{"default", {0.8f, 0.8f, 0.8f}, -1} : convertMaterial(s, material));
    return it->second;
}

// A glTF material: its own values kept, and mapped onto today's Blinn-Phong material
// (asset/gltf_loader.h says how).
Material GltfBuilder::convertMaterial(ModelState& s, int index) {
    const tinygltf::Material& g = doc_.materials[std::size_t(index)];
    const tinygltf::PbrMetallicRoughness& pbr = g.pbrMetallicRoughness;
    Material m;
    m.name = g.name.empty() ? "material " + std::to_string(index) : g.name;
    MetallicRoughness& p = m.pbr;
    p.enabled = true;
    p.baseColor = glm::clamp(factor<4>(pbr.baseColorFactor, 1.0f), 0.0f, 1.0f);
    p.metallic = unitOr(pbr.metallicFactor, 1.0f);
    p.roughness = unitOr(pbr.roughnessFactor, 1.0f);
    p.alphaMode = g.alphaMode == "MASK" ? AlphaMode::Mask : g.alphaMode == "BLEND" ? AlphaMode::Blend : AlphaMode::Opaque;
    p.alphaCutoff = std::isfinite(g.alphaCutoff) ? float(g.alphaCutoff) : 0.5f;
    p.doubleSided = g.doubleSided;
    p.occlusionStrength = unitOr(g.occlusionTexture.strength, 1.0f);
    p.normalScale = std::isfinite(g.normalTexture.scale) ? float(g.normalTexture.scale) : 1.0f;
    float strength = 1.0f;
    const auto ext = g.extensions.find("KHR_materials_emissive_strength");
    if (ext != g.extensions.end() && ext->second.Has("emissiveStrength") && ext->second.Get("emissiveStrength").IsNumber())
        strength = static_cast<float>(ext->second.Get("emissiveStrength").GetNumberAsDouble());
    p.emission = factor<3>(g.emissiveFactor, 0.0f) * (std::isfinite(strength) ? strength : 1.0f);

    // The classic look and Blinn-Phong's values, for what reads them (the classic shading's colour).
    const glm::vec3 base(p.baseColor);
    m.diffuse = linearToSrgb(base);
    m.specular = linearToSrgb(glm::mix(glm::vec3(0.04f), base, p.metallic));
    const float r4 = p.roughness * p.roughness * p.roughness * p.roughness;
    m.shininess = r4 > 0.0f ? std::clamp(2.0f / r4 - 2.0f, 1.0f, 1000.0f) : 1000.0f;
    m.opacity = p.alphaMode == AlphaMode::Blend ? p.baseColor.a : 1.0f;
    m.emission = linearToSrgb(glm::clamp(p.emission, 0.0f, 1.0f));

    const std::string of = " of material '" + m.name + "'";
    const TextureUv uv = uvOfMaterial(index);
    m.texture = textureSlot(s, pbr.baseColorTexture, true, "baseColorTexture" + of, uv);
    m.emissionMap = textureSlot(s, g.emissiveTexture, true, "emissiveTexture" + of, uv);
    m.bumpMap = textureSlot(s, g.normalTexture, false, "normalTexture" + of, uv);
    m.bumpIsNormalMap = m.bumpMap >= 0;
    m.bumpScale = std::isfinite(g.normalTexture.scale) ? float(g.normalTexture.scale) : 1.0f;
    p.metalRoughMap = textureSlot(s, pbr.metallicRoughnessTexture, false, "metallicRoughnessTexture" + of, uv);
    p.occlusionMap = textureSlot(s, g.occlusionTexture, false, "occlusionTexture" + of, uv);
    return m;
}

// The model's texture for a material's texture reference: decoded once per file, stored once
// per model. A colour map that cannot be had shows the checker; a data map is left out.
template <class Info>
std::int32_t GltfBuilder::textureSlot(ModelState& s, const Info& info, bool color, const std::string& what,
                                      const TextureUv& uv) {
    if (info.index < 0) return -1;
    if (!(textureUv(info) == uv) && !warnedUv_) {
        warnedUv_ = true;
        warn(what + " (and maybe others) reads other coordinates (TEXCOORD_n or KHR_texture_transform) than its "
             "material's first texture; facet keeps one set a vertex, so it is drawn with that texture's");
    }
    const auto missing = [&] { return color ? checker(s) : -1; };
    if (std::size_t(info.index) >= doc_.textures.size()) {
        warn(what + ": texture " + std::to_string(info.index) + " does not exist");
        return missing();
    }
    const tinygltf::Texture& t = doc_.textures[std::size_t(info.index)];
    Wrap wrapS = Wrap::Repeat, wrapT = Wrap::Repeat; // a texture without a sampler repeats (glTF 3.8.4.2)
    if (t.sampler >= 0 && std::size_t(t.sampler) < doc_.samplers.size()) {
        const tinygltf::Sampler& sampler = doc_.samplers[std::size_t(t.sampler)];
        wrapS = wrapOf(sampler.wrapS, t.sampler, "wrapS");
        wrapT = wrapOf(sampler.wrapT, t.sampler, "wrapT");
    }
    if (t.source < 0 || std::size_t(t.source) >= doc_.images.size()) {
        warn(what + ": texture " + std::to_string(info.index) + " has no image facet reads (only PNG, JPEG, ... via 'source')");
        return missing();
    }
    const Texture* texture = decoded(t.source);
    if (!texture) return missing();
    // An image is stored once per pair of wraps it is sampled with (nearly always one).
    const auto [it, added] =
        s.textureOf.emplace(std::tuple(t.source, wrapS, wrapT), static_cast<std::int32_t>(s.model.textures.size()));
    if (added) {
        s.model.textures.push_back(*texture);
        s.model.textures.back().wrapS = wrapS;
        s.model.textures.back().wrapT = wrapT;
    }
    return it->second;
}

// A sampler's wrapS or wrapT (`axis`) as facet's Wrap: the spec's three values; any other is
// drawn as REPEAT, with a warning (once a file).
Wrap GltfBuilder::wrapOf(int value, int sampler, const char* axis) {
    switch (value) {
    case TINYGLTF_TEXTURE_WRAP_REPEAT: return Wrap::Repeat;
    case TINYGLTF_TEXTURE_WRAP_CLAMP_TO_EDGE: return Wrap::ClampToEdge;
    case TINYGLTF_TEXTURE_WRAP_MIRRORED_REPEAT: return Wrap::MirroredRepeat;
    default:
        if (!warnedWrap_) {
            warnedWrap_ = true;
            warn("sampler " + std::to_string(sampler) + " (and maybe others): " + axis + " " + std::to_string(value) +
                 " is no glTF wrap mode; drawn as REPEAT");
        }
        return Wrap::Repeat;
    }
}

// Image `index` decoded (once), or null with a warning naming it.
const Texture* GltfBuilder::decoded(int index) {
    const std::size_t i = std::size_t(index);
    if (imageTried_[i]) return images_[i] ? &*images_[i] : nullptr;
    imageTried_[i] = true;
    const tinygltf::Image& image = doc_.images[i];
    const std::string label = "image " + std::to_string(index) + (image.uri.empty() || isDataUri(image.uri) ? quoted(image.name) : " '" + image.uri + "'");
    const std::string instead = "; colour maps using it show the checker, data maps are left out";
    const auto decode = [&](const unsigned char* bytes, std::size_t size, const std::string& source) {
        try {
            images_[i] = makeTexture(decodeImage(bytes, size, label), source);
        } catch (const Error& e) {
            warn(label + " not decoded" + instead + ": " + e.what());
        }
    };
    if (image.bufferView >= 0) {
        try {
            const AccessorReader::ViewBytes view = reader_.viewBytes(image.bufferView, "images[" + std::to_string(index) + "]");
            decode(view.data, view.size, file_ + " images[" + std::to_string(index) + "]");
        } catch (const ParseError& e) {
            warn(label + " not read" + instead + ": " + e.what());
        }
    } else if (!image.image.empty()) {
        fs::path file;
        const bool isFile = !isDataUri(image.uri) && rule_.resolve(image.uri, file) == UriVerdict::File;
        decode(image.image.data(), image.image.size(), isFile ? file.string() : file_ + " images[" + std::to_string(index) + "]");
    } else {
        fs::path file;
        const UriVerdict verdict = isDataUri(image.uri) ? UriVerdict::Unusable : rule_.resolve(image.uri, file);
        std::error_code ec;
        const std::string why = isDataUri(image.uri) ? "its data: URI could not be decoded"
                                : verdict != UriVerdict::File ? "not followed: " + describe(verdict)
                                : !fs::is_regular_file(file, ec) ? "missing (looked for at " + file.string() + ")"
                                                                 : "could not be read";
        warn(label + " not loaded" + instead + ": " + why);
    }
    return images_[i] ? &*images_[i] : nullptr;
}

std::int32_t GltfBuilder::checker(ModelState& s) {
    if (s.checker < 0) {
        s.checker = static_cast<std::int32_t>(s.model.textures.size());
        s.model.textures.push_back(makeCheckerTexture());
    }
    return s.checker;
}

} // namespace

Scene buildGltfScene(const tinygltf::Model& doc, const std::string& file, const UriRule& rule) {
    Scene scene;
    GltfBuilder(doc, file, rule, scene).build();
    return scene;
}

} // namespace facet
