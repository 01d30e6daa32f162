// facet's glTF 2.0 reader (.gltf with its .bin and images, or .glb). tinygltf parses the
// document and fetches its buffers and images; everything after that is facet's: the default
// scene's node tree flattened into posed instances, each glTF mesh one Model (its primitives one
// material range each), accessors read and checked against their buffers here, cameras kept.
//
// Materials: the metallic-roughness values go to Material::pbr, shaded by core/pbr.h under the
// lit model (base colour factor and texture, metallic and roughness factors and texture, the
// normal texture with its scale, occlusion with its strength, emission times
// KHR_materials_emissive_strength with its texture, alphaMode and alphaCutoff); the classic look
// shows the base colour (sRGB-encoded, as MTL colours are) and its texture.
//
// Warned about, loading on: points and lines (dropped), samplers other than REPEAT (drawn
// as REPEAT), KHR_texture_transform (ignored), textures on TEXCOORD_1, orthographic cameras (not
// kept), missing or undecodable images (the checker instead).
// Refused (facet::ParseError naming the file): malformed JSON, a broken GLB container, an
// extension the file requires that facet lacks (Draco, meshopt, ...), a missing buffer, an
// accessor or index that does not fit its buffer or mesh (with its JSON path), a node cycle.
//
// A buffer or image URI is followed only within the model's folder: an absolute path, one
// through `..` or through a symlink leading out, or any scheme but data: is not read (a warning
// names it; an image becomes the checker, a missing buffer refuses the file) unless
// LoadOptions::allowOutsidePaths says so.
#pragma once

#include "asset/model.h"
#include "asset/scene.h"

#include <filesystem>
#include <string>

namespace facet {

// The most memory a glTF load takes per byte of the .gltf or .glb (asset/memory_budget.h): the
// file, its parse, the buffers and the mesh arrays built from them.
inline constexpr std::uint64_t kGltfLoadBytesPerFileByte = 24;

// Loads the default scene (else scene 0; else every root node) of a .gltf or .glb file.
Scene loadGltfScene(const std::filesystem::path& path, const LoadOptions& options = {});

// The same from bytes in memory, a .glb when `binary`; `name` is used in messages and `baseDir`
// to resolve the URIs of buffers and images.
Scene loadGltfSceneFromBytes(const std::string& bytes, bool binary, const std::string& name,
                             const std::filesystem::path& baseDir, const LoadOptions& options = {});

} // namespace facet
