// Images from disk into RGBA8 textures with a full mip chain.
#pragma once

#include "core/material.h"

#include <cstdint>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace facet {

// An RGBA8 image in file order: row 0 is the top row of the picture.
struct Image {
    std::uint32_t width = 0;
    std::uint32_t height = 0;
    std::vector<std::uint32_t> pixels; // R in the low byte
};

// Largest side we accept from a file; a bigger image is refused before it is decoded.
inline constexpr std::uint32_t kMaxImageSide = 16384;

// PNG, JPEG, TGA and BMP (through stb_image; its other formats are refused). Throws
// facet::Error naming the file and the reason (missing, not an image, truncated, too large).
Image loadImage(const std::filesystem::path& path);

// The same from bytes already in memory (what loadImage reads); `name` is used in messages.
// Throws facet::Error for anything that is not a decodable image of sides 1 to kMaxImageSide.
Image decodeImage(const std::uint8_t* bytes, std::size_t size, const std::string& name);

// Writes a PNG (top row first). Throws facet::Error when the file cannot be written.
void writePng(const std::filesystem::path& path, const Image& image);

// A texture from an image in file order: flips it so row 0 is v = 0, then builds every mip
// level down to 1x1 (each texel the mean of the 2x2, 2x1 or 1x1 texels it covers).
Texture makeTexture(const Image& image, std::string source);

// The default material's texture: a high-contrast checker, so a missing texture is visible.
Texture makeCheckerTexture(std::uint32_t size = 64, std::uint32_t cells = 8);

} // namespace facet
