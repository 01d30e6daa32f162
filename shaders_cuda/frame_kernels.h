// The CUDA pipeline's kernels, as per-thread functions on plain Params structs: the kernels in
// frame_kernels.cu call them once per thread, and the tests run the very same functions on the
// CPU through a host launcher (engine/cuda/host_exec.h). A frame is:
//   1. vertexSetup     one thread per vertex: d = R (v - eye), clip classification, projection;
//   2. triangleCount   one thread per mesh triangle: how many set-up triangles it gives and how
//                      many tile-bin entries they need (set-up without the FP64 gradients);
//      (exclusive scans of both counts give each triangle its output slots)
//   3. triangleWrite   one thread per mesh triangle: the same set-up again, written to its
//                      slots, with one (tile, triangle) bin entry per tile it touches and an
//                      atomic count per tile;
//      (a scan of the tile counts gives each tile's range; a stable sort of the entries by
//      tile puts each tile's triangles in draw order)
//   4. rasterQuad      one thread per 2x2 quad of every tile: finds the nearest triangle per
//                      pixel (coverage and depth only) among its tile's (those meeting its
//                      block's band, culled by the block: see kRasterBlock), its warp's lanes
//                      walking the band's (triangle, quad) pairs 32 at a time (see
//                      visibilityKey; with multisampling, a fragment count or a tile drawn
//                      forward, each quad walks its triangles in order instead), then shades
//                      each pixel once with its winner; it clears and writes its own four
//                      pixels, so no two threads share a pixel and the picture is the same
//                      bits whatever the scheduling. One-sample and multisampled frames have
//                      a kernel each (rasterQuadThread<Multisampled>).
// All set-up, coverage and shading is core/ code the CPU renderer runs too.
#pragma once

#include "core/coverage_walk.h"
#include "core/forward_draw.h"
#include "core/quad_shading.h"
#include "core/tiles.h"
#include "core/triangle_stage.h"
#include "core/frame.h"
#include "core/view_shading.h"

#include <cuda/atomic>

#include <cstdint>
#include <vector>

namespace facet {

inline constexpr int kQuadsPerTileRow = kTileSize / 2;
inline constexpr std::uint32_t kQuadsPerTile = kQuadsPerTileRow * kQuadsPerTileRow;
inline constexpr std::uint32_t kNoTriangle = 0xFFFFFFFFu;

// Counted by triangleWrite: mesh triangles clipped, and mesh triangles that drew nothing.
struct TriangleCounters {
    std::uint32_t clipped;
    std::uint32_t culled;
};

FACET_HD void atomicIncrement(std::uint32_t& counter) {
    cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device>(counter).fetch_add(1u, cuda::std::memory_order_relaxed);
}

// ---- 1. vertexSetup -------------------------------------------------------------------------
struct VertexSetupParams {
    MeshView mesh;
    ViewParams view;
    ClipPlanes planes;
    int width, height;
    float *dx, *dy, *dz;
    std::uint8_t* outside;
    ScreenVertex* projected;
};

FACET_HD void vertexSetupThread(const VertexSetupParams& p, std::uint32_t i) {
    if (i >= p.mesh.vertexCount) return;
    const glm::vec3 d = rotate(p.view.rotation, shift(glm::vec3(p.mesh.px[i], p.mesh.py[i], p.mesh.pz[i]), p.view.eye));
    p.dx[i] = d.x;
    p.dy[i] = d.y;
    p.dz[i] = d.z;
    classifyVertex(p.mesh, p.dx, p.dy, p.dz, p.planes, p.view, p.width, p.height, p.outside, p.projected, i);
}

// The same without the transform, for camera-space positions computed elsewhere (the CPU's
// vertex stage, uploaded).
struct ClassifyParams {
    MeshView mesh;
    ViewParams view;
    ClipPlanes planes;
    int width, height;
    const float *dx, *dy, *dz;
    std::uint8_t* outside;
    ScreenVertex* projected;
};

FACET_HD void classifyThread(const ClassifyParams& p, std::uint32_t i) {
    if (i >= p.mesh.vertexCount) return;
    classifyVertex(p.mesh, p.dx, p.dy, p.dz, p.planes, p.view, p.width, p.height, p.outside, p.projected, i);
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

struct TriangleCountParams {
    TriangleStageInput in;
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
    if (i == p.in.mesh.triangleCount) p.counts[i] = TriangleCounts{0, 0};
}

FACET_HD void triangleCountThread(const TriangleCountParams& p, std::uint32_t t) {
    zeroCounts(p, t);
    if (t >= p.in.mesh.triangleCount) return;
    std::uint32_t entries = 0;
    const TriangleOutcome outcome = setupMeshTriangle(
        p.in, t,
        [&](const ScreenTriangle& tri, const TriangleAttributes*) {
            entries += static_cast<std::uint32_t>(tileSpan(p.grid, tri.minX, tri.minY, tri.maxX, tri.maxY).count());
        },
        false); // counting needs no barycentric gradients
    p.counts[t] = TriangleCounts{static_cast<std::uint32_t>(outcome.drawn), entries};
}

// ---- 3. triangleWrite -----------------------------------------------------------------------
struct TriangleWriteParams {
    TriangleStageInput in;
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
    std::uint32_t* triangleSources;   // the mesh triangle of each; null unless the view needs them
};

FACET_HD void triangleWriteThread(const TriangleWriteParams& p, std::uint32_t t) {
    if (t >= p.in.mesh.triangleCount) return;
    const std::uint32_t material = triangleMaterial(p.in.mesh, t);
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
    const TriangleOutcome outcome = setupMeshTriangle(p.in, t, emit, true, colors, p.triangleAttributes != nullptr);
    if (outcome.clipped) atomicIncrement(p.counters->clipped);
    if (outcome.drawn == 0) atomicIncrement(p.counters->culled);
}

// ---- 4. rasterQuad --------------------------------------------------------------------------
struct RasterParams {
    const ScreenTriangle* triangles;
    const TriangleAttributes* triangleAttributes; // written only where shading reads them (TriangleWriteParams)
    const std::uint32_t* triangleMaterials;
    const ShadeMaterial* materials;
    const std::uint32_t* tileStart;     // tile t's triangles: tileTriangles[tileStart[t], tileStart[t + 1])
    const std::uint32_t* tileTriangles; // in draw order within each tile
    FrameView target;
    FramePlan plan; // the frame's (core/frame_plan.h): its settings, grid, lights, forward materials
    const TriangleColors* triangleColors; // vertex colours, tangents of each; null for a mesh without them
    const std::uint32_t* triangleSources; // the mesh triangle of each; null unless the view needs them
};

// ---- rasterQuad's blocks: a band of a tile, its triangles culled once for all its threads ----
// On the GPU the kernel runs in blocks of kRasterBlock threads: a band of kRasterBandRows quad
// rows (64x16 pixels) of one tile. Rather than every thread walking its tile's whole list (a
// warp tests every entry, though a small triangle meets one or two of its 32 quads), the block
// first culls the list to the triangles whose bounds meet its band, in draw order, into shared
// memory, and its threads walk that. The list is culled kBandChunk entries at a time (each
// thread kBandSlots of them), so the shared list is 4 KB however long the tile's list: a
// chunk's survivors are walked before the next chunk is culled. Every raster thread of a block
// walks its band exactly once, chunk by chunk, and none returns before (the device's chunks
// are filled between barriers all of its threads reach); a thread whose quad is past the
// picture walks too, meeting nothing (triangles' bounds lie within the picture) and writing
// nothing. The survivors are a superset of what any of the band's quads meets (quadRange), in
// the tile list's order, so every quad walks the very same triangles in the same order.
// A warp is one quad row of the band (64x2 pixels), which a small triangle of the band's list
// seldom meets. Where each quad walks its triangles in order (forBandTriangles), the warp tests
// 32 entries of the chunk at once, a lane each, against its row (on the device one ballot), and
// walks only those meeting it (forRow), rather than every lane testing every entry against its
// own quad; the row's test passes every triangle any of its quads meets, so the walks, and the
// picture, are the same. Elsewhere the warp takes the row's pairs (quadKeys).
inline constexpr std::uint32_t kRasterBlock = 256;
inline constexpr int kRasterBandRows = static_cast<int>(kRasterBlock) / kQuadsPerTileRow; // quad rows
inline constexpr std::uint32_t kBandSlots = 4;
inline constexpr std::uint32_t kBandChunk = kRasterBlock * kBandSlots;
static_assert(kQuadsPerTile % kRasterBlock == 0 && kRasterBlock % kQuadsPerTileRow == 0,
              "a raster block is whole quad rows of one tile");
static_assert(kQuadsPerTileRow == 32, "a warp of raster threads is one quad row of a tile");

// Raster block b: its tile, its band's pixels (the quads' rows, so the first row of an
// odd-height target's first band is -1), and whether any of its quads lies inside the picture.
struct RasterBand {
    std::uint32_t tile;
    TileRect rect;
    bool live;
};

FACET_HD RasterBand rasterBand(const RasterParams& p, std::uint32_t block) {
    constexpr std::uint32_t bands = kQuadsPerTile / kRasterBlock;
    const std::uint32_t tile = block / bands;
    const TilePlace place = tilePlace(p.plan.grid, tile);
    const int y0 = place.y + static_cast<int>(block % bands) * 2 * kRasterBandRows;
    const bool live = tile < static_cast<std::uint32_t>(p.plan.grid.tilesX * p.plan.grid.tilesY) && y0 < p.target.height;
    return RasterBand{tile, TileRect{place.x, y0, place.x + kTileSize - 1, y0 + 2 * kRasterBandRows - 1}, live};
}

// Whether the triangle's bounds meet the band: false only where no quad of it can meet them.
FACET_HD bool meetsBand(const ScreenTriangle& tri, const TileRect& band) {
    return tri.minX <= band.x1 && tri.maxX >= band.x0 && tri.minY <= band.y1 && tri.maxY >= band.y0;
}

// The pixels of the band's quad row at qy: a raster warp's.
FACET_HD TileRect quadRowRect(const TileRect& band, int qy) { return TileRect{band.x0, qy, band.x1, qy + 1}; }

// The chunks of a tile list of `entries` entries.
FACET_HD std::uint32_t bandChunks(std::uint32_t entries) { return (entries + kBandChunk - 1) / kBandChunk; }

// Whether the frame shows the lit model's materials as such (cut-outs alpha-tested, blended
// materials drawn forward): the lit model, and not a debug view that colours pixels by their
// winners.
FACET_HD bool litMaterialsShown(const RenderSettings& settings) {
    return settings.shading == ShadingModel::Lit && !viewShadesWinners(settings.view);
}

// Whether entry e of the tile lists is a triangle whose material is drawn forward
// (drawsForward: the lit model's blended materials, and multisampled cut-outs).
FACET_HD bool entryDrawsForward(const RasterParams& p, std::uint32_t e) {
    return drawsForward(p.materials[p.triangleMaterials[p.tileTriangles[e]]], p.plan.settings);
}

// Whether a tile of the frame may be drawn forward: the frame shows lit materials, and some of
// them are drawn forward. Otherwise no tile's list is scanned for them.
FACET_HD bool frameMayDrawForward(const RasterParams& p) { return p.plan.forwardMaterials && litMaterialsShown(p.plan.settings); }

// Whether the tile is drawn forward: the frame may draw forward, and the tile holds such a
// triangle. Decided once a band: the device's block scans the list together
// (frame_kernels.cu), the host executor in cullBand; every thread scanning the whole list cost
// a lit frame a walk of the tile's list per quad.
FACET_HD bool tileDrawsForward(const RasterParams& p, std::uint32_t tile) {
    if (!frameMayDrawForward(p)) return false;
    for (std::uint32_t e = p.tileStart[tile]; e < p.tileStart[tile + 1]; ++e)
        if (entryDrawsForward(p, e)) return true;
    return false;
}

// One chunk's survivors: set-up triangles, in draw order.
struct BandChunk {
    const std::uint32_t* ids;
    std::uint32_t count;
};

// The band's list as the host executor holds it: every chunk culled before the band's threads
// run one after another (cullBand). The device's (frame_kernels.cu) fills each chunk in shared
// memory between barriers; both give a thread the same chunks.
struct HostBand {
    const std::uint32_t* ids;      // every chunk's survivors, one after another
    const std::uint32_t* chunkEnd; // chunk c's survivors end at ids[chunkEnd[c]]
    std::uint32_t chunkCount;
    const ScreenTriangle* triangles;
    TileRect rect; // the band's pixels
    bool forward;  // the tile is drawn forward (tileDrawsForward)

    FACET_HD bool drawsForward() const { return forward; }
    FACET_HD std::uint32_t chunks() const { return chunkCount; }
    FACET_HD BandChunk load(std::uint32_t c) const {
        const std::uint32_t begin = c > 0 ? chunkEnd[c - 1] : 0u;
        return BandChunk{ids + begin, chunkEnd[c] - begin};
    }
    // Calls f(id) for each triangle of the chunk meeting the quad row at qy, in draw order: the
    // entries the device's warp finds by ballot (DeviceBand::forRow), tested one at a time.
    template <class F>
    FACET_HD void forRow(const BandChunk& chunk, int qy, F&& f) const {
        const TileRect row = quadRowRect(rect, qy);
        for (std::uint32_t i = 0; i < chunk.count; ++i)
            if (meetsBand(triangles[chunk.ids[i]], row)) f(chunk.ids[i]);
    }
    // The keys of the quad at (qx, qy), by pairs (see visibilityKey).
    FACET_HD void quadKeys(const RasterParams& p, int qx, int qy, bool cutouts, std::uint64_t (&keys)[4]) const;
};

// Culls the band's tile list into `ids` (room for the tile's entries) and `chunkEnd` (room for
// bandChunks(entries)), and finds whether its tile is drawn forward.
inline HostBand cullBand(const RasterParams& p, const RasterBand& band, std::uint32_t* ids, std::uint32_t* chunkEnd) {
    const std::uint32_t first = p.tileStart[band.tile], last = p.tileStart[band.tile + 1];
    std::uint32_t kept = 0, chunk = 0;
    for (std::uint32_t e = first; e < last; ++e) {
        const std::uint32_t id = p.tileTriangles[e];
        if (meetsBand(p.triangles[id], band.rect)) ids[kept++] = id;
        if ((e - first) % kBandChunk == kBandChunk - 1 || e + 1 == last) chunkEnd[chunk++] = kept;
    }
    return HostBand{ids, chunkEnd, chunk, p.triangles, band.rect, tileDrawsForward(p, band.tile)};
}

// Calls f(id) for each triangle of the band's list meeting the quad row at qy, in draw order.
template <class Band, class F>
FACET_HD void forBandTriangles(Band& band, int qy, F&& f) {
    const std::uint32_t chunks = band.chunks();
    for (std::uint32_t c = 0; c < chunks; ++c) band.forRow(band.load(c), qy, f);
}

// Four values in the walk's portable quad lanes.
FACET_HD Quad<float> quadOf(const float (&values)[4]) {
    Quad<float> q;
    FACET_UNROLL
    for (int k = 0; k < 4; ++k) q.v[k] = values[k];
    return q;
}

// A raster thread's visibility, the coverage walk's target: per pixel of its quad, the nearest
// depth so far and the triangle that drew it.
struct QuadVisibility {
    float nearest[4];
    std::uint32_t winner[4];
    std::uint32_t id; // the triangle being walked

    // The walk's quad row: this quad.
    FACET_HD QuadVisibility& row(int) { return *this; }
    FACET_HD Quad<float> depthAt(int) const {
        return quadOf(nearest);
    }
    FACET_HD void write(int, unsigned keep, const Quad<float>& value, const Quad<float>&) {
        FACET_UNROLL
        for (int k = 0; k < 4; ++k)
            if (keep >> k & 1u) {
                nearest[k] = value.v[k];
                winner[k] = id;
            }
    }
};

// A cut-out triangle's walk target (the lit model): `Inner` (the quad's visibility, or its
// pair's keys), given only the lanes that pass the alpha test (cutoutSampleMask at `sample`: the
// deferred walk draws one sample per pixel, so 0; multisampled cut-outs are drawn forward, see
// drawsForward).
template <class Inner>
struct CutoutQuadTarget {
    Inner& inner;
    const ShadedTriangle tri;
    const ShadeMaterial& material;
    const RenderSettings& settings;
    int qx, qy, sample;

    FACET_HD CutoutQuadTarget& row(int) { return *this; }
    FACET_HD Quad<float> depthAt(int x) const { return inner.depthAt(x); }
    FACET_HD void write(int x, unsigned keep, const Quad<float>& value, const Quad<float>& stored) {
        inner.write(x, cutoutSampleMask(tri, material, settings, qx, qy, keep, sample), value, stored);
    }
};

// The walk over one quad of one triangle into `target` (QuadVisibility's interface), alpha-tested
// where `cutouts` asks and the triangle's material is a cut-out.
template <class Target>
FACET_HD void walkQuad(const RasterParams& p, std::uint32_t id, int qx, int qy, Target& target, bool cutouts) {
    const ScreenTriangle& tri = p.triangles[id];
    QuadRange range;
    if (!quadRange(tri, TileRect{qx, qy, qx + 1, qy + 1}, p.plan.grid.quadRowOffset, range)) return;
    const ShadeMaterial& material = p.materials[p.triangleMaterials[id]];
    if (cutouts && material.cutout) {
        CutoutQuadTarget<Target> cutout{target, {tri, p.triangleAttributes[id]}, material, p.plan.settings, qx, qy, 0};
        walkCoverage<QuadLanes, true>(tri, range, cutout);
    } else {
        walkCoverage<QuadLanes, true>(tri, range, target);
    }
}

// The overdraw view's visibility: also counts, per pixel, the fragments that passed the depth test.
struct CountingQuadVisibility : QuadVisibility {
    std::uint32_t fragments[4];

    FACET_HD CountingQuadVisibility& row(int) { return *this; }
    FACET_HD void write(int x, unsigned keep, const Quad<float>& value, const Quad<float>& stored) {
        QuadVisibility::write(x, keep, value, stored);
        FACET_UNROLL
        for (int k = 0; k < 4; ++k)
            if (keep >> k & 1u) ++fragments[k];
    }
};

// The walk over the quad's pixels of each of the band's triangles in draw order (whose bounds
// lie within the picture, so pixels outside it are never covered): the overdraw view's, which
// counts the fragments that pass in order.
template <class Visibility, class Band>
FACET_HD void walkQuadTriangles(const RasterParams& p, Band& band, int qx, int qy, Visibility& visibility) {
    forBandTriangles(band, qy, [&](std::uint32_t id) {
        visibility.id = id;
        walkQuad(p, id, qx, qy, visibility, false);
    });
}

// ---- rasterQuad's visibility by (triangle, quad) pairs -----------------------------------------
// A warp walking its row's triangles quad by quad keeps few of its lanes busy: a small triangle
// meets one or two of the row's 32 quads, and the other lanes wait through its walk. So where a
// pixel keeps just its nearest triangle (one sample, no fragment count, nothing drawn forward),
// the warp's lanes take the row's (triangle, quad) pairs instead, 32 at a time, each walking
// its pair's quad, and the results meet in the quad's keys: per pixel the smallest of
// visibilityKey(depth, triangle) over the triangles that cover it with a depth in [0, 1) (and,
// a cut-out, pass its alpha test). That is the very winner of the walk in draw order: the
// depth test keeps the first of the nearest (depthPasses: depth < stored), and a tile list's
// set-up triangles are numbered in draw order, so the smallest (depth, triangle) is it, in
// whatever order the pairs arrive (the device's shared-memory atomicMin; the host executor
// takes them in reverse draw order to show that the order does not matter).

// A pixel's candidate as one 64-bit key: its depth's bits, then the triangle, then the depth's
// sign. The depth is in [0, 1) (depthPasses against the clear 1.0), so once -0 is +0 its bits
// order as its value, and are under 2^30 (the clear 1.0's included); -0 and +0 compare equal in
// the depth test, so they tie here too, and the sign below the triangle only brings a -0
// back as the walk wrote it.
FACET_HD std::uint64_t visibilityKey(float depth, std::uint32_t id) {
    return static_cast<std::uint64_t>(floatBits(depth + 0.0f)) << 33 | static_cast<std::uint64_t>(id) << 1 |
           floatBits(depth) >> 31;
}
inline constexpr std::uint64_t kClearKey = 0x3F800000ull << 33 | std::uint64_t{kNoTriangle} << 1; // 1.0, none
FACET_HD float keyDepth(std::uint64_t key) {
    return bitsFloat(static_cast<std::uint32_t>(key >> 33) | static_cast<std::uint32_t>(key & 1u) << 31);
}
FACET_HD std::uint32_t keyTriangle(std::uint64_t key) { return static_cast<std::uint32_t>(key >> 1); }

// The quads of a raster warp's row (quadRowRect) the triangle's bounds meet: the first one's
// column and their count (what quadRange answers quad by quad).
struct RowQuads {
    int firstQx;
    std::uint32_t count;
};

FACET_HD RowQuads rowQuads(const ScreenTriangle& tri, const TileRect& row) {
    if (!meetsBand(tri, row)) return RowQuads{0, 0u};
    const int first = glm::max(tri.minX, row.x0) & ~1, last = glm::min(tri.maxX, row.x1) & ~1;
    return RowQuads{first, static_cast<std::uint32_t>((last - first) / 2 + 1)};
}

// The walk target of one pair: the keys of the quad's pixels the triangle is a candidate for
// (clear elsewhere).
struct PairKeys {
    std::uint64_t key[4];
    std::uint32_t id;

    FACET_HD PairKeys& row(int) { return *this; }
    FACET_HD Quad<float> depthAt(int) const { return Quad<float>(1.0f); }
    FACET_HD void write(int, unsigned keep, const Quad<float>& value, const Quad<float>&) {
        FACET_UNROLL
        for (int k = 0; k < 4; ++k)
            if (keep >> k & 1u) key[k] = visibilityKey(value.v[k], id);
    }
};

FACET_HD PairKeys pairKeys(const RasterParams& p, std::uint32_t id, int qx, int qy, bool cutouts) {
    PairKeys keys{{kClearKey, kClearKey, kClearKey, kClearKey}, id};
    walkQuad(p, id, qx, qy, keys, cutouts);
    return keys;
}

// The quad's visibility from its merged keys.
FACET_HD QuadVisibility keysVisibility(const std::uint64_t (&keys)[4]) {
    QuadVisibility v;
    v.id = 0;
    FACET_UNROLL
    for (int k = 0; k < 4; ++k) {
        v.winner[k] = keyTriangle(keys[k]);
        v.nearest[k] = keyDepth(keys[k]);
    }
    return v;
}

// The host executor's keys of the quad at (qx, qy): its own pairs, in reverse draw order (see above).
FACET_HD void HostBand::quadKeys(const RasterParams& p, int qx, int qy, bool cutouts, std::uint64_t (&keys)[4]) const {
    FACET_UNROLL
    for (int k = 0; k < 4; ++k) keys[k] = kClearKey;
    const TileRect row = quadRowRect(rect, qy);
    for (std::uint32_t c = chunkCount; c-- > 0;) {
        const BandChunk chunk = load(c);
        for (std::uint32_t i = chunk.count; i-- > 0;) {
            const RowQuads quads = rowQuads(triangles[chunk.ids[i]], row);
            if (quads.count == 0 || qx < quads.firstQx || qx >= quads.firstQx + 2 * static_cast<int>(quads.count))
                continue;
            const PairKeys pair = pairKeys(p, chunk.ids[i], qx, qy, cutouts);
            FACET_UNROLL
            for (int k = 0; k < 4; ++k) keys[k] = pair.key[k] < keys[k] ? pair.key[k] : keys[k];
        }
    }
}

// The quad's one-sample visibility without a fragment count, by pairs: cut-outs alpha-tested
// under the lit model outside the debug views that colour by winner. Also what the GPU cost
// model (cuda/kernel_work.h) asks to know which pixels are shaded, and with which material.
template <class Band>
FACET_HD QuadVisibility quadVisibility(const RasterParams& p, Band& band, int qx, int qy) {
    std::uint64_t keys[4];
    band.quadKeys(p, qx, qy, litMaterialsShown(p.plan.settings), keys);
    return keysVisibility(keys);
}

// Pixel k's colour in a debug view that colours pixels by their winners.
FACET_HD std::uint32_t viewWinnerColor(const RasterParams& p, std::uint32_t winner, std::uint32_t fragments, int qx,
                                       int qy, int k) {
    const ViewPixel pixel{&p.triangles[winner], &p.triangleAttributes[winner],
                          &p.materials[p.triangleMaterials[winner]],
                          p.triangleColors ? &p.triangleColors[winner] : nullptr,
                          p.triangleSources ? p.triangleSources[winner] : 0u, fragments};
    return viewQuadPixel(p.plan, pixel, qx, qy, k);
}

// Pixel k of the quad at (qx, qy) as an index into the target, or -1 where it lies outside.
FACET_HD long long quadPixelIndex(const FrameView& target, int qx, int qy, int k) {
    const int x = qx + (k & 1), y = qy + (k >> 1);
    if (x >= target.width || y < 0 || y >= target.height) return -1;
    return static_cast<long long>(y) * target.width + x;
}

// The raster thread with S samples per pixel (S > 1): the quad's visibility per sample, each at
// its own sample point (a tile holding a cut-out or blended material is drawn forward instead:
// drawsForward); then per pixel each distinct winner shaded once at the pixel centre,
// weighted by the samples it won, and the box resolve, exactly as the CPU's
// resolveTileSamples (cpu/multisample_tile.h) adds it up, so the two agree bit for bit.
template <int S, class Band>
FACET_HD void rasterQuadSamples(const RasterParams& p, Band& band, int qx, int qy) {
    QuadVisibility visibility[S];
    FACET_UNROLL
    for (int s = 0; s < S; ++s)
        visibility[s] = QuadVisibility{{1.0f, 1.0f, 1.0f, 1.0f}, {kNoTriangle, kNoTriangle, kNoTriangle, kNoTriangle}, 0};
    forBandTriangles(band, qy, [&](std::uint32_t id) {
        const ScreenTriangle& tri = p.triangles[id];
        QuadRange range;
        if (!quadRange(tri, TileRect{qx, qy, qx + 1, qy + 1}, p.plan.grid.quadRowOffset, range)) return;
        FACET_UNROLL
        for (int s = 0; s < S; ++s) {
            visibility[s].id = id;
            walkCoverage<QuadLanes, true>(tri, range, visibility[s], samplePoint(S, s));
        }
    });
    for (int k = 0; k < 4; ++k) {
        const long long pixel = quadPixelIndex(p.target, qx, qy, k);
        if (pixel < 0) continue;
        ColorSum sum;
        std::uint32_t covered = 0;
        float depth = visibility[0].nearest[k];
        for (int s = 0; s < S; ++s) {
            depth = resolveDepth(depth, visibility[s].nearest[k]);
            const std::uint32_t winner = visibility[s].winner[k];
            bool seen = winner == kNoTriangle;
            for (int t = 0; t < s; ++t) seen = seen || visibility[t].winner[k] == winner;
            if (seen) continue; // no triangle, or one already shaded
            std::uint32_t won = 0;
            for (int t = s; t < S; ++t) won += visibility[t].winner[k] == winner ? 1u : 0u;
            sum.add(shadeQuadPixel({p.triangles[winner], p.triangleAttributes[winner]},
                                   p.materials[p.triangleMaterials[winner]], p.plan, qx, qy, k,
                                   p.triangleColors ? &p.triangleColors[winner] : nullptr),
                    won);
            covered += won;
        }
        sum.add(p.plan.settings.clearColor, static_cast<std::uint32_t>(S) - covered);
        p.target.color[pixel] = sum.resolve(S);
        p.target.depth[pixel] = depth;
    }
}

// Forward drawing's walk target for a quad of a tile holding a blended triangle (lit model, see
// core/forward_draw.h): the quad's colours and depths (sample `sample`'s with multisampling),
// drawn triangle by triangle.
struct ForwardQuadTarget {
    std::uint32_t color[4];
    float depth[4];
    ForwardTriangle triangle;
    const RasterParams* p;
    int qx, qy, sample;

    FACET_HD ForwardQuadTarget& row(int) { return *this; }
    FACET_HD Quad<float> depthAt(int) const {
        return quadOf(depth);
    }
    FACET_HD void write(int, unsigned keep, const Quad<float>& value, const Quad<float>&) {
        std::uint32_t* const colors[4] = {&color[0], &color[1], &color[2], &color[3]};
        float* const depths[4] = {&depth[0], &depth[1], &depth[2], &depth[3]};
        drawForwardLanes(triangle, p->plan, qx, qy, keep, value, colors, depths, sample);
    }
};

// The quad of a tile holding a material drawn forward (drawsForward): every triangle in draw
// order; with multisampling each sample drawn as a picture of its own at its point (so blending
// is per sample), then the box resolve and the nearest depth, as the CPU's forward tiles. The
// samples are a loop over a run-time count (at most Capacity, the kernel's: see
// rasterQuadThread), so a kernel inlines the walk and the shading once.
template <int Capacity, class Band>
FACET_HD void forwardQuad(const RasterParams& p, Band& band, int qx, int qy, int samples) {
    const std::uint32_t clear = p.plan.settings.clearColor;
    ForwardQuadTarget target[Capacity];
    FACET_NO_UNROLL
    for (int s = 0; s < samples; ++s)
        target[s] = ForwardQuadTarget{{clear, clear, clear, clear}, {1.0f, 1.0f, 1.0f, 1.0f}, {}, &p, qx, qy, s};
    forBandTriangles(band, qy, [&](std::uint32_t id) {
        const ScreenTriangle& tri = p.triangles[id];
        QuadRange range;
        if (!quadRange(tri, TileRect{qx, qy, qx + 1, qy + 1}, p.plan.grid.quadRowOffset, range)) return;
        const ForwardTriangle triangle{&tri, &p.triangleAttributes[id], &p.materials[p.triangleMaterials[id]],
                                       p.triangleColors ? &p.triangleColors[id] : nullptr};
        FACET_NO_UNROLL
        for (int s = 0; s < samples; ++s) {
            target[s].triangle = triangle;
            walkCoverage<QuadLanes, true>(tri, range, target[s], samples > 1 ? samplePoint(samples, s) : pixelCentreSample());
        }
    });
    const FrameView& frame = p.target;
    FACET_UNROLL
    for (int k = 0; k < 4; ++k) {
        const long long pixel = quadPixelIndex(frame, qx, qy, k);
        if (pixel < 0) continue;
        ColorSum sum;
        float depth = target[0].depth[k];
        for (int s = 0; s < samples; ++s) {
            sum.add(target[s].color[k], 1u);
            depth = resolveDepth(depth, target[s].depth[k]);
        }
        frame.color[pixel] = samples > 1 ? sum.resolve(samples) : target[0].color[k];
        frame.depth[pixel] = depth;
    }
}

// The quad at (qx, qy) of a one-sample frame, not drawn forward: its visibility (in the overdraw
// view counting fragments too, so in order), then each pixel shaded once by its winner; the
// rest get the background.
template <class Band>
FACET_HD void rasterQuadNearest(const RasterParams& p, Band& band, int qx, int qy) {
    QuadVisibility visibility{{1.0f, 1.0f, 1.0f, 1.0f}, {kNoTriangle, kNoTriangle, kNoTriangle, kNoTriangle}, 0};
    std::uint32_t fragments[4] = {0u, 0u, 0u, 0u};
    if (viewCountsFragments(p.plan.settings.view)) {
        CountingQuadVisibility counting{visibility, {0u, 0u, 0u, 0u}};
        walkQuadTriangles(p, band, qx, qy, counting);
        visibility = counting;
        FACET_UNROLL
        for (int k = 0; k < 4; ++k) fragments[k] = counting.fragments[k];
    } else {
        visibility = quadVisibility(p, band, qx, qy);
    }
    const bool byWinners = viewShadesWinners(p.plan.settings.view);
    FACET_UNROLL
    for (int k = 0; k < 4; ++k) {
        const long long pixel = quadPixelIndex(p.target, qx, qy, k);
        if (pixel < 0) continue;
        const std::uint32_t winner = visibility.winner[k];
        std::uint32_t color = viewBackground(p.plan.settings);
        if (winner != kNoTriangle && byWinners)
            color = viewWinnerColor(p, winner, fragments[k], qx, qy, k);
        else if (winner != kNoTriangle)
            color = shadeQuadPixel({p.triangles[winner], p.triangleAttributes[winner]},
                                   p.materials[p.triangleMaterials[winner]], p.plan, qx, qy, k,
                                   p.triangleColors ? &p.triangleColors[winner] : nullptr);
        p.target.color[pixel] = color;
        p.target.depth[pixel] = visibility.nearest[k];
    }
}

// The quad at (qx, qy) of a multisampled frame, not drawn forward, at its sample count.
template <class Band>
FACET_HD void rasterQuadMultisampled(const RasterParams& p, Band& band, int qx, int qy) {
    switch (p.plan.settings.msaa) {
    case 2:
        return rasterQuadSamples<2>(p, band, qx, qy);
    case 4:
        return rasterQuadSamples<4>(p, band, qx, qy);
    default:
        return rasterQuadSamples<8>(p, band, qx, qy); // 8 (the pipeline refuses other counts)
    }
}

// Thread i draws quad i % kQuadsPerTile of tile i / kQuadsPerTile, walking `band`, the list of
// its block (rasterBand(p, i / kRasterBlock), live). One-sample and multisampled frames run
// apart (rasterKernel<Multisampled>; on the host, runHostBlock), so the one-sample frame's
// kernel, the common one, holds none of the multisampled paths' per-sample arrays: fewer
// registers and a smaller stack frame. Every path below is the same for all of a block's
// threads (the settings', the tile's), and each walks the band once: see kRasterBlock.
template <bool Multisampled, class Band>
FACET_HD void rasterQuadThread(const RasterParams& p, std::uint32_t i, Band& band) {
    const std::uint32_t tile = i / kQuadsPerTile, q = i % kQuadsPerTile;
    if (tile >= static_cast<std::uint32_t>(p.plan.grid.tilesX * p.plan.grid.tilesY)) return;
    const TilePlace place = tilePlace(p.plan.grid, tile);
    const int qx = place.x + 2 * static_cast<int>(q % kQuadsPerTileRow);
    const int qy = place.y + 2 * static_cast<int>(q / kQuadsPerTileRow);
    // A tile holding a blended triangle (lit model), or multisampled a cut-out, is drawn forward.
    if (band.drawsForward()) {
        if constexpr (Multisampled)
            forwardQuad<kMaxSamples>(p, band, qx, qy, p.plan.settings.msaa);
        else
            forwardQuad<1>(p, band, qx, qy, 1);
    } else if constexpr (Multisampled) {
        rasterQuadMultisampled(p, band, qx, qy);
    } else {
        rasterQuadNearest(p, band, qx, qy);
    }
}

// ---- 5. the debug views of the finished frame (core/view_shading.h) -------------------------
// depthRange, one thread per pixel: the frame's nearest and farthest drawn depths, as the
// largest complement of their bits and the largest bits (non-negative floats order as their
// bits; both counters start at zero).
struct DepthRangeParams {
    FrameView target;
    std::uint32_t* range; // [0]: max of ~bits, [1]: max of bits
};

FACET_HD void depthRangeThread(const DepthRangeParams& p, std::uint32_t i) {
    if (i >= static_cast<std::uint32_t>(p.target.width) * static_cast<std::uint32_t>(p.target.height)) return;
    const float d = p.target.depth[i] + 0.0f; // -0 as +0
    if (!(d < 1.0f)) return;
    cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device>(p.range[0]).fetch_max(~floatBits(d),
                                                                                    cuda::std::memory_order_relaxed);
    cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device>(p.range[1]).fetch_max(floatBits(d),
                                                                                    cuda::std::memory_order_relaxed);
}

// viewFinish, one thread per pixel.
struct ViewFinishParams {
    ViewFinish finish;
};

FACET_HD void viewFinishThread(const ViewFinishParams& p, std::uint32_t i) {
    if (i >= static_cast<std::uint32_t>(p.finish.target.width) * static_cast<std::uint32_t>(p.finish.target.height))
        return;
    finishViewPixel(p.finish, i);
}

// One name for every per-thread function, so a launcher can be written once for them all.
FACET_HD void runThread(const VertexSetupParams& p, std::uint32_t i) { vertexSetupThread(p, i); }
FACET_HD void runThread(const ClassifyParams& p, std::uint32_t i) { classifyThread(p, i); }
FACET_HD void runThread(const TriangleCountParams& p, std::uint32_t i) { triangleCountThread(p, i); }
FACET_HD void runThread(const TriangleWriteParams& p, std::uint32_t i) { triangleWriteThread(p, i); }
FACET_HD void runThread(const DepthRangeParams& p, std::uint32_t i) { depthRangeThread(p, i); }
FACET_HD void runThread(const ViewFinishParams& p, std::uint32_t i) { viewFinishThread(p, i); }

// The host executor's block of threads [begin, end) (cuda/host_exec.h), one after another.
template <class Params>
void runHostBlock(const Params& p, std::uint32_t begin, std::uint32_t end) {
    for (std::uint32_t i = begin; i < end; ++i) runThread(p, i);
}

// The raster kernel's, a band of kRasterBlock threads at a time: the band's list culled first,
// whole, then its threads (a band past the picture is skipped whole, as the device's block
// returns).
inline void runHostBlock(const RasterParams& p, std::uint32_t begin, std::uint32_t end) {
    std::vector<std::uint32_t> ids, chunkEnd;
    for (std::uint32_t b = begin; b < end; b += kRasterBlock) {
        const RasterBand band = rasterBand(p, b / kRasterBlock);
        if (!band.live) continue;
        const std::uint32_t entries = p.tileStart[band.tile + 1] - p.tileStart[band.tile];
        ids.resize(entries);
        chunkEnd.resize(bandChunks(entries));
        HostBand list = cullBand(p, band, ids.data(), chunkEnd.data());
        for (std::uint32_t i = b; i < b + kRasterBlock; ++i) {
            if (p.plan.settings.msaa > 1)
                rasterQuadThread<true>(p, i, list);
            else
                rasterQuadThread<false>(p, i, list);
        }
    }
}

// The kernels' names, for the host executor's log and the GPU cost model (cuda/kernel_work.h).
inline const char* kernelName(const VertexSetupParams&) { return "vertexSetup"; }
inline const char* kernelName(const ClassifyParams&) { return "classify"; }
inline const char* kernelName(const TriangleCountParams&) { return "triangleCount"; }
inline const char* kernelName(const TriangleWriteParams&) { return "triangleWrite"; }
inline const char* kernelName(const RasterParams&) { return "rasterQuad"; }
inline const char* kernelName(const DepthRangeParams&) { return "depthRange"; }
inline const char* kernelName(const ViewFinishParams&) { return "viewFinish"; }

#if defined(FACET_HAVE_CUDA)
// Launches the kernel for `params` with `threads` threads (ceil-div blocks) on `stream`, and
// checks the launch. Pointers in `params` must be device pointers.
template <class Params>
void launchKernel(const Params& params, std::uint32_t threads, void* stream);
#endif

} // namespace facet
