// Polygon triangulation for OBJ faces: triangles pass through, quads split along a diagonal
// that lies inside them, and larger or awkward polygons go through ear clipping in the
// polygon's own plane, which handles convex and simple concave polygons.
#pragma once

#include "core/hd.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace facet {

// Ear clipping costs O(n^2) per polygon; above this many corners a polygon is cut as a fan,
// which is exact when it is convex and reported (Fan) otherwise, so a 100k-corner face in a
// small file cannot stall the loader.
inline constexpr std::size_t kMaxEarClipCorners = 4096;

enum class Triangulation {
    Ok,         // triangles cover the polygon exactly
    Fan,        // no ear found (self-intersecting polygon), or a concave polygon of more than
                // kMaxEarClipCorners corners: fell back to a fan from the first corner
    Degenerate, // fewer than 3 distinct corners, or all corners on one line: nothing appended
};

// Appends the triangles of the polygon `corners` (in order, either winding) to `triangles` as
// triples of indices into `corners`, each wound like the polygon. Repeated corners and
// zero-area ears (collinear corners) produce no triangle, so an n-gon may give fewer than
// n - 2 triangles.
Triangulation triangulatePolygon(const std::vector<glm::vec3>& corners, std::vector<std::uint32_t>& triangles);

} // namespace facet
