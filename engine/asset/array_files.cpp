#include "asset/array_files.h"

#include "asset/file_write.h"
#include "asset/png_encode.h"
#include "core/error.h"

#include <string>

namespace facet {

namespace {

// The .npy header for `descr` and `shape`: the magic, version 1.0, and a dict padded with
// spaces to a 64-byte boundary, ending in a newline.
std::string npyHeader(const char* descr, const std::vector<std::size_t>& shape) {
    std::string dims;
    for (std::size_t d : shape) dims += std::to_string(d) + ", ";
    if (shape.size() > 1) dims.resize(dims.size() - 2); // (h, w); a single dimension keeps its comma
    std::string dict = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (" + dims + "), }";
    const std::size_t unpadded = 10 + dict.size() + 1;
    dict.append((64 - unpadded % 64) % 64, ' ');
    dict += '\n';
    std::string header("\x93NUMPY\x01\x00", 8);
    header += char(dict.size() & 0xFF);
    header += char(dict.size() >> 8);
    return header + dict;
}

std::size_t elements(const std::vector<std::size_t>& shape) {
    std::size_t n = 1;
    for (std::size_t d : shape) n *= d;
    return n;
}

template <class T>
void writeNpyOf(const std::filesystem::path& path, const char* descr, const T* values,
                const std::vector<std::size_t>& shape) {
    std::string bytes = npyHeader(descr, shape);
    bytes.append(reinterpret_cast<const char*>(values), elements(shape) * sizeof(T)); // x86: little-endian already
    writeFileAtomically(path, bytes, ".npy file");
}

} // namespace

void writeNpy(const std::filesystem::path& path, const float* values, const std::vector<std::size_t>& shape) {
    writeNpyOf(path, "<f4", values, shape);
}

void writeNpy(const std::filesystem::path& path, const std::uint32_t* values, const std::vector<std::size_t>& shape) {
    writeNpyOf(path, "<u4", values, shape);
}

void writePng16(const std::filesystem::path& path, const std::uint32_t* values, int width, int height) {
    const auto w = static_cast<std::size_t>(width), h = static_cast<std::size_t>(height);
    // Big-endian 16-bit samples, as PNG stores them.
    std::string raw;
    raw.reserve(h * 2 * w);
    for (std::size_t y = 0; y < h; ++y) {
        for (std::size_t x = 0; x < w; ++x) {
            const std::uint32_t v = values[y * w + x];
            if (v > 0xFFFFu)
                throw Error(path.string() + ": pixel " + std::to_string(x) + "," + std::to_string(y) + " holds " +
                            std::to_string(v) + ", past the 65535 a 16-bit PNG holds; write .npy");
            raw += char(v >> 8);
            raw += char(v & 0xFFu);
        }
    }
    const std::string png =
        encodePng(reinterpret_cast<const std::uint8_t*>(raw.data()), std::uint32_t(w), std::uint32_t(h), 1, 16, 2 * w,
                  path.string());
    writeFileAtomically(path, png, "PNG");
}

} // namespace facet
