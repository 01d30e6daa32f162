// Per-pixel arrays as files for the tools people read them with: NumPy's .npy (any of the
// frame's outputs, read by numpy.load) and a 16-bit greyscale PNG (instance ids, read by image
// tools and OpenCV's IMREAD_UNCHANGED). Both are written whole or not at all
// (asset/file_write.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <vector>

namespace facet {

// A C-order array of float32 or uint32 values of `shape` (rows first) as a version 1.0 .npy file.
void writeNpy(const std::filesystem::path& path, const float* values, const std::vector<std::size_t>& shape);
void writeNpy(const std::filesystem::path& path, const std::uint32_t* values, const std::vector<std::size_t>& shape);

// A width x height image of 16-bit grey values, top row first. Throws facet::Error naming the
// file and the first value past 65535, which a 16-bit PNG cannot hold.
void writePng16(const std::filesystem::path& path, const std::uint32_t* values, int width, int height);

} // namespace facet
