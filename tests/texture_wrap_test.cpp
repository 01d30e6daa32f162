// glTF samplers' wraps (REPEAT, CLAMP_TO_EDGE, MIRRORED_REPEAT, per axis): texel indices
// wrapped as OpenGL's spec defines them (8.14.2), the loader's reading of samplers, then a quad
// whose 4x4 texture of distinct texels is drawn with uvs spanning [-1, 2] under each wrap: every
// texel's pixels checked by hand (nearest) and the clamped corners (bilinear), the CPU-run
// kernels byte-identical to the CPU, and the CPU against the OpenGL reference.
#include "draw_with.h"
#include "asset/gltf_loader.h"
#include "asset/image.h"
#include "core/names.h"
#include "core/lighting.h"
#include "core/texture_sampling.h"
#include "gl_support.h"
#include "renderer.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace facet {
namespace {

using test::Frame;

// OpenGL's wraps in the spec's other words, apart from core/texture_sampling.h: REPEAT counts
// 0 .. size - 1 over and over; MIRRORED_REPEAT counts 0 .. size - 1, then back size - 1 .. 0.
int glWrap(int i, int size, Wrap wrap) {
    if (wrap == Wrap::ClampToEdge) return std::clamp(i, 0, size - 1);
    const long long period = wrap == Wrap::Repeat ? size : 2LL * size;
    const long long m = ((i % period) + period) % period;
    return int(m < size ? m : 2LL * size - 1 - m);
}

constexpr Wrap kAllWraps[] = {Wrap::Repeat, Wrap::ClampToEdge, Wrap::MirroredRepeat};
constexpr TextureFilter kFilters[] = {TextureFilter::Nearest, TextureFilter::Bilinear, TextureFilter::Trilinear};

TEST(TextureWrap, TexelIndicesWrapAsOpenGlDefinesThem) {
    // By hand, on four texels: clamped to the edge; mirrored at each edge, the edge texel twice.
    EXPECT_EQ(wrapTexel(-3, 4, Wrap::ClampToEdge), 0);
    EXPECT_EQ(wrapTexel(9, 4, Wrap::ClampToEdge), 3);
    const int mirrored[][2] = {{-1, 0}, {-4, 3}, {-5, 3}, {-8, 0}, {-9, 0}, {4, 3}, {7, 0}, {8, 0}, {9, 1}};
    for (const auto& m : mirrored) EXPECT_EQ(wrapTexel(m[0], 4, Wrap::MirroredRepeat), m[1]) << m[0];
    EXPECT_EQ(wrapTexel(-1, 4, Wrap::Repeat), 3);
    for (Wrap wrap : kAllWraps)
        for (int size = 1; size <= 7; ++size) {
            for (int i = -40; i <= 40; ++i)
                ASSERT_EQ(wrapTexel(i, size, wrap), glWrap(i, size, wrap)) << nameOf(wrap) << " " << i << " of " << size;
            // Indices at int's ends (a huge coordinate's) wrap as well.
            for (int i : {INT_MIN, INT_MIN + 1, INT_MAX})
                EXPECT_EQ(wrapTexel(i, size, wrap), glWrap(i, size, wrap))
                    << nameOf(wrap) << " " << i << " of " << size;
        }
}

// A GPU converts a NaN to the integer 0 and saturates the rest; C++ leaves both undefined and x86
// gives INT_MIN. So every conversion that can meet a NaN goes through truncateToInt, and a NaN
// or infinite coordinate reads texel (0, 0) here as the kernels do on a GPU (the edge texel
// where clamped), under every filter (the vector paths are held to these functions by
// CpuRasterEquivalence).
TEST(TextureWrap, NonFiniteCoordinatesReadTheTexelAGpuReads) {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    EXPECT_EQ(truncateToInt(nan), 0);
    EXPECT_EQ(truncateToInt(-nan), 0);
    EXPECT_EQ(truncateToInt(inf), INT_MAX);
    EXPECT_EQ(truncateToInt(3e9f), INT_MAX);
    EXPECT_EQ(truncateToInt(-inf), INT_MIN);
    EXPECT_EQ(truncateToInt(-2147483648.0f), INT_MIN);
    EXPECT_EQ(truncateToInt(2147483520.0f), 2147483520);
    EXPECT_EQ(truncateToInt(-2.75f), -2);

    // 3 texels a side: INT_MIN, x86's NaN, wraps to texel 1 (a power of two would wrap it to 0).
    std::vector<std::uint32_t> texels(9 + 1);
    for (std::size_t i = 0; i < texels.size(); ++i) texels[i] = 0xFF000000u | std::uint32_t(i * 11 + 1);
    const MipLevel levels[] = {{3, 3, 0}, {1, 1, 9}};
    for (Wrap wrap : kAllWraps) {
        const TextureView view{texels.data(), levels, 2, wrap, wrap};
        for (float u : {nan, inf, -inf}) {
            const bool clamped = wrap == Wrap::ClampToEdge && u == inf;
            const std::uint32_t expected = clamped ? texels[8] : texels[0];
            const glm::vec2 uv = clamped ? glm::vec2(u) : glm::vec2(u, nan);
            for (TextureFilter filter : kFilters)
                EXPECT_EQ(sampleTexture8(view, filter, uv, 0.0f), expected)
                    << nameOf(wrap) << " " << nameOf(filter) << " at " << u;
            EXPECT_EQ(nearestIndex(view, 0, uv), clamped ? 8u : 0u) << nameOf(wrap) << " at " << u;
        }
    }
    EXPECT_EQ(packRgba8(glm::vec4(nan, 300.0f, -1.0f, 127.4f)), 0x7F00FF00u);
    EXPECT_TRUE(std::isnan(exp2Shared(nan)));
}

// The 4x4 image, top row first as glTF's images are: every texel its own colour.
Image texels() {
    Image image{4, 4, std::vector<std::uint32_t>(16)};
    for (std::uint32_t y = 0; y < 4; ++y)
        for (std::uint32_t x = 0; x < 4; ++x)
            image.pixels[y * 4 + x] =
                0xFF000000u | (std::uint32_t(200 - 50 * x) << 16) | ((30 + 60 * y) << 8) | (20 + 70 * x);
    return image;
}

// A folder per test (ctest runs them at once, each in a process of its own).
std::filesystem::path scratch() {
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    return test::scratchDir(std::string("texture_wrap/") + (test ? test->name() : "outside_a_test"));
}

// A glTF file of one square at z = 2 (x and y in [-1.5, 1.5]) with uvs from -1 (left, top) to 2
// (right, bottom), its base colour the 4x4 texture sampled by sampler 0 = {wrapS, wrapT} (as
// numbers: 10497 REPEAT, 33071 CLAMP_TO_EDGE, 33648 MIRRORED_REPEAT). `textures`: the
// document's textures, "[{\"source\":0,\"sampler\":0}]" unless given.
std::filesystem::path wrappedQuad(int wrapS, int wrapT, const std::string& textures = "[{\"source\":0,\"sampler\":0}]",
                                  const std::string& extraSamplers = "") {
    const float positions[] = {-1.5f, 1.5f, 2.0f, 1.5f, 1.5f, 2.0f, -1.5f, -1.5f, 2.0f, 1.5f, -1.5f, 2.0f};
    const float uvs[] = {-1.0f, -1.0f, 2.0f, -1.0f, -1.0f, 2.0f, 2.0f, 2.0f};
    std::string bytes(sizeof positions + sizeof uvs, '\0');
    std::memcpy(bytes.data(), positions, sizeof positions);
    std::memcpy(bytes.data() + sizeof positions, uvs, sizeof uvs);
    const std::filesystem::path dir = scratch();
    test::writeFile(dir / "quad.bin", bytes);
    writePng(dir / "texels.png", texels());
    const std::string json =
        R"({"asset":{"version":"2.0"},"buffers":[{"uri":"quad.bin","byteLength":80}],)"
        R"("bufferViews":[{"buffer":0,"byteLength":48},{"buffer":0,"byteOffset":48,"byteLength":32}],)"
        R"("accessors":[{"bufferView":0,"componentType":5126,"count":4,"type":"VEC3"},)"
        R"({"bufferView":1,"componentType":5126,"count":4,"type":"VEC2"}],)"
        R"("meshes":[{"primitives":[{"attributes":{"POSITION":0,"TEXCOORD_0":1},"material":0,"mode":5}]}],)"
        R"("materials":[{"pbrMetallicRoughness":{"baseColorTexture":{"index":0},"metallicFactor":0}},)"
        R"({"pbrMetallicRoughness":{"baseColorTexture":{"index":1}}}],)"
        R"("textures":)" + textures + R"(,"samplers":[{"wrapS":)" + std::to_string(wrapS) + R"(,"wrapT":)" +
        std::to_string(wrapT) + "}" + extraSamplers + R"(],"images":[{"uri":"texels.png"}],)"
        R"("nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"scene":0})";
    return test::writeFile(dir / "quad.gltf", json);
}

int glNumber(Wrap wrap) { return wrap == Wrap::ClampToEdge ? 33071 : wrap == Wrap::MirroredRepeat ? 33648 : 10497; }

bool hasWarning(const Scene& s, const std::string& text) {
    for (const Warning& w : s.warnings)
        if (w.message.find(text) != std::string::npos) return true;
    return false;
}

TEST(TextureWrap, LoaderKeepsEachSamplersWrapsAndWarnsOnlyOfUnknownOnes) {
    const Scene s = loadGltfScene(wrappedQuad(33071, 33648));
    EXPECT_TRUE(s.warnings.empty()) << s.warnings.at(0).message;
    const Model& m = *s.meshes.at(0);
    const Texture& t = m.textures.at(std::size_t(m.materials.at(0).texture));
    EXPECT_EQ(t.wrapS, Wrap::ClampToEdge);
    EXPECT_EQ(t.wrapT, Wrap::MirroredRepeat);

    // One image through two samplers: a texture for each pair of wraps; a texture without a
    // sampler repeats.
    const Scene two = loadGltfScene(wrappedQuad(33648, 10497, R"([{"source":0,"sampler":0},{"source":0,"sampler":1}])",
                                                R"(,{"wrapS":33071,"wrapT":33071})"));
    EXPECT_TRUE(two.warnings.empty()) << two.warnings.at(0).message;
    const Model& m2 = *two.meshes.at(0);
    ASSERT_EQ(m2.textures.size(), 1u) << "the mesh uses material 0 only";
    EXPECT_EQ(m2.textures[0].wrapS, Wrap::MirroredRepeat);
    EXPECT_EQ(m2.textures[0].wrapT, Wrap::Repeat);

    const Scene odd = loadGltfScene(wrappedQuad(1234, 33071));
    EXPECT_TRUE(hasWarning(odd, "wrapS 1234 is no glTF wrap mode; drawn as REPEAT")) << odd.warnings.size();
    const Model& m3 = *odd.meshes.at(0);
    EXPECT_EQ(m3.textures.at(0).wrapS, Wrap::Repeat);
    EXPECT_EQ(m3.textures.at(0).wrapT, Wrap::ClampToEdge);
}

constexpr int kSize = 96;

// The camera at the origin looking down +Z with focus 1: the square at z = 2 spans pixels 12 to
// 84 both ways, 24 pixels per unit of uv, 6 per texel; texel edges fall on pixel edges.
ViewParams facingView() { return ViewParams{glm::vec3(0.0f), glm::mat3(1.0f), 1.0f, 1.0f, 0.5f, 100.0f}; }

// The square seen at a grazing slant, so its far side samples the smaller mip levels.
ViewParams slantedView() {
    Camera camera = Camera::lookAt({-2.2f, 0.0f, 1.7f}, {0.0f, 0.0f, 2.0f});
    camera.nearPlane = 0.1f;
    camera.farPlane = 50.0f;
    return camera.view(1.0f);
}

Frame drawn(Backend backend, const Scene& scene, const ViewParams& view, const RenderSettings& settings) {
    return test::drawnThrough(backend, scene, view, settings, kSize, kSize);
}

RenderSettings classic(TextureFilter filter) {
    RenderSettings s = test::classicSettings();
    s.filter = filter;
    return s;
}

// The glTF uv at the centre of pixel (px, py) of the facing view.
glm::vec2 uvAt(int px, int py) {
    return {2.0f * ((float(px) + 0.5f) / 48.0f - 1.0f) + 0.5f, 0.5f - 2.0f * (1.0f - (float(py) + 0.5f) / 48.0f)};
}

// The image's texel a nearest sample at glTF uv reads under the wraps.
std::uint32_t nearestTexelAt(glm::vec2 uv, Wrap wrapS, Wrap wrapT) {
    const Image image = texels();
    const int x = glWrap(int(std::floor(uv.x * 4.0f)), 4, wrapS), y = glWrap(int(std::floor(uv.y * 4.0f)), 4, wrapT);
    return image.pixels[std::size_t(y * 4 + x)];
}

constexpr Wrap kPairs[][2] = {{Wrap::Repeat, Wrap::Repeat},
                              {Wrap::ClampToEdge, Wrap::ClampToEdge},
                              {Wrap::MirroredRepeat, Wrap::MirroredRepeat},
                              {Wrap::ClampToEdge, Wrap::MirroredRepeat},
                              {Wrap::MirroredRepeat, Wrap::Repeat}};

std::string pairName(const Wrap* pair) { return std::string(nameOf(pair[0])) + "/" + nameOf(pair[1]); }

// Nearest: the pixel at each texel's place in each of the nine tiles of the square (the middle
// one the texture itself) shows the texel the wraps choose. Bilinear: where both uvs are beyond
// [0, 1] by more than half a texel, a clamped square shows its corner texels exactly.
TEST(TextureWrap, EachTexelWhereTheWrapsPutIt) {
    for (const auto& pair : kPairs) {
        SCOPED_TRACE(pairName(pair));
        const Scene scene = loadGltfScene(wrappedQuad(glNumber(pair[0]), glNumber(pair[1])));
        const Frame nearest = drawn(Backend::Cpu, scene, facingView(), classic(TextureFilter::Nearest));
        int checked = 0;
        for (int py = 14; py < 84; py += 6)
            for (int px = 14; px < 84; px += 6) {
                const std::uint32_t got = nearest.color[std::size_t(py * kSize + px)];
                ASSERT_EQ(got, nearestTexelAt(uvAt(px, py), pair[0], pair[1])) << "pixel " << px << "," << py;
                ++checked;
            }
        EXPECT_EQ(checked, 144);
        if (pair[0] != Wrap::ClampToEdge || pair[1] != Wrap::ClampToEdge) continue;
        const Image image = texels();
        const Frame bilinear = drawn(Backend::Cpu, scene, facingView(), classic(TextureFilter::Bilinear));
        const struct {
            int x0, y0, texel;
        } corners[] = {{12, 12, 0}, {66, 12, 3}, {12, 66, 12}, {66, 66, 15}};
        for (const auto& c : corners)
            for (int py = c.y0; py < c.y0 + 18; ++py)
                for (int px = c.x0; px < c.x0 + 18; ++px)
                    ASSERT_EQ(bilinear.color[std::size_t(py * kSize + px)], image.pixels[std::size_t(c.texel)])
                        << "pixel " << px << "," << py;
    }
}

// The slanted view shows much of the square, and minifies some of it (trilinear blends levels).
TEST(TextureWrap, SlantedViewMinifies) {
    const Scene scene = loadGltfScene(wrappedQuad(33648, 33071));
    const Frame bilinear = drawn(Backend::Cpu, scene, slantedView(), classic(TextureFilter::Bilinear));
    const Frame trilinear = drawn(Backend::Cpu, scene, slantedView(), classic(TextureFilter::Trilinear));
    int covered = 0, blended = 0;
    for (std::size_t i = 0; i < bilinear.color.size(); ++i) {
        covered += bilinear.depth[i] < 1.0f;
        blended += bilinear.color[i] != trilinear.color[i];
    }
    std::printf("slanted view: %d pixels covered, %d of them blend levels\n", covered, blended);
    EXPECT_GT(covered, kSize * kSize / 4);
    EXPECT_GT(blended, covered / 20);
}

TEST(TextureWrap, KernelsEqualTheCpu) {
    if (!probeBackend(Backend::Kernels).usable)
        FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_KERNELS", probeBackend(Backend::Kernels).reason);
    for (const auto& pair : kPairs) {
        const Scene scene = loadGltfScene(wrappedQuad(glNumber(pair[0]), glNumber(pair[1])));
        for (const ViewParams& view : {facingView(), slantedView()})
            for (ShadingModel shading : {ShadingModel::Classic, ShadingModel::Lit})
                for (TextureFilter filter : kFilters)
                    for (int msaa : {1, 4}) {
                        RenderSettings settings;
                        settings.shading = shading;
                        settings.filter = filter;
                        settings.msaa = msaa;
                        const Frame cpu = drawn(Backend::Cpu, scene, view, settings);
                        const Frame kernels = drawn(Backend::Kernels, scene, view, settings);
                        EXPECT_EQ(cpu.color, kernels.color) << pairName(pair) << ", " << nameOf(shading) << ", "
                                                            << nameOf(filter) << ", msaa " << msaa;
                    }
    }
}

TEST(TextureWrap, CpuAgreesWithOpenGl) {
    FACET_REQUIRE_GL();
    for (const auto& pair : kPairs) {
        const Scene scene = loadGltfScene(wrappedQuad(glNumber(pair[0]), glNumber(pair[1])));
        for (const ViewParams& view : {facingView(), slantedView()})
            for (ShadingModel shading : {ShadingModel::Classic, ShadingModel::Lit})
                for (TextureFilter filter : kFilters) {
                    RenderSettings settings;
                    settings.shading = shading;
                    settings.filter = filter;
                    const Frame cpu = drawn(Backend::Cpu, scene, view, settings);
                    const Frame gl = drawn(Backend::Gl, scene, view, settings);
                    const test::Agreement agree = test::agreement(cpu, gl);
                    const std::string what = pairName(pair) + ", " + nameOf(shading) + ", " + nameOf(filter) +
                                             (view.eye == glm::vec3(0.0f) ? ", facing" : ", slanted");
                    std::printf("[ GL vs CPU, wraps ] %s: coverage %g%%, PSNR %g dB\n", what.c_str(),
                                agree.pixels * 100.0, agree.psnr);
                    EXPECT_GE(agree.pixels, 0.999) << what;
                    EXPECT_GE(agree.psnr, 40.0) << what;
                }
    }
}

} // namespace
} // namespace facet
