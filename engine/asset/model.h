// What loading a model gives: the mesh, its materials and textures, and the warnings about
// things that were wrong but recoverable (missing MTL or texture, unknown material, dropped
// faces). Rendering a model with warnings uses the default material where one was missing.
#pragma once

#include "core/frame_plan.h"
#include "core/material.h"
#include "core/mesh.h"
#include "core/shading.h"

#include <cstddef>
#include <atomic>
#include <string>
#include <vector>

namespace facet {

struct Warning {
    std::string file;
    std::size_t line = 0; // 1-based; 0 when it concerns the whole file
    std::string message;

    std::string toString() const; // "file:line: message" (or "file: message")
};

// What a load may do beyond reading the file it was given. Today only glTF's buffers and
// images are checked against it (asset/gltf_loader.h); OBJ's mtllib and maps are followed as
// before.
struct LoadOptions {
    // Follow URIs that lead out of the model's folder (absolute, through `..`, or through a
    // symlink pointing outside); without it they are warned about and not read.
    bool allowOutsidePaths = false;
    // When set, the share of the file read so far, from 0 to 1, for a progress bar on another
    // thread: the OBJ reader writes it after each block; the other loaders once, at the end.
    std::atomic<float>* progress = nullptr;
};

// What the file declared, before faces picked the vertices they use: an OBJ's v, vt, vn and f
// statements. Mesh::vertexCount() counts distinct (v, vt, vn) corners instead.
struct FileCounts {
    std::size_t positions = 0;
    std::size_t texcoords = 0;
    std::size_t normals = 0;
    std::size_t faces = 0;
};

struct Model {
    std::string source;
    FileCounts fileCounts;
    Mesh mesh;
    std::vector<Material> materials; // every MaterialRange::material indexes this
    std::vector<Texture> textures;
    std::vector<Warning> warnings;
};

// The materials as the renderers' shading reads them, one per Model::materials entry (and
// at least one: the default 0.8 grey). Texture views point into model.textures, so they stay
// valid while the model lives unchanged; a texture is used only where the mesh has UVs.
std::vector<ShadeMaterial> shadeMaterials(const Model& model);

// What a frame plan needs to know of the model (core/frame_plan.h), found from its mesh and
// shadeMaterials(model).
ModelFacts modelFacts(const Model& model);

// Calls f(view, index) for each texture view of `shade` with the Model::textures index of the
// map it shows (-1 for none): map_Kd first, then map_Ks, map_Ns, map_Ke, map_d and the bump map,
// then glTF's metallic-roughness and occlusion maps.
template <class F>
void forEachMap(ShadeMaterial& shade, const Material& m, F f) {
    f(shade.texture, m.texture);
    f(shade.specularMap, m.specularMap);
    f(shade.shininessMap, m.shininessMap);
    f(shade.emissionMap, m.emissionMap);
    f(shade.alphaMap, m.alphaMap);
    f(shade.bumpMap, m.bumpMap);
    f(shade.metalRoughMap, m.pbr.metalRoughMap);
    f(shade.occlusionMap, m.pbr.occlusionMap);
}

} // namespace facet
