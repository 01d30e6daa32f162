// The MTL material model: every value and map statement read, out-of-range values clamped with a
// warning naming the file and line, malformed texture options rejected with the file and line,
// missing maps warned about (colour maps show the checker, data maps are left out).
#include "asset/image.h"
#include "asset/mtl_loader.h"
#include "asset/obj_loader.h"
#include "core/error.h"
#include "test_support.h"

#include <gtest/gtest.h>

namespace facet {
namespace {

namespace fs = std::filesystem;

bool hasWarning(const std::vector<Warning>& warnings, const std::string& text, std::size_t line) {
    for (const Warning& w : warnings)
        if (w.message.find(text) != std::string::npos && w.line == line) return true;
    return false;
}

std::string listOf(const std::vector<Warning>& warnings) {
    std::string s;
    for (const Warning& w : warnings) s += "  " + w.toString() + "\n";
    return s;
}

void writeImage(const fs::path& path, std::uint32_t alpha) {
    fs::create_directories(path.parent_path());
    Image image;
    image.width = image.height = 2;
    image.pixels = {0x000000FFu | alpha << 24, 0xFF00FF00u, 0xFFFF0000u, 0xFFFFFFFFu};
    writePng(path, image);
}

TEST(MtlMaterial, ReadsEveryValueStatement) {
    std::vector<Warning> warnings;
    const auto m = parseMtl("newmtl glossy\nKa 0.1 0.2 0.3\nKd 0.5\nKs 1 0.5 0.25\nNs 250\nKe 0 0.1 0\nd 0.75\n"
                            "illum 1\nnewmtl pane\nTr 0.8\nillum 0\n",
                            "m.mtl", warnings);
    ASSERT_EQ(m.size(), 2u);
    EXPECT_TRUE(warnings.empty()) << listOf(warnings);
    const Material& g = m[0].material;
    EXPECT_EQ(g.name, "glossy");
    EXPECT_EQ(g.ambient, glm::vec3(0.1f, 0.2f, 0.3f));
    EXPECT_EQ(g.diffuse, glm::vec3(0.5f));
    EXPECT_EQ(g.specular, glm::vec3(1.0f, 0.5f, 0.25f));
    EXPECT_EQ(g.shininess, 250.0f);
    EXPECT_EQ(g.emission, glm::vec3(0.0f, 0.1f, 0.0f));
    EXPECT_EQ(g.opacity, 0.75f);
    EXPECT_EQ(g.illumination, Illumination::Diffuse);
    const Material& p = m[1].material;
    EXPECT_FLOAT_EQ(p.opacity, 0.2f) << "Tr is 1 - d";
    EXPECT_EQ(p.illumination, Illumination::Color);
    EXPECT_EQ(p.diffuse, glm::vec3(0.8f)) << "the defaults where the MTL says nothing";
    EXPECT_EQ(p.specular, glm::vec3(0.0f));
}

TEST(MtlMaterial, ReadsEveryMapWithItsBumpScale) {
    std::vector<Warning> warnings;
    const auto m = parseMtl("newmtl a\nmap_Kd -o 0.5 d.png\nmap_Ks s.png\nmap_Ns n.png\nmap_Ke e.png\n"
                            "map_d -imfchan m alpha.png\nbump -bm 0.25 h.png\n"
                            "newmtl b\nmap_Bump h2.png -bm 2\nnewmtl c\nnorm -clamp on n3.png\n",
                            "m.mtl", warnings);
    ASSERT_EQ(m.size(), 3u);
    EXPECT_TRUE(warnings.empty()) << listOf(warnings);
    EXPECT_EQ(m[0].map(MapKind::Diffuse).file, "d.png");
    EXPECT_EQ(m[0].map(MapKind::Diffuse).line, 2u);
    EXPECT_EQ(m[0].map(MapKind::Specular).file, "s.png");
    EXPECT_EQ(m[0].map(MapKind::Shininess).file, "n.png");
    EXPECT_EQ(m[0].map(MapKind::Emission).file, "e.png");
    EXPECT_EQ(m[0].map(MapKind::Alpha).file, "alpha.png");
    EXPECT_EQ(m[0].map(MapKind::Bump).file, "h.png");
    EXPECT_EQ(m[0].material.bumpScale, 0.25f);
    EXPECT_EQ(m[1].map(MapKind::Bump).file, "h2.png");
    EXPECT_EQ(m[1].material.bumpScale, 2.0f);
    EXPECT_EQ(m[2].map(MapKind::Bump).file, "n3.png");
    EXPECT_EQ(m[2].material.bumpScale, 1.0f);
}

TEST(MtlMaterial, OutOfRangeValuesAreClampedWithAWarningNamingFileAndLine) {
    std::vector<Warning> warnings;
    const auto m = parseMtl("newmtl x\nKd -0.5 0.5 2\nNs 1e9\nd 1.5\nTr -1\nKs -1\nillum 7\n", "bad.mtl", warnings);
    ASSERT_EQ(m.size(), 1u);
    const Material& x = m[0].material;
    EXPECT_EQ(x.diffuse, glm::vec3(0.0f, 0.5f, 1.0f));
    EXPECT_EQ(x.shininess, 1000.0f);
    EXPECT_EQ(x.opacity, 1.0f) << "Tr -1 is clamped to 0, so d = 1";
    EXPECT_EQ(x.specular, glm::vec3(0.0f));
    EXPECT_EQ(x.illumination, Illumination::Specular);
    EXPECT_TRUE(hasWarning(warnings, "Kd '-0.5 0.5 2' of material 'x' is outside [0, 1]; clamped", 2)) << listOf(warnings);
    EXPECT_TRUE(hasWarning(warnings, "Ns 1e+09 of material 'x' is outside [0, 1000]; clamped to 1000", 3))
        << listOf(warnings);
    EXPECT_TRUE(hasWarning(warnings, "d 1.5 of material 'x' is outside [0, 1]; clamped to 1", 4)) << listOf(warnings);
    EXPECT_TRUE(hasWarning(warnings, "Tr -1 of material 'x' is outside [0, 1]; clamped to 0", 5)) << listOf(warnings);
    EXPECT_TRUE(hasWarning(warnings, "Ks '-1'", 6)) << listOf(warnings);
    EXPECT_TRUE(hasWarning(warnings, "illum 7 of material 'x' is not drawn", 7)) << listOf(warnings);
    for (const Warning& w : warnings) EXPECT_EQ(w.file, "bad.mtl");
}

TEST(MtlMaterial, UnreadableValuesKeepTheDefaultWithAWarning) {
    std::vector<Warning> warnings;
    const auto m = parseMtl("newmtl x\nNs shiny\nd 0.5 0.5\nKs 1 2\n", "m.mtl", warnings);
    ASSERT_EQ(m.size(), 1u);
    EXPECT_EQ(m[0].material.shininess, 32.0f);
    EXPECT_EQ(m[0].material.opacity, 1.0f);
    EXPECT_TRUE(hasWarning(warnings, "cannot read Ns 'shiny'", 2)) << listOf(warnings);
    EXPECT_TRUE(hasWarning(warnings, "cannot read d '0.5 0.5'", 3)) << listOf(warnings);
    EXPECT_TRUE(hasWarning(warnings, "cannot read Ks '1 2'", 4)) << listOf(warnings);
}

TEST(MtlMaterial, MalformedMapOptionsAreErrorsNamingFileAndLine) {
    const char* statements[] = {"bump -bm x h.png", "map_Kd -clamp maybe d.png", "map_Kd d.png -o",
                                "map_Ks -mm 1 s.png", "map_d -imfchan q a.png", "norm -type -bm 1 n.png"};
    for (const char* statement : statements) {
        std::vector<Warning> warnings;
        try {
            parseMtl(std::string("newmtl x\nKd 1 1 1\n") + statement + "\n", "opt.mtl", warnings);
            ADD_FAILURE() << statement << " should be rejected";
        } catch (const ParseError& e) {
            EXPECT_EQ(e.file(), "opt.mtl") << statement;
            EXPECT_EQ(e.line(), 3u) << statement;
            EXPECT_NE(std::string(e.what()).find("opt.mtl:3"), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find("texture option"), std::string::npos) << e.what();
        }
    }
}

TEST(MtlMaterial, MalformedMapOptionRejectsTheModelWithTheMtlsLine) {
    const fs::path dir = test::scratchDir("mtl_option_error");
    test::writeFile(dir / "m.mtl", "newmtl a\nKd 1 1 1\nmap_Bump -bm h.png\n");
    const fs::path obj =
        test::writeFile(dir / "o.obj", "mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl a\nf 1 2 3\n");
    try {
        loadObj(obj);
        ADD_FAILURE() << "a malformed -bm should reject the model";
    } catch (const ParseError& e) {
        EXPECT_EQ(e.file(), (dir / "m.mtl").string());
        EXPECT_EQ(e.line(), 3u);
    }
}

TEST(MtlMaterial, LoaderFillsEveryMapAndWarnsAboutMissingOnes) {
    const fs::path dir = test::scratchDir("mtl_maps");
    writeImage(dir / "d.png", 255);
    writeImage(dir / "a.png", 0);
    test::writeFile(dir / "m.mtl", "newmtl full\nKs 1 1 1\nmap_Kd d.png\nmap_Ks d.png\nmap_Ns d.png\nmap_Ke d.png\n"
                                   "map_d a.png\nbump -bm 3 d.png\n"
                                   "newmtl holes\nmap_Ks gone.png\nmap_d gone_too.png\n");
    const fs::path obj = test::writeFile(dir / "o.obj", "mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\n"
                                                        "usemtl full\nf 1/1 2/1 3/1\nusemtl holes\nf 1/1 3/1 2/1\n");
    const Model m = loadObj(obj);
    ASSERT_EQ(m.materials.size(), 2u);
    const Material& full = m.materials[0];
    ASSERT_GE(full.texture, 0);
    EXPECT_EQ(full.specularMap, full.texture) << "one decoded texture for one file";
    EXPECT_EQ(full.shininessMap, full.texture);
    EXPECT_EQ(full.emissionMap, full.texture);
    ASSERT_GE(full.bumpMap, 0);
    EXPECT_NE(full.bumpMap, full.texture) << "a height map is made into a normal map of its own";
    EXPECT_EQ(full.bumpScale, 3.0f);
    ASSERT_GE(full.alphaMap, 0);
    EXPECT_NE(full.alphaMap, full.texture);
    EXPECT_EQ(full.specular, glm::vec3(1.0f));

    const Material& holes = m.materials[1];
    ASSERT_GE(holes.specularMap, 0);
    EXPECT_EQ(m.textures[std::size_t(holes.specularMap)].source, "default checker") << "a missing colour map shows";
    EXPECT_EQ(holes.alphaMap, -1) << "a missing data map is left out";
    const std::string mtl = (dir / "m.mtl").string();
    std::vector<Warning> about;
    for (const Warning& w : m.warnings)
        if (w.file == mtl) about.push_back(w);
    EXPECT_TRUE(hasWarning(about, "texture 'gone.png' of material 'holes' not loaded, the default checker is used", 10))
        << listOf(m.warnings);
    EXPECT_TRUE(hasWarning(about, "texture 'gone_too.png' of material 'holes' not loaded, the map is ignored", 11))
        << listOf(m.warnings);
}

} // namespace
} // namespace facet
