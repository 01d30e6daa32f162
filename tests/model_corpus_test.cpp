// The shared glTF, PLY and STL corpus (../shared/models, MANIFEST-GLTF-PLY-STL.md; glTF rows 1-25
// below the PLY and STL rows 26-48):
// every file behaves as the manifest's "correct loader should" column says. The table names
// every PLY and STL file of the corpus, and a test checks that it does, so a file added to the
// corpus cannot be skipped silently. Files are loaded through loadModel, as the apps load them
// (the one file without an extension, a PLY, through loadPly).
#include "asset/load_model.h"
#include "asset/scene.h"
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
void expectWellFormed(const Model& m, bool oneDefaultMaterial = true) {
    const Mesh& mesh = m.mesh;
    EXPECT_NO_THROW(validateMesh(mesh, m.materials.size(), m.source));
    ASSERT_EQ(mesh.nx.size(), mesh.vertexCount());
    ASSERT_EQ(mesh.u.size(), mesh.vertexCount());
    for (const std::vector<float>* a : {&mesh.px, &mesh.py, &mesh.pz, &mesh.u, &mesh.v, &mesh.cr, &mesh.cg, &mesh.cb})
        for (const float x : *a) ASSERT_TRUE(std::isfinite(x)) << "a non-finite attribute";
    for (const float x : mesh.cr) ASSERT_TRUE(x >= 0.0f && x <= 1.0f);
    for (std::size_t i = 0; i < mesh.vertexCount(); ++i)
        ASSERT_NEAR(std::hypot(mesh.nx[i], mesh.ny[i], mesh.nz[i]), 1.0, 1e-5) << "normal " << i;
    if (mesh.triangleCount() > 0 && oneDefaultMaterial) {
        EXPECT_EQ(m.materials.size(), 1u) << "one default material";
        ASSERT_EQ(mesh.ranges.size(), 1u);
        EXPECT_EQ(mesh.ranges[0].triangleCount, mesh.triangleCount());
    }
    if (mesh.triangleCount() > 0) {
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
    if (!fs::is_directory(root)) FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_CORPUS", "model corpus not found at " << root << " (set FACET_MODELS_DIR)");
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
    if (!fs::is_directory(root)) FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_CORPUS", "model corpus not found at " << root << " (set FACET_MODELS_DIR)");
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


// ---- glTF (rows 1-25), loaded as scenes through loadScene: triangles are summed over the
// instances, as the manifest counts them; materials are the distinct glTF materials the scene
// draws with.

struct GltfCase {
    int row = 0;
    std::string path;
    bool rejected = false;
    std::string mention;         // rejected: text the error must contain
    std::size_t triangles = 0;
    std::size_t instances = 0;   // checked when non-zero
    std::size_t materials = 0;   // glTF materials drawn with, checked when non-zero
    std::vector<std::string> warnings; // each must be among the warnings; none may be when empty
    std::function<void(const Scene&)> check;
};

GltfCase gltfRejected(int row, std::string path, std::string mention) {
    GltfCase c;
    c.row = row;
    c.path = std::move(path);
    c.rejected = true;
    c.mention = std::move(mention);
    return c;
}

GltfCase gltfLoaded(int row, std::string path, std::size_t triangles, std::size_t instances, std::size_t materials,
                    std::vector<std::string> warnings = {}, std::function<void(const Scene&)> check = {}) {
    GltfCase c;
    c.row = row;
    c.path = std::move(path);
    c.triangles = triangles;
    c.instances = instances;
    c.materials = materials;
    c.warnings = std::move(warnings);
    c.check = std::move(check);
    return c;
}

const Model& firstMesh(const Scene& s) { return *s.meshes.at(0); }

std::vector<GltfCase> gltfTable() {
    const std::string sample = "gltf-sample-models/", generator = "assimp-gltf/glTF-Asset-Generator/Mesh_PrimitiveMode/";
    return {
        gltfLoaded(1, sample + "Box/glTF/Box.gltf", 12, 1, 1, {},
                   [](const Scene& s) {
                       // The root's matrix turns +Y to -Z... : the composed pose is not the identity.
                       EXPECT_NE(s.instances[0].pose, glm::mat4(1.0f));
                       const Material& red = firstMesh(s).materials.at(0);
                       EXPECT_EQ(red.name, "Red");
                       EXPECT_NEAR(red.pbr.baseColor.r, 0.8f, 1e-6f);
                       EXPECT_FLOAT_EQ(red.pbr.metallic, 0.0f);
                       EXPECT_EQ(firstMesh(s).mesh.vertexCount(), 24u);
                   }),
        gltfLoaded(2, sample + "BoxTextured/glTF/BoxTextured.gltf", 12, 1, 1, {},
                   [](const Scene& s) {
                       const Model& m = firstMesh(s);
                       EXPECT_TRUE(m.mesh.hasTexCoords);
                       ASSERT_GE(m.materials.at(0).texture, 0);
                       EXPECT_NE(m.textures.at(std::size_t(m.materials[0].texture)).source.find("CesiumLogoFlat.png"),
                                 std::string::npos);
                   }),
        gltfLoaded(3, sample + "BoxVertexColors/glTF-Binary/BoxVertexColors.glb", 12, 1, 1, {},
                   [](const Scene& s) { EXPECT_TRUE(firstMesh(s).mesh.hasVertexColors()); }),
        gltfLoaded(4, sample + "SimpleMeshes/glTF-Embedded/SimpleMeshes.gltf", 2, 2, 0, {},
                   [](const Scene& s) { EXPECT_EQ(s.meshes.size(), 1u) << "one mesh, instanced twice"; }),
        gltfLoaded(5, sample + "TriangleWithoutIndices/glTF-Embedded/TriangleWithoutIndices.gltf", 1, 1, 0),
        gltfLoaded(6, sample + "SimpleSparseAccessor/glTF-Embedded/SimpleSparseAccessor.gltf", 12, 1, 0, {},
                   [](const Scene& s) {
                       const Bounds& b = firstMesh(s).mesh.bounds;
                       EXPECT_GT(b.max.y - b.min.y, 0.5f) << "the sparse values raise three vertices";
                   }),
        gltfLoaded(7, sample + "Cameras/glTF-Embedded/Cameras.gltf", 2, 1, 0, {"orthographic camera 1 not supported"},
                   [](const Scene& s) { EXPECT_EQ(s.cameras.size(), 1u) << "the perspective camera is kept"; }),
        gltfLoaded(8, sample + "DamagedHelmet/glTF-Binary/DamagedHelmet.glb", 15452, 1, 1, {},
                   [](const Scene& s) {
                       const Model& m = firstMesh(s);
                       EXPECT_EQ(m.mesh.vertexCount(), 14556u);
                       EXPECT_EQ(m.textures.size(), 5u);
                       EXPECT_TRUE(m.materials.at(0).bumpIsNormalMap);
                       EXPECT_TRUE(m.mesh.hasTangents()) << "generated for the normal map";
                   }),
        gltfLoaded(9, sample + "AlphaBlendModeTest/glTF-Binary/AlphaBlendModeTest.glb", 61, 0, 6, {},
                   [](const Scene& s) { // the three cut-offs kept, each drawn at its own (ShadeMaterial::alphaCutoff)
                       std::multiset<float> cutoffs;
                       for (const auto& model : s.meshes)
                           for (const Material& m : model->materials)
                               if (m.pbr.alphaMode == AlphaMode::Mask) cutoffs.insert(m.pbr.alphaCutoff);
                       EXPECT_EQ(cutoffs, (std::multiset<float>{0.25f, 0.5f, 0.75f}));
                   }),
        gltfLoaded(10, sample + "TextureCoordinateTest/glTF-Binary/TextureCoordinateTest.glb", 10, 0, 5),
        gltfLoaded(11, sample + "TextureSettingsTest/glTF-Binary/TextureSettingsTest.glb", 72, 0, 10, {},
                   [](const Scene& s) { // its samplers' wraps kept, each of the three on each axis
                       std::set<Wrap> wrapS, wrapT;
                       for (const auto& model : s.meshes)
                           for (const Texture& t : model->textures) {
                               wrapS.insert(t.wrapS);
                               wrapT.insert(t.wrapT);
                           }
                       const std::set<Wrap> all{Wrap::Repeat, Wrap::ClampToEdge, Wrap::MirroredRepeat};
                       EXPECT_EQ(wrapS, all);
                       EXPECT_EQ(wrapT, all);
                   }),
        gltfLoaded(12, sample + "OrientationTest/glTF-Binary/OrientationTest.glb", 524, 0, 7),
        // KHR_texture_transform applied (tests/gltf_loader_test.cpp checks the arithmetic): no warning.
        gltfLoaded(13, sample + "TextureTransformTest/glTF/TextureTransformTest.gltf", 24, 0, 9),
        gltfLoaded(14, sample + "CesiumMilkTruck/glTF-Binary/CesiumMilkTruck.glb", 3624, 3, 4, {},
                   [](const Scene& s) { EXPECT_EQ(s.meshes.size(), 2u) << "the wheels mesh instanced twice"; }),
        gltfRejected(15, sample + "Box/glTF-Draco/Box.gltf", "requires the extension 'KHR_draco_mesh_compression'"),
        gltfLoaded(16, generator + "Mesh_PrimitiveMode_00.gltf", 0, 0, 0, {"POINTS dropped", "nothing to draw"}),
        gltfLoaded(17, generator + "Mesh_PrimitiveMode_01.gltf", 0, 0, 0, {"LINES dropped", "nothing to draw"}),
        gltfLoaded(18, generator + "Mesh_PrimitiveMode_04.gltf", 2, 1, 0),
        gltfLoaded(19, generator + "Mesh_PrimitiveMode_05.gltf", 2, 1, 0),
        gltfLoaded(20, generator + "Mesh_PrimitiveMode_14.gltf", 2, 1, 0, {},
                   [](const Scene& s) {
                       // 4 in the file; without normals each corner gets its own vertex (flat normals).
                       EXPECT_EQ(firstMesh(s).fileCounts.positions, 4u);
                       EXPECT_EQ(firstMesh(s).mesh.vertexCount(), 6u);
                   }),
        gltfRejected(21, "assimp-gltf/IndexOutOfRange/IndexOutOfRange.gltf",
                     "meshes[0].primitives[0].indices: index 255 out of range (the primitive has 24 vertices)"),
        gltfRejected(22, "assimp-gltf/MissingBin/BoxTextured.gltf", "missing buffer file 'BoxTextured0.bin'"),
        gltfRejected(23, "assimp-gltf/RecursiveNodes/RecursiveNodes.gltf", "node hierarchy cycle"),
        gltfRejected(24, "gltf-validator/glb/truncated_chunk_data.glb", "truncated GLB"),
        gltfRejected(25, "gltf-validator/glb/invalid_magic.glb", "bad magic"),
    };
}

std::string warningList(const std::vector<Warning>& warnings) {
    std::string s;
    for (const Warning& w : warnings) s += "  " + w.toString() + "\n";
    return s;
}

std::size_t gltfMaterialCount(const Scene& s) {
    std::set<std::string> names;
    for (const auto& m : s.meshes)
        for (const Material& mat : m->materials)
            if (mat.pbr.enabled) names.insert(mat.name);
    return names.size();
}

void expectGltfCase(const GltfCase& c, const fs::path& path) {
    if (c.rejected) {
        try {
            loadScene(path);
            ADD_FAILURE() << c.path << " should be refused";
        } catch (const ParseError& e) {
            EXPECT_EQ(e.file(), path.string());
            EXPECT_NE(std::string(e.what()).find(c.mention), std::string::npos) << e.what();
        }
        return;
    }
    Scene s;
    try {
        s = loadScene(path);
    } catch (const Error& e) {
        ADD_FAILURE() << c.path << " should load: " << e.what();
        return;
    }
    for (const auto& m : s.meshes) expectWellFormed(*m, false);
    EXPECT_NO_THROW(validateScene(s));
    EXPECT_EQ(s.triangleCount(), c.triangles);
    if (c.instances) {
        EXPECT_EQ(s.instances.size(), c.instances);
    }
    if (c.materials) {
        EXPECT_EQ(gltfMaterialCount(s), c.materials);
    }
    if (c.warnings.empty()) {
        EXPECT_TRUE(s.warnings.empty()) << warningList(s.warnings);
    }
    for (const std::string& w : c.warnings) {
        const bool found = std::any_of(s.warnings.begin(), s.warnings.end(),
                                       [&](const Warning& x) { return x.message.find(w) != std::string::npos; });
        EXPECT_TRUE(found) << "missing warning '" << w << "'; got:\n" << warningList(s.warnings);
    }
    if (c.check && !s.meshes.empty()) c.check(s);
    // loadModel bakes the same scene into one model of as many triangles.
    if (c.triangles) {
        const Model baked = loadModel(path);
        expectWellFormed(baked, false);
        EXPECT_EQ(baked.mesh.triangleCount(), c.triangles);
    }
}

TEST(ModelCorpus, EveryGltfFileBehavesAsTheManifestSays) {
    const fs::path root = test::modelsDir();
    if (!fs::is_directory(root)) FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_CORPUS", "model corpus not found at " << root << " (set FACET_MODELS_DIR)");
    for (const GltfCase& c : gltfTable()) {
        SCOPED_TRACE("row " + std::to_string(c.row) + ": " + c.path);
        expectGltfCase(c, root / c.path);
    }
}

TEST(ModelCorpus, TableCoversEveryGltfFile) {
    const fs::path root = test::modelsDir();
    if (!fs::is_directory(root)) FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_CORPUS", "model corpus not found at " << root << " (set FACET_MODELS_DIR)");
    std::set<std::string> listed;
    std::set<int> rows;
    for (const GltfCase& c : gltfTable()) {
        EXPECT_TRUE(listed.insert(c.path).second) << c.path << " listed twice";
        EXPECT_TRUE(rows.insert(c.row).second) << "row " << c.row << " listed twice";
        EXPECT_TRUE(fs::is_regular_file(root / c.path)) << c.path << " is listed but not in the corpus";
    }
    EXPECT_EQ(rows.size(), 25u) << "rows 1 to 25";
    for (const fs::directory_entry& e : fs::recursive_directory_iterator(root)) {
        const std::string extension = lowerExtension(e.path());
        if (!e.is_regular_file() || (extension != ".gltf" && extension != ".glb")) continue;
        const std::string relative = e.path().lexically_relative(root).generic_string();
        EXPECT_TRUE(listed.count(relative)) << relative << " is in the corpus but not in the table";
    }
}

} // namespace
} // namespace facet
