// The lit shading model (RenderSettings::shading = Lit, core/lighting.h): the shared sRGB and
// power functions against the C library's, the lighting terms on pixels whose colour can be
// worked out by hand, the CPU-run kernels drawing the CPU's bytes, and the OpenGL reference
// (GLSL, sRGB textures and framebuffer) agreeing with the CPU on lit textured scenes.
#include "draw_with.h"
#include "asset/load_model.h"
#include "core/camera.h"
#include "core/quad_shading.h"
#include "cpu/cpu_renderer.h"
#include "gl/gl_reference.h"
#include "renderer.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <cstring>
#include <iostream>

namespace facet {
namespace {

TEST(LitShading, SharedPowerAndSrgbMatchTheCLibrary) {
    for (float x = 0.001f; x <= 1.0f; x += 0.0007f)
        for (float e : {0.4166667f, 1.0f, 2.4f, 32.0f, 250.0f}) {
            const float expected = std::pow(x, e);
            EXPECT_NEAR(powShared(x, e), expected, 1e-7f + 4e-5f * expected) << x << "^" << e; // far below 8-bit steps
        }
    EXPECT_EQ(powShared(0.0f, 2.0f), 0.0f);
    EXPECT_EQ(powShared(0.0f, 0.0f), 1.0f);
    EXPECT_EQ(powShared(0.5f, 0.0f), 1.0f);
    for (int b = 0; b <= 255; ++b) {
        const float c = float(b) / 255.0f;
        const double exact = c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
        EXPECT_NEAR(srgbToLinear(c), exact, 1e-6) << b;
        // Encoding the decoded byte gives the byte back.
        EXPECT_EQ(int(linearToSrgb(srgbToLinear(c)) * 255.0f + 0.5f), b);
    }
    EXPECT_EQ(linearToSrgb(-1.0f), 0.0f);
    EXPECT_FLOAT_EQ(linearToSrgb(2.0f), 1.0f);
}

// One camera-facing quad filling a 16x16 target, normals towards the camera, the material `m`.
Model facingQuad(const Material& m) {
    Model model;
    model.source = "facing quad";
    Mesh& mesh = model.mesh;
    const float xs[4] = {-2, 2, 2, -2}, ys[4] = {-2, -2, 2, 2};
    for (int i = 0; i < 4; ++i) {
        mesh.px.push_back(xs[i]);
        mesh.py.push_back(ys[i]);
        mesh.pz.push_back(-1.0f);
        mesh.u.push_back(0.0f);
        mesh.v.push_back(0.0f);
        mesh.nx.push_back(0.0f);
        mesh.ny.push_back(0.0f);
        mesh.nz.push_back(1.0f);
    }
    mesh.indices = {0, 1, 2, 0, 2, 3};
    mesh.ranges = {MaterialRange{0, 2, 0}};
    computeBounds(mesh);
    model.materials.push_back(m);
    return model;
}

ViewParams facingView() { return test::facingView(); }

std::uint32_t centrePixel(const Model& model, const RenderSettings& settings) {
    test::Frame frame(16, 16);
    test::drawWith(CpuRenderer(1), model, facingView(), settings, frame.view());
    return frame.color[8 * 16 + 8];
}

RenderSettings lit() {
    RenderSettings s;
    s.shading = ShadingModel::Lit;
    return s;
}

int channel(std::uint32_t c, int k) { return int(c >> (8 * k) & 0xFFu); }

TEST(LitShading, HeadlightAndAmbientOnAFacingSurface) {
    Material m;
    m.diffuse = glm::vec3(0.5f, 0.25f, 1.0f);
    m.ambient = glm::vec3(1.0f);
    RenderSettings s = lit();
    s.lights.headlight = 0.6f;
    s.lights.ambient = 0.2f;
    s.lights.directional[0].intensity = 0.0f;
    const std::uint32_t c = centrePixel(facingQuad(m), s);
    // n . l = 1 for the headlight: kd (0.2 + 0.6), encoded.
    for (int k = 0; k < 3; ++k) {
        const float kd = srgbToLinear(m.diffuse[k]);
        EXPECT_NEAR(channel(c, k), linearToSrgb(kd * 0.8f) * 255.0f, 0.51f) << k;
    }
    EXPECT_EQ(channel(c, 3), 255);

    // Ka scales the ambient light only; illum 0 ignores the lights.
    m.ambient = glm::vec3(0.0f);
    EXPECT_NEAR(channel(centrePixel(facingQuad(m), s), 0), linearToSrgb(srgbToLinear(0.5f) * 0.6f) * 255.0f, 0.51f);
    m.illumination = Illumination::Color;
    EXPECT_EQ(channel(centrePixel(facingQuad(m), s), 0), int(0.5f * 255.0f + 0.5f)) << "illum 0: Kd as it is";
}

TEST(LitShading, SpecularHighlightOnlyWithIllum2AndKs) {
    Material m;
    m.diffuse = glm::vec3(0.2f);
    m.specular = glm::vec3(1.0f);
    m.shininess = 50.0f;
    RenderSettings s = lit();
    s.lights.directional[0].intensity = 0.0f;
    const int glossy = channel(centrePixel(facingQuad(m), s), 1);
    m.illumination = Illumination::Diffuse;
    const int matte = channel(centrePixel(facingQuad(m), s), 1);
    // The headlight's half vector is the view direction: (n . h)^Ns = 1 at the centre.
    EXPECT_NEAR(glossy, linearToSrgb(srgbToLinear(0.2f) * (0.15f + 0.7f) + 0.7f) * 255.0f, 0.51f);
    EXPECT_NEAR(matte, linearToSrgb(srgbToLinear(0.2f) * (0.15f + 0.7f)) * 255.0f, 0.51f);
}

// Values between 0 and 1, where decoding matters: Kd, Ks and Ke are sRGB colours, decoded to
// linear light; Ka is a factor on the ambient light, taken as it is (docs/guide.md).
TEST(LitShading, MidValuesOfKaKsAndKeAreTakenAsTheGuideSays) {
    Material m;
    m.diffuse = glm::vec3(0.6f, 0.3f, 0.45f);
    m.ambient = glm::vec3(0.5f, 0.25f, 0.75f);
    m.specular = glm::vec3(0.0f);
    m.illumination = Illumination::Diffuse;
    RenderSettings s = lit();
    s.lights.headlight = 0.0f;
    s.lights.directional[0].intensity = 0.0f;
    s.lights.ambient = 0.4f;
    // Ambient light alone: kd (linear) x ambient x Ka (as it is).
    std::uint32_t c = centrePixel(facingQuad(m), s);
    for (int k = 0; k < 3; ++k)
        EXPECT_NEAR(channel(c, k), linearToSrgb(srgbToLinear(m.diffuse[k]) * 0.4f * m.ambient[k]) * 255.0f, 0.51f)
            << "Ka " << m.ambient[k];
    // Emission alone (no light at all): Ke decoded, so encoding gives Ke back.
    m.emission = glm::vec3(0.3f, 0.5f, 0.7f);
    s.lights.ambient = 0.0f;
    c = centrePixel(facingQuad(m), s);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(channel(c, k), m.emission[k] * 255.0f, 0.51f) << "Ke " << m.emission[k];
    // The headlight's highlight at the centre, (n . h)^Ns = 1: Ks decoded, times the light.
    m.emission = glm::vec3(0.0f);
    m.diffuse = glm::vec3(0.0f);
    m.specular = glm::vec3(0.5f, 0.25f, 0.75f);
    m.illumination = Illumination::Specular;
    s.lights.headlight = 0.6f;
    c = centrePixel(facingQuad(m), s);
    for (int k = 0; k < 3; ++k)
        EXPECT_NEAR(channel(c, k), linearToSrgb(srgbToLinear(m.specular[k]) * 0.6f) * 255.0f, 0.51f)
            << "Ks " << m.specular[k];
}

// A frame's materials are drawn forward, and its backends look for forward tiles, only under
// the lit model, where a material blends (d < 1) or, multisampled, is a cut-out: the frame
// plan's decision (FramePlan::forwardMaterials), which both backends read.
TEST(LitShading, FramesDrawForwardOnlyWithBlendedOrMultisampledCutOutMaterials) {
    std::vector<ShadeMaterial> materials(3);
    RenderSettings s = lit();
    const auto forward = [&] {
        const ModelFacts facts = modelFacts(Mesh{}, materials.data(), materials.size());
        return planFrame(s, facts, ViewParams{}, 16, 16).forwardMaterials;
    };
    EXPECT_FALSE(forward()) << "opaque materials";
    materials[2].cutout = true;
    EXPECT_FALSE(forward()) << "a cut-out at one sample";
    s.msaa = 4;
    EXPECT_TRUE(forward()) << "a cut-out at 4 samples";
    materials[2].cutout = false;
    materials[1].opacity = 0.5f;
    EXPECT_TRUE(forward()) << "a blended material";
    s.shading = ShadingModel::Classic;
    EXPECT_FALSE(forward()) << "the classic look";
}

TEST(LitShading, DirectionalLightsAndTwoSidedNormals) {
    Material m;
    m.diffuse = glm::vec3(1.0f);
    RenderSettings s = lit();
    s.lights.headlight = 0.0f;
    s.lights.ambient = 0.0f;
    s.lights.directional[0] = DirectionalLight{{0.0f, 0.0f, 2.0f}, {1.0f, 0.5f, 0.0f}, 0.5f}; // towards +Z
    Model model = facingQuad(m);
    const std::uint32_t front = centrePixel(model, s);
    EXPECT_NEAR(channel(front, 0), linearToSrgb(0.5f) * 255.0f, 0.51f);
    EXPECT_NEAR(channel(front, 1), linearToSrgb(0.25f) * 255.0f, 0.51f);
    EXPECT_EQ(channel(front, 2), 0);
    // Normals pointing away are turned towards the viewer: the same picture.
    for (float& z : model.mesh.nz) z = -1.0f;
    EXPECT_EQ(centrePixel(model, s), front);
    // A light from behind the surface adds nothing.
    s.lights.directional[0].direction = {0.0f, 0.0f, -1.0f};
    EXPECT_EQ(channel(centrePixel(model, s), 0), 0);
}

const Model& defaultScene() {
    static const Model model = loadModel(test::sourceDir() / "assets/default_scene/scene.obj");
    return model;
}

// A second directional light, blue, from the left: the lit scenes below use every light.
RenderSettings litWithTwoSuns(TextureFilter filter) {
    RenderSettings s = lit();
    s.filter = filter;
    s.lights.directional[1] = DirectionalLight{{-1.0f, 0.2f, 0.3f}, {0.3f, 0.4f, 1.0f}, 0.4f};
    return s;
}

// `model` lit through the CPU, the CPU-run kernels and (where OpenGL is usable) the GL reference:
// the kernels must draw the CPU's bytes, the reference agree on coverage (99.99% of pixels) and
// colour (PSNR 45 dB at least: measured 46.3 dB low over the bump-mapped floor, 48.5 to 99 dB
// elsewhere, with Mesa 22's llvmpipe).
void expectLitAgreementAt(const std::string& name, const Model& model, const ViewParams& view, const RenderSettings& s,
                          int width, int height, GlReferenceRenderer* gl) {
    test::Frame cpu(width, height);
    test::drawWith(CpuRenderer(2), model, view, s, cpu.view());
#if defined(FACET_HAVE_KERNELS_HOST)
    test::Frame kernels(width, height);
    RendererOptions o;
    o.backend = Backend::Kernels;
    Renderer renderer(o);
    renderer.setModel(model);
    renderer.render(view, s, kernels.view());
    EXPECT_EQ(cpu.color, kernels.color) << name << ": the CPU-run kernels draw other bytes";
    EXPECT_EQ(std::memcmp(cpu.depth.data(), kernels.depth.data(), cpu.depth.size() * sizeof(float)), 0) << name;
#endif
    if (!gl) return;
    test::Frame ref(width, height);
    test::drawWith(*gl, model, view, s, ref.view());
    const test::Agreement a = test::agreement(cpu, ref);
    std::cout << "[ GL vs CPU, lit ] " << name << " " << width << "x" << height << " " << nameOf(s.filter)
              << ": coverage " << 100.0 * a.pixels << "%, PSNR " << a.psnr << " dB\n";
    EXPECT_GE(a.pixels, 0.9999) << name;
    EXPECT_GE(a.psnr, 45.0) << name; // measured 46.3 to 99 dB with Mesa 22 llvmpipe
}

// The same with the camera framing the model.
void expectLitAgreement(const std::string& name, const Model& model, const RenderSettings& s, int width, int height,
                        GlReferenceRenderer* gl) {
    const float aspect = float(width) / float(height);
    expectLitAgreementAt(name, model, Camera::framing(model.mesh, aspect).view(aspect), s, width, height, gl);
}

// The GL reference, or null (with the reason printed) where OpenGL is unusable; under
// FACET_REQUIRE_GL=1 that fails instead.
std::unique_ptr<GlReferenceRenderer> glReference() {
    const GlAvailability gl = GlReferenceRenderer::probe();
    if (gl.usable) return std::make_unique<GlReferenceRenderer>();
    if (std::getenv("FACET_REQUIRE_GL")) ADD_FAILURE() << "OpenGL unusable: " << gl.reason;
    std::cout << "[ GL vs CPU, lit ] OpenGL unusable (" << gl.reason << "): the kernels alone are compared\n";
    return nullptr;
}

TEST(LitShading, DefaultSceneOnEveryPath) {
    const auto gl = glReference();
    struct Case {
        int width, height;
        TextureFilter filter;
    };
    for (const Case& c : {Case{640, 360, TextureFilter::Trilinear}, Case{321, 241, TextureFilter::Bilinear},
                          Case{400, 300, TextureFilter::Nearest}})
        expectLitAgreement("default scene", defaultScene(), litWithTwoSuns(c.filter), c.width, c.height, gl.get());
}

// facet-scenegen --scene materials: glossy, bump-mapped, cut-out, vertex-coloured, emissive and
// transparent materials.
TEST(LitShading, MaterialSceneOnEveryPath) {
    const Model model = loadModel(test::sourceDir() / "assets/material_scene/scene.obj");
    EXPECT_TRUE(model.warnings.empty());
    ASSERT_TRUE(model.mesh.hasVertexColors());
    const auto gl = glReference();
    for (TextureFilter filter : {TextureFilter::Trilinear, TextureFilter::Bilinear, TextureFilter::Nearest})
        for (const auto& [w, h] : {std::pair{480, 300}, std::pair{257, 199}})
            expectLitAgreement("material scene", model, litWithTwoSuns(filter), w, h, gl.get());
}

// The material scene's floor is bump-mapped (a height map made into normals at load, tangents
// from its UVs): lit otherwise than the same floor without its map, and drawn alike on every
// path, from the scene's framing and from a low camera over the floor (clipped triangles, whose
// tangents the clipper interpolates).
TEST(LitShading, MaterialSceneFloorIsBumpMappedOnEveryPath) {
    const Model model = loadModel(test::sourceDir() / "assets/material_scene/scene.obj");
    ASSERT_TRUE(model.mesh.hasTangents());
    std::size_t floor = model.materials.size();
    for (std::size_t i = 0; i < model.materials.size(); ++i)
        if (model.materials[i].name == "floor") floor = i;
    ASSERT_LT(floor, model.materials.size());
    ASSERT_GE(model.materials[floor].bumpMap, 0);
    Model flat = model;
    flat.materials[floor].bumpMap = -1;
    const RenderSettings s = litWithTwoSuns(TextureFilter::Trilinear);
    const float aspect = 480.0f / 300.0f;
    const ViewParams low = test::sceneCamera(model.mesh, aspect, true).view(aspect);
    test::Frame bumped(480, 300), plain(480, 300);
    test::drawWith(CpuRenderer(2), model, low, s, bumped.view());
    test::drawWith(CpuRenderer(2), flat, low, s, plain.view());
    std::size_t changed = 0;
    for (std::size_t i = 0; i < bumped.color.size(); ++i) changed += bumped.color[i] != plain.color[i];
    EXPECT_GT(changed, bumped.color.size() / 20) << "the bumps change the floor's light";
    const auto gl = glReference();
    for (TextureFilter filter : {TextureFilter::Trilinear, TextureFilter::Nearest})
        expectLitAgreementAt("material scene, low over the bump-mapped floor", model, low, litWithTwoSuns(filter), 480,
                             300, gl.get());
}

TEST(LitShading, CorpusMeshesOnEveryPath) {
    const std::filesystem::path dir = test::modelsDir();
    if (!std::filesystem::exists(dir)) FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_CORPUS", "no corpus at " << dir);
    const auto gl = glReference();
    for (const char* path : {"common-3d-test-models/stanford-bunny.obj", "common-3d-test-models/teapot.obj",
                             "common-3d-test-models/spot/spot_triangulated.obj", "tinyobjloader/cornell_box.obj",
                             "obj2gltf/box-textured/box-textured.obj", "tinyobjloader/cube-vertexcol.obj",
                             // map_Ks, map_Ns, map_Ke and a bump map, d 0.9: the scalar lit path, blended
                             "obj2gltf/box-complex-material/box-complex-material.obj"}) {
        if (!std::filesystem::exists(dir / path)) continue;
        expectLitAgreement(path, loadModel(dir / path), litWithTwoSuns(TextureFilter::Trilinear), 320, 240, gl.get());
    }
}

// Two camera-facing quads, drawn in order: `first` at depth -z1, `second` at -z2.
Model twoQuads(const Material& first, float z1, const Material& second, float z2) {
    Model model = facingQuad(first);
    for (float& z : model.mesh.pz) z = -z1;
    const Model other = facingQuad(second);
    Mesh& mesh = model.mesh;
    for (std::size_t i = 0; i < 4; ++i) {
        for (auto [to, from] : {std::pair{&mesh.px, &other.mesh.px}, std::pair{&mesh.py, &other.mesh.py},
                                std::pair{&mesh.u, &other.mesh.u}, std::pair{&mesh.v, &other.mesh.v},
                                std::pair{&mesh.nx, &other.mesh.nx}, std::pair{&mesh.ny, &other.mesh.ny},
                                std::pair{&mesh.nz, &other.mesh.nz}})
            to->push_back((*from)[i]);
        mesh.pz.push_back(-z2);
    }
    for (std::uint32_t i : {4u, 5u, 6u, 4u, 6u, 7u}) mesh.indices.push_back(i);
    mesh.ranges.push_back(MaterialRange{2, 2, 1});
    model.materials.push_back(second);
    computeBounds(mesh);
    return model;
}

// d < 1 blends in draw order without writing depth, as OpenGL does with the reference's state:
// over what is drawn before it, and under nothing: an opaque surface drawn later behind it
// passes the depth test and covers it.
TEST(LitShading, BlendingFollowsDrawOrderAsOpenGl) {
    Material glass, wall;
    glass.diffuse = glm::vec3(1.0f, 0.0f, 0.0f);
    glass.opacity = 0.5f;
    glass.illumination = Illumination::Color;
    wall.diffuse = glm::vec3(0.0f, 0.0f, 1.0f);
    wall.illumination = Illumination::Color;
    const RenderSettings s = lit();
    const auto gl = glReference();
    struct Case {
        const char* name;
        Model model;
        std::uint32_t expected; // the centre pixel
    };
    // Red at alpha 0.5 over blue in linear light: 0.5 each, encoded 188; alpha 0.5^2 + 0.5 = 0.75.
    const Case cases[] = {{"glass over an earlier wall", twoQuads(wall, 2.0f, glass, 1.0f), 0xBFBC00BCu},
                          {"wall drawn after the glass, behind it", twoQuads(glass, 1.0f, wall, 2.0f), 0xFFFF0000u},
                          {"glass behind an earlier wall", twoQuads(wall, 1.0f, glass, 2.0f), 0xFFFF0000u}};
    for (const Case& c : cases) {
        test::Frame frame(16, 16);
        test::drawWith(CpuRenderer(1), c.model, facingView(), s, frame.view());
        EXPECT_EQ(frame.color[8 * 16 + 8], c.expected) << c.name;
        expectLitAgreementAt(c.name, c.model, facingView(), s, 16, 16, gl.get());
    }
}

} // namespace
} // namespace facet
