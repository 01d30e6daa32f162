// facet-render's outputs read back as a user's program would: --depth's layout against the
// OpenGL reference's depth for the same camera, --texture's picture against the texture, and
// the camera flags (--eye alone, --look-at, --intrinsics with --pose) against the camera made
// in the program, and --save's files (.npy, 16-bit PNG) against the outputs made in the program.
#include "draw_with.h"
#include "asset/image.h"
#include "asset/load_model.h"
#include "cpu/cpu_renderer.h"
#include "asset/obj_loader.h"
#include "core/camera.h"
#include "gl/gl_reference.h"
#include "renderer.h"
#include "test_support.h"

#include <stb/stb_image.h>

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>

namespace facet {
namespace {

namespace fs = std::filesystem;

const fs::path kRender = fs::path(FACET_BINARY_DIR) / "apps" / "facet-render";

// Runs facet-render with `args` (its output in `log`); its exit status.
int render(const std::string& args, const fs::path& log) {
    const std::string command = "'" + kRender.string() + "' " + args + " > '" + log.string() + "' 2>&1";
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string readAll(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(RenderApp, DepthFileIsOpenGlsWindowDepthTopRowFirst) {
    const GlAvailability gl = GlReferenceRenderer::probe();
    if (!gl.usable) FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_GL", "OpenGL unusable: " + gl.reason);
    const fs::path dir = test::scratchDir("render_depth");
    const int w = 160, h = 90;
    ASSERT_EQ(render("--size 160x90 --stage cpu --eye 7,4,9 --yaw 35 --pitch -20 --fov 50 --near 0.5 --far 40 -o '" +
                         (dir / "d.png").string() + "' --depth '" + (dir / "d.depth").string() + "'",
                     dir / "log.txt"),
              0)
        << readAll(dir / "log.txt");
    const std::string bytes = readAll(dir / "d.depth");
    ASSERT_EQ(bytes.size(), std::size_t(w) * h * 4) << "one float32 per pixel";
    std::vector<float> file(std::size_t(w) * h);
    std::memcpy(file.data(), bytes.data(), bytes.size()); // little-endian, as this machine

    Camera cam;
    cam.eye = {7.0f, 4.0f, 9.0f};
    cam.yawDegrees = 35.0f;
    cam.pitchDegrees = -20.0f;
    cam.fovYDegrees = 50.0f;
    cam.nearPlane = 0.5f;
    cam.farPlane = 40.0f;
    const Model model = loadObj(test::sourceDir() / "assets" / "default_scene" / "scene.obj");
    test::Frame reference(w, h);
    test::drawWith(GlReferenceRenderer(), model, cam.view(float(w) / float(h)), RenderSettings{}, reference.view());

    // Coverage and depth as in gl_reference_test's file scenes: at most 0.1% of the pixels may
    // differ (vertices round differently on the two sides); upside down, most would.
    std::size_t covered = 0, differing = 0;
    for (std::size_t i = 0; i < file.size(); ++i) {
        covered += reference.depth[i] < 1.0f;
        const bool same = (file[i] < 1.0f) == (reference.depth[i] < 1.0f) && std::abs(file[i] - reference.depth[i]) <= 1e-5f;
        differing += !same;
    }
    std::size_t flipped = 0; // the same comparison with the file read bottom row first
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const float f = file[std::size_t(h - 1 - y) * w + x], r = reference.depth[std::size_t(y) * w + x];
            flipped += !((f < 1.0f) == (r < 1.0f) && std::abs(f - r) <= 1e-5f);
        }
    std::cout << "[ depth    ] " << covered << " px covered, " << differing << " differ from OpenGL's (" << flipped
              << " if read bottom row first)\n";
    EXPECT_GT(flipped, file.size() / 10) << "the scene is not symmetric top to bottom, so a flip would show";
    EXPECT_GT(covered, file.size() / 4) << "the scene fills the view";
    EXPECT_LE(differing, file.size() / 1000) << differing << " of " << file.size() << " pixels differ from OpenGL's";
}

TEST(RenderApp, TextureFlagPutsTheImageOnTheMesh) {
    // A square with uv over [0, 1]^2 filling a square picture, and a 2x2 texture with nearest
    // filtering: each quarter of the picture shows the texel of the same quarter of the image.
    const fs::path dir = test::scratchDir("render_texture");
    const fs::path quad = test::writeFile(dir / "quad.obj", "v -1 -1 0\nv 1 -1 0\nv 1 1 0\nv -1 1 0\n"
                                                            "vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\n"
                                                            "f 1/1 2/2 3/3 4/4\n");
    const Image texture{2, 2, {0xFF0000FFu, 0xFF00FF00u, 0xFFFF0000u, 0xFF00FFFFu}}; // rows top first
    writePng(dir / "texture.png", texture);
    ASSERT_EQ(render("'" + quad.string() + "' --texture '" + (dir / "texture.png").string() +
                         "' --shading classic --filter nearest --size 32x32 --stage cpu --eye 0,0,1 --yaw 0 --pitch 0 --fov 90 "
                         "--near 0.1 --far 10 -o '" + (dir / "out.png").string() + "'",
                     dir / "log.txt"),
              0)
        << readAll(dir / "log.txt");
    const Image out = loadImage(dir / "out.png");
    ASSERT_EQ(out.width, 32u);
    ASSERT_EQ(out.height, 32u);
    for (std::uint32_t y = 0; y < 32; ++y)
        for (std::uint32_t x = 0; x < 32; ++x)
            ASSERT_EQ(out.pixels[y * 32 + x], texture.pixels[(y / 16) * 2 + x / 16]) << "pixel " << x << "," << y;
}

// A UV sphere of `rings` x `segments` quads with texture coordinates and no material library,
// as a scan or a downloaded mesh often comes.
std::string sphereWithUvsObj(int rings, int segments) {
    std::ostringstream obj;
    for (int r = 0; r <= rings; ++r)
        for (int s = 0; s <= segments; ++s) {
            const double theta = M_PI * r / rings, phi = 2.0 * M_PI * s / segments;
            obj << "v " << std::sin(theta) * std::cos(phi) << ' ' << std::cos(theta) << ' '
                << std::sin(theta) * std::sin(phi) << "\nvt " << double(s) / segments << ' ' << double(r) / rings << '\n';
        }
    for (int r = 0; r < rings; ++r)
        for (int s = 0; s < segments; ++s) {
            const int a = r * (segments + 1) + s + 1, b = a + 1, c = a + segments + 2, d = a + segments + 1;
            obj << "f " << a << '/' << a << ' ' << d << '/' << d << ' ' << c << '/' << c << ' ' << b << '/' << b << '\n';
        }
    return obj.str();
}

// The picture a new user gets: a mesh with texture coordinates and no material is drawn lit in a
// neutral grey, shaded like a shape (many grey levels, not one flat silhouette), with no magenta
// checker (no texture was named, so none is missing); --background with alpha 0 leaves the PNG
// transparent where nothing is drawn.
TEST(RenderApp, AMeshWithoutMaterialIsShadedGreyOverTheBackgroundAsked) {
    const fs::path dir = test::scratchDir("render_plain");
    const fs::path sphere = test::writeFile(dir / "sphere.obj", sphereWithUvsObj(24, 48));
    ASSERT_EQ(render("'" + sphere.string() + "' --size 96x96 --stage cpu --background 0,0,0,0 -o '" +
                         (dir / "out.png").string() + "'",
                     dir / "log.txt"),
              0)
        << readAll(dir / "log.txt");
    EXPECT_EQ(readAll(dir / "log.txt").find("warning"), std::string::npos) << readAll(dir / "log.txt");
    const Image out = loadImage(dir / "out.png");
    std::set<std::uint32_t> greys;
    std::size_t drawn = 0;
    for (const std::uint32_t p : out.pixels) {
        const std::uint32_t r = p & 0xFFu, g = (p >> 8) & 0xFFu, b = (p >> 16) & 0xFFu, a = p >> 24;
        if (a == 0) {
            EXPECT_EQ(p, 0u) << "the background asked for: 0,0,0,0";
            continue;
        }
        ++drawn;
        EXPECT_EQ(a, 255u);
        ASSERT_TRUE(r == g && g == b) << "not grey: " << std::hex << p << " (the checker is magenta)";
        greys.insert(r);
    }
    EXPECT_GT(drawn, std::size_t(96 * 96 / 3)) << "the framed sphere fills much of the picture";
    EXPECT_EQ(out.pixels[0], 0u) << "a corner is background";
    EXPECT_GE(greys.size(), 20u) << "lit, the sphere shows many grey levels; flat, it would show one";
}

// Several files are one scene: each file's mesh where the file put it, in one picture, and
// --info lists each file and each instance.
TEST(RenderApp, SeveralFilesRenderIntoOnePicture) {
    const fs::path dir = test::scratchDir("render_several");
    const fs::path cube = fs::path(FACET_SOURCE_DIR) / "tests" / "data" / "cube.obj"; // [-1, 1]^3
    const fs::path quad = test::writeFile(dir / "quad.ply", "ply\nformat ascii 1.0\nelement vertex 4\n"
                                                            "property float x\nproperty float y\nproperty float z\n"
                                                            "element face 2\nproperty list uchar int vertex_indices\n"
                                                            "end_header\n3 -1 0\n5 -1 0\n5 1 0\n3 1 0\n"
                                                            "3 0 1 2\n3 0 2 3\n");
    const std::string camera = " --size 64x32 --stage cpu --eye 2,0,12 --yaw 0 --pitch 0 --fov 40 --near 1 --far 50";
    const auto draw = [&](const std::string& files, const std::string& name) {
        EXPECT_EQ(render(files + camera + " -o '" + (dir / name).string() + "'", dir / "log.txt"), 0)
            << readAll(dir / "log.txt");
        return loadImage(dir / name);
    };
    const Image alone = draw("'" + cube.string() + "'", "cube.png");
    const Image other = draw("'" + quad.string() + "'", "quad.png");
    const Image both = draw("'" + cube.string() + "' '" + quad.string() + "'", "both.png");
    EXPECT_NE(readAll(dir / "log.txt").find("(64x32, 14 triangles"), std::string::npos) << readAll(dir / "log.txt");
    const std::uint32_t background = both.pixels[0];
    std::size_t fromCube = 0, fromQuad = 0;
    for (std::size_t p = 0; p < both.pixels.size(); ++p) {
        const bool a = alone.pixels[p] != background, b = other.pixels[p] != background;
        ASSERT_FALSE(a && b) << "the meshes overlap at pixel " << p;
        ASSERT_EQ(both.pixels[p], a ? alone.pixels[p] : other.pixels[p]) << "pixel " << p;
        fromCube += a, fromQuad += b;
    }
    EXPECT_GT(fromCube, 50u);
    EXPECT_GT(fromQuad, 50u);

    // The default camera (framing the whole scene) draws both.
    ASSERT_EQ(render("'" + cube.string() + "' '" + quad.string() + "' --size 64x32 --stage cpu -o '" +
                         (dir / "framed.png").string() + "'",
                     dir / "log.txt"),
              0)
        << readAll(dir / "log.txt");
    EXPECT_NE(readAll(dir / "log.txt").find("(64x32, 14 triangles"), std::string::npos) << readAll(dir / "log.txt");

    ASSERT_EQ(render("'" + cube.string() + "' '" + quad.string() + "' --info", dir / "info.txt"), 0)
        << readAll(dir / "info.txt");
    const std::string info = readAll(dir / "info.txt");
    for (const std::string& line :
         {cube.string() + "\n", quad.string() + "\n", std::string("  instances  2 (14 triangles)\n"),
          std::string("    1: cube.obj, mesh 0, 12 triangles\n"),
          std::string("    2: quad.ply, mesh 1, 2 triangles\n")})
        EXPECT_NE(info.find(line), std::string::npos) << "no line '" << line << "' in:\n" << info;
}

// A number as facet-render's parser reads it back into the same float.
std::string exact(float v) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.9g", double(v));
    return text;
}

std::string exact(glm::vec3 v) { return exact(v.x) + "," + exact(v.y) + "," + exact(v.z); }

// --eye alone looks at the centre of the scene's framing: the picture --look-at that centre draws,
// and the scene in view (before #26 it kept the framing's yaw of 25 degrees and looked away).
TEST(RenderApp, EyeAloneLooksAtTheSceneCentre) {
    const fs::path dir = test::scratchDir("render_eye_alone");
    const Model model = loadModel(test::sourceDir() / "assets" / "default_scene" / "scene.obj");
    const std::string common = " --size 96x64 --stage cpu --eye 0,0,2.2 -o '" + (dir / "a.png").string() + "' --depth '";
    ASSERT_EQ(render(common + (dir / "alone.depth").string() + "'", dir / "log.txt"), 0) << readAll(dir / "log.txt");
    ASSERT_EQ(render(common + (dir / "at.depth").string() + "' --look-at " + exact(model.mesh.bounds.center()),
                     dir / "log.txt"),
              0)
        << readAll(dir / "log.txt");
    const std::string alone = readAll(dir / "alone.depth"), at = readAll(dir / "at.depth");
    ASSERT_EQ(alone.size(), 96u * 64u * 4u);
    EXPECT_TRUE(alone == at) << "--eye alone should draw what --look-at the scene's centre draws";
    std::vector<float> depth(96 * 64);
    std::memcpy(depth.data(), alone.data(), alone.size());
    // Measured: the old camera, looking away, drew 239 pixels (4%), none in the middle half.
    std::size_t covered = 0, middle = 0;
    for (std::size_t i = 0; i < depth.size(); ++i) {
        const std::size_t x = i % 96, y = i / 96;
        covered += depth[i] < 1.0f;
        middle += depth[i] < 1.0f && x >= 24 && x < 72 && y >= 16 && y < 48;
    }
    EXPECT_GT(covered, depth.size() / 5) << "looking at the scene, a good share of the picture is the scene";
    EXPECT_GT(middle, 0u) << "and its middle shows some of it";
}

// --intrinsics with --pose, inline and from a file (OpenCV's axes), draws what the program's own
// Camera::fromIntrinsics draws; --convention opengl with the same camera's OpenGL pose too.
TEST(RenderApp, IntrinsicsAndPoseInlineAndFromAFile) {
    const fs::path dir = test::scratchDir("render_intrinsics");
    const Model model = loadModel(test::sourceDir() / "assets" / "default_scene" / "scene.obj");
    const int w = 120, h = 80;
    const Camera framed = Camera::framing(model.mesh, float(w) / float(h));
    const Camera aimed = Camera::lookAt(framed.eye, model.mesh.bounds.center(), {0.2f, 1.0f, 0.0f});
    Camera camera = Camera::fromIntrinsics(Intrinsics{70.0f, 82.5f, 50.25f, 45.5f, w, h},
                                           aimed.pose(PoseConvention::OpenCv), PoseConvention::OpenCv);
    camera.nearPlane = 0.5f;
    camera.farPlane = 200.0f;
    test::Frame want(w, h);
    CpuRenderer cpu(2);
    test::drawWith(cpu, model, camera.view(float(w) / float(h)), RenderSettings{}, want.view());

    const auto matrix = [](const glm::mat4& m, const char* between, const char* rowEnd) {
        std::string text;
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 4; ++c) text += exact(m[c][r]) + (c < 3 ? between : (r < 3 ? rowEnd : ""));
        return text;
    };
    const fs::path file = test::writeFile(dir / "pose.txt", matrix(camera.pose(), " ", "\n") + "\n");
    const std::string common = " --size 120x80 --stage cpu --near 0.5 --far 200 --intrinsics 70,82.5,50.25,45.5 -o '" +
                               (dir / "out.png").string() + "' --depth '";
    const std::string inlined = " --pose " + matrix(camera.pose(), ",", ",");
    const std::string opengl = " --convention opengl --pose " + matrix(camera.pose(PoseConvention::OpenGl), ",", ",");
    for (const std::string& pose : {inlined, " --pose '" + file.string() + "'", opengl}) {
        ASSERT_EQ(render(common + (dir / "d.depth").string() + "'" + pose, dir / "log.txt"), 0)
            << pose << ": " << readAll(dir / "log.txt");
        const std::string bytes = readAll(dir / "d.depth");
        ASSERT_EQ(bytes.size(), want.depth.size() * 4);
        EXPECT_EQ(std::memcmp(bytes.data(), want.depth.data(), bytes.size()), 0) << pose;
    }
}

// .npy files as numpy.load reads them: the magic and version, a header naming the type and the
// shape, then the values; and instance ids as a 16-bit PNG, read back by stb.
TEST(RenderApp, SaveWritesOutputsAsNumpyAndSixteenBitPng) {
    const fs::path dir = test::scratchDir("render_save");
    const int w = 160, h = 90;
    const std::string camera = " --size 160x90 --stage cpu --msaa 4 --eye 7,4,9 --look-at 0,0.5,0 --near 0.5 --far 40";
    ASSERT_EQ(render(camera + " -o '" + (dir / "c.png").string() + "' --save 'metric_depth=" + (dir / "m.npy").string() +
                         "' --save 'instance=" + (dir / "i.npy").string() + "' --save 'instance=" +
                         (dir / "i.png").string() + "' --save 'normal=" + (dir / "n.npy").string() + "'",
                     dir / "log.txt"),
              0)
        << readAll(dir / "log.txt");

    const Model model = loadModel(test::sourceDir() / "assets" / "default_scene" / "scene.obj");
    const Scene scene = sceneOf(model);
    Camera c = Camera::lookAt({7, 4, 9}, {0, 0.5f, 0});
    c.nearPlane = 0.5f;
    c.farPlane = 40.0f;
    RendererOptions cpu;
    cpu.backend = Backend::Cpu;
    Renderer renderer(cpu);
    renderer.setScene(scene);
    RenderSettings settings;
    settings.msaa = 4;
    test::Frame frame(w, h);
    const std::size_t pixels = std::size_t(w) * h;
    std::vector<float> metric(pixels), normal(3 * pixels);
    std::vector<std::uint32_t> instance(pixels);
    renderer.render(c.view(float(w) / float(h)), settings, frame.view(), {metric.data(), instance.data(), normal.data()});

    const auto npy = [&](const char* file, const char* descr, const char* shape, const void* want, std::size_t bytes) {
        const std::string data = readAll(dir / file);
        ASSERT_GE(data.size(), 10u) << file;
        EXPECT_EQ(data.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8)) << file;
        const std::size_t headerSize = std::size_t(std::uint8_t(data[8])) | std::size_t(std::uint8_t(data[9])) << 8;
        EXPECT_EQ((10 + headerSize) % 64, 0u) << file << ": numpy aligns the data to 64 bytes";
        const std::string header = data.substr(10, headerSize);
        const std::string dict = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
        EXPECT_EQ(header.substr(0, dict.size()), dict) << file;
        EXPECT_EQ(header.find_first_not_of(' ', dict.size()), headerSize - 1) << file << ": then spaces";
        EXPECT_EQ(header.back(), '\n') << file;
        ASSERT_EQ(data.size(), 10 + headerSize + bytes) << file;
        EXPECT_EQ(std::memcmp(data.data() + 10 + headerSize, want, bytes), 0) << file << ": the values as drawn";
    };
    npy("m.npy", "<f4", "(90, 160)", metric.data(), 4 * pixels);
    npy("i.npy", "<u4", "(90, 160)", instance.data(), 4 * pixels);
    npy("n.npy", "<f4", "(90, 160, 3)", normal.data(), 12 * pixels);
    EXPECT_GT(std::count(instance.begin(), instance.end(), 1u), std::ptrdiff_t(pixels / 10)) << "the scene is seen";

    int pw = 0, ph = 0, channels = 0;
    stbi_us* png = stbi_load_16((dir / "i.png").string().c_str(), &pw, &ph, &channels, 0);
    ASSERT_NE(png, nullptr) << stbi_failure_reason();
    EXPECT_EQ(pw, w);
    EXPECT_EQ(ph, h);
    EXPECT_EQ(channels, 1);
    EXPECT_TRUE(std::equal(instance.begin(), instance.end(), png)) << "the PNG's grey values are the ids";
    stbi_image_free(png);

    // What --save cannot write is refused by name.
    EXPECT_EQ(render("--save 'colour=" + (dir / "x.npy").string() + "'", dir / "log.txt"), 2);
    EXPECT_NE(readAll(dir / "log.txt").find("NAME metric_depth, instance or normal, got 'colour="), std::string::npos)
        << readAll(dir / "log.txt");
    EXPECT_EQ(render("--save normal=x.png", dir / "log.txt"), 2);
    EXPECT_NE(readAll(dir / "log.txt").find("--save normal is written as .npy, not 'x.png'"), std::string::npos)
        << readAll(dir / "log.txt");
}

} // namespace
} // namespace facet
