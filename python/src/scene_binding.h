// facet.Scene as the renderer and the camera see it (python/src/scene.cpp binds it): the
// engine's Scene, its meshes kept alive by the Python models' own shared holders, and each
// model's mesh index so that a model added twice is one mesh.
#pragma once

#include "bindings.h"

#include "asset/scene.h"

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace facet::python {

class PyScene {
public:
    PyScene() = default;
    // A loaded scene, its meshes handed to Python as models (not copied).
    explicit PyScene(Scene loaded);

    // The mesh index of `model`, adding it as a mesh the first time.
    std::uint32_t meshOf(const std::shared_ptr<Model>& model);

    Scene scene;
    std::vector<std::shared_ptr<Model>> models; // scene.meshes, as Python's facet.Model objects hold them

private:
    std::unordered_map<const Model*, std::uint32_t> meshIndex_;
};

// The renderer's own copy of what a frame of `scene` reads: the meshes (shared, not copied) and
// the instances as they are now, so a scene changed by another thread mid-frame is not read.
Scene frameCopy(const PyScene& scene);

} // namespace facet::python
