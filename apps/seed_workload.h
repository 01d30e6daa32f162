// The seed's vertex workload, shared by facet-bench and facet-vertex-bench: float32 positions in
// [-50, 50]^3 (seed 42) as structure of arrays with room for the outputs, and the seed's camera:
// identity rotation, shift (0, 0, 10), focus 5.
#pragma once

#include "bench/project.h"

#include <cstdint>
#include <random>
#include <vector>

namespace facet {

// The seed's camera over n vertices (host or device arrays).
inline ProjectParams seedProjectParams(const float* px, const float* py, const float* pz, float* x, float* y, float* z,
                                       std::size_t n) {
    return {px, py, pz, x, y, z, static_cast<std::uint32_t>(n), glm::vec3(0.0f, 0.0f, 10.0f), glm::mat3(1.0f), 5.0f};
}

struct SeedVertices {
    std::vector<float> px, py, pz, x, y, z;
    explicit SeedVertices(std::size_t n) : px(n), py(n), pz(n), x(n), y(n), z(n) {
        std::mt19937 rng(42);
        std::uniform_real_distribution<float> pos(-50.0f, 50.0f);
        for (std::size_t i = 0; i < n; ++i) {
            px[i] = pos(rng);
            py[i] = pos(rng);
            pz[i] = pos(rng);
        }
    }
    std::size_t size() const { return px.size(); }
    ProjectParams params() {
        return seedProjectParams(px.data(), py.data(), pz.data(), x.data(), y.data(), z.data(), px.size());
    }
};

} // namespace facet
