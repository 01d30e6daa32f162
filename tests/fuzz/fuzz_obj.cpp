// libFuzzer target: OBJ text through the whole loader (MTL libraries and textures included), read
// both by the parallel lexer and line by line on one thread, which must agree.
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
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

void writeText(const std::filesystem::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

// A load's whole outcome: the model's arrays, ranges and warnings, or the error it gave.
struct Outcome {
    std::string error;
    facet::Model model;
};

Outcome load(const std::string& text, bool lexInParallel) {
    facet::ObjLoadOptions options;
    options.lexInParallel = lexInParallel;
    Outcome o;
    try {
        o.model = facet::loadObjFromString(text, "fuzz.obj", FUZZ_SCRATCH_DIR, options);
    } catch (const facet::Error& e) {
        o.error = e.what();
    }
    return o;
}

bool sameBits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

// The parallel lexer (asset/obj_chunks.h) reads as the one-thread parser does: the same model to
// the bit, the same warnings, or the same error.
bool sameOutcome(const Outcome& a, const Outcome& b) {
    if (a.error != b.error) return false;
    const facet::Mesh &m = a.model.mesh, &n = b.model.mesh;
    for (const auto member : {&facet::Mesh::px, &facet::Mesh::py, &facet::Mesh::pz, &facet::Mesh::u, &facet::Mesh::v,
                              &facet::Mesh::nx, &facet::Mesh::ny, &facet::Mesh::nz, &facet::Mesh::cr, &facet::Mesh::cg,
                              &facet::Mesh::cb, &facet::Mesh::tx, &facet::Mesh::ty, &facet::Mesh::tz, &facet::Mesh::tw})
        if (!sameBits(m.*member, n.*member)) return false;
    if (m.indices != n.indices || m.ranges.size() != n.ranges.size()) return false;
    for (std::size_t i = 0; i < m.ranges.size(); ++i)
        if (m.ranges[i].firstTriangle != n.ranges[i].firstTriangle || m.ranges[i].triangleCount != n.ranges[i].triangleCount ||
            m.ranges[i].material != n.ranges[i].material)
            return false;
    if (a.model.warnings.size() != b.model.warnings.size()) return false;
    for (std::size_t i = 0; i < a.model.warnings.size(); ++i)
        if (a.model.warnings[i].toString() != b.model.warnings[i].toString()) return false;
    return true;
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
    const Outcome lexed = load(text, true);
    if (!sameOutcome(lexed, load(text, false))) std::abort();
    if (!lexed.error.empty()) return 0; // a clear rejection is a correct answer to a bad file
    fuzz::checkModel(lexed.model);
    return 0;
}
