#include "asset/image.h"

#include "core/error.h"

#include <stb_image.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <system_error>

namespace facet {

namespace {

std::string fileError(const std::filesystem::path& path, const std::string& what) {
    return path.string() + ": " + what;
}

std::uint32_t channel(std::uint32_t rgba, int c) { return (rgba >> (8 * c)) & 0xFFu; }

} // namespace

Image loadImage(const std::filesystem::path& path) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throw Error(fileError(path, "image file not found"));
    if (!std::filesystem::is_regular_file(path, ec)) throw Error(fileError(path, "not a regular file"));
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(fileError(path, "cannot open image file"));
    const std::vector<unsigned char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (bytes.empty()) throw Error(fileError(path, "image file is empty"));
    if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        throw Error(fileError(path, "image file is larger than 2 GiB"));

    // Check the size from the header first, so a hostile header cannot make us allocate.
    int w = 0, h = 0, comp = 0;
    const int len = static_cast<int>(bytes.size());
    if (!stbi_info_from_memory(bytes.data(), len, &w, &h, &comp))
        throw Error(fileError(path, std::string("not a readable image: ") + stbi_failure_reason()));
    if (w <= 0 || h <= 0 || static_cast<std::uint32_t>(w) > kMaxImageSide || static_cast<std::uint32_t>(h) > kMaxImageSide)
        throw Error(fileError(path, "image is " + std::to_string(w) + "x" + std::to_string(h) +
                                        "; facet accepts sides from 1 to " + std::to_string(kMaxImageSide)));

    std::unique_ptr<stbi_uc, void (*)(void*)> data(stbi_load_from_memory(bytes.data(), len, &w, &h, &comp, 4),
                                                   stbi_image_free);
    if (!data) throw Error(fileError(path, std::string("cannot decode image: ") + stbi_failure_reason()));

    Image image;
    image.width = static_cast<std::uint32_t>(w);
    image.height = static_cast<std::uint32_t>(h);
    image.pixels.resize(std::size_t(image.width) * image.height);
    std::memcpy(image.pixels.data(), data.get(), image.pixels.size() * 4);
    return image;
}

void writePng(const std::filesystem::path& path, const Image& image) {
    if (image.width == 0 || image.height == 0) throw Error(fileError(path, "cannot write an empty image"));
    const int stride = static_cast<int>(image.width * 4);
    if (!stbi_write_png(path.string().c_str(), static_cast<int>(image.width), static_cast<int>(image.height), 4,
                        image.pixels.data(), stride))
        throw Error(fileError(path, "cannot write PNG (is the folder there and writable?)"));
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
