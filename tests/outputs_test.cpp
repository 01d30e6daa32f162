// The outputs for vision users (core/outputs.h): metric depth, instance ids and normals. Checked
// against the pinhole model by hand (a square lands where fx, fy, cx, cy put it; a plane's
// depth and normal at every pixel are its ray's), and alike from every path: 1 or 2 threads,
// multisampled or not, the CPU-run kernels and the OpenGL reference; asking for them leaves the
// picture as it was.
#include "asset/obj_loader.h"
#include "asset/scene.h"
#include "core/camera.h"
#include "core/outputs.h"
#include "cpu/simd/lit_lanes.h"
#include "gl_support.h"
#include "renderer.h"
#include "test_support.h"

#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>

#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

namespace facet {
namespace {

// A frame's outputs, all three asked.
struct Outputs {
    std::vector<float> metric, normal;
    std::vector<std::uint32_t> instance;
    explicit Outputs(std::size_t pixels) : metric(pixels, -1.0f), normal(3 * pixels, -2.0f), instance(pixels, 7u) {}
    FrameOutputs view() { return {metric.data(), instance.data(), normal.data()}; }
    glm::vec3 normalAt(std::size_t i) const { return {normal[3 * i], normal[3 * i + 1], normal[3 * i + 2]}; }
};

// A one-material quad a, b, c, d (two triangles), with the mesh's generated normals, or with
// zero normals (a mesh that has none to give).
std::shared_ptr<const Model> quad(glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec3 d, bool normals = true) {
    Model model;
    model.source = "quad";
    for (const glm::vec3& p : {a, b, c, d}) {
        model.mesh.px.push_back(p.x);
        model.mesh.py.push_back(p.y);
        model.mesh.pz.push_back(p.z);
        model.mesh.u.push_back(0.0f);
        model.mesh.v.push_back(0.0f);
    }
    model.mesh.indices = {0, 1, 2, 0, 2, 3};
    model.mesh.ranges.push_back({0, 2, 0});
    generateNormals(model.mesh);
    if (!normals)
        for (std::vector<float>* n : {&model.mesh.nx, &model.mesh.ny, &model.mesh.nz}) std::fill(n->begin(), n->end(), 0.0f);
    computeBounds(model.mesh);
    return std::make_shared<const Model>(std::move(model));
}

// The pinhole camera of these tests at the world's origin, its axes OpenCV's (x right, y down,
// z forward) and the world's.
constexpr Intrinsics kK{300.0f, 280.0f, 150.3f, 100.7f, 320, 240};
Camera pinhole() {
    Camera camera = Camera::fromIntrinsics(kK, glm::mat4(1.0f), PoseConvention::OpenCv);
    camera.nearPlane = 0.1f;
    camera.farPlane = 100.0f;
    return camera;
}

FrameStats drawOutputs(const RendererOptions& options, const Scene& scene, const ViewParams& view,
                       const RenderSettings& settings, test::Frame& frame, Outputs& out) {
    Renderer renderer(options);
    renderer.setScene(scene);
    return renderer.render(view, settings, frame.view(), out.view());
}

RendererOptions cpu(int threads) {
    RendererOptions o;
    o.backend = Backend::Cpu;
    o.threads = threads;
    return o;
}

// A square parallel to the image at camera point (0.4, -0.3, 5), 0.6 wide: its image is a square
// around fx X / Z + cx, fy Y / Z + cy, so the instance mask's centroid lies there.
TEST(Outputs, ASquareLandsWhereThePinholeModelSays) {
    const glm::vec3 centre{0.4f, -0.3f, 5.0f};
    const float h = 0.3f;
    Scene scene;
    const std::uint32_t mesh = scene.addMesh(quad(centre + glm::vec3(-h, -h, 0), centre + glm::vec3(h, -h, 0),
                                                  centre + glm::vec3(h, h, 0), centre + glm::vec3(-h, h, 0)));
    scene.add(mesh, glm::mat4(1.0f), "decoy");
    scene.find(scene.add(mesh, glm::mat4(1.0f), "hidden"))->visible = false;
    const std::uint32_t id = scene.add(mesh, glm::translate(glm::mat4(1.0f), {0.0f, 0.0f, -1e-3f}), "square");
    test::Frame frame(kK.width, kK.height);
    Outputs out(frame.color.size());
    drawOutputs(cpu(2), scene, pinhole().view(float(kK.width) / float(kK.height)), RenderSettings{}, frame, out);
    double sx = 0.0, sy = 0.0;
    std::size_t n = 0;
    for (int y = 0; y < kK.height; ++y)
        for (int x = 0; x < kK.width; ++x) {
            const std::uint32_t seen = out.instance[std::size_t(y) * kK.width + x];
            ASSERT_TRUE(seen == 0u || seen == id) << "pixel " << x << "," << y << " names instance " << seen;
            if (seen == 0u) continue;
            sx += x;
            sy += y;
            ++n;
        }
    const float z = centre.z - 1e-3f;
    const float side = 2.0f * h / z;
    ASSERT_NEAR(double(n), double(side * kK.fx * side * kK.fy), 2.0 * side * (kK.fx + kK.fy)); // within a pixel's rim
    EXPECT_NEAR(sx / double(n), kK.fx * centre.x / z + kK.cx, 0.5);
    EXPECT_NEAR(sy / double(n), kK.fy * centre.y / z + kK.cy, 0.5);
}

// A plane across the whole view, tilted: at every pixel the metric depth and the normal are
// those of the pixel centre's ray meeting the plane, z = n.p0 / n.r for r = ((x - cx) / fx,
// (y - cy) / fy, 1). The same plane with its normals pointing away, or with none, gives the
// side the camera sees, and the direction back along the ray.
TEST(Outputs, APlanesMetricDepthAndNormalAreItsRays) {
    const glm::vec3 p0{0.0f, 0.0f, 6.0f};
    const glm::vec3 facing = glm::normalize(glm::vec3(0.3f, -0.2f, -1.0f)); // towards the camera
    const glm::vec3 s = glm::normalize(glm::cross(facing, glm::vec3(0, 1, 0))), t = glm::cross(facing, s);
    const float r = 40.0f;
    const glm::vec3 a = p0 - r * s - r * t, b = p0 + r * s - r * t, c = p0 + r * s + r * t, d = p0 - r * s + r * t;
    // Wound so that generated normals face the camera, and the other way round.
    const bool towards = glm::dot(glm::cross(b - a, c - a), facing) > 0.0f;
    struct Case {
        std::shared_ptr<const Model> model;
        const char* what;
    };
    const Case cases[] = {{towards ? quad(a, b, c, d) : quad(a, d, c, b), "normals towards the camera"},
                          {towards ? quad(a, d, c, b) : quad(a, b, c, d), "normals away from the camera"},
                          {quad(a, b, c, d, false), "no normals"}};
    for (const Case& k : cases) {
        const Scene scene = sceneOf(*k.model);
        test::Frame frame(kK.width, kK.height);
        Outputs out(frame.color.size());
        drawOutputs(cpu(2), scene, pinhole().view(float(kK.width) / float(kK.height)), RenderSettings{}, frame, out);
        double worstDepth = 0.0, worstNormal = 0.0;
        for (int y = 0; y < kK.height; ++y)
            for (int x = 0; x < kK.width; ++x) {
                const std::size_t i = std::size_t(y) * kK.width + x;
                const glm::dvec3 ray{(x - kK.cx) / kK.fx, (y - kK.cy) / kK.fy, 1.0};
                const glm::dvec3 n(facing);
                const double want = glm::dot(n, glm::dvec3(p0)) / glm::dot(n, ray);
                ASSERT_NE(out.instance[i], 0u) << k.what << ": the plane covers pixel " << x << "," << y;
                worstDepth = std::max(worstDepth, std::abs(out.metric[i] - want) / want);
                const glm::dvec3 wantNormal = k.model->mesh.nx[0] == 0.0f && k.model->mesh.ny[0] == 0.0f
                                                  ? -glm::normalize(ray)
                                                  : n;
                worstNormal = std::max(worstNormal, glm::length(glm::dvec3(out.normalAt(i)) - wantNormal));
                ASSERT_NEAR(glm::length(out.normalAt(i)), 1.0f, 1e-6f) << k.what << ", pixel " << x << "," << y;
            }
        // 1 / z interpolated in floats over corners clipped to the guard band: measured 2.8e-6
        // and 1.04e-5 (relative) for the two windings, against 1e-4 asked of pyrender's.
        EXPECT_LT(worstDepth, 2e-5) << k.what;
        EXPECT_LT(worstNormal, 1e-5) << k.what;
    }
}

// Nothing drawn: every output's background (0), and a metric depth of 0 exactly where no
// instance is seen.
TEST(Outputs, UndrawnPixelsAreZeroInEveryOutput) {
    const auto model = quad({-1, -1, 5}, {1, -1, 5}, {1, 1, 5}, {-1, 1, 5});
    const Scene scene = sceneOf(*model);
    test::Frame frame(kK.width, kK.height);
    Outputs out(frame.color.size());
    drawOutputs(cpu(1), scene, pinhole().view(float(kK.width) / float(kK.height)), RenderSettings{}, frame, out);
    std::size_t drawn = 0;
    for (std::size_t i = 0; i < out.instance.size(); ++i) {
        const bool seen = out.instance[i] != 0u;
        drawn += seen;
        EXPECT_EQ(seen, out.metric[i] > 0.0f) << "pixel " << i;
        EXPECT_EQ(seen, frame.depth[i] < 1.0f) << "pixel " << i;
        if (!seen) {
            EXPECT_EQ(out.normalAt(i), glm::vec3(0.0f)) << "pixel " << i;
        }
    }
    EXPECT_GT(drawn, 1000u);
    EXPECT_LT(drawn, out.instance.size() / 2);
}

// Posed instances of two real meshes (textures, cut-outs, glass): two threads, one, multisampled,
// the CPU-run kernels and the OpenGL reference all give the one-sample CPU frame's outputs, and
// asking for them leaves the picture as it was.
TEST(Outputs, EveryPathGivesTheSameOutputsAndTheSamePicture) {
    Scene scene;
    const auto plate = std::make_shared<const Model>(loadObj(test::sourceDir() / "assets/default_scene/scene.obj"));
    const auto room = std::make_shared<const Model>(loadObj(test::sourceDir() / "assets/material_scene/scene.obj"));
    scene.add(scene.addMesh(plate), glm::mat4(1.0f), "plate");
    const std::uint32_t roomMesh = scene.addMesh(room);
    scene.add(roomMesh, glm::scale(glm::translate(glm::mat4(1.0f), {9.0f, 0.0f, 0.0f}), glm::vec3(0.6f)), "room");
    scene.add(roomMesh, glm::scale(glm::translate(glm::mat4(1.0f), {-9.0f, 0.0f, 0.0f}), {-0.6f, 0.6f, 0.6f}),
              "mirrored");
    const int w = 301, h = 187;
    const ViewParams view = sceneFraming(scene, float(w) / float(h)).view(float(w) / float(h));
    const RenderSettings lit;
    test::Frame reference(w, h);
    Outputs want(reference.color.size());
    drawOutputs(cpu(2), scene, view, lit, reference, want);
    std::size_t ids[4] = {};
    for (std::uint32_t id : want.instance) ++ids[std::min<std::uint32_t>(id, 3u)];
    for (int id = 0; id < 4; ++id) EXPECT_GT(ids[id], 200u) << "instance " << id << " is seen";

    test::Frame plain(w, h);
    {
        Renderer renderer(cpu(2));
        renderer.setScene(scene);
        renderer.render(view, lit, plain.view());
    }
    EXPECT_EQ(plain.color, reference.color) << "asking for outputs changed the picture";
    EXPECT_EQ(plain.depth, reference.depth) << "asking for outputs changed the depths";

    struct Path {
        const char* name;
        RendererOptions options;
        int msaa;
    };
    std::vector<Path> paths = {{"cpu, 1 thread", cpu(1), 1}, {"cpu, 4 samples", cpu(2), 4}, {"cpu, 8 samples", cpu(1), 8}};
    RendererOptions kernels = cpu(2), gl;
    kernels.backend = Backend::Kernels;
    gl.backend = Backend::Gl;
    if (probeBackend(Backend::Kernels).usable) {
        paths.push_back({"kernels", kernels, 1});
        paths.push_back({"kernels, 4 samples", kernels, 4});
    } else {
        std::printf("[ note ] the CPU-run kernels are not built: %s\n", probeBackend(Backend::Kernels).reason.c_str());
    }
    if (const BackendStatus glStatus = probeBackend(Backend::Gl); glStatus.usable)
        paths.push_back({"gl, 4 samples", gl, 4});
    else
        std::printf("[ note ] no OpenGL path: %s\n", glStatus.reason.c_str());
    for (const Path& path : paths) {
        RenderSettings settings = lit;
        settings.msaa = path.msaa;
        test::Frame frame(w, h);
        Outputs got(frame.color.size());
        drawOutputs(path.options, scene, view, settings, frame, got);
        test::Frame plainFrame(w, h);
        {
            Renderer renderer(path.options);
            renderer.setScene(scene);
            renderer.render(view, settings, plainFrame.view());
        }
        EXPECT_EQ(frame.color, plainFrame.color) << path.name << ": asking for outputs changed the picture";
        EXPECT_EQ(got.instance, want.instance) << path.name;
        EXPECT_EQ(std::memcmp(got.metric.data(), want.metric.data(), 4 * want.metric.size()), 0) << path.name;
        EXPECT_EQ(std::memcmp(got.normal.data(), want.normal.data(), 4 * want.normal.size()), 0) << path.name;
    }
}

// Each output alone is written alone: the others' arrays are not touched.
TEST(Outputs, OnlyTheOutputsAskedAreWritten) {
    const auto model = quad({-1, -1, 5}, {1, -1, 5}, {1, 1, 5}, {-1, 1, 5});
    const Scene scene = sceneOf(*model);
    const ViewParams view = pinhole().view(float(kK.width) / float(kK.height));
    for (int asked = 0; asked < 3; ++asked) {
        test::Frame frame(kK.width, kK.height);
        Outputs out(frame.color.size());
        FrameOutputs one;
        if (asked == 0) one.metricDepth = out.metric.data();
        if (asked == 1) one.instance = out.instance.data();
        if (asked == 2) one.normal = out.normal.data();
        Renderer renderer(cpu(2));
        renderer.setScene(scene);
        renderer.render(view, RenderSettings{}, frame.view(), one);
        EXPECT_EQ(asked != 0, std::all_of(out.metric.begin(), out.metric.end(), [](float v) { return v == -1.0f; }));
        EXPECT_EQ(asked != 1, std::all_of(out.instance.begin(), out.instance.end(), [](std::uint32_t v) { return v == 7u; }));
        EXPECT_EQ(asked != 2, std::all_of(out.normal.begin(), out.normal.end(), [](float v) { return v == -2.0f; }));
    }
}

// The CPU takes eight pixels of one triangle at once (cpu/shading/outputs_tile.cpp) and the others
// one by one: each lane must give the scalar path's bits, on random planes, attributes (zero
// normals and normals facing away among them) and camera turns.
TEST(Outputs, EightLanesGiveTheScalarBits) {
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    const Camera camera = pinhole();
    OutputFrame f = outputFrame(FrameOutputs{}, kK.width, kK.height, camera.view(float(kK.width) / float(kK.height)),
                                nullptr, 0);
    int flipped = 0, zero = 0;
    for (int n = 0; n < 2000; ++n) {
        f.rotation = glm::mat3(glm::rotate(glm::mat4(1.0f), 3.0f * u(rng), glm::normalize(glm::vec3(u(rng), u(rng), u(rng)))));
        ScreenTriangle tri{};
        tri.origin = {100.0f * u(rng) + 150.0f, 80.0f * u(rng) + 100.0f};
        tri.db1 = {0.05f * u(rng), 0.05f * u(rng)};
        tri.db2 = {0.05f * u(rng), 0.05f * u(rng)};
        TriangleAttributes a{};
        for (CornerAttributes& c : a.v) {
            c.invW = 0.1f + 0.5f * (u(rng) + 1.0f);
            c.nOverW = n % 10 == 0 ? glm::vec3(0.0f) : glm::vec3(u(rng), u(rng), u(rng)) * c.invW;
        }
        const int x = int(150.0f + 140.0f * u(rng)), y = int(110.0f + 100.0f * u(rng));
        lanes::F32x8 metric8;
        Vec3Lanes<lanes::F32x8> normal8;
        const lanes::F32x8 xs(_mm256_add_ps(_mm256_set1_ps(float(x)), _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7)));
        surfaceOutputs(f, winnerLanes<lanes::F32x8>(tri, a), xs, lanes::F32x8(float(y)), metric8, normal8);
        alignas(32) float m[8], nx[8], ny[8], nz[8];
        _mm256_store_ps(m, metric8.v);
        _mm256_store_ps(nx, normal8.x.v);
        _mm256_store_ps(ny, normal8.y.v);
        _mm256_store_ps(nz, normal8.z.v);
        for (int j = 0; j < 8; ++j) {
            float metric;
            Vec3Lanes<float> normal;
            surfaceOutputs(f, winnerLanes<float>(tri, a), float(x + j), float(y), metric, normal);
            const float got[4] = {m[j], nx[j], ny[j], nz[j]}, want[4] = {metric, normal.x, normal.y, normal.z};
            ASSERT_EQ(std::memcmp(got, want, sizeof got), 0) << "triangle " << n << ", lane " << j;
            if (j != 0) continue;
            const glm::vec3 b = barycentrics(tri, x, y);
            const glm::vec3 c = rotate(f.rotation, b.x * a.v[0].nOverW + b.y * a.v[1].nOverW + b.z * a.v[2].nOverW);
            const glm::vec3 ray{glm::vec2(float(x), float(y)) * f.rayScale + f.rayOffset, 1.0f};
            flipped += glm::dot(c, ray) > 0.0f;
            zero += c == glm::vec3(0.0f);
        }
    }
    EXPECT_GT(zero, 100) << "zero normals were tried";
    EXPECT_GT(flipped, 100) << "normals turned to the side seen were tried";
}

} // namespace
} // namespace facet
