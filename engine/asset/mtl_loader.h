// MTL material libraries, as far as facet renders them: the diffuse colour (Kd) and the
// diffuse texture (map_Kd). Every other statement is read past. A broken MTL never rejects the
// model: its problems become warnings and the material keeps its defaults.
#pragma once

#include "asset/model.h"

#include <string>
#include <string_view>
#include <vector>

namespace facet {

struct MtlMaterial {
    std::string name;
    glm::vec3 diffuse{0.8f, 0.8f, 0.8f};
    std::string diffuseMap;         // as written (unescaped, '/' separators); empty for none
    std::size_t diffuseMapLine = 0; // where map_Kd was, for warnings about the texture
};

// Parses MTL text; `name` is the file named in warnings.
std::vector<MtlMaterial> parseMtl(std::string_view text, const std::string& name, std::vector<Warning>& warnings);

// The file name in the arguments of a texture statement (map_Kd and friends), with every
// option (-o u v w, -clamp on, -mm base gain, ...) skipped, before or after the name. Empty when
// the statement names no file.
std::string textureFileName(std::string_view arguments);

} // namespace facet
