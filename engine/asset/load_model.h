// The one door through which the apps load a mesh: the loader is chosen by the file's extension
// (case-insensitive), so a new format is one more entry in load_model.cpp's table.
#pragma once

#include "asset/model.h"

#include <filesystem>
#include <string>
#include <vector>

namespace facet {

// Loads the model at `path` with the loader that claims its extension. Throws facet::ParseError
// naming the file and its extension when no loader claims it, and whatever the loader throws
// (facet::ParseError with the file and line) when the file cannot be loaded correctly.
Model loadModel(const std::filesystem::path& path);

// The extensions loadModel reads, lower case with the dot (".obj"), for file dialogs and messages.
std::vector<std::string> modelExtensions();

} // namespace facet
