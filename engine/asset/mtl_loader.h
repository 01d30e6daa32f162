// MTL material libraries: the colours (Ka, Kd, Ks, Ke), Ns, d/Tr, illum and the texture maps
// (map_Kd, map_Ks, map_Ns, map_Ke, map_d, map_Bump/bump/norm with -bm). Other statements are read
// past. Problems with values become warnings (an unreadable value keeps the default, an
// out-of-range one is clamped), so a sloppy MTL never rejects the model; a texture statement
// whose options are malformed is an error naming the file and line (facet::ParseError), since
// what it meant cannot be told.
#pragma once

#include "asset/model.h"

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace facet {

// The texture maps of a material, as the MTL names them.
enum class MapKind { Diffuse, Specular, Shininess, Emission, Alpha, Bump, Count };

struct MtlMap {
    std::string file;     // as written (unescaped, '/' separators); empty for none
    std::size_t line = 0; // where the statement was, for warnings about the texture
};

struct MtlMaterial {
    std::string name;
    Material material; // the values the statements set; its texture fields stay -1
    std::array<MtlMap, std::size_t(MapKind::Count)> maps{};

    const MtlMap& map(MapKind kind) const { return maps[std::size_t(kind)]; }
};

// Parses MTL text; `name` is the file named in warnings and errors.
std::vector<MtlMaterial> parseMtl(std::string_view text, const std::string& name, std::vector<Warning>& warnings);

// The file name in the arguments of a texture statement (map_Kd and friends), with every
// option (-o u v w, -clamp on, -mm base gain, ...) skipped, before or after the name. Empty when
// the statement names no file.
std::string textureFileName(std::string_view arguments);

// A texture statement's file name and its -bm value (1 when absent), its options checked:
// throws facet::ParseError naming `file` and `line` for an option missing its arguments or with
// an argument of the wrong kind (-bm x, -clamp maybe, -o 1 2 3 4).
struct TextureStatement {
    std::string file;
    float bumpScale = 1.0f;
};
TextureStatement parseTextureStatement(std::string_view arguments, const std::string& file, std::size_t line);

} // namespace facet
