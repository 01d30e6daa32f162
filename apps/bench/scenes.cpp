#include "bench/scenes.h"

#include "app_info.h"

#include "asset/load_model.h"
#include "core/camera.h"
#include "core/error.h"
#include "core/mesh.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
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

} // namespace

Model makeScene(const SceneSpec& spec) {
    switch (spec.kind) {
    case SceneKind::DefaultObj: return loadModel(app::defaultScene());
    case SceneKind::Grid: return gridScene(spec.count);
    case SceneKind::Quads: return quadScene(spec.count);
    }
    throw Error("unknown scene kind of scene " + spec.name);
}

ViewParams sceneView(const SceneSpec& spec, const Model& model, float aspect) {
    return spec.kind == SceneKind::DefaultObj ? Camera::framing(model.mesh, aspect).view(aspect)
                                              : generatedCamera().view(aspect);
}

} // namespace facet::bench
