// The shared PLY and STL corpus (../shared/models, rows 26-48 of MANIFEST-GLTF-PLY-STL.md):
// every file behaves as the manifest's "correct loader should" column says. The table names
// every PLY and STL file of the corpus, and a test checks that it does, so a file added to the
// corpus cannot be skipped silently. Files are loaded through loadModel, as the apps load them
// (the one file without an extension, a PLY, through loadPly).
#include "asset/load_model.h"
#include "asset/ply_loader.h"
#include "core/error.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <set>

namespace facet {
namespace {

namespace fs = std::filesystem;

struct CorpusCase {
    int row = 0; // the manifest's row
    std::string path;
    bool rejected = false;
    std::size_t line = 0;  // rejected: the line the error names (0 for the whole file or a byte offset)
    std::string mention;   // rejected: text the error must contain
    std::size_t triangles = 0;
    std::size_t vertices = 0; // checked when non-zero
    // What the file holds: normals (an STL's facet normals, which are not read), UVs, colours.
    bool normalsInFile = false, texCoords = false, colors = false;
    std::string warning; // loaded: a warning that must be there; none may be when empty
    std::function<void(const Model&)> check;
};

CorpusCase rejected(int row, std::string path, std::size_t line, std::string mention) {
    CorpusCase c;
    c.row = row;
    c.path = std::move(path);
    c.rejected = true;
    c.line = line;
    c.mention = std::move(mention);
    return c;
}

CorpusCase loaded(int row, std::string path, std::size_t triangles, std::size_t vertices = 0) {
    CorpusCase c;
    c.row = row;
    c.path = std::move(path);
    c.triangles = triangles;
    c.vertices = vertices;
    return c;
}

CorpusCase with(CorpusCase c, bool normals, bool texCoords, bool colors) {
    c.normalsInFile = normals;
    c.texCoords = texCoords;
    c.colors = colors;
    return c;
}

CorpusCase warned(CorpusCase c, std::string warning) {
    c.warning = std::move(warning);
    return c;
}

CorpusCase checked(CorpusCase c, std::function<void(const Model&)> check) {
    c.check = std::move(check);
    return c;
}

Model load(const fs::path& path) { return path.has_extension() ? loadModel(path) : loadPly(path); }

std::vector<glm::vec3> positions(const Mesh& mesh) {
    std::vector<glm::vec3> out;
    for (std::size_t i = 0; i < mesh.vertexCount(); ++i) out.push_back(mesh.position(i));
    return out;
}

std::vector<CorpusCase> corpusTable() {
    return {
        loaded(26, "assimp-ply-stl/PLY/cube.ply", 12, 8),
        loaded(27, "assimp-ply-stl/PLY/cube_binary.ply", 12, 8),
        checked(loaded(28, "assimp-ply-stl/PLY/cube_binary_header_with_RN_newline.ply", 12, 8),
                [](const Model& m) {
                    const Model lf = loadModel(test::modelsDir() / "assimp-ply-stl/PLY/cube_binary.ply");
                    EXPECT_EQ(positions(m.mesh), positions(lf.mesh)) << "the body starts after end_header's \\r\\n";
                    EXPECT_EQ(m.mesh.indices, lf.mesh.indices);
                }),
        with(loaded(29, "assimp-ply-stl/PLY/cube_uv.ply", 12, 24), true, true, false),
        checked(with(loaded(30, "assimp-ply-stl/PLY/float-color.ply", 1, 3), false, false, true),
                [](const Model& m) {
                    // Float colours are taken as they are, not divided by 255.
                    const float most = std::max({*std::max_element(m.mesh.cr.begin(), m.mesh.cr.end()),
                                                 *std::max_element(m.mesh.cg.begin(), m.mesh.cg.end()),
                                                 *std::max_element(m.mesh.cb.begin(), m.mesh.cb.end())});
                    EXPECT_GT(most, 0.5f);
                }),
        warned(with(loaded(31, "assimp-ply-stl/PLY/points.ply", 0, 4), true, false, true), "point cloud of 4 vertices"),
        rejected(32, "assimp-ply-stl/PLY/payload_JVN42386607", 6, "duplicate element 'vertex'"),
        rejected(33, "assimp-ply-stl/invalid/crash-30d6d0f7c529b3b66b4131700b7a4580cd7082df.ply", 0,
                 "no 'end_header' line"),
        rejected(34, "assimp-ply-stl/invalid/empty.ply", 0, "empty file"),
        loaded(35, "happly/test/sampledata/platonic_shelf_big_endian.ply", 80, 50),
        loaded(36, "trimesh-ply-stl/bunny.ply", 16301, 8171),
        with(loaded(37, "trimesh-ply-stl/reference.ply", 1610, 845), false, false, true),
        // Per-face texcoord lists: corners are split per (vertex, uv), so there are more
        // vertices than the file's 502; the texture named by the TextureFile comment is loaded.
        checked(with(loaded(38, "trimesh-ply-stl/fuze.ply", 1000), false, true, true),
                [](const Model& m) {
                    EXPECT_EQ(m.fileCounts.positions, 502u);
                    EXPECT_GT(m.mesh.vertexCount(), 502u);
                    ASSERT_EQ(m.materials.size(), 1u);
                    ASSERT_GE(m.materials[0].texture, 0);
                    const std::string source = m.textures.at(std::size_t(m.materials[0].texture)).source;
                    EXPECT_NE(source.find("fuze uv.jpg"), std::string::npos) << source;
                }),
        rejected(39, "trimesh-ply-stl/emptyIO/ply_empty_header.ply", 0, "no 'vertex' element"),
        with(loaded(40, "assimp-ply-stl/STL/triangle.stl", 1, 3), true, false, false),
        with(loaded(41, "assimp-ply-stl/STL/sphereWithHole.stl", 285), true, false, false),
        with(loaded(42, "assimp-ply-stl/STL/triangle_with_two_solids.stl", 2), true, false, false),
        with(loaded(43, "assimp-ply-stl/STL/Wuson.stl", 3732), true, false, false), // junk attribute words: no colours
        with(loaded(44, "trimesh-ply-stl/unit_cube.STL", 12), true, false, false),
        checked(with(loaded(45, "trimesh-ply-stl/20mm-xyz-cube.stl", 260), true, false, true),
                [](const Model& m) {
                    // Every attribute word is 0x4E73: grey 19/31 in Materialise's convention.
                    for (const std::vector<float>* c : {&m.mesh.cr, &m.mesh.cg, &m.mesh.cb})
                        for (const float x : *c) ASSERT_FLOAT_EQ(x, 19.0f / 31.0f);
                }),
        with(loaded(46, "trimesh-ply-stl/multibody.stl", 32), true, false, false),
        warned(loaded(47, "trimesh-ply-stl/empty.stl", 0), "no facets"),
        warned(loaded(48, "trimesh-ply-stl/emptyIO/stl_empty_bin.stl", 0), "no facets"),
    };
}

std::string warningList(const Model& m) {
    std::string s;
    for (const Warning& w : m.warnings) s += "  " + w.toString() + "\n";
    return s;
}

// What every loaded model must satisfy, whatever the file.
void expectWellFormed(const Model& m) {
    const Mesh& mesh = m.mesh;
    EXPECT_NO_THROW(validateMesh(mesh, m.materials.size(), m.source));
    ASSERT_EQ(mesh.nx.size(), mesh.vertexCount());
    ASSERT_EQ(mesh.u.size(), mesh.vertexCount());
    for (const std::vector<float>* a : {&mesh.px, &mesh.py, &mesh.pz, &mesh.u, &mesh.v, &mesh.cr, &mesh.cg, &mesh.cb})
        for (const float x : *a) ASSERT_TRUE(std::isfinite(x)) << "a non-finite attribute";
    for (const float x : mesh.cr) ASSERT_TRUE(x >= 0.0f && x <= 1.0f);
    for (std::size_t i = 0; i < mesh.vertexCount(); ++i)
        ASSERT_NEAR(std::hypot(mesh.nx[i], mesh.ny[i], mesh.nz[i]), 1.0, 1e-5) << "normal " << i;
    if (mesh.triangleCount() > 0) {
        EXPECT_EQ(m.materials.size(), 1u) << "one default material";
        ASSERT_EQ(mesh.ranges.size(), 1u);
        EXPECT_EQ(mesh.ranges[0].triangleCount, mesh.triangleCount());
        EXPECT_TRUE(glm::all(glm::lessThanEqual(mesh.bounds.min, mesh.bounds.max)));
    }
}

void expectCase(const CorpusCase& c, const fs::path& path) {
    if (c.rejected) {
        try {
            load(path);
            ADD_FAILURE() << c.path << " should be refused";
        } catch (const ParseError& e) {
            EXPECT_EQ(e.line(), c.line) << e.what();
            EXPECT_EQ(e.file(), path.string());
            EXPECT_NE(std::string(e.what()).find(c.mention), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
        }
        return;
    }
    Model m;
    try {
        m = load(path);
    } catch (const Error& e) {
        ADD_FAILURE() << c.path << " should load: " << e.what();
        return;
    }
    expectWellFormed(m);
    EXPECT_EQ(m.mesh.triangleCount(), c.triangles);
    if (c.vertices) {
        EXPECT_EQ(m.mesh.vertexCount(), c.vertices);
    }
    EXPECT_EQ(m.fileCounts.normals > 0, c.normalsInFile);
    EXPECT_EQ(m.mesh.hasTexCoords, c.texCoords);
    EXPECT_EQ(m.mesh.hasVertexColors(), c.colors);
    if (c.warning.empty()) {
        EXPECT_TRUE(m.warnings.empty()) << warningList(m);
    } else {
        const bool found = std::any_of(m.warnings.begin(), m.warnings.end(),
                                       [&](const Warning& w) { return w.message.find(c.warning) != std::string::npos; });
        EXPECT_TRUE(found) << "missing warning '" << c.warning << "'; got:\n" << warningList(m);
    }
    if (c.check) c.check(m);
}

TEST(ModelCorpus, EveryPlyAndStlFileBehavesAsTheManifestSays) {
    const fs::path root = test::modelsDir();
    if (!fs::is_directory(root)) GTEST_SKIP() << "model corpus not found at " << root << " (set FACET_MODELS_DIR)";
    for (const CorpusCase& c : corpusTable()) {
        SCOPED_TRACE("row " + std::to_string(c.row) + ": " + c.path);
        expectCase(c, root / c.path);
    }
}

std::string lowerExtension(const fs::path& p) {
    std::string e = p.extension().string();
    std::transform(e.begin(), e.end(), e.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    return e;
}

TEST(ModelCorpus, TableCoversEveryPlyAndStlFile) {
    const fs::path root = test::modelsDir();
    if (!fs::is_directory(root)) GTEST_SKIP() << "model corpus not found at " << root << " (set FACET_MODELS_DIR)";
    std::set<std::string> listed;
    std::set<int> rows;
    for (const CorpusCase& c : corpusTable()) {
        EXPECT_TRUE(listed.insert(c.path).second) << c.path << " listed twice";
        EXPECT_TRUE(rows.insert(c.row).second) << "row " << c.row << " listed twice";
        EXPECT_TRUE(fs::is_regular_file(root / c.path)) << c.path << " is listed but not in the corpus";
    }
    EXPECT_EQ(rows.size(), 23u) << "rows 26 to 48";
    EXPECT_EQ(*rows.begin(), 26);
    EXPECT_EQ(*rows.rbegin(), 48);
    for (const fs::directory_entry& e : fs::recursive_directory_iterator(root)) {
        const std::string extension = lowerExtension(e.path());
        if (!e.is_regular_file() || (extension != ".ply" && extension != ".stl")) continue;
        const std::string relative = e.path().lexically_relative(root).generic_string();
        EXPECT_TRUE(listed.count(relative)) << relative << " is in the corpus but not in the table";
    }
}

} // namespace
} // namespace facet
