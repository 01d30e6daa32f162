// What an app knows about itself at run time: facet's version, and where the files it reads
// live (the default scene, facet-bench's NumPy script). Those are found beside the program, so
// an installed copy works without the checkout: $FACET_DATA_DIR when set, else the data folder
// at the installed layout's place relative to the binary (PREFIX/bin -> PREFIX/share/facet),
// which the build tree mirrors (build/share/facet links into the checkout).
#pragma once

#include <filesystem>
#include <string>

namespace facet::app {

// "facet-render 0.2.0 (CUDA backend built)" for --version.
std::string versionLine(const std::string& program);

// The folder holding default_scene/ and the other run-time files.
std::filesystem::path dataDir();

// dataDir()/NAME; throws facet::Error saying where it looked (and of FACET_DATA_DIR) when it
// is not there.
std::filesystem::path dataFile(const std::string& name);

// dataFile("default_scene/scene.obj").
std::filesystem::path defaultScene();

} // namespace facet::app
