// Polygon triangulation: every triangle wound like the polygon and inside it, and together
// covering exactly its area, for convex, concave, repeated-corner and large-coordinate faces.
#include "asset/triangulate.h"

#include <gtest/gtest.h>

#include <cmath>

namespace facet {
namespace {

using Polygon = std::vector<glm::vec3>;

// Signed area of a polygon in the XY plane (positive counter-clockwise), shoelace formula.
double signedArea(const std::vector<glm::dvec2>& p) {
    double sum = 0.0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const glm::dvec2 a = p[i], b = p[(i + 1) % p.size()];
        sum += a.x * b.y - b.x * a.y;
    }
    return 0.5 * sum;
}

bool insidePolygon(const std::vector<glm::dvec2>& p, glm::dvec2 q) {
    bool inside = false;
    for (std::size_t i = 0, j = p.size() - 1; i < p.size(); j = i++)
        if ((p[i].y > q.y) != (p[j].y > q.y) && q.x < (p[j].x - p[i].x) * (q.y - p[i].y) / (p[j].y - p[i].y) + p[i].x)
            inside = !inside;
    return inside;
}

// Expresses a polygon of the plane through `origin` spanned by `ex`, `ey` in 3D, so the tests
// also cover polygons that do not lie in a coordinate plane.
Polygon embed(const std::vector<glm::dvec2>& p, glm::vec3 origin = {0, 0, 0}, glm::vec3 ex = {1, 0, 0},
              glm::vec3 ey = {0, 1, 0}) {
    Polygon out;
    for (const glm::dvec2 q : p) out.push_back(origin + float(q.x) * ex + float(q.y) * ey);
    return out;
}

// Triangulates `shape` (given in 2D) and checks: status Ok, `expected` triangles, each one
// wound like the polygon with its centroid inside it, and the areas summing to the polygon's.
void expectExactCover(const std::vector<glm::dvec2>& shape, std::size_t expected, const Polygon& corners) {
    std::vector<std::uint32_t> tris;
    ASSERT_EQ(triangulatePolygon(corners, tris), Triangulation::Ok);
    ASSERT_EQ(tris.size() % 3, 0u);
    EXPECT_EQ(tris.size() / 3, expected);
    const double area = signedArea(shape);
    double sum = 0.0;
    for (std::size_t t = 0; t < tris.size(); t += 3) {
        const std::vector<glm::dvec2> tri{shape[tris[t]], shape[tris[t + 1]], shape[tris[t + 2]]};
        const double a = signedArea(tri);
        EXPECT_GT(a * area, 0.0) << "triangle " << t / 3 << " is wound against the polygon";
        EXPECT_TRUE(insidePolygon(shape, (tri[0] + tri[1] + tri[2]) / 3.0)) << "triangle " << t / 3 << " lies outside";
        sum += a;
    }
    EXPECT_NEAR(sum, area, 1e-9 * std::max(1.0, std::fabs(area)));
}

void expectExactCover(const std::vector<glm::dvec2>& shape, std::size_t expected) {
    expectExactCover(shape, expected, embed(shape));
}

TEST(Triangulate, TrianglePassesThrough) {
    std::vector<std::uint32_t> tris;
    EXPECT_EQ(triangulatePolygon({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, tris), Triangulation::Ok);
    EXPECT_EQ(tris, (std::vector<std::uint32_t>{0, 1, 2}));
}

// Triangles 0 i i+1 for every i: a fan from the first corner.
std::vector<std::uint32_t> fanFromFirstCorner(std::uint32_t corners) {
    std::vector<std::uint32_t> fan;
    for (std::uint32_t i = 1; i + 1 < corners; ++i) fan.insert(fan.end(), {0, i, i + 1});
    return fan;
}

TEST(Triangulate, ConvexPolygonsBecomeFans) {
    expectExactCover({{0, 0}, {1, 0}, {1, 1}, {0, 1}}, 2);
    std::vector<glm::dvec2> hexagon;
    for (int i = 0; i < 6; ++i) hexagon.push_back({std::cos(i * M_PI / 3), std::sin(i * M_PI / 3)});
    expectExactCover(hexagon, 4);
    // Past kMaxEarClipCorners a convex polygon is cut as a fan from its first corner, which is
    // exact for it, so it is reported Ok.
    const auto n = std::uint32_t(kMaxEarClipCorners + 7);
    Polygon circle;
    for (std::uint32_t i = 0; i < n; ++i) {
        const double a = 2.0 * M_PI * i / n;
        circle.push_back({float(std::cos(a)), float(std::sin(a)), 0.0f});
    }
    std::vector<std::uint32_t> tris;
    EXPECT_EQ(triangulatePolygon(circle, tris), Triangulation::Ok);
    EXPECT_EQ(tris, fanFromFirstCorner(n));
}

TEST(Triangulate, ConcaveQuadSplitsAlongItsInnerDiagonal) {
    // A dart: only the diagonal from the reflex corner lies inside, 0-2 when that corner is
    // 2 and 1-3 when it is 1.
    expectExactCover({{0, 0}, {2, -1}, {1, 0}, {2, 1}}, 2);
    expectExactCover({{2, -1}, {1, 0}, {2, 1}, {0, 0}}, 2);
}

TEST(Triangulate, LShape) {
    expectExactCover({{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}, 4);
}

TEST(Triangulate, CShapeAndComb) {
    expectExactCover({{0, 0}, {3, 0}, {3, 1}, {1, 1}, {1, 2}, {3, 2}, {3, 3}, {0, 3}}, 6);
    // A comb with four teeth pointing up.
    std::vector<glm::dvec2> comb{{0, 0}, {7, 0}};
    for (int tooth = 3; tooth >= 0; --tooth) {
        const double x = 2.0 * tooth;
        comb.insert(comb.end(), {{x + 1, 3}, {x, 3}});
        if (tooth > 0) comb.insert(comb.end(), {{x, 1}, {x - 1, 1}});
    }
    // 16 corners, 12 triangles rather than 14: once the teeth are cut, corners on the line y = 1
    // become neighbours, and cutting such a collinear corner adds no (zero-area) triangle.
    expectExactCover(comb, 12);
}

TEST(Triangulate, ClockwiseAndTiltedPolygons) {
    std::vector<glm::dvec2> l{{0, 0}, {0, 2}, {1, 2}, {1, 1}, {2, 1}, {2, 0}}; // clockwise L
    expectExactCover(l, 4);
    // The same L in a tilted plane far from the origin (the issue-319 file sits near x = 8000).
    const glm::vec3 ex = glm::normalize(glm::vec3(1, 0, 1)), ey = glm::normalize(glm::vec3(-1, 2, 1));
    expectExactCover(l, 4, embed(l, {8219.5f, 6406.25f, 9.5f}, ex, ey));
}

TEST(Triangulate, RepeatedAndCollinearCornersAddNoTriangles) {
    // A square with its corner 2 written twice and a corner in the middle of an edge.
    std::vector<std::uint32_t> tris;
    const Polygon square{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {1, 1, 0}, {0.5f, 1, 0}, {0, 1, 0}};
    EXPECT_EQ(triangulatePolygon(square, tris), Triangulation::Ok);
    EXPECT_EQ(tris.size() / 3, 2u);
    double area = 0.0;
    for (std::size_t t = 0; t < tris.size(); t += 3) {
        const glm::vec3 a = square[tris[t]], b = square[tris[t + 1]], c = square[tris[t + 2]];
        area += 0.5 * glm::cross(b - a, c - a).z;
    }
    EXPECT_DOUBLE_EQ(area, 1.0);
    // The first corner repeated at the end (a closed ring written out).
    tris.clear();
    EXPECT_EQ(triangulatePolygon({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 0, 0}}, tris), Triangulation::Ok);
    EXPECT_EQ(tris.size(), 3u);
}

TEST(Triangulate, DegeneratePolygonsGiveNothing) {
    std::vector<std::uint32_t> tris;
    EXPECT_EQ(triangulatePolygon({{0, 0, 0}, {0, 0, 0}, {1, 0, 0}}, tris), Triangulation::Degenerate);
    EXPECT_EQ(triangulatePolygon({{0, 0, 0}, {1, 0, 0}, {1, 0, 0}, {0, 0, 0}}, tris), Triangulation::Degenerate);
    EXPECT_EQ(triangulatePolygon({{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}, {4, 0, 0}}, tris), Triangulation::Degenerate);
    EXPECT_EQ(triangulatePolygon({{0, 0, 0}, {1, 1, 1}}, tris), Triangulation::Degenerate);
    EXPECT_TRUE(tris.empty());
}

TEST(Triangulate, SelfIntersectingPolygonFallsBackToAFan) {
    // A zigzag crossing itself: at every corner that turns counter-clockwise, the triangle
    // with its neighbours holds another corner, so no ear can be cut. (A pentagram is no such
    // case: its corners lie on a circle, so no corner's triangle holds another.)
    const Polygon zigzag{{1, 0, 0}, {4, 3, 0}, {0, 3, 0}, {4, 2, 0}, {0, 2, 0}, {3, 4, 0}};
    std::vector<std::uint32_t> tris;
    // Reported as a fan, and cut as one: from the first corner, in order.
    EXPECT_EQ(triangulatePolygon(zigzag, tris), Triangulation::Fan);
    EXPECT_EQ(tris, fanFromFirstCorner(6));
}

} // namespace
} // namespace facet
