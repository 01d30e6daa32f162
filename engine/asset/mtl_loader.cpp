#include "asset/mtl_loader.h"

#include "asset/text_scan.h"

#include <unordered_map>

namespace facet {

namespace {

struct TextureOption {
    std::string_view name;
    int required; // arguments that always follow
    int optional; // further numeric arguments that may follow
};

// The options of the MTL spec's texture statements, with the arguments each takes.
constexpr TextureOption kTextureOptions[] = {
    {"-blendu", 1, 0}, {"-blendv", 1, 0}, {"-bm", 1, 0},      {"-boost", 1, 0}, {"-cc", 1, 0},
    {"-clamp", 1, 0},  {"-imfchan", 1, 0}, {"-mm", 2, 0},     {"-o", 1, 2},     {"-s", 1, 2},
    {"-t", 1, 2},      {"-texres", 1, 0}, {"-type", 1, 0},
};

const TextureOption* findTextureOption(std::string_view token) {
    for (const TextureOption& option : kTextureOptions)
        if (option.name == token) return &option;
    return nullptr;
}

bool isNumber(std::string_view token) {
    float ignored = 0.0f;
    return text::parseFloat(token, ignored) == text::NumberStatus::Ok;
}

// Kd r g b, or Kd r for a grey. The spectral and CIEXYZ forms are not supported.
bool parseColor(text::Tokens& tokens, glm::vec3& color) {
    float c[3] = {0.0f, 0.0f, 0.0f};
    int count = 0;
    for (std::string_view token = tokens.next(); !token.empty(); token = tokens.next()) {
        if (count == 3 || text::parseFloat(token, c[count]) != text::NumberStatus::Ok) return false;
        ++count;
    }
    if (count == 1) c[1] = c[2] = c[0];
    else if (count != 3) return false;
    color = {c[0], c[1], c[2]};
    return true;
}

} // namespace

std::string textureFileName(std::string_view arguments) {
    // The name is the span from its first to its last token that is not an option, so a name
    // with spaces ("fuze uv.jpg") keeps them.
    std::string_view rest = arguments;
    const char* nameBegin = nullptr;
    const char* nameEnd = nullptr;
    text::Tokens tokens(rest);
    for (std::string_view token = tokens.next(); !token.empty(); token = tokens.next()) {
        if (const TextureOption* option = findTextureOption(token)) {
            for (int i = 0; i < option->required; ++i) tokens.next();
            for (int i = 0; i < option->optional; ++i) {
                text::Tokens peek = tokens;
                if (!isNumber(peek.next())) break;
                tokens = peek;
            }
            continue;
        }
        if (!nameBegin) nameBegin = token.data();
        nameEnd = token.data() + token.size();
    }
    if (!nameBegin) return {};
    return text::unescapePath(std::string_view(nameBegin, static_cast<std::size_t>(nameEnd - nameBegin)));
}

std::vector<MtlMaterial> parseMtl(std::string_view source, const std::string& name, std::vector<Warning>& warnings) {
    std::vector<MtlMaterial> materials;
    std::unordered_map<std::string, std::size_t> byName;
    MtlMaterial* current = nullptr; // points into `materials`, so re-pointed after every push_back
    bool skipping = false; // inside a repeated newmtl, whose statements are ignored

    text::LineReader lines(source);
    std::string_view line;
    while (lines.next(line)) {
        text::Tokens tokens(line);
        const std::string_view keyword = tokens.next();
        if (keyword.empty()) continue;
        const std::size_t at = lines.lineNumber();

        if (text::equalsIgnoreCase(keyword, "newmtl")) {
            std::string materialName(tokens.rest()); // names may hold spaces; tabs around them are trimmed
            if (materialName.empty()) {
                warnings.push_back({name, at, "newmtl without a name; its statements are ignored"});
                current = nullptr;
                skipping = true;
                continue;
            }
            if (byName.count(materialName)) {
                warnings.push_back({name, at, "material '" + materialName + "' defined again; the first definition is kept"});
                current = nullptr;
                skipping = true;
                continue;
            }
            byName.emplace(materialName, materials.size());
            materials.push_back(MtlMaterial{std::move(materialName), {0.8f, 0.8f, 0.8f}, {}, 0});
            current = &materials.back();
            skipping = false;
            continue;
        }
        const bool isKd = text::equalsIgnoreCase(keyword, "Kd");
        const bool isMapKd = text::equalsIgnoreCase(keyword, "map_Kd");
        if (!isKd && !isMapKd) continue; // Ka, Ks, Ns, d, Tr, illum, other maps: not rendered
        if (!current) {
            if (!skipping) warnings.push_back({name, at, std::string(keyword) + " before any newmtl is ignored"});
            continue;
        }
        if (isKd) {
            const std::string_view arguments = tokens.rest();
            if (!parseColor(tokens, current->diffuse))
                warnings.push_back({name, at, "cannot read Kd '" + std::string(arguments) + "' of material '" +
                                                  current->name + "' (expected 1 or 3 finite numbers); Kd ignored"});
        } else {
            current->diffuseMap = textureFileName(tokens.rest());
            current->diffuseMapLine = at;
            if (current->diffuseMap.empty())
                warnings.push_back({name, at, "map_Kd of material '" + current->name + "' names no file"});
        }
    }
    return materials;
}

} // namespace facet
