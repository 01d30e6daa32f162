// Whatever a user feeds facet, it answers with a clear message or a correct picture: huge
// counts in small files, non-finite and enormous coordinates, degenerate triangles, cameras in
// awkward places, extreme target and texture sizes, and the files fuzzing found.
#include "draw_with.h"
#include "asset/image.h"
#include "asset/obj_loader.h"
#include "core/camera.h"
#include "core/error.h"
#include "cpu/cpu_renderer.h"
#include "test_support.h"

#include <gtest/gtest.h>
#include <stb_image_write.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>

namespace facet {
namespace {

Model loadText(const std::string& text) {
    return loadObjFromString(text, "hostile.obj", test::scratchDir("hostile"));
}

bool hasWarning(const Model& m, const std::string& part) {
    for (const Warning& w : m.warnings)
        if (w.message.find(part) != std::string::npos) return true;
    return false;
}

// A model of the given world-space triangles with one untextured material.
Model trianglesModel(const std::vector<glm::vec3>& p) {
    Model m;
    for (std::size_t i = 0; i < p.size(); ++i) {
        m.mesh.px.push_back(p[i].x);
        m.mesh.py.push_back(p[i].y);
        m.mesh.pz.push_back(p[i].z);
        m.mesh.u.push_back(0.0f);
        m.mesh.v.push_back(0.0f);
        m.mesh.indices.push_back(static_cast<std::uint32_t>(i));
    }
    generateNormals(m.mesh);
    computeBounds(m.mesh);
    m.mesh.ranges.push_back({0, static_cast<std::uint32_t>(p.size() / 3), 0});
    m.materials.push_back(Material{"red", {1.0f, 0.0f, 0.0f}, -1});
    return m;
}

struct Target {
    int w, h;
    std::vector<std::uint32_t> color;
    std::vector<float> depth;
    Target(int width, int height) : w(width), h(height), color(std::size_t(w) * h), depth(std::size_t(w) * h) {}
    FrameView view() { return FrameView{color.data(), depth.data(), w, h}; }
    std::size_t covered() const {
        std::size_t n = 0;
        for (const float d : depth) n += d < 1.0f;
        return n;
    }
    bool depthInRange() const {
        for (const float d : depth)
            if (!(d >= 0.0f && d <= 1.0f)) return false;
        return true;
    }
};

// A camera at the origin looking down -Z.
ViewParams frontView(float aspect) { return Camera{}.view(aspect); }

// ---- Huge counts in small files --------------------------------------------------------------

TEST(HostileInput, HundredThousandCornerFaceLoadsInLinearTime) {
    // A convex 100k-gon (about 2 MB of text): ear clipping would take minutes; the loader cuts
    // it as an exact fan.
    constexpr int kCorners = 100000;
    std::ostringstream obj;
    for (int i = 0; i < kCorners; ++i) {
        const double a = 2.0 * 3.14159265358979 * i / kCorners;
        obj << "v " << std::cos(a) << ' ' << std::sin(a) << " 0\n";
    }
    obj.precision(9);
    obj << 'f';
    for (int i = 1; i <= kCorners; ++i) obj << ' ' << i;
    obj << '\n';
    const Model m = loadText(obj.str());
    EXPECT_GT(m.mesh.triangleCount(), std::size_t(kCorners / 2));
    EXPECT_LE(m.mesh.triangleCount(), std::size_t(kCorners - 2));
    // The triangles cover the disc once: their areas add up to the polygon's (about pi).
    double area = 0.0;
    for (std::size_t t = 0; t < m.mesh.triangleCount(); ++t) {
        const glm::dvec3 a(m.mesh.position(m.mesh.indices[3 * t])), b(m.mesh.position(m.mesh.indices[3 * t + 1])),
            c(m.mesh.position(m.mesh.indices[3 * t + 2]));
        area += 0.5 * glm::cross(b - a, c - a).z;
    }
    EXPECT_NEAR(std::abs(area), 3.14159265358979, 1e-3);
}

TEST(HostileInput, MillionCornersOnOneLineAreBoundedAndReported) {
    // "f 1 2 3 1 2 3 ..." a million times over (6 MB): a self-overlapping polygon, loaded in
    // bounded time as a fan with a warning, or dropped; never a hang.
    std::string obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf";
    for (int i = 0; i < 1000000; ++i) obj += (i % 3 == 0) ? " 1" : (i % 3 == 1) ? " 2" : " 3";
    obj += "\nv 0 0 1\nv 1 0 1\nv 0 1 1\nf 4 5 6\nf 1 2 3 4 5 6";
    for (int i = 0; i < 20000; ++i) obj += " 1 4";
    obj += "\n";
    const Model m = loadText(obj);
    EXPECT_GE(m.mesh.triangleCount(), std::size_t(1));
    EXPECT_LE(m.mesh.triangleCount(), std::size_t(1100000));
    for (const std::uint32_t i : m.mesh.indices) ASSERT_LT(i, m.mesh.vertexCount());
}

TEST(HostileInput, MillionUsemtlLinesKeepOneRange) {
    std::string obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
    for (int i = 0; i < 1000000; ++i) obj += (i % 2) ? "usemtl a\n" : "usemtl b\n";
    obj += "f 1 2 3\n";
    const Model m = loadText(obj);
    ASSERT_EQ(m.mesh.ranges.size(), 1u);
    EXPECT_EQ(m.mesh.triangleCount(), 1u);
    EXPECT_TRUE(hasWarning(m, "material 'b' is not defined"));
}

TEST(HostileInput, EnormousIndexAndLongNumbersAreRejectedWithTheLine) {
    for (const std::string face : {"f 1 2 4294967297", "f 1 2 18446744073709551617", "f 1 2 -4294967296"}) {
        try {
            loadText("v 0 0 0\nv 1 0 0\nv 0 1 0\n" + face + "\n");
            ADD_FAILURE() << face << " was accepted";
        } catch (const ParseError& e) {
            EXPECT_EQ(e.line(), 4u) << face;
        }
    }
    // An enormous texture coordinate index drops the texture coordinates, as any out-of-range one does.
    const Model dropped = loadText("v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nf 1 2 3/4294967296\n");
    EXPECT_FALSE(dropped.mesh.hasTexCoords);
    ASSERT_FALSE(dropped.warnings.empty());
    EXPECT_EQ(dropped.warnings[0].line, 5u);
    const std::string longNumber(100000, '9');
    EXPECT_THROW(loadText("v 0 0 " + longNumber + "x\n"), ParseError);
    const Model m = loadText("v 0 0 " + longNumber + "\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"); // 1e100000 is not finite
    EXPECT_EQ(m.mesh.triangleCount(), 0u);
}

// ---- Coordinates and triangles the rasterizer must survive -------------------------------------

TEST(HostileInput, NonFiniteAndHugeVerticesNeverReachThePicture) {
    // Built directly, as a model from elsewhere than the loader could be: a NaN, an Inf and a
    // 1e30 vertex in three triangles beside one ordinary triangle in front of the camera.
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    Model m = trianglesModel({{-1, -1, -5}, {1, -1, -5}, {0, 1, -5},
                              {nan, 0, -5}, {1, 0, -5}, {0, 1, -5},
                              {0, inf, -5}, {1, 0, -5}, {0, 1, -5},
                              {1e30f, 0, -5}, {1, 0, -5}, {0, 1e30f, -5}});
    for (float& n : m.mesh.nx)
        if (!std::isfinite(n)) n = 0.0f;
    Target t(64, 48);
    const CpuFrameStats stats = test::drawWith(CpuRenderer(2), m, frontView(64.0f / 48.0f), RenderSettings{}, t.view());
    EXPECT_EQ(stats.trianglesIn, 4u);
    EXPECT_GE(stats.trianglesCulled, 2u) << "the NaN and Inf triangles";
    EXPECT_TRUE(t.depthInRange());
    EXPECT_GT(t.covered(), 0u);
    // The 1e30 triangle fills the upper right of the screen (clipped at the guard band); the
    // lower left corner stays clear.
    EXPECT_EQ(t.depth[std::size_t(47) * 64 + 0], 1.0f);
}

TEST(HostileInput, ZeroAreaAndSliverTrianglesDrawAtMostTheirPixels) {
    Model m = trianglesModel({{0, 0, -5}, {1, 1, -5}, {2, 2, -5},            // collinear
                              {0.5f, 0.5f, -5}, {0.5f, 0.5f, -5}, {0.5f, 0.5f, -5}, // a point
                              {-3, 0, -5}, {3, 0.0001f, -5}, {3, 0, -5}});   // a 1e-4-high sliver
    Target t(64, 48);
    test::drawWith(CpuRenderer(2), m, frontView(64.0f / 48.0f), RenderSettings{}, t.view());
    EXPECT_LE(t.covered(), 64u) << "at most one row of the sliver";
    EXPECT_TRUE(t.depthInRange());
}

TEST(HostileInput, EverythingBehindTheCameraDrawsNothing) {
    Model m = trianglesModel({{-1, -1, 5}, {1, -1, 5}, {0, 1, 5}, {-100, -100, 0.5f}, {100, -100, 0.5f}, {0, 100, 0.5f}});
    Target t(64, 48);
    const CpuFrameStats stats = test::drawWith(CpuRenderer(2), m, frontView(64.0f / 48.0f), RenderSettings{}, t.view());
    EXPECT_EQ(t.covered(), 0u);
    EXPECT_EQ(stats.trianglesCulled, 2u);
    for (const std::uint32_t c : t.color) ASSERT_EQ(c, RenderSettings{}.clearColor);
}

TEST(HostileInput, CameraExactlyOnAVertex) {
    // A closed cone whose apex is the eye: the triangles through the eye are seen edge-on and
    // draw nothing (clipped at the near plane, not divided by zero); the base disc fills the
    // middle of the view.
    std::vector<glm::vec3> p;
    for (int i = 0; i < 8; ++i) {
        const float a0 = 0.785398f * i, a1 = 0.785398f * (i + 1);
        const glm::vec3 r0(3 * std::cos(a0), 3 * std::sin(a0), -4), r1(3 * std::cos(a1), 3 * std::sin(a1), -4);
        p.insert(p.end(), {{0, 0, 0}, r0, r1, {0, 0, -4}, r1, r0});
    }
    Model m = trianglesModel(p);
    Target t(64, 48);
    const CpuFrameStats stats = test::drawWith(CpuRenderer(2), m, frontView(64.0f / 48.0f), RenderSettings{}, t.view());
    EXPECT_TRUE(t.depthInRange());
    EXPECT_EQ(stats.trianglesIn, 16u);
    for (int y = 0; y < 48; ++y) ASSERT_LT(t.depth[std::size_t(y) * 64 + 32], 1.0f) << "column 32, row " << y;
}

// ---- Extreme sizes -----------------------------------------------------------------------------

TEST(HostileInput, LongestSideTargets) {
    // 16384 pixels wide or high (facet-render's limit) with a triangle across the whole view.
    Model m = trianglesModel({{-1e6f, -1e6f, -5}, {1e6f, -1e6f, -5}, {0, 1e6f, -5}});
    for (const auto& [w, h] : {std::pair{16384, 2}, std::pair{2, 16384}, std::pair{1, 1}}) {
        Target t(w, h);
        test::drawWith(CpuRenderer(2), m, frontView(float(w) / float(h)), RenderSettings{}, t.view());
        EXPECT_EQ(t.covered(), t.depth.size()) << w << "x" << h;
    }
}

TEST(HostileInput, OneByOneAndLongestSideTextures) {
    // A 1x1 texture is one colour everywhere; a 16384x1 one builds its 15 mip levels.
    Image one;
    one.width = one.height = 1;
    one.pixels = {0xFF00FF00u};
    const Texture tex = makeTexture(one, "1x1");
    ASSERT_EQ(tex.levels.size(), 1u);
    Model m = trianglesModel({{-100, -100, -5}, {100, -100, -5}, {0, 100, -5}});
    m.mesh.hasTexCoords = true;
    m.mesh.u = {0.0f, 37.5f, -12.25f};
    m.mesh.v = {0.0f, 1e6f, 3.5f};
    m.textures.push_back(tex);
    m.materials[0] = Material{"one", {1.0f, 1.0f, 1.0f}, 0};
    Target t(32, 24);
    test::drawWith(CpuRenderer(2), m, frontView(32.0f / 24.0f), RenderSettings{}, t.view());
    for (const std::uint32_t c : t.color) ASSERT_EQ(c, 0xFF00FF00u);

    Image wide;
    wide.width = kMaxImageSide;
    wide.height = 1;
    wide.pixels.assign(kMaxImageSide, 0xFF0000FFu);
    const auto path = test::scratchDir("hostile") / "wide.png";
    writePng(path, wide);
    const Texture wideTex = makeTexture(loadImage(path), "wide");
    EXPECT_EQ(wideTex.levels.size(), 15u);
    EXPECT_EQ(wideTex.texels.back(), 0xFF0000FFu);
}

// ---- Files fuzzing found (tests/fuzz/regressions) -------------------------------------------------

std::vector<std::uint8_t> readBytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(HostileInput, FuzzFoundImagesAreRefusedClearly) {
    const auto dir = test::sourceDir() / "tests" / "fuzz" / "regressions";
    struct Case {
        const char* file;
        const char* message;
    };
    for (const Case& c : {Case{"jpeg_huffman_overflow.jpg", "Huffman table"},
                          Case{"jpeg_dqt_then_huffman_overflow.jpg", "Huffman table"},
                          Case{"jpeg_fill_before_soi_huffman_overflow.jpg", "Huffman table"},
                          Case{"png_idat_2gib.png", "truncated PNG"},
                          Case{"png_empty_idat.png", "cannot decode image: corrupt image data"},
                          Case{"png_empty_idat_no_crc.png", "cannot decode image: corrupt image data"},
                          Case{"bmp_29_bytes_35m_pixels.bmp", "truncated image: a 8704x4114 picture needs 54 bytes"},
                          Case{"bmp_negative_compression_125m_pixels.bmp", "truncated image: a 11104x11263 picture"},
                          Case{"tga_18_bytes_60m_pixels.tga", "truncated image"}}) {
        const std::vector<std::uint8_t> bytes = readBytes(dir / c.file);
        ASSERT_FALSE(bytes.empty()) << c.file;
        try {
            decodeImage(bytes.data(), bytes.size(), c.file);
            ADD_FAILURE() << c.file << " was decoded";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find(c.file), std::string::npos) << e.what();
        }
    }
}

TEST(HostileInput, TruncatedTgaAndBmpAreRefusedNotPaddedWithBlack) {
    const auto dir = test::scratchDir("hostile_truncated");
    Image img;
    img.width = img.height = 16;
    img.pixels.assign(256, 0xFF8040C0u);
    // An uncompressed TGA: for run-length encoded ones only gross truncation can be told from
    // the size (each run of up to 128 pixels takes at least two bytes).
    const int rle = stbi_write_tga_with_rle;
    stbi_write_tga_with_rle = 0;
    stbi_write_tga((dir / "t.tga").string().c_str(), 16, 16, 4, img.pixels.data());
    stbi_write_tga_with_rle = rle;
    stbi_write_bmp((dir / "t.bmp").string().c_str(), 16, 16, 4, img.pixels.data());
    for (const char* name : {"t.tga", "t.bmp"}) {
        const auto path = dir / name;
        std::vector<std::uint8_t> bytes = readBytes(path);
        ASSERT_GT(bytes.size(), 100u) << name;
        EXPECT_EQ(decodeImage(bytes.data(), bytes.size(), name).pixels.size(), 256u) << name;
        bytes.resize(bytes.size() - 40);
        try {
            decodeImage(bytes.data(), bytes.size(), name);
            ADD_FAILURE() << name << " decoded when truncated";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("truncated image"), std::string::npos) << e.what();
        }
    }
}

TEST(HostileInput, FormatsOutsidePngJpegTgaBmpAreRefusedByName) {
    const std::string gif = "GIF89a\x01\x00\x01\x00\x80\x00\x00";
    try {
        decodeImage(reinterpret_cast<const std::uint8_t*>(gif.data()), gif.size(), "a.gif");
        ADD_FAILURE() << "GIF decoded";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("GIF images are not supported"), std::string::npos) << e.what();
    }
}

TEST(HostileInput, MissingTruncatedAndHugeTexturesLeaveTheCheckerWithAWarning) {
    const auto dir = test::scratchDir("hostile_textures");
    Image img;
    img.width = img.height = 8;
    img.pixels.assign(64, 0xFFFFFFFFu);
    writePng(dir / "good.png", img);
    std::vector<std::uint8_t> png = readBytes(dir / "good.png");
    test::writeFile(dir / "truncated.png", std::string(png.begin(), png.begin() + std::ptrdiff_t(png.size() / 2)));
    // A valid header announcing 16385x8, one column more than facet accepts.
    std::string huge(png.begin(), png.end());
    huge[16] = huge[17] = 0;
    huge[18] = 0x40;
    huge[19] = 0x01;
    test::writeFile(dir / "huge.png", huge);
    test::writeFile(dir / "m.mtl", "newmtl a\nmap_Kd missing.png\nnewmtl b\nmap_Kd truncated.png\nnewmtl c\nmap_Kd huge.png\n");
    const Model m = loadObj(test::writeFile(dir / "m.obj", "mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\n"
                                                           "usemtl a\nf 1/1 2/1 3/1\nusemtl b\nf 1/1 2/1 3/1\n"
                                                           "usemtl c\nf 1/1 2/1 3/1\n"));
    ASSERT_EQ(m.materials.size(), 3u);
    for (const Material& mat : m.materials) {
        ASSERT_GE(mat.texture, 0);
        EXPECT_EQ(m.textures[std::size_t(mat.texture)].source, "default checker") << mat.name;
    }
    EXPECT_TRUE(hasWarning(m, "image file not found"));
    std::string all;
    for (const Warning& w : m.warnings) all += w.toString() + "\n";
    EXPECT_TRUE(hasWarning(m, "16385x8; facet accepts sides from 1 to 16384")) << all;
    EXPECT_TRUE(hasWarning(m, "truncated.png"));
}

} // namespace
} // namespace facet

namespace facet {
namespace {

// An empty IDAT chunk is legal PNG: dropped before stb sees it, the picture is unchanged.
TEST(HostileInput, EmptyIdatChunksDecodeToTheSamePicture) {
    const std::vector<std::uint8_t> png = readBytes(test::sourceDir() / "assets" / "default_scene" / "bricks.png");
    ASSERT_GT(png.size(), 33u);
    std::vector<std::uint8_t> padded(png.begin(), png.begin() + 33); // signature and IHDR
    const std::uint8_t empty[12] = {0, 0, 0, 0, 'I', 'D', 'A', 'T', 0x35, 0xAF, 0x06, 0x1E};
    padded.insert(padded.end(), empty, empty + 12);
    padded.insert(padded.end(), png.begin() + 33, png.end());
    padded.insert(padded.end() - 12, empty, empty + 12); // and one just before IEND
    const Image a = decodeImage(png.data(), png.size(), "bricks.png");
    const Image b = decodeImage(padded.data(), padded.size(), "padded bricks.png");
    EXPECT_EQ(a.width, b.width);
    EXPECT_EQ(a.height, b.height);
    EXPECT_EQ(a.pixels, b.pixels);
}

} // namespace
} // namespace facet
