// A triangle mesh as the pipeline consumes it: structure-of-arrays vertex attributes (one
// array per component, so vector code and coalesced kernels read them directly), triangle
// indices, and contiguous triangle ranges per material.
#pragma once

#include "core/bounds.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace facet {

struct MaterialRange {
    std::uint32_t firstTriangle = 0;
    std::uint32_t triangleCount = 0;
    std::uint32_t material = 0; // index into Model::materials
};

struct Mesh {
    std::vector<float> px, py, pz;     // positions
    std::vector<float> u, v;           // texture coordinates; 0 where the file has none
    std::vector<float> nx, ny, nz;     // unit normals; area-weighted where the file has none
    std::vector<float> cr, cg, cb;     // per-vertex colours in [0, 1]; empty when the file has none
    std::vector<float> tx, ty, tz, tw; // unit tangents (along +u) and handedness (+-1); empty but for bump mapping
    std::vector<std::uint32_t> indices; // three per triangle
    std::vector<MaterialRange> ranges;  // cover [0, triangleCount()) in order, no gaps
    bool hasTexCoords = false;          // some vertex carried a vt
    Bounds bounds;

    std::size_t vertexCount() const { return px.size(); }
    std::size_t triangleCount() const { return indices.size() / 3; }
    glm::vec3 position(std::size_t i) const { return {px[i], py[i], pz[i]}; }
    bool hasVertexColors() const { return !cr.empty() && cr.size() == px.size(); }
    bool hasTangents() const { return !tx.empty() && tx.size() == px.size(); }
};

// The unit vector along v, or nothing where v is zero or not finite. A v whose length is tiny (its
// squares subnormal: dividing by the rounded length gave normals of length 0.994, fuzz_stl and
// fuzz_glb found it) or overflows is scaled by its largest component first; every other v is
// divided by its length, so the normals of ordinary meshes keep their bits. Every normal facet
// makes unit, read or generated, goes through it.
std::optional<glm::vec3> unitVector(glm::vec3 v);

// Fills nx/ny/nz with area-weighted vertex normals (the sum of the unnormalised face normals
// cross(b - a, c - a) around each vertex). Vertices on no triangle get (0, 1, 0).
void generateNormals(Mesh& mesh);

// generateNormals for a mesh whose vertices are each on exactly one triangle, in order (vertex i
// on triangle i / 3, as STL's): the same normals, bit for bit, without the accumulation.
void generateFlatNormals(Mesh& mesh);

// generateFlatNormals's normals of triangles [first, end) alone, into nx/ny/nz already sized:
// ranges filled on threads of their own give the whole's bits.
void writeFlatNormals(Mesh& mesh, std::size_t first, std::size_t end);

// Fills tx/ty/tz/tw with per-vertex tangents for normal mapping, from the texture coordinates:
// each triangle's dP/du (and dP/dv, for the handedness) summed around its vertices, then made
// orthogonal to the vertex normal (Gram-Schmidt) and unit length; tw is +1 where dP/dv points
// along cross(n, t), -1 where the UVs are mirrored. A vertex whose triangles give no usable
// direction (no UV change) gets any unit vector orthogonal to its normal. Needs normals and UVs.
void generateTangents(Mesh& mesh);

// Throws facet::Error, naming `source`, unless the mesh is safe to draw: attribute arrays as
// long as the positions, whole triangles, every index naming a vertex, and material ranges in
// order, within the mesh and naming one of `materialCount` materials. The loaders guarantee
// all this; renderers check it for meshes built by hand.
void validateMesh(const Mesh& mesh, std::size_t materialCount, const std::string& source);

// validateMesh without its pass over the indices, for a renderer that checks them part by part
// (highestIndex and requireIndex on each part before it reads it) on the threads that read
// them: on one thread ahead of a frame, the pass over a million-triangle mesh's 12 MB of
// indices cost the CPU renderer 1-2% of the frame.
void validateMeshLayout(const Mesh& mesh, std::size_t materialCount, const std::string& source);

// The highest of `count` indices (0 for none).
std::uint32_t highestIndex(const std::uint32_t* indices, std::size_t count);

// Throws validateMesh's facet::Error unless `highest` (of some of the mesh's indices) names
// one of its `vertexCount` vertices.
void requireIndex(std::uint32_t highest, std::size_t vertexCount, const std::string& source);

// Recomputes mesh.bounds from the positions.
void computeBounds(Mesh& mesh);

// The bounds of vertices [first, end); merged in order (Bounds::merge), computeBounds's.
Bounds boundsOf(const Mesh& mesh, std::size_t first, std::size_t end);

} // namespace facet
