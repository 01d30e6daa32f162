// Multisampling against the OpenGL reference (a multisampled framebuffer resolved by a blit):
// the sample positions, the number of covered samples per pixel (white triangles on black, so
// the resolved colour counts them) and the resolved colour's PSNR. Skipped where no OpenGL 3.3
// context can be made; a sample count beyond the GL's GL_MAX_SAMPLES is skipped with a message
// (llvmpipe offers 4 only: tests/msaa_reference_test.cpp holds 1, 2, 4 and 8 samples to a
// reference written from the rules instead).
#include "draw_with.h"
#include "asset/image.h"
#include "asset/load_model.h"
#include "core/camera.h"
#include "core/error.h"
#include "core/multisample.h"
#include "cpu/cpu_renderer.h"
#include "gl/gl_reference.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <random>
#include <sstream>

namespace facet {
namespace {

// Whether GL is usable here, probed once (a context per test would be slow).
const GlAvailability& glHere() {
    static const GlAvailability availability = GlReferenceRenderer::probe();
    return availability;
}

#define FACET_REQUIRE_GL_MULTISAMPLE()                                                                                 \
    do {                                                                                                               \
        if (!glHere().usable) FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_GL", "OpenGL unusable: " + glHere().reason);   \
    } while (0)

// What must agree (tests/gl_reference_test.cpp explains why meshes from files get a percentile).
constexpr double kMinSampleCountAgreement = 0.999;
// Over the drawn pixels: measured 56.1 to 99 dB at 4 samples (Mesa 22's llvmpipe).
constexpr double kMinPsnr = 50.0;

// The model with every material white and untextured, on a black background: a pixel's red
// channel then says how many of its samples are covered.
Model whitened(Model model) {
    if (model.materials.empty()) model.materials.push_back(Material{});
    for (Material& m : model.materials) {
        m.diffuse = glm::vec3(1.0f);
        m.texture = -1;
    }
    model.mesh.cr.clear();
    model.mesh.cg.clear();
    model.mesh.cb.clear();
    return model;
}

// Random white triangles, slivers to large, in front of a camera at the origin looking down +Z.
Model randomTriangles() {
    Model model;
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> centre(-0.9f, 0.9f), depth(2.0f, 6.0f);
    for (int t = 0; t < 300; ++t) {
        const float size = t % 3 == 0 ? 0.01f : t % 3 == 1 ? 0.08f : 0.4f;
        std::uniform_real_distribution<float> d(-size, size);
        const float cx = centre(rng), cy = centre(rng), z = depth(rng);
        for (int k = 0; k < 3; ++k) {
            const float x = (cx + d(rng)) * z, y = (cy + d(rng)) * z;
            test::appendCorner(model.mesh, {x, y, z});
        }
    }
    model.materials.push_back(Material{"white", glm::vec3(1.0f), -1});
    model.mesh.ranges.push_back({0, 300, 0});
    generateNormals(model.mesh);
    computeBounds(model.mesh);
    return model;
}

struct Pictures {
    test::Frame cpu, gl;
};

Pictures renderBoth(GlReferenceRenderer& gl, const Model& model, const ViewParams& view, const RenderSettings& settings,
                    int width, int height) {
    Pictures p{test::Frame(width, height), test::Frame(width, height)};
    test::drawWith(CpuRenderer(2), model, view, settings, p.cpu.view());
    test::drawWith(gl, model, view, settings, p.gl.view());
    return p;
}

// The share of pixels whose covered-sample counts (red * samples / 255, rounded) agree.
double sampleCountAgreement(const Pictures& p, int samples, std::size_t& partial) {
    std::size_t same = 0;
    partial = 0;
    for (std::size_t i = 0; i < p.cpu.color.size(); ++i) {
        const auto count = [samples](std::uint32_t c) { return int(std::lround(double(c & 0xFFu) * samples / 255.0)); };
        const int a = count(p.cpu.color[i]), b = count(p.gl.color[i]);
        same += a == b;
        partial += a > 0 && a < samples;
    }
    return double(same) / double(p.cpu.color.size());
}

// Over the three colour channels of the pixels either picture draws on (not the clear colour in
// both): the background, equal in both, would only dilute the errors.
double psnr(const Pictures& p) {
    const std::uint32_t clear = RenderSettings{}.clearColor;
    double squares = 0.0;
    std::size_t drawn = 0;
    for (std::size_t i = 0; i < p.cpu.color.size(); ++i) {
        if (p.cpu.color[i] == clear && p.gl.color[i] == clear) continue;
        ++drawn;
        for (int c = 0; c < 3; ++c) {
            const double d = double((p.cpu.color[i] >> (8 * c)) & 0xFFu) - double((p.gl.color[i] >> (8 * c)) & 0xFFu);
            squares += d * d;
        }
    }
    if (drawn == 0) return 0.0; // nothing drawn: nothing agreed on
    const double mse = squares / (3.0 * double(drawn));
    return mse == 0.0 ? 99.0 : 10.0 * std::log10(255.0 * 255.0 / mse);
}

// The sample counts this GL offers exactly among 2, 4, 8 (beyond GL_MAX_SAMPLES it has none,
// and it may round a count up: llvmpipe gives 4 for 2); the others are named as skipped.
std::vector<int> offeredCounts(GlReferenceRenderer& gl) {
    std::vector<int> counts;
    for (const int samples : {2, 4, 8}) {
        try {
            gl.samplePositions(samples);
            counts.push_back(samples);
        } catch (const Error& e) {
            std::cout << "[ GL msaa ] " << samples << " samples skipped: " << e.what() << "\n";
        }
    }
    return counts;
}

TEST(GlMultisample, SamplePositionsAreGlsMirrored) {
    FACET_REQUIRE_GL_MULTISAMPLE();
    GlReferenceRenderer gl;
    ASSERT_GE(gl.maxSamples(), 4) << gl.rendererName() << " offers no 4-sample framebuffer";
    for (const int samples : offeredCounts(gl)) {
        const std::vector<glm::vec2> positions = gl.samplePositions(samples);
        for (int s = 0; s < samples; ++s) {
            const SamplePoint p = samplePoint(samples, s);
            EXPECT_EQ(p.x, positions[std::size_t(s)].x) << samples << " samples, sample " << s;
            EXPECT_EQ(p.y, 1.0f - positions[std::size_t(s)].y) << samples << " samples, sample " << s;
        }
    }
}

TEST(GlMultisample, CoveredSamplesPerPixelAgree) {
    FACET_REQUIRE_GL_MULTISAMPLE();
    GlReferenceRenderer gl;
    struct Scene {
        std::string name;
        Model model;
        ViewParams view;
    };
    std::vector<Scene> scenes;
    scenes.push_back({"random triangles", randomTriangles(),
                      ViewParams{glm::vec3(0.0f), glm::mat3(1.0f), 1.0f, 4.0f / 3.0f, 0.5f, 100.0f}});
    const Model scene = whitened(loadModel(test::sourceDir() / "assets/default_scene/scene.obj"));
    scenes.push_back({"default scene", scene, Camera::framing(scene.mesh, 4.0f / 3.0f).view(4.0f / 3.0f)});
    const std::filesystem::path bunny = test::modelsDir() / "common-3d-test-models/stanford-bunny.obj";
    if (std::filesystem::exists(bunny)) {
        const Model m = whitened(loadModel(bunny));
        scenes.push_back({"stanford-bunny", m, Camera::framing(m.mesh, 4.0f / 3.0f).view(4.0f / 3.0f)});
    }
    for (const int samples : offeredCounts(gl))
        for (const Scene& s : scenes) {
            RenderSettings settings = test::classicSettings(); // flat white: red counts the samples
            settings.msaa = samples;
            settings.clearColor = 0xFF000000u;
            const Pictures p = renderBoth(gl, s.model, s.view, settings, 320, 240);
            std::size_t partial = 0;
            const double agreement = sampleCountAgreement(p, samples, partial);
            std::cout << "[ GL msaa ] " << s.name << ", " << samples << " samples: covered-sample counts agree on "
                      << 100.0 * agreement << "% of pixels (" << partial << " partly covered pixels)\n";
            EXPECT_GE(agreement, kMinSampleCountAgreement) << s.name << ", " << samples << " samples";
            EXPECT_GT(partial, 100u) << s.name;
        }
}

TEST(GlMultisample, ResolvedColourPsnr) {
    FACET_REQUIRE_GL_MULTISAMPLE();
    GlReferenceRenderer gl;
    struct Case {
        std::string name;
        Model model;
        bool headlight;
    };
    std::vector<Case> cases;
    cases.push_back({"default scene", loadModel(test::sourceDir() / "assets/default_scene/scene.obj"), true});
    const std::filesystem::path dir = test::modelsDir();
    for (const char* m : {"common-3d-test-models/teapot.obj", "tinyobjloader/cornell_box.obj",
                          "obj2gltf/box-objects-groups-materials/box-objects-groups-materials.obj"})
        if (std::filesystem::exists(dir / m)) cases.push_back({m, loadModel(dir / m), true});
    const std::filesystem::path spot = dir / "common-3d-test-models/spot/spot_triangulated.obj";
    if (std::filesystem::exists(spot)) {
        Model model = loadModel(spot);
        model.textures.push_back(makeTexture(loadImage(dir / "common-3d-test-models/spot/spot_texture.png"), "spot"));
        if (model.materials.empty()) model.materials.push_back(Material{});
        for (Material& mat : model.materials) mat.texture = 0;
        cases.push_back({"spot, textured", std::move(model), false});
    }
    for (const int samples : offeredCounts(gl))
        for (const Case& c : cases) {
            const float aspect = 640.0f / 360.0f;
            const ViewParams view = Camera::framing(c.model.mesh, aspect).view(aspect);
            RenderSettings settings = test::classicSettings(); // with its headlight
            settings.headlight = c.headlight;
            const double one = psnr(renderBoth(gl, c.model, view, settings, 640, 360));
            settings.msaa = samples;
            const double many = psnr(renderBoth(gl, c.model, view, settings, 640, 360));
            std::cout << "[ GL msaa ] " << c.name << ": PSNR against GL " << one << " dB at 1 sample, " << many
                      << " dB at " << samples << "\n";
            EXPECT_GE(many, kMinPsnr) << c.name << ", " << samples << " samples";
        }
}

} // namespace
} // namespace facet
