#include "core/mesh.h"

#include "core/error.h"

#include <algorithm>

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

void validateMesh(const Mesh& mesh, std::size_t materialCount, const std::string& source) {
    const std::size_t n = mesh.vertexCount();
    const auto fail = [&](const std::string& what) { throw Error("mesh " + source + ": " + what); };
    if (mesh.py.size() != n || mesh.pz.size() != n) fail("position arrays of different lengths");
    if (mesh.hasTexCoords && (mesh.u.size() != n || mesh.v.size() != n)) fail("texture coordinates for some vertices only");
    if (!mesh.nx.empty() && (mesh.nx.size() != n || mesh.ny.size() != n || mesh.nz.size() != n))
        fail("normals for some vertices only");
    if (!mesh.cr.empty() && (mesh.cr.size() != n || mesh.cg.size() != n || mesh.cb.size() != n))
        fail("vertex colours for some vertices only");
    if (mesh.indices.size() % 3 != 0) fail(std::to_string(mesh.indices.size()) + " indices, not whole triangles");
    if (n > 0xFFFFFFFFu || mesh.triangleCount() > 0xFFFFFFFFu) fail("more than 2^32 - 1 vertices or triangles");
    std::uint32_t highest = 0;
    for (const std::uint32_t i : mesh.indices) highest = std::max(highest, i);
    if (!mesh.indices.empty() && highest >= n)
        fail("index " + std::to_string(highest) + " names no vertex (" + std::to_string(n) + " vertices)");
    std::size_t next = 0;
    for (const MaterialRange& r : mesh.ranges) {
        if (r.firstTriangle < next || std::size_t(r.firstTriangle) + r.triangleCount > mesh.triangleCount())
            fail("material ranges overlap, are out of order or reach past the last triangle");
        if (r.material >= std::max<std::size_t>(1, materialCount))
            fail("a material range names material " + std::to_string(r.material) + " of " +
                 std::to_string(materialCount));
        next = std::size_t(r.firstTriangle) + r.triangleCount;
    }
}

void computeBounds(Mesh& mesh) {
    mesh.bounds = Bounds{};
    for (std::size_t i = 0; i < mesh.vertexCount(); ++i) mesh.bounds.extend(mesh.position(i));
}

} // namespace facet
