// What every loader promises the renderer, checked on whatever a fuzz target's loader returned:
// a mesh validateMesh accepts, material ranges covering every triangle once, finite positions
// and texture coordinates, unit normals and tangents, colours in [0, 1], and every texture a
// material names present. A broken promise aborts, which libFuzzer reports as a crash.
#pragma once

#include "asset/image.h"
#include "asset/model.h"
#include "core/error.h"

#include <cmath>
#include <filesystem>
#include <cstdlib>

namespace fuzz {

// The scratch folder's 4x4 PNG every target's materials may name (FUZZ_SCRATCH_DIR/fuzz.png).
inline void writeFuzzImage(const std::filesystem::path& dir) {
    std::filesystem::create_directories(dir);
    facet::Image image;
    image.width = image.height = 4;
    image.pixels.assign(16, 0xFF336699u);
    facet::writePng(dir / "fuzz.png", image);
}

inline void checkModel(const facet::Model& model) {
    const facet::Mesh& mesh = model.mesh;
    try {
        facet::validateMesh(mesh, model.materials.size(), model.source);
    } catch (const facet::Error&) {
        std::abort();
    }
    const std::size_t n = mesh.vertexCount();
    if (mesh.nx.size() != n || mesh.u.size() != n) std::abort();
    for (std::size_t i = 0; i < n; ++i) {
        const float length = std::hypot(mesh.nx[i], mesh.ny[i], mesh.nz[i]);
        if (!std::isfinite(mesh.px[i]) || !std::isfinite(mesh.py[i]) || !std::isfinite(mesh.pz[i]) ||
            !std::isfinite(mesh.u[i]) || !std::isfinite(mesh.v[i]) || !(std::fabs(length - 1.0f) < 1e-3f))
            std::abort();
    }
    if (mesh.hasTangents())
        for (std::size_t i = 0; i < n; ++i)
            if (!(std::fabs(std::hypot(mesh.tx[i], mesh.ty[i], mesh.tz[i]) - 1.0f) < 1e-3f) ||
                (mesh.tw[i] != 1.0f && mesh.tw[i] != -1.0f))
                std::abort();
    for (const std::vector<float>* c : {&mesh.cr, &mesh.cg, &mesh.cb})
        for (const float x : *c)
            if (!(x >= 0.0f && x <= 1.0f)) std::abort();
    std::size_t covered = 0; // the ranges cover every triangle once, in order, without gaps (core/mesh.h)
    for (const facet::MaterialRange& r : mesh.ranges) {
        if (r.firstTriangle != covered) std::abort();
        covered += r.triangleCount;
    }
    if (covered != mesh.triangleCount()) std::abort();
    for (const facet::Material& m : model.materials)
        for (const std::int32_t map : {m.texture, m.specularMap, m.shininessMap, m.emissionMap, m.alphaMap, m.bumpMap,
                                       m.pbr.metalRoughMap, m.pbr.occlusionMap})
            if (map >= 0 && static_cast<std::size_t>(map) >= model.textures.size()) std::abort();
}

} // namespace fuzz
