// Scenes (asset/scene.h): several meshes at poses through the front door, on every path. The
// CPU-run kernels must equal the CPU byte for byte, the OpenGL reference agree at the usual
// measure, a mirror pose draw exactly what a mirrored mesh draws, whole instances outside the
// view be culled, and bad poses and empty scenes be answered clearly.
#include "asset/obj_loader.h"
#include "asset/scene.h"
#include "core/error.h"
#include "gl_support.h"
#include "renderer.h"
#include "test_support.h"

#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>

#include <cmath>
#include <limits>
#include <memory>

namespace facet {
namespace {

using test::Frame;

std::shared_ptr<const Model> shared(Model model) { return std::make_shared<const Model>(std::move(model)); }

const std::shared_ptr<const Model>& defaultSceneModel() {
    static const auto model = shared(loadObj(test::sourceDir() / "assets/default_scene/scene.obj"));
    return model;
}

const std::shared_ptr<const Model>& materialSceneModel() {
    static const auto model = shared(loadObj(test::sourceDir() / "assets/material_scene/scene.obj"));
    return model;
}

// Two meshes (the default scene's textured objects, the material scene's bump-mapped floor,
// cut-outs and glass) in four instances: the default scene as it is, the material scene turned,
// shrunk and moved, again mirrored in x, and a third copy stretched along one axis.
Scene posedScene() {
    Scene scene;
    const std::uint32_t a = scene.addMesh(defaultSceneModel());
    const std::uint32_t b = scene.addMesh(materialSceneModel());
    scene.add(a, glm::mat4(1.0f), "default");
    // Beside the default scene's plate (radius 8), not touching it: no surfaces meet.
    const glm::mat4 turned = glm::rotate(glm::translate(glm::mat4(1.0f), {12.0f, 0.0f, 0.0f}), 0.7f, {0.0f, 1.0f, 0.0f});
    scene.add(b, glm::scale(turned, glm::vec3(0.6f)), "turned");
    scene.add(b, glm::scale(glm::translate(glm::mat4(1.0f), {-12.0f, 0.0f, 0.0f}), {-0.6f, 0.6f, 0.6f}), "mirrored");
    scene.add(b, glm::scale(glm::translate(glm::mat4(1.0f), {0.0f, 1.0f, -14.0f}), {1.0f, 0.5f, 0.4f}), "stretched");
    return scene;
}

ViewParams sceneView(const Scene& scene, int w, int h) {
    return sceneFraming(scene, float(w) / float(h)).view(float(w) / float(h));
}

RendererOptions on(Backend backend) {
    RendererOptions o;
    o.backend = backend;
    if (backend != Backend::Gl) o.threads = 2;
    return o;
}

FrameStats draw(Backend backend, const Scene& scene, const ViewParams& view, const RenderSettings& settings,
                Frame& frame) {
    Renderer renderer(on(backend));
    renderer.setScene(scene);
    return renderer.render(view, settings, frame.view());
}

std::vector<RenderSettings> settingsToCompare() {
    RenderSettings classic, lit, multisampled;
    classic.filter = TextureFilter::Trilinear;
    lit = classic;
    lit.shading = ShadingModel::Lit;
    multisampled = lit;
    multisampled.msaa = 4;
    return {classic, lit, multisampled};
}

TEST(Scene, KernelsEqualTheCpuOnPosedInstances) {
    if (!probeBackend(Backend::Kernels).usable)
        FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_KERNELS", probeBackend(Backend::Kernels).reason);
    const Scene scene = posedScene();
    const ViewParams view = sceneView(scene, 320, 200);
    for (const RenderSettings& settings : settingsToCompare()) {
        Frame cpu(320, 200), kernels(320, 200);
        const FrameStats a = draw(Backend::Cpu, scene, view, settings, cpu);
        const FrameStats b = draw(Backend::Kernels, scene, view, settings, kernels);
        EXPECT_EQ(cpu.color, kernels.color) << "msaa " << settings.msaa << ", " << nameOf(settings.shading);
        EXPECT_EQ(cpu.depth, kernels.depth) << "msaa " << settings.msaa;
        EXPECT_EQ(a.trianglesIn, b.trianglesIn);
        EXPECT_EQ(a.trianglesIn, scene.triangleCount());
    }
}

TEST(Scene, CpuAgreesWithOpenGlOnPosedInstances) {
    FACET_REQUIRE_GL();
    const Scene scene = posedScene();
    const ViewParams view = sceneView(scene, 320, 200);
    for (const RenderSettings& settings : settingsToCompare()) {
        if (settings.msaa > 1) continue; // the multisampled comparison is lit_multisample_test's
        Frame cpu(320, 200), gl(320, 200);
        draw(Backend::Cpu, scene, view, settings, cpu);
        draw(Backend::Gl, scene, view, settings, gl);
        const test::Agreement agree = test::agreement(cpu, gl);
        std::printf("[ scene GL vs CPU ] %s: coverage %g%%, PSNR %g dB\n", nameOf(settings.shading),
                    agree.pixels * 100.0, agree.psnr);
        EXPECT_GE(agree.pixels, 0.999) << nameOf(settings.shading);
        EXPECT_GE(agree.psnr, 40.0) << nameOf(settings.shading);
    }
}

// A mesh mirrored by hand: x negated, each triangle's last two corners swapped (its winding kept).
Model mirroredByHand(const Model& model) {
    Model m = model;
    for (float& x : m.mesh.px) x = -x;
    for (float& x : m.mesh.nx) x = -x;
    for (std::size_t t = 0; t + 2 < m.mesh.indices.size(); t += 3) std::swap(m.mesh.indices[t + 1], m.mesh.indices[t + 2]);
    computeBounds(m.mesh);
    return m;
}

// A pose of scale (-1, 1, 1) rounds exactly as the mesh mirrored by hand (R A negates one column;
// the products only change sign), so with back faces culled the pictures are identical: the
// mirror's winding is turned round, not its front faces culled.
TEST(Scene, MirrorPoseDrawsWhatAMirroredMeshDraws) {
    const Model& original = *defaultSceneModel();
    const Model byHand = mirroredByHand(original);
    Scene posed;
    posed.add(posed.addMesh(defaultSceneModel()), glm::scale(glm::mat4(1.0f), {-1.0f, 1.0f, 1.0f}));
    const Scene mirrored = sceneOf(byHand);
    RenderSettings settings;
    settings.cull = CullMode::Back;
    const ViewParams view = sceneView(mirrored, 256, 160);
    for (Backend backend : {Backend::Cpu, Backend::Kernels}) {
        if (!probeBackend(backend).usable) continue;
        Frame a(256, 160), b(256, 160);
        draw(backend, posed, view, settings, a);
        draw(backend, mirrored, view, settings, b);
        EXPECT_EQ(a.color, b.color) << nameOf(backend);
        EXPECT_EQ(a.depth, b.depth) << nameOf(backend);
        std::size_t covered = 0;
        for (float d : a.depth) covered += d < 1.0f;
        EXPECT_GT(covered, a.depth.size() / 8) << "the mirrored scene must be drawn, not culled";
    }
}

TEST(Scene, InstancesOutsideTheViewAreCulledWhole) {
    Scene scene;
    const std::uint32_t mesh = scene.addMesh(defaultSceneModel());
    scene.add(mesh);
    Scene withBehind = scene;
    withBehind.add(mesh, glm::translate(glm::mat4(1.0f), {0.0f, 0.0f, 400.0f}), "far behind");
    const ViewParams view = sceneView(scene, 200, 120);
    for (Backend backend : {Backend::Cpu, Backend::Kernels}) {
        if (!probeBackend(backend).usable) continue;
        Frame a(200, 120), b(200, 120);
        const FrameStats alone = draw(backend, scene, view, {}, a);
        const FrameStats both = draw(backend, withBehind, view, {}, b);
        EXPECT_EQ(a.color, b.color) << nameOf(backend);
        const std::size_t n = defaultSceneModel()->mesh.triangleCount();
        EXPECT_EQ(both.trianglesIn, alone.trianglesIn + n) << nameOf(backend);
        EXPECT_EQ(both.trianglesCulled, alone.trianglesCulled + n) << nameOf(backend);
    }
}

TEST(Scene, HiddenInstancesAreNotDrawnAndAnEmptySceneSaysSo) {
    Scene scene;
    const std::uint32_t id = scene.add(scene.addMesh(defaultSceneModel()));
    scene.find(id)->visible = false;
    Renderer renderer(on(Backend::Cpu));
    renderer.setScene(scene);
    RenderSettings settings;
    settings.clearColor = 0xFF102030u;
    Frame frame(64, 48);
    const FrameStats stats = renderer.render(test::facingView(), settings, frame.view());
    for (std::uint32_t c : frame.color) ASSERT_EQ(c, 0xFF102030u);
    EXPECT_NE(stats.note.find("hidden"), std::string::npos) << stats.note;
    EXPECT_EQ(stats.trianglesIn, 0u);

    const Scene empty;
    renderer.setScene(empty);
    const FrameStats none = renderer.render(test::facingView(), settings, frame.view());
    for (std::uint32_t c : frame.color) ASSERT_EQ(c, 0xFF102030u);
    EXPECT_NE(none.note.find("the scene is empty"), std::string::npos) << none.note;
}

// Renders `scene` once on the CPU and returns the error's words, or "" when it drew.
std::string refusal(const Scene& scene) {
    Renderer renderer(on(Backend::Cpu));
    renderer.setScene(scene);
    Frame frame(16, 16);
    try {
        renderer.render(test::facingView(), {}, frame.view());
    } catch (const Error& e) {
        return e.what();
    }
    return {};
}

TEST(Scene, BadPosesAreRefusedNamingTheInstance) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    Scene scene;
    const std::uint32_t mesh = scene.addMesh(defaultSceneModel());
    scene.add(mesh, glm::mat4(1.0f), "fine");
    glm::mat4 pose(1.0f);
    pose[3][1] = nan;
    Scene notFinite = scene;
    notFinite.add(mesh, pose, "wheel");
    std::string words = refusal(notFinite);
    EXPECT_NE(words.find("instance 2 (\"wheel\"): its pose is not finite"), std::string::npos) << words;

    Scene singular = scene;
    singular.add(mesh, glm::scale(glm::mat4(1.0f), {1.0f, 0.0f, 1.0f}), "flat");
    words = refusal(singular);
    EXPECT_NE(words.find("(\"flat\"): its pose is singular"), std::string::npos) << words;

    Scene projective = scene;
    pose = glm::mat4(1.0f);
    pose[2][3] = 0.5f;
    projective.add(mesh, pose, "tilted");
    words = refusal(projective);
    EXPECT_NE(words.find("(\"tilted\"): its pose's last row is not 0 0 0 1"), std::string::npos) << words;

    EXPECT_EQ(refusal(scene), "");
}

TEST(Scene, IdsAreStableAndNamesDefaultToTheFile) {
    Scene scene;
    const std::uint32_t mesh = scene.addMesh(defaultSceneModel());
    const std::uint32_t a = scene.add(mesh), b = scene.add(mesh, glm::mat4(1.0f), "second");
    EXPECT_EQ(a, 1u);
    EXPECT_EQ(b, 2u);
    EXPECT_EQ(scene.find(a)->name, "scene.obj");
    EXPECT_TRUE(scene.remove(a));
    EXPECT_FALSE(scene.remove(a));
    EXPECT_EQ(scene.add(mesh), 3u); // never reused
    EXPECT_EQ(scene.find(b)->name, "second");
    EXPECT_THROW(scene.add(7), Error);
}

} // namespace
} // namespace facet
