// libFuzzer target: MTL text through the parser, both as the loader sees it (decoded to UTF-8
// first) and raw, since parseMtl takes any text it is given.
#include "asset/mtl_loader.h"
#include "asset/text_file.h"
#include "core/error.h"
#include "core/material.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

void parseMaterials(std::string_view text, std::vector<facet::Warning>& warnings);

void parse(std::string_view text) {
    std::vector<facet::Warning> warnings;
    try {
        parseMaterials(text, warnings);
    } catch (const facet::ParseError&) {
        // A malformed texture option: the loader reports it with the file and line.
    }
    facet::textureFileName(text);
}

void parseMaterials(std::string_view text, std::vector<facet::Warning>& warnings) {
    for (const facet::MtlMaterial& m : facet::parseMtl(text, "fuzz.mtl", warnings)) {
        // A material is never left with an unusable colour.
        const facet::Material& v = m.material;
        for (const glm::vec3& c : {v.ambient, v.diffuse, v.specular, v.emission})
            if (!(c.r >= 0.0f && c.r <= 1.0f && c.g >= 0.0f && c.g <= 1.0f && c.b >= 0.0f && c.b <= 1.0f)) std::abort();
        if (!(v.shininess >= 0.0f && v.shininess <= 1000.0f && v.opacity >= 0.0f && v.opacity <= 1.0f)) std::abort();
    }
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
