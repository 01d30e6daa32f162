#include "asset/mtl_loader.h"

#include "asset/text_scan.h"

#include "core/error.h"

#include <cstdio>
#include <unordered_map>

namespace facet {

namespace {

// What an option's arguments must be.
enum class Argument { Number, OnOff, Channel, Word };

struct TextureOption {
    std::string_view name;
    int required;      // arguments that always follow
    int optional;      // further numeric arguments that may follow
    Argument argument; // the kind of every argument
};

// The options of the MTL spec's texture statements, with the arguments each takes.
constexpr TextureOption kTextureOptions[] = {
    {"-blendu", 1, 0, Argument::OnOff}, {"-blendv", 1, 0, Argument::OnOff},   {"-bm", 1, 0, Argument::Number},
    {"-boost", 1, 0, Argument::Number}, {"-cc", 1, 0, Argument::OnOff},       {"-clamp", 1, 0, Argument::OnOff},
    {"-imfchan", 1, 0, Argument::Channel}, {"-mm", 2, 0, Argument::Number},   {"-o", 1, 2, Argument::Number},
    {"-s", 1, 2, Argument::Number},     {"-t", 1, 2, Argument::Number},       {"-texres", 1, 0, Argument::Number},
    {"-type", 1, 0, Argument::Word},
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

bool argumentFits(Argument kind, std::string_view token) {
    switch (kind) {
    case Argument::Number: return isNumber(token);
    case Argument::OnOff: return text::equalsIgnoreCase(token, "on") || text::equalsIgnoreCase(token, "off");
    case Argument::Channel: return token.size() == 1 && std::string_view("rgbmlz").find(token[0]) != std::string_view::npos;
    case Argument::Word: return !token.empty() && !findTextureOption(token);
    }
    return false;
}

// Walks a texture statement's arguments: the file name is the span from its first to its last
// token that is not an option, so a name with spaces ("fuze uv.jpg") keeps them. `problem` (when
// given) receives the first malformed option; `bumpScale` the last -bm value.
std::string walkTextureStatement(std::string_view arguments, std::string* problem, float& bumpScale) {
    const char* nameBegin = nullptr;
    const char* nameEnd = nullptr;
    text::Tokens tokens(arguments);
    for (std::string_view token = tokens.next(); !token.empty(); token = tokens.next()) {
        const TextureOption* option = findTextureOption(token);
        if (!option) {
            if (!nameBegin) nameBegin = token.data();
            nameEnd = token.data() + token.size();
            continue;
        }
        for (int i = 0; i < option->required; ++i) {
            const std::string_view argument = tokens.next();
            if (!argumentFits(option->argument, argument)) {
                if (problem && problem->empty())
                    *problem = "texture option " + std::string(option->name) +
                               (argument.empty() ? " is missing an argument" : " cannot take '" + std::string(argument) + "'");
                break;
            }
            if (option->name == "-bm") text::parseFloat(argument, bumpScale);
        }
        for (int i = 0; i < option->optional; ++i) {
            text::Tokens peek = tokens;
            if (!isNumber(peek.next())) break;
            tokens = peek;
        }
    }
    if (!nameBegin) return {};
    return text::unescapePath(std::string_view(nameBegin, static_cast<std::size_t>(nameEnd - nameBegin)));
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

bool parseScalar(text::Tokens& tokens, float& value) {
    float v = 0.0f;
    if (text::parseFloat(tokens.next(), v) != text::NumberStatus::Ok || !tokens.next().empty()) return false;
    value = v;
    return true;
}

std::string formatNumber(float v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", double(v));
    return buffer;
}

// The statements carrying a value, and where each goes.
enum class ValueKind { Color, Scalar };
struct ValueStatement {
    std::string_view keyword;
    ValueKind kind;
    float lo, hi; // the range the MTL spec gives; values outside are clamped with a warning
};
constexpr ValueStatement kValueStatements[] = {
    {"Ka", ValueKind::Color, 0.0f, 1.0f}, {"Kd", ValueKind::Color, 0.0f, 1.0f}, {"Ks", ValueKind::Color, 0.0f, 1.0f},
    {"Ke", ValueKind::Color, 0.0f, 1.0f}, {"Ns", ValueKind::Scalar, 0.0f, 1000.0f},
    {"d", ValueKind::Scalar, 0.0f, 1.0f},  {"Tr", ValueKind::Scalar, 0.0f, 1.0f},
    {"illum", ValueKind::Scalar, 0.0f, 10.0f},
};

struct MapStatement {
    std::string_view keyword;
    MapKind kind;
};
constexpr MapStatement kMapStatements[] = {
    {"map_Kd", MapKind::Diffuse},  {"map_Ks", MapKind::Specular}, {"map_Ns", MapKind::Shininess},
    {"map_Ke", MapKind::Emission}, {"map_d", MapKind::Alpha},     {"map_Bump", MapKind::Bump},
    {"bump", MapKind::Bump},       {"norm", MapKind::Bump},
};

// Where a value statement's numbers go in the material.
float* scalarOf(Material& m, std::string_view keyword) {
    if (keyword == "Ns") return &m.shininess;
    return &m.opacity; // d, and Tr once turned into d
}
glm::vec3* colorOf(Material& m, std::string_view keyword) {
    if (keyword == "Ka") return &m.ambient;
    if (keyword == "Kd") return &m.diffuse;
    if (keyword == "Ks") return &m.specular;
    return &m.emission;
}

} // namespace

std::string textureFileName(std::string_view arguments) {
    float ignored = 1.0f;
    return walkTextureStatement(arguments, nullptr, ignored);
}

TextureStatement parseTextureStatement(std::string_view arguments, const std::string& file, std::size_t line) {
    TextureStatement statement;
    std::string problem;
    statement.file = walkTextureStatement(arguments, &problem, statement.bumpScale);
    if (!problem.empty()) throw ParseError(file, line, problem + " (in '" + std::string(arguments) + "')");
    return statement;
}

namespace {

// Reads one value statement into `m`, clamping into the spec's range with a warning.
void readValue(const ValueStatement& statement, text::Tokens& tokens, MtlMaterial& m, const std::string& file,
               std::size_t line, std::vector<Warning>& warnings) {
    const std::string arguments(tokens.rest());
    const std::string keyword(statement.keyword);
    const std::string where = " of material '" + m.name + "'";
    if (statement.kind == ValueKind::Color) {
        glm::vec3 c;
        if (!parseColor(tokens, c)) {
            warnings.push_back({file, line, "cannot read " + keyword + " '" + arguments + "'" + where +
                                                " (expected 1 or 3 finite numbers); " + keyword + " ignored"});
            return;
        }
        const glm::vec3 clamped = glm::clamp(c, statement.lo, statement.hi);
        if (clamped != c)
            warnings.push_back({file, line, keyword + " '" + arguments + "'" + where + " is outside [0, 1]; clamped"});
        *colorOf(m.material, statement.keyword) = clamped;
        return;
    }
    float v = 0.0f;
    if (!parseScalar(tokens, v)) {
        warnings.push_back({file, line, "cannot read " + keyword + " '" + arguments + "'" + where +
                                            " (expected one finite number); " + keyword + " ignored"});
        return;
    }
    const float clamped = glm::clamp(v, statement.lo, statement.hi);
    if (clamped != v)
        warnings.push_back({file, line, keyword + " " + formatNumber(v) + where + " is outside [" +
                                            formatNumber(statement.lo) + ", " + formatNumber(statement.hi) +
                                            "]; clamped to " + formatNumber(clamped)});
    if (statement.keyword == "illum") {
        const int model = static_cast<int>(clamped);
        if (float(model) != clamped || model > 2)
            warnings.push_back({file, line, "illum " + formatNumber(v) + where +
                                                " is not drawn (facet draws 0, 1 and 2); drawn as 2"});
        m.material.illumination = float(model) == clamped && model <= 2 ? Illumination(model) : Illumination::Specular;
        return;
    }
    *scalarOf(m.material, statement.keyword) = statement.keyword == "Tr" ? 1.0f - clamped : clamped;
}

} // namespace

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
            materials.push_back(MtlMaterial{materialName, Material{std::move(materialName)}, {}});
            current = &materials.back();
            skipping = false;
            continue;
        }
        const ValueStatement* value = nullptr;
        for (const ValueStatement& v : kValueStatements)
            if (text::equalsIgnoreCase(keyword, v.keyword)) value = &v;
        const MapStatement* map = nullptr;
        for (const MapStatement& m : kMapStatements)
            if (text::equalsIgnoreCase(keyword, m.keyword)) map = &m;
        if (!value && !map) continue; // other statements: not rendered
        if (map) {
            // Checked even outside a material: a malformed statement is an error wherever it is.
            const TextureStatement statement = parseTextureStatement(tokens.rest(), name, at);
            if (!current) {
                if (!skipping) warnings.push_back({name, at, std::string(keyword) + " before any newmtl is ignored"});
                continue;
            }
            current->maps[std::size_t(map->kind)] = MtlMap{statement.file, at};
            if (map->kind == MapKind::Bump) {
                current->material.bumpScale = statement.bumpScale;
                current->material.bumpIsNormalMap = text::equalsIgnoreCase(keyword, "norm");
            }
            if (statement.file.empty())
                warnings.push_back({name, at, std::string(keyword) + " of material '" + current->name + "' names no file"});
            continue;
        }
        if (!current) {
            if (!skipping) warnings.push_back({name, at, std::string(keyword) + " before any newmtl is ignored"});
            continue;
        }
        readValue(*value, tokens, *current, name, at, warnings);
    }
    return materials;
}

} // namespace facet
