// The shared OBJ corpus (../shared/models, see its MANIFEST.md): every file behaves as the
// MANIFEST's "correct loader should" column says. The table below names every corpus file, and
// a test checks that it does, so a file added to the corpus cannot be skipped silently.
#include "asset/obj_loader.h"
#include "core/error.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <set>

namespace facet {
namespace {

namespace fs = std::filesystem;

struct ExpectedWarning {
    std::string text;
    std::size_t line = 0; // 0: any line
};

struct CorpusCase {
    std::string path; // relative to the corpus folder
    bool rejected = false;
    std::size_t line = 0;          // rejected: the line the error names (0 for the whole file)
    std::string mention;           // rejected: text the error must contain
    std::size_t triangles = 0;     // loaded
    std::size_t vertices = 0;      // loaded: checked when non-zero
    int materials = -1;            // loaded: checked when >= 0
    std::vector<ExpectedWarning> warnings;
    std::function<void(const Model&)> check; // further checks of this file
};

// tinyobjloader's cube.mtl and cornell_box.mtl give their light "Ka 20 20 20" on line 22.
const ExpectedWarning kLightKa{"Ka '20 20 20' of material 'light' is outside [0, 1]; clamped", 22};

CorpusCase rejected(std::string path, std::size_t line, std::string mention) {
    CorpusCase c;
    c.path = std::move(path);
    c.rejected = true;
    c.line = line;
    c.mention = std::move(mention);
    return c;
}

CorpusCase loaded(std::string path, std::size_t triangles, std::vector<ExpectedWarning> warnings = {},
                  std::function<void(const Model&)> check = {}) {
    CorpusCase c;
    c.path = std::move(path);
    c.triangles = triangles;
    c.warnings = std::move(warnings);
    c.check = std::move(check);
    return c;
}

CorpusCase withCounts(CorpusCase c, std::size_t vertices, int materials) {
    c.vertices = vertices;
    c.materials = materials;
    return c;
}

const Material& materialOfTriangle(const Model& m, std::size_t triangle) {
    for (const MaterialRange& r : m.mesh.ranges)
        if (triangle >= r.firstTriangle && triangle < r.firstTriangle + r.triangleCount) return m.materials.at(r.material);
    throw Error("triangle " + std::to_string(triangle) + " is in no range");
}

std::string materialNames(const Model& m) {
    std::string s;
    for (const Material& mat : m.materials) s += "'" + mat.name + "' ";
    return s;
}

// The texture of `material` was decoded from a file whose path ends with `file`.
void expectTextureFrom(const Model& m, const std::string& material, const std::string& file) {
    const auto it = std::find_if(m.materials.begin(), m.materials.end(), [&](const Material& x) { return x.name == material; });
    ASSERT_NE(it, m.materials.end()) << "no material " << material << " among " << materialNames(m);
    ASSERT_GE(it->texture, 0) << material << " has no texture";
    const std::string source = fs::path(m.textures.at(std::size_t(it->texture)).source).lexically_normal().generic_string();
    EXPECT_TRUE(source.size() >= file.size() && source.compare(source.size() - file.size(), file.size(), file) == 0)
        << source << " should end with " << file;
}

void expectCheckerFor(const Model& m, const std::string& material) {
    const auto it = std::find_if(m.materials.begin(), m.materials.end(), [&](const Material& x) { return x.name == material; });
    ASSERT_NE(it, m.materials.end()) << "no material " << material << " among " << materialNames(m);
    ASSERT_GE(it->texture, 0);
    EXPECT_EQ(m.textures.at(std::size_t(it->texture)).source, "default checker");
}

std::vector<CorpusCase> corpusTable() {
    const fs::path root = test::modelsDir();
    return {
        loaded("assimp/OBJ/box_without_lineending.obj", 12, {{"material 'Default' is not defined", 22}}),
        loaded("assimp/OBJ/cube_mtllib_after_g.obj", 12,
               {{"'cube_mtllib_after_g.mat' not loaded", 2}, {"material 'MyMaterial' is not defined", 3}}),
        loaded("assimp/OBJ/multiple_spaces.obj", 1),
        rejected("assimp/invalid/empty.obj", 0, "no geometry"),
        rejected("assimp/invalid/malformed.obj", 23, "vertex index 12 out of range"),
        loaded("common-3d-test-models/spot/spot_quadrangulated.obj", 5856, {},
               [](const Model& m) { EXPECT_TRUE(m.mesh.hasTexCoords); }),
        loaded("common-3d-test-models/spot/spot_triangulated.obj", 5856, {},
               [](const Model& m) { EXPECT_TRUE(m.mesh.hasTexCoords); }),
        // The MANIFEST's 35,947 vertices are the file's `v` lines; 1,113 of them are on no face,
        // and the mesh keeps only vertices that faces use.
        withCounts(loaded("common-3d-test-models/stanford-bunny.obj", 69451, {},
                          [](const Model& m) {
                              EXPECT_EQ(m.fileCounts.positions, 35947u);
                              EXPECT_EQ(m.fileCounts.faces, 69451u);
                          }),
                   35947 - 1113, 1),
        withCounts(loaded("common-3d-test-models/teapot.obj", 6320, {},
                          [](const Model& m) { EXPECT_EQ(m.fileCounts.positions, 3644u); }),
                   3644, 1),
        // Only map_Kd is read; the GIF and the other maps are not loaded at all.
        loaded("obj2gltf/box-complex-material/box-complex-material.obj", 12, {},
               [](const Model& m) { expectTextureFrom(m, "Material", "box-complex-material/diffuse.png"); }),
        withCounts(loaded("obj2gltf/box-missing-mtllib/box-missing-mtllib.obj", 12,
                          {{"'/box.mtl' not loaded", 3}, {"material 'Material' is not defined", 39}},
                          [](const Model& m) { EXPECT_EQ(materialOfTriangle(m, 0).name, "default"); }),
                   0, 1),
        loaded("obj2gltf/box-mixed-attributes/box-mixed-attributes.obj", 12),
        withCounts(loaded("obj2gltf/box-negative-indices/box-negative-indices.obj", 12), 8, 1),
        withCounts(loaded("obj2gltf/box-objects-groups-materials/box-objects-groups-materials.obj", 36, {},
                          [](const Model& m) {
                              std::set<std::string> names;
                              for (const Material& mat : m.materials) names.insert(mat.name);
                              EXPECT_EQ(names, (std::set<std::string>{"Red", "Green", "Blue"}));
                          }),
                   0, 3),
        loaded("obj2gltf/box-textured/box-textured.obj", 12, {},
               [](const Model& m) { expectTextureFrom(m, "Material", "box-textured/cesium.png"); }),
        loaded("obj2gltf/box-windows-paths/box-windows-paths.obj", 12, {},
               [](const Model& m) { expectTextureFrom(m, "Material", "materials/images/cesium.png"); }),
        loaded("obj2gltf/box-with-tabs/box-with-tabs.obj", 12),
        // As for the bunny: 76 `v` lines, of which the front wall's 4 are on no face (its only
        // face is commented out).
        // The light's "Ka 20 20 20" (an emitter written as ambient) is clamped into [0, 1].
        withCounts(loaded("tinyobjloader/cornell_box.obj", 36, {kLightKa}), 72, 5),
        withCounts(loaded("tinyobjloader/cube-vertexcol.obj", 12, {kLightKa},
                          [](const Model& m) {
                              ASSERT_EQ(m.mesh.cr.size(), m.mesh.vertexCount());
                              // The file's vertices in order; vertex k has colour (k bit 2, bit 1, bit 0).
                              const glm::vec3 corners[8] = {{0, 2, 2}, {0, 0, 2}, {2, 0, 2}, {2, 2, 2},
                                                            {0, 2, 0}, {0, 0, 0}, {2, 0, 0}, {2, 2, 0}};
                              for (std::size_t i = 0; i < m.mesh.vertexCount(); ++i) {
                                  const auto k = std::find(std::begin(corners), std::end(corners), m.mesh.position(i)) - corners;
                                  ASSERT_LT(k, 8);
                                  EXPECT_EQ(glm::vec3(m.mesh.cr[i], m.mesh.cg[i], m.mesh.cb[i]),
                                            glm::vec3(float(k >> 2 & 1), float(k >> 1 & 1), float(k & 1)))
                                      << "vertex " << k + 1;
                              }
                          }),
                   8, 5),
        withCounts(loaded("tinyobjloader/cube.obj", 12, {kLightKa},
                          [](const Model& m) {
                              EXPECT_EQ(materialOfTriangle(m, 0).name, "white");
                              EXPECT_EQ(materialOfTriangle(m, 2).name, "white") << "the back face keeps white";
                              EXPECT_EQ(materialOfTriangle(m, 4).name, "red");
                              EXPECT_EQ(materialOfTriangle(m, 8).name, "green");
                          }),
                   8, 5),
        loaded("tinyobjloader/invalid-face-definition.obj", 0,
               {{"face with 1 corner dropped", 15}, {"face with 2 corners dropped", 18}}),
        rejected("tinyobjloader/invalid-relative-vertex-index.obj", 1, "index -4"),
        rejected("tinyobjloader/issue-140-zero-face-idx.obj", 16, "index 0"),
        withCounts(loaded("tinyobjloader/issue-162-smoothing-group.obj", 12), 0, 2),
        // 5 + 6 + 2: the 7- and 8-gons give n - 2 triangles; the 5-gon repeats a corner (v19 and
        // v20 are the same point), so it has 4 distinct corners and 2 triangles.
        loaded("tinyobjloader/issue-319-002.obj", 13),
        loaded("tinyobjloader/line-prim.obj", 0, {{"no faces; 2 line/point elements ignored"}}),
        loaded("tinyobjloader/mtl filename with whitespace issue46.obj", 12,
               {{"'invalid-file-without-spaces.mtl' not loaded", 1}, {"'invalid file with spaces.mtl' not loaded", 1}},
               [](const Model& m) {
                   ASSERT_EQ(m.mesh.ranges.size(), 1u);
                   EXPECT_EQ(materialOfTriangle(m, 0).name, "green");
               }),
        loaded("tinyobjloader/mtllib-multiple-files-issue-112.obj", 1,
               {{"'invalid-file-aaa.mtl' not loaded", 1},
                {"'invalid-file-bbb.mtl' not loaded", 1},
                {"texture 'tmp.png' of material 'default'", 5}},
               [](const Model& m) {
                   EXPECT_EQ(materialOfTriangle(m, 0).name, "default");
                   EXPECT_EQ(materialOfTriangle(m, 0).diffuse, glm::vec3(0.0f)) << "the MTL's default, Kd 0 0 0";
                   expectCheckerFor(m, "default");
               }),
        loaded("tinyobjloader/points-prim.obj", 0, {{"no faces; 1 line/point element ignored"}}),
        loaded("tinyobjloader/test-nan.obj", 34,
               {{"vertex 1 has a non-finite", 12},
                {"vertex 2 has a non-finite", 13},
                {"vertex 3 has a non-finite", 14},
                {"vertex 4 has a non-finite", 15},
                {"face dropped", 27}}),
        withCounts(loaded("tinyobjloader/texture-options-issue-85.obj", 1,
                          {{"texture 'diffuse.jpg' of material 'default'", 7}},
                          [](const Model& m) { expectCheckerFor(m, "default"); }),
                   0, 3),
        loaded("trimesh/fuze.obj", 1000, {},
               [](const Model& m) {
                   expectTextureFrom(m, "a-super-duper-material", "trimesh/fuze uv.jpg");
                   for (std::size_t i = 0; i < m.mesh.vertexCount(); ++i)
                       ASSERT_NEAR(std::hypot(m.mesh.nx[i], m.mesh.ny[i], m.mesh.nz[i]), 1.0, 1e-5) << i;
               }),
        loaded("trimesh/jacked.obj", 12, {{"'nonexistent.mtl' not loaded", 2}},
               [](const Model& m) { EXPECT_TRUE(m.mesh.hasTexCoords); }),
        loaded("trimesh/nancolor.obj", 12, {{"vertex 7 has a non-finite colour", 7}},
               [](const Model& m) { EXPECT_EQ(m.mesh.cr.size(), m.mesh.vertexCount()); }),
        loaded("trimesh/notenoughindices.obj", 1, {{"'surface.mtl' not loaded", 1}, {"face with 2 corners dropped", 9}}),
        loaded("trimesh/obj_with_no_face_in_chunk.obj", 1, {{"material 'mat-1' is not defined", 8}}),
        loaded("vulkan-tutorial/viking_room.obj", 3828,
               {{"'viking_room.mtl' not loaded", 3}, {"material 'Texture1' is not defined", 12223}}),
    };
}

// What every loaded model must satisfy, whatever the file.
void expectWellFormed(const Model& m, const std::string& label) {
    const Mesh& mesh = m.mesh;
    const std::size_t n = mesh.vertexCount();
    for (const std::vector<float>* a : {&mesh.py, &mesh.pz, &mesh.u, &mesh.v, &mesh.nx, &mesh.ny, &mesh.nz})
        ASSERT_EQ(a->size(), n) << label;
    for (const std::vector<float>* a : {&mesh.px, &mesh.py, &mesh.pz, &mesh.u, &mesh.v, &mesh.nx, &mesh.ny, &mesh.nz,
                                        &mesh.cr, &mesh.cg, &mesh.cb})
        for (const float x : *a) ASSERT_TRUE(std::isfinite(x)) << label << ": a non-finite attribute";
    for (const std::uint32_t i : mesh.indices) ASSERT_LT(i, n) << label;
    std::uint32_t next = 0;
    for (const MaterialRange& r : mesh.ranges) {
        EXPECT_EQ(r.firstTriangle, next) << label << ": ranges must be contiguous";
        EXPECT_GT(r.triangleCount, 0u) << label;
        ASSERT_LT(r.material, m.materials.size()) << label;
        next += r.triangleCount;
    }
    EXPECT_EQ(next, mesh.triangleCount()) << label;
    for (const Material& mat : m.materials) {
        EXPECT_EQ(mat.name.find('\r'), std::string::npos) << label;
        EXPECT_EQ(mat.name.find('\t'), std::string::npos) << label;
        EXPECT_LT(mat.texture, std::int32_t(m.textures.size())) << label;
    }
    for (const Warning& w : m.warnings) EXPECT_EQ(w.message.find('\r'), std::string::npos) << label << ": " << w.toString();
}

std::string warningList(const Model& m) {
    std::string s;
    for (const Warning& w : m.warnings) s += "  " + w.toString() + "\n";
    return s;
}

TEST(ObjCorpus, EveryFileBehavesAsTheManifestSays) {
    const fs::path root = test::modelsDir();
    if (!fs::is_directory(root)) FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_CORPUS", "OBJ corpus not found at " << root << " (set FACET_MODELS_DIR)");
    for (const CorpusCase& c : corpusTable()) {
        SCOPED_TRACE(c.path);
        const fs::path path = root / c.path;
        if (c.rejected) {
            try {
                loadObj(path);
                ADD_FAILURE() << c.path << " should be rejected";
            } catch (const ParseError& e) {
                EXPECT_EQ(e.line(), c.line) << e.what();
                EXPECT_EQ(e.file(), path.string());
                EXPECT_NE(std::string(e.what()).find(c.mention), std::string::npos) << e.what();
                EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
            }
            continue;
        }
        Model m;
        try {
            m = loadObj(path);
        } catch (const Error& e) {
            ADD_FAILURE() << c.path << " should load: " << e.what();
            continue;
        }
        expectWellFormed(m, c.path);
        EXPECT_EQ(m.mesh.triangleCount(), c.triangles);
        if (c.vertices) {
            EXPECT_EQ(m.mesh.vertexCount(), c.vertices);
        }
        if (c.materials >= 0) {
            EXPECT_EQ(m.materials.size(), std::size_t(c.materials)) << materialNames(m);
        }
        for (const ExpectedWarning& w : c.warnings) {
            const bool found = std::any_of(m.warnings.begin(), m.warnings.end(), [&](const Warning& x) {
                return x.message.find(w.text) != std::string::npos && (w.line == 0 || x.line == w.line);
            });
            EXPECT_TRUE(found) << "missing warning '" << w.text << "' at line " << w.line << "; got:\n" << warningList(m);
        }
        if (c.warnings.empty()) {
            EXPECT_TRUE(m.warnings.empty()) << warningList(m);
        }
        if (c.check) c.check(m);
    }
}

TEST(ObjCorpus, TableCoversEveryCorpusFile) {
    const fs::path root = test::modelsDir();
    if (!fs::is_directory(root)) FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_CORPUS", "OBJ corpus not found at " << root << " (set FACET_MODELS_DIR)");
    std::set<std::string> listed;
    for (const CorpusCase& c : corpusTable()) {
        EXPECT_TRUE(listed.insert(c.path).second) << c.path << " listed twice";
        EXPECT_TRUE(fs::is_regular_file(root / c.path)) << c.path << " is listed but not in the corpus";
    }
    std::size_t found = 0;
    for (const fs::directory_entry& e : fs::recursive_directory_iterator(root)) {
        if (!e.is_regular_file() || e.path().extension() != ".obj") continue;
        ++found;
        const std::string relative = e.path().lexically_relative(root).generic_string();
        EXPECT_TRUE(listed.count(relative)) << relative << " is in the corpus but not in the table";
    }
    EXPECT_EQ(found, listed.size());
}

} // namespace
} // namespace facet
