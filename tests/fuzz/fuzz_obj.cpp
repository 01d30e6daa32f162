// libFuzzer target: OBJ text through the whole loader (MTL libraries and textures included).
// The scratch folder holds a material library and a small texture, so inputs that name them
// ("mtllib fuzz.mtl", "usemtl lit", "usemtl mapped") reach the material and texture code too.
#include "fuzz_checks.h"
#include "asset/image.h"
#include "asset/obj_loader.h"
#include "core/error.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

void writeText(const std::filesystem::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    const std::filesystem::path dir = FUZZ_SCRATCH_DIR;
    fuzz::writeFuzzImage(dir);
    // Every map the MTL reader knows, so inputs reach the data maps, the height-to-normal
    // conversion (bump) and tangent generation (a bump-mapped material on a mesh with UVs).
    writeText(dir / "fuzz.mtl", "newmtl lit\nKd 1 0.5 0.25\nmap_Kd fuzz.png\nnewmtl plain\nKd 0.2\n"
                                "newmtl mapped\nKs 0.5 0.5 0.5\nKe 0.1 0.2 0.3\nmap_Ks fuzz.png\nmap_Ns fuzz.png\n"
                                "map_Ke fuzz.png\nmap_d -imfchan m fuzz.png\nbump -bm 2 fuzz.png\n"
                                "newmtl normal\nnorm fuzz.png\nmap_d fuzz.png\nd 0.5\n");
    writeText(dir / "broken.mtl", "newmtl bad\nmap_Kd -o 1 missing.png\nKd x\n");
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const facet::Model model = facet::loadObjFromString(text, "fuzz.obj", FUZZ_SCRATCH_DIR);
        // What the loader promises the renderer: indices in range, finite positions and normals, every
        // triangle in exactly one material range that names an existing material.
        const facet::Mesh& mesh = model.mesh;
        const std::size_t vertices = mesh.px.size();
        if (mesh.indices.size() % 3 != 0) std::abort();
        for (const std::uint32_t i : mesh.indices)
            if (i >= vertices) std::abort();
        for (std::size_t i = 0; i < vertices; ++i)
            if (!std::isfinite(mesh.px[i]) || !std::isfinite(mesh.py[i]) || !std::isfinite(mesh.pz[i]) ||
                !std::isfinite(mesh.nx[i]) || !std::isfinite(mesh.ny[i]) || !std::isfinite(mesh.nz[i]))
                std::abort();
        std::size_t covered = 0;
        for (const facet::MaterialRange& r : mesh.ranges) {
            if (r.firstTriangle != covered || r.material >= model.materials.size()) std::abort();
            covered += r.triangleCount;
        }
        if (covered != mesh.indices.size() / 3) std::abort();
        if (mesh.hasTangents())
            for (std::size_t i = 0; i < vertices; ++i)
                if (!std::isfinite(mesh.tx[i]) || !std::isfinite(mesh.ty[i]) || !std::isfinite(mesh.tz[i]) ||
                    (mesh.tw[i] != 1.0f && mesh.tw[i] != -1.0f))
                    std::abort();
        for (const facet::Material& m : model.materials)
            for (const std::int32_t map : {m.texture, m.specularMap, m.shininessMap, m.emissionMap, m.alphaMap, m.bumpMap})
                if (map >= 0 && static_cast<std::size_t>(map) >= model.textures.size()) std::abort();
    } catch (const facet::Error&) {
        // A clear rejection is a correct answer to a bad file.
    }
    return 0;
}
