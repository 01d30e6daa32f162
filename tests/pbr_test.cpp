// glTF's metallic-roughness model (core/pbr.h): the BRDF against the specification's formulas
// computed here in double precision for a few surfaces (a rough dielectric, a smooth metal, a
// grazing view), then whole pictures: the CPU-run kernels byte-identical to the CPU, the OpenGL
// reference's GLSL at the usual agreement, and the alpha modes (MASK's cut-off, BLEND).
#include "draw_with.h"
#include "asset/image.h"
#include "asset/scene.h"
#include "core/pbr.h"
#include "gl_support.h"
#include "renderer.h"
#include "test_support.h"

#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>

#include <cmath>
#include <memory>

namespace facet {
namespace {

using test::Frame;

// The specification's BRDF times pi n.l for one light, in double precision, written apart from
// core/pbr.h (Appendix B: F Schlick, D GGX with alpha = roughness^2, V height-correlated Smith).
glm::dvec3 specificationTerm(glm::dvec3 base, double metallic, double roughness, glm::dvec3 n, glm::dvec3 v,
                             glm::dvec3 l) {
    const double pi = 3.14159265358979323846;
    const glm::dvec3 h = glm::normalize(l + v);
    const double alpha = std::max(roughness, 0.03) * std::max(roughness, 0.03), a2 = alpha * alpha;
    const double nl = glm::dot(n, l), nv = std::max(glm::dot(n, v), 0.0), nh = std::max(glm::dot(n, h), 0.0);
    const double vh = std::max(glm::dot(v, h), 0.0);
    const glm::dvec3 f0 = glm::mix(glm::dvec3(0.04), base, metallic);
    const glm::dvec3 f = f0 + (glm::dvec3(1.0) - f0) * std::pow(1.0 - vh, 5.0);
    const double d = a2 / (pi * std::pow(nh * nh * (a2 - 1.0) + 1.0, 2.0));
    const double vis = 0.5 / (nl * std::sqrt(nv * nv * (1.0 - a2) + a2) + nv * std::sqrt(nl * nl * (1.0 - a2) + a2));
    const glm::dvec3 diffuse = (glm::dvec3(1.0) - f) * (base * (1.0 - metallic)) / pi;
    return (diffuse + f * d * vis) * pi * nl;
}

// One light of `intensity` from `l`, the viewer along `v`, no ambient light: pbrFragment's colour.
glm::vec3 oneLight(const PbrSurface& s, glm::vec3 n, glm::vec3 v, glm::vec3 l, float intensity = 1.0f) {
    Lights lights;
    lights.headlight = 0.0f;
    lights.ambient = 0.0f;
    lights.directional[0] = DirectionalLight{l, glm::vec3(1.0f), intensity};
    for (int i = 1; i < kMaxDirectionalLights; ++i) lights.directional[i].intensity = 0.0f;
    return glm::vec3(pbrFragment(s, lights, lightRig(lights, -v), n));
}

// Float against double: 1e-4 relative, as D's 1 + n.h^2 (a^2 - 1) near a sharp peak loses about
// four digits of float's seven (n.h within 1e-3 of 1).
void expectNear(glm::vec3 got, glm::dvec3 want, const char* what) {
    for (int c = 0; c < 3; ++c)
        EXPECT_NEAR(got[c], std::min(want[c], 1.0), 2e-6 + 1e-4 * want[c]) << what << ", channel " << c;
}

TEST(Pbr, RoughDielectricFacingTheLightIsLambertPlusFourPercent) {
    const PbrSurface s{glm::vec3(0.5f), 1.0f, 0.0f, 1.0f, 1.0f, glm::vec3(0.0f)};
    const glm::vec3 n(0.0f, 0.0f, 1.0f);
    const glm::vec3 got = oneLight(s, n, n, n);
    // F = 0.04, D = 1 / pi, V = 1 / 4: (1 - 0.04) 0.5 + 0.04 / 4 = 0.49.
    expectNear(got, glm::dvec3(0.49), "facing");
    expectNear(got, specificationTerm(glm::dvec3(0.5), 0.0, 1.0, n, n, n), "facing, by the formulas");
}

TEST(Pbr, SmoothMetalReflectsItsOwnColourOnlyNearTheMirrorDirection) {
    const glm::vec3 gold(1.0f, 0.766f, 0.336f);
    const PbrSurface s{gold, 1.0f, 1.0f, 0.2f, 1.0f, glm::vec3(0.0f)};
    const glm::vec3 n(0.0f, 0.0f, 1.0f);
    const glm::vec3 v = glm::normalize(glm::vec3(0.3f, 0.0f, 1.0f));
    const glm::vec3 mirror = glm::normalize(glm::vec3(-0.3f, 0.0f, 1.0f)), away = glm::normalize(glm::vec3(0.0f, 1.0f, 0.4f));
    // A dim light, so the highlight is not clamped at 1.
    const float dim = 0.002f;
    const glm::vec3 peak = oneLight(s, n, v, mirror, dim), off = oneLight(s, n, v, away, dim);
    expectNear(peak, double(dim) * specificationTerm(glm::dvec3(gold), 1.0, 0.2, n, v, mirror), "mirror direction");
    expectNear(off, double(dim) * specificationTerm(glm::dvec3(gold), 1.0, 0.2, n, v, away), "away from it");
    EXPECT_GT(peak.x, 0.2f);          // a bright highlight ...
    EXPECT_LT(off.x, 0.01f * peak.x); // ... and nearly nothing beside it: no diffuse term
    EXPECT_GT(peak.x - peak.z, 0.3f * peak.x) << "a metal's highlight has its colour";
}

TEST(Pbr, GrazingViewsReflectMoreByFresnel) {
    const PbrSurface s{glm::vec3(0.2f, 0.4f, 0.1f), 1.0f, 0.0f, 0.5f, 1.0f, glm::vec3(0.0f)};
    const glm::vec3 n(0.0f, 0.0f, 1.0f);
    const glm::vec3 v = glm::normalize(glm::vec3(0.985f, 0.0f, 0.174f)); // 80 degrees from the normal
    const glm::vec3 l = glm::normalize(glm::vec3(-0.985f, 0.0f, 0.174f));
    expectNear(oneLight(s, n, v, l), specificationTerm(glm::dvec3(0.2, 0.4, 0.1), 0.0, 0.5, n, v, l), "grazing");
    const glm::vec3 overhead = oneLight(s, n, n, n);
    const glm::vec3 grazing = oneLight(s, n, v, l);
    // Per unit of n.l, the grazing mirror reflection is far stronger than the facing one.
    EXPECT_GT(grazing.x / 0.174f, 3.0f * overhead.x);
}

TEST(Pbr, AmbientLightKeepsAMetalsColourAndOcclusionDimsIt) {
    Lights lights;
    lights.headlight = 0.0f;
    for (DirectionalLight& d : lights.directional) d.intensity = 0.0f;
    lights.ambient = 1.0f;
    const LightRig rig = lightRig(lights, glm::vec3(0.0f, 0.0f, -1.0f));
    const PbrSurface metal{glm::vec3(0.9f, 0.5f, 0.2f), 1.0f, 1.0f, 0.5f, 1.0f, glm::vec3(0.0f)};
    const glm::vec4 c = pbrFragment(metal, lights, rig, glm::vec3(0.0f, 0.0f, 1.0f));
    EXPECT_NEAR(c.x, 0.9f * lights.ambientColor.x, 1e-6f);
    EXPECT_NEAR(c.z, 0.2f * lights.ambientColor.z, 1e-6f);
    PbrSurface occluded = metal;
    occluded.occlusion = 0.25f;
    EXPECT_NEAR(pbrFragment(occluded, lights, rig, glm::vec3(0.0f, 0.0f, 1.0f)).x, 0.25f * c.x, 1e-6f);
}

// A UV sphere of radius 1 with UVs, its normals generated.
Model sphere(int stacks, int slices) {
    Model model;
    model.source = "sphere";
    Mesh& m = model.mesh;
    for (int i = 0; i <= stacks; ++i)
        for (int j = 0; j <= slices; ++j) {
            const float theta = 3.14159265f * float(i) / float(stacks), phi = 6.2831853f * float(j) / float(slices);
            m.px.push_back(std::sin(theta) * std::cos(phi));
            m.py.push_back(std::cos(theta));
            m.pz.push_back(std::sin(theta) * std::sin(phi));
            m.u.push_back(float(j) / float(slices));
            m.v.push_back(1.0f - float(i) / float(stacks));
        }
    for (int i = 0; i < stacks; ++i)
        for (int j = 0; j < slices; ++j) {
            const auto a = std::uint32_t(i * (slices + 1) + j), b = a + 1, d = std::uint32_t(a + slices + 1), e = d + 1;
            m.indices.insert(m.indices.end(), {a, e, b, a, d, e});
        }
    m.hasTexCoords = true;
    generateNormals(m);
    computeBounds(m);
    m.ranges = {{0, std::uint32_t(m.triangleCount()), 0}};
    return model;
}

// A metal-roughness map of stripes (roughness 0.2 to 1 in green, metalness 0 or 1 in blue) and an
// occlusion map of rings: every map the GLSL and core/pbr.h read.
std::vector<Texture> pbrMaps() {
    Image metalRough{64, 64, std::vector<std::uint32_t>(64 * 64)}, occlusion{64, 64, std::vector<std::uint32_t>(64 * 64)};
    for (std::uint32_t y = 0; y < 64; ++y)
        for (std::uint32_t x = 0; x < 64; ++x) {
            const std::uint32_t rough = 50 + (x * 205) / 63, metal = (y / 16) % 2 ? 255 : 0;
            metalRough.pixels[y * 64 + x] = 0xFF000000u | (metal << 16) | (rough << 8);
            const std::uint32_t ao = (y / 8) % 2 ? 255 : 120;
            occlusion.pixels[y * 64 + x] = 0xFF000000u | (ao << 16) | (ao << 8) | ao;
        }
    return {makeTexture(metalRough, "metal-roughness stripes"), makeTexture(occlusion, "occlusion rings")};
}

// Three spheres: a rough red dielectric, a smooth gold metal and one with both maps.
Scene pbrScene() {
    Model base = sphere(24, 48);
    base.textures = pbrMaps();
    Material plastic, gold, mapped;
    for (Material* m : {&plastic, &gold, &mapped}) m->pbr.enabled = true;
    plastic.pbr.baseColor = glm::vec4(0.8f, 0.1f, 0.1f, 1.0f);
    plastic.pbr.metallic = 0.0f;
    plastic.pbr.roughness = 0.9f;
    gold.pbr.baseColor = glm::vec4(1.0f, 0.766f, 0.336f, 1.0f);
    gold.pbr.metallic = 1.0f;
    gold.pbr.roughness = 0.25f;
    mapped.pbr.baseColor = glm::vec4(0.6f, 0.7f, 0.9f, 1.0f);
    mapped.pbr.metalRoughMap = 0;
    mapped.pbr.occlusionMap = 1;
    mapped.pbr.occlusionStrength = 0.8f;
    Scene scene;
    float x = -2.2f;
    for (const Material& m : {plastic, gold, mapped}) {
        auto model = std::make_shared<Model>(base);
        model->materials = {m};
        scene.add(scene.addMesh(model), glm::translate(glm::mat4(1.0f), {x, 0.0f, 0.0f}));
        x += 2.2f;
    }
    return scene;
}

Frame drawn(Backend backend, const Scene& scene, const RenderSettings& settings, int w, int h) {
    return test::drawnThrough(backend, scene, sceneFraming(scene, float(w) / float(h)).view(float(w) / float(h)),
                              settings, w, h);
}

RenderSettings litSettings() {
    RenderSettings s;
    s.shading = ShadingModel::Lit;
    return s;
}

TEST(Pbr, KernelsEqualTheCpu) {
    if (!probeBackend(Backend::Kernels).usable)
        FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_KERNELS", probeBackend(Backend::Kernels).reason);
    const Scene scene = pbrScene();
    for (int msaa : {1, 4}) {
        RenderSettings settings = litSettings();
        settings.msaa = msaa;
        const Frame cpu = drawn(Backend::Cpu, scene, settings, 240, 96);
        const Frame kernels = drawn(Backend::Kernels, scene, settings, 240, 96);
        EXPECT_EQ(cpu.color, kernels.color) << "msaa " << msaa;
    }
}

TEST(Pbr, CpuAgreesWithOpenGl) {
    FACET_REQUIRE_GL();
    const Scene scene = pbrScene();
    const Frame cpu = drawn(Backend::Cpu, scene, litSettings(), 240, 96);
    const Frame gl = drawn(Backend::Gl, scene, litSettings(), 240, 96);
    const test::Agreement agree = test::agreement(cpu, gl);
    std::printf("[ GL vs CPU, pbr ] three spheres: coverage %g%%, PSNR %g dB\n", agree.pixels * 100.0, agree.psnr);
    EXPECT_GE(agree.pixels, 0.999);
    EXPECT_GE(agree.psnr, 40.0);
}

// A square of half-size `h` at depth z facing a camera at the origin, its normals towards it.
Mesh facingSquare(float h, float z) {
    Mesh m = test::texturedQuadMesh(-h, -h, h, h, z);
    m.nx.assign(4, 0.0f);
    m.ny.assign(4, 0.0f);
    m.nz.assign(4, 1.0f);
    return m;
}

// A square facing the camera with a base colour map whose alpha runs 0 to 1 across it.
Scene alphaSquare(AlphaMode mode, float cutoff) {
    auto model = std::make_shared<Model>();
    model->source = "square";
    model->mesh = facingSquare(1.0f, -3.0f);
    Image ramp{64, 1, std::vector<std::uint32_t>(64)};
    for (std::uint32_t x = 0; x < 64; ++x) ramp.pixels[x] = (std::uint32_t(x * 255 / 63) << 24) | 0x00FFFFFFu;
    model->textures = {makeTexture(ramp, "alpha ramp")};
    Material m;
    m.texture = 0;
    m.pbr.enabled = true;
    m.pbr.metallic = 0.0f;
    m.pbr.alphaMode = mode;
    m.pbr.alphaCutoff = cutoff;
    model->materials = {m};
    Scene scene;
    scene.add(scene.addMesh(model));
    return scene;
}

// Columns of the 64-pixel-wide square's picture that show it (differ from the clear colour).
int drawnColumns(const Frame& f) {
    int columns = 0;
    for (int x = 0; x < f.width; ++x) columns += f.color[std::size_t(f.height / 2) * f.width + x] != 0xFF3A2B22u;
    return columns;
}

// The alpha square drawn facing the camera on the CPU, 64x64.
Frame drawnSquare(AlphaMode mode, float cutoff) {
    RendererOptions o;
    o.backend = Backend::Cpu;
    o.threads = 2;
    const Scene scene = alphaSquare(mode, cutoff);
    Renderer renderer(o);
    renderer.setScene(scene);
    Frame f(64, 64);
    renderer.render(test::facingView(), litSettings(), f.view());
    return f;
}

TEST(Pbr, MaskCutsAtItsCutoffAndBlendBlends) {
    const int whole = drawnColumns(drawnSquare(AlphaMode::Opaque, 0.5f));
    ASSERT_GT(whole, 30);
    for (const float cutoff : {0.25f, 0.75f}) // the alpha ramp keeps (1 - cutoff) of the columns
        EXPECT_NEAR(drawnColumns(drawnSquare(AlphaMode::Mask, cutoff)), (1.0f - cutoff) * float(whole), 2.0f)
            << "cutoff " << cutoff;
    const Frame f = drawnSquare(AlphaMode::Blend, 0.5f);
    const std::size_t row = 32 * 64;
    int leftmost = 0, rightmost = 63;
    while (leftmost < 64 && f.color[row + leftmost] == 0xFF3A2B22u) ++leftmost;
    while (rightmost > 0 && f.color[row + rightmost] == 0xFF3A2B22u) --rightmost;
    ASSERT_LT(leftmost + 4, rightmost);
    // Blended over the clear colour: the transparent edge nearly keeps it, the opaque edge is white.
    EXPECT_LT(int(f.color[row + std::size_t(leftmost) + 1] & 0xFFu), 0x60);
    EXPECT_GT(int(f.color[row + std::size_t(rightmost) - 1] & 0xFFu), 0xC0);
}

// A blended square listed before an opaque one behind it: the frame draws the opaque one first
// (frameInstances' draw order), so the blend shows it; drawn in list order, the opaque square
// would overwrite the blended pixels (which write no depth) and show pure red at the square's
// opaque edge.
TEST(Pbr, BlendedInstancesAreDrawnAfterTheOpaqueOnes) {
    Scene scene = alphaSquare(AlphaMode::Blend, 0.5f);
    auto red = std::make_shared<Model>();
    red->source = "red square";
    red->mesh = facingSquare(2.0f, -4.0f);
    Material m;
    m.pbr.enabled = true;
    m.pbr.baseColor = glm::vec4(1.0f, 0.0f, 0.0f, 1.0f);
    m.pbr.metallic = 0.0f;
    red->materials = {m};
    scene.add(scene.addMesh(red));
    for (Backend backend : {Backend::Cpu, Backend::Kernels}) {
        if (!probeBackend(backend).usable) continue;
        RendererOptions o;
        o.backend = backend;
        o.threads = 2;
        Renderer renderer(o);
        renderer.setScene(scene);
        Frame f(64, 64);
        renderer.render(test::facingView(), litSettings(), f.view());
        const std::uint32_t opaqueEdge = f.color[32 * 64 + 44], clearEdge = f.color[32 * 64 + 15];
        EXPECT_GT(int(opaqueEdge >> 8 & 0xFFu), 0xA0) << nameOf(backend) << ": the white square's opaque edge";
        EXPECT_LT(int(clearEdge >> 8 & 0xFFu), 0x60) << nameOf(backend) << ": the red square through its clear edge";
        EXPECT_GT(int(clearEdge & 0xFFu), 0xA0) << nameOf(backend);
    }
}

} // namespace
} // namespace facet
