// libFuzzer target: MTL text through the parser, both as the loader sees it (decoded to UTF-8
// first) and raw, since parseMtl takes any text it is given.
#include "asset/mtl_loader.h"
#include "asset/text_file.h"
#include "core/error.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

void parse(std::string_view text) {
    std::vector<facet::Warning> warnings;
    for (const facet::MtlMaterial& m : facet::parseMtl(text, "fuzz.mtl", warnings)) {
        // A material is never left with an unusable colour.
        if (!std::isfinite(m.diffuse.r) || !std::isfinite(m.diffuse.g) || !std::isfinite(m.diffuse.b)) std::abort();
    }
    facet::textureFileName(text);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    parse(bytes);
    try {
        parse(facet::decodeText(bytes, "fuzz.mtl"));
    } catch (const facet::Error&) {
        // Binary or non-ASCII UTF-16: the loader reports it as a warning about the library.
    }
    return 0;
}
