// The OBJ/MTL loader on files written by the tests: what it accepts, what it rejects (with
// file, line and the offending token), what it warns about, and what the mesh looks like.
#include "asset/image.h"
#include "asset/load_model.h"
#include "asset/mtl_loader.h"
#include "asset/obj_loader.h"
#include "asset/text_scan.h"
#include "core/error.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <iostream>
#include <sstream>

namespace facet {
namespace {

namespace fs = std::filesystem;

const std::string kName = "test.obj";

Model load(const std::string& text, const ObjLoadOptions& options = {}) {
    return loadObjFromString(text, kName, test::scratchDir("obj_loader"), options);
}

// Loads `text` expecting a rejection; returns the error for further checks.
ParseError rejection(const std::string& text) {
    try {
        load(text);
    } catch (const ParseError& e) {
        return e;
    }
    ADD_FAILURE() << "expected a ParseError for:\n" << text;
    return ParseError(kName, 0, "none");
}

void expectRejected(const std::string& text, std::size_t line, const std::string& mention) {
    const ParseError e = rejection(text);
    EXPECT_EQ(e.file(), kName);
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_NE(std::string(e.what()).find(mention), std::string::npos) << e.what() << " should mention " << mention;
    EXPECT_NE(std::string(e.what()).find(kName + ":" + std::to_string(line)), std::string::npos) << e.what();
}

bool hasWarning(const Model& m, const std::string& text, std::size_t line = 0) {
    for (const Warning& w : m.warnings)
        if (w.message.find(text) != std::string::npos && (line == 0 || w.line == line)) return true;
    return false;
}

std::string warningList(const Model& m) {
    std::string s;
    for (const Warning& w : m.warnings) s += "  " + w.toString() + "\n";
    return s;
}

bool allFinite(const Mesh& mesh) {
    for (const std::vector<float>* a : {&mesh.px, &mesh.py, &mesh.pz, &mesh.u, &mesh.v, &mesh.nx, &mesh.ny, &mesh.nz})
        for (const float x : *a)
            if (!std::isfinite(x)) return false;
    return true;
}

const std::string kSquare = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n";

// ---- numbers and names -----------------------------------------------------------------

TEST(ObjNumbers, WholeTokenMustBeANumber) {
    float x = 0.0f;
    EXPECT_EQ(text::parseFloat("3.5", x), text::NumberStatus::Ok);
    EXPECT_EQ(x, 3.5f);
    EXPECT_EQ(text::parseFloat("+2", x), text::NumberStatus::Ok);
    EXPECT_EQ(x, 2.0f);
    EXPECT_EQ(text::parseFloat("-.5e1", x), text::NumberStatus::Ok);
    EXPECT_EQ(x, -5.0f);
    EXPECT_EQ(text::parseFloat("1e30", x), text::NumberStatus::Ok);
    EXPECT_EQ(text::parseFloat("1e-50", x), text::NumberStatus::Ok);
    EXPECT_EQ(x, 0.0f);
    for (const char* bad : {"3.1+e2", "1.0f", "abc", "", "+-1", "1,5", "0x10", "--1", "1e", "1.#INX"})
        EXPECT_EQ(text::parseFloat(bad, x), text::NumberStatus::Malformed) << bad;
    for (const char* nonFinite : {"nan", "-nan", "inf", "-inf", "Infinity", "1e39", "-1e400", "1.#IND", "-1.#IND",
                                  "1.#INF", "-1.#INF00", "1.#QNAN", "1.#SNAN"})
        EXPECT_EQ(text::parseFloat(nonFinite, x), text::NumberStatus::NonFinite) << nonFinite;
}

TEST(ObjNumbers, PathsUnescapeSpacesAndBackslashes) {
    EXPECT_EQ(text::unescapePath("mtl\\ file\\ name.mtl"), "mtl file name.mtl");
    EXPECT_EQ(text::unescapePath("materials\\\\box.mtl"), "materials/box.mtl");
    EXPECT_EQ(text::unescapePath(".\\images\\cesium.png"), "./images/cesium.png");
    const auto names = text::splitEscaped("a.mtl  b\\ c.mtl\td.mtl");
    ASSERT_EQ(names.size(), 3u);
    EXPECT_EQ(names[1], "b\\ c.mtl");
}

TEST(ObjTextureOptions, FileNameIsFoundAmongOptions) {
    EXPECT_EQ(textureFileName("diffuse.jpg"), "diffuse.jpg");
    EXPECT_EQ(textureFileName("-o 0.1 diffuse.jpg"), "diffuse.jpg");
    EXPECT_EQ(textureFileName("-o 0.1 0.2 diffuse.jpg"), "diffuse.jpg");
    EXPECT_EQ(textureFileName("-s 0.1 0.2 0.3 specular.jpg"), "specular.jpg");
    EXPECT_EQ(textureFileName("-t 1 2 3 -clamp on -blendu off -blendv on t.png"), "t.png");
    EXPECT_EQ(textureFileName("-mm 0.1 0.3 -bm 2 -boost 1.5 -cc on -texres 512 -imfchan r a.png"), "a.png");
    EXPECT_EQ(textureFileName("-type sphere env.png"), "env.png");
    EXPECT_EQ(textureFileName("bumpmap2.jpg -bm 1.5"), "bumpmap2.jpg");
    EXPECT_EQ(textureFileName("fuze uv.jpg"), "fuze uv.jpg");
    EXPECT_EQ(textureFileName("-o 1 fuze\\ uv.jpg"), "fuze uv.jpg");
    EXPECT_EQ(textureFileName(".\\images\\cesium.png"), "./images/cesium.png");
    EXPECT_EQ(textureFileName("-clamp on"), "");
}

// ---- lines and encodings ---------------------------------------------------------------

TEST(ObjLoader, ReadsTrianglesAndQuads) {
    const Model m = load(kSquare + "f 1 2 3\nf 1 3 4\n");
    EXPECT_EQ(m.mesh.triangleCount(), 2u);
    EXPECT_EQ(m.mesh.vertexCount(), 4u); // shared corners are one vertex
    const Model q = load(kSquare + "f 1 2 3 4\n");
    EXPECT_EQ(q.mesh.triangleCount(), 2u);
    EXPECT_TRUE(q.warnings.empty()) << warningList(q);
    ASSERT_EQ(q.mesh.ranges.size(), 1u);
    EXPECT_EQ(q.mesh.ranges[0].triangleCount, 2u);
    EXPECT_EQ(q.mesh.bounds.max.x, 1.0f);
}

TEST(ObjLoader, CopesWithLineEndingsBlanksCommentsAndContinuations) {
    const std::string text = "# header\r\n"
                             "v\t0 0 0   \r\n"
                             "   \t \r\n"
                             "v  1  0  0 # trailing comment\r\n"
                             "v 1 1 \\\r\n"
                             "  0\r\n"
                             "v 0 1 0\r\n"
                             "f 1 2 \\\n"
                             "3 4"; // no final newline
    const Model m = load(text);
    EXPECT_EQ(m.mesh.triangleCount(), 2u);
    EXPECT_TRUE(m.warnings.empty()) << warningList(m);
    // Lines are still counted right after a continuation: line 11 is the bad one.
    expectRejected("v 0 0 \\\n0\nv 1 0 0\nv 0 1 0\nf 1 2 3 \\\n\n\n\n\n\nv 1 2\n", 11, "'v' needs 3 numbers");
}

TEST(ObjLoader, ClassicMacLineEnds) {
    const Model m = load("v 0 0 0\rv 1 0 0\rv 0 1 0\rf 1 2 3\r");
    EXPECT_EQ(m.mesh.triangleCount(), 1u);
}

std::string utf16(const std::string& ascii, bool bigEndian, bool bom) {
    std::string out;
    if (bom) out += bigEndian ? std::string("\xFE\xFF") : std::string("\xFF\xFE");
    for (const char c : ascii) {
        if (bigEndian) out.push_back('\0');
        out.push_back(c);
        if (!bigEndian) out.push_back('\0');
    }
    return out;
}

TEST(ObjLoader, ReadsUtf8BomAndAsciiUtf16) {
    const std::string text = kSquare + "f 1 2 3 4\n";
    const fs::path dir = test::scratchDir("obj_encodings");
    const std::pair<const char*, std::string> files[] = {
        {"utf8-bom.obj", "\xEF\xBB\xBF" + text},
        {"utf16le-bom.obj", utf16(text, false, true)},
        {"utf16be-bom.obj", utf16(text, true, true)},
        {"utf16le.obj", utf16(text, false, false)},
    };
    for (const auto& [name, bytes] : files) {
        const Model m = loadObj(test::writeFile(dir / name, bytes));
        EXPECT_EQ(m.mesh.triangleCount(), 2u) << name;
        EXPECT_TRUE(m.warnings.empty()) << name << warningList(m);
    }
}

TEST(ObjLoader, RejectsNonAsciiUtf16AndBinaryFiles) {
    std::string nonAscii = utf16(kSquare + "# caf", false, true) + std::string("\xE9\x00", 2);
    try {
        load(nonAscii);
        ADD_FAILURE() << "non-ASCII UTF-16 accepted";
    } catch (const ParseError& e) {
        EXPECT_NE(std::string(e.what()).find("UTF-16"), std::string::npos) << e.what();
        EXPECT_EQ(e.line(), 5u);
    }
    expectRejected(kSquare + std::string("f 1 2 3\0\x01\x02\x03", 11), 5, "binary");
}

// ---- numbers in statements ---------------------------------------------------------------

TEST(ObjLoader, RejectsNumbersThatAreNotWhollyNumbers) {
    expectRejected("v 0 0 0\nv 1 0 0\nv 3.1+e2 1 0\nf 1 2 3\n", 3, "'3.1+e2'");
    expectRejected("v 0 0 0\nvt 0.5 abc\n", 2, "'abc'");
    expectRejected("v 0 0 0\nvn 0 0 1x\n", 2, "'1x'");
    expectRejected("v 0 0\n", 1, "'v' needs 3 numbers");
    expectRejected("v 0 0 0 1 2\n", 1, "not 5");
    expectRejected("v 0 0 0\nvn 0 1\n", 2, "'vn' needs 3 numbers");
}

TEST(ObjLoader, FourthVertexComponentIsIgnored) {
    const Model m = load("v 0 0 0 1\nv 1 0 0 0.5\nv 0 1 0 2\nf 1 2 3\n");
    EXPECT_EQ(m.mesh.triangleCount(), 1u);
    EXPECT_EQ(m.mesh.bounds.max.x, 1.0f);
    EXPECT_TRUE(hasWarning(m, "w ignored", 1)) << warningList(m);
    EXPECT_EQ(m.warnings.size(), 1u) << "noted once per file";
}

TEST(ObjLoader, HugeFiniteCoordinatesLoad) {
    const Model m = load("v 0 0 0\nv 1e30 0 0\nv 0 -1e30 0\nf 1 2 3\n");
    EXPECT_EQ(m.mesh.triangleCount(), 1u);
    EXPECT_EQ(m.mesh.bounds.max.x, 1e30f);
    EXPECT_EQ(m.mesh.bounds.min.y, -1e30f);
    EXPECT_TRUE(m.warnings.empty()) << warningList(m);
}

TEST(ObjLoader, NonFiniteVerticesDropTheirFaces) {
    const std::string text = kSquare +
                             "v 1e39 0 0\n"         // 5: beyond float
                             "v nan 0 0\n"          // 6
                             "v 0 -inf 0\n"         // 7
                             "v 1.#IND -1.#IND 0\n" // 8
                             "v 1.#INF00 0 0\n"     // 9
                             "f 1 2 3\n"            // line 10: kept
                             "f 1 2 5\n"
                             "f 1 6 3\n"
                             "f 7 2 3\n"
                             "f 1 8 3 4\n"
                             "f 9 1 2\n"
                             "f 1 3 4\n";           // kept
    const Model m = load(text);
    EXPECT_EQ(m.mesh.triangleCount(), 2u);
    for (std::size_t line = 5; line <= 9; ++line)
        EXPECT_TRUE(hasWarning(m, "non-finite or out-of-range coordinate", line)) << line << "\n" << warningList(m);
    for (std::size_t line = 11; line <= 15; ++line)
        EXPECT_TRUE(hasWarning(m, "face dropped", line)) << line << "\n" << warningList(m);
    EXPECT_TRUE(allFinite(m.mesh));
}

TEST(ObjLoader, NonFiniteTexcoordsAndNormalsCountAsAbsent) {
    const Model m = load(kSquare + "vt 0 0\nvt nan 0\nvn 0 0 1\nvn 0 inf 0\nf 1/1/1 2/2/2 3/1/1\n");
    EXPECT_EQ(m.mesh.triangleCount(), 1u);
    EXPECT_TRUE(hasWarning(m, "texture coordinate 2", 6)) << warningList(m);
    EXPECT_TRUE(hasWarning(m, "normal 2", 8)) << warningList(m);
    EXPECT_TRUE(allFinite(m.mesh));
}

TEST(ObjLoader, VertexColours) {
    const Model m = load("v 0 0 0 1 0 0\nv 1 0 0 0 1 0\nv 0 1 0 nan nan nan\nf 1 2 3\n");
    ASSERT_EQ(m.mesh.cr.size(), 3u);
    EXPECT_TRUE(hasWarning(m, "non-finite colour", 3)) << warningList(m);
    for (std::size_t i = 0; i < 3; ++i) {
        const glm::vec3 p = m.mesh.position(i), c{m.mesh.cr[i], m.mesh.cg[i], m.mesh.cb[i]};
        const glm::vec3 expected = p.x == 1.0f ? glm::vec3(0, 1, 0)
                                   : p.y == 1.0f ? glm::vec3(1, 1, 1) // the non-finite colour is drawn white
                                                 : glm::vec3(1, 0, 0);
        EXPECT_EQ(c, expected) << "vertex " << i;
    }
    EXPECT_TRUE(load(kSquare + "f 1 2 3\n").mesh.cr.empty());
}

// ---- indices ---------------------------------------------------------------------------

TEST(ObjLoader, RejectsBadIndicesWithLineAndIndex) {
    expectRejected(kSquare + "f 1 2 3\nf 0 1 2\n", 6, "index 0");
    expectRejected(kSquare + "f 1 2 5\n", 5, "index 5 out of range");
    expectRejected(kSquare + "f 1 -5 2\n", 5, "-5");
    expectRejected("f -4 -3 -2", 1, "points before the first");
    // A bad position index rejects the file even where the corner's other indices are bad too.
    expectRejected(kSquare + "f 1//9 2//9 5//9\n", 5, "vertex index 5 out of range");
    expectRejected(kSquare + "f 1/9 2/9 -5/9\n", 5, "-5");
    expectRejected(kSquare + "f 1 2 99999999999\n", 5, "99999999999");
    expectRejected(kSquare + "f 1 2 99999999999999999999999\n", 5, "99999999999999999999999");
    expectRejected(kSquare + "f 1 2 -99999999999999999999999\n", 5, "-99999999999999999999999");
}

// Other viewers (Blender, MeshLab) open files whose faces name normals or texture coordinates
// the file never defines: the attribute is dropped for the whole mesh, with a warning.
TEST(ObjLoader, OutOfRangeNormalIndexDropsTheNormals) {
    const Model m = load(kSquare + "vn 0 0 -1\nf 1//1 2//1 3//1\nf 1//1 3//1 4//2\nf 1//1 3//1 4//-3\n");
    ASSERT_EQ(m.mesh.triangleCount(), 3u);
    EXPECT_TRUE(hasWarning(m, "normal index 2 out of range in face corner '4//2'", 7)) << warningList(m);
    EXPECT_TRUE(hasWarning(m, "normals are dropped and normals generated", 7)) << warningList(m);
    EXPECT_TRUE(hasWarning(m, "1 more face corner with a normal index out of range")) << warningList(m);
    for (const Warning& w : m.warnings) EXPECT_EQ(w.file, kName);
    // Generated: the square faces +z (counter-clockwise seen from +z), not the file's -z; corners
    // that differed only in their normal index are one vertex again.
    EXPECT_EQ(m.mesh.vertexCount(), 4u);
    for (std::size_t i = 0; i < m.mesh.vertexCount(); ++i)
        EXPECT_EQ(glm::vec3(m.mesh.nx[i], m.mesh.ny[i], m.mesh.nz[i]), glm::vec3(0, 0, 1)) << "vertex " << i;
}

TEST(ObjLoader, OutOfRangeTexCoordIndexDropsTheTexCoords) {
    const Model m = load(kSquare + "vt 0.5 0.5\nvn 0 0 1\nf 1/1/1 2/1/1 3/1/1\nf 1/1/1 3/1/1 4/0/1\n");
    ASSERT_EQ(m.mesh.triangleCount(), 2u);
    EXPECT_TRUE(hasWarning(m, "texture coordinate index 0 in face corner '4/0/1'", 8)) << warningList(m);
    EXPECT_TRUE(hasWarning(m, "texture coordinates are dropped", 8)) << warningList(m);
    EXPECT_FALSE(m.mesh.hasTexCoords);
    EXPECT_EQ(m.mesh.vertexCount(), 4u);
    for (std::size_t i = 0; i < m.mesh.vertexCount(); ++i) {
        EXPECT_EQ(glm::vec2(m.mesh.u[i], m.mesh.v[i]), glm::vec2(0, 0)) << "vertex " << i;
        EXPECT_EQ(glm::vec3(m.mesh.nx[i], m.mesh.ny[i], m.mesh.nz[i]), glm::vec3(0, 0, 1)) << "vertex " << i;
    }
    // Without texture coordinates the default material is plain grey, not the checker.
    ASSERT_EQ(m.materials.size(), 1u);
    EXPECT_EQ(m.materials[0].texture, -1);

    const Model relative = load(kSquare + "vt 0 0\nf 1/1 2/-2 3/1\n");
    EXPECT_TRUE(hasWarning(relative, "relative texture coordinate index -2", 6)) << warningList(relative);
    EXPECT_FALSE(relative.mesh.hasTexCoords);
    EXPECT_FALSE(hasWarning(relative, "normals are dropped")) << warningList(relative);
}

TEST(ObjLoader, RejectsGarbageFaceCorners) {
    expectRejected(kSquare + "f 1 2 x\n", 5, "'x'");
    expectRejected(kSquare + "f 1 2 3abc\n", 5, "'3abc'");
    expectRejected(kSquare + "f 1/1/1/1 2 3\n", 5, "'1/1/1/1'");
    expectRejected(kSquare + "f /1 2 3\n", 5, "'/1'");
    expectRejected(kSquare + "f 1 2 3 - 4\n", 5, "'-'");
    expectRejected(kSquare + "vn 0 0 1\nf 1//1 2//x 3//1\n", 6, "'2//x'");
    expectRejected(kSquare + "vt 0 0\nf 1/1 2/- 3/1\n", 6, "'2/-'");
    expectRejected(kSquare + "f 1 +2 3\n", 5, "'+2'");
}

TEST(ObjLoader, RelativeIndicesCountFromTheVerticesSoFar) {
    const Model m = load("v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\nv 5 5 5\nf -4 -3 -1\n");
    ASSERT_EQ(m.mesh.triangleCount(), 2u);
    const Mesh& mesh = m.mesh;
    EXPECT_EQ(mesh.position(mesh.indices[2]), glm::vec3(0, 1, 0));
    EXPECT_EQ(mesh.position(mesh.indices[5]), glm::vec3(5, 5, 5));
}

TEST(ObjLoader, EmptyTrailingIndicesMeanNone) {
    const Model withUv = load(kSquare + "vt 0 0\nvt 1 0\nvt 1 1\nf 1/1/ 2/2/ 3/3/\n");
    EXPECT_EQ(withUv.mesh.triangleCount(), 1u);
    EXPECT_TRUE(withUv.mesh.hasTexCoords);
    const Model plain = load(kSquare + "f 1// 2// 3//\n");
    EXPECT_EQ(plain.mesh.triangleCount(), 1u);
    EXPECT_FALSE(plain.mesh.hasTexCoords);
}

TEST(ObjLoader, DegenerateFacesAreDroppedWithAWarning) {
    const Model m = load(kSquare + "f 1\nf 1 2\nf 1 1 2\nf 1 2 3\n");
    EXPECT_EQ(m.mesh.triangleCount(), 1u);
    EXPECT_TRUE(hasWarning(m, "1 corner dropped", 5)) << warningList(m);
    EXPECT_TRUE(hasWarning(m, "2 corners dropped", 6)) << warningList(m);
    EXPECT_TRUE(hasWarning(m, "degenerate face", 7)) << warningList(m);
}

// ---- attributes ------------------------------------------------------------------------

TEST(ObjLoader, FileNormalsAreNormalised) {
    const Model m = load(kSquare + "vn 0 0 6.283185\nf 1//1 2//1 3//1\n");
    ASSERT_EQ(m.mesh.nz.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) EXPECT_FLOAT_EQ(m.mesh.nz[i], 1.0f);
    // So small that its squares are subnormal (or zero): still a direction, made unit exactly.
    for (const char* tiny : {"vn 1e-20 0 1e-20\n", "vn 3e-23 0 3e-23\n"}) {
        const Model t = load(kSquare + tiny + "f 1//1 2//1 3//1\n");
        EXPECT_TRUE(t.warnings.empty()) << warningList(t);
        for (std::size_t i = 0; i < t.mesh.nx.size(); ++i)
            EXPECT_NEAR(std::hypot(t.mesh.nx[i], t.mesh.nz[i]), 1.0f, 1e-6f) << tiny;
    }
}

TEST(ObjLoader, MixedFaceFormatsShareOneMeshWithGeneratedNormals) {
    // The file's normal points down; the generated ones follow the winding (up).
    const Model m = load(kSquare + "vt 0 0\nvt 1 1\nvn 0 0 -1\nf 1/1/1 2/2/1 3/2/1\nf 1 3 4\nf 1//1 2//1 4//1\n");
    EXPECT_EQ(m.mesh.triangleCount(), 3u);
    EXPECT_TRUE(m.mesh.hasTexCoords);
    for (std::size_t i = 0; i < m.mesh.vertexCount(); ++i) {
        const glm::vec3 n{m.mesh.nx[i], m.mesh.ny[i], m.mesh.nz[i]};
        EXPECT_NEAR(glm::length(n), 1.0f, 1e-6f);
        EXPECT_GT(n.z, 0.0f);
    }
}

TEST(ObjLoader, ConcavePolygonsAreTriangulatedInsideTheirOutline) {
    // An L and a comb with three teeth, in the XZ plane, as single faces.
    const std::string text = "v 0 0 0\nv 2 0 0\nv 2 0 1\nv 1 0 1\nv 1 0 2\nv 0 0 2\nf 1 2 3 4 5 6\n"
                             "v 0 5 0\nv 5 5 0\nv 5 5 3\nv 4 5 3\nv 4 5 1\nv 3 5 1\nv 3 5 3\nv 2 5 3\nv 2 5 1\n"
                             "v 1 5 1\nv 1 5 3\nv 0 5 3\nf -12 -11 -10 -9 -8 -7 -6 -5 -4 -3 -2 -1\n";
    const Model m = load(text);
    // The comb's 12 corners give 9 triangles, not 10: corners on its base line z = 1 become
    // neighbours as teeth are cut, and such a collinear corner adds no triangle.
    ASSERT_EQ(m.mesh.triangleCount(), 4u + 9u);
    double lArea = 0.0, combArea = 0.0;
    for (std::size_t t = 0; t < m.mesh.triangleCount(); ++t) {
        const glm::vec3 a = m.mesh.position(m.mesh.indices[3 * t]), b = m.mesh.position(m.mesh.indices[3 * t + 1]),
                        c = m.mesh.position(m.mesh.indices[3 * t + 2]);
        const float signedArea = 0.5f * glm::cross(b - a, c - a).y; // both outlines are wound the same way
        EXPECT_LT(signedArea, 0.0f) << "triangle " << t << " is wound against its face";
        const glm::vec3 centroid = (a + b + c) / 3.0f;
        if (a.y == 0.0f) {
            lArea -= signedArea;
            EXPECT_TRUE(centroid.x < 1.0f || centroid.z < 1.0f) << "triangle " << t << " outside the L";
        } else {
            combArea -= signedArea;
            const bool inGap = centroid.z > 1.0f && (std::fmod(centroid.x, 2.0f) > 1.0f);
            EXPECT_FALSE(inGap) << "triangle " << t << " lies in a gap of the comb";
        }
    }
    EXPECT_NEAR(lArea, 3.0, 1e-6);
    EXPECT_NEAR(combArea, 5.0 + 3 * 2.0, 1e-6);
}

// ---- materials -------------------------------------------------------------------------

// A 2x2 PNG in `dir`.
void writeTinyPng(const fs::path& path) {
    fs::create_directories(path.parent_path());
    Image image;
    image.width = image.height = 2;
    image.pixels = {0xFF0000FFu, 0xFF00FF00u, 0xFFFF0000u, 0xFFFFFFFFu};
    writePng(path, image);
}

TEST(ObjLoader, MaterialsTexturesAndRanges) {
    const fs::path dir = test::scratchDir("obj_materials");
    writeTinyPng(dir / "tex" / "shared one.png");
    test::writeFile(dir / "lib one.mtl", "newmtl red\r\nKd 1 0 0\r\nmap_Kd -o 0.1 0.2 -clamp on tex\\shared one.png\r\n"
                                         "newmtl\tgreen\t\t\r\nKd 0 1 0\r\nmap_Kd tex/shared\\ one.png -bm 1\r\n");
    test::writeFile(dir / "two.mtl", "newmtl lost\nKd 0 0 1\nmap_Kd missing.png\n");
    const std::string obj = "mtllib lib\\ one.mtl nowhere.mtl two.mtl\n" + kSquare +
                            "vt 0 0\nvt 1 0\nvt 1 1\n"
                            "usemtl red\nf 1/1 2/2 3/3\nusemtl green\nusemtl red\nf 1/1 3/3 4/1\n"
                            "usemtl green\nf 1/1 2/2 4/1\nusemtl lost\nf 2/2 3/3 4/1\n"
                            "usemtl nothing\nf 1/1 2/2 3/3\nusemtl nothing\nf 1/1 3/3 4/1\n";
    const Model m = loadObj(test::writeFile(dir / "scene.obj", obj));
    ASSERT_EQ(m.mesh.triangleCount(), 6u);

    // Materials in definition order, then the default one for the undefined name.
    ASSERT_EQ(m.materials.size(), 4u);
    EXPECT_EQ(m.materials[0].name, "red");
    EXPECT_EQ(m.materials[1].name, "green");
    EXPECT_EQ(m.materials[2].name, "lost");
    EXPECT_EQ(m.materials[3].name, "default");
    EXPECT_EQ(m.materials[0].diffuse, glm::vec3(1, 0, 0));

    // One decoded texture shared by red and green, and the checker for the missing one.
    EXPECT_EQ(m.materials[0].texture, m.materials[1].texture);
    ASSERT_GE(m.materials[0].texture, 0);
    EXPECT_EQ(m.textures[std::size_t(m.materials[0].texture)].width(), 2u);
    ASSERT_GE(m.materials[2].texture, 0);
    EXPECT_EQ(m.textures[std::size_t(m.materials[2].texture)].source, "default checker");
    EXPECT_EQ(m.materials[3].texture, -1) << "the default material is plain grey, though the mesh has UVs";
    EXPECT_EQ(m.textures.size(), 2u);

    // Ranges in file order: red (2 faces, the empty "green" switch between them makes no range),
    // green, lost, default.
    ASSERT_EQ(m.mesh.ranges.size(), 4u);
    const std::uint32_t expected[4][3] = {{0, 2, 0}, {2, 1, 1}, {3, 1, 2}, {4, 2, 3}};
    for (std::size_t r = 0; r < 4; ++r) {
        EXPECT_EQ(m.mesh.ranges[r].firstTriangle, expected[r][0]) << r;
        EXPECT_EQ(m.mesh.ranges[r].triangleCount, expected[r][1]) << r;
        EXPECT_EQ(m.mesh.ranges[r].material, expected[r][2]) << r;
    }

    EXPECT_TRUE(hasWarning(m, "'nowhere.mtl' not loaded", 1)) << warningList(m);
    EXPECT_TRUE(hasWarning(m, "texture 'missing.png' of material 'lost'", 3)) << warningList(m);
    EXPECT_TRUE(hasWarning(m, "material 'nothing' is not defined", 18)) << warningList(m);
    std::size_t undefinedWarnings = 0;
    for (const Warning& w : m.warnings) undefinedWarnings += w.message.find("'nothing'") != std::string::npos;
    EXPECT_EQ(undefinedWarnings, 1u) << "warned once per name";
    EXPECT_EQ(m.warnings.size(), 3u) << warningList(m);
}

TEST(ObjLoader, DefaultMaterialIsPlainGreyWithoutTexcoords) {
    const Model m = load(kSquare + "f 1 2 3\n");
    ASSERT_EQ(m.materials.size(), 1u);
    EXPECT_EQ(m.materials[0].name, "default");
    EXPECT_EQ(m.materials[0].texture, -1);
    EXPECT_TRUE(m.textures.empty());
    EXPECT_TRUE(m.warnings.empty()) << "faces before any usemtl are not a problem";
}

TEST(ObjLoader, OptionsCanSkipMaterialsAndTextures) {
    const fs::path dir = test::scratchDir("obj_options");
    test::writeFile(dir / "m.mtl", "newmtl a\nmap_Kd missing.png\n");
    const fs::path obj = test::writeFile(dir / "o.obj", "mtllib m.mtl\n" + kSquare + "vt 0 0\nusemtl a\nf 1/1 2/1 3/1\n");
    ObjLoadOptions noTextures;
    noTextures.loadTextures = false;
    const Model a = loadObj(obj, noTextures);
    ASSERT_EQ(a.materials.size(), 1u);
    EXPECT_EQ(a.materials[0].texture, -1);
    EXPECT_TRUE(a.warnings.empty()) << warningList(a);
    ObjLoadOptions nothing;
    nothing.loadMaterials = false;
    const Model b = loadObj(obj, nothing);
    ASSERT_EQ(b.materials.size(), 1u);
    EXPECT_EQ(b.materials[0].name, "default");
    EXPECT_TRUE(b.warnings.empty()) << warningList(b);
}

// ---- whole files -------------------------------------------------------------------------

TEST(ObjLoader, RejectsFilesWithoutGeometry) {
    for (const char* text : {"", "# only a comment\n", "\n\n  \n", "o thing\ng group\n"}) {
        const ParseError e = rejection(text);
        EXPECT_NE(std::string(e.what()).find("no geometry"), std::string::npos) << e.what();
    }
}

TEST(ObjLoader, TruncatedFiles) {
    const std::string whole = kSquare + "vt 0 0\nf 1/1 2/1 3/1\nf 1/1 3/1 4/1\n";
    // Cut inside the second number of a vertex line: that line has too few numbers.
    expectRejected(whole.substr(0, whole.find("v 1 1 0") + 4), 3, "'v' needs 3 numbers");
    // Cut inside the last face: it keeps two corners and is dropped.
    const Model m = load(whole.substr(0, whole.size() - 5));
    EXPECT_EQ(m.mesh.triangleCount(), 1u);
    EXPECT_TRUE(hasWarning(m, "2 corners dropped", 7)) << warningList(m);
}

// /dev/zero never ends: reading it would hang until the test's time limit (tests/CMakeLists.txt),
// no wall-clock assertion needed.
TEST(ObjLoader, FilesThatAreNotRegularAreRefused) {
    const auto expectError = [](const fs::path& path, const std::string& mention) {
        try {
            loadObj(path);
            ADD_FAILURE() << path << " loaded";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find(mention), std::string::npos) << e.what();
        }
    };
    expectError("/dev/zero", "not a regular file");
    expectError(test::scratchDir("obj_directory"), "directory");
    expectError(test::scratchDir("obj_directory") / "missing.obj", "not found");
}

// Not a timing assertion (timing tests are not allowed here): prints the load time of a
// generated 1M-triangle v/vt/vn grid, and checks the mesh came out whole.
TEST(ObjLoader, LoadsAMillionTriangleGrid) {
    const int n = 708; // 708 x 708 quads, 2 triangles each: 1,002,528 triangles
    const fs::path path = test::scratchDir("obj_large") / "grid.obj";
    {
        std::ostringstream out;
        out.setf(std::ios::fixed);
        out.precision(6);
        for (int j = 0; j <= n; ++j)
            for (int i = 0; i <= n; ++i) out << "v " << double(i) / n << ' ' << double(j) / n << ' ' << 0.01 * ((7 * i + 3 * j) % 11) << '\n';
        for (int j = 0; j <= n; ++j)
            for (int i = 0; i <= n; ++i) out << "vt " << double(i) / n << ' ' << double(j) / n << '\n';
        for (int k = 0; k < (n + 1) * (n + 1); ++k) out << "vn 0 0 1\n";
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                const int a = j * (n + 1) + i + 1, b = a + 1, c = a + n + 1, d = c + 1;
                out << "f " << a << '/' << a << '/' << a << ' ' << b << '/' << b << '/' << b << ' ' << d << '/' << d << '/' << d << '\n';
                out << "f " << a << '/' << a << '/' << a << ' ' << d << '/' << d << '/' << d << ' ' << c << '/' << c << '/' << c << '\n';
            }
        test::writeFile(path, out.str());
    }
    const auto start = std::chrono::steady_clock::now();
    const Model m = loadObj(path);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "[ timing   ] " << m.mesh.triangleCount() << " triangles, " << fs::file_size(path) / 1e6
              << " MB loaded in " << seconds * 1e3 << " ms\n";
    EXPECT_EQ(m.mesh.triangleCount(), std::size_t(2) * n * n);
    EXPECT_EQ(m.mesh.vertexCount(), std::size_t(n + 1) * (n + 1));
    EXPECT_TRUE(m.warnings.empty()) << warningList(m);
    fs::remove(path);
}

// ---- loadModel -------------------------------------------------------------------------

TEST(LoadModel, ChoosesTheLoaderByExtensionCaseInsensitively) {
    const fs::path dir = test::scratchDir("load_model");
    const std::string square = kSquare + "f 1 2 3 4\n";
    for (const char* name : {"square.obj", "SQUARE.OBJ", "Square.Obj"}) {
        const Model m = loadModel(test::writeFile(dir / name, square));
        EXPECT_EQ(m.mesh.triangleCount(), 2u) << name;
        EXPECT_EQ(m.source, (dir / name).string());
    }
    EXPECT_EQ(modelExtensions(), (std::vector<std::string>{".obj", ".ply", ".stl", ".gltf", ".glb"}));
}

TEST(LoadModel, RefusesAnExtensionNoLoaderClaimsNamingIt) {
    const fs::path dir = test::scratchDir("load_model");
    const fs::path fbx = test::writeFile(dir / "mesh.FBX", "Kaydara FBX Binary\n");
    try {
        loadModel(fbx);
        ADD_FAILURE() << "a .FBX file was loaded";
    } catch (const ParseError& e) {
        EXPECT_EQ(e.file(), fbx.string());
        EXPECT_NE(std::string(e.what()).find("extension '.FBX'"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(".obj, .ply, .stl"), std::string::npos) << e.what();
    }
    const fs::path bare = test::writeFile(dir / "mesh", kSquare + "f 1 2 3\n");
    try {
        loadModel(bare);
        ADD_FAILURE() << "a file without an extension was loaded";
    } catch (const ParseError& e) {
        EXPECT_NE(std::string(e.what()).find("no extension"), std::string::npos) << e.what();
    }
}

} // namespace
} // namespace facet
