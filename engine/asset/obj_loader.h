// facet's OBJ/MTL loader: a strict parser of our own (why: see docs/guide.md, "Loading OBJ"),
// which rejects what cannot be rendered correctly and warns about what can be recovered.
#pragma once

#include "asset/model.h"

#include <filesystem>
#include <string>

namespace facet {

struct ObjLoadOptions {
    bool loadMaterials = true; // read mtllib files
    bool loadTextures = true;  // decode map_Kd images
};

// Loads an OBJ file and its MTL libraries and textures. Throws facet::ParseError carrying the
// file, the line and what is wrong when the file cannot be loaded correctly.
Model loadObj(const std::filesystem::path& path, const ObjLoadOptions& options = {});

// The same from text already in memory; `name` is used in messages and `baseDir` to resolve
// mtllib paths.
Model loadObjFromString(const std::string& text, const std::string& name,
                        const std::filesystem::path& baseDir, const ObjLoadOptions& options = {});

} // namespace facet
