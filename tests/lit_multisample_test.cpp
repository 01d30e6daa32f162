// The lit model multisampled: cut-outs alpha-tested per pixel (or, with alpha-to-coverage, kept
// per sample by their alpha), blended materials blended per sample, then the box resolve. The
// CPU-run kernels must draw the CPU's bytes; the OpenGL reference (4 samples on llvmpipe) must
// agree on the covered samples per pixel and the resolved colour.
#include "draw_with.h"
#include "asset/image.h"
#include "asset/load_model.h"
#include "core/camera.h"
#include "core/multisample.h"
#include "cpu/cpu_renderer.h"
#include "gl/gl_reference.h"
#include "renderer.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>

namespace facet {
namespace {

RenderSettings litAt(int samples, bool alphaToCoverage) {
    RenderSettings s;
    s.shading = ShadingModel::Lit;
    s.msaa = samples;
    s.alphaToCoverage = alphaToCoverage;
    s.lights.directional[1] = DirectionalLight{{-1.0f, 0.2f, 0.3f}, {0.3f, 0.4f, 1.0f}, 0.4f};
    return s;
}

const Model& materialScene() {
    static const Model model = loadModel(test::sourceDir() / "assets/material_scene/scene.obj");
    return model;
}

ViewParams framing(const Model& model, int width, int height) {
    const float aspect = float(width) / float(height);
    return Camera::framing(model.mesh, aspect).view(aspect);
}

int channel(std::uint32_t c, int k) { return int(c >> (8 * k) & 0xFFu); }

// A white, unlit (illum 0, emissive) square cut out by a map_d whose value rises from 0 at its
// left edge to 1 at its right, on a black background: a pixel's red channel then counts its
// covered samples, and with alpha-to-coverage how many the alpha keeps.
Model alphaRamp() {
    Model model;
    model.mesh = test::texturedQuadMesh(-1.5f, -1.0f, 1.5f, 1.0f, 3.0f);
    generateNormals(model.mesh);
    Image ramp{256, 4, {}};
    for (std::uint32_t y = 0; y < ramp.height; ++y)
        for (std::uint32_t x = 0; x < ramp.width; ++x) ramp.pixels.push_back(0xFF000000u | x);
    model.textures = {makeTexture(ramp, "alpha ramp")};
    Material white;
    white.diffuse = glm::vec3(0.0f);
    white.emission = glm::vec3(1.0f);
    white.illumination = Illumination::Color;
    white.alphaMap = 0;
    model.materials = {white};
    return model;
}

TEST(LitMultisample, AlphaCoversTheFirstSamplesAsLlvmpipe) {
    // Sample s of N where alpha > s / N: none at 0, all at 1, the first half at one half.
    for (const int n : {2, 4, 8})
        for (int s = 0; s < n; ++s) {
            EXPECT_FALSE(alphaCoversSample(0.0f, s, n));
            EXPECT_TRUE(alphaCoversSample(1.0f, s, n));
            EXPECT_EQ(alphaCoversSample(0.5f, s, n), s < n / 2) << s << " of " << n;
            EXPECT_EQ(alphaCoversSample(float(s) / float(n), s, n), false); // strictly greater
            EXPECT_FALSE(alphaCoversSample(std::numeric_limits<float>::quiet_NaN(), s, n));
        }
    EXPECT_TRUE(alphaCoversSample(0.26f, 1, 4));
    EXPECT_FALSE(alphaCoversSample(0.25f, 1, 4));
}

// The CPU-run kernels draw the CPU's bytes, colour and depth, at every sample count, with and
// without alpha-to-coverage; the material scene has cut-out foliage and a blended pane.
TEST(LitMultisample, KernelsEqualTheCpuOnTheMaterialScene) {
#if defined(FACET_HAVE_KERNELS_HOST)
    const Model& model = materialScene();
    const int width = 320, height = 201;
    const ViewParams view = framing(model, width, height);
    for (const int samples : {2, 4, 8})
        for (const bool toCoverage : {false, true}) {
            const RenderSettings s = litAt(samples, toCoverage);
            test::Frame cpu(width, height), kernels(width, height);
            test::drawWith(CpuRenderer(2), model, view, s, cpu.view());
            RendererOptions o;
            o.backend = Backend::Kernels;
            Renderer renderer(o);
            renderer.setModel(model);
            renderer.render(view, s, kernels.view());
            EXPECT_EQ(cpu.color, kernels.color) << samples << " samples, alpha-to-coverage " << toCoverage;
            EXPECT_EQ(std::memcmp(cpu.depth.data(), kernels.depth.data(), cpu.depth.size() * sizeof(float)), 0)
                << samples << " samples, alpha-to-coverage " << toCoverage;
        }
#else
    FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_KERNELS", "the CUDA kernels cannot be built for the CPU here (no CCCL headers at configure time)");
#endif
}

// Multisampling smooths the cut-out edges (the picture differs from one sample's), and
// alpha-to-coverage changes only where a cut-out's alpha is partial.
TEST(LitMultisample, SamplesAndAlphaToCoverageChangeThePicture) {
    const Model& model = materialScene();
    const int width = 320, height = 201;
    const ViewParams view = framing(model, width, height);
    test::Frame one(width, height), four(width, height), covered(width, height);
    CpuRenderer cpu(2);
    test::drawWith(cpu, model, view, litAt(1, true), one.view());
    test::drawWith(cpu, model, view, litAt(4, false), four.view());
    test::drawWith(cpu, model, view, litAt(4, true), covered.view());
    test::Frame plain(width, height);
    test::drawWith(cpu, model, view, litAt(1, false), plain.view());
    EXPECT_EQ(one.color, plain.color) << "alpha-to-coverage changed a one-sample picture";
    EXPECT_NE(one.color, four.color);
    EXPECT_NE(four.color, covered.color);
}

// The ramp's covered samples per pixel: with alpha-to-coverage they follow the alpha, a quarter
// of the samples per quarter of the ramp; without, the alpha test keeps all or none.
TEST(LitMultisample, AlphaToCoverageFollowsTheRamp) {
    const Model model = alphaRamp();
    const int width = 96, height = 64;
    const ViewParams view{glm::vec3(0.0f), glm::mat3(1.0f), 1.0f, 1.5f, 0.5f, 100.0f};
    RenderSettings s = litAt(4, true);
    s.clearColor = 0xFF000000u;
    test::Frame frame(width, height);
    test::drawWith(CpuRenderer(2), model, view, s, frame.view());
    int seen[5] = {0, 0, 0, 0, 0};
    for (int x = 0; x < width; ++x) {
        const int red = channel(frame.color[std::size_t(height / 2) * width + std::size_t(x)], 0);
        const int count = (red * 4 + 127) / 255;
        ASSERT_EQ(red, (count * 255 * 2 + 4) / 8) << "pixel " << x << ": not a whole number of samples";
        ++seen[count];
    }
    for (int count = 0; count <= 4; ++count) EXPECT_GT(seen[count], 4) << count << " of 4 samples";
}

void expectGlAgrees(const std::string& name, const Model& model, const ViewParams& view, const RenderSettings& s,
                    int width, int height, bool countRed, GlReferenceRenderer& gl) {
    test::Frame cpu(width, height), ref(width, height);
    test::drawWith(CpuRenderer(2), model, view, s, cpu.view());
    test::drawWith(gl, model, view, s, ref.view());
    const test::Agreement a = test::agreement(cpu, ref, countRed);
    std::cout << "[ GL vs CPU, lit msaa " << s.msaa << (s.alphaToCoverage ? ", alpha-to-coverage" : "") << " ] " << name
              << ": " << (countRed ? "covered samples" : "coverage") << " equal on " << 100.0 * a.pixels
              << "% of pixels, PSNR " << a.psnr << " dB\n";
    EXPECT_GE(a.pixels, 0.9999) << name;
    EXPECT_GE(a.psnr, 45.0) << name; // measured 46.3 to 99 dB with Mesa 22 llvmpipe
}

TEST(LitMultisample, AgreesWithOpenGl) {
    const GlAvailability availability = GlReferenceRenderer::probe();
    if (!availability.usable) FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_GL", "OpenGL unusable: " + availability.reason);
    GlReferenceRenderer gl;
    const Model& scene = materialScene();
    for (const bool toCoverage : {false, true})
        for (const auto& [w, h] : {std::pair{480, 300}, std::pair{257, 199}})
            expectGlAgrees("material scene " + std::to_string(w) + "x" + std::to_string(h), scene, framing(scene, w, h),
                           litAt(4, toCoverage), w, h, false, gl);
    const Model ramp = alphaRamp();
    const ViewParams rampView{glm::vec3(0.0f), glm::mat3(1.0f), 1.0f, 1.5f, 0.5f, 100.0f};
    for (const bool toCoverage : {false, true}) {
        RenderSettings s = litAt(4, toCoverage);
        s.clearColor = 0xFF000000u;
        expectGlAgrees("alpha ramp", ramp, rampView, s, 96, 64, true, gl);
    }
}

} // namespace
} // namespace facet
