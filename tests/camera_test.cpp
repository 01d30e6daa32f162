// The camera convention against OpenGL's: glm::lookAt + glm::perspective must give the same
// normalised device coordinates and window depth as the vertex stage's shift/rotate/divide.
#include "core/camera.h"
#include "core/error.h"

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

#include <limits>
#include <random>

namespace facet {
namespace {

// Forward built independently of Camera: rotate -Z by pitch about X, then by yaw about +Y.
glm::vec3 referenceForward(float yawDeg, float pitchDeg) {
    glm::mat4 m = glm::rotate(glm::mat4(1.0f), glm::radians(yawDeg), glm::vec3(0, 1, 0));
    m = glm::rotate(m, glm::radians(pitchDeg), glm::vec3(1, 0, 0));
    return glm::vec3(m * glm::vec4(0, 0, -1, 0));
}

TEST(Camera, MatchesLookAtAndPerspectiveOnRandomCamerasAndPoints) {
    std::mt19937 rng(1234);
    std::uniform_real_distribution<float> pos(-50.0f, 50.0f), yaw(-180.0f, 180.0f), pitch(-85.0f, 85.0f),
        fov(20.0f, 110.0f), nearD(0.05f, 2.0f), aspect(0.5f, 2.5f), unit(-1.0f, 1.0f), depth(0.0f, 1.0f);
    int checked = 0;
    for (int c = 0; c < 200; ++c) {
        Camera cam;
        cam.eye = {pos(rng), pos(rng), pos(rng)};
        cam.yawDegrees = yaw(rng);
        cam.pitchDegrees = pitch(rng);
        cam.fovYDegrees = fov(rng);
        cam.nearPlane = nearD(rng);
        cam.farPlane = cam.nearPlane + 200.0f;
        const float a = aspect(rng);
        const ViewParams vp = cam.view(a);

        const glm::vec3 f = referenceForward(cam.yawDegrees, cam.pitchDegrees);
        const glm::mat4 view = glm::lookAt(cam.eye, cam.eye + f, glm::vec3(0, 1, 0));
        const glm::mat4 proj = glm::perspective(glm::radians(cam.fovYDegrees), a, cam.nearPlane, cam.farPlane);

        for (int p = 0; p < 50; ++p) {
            // A random point inside the view frustum, so both sides are well defined.
            const float z = cam.nearPlane + depth(rng) * (cam.farPlane - cam.nearPlane) * 0.5f;
            const float tanHalf = std::tan(glm::radians(cam.fovYDegrees) * 0.5f);
            const glm::vec3 local{unit(rng) * z * tanHalf * a, unit(rng) * z * tanHalf, z};
            const glm::vec3 world = cam.eye + local.x * cam.right() + local.y * cam.up() + local.z * f;

            const glm::vec3 d = rotate(vp.rotation, shift(world, vp.eye));
            const glm::vec2 ndc = perspectiveDivide(d, vp.focus, vp.aspect);
            const float wd = windowDepth(d.z, vp.nearPlane, vp.farPlane);

            const glm::vec4 clip = proj * view * glm::vec4(world, 1.0f);
            ASSERT_GT(clip.w, 0.0f);
            const glm::vec3 glNdc = glm::vec3(clip) / clip.w;
            EXPECT_NEAR(d.z, clip.w, 1e-3f * std::max(1.0f, clip.w));
            EXPECT_NEAR(ndc.x, glNdc.x, 2e-4f) << "camera " << c << " point " << p;
            EXPECT_NEAR(ndc.y, glNdc.y, 2e-4f) << "camera " << c << " point " << p;
            EXPECT_NEAR(wd, glNdc.z * 0.5f + 0.5f, 2e-4f) << "camera " << c << " point " << p;
            ++checked;
        }
    }
    EXPECT_EQ(checked, 200 * 50);
}

TEST(Camera, RotationRowsAreRightUpForward) {
    Camera cam;
    cam.yawDegrees = 33.0f;
    cam.pitchDegrees = -12.0f;
    const glm::mat3 r = cam.rotation();
    const glm::vec3 rows[3] = {cam.right(), cam.up(), cam.forward()};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) EXPECT_FLOAT_EQ(r[j][i], rows[i][j]);
    EXPECT_NEAR(glm::dot(cam.right(), cam.forward()), 0.0f, 1e-6f);
    EXPECT_NEAR(glm::length(cam.up()), 1.0f, 1e-6f);
}

TEST(Camera, ConventionDirections) {
    Camera cam;
    EXPECT_NEAR(cam.forward().z, -1.0f, 1e-6f); // yaw = pitch = 0 looks down -Z
    cam.yawDegrees = 90.0f;                     // positive yaw turns left
    EXPECT_NEAR(cam.forward().x, -1.0f, 1e-6f);
    cam.yawDegrees = 0.0f;
    cam.pitchDegrees = 30.0f; // positive pitch looks up
    EXPECT_GT(cam.forward().y, 0.49f);
    EXPECT_NEAR(cam.focus(), 1.0f / std::tan(glm::radians(30.0f)), 1e-5f);
}

TEST(Camera, PixelCentresAndTopRow) {
    EXPECT_EQ(ndcToPixel({-1.0f, 1.0f}, 640, 480), glm::vec2(0.0f, 0.0f)); // top-left corner
    EXPECT_EQ(ndcToPixel({1.0f, -1.0f}, 640, 480), glm::vec2(640.0f, 480.0f));
    // A point straight ahead lands on the boundary between the four central pixels.
    EXPECT_EQ(ndcToPixel({0.0f, 0.0f}, 640, 480), glm::vec2(320.0f, 240.0f));
    // y grows downwards: a point above the axis has a smaller row.
    EXPECT_LT(ndcToPixel({0.0f, 0.5f}, 640, 480).y, 240.0f);
}

TEST(Camera, FlyMovesAndPitchClamp) {
    Camera cam;
    cam.moveLocal(1.0f, 2.0f, 3.0f);
    EXPECT_NEAR(cam.eye.x, 1.0f, 1e-6f);
    EXPECT_NEAR(cam.eye.y, 2.0f, 1e-6f);
    EXPECT_NEAR(cam.eye.z, -3.0f, 1e-6f);
    cam.turn(0.0f, 500.0f);
    EXPECT_FLOAT_EQ(cam.pitchDegrees, Camera::kMaxPitchDegrees);
    cam.turn(0.0f, -1000.0f);
    EXPECT_FLOAT_EQ(cam.pitchDegrees, -Camera::kMaxPitchDegrees);
    cam.turn(350.0f, 0.0f);
    cam.turn(20.0f, 0.0f);
    EXPECT_NEAR(cam.yawDegrees, 10.0f, 1e-4f); // wraps into (-180, 180]
    EXPECT_NO_THROW(cam.validate());
}

TEST(Camera, InvalidValuesAreNamed) {
    Camera cam;
    cam.fovYDegrees = 180.0f;
    EXPECT_THROW(cam.validate(), Error);
    cam = Camera{};
    cam.farPlane = cam.nearPlane;
    EXPECT_THROW(cam.validate(), Error);
    cam = Camera{};
    cam.eye.x = std::numeric_limits<float>::quiet_NaN();
    try {
        cam.validate();
        FAIL() << "a NaN eye must be rejected";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("not finite"), std::string::npos) << e.what();
    }
    EXPECT_THROW(Camera{}.view(0.0f), Error);
}

// The corners of a box, and one point inside it.
Mesh boxCorners() {
    Mesh mesh;
    for (int i = 0; i < 9; ++i) {
        const glm::vec3 p = i == 8 ? glm::vec3(1, 2, 2) : glm::vec3((i & 1) ? 5 : -3, (i & 2) ? 4 : 0, (i & 4) ? 6 : -2);
        mesh.px.push_back(p.x);
        mesh.py.push_back(p.y);
        mesh.pz.push_back(p.z);
    }
    computeBounds(mesh);
    return mesh;
}

// Framed in an image of `aspect` with a share c of its width covered on the left: every vertex
// between the planes and inside 90% of the uncovered part, whose x in NDC spans [2c - 1, 1]
// (centre c, half-width h = 1 - c), up to that margin on some side, and the bounds' centre at
// x = c.
void expectFramedBeside(const Mesh& mesh, float aspect, float c) {
    SCOPED_TRACE("aspect " + std::to_string(aspect) + ", covered " + std::to_string(c));
    const Camera cam = Camera::framing(mesh, aspect, 60.0f, c);
    EXPECT_NO_THROW(cam.validate());
    const ViewParams vp = cam.view(aspect);
    const float h = 1.0f - c;
    float widest = 0.0f;
    for (std::size_t i = 0; i < mesh.vertexCount(); ++i) {
        const glm::vec3 d = rotate(vp.rotation, shift(mesh.position(i), vp.eye));
        EXPECT_GT(d.z, vp.nearPlane);
        EXPECT_LT(d.z, vp.farPlane);
        const glm::vec2 ndc = perspectiveDivide(d, vp.focus, vp.aspect);
        EXPECT_LE(std::abs(ndc.x - c), 0.9f * h + 1e-5f);
        EXPECT_LE(std::abs(ndc.y), 0.9f + 1e-5f);
        widest = std::max({widest, std::abs(ndc.x - c) / h, std::abs(ndc.y)});
    }
    EXPECT_NEAR(widest, 0.9f, 1e-4f) << "the mesh should fill the frame up to the margin";
    const glm::vec3 centre = rotate(vp.rotation, shift(mesh.bounds.center(), vp.eye));
    EXPECT_NEAR(perspectiveDivide(centre, vp.focus, vp.aspect).x, c, 1e-5f);
}

TEST(Camera, FramingFillsTheFrameWithTheWholeMesh) {
    const Mesh mesh = boxCorners();
    for (const float aspect : {0.5f, 1.0f, 16.0f / 9.0f}) expectFramedBeside(mesh, aspect, 0.0f);
    EXPECT_NO_THROW(Camera::framing(Mesh{}, 1.0f).validate());
}

// Framed beside a covered share of the width (the viewer's panel): the mesh fills the rest,
// and the direction of view is that of the uncovered framing.
TEST(Camera, FramingBesideACoveredShareFillsTheRest) {
    const Mesh mesh = boxCorners();
    for (const float aspect : {1.0f, 16.0f / 9.0f})
        for (const float c : {0.25f, 0.3125f, 0.5f}) {
            expectFramedBeside(mesh, aspect, c);
            const Camera cam = Camera::framing(mesh, aspect, 60.0f, c), whole = Camera::framing(mesh, aspect);
            EXPECT_EQ(cam.yawDegrees, whole.yawDegrees);
            EXPECT_EQ(cam.pitchDegrees, whole.pitchDegrees);
        }
    for (const float bad : {-0.1f, 1.0f, std::numeric_limits<float>::quiet_NaN()}) {
        try {
            Camera::framing(mesh, 1.0f, 60.0f, bad);
            FAIL() << "a covered share of " << bad << " must be refused";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("covered share"), std::string::npos) << e.what();
        }
    }
}

} // namespace
} // namespace facet
