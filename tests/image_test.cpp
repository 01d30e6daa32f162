// Images into textures: PNG round trip, the flip to v = 0 at row 0, the mip chain, and clear
// errors for missing or broken files.
#include "asset/image.h"
#include "core/error.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <fstream>

namespace facet {
namespace {

Image gradient(std::uint32_t w, std::uint32_t h) {
    Image img{w, h, std::vector<std::uint32_t>(std::size_t(w) * h)};
    for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w; ++x) img.pixels[y * w + x] = 0xFF000000u | (x * 7 % 256) | ((y * 13 % 256) << 8) | (0x40u << 16);
    return img;
}

std::string messageOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

TEST(Image, PngRoundTrip) {
    const auto path = test::scratchDir("image") / "round_trip.png";
    const Image img = gradient(37, 21);
    writePng(path, img);
    const Image back = loadImage(path);
    EXPECT_EQ(back.width, 37u);
    EXPECT_EQ(back.height, 21u);
    EXPECT_EQ(back.pixels, img.pixels);
}

TEST(Image, TextureRowZeroIsTheBottomOfThePicture) {
    const Image img = gradient(4, 3);
    const Texture t = makeTexture(img, "g");
    for (std::uint32_t y = 0; y < 3; ++y)
        for (std::uint32_t x = 0; x < 4; ++x) EXPECT_EQ(t.texels[y * 4 + x], img.pixels[(2 - y) * 4 + x]);
}

TEST(Image, MipChainDownToOneByOne) {
    const Texture t = makeTexture(gradient(5, 3), "g");
    ASSERT_EQ(t.levels.size(), 3u); // 5x3, 2x1, 1x1
    EXPECT_EQ(t.levels[1].width, 2u);
    EXPECT_EQ(t.levels[1].height, 1u);
    EXPECT_EQ(t.levels[2].width, 1u);
    EXPECT_EQ(t.levels[2].offset, 15u + 2u);
    EXPECT_EQ(t.texels.size(), 15u + 2u + 1u);

    // A uniform image stays uniform on every level; a 2x2 averages exactly.
    Image two{2, 2, {0xFF000000u, 0xFF0000FFu, 0xFF00FF00u, 0xFFFFFFFFu}};
    const Texture m = makeTexture(two, "2x2");
    ASSERT_EQ(m.levels.size(), 2u);
    // (0 + 255 + 0 + 255) / 4 = 127.5 rounds to 128 for red; green likewise; blue 255 / 4 -> 64.
    EXPECT_EQ(m.texels[4], 0xFF408080u);
}

TEST(Image, CheckerIsVisible) {
    const Texture t = makeCheckerTexture();
    EXPECT_EQ(t.width(), 64u);
    EXPECT_NE(t.texels[0], t.texels[8]); // neighbouring cells differ
    EXPECT_EQ(t.levels.back().width, 1u);
}

TEST(Image, MissingTruncatedAndNonImageFilesNameTheFileAndTheFault) {
    const auto dir = test::scratchDir("image");
    const std::string missing = messageOf([&] { loadImage(dir / "no_such.png"); });
    EXPECT_NE(missing.find("no_such.png"), std::string::npos) << missing;
    EXPECT_NE(missing.find("not found"), std::string::npos) << missing;

    writePng(dir / "whole.png", gradient(64, 64));
    std::ifstream in(dir / "whole.png", std::ios::binary);
    std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    test::writeFile(dir / "truncated.png", bytes.substr(0, bytes.size() / 2));
    const std::string truncated = messageOf([&] { loadImage(dir / "truncated.png"); });
    EXPECT_NE(truncated.find("truncated.png"), std::string::npos) << truncated;
    EXPECT_NE(truncated.find("truncated PNG"), std::string::npos) << truncated;

    test::writeFile(dir / "text.png", "this is not a picture\n");
    const std::string text = messageOf([&] { loadImage(dir / "text.png"); });
    EXPECT_NE(text.find("text.png"), std::string::npos) << text;
    EXPECT_NE(text.find("not a readable image"), std::string::npos) << text;

    const std::string folder = messageOf([&] { loadImage(dir); });
    EXPECT_NE(folder.find("not a regular file"), std::string::npos) << folder;
    EXPECT_NE(folder.find(dir.filename().string()), std::string::npos) << folder;
}

TEST(Image, OversizedHeaderIsRefusedBeforeDecoding) {
    // PNG headers claiming 16385x2 (too wide for us) and 20000x20000 (too large for stb_image):
    // both refused from the header alone, naming the file.
    const auto dir = test::scratchDir("image");
    writePng(dir / "small.png", gradient(2, 2));
    std::ifstream in(dir / "small.png", std::ios::binary);
    std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const auto put32 = [&](std::size_t at, std::uint32_t v) {
        for (int i = 0; i < 4; ++i) bytes[at + std::size_t(i)] = char((v >> (24 - 8 * i)) & 0xFF);
    };
    put32(16, 16385); // IHDR width
    put32(20, 2);     // IHDR height
    test::writeFile(dir / "wide.png", bytes);
    const std::string wide = messageOf([&] { loadImage(dir / "wide.png"); });
    EXPECT_NE(wide.find("wide.png"), std::string::npos) << wide;
    EXPECT_NE(wide.find("16385x2"), std::string::npos) << wide;

    put32(16, 20000);
    put32(20, 20000);
    test::writeFile(dir / "huge.png", bytes);
    const std::string huge = messageOf([&] { loadImage(dir / "huge.png"); });
    EXPECT_NE(huge.find("huge.png"), std::string::npos) << huge;
}

} // namespace
} // namespace facet
