// The one door through which the apps load a mesh: the loader is chosen by the file's extension
// (case-insensitive), so a new format is one more entry in load_model.cpp's table.
#pragma once

#include "asset/model.h"
#include "asset/scene.h"

#include <filesystem>
#include <string>
#include <vector>

namespace facet {

// Loads the model at `path` with the loader that claims its extension. Throws facet::ParseError
// naming the file and its extension when no loader claims it, and whatever the loader throws
// (facet::ParseError with the file and line) when the file cannot be loaded correctly. A scene
// file (.gltf, .glb) is baked into one model (bakeScene: every instance's triangles posed);
// loadScene keeps its instances. `options` (model.h) matter to glTF only today.
Model loadModel(const std::filesystem::path& path, const LoadOptions& options = {});

// The file at `path` as a scene, its loader chosen as loadModel's: a format of one mesh (.obj,
// .ply, .stl) gives one instance at the identity pose, named after the file; glTF gives its
// scene's instances and cameras (asset/gltf_loader.h). The scene's warnings are the loader's.
Scene loadScene(const std::filesystem::path& path, const LoadOptions& options = {});
// Several files, one scene: each file's meshes and instances in turn (ids numbered on).
Scene loadScene(const std::vector<std::filesystem::path>& paths, const LoadOptions& options = {});

// The extensions loadModel reads, lower case with the dot (".obj"), for file dialogs and messages.
std::vector<std::string> modelExtensions();

} // namespace facet
