#include "asset/image.h"

#include "asset/file_write.h"
#include "asset/png_encode.h"
#include "core/error.h"

#include <stb_image.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <system_error>
#include <utility>
#include <vector>

namespace facet {

namespace {

std::string fileError(const std::filesystem::path& path, const std::string& what) {
    return path.string() + ": " + what;
}

std::uint32_t channel(std::uint32_t rgba, int c) { return (rgba >> (8 * c)) & 0xFFu; }

bool startsWith(const std::uint8_t* bytes, std::size_t size, const char* magic) {
    const std::size_t n = std::strlen(magic);
    return size >= n && std::memcmp(bytes, magic, n) == 0;
}

// stb_image also reads GIF, PSD, PIC, PNM and HDR, through decoders fuzzing shows to be less
// robust than the four facet documents; those files are refused by their signature.
const char* unsupportedFormat(const std::uint8_t* bytes, std::size_t size) {
    if (startsWith(bytes, size, "GIF8")) return "GIF";
    if (startsWith(bytes, size, "8BPS")) return "PSD";
    if (startsWith(bytes, size, "\x53\x80\xF6\x34")) return "Softimage PIC";
    if (startsWith(bytes, size, "P5") || startsWith(bytes, size, "P6")) return "PNM";
    if (startsWith(bytes, size, "#?")) return "Radiance HDR";
    return nullptr;
}

// stb_image allocates a PNG chunk's declared length before reading it, so a 70-byte file can
// ask for 2 GiB: refuse a chunk that runs past the end of the file first.
bool pngChunksFit(const std::uint8_t* b, std::size_t size) {
    for (std::size_t i = 8; i + 8 <= size;) {
        const std::size_t length = (std::size_t(b[i]) << 24) | (std::size_t(b[i + 1]) << 16) |
                                   (std::size_t(b[i + 2]) << 8) | b[i + 3];
        if (length > size - i - 8) return false;
        if (std::memcmp(b + i + 4, "IEND", 4) == 0) return true;
        i += 12 + length; // length, type, data, CRC
    }
    return true; // a missing IEND is stb's to report
}

// stb_image's reason for the last failure; some of its failures leave none.
std::string stbReason() {
    const char* why = stbi_failure_reason();
    return why && *why ? why : "corrupt image data";
}

// The PNG without its empty IDAT chunks (they carry no data, so the picture is the same), or
// an empty vector when it has none: stb_image computes `buffer + 0` on a null buffer for an
// empty IDAT before the first one with data, undefined behaviour that fuzzing found.
std::vector<std::uint8_t> withoutEmptyIdat(const std::uint8_t* b, std::size_t size) {
    std::vector<std::uint8_t> out;
    std::size_t copied = 0; // bytes of b before `copied` are in out (once out is in use)
    for (std::size_t i = 8; i + 8 <= size;) {
        const std::size_t length = (std::size_t(b[i]) << 24) | (std::size_t(b[i + 1]) << 16) |
                                   (std::size_t(b[i + 2]) << 8) | b[i + 3];
        const std::size_t next = i + 12 + length; // the data is within the file (pngChunksFit)
        if (length == 0 && std::memcmp(b + i + 4, "IDAT", 4) == 0) {
            out.insert(out.end(), b + copied, b + i);
            copied = std::min(next, size); // the CRC may be cut off
        }
        if (std::memcmp(b + i + 4, "IEND", 4) == 0) break;
        i = next;
    }
    if (copied != 0) out.insert(out.end(), b + copied, b + size);
    return out;
}

// stb takes SOI after any number of 0xFF fill bytes, as it does every marker.
bool isJpeg(const std::uint8_t* b, std::size_t size) {
    std::size_t i = 0;
    while (i < size && b[i] == 0xFF) ++i;
    return i > 0 && i < size && b[i] == 0xD8;
}

// The fewest bytes a TGA or uncompressed BMP of `pixels` pixels can have (0 for other formats,
// whose decoders notice missing data themselves).
std::size_t minimumFileSize(const std::uint8_t* b, std::size_t size, std::uint64_t pixels) {
    const auto le16 = [&](std::size_t at) { return std::size_t(b[at]) | (std::size_t(b[at + 1]) << 8); };
    if (startsWith(b, size, "\x89PNG") || isJpeg(b, size)) return 0;
    if (startsWith(b, size, "BM")) {
        // A file shorter than its own headers is truncated, whatever it declares.
        if (size < 18) return 18;
        const std::size_t infoSize = le16(14) | (le16(16) << 16);
        if (infoSize != 12 && infoSize < 40) return 0; // stb refuses it
        const std::size_t headers = 14 + infoSize;
        if (size < headers) return std::min<std::size_t>(headers, std::size_t(1) << 40);
        // stb refuses run-length (1, 2) and JPEG/PNG (4 and up) compression, and reads every
        // other value, negative ones too, as plain or bit-field pixels: those must all be there.
        if (infoSize != 12) {
            const auto compression = static_cast<std::int32_t>(le16(30) | (le16(32) << 16));
            if (compression == 1 || compression == 2 || compression >= 4) return 0;
        }
        const std::size_t bits = infoSize == 12 ? le16(24) : le16(28);
        const std::size_t offset = le16(10) | (le16(12) << 16);
        return std::size_t(std::min<std::uint64_t>(offset + pixels * bits / 8, std::uint64_t(1) << 40));
    }
    if (size < 18) return 18;
    const std::size_t type = b[2], bytesPerPixel = (std::size_t(b[16]) + 7) / 8;
    const std::size_t header = 18 + b[0] + (b[1] ? le16(5) * ((std::size_t(b[7]) + 7) / 8) : 0);
    if (type >= 9 && type <= 11) return header + std::size_t((pixels + 127) / 128) * (1 + bytesPerPixel);
    return header + std::size_t(pixels) * bytesPerPixel;
}

// The Huffman table of a DHT segment at `t` (its class byte) as stb reads it: more than 256
// codes overflow the decoder's table.
bool huffmanTableFits(const std::uint8_t* b, std::size_t size, std::size_t t, std::size_t& codes) {
    codes = 0;
    for (std::size_t k = 1; k <= 16; ++k) codes += t + k < size ? b[t + k] : 0;
    return codes <= 256;
}

// The JPEG decoder in Debian's stb_image (2022-09) overflows its Huffman table when a DHT
// segment declares more than 256 codes. Two checks, so that no DHT stb could read escapes:
// the segments walked as stb walks them (tables read whole by their own counts, whatever the
// segment length says), and every FF C4 pair outside APPn and COM payloads, since stb's
// reading of scan data may find markers where a walk does not.
bool jpegHuffmanTablesFit(const std::uint8_t* b, std::size_t size) {
    std::vector<std::pair<std::size_t, std::size_t>> opaque; // APPn and COM payloads
    std::size_t codes = 0;
    for (std::size_t i = 0; i + 1 < size;) {
        if (b[i] != 0xFF) { // entropy-coded data: skip to the next marker
            ++i;
            continue;
        }
        const std::uint8_t marker = b[i + 1];
        if (marker == 0xFF || marker == 0x00 || (marker >= 0xD0 && marker <= 0xD8) || marker == 0x01) {
            ++i; // fill byte, stuffed 0xFF in scan data, RSTn, SOI or TEM: no length follows
            continue;
        }
        if (marker == 0xD9 || i + 3 >= size) break; // EOI, or truncated (stb reports it)
        const std::size_t length = (std::size_t(b[i + 2]) << 8) | b[i + 3];
        if (marker == 0xC4 || marker == 0xDB) {
            std::ptrdiff_t left = std::ptrdiff_t(length) - 2;
            std::size_t t = i + 4;
            while (left > 0) {
                std::size_t bytes = 0;
                if (marker == 0xC4) {
                    if (!huffmanTableFits(b, size, t, codes)) return false;
                    bytes = 17 + codes;
                } else {
                    const unsigned precision = t < size ? b[t] >> 4 : 0;
                    if (precision > 1) break; // stb rejects the table
                    bytes = precision ? 129 : 65;
                }
                t += bytes;
                left -= std::ptrdiff_t(bytes);
            }
            if (left != 0) break; // stb rejects the segment
            i = t;
            continue;
        }
        if ((marker >= 0xE0 && marker <= 0xEF) || marker == 0xFE) opaque.emplace_back(i + 4, i + 2 + length);
        i += 2 + length; // the scan data after SOS is skipped byte by byte above
    }
    for (std::size_t i = 0; i + 2 < size; ++i) {
        if (b[i] != 0xFF || b[i + 1] != 0xC4) continue;
        bool inPayload = false;
        for (const auto& [begin, end] : opaque) inPayload = inPayload || (i >= begin && i < end);
        if (inPayload || i + 3 >= size) continue;
        // Every table of the segment, as stb would read them from here.
        std::ptrdiff_t left = std::ptrdiff_t((std::size_t(b[i + 2]) << 8) | b[i + 3]) - 2;
        for (std::size_t t = i + 4; left > 0 && t < size; t += 17 + codes) {
            if (!huffmanTableFits(b, size, t, codes)) return false;
            left -= std::ptrdiff_t(17 + codes);
        }
    }
    return true;
}

} // namespace

Image loadImage(const std::filesystem::path& path) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throw Error(fileError(path, "image file not found"));
    if (!std::filesystem::is_regular_file(path, ec)) throw Error(fileError(path, "not a regular file"));
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(fileError(path, "cannot open image file"));
    const std::vector<unsigned char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    return decodeImage(bytes.data(), bytes.size(), path.string());
}

Image decodeImage(const std::uint8_t* bytes, std::size_t size, const std::string& name) {
    if (size == 0) throw Error(name + ": image file is empty");
    if (size > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        throw Error(name + ": image file is larger than 2 GiB");

    if (const char* format = unsupportedFormat(bytes, size))
        throw Error(name + ": " + format + " images are not supported; use PNG, JPEG, TGA or BMP");
    if (startsWith(bytes, size, "\x89PNG\r\n\x1a\n") && !pngChunksFit(bytes, size))
        throw Error(name + ": truncated PNG (a chunk runs past the end of the file)");
    std::vector<std::uint8_t> cleaned;
    if (startsWith(bytes, size, "\x89PNG\r\n\x1a\n") && !(cleaned = withoutEmptyIdat(bytes, size)).empty()) {
        bytes = cleaned.data();
        size = cleaned.size();
    }
    if (isJpeg(bytes, size) && !jpegHuffmanTablesFit(bytes, size))
        throw Error(name + ": corrupt JPEG (a Huffman table with more than 256 codes)");

    // Check the size from the header first, so a hostile header cannot make us allocate.
    int w = 0, h = 0, comp = 0;
    const int len = static_cast<int>(size);
    if (!stbi_info_from_memory(bytes, len, &w, &h, &comp))
        throw Error(name + ": not a readable image: " + stbReason());
    if (w <= 0 || h <= 0 || static_cast<std::uint32_t>(w) > kMaxImageSide || static_cast<std::uint32_t>(h) > kMaxImageSide)
        throw Error(name + ": image is " + std::to_string(w) + "x" + std::to_string(h) +
                    "; facet accepts sides from 1 to " + std::to_string(kMaxImageSide));

    // stb_image decodes a truncated TGA or BMP as if the missing pixels were black; refuse a file
    // too short to hold its pixels, so it is neither a silently wrong texture nor a gigabyte
    // decoded from a few bytes.
    if (const std::size_t needed = minimumFileSize(bytes, size, std::uint64_t(w) * std::uint64_t(h)); size < needed)
        throw Error(name + ": truncated image: a " + std::to_string(w) + "x" + std::to_string(h) + " picture needs " +
                    std::to_string(needed) + " bytes, the file has " + std::to_string(size));

    std::unique_ptr<stbi_uc, void (*)(void*)> data(stbi_load_from_memory(bytes, len, &w, &h, &comp, 4),
                                                   stbi_image_free);
    if (!data && stbReason() == "outofmem")
        throw Error(name + ": not enough memory to decode this " + std::to_string(w) + "x" + std::to_string(h) +
                    " image");
    if (!data) throw Error(name + ": cannot decode image: " + stbReason());
    // The decoder reports the size again; it must be the one checked above.
    if (w <= 0 || h <= 0 || static_cast<std::uint32_t>(w) > kMaxImageSide || static_cast<std::uint32_t>(h) > kMaxImageSide)
        throw Error(name + ": image header and data disagree about its size");

    Image image;
    image.width = static_cast<std::uint32_t>(w);
    image.height = static_cast<std::uint32_t>(h);
    image.pixels.resize(std::size_t(image.width) * image.height);
    std::memcpy(image.pixels.data(), data.get(), image.pixels.size() * 4);
    return image;
}

void writePng(const std::filesystem::path& path, const Image& image) {
    if (image.width == 0 || image.height == 0) throw Error(fileError(path, "cannot write an empty image"));
    // Encoded in memory, then written whole (asset/file_write.h): never a truncated PNG.
    const std::string bytes = encodePng(reinterpret_cast<const std::uint8_t*>(image.pixels.data()), image.width,
                                        image.height, 4, 8, std::size_t(image.width) * 4, path.string());
    writeFileAtomically(path, bytes, "PNG");
}

Texture makeTexture(const Image& image, std::string source) {
    FACET_CHECK(image.width > 0 && image.height > 0, "cannot make a texture from an empty image: " + source);
    Texture tex;
    tex.source = std::move(source);

    std::size_t total = 0;
    for (std::uint32_t w = image.width, h = image.height;; w = std::max(1u, w / 2), h = std::max(1u, h / 2)) {
        tex.levels.push_back(MipLevel{w, h, static_cast<std::uint32_t>(total)});
        total += std::size_t(w) * h;
        if (w == 1 && h == 1) break;
    }
    tex.texels.resize(total);

    // Level 0: the image flipped so that row 0 is the bottom of the picture (v = 0).
    for (std::uint32_t y = 0; y < image.height; ++y)
        std::copy_n(image.pixels.begin() + std::ptrdiff_t(std::size_t(image.height - 1 - y) * image.width),
                    image.width, tex.texels.begin() + std::ptrdiff_t(std::size_t(y) * image.width));

    tex.translucent = std::any_of(image.pixels.begin(), image.pixels.end(), [](std::uint32_t c) { return c < 0xFF000000u; });

    // Each further level: every texel the rounded mean of the (up to) 2x2 texels it covers.
    for (std::size_t l = 1; l < tex.levels.size(); ++l) {
        const MipLevel& src = tex.levels[l - 1];
        const MipLevel& dst = tex.levels[l];
        const std::uint32_t* s = tex.texels.data() + src.offset;
        std::uint32_t* d = tex.texels.data() + dst.offset;
        const std::uint32_t sx = src.width > 1 ? 2 : 1, sy = src.height > 1 ? 2 : 1;
        for (std::uint32_t y = 0; y < dst.height; ++y)
            for (std::uint32_t x = 0; x < dst.width; ++x) {
                std::uint32_t out = 0;
                for (int c = 0; c < 4; ++c) {
                    std::uint32_t sum = 0;
                    for (std::uint32_t j = 0; j < sy; ++j)
                        for (std::uint32_t i = 0; i < sx; ++i)
                            sum += channel(s[std::size_t(y * sy + j) * src.width + x * sx + i], c);
                    const std::uint32_t n = sx * sy;
                    out |= ((sum + n / 2) / n) << (8 * c);
                }
                d[std::size_t(y) * dst.width + x] = out;
            }
    }
    return tex;
}

Texture makeCheckerTexture(std::uint32_t size, std::uint32_t cells) {
    FACET_CHECK(size > 0 && cells > 0 && size % cells == 0, "checker size must be a multiple of its cell count");
    Image image;
    image.width = image.height = size;
    image.pixels.resize(std::size_t(size) * size);
    const std::uint32_t cell = size / cells;
    for (std::uint32_t y = 0; y < size; ++y)
        for (std::uint32_t x = 0; x < size; ++x)
            image.pixels[std::size_t(y) * size + x] = ((x / cell + y / cell) % 2) ? 0xFFFF00FFu   // magenta
                                                                                 : 0xFF202020u; // near black
    return makeTexture(image, "default checker");
}

} // namespace facet
