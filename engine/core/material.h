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

// How a texture reads beyond [0, 1], per axis: OpenGL's GL_REPEAT, GL_CLAMP_TO_EDGE and
// GL_MIRRORED_REPEAT (spec 8.14.2), as a glTF sampler's wrapS and wrapT choose them. OBJ/MTL maps
// repeat. (One byte: a TextureView keeps its size with two.)
enum class Wrap : std::uint8_t { Repeat, ClampToEdge, MirroredRepeat };

struct Texture {
    std::string source;                // file it came from, or a description of a generated one
    std::vector<std::uint32_t> texels; // RGBA8, R in the low byte
    std::vector<MipLevel> levels;      // level 0 is full size, the last is 1x1
    bool translucent = false;          // some texel of the image has alpha below 255 (makeTexture sets it)
    Wrap wrapS = Wrap::Repeat;         // along u (x)
    Wrap wrapT = Wrap::Repeat;         // along v (y)

    std::uint32_t width() const { return levels.empty() ? 0 : levels[0].width; }
    std::uint32_t height() const { return levels.empty() ? 0 : levels[0].height; }
};

// The MTL illumination models facet draws: 0 the colour alone (Kd, unlit), 1 ambient and
// diffuse, 2 with Blinn-Phong specular. The loader draws the higher models as 2, with a warning.
enum class Illumination { Color = 0, Diffuse = 1, Specular = 2 };

// How a glTF material's alpha counts: ignored, an alpha test, or blended.
enum class AlphaMode { Opaque, Mask, Blend };

// glTF 2.0's metallic-roughness material (shaded by core/pbr.h under the lit model). Its base
// colour map is Material::texture, its emissive map Material::emissionMap and its normal map
// Material::bumpMap (bumpIsNormalMap); the rest is here. Colours are linear, as glTF states them.
struct MetallicRoughness {
    bool enabled = false;            // a glTF material: shaded by core/pbr.h, not Blinn-Phong
    glm::vec4 baseColor{1.0f};       // baseColorFactor
    float metallic = 1.0f, roughness = 1.0f;
    std::int32_t metalRoughMap = -1; // metallicRoughnessTexture (data: G roughness, B metalness)
    std::int32_t occlusionMap = -1;  // occlusionTexture (data: R)
    float occlusionStrength = 1.0f;
    glm::vec3 emission{0.0f};        // emissiveFactor times KHR_materials_emissive_strength
    float normalScale = 1.0f;        // normalTexture.scale
    AlphaMode alphaMode = AlphaMode::Opaque;
    float alphaCutoff = 0.5f;        // MASK's
    bool doubleSided = false;        // drawn two-sided whatever it says (culling is per frame)
};

// A material as the MTL states it, colours as written (sRGB-encoded, each channel in [0, 1]; the
// loader clamps them). Texture fields index Model::textures, -1 for none. Under the classic
// shading only `diffuse` and `texture` count, the texture replacing the colour; under the lit
// model (core/lighting.h) map_Kd multiplies Kd, as the MTL spec says.
struct Material {
    std::string name;
    glm::vec3 diffuse{0.8f, 0.8f, 0.8f}; // MTL Kd
    std::int32_t texture = -1;           // map_Kd: index into Model::textures, -1 for none
    glm::vec3 ambient{1.0f, 1.0f, 1.0f}; // Ka: scales the diffuse colour under the ambient light
    glm::vec3 specular{0.0f, 0.0f, 0.0f}; // Ks
    float shininess = 32.0f;             // Ns, the Blinn-Phong exponent, in [0, 1000]
    glm::vec3 emission{0.0f, 0.0f, 0.0f}; // Ke
    float opacity = 1.0f;                // d (or 1 - Tr), in [0, 1]
    Illumination illumination = Illumination::Specular;
    std::int32_t specularMap = -1;  // map_Ks (colour, multiplies Ks)
    std::int32_t shininessMap = -1; // map_Ns (data: its red channel scales Ns)
    std::int32_t emissionMap = -1;  // map_Ke (colour, multiplies Ke)
    std::int32_t alphaMap = -1;     // map_d (data: its alpha where the image has one, else its red)
    std::int32_t bumpMap = -1;      // map_Bump / bump / norm
    float bumpScale = 1.0f;         // the bump statement's -bm
    bool bumpIsNormalMap = false;   // the map came from `norm`: a tangent-space normal map, not heights
    MetallicRoughness pbr{};        // glTF's materials only
};

} // namespace facet
