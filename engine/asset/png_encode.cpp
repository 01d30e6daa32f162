#include "asset/png_encode.h"

#include "core/error.h"

#include <zlib.h>

#include <vector>

namespace facet {

namespace {

void appendBigEndian(std::string& out, std::uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out += char((v >> shift) & 0xFFu);
}

// Length, type, data, and the CRC-32 of type and data.
void appendChunk(std::string& png, const char* type, const std::string& data) {
    appendBigEndian(png, static_cast<std::uint32_t>(data.size()));
    const std::size_t start = png.size();
    png += type;
    png += data;
    const auto* typed = reinterpret_cast<const Bytef*>(png.data() + start);
    appendBigEndian(png, static_cast<std::uint32_t>(crc32(0L, typed, static_cast<uInt>(png.size() - start))));
}

} // namespace

std::string encodePng(const std::uint8_t* pixels, std::uint32_t width, std::uint32_t height, int channels,
                      int bitDepth, std::size_t stride, const std::string& name) {
    const std::size_t pixelBytes = std::size_t(channels) * std::size_t(bitDepth) / 8;
    const std::size_t rowBytes = std::size_t(width) * pixelBytes;
    std::vector<Bytef> filtered(std::size_t(height) * (1 + rowBytes));
    for (std::size_t y = 0; y < height; ++y) {
        const std::uint8_t* row = pixels + y * stride;
        Bytef* out = filtered.data() + y * (1 + rowBytes);
        out[0] = 1; // Sub
        for (std::size_t i = 0; i < rowBytes; ++i)
            out[1 + i] = Bytef(row[i] - (i >= pixelBytes ? row[i - pixelBytes] : 0));
    }
    uLongf size = compressBound(static_cast<uLong>(filtered.size()));
    std::string idat(size, '\0');
    const int status = compress2(reinterpret_cast<Bytef*>(idat.data()), &size, filtered.data(),
                                 static_cast<uLong>(filtered.size()), 1);
    if (status != Z_OK) throw Error(name + ": cannot compress the PNG (zlib error " + std::to_string(status) + ")");
    idat.resize(size);

    std::string ihdr;
    appendBigEndian(ihdr, width);
    appendBigEndian(ihdr, height);
    const char colorType = channels == 4 ? 6 : 0; // RGBA or grey
    ihdr += {char(bitDepth), colorType, 0, 0, 0};   // deflate, filtered per row, no interlace
    std::string png("\x89PNG\r\n\x1a\n", 8);
    appendChunk(png, "IHDR", ihdr);
    appendChunk(png, "IDAT", idat);
    appendChunk(png, "IEND", "");
    return png;
}

} // namespace facet
