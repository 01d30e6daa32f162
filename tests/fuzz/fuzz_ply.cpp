// libFuzzer target: PLY bytes through the whole reader, header and body in all three encodings.
// The scratch folder holds a small texture, so inputs naming it ("comment TextureFile fuzz.png")
// reach the texture code too.
#include "asset/image.h"
#include "asset/ply_loader.h"
#include "core/error.h"
#include "fuzz_checks.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    const std::filesystem::path dir = FUZZ_SCRATCH_DIR;
    fuzz::writeFuzzImage(dir);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    try {
        fuzz::checkModel(facet::loadPlyFromBytes(bytes, "fuzz.ply", FUZZ_SCRATCH_DIR));
    } catch (const facet::Error&) {
        // A clear rejection is a correct answer to a bad file.
    }
    return 0;
}
