// Materials and textures as both backends read them. A texture is one contiguous RGBA8 array
// holding its whole mip chain (level 0 first), so it uploads to the device in one copy.
// Texel rows run bottom to top: row 0 is v = 0, as OBJ texture coordinates and OpenGL expect.
#pragma once

#include "core/hd.h"

#include <cstdint>
#include <string>
#include <vector>

namespace facet {

struct MipLevel {
    std::uint32_t width = 0;
    std::uint32_t height = 0;
    std::uint32_t offset = 0; // first texel of this level in Texture::texels
};

struct Texture {
    std::string source;                // file it came from, or a description of a generated one
    std::vector<std::uint32_t> texels; // RGBA8, R in the low byte
    std::vector<MipLevel> levels;      // level 0 is full size, the last is 1x1

    std::uint32_t width() const { return levels.empty() ? 0 : levels[0].width; }
    std::uint32_t height() const { return levels.empty() ? 0 : levels[0].height; }
};

struct Material {
    std::string name;
    glm::vec3 diffuse{0.8f, 0.8f, 0.8f}; // MTL Kd
    std::int32_t texture = -1;           // index into Model::textures, -1 for none
};

} // namespace facet
