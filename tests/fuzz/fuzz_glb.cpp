// libFuzzer target: bytes as a .glb through the whole glTF reader: the container check, the JSON
// check, tinygltf's parse (its file access routed through facet's folder rule) and facet's scene
// building, accessors and images included. The scratch folder holds a small image and buffer,
// so inputs naming them ("uri": "fuzz.png", "fuzz.bin") reach the file paths too.
#include "asset/gltf_loader.h"
#include "asset/image.h"
#include "core/error.h"
#include "fuzz_checks.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    const std::filesystem::path dir = FUZZ_SCRATCH_DIR;
    fuzz::writeFuzzImage(dir);
    std::ofstream(dir / "fuzz.bin", std::ios::binary) << std::string(64, '\1');
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    try {
        const facet::Scene scene = facet::loadGltfSceneFromBytes(bytes, true, "fuzz.glb", FUZZ_SCRATCH_DIR);
        for (const auto& model : scene.meshes) fuzz::checkModel(*model);
    } catch (const facet::Error&) {
        // A clear rejection is a correct answer to a bad file.
    }
    return 0;
}
