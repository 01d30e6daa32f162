// The camera convention against OpenGL's: glm::lookAt + glm::perspective must give the same
// normalised device coordinates and window depth as the vertex stage's shift/rotate/divide; and
// cameras as users give them (look-at, OpenCV's intrinsics and poses) against the same math done
// by hand, down to the pixel the CPU renderer draws.
#include "draw_with.h"
#include "core/camera.h"
#include "core/error.h"
#include "cpu/cpu_renderer.h"
#include "test_support.h"

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
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
            const glm::vec2 ndc = perspectiveDivide(d, vp);
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
        const glm::vec2 ndc = perspectiveDivide(d, vp);
        EXPECT_LE(std::abs(ndc.x - c), 0.9f * h + 1e-5f);
        EXPECT_LE(std::abs(ndc.y), 0.9f + 1e-5f);
        widest = std::max({widest, std::abs(ndc.x - c) / h, std::abs(ndc.y)});
    }
    EXPECT_NEAR(widest, 0.9f, 1e-4f) << "the mesh should fill the frame up to the margin";
    const glm::vec3 centre = rotate(vp.rotation, shift(mesh.bounds.center(), vp.eye));
    EXPECT_NEAR(perspectiveDivide(centre, vp).x, c, 1e-5f);
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

// ---- cameras as users give them (#26) --------------------------------------------------

// A random rigid camera-to-world pose in float: a rotation from a random unit quaternion, a
// translation in a box.
glm::mat4 randomPose(std::mt19937& rng) {
    std::normal_distribution<float> n;
    std::uniform_real_distribution<float> t(-20.0f, 20.0f);
    const glm::quat q = glm::normalize(glm::quat(n(rng), n(rng), n(rng), n(rng)));
    glm::mat4 pose = glm::mat4_cast(q);
    pose[3] = glm::vec4(t(rng), t(rng), t(rng), 1.0f);
    return pose;
}

bool sameBits(const glm::mat4& a, const glm::mat4& b) { return std::memcmp(&a, &b, sizeof(a)) == 0; }

// Whether `what` throws facet::Error whose message holds `part`.
testing::AssertionResult refusedSaying(const std::function<void()>& what, const std::string& part) {
    try {
        what();
    } catch (const Error& e) {
        if (std::string(e.what()).find(part) != std::string::npos) return testing::AssertionSuccess();
        return testing::AssertionFailure() << "refused, but saying: " << e.what();
    }
    return testing::AssertionFailure() << "not refused";
}

TEST(Camera, IntrinsicsAndPoseRoundTripExactly) {
    std::mt19937 rng(26);
    std::uniform_real_distribution<float> focal(50.0f, 2000.0f), centre(-100.0f, 800.0f);
    for (const PoseConvention axes : {PoseConvention::OpenCv, PoseConvention::OpenGl})
        for (int i = 0; i < 100; ++i) {
            const Intrinsics k{focal(rng), focal(rng), centre(rng), centre(rng), 640, 480};
            const glm::mat4 pose = randomPose(rng);
            const Camera c = Camera::fromIntrinsics(k, pose, axes);
            ASSERT_EQ(c.intrinsics->fx, k.fx);
            ASSERT_EQ(c.intrinsics->fy, k.fy);
            ASSERT_EQ(c.intrinsics->cx, k.cx);
            ASSERT_EQ(c.intrinsics->cy, k.cy);
            const Intrinsics back = c.intrinsicsFor(640, 480);
            ASSERT_TRUE(back.fx == k.fx && back.fy == k.fy && back.cx == k.cx && back.cy == k.cy);
            ASSERT_TRUE(sameBits(c.pose(), pose)) << "convention " << int(axes) << ", pose " << i;
            ASSERT_TRUE(sameBits(Camera::fromPose(c.pose(PoseConvention::OpenGl), PoseConvention::OpenGl).pose(axes),
                                 pose))
                << "through the other convention";
        }
}

// OpenCV's projection done by hand in double (u = cx + fx X / Z, v = cy + fy Y / Z in the camera's
// axes) against facet's vertex math: window position (u + 0.5, v + 0.5), both conventions.
TEST(Camera, IntrinsicsProjectAsOpenCvDoes) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f), depth(1.0f, 50.0f);
    const Intrinsics k{612.5f, 431.75f, 201.25f, 310.5f, 500, 375}; // off-centre, non-square pixels
    for (const PoseConvention axes : {PoseConvention::OpenCv, PoseConvention::OpenGl}) {
        const glm::mat4 pose = randomPose(rng);
        const Camera c = Camera::fromIntrinsics(k, pose, axes);
        const ViewParams vp = c.view(500.0f / 375.0f);
        const glm::dmat4 toCamera = glm::inverse(glm::dmat4(pose));
        for (int i = 0; i < 200; ++i) {
            glm::dvec3 cv{unit(rng) * 2.0, unit(rng) * 2.0, depth(rng)}; // OpenCV's axes
            const glm::dvec3 own = axes == PoseConvention::OpenCv ? cv : glm::dvec3(cv.x, -cv.y, -cv.z);
            const glm::vec3 world = glm::vec3(glm::dvec3(glm::dmat4(pose) * glm::dvec4(own, 1.0)));
            const glm::dvec3 back = glm::dvec3(toCamera * glm::dvec4(glm::dvec3(world), 1.0));
            cv = axes == PoseConvention::OpenCv ? back : glm::dvec3(back.x, -back.y, -back.z);
            const double u = k.cx + k.fx * cv.x / cv.z, v = k.cy + k.fy * cv.y / cv.z;
            const glm::vec2 px = ndcToPixel(perspectiveDivide(rotate(vp.rotation, shift(world, vp.eye)), vp), 500, 375);
            EXPECT_NEAR(px.x, u + 0.5, 2e-3 * std::max(1.0, std::abs(u))) << "point " << i;
            EXPECT_NEAR(px.y, v + 0.5, 2e-3 * std::max(1.0, std::abs(v))) << "point " << i;
        }
    }
    // A centred lens ((W - 1) / 2, (H - 1) / 2) has no offset at all: the ordinary camera's path.
    const Camera centred = Camera::fromIntrinsics(Intrinsics{500.0f, 500.0f, 319.5f, 239.5f, 640, 480});
    EXPECT_EQ(centred.view(640.0f / 480.0f).principal, glm::vec2(0.0f));
    Camera ordinary;
    EXPECT_EQ(ordinary.view(1.5f).principal, glm::vec2(0.0f));
}

// At another size of the same shape the picture is the same, K scaled with the image (pixel
// centres kept at whole numbers); another shape is refused, naming both.
TEST(Camera, IntrinsicsAtAnotherSizeScaleAndAnotherShapeIsRefused) {
    const Intrinsics k{300.0f, 280.0f, 150.25f, 90.5f, 320, 240};
    const Camera c = Camera::fromIntrinsics(k);
    const ViewParams a = c.view(320.0f / 240.0f), b = c.view(640.0f / 480.0f);
    EXPECT_EQ(std::memcmp(&a, &b, sizeof(a)), 0);
    const Intrinsics twice = c.intrinsicsFor(640, 480);
    EXPECT_NEAR(twice.fx, 600.0f, 1e-3f);
    EXPECT_NEAR(twice.fy, 560.0f, 1e-3f);
    EXPECT_NEAR(twice.cx, (150.25f + 0.5f) * 2.0f - 0.5f, 1e-3f);
    EXPECT_NEAR(twice.cy, (90.5f + 0.5f) * 2.0f - 0.5f, 1e-3f);
    EXPECT_TRUE(refusedSaying([&] { c.view(1.0f); }, "intrinsics are for a 320x240 image"));
    EXPECT_TRUE(refusedSaying([&] { c.projectionMatrix(300, 300); }, "aspect 1 would stretch them"));
}

// The OpenGL matrices the Python module offers give the NDC facet draws with, principal point
// and non-square pixels included.
TEST(Camera, ViewAndProjectionMatricesAreFacetsProjection) {
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f), depth(1.0f, 30.0f);
    const Camera cameras[] = {Camera::fromIntrinsics(Intrinsics{250.0f, 330.0f, 40.0f, 170.5f, 320, 200},
                                                     randomPose(rng), PoseConvention::OpenCv),
                              Camera::lookAt({3, 4, 5}, {0, 0, 0}, {0, 0, 1}), Camera::framing(Mesh{}, 1.6f)};
    for (const Camera& c : cameras) {
        const ViewParams vp = c.view(1.6f);
        const glm::mat4 pv = c.projectionMatrix(320, 200) * c.viewMatrix();
        for (int i = 0; i < 100; ++i) {
            const glm::vec3 local{unit(rng) * 5.0f, unit(rng) * 5.0f, depth(rng)};
            const glm::vec3 world = c.eye + local.x * c.right() + local.y * c.up() + local.z * c.forward();
            const glm::vec2 ndc = perspectiveDivide(rotate(vp.rotation, shift(world, vp.eye)), vp);
            const glm::vec4 clip = pv * glm::vec4(world, 1.0f);
            EXPECT_NEAR(clip.x / clip.w, ndc.x, 2e-4f * std::max(1.0f, std::abs(ndc.x)));
            EXPECT_NEAR(clip.y / clip.w, ndc.y, 2e-4f * std::max(1.0f, std::abs(ndc.y)));
            EXPECT_NEAR(clip.z / clip.w * 0.5f + 0.5f, windowDepth(local.z, vp.nearPlane, vp.farPlane), 2e-4f);
        }
    }
    // An ordinary camera's are glm's own.
    Camera yawed;
    yawed.yawDegrees = 30.0f;
    yawed.pitchDegrees = -10.0f;
    yawed.eye = {1, 2, 3};
    const glm::mat4 want = glm::perspective(glm::radians(60.0f), 1.5f, 0.1f, 1000.0f),
                    view = glm::lookAt(yawed.eye, yawed.eye + yawed.forward(), glm::vec3(0, 1, 0));
    for (int col = 0; col < 4; ++col)
        for (int r = 0; r < 4; ++r) {
            EXPECT_NEAR(yawed.projectionMatrix(300, 200)[col][r], want[col][r], 1e-5f);
            EXPECT_NEAR(yawed.viewMatrix()[col][r], view[col][r], 1e-5f);
        }
}

TEST(Camera, LookAtTakesAnyUpAndLooksStraightDown) {
    // Up = +Z, as CAD and robotics scenes have it: the picture's up is +Z.
    const Camera z = Camera::lookAt({10, 0, 0}, {0, 0, 0}, {0, 0, 1});
    EXPECT_NEAR(glm::distance(z.forward(), glm::vec3(-1, 0, 0)), 0.0f, 1e-6f);
    EXPECT_NEAR(glm::distance(z.up(), glm::vec3(0, 0, 1)), 0.0f, 1e-6f);
    EXPECT_NEAR(glm::distance(z.right(), glm::vec3(0, 1, 0)), 0.0f, 1e-6f); // forward x up
    // Straight down, north (-Z) at the top of the picture: beyond a yaw/pitch camera's +-89.
    const Camera down = Camera::lookAt({0, 10, 0}, {0, 0, 0}, {0, 0, -1});
    EXPECT_NEAR(glm::distance(down.forward(), glm::vec3(0, -1, 0)), 0.0f, 1e-6f);
    EXPECT_NEAR(glm::distance(down.up(), glm::vec3(0, 0, -1)), 0.0f, 1e-6f);
    EXPECT_NO_THROW(down.view(1.0f));
    // The point below the eye lands at the picture's centre; one to the north above it.
    const ViewParams vp = down.view(1.0f);
    EXPECT_NEAR(glm::length(perspectiveDivide(rotate(vp.rotation, shift({0, 0, 0}, vp.eye)), vp)), 0.0f, 1e-6f);
    EXPECT_GT(perspectiveDivide(rotate(vp.rotation, shift({0, 0, -1}, vp.eye)), vp).y, 0.05f);
    // glm::lookAt's matrix, for any up.
    const glm::mat4 want = glm::lookAt(glm::vec3(10, 0, 0), glm::vec3(0), glm::vec3(0, 0, 1));
    for (int col = 0; col < 4; ++col)
        for (int r = 0; r < 4; ++r) EXPECT_NEAR(z.viewMatrix()[col][r], want[col][r], 1e-5f);
    // With up = +Y it is the yaw/pitch camera looking the same way.
    Camera yawed;
    yawed.yawDegrees = 40.0f;
    yawed.pitchDegrees = -25.0f;
    const Camera same = Camera::lookAt(yawed.eye, yawed.eye + yawed.forward());
    EXPECT_NEAR(glm::distance(same.up(), yawed.up()), 0.0f, 1e-6f);
    EXPECT_NEAR(same.yawPitch().x, 40.0f, 1e-3f);
    EXPECT_NEAR(same.yawPitch().y, -25.0f, 1e-3f);
}

// The fly camera turns a given orientation back into yaw and pitch (its roll is lost) and moves
// along its axes.
TEST(Camera, TurnFoldsAGivenOrientation) {
    Camera c = Camera::lookAt({0, 0, 0}, {-1, 1, -1}, {1, 1, 0}); // rolled
    const glm::vec3 forward = c.forward();
    Camera moved = c;
    moved.moveLocal(0.0f, 0.0f, 2.0f);
    EXPECT_NEAR(glm::distance(moved.eye, 2.0f * forward), 0.0f, 1e-5f);
    c.turn(0.0f, 0.0f);
    EXPECT_FALSE(c.orientation.has_value());
    EXPECT_NEAR(glm::distance(c.forward(), forward), 0.0f, 1e-5f);
    EXPECT_NEAR(c.right().y, 0.0f, 1e-6f) << "upright again";
    Camera down = Camera::lookAt({0, 5, 0}, {0, 0, 0}, {1, 0, 0}); // north to +X
    down.turn(0.0f, 0.0f);
    EXPECT_EQ(down.pitchDegrees, -Camera::kMaxPitchDegrees);
    EXPECT_NEAR(down.yawDegrees, -90.0f, 1e-3f) << "the heading of the picture's up";
}

TEST(Camera, WhatIsNotACameraIsRefusedSayingWhich) {
    glm::mat4 pose(1.0f);
    pose[0][0] = 1.01f; // scaled
    EXPECT_TRUE(refusedSaying([&] { Camera::fromPose(pose, PoseConvention::OpenCv); }, "is not orthonormal"));
    pose = glm::mat4(1.0f);
    pose[1][0] = 0.05f; // sheared
    EXPECT_TRUE(refusedSaying([&] { Camera::fromPose(pose, PoseConvention::OpenGl); }, "is not orthonormal"));
    pose = glm::mat4(1.0f);
    pose[2][2] = -1.0f; // mirrored
    EXPECT_TRUE(refusedSaying([&] { Camera::fromPose(pose, PoseConvention::OpenCv); }, "mirrors (determinant -1)"));
    pose = glm::mat4(1.0f);
    pose[0][3] = 0.5f; // a projective last row
    EXPECT_TRUE(refusedSaying([&] { Camera::fromPose(pose, PoseConvention::OpenCv); },
                              "last row is (0.5, 0, 0, 1), not (0, 0, 0, 1)"));
    pose = glm::mat4(1.0f);
    pose[0][1] = 2e-5f; // within the tolerance: kept as given
    EXPECT_NO_THROW(Camera::fromPose(pose, PoseConvention::OpenCv));
    EXPECT_TRUE(refusedSaying([] { Camera::fromIntrinsics(Intrinsics{0.0f, 1.0f, 0.0f, 0.0f, 8, 8}); },
                              "fx must be positive, got 0"));
    EXPECT_TRUE(refusedSaying([] { Camera::fromIntrinsics(Intrinsics{1.0f, -2.0f, 0.0f, 0.0f, 8, 8}); },
                              "fy must be positive, got -2"));
    EXPECT_TRUE(refusedSaying(
        [] { Camera::fromIntrinsics(Intrinsics{1.0f, std::numeric_limits<float>::infinity(), 0.0f, 0.0f, 8, 8}); },
        "fy must be positive, got inf"));
    EXPECT_TRUE(refusedSaying([] { Camera::lookAt({1, 2, 3}, {1, 2, 3}); }, "must differ from the eye (1, 2, 3)"));
    EXPECT_TRUE(refusedSaying([] { Camera::lookAt({0, 5, 0}, {0, 0, 0}); },
                              "up (0, 1, 0) is parallel to the view direction (0, -1, 0)"));
}

// An off-centre principal point and non-square pixels: a square a fifth of a pixel across around
// a point projected by hand with K and the pose covers exactly the pixel OpenCV names, on the
// CPU renderer, in either convention.
TEST(Camera, APointLandsOnThePixelOpenCvNames) {
    const int w = 64, h = 48;
    const Intrinsics k{50.5f, 37.25f, 20.25f, 30.5f, w, h};
    std::mt19937 rng(11);
    for (const PoseConvention axes : {PoseConvention::OpenCv, PoseConvention::OpenGl})
        for (const glm::ivec2 want : {glm::ivec2(41, 12), glm::ivec2(3, 44), glm::ivec2(20, 30)}) {
            const glm::mat4 pose = randomPose(rng);
            const Camera camera = Camera::fromIntrinsics(k, pose, axes);
            // The square's corners at pixel (want +- 0.1) at depth 5, in OpenCV's camera axes.
            Model model;
            const double z = 5.0;
            for (const glm::dvec2 corner : {glm::dvec2(-0.1, -0.1), glm::dvec2(0.1, -0.1), glm::dvec2(0.1, 0.1),
                                            glm::dvec2(-0.1, 0.1)}) {
                const double u = want.x + corner.x, v = want.y + corner.y;
                const glm::dvec3 cv{(u - k.cx) * z / k.fx, (v - k.cy) * z / k.fy, z};
                const glm::dvec3 own = axes == PoseConvention::OpenCv ? cv : glm::dvec3(cv.x, -cv.y, -cv.z);
                const glm::dvec4 world = glm::dmat4(pose) * glm::dvec4(own, 1.0);
                model.mesh.px.push_back(float(world.x));
                model.mesh.py.push_back(float(world.y));
                model.mesh.pz.push_back(float(world.z));
                model.mesh.u.push_back(0.0f);
                model.mesh.v.push_back(0.0f);
            }
            // The corners three more times, unused: sixteen vertices, so the CPU's vertex stage
            // projects the drawn ones in its eight-lane path, not the scalar tail.
            for (int copy = 0; copy < 12; ++copy) {
                for (std::vector<float>* a : {&model.mesh.px, &model.mesh.py, &model.mesh.pz, &model.mesh.u,
                                              &model.mesh.v})
                    a->push_back((*a)[std::size_t(copy % 4)]);
            }
            model.mesh.indices = {0, 1, 2, 0, 2, 3};
            model.materials.push_back(Material{"white", glm::vec3(1.0f), -1});
            model.mesh.ranges.push_back({0, 2, 0});
            generateNormals(model.mesh);
            computeBounds(model.mesh);
            test::Frame frame(w, h);
            CpuRenderer cpu(1);
            test::drawWith(cpu, model, camera.view(float(w) / float(h)), RenderSettings{}, frame.view());
            std::vector<glm::ivec2> drawn;
            for (int y = 0; y < h; ++y)
                for (int x = 0; x < w; ++x)
                    if (frame.depth[std::size_t(y) * w + x] < 1.0f) drawn.push_back({x, y});
            ASSERT_EQ(drawn.size(), 1u) << "convention " << int(axes) << ", pixel " << want.x << "," << want.y;
            EXPECT_EQ(drawn[0], want) << "convention " << int(axes);
            EXPECT_NEAR(frame.depth[std::size_t(want.y) * w + want.x],
                        windowDepth(5.0f, camera.nearPlane, camera.farPlane), 1e-6f);
        }
}

} // namespace
} // namespace facet
