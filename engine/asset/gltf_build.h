// The second half of reading glTF: a document tinygltf has parsed (buffers and encoded images
// fetched) turned into a Scene. Everything asset/gltf_loader.h promises about meshes, materials,
// textures, nodes and cameras happens here.
#pragma once

#include "asset/scene.h"

#include <string>

namespace tinygltf {
class Model;
}

namespace facet {

class UriRule;

// `file` names the document in messages; `rule` resolves image URIs for the warnings about
// images that could not be read.
Scene buildGltfScene(const tinygltf::Model& doc, const std::string& file, const UriRule& rule);

} // namespace facet
