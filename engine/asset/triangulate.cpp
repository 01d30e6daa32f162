#include "asset/triangulate.h"

#include <cmath>

namespace facet {

namespace {

struct Point2 {
    double x, y;
};

// Twice the signed area of (a, b, c): positive when they turn counter-clockwise.
double orient(Point2 a, Point2 b, Point2 c) { return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x); }

bool samePoint(Point2 a, Point2 b) { return a.x == b.x && a.y == b.y; }

// Newell's normal: robust for non-planar and concave polygons, zero only when the polygon has
// no area. Computed relative to the first corner so large coordinates keep their precision.
glm::dvec3 newellNormal(const std::vector<glm::vec3>& corners, const std::vector<std::uint32_t>& ring) {
    const glm::dvec3 origin(corners[ring[0]]);
    glm::dvec3 n(0.0);
    for (std::size_t i = 0; i < ring.size(); ++i) {
        const glm::dvec3 a = glm::dvec3(corners[ring[i]]) - origin;
        const glm::dvec3 b = glm::dvec3(corners[ring[(i + 1) % ring.size()]]) - origin;
        n.x += (a.y - b.y) * (a.z + b.z);
        n.y += (a.z - b.z) * (a.x + b.x);
        n.z += (a.x - b.x) * (a.y + b.y);
    }
    return n;
}

// A quad splits along diagonal 0-2 or 1-3, whichever leaves both halves wound like the quad
// (for a concave quad only one does). False when neither does: the quad is degenerate or a
// bow tie, and the general path decides.
bool splitQuad(const std::vector<glm::vec3>& p, std::vector<std::uint32_t>& triangles) {
    const glm::vec3 n = glm::cross(p[2] - p[0], p[3] - p[1]); // Newell's normal of a quad
    const auto facing = [&](int a, int b, int c) { return glm::dot(glm::cross(p[b] - p[a], p[c] - p[a]), n) > 0.0f; };
    if (facing(0, 1, 2) && facing(0, 2, 3)) {
        triangles.insert(triangles.end(), {0, 1, 2, 0, 2, 3});
        return true;
    }
    if (facing(1, 2, 3) && facing(1, 3, 0)) {
        triangles.insert(triangles.end(), {1, 2, 3, 1, 3, 0});
        return true;
    }
    return false;
}

// A fan from the first corner over the ring, skipping zero-area triangles. Ok when every
// corner turns counter-clockwise (the polygon is convex), Fan otherwise.
Triangulation fanOfLargePolygon(const std::vector<Point2>& pts, const std::vector<std::uint32_t>& ring,
                                std::vector<std::uint32_t>& triangles) {
    bool convex = true;
    for (std::size_t i = 0; i < ring.size() && convex; ++i)
        convex = orient(pts[ring[i]], pts[ring[(i + 1) % ring.size()]], pts[ring[(i + 2) % ring.size()]]) >= 0.0;
    for (std::size_t i = 1; i + 1 < ring.size(); ++i)
        if (orient(pts[ring[0]], pts[ring[i]], pts[ring[i + 1]]) != 0.0)
            triangles.insert(triangles.end(), {ring[0], ring[i], ring[i + 1]});
    return convex ? Triangulation::Ok : Triangulation::Fan;
}

// Ear clipping on the polygon projected onto its plane, wound counter-clockwise. `ring` holds
// the corners still to be cut; an ear is a convex corner whose triangle holds no other corner.
Triangulation clipEars(const std::vector<Point2>& pts, std::vector<std::uint32_t> ring,
                       std::vector<std::uint32_t>& triangles) {
    std::size_t k = 1; // the candidate ear tip; starting after each cut gives a fan on convex polygons
    while (ring.size() > 3) {
        bool cut = false;
        for (std::size_t tries = 0; tries < ring.size() && !cut; ++tries, k = (k + 1) % ring.size()) {
            const std::uint32_t ia = ring[(k + ring.size() - 1) % ring.size()], ib = ring[k],
                                ic = ring[(k + 1) % ring.size()];
            const Point2 a = pts[ia], b = pts[ib], c = pts[ic];
            const double turn = orient(a, b, c);
            if (turn < 0.0) continue; // reflex corner
            if (turn > 0.0) {
                bool empty = true;
                for (const std::uint32_t i : ring) {
                    const Point2 p = pts[i];
                    if (samePoint(p, a) || samePoint(p, b) || samePoint(p, c)) continue;
                    if (orient(a, b, p) >= 0.0 && orient(b, c, p) >= 0.0 && orient(c, a, p) >= 0.0) {
                        empty = false;
                        break;
                    }
                }
                if (!empty) continue;
                triangles.insert(triangles.end(), {ia, ib, ic});
            }
            // A collinear corner (turn == 0) is cut without a triangle: it adds no area.
            ring.erase(ring.begin() + std::ptrdiff_t(k));
            if (k >= ring.size()) k = 0;
            cut = true;
        }
        if (!cut) {
            for (std::size_t i = 1; i + 1 < ring.size(); ++i) triangles.insert(triangles.end(), {ring[0], ring[i], ring[i + 1]});
            return Triangulation::Fan;
        }
    }
    if (orient(pts[ring[0]], pts[ring[1]], pts[ring[2]]) != 0.0) triangles.insert(triangles.end(), {ring[0], ring[1], ring[2]});
    return Triangulation::Ok;
}

} // namespace

Triangulation triangulatePolygon(const std::vector<glm::vec3>& corners, std::vector<std::uint32_t>& triangles) {
    const std::size_t n = corners.size();
    if (n == 3) {
        if (corners[0] == corners[1] || corners[1] == corners[2] || corners[2] == corners[0]) return Triangulation::Degenerate;
        triangles.insert(triangles.end(), {0, 1, 2});
        return Triangulation::Ok;
    }
    if (n == 4 && splitQuad(corners, triangles)) return Triangulation::Ok;

    // Drop corners that repeat their predecessor (Meshlab writes such n-gons).
    std::vector<std::uint32_t> ring;
    ring.reserve(n);
    for (std::uint32_t i = 0; i < n; ++i)
        if (ring.empty() || corners[i] != corners[ring.back()]) ring.push_back(i);
    while (ring.size() > 1 && corners[ring.back()] == corners[ring.front()]) ring.pop_back();
    if (ring.size() < 3) return Triangulation::Degenerate;

    const glm::dvec3 normal = newellNormal(corners, ring);
    const glm::dvec3 mag = glm::abs(normal);
    if (mag.x == 0.0 && mag.y == 0.0 && mag.z == 0.0) return Triangulation::Degenerate;

    // Project along the normal's largest axis, choosing the two remaining axes in the order that
    // makes the polygon counter-clockwise.
    const int axis = (mag.x >= mag.y && mag.x >= mag.z) ? 0 : (mag.y >= mag.z ? 1 : 2);
    int ux = (axis + 1) % 3, uy = (axis + 2) % 3;
    if (normal[axis] < 0.0) std::swap(ux, uy);
    const glm::dvec3 origin(corners[ring[0]]);
    std::vector<Point2> pts(n);
    for (const std::uint32_t i : ring) {
        const glm::dvec3 p = glm::dvec3(corners[i]) - origin;
        pts[i] = {p[ux], p[uy]};
    }
    if (ring.size() > kMaxEarClipCorners) return fanOfLargePolygon(pts, ring, triangles);
    return clipEars(pts, std::move(ring), triangles);
}

} // namespace facet
