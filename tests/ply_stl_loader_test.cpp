// The PLY and STL readers on small files written by the tests: every PLY encoding and scalar
// type, skipped properties and elements, colours, normals and texture coordinates per vertex
// and per face corner; ASCII and binary STL (a binary header that starts with "solid", several
// solids, per-facet colours); and every refusal, naming the file and the line or byte offset.
#include "asset/image.h"
#include "asset/load_model.h"
#include "asset/ply_loader.h"
#include "asset/stl_loader.h"
#include "core/error.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>

namespace facet {
namespace {

namespace fs = std::filesystem;

// Binary data as a PLY or STL body holds it, in either byte order.
class Bytes {
public:
    explicit Bytes(bool bigEndian = false) : big_(bigEndian) {}

    template <class T>
    Bytes& put(T value) {
        char b[sizeof(T)];
        std::memcpy(b, &value, sizeof(T));
        if (big_) std::reverse(b, b + sizeof(T));
        bytes_.append(b, sizeof(T));
        return *this;
    }
    Bytes& text(const std::string& s) {
        bytes_ += s;
        return *this;
    }
    const std::string& str() const { return bytes_; }

private:
    bool big_;
    std::string bytes_;
};

// A folder per test: ctest runs this file's tests at once, each in a process of its own, and
// they write files of the same names.
fs::path scratch() {
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    return test::scratchDir(std::string("ply_stl_loader/") + (test ? test->name() : "outside_a_test"));
}

Model ply(const std::string& bytes, const std::string& file = "test.ply") {
    return loadPly(test::writeFile(scratch() / file, bytes));
}

Model stl(const std::string& bytes, const std::string& file = "test.stl") {
    return loadStl(test::writeFile(scratch() / file, bytes));
}

// Loads `bytes` with `load` expecting a refusal naming the file, `line` and `mention`.
template <class Load>
void expectRefused(Load load, const std::string& bytes, const std::string& file, std::size_t line,
                   const std::string& mention) {
    const fs::path path = test::writeFile(scratch() / file, bytes);
    try {
        load(path);
        ADD_FAILURE() << "expected a refusal mentioning '" << mention << "'";
    } catch (const ParseError& e) {
        EXPECT_EQ(e.file(), path.string()) << e.what();
        EXPECT_EQ(e.line(), line) << e.what();
        EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(mention), std::string::npos) << e.what() << "\nshould mention: " << mention;
    }
}

void expectPlyRefused(const std::string& bytes, std::size_t line, const std::string& mention) {
    expectRefused([](const fs::path& p) { return loadPly(p); }, bytes, "refused.ply", line, mention);
}

void expectStlRefused(const std::string& bytes, std::size_t line, const std::string& mention) {
    expectRefused([](const fs::path& p) { return loadStl(p); }, bytes, "refused.stl", line, mention);
}

bool hasWarning(const Model& m, const std::string& text) {
    return std::any_of(m.warnings.begin(), m.warnings.end(),
                       [&](const Warning& w) { return w.message.find(text) != std::string::npos; });
}

std::string warningList(const Model& m) {
    std::string s;
    for (const Warning& w : m.warnings) s += "  " + w.toString() + "\n";
    return s;
}

void expectValid(const Model& m) {
    EXPECT_NO_THROW(validateMesh(m.mesh, m.materials.size(), m.source));
    ASSERT_EQ(m.mesh.nx.size(), m.mesh.vertexCount());
    ASSERT_EQ(m.mesh.u.size(), m.mesh.vertexCount());
    for (std::size_t i = 0; i < m.mesh.vertexCount(); ++i) {
        EXPECT_TRUE(std::isfinite(m.mesh.px[i]) && std::isfinite(m.mesh.py[i]) && std::isfinite(m.mesh.pz[i]));
        EXPECT_TRUE(std::isfinite(m.mesh.u[i]) && std::isfinite(m.mesh.v[i])) << "vertex " << i;
        EXPECT_NEAR(std::hypot(m.mesh.nx[i], m.mesh.ny[i], m.mesh.nz[i]), 1.0, 1e-5);
    }
}

std::string plyHeader(const std::string& format, const std::string& elements) {
    return "ply\nformat " + format + " 1.0\n" + elements + "end_header\n";
}

const std::string kXyz = "property float x\nproperty float y\nproperty float z\n";

// ---- PLY: geometry ----------------------------------------------------------------------

TEST(PlyLoader, AsciiTriangleAndQuadTriangulatedWithGeneratedNormals) {
    const Model m = ply(plyHeader("ascii", "comment a cube's corner\nobj_info made by hand\nelement vertex 5\n" + kXyz +
                                               "element face 2\nproperty list uchar int vertex_indices\n") +
                        "0 0 0\n1 0 0\n1 1 0\n0 1 0\n0 0 1\n3 0 1 4\n4 0 1 2 3\n");
    expectValid(m);
    EXPECT_EQ(m.mesh.triangleCount(), 3u);
    EXPECT_EQ(m.mesh.vertexCount(), 5u);
    EXPECT_FALSE(m.mesh.hasTexCoords);
    EXPECT_FALSE(m.mesh.hasVertexColors());
    ASSERT_EQ(m.materials.size(), 1u);
    EXPECT_EQ(m.materials[0].name, "default");
    EXPECT_EQ(m.materials[0].texture, -1);
    ASSERT_EQ(m.mesh.ranges.size(), 1u);
    EXPECT_EQ(m.mesh.ranges[0].triangleCount, 3u);
    EXPECT_EQ(m.fileCounts.positions, 5u);
    EXPECT_EQ(m.fileCounts.faces, 2u);
    EXPECT_EQ(m.fileCounts.normals, 0u);
    EXPECT_EQ(m.mesh.bounds.max, glm::vec3(1.0f));
    EXPECT_FLOAT_EQ(m.mesh.nz[2], 1.0f) << "vertex 2 is only on the quad, facing +z";
    EXPECT_TRUE(m.warnings.empty()) << warningList(m);
}

// Every scalar type and alias, as a coordinate and as a skipped property, in all three formats.
TEST(PlyLoader, EveryScalarTypeInEveryFormat) {
    const char* types[][2] = {{"char", "int8"},    {"uchar", "uint8"}, {"short", "int16"},   {"ushort", "uint16"},
                              {"int", "int32"},    {"uint", "uint32"}, {"float", "float32"}, {"double", "float64"}};
    for (int alias = 0; alias < 2; ++alias)
        for (const auto& t : types) {
            const std::string type = t[alias];
            SCOPED_TRACE(type);
            const std::string elements = "element vertex 3\nproperty " + type + " x\nproperty " + type + " skipped\n" +
                                         "property " + type + " y\nproperty " + type + " z\nelement face 1\n" +
                                         "property list " + (type == "float" || type == "double" || type == "float32" ||
                                                                     type == "float64"
                                                                 ? std::string("uchar")
                                                                 : type) +
                                         " " + type + " vertex_indices\n";
            const Model a = ply(plyHeader("ascii", elements) + "0 9 0 0\n1 9 0 0\n0 9 1 0\n3 0 1 2\n");
            std::vector<Model> binary;
            for (const bool big : {false, true}) {
                Bytes b(big);
                b.text(plyHeader(big ? "binary_big_endian" : "binary_little_endian", elements));
                const auto put = [&](double v) {
                    if (type == "char" || type == "int8") b.put(std::int8_t(v));
                    else if (type == "uchar" || type == "uint8") b.put(std::uint8_t(v));
                    else if (type == "short" || type == "int16") b.put(std::int16_t(v));
                    else if (type == "ushort" || type == "uint16") b.put(std::uint16_t(v));
                    else if (type == "int" || type == "int32") b.put(std::int32_t(v));
                    else if (type == "uint" || type == "uint32") b.put(std::uint32_t(v));
                    else if (type == "float" || type == "float32") b.put(float(v));
                    else b.put(v);
                };
                for (const double v : {0, 9, 0, 0, 1, 9, 0, 0, 0, 9, 1, 0}) put(v);
                if (type == "float" || type == "double" || type == "float32" || type == "float64") b.put(std::uint8_t(3));
                else put(3);
                for (const double v : {0, 1, 2}) put(v);
                binary.push_back(ply(b.str()));
            }
            for (const Model* m : {&a, static_cast<const Model*>(&binary[0]), static_cast<const Model*>(&binary[1])}) {
                expectValid(*m);
                ASSERT_EQ(m->mesh.triangleCount(), 1u);
                EXPECT_EQ(m->mesh.position(1), glm::vec3(1, 0, 0));
                EXPECT_EQ(m->mesh.position(2), glm::vec3(0, 1, 0));
                EXPECT_TRUE(m->warnings.empty()) << warningList(*m);
            }
        }
}

TEST(PlyLoader, BigEndianDoublesAndPentagons) {
    Bytes b(true);
    b.text(plyHeader("binary_big_endian", "element vertex 5\nproperty double x\nproperty double y\nproperty double z\n"
                                          "element face 1\nproperty list uchar uint vertex_indices\n"));
    for (int i = 0; i < 5; ++i) {
        const double angle = 2.0 * 3.14159265358979 * i / 5.0;
        b.put(std::cos(angle)).put(std::sin(angle)).put(2.5);
    }
    b.put(std::uint8_t(5));
    for (std::uint32_t i = 0; i < 5; ++i) b.put(i);
    const Model m = ply(b.str());
    expectValid(m);
    EXPECT_EQ(m.mesh.triangleCount(), 3u);
    EXPECT_FLOAT_EQ(m.mesh.pz[4], 2.5f);
    EXPECT_FLOAT_EQ(m.mesh.nz[0], 1.0f);
}

TEST(PlyLoader, CrlfHeaderWithTrailingBlanksBeforeABinaryBody) {
    std::string header = "ply \r\nformat binary_little_endian 1.0  \r\nelement vertex 3\t\r\n";
    for (const char* axis : {"x", "y", "z"}) header += std::string("property float ") + axis + "   \r\n";
    header += "element face 1\r\nproperty list uchar int vertex_indices \r\nend_header  \r\n";
    Bytes b;
    b.text(header);
    // The first byte of the body is 0x0D, what a reader taking "\r" for the line end would skip.
    const float xs[] = {1.0f + std::ldexp(13.0f, -23), 1, 0, 0, 1, 0, 0, 0, 1};
    for (const float x : xs) b.put(x);
    b.put(std::uint8_t(3)).put(0).put(1).put(2);
    const Model m = ply(b.str());
    expectValid(m);
    ASSERT_EQ(m.mesh.triangleCount(), 1u);
    EXPECT_EQ(m.mesh.px[0], xs[0]);
    EXPECT_TRUE(m.warnings.empty()) << warningList(m);
}

TEST(PlyLoader, SkipsOtherPropertiesAndElementsByTheirTypes) {
    const std::string elements = "element material 2\nproperty uchar ambient_red\nproperty list int short weights\n"
                                 "element vertex 3\nproperty list uchar double junk\n" + kXyz +
                                 "property ushort confidence\nelement face 1\nproperty int flags\n"
                                 "property list ushort uint vertex_index\nproperty list uchar float extra\n"
                                 "element edge 2\nproperty int vertex1\nproperty int vertex2\nelement empty 4000000000\n";
    const std::string ascii = plyHeader("ascii", elements) + "7 2 10 20\n1 0\n"
                                                             "2 1 2 0 0 0 65535\n0 1 0 0 1\n1 5 0 1 0 9\n"
                                                             "-1 3 0 1 2 2 0.5 0.25\n0 1\n1 2\n";
    Bytes b;
    b.text(plyHeader("binary_little_endian", elements));
    b.put(std::uint8_t(7)).put(std::int32_t(2)).put(std::int16_t(10)).put(std::int16_t(20));
    b.put(std::uint8_t(1)).put(std::int32_t(0));
    const float corners[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    for (int v = 0; v < 3; ++v) {
        b.put(std::uint8_t(v == 0 ? 2 : 0));
        if (v == 0) b.put(1.0).put(2.0);
        for (const float x : corners[v]) b.put(x);
        b.put(std::uint16_t(5));
    }
    b.put(std::int32_t(-1)).put(std::uint16_t(3)).put(0u).put(1u).put(2u).put(std::uint8_t(1)).put(0.5f);
    b.put(0).put(1).put(1).put(2);
    for (const std::string& bytes : {ascii, b.str()}) {
        const Model m = ply(bytes);
        expectValid(m);
        ASSERT_EQ(m.mesh.triangleCount(), 1u);
        EXPECT_EQ(m.mesh.position(1), glm::vec3(1, 0, 0));
        EXPECT_FALSE(m.mesh.hasTexCoords) << "a face's 'extra' list is not texcoord";
        EXPECT_TRUE(m.warnings.empty()) << warningList(m);
    }
}

// ---- PLY: attributes --------------------------------------------------------------------

TEST(PlyLoader, ColoursNormalsAndTexCoordsPerVertex) {
    const std::string face = "element face 1\nproperty list uchar int vertex_indices\n";
    const Model bytes = ply(plyHeader("ascii", "element vertex 3\n" + kXyz +
                                                   "property uchar red\nproperty uchar green\nproperty uchar blue\n"
                                                   "property uchar alpha\nproperty float nx\nproperty float ny\n"
                                                   "property float nz\nproperty float s\nproperty float t\n" + face) +
                            "0 0 0 255 0 51 9 0 0 2 0.5 1\n1 0 0 0 255 0 9 0 0 4 1 1\n0 1 0 0 0 255 9 0 0 6 0 0\n"
                            "3 0 1 2\n");
    expectValid(bytes);
    ASSERT_TRUE(bytes.mesh.hasVertexColors());
    EXPECT_FLOAT_EQ(bytes.mesh.cr[0], 1.0f);
    EXPECT_FLOAT_EQ(bytes.mesh.cb[0], 0.2f) << "uchar colours are divided by 255";
    EXPECT_FLOAT_EQ(bytes.mesh.nz[1], 1.0f) << "the file's normals, made unit length";
    EXPECT_TRUE(bytes.mesh.hasTexCoords);
    EXPECT_FLOAT_EQ(bytes.mesh.u[0], 0.5f);
    EXPECT_EQ(bytes.fileCounts.normals, 3u);
    EXPECT_EQ(bytes.fileCounts.texcoords, 3u);
    ASSERT_EQ(bytes.materials.size(), 1u);
    EXPECT_EQ(bytes.materials[0].texture, -1) << "plain grey: no TextureFile comment names a texture";

    for (const auto& [u, v] : {std::pair<std::string, std::string>{"u", "v"}, {"texture_u", "texture_v"},
                               {"texture_s", "texture_t"}}) {
        const std::string uv = u + " " + v;
        const Model m = ply(plyHeader("ascii", "element vertex 3\n" + kXyz + "property float red\nproperty float green\n"
                                                                             "property float blue\nproperty double " + u +
                                                   "\nproperty double " + v + "\n" + face) +
                            "0 0 0 0.25 0.5 1.5 0 0\n1 0 0 0 0 0 1 0\n0 1 0 1 1 1 0 1\n3 0 1 2\n");
        expectValid(m);
        EXPECT_TRUE(m.mesh.hasTexCoords) << uv;
        EXPECT_FLOAT_EQ(m.mesh.v[2], 1.0f) << uv;
        EXPECT_FLOAT_EQ(m.mesh.cr[0], 0.25f) << "float colours are taken as they are";
        EXPECT_FLOAT_EQ(m.mesh.cb[0], 1.0f) << "and clamped into [0, 1]";
        EXPECT_TRUE(hasWarning(m, "colours outside [0, 1] are clamped")) << warningList(m);
    }
}

TEST(PlyLoader, PerFaceTexCoordsSplitCornersAndKeepSmoothNormals) {
    // A square of two triangles whose shared edge has different UVs on each side.
    Bytes b;
    b.text(plyHeader("binary_little_endian", "element vertex 4\n" + kXyz +
                                                 "element face 2\nproperty list uchar int vertex_indices\n"
                                                 "property list uchar float texcoord\n"));
    const float xyz[] = {0, 0, 0, 1, 0, 0, 1, 1, 0.5f, 0, 1, 0};
    for (const float x : xyz) b.put(x);
    b.put(std::uint8_t(3)).put(0).put(1).put(2).put(std::uint8_t(6));
    for (const float x : {0.0f, 0.0f, 0.5f, 0.0f, 0.5f, 0.5f}) b.put(x);
    b.put(std::uint8_t(3)).put(0).put(2).put(3).put(std::uint8_t(6));
    for (const float x : {0.6f, 0.0f, 1.0f, 0.5f, 0.6f, 0.5f}) b.put(x);
    const Model m = ply(b.str(), "corners.ply");
    expectValid(m);
    ASSERT_EQ(m.mesh.triangleCount(), 2u);
    EXPECT_EQ(m.mesh.vertexCount(), 6u) << "vertices 0 and 2 are split, one copy per UV";
    EXPECT_TRUE(m.mesh.hasTexCoords);
    EXPECT_EQ(m.fileCounts.texcoords, 6u);
    // The copies of file vertex 0 share its smooth normal, which leans between the two faces.
    std::vector<glm::vec3> normalsAtOrigin;
    for (std::size_t i = 0; i < m.mesh.vertexCount(); ++i)
        if (m.mesh.position(i) == glm::vec3(0.0f)) normalsAtOrigin.emplace_back(m.mesh.nx[i], m.mesh.ny[i], m.mesh.nz[i]);
    ASSERT_EQ(normalsAtOrigin.size(), 2u);
    EXPECT_EQ(normalsAtOrigin[0], normalsAtOrigin[1]);

    // A face whose list does not hold two values per corner gets no UVs, with a warning.
    const Model bad = ply(plyHeader("ascii", "element vertex 3\n" + kXyz +
                                                 "element face 1\nproperty list uchar int vertex_indices\n"
                                                 "property list uchar float texcoord\n") +
                          "0 0 0\n1 0 0\n0 1 0\n3 0 1 2 4 0 0 1 0\n");
    expectValid(bad);
    EXPECT_FALSE(bad.mesh.hasTexCoords);
    EXPECT_TRUE(hasWarning(bad, "its texcoord list has 4 values")) << warningList(bad);
}

TEST(PlyLoader, TextureFileCommentNamesTheTexture) {
    Image image;
    image.width = image.height = 2;
    image.pixels.assign(4, 0xFF0000FFu);
    writePng(scratch() / "skin tone.png", image);
    const std::string body = "element vertex 3\n" + kXyz + "property float s\nproperty float t\n"
                             "element face 1\nproperty list uchar int vertex_indices\n";
    const Model m = ply(plyHeader("ascii", "comment TextureFile  skin tone.png \n" + body) +
                        "0 0 0 0 0\n1 0 0 1 0\n0 1 0 0 1\n3 0 1 2\n");
    ASSERT_EQ(m.materials.size(), 1u);
    ASSERT_GE(m.materials[0].texture, 0);
    EXPECT_NE(m.textures.at(std::size_t(m.materials[0].texture)).source.find("skin tone.png"), std::string::npos);
    EXPECT_TRUE(m.warnings.empty()) << warningList(m);

    const Model missing = ply(plyHeader("ascii", "comment TextureFile nowhere.png\n" + body) +
                              "0 0 0 0 0\n1 0 0 1 0\n0 1 0 0 1\n3 0 1 2\n");
    EXPECT_TRUE(hasWarning(missing, "texture 'nowhere.png' not loaded, the default checker is used")) << warningList(missing);
    EXPECT_EQ(missing.textures.at(std::size_t(missing.materials.at(0).texture)).source, "default checker");
}

// ---- PLY: recoverable faults ------------------------------------------------------------

TEST(PlyLoader, PointCloudLoadsWithoutTrianglesAndAWarning) {
    const Model m = ply(plyHeader("ascii", "element vertex 3\n" + kXyz) + "0 0 0\n1 0 0\n0 1 0\n");
    expectValid(m);
    EXPECT_EQ(m.mesh.triangleCount(), 0u);
    EXPECT_EQ(m.mesh.vertexCount(), 3u);
    EXPECT_TRUE(m.mesh.ranges.empty());
    EXPECT_TRUE(hasWarning(m, "no faces: a point cloud of 3 vertices")) << warningList(m);
}

TEST(PlyLoader, NonFiniteVertexDropsItsFacesAsInObj) {
    const Model m = ply(plyHeader("ascii", "element vertex 5\n" + kXyz +
                                               "element face 3\nproperty list uchar int vertex_indices\n") +
                        "0 0 0\nnan 0 0\n1 0 0\n0 1 0\n1 1 inf\n3 0 1 3\n3 0 2 3\n2 0 2\n");
    expectValid(m);
    EXPECT_EQ(m.mesh.triangleCount(), 1u);
    EXPECT_EQ(m.mesh.vertexCount(), 3u) << "non-finite vertices are removed";
    EXPECT_EQ(m.mesh.position(m.mesh.indices[1]), glm::vec3(1, 0, 0));
    EXPECT_TRUE(hasWarning(m, "vertex index 1 has a non-finite coordinate; faces using it are dropped")) << warningList(m);
    EXPECT_TRUE(hasWarning(m, "face 1 dropped: vertex index 1 is not finite")) << warningList(m);
    EXPECT_TRUE(hasWarning(m, "face 3 with 2 corners dropped")) << warningList(m);
    const auto line = std::find_if(m.warnings.begin(), m.warnings.end(),
                                   [](const Warning& w) { return w.message.find("face 3 with") != std::string::npos; });
    EXPECT_EQ(line->line, 17u) << "ascii warnings carry the face's line";
}

// Found by fuzz_ply: a NaN texture coordinate was kept, for the sampler to convert to an index.
TEST(PlyLoader, NonFiniteTexCoordsAreTakenAsZero) {
    const Model m = ply(plyHeader("ascii", "element vertex 3\n" + kXyz + "property float s\nproperty float t\n"
                                                                         "element face 1\nproperty list uchar int vertex_indices\n") +
                        "0 0 0 0.5 nan\n1 0 0 inf 1\n0 1 0 0.25 0.75\n3 0 1 2\n");
    expectValid(m);
    ASSERT_TRUE(m.mesh.hasTexCoords);
    EXPECT_EQ(m.mesh.u[0], 0.5f);
    EXPECT_EQ(m.mesh.v[0], 0.0f);
    EXPECT_EQ(m.mesh.u[1], 0.0f);
    EXPECT_EQ(m.mesh.v[2], 0.75f);
    EXPECT_TRUE(hasWarning(m, "vertex index 0 (and maybe others) has a non-finite texture coordinate; it is taken as 0"))
        << warningList(m);
}

TEST(PlyLoader, ABadNormalMeansGeneratedNormals) {
    const Model m = ply(plyHeader("ascii", "element vertex 3\n" + kXyz + "property float nx\nproperty float ny\n"
                                                                         "property float nz\nelement face 1\n"
                                                                         "property list uchar int vertex_indices\n") +
                        "0 0 0 0 0 1\n1 0 0 0 0 0\n0 1 0 0 0 1\n3 0 1 2\n");
    expectValid(m);
    EXPECT_FLOAT_EQ(m.mesh.nz[1], 1.0f);
    EXPECT_TRUE(hasWarning(m, "normals are generated instead")) << warningList(m);
}

// ---- PLY: refusals ----------------------------------------------------------------------

TEST(PlyLoader, RefusesBrokenHeaders) {
    const std::string face = "element face 1\nproperty list uchar int vertex_indices\n";
    expectPlyRefused("", 0, "empty file");
    expectPlyRefused("solid cube\nendsolid cube\n", 1, "not a PLY file");
    expectPlyRefused("ply\nformat ascii 1.0\nelement vertex 1\n" + kXyz, 0, "no 'end_header' line");
    expectPlyRefused(plyHeader("binary_middle_endian", "element vertex 1\n" + kXyz), 2,
                     "unknown format 'binary_middle_endian'");
    expectPlyRefused(plyHeader("ascii", "element vertex 1\n" + kXyz + "element vertex 1\n" + kXyz), 7,
                     "duplicate element 'vertex' (first declared on line 3)");
    expectPlyRefused(plyHeader("ascii", face), 0, "no 'vertex' element");
    expectPlyRefused("ply\nend_header\n", 0, "no 'format' line");
    expectPlyRefused(plyHeader("ascii", "element vertex 1\nproperty float x\nproperty half y\n"), 5,
                     "unknown property type 'half'");
    expectPlyRefused(plyHeader("ascii", "property float x\nelement vertex 1\n"), 3, "a property before any element");
    expectPlyRefused(plyHeader("ascii", "element vertex 1\nproperty float x\nproperty float y\n"), 3,
                     "element 'vertex' lacks an x, y or z property");
    expectPlyRefused(plyHeader("ascii", "element vertex 1\n" + kXyz + "property list float int z2\n"), 7,
                     "a list's count must have an integer type");
    expectPlyRefused(plyHeader("ascii", "element vertex -3\n" + kXyz), 3, "malformed element line");
    expectPlyRefused(plyHeader("ascii", "element vertex 1\n" + kXyz + "propulsion float w\n"), 7, "unknown header line");
}

TEST(PlyLoader, RefusesBrokenAsciiBodiesNamingElementAndLine) {
    const std::string header = plyHeader("ascii", "element vertex 3\n" + kXyz +
                                                      "element face 1\nproperty list uchar int vertex_indices\n");
    // The header is 9 lines, so the body's first line is 10.
    expectPlyRefused(header + "0 0 0\n1 0 0\n", 11, "element 'vertex' 3 of 3: the file ends before property 'x' (truncated)");
    expectPlyRefused(header + "0 0 0\n1 0 0\n0 1 0\n3 0 1\n", 13, "element 'face' 1 of 1: the file ends");
    expectPlyRefused(header + "0 0 0\n1 0 0\n0 1 0\n3 0 1 3\n", 13, "element 'face' 1 of 1: vertex index 3 out of range (3 vertices)");
    expectPlyRefused(header + "0 0 0\n1 0 0\n0 1 0\n3 0 -1 2\n", 13, "vertex index -1 out of range");
    expectPlyRefused(header + "0 0 0\n1 0 x\n0 1 0\n3 0 1 2\n", 11, "element 'vertex' 2 of 3: 'x' is not a number");
    expectPlyRefused(header + "0 0 0\n1 0 0\n0 1 0\n3.5 0 1 2\n", 13, "'3.5' is not an integer (uchar property 'vertex_indices')");
    expectPlyRefused(header + "0 0 0\n1 0 0\n0 1 0\n200 0 1 2\n", 13, "list 'vertex_indices' declares 200 items");
}

TEST(PlyLoader, RefusesBrokenBinaryBodiesNamingElementAndByteOffset) {
    const std::string header = plyHeader("binary_little_endian", "element vertex 3\n" + kXyz +
                                                                     "element face 1\nproperty list uchar int vertex_indices\n");
    Bytes vertices;
    for (int i = 0; i < 9; ++i) vertices.put(float(i % 4 == 0));
    const std::size_t body = header.size(), faces = body + 36;
    expectPlyRefused(header + vertices.str().substr(0, 30), 0,
                     "byte " + std::to_string(body) + ", element 'vertex' 3 of 3: the file ends before this instance (truncated)");
    expectPlyRefused(header + vertices.str() + Bytes().put(std::uint8_t(3)).put(0).put(1).str(), 0,
                     "byte " + std::to_string(faces) + ", element 'face' 1 of 1: list 'vertex_indices' declares 3 items");
    expectPlyRefused(header + vertices.str() + Bytes().put(std::uint8_t(3)).put(0).put(1).put(7).str(), 0,
                     "byte " + std::to_string(faces + 9) + ", element 'face' 1 of 1: vertex index 7 out of range (3 vertices)");
    expectPlyRefused(header + vertices.str() + Bytes().put(std::uint8_t(255)).put(0).put(1).put(2).str(), 0,
                     "list 'vertex_indices' declares 255 items, more than the 12 bytes left in the file hold");
}

TEST(PlyLoader, TrailingDataIsWarnedAbout) {
    const std::string header = plyHeader("ascii", "element vertex 1\n" + kXyz);
    const Model m = ply(header + "0 0 0\n1 1 1\n");
    EXPECT_TRUE(hasWarning(m, "6 characters of text after the last element ignored")) << warningList(m);
}

// ---- STL --------------------------------------------------------------------------------

std::string asciiFacet(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c, const std::string& normal = "0 0 0") {
    std::string s = "  facet normal " + normal + "\n    outer loop\n";
    for (const glm::vec3& p : {a, b, c})
        s += "      vertex " + std::to_string(p.x) + " " + std::to_string(p.y) + " " + std::to_string(p.z) + "\n";
    return s + "    endloop\n  endfacet\n";
}

std::string binaryStl(const std::string& header, const std::vector<std::array<float, 9>>& facets,
                      const std::vector<std::uint16_t>& attributes = {}) {
    Bytes b;
    std::string h = header;
    h.resize(80, ' ');
    b.text(h).put(std::uint32_t(facets.size()));
    for (std::size_t f = 0; f < facets.size(); ++f) {
        b.put(0.0f).put(0.0f).put(0.0f);
        for (const float x : facets[f]) b.put(x);
        b.put(attributes.empty() ? std::uint16_t(0) : attributes[f]);
    }
    return b.str();
}

TEST(StlLoader, AsciiFacetsAreFlatShadedFromTheirVerticesNotTheirStoredNormals) {
    const Model m = stl("solid one\n" + asciiFacet({0, 0, 0}, {1, 0, 0}, {0, 1, 0}, "0 1 0") + "endsolid one\n");
    expectValid(m);
    ASSERT_EQ(m.mesh.triangleCount(), 1u);
    EXPECT_EQ(m.mesh.vertexCount(), 3u);
    for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(glm::vec3(m.mesh.nx[i], m.mesh.ny[i], m.mesh.nz[i]), glm::vec3(0, 0, 1));
    EXPECT_FALSE(m.mesh.hasTexCoords);
    EXPECT_FALSE(m.mesh.hasVertexColors());
    ASSERT_EQ(m.materials.size(), 1u);
    EXPECT_EQ(m.fileCounts.faces, 1u);
    EXPECT_TRUE(m.warnings.empty()) << warningList(m);
}

// STL's normals come from generateFlatNormals, which skips generateNormals' accumulation: on
// facets of every kind (negative zeros, slivers, tiny and huge areas, repeated corners) its
// normals must be generateNormals' own, bit for bit.
TEST(StlLoader, FlatNormalsAreGenerateNormalsBitForBit) {
    const float tiny = 1e-20f, huge = 1e20f;
    const std::vector<std::array<float, 9>> facets = {
        {0, 0, 0, 1, 0, 0, 0, 1, 0},          {0, 0, 0, 0, 1, 0, 1, 0, 0},          {0, 0, 0, -1, 0, 0, 0, 0, 1},
        {0, 0, 0, tiny, 0, 0, 0, tiny, 0},    {0, 0, 0, huge, 0, 0, 0, huge, 0},    {1, 1, 1, 1, 1, 1, 2, 3, 4},
        {0, 0, 0, 1e6f, 1e-6f, 0, 2e6f, 0, 0}, {-0.0f, 0, 0, 0, -1, 0, 0, 0, -1},   {3, -2, 7, -5, 4, 0.5f, 8, 8, -8}};
    const Model m = stl(binaryStl("normals", facets), "normals.stl");
    Mesh reference = m.mesh;
    generateNormals(reference);
    ASSERT_EQ(m.mesh.nx.size(), reference.nx.size());
    const auto bits = [](float x) {
        std::uint32_t b = 0;
        std::memcpy(&b, &x, sizeof b);
        return b;
    };
    for (std::size_t i = 0; i < reference.nx.size(); ++i) {
        EXPECT_EQ(bits(m.mesh.nx[i]), bits(reference.nx[i])) << "vertex " << i;
        EXPECT_EQ(bits(m.mesh.ny[i]), bits(reference.ny[i])) << "vertex " << i;
        EXPECT_EQ(bits(m.mesh.nz[i]), bits(reference.nz[i])) << "vertex " << i;
    }
}

// A binary file of 40,000 facets is read, and its normals, indices and bounds made, on two
// threads, each writing its half in place: the model must be the bytes of the one-thread path
// (positions in file order, generateFlatNormals, computeBounds), signed zeros at the bounds'
// ends included, and a non-finite vertex in the second half still drops its facet alone.
TEST(StlLoader, TwoThreadBinaryPathGivesTheOneThreadModel) {
    std::vector<std::array<float, 9>> facets(40000);
    ASSERT_GE(facets.size(), kStlTwoThreadFacets) << "the file must be read on two threads";
    std::uint32_t state = 7u;
    for (std::size_t f = 0; f < facets.size(); ++f)
        for (int k = 0; k < 9; ++k) {
            state = state * 1664525u + 1013904223u;
            // x and y in [-8, 8), exact; z a zero of either sign, so the z bounds are the first
            // zero met: -0 in the first half's first facet, +0 in the second's.
            facets[f][std::size_t(k)] = k % 3 == 2 ? ((state & 1u) ? -0.0f : 0.0f) : float(int(state >> 20) - 2048) / 256.0f;
        }
    for (int c = 0; c < 3; ++c) {
        facets[0][std::size_t(3 * c + 2)] = -0.0f;
        facets[facets.size() / 2][std::size_t(3 * c + 2)] = 0.0f;
    }
    const auto bitsOf = [](const std::vector<float>& a) {
        std::vector<std::uint32_t> b(a.size());
        std::memcpy(b.data(), a.data(), 4 * a.size());
        return b;
    };
    const auto expectOneThreadModel = [&](const Model& m, const std::vector<std::array<float, 9>>& kept, const char* what) {
        Mesh reference;
        for (const auto& f : kept)
            for (int c = 0; c < 3; ++c) {
                reference.px.push_back(f[3 * c]);
                reference.py.push_back(f[3 * c + 1]);
                reference.pz.push_back(f[3 * c + 2]);
                reference.indices.push_back(std::uint32_t(reference.indices.size()));
            }
        generateFlatNormals(reference);
        computeBounds(reference);
        EXPECT_EQ(m.mesh.indices, reference.indices) << what;
        for (const auto member : {&Mesh::px, &Mesh::py, &Mesh::pz, &Mesh::nx, &Mesh::ny, &Mesh::nz})
            EXPECT_EQ(bitsOf(m.mesh.*member), bitsOf(reference.*member)) << what;
        EXPECT_EQ(bitsOf({m.mesh.bounds.min.x, m.mesh.bounds.min.y, m.mesh.bounds.min.z, m.mesh.bounds.max.x,
                          m.mesh.bounds.max.y, m.mesh.bounds.max.z}),
                  bitsOf({reference.bounds.min.x, reference.bounds.min.y, reference.bounds.min.z, reference.bounds.max.x,
                          reference.bounds.max.y, reference.bounds.max.z}))
            << what;
        EXPECT_EQ(m.mesh.u, std::vector<float>(reference.px.size(), 0.0f)) << what;
        EXPECT_EQ(m.mesh.v, std::vector<float>(reference.px.size(), 0.0f)) << what;
    };
    const Model m = stl(binaryStl("big", facets), "big.stl");
    expectValid(m);
    EXPECT_TRUE(m.warnings.empty()) << warningList(m);
    expectOneThreadModel(m, facets, "all finite");
    std::vector<std::array<float, 9>> withNan = facets;
    withNan[30000][4] = std::numeric_limits<float>::quiet_NaN();
    const Model dropped = stl(binaryStl("big", withNan), "nan.stl");
    ASSERT_EQ(dropped.warnings.size(), 1u) << warningList(dropped);
    EXPECT_NE(dropped.warnings[0].message.find("facet 30001 dropped"), std::string::npos) << warningList(dropped);
    withNan.erase(withNan.begin() + 30000);
    expectOneThreadModel(dropped, withNan, "one facet dropped");
}

TEST(StlLoader, AsciiWithSeveralSolidsTabsCrlfAndCapitals) {
    std::string text = "solid\tfirst part\r\n" + asciiFacet({0, 0, 0}, {1, 0, 0}, {0, 1, 0}) + "endsolid\tfirst part\r\n" +
                       "SOLID second\r\nFACET NORMAL 0 0 1\r\n\tOUTER LOOP\r\n\t\tVERTEX 0 0 1\r\n\t\tVERTEX 1 0 1\r\n"
                       "\t\tVERTEX 0 1 1e0\r\n\tENDLOOP\r\nENDFACET\r\nENDSOLID\r\n\r\n";
    const Model m = stl(text);
    expectValid(m);
    ASSERT_EQ(m.mesh.triangleCount(), 2u);
    EXPECT_FLOAT_EQ(m.mesh.pz[5], 1.0f);
    EXPECT_TRUE(m.warnings.empty()) << warningList(m);
}

TEST(StlLoader, BinaryIsToldBySizeEvenWhenItsHeaderSaysSolid) {
    const Model m = stl(binaryStl("solid exported by a CAD program", {{0, 0, 0, 1, 0, 0, 0, 1, 0}, {0, 0, 0, 0, 1, 0, 0, 0, 1}}),
                        "binary.stl");
    expectValid(m);
    ASSERT_EQ(m.mesh.triangleCount(), 2u);
    EXPECT_EQ(m.mesh.position(5), glm::vec3(0, 0, 1));
    EXPECT_FALSE(m.mesh.hasVertexColors()) << "no COLOR= in the header: attribute words are not colours";
}

TEST(StlLoader, BinaryColoursInMaterialisesConvention) {
    std::string header = "STLB exported COLOR=";
    header += std::string("\x40\x80\xC0\xFF", 4);
    header += " MATERIAL=";
    const std::uint16_t red = 31, blueAndGreen = (31 << 10) | (15 << 5), partColour = 0x8000;
    const Model m = stl(binaryStl(header, {{0, 0, 0, 1, 0, 0, 0, 1, 0}, {0, 0, 1, 1, 0, 1, 0, 1, 1}, {0, 0, 2, 1, 0, 2, 0, 1, 2}},
                                  {red, blueAndGreen, partColour}),
                        "colours.stl");
    expectValid(m);
    ASSERT_TRUE(m.mesh.hasVertexColors());
    const auto colour = [&](std::size_t v) { return glm::vec3(m.mesh.cr[v], m.mesh.cg[v], m.mesh.cb[v]); };
    EXPECT_EQ(colour(0), glm::vec3(1, 0, 0));
    EXPECT_EQ(colour(2), glm::vec3(1, 0, 0)) << "every corner of a facet";
    EXPECT_EQ(colour(3), glm::vec3(0, 15.0f / 31.0f, 1));
    EXPECT_EQ(colour(6), glm::vec3(64, 128, 192) / 255.0f) << "bit 15: the header's colour";

    // The same words without the header are junk (Blender pads them with text), not colours.
    const Model plain = stl(binaryStl("Exported from Blender", {{0, 0, 0, 1, 0, 0, 0, 1, 0}}, {0xA020}), "plain.stl");
    EXPECT_FALSE(plain.mesh.hasVertexColors());
}

TEST(StlLoader, EmptySolidsLoadWithAWarningAndAnEmptyFileIsRefused) {
    for (const std::string& bytes : {std::string("solid Empty\nendsolid Empty\n"), binaryStl("empty", {})}) {
        const Model m = stl(bytes);
        expectValid(m);
        EXPECT_EQ(m.mesh.triangleCount(), 0u);
        EXPECT_TRUE(m.materials.empty());
        EXPECT_TRUE(hasWarning(m, "no facets")) << warningList(m);
    }
    expectStlRefused("", 0, "empty file");
}

TEST(StlLoader, NonFiniteFacetsAreDroppedWithAWarning) {
    const Model a = stl("solid s\n" + asciiFacet({0, 0, 0}, {1, 0, 0}, {0, 1, 0}) +
                        "facet normal 0 0 1\nouter loop\nvertex 0 0 nan\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\n"
                        "endsolid s\n");
    expectValid(a);
    EXPECT_EQ(a.mesh.triangleCount(), 1u);
    EXPECT_TRUE(hasWarning(a, "facet 2 dropped: a vertex is not finite")) << warningList(a);
    const float inf = std::numeric_limits<float>::infinity();
    const Model b = stl(binaryStl("x", {{0, 0, 0, 1, 0, 0, 0, 1, 0}, {inf, 0, 0, 1, 0, 0, 0, 1, 0}}), "inf.stl");
    EXPECT_EQ(b.mesh.triangleCount(), 1u);
    EXPECT_TRUE(hasWarning(b, "byte 134: facet 2 dropped")) << warningList(b);
}

TEST(StlLoader, RefusesTruncatedAndMalformedFiles) {
    const std::string two = binaryStl("parts", {{0, 0, 0, 1, 0, 0, 0, 1, 0}, {0, 0, 0, 0, 1, 0, 0, 0, 1}});
    expectStlRefused(two.substr(0, two.size() - 7), 0,
                     "byte 80: a binary STL of 2 facets is 184 bytes long, but the file has 177 (truncated");
    expectStlRefused("not a mesh", 0, "not an STL file");
    const std::string facet = asciiFacet({0, 0, 0}, {1, 0, 0}, {0, 1, 0});
    expectStlRefused("solid s\n" + facet.substr(0, facet.find("endloop")), 6, "expected 'endloop', found the end of the file");
    expectStlRefused("solid s\nfacet normal 0 0 1\nouter loop\nvertex 0 0\nvertex 1 0 0\n", 5,
                     "expected a number (a vertex coordinate), found 'vertex'");
    expectStlRefused("solid s\n" + facet + "endsolid s\nwhatever\n", 10, "expected 'solid' or the end of the file, found 'whatever'");
    expectStlRefused("solid s\n" + facet + "facet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\n"
                                           "vertex 1 1 0\nendloop\nendfacet\n",
                     14, "expected 'endloop', found 'vertex'");
    expectStlRefused("solid s\nfacet normal 0 0 1\nouter loop\nvertex 0 0 1,5\n", 4, "found '1,5'");
    expectStlRefused("solid s\npolygon\n", 2, "expected 'facet' or 'endsolid', found 'polygon'");
}

TEST(StlLoader, AMissingEndsolidIsWarnedAbout) {
    const Model m = stl("solid s\n" + asciiFacet({0, 0, 0}, {1, 0, 0}, {0, 1, 0}));
    EXPECT_EQ(m.mesh.triangleCount(), 1u);
    EXPECT_TRUE(hasWarning(m, "no 'endsolid'")) << warningList(m);
}

// ---- The fuzz targets' seeds ------------------------------------------------------------

// The seeds must stay loadable, or the fuzzers start from refusals and miss the code past them.
TEST(PlyStlLoadModel, FuzzSeedsLoad) {
    std::size_t seeds = 0;
    for (const char* kind : {"ply", "stl"})
        for (const fs::directory_entry& e : fs::directory_iterator(test::sourceDir() / "tests" / "fuzz" / "seeds" / kind)) {
            const Model m = loadModel(e.path());
            expectValid(m);
            EXPECT_GT(m.mesh.triangleCount(), 0u) << e.path();
            ++seeds;
        }
    EXPECT_GE(seeds, 5u);
}

// Files the fuzz targets found (tests/fuzz/regressions) load as valid meshes or are refused;
// the .glb ones too, baked by loadModel as the fuzz target's scenes are checked.
TEST(PlyStlLoadModel, FuzzFoundFilesLoadValidOrAreRefused) {
    std::size_t files = 0;
    for (const fs::directory_entry& e : fs::directory_iterator(test::sourceDir() / "tests" / "fuzz" / "regressions")) {
        const std::string extension = e.path().extension().string();
        if (extension != ".ply" && extension != ".stl" && extension != ".glb") continue;
        ++files;
        try {
            expectValid(loadModel(e.path()));
        } catch (const ParseError& error) {
            EXPECT_EQ(error.file(), e.path().string()) << error.what();
        }
    }
    EXPECT_GE(files, 3u);
}

// stl_subnormal_facets.stl: facets so small that their normals' sums are subnormal floats.
TEST(PlyStlLoadModel, TinyAndHugeFacetsGetUnitNormals) {
    const float tiny = 1e-11f; // twice the area 1e-22: its square is a subnormal float
    const Model m = stl(binaryStl("x", {{0, 0, 0, tiny, 0, 0, 0, tiny, 0}}), "tiny.stl");
    expectValid(m);
    EXPECT_EQ(m.mesh.nz[0], 1.0f);
    // The other end (*_nan_normals.*): a cross product of 1e30 edges overflows, inf - inf is NaN.
    const Model huge = stl(binaryStl("x", {{-1e30f, 0, 0, 1e30f, 1e30f, 0, 0, -1e30f, 1e30f}}), "huge.stl");
    expectValid(huge);
}

// ---- loadModel ----------------------------------------------------------------------------

TEST(PlyStlLoadModel, ClaimsPlyAndStlCaseInsensitively) {
    const std::string plyText = plyHeader("ascii", "element vertex 3\n" + kXyz +
                                                       "element face 1\nproperty list uchar int vertex_indices\n") +
                                "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
    const std::string stlText = "solid s\n" + asciiFacet({0, 0, 0}, {1, 0, 0}, {0, 1, 0}) + "endsolid s\n";
    for (const auto& [name, bytes] : {std::pair<std::string, std::string>{"a.ply", plyText}, {"b.PLY", plyText},
                                      {"c.stl", stlText}, {"d.Stl", stlText}}) {
        const Model m = loadModel(test::writeFile(scratch() / name, bytes));
        EXPECT_EQ(m.mesh.triangleCount(), 1u) << name;
        EXPECT_EQ(m.source, (scratch() / name).string());
    }
}

} // namespace
} // namespace facet
