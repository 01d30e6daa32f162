// The glTF reader on tiny documents written here (buffers as data: URIs): node transforms
// composed in glTF's order, strip and fan winding, byte indices, sparse accessors, texture
// coordinates flipped to facet's, and the refusals (an index out of range with its JSON path, a
// required extension, an accessor past its buffer) and the folder rule for URIs.
#include "asset/gltf_loader.h"
#include "asset/image.h"
#include "asset/load_model.h"
#include "core/error.h"
#include "renderer.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <glm/gtc/matrix_transform.hpp>

namespace facet {
namespace {

namespace fs = std::filesystem;

std::string base64(const std::string& bytes) {
    static const char* kDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
        std::uint32_t v = 0;
        for (std::size_t k = 0; k < 3; ++k) v = v << 8 | (k < n ? std::uint8_t(bytes[i + k]) : 0u);
        out += kDigits[v >> 18 & 63u];
        out += kDigits[v >> 12 & 63u];
        out += n > 1 ? kDigits[v >> 6 & 63u] : '=';
        out += n > 2 ? kDigits[v & 63u] : '=';
    }
    return out;
}

template <class T>
std::string raw(std::initializer_list<T> values) {
    std::string s(values.size() * sizeof(T), '\0');
    std::memcpy(s.data(), values.begin(), s.size());
    return s;
}

// A document under construction: one buffer (a data: URI), its views and accessors.
class Doc {
public:
    int view(const std::string& bytes) {
        while (buffer_.size() % 4) buffer_ += '\0';
        views_ += (views_.empty() ? "" : ",") + std::string("{\"buffer\":0,\"byteOffset\":") + std::to_string(buffer_.size()) +
                  ",\"byteLength\":" + std::to_string(bytes.size()) + "}";
        buffer_ += bytes;
        return viewCount_++;
    }
    // `more`: further members of the accessor ("\"sparse\": {...}").
    int accessor(int view, int componentType, std::size_t count, const char* type, const std::string& more = "") {
        accessors_ += (accessors_.empty() ? "" : ",") + std::string("{") +
                      (view >= 0 ? "\"bufferView\":" + std::to_string(view) + "," : std::string()) +
                      "\"componentType\":" + std::to_string(componentType) + ",\"count\":" + std::to_string(count) +
                      ",\"type\":\"" + type + "\"" + (more.empty() ? "" : "," + more) + "}";
        return accessorCount_++;
    }
    // The whole document, `rest` being its other top-level members (meshes, nodes, scenes, ...).
    std::string json(const std::string& rest) const {
        return "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":" + std::to_string(buffer_.size()) +
               ",\"uri\":\"data:application/octet-stream;base64," + base64(buffer_) + "\"}],\"bufferViews\":[" + views_ +
               "],\"accessors\":[" + accessors_ + "]," + rest + "}";
    }

private:
    std::string buffer_, views_, accessors_;
    int viewCount_ = 0, accessorCount_ = 0;
};

constexpr int kU8 = 5121, kU16 = 5123, kFloat = 5126;

// A folder per test: ctest runs this file's tests at once, each in a process of its own, and
// they write files of the same names.
fs::path scratch() {
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    return test::scratchDir(std::string("gltf_loader/") + (test ? test->name() : "outside_a_test"));
}

Scene load(const std::string& json, const std::string& file = "test.gltf", const LoadOptions& options = {}) {
    return loadGltfScene(test::writeFile(scratch() / file, json), options);
}

// A scene of one mesh of one primitive placed by one node.
std::string oneMesh(const std::string& primitive, const std::string& more = "") {
    return "\"meshes\":[{\"primitives\":[" + primitive + "]}],\"nodes\":[{\"mesh\":0}],\"scenes\":[{\"nodes\":[0]}]" + more;
}

// Refuses `json`, naming the file and `mention`.
void expectRefused(const std::string& json, const std::string& mention) {
    try {
        load(json);
        ADD_FAILURE() << "should be refused: " << mention;
    } catch (const ParseError& e) {
        EXPECT_NE(std::string(e.what()).find(mention), std::string::npos) << e.what();
        EXPECT_NE(e.file().find("test.gltf"), std::string::npos);
    }
}

bool hasWarning(const Scene& s, const std::string& text) {
    for (const Warning& w : s.warnings)
        if (w.message.find(text) != std::string::npos) return true;
    return false;
}

std::string square(Doc& doc) {
    return std::to_string(doc.accessor(doc.view(raw<float>({0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0})), kFloat, 4, "VEC3"));
}

// Each triangle of the scene's first mesh faces +Z (counter-clockwise seen from +Z).
void expectFacingZ(const Scene& s) {
    const Mesh& m = s.meshes.at(0)->mesh;
    for (std::size_t t = 0; t < m.triangleCount(); ++t) {
        const glm::vec3 a = m.position(m.indices[3 * t]), b = m.position(m.indices[3 * t + 1]), c = m.position(m.indices[3 * t + 2]);
        EXPECT_GT(glm::cross(b - a, c - a).z, 0.0f) << "triangle " << t;
    }
}

TEST(GltfLoader, NodeTransformsComposeParentTimesTranslationRotationScale) {
    Doc doc;
    const std::string p = square(doc);
    const float s = std::sqrt(0.5f);
    const Scene scene = load(doc.json(
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":" + p + "}}]}],"
        "\"nodes\":[{\"children\":[1],\"translation\":[1,0,0],\"rotation\":[0,0," + std::to_string(s) + "," +
        std::to_string(s) + "],\"scale\":[2,1,1]},{\"mesh\":0,\"name\":\"child\",\"translation\":[0,1,0]}],"
        "\"scenes\":[{\"nodes\":[0]}]"));
    ASSERT_EQ(scene.instances.size(), 1u);
    EXPECT_EQ(scene.instances[0].name, "child");
    const glm::mat4& pose = scene.instances[0].pose;
    // (1, 0, 0): the child's offset gives (1, 1, 0), the scale (2, 1, 0), the quarter turn about
    // Z (-1, 2, 0), the translation (0, 2, 0).
    const glm::vec3 moved(pose * glm::vec4(1.0f, 0.0f, 0.0f, 1.0f));
    EXPECT_NEAR(moved.x, 0.0f, 1e-5f);
    EXPECT_NEAR(moved.y, 2.0f, 1e-5f);
    EXPECT_NEAR(moved.z, 0.0f, 1e-5f);
}

TEST(GltfLoader, MatrixNodesAreColumnMajor) {
    Doc doc;
    const std::string p = square(doc);
    const Scene scene = load(doc.json("\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":" + p +
                                      "}}]}],\"nodes\":[{\"mesh\":0,\"matrix\":[1,0,0,0, 0,1,0,0, 0,0,1,0, 5,6,7,1]}]"));
    ASSERT_EQ(scene.instances.size(), 1u) << "without scenes, every root node is drawn";
    EXPECT_EQ(glm::vec3(scene.instances[0].pose[3]), glm::vec3(5.0f, 6.0f, 7.0f));
}

TEST(GltfLoader, StripsFlipTheirOddTrianglesAndFansTurnAboutTheirFirstVertex) {
    Doc doc;
    const std::string strip = square(doc); // 0 (0,0), 1 (1,0), 2 (0,1), 3 (1,1): a strip's order
    const Scene s = load(doc.json(oneMesh("{\"attributes\":{\"POSITION\":" + strip + "},\"mode\":5}")));
    EXPECT_EQ(s.triangleCount(), 2u);
    expectFacingZ(s);

    Doc fanDoc;
    const std::string fan = std::to_string(
        fanDoc.accessor(fanDoc.view(raw<float>({0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, -1, 1, 0})), kFloat, 5, "VEC3"));
    const Scene f = load(fanDoc.json(oneMesh("{\"attributes\":{\"POSITION\":" + fan + "},\"mode\":6}")));
    EXPECT_EQ(f.triangleCount(), 3u);
    expectFacingZ(f);
}

TEST(GltfLoader, ReadsByteIndicesFromAnOddLengthBuffer) {
    Doc doc;
    const std::string p = square(doc);
    const int indices = doc.accessor(doc.view(raw<std::uint8_t>({0, 1, 2, 2, 1, 3, 0})), kU8, 6, "SCALAR");
    const Scene s = load(doc.json(oneMesh("{\"attributes\":{\"POSITION\":" + p + "},\"indices\":" + std::to_string(indices) + "}")));
    EXPECT_EQ(s.triangleCount(), 2u);
    expectFacingZ(s);
    EXPECT_TRUE(s.warnings.empty());
}

TEST(GltfLoader, AppliesSparseAccessorsOnAViewAndOnZeros) {
    for (const bool onView : {true, false}) {
        Doc doc;
        const int base = onView ? doc.view(raw<float>({0, 0, 0, 1, 0, 0, 0, 1, 0})) : -1;
        const int index = doc.view(raw<std::uint16_t>({2, 0}));
        const int value = doc.view(raw<float>({0, 1, 5}));
        const std::string sparse = "\"sparse\":{\"count\":1,\"indices\":{\"bufferView\":" + std::to_string(index) +
                                   ",\"componentType\":" + std::to_string(kU16) + "},\"values\":{\"bufferView\":" +
                                   std::to_string(value) + "}}";
        const int p = doc.accessor(base, kFloat, 3, "VEC3", sparse);
        const Scene s = load(doc.json(oneMesh("{\"attributes\":{\"POSITION\":" + std::to_string(p) + "}}")));
        const Mesh& m = s.meshes.at(0)->mesh;
        EXPECT_FLOAT_EQ(m.bounds.max.z, 5.0f) << "vertex 2 replaced by (0, 1, 5)";
        EXPECT_FLOAT_EQ(m.bounds.max.x, onView ? 1.0f : 0.0f);
    }
}

TEST(GltfLoader, FlipsTextureCoordinatesToFacetsBottomUpV) {
    Doc doc;
    const std::string p = square(doc);
    const int uv = doc.accessor(doc.view(raw<float>({0, 0, 1, 0, 0, 1, 1, 0.25f})), kFloat, 4, "VEC2");
    const Scene s = load(doc.json(oneMesh("{\"attributes\":{\"POSITION\":" + p + ",\"TEXCOORD_0\":" + std::to_string(uv) +
                                          "},\"mode\":5}")));
    const Mesh& m = s.meshes.at(0)->mesh;
    ASSERT_TRUE(m.hasTexCoords);
    std::vector<float> v(m.v.begin(), m.v.end());
    std::sort(v.begin(), v.end());
    EXPECT_FLOAT_EQ(v.front(), 0.0f);
    EXPECT_FLOAT_EQ(v.back(), 1.0f);
    EXPECT_NE(std::find(v.begin(), v.end(), 0.75f), v.end()) << "v = 0.25 in glTF is 0.75 in facet";
}

// The (u, v) pairs of the scene's first mesh, as facet keeps them (v up).
std::vector<glm::vec2> texCoords(const Scene& s) {
    const Mesh& m = s.meshes.at(0)->mesh;
    std::vector<glm::vec2> uv;
    for (std::size_t i = 0; i < m.u.size(); ++i) uv.emplace_back(m.u[i], m.v[i]);
    return uv;
}

bool holds(const std::vector<glm::vec2>& uv, glm::vec2 expected) {
    return std::any_of(uv.begin(), uv.end(), [&](glm::vec2 x) { return glm::all(glm::lessThan(glm::abs(x - expected), glm::vec2(1e-6f))); });
}

// A square whose base colour texture reads `texCoordSets` (TEXCOORD_0 all zero, TEXCOORD_1 as
// given, where asked), through `textureInfo`'s members.
std::string squareWithTexture(const std::string& textureInfo, const std::string& otherTextures = "") {
    Doc doc;
    const std::string p = square(doc);
    const int zero = doc.accessor(doc.view(raw<float>({0, 0, 0, 0, 0, 0, 0, 0})), kFloat, 4, "VEC2");
    const int uv = doc.accessor(doc.view(raw<float>({0.5f, 0.25f, 1, 0, 0, 0, 0, 1})), kFloat, 4, "VEC2");
    return doc.json(oneMesh("{\"attributes\":{\"POSITION\":" + p + ",\"TEXCOORD_0\":" +
                                std::to_string(textureInfo.find("texCoord") == std::string::npos ? uv : zero) +
                                ",\"TEXCOORD_1\":" + std::to_string(uv) + "},\"material\":0,\"mode\":5}",
                            ",\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0" + textureInfo +
                                "}}" + otherTextures + "}],\"textures\":[{\"source\":0}],"
                                "\"images\":[{\"uri\":\"missing.png\"}]"));
}

// KHR_texture_transform, by the extension's definition worked by hand: uv' = T R S uv with
// R = [cos r, sin r; -sin r, cos r]. Offset (0.25, 0), rotation pi/2, scale (2, 1): (0.5, 0.25)
// scales to (1, 0.25), turns to (0.25, -1), moves to (0.5, -1), which is v = 2 in facet's
// bottom-up v; (1, 0) goes to (0.25, -2), v = 3; (0, 0) to (0.25, 0), v = 1.
TEST(GltfLoader, AppliesKhrTextureTransformToTheCoordinates) {
    const Scene s = load(squareWithTexture(
        ",\"extensions\":{\"KHR_texture_transform\":{\"offset\":[0.25,0],\"rotation\":1.5707963267948966,\"scale\":[2,1]}}"));
    const std::vector<glm::vec2> uv = texCoords(s);
    EXPECT_TRUE(holds(uv, {0.5f, 2.0f})) << "(0.5, 0.25)";
    EXPECT_TRUE(holds(uv, {0.25f, 3.0f})) << "(1, 0)";
    EXPECT_TRUE(holds(uv, {0.25f, 1.0f})) << "(0, 0)";
    EXPECT_FALSE(hasWarning(s, "coordinates")) << "one texture: nothing to warn about";
}

// A texture on TEXCOORD_1 (by textureInfo.texCoord, or by the extension's own texCoord) draws
// with that set; glTF's v = 0.25 is facet's 0.75.
TEST(GltfLoader, ReadsTheTexCoordSetTheMaterialAsksFor) {
    for (const std::string& info : {std::string(",\"texCoord\":1"),
                                   std::string(",\"extensions\":{\"KHR_texture_transform\":{\"texCoord\":1}}")}) {
        const Scene s = load(squareWithTexture(info));
        EXPECT_TRUE(holds(texCoords(s), {0.5f, 0.75f})) << info;
    }
}

// Two textures of one material on different sets: one set a vertex is kept (the base
// colour's), and that is said.
TEST(GltfLoader, WarnsWhenAMaterialsTexturesReadDifferentCoordinates) {
    const Scene s = load(squareWithTexture("", ",\"occlusionTexture\":{\"index\":0,\"texCoord\":1}"));
    EXPECT_TRUE(holds(texCoords(s), {0.5f, 0.75f}));
    EXPECT_TRUE(hasWarning(s, "occlusionTexture of material 'material 0' (and maybe others) reads other coordinates"))
        << s.warnings.size() << " warnings";
}

// A vector so small that its squares are subnormal floats has a length rounded to a few bits:
// divided by it, a normal came out 0.994 long (fuzz_glb found it). Generated flat normals, file
// normals and file tangents are unit all the same.
TEST(GltfLoader, TinyTrianglesNormalsAndTangentsComeOutUnitLength) {
    const auto expectUnit = [](const std::vector<float>& x, const std::vector<float>& y, const std::vector<float>& z,
                               const char* what) {
        ASSERT_FALSE(x.empty()) << what;
        for (std::size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(std::hypot(x[i], y[i], z[i]), 1.0f, 1e-6f) << what << " " << i;
    };
    Doc doc;
    const float e = 1e-11f; // twice the area 1e-22, whose square is subnormal
    const std::string p = std::to_string(doc.accessor(doc.view(raw<float>({0, 0, 0, e, 0, 0, 0, e, 0})), kFloat, 3, "VEC3"));
    const Scene flat = load(doc.json(oneMesh("{\"attributes\":{\"POSITION\":" + p + "}}")));
    expectUnit(flat.meshes.at(0)->mesh.nx, flat.meshes.at(0)->mesh.ny, flat.meshes.at(0)->mesh.nz, "flat normal");

    const float t = 3e-23f; // squared, 9e-46: below the smallest subnormal
    const int n = doc.accessor(doc.view(raw<float>({t, 0, t, t, 0, t, t, 0, t})), kFloat, 3, "VEC3");
    const int tangent = doc.accessor(doc.view(raw<float>({t, t, 0, 1, t, t, 0, 1, t, t, 0, 1})), kFloat, 3, "VEC4");
    const int uv = doc.accessor(doc.view(raw<float>({0, 0, 1, 0, 0, 1})), kFloat, 3, "VEC2");
    Image flatMap; // a normal map, so that the file's tangents are kept
    flatMap.width = flatMap.height = 1;
    flatMap.pixels.assign(1, 0xFFFF8080u);
    writePng(scratch() / "flat.png", flatMap);
    const Scene read = load(doc.json(oneMesh(
        "{\"attributes\":{\"POSITION\":" + p + ",\"NORMAL\":" + std::to_string(n) + ",\"TANGENT\":" + std::to_string(tangent) +
            ",\"TEXCOORD_0\":" + std::to_string(uv) + "},\"material\":0}",
        ",\"materials\":[{\"normalTexture\":{\"index\":0}}],\"textures\":[{\"source\":0}],\"images\":[{\"uri\":\"flat.png\"}]")));
    EXPECT_FALSE(hasWarning(read, "NORMAL")) << "a tiny normal is still a direction";
    const Mesh& m = read.meshes.at(0)->mesh;
    expectUnit(m.nx, m.ny, m.nz, "file normal");
    expectUnit(m.tx, m.ty, m.tz, "file tangent");
    EXPECT_FLOAT_EQ(m.nx[0], std::sqrt(0.5f));
    EXPECT_FLOAT_EQ(m.tx[0], std::sqrt(0.5f));
}

TEST(GltfLoader, RefusesAnIndexOutOfRangeNamingItsJsonPath) {
    Doc doc;
    const std::string p = square(doc);
    const int indices = doc.accessor(doc.view(raw<std::uint16_t>({0, 1, 7})), kU16, 3, "SCALAR");
    expectRefused(doc.json(oneMesh("{\"attributes\":{\"POSITION\":" + p + "},\"indices\":" + std::to_string(indices) + "}")),
                  "meshes[0].primitives[0].indices: index 7 out of range (the primitive has 4 vertices)");
}

TEST(GltfLoader, RefusesAnAccessorPastItsBufferView) {
    Doc doc;
    const int p = doc.accessor(doc.view(raw<float>({0, 0, 0, 1, 0, 0})), kFloat, 3, "VEC3");
    expectRefused(doc.json(oneMesh("{\"attributes\":{\"POSITION\":" + std::to_string(p) + "}}")),
                  "meshes[0].primitives[0].attributes.POSITION: accessor 0 (3 elements of 12 bytes");
}

TEST(GltfLoader, RefusesARequiredExtensionItLacks) {
    Doc doc;
    const std::string p = square(doc);
    expectRefused(doc.json(oneMesh("{\"attributes\":{\"POSITION\":" + p + "}}",
                                   ",\"extensionsUsed\":[\"EXT_meshopt_compression\"],"
                                   "\"extensionsRequired\":[\"EXT_meshopt_compression\"]")),
                  "requires the extension 'EXT_meshopt_compression'");
}

TEST(GltfLoader, RefusesMalformedJsonAndNodeCycles) {
    expectRefused("{\"asset\": {\"version\": \"2.0\"", "malformed JSON");
    Doc doc;
    const std::string p = square(doc);
    expectRefused(doc.json("\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":" + p +
                           "}}]}],\"nodes\":[{\"children\":[1]},{\"children\":[2]},{\"children\":[0],\"mesh\":0}]"),
                  "node hierarchy cycle");
}

TEST(GltfLoader, KeepsPerspectiveCameras) {
    Doc doc;
    const std::string p = square(doc);
    const Scene s = load(doc.json(
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":" + p + "}}]}],"
        "\"cameras\":[{\"type\":\"perspective\",\"name\":\"eye\",\"perspective\":{\"yfov\":0.5,\"znear\":0.1,\"aspectRatio\":2}}],"
        "\"nodes\":[{\"mesh\":0},{\"camera\":0,\"translation\":[0,0,3]}],\"scenes\":[{\"nodes\":[0,1]}]"));
    ASSERT_EQ(s.cameras.size(), 1u);
    EXPECT_EQ(s.cameras[0].name, "eye");
    EXPECT_FLOAT_EQ(s.cameras[0].yfov, 0.5f);
    EXPECT_FLOAT_EQ(s.cameras[0].aspect, 2.0f);
    EXPECT_EQ(glm::vec3(s.cameras[0].pose[3]), glm::vec3(0.0f, 0.0f, 3.0f));
}

// A file's camera as a Camera (sceneCamera): its node's pose with the scale taken out (roll
// kept), its field of view and near plane, a far plane enclosing the scene where the file
// gives none; an index out of range is refused with the count.
TEST(GltfLoader, FileCamerasBecomeCamerasThatSeeTheScene) {
    Doc doc;
    const std::string p = square(doc);
    const Scene s = load(doc.json(
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":" + p + "}}]}],"
        "\"cameras\":[{\"type\":\"perspective\",\"name\":\"eye\",\"perspective\":{\"yfov\":0.5,\"znear\":0.1}}],"
        "\"nodes\":[{\"mesh\":0},{\"camera\":0,\"translation\":[0,0,3],\"scale\":[2,2,2],"
        "\"rotation\":[0,0,0.70710678,0.70710678]}],\"scenes\":[{\"nodes\":[0,1]}]"));
    const Camera c = sceneCamera(s, 0);
    EXPECT_LT(glm::length(c.eye - glm::vec3(0.0f, 0.0f, 3.0f)), 1e-6f);
    EXPECT_LT(glm::length(c.forward() - glm::vec3(0.0f, 0.0f, -1.0f)), 1e-5f);
    EXPECT_LT(glm::length(c.up() - glm::vec3(-1.0f, 0.0f, 0.0f)), 1e-5f) << "rolled 90 degrees about its view";
    EXPECT_FLOAT_EQ(c.fovYDegrees, glm::degrees(0.5f));
    EXPECT_FLOAT_EQ(c.nearPlane, 0.1f);
    EXPECT_GT(c.farPlane, 3.0f) << "infinite in the file: far enough for the square";
    test::Frame frame(64, 64, 0u);
    Renderer renderer(RendererOptions{Backend::Cpu, {}, {}, 1, -1});
    renderer.setScene(s);
    renderer.render(c.view(1.0f), RenderSettings{}, frame.view());
    const std::uint32_t clear = RenderSettings{}.clearColor;
    EXPECT_GT(std::count_if(frame.color.begin(), frame.color.end(), [&](std::uint32_t px) { return px != clear; }), 64)
        << "the camera sees the square";
    try {
        sceneCamera(s, 1);
        ADD_FAILURE() << "camera 1 of 1 was given";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("camera 1 asked for, but the scene has 1 (0 to 0)"), std::string::npos)
            << e.what();
    }
}

// A document whose one material's base colour texture is `uri`.
std::string texturedDoc(const std::string& uri) {
    Doc doc;
    const std::string p = square(doc);
    const int uv = doc.accessor(doc.view(raw<float>({0, 0, 1, 0, 0, 1, 1, 1})), kFloat, 4, "VEC2");
    return doc.json(oneMesh("{\"attributes\":{\"POSITION\":" + p + ",\"TEXCOORD_0\":" + std::to_string(uv) +
                                "},\"material\":0,\"mode\":5}",
                            ",\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0}}}],"
                            "\"textures\":[{\"source\":0}],\"images\":[{\"uri\":\"" + uri + "\"}]"));
}

TEST(GltfLoader, FollowsNoUriOutOfTheModelsFolderUnlessAllowed) {
    Image red;
    red.width = red.height = 2;
    red.pixels.assign(4, 0xFF0000FFu);
    const fs::path outside = scratch() / "outside";
    fs::create_directories(outside);
    writePng(outside / "red.png", red);
    fs::create_directories(scratch() / "model");
    std::error_code ec;
    fs::remove(scratch() / "model" / "link", ec);
    fs::create_directory_symlink(outside, scratch() / "model" / "link", ec);
    for (const std::string& uri : std::vector<std::string>{"../outside/red.png", (outside / "red.png").string(), "link/red.png",
                                                            "http://example.com/red.png"}) {
        SCOPED_TRACE(uri);
        const Scene refused = load(texturedDoc(uri), "model/test.gltf");
        EXPECT_TRUE(hasWarning(refused, "not followed")) << (refused.warnings.empty() ? "" : refused.warnings[0].message);
        const Model& m = *refused.meshes.at(0);
        EXPECT_EQ(m.textures.at(std::size_t(m.materials.at(0).texture)).source, makeCheckerTexture().source);
        if (uri.rfind("http", 0) == 0) continue; // a scheme is never followed
        LoadOptions allow;
        allow.allowOutsidePaths = true;
        const Scene allowed = load(texturedDoc(uri), "model/test.gltf", allow);
        EXPECT_TRUE(allowed.warnings.empty()) << allowed.warnings[0].message;
        const Model& a = *allowed.meshes.at(0);
        EXPECT_EQ(a.textures.at(std::size_t(a.materials.at(0).texture)).width(), 2u);
    }
}

TEST(GltfLoader, RefusesABufferOutOfTheModelsFolder) {
    test::writeFile(scratch() / "outside.bin", std::string(48, '\0'));
    const std::string json = "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":48,\"uri\":\"../outside.bin\"}]}";
    try {
        load(json, "model/test.gltf");
        ADD_FAILURE() << "should be refused";
    } catch (const ParseError& e) {
        EXPECT_NE(std::string(e.what()).find("buffers[0].uri '../outside.bin' is not read"), std::string::npos) << e.what();
    }
    LoadOptions allow;
    allow.allowOutsidePaths = true;
    EXPECT_NO_THROW(load(json, "model/test.gltf", allow));
}

TEST(GltfLoader, LoadModelBakesEveryInstance) {
    Doc doc;
    const std::string p = square(doc);
    const fs::path file = test::writeFile(
        scratch() / "two.gltf",
        doc.json("\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":" + p + "},\"mode\":5}]}],"
                 "\"nodes\":[{\"mesh\":0},{\"mesh\":0,\"translation\":[3,0,0],\"scale\":[-1,1,1]}]"));
    const Scene scene = loadScene(file);
    EXPECT_EQ(scene.meshes.size(), 1u);
    EXPECT_EQ(scene.instances.size(), 2u);
    const Model baked = loadModel(file);
    EXPECT_EQ(baked.mesh.triangleCount(), 4u);
    EXPECT_FLOAT_EQ(baked.mesh.bounds.max.x, 3.0f);
    EXPECT_FLOAT_EQ(baked.mesh.bounds.min.x, 0.0f);
    for (std::size_t t = 0; t < baked.mesh.triangleCount(); ++t) {
        const Mesh& m = baked.mesh;
        const glm::vec3 a = m.position(m.indices[3 * t]), b = m.position(m.indices[3 * t + 1]), c = m.position(m.indices[3 * t + 2]);
        EXPECT_GT(glm::dot(glm::cross(b - a, c - a), glm::vec3(m.nx[m.indices[3 * t]], m.ny[m.indices[3 * t]], m.nz[m.indices[3 * t]])), 0.0f)
            << "the mirrored instance keeps its front face: triangle " << t;
    }
}

} // namespace
} // namespace facet
