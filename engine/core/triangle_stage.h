// The per-vertex and per-triangle work between the vertex stage and the rasterizer, shared by
// both backends: classify each camera-space vertex against the clip planes (and project it
// when it is inside them all), then turn each mesh triangle into zero or more set-up screen
// triangles (culled, clipped into a convex polygon and fanned where needed). The CPU renderer
// runs these in chunk loops; the CUDA kernels run one vertex or one triangle per thread.
#pragma once

#include "core/frame_plan.h"
#include "core/instances.h"
#include "core/mesh.h"
#include "core/tiles.h"
#include "core/triangle_setup.h"
#include "core/vertex_color.h"

#include <cstdint>
#include <limits>
#include <type_traits>

namespace facet {

// A mesh as kernels see it: raw pointers to its structure-of-arrays attributes (host memory
// or device memory alike). u/v are null for a mesh without texture coordinates, nx/ny/nz for
// one without normals, cr/cg/cb for one without vertex colours.
struct MeshView {
    const float *px = nullptr, *py = nullptr, *pz = nullptr;
    const float *u = nullptr, *v = nullptr;
    const float *nx = nullptr, *ny = nullptr, *nz = nullptr;
    const float *cr = nullptr, *cg = nullptr, *cb = nullptr;
    const float *tx = nullptr, *ty = nullptr, *tz = nullptr, *tw = nullptr; // tangents: null without them
    const std::uint32_t* indices = nullptr; // three per triangle
    const MaterialRange* ranges = nullptr;  // sorted, covering every triangle
    std::uint32_t vertexCount = 0;
    std::uint32_t triangleCount = 0;
    std::uint32_t rangeCount = 0;
};

// A view of a host mesh (pointers into its vectors).
inline MeshView meshView(const Mesh& mesh) {
    MeshView m;
    m.px = mesh.px.data();
    m.py = mesh.py.data();
    m.pz = mesh.pz.data();
    if (mesh.hasTexCoords) {
        m.u = mesh.u.data();
        m.v = mesh.v.data();
    }
    if (mesh.nx.size() == mesh.px.size()) {
        m.nx = mesh.nx.data();
        m.ny = mesh.ny.data();
        m.nz = mesh.nz.data();
    }
    if (mesh.hasVertexColors()) {
        m.cr = mesh.cr.data();
        m.cg = mesh.cg.data();
        m.cb = mesh.cb.data();
    }
    if (mesh.hasTangents()) {
        m.tx = mesh.tx.data();
        m.ty = mesh.ty.data();
        m.tz = mesh.tz.data();
        m.tw = mesh.tw.data();
    }
    m.indices = mesh.indices.data();
    m.ranges = mesh.ranges.data();
    m.vertexCount = static_cast<std::uint32_t>(mesh.vertexCount());
    m.triangleCount = static_cast<std::uint32_t>(mesh.triangleCount());
    m.rangeCount = static_cast<std::uint32_t>(mesh.ranges.size());
    return m;
}

// The first range starting after triangle t, by bisection (the ranges rise).
FACET_HD std::uint32_t rangeAfter(const MeshView& mesh, std::uint32_t t) {
    std::uint32_t lo = 0, hi = mesh.rangeCount;
    while (lo < hi) {
        const std::uint32_t mid = lo + (hi - lo) / 2;
        if (mesh.ranges[mid].firstTriangle <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

// The material of triangle t: the last range starting at or before it (0 without ranges).
FACET_HD std::uint32_t triangleMaterial(const MeshView& mesh, std::uint32_t t) {
    const std::uint32_t after = rangeAfter(mesh, t);
    return after > 0 ? mesh.ranges[after - 1].material : 0u;
}

// triangleMaterial for triangles taken in rising order, as a CPU chunk sets them up: the range
// after the last triangle's is kept, and moves on only where a range starts. A bisection per
// triangle cost the CPU's set-up a mispredicted branch at each step, on a mesh of many ranges.
// The material and where the next range starts are kept too, so a triangle inside the range
// costs one comparison (looking the material up each time took the set-up 14 instructions and
// three jumps a triangle).
class RisingMaterials {
public:
    RisingMaterials(const MeshView& mesh, std::uint32_t first) : ranges_(mesh.ranges), count_(mesh.rangeCount) {
        enter(rangeAfter(mesh, first));
    }

    // triangleMaterial(mesh, t), for t not below the last t asked for (or `first`).
    std::uint32_t at(std::uint32_t t) {
        if (t >= nextStart_) {
            std::uint32_t after = after_;
            while (after < count_ && ranges_[after].firstTriangle <= t) ++after;
            enter(after);
        }
        return material_;
    }

private:
    // The ranges before `after` start at or before the triangles asked for.
    void enter(std::uint32_t after) {
        after_ = after;
        material_ = after > 0 ? ranges_[after - 1].material : 0u;
        nextStart_ = after < count_ ? ranges_[after].firstTriangle : std::numeric_limits<std::uint32_t>::max();
    }

    const MaterialRange* ranges_;
    std::uint32_t count_;
    std::uint32_t after_ = 0;     // the first range starting after the last triangle asked for
    std::uint32_t material_ = 0;  // the material of the range before it (0 without one)
    std::uint32_t nextStart_ = 0; // its first triangle (the largest value without one)
};

// Where a renderer's camera-space positions come from: its own vertex stage, or arrays the
// other backend's vertex stage filled, when the vertex and raster stages run on different
// sides (in the renderer's own memory: host arrays for the CPU, device arrays for the GPU).
struct CameraSpacePositions {
    const float *dx = nullptr, *dy = nullptr, *dz = nullptr; // null: the renderer computes them
};

// Everything the per-vertex and per-triangle work reads, besides the mesh.
struct TriangleStageInput {
    MeshView mesh;
    const float *dx, *dy, *dz;          // camera-space positions (vertex stage)
    const std::uint8_t* outside;        // per vertex: clip planes it is outside of, or kNonFiniteVertex
    const ScreenVertex* projected;      // per vertex: valid where outside == 0
    ClipPlanes planes;
    ViewParams view;
    int width, height;
    bool cullBackFaces;
    std::int32_t sampleReach; // sampleReach(RenderSettings::msaa): pixel bounds hold every sample (setupTriangle)
    // The instance these triangles belong to (core/instances.h); a model's one instance: 0, 0, false.
    std::uint32_t materialBase = 0;  // added to the mesh's material indices: the frame's material table
    std::uint32_t firstTriangle = 0; // the instance's first triangle in the frame's draw order
    bool mirrored = false;           // its pose is a mirror: each triangle's corners 1 and 2 swap
    // FramePlan::sideRecords: every set-up triangle keeps a side record (vertex_color.h), that of
    // a mesh without colours or tangents zero, as the frame's other meshes may have them.
    bool sideRecords = false;
};

// The triangle stage's input as `plan` sets it up, over the vertex stage's outputs.
inline TriangleStageInput triangleStageInput(const FramePlan& plan, const MeshView& mesh, const ViewParams& view,
                                             const float* dx, const float* dy, const float* dz,
                                             const std::uint8_t* outside, const ScreenVertex* projected) {
    return TriangleStageInput{mesh,       dx,          dy,            dz,          outside,       projected,
                              plan.planes, view,       plan.width,  plan.height,  plan.cullBack, plan.sampleReach,
                              0u,          0u,         false,       plan.sideRecords};
}

// The triangle stage's input for one instance: its mesh (with its normals and tangents in world
// space where it is posed), its view, and its slice of the frame's per-vertex arrays.
inline TriangleStageInput instanceStageInput(const FramePlan& plan, const MeshView& mesh, const InstanceDraw& draw,
                                             const float* dx, const float* dy, const float* dz,
                                             const std::uint8_t* outside, const ScreenVertex* projected) {
    const std::size_t first = draw.firstVertex;
    TriangleStageInput in = triangleStageInput(plan, mesh, draw.view, dx + first, dy + first, dz + first,
                                               outside + first, projected + first);
    in.materialBase = draw.materialBase;
    in.firstTriangle = draw.firstTriangle;
    in.mirrored = draw.mirrored;
    return in;
}

// Beside the five plane bits of outsideMask: a camera-space coordinate is NaN or infinite.
inline constexpr std::uint8_t kNonFiniteVertex = 1u << 5;

FACET_HD ClipVertex meshClipVertex(const MeshView& mesh, const float* dx, const float* dy, const float* dz,
                                   std::uint32_t i) {
    return ClipVertex{{dx[i], dy[i], dz[i]},
                      mesh.u ? glm::vec2(mesh.u[i], mesh.v[i]) : glm::vec2(0.0f),
                      mesh.nx ? glm::vec3(mesh.nx[i], mesh.ny[i], mesh.nz[i]) : glm::vec3(0.0f),
                      mesh.cr ? glm::vec3(mesh.cr[i], mesh.cg[i], mesh.cb[i]) : glm::vec3(1.0f),
                      mesh.tx ? glm::vec4(mesh.tx[i], mesh.ty[i], mesh.tz[i], mesh.tw[i]) : glm::vec4(0.0f)};
}

// Vertex i's clip classification and, inside every plane, its projection.
FACET_HD void classifyVertex(const MeshView& mesh, const float* dx, const float* dy, const float* dz,
                             const ClipPlanes& planes, const ViewParams& view, int width, int height,
                             std::uint8_t* outside, ScreenVertex* projected, std::uint32_t i) {
    const ClipVertex v = meshClipVertex(mesh, dx, dy, dz, i);
    if (!(isFinite(v.d.x) && isFinite(v.d.y) && isFinite(v.d.z))) {
        outside[i] = kNonFiniteVertex;
        return;
    }
    outside[i] = static_cast<std::uint8_t>(outsideMask(planes, v.d));
    if (outside[i] == 0) projected[i] = projectVertex(v, view, width, height);
}


// The mesh as the triangle stage reads it: tangents serve only the lit model's normal maps, so
// unless the frame reads them (FramePlan::tangents) they are dropped and a mesh keeps side
// records for its colours only.
inline MeshView triangleStageMesh(MeshView mesh, bool tangents) {
    if (!tangents) mesh.tx = mesh.ty = mesh.tz = mesh.tw = nullptr;
    return mesh;
}

// The default colour sink of setupMeshTriangleIn: the caller keeps no vertex colours, and the
// set-up has no colour code at all (so meshes without colours pay nothing for them).
struct NoColors {
    FACET_HD void operator()(const TriangleColors&) const {}
};

template <class Colors>
inline constexpr bool kKeepsColors = !std::is_same<std::decay_t<Colors>, NoColors>::value;

// What became of one mesh triangle.
struct TriangleOutcome {
    int drawn = 0;        // set-up triangles emitted (a clipped triangle may give up to 6)
    bool clipped = false; // crossed the near plane or the guard band
};

// Where setupMeshTriangleIn sets a triangle up: its record and, unless null, its attributes.
struct TriangleSlot {
    ScreenTriangle& tri;
    TriangleAttributes* attributes;
};

// Hands on a set-up triangle of mesh corners `corner`, all inside every plane: its side record
// to `colors` (where the frame keeps them), then the triangle to `emit` (see setupMeshTriangleIn).
template <class Emit, class Colors>
FACET_HD void emitInside(const TriangleStageInput& in, const std::uint32_t* corner, const TriangleSlot& place,
                         Emit&& emit, Colors&& colors) {
    if constexpr (kKeepsColors<Colors>) {
        if (in.sideRecords) {
            ClipVertex v[3];
            for (int k = 0; k < 3; ++k) v[k] = meshClipVertex(in.mesh, in.dx, in.dy, in.dz, corner[k]);
            colors(setupSideRecord(in.projected[corner[0]], in.projected[corner[1]], in.projected[corner[2]], v[0],
                                   v[1], v[2], in.mesh.cr != nullptr));
        }
    }
    emit(static_cast<const ScreenTriangle&>(place.tri), place.attributes);
}

// Mesh triangle t: culled (outside one plane, non-finite, back-facing, degenerate, covering no
// pixel centre) or emitted as set-up screen triangles, in a fixed order. Both backends draw
// exactly what this emits, in mesh order. Each triangle is set up in `slot()` (a TriangleSlot
// the caller owns: the attributes are kept where it gives them a place) and handed to
// `emit(const ScreenTriangle&, const TriangleAttributes*)` when it is drawn; the next triangle
// asks for a slot again. A caller that keeps the triangles gives out its own storage, so
// nothing is copied. With `gradients` false the emitted triangles lack their barycentric
// gradients (FP64 work a counting pass does not need); what is emitted is the same. In a frame
// that keeps side records (in.sideRecords), `colors(const TriangleColors&)` is handed each
// emitted triangle's side record just before `emit`; in others it is never called.
template <class Slot, class Emit, class Colors = NoColors>
FACET_HD TriangleOutcome setupMeshTriangleIn(const TriangleStageInput& in, std::uint32_t t, Slot&& slot, Emit&& emit,
                                             bool gradients = true, Colors&& colors = Colors{}) {
    TriangleOutcome outcome;
    const std::uint32_t* corner = in.mesh.indices + 3 * static_cast<std::size_t>(t);
    std::uint32_t swapped[3];
    if (in.mirrored) { // the winding the mesh meant, seen through a mirror
        swapped[0] = corner[0];
        swapped[1] = corner[2];
        swapped[2] = corner[1];
        corner = swapped;
    }
    const unsigned outAll = in.outside[corner[0]] & in.outside[corner[1]] & in.outside[corner[2]];
    const unsigned outAny = in.outside[corner[0]] | in.outside[corner[1]] | in.outside[corner[2]];
    if ((outAny & kNonFiniteVertex) != 0 || outAll != 0) return outcome; // nothing to draw
    if (outAny == 0) { // the common case: inside every plane, the projections are ready
        const TriangleSlot place = slot();
        if (setupTriangle(in.projected[corner[0]], in.projected[corner[1]], in.projected[corner[2]], in.cullBackFaces,
                          in.width, in.height, place.tri, gradients, in.sampleReach,
                          place.attributes) == SetupResult::Ok) {
            emitInside(in, corner, place, emit, colors);
            outcome.drawn = 1;
        }
        return outcome;
    }
    outcome.clipped = true;
    ClipVertex poly[kMaxClippedVertices], scratch[kMaxClippedVertices];
    for (int k = 0; k < 3; ++k) poly[k] = meshClipVertex(in.mesh, in.dx, in.dy, in.dz, corner[k]);
    const int count = clipPolygon(in.planes, outAny, poly, 3, scratch);
    if (count < 3) return outcome;
    // The clipped polygon is convex: a fan from its first vertex covers it exactly.
    const ScreenVertex first = projectVertex(poly[0], in.view, in.width, in.height);
    ScreenVertex previous = projectVertex(poly[1], in.view, in.width, in.height);
    for (int k = 2; k < count; ++k) {
        const ScreenVertex next = projectVertex(poly[k], in.view, in.width, in.height);
        const TriangleSlot place = slot();
        if (setupTriangle(first, previous, next, in.cullBackFaces, in.width, in.height, place.tri, gradients,
                          in.sampleReach, place.attributes) == SetupResult::Ok) {
            if constexpr (kKeepsColors<Colors>) {
                if (in.sideRecords)
                    colors(setupSideRecord(first, previous, next, poly[0], poly[k - 1], poly[k], in.mesh.cr != nullptr));
            }
            emit(static_cast<const ScreenTriangle&>(place.tri), place.attributes);
            ++outcome.drawn;
        }
        previous = next;
    }
    return outcome;
}

// A slot for setupMeshTriangleIn: one local triangle (and its attributes, where kept), set up
// again for each.
struct LocalTriangleSlot {
    ScreenTriangle tri;
    TriangleAttributes attributes;
    bool keepAttributes;
    FACET_HD TriangleSlot operator()() { return TriangleSlot{tri, keepAttributes ? &attributes : nullptr}; }
};

// setupMeshTriangleIn with the triangles set up in a local (for callers that copy them out),
// with their attributes where `attributes`.
template <class Emit, class Colors = NoColors>
FACET_HD TriangleOutcome setupMeshTriangle(const TriangleStageInput& in, std::uint32_t t, Emit&& emit,
                                           bool gradients = true, Colors&& colors = Colors{}, bool attributes = false) {
    LocalTriangleSlot slot; // not zeroed: the set-up fills what it emits
    slot.keepAttributes = attributes;
    return setupMeshTriangleIn(in, t, slot, emit, gradients, colors);
}

} // namespace facet
