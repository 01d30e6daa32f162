#include "bench/scenes.h"

#include "app_info.h"

#include "asset/image.h"
#include "asset/load_model.h"
#include "core/camera.h"
#include "core/error.h"
#include "core/mesh.h"

#include <glm/gtc/constants.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <memory>
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

// Two triangles per cell of a grid of (rows + 1) x (cols + 1) vertices laid out row by row,
// counter-clockwise as the rows rise (or, `reversed`, as they fall: a sphere's stacks run down).
void appendGridTriangles(Mesh& m, std::size_t rows, std::size_t cols, bool reversed) {
    m.indices.reserve(m.indices.size() + 6 * rows * cols);
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c) {
            const auto a = static_cast<std::uint32_t>(r * (cols + 1) + c), b = a + 1;
            const auto d = static_cast<std::uint32_t>(a + cols + 1), e = d + 1;
            if (reversed)
                m.indices.insert(m.indices.end(), {a, e, b, a, d, e});
            else
                m.indices.insert(m.indices.end(), {a, b, e, a, e, d});
        }
}

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
    appendGridTriangles(m, rows, cols, false);
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
    appendGridTriangles(m, rows, cols, false);
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

// The instanced part: a UV sphere of `stacks` bands of `slices` quads (two triangles each, the
// poles' bands too, their pole triangles degenerate): 50 x 100 gives 10,000 triangles.
Model sphereModel(std::size_t stacks, std::size_t slices) {
    Model model;
    model.source = "generated sphere of " + std::to_string(2 * stacks * slices) + " triangles";
    Mesh& m = model.mesh;
    for (std::size_t i = 0; i <= stacks; ++i)
        for (std::size_t j = 0; j <= slices; ++j) {
            const float theta = glm::pi<float>() * float(i) / float(stacks);
            const float phi = 2.0f * glm::pi<float>() * float(j) / float(slices);
            m.px.push_back(std::sin(theta) * std::cos(phi));
            m.py.push_back(std::cos(theta));
            m.pz.push_back(std::sin(theta) * std::sin(phi));
        }
    appendGridTriangles(m, stacks, slices, true);
    finishModel(model);
    return model;
}

// Instance k of `count` on a grid filling the generated camera's view at aspect 16:9, turned
// about an axis of its own and scaled to its cell.
glm::mat4 instancePose(std::size_t k, std::size_t count) {
    const auto rows = std::max<std::size_t>(1, std::size_t(std::lround(std::sqrt(double(count) / kGeneratedAspect))));
    const std::size_t cols = (count + rows - 1) / rows;
    const float h = generatedHalfHeight(), w = h * kGeneratedAspect;
    const float cell = std::min(2.0f * w / float(cols), 2.0f * h / float(rows));
    const std::size_t r = k / cols, c = k % cols;
    const glm::vec3 at{-w + cell * (float(c) + 0.5f), -h + cell * (float(r) + 0.5f), -0.2f * float(k % 3)};
    const glm::vec3 axis = glm::normalize(glm::vec3(1.0f + float(k % 5), 2.0f, 1.0f + float(k % 7)));
    const glm::mat4 turned = glm::rotate(glm::translate(glm::mat4(1.0f), at), 0.37f * float(k), axis);
    return glm::scale(turned, glm::vec3(0.45f * cell));
}

// The part at every pose, its vertices posed once: one mesh of all the instances' triangles.
Model mergedModel(const Model& part, std::size_t count) {
    Model merged;
    merged.source = "generated " + std::to_string(count) + " spheres merged";
    Mesh& m = merged.mesh;
    const Mesh& p = part.mesh;
    for (std::size_t k = 0; k < count; ++k) {
        const glm::mat4 pose = instancePose(k, count);
        const auto base = static_cast<std::uint32_t>(m.px.size());
        for (std::size_t i = 0; i < p.vertexCount(); ++i) {
            const glm::vec3 v = glm::vec3(pose * glm::vec4(p.position(i), 1.0f));
            m.px.push_back(v.x);
            m.py.push_back(v.y);
            m.pz.push_back(v.z);
        }
        for (const std::uint32_t index : p.indices) m.indices.push_back(base + index);
    }
    finishModel(merged);
    return merged;
}

Scene instancedScene(std::size_t count) {
    Scene scene;
    const std::uint32_t part = scene.addMesh(std::make_shared<const Model>(sphereModel(50, 100)));
    for (std::size_t k = 0; k < count; ++k) scene.add(part, instancePose(k, count), "sphere " + std::to_string(k));
    return scene;
}

Scene oneModel(Model model) {
    Scene scene;
    scene.add(scene.addMesh(std::make_shared<const Model>(std::move(model))));
    return scene;
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

Scene makeScene(const SceneSpec& spec) {
    switch (spec.kind) {
    case SceneKind::DefaultObj:
    case SceneKind::PlazaClose: return oneModel(loadModel(app::defaultScene()));
    case SceneKind::TexturedSheet: return oneModel(texturedSheetScene(96, 64));
    case SceneKind::Grid: return oneModel(gridScene(spec.count));
    case SceneKind::Quads: return oneModel(quadScene(spec.count));
    case SceneKind::Instances: return instancedScene(spec.count);
    case SceneKind::Merged: return oneModel(mergedModel(sphereModel(50, 100), spec.count));
    }
    throw Error("unknown scene kind of scene " + spec.name);
}

ViewParams sceneView(const SceneSpec& spec, const Scene& scene, float aspect) {
    if (spec.kind == SceneKind::DefaultObj) return sceneFraming(scene, aspect).view(aspect);
    if (spec.kind == SceneKind::PlazaClose) return plazaCloseCamera().view(aspect);
    return generatedCamera().view(aspect);
}

} // namespace facet::bench
