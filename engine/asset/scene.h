// Several meshes at poses: what the front door draws. A scene's meshes are models (each with its
// materials and textures, stored once and shared, never copied); its instances place them, each
// with a 4x4 pose (world from object), a visible flag, a stable id and a name. A Model drawn
// alone is a one-instance scene at the identity pose. A frame reads the instances afresh (move
// and hide them between frames freely); changing the meshes means handing the scene over again
// (Renderer::setScene).
#pragma once

#include "asset/model.h"
#include "core/camera.h"
#include "core/frame_plan.h"
#include "core/instances.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace facet {

struct Instance {
    std::uint32_t mesh = 0;     // index into Scene::meshes
    glm::mat4 pose{1.0f};       // world from object: finite, its 3x3 part invertible, last row 0 0 0 1
    bool visible = true;
    std::uint32_t id = 0;       // stable, never 0 (0 is the background in instance masks)
    std::string name;
};

// A perspective camera a scene file declares (glTF's cameras), kept for the apps to offer; the
// renderer itself draws with the caller's Camera.
struct SceneCamera {
    std::string name;
    glm::mat4 pose{1.0f};  // world from camera; the camera looks down its -Z with +Y up (as glTF's)
    float yfov = 0.8f;     // vertical field of view, radians
    float aspect = 0.0f;   // width / height; 0 where the file leaves it to the viewport
    float znear = 0.01f;
    float zfar = 0.0f;     // 0 for an infinite projection
};

struct Scene {
    std::vector<std::shared_ptr<const Model>> meshes;
    std::vector<Instance> instances;
    std::vector<SceneCamera> cameras;
    std::vector<Warning> warnings; // the loaders', for the scene's files

    // Adds a mesh (shared, not copied) and returns its index.
    std::uint32_t addMesh(std::shared_ptr<const Model> model);
    // Places mesh `mesh` at `pose`; returns the new instance's id. The name defaults to the
    // mesh's file name (its source).
    std::uint32_t add(std::uint32_t mesh, const glm::mat4& pose = glm::mat4(1.0f), std::string name = {});
    // The instance with `id`, or null.
    Instance* find(std::uint32_t id);
    const Instance* find(std::uint32_t id) const;
    // Removes the instance with `id` (its mesh stays); false when there is none.
    bool remove(std::uint32_t id);
    // Takes `other`'s meshes, instances (given new ids after this scene's), cameras and warnings.
    void append(Scene other);

    std::size_t triangleCount() const; // over the visible instances
    Bounds bounds() const;             // world-space bounds of the visible instances

private:
    std::uint32_t nextId_ = 1;
};

// The camera framing the visible instances (Camera::framing): over a lone instance at the
// identity pose, its vertices, as for a model; otherwise the corners of each instance's posed
// bounding box.
Camera sceneFraming(const Scene& scene, float aspect, float fovYDegrees = 60.0f, float coveredLeft = 0.0f);

// The scene's camera `index` (a file's: glTF's perspective cameras) as a Camera, seen through
// the viewport's aspect ratio (the file's own, where it gives one, is not imposed): its pose in
// glTF's axes (Camera::fromPose, OpenGl) with any scale on its node taken out, its vertical field
// of view and near plane, and its far plane or, where the file leaves it infinite, one enclosing
// the visible instances. Throws facet::Error naming the camera when `index` is out of range or
// its pose cannot place a camera (sheared, not finite).
Camera sceneCamera(const Scene& scene, std::size_t index);

// A scene of one model at the identity pose. The model is not copied: it must outlive the scene.
Scene sceneOf(const Model& model);

// The visible instances baked into one model named `source`: each instance's mesh transformed
// by its pose (normals by the inverse transpose, the winding and tangent handedness swapped
// where the pose mirrors), the materials and textures of each mesh used once. The scene's
// warnings become the model's. For callers that take one model (loadModel on a scene file).
Model bakeScene(const Scene& scene, std::string source);

// Throws facet::Error naming the mesh's source unless every mesh is safe to draw (validateMesh).
void validateScene(const Scene& scene);

// The materials of every mesh, one table: mesh m's material i is entry materialBases[m] + i.
struct SceneMaterials {
    std::vector<ShadeMaterial> table;
    std::vector<std::uint32_t> bases; // per mesh
};
SceneMaterials shadeMaterials(const Scene& scene);

// What a frame plan needs to know of the scene: every mesh's facts together.
ModelFacts sceneFacts(const Scene& scene);

// The instances a frame draws, in scene order (those of meshes with blended materials last, so
// what they blend over is drawn first): visible, and not wholly outside the view by
// their mesh's bounds. Each has its view, its place in the frame's vertex and triangle arrays
// and its material base. Throws facet::Error naming the instance (its id and name) for a pose
// that is not finite, not affine, or singular.
struct FrameInstances {
    std::vector<InstanceDraw> draws;
    std::uint64_t vertices = 0;  // the drawn instances' vertices ...
    std::uint64_t triangles = 0; // ... and triangles, together
    std::uint64_t trianglesCulled = 0; // of the instances culled whole
};
FrameInstances frameInstances(const Scene& scene, const std::vector<std::uint32_t>& materialBases,
                              const ViewParams& view, const ClipPlanes& planes);

} // namespace facet
