#include "core/mesh.h"

#include <cmath>

namespace facet {

void generateNormals(Mesh& mesh) {
    const std::size_t n = mesh.vertexCount();
    std::vector<glm::vec3> sum(n, glm::vec3(0.0f));
    for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
        const std::uint32_t ia = mesh.indices[3 * t], ib = mesh.indices[3 * t + 1], ic = mesh.indices[3 * t + 2];
        const glm::vec3 a = mesh.position(ia), b = mesh.position(ib), c = mesh.position(ic);
        // |cross| is twice the triangle's area, so summing it weights each face by its area.
        const glm::vec3 face = glm::cross(b - a, c - a);
        sum[ia] += face;
        sum[ib] += face;
        sum[ic] += face;
    }
    mesh.nx.resize(n);
    mesh.ny.resize(n);
    mesh.nz.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const float len = glm::length(sum[i]);
        const glm::vec3 unit = (len > 0.0f && std::isfinite(len)) ? sum[i] / len : glm::vec3(0.0f, 1.0f, 0.0f);
        mesh.nx[i] = unit.x;
        mesh.ny[i] = unit.y;
        mesh.nz[i] = unit.z;
    }
}

void computeBounds(Mesh& mesh) {
    mesh.bounds = Bounds{};
    for (std::size_t i = 0; i < mesh.vertexCount(); ++i) mesh.bounds.extend(mesh.position(i));
}

} // namespace facet
