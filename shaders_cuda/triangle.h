// The CUDA pipeline's triangle stage (see kernels.h), beside the CPU's (engine/cpu/triangle/):
// triangleCount, then triangleWrite, each one thread per mesh triangle.
#pragma once

#include "core/tiles.h"
#include "core/triangle_stage.h"
#include "shaders_cuda/vertex.h"

#include <cuda/atomic>

#include <cstdint>

namespace facet {

// Counted by triangleWrite: mesh triangles clipped, and mesh triangles that drew nothing.
struct TriangleCounters {
    std::uint32_t clipped;
    std::uint32_t culled;
};

FACET_HD void atomicIncrement(std::uint32_t& counter) {
    cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device>(counter).fetch_add(1u, cuda::std::memory_order_relaxed);
}

// ---- 2. triangleCount -----------------------------------------------------------------------
// A mesh triangle's set-up triangles and bin entries, as triangleCount counts them ...
struct TriangleCounts {
    std::uint32_t triangles, entries;
};

// ... and their exclusive scan, both in one: each mesh triangle's first slot and first bin
// entry, in 64 bits (their sums need not fit 32; the totals are checked before use). One scan
// of pairs, not one scan each: a cub scan is two launches (see the GPU cost model's fixed costs).
struct TriangleOffsets {
    std::uint64_t triangles, entries;

    TriangleOffsets() = default; // trivial: TriangleOffsets{} is zero (the scans' initial value)
    FACET_HD TriangleOffsets(std::uint64_t t, std::uint64_t e) : triangles(t), entries(e) {}
    // A count is an offset's increment (the scan reads counts as offsets: cub's accumulator).
    FACET_HD TriangleOffsets(const TriangleCounts& c) : triangles(c.triangles), entries(c.entries) {}
};

FACET_HD TriangleOffsets operator+(const TriangleOffsets& a, const TriangleOffsets& b) {
    return TriangleOffsets(a.triangles + b.triangles, a.entries + b.entries);
}

// The instance holding frame triangle t.
FACET_HD const TriangleStageInput& instanceOfTriangle(const InstanceStage* instances, std::uint32_t count,
                                                      std::uint32_t t) {
    return instances[instanceHolding(count, t, [&](std::uint32_t k) { return instances[k].in.firstTriangle; })].in;
}

struct TriangleCountParams {
    const InstanceStage* instances; // the drawn instances, their first triangles rising
    std::uint32_t instanceCount;
    std::uint32_t triangleCount;    // the drawn instances' triangles together
    TileGrid grid;
    TriangleCounts* counts;    // per mesh triangle, and one more for the scan's total (read, not summed: set to 0)
    std::uint32_t* tileCount;  // triangleWrite's counters, set to 0 here: tileSlots per-tile counts ...
    std::uint32_t tileSlots;
    TriangleCounters* counters; // ... and the clip and cull counters
};

// The threads triangleCount runs: one per mesh triangle, and enough for the counts it zeroes.
FACET_HD std::uint32_t triangleCountThreads(std::uint32_t triangles, std::uint32_t tileSlots) {
    return triangles + 1 > tileSlots ? triangles + 1 : tileSlots;
}

// The counts the scans and triangleWrite start from, zeroed by the count kernel's threads
// rather than by a memset each: the GPU cost model put launches (about 4 us each) and round
// trips at nearly half the default scene's frame on an RTX 4090, and four launches were these.
FACET_HD void zeroCounts(const TriangleCountParams& p, std::uint32_t i) {
    if (i < p.tileSlots) p.tileCount[i] = 0;
    if (i == 0) *p.counters = TriangleCounters{0, 0};
    if (i == p.triangleCount) p.counts[i] = TriangleCounts{0, 0};
}

FACET_HD void triangleCountThread(const TriangleCountParams& p, std::uint32_t t) {
    zeroCounts(p, t);
    if (t >= p.triangleCount) return;
    const TriangleStageInput& in = instanceOfTriangle(p.instances, p.instanceCount, t);
    std::uint32_t entries = 0;
    const TriangleOutcome outcome = setupMeshTriangle(
        in, t - in.firstTriangle,
        [&](const ScreenTriangle& tri, const TriangleAttributes*) {
            entries += static_cast<std::uint32_t>(tileSpan(p.grid, tri.minX, tri.minY, tri.maxX, tri.maxY).count());
        },
        false); // counting needs no barycentric gradients
    p.counts[t] = TriangleCounts{static_cast<std::uint32_t>(outcome.drawn), entries};
}

// ---- 3. triangleWrite -----------------------------------------------------------------------
struct TriangleWriteParams {
    const InstanceStage* instances; // as TriangleCountParams
    std::uint32_t instanceCount;
    std::uint32_t triangleCount;
    TileGrid grid;
    const TriangleOffsets* offsets;   // exclusive scan of triangleCount's counts (totals checked to fit 32 bits)
    ScreenTriangle* triangles;        // set-up triangles, in draw order
    TriangleAttributes* triangleAttributes; // of each; null where no material's shading reads them
    std::uint32_t* triangleMaterials; // the material of each
    std::uint32_t* entryTile;         // bin entries: tile ...
    std::uint32_t* entryTriangle;     // ... and set-up triangle
    std::uint32_t* tileCount;         // entries per tile (zeroed by triangleCount)
    TriangleCounters* counters;       // likewise
    TriangleColors* triangleColors;   // vertex colours, tangents of each; null for a mesh without them
    std::uint32_t* triangleSources;   // the frame triangle of each; null unless the view needs them
};

FACET_HD void triangleWriteThread(const TriangleWriteParams& p, std::uint32_t t) {
    if (t >= p.triangleCount) return;
    const TriangleStageInput& in = instanceOfTriangle(p.instances, p.instanceCount, t);
    const std::uint32_t local = t - in.firstTriangle;
    const std::uint32_t material = in.materialBase + triangleMaterial(in.mesh, local);
    auto slot = static_cast<std::uint32_t>(p.offsets[t].triangles);
    std::uint64_t entry = p.offsets[t].entries;
    const auto emit = [&](const ScreenTriangle& tri, const TriangleAttributes* attributes) {
        p.triangles[slot] = tri;
        if (attributes) p.triangleAttributes[slot] = *attributes;
        p.triangleMaterials[slot] = material;
        if (p.triangleSources) p.triangleSources[slot] = t;
        const TileSpan span = tileSpan(p.grid, tri.minX, tri.minY, tri.maxX, tri.maxY);
        for (int ty = span.ty0; ty <= span.ty1; ++ty)
            for (int tx = span.tx0; tx <= span.tx1; ++tx) {
                const auto tile = static_cast<std::uint32_t>(ty * p.grid.tilesX + tx);
                p.entryTile[entry] = tile;
                p.entryTriangle[entry] = slot;
                atomicIncrement(p.tileCount[tile]);
                ++entry;
            }
        ++slot;
    };
    const auto colors = [&](const TriangleColors& record) { p.triangleColors[slot] = record; };
    const TriangleOutcome outcome = setupMeshTriangle(in, local, emit, true, colors, p.triangleAttributes != nullptr);
    if (outcome.clipped) atomicIncrement(p.counters->clipped);
    if (outcome.drawn == 0) atomicIncrement(p.counters->culled);
}

} // namespace facet
