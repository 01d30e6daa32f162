// Vertex colours drawn: interpolated perspective-correctly and multiplying the material colour
// (or the texel), on the CPU renderer and on the CUDA kernels run on the CPU, which must give
// the same bits. (The OpenGL reference's agreement is in gl_reference_test.cpp.)
#include "draw_with.h"
#include "asset/image.h"
#include "cpu/cpu_renderer.h"
#include "test_support.h"
#if FACET_HAVE_KERNELS_HOST
#include "cuda/host_kernel_renderer.h"
#endif

#include <gtest/gtest.h>

#include <cmath>

namespace facet {
namespace {

constexpr int kSize = 64;

// Camera at the origin looking down +z, focus 1, square target: the point (x, y, z) lands on
// pixel ((x / z + 1) kSize / 2, (1 - y / z) kSize / 2).
ViewParams straightView() { return ViewParams{glm::vec3(0.0f), glm::mat3(1.0f), 1.0f, 1.0f, 0.5f, 100.0f}; }

glm::vec3 pointAtPixel(glm::vec2 pixel, float z) {
    const float half = 0.5f * kSize;
    return {(pixel.x / half - 1.0f) * z, (1.0f - pixel.y / half) * z, z};
}

struct ColoredCorner {
    glm::vec2 pixel;
    float z;
    glm::vec3 color;
};

// One triangle with the given corners' colours, uv (0, 0) everywhere, one material.
Model coloredTriangle(const ColoredCorner (&corners)[3], const Material& material) {
    Model m;
    Mesh& mesh = m.mesh;
    for (const ColoredCorner& c : corners) {
        const glm::vec3 p = pointAtPixel(c.pixel, c.z);
        mesh.px.push_back(p.x);
        mesh.py.push_back(p.y);
        mesh.pz.push_back(p.z);
        mesh.u.push_back(0.25f);
        mesh.v.push_back(0.25f);
        mesh.cr.push_back(c.color.r);
        mesh.cg.push_back(c.color.g);
        mesh.cb.push_back(c.color.b);
    }
    mesh.indices = {0, 1, 2};
    mesh.ranges.push_back({0, 1, 0});
    m.materials.push_back(material);
    generateNormals(mesh);
    computeBounds(mesh);
    return m;
}

// Appends `from`'s triangles, vertices and materials to `into` (both with every attribute).
void appendTriangles(Model& into, const Model& from) {
    const auto vertexBase = std::uint32_t(into.mesh.vertexCount());
    const auto triangleBase = std::uint32_t(into.mesh.triangleCount());
    const auto materialBase = std::uint32_t(into.materials.size());
    using Array = std::vector<float> Mesh::*;
    for (const Array a : {&Mesh::px, &Mesh::py, &Mesh::pz, &Mesh::u, &Mesh::v, &Mesh::nx, &Mesh::ny, &Mesh::nz,
                          &Mesh::cr, &Mesh::cg, &Mesh::cb})
        (into.mesh.*a).insert((into.mesh.*a).end(), (from.mesh.*a).begin(), (from.mesh.*a).end());
    for (const std::uint32_t i : from.mesh.indices) into.mesh.indices.push_back(vertexBase + i);
    for (MaterialRange r : from.mesh.ranges) {
        r.firstTriangle += triangleBase;
        r.material += materialBase;
        into.mesh.ranges.push_back(r);
    }
    into.materials.insert(into.materials.end(), from.materials.begin(), from.materials.end());
    computeBounds(into.mesh);
}

test::Frame renderCpu(const Model& model, const RenderSettings& settings = test::classicSettings()) {
    test::Frame frame(kSize, kSize);
    CpuRenderer renderer(2);
    test::drawWith(renderer, model, straightView(), settings, frame.view());
    return frame;
}

// The colour OpenGL interpolates at the centre of pixel (x, y): screen-space barycentrics of
// the corners' pixels, each weighted by 1 / z, normalised; times `base` in [0, 255].
glm::vec3 expectedColor(const ColoredCorner (&c)[3], int x, int y, glm::vec3 base) {
    const glm::dvec2 p(x + 0.5, y + 0.5), a(c[0].pixel), b(c[1].pixel), d(c[2].pixel);
    const auto cross = [](glm::dvec2 u, glm::dvec2 v) { return u.x * v.y - u.y * v.x; };
    const double area = cross(b - a, d - a);
    const double w[3] = {cross(b - p, d - p) / area / c[0].z, cross(d - p, a - p) / area / c[1].z,
                         cross(a - p, b - p) / area / c[2].z};
    const glm::dvec3 sum = w[0] * glm::dvec3(c[0].color) + w[1] * glm::dvec3(c[1].color) + w[2] * glm::dvec3(c[2].color);
    return glm::vec3(sum / (w[0] + w[1] + w[2])) * base;
}

// Every covered pixel well inside the triangle is the expected colour within 1 (the vertex
// colours are kept to 8 bits, and the sides round differently); returns how many were checked.
int expectInterpolated(const test::Frame& frame, const ColoredCorner (&corners)[3], glm::vec3 base) {
    int checked = 0;
    for (int y = 0; y < kSize; ++y)
        for (int x = 0; x < kSize; ++x) {
            const std::size_t i = std::size_t(y) * kSize + std::size_t(x);
            if (!(frame.depth[i] < 1.0f)) continue;
            const glm::vec3 e = expectedColor(corners, x, y, base);
            const glm::vec4 got = unpackRgba8(frame.color[i]);
            for (int ch = 0; ch < 3; ++ch)
                EXPECT_NEAR(got[ch], e[ch], 1.0f) << "pixel (" << x << ", " << y << ") channel " << ch;
            ++checked;
        }
    return checked;
}

// Pure red, green and blue corners, one of them three times as far: the colour must follow
// the perspective, not the screen.
const ColoredCorner kSlanted[3] = {{{6.0f, 6.0f}, 1.0f, {1, 0, 0}},
                                   {{58.0f, 10.0f}, 3.0f, {0, 1, 0}},
                                   {{12.0f, 57.0f}, 1.5f, {0, 0, 1}}};

TEST(VertexColors, MultiplyTheMaterialColourPerspectiveCorrectly) {
    const Material material{"tinted", glm::vec3(1.0f, 0.6f, 0.2f), -1};
    const Model model = coloredTriangle(kSlanted, material);
    ASSERT_TRUE(model.mesh.hasVertexColors());
    const test::Frame frame = renderCpu(model);
    EXPECT_GT(expectInterpolated(frame, kSlanted, glm::vec3(255.0f, 0.6f * 255.0f, 0.2f * 255.0f)), 900);
}

TEST(VertexColors, MultiplyTheTexel) {
    // A one-texel texture: every sample is (200, 100, 50).
    Model model = coloredTriangle(kSlanted, Material{"textured", glm::vec3(1.0f), 0});
    model.mesh.hasTexCoords = true;
    model.textures.push_back(makeTexture(Image{1, 1, {0xFF3264C8u}}, "one texel"));
    for (const TextureFilter filter : {TextureFilter::Nearest, TextureFilter::Bilinear, TextureFilter::Trilinear}) {
        RenderSettings settings = test::classicSettings();
        settings.filter = filter;
        const test::Frame frame = renderCpu(model, settings);
        EXPECT_GT(expectInterpolated(frame, kSlanted, glm::vec3(200.0f, 100.0f, 50.0f)), 900) << int(filter);
    }
}

TEST(VertexColors, ExactCornerColoursOnAFlatTriangle) {
    // Exactly representable colours at one depth: a pixel at a corner is that corner's colour.
    const ColoredCorner flat[3] = {{{0.0f, 0.0f}, 2.0f, {51 / 255.0f, 1, 0}},
                                   {{64.0f, 0.0f}, 2.0f, {51 / 255.0f, 1, 0}},
                                   {{0.0f, 64.0f}, 2.0f, {51 / 255.0f, 1, 0}}};
    const test::Frame frame = renderCpu(coloredTriangle(flat, Material{"white", glm::vec3(1.0f), -1}));
    EXPECT_EQ(frame.color[0], 0xFF00FF33u);
    EXPECT_EQ(frame.color[std::size_t(kSize) * 20 + 20], 0xFF00FF33u);
}

TEST(VertexColors, MeshesWithoutThemAreUntouched) {
    Model model = coloredTriangle(kSlanted, Material{"tinted", glm::vec3(1.0f, 0.6f, 0.2f), -1});
    for (std::vector<float>* a : {&model.mesh.cr, &model.mesh.cg, &model.mesh.cb}) a->clear();
    EXPECT_FALSE(model.mesh.hasVertexColors());
    const test::Frame frame = renderCpu(model);
    const std::uint32_t material = packRgba8(glm::vec4(255.0f, 0.6f * 255.0f, 0.2f * 255.0f, 255.0f));
    int covered = 0;
    for (std::size_t i = 0; i < frame.color.size(); ++i)
        if (frame.depth[i] < 1.0f) {
            ++covered;
            ASSERT_EQ(frame.color[i], material) << "pixel " << i;
        }
    EXPECT_GT(covered, 900);
}

TEST(VertexColors, ColoursForSomeVerticesOnlyAreRefused) {
    Model model = coloredTriangle(kSlanted, Material{});
    model.mesh.cg.pop_back();
    test::Frame frame(kSize, kSize);
    CpuRenderer renderer(1);
    EXPECT_THROW(test::drawWith(renderer, model, straightView(), test::classicSettings(), frame.view()), Error);
}

TEST(VertexColors, KernelsOnTheCpuDrawTheSameBits) {
#if FACET_HAVE_KERNELS_HOST
    Model model = coloredTriangle(kSlanted, Material{"textured", glm::vec3(1.0f), 0});
    model.mesh.hasTexCoords = true;
    model.textures.push_back(makeCheckerTexture(16, 4));
    // A second, untextured triangle in front of part of the first, with its own material.
    const ColoredCorner front[3] = {{{20.0f, 4.0f}, 0.8f, {1, 1, 0}},
                                    {{60.0f, 40.0f}, 0.8f, {0, 1, 1}},
                                    {{2.0f, 50.0f}, 1.2f, {1, 0, 1}}};
    appendTriangles(model, coloredTriangle(front, Material{"plain", glm::vec3(0.9f, 0.8f, 0.7f), -1}));
    computeBounds(model.mesh);

    for (const bool headlight : {false, true})
        for (const TextureFilter filter : {TextureFilter::Nearest, TextureFilter::Trilinear}) {
            RenderSettings settings = test::classicSettings();
            settings.headlight = headlight;
            settings.filter = filter;
            const test::Frame cpu = renderCpu(model, settings);
            test::Frame kernels(kSize, kSize);
            HostKernelRenderer renderer(2);
            test::drawWith(renderer, model, straightView(), settings, kernels.view());
            int covered = 0;
            for (std::size_t i = 0; i < cpu.color.size(); ++i) {
                covered += cpu.depth[i] < 1.0f;
                ASSERT_EQ(cpu.color[i], kernels.color[i]) << "pixel " << i << ", headlight " << headlight;
                ASSERT_EQ(cpu.depth[i], kernels.depth[i]) << "pixel " << i;
            }
            EXPECT_GT(covered, 1500);
        }
    // And the kernels' picture is the interpolated colour, not the plain material.
    test::Frame kernels(kSize, kSize);
    HostKernelRenderer renderer(1);
    const Model plain = coloredTriangle(kSlanted, Material{"tinted", glm::vec3(1.0f, 0.6f, 0.2f), -1});
    test::drawWith(renderer, plain, straightView(), test::classicSettings(), kernels.view());
    EXPECT_GT(expectInterpolated(kernels, kSlanted, glm::vec3(255.0f, 0.6f * 255.0f, 0.2f * 255.0f)), 900);
#else
    FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_KERNELS", "built without the CUDA kernels' host executor (no CCCL headers)");
#endif
}

} // namespace
} // namespace facet
