// Shared helpers for the tests: where the corpus and scratch files live, and what a test does
// when something it needs is absent.
#pragma once

// Which sanitizer this test binary is built with, whichever compiler built it: gcc defines
// __SANITIZE_ADDRESS__ and __SANITIZE_THREAD__; clang (the AddressSanitizer tree's compiler)
// says so through __has_feature instead.
#if defined(__SANITIZE_ADDRESS__)
#define FACET_TEST_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__)
#define FACET_TEST_TSAN 1
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FACET_TEST_ASAN 1
#endif
#if __has_feature(thread_sanitizer)
#define FACET_TEST_TSAN 1
#endif
#endif

#include "core/camera.h"
#include "core/frame.h"
#include "core/mesh.h"
#include "core/shading.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <sstream>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace facet::test {

// The shared OBJ corpus (FACET_MODELS_DIR, default ../shared/models beside the checkout).
inline std::filesystem::path modelsDir() {
    if (const char* env = std::getenv("FACET_MODELS_DIR"); env && *env) return env;
    return std::filesystem::path(FACET_SOURCE_DIR) / ".." / "shared" / "models";
}

// A per-test scratch folder under the build tree, created on first use.
inline std::filesystem::path scratchDir(const std::string& name) {
    std::filesystem::path base = std::getenv("FACET_TEST_TMP") ? std::getenv("FACET_TEST_TMP")
                                                                : std::string(FACET_BINARY_DIR) + "/tests/tmp";
    const auto dir = base / name;
    std::filesystem::create_directories(dir);
    return dir;
}

inline std::filesystem::path writeFile(const std::filesystem::path& path, const std::string& bytes) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return path;
}

inline std::filesystem::path sourceDir() { return FACET_SOURCE_DIR; }

// Sets (or unsets, for nullopt) an environment variable for one test, then restores it.
class ScopedVariable {
public:
    ScopedVariable(std::string name, const std::optional<std::string>& value) : name_(std::move(name)) {
        if (const char* old = std::getenv(name_.c_str())) old_ = old;
        set(value);
    }
    ~ScopedVariable() { set(old_); }
    ScopedVariable(const ScopedVariable&) = delete;
    ScopedVariable& operator=(const ScopedVariable&) = delete;

private:
    void set(const std::optional<std::string>& value) const {
        if (value)
            ::setenv(name_.c_str(), value->c_str(), 1);
        else
            ::unsetenv(name_.c_str());
    }
    std::string name_;
    std::optional<std::string> old_;
};

// Whether the test command requires something (FACET_REQUIRE_GL=1, FACET_REQUIRE_DISPLAY=1,
// exported by scripts/test.sh once setup.sh has installed it).
inline bool required(const char* variable) {
    const char* value = std::getenv(variable);
    return value && std::string(value) == "1";
}

// The default settings with the classic shading: for the tests of what the classic look draws
// (exact texels, vertex colours, its headlight, the views over it); lit is the default.
inline RenderSettings classicSettings() {
    RenderSettings s;
    s.shading = ShadingModel::Classic;
    return s;
}

// A camera as users give them: OpenCV intrinsics for 321x241 with an off-centre principal point
// and non-square pixels, at a rolled pose looking at the mesh from its framing's eye (the pose
// given in `axes`), with the framing's clip planes.
inline Camera offCentreIntrinsicCamera(const Mesh& mesh, PoseConvention axes) {
    const Camera framed = Camera::framing(mesh, 321.0f / 241.0f);
    const Camera aimed = Camera::lookAt(framed.eye, mesh.bounds.center(), {0.3f, 1.0f, 0.1f});
    Camera camera = Camera::fromIntrinsics(Intrinsics{190.0f, 225.0f, 205.3f, 96.8f, 321, 241}, aimed.pose(axes), axes);
    camera.nearPlane = framed.nearPlane;
    camera.farPlane = framed.farPlane;
    return camera;
}

// The camera at the origin looking down -Z (yaw = pitch = 0), 60 degrees high, square.
inline ViewParams facingView() {
    Camera camera;
    camera.eye = glm::vec3(0.0f);
    camera.yawDegrees = camera.pitchDegrees = 0.0f;
    camera.fovYDegrees = 60.0f;
    camera.nearPlane = 0.1f;
    camera.farPlane = 10.0f;
    return camera.view(1.0f);
}

// A camera inside the default scene, near the ground, looking across it: near-plane clipping
// fans triangles out (the views' tests).
inline Camera insideDefaultScene() {
    Camera inside;
    inside.eye = glm::vec3(0.0f, 1.5f, 2.0f);
    inside.yawDegrees = 40.0f;
    inside.pitchDegrees = -10.0f;
    inside.nearPlane = 0.05f;
    inside.farPlane = 100.0f;
    return inside;
}

// The tests' default-scene camera: facet-render's framing, or with `low` a view close to the
// ground (near-plane clipping and guard-band triangles).
inline Camera sceneCamera(const Mesh& mesh, float aspect, bool low) {
    Camera camera = Camera::framing(mesh, aspect);
    if (low) {
        camera.eye = {-1.0f, 0.6f, 6.0f};
        camera.yawDegrees = -10.0f;
        camera.pitchDegrees = -8.0f;
        camera.nearPlane = 0.1f;
        camera.farPlane = 50.0f;
    }
    return camera;
}

} // namespace facet::test

// Something a test needs is unusable, for `why` (a string, or a chain streamed into the message:
// "no corpus at " << dir): where `variable` requires it the test fails saying so (it should be
// there, so something broke); elsewhere it is skipped saying why. scripts/test.sh requires
// OpenGL and a display always, and under CI=true the shared corpus (FACET_REQUIRE_CORPUS) and
// the CPU-run CUDA kernels (FACET_REQUIRE_KERNELS) too.
#define FACET_SKIP_UNLESS_REQUIRED(variable, why)                                                                      \
    do {                                                                                                               \
        if (::facet::test::required(variable)) FAIL() << why << " (and " variable "=1 requires it)";                   \
        GTEST_SKIP() << why;                                                                                           \
    } while (0)

namespace facet::test {

// A colour and depth buffer for a renderer to draw into, filled with the given values first
// (values no renderer writes show pixels it left untouched).
struct Frame {
    int width, height;
    std::vector<std::uint32_t> color;
    std::vector<float> depth;
    Frame(int w, int h, std::uint32_t fillColor = 0, float fillDepth = 0.0f)
        : width(w), height(h), color(std::size_t(w) * std::size_t(h), fillColor),
          depth(std::size_t(w) * std::size_t(h), fillDepth) {}
    FrameView view() { return {color.data(), depth.data(), width, height}; }
};

// The largest difference between two RGBA8 colours over their four channels.
inline int channelDiff(std::uint32_t a, std::uint32_t b) {
    int d = 0;
    for (int c = 0; c < 4; ++c) {
        const int x = int((a >> (8 * c)) & 0xFF), y = int((b >> (8 * c)) & 0xFF);
        d = std::max(d, x > y ? x - y : y - x);
    }
    return d;
}

// How far two pictures agree: the share of pixels whose coverage (depth < 1) agrees, or with
// `sameRed` whose red channel is equal (white on black, where red counts covered samples);
// and the PSNR of the RGB over the pixels both cover (99 where they are equal).
struct Agreement {
    double pixels = 0.0, psnr = 0.0;
};

inline Agreement agreement(const Frame& a, const Frame& b, bool sameRed = false) {
    std::size_t same = 0, both = 0;
    double squared = 0.0;
    for (std::size_t i = 0; i < a.color.size(); ++i) {
        const bool ca = a.depth[i] < 1.0f, cb = b.depth[i] < 1.0f;
        same += sameRed ? (a.color[i] & 0xFFu) == (b.color[i] & 0xFFu) : ca == cb;
        if (!ca || !cb) continue;
        ++both;
        for (int k = 0; k < 3; ++k) {
            const double d = double(a.color[i] >> (8 * k) & 0xFFu) - double(b.color[i] >> (8 * k) & 0xFFu);
            squared += d * d;
        }
    }
    const double mse = both ? squared / double(3 * both) : 0.0;
    return {double(same) / double(a.color.size()), mse > 0.0 ? 10.0 * std::log10(255.0 * 255.0 / mse) : 99.0};
}

// Every pixel's colour and depth bits equal, no tolerance (the backends that run the same
// arithmetic: the CPU, the CUDA kernels on the CPU or a GPU, the device path under warp
// emulation). On failure, the first few differences, `a`'s value first.
inline void expectSameBytes(const Frame& a, const Frame& b, const std::string& what) {
    std::size_t colour = 0, depth = 0;
    std::ostringstream first;
    first << std::setprecision(9); // a depth one ulp away shows
    for (std::size_t i = 0; i < b.color.size(); ++i) {
        const bool c = a.color[i] != b.color[i];
        const bool d = std::memcmp(&a.depth[i], &b.depth[i], sizeof(float)) != 0;
        colour += c;
        depth += d;
        if ((c || d) && colour + depth <= 3)
            first << " (" << i % std::size_t(b.width) << ", " << i / std::size_t(b.width) << "): colour " << std::hex
                  << a.color[i] << " vs " << b.color[i] << std::dec << ", depth " << a.depth[i] << " vs " << b.depth[i]
                  << ";";
    }
    EXPECT_EQ(colour, 0u) << what << ": pixels of another colour:" << first.str();
    EXPECT_EQ(depth, 0u) << what << ": pixels of another depth:" << first.str();
}

// Appends a corner of its own at `p` (texture coordinates 0) as the next triangle corner: the
// crafted triangle soups of the multisampling tests.
inline void appendCorner(Mesh& mesh, const glm::vec3& p) {
    mesh.px.push_back(p.x);
    mesh.py.push_back(p.y);
    mesh.pz.push_back(p.z);
    mesh.u.push_back(0.0f);
    mesh.v.push_back(0.0f);
    mesh.indices.push_back(static_cast<std::uint32_t>(mesh.indices.size()));
}

// A square facing a camera at the origin looking down +Z: corners x0..x1, y0..y1 at depth z,
// u from 0 (x0) to 1 (x1) and v from 0 (y1) to 1 (y0), two triangles of material 0.
inline Mesh texturedQuadMesh(float x0, float y0, float x1, float y1, float z) {
    Mesh m;
    m.px = {x0, x1, x1, x0};
    m.py = {y1, y1, y0, y0};
    m.pz = {z, z, z, z};
    m.u = {0.0f, 1.0f, 1.0f, 0.0f};
    m.v = {0.0f, 0.0f, 1.0f, 1.0f};
    m.hasTexCoords = true;
    m.indices = {0, 1, 2, 0, 2, 3};
    m.ranges = {{0, 2, 0}};
    computeBounds(m);
    return m;
}

} // namespace facet::test
