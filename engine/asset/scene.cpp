#include "asset/scene.h"

#include "core/error.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace facet {

std::uint32_t Scene::addMesh(std::shared_ptr<const Model> model) {
    if (!model) throw Error("a scene's mesh cannot be null");
    meshes.push_back(std::move(model));
    return static_cast<std::uint32_t>(meshes.size() - 1);
}

std::uint32_t Scene::add(std::uint32_t mesh, const glm::mat4& pose, std::string name) {
    if (mesh >= meshes.size())
        throw Error("no mesh " + std::to_string(mesh) + " in a scene of " + std::to_string(meshes.size()) + " meshes");
    // Past the last instance's id too (a scene copied or built with ids of its own); a scan of
    // them all made a glTF file of many nodes quadratic to load.
    if (!instances.empty()) nextId_ = std::max(nextId_, instances.back().id + 1);
    Instance instance;
    instance.mesh = mesh;
    instance.pose = pose;
    instance.id = nextId_++;
    instance.name = name.empty() ? std::filesystem::path(meshes[mesh]->source).filename().string() : std::move(name);
    instances.push_back(std::move(instance));
    return instances.back().id;
}

Instance* Scene::find(std::uint32_t id) {
    for (Instance& i : instances)
        if (i.id == id) return &i;
    return nullptr;
}

const Instance* Scene::find(std::uint32_t id) const { return const_cast<Scene*>(this)->find(id); }

bool Scene::remove(std::uint32_t id) {
    const auto it = std::find_if(instances.begin(), instances.end(), [&](const Instance& i) { return i.id == id; });
    if (it == instances.end()) return false;
    instances.erase(it);
    return true;
}

void Scene::append(Scene other) {
    const auto base = static_cast<std::uint32_t>(meshes.size());
    for (auto& m : other.meshes) meshes.push_back(std::move(m));
    for (Instance& i : other.instances) {
        add(base + i.mesh, i.pose, std::move(i.name));
        instances.back().visible = i.visible;
    }
    cameras.insert(cameras.end(), other.cameras.begin(), other.cameras.end());
    warnings.insert(warnings.end(), other.warnings.begin(), other.warnings.end());
}

std::size_t Scene::triangleCount() const {
    std::size_t n = 0;
    for (const Instance& i : instances)
        if (i.visible && i.mesh < meshes.size()) n += meshes[i.mesh]->mesh.triangleCount();
    return n;
}

Bounds Scene::bounds() const {
    Bounds world;
    for (const Instance& i : instances) {
        if (!i.visible || i.mesh >= meshes.size()) continue;
        const Bounds& b = meshes[i.mesh]->mesh.bounds;
        if (b.empty()) continue;
        for (int c = 0; c < 8; ++c) {
            const glm::vec3 corner{(c & 1) ? b.max.x : b.min.x, (c & 2) ? b.max.y : b.min.y,
                                   (c & 4) ? b.max.z : b.min.z};
            world.extend(glm::vec3(i.pose * glm::vec4(corner, 1.0f)));
        }
    }
    return world;
}

Camera sceneFraming(const Scene& scene, float aspect, float fovY, float coveredLeft) {
    std::vector<const Instance*> shown;
    for (const Instance& i : scene.instances)
        if (i.visible) shown.push_back(&i);
    if (shown.size() == 1 && isIdentity(shown[0]->pose))
        return Camera::framing(scene.meshes[shown[0]->mesh]->mesh, aspect, fovY, coveredLeft);
    std::vector<glm::vec3> corners;
    for (const Instance* i : shown) {
        const Bounds& b = scene.meshes[i->mesh]->mesh.bounds;
        if (b.empty()) continue;
        for (int c = 0; c < 8; ++c)
            corners.push_back(glm::vec3(i->pose * glm::vec4((c & 1) ? b.max.x : b.min.x, (c & 2) ? b.max.y : b.min.y,
                                                            (c & 4) ? b.max.z : b.min.z, 1.0f)));
    }
    return Camera::framing(corners, aspect, fovY, coveredLeft);
}

Camera sceneCamera(const Scene& scene, std::size_t index) {
    const std::size_t count = scene.cameras.size();
    if (index >= count)
        throw Error("camera " + std::to_string(index) + " asked for, but the scene has " +
                    (count == 0 ? std::string("no cameras") : std::to_string(count) + " (0 to " + std::to_string(count - 1) + ")"));
    const SceneCamera& c = scene.cameras[index];
    const std::string which = "camera " + std::to_string(index) + " (\"" + c.name + "\")";
    glm::mat4 pose = c.pose;
    for (int axis = 0; axis < 3; ++axis) { // glTF lets a camera's node scale; a camera has none
        const float length = glm::length(glm::vec3(pose[axis]));
        if (!(length > 0.0f && std::isfinite(length))) throw Error(which + ": its pose has a zero or non-finite axis");
        pose[axis] /= length;
    }
    Camera camera;
    try {
        camera = Camera::fromPose(pose, PoseConvention::OpenGl);
    } catch (const Error& e) {
        throw Error(which + ": " + e.what());
    }
    camera.fovYDegrees = glm::degrees(c.yfov);
    camera.nearPlane = c.znear;
    camera.farPlane = c.zfar;
    if (!(c.zfar > c.znear)) { // infinite: far enough for every visible instance's bounds
        const Bounds b = scene.bounds();
        float reach = 0.0f;
        if (!b.empty())
            for (int k = 0; k < 8; ++k)
                reach = std::max(reach, glm::length(glm::vec3((k & 1) ? b.max.x : b.min.x, (k & 2) ? b.max.y : b.min.y,
                                                              (k & 4) ? b.max.z : b.min.z) - camera.eye));
        camera.farPlane = std::max(reach * 1.01f, c.znear * 2.0f) + c.znear;
    }
    camera.validate();
    return camera;
}

Scene sceneOf(const Model& model) {
    Scene scene;
    // Not owned: the caller keeps the model alive (an empty deleter).
    scene.addMesh(std::shared_ptr<const Model>(&model, [](const Model*) {}));
    scene.add(0);
    return scene;
}

namespace {

// Appends `from`'s materials and textures to `out`, map indices moved past out's textures; a
// model without materials gets the default one its ranges then name.
void appendMaterials(Model& out, const Model& from) {
    const auto textureBase = static_cast<std::int32_t>(out.textures.size());
    out.textures.insert(out.textures.end(), from.textures.begin(), from.textures.end());
    if (from.materials.empty()) out.materials.push_back(Material{"default", {0.8f, 0.8f, 0.8f}, -1});
    for (Material m : from.materials) {
        for (std::int32_t* map : {&m.texture, &m.specularMap, &m.shininessMap, &m.emissionMap, &m.alphaMap, &m.bumpMap,
                                  &m.pbr.metalRoughMap, &m.pbr.occlusionMap})
            if (*map >= 0) *map += textureBase;
        out.materials.push_back(std::move(m));
    }
}

// Appends `mesh` posed by `pose` to `out`; its ranges name materials from `materialBase` on.
void appendPosed(Mesh& out, const Mesh& mesh, const glm::mat4& pose, std::uint32_t materialBase, bool colors, bool tangents) {
    const auto base = static_cast<std::uint32_t>(out.vertexCount());
    const glm::mat3 linear(pose), normalMatrix = glm::transpose(glm::inverse(linear));
    const bool mirrored = glm::determinant(linear) < 0.0f;
    for (std::size_t i = 0; i < mesh.vertexCount(); ++i) {
        const glm::vec3 p = glm::vec3(pose * glm::vec4(mesh.position(i), 1.0f));
        const glm::vec3 n = glm::normalize(normalMatrix * glm::vec3(mesh.nx[i], mesh.ny[i], mesh.nz[i]));
        out.px.push_back(p.x), out.py.push_back(p.y), out.pz.push_back(p.z);
        out.nx.push_back(n.x), out.ny.push_back(n.y), out.nz.push_back(n.z);
        out.u.push_back(mesh.u[i]), out.v.push_back(mesh.v[i]);
        const bool c = mesh.hasVertexColors();
        if (colors) out.cr.push_back(c ? mesh.cr[i] : 1.0f), out.cg.push_back(c ? mesh.cg[i] : 1.0f), out.cb.push_back(c ? mesh.cb[i] : 1.0f);
        if (!tangents) continue;
        const glm::vec3 t = mesh.hasTangents() ? glm::normalize(linear * glm::vec3(mesh.tx[i], mesh.ty[i], mesh.tz[i]))
                                               : glm::vec3(1.0f, 0.0f, 0.0f);
        const float w = mesh.hasTangents() ? mesh.tw[i] : 1.0f;
        out.tx.push_back(t.x), out.ty.push_back(t.y), out.tz.push_back(t.z), out.tw.push_back(mirrored ? -w : w);
    }
    const auto first = static_cast<std::uint32_t>(out.triangleCount());
    for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
        const std::uint32_t* c = &mesh.indices[3 * t];
        out.indices.insert(out.indices.end(), {base + c[0], base + (mirrored ? c[2] : c[1]), base + (mirrored ? c[1] : c[2])});
    }
    for (MaterialRange r : mesh.ranges) {
        r.firstTriangle += first;
        r.material += materialBase;
        out.ranges.push_back(r);
    }
    out.hasTexCoords = out.hasTexCoords || mesh.hasTexCoords;
}

// Whether any of the model's materials is blended under the lit model (MTL d < 1, glTF BLEND).
bool blendsAny(const Model& model) {
    for (const Material& m : model.materials)
        if (m.opacity < 1.0f || (m.pbr.enabled && m.pbr.alphaMode == AlphaMode::Blend)) return true;
    return false;
}

// The visible instances in draw order: those of meshes with blended materials after the others,
// as a blended surface is blended over what is drawn before it.
std::vector<const Instance*> drawOrder(const Scene& scene) {
    std::vector<const Instance*> order;
    for (const bool blended : {false, true})
        for (const Instance& i : scene.instances)
            if (i.visible && i.mesh < scene.meshes.size() && blendsAny(*scene.meshes[i.mesh]) == blended)
                order.push_back(&i);
    return order;
}

} // namespace

Model bakeScene(const Scene& scene, std::string source) {
    Model out;
    out.source = std::move(source);
    out.warnings = scene.warnings;
    std::vector<std::int64_t> materialBase(scene.meshes.size(), -1);
    bool colors = false, tangents = false;
    for (const Instance& i : scene.instances) {
        if (!i.visible || i.mesh >= scene.meshes.size() || materialBase[i.mesh] >= 0) continue;
        const Model& m = *scene.meshes[i.mesh];
        materialBase[i.mesh] = static_cast<std::int64_t>(out.materials.size());
        appendMaterials(out, m);
        colors = colors || m.mesh.hasVertexColors();
        tangents = tangents || m.mesh.hasTangents();
    }
    for (const Instance* at : drawOrder(scene)) {
        const Instance& i = *at;
        const Model& m = *scene.meshes[i.mesh];
        appendPosed(out.mesh, m.mesh, i.pose, static_cast<std::uint32_t>(materialBase[i.mesh]), colors, tangents);
        out.fileCounts.positions += m.fileCounts.positions;
        out.fileCounts.texcoords += m.fileCounts.texcoords;
        out.fileCounts.normals += m.fileCounts.normals;
        out.fileCounts.faces += m.fileCounts.faces;
    }
    computeBounds(out.mesh);
    return out;
}

void validateScene(const Scene& scene) {
    for (const auto& model : scene.meshes) validateMesh(model->mesh, model->materials.size(), model->source);
    for (const Instance& i : scene.instances)
        if (i.mesh >= scene.meshes.size())
            throw Error("instance " + std::to_string(i.id) + " names mesh " + std::to_string(i.mesh) + " of " +
                        std::to_string(scene.meshes.size()));
}

SceneMaterials shadeMaterials(const Scene& scene) {
    SceneMaterials out;
    for (const auto& model : scene.meshes) {
        out.bases.push_back(static_cast<std::uint32_t>(out.table.size()));
        const std::vector<ShadeMaterial> own = shadeMaterials(*model);
        out.table.insert(out.table.end(), own.begin(), own.end());
    }
    if (out.table.empty()) out.table = shadeMaterials(Model{}); // the default grey, for an empty scene
    return out;
}

ModelFacts sceneFacts(const Scene& scene) {
    ModelFacts facts;
    for (const auto& model : scene.meshes) {
        const ModelFacts f = modelFacts(*model);
        facts.vertexColors = facts.vertexColors || f.vertexColors;
        facts.tangents = facts.tangents || f.tangents;
        facts.textured = facts.textured || f.textured;
        facts.blended = facts.blended || f.blended;
        facts.cutouts = facts.cutouts || f.cutouts;
    }
    return facts;
}

namespace {

std::string instanceName(const Instance& i) {
    return "instance " + std::to_string(i.id) + (i.name.empty() ? std::string() : " (\"" + i.name + "\")");
}

// Refuses a pose the vertex stage cannot draw, naming the instance.
void checkPose(const Instance& i) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (!std::isfinite(i.pose[c][r])) throw Error(instanceName(i) + ": its pose is not finite");
    if (i.pose[0][3] != 0.0f || i.pose[1][3] != 0.0f || i.pose[2][3] != 0.0f || i.pose[3][3] != 1.0f)
        throw Error(instanceName(i) + ": its pose's last row is not 0 0 0 1 (a projective pose is not a placement)");
    const glm::mat3 a(i.pose);
    const float det = glm::determinant(a);
    const float scale = glm::length(a[0]) * glm::length(a[1]) * glm::length(a[2]);
    if (!(std::fabs(det) > 1e-12f * scale) || !(scale > 0.0f))
        throw Error(instanceName(i) + ": its pose is singular (it flattens the mesh)");
}

} // namespace

FrameInstances frameInstances(const Scene& scene, const std::vector<std::uint32_t>& materialBases,
                              const ViewParams& view, const ClipPlanes& planes) {
    FrameInstances frame;
    for (const Instance* at : drawOrder(scene)) {
        const Instance& i = *at;
        checkPose(i);
        const Mesh& mesh = scene.meshes[i.mesh]->mesh;
        InstanceDraw draw = placeInstance(i.pose, view);
        if (boundsOutside(mesh.bounds, draw.view, planes)) {
            frame.trianglesCulled += mesh.triangleCount();
            continue;
        }
        draw.mesh = i.mesh;
        draw.id = i.id;
        draw.firstVertex = static_cast<std::uint32_t>(frame.vertices);
        draw.firstTriangle = static_cast<std::uint32_t>(frame.triangles);
        draw.materialBase = materialBases[i.mesh];
        frame.vertices += mesh.vertexCount();
        frame.triangles += mesh.triangleCount();
        if (frame.vertices > 0xFFFFFFFFu || frame.triangles > 0xFFFFFFFFu)
            throw Error("the scene's visible instances hold more than 2^32 vertices or triangles in one frame");
        frame.draws.push_back(draw);
    }
    return frame;
}

} // namespace facet
