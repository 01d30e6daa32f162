// Bump and normal mapping (MTL map_Bump / bump / norm): the tangents generated from the UVs, a
// height map made into a normal map at load, the loader's handling of each statement and of bad
// input, and the lit model's perturbed normal on a surface whose colour can be worked out.
#include "draw_with.h"
#include "asset/bump_map.h"
#include "asset/image.h"
#include "asset/obj_loader.h"
#include "core/camera.h"
#include "core/quad_shading.h"
#include "cpu/cpu_renderer.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <utility>

namespace facet {
namespace {

namespace fs = std::filesystem;

// A quad of corners p (two triangles, 0 1 2 and 0 2 3) with UVs and one normal, material 0.
Mesh quadMesh(const glm::vec3 (&p)[4], const glm::vec2 (&uv)[4], glm::vec3 n) {
    Mesh mesh;
    for (int i = 0; i < 4; ++i) {
        for (auto [to, x] : {std::pair{&mesh.px, p[i].x}, std::pair{&mesh.py, p[i].y}, std::pair{&mesh.pz, p[i].z},
                             std::pair{&mesh.u, uv[i].x}, std::pair{&mesh.v, uv[i].y}, std::pair{&mesh.nx, n.x},
                             std::pair{&mesh.ny, n.y}, std::pair{&mesh.nz, n.z}})
            to->push_back(x);
    }
    mesh.hasTexCoords = true;
    mesh.indices = {0, 1, 2, 0, 2, 3};
    mesh.ranges = {MaterialRange{0, 2, 0}};
    computeBounds(mesh);
    return mesh;
}

// A unit quad in the XZ plane facing +Y, u along `uAxis` and v along -Z.
Mesh floorQuad(glm::vec3 uAxis) {
    const glm::vec3 p[4] = {{0, 0, 0}, {1, 0, 0}, {1, 0, -1}, {0, 0, -1}};
    glm::vec2 uv[4];
    for (int i = 0; i < 4; ++i) uv[i] = {glm::dot(p[i], uAxis), -p[i].z};
    return quadMesh(p, uv, {0, 1, 0});
}

glm::vec4 tangentOf(const Mesh& mesh, std::size_t i) { return {mesh.tx[i], mesh.ty[i], mesh.tz[i], mesh.tw[i]}; }

TEST(BumpMap, TangentsOfAKnownQuad) {
    Mesh mesh = floorQuad({1, 0, 0});
    generateTangents(mesh);
    ASSERT_TRUE(mesh.hasTangents());
    for (std::size_t i = 0; i < 4; ++i) {
        // dP/du = +X; cross(N, T) = cross(+Y, +X) = -Z, which is dP/dv: right-handed, w = +1.
        EXPECT_EQ(tangentOf(mesh, i), glm::vec4(1, 0, 0, 1)) << i;
    }
    // u mirrored (running along -X): the tangent turns round and the handedness flips.
    Mesh mirrored = floorQuad({-1, 0, 0});
    generateTangents(mirrored);
    for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(tangentOf(mirrored, i), glm::vec4(-1, 0, 0, -1)) << i;
    // A normal tilted off the face: the tangent is made orthogonal to it (Gram-Schmidt).
    Mesh tilted = floorQuad({1, 0, 0});
    const float s = std::sqrt(0.5f);
    for (std::size_t i = 0; i < 4; ++i) {
        tilted.nx[i] = s;
        tilted.ny[i] = s;
    }
    generateTangents(tilted);
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_NEAR(tilted.tx[i], s, 1e-6f);
        EXPECT_NEAR(tilted.ty[i], -s, 1e-6f);
        EXPECT_NEAR(tilted.tz[i], 0.0f, 1e-6f);
    }
    // No UV change at all: any unit tangent orthogonal to the normal, never NaN.
    Mesh flat = floorQuad({0, 0, 0});
    std::fill(flat.v.begin(), flat.v.end(), 0.5f);
    generateTangents(flat);
    for (std::size_t i = 0; i < 4; ++i) {
        const glm::vec3 t(flat.tx[i], flat.ty[i], flat.tz[i]);
        EXPECT_NEAR(glm::length(t), 1.0f, 1e-6f);
        EXPECT_NEAR(t.y, 0.0f, 1e-6f);
    }
}

// An image of side n whose height (grey level) is f(x, y) in file order.
template <class F>
Image greyImage(std::uint32_t w, std::uint32_t h, F f) {
    Image image{w, h, std::vector<std::uint32_t>(std::size_t(w) * h)};
    for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w; ++x) {
            const std::uint32_t g = f(x, y);
            image.pixels[std::size_t(y) * w + x] = g | g << 8 | g << 16 | 0xFF000000u;
        }
    return image;
}

glm::vec3 decoded(std::uint32_t c) { return decodeNormalTexel(unpackRgba8(c) / 255.0f); }

// Half a step of the 8-bit encoding (a step is 2/255 of [-1, 1]), and a little for rounding.
constexpr float kHalfStep = 1.001f / 255.0f;

TEST(BumpMap, HeightRampBecomesTiltedNormals) {
    // Heights rising by 32/255 a texel to the right: dh/du = 32/255 a texel, so with -bm 2 the
    // normal is normalize(-2 * 32/255, 0, 1), leaning away from the rise.
    const Image ramp = greyImage(8, 4, [](std::uint32_t x, std::uint32_t) { return 32 * x; });
    const Image normals = heightToNormalMap(ramp, 2.0f);
    const glm::vec3 expected = glm::normalize(glm::vec3(-2.0f * 32.0f / 255.0f, 0.0f, 1.0f));
    for (std::uint32_t y = 0; y < 4; ++y)
        for (std::uint32_t x = 1; x < 7; ++x) { // the first and last columns wrap around
            const glm::vec3 n = decoded(normals.pixels[y * 8 + x]);
            for (int k = 0; k < 3; ++k) EXPECT_NEAR(n[k], expected[k], kHalfStep) << x << "," << y << " " << k;
            EXPECT_EQ(normals.pixels[y * 8 + x] >> 24, 0xFFu);
        }
    // Rising up the picture (towards row 0 of the file, v growing): the normal leans to -v.
    const Image upwards = greyImage(4, 8, [](std::uint32_t, std::uint32_t y) { return 32 * (7 - y); });
    const glm::vec3 n = decoded(heightToNormalMap(upwards, 1.0f).pixels[3 * 4 + 1]);
    const glm::vec3 expectedUp = glm::normalize(glm::vec3(0.0f, -32.0f / 255.0f, 1.0f));
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(n[k], expectedUp[k], kHalfStep) << k;
    // Flat heights (any level) are the unperturbed normal (0, 0, 1): (128, 128, 255).
    EXPECT_EQ(heightToNormalMap(greyImage(4, 4, [](auto, auto) { return 77u; }), 5.0f).pixels[5], 0xFFFF8080u);
}

void writeImageFile(const fs::path& path, const Image& image) {
    fs::create_directories(path.parent_path());
    writePng(path, image);
}

bool hasWarning(const Model& model, const std::string& text) {
    for (const Warning& w : model.warnings)
        if (w.message.find(text) != std::string::npos) return true;
    return false;
}

TEST(BumpMap, LoaderMakesHeightsIntoNormalsAndTakesNormMapsAsTheyAre) {
    const fs::path dir = test::scratchDir("bump_loader");
    const Image ramp = greyImage(8, 8, [](std::uint32_t x, std::uint32_t) { return 32 * x; });
    writeImageFile(dir / "h.png", ramp);
    test::writeFile(dir / "m.mtl", "newmtl heights\nmap_Bump -bm 2 h.png\nnewmtl normals\nnorm h.png\n"
                                   "newmtl gone\nbump missing.png\n");
    const fs::path obj = test::writeFile(
        dir / "o.obj", "mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 1 0 -1\nv 0 0 -1\nvt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nvn 0 1 0\n"
                       "usemtl heights\nf 1/1/1 2/2/1 3/3/1\nusemtl normals\nf 1/1/1 3/3/1 4/4/1\n"
                       "usemtl gone\nf 1/1/1 2/2/1 4/4/1\n");
    const Model m = loadObj(obj);
    ASSERT_EQ(m.materials.size(), 3u);
    const Material& heights = m.materials[0];
    const Material& normals = m.materials[1];
    ASSERT_GE(heights.bumpMap, 0);
    ASSERT_GE(normals.bumpMap, 0);
    EXPECT_FALSE(heights.bumpIsNormalMap);
    EXPECT_TRUE(normals.bumpIsNormalMap);
    EXPECT_NE(heights.bumpMap, normals.bumpMap) << "the height map is converted, the norm map is not";
    const Texture& converted = m.textures[std::size_t(heights.bumpMap)];
    const Texture& asIs = m.textures[std::size_t(normals.bumpMap)];
    EXPECT_EQ(asIs.texels, makeTexture(ramp, "").texels);
    EXPECT_EQ(converted.texels, makeTexture(heightToNormalMap(ramp, 2.0f), "").texels);
    EXPECT_EQ(m.materials[2].bumpMap, -1) << "a missing bump map draws flat";
    EXPECT_TRUE(hasWarning(m, "texture 'missing.png' of material 'gone' not loaded, the map is ignored"));
    ASSERT_TRUE(m.mesh.hasTangents()) << "a bump-mapped material with UVs and normals gets tangents";
    EXPECT_EQ(tangentOf(m.mesh, 0), glm::vec4(1, 0, 0, 1));
}

TEST(BumpMap, MeshWithoutUvsIsDrawnFlatWithAWarning) {
    const fs::path dir = test::scratchDir("bump_no_uvs");
    writeImageFile(dir / "h.png", greyImage(4, 4, [](std::uint32_t x, std::uint32_t) { return 60 * x; }));
    test::writeFile(dir / "m.mtl", "newmtl rough\nbump h.png\n");
    const fs::path obj =
        test::writeFile(dir / "o.obj", "mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl rough\nf 1 2 3\n");
    const Model m = loadObj(obj);
    EXPECT_FALSE(m.mesh.hasTangents());
    EXPECT_TRUE(hasWarning(m, "material 'rough' has a bump map but the mesh has no texture coordinates; it is drawn "
                              "without bumps"));
    // And no tangents for a model without bump maps: nothing for the renderers to carry.
    test::writeFile(dir / "plain.mtl", "newmtl plain\nKd 1 1 1\n");
    const fs::path plain = test::writeFile(
        dir / "p.obj", "mtllib plain.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nusemtl plain\nf 1/1 2/2 3/3\n");
    EXPECT_FALSE(loadObj(plain).mesh.hasTangents());
}

// A camera-facing square (normal +Z, u along +X, v along +Y) filling a 16x16 target, with a
// uniform normal map leaning towards +X.
Model bumpedSquare() {
    Model model;
    model.mesh = quadMesh({{-2, -2, -1}, {2, -2, -1}, {2, 2, -1}, {-2, 2, -1}}, {{0, 0}, {1, 0}, {1, 1}, {0, 1}}, {0, 0, 1});
    generateTangents(model.mesh);
    // (0.6, 0, 0.8) encoded: 0.8, 0.5, 0.9 of 255.
    const std::uint32_t texel = 204u | 128u << 8 | 230u << 16 | 0xFF000000u;
    model.textures.push_back(makeTexture(Image{2, 2, std::vector<std::uint32_t>(4, texel)}, "leaning"));
    Material m;
    m.diffuse = glm::vec3(1.0f);
    m.bumpMap = 0;
    m.bumpIsNormalMap = true;
    model.materials.push_back(m);
    return model;
}

std::uint32_t centre(const Model& model, const RenderSettings& s) {
    test::Frame frame(16, 16);
    test::drawWith(CpuRenderer(1), model, test::facingView(), s, frame.view());
    return frame.color[8 * 16 + 8];
}

TEST(BumpMap, BumpedSurfaceIsLitByItsPerturbedNormal) {
    RenderSettings s;
    s.shading = ShadingModel::Lit;
    s.lights.headlight = 0.0f;
    s.lights.ambient = 0.0f;
    s.lights.directional[0] = DirectionalLight{{1.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, 1.0f}; // from +X, grazing
    Model bumped = bumpedSquare();
    const std::uint32_t lit = centre(bumped, s);
    // The decoded texel: (204, 128, 230) * 2 / 255 - 1, normalised; n . l is its x.
    const glm::vec3 n = glm::normalize(decoded(0xFFE680CCu));
    EXPECT_NEAR(int(lit & 0xFF), linearToSrgb(n.x) * 255.0f, 1.01f);
    // Without the map the light grazes the surface and adds nothing: the map is what lights it.
    Model flat = bumped;
    flat.materials[0].bumpMap = -1;
    EXPECT_EQ(centre(flat, s) & 0xFFFFFFu, 0u);
    // The classic model ignores bump maps: the same bytes with and without.
    RenderSettings classic = test::classicSettings();
    classic.headlight = true;
    EXPECT_EQ(centre(bumped, classic), centre(flat, classic));
    // A mesh without tangents (built by hand) is drawn flat under the lit model.
    Model noTangents = bumped;
    noTangents.mesh.tx.clear();
    noTangents.mesh.ty.clear();
    noTangents.mesh.tz.clear();
    noTangents.mesh.tw.clear();
    EXPECT_EQ(centre(noTangents, s), centre(flat, s));
    // With vertex colours too, one side record holds both: the map still lights it, and the
    // colour (red) tints it.
    Model colored = bumped;
    colored.mesh.cr.assign(colored.mesh.vertexCount(), 1.0f);
    colored.mesh.cg.assign(colored.mesh.vertexCount(), 0.0f);
    colored.mesh.cb.assign(colored.mesh.vertexCount(), 0.0f);
    const std::uint32_t tinted = centre(colored, s);
    EXPECT_NEAR(int(tinted & 0xFF), linearToSrgb(n.x) * 255.0f, 1.01f);
    EXPECT_EQ(tinted & 0xFFFF00u, 0u);
}

// The tangents live in the side record (vertex_color.h), not in ScreenVertex: every set-up
// triangle of every mesh is read by the raster stage, and those without bump maps should not
// pay 48 bytes more each. The set-up triangle is 80 bytes, its attributes 72 more (kept apart,
// and only where shading reads them), without tangents.
TEST(BumpMap, SetUpTrianglesCarryNoTangents) {
    EXPECT_EQ(sizeof(ScreenVertex), 44u);
    EXPECT_EQ(sizeof(ScreenTriangle), 80u);
    EXPECT_EQ(sizeof(TriangleAttributes), 72u);
}

} // namespace
} // namespace facet
