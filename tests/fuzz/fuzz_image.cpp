// libFuzzer target: image bytes through the decoder and into a mip-mapped texture. Nothing here
// calls stb_image before facet's own checks do. Headers may announce up to 16384x16384 (a 1 GiB
// decode), so the runs allow 4 GiB.
#include "asset/image.h"
#include "core/error.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const facet::Image image = facet::decodeImage(data, size, "fuzz.img");
        if (image.width == 0 || image.height == 0 || image.width > facet::kMaxImageSide ||
            image.height > facet::kMaxImageSide || image.pixels.size() != std::size_t(image.width) * image.height)
            std::abort();
        const facet::Texture texture = facet::makeTexture(image, "fuzz.img");
        if (texture.levels.empty() || texture.levels.back().width != 1 || texture.levels.back().height != 1) std::abort();
    } catch (const facet::Error&) {
        // Not an image, truncated or too large: a clear rejection.
    }
    return 0;
}
