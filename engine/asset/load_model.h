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
// (facet::ParseError with the file and line) when the file cannot be loaded correctly.
Model loadModel(const std::filesystem::path& path);

// The file at `path` as a scene, its loader chosen as loadModel's: a format of one mesh (.obj,
// .ply, .stl) gives one instance at the identity pose, named after the file. The scene's
// warnings are the loader's.
Scene loadScene(const std::filesystem::path& path);
// Several files, one scene: each file's meshes and instances in turn (ids numbered on).
Scene loadScene(const std::vector<std::filesystem::path>& paths);

// The extensions loadModel reads, lower case with the dot (".obj"), for file dialogs and messages.
std::vector<std::string> modelExtensions();

} // namespace facet
