#include "bench/scenes.h"

#include "app_info.h"

#include "asset/image.h"
#include "asset/load_model.h"
#include "core/camera.h"
#include "core/error.h"
#include "core/mesh.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <random>

namespace facet::bench {

namespace {

constexpr int kGeneratedEyeDistance = 2;
constexpr float kGeneratedAspect = 16.0f / 9.0f;

// Generated scenes are seen from (0, 0, 2) down -Z with a 60 degree vertical field of view.
Camera generatedCamera() {
    Camera c;
    c.eye = glm::vec3(0.0f, 0.0f, float(kGeneratedEyeDistance));
    c.fovYDegrees = 60.0f;
    c.nearPlane = 0.5f;
    c.farPlane = 10.0f;
    return c;
}

// Half the height the generated camera sees at z = 0, a little more so the grid's border is
// outside the picture.
float generatedHalfHeight() { return 1.02f * float(kGeneratedEyeDistance) * std::tan(glm::radians(30.0f)); }

void finishModel(Model& model) {
    Mesh& m = model.mesh;
    const std::size_t n = m.vertexCount();
    m.u.assign(n, 0.0f);
    m.v.assign(n, 0.0f);
    m.hasTexCoords = false;
    generateNormals(m);
    computeBounds(m);
    Material material;
    material.name = "generated";
    model.materials = {material};
    m.ranges = {{0, static_cast<std::uint32_t>(m.triangleCount()), 0}};
    validateMesh(m, model.materials.size(), model.source);
}

// About `triangles` small triangles tiling the view at aspect 16:9: a grid of cells, two
// triangles each.
Model gridScene(std::size_t triangles) {
    const auto cells = double(triangles / 2);
    const auto rows = std::max<std::size_t>(1, std::size_t(std::lround(std::sqrt(cells / kGeneratedAspect))));
    const auto cols = std::max<std::size_t>(1, std::size_t(std::lround(cells / double(rows))));
    const float h = generatedHalfHeight(), w = h * kGeneratedAspect;
    Model model;
    model.source = "generated grid of " + std::to_string(2 * rows * cols) + " triangles";
    Mesh& m = model.mesh;
    const std::size_t vertices = (rows + 1) * (cols + 1);
    m.px.reserve(vertices);
    m.py.reserve(vertices);
    m.pz.reserve(vertices);
    for (std::size_t r = 0; r <= rows; ++r)
        for (std::size_t c = 0; c <= cols; ++c) {
            m.px.push_back(-w + 2.0f * w * float(c) / float(cols));
            m.py.push_back(-h + 2.0f * h * float(r) / float(rows));
            m.pz.push_back(0.0f);
        }
    m.indices.reserve(6 * rows * cols);
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c) {
            const auto a = static_cast<std::uint32_t>(r * (cols + 1) + c), b = a + 1;
            const auto d = static_cast<std::uint32_t>(a + cols + 1), e = d + 1;
            m.indices.insert(m.indices.end(), {a, b, e, a, e, d});
        }
    finishModel(model);
    return model;
}

// `quads` large quads facing the camera at different depths, each a tenth to two fifths of
// the view high, overlapping many times over: few triangles, many fragments each.
Model quadScene(std::size_t quads) {
    const float h = generatedHalfHeight(), w = h * kGeneratedAspect;
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    Model model;
    model.source = "generated " + std::to_string(quads) + " overlapping quads";
    Mesh& m = model.mesh;
    for (std::size_t q = 0; q < quads; ++q) {
        const float cx = (2.0f * unit(rng) - 1.0f) * w, cy = (2.0f * unit(rng) - 1.0f) * h;
        const float sx = (0.2f + 0.6f * unit(rng)) * h, sy = (0.2f + 0.6f * unit(rng)) * h;
        const float z = -1.5f * unit(rng);
        const auto base = static_cast<std::uint32_t>(m.px.size());
        for (const glm::vec2 corner : {glm::vec2(-1, -1), glm::vec2(1, -1), glm::vec2(1, 1), glm::vec2(-1, 1)}) {
            m.px.push_back(cx + 0.5f * sx * corner.x);
            m.py.push_back(cy + 0.5f * sy * corner.y);
            m.pz.push_back(z);
        }
        m.indices.insert(m.indices.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
    }
    finishModel(model);
    return model;
}

// A textured sheet facing the camera, tilted back 12 degrees and gently waved, of `cols` x
// `rows` cells (two triangles each) with stone_tiles.png (512 x 512) repeated 8 x 5 times over
// it, minified about 5 times: trilinear filtering blends two levels. 96 x 64 cells cover 40% of
// the view (369772 pixels at 1280x720, 831927 at 1920x1080), so a triangle covers 30 pixels on
// average at 1280x720 (about 25 far, 35 near) and 68 at 1920x1080: 20 to 100 pixels each,
// where pixels cost more than triangles.
Model texturedSheetScene(std::size_t cols, std::size_t rows) {
    constexpr float kWidth = 2.4f, kHeight = 1.6f;
    const float tilt = glm::radians(12.0f);
    Model model;
    model.source = "generated textured sheet of " + std::to_string(2 * cols * rows) + " triangles";
    Mesh& m = model.mesh;
    for (std::size_t r = 0; r <= rows; ++r)
        for (std::size_t c = 0; c <= cols; ++c) {
            const float s = float(c) / float(cols), t = float(r) / float(rows);
            const float y = (t - 0.5f) * kHeight, wave = 0.03f * std::sin(6.0f * s) * std::sin(4.0f * t);
            m.px.push_back((s - 0.5f) * kWidth);
            m.py.push_back(y * std::cos(tilt));
            m.pz.push_back(-y * std::sin(tilt) + wave);
            m.u.push_back(8.0f * s);
            m.v.push_back(5.0f * t);
        }
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c) {
            const auto a = static_cast<std::uint32_t>(r * (cols + 1) + c), b = a + 1;
            const auto d = static_cast<std::uint32_t>(a + cols + 1), e = d + 1;
            m.indices.insert(m.indices.end(), {a, b, e, a, e, d});
        }
    m.hasTexCoords = true;
    generateNormals(m);
    computeBounds(m);
    const std::filesystem::path texture = app::defaultScene().parent_path() / "stone_tiles.png";
    model.textures = {makeTexture(loadImage(texture), texture.string())};
    Material material;
    material.name = "stone";
    material.texture = 0;
    model.materials = {material};
    m.ranges = {{0, static_cast<std::uint32_t>(m.triangleCount()), 0}};
    validateMesh(m, model.materials.size(), model.source);
    return model;
}

// Low over the plaza's near edge looking down into it: every pixel textured (stone tiles
// magnified in front, minified behind, and the objects on it), most of them the floor.
Camera plazaCloseCamera() {
    Camera c;
    c.eye = glm::vec3(2.5f, 3.0f, 5.4f);
    c.yawDegrees = 25.0f;
    c.pitchDegrees = -42.0f;
    c.nearPlane = 0.1f;
    c.farPlane = 60.0f;
    return c;
}

} // namespace

Model makeScene(const SceneSpec& spec) {
    switch (spec.kind) {
    case SceneKind::DefaultObj:
    case SceneKind::PlazaClose: return loadModel(app::defaultScene());
    case SceneKind::TexturedSheet: return texturedSheetScene(96, 64);
    case SceneKind::Grid: return gridScene(spec.count);
    case SceneKind::Quads: return quadScene(spec.count);
    }
    throw Error("unknown scene kind of scene " + spec.name);
}

ViewParams sceneView(const SceneSpec& spec, const Model& model, float aspect) {
    if (spec.kind == SceneKind::DefaultObj) return Camera::framing(model.mesh, aspect).view(aspect);
    if (spec.kind == SceneKind::PlazaClose) return plazaCloseCamera().view(aspect);
    return generatedCamera().view(aspect);
}

} // namespace facet::bench
