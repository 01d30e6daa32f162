// libFuzzer target: STL bytes through the whole reader, binary (told by size) and ASCII.
#include "asset/stl_loader.h"
#include "core/error.h"
#include "fuzz_checks.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    try {
        fuzz::checkModel(facet::loadStlFromBytes(bytes, "fuzz.stl"));
    } catch (const facet::Error&) {
        // A clear rejection is a correct answer to a bad file.
    }
    return 0;
}
