#include "asset/array_files.h"

#include "asset/file_write.h"
#include "core/error.h"

#include <array>
#include <cstdlib>
#include <string>

// libstb's deflate (the one its PNG writer uses), declared by its header only inside the
// implementation, which facet never compiles (libstb holds it).
extern "C" unsigned char* stbi_zlib_compress(unsigned char* data, int dataLength, int* outLength, int quality);

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

// PNG's CRC-32 (ISO 3309, reflected polynomial 0xEDB88320) over a chunk's type and data.
std::uint32_t crc32(const std::string& bytes, std::size_t from) {
    std::uint32_t c = 0xFFFFFFFFu;
    for (std::size_t i = from; i < bytes.size(); ++i) {
        c ^= static_cast<unsigned char>(bytes[i]);
        for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return ~c;
}

void appendBigEndian(std::string& out, std::uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out += char((v >> shift) & 0xFFu);
}

void appendChunk(std::string& png, const char* type, const std::string& data) {
    appendBigEndian(png, static_cast<std::uint32_t>(data.size()));
    const std::size_t start = png.size();
    png += type;
    png += data;
    appendBigEndian(png, crc32(png, start));
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
    // Each row: filter type 0 (none), then big-endian 16-bit samples.
    std::string raw;
    raw.reserve(h * (1 + 2 * w));
    for (std::size_t y = 0; y < h; ++y) {
        raw += '\0';
        for (std::size_t x = 0; x < w; ++x) {
            const std::uint32_t v = values[y * w + x];
            if (v > 0xFFFFu)
                throw Error(path.string() + ": pixel " + std::to_string(x) + "," + std::to_string(y) + " holds " +
                            std::to_string(v) + ", past the 65535 a 16-bit PNG holds; write .npy");
            raw += char(v >> 8);
            raw += char(v & 0xFFu);
        }
    }
    int compressedSize = 0;
    unsigned char* compressed = stbi_zlib_compress(reinterpret_cast<unsigned char*>(raw.data()),
                                                   static_cast<int>(raw.size()), &compressedSize, 8);
    if (!compressed) throw Error(path.string() + ": cannot compress the PNG");
    const std::string idat(reinterpret_cast<const char*>(compressed), std::size_t(compressedSize));
    std::free(compressed);
    std::string ihdr;
    appendBigEndian(ihdr, static_cast<std::uint32_t>(width));
    appendBigEndian(ihdr, static_cast<std::uint32_t>(height));
    ihdr += std::string("\x10\x00\x00\x00\x00", 5); // 16 bits, greyscale, deflate, filtered per row, no interlace
    std::string png("\x89PNG\r\n\x1a\n", 8);
    appendChunk(png, "IHDR", ihdr);
    appendChunk(png, "IDAT", idat);
    appendChunk(png, "IEND", "");
    writeFileAtomically(path, png, "PNG");
}

} // namespace facet
