#include "core/mesh.h"

#include "core/error.h"

#include <algorithm>

#include <cmath>

namespace facet {

std::optional<glm::vec3> unitVector(glm::vec3 v) {
    const bool finite = std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
    const float len = glm::length(v);
    const float largest = std::max(std::fabs(v.x), std::max(std::fabs(v.y), std::fabs(v.z)));
    if (finite && len > 1e-15f && std::isfinite(len)) return v / len;
    if (finite && largest > 0.0f) return glm::normalize(v / largest);
    return std::nullopt;
}

namespace {

// A vertex's normal from the sum of its faces' normals; huge triangles overflow to inf or NaN
// (inf - inf): no direction to give, so (0, 1, 0).
glm::vec3 unitNormal(glm::vec3 s) { return unitVector(s).value_or(glm::vec3(0.0f, 1.0f, 0.0f)); }

// |cross| is twice the triangle's area, so summing it weights each face by its area.
glm::vec3 faceNormal(const Mesh& mesh, std::uint32_t ia, std::uint32_t ib, std::uint32_t ic) {
    const glm::vec3 a = mesh.position(ia), b = mesh.position(ib), c = mesh.position(ic);
    return glm::cross(b - a, c - a);
}

} // namespace

void generateNormals(Mesh& mesh) {
    const std::size_t n = mesh.vertexCount();
    std::vector<glm::vec3> sum(n, glm::vec3(0.0f));
    for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
        const std::uint32_t ia = mesh.indices[3 * t], ib = mesh.indices[3 * t + 1], ic = mesh.indices[3 * t + 2];
        const glm::vec3 face = faceNormal(mesh, ia, ib, ic);
        sum[ia] += face;
        sum[ib] += face;
        sum[ic] += face;
    }
    mesh.nx.resize(n);
    mesh.ny.resize(n);
    mesh.nz.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const glm::vec3 unit = unitNormal(sum[i]);
        mesh.nx[i] = unit.x;
        mesh.ny[i] = unit.y;
        mesh.nz[i] = unit.z;
    }
}

void generateFlatNormals(Mesh& mesh) {
    const std::size_t n = mesh.vertexCount();
    if (n != mesh.indices.size()) throw Error("generateFlatNormals: a mesh whose vertices are each on one triangle");
    mesh.nx.resize(n);
    mesh.ny.resize(n);
    mesh.nz.resize(n);
    writeFlatNormals(mesh, 0, n / 3);
}

void writeFlatNormals(Mesh& mesh, std::size_t first, std::size_t end) {
    for (std::size_t t = first; t < end; ++t) {
        const auto i = static_cast<std::uint32_t>(3 * t);
        // The one face added to a zero sum, as generateNormals does (which makes -0 into +0).
        const glm::vec3 unit = unitNormal(glm::vec3(0.0f) + faceNormal(mesh, i, i + 1, i + 2));
        for (std::size_t k = 0; k < 3; ++k) {
            mesh.nx[3 * t + k] = unit.x;
            mesh.ny[3 * t + k] = unit.y;
            mesh.nz[3 * t + k] = unit.z;
        }
    }
}

namespace {

// A unit vector orthogonal to the unit n: n crossed with the axis least along it.
glm::vec3 anyOrthogonal(glm::vec3 n) {
    const glm::vec3 a = glm::abs(n);
    const glm::vec3 axis = a.x <= a.y && a.x <= a.z ? glm::vec3(1, 0, 0) : a.y <= a.z ? glm::vec3(0, 1, 0) : glm::vec3(0, 0, 1);
    return glm::normalize(glm::cross(n, axis));
}

} // namespace

void generateTangents(Mesh& mesh) {
    const std::size_t n = mesh.vertexCount();
    std::vector<glm::vec3> sumU(n, glm::vec3(0.0f)), sumV(n, glm::vec3(0.0f));
    for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
        const std::uint32_t i[3] = {mesh.indices[3 * t], mesh.indices[3 * t + 1], mesh.indices[3 * t + 2]};
        const glm::vec3 e1 = mesh.position(i[1]) - mesh.position(i[0]), e2 = mesh.position(i[2]) - mesh.position(i[0]);
        const float du1 = mesh.u[i[1]] - mesh.u[i[0]], dv1 = mesh.v[i[1]] - mesh.v[i[0]];
        const float du2 = mesh.u[i[2]] - mesh.u[i[0]], dv2 = mesh.v[i[2]] - mesh.v[i[0]];
        // e = du dP/du + dv dP/dv for both edges, solved for the two derivatives.
        const float det = du1 * dv2 - du2 * dv1;
        if (det == 0.0f || !std::isfinite(det)) continue; // no UV area: no direction to give
        const glm::vec3 dPdu = (e1 * dv2 - e2 * dv1) / det, dPdv = (e2 * du1 - e1 * du2) / det;
        if (!std::isfinite(glm::dot(dPdu, dPdu)) || !std::isfinite(glm::dot(dPdv, dPdv))) continue;
        for (const std::uint32_t k : i) {
            sumU[k] += dPdu;
            sumV[k] += dPdv;
        }
    }
    for (std::vector<float>* a : {&mesh.tx, &mesh.ty, &mesh.tz, &mesh.tw}) a->assign(n, 0.0f);
    for (std::size_t k = 0; k < n; ++k) {
        const glm::vec3 unitN = unitNormal({mesh.nx[k], mesh.ny[k], mesh.nz[k]});
        const glm::vec3 along = sumU[k] - unitN * glm::dot(unitN, sumU[k]);
        const glm::vec3 t = unitVector(along).value_or(anyOrthogonal(unitN));
        mesh.tx[k] = t.x;
        mesh.ty[k] = t.y;
        mesh.tz[k] = t.z;
        mesh.tw[k] = glm::dot(glm::cross(unitN, t), sumV[k]) < 0.0f ? -1.0f : 1.0f;
    }
}

void validateMesh(const Mesh& mesh, std::size_t materialCount, const std::string& source) {
    validateMeshLayout(mesh, materialCount, source);
    if (!mesh.indices.empty())
        requireIndex(highestIndex(mesh.indices.data(), mesh.indices.size()), mesh.vertexCount(), source);
}

std::uint32_t highestIndex(const std::uint32_t* indices, std::size_t count) {
    std::uint32_t highest = 0;
    for (std::size_t i = 0; i < count; ++i) highest = std::max(highest, indices[i]);
    return highest;
}

void requireIndex(std::uint32_t highest, std::size_t vertexCount, const std::string& source) {
    if (highest >= vertexCount)
        throw Error("mesh " + source + ": index " + std::to_string(highest) + " names no vertex (" +
                    std::to_string(vertexCount) + " vertices)");
}

void validateMeshLayout(const Mesh& mesh, std::size_t materialCount, const std::string& source) {
    const std::size_t n = mesh.vertexCount();
    const auto fail = [&](const std::string& what) { throw Error("mesh " + source + ": " + what); };
    if (mesh.py.size() != n || mesh.pz.size() != n) fail("position arrays of different lengths");
    if (mesh.hasTexCoords && (mesh.u.size() != n || mesh.v.size() != n)) fail("texture coordinates for some vertices only");
    if (!mesh.nx.empty() && (mesh.nx.size() != n || mesh.ny.size() != n || mesh.nz.size() != n))
        fail("normals for some vertices only");
    if (!mesh.cr.empty() && (mesh.cr.size() != n || mesh.cg.size() != n || mesh.cb.size() != n))
        fail("vertex colours for some vertices only");
    if (!mesh.tx.empty() && (mesh.tx.size() != n || mesh.ty.size() != n || mesh.tz.size() != n || mesh.tw.size() != n))
        fail("tangents for some vertices only");
    if (mesh.indices.size() % 3 != 0) fail(std::to_string(mesh.indices.size()) + " indices, not whole triangles");
    if (n > 0xFFFFFFFFu || mesh.triangleCount() > 0xFFFFFFFFu) fail("more than 2^32 - 1 vertices or triangles");
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

void computeBounds(Mesh& mesh) { mesh.bounds = boundsOf(mesh, 0, mesh.vertexCount()); }

Bounds boundsOf(const Mesh& mesh, std::size_t first, std::size_t end) {
    Bounds bounds;
    for (std::size_t i = first; i < end; ++i) bounds.extend(mesh.position(i));
    return bounds;
}

} // namespace facet
