// Golden images: the default scene rendered by the CPU backend against pictures committed in
// tests/golden. Both are made by this code, so on the machine that made them they match to the
// bit; the tolerances allow for another compiler or C library rounding a float function
// differently: coverage identical, colour within 2 per channel on 99.9% of pixels.
// FACET_UPDATE_GOLDEN=1 rewrites the pictures (look at them before committing).
#include "draw_with.h"
#include "asset/image.h"
#include "asset/obj_loader.h"
#include "core/camera.h"
#include "cpu/cpu_renderer.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

namespace facet {
namespace {

struct GoldenCase {
    const char* file;
    int width, height;
    TextureFilter filter;
    bool headlight;
};

Image renderDefaultScene(const Model& model, const GoldenCase& c) {
    const float aspect = float(c.width) / float(c.height);
    RenderSettings settings = test::classicSettings();
    settings.filter = c.filter;
    settings.headlight = c.headlight;
    Image image{std::uint32_t(c.width), std::uint32_t(c.height), std::vector<std::uint32_t>(std::size_t(c.width) * c.height)};
    std::vector<float> depth(image.pixels.size());
    test::drawWith(CpuRenderer(2), model, Camera::framing(model.mesh, aspect).view(aspect), settings,
                          FrameView{image.pixels.data(), depth.data(), c.width, c.height});
    return image;
}

using test::channelDiff;

TEST(Golden, DefaultScene) {
    const Model model = loadObj(test::sourceDir() / "assets/default_scene/scene.obj");
    const GoldenCase cases[] = {{"default_scene_trilinear_light.png", 320, 180, TextureFilter::Trilinear, true},
                                {"default_scene_nearest.png", 257, 143, TextureFilter::Nearest, false}};
    const bool update = std::getenv("FACET_UPDATE_GOLDEN") != nullptr;
    const std::uint32_t clear = RenderSettings{}.clearColor;
    for (const GoldenCase& c : cases) {
        const auto path = test::sourceDir() / "tests/golden" / c.file;
        const Image image = renderDefaultScene(model, c);
        if (update) {
            writePng(path, image);
            continue;
        }
        const Image golden = loadImage(path);
        ASSERT_EQ(golden.width, image.width) << c.file;
        ASSERT_EQ(golden.height, image.height) << c.file;
        std::size_t coverageDiffers = 0, colourOver2 = 0;
        int maxDiff = 0;
        for (std::size_t i = 0; i < image.pixels.size(); ++i) {
            coverageDiffers += (image.pixels[i] == clear) != (golden.pixels[i] == clear);
            const int d = channelDiff(image.pixels[i], golden.pixels[i]);
            maxDiff = std::max(maxDiff, d);
            colourOver2 += d > 2;
        }
        std::cout << "[ golden ] " << c.file << ": coverage differs at " << coverageDiffers << " px, colour max diff "
                  << maxDiff << ", " << colourOver2 << " px over 2\n";
        EXPECT_EQ(coverageDiffers, 0u) << c.file;
        EXPECT_LE(double(colourOver2), 0.001 * double(image.pixels.size())) << c.file;
    }
    if (update) GTEST_SKIP() << "golden images rewritten; look at them, then commit";
}

} // namespace
} // namespace facet
