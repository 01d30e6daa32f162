#pragma once

#include "core/hd.h"

#include <limits>

namespace facet {

// Axis-aligned bounding box; empty until a point is added.
struct Bounds {
    glm::vec3 min{std::numeric_limits<float>::infinity()};
    glm::vec3 max{-std::numeric_limits<float>::infinity()};

    void extend(glm::vec3 p) {
        min = glm::min(min, p);
        max = glm::max(max, p);
    }
    // The bounds of this range's points followed by `later`'s: the very values extend() reaches
    // point by point (glm::min and max keep the earlier of equal values, -0 and +0 included).
    void merge(const Bounds& later) {
        min = glm::min(min, later.min);
        max = glm::max(max, later.max);
    }
    bool empty() const { return !(min.x <= max.x && min.y <= max.y && min.z <= max.z); }
    glm::vec3 center() const { return 0.5f * (min + max); }
    glm::vec3 size() const { return max - min; }
    float radius() const { return 0.5f * glm::length(size()); }
};

} // namespace facet
