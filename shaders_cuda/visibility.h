// The CUDA pipeline's raster stage, its visibility half (see kernels.h), beside the CPU's
// (engine/cpu/visibility/): the raster kernel's parameters, its blocks' bands of a tile
// (HostBand here, the device's DeviceBand in visibility_device.h) and each quad's nearest triangle
// per pixel. Its shading half is shading.h.
#pragma once

#include "core/coverage_walk.h"
#include "core/frame.h"
#include "core/quad_shading.h"
#include "core/tiles.h"
#include "core/view_shading.h"

#include <cstdint>

namespace facet {

inline constexpr int kQuadsPerTileRow = kTileSize / 2;
inline constexpr std::uint32_t kQuadsPerTile = kQuadsPerTileRow * kQuadsPerTileRow;
inline constexpr std::uint32_t kNoTriangle = 0xFFFFFFFFu;

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
// (blockDrawsForward, visibility_device.h), the host executor in cullBand; every thread scanning the whole list cost
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
// run one after another (cullBand). The device's (DeviceBand, visibility_device.h) fills each chunk in shared
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
// model (bench/kernel_work.h) asks to know which pixels are shaded, and with which material.
template <class Band>
FACET_HD QuadVisibility quadVisibility(const RasterParams& p, Band& band, int qx, int qy) {
    std::uint64_t keys[4];
    band.quadKeys(p, qx, qy, litMaterialsShown(p.plan.settings), keys);
    return keysVisibility(keys);
}

} // namespace facet
