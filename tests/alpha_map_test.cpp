// map_d read from an image (issue #28): an OBJ quad whose MTL names a map_d, drawn unlit (illum 0)
// over a plain background. facet's rule (docs/guide.md): map_d's value is the image's alpha where
// some texel's alpha is below 255, else its red, read as linear data; the material is cut out
// where that value is below 0.5, and the value is the fragment's alpha (times d, blended where
// d < 1). Each image's other channels carry another pattern, so reading the wrong channel, or
// decoding it as sRGB, draws another picture. Checked by hand on the CPU, the CPU-run kernels
// byte for byte against the CPU, and the CPU against the OpenGL reference.
#include "asset/image.h"
#include "asset/load_model.h"
#include "asset/png_encode.h"
#include "core/names.h"
#include "draw_with.h"
#include "gl_support.h"
#include "renderer.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace facet {
namespace {

using test::Frame;

constexpr int kSize = 64;
constexpr std::uint32_t kBackground = 0xFFFF0000u; // opaque blue (RGBA8, R in the low byte)

// A column of the 4x1 images: its texel's RGBA bytes.
struct Texel {
    std::uint8_t r, g, b, a;
};
using Columns = std::array<Texel, 4>;

// Alpha 0, 127 (just below the cut-off), 128 (just above) and 255; red and green the other way
// round, so reading either draws nearly the opposite picture.
constexpr Columns kRgba = {{{255, 255, 9, 0}, {200, 200, 9, 127}, {100, 100, 9, 128}, {0, 0, 9, 255}}};
// No alpha below 255: red is read. Green and blue are 255 - red (its luminance differs).
constexpr Columns kOpaqueRgba = {{{191, 64, 64, 255}, {0, 255, 255, 255}, {128, 127, 127, 255}, {127, 128, 128, 255}}};
// A grey PNG (one channel): 0 and 127 cut, 128 and 191 kept; as sRGB, 128 would be 0.216 (cut)
// and 191 0.52 (alpha 133).
constexpr std::uint8_t kGrey[4] = {0, 127, 128, 191};

// The pixel of the quad's material (Kd 1 0.2 0, unlit: encoding gives Kd back, 0.2 = 51/255)
// at fragment alpha a/255.
constexpr std::uint32_t drawn(std::uint32_t a) { return a << 24 | 51u << 8 | 255u; }

// A folder per test (ctest runs them at once, each in a process of its own).
std::filesystem::path scratch() {
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    return test::scratchDir(std::string("alpha_map/") + (test ? test->name() : "outside_a_test"));
}

void writeColumns(const std::filesystem::path& path, const Columns& columns) {
    Image image{4, 1, std::vector<std::uint32_t>(4)};
    for (std::size_t i = 0; i < 4; ++i) {
        const Texel& t = columns[i];
        image.pixels[i] = std::uint32_t(t.a) << 24 | std::uint32_t(t.b) << 16 | std::uint32_t(t.g) << 8 | t.r;
    }
    writePng(path, image);
}

// A quad at z = 2, x and y in [-1, 1], u from 0 (left) to 1 (right), material Kd 1 0.2 0,
// illum 0, with `statements` (map_d ...; d ...) added; the images beside it.
Scene alphaMappedQuad(const std::string& statements) {
    const std::filesystem::path dir = scratch();
    writeColumns(dir / "rgba.png", kRgba);
    writeColumns(dir / "opaque.png", kOpaqueRgba);
    test::writeFile(dir / "grey.png", encodePng(kGrey, 4, 1, 1, 8, 4, "grey.png"));
    test::writeFile(dir / "quad.mtl", "newmtl cut\nKd 1 0.2 0\nillum 0\n" + statements + "\n");
    test::writeFile(dir / "quad.obj", "mtllib quad.mtl\nv -1 -1 2\nv 1 -1 2\nv 1 1 2\nv -1 1 2\n"
                                      "vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nusemtl cut\nf 1/1 2/2 3/3 4/4\n");
    Scene scene = loadScene(dir / "quad.obj");
    EXPECT_TRUE(scene.warnings.empty()) << scene.warnings.at(0).toString();
    return scene;
}

// The camera at the origin looking down +Z with focus 1: the quad spans pixels 16 to 48 both
// ways, each of the four texel columns 8 pixels wide, their edges on pixel edges.
ViewParams facingView() { return ViewParams{glm::vec3(0.0f), glm::mat3(1.0f), 1.0f, 1.0f, 0.5f, 100.0f}; }

RenderSettings settingsFor(TextureFilter filter, int msaa = 1) {
    RenderSettings s;
    s.shading = ShadingModel::Lit;
    s.filter = filter;
    s.msaa = msaa;
    s.clearColor = kBackground;
    return s;
}

Frame drawn(Backend backend, const Scene& scene, const RenderSettings& settings) {
    return test::drawnThrough(backend, scene, facingView(), settings, kSize, kSize);
}

struct Case {
    const char* name;
    std::string statements;                // the MTL's map_d (and d)
    std::array<std::uint32_t, 4> expected; // each column's pixels
};

// Blends in linear light, then encoded (blendOver): Kd (1, 0.0331, 0) at a over blue (0, 0, 1),
// alpha a^2 + (1 - a). At a = 0.5 (d 0.5, alpha 255): R 0.5 and B 0.5 encode to 188, G 0.01655
// to 35, alpha 191. At a = 0.5 x 128/255 = 0.251: R 137, G 23, B 0.749 to 224 (224.48), alpha 207.
const Case kCases[] = {
    {"RGBA image: its alpha", "map_d rgba.png", {kBackground, kBackground, drawn(128), drawn(255)}},
    // -imfchan m (matte, the spec's name for alpha) is accepted and reads the same.
    {"RGBA image, -imfchan m", "map_d -imfchan m rgba.png", {kBackground, kBackground, drawn(128), drawn(255)}},
    {"opaque RGBA image: its red", "map_d opaque.png", {drawn(191), kBackground, drawn(128), kBackground}},
    {"grey image: its value, linear", "map_d grey.png", {kBackground, kBackground, drawn(128), drawn(191)}},
    {"RGBA image with d 0.5: cut, then blended",
     "map_d rgba.png\nd 0.5",
     {kBackground, kBackground, 0xCFE01789u, 0xBFBC23BCu}},
};

// Every pixel of each column as the rule gives it (nearest, so each pixel reads its column's
// texel), at one sample and at four (the forward cut-out path, each sample alpha-tested), and
// the background around the quad.
TEST(AlphaMap, EachColumnDrawnAsTheRuleSays) {
    for (const Case& c : kCases)
        for (int msaa : {1, 4}) {
            SCOPED_TRACE(std::string(c.name) + ", msaa " + std::to_string(msaa));
            const Frame frame =
                drawn(Backend::Cpu, alphaMappedQuad(c.statements), settingsFor(TextureFilter::Nearest, msaa));
            for (int y = 16; y < 48; ++y)
                for (int x = 16; x < 48; ++x) {
                    const std::uint32_t got = frame.color[std::size_t(y * kSize + x)];
                    const std::uint32_t want = c.expected[std::size_t((x - 16) / 8)];
                    ASSERT_EQ(got, want) << "pixel " << x << "," << y << ": 0x" << std::hex << got << " for 0x" << want;
                }
            for (int i : {0, 8 * kSize + 8, 60 * kSize + 60, 32 * kSize + 4})
                EXPECT_EQ(frame.color[std::size_t(i)], kBackground);
        }
}

TEST(AlphaMap, KernelsEqualTheCpu) {
    if (!probeBackend(Backend::Kernels).usable)
        FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_KERNELS", probeBackend(Backend::Kernels).reason);
    for (const Case& c : kCases) {
        const Scene scene = alphaMappedQuad(c.statements);
        for (TextureFilter filter : {TextureFilter::Nearest, TextureFilter::Bilinear, TextureFilter::Trilinear})
            for (int msaa : {1, 4}) {
                const RenderSettings s = settingsFor(filter, msaa);
                const Frame cpu = drawn(Backend::Cpu, scene, s), kernels = drawn(Backend::Kernels, scene, s);
                int differing = 0;
                for (std::size_t i = 0; i < cpu.color.size(); ++i) differing += cpu.color[i] != kernels.color[i];
                EXPECT_EQ(differing, 0) << "pixels the kernels draw otherwise: " << c.name << ", " << nameOf(filter)
                                        << ", msaa " << msaa;
            }
    }
}

// The reference's shader reads map_d as the CPU does: the pictures agree, and the middle of each
// column is the by-hand pixel within one step per channel.
TEST(AlphaMap, CpuAgreesWithOpenGl) {
    FACET_REQUIRE_GL();
    for (const Case& c : kCases) {
        const Scene scene = alphaMappedQuad(c.statements);
        for (TextureFilter filter : {TextureFilter::Nearest, TextureFilter::Bilinear, TextureFilter::Trilinear}) {
            const std::string what = std::string(c.name) + ", " + nameOf(filter);
            const Frame cpu = drawn(Backend::Cpu, scene, settingsFor(filter));
            const Frame gl = drawn(Backend::Gl, scene, settingsFor(filter));
            const test::Agreement agree = test::agreement(cpu, gl);
            std::printf("[ GL vs CPU, map_d ] %s: coverage %g%%, PSNR %g dB\n", what.c_str(), agree.pixels * 100.0,
                        agree.psnr);
            EXPECT_GE(agree.pixels, 0.999) << what;
            EXPECT_GE(agree.psnr, 40.0) << what;
            if (filter != TextureFilter::Nearest) continue;
            for (int column = 0; column < 4; ++column)
                EXPECT_LE(test::channelDiff(gl.color[std::size_t(32 * kSize + 20 + 8 * column)],
                                            c.expected[std::size_t(column)]),
                          1)
                    << what << ", column " << column;
        }
    }
}

} // namespace
} // namespace facet
