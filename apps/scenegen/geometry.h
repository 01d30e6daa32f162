// Procedural meshes for facet-scenegen. Every surface is a grid of quads over a parametric
// patch, wound so the front (counter-clockwise) side faces out of the solid, with exactly one
// texture coordinate per vertex so an OBJ face can read "f a/a b/b c/c d/d".
#pragma once

#include "core/hd.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace facet::scenegen {

inline constexpr float kPi = 3.14159265358979323846f;

// The fourth corner of a triangle, which has none.
inline constexpr std::uint32_t kNoCorner = 0xffffffffu;

struct SurfacePoint {
    glm::vec3 position;
    glm::vec2 uv;
};

// One OBJ object: its own vertices (0-based here; the writer offsets them) and one material.
struct Object {
    std::string name;
    std::string material;
    std::vector<glm::vec3> positions;
    std::vector<glm::vec2> uvs;                         // one per position
    std::vector<std::array<std::uint32_t, 4>> faces;    // quads, or triangles ending in kNoCorner

    std::size_t triangleCount() const {
        std::size_t n = 0;
        for (const auto& f : faces) n += f[3] == kNoCorner ? 1 : 2;
        return n;
    }
};

// An object's OBJ "vt" lines (a ten-thousandth) and "f a/a b/b ..." lines, its vertices
// numbered from `first`; number(out, value, decimals) appends a number.
template <class Number>
void appendUvsAndFaces(std::string& out, const Object& o, std::size_t first, Number number) {
    for (const glm::vec2& uv : o.uvs) {
        out += "vt ";
        number(out, uv.x, 4);
        out += ' ';
        number(out, uv.y, 4);
        out += '\n';
    }
    for (const auto& face : o.faces) {
        out += 'f';
        for (std::uint32_t corner : face) {
            if (corner == kNoCorner) break;
            const std::string index = std::to_string(first + corner);
            out += ' ' + index + '/' + index;
        }
        out += '\n';
    }
}

// Samples surface(s, t) on a (cols + 1) x (rows + 1) grid over [0, 1]^2; the front of each quad
// is the side ds x dt points to. A first or last row that collapses to one point (a sphere's
// pole, a disc's centre) becomes a ring of triangles instead, so no triangle is degenerate; the
// pole gets one vertex per column, sampled mid-column so each triangle's u stays centred.
template <class Surface>
void addGrid(Object& object, int cols, int rows, const Surface& surface) {
    const auto sample = [&](float i, int j) { return surface(i / float(cols), float(j) / float(rows)); };
    const auto isPole = [&](int j) {
        const glm::vec3 first = sample(0.0f, j).position;
        for (int i = 1; i <= cols; ++i)
            if (glm::distance(sample(float(i), j).position, first) > 1e-5f) return false;
        return true;
    };
    const bool firstIsPole = isPole(0), lastIsPole = isPole(rows);

    std::vector<std::uint32_t> rowStart(std::size_t(rows) + 1);
    for (int j = 0; j <= rows; ++j) {
        rowStart[std::size_t(j)] = static_cast<std::uint32_t>(object.positions.size());
        const bool pole = (j == 0 && firstIsPole) || (j == rows && lastIsPole);
        for (int i = 0; i < (pole ? cols : cols + 1); ++i) {
            const SurfacePoint p = sample(float(i) + (pole ? 0.5f : 0.0f), j);
            object.positions.push_back(p.position);
            object.uvs.push_back(p.uv);
        }
    }
    for (int j = 0; j < rows; ++j) {
        for (int i = 0; i < cols; ++i) {
            const std::uint32_t a = rowStart[std::size_t(j)] + std::uint32_t(i), b = a + 1;
            const std::uint32_t d = rowStart[std::size_t(j) + 1] + std::uint32_t(i), c = d + 1;
            if (j == 0 && firstIsPole) object.faces.push_back({a, c, d, kNoCorner});
            else if (j == rows - 1 && lastIsPole) object.faces.push_back({a, b, d, kNoCorner});
            else object.faces.push_back({a, b, c, d});
        }
    }
}

// A polyline in the (radius, height) half-plane, walked at constant speed: at(t) for t in [0, 1]
// is the point a fraction t of the way along it, so evenly spaced samples keep texels square.
class Profile {
public:
    explicit Profile(std::vector<glm::vec2> points) : points_(std::move(points)), lengths_(points_.size(), 0.0f) {
        for (std::size_t k = 1; k < points_.size(); ++k)
            lengths_[k] = lengths_[k - 1] + glm::distance(points_[k - 1], points_[k]);
    }

    float length() const { return lengths_.back(); }

    glm::vec2 at(float t) const {
        const float target = std::clamp(t, 0.0f, 1.0f) * length();
        const auto next = std::upper_bound(lengths_.begin() + 1, lengths_.end() - 1, target);
        const auto k = static_cast<std::size_t>(next - lengths_.begin());
        const float span = lengths_[k] - lengths_[k - 1];
        const float f = span > 0.0f ? (target - lengths_[k - 1]) / span : 0.0f;
        return glm::mix(points_[k - 1], points_[k], f);
    }

private:
    std::vector<glm::vec2> points_;
    std::vector<float> lengths_; // arc length from the first point to each point
};

// A surface of revolution about +y: u runs once around (counter-clockwise seen from above), v
// along the profile. Fronts face out when the profile climbs the outside of the solid (for a
// closed solid: from the bottom centre out, up the outside, and back in over the top).
inline void addLathe(Object& object, const Profile& profile, int around, int along) {
    addGrid(object, around, along, [&](float s, float t) {
        const glm::vec2 rh = profile.at(t);
        const float angle = s < 1.0f ? 2.0f * kPi * s : 0.0f; // the seam column closes exactly
        return SurfacePoint{{rh.x * std::cos(angle), rh.y, -rh.x * std::sin(angle)}, {s, t}};
    });
}

// A circle of radius r as a closed profile's points, from angle a0 to a1 (radians, 0 = +radius
// axis, counter-clockwise towards +height), centred at c.
inline void appendArc(std::vector<glm::vec2>& points, glm::vec2 c, float r, float a0, float a1, int steps) {
    for (int k = 0; k <= steps; ++k) {
        const float a = a0 + (a1 - a0) * float(k) / float(steps);
        points.push_back(c + r * glm::vec2(std::cos(a), std::sin(a)));
    }
}

// The unit sphere's meridian, south pole to north pole.
inline Profile sphereProfile() {
    std::vector<glm::vec2> points;
    appendArc(points, {0.0f, 0.0f}, 1.0f, -0.5f * kPi, 0.5f * kPi, 256);
    points.front().x = points.back().x = 0.0f; // exact poles, so the grid sees them collapse
    return Profile(std::move(points));
}

// The six faces of the cube [-1, 1]^3 as grids carried through `shape`, an orientation-keeping
// map, so boxes, planks and twisted columns share one routine. cells[k] counts the grid cells
// along axis k; uvRepeat[k] is how many times the texture repeats along it. On the four sides v
// runs up +y.
template <class Shape>
void addDeformedCube(Object& object, glm::ivec3 cells, glm::vec3 uvRepeat, const Shape& shape) {
    struct CubeFace {
        glm::vec3 normal, u, v; // u x v = normal, so ds x dt faces out
    };
    static const CubeFace faces[] = {
        {{1, 0, 0}, {0, 0, -1}, {0, 1, 0}}, {{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}},
        {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}},  {{0, 0, -1}, {-1, 0, 0}, {0, 1, 0}},
        {{0, 1, 0}, {1, 0, 0}, {0, 0, -1}}, {{0, -1, 0}, {1, 0, 0}, {0, 0, 1}},
    };
    const auto axisOf = [](glm::vec3 direction) {
        return direction.x != 0.0f ? 0 : direction.y != 0.0f ? 1 : 2;
    };
    // A grid fraction as a cube coordinate in [-1, 1], rebuilt from the grid index as
    // (2i - n) / n: that is exactly symmetric, so an edge two faces share comes out
    // bit-identical from both, whichever way each walks it, and stays watertight once rounded.
    const auto cubeCoordinate = [](float fraction, int n) {
        const long i = std::lround(fraction * float(n));
        return float(2 * i - n) / float(n);
    };
    for (const CubeFace& f : faces) {
        const int ua = axisOf(f.u), va = axisOf(f.v);
        addGrid(object, cells[ua], cells[va], [&](float s, float t) {
            const glm::vec3 p = f.normal + cubeCoordinate(s, cells[ua]) * f.u + cubeCoordinate(t, cells[va]) * f.v;
            return SurfacePoint{shape(p), {s * uvRepeat[ua], t * uvRepeat[va]}};
        });
    }
}

// Scales texture coordinates, for textures meant to repeat across a surface.
inline void repeatUv(Object& object, glm::vec2 repeat) {
    for (glm::vec2& uv : object.uvs) uv *= repeat;
}

// Turns an object about +y by `degrees` (counter-clockwise seen from above), then moves it.
inline void place(Object& object, float degrees, glm::vec3 offset) {
    const float a = degrees * kPi / 180.0f, c = std::cos(a), s = std::sin(a);
    for (glm::vec3& p : object.positions) p = glm::vec3(c * p.x + s * p.z, p.y, -s * p.x + c * p.z) + offset;
}

} // namespace facet::scenegen
