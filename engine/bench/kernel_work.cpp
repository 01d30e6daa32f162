#include "bench/kernel_work.h"

#include "core/vertex_color.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

namespace facet {

namespace {

// ---- The raster kernel's data-dependent counts --------------------------------------------

// The quads of the warp at quad row `qy` of a tile starting at column x0: qx = x0, x0 + 2,
// ... up to xLast (inside the picture; the rest meet no triangle and write nothing).
struct WarpRow {
    int x0, xLast, qy;
    std::uint32_t lanes() const { return static_cast<std::uint32_t>((xLast - x0) / 2 + 1); }
};

// The list walk of one warp: every entry of its band's list, 32 at a time (a batch), and each
// batch's (triangle, quad) pairs in rounds of 32 (DeviceBand::quadKeys).
void countWarpWalk(const RasterParams& p, const HostBand& band, const WarpRow& row, RasterCounts& c) {
    c.liveWarps += 1;
    c.liveQuads += row.qy < p.target.height ? row.lanes() : 0u;
    const TileRect rowRect = quadRowRect(band.rect, row.qy);
    for (std::uint32_t chunk = 0; chunk < band.chunks(); ++chunk) {
        const BandChunk entries = band.load(chunk);
        c.warpEntries += entries.count;
        for (std::uint32_t base = 0; base < entries.count; base += kWarpSize) {
            std::uint32_t pairs = 0;
            for (std::uint32_t e = base; e < std::min(entries.count, base + kWarpSize); ++e) {
                const std::uint32_t quads = rowQuads(p.triangles[entries.ids[e]], rowRect).count;
                c.rowEntries += quads > 0 ? 1u : 0u;
                pairs += quads;
            }
            c.rowTests += 1;
            c.walkLanes += pairs;
            c.pairRounds += (pairs + kWarpSize - 1) / kWarpSize;
        }
    }
}

// The pixels one quad writes, and how each is shaded (the winners as the kernel finds them).
void countQuadShading(const RasterParams& p, const HostBand& band, int qx, int qy, RasterCounts& c) {
    const QuadVisibility visibility = quadVisibility(p, band, qx, qy);
    for (int k = 0; k < 4; ++k) {
        const int x = qx + (k & 1), y = qy + (k >> 1);
        if (x >= p.target.width || y < 0 || y >= p.target.height) continue;
        c.pixels += 1;
        const std::uint32_t winner = visibility.winner[k];
        if (winner == kNoTriangle) continue;
        c.shaded += 1;
        const bool textured = p.materials[p.triangleMaterials[winner]].texture.levelCount > 0;
        c.textured += textured ? 1u : 0u;
        c.trilinear += textured && p.plan.settings.filter == TextureFilter::Trilinear ? 1u : 0u;
        c.lit += p.plan.settings.headlight ? 1u : 0u;
        c.vertexColored += p.triangleColors ? 1u : 0u;
    }
}

} // namespace

namespace {

// One tile's share: its live blocks' culls, their warps' list walks and their quads' shading.
void countTile(const RasterParams& p, std::uint32_t tile, RasterCounts& c) {
    constexpr std::uint32_t bands = kQuadsPerTile / kRasterBlock;
    const std::uint32_t entries = p.tileStart[tile + 1] - p.tileStart[tile];
    const int xLast = std::min(p.target.width - 1, tilePlace(p.plan.grid, tile).x + kTileSize - 2);
    std::vector<std::uint32_t> ids(entries), chunkEnd(bandChunks(entries));
    for (std::uint32_t b = tile * bands; b < (tile + 1) * bands; ++b) {
        const RasterBand band = rasterBand(p, b);
        if (!band.live) continue;
        const HostBand list = cullBand(p, band, ids.data(), chunkEnd.data());
        c.blocks += 1;
        c.bandChunks += list.chunks();
        c.bandEntries += entries;
        c.bandTriangles += list.chunks() > 0 ? chunkEnd[list.chunks() - 1] : 0u;
        for (int r = 0; r < kRasterBandRows; ++r) {
            const WarpRow row{band.rect.x0, xLast, band.rect.y0 + 2 * r};
            countWarpWalk(p, list, row, c);
            if (row.qy >= p.target.height) continue;
            for (int qx = row.x0; qx <= row.xLast; qx += 2) countQuadShading(p, list, qx, row.qy, c);
        }
    }
    if (rasterBand(p, tile * bands).live) c.tileEntries += entries;
}

void add(RasterCounts& sum, const RasterCounts& c) {
    sum.blocks += c.blocks;
    sum.bandChunks += c.bandChunks;
    sum.bandEntries += c.bandEntries;
    sum.bandTriangles += c.bandTriangles;
    sum.liveWarps += c.liveWarps;
    sum.liveQuads += c.liveQuads;
    sum.warpEntries += c.warpEntries;
    sum.rowTests += c.rowTests;
    sum.rowEntries += c.rowEntries;
    sum.walkLanes += c.walkLanes;
    sum.pairRounds += c.pairRounds;
    sum.tileEntries += c.tileEntries;
    sum.pixels += c.pixels;
    sum.shaded += c.shaded;
    sum.textured += c.textured;
    sum.trilinear += c.trilinear;
    sum.lit += c.lit;
    sum.vertexColored += c.vertexColored;
}

} // namespace

RasterCounts countRasterWork(const RasterParams& p, ThreadPool& pool) {
    const auto tiles = static_cast<std::uint32_t>(p.plan.grid.tilesX * p.plan.grid.tilesY);
    std::vector<RasterCounts> perTile(tiles);
    pool.run(tiles, [&](std::size_t tile, int) {
        countTile(p, static_cast<std::uint32_t>(tile), perTile[tile]);
    });
    RasterCounts c;
    for (const RasterCounts& t : perTile) add(c, t);
    return c;
}

namespace {

// ---- Per-unit costs, read off the kernels ---------------------------------------------------
// Source-level operations: each float add, multiply, compare or conversion is one FP32
// operation (no FMA: the kernels are built with --fmad=false), an IEEE division about ten (a
// reciprocal and its refinement), a 64-bit integer add or compare two 32-bit ones, a widening
// multiply two. Bytes are DRAM traffic at 100% coalescing with no cache reuse unless said.
constexpr double kDivide = 10.0;

// vertexSetup, per vertex: reads px, py, pz (12 B), writes dx, dy, dz (12), outside (1) and the
// projected ScreenVertex; FP32 shift 3 + rotate 15 + finite checks 3 + five plane distances
// 5 x 7 + projectVertex (perspective divide 4 + 1 division + the principal point's 2, to pixels 6,
// snap 8, 1/w division, window depth 4 + 1 division, uv/w 2, n/w 3).
constexpr double kVertexBytes = 12 + 12 + 1 + double(sizeof(ScreenVertex));
constexpr double kVertexFp32 = 3 + 15 + 3 + 35 + (4 + 2 + 6 + 8 + 4 + 2 + 3) + 3 * kDivide;
// classify: the same without the transform, reading dx, dy, dz instead of writing them.
constexpr double kClassifyBytes = 12 + 1 + double(sizeof(ScreenVertex));
constexpr double kClassifyFp32 = kVertexFp32 - 18;
// Either reads the attributes it projects: uv 8 B, normal 12 B, colour 12 B where the mesh has them.
double attributeBytes(const FrameFacts& f) {
    return (f.texCoords ? 8.0 : 0.0) + (f.normals ? 12.0 : 0.0) + (f.vertexColors ? 12.0 : 0.0);
}

// triangleCount and triangleWrite, per mesh triangle: indices 12 B, three outside bytes, three
// projected vertices (each shared by about six triangles, but read as a gather: counted whole);
// integer set-up without gradients: the area's edge function 10, three fill-rule biases 15,
// bounds and pixel centres 30, the tile span 12, tests 10.
constexpr double kSetupBytes = 12 + 3 + 3 * double(sizeof(ScreenVertex));
constexpr double kSetupInt = 10 + 15 + 30 + 12 + 10;
// A clipped triangle: its three camera-space vertices and attributes, clipPolygon over up to
// five planes (distances, crossings, interpolated vertices with a division each) and the fan's
// projections, about 500 FP32 operations.
constexpr double kClipBytes = 3 * (12 + 32);
constexpr double kClipFp32 = 500;
// triangleCount writes two counts, and zeroes triangleWrite's: a count per tile and one more,
// the clip and cull counters (8 B), and the scans' two totals.
constexpr double kCountWriteBytes = 8;
constexpr double kCountZeroBytes = 8 + 8;
// triangleWrite per mesh triangle reads its two offsets (16 B) and bisects the material ranges
// (per step a 4 B range read, cached, and 4 integer operations); per set-up triangle the FP64
// barycentric gradients (six conversions, area 7, one division about 10, four products, two
// differences, four conversions back) and its triangle (sizeof(ScreenTriangle), 80 B), 4 B
// material (and, where the frame's shading reads them, its attributes, sizeof(TriangleAttributes),
// 72 B; for a mesh that keeps side records, the 60 B record and its corners' colours 3 x 12 B and
// tangents 3 x 16 B read);
// per bin entry two 4 B writes, an atomic increment (a 4 B read-modify-write at the L2) and
// about 6 integer operations.
constexpr double kWriteOffsetBytes = 16;
constexpr double kGradientFp64 = 6 + 7 + 10 + 4 + 2 + 4;
constexpr double kTriangleBytes = double(sizeof(ScreenTriangle)) + 4;
constexpr double kAttributeBytes = double(sizeof(TriangleAttributes));
constexpr double kEntryBytes = 8 + 8;
constexpr double kEntryInt = 6;

// The side record's bytes per set-up triangle: written, and its corners' attributes read.
double sideRecordBytes(const FrameFacts& f) {
    if (!f.sideRecords) return 0.0;
    return double(sizeof(TriangleColors)) + 3.0 * ((f.vertexColors ? 12.0 : 0.0) + (f.tangents ? 16.0 : 0.0));
}

// rasterQuad at one sample per pixel. A warp runs a step once for all 32 lanes, so operations
// are counted per warp times 32 (the peak rates count lanes). Per live block and chunk of its
// tile's list, the cull (DeviceBand::load, visibility_device.h): each of its threads tests kBandSlots
// entries, whether or not they exist (the entry and the triangle's bounds, through the L2: every
// block of the tile reads them; the four bound tests and the mask, about 10 integer operations a
// slot) and takes part in the compaction (a shuffle scan of five steps, the warps' totals, the
// offsets, the shared writes, the loop and three barriers, about 40). Per live warp: the tile's
// range, the band and the quad's place, its keys cleared and read back (eight shared accesses),
// about 30 integer operations. Per batch of 32 band-list entries (DeviceBand::quadKeys, a lane
// an entry): the index and its bound, the id from shared memory, the triangle's bounds (cached:
// the block shares them), rowQuads (four tests, the span 8), the shuffle scan of the pair counts
// (five steps of three) and its total, about 40. Per round of 32 pairs: the pair's number, the
// binary search over the lanes (five steps of four), three shuffles, the quad's place and its
// owner's slot, about 35, and four keys, each made (6) and, where kept, taken by a 64-bit shared
// atomicMin (about 6): 80 in all; and the walk of the pair's quad: EdgeStepper (three 64-bit
// edge functions, biases and steps, 54), the lanes' spread 18, steps 12, the cover test 32,
// bounds masks 12, the unused step 24, pixel places 10, about 160 integer operations; and the
// FP32 part (lane places 4, barycentrics 48, depth 20 and its sample's step 4, depth test 12, 88).
// DRAM: each tile's entry and triangle once (4 + 80 B, its 72 B attributes where the frame's
// shading reads them, and its 60 B side record where the mesh keeps them), each pixel's colour
// and depth once (8 B).
constexpr double kCullSlotInt = 10;
constexpr double kCullChunkInt = 40;
constexpr double kWarpInt = 30;
constexpr double kBatchInt = 40;
constexpr double kPairInt = 80;
constexpr double kWalkInt = 160;
constexpr double kWalkFp32 = 88;
constexpr double kTileEntryBytes = 4 + double(sizeof(ScreenTriangle));
constexpr double kPixelBytes = 8;
// Shading, per shaded pixel: barycentrics 12 and packing 16; with a texture, 1/w 5, uv 10 + two
// divisions and a bilinear sample in the classic look's 8-bit fixed point (coordinates 14 and
// two weights 6 FP32; wrapping and addresses about 25 integer operations, the weights'
// conversions 2, three lerpRgba8 of 19 each, the result unpacked to float 6 and 4 FP32; texels
// from DRAM about 4 B a pixel, each texel of the right level read about once); trilinear adds
// the three other quad pixels' uv (3 x (27 + 2 divisions)), the level (12 + log2 with a
// division, 16), a second bilinear sample (20 FP32, 25 + 2 + 57 integer) and the levels' blend
// (a weight 3 FP32 and 1, a lerpRgba8 19); the headlight, the normal (10 + 3 divisions) and
// the Lambert term (20 + 1 division); vertex colours 30 + 1 division.
constexpr double kLerpRgba8Int = 19;
constexpr double kShadeFp32 = 12 + 16;
constexpr double kTextureFp32 = 5 + 10 + 2 * kDivide + 20 + 4;
constexpr double kTextureInt = 25 + 2 + 3 * kLerpRgba8Int + 6;
constexpr double kTexelBytes = 4;
constexpr double kTrilinearFp32 = 3 * (27 + 2 * kDivide) + 12 + 16 + kDivide + 20 + 3;
constexpr double kTrilinearInt = 25 + 2 + 3 * kLerpRgba8Int + 1 + kLerpRgba8Int;
constexpr double kLightFp32 = 10 + 3 * kDivide + 20 + kDivide;
constexpr double kVertexColorFp32 = 30 + kDivide;

// cub: a scan is two kernels (its tile states' initialisation and the single-pass scan), about
// 2 integer operations a 32-bit count summed (a scan of pairs sums two an element); a radix sort
// of pairs a histogram pass over the keys (4 B) and one pass per 8-bit digit reading and writing
// keys and values (16 B), about 10 integer operations an element and pass, in 2 + passes
// launches.
constexpr double kScanInt = 2;
constexpr double kSortInt = 10;

struct Logged {
    std::uint64_t calls = 0, items = 0;
    double bytes = 0.0, ms = 0.0;
    int keyBits = 0;
};

KernelWork vertexWork(const char* name, const Logged& l, const FrameFacts& f) {
    const bool transform = std::strcmp(name, "vertexSetup") == 0;
    KernelWork w;
    const double v = double(l.items);
    w.bytes = v * ((transform ? kVertexBytes : kClassifyBytes) + attributeBytes(f));
    w.fp32Ops = v * (transform ? kVertexFp32 : kClassifyFp32);
    w.formula = std::string("per vertex ") + (transform ? "transform, " : "") + "clip test, projection";
    return w;
}

KernelWork triangleWork(const char* name, const FrameFacts& f) {
    const bool write = std::strcmp(name, "triangleWrite") == 0;
    const double t = double(f.meshTriangles), clipped = double(f.clipped);
    KernelWork w;
    w.bytes = t * (kSetupBytes + (write ? kWriteOffsetBytes : kCountWriteBytes)) + clipped * kClipBytes;
    w.intOps = t * kSetupInt;
    w.fp32Ops = clipped * kClipFp32;
    w.formula = "per mesh triangle set-up, per clipped one clipping";
    if (!write) {
        w.bytes += 4.0 * (double(f.tiles) + 1.0) + kCountZeroBytes;
        w.formula += "; the write's counts zeroed";
        return w;
    }
    const double steps = std::ceil(std::log2(double(f.materialRanges) + 1.0));
    w.intOps += t * 4.0 * steps + double(f.binEntries) * kEntryInt;
    w.fp64Ops = double(f.drawn) * kGradientFp64;
    const double triangleBytes = kTriangleBytes + (f.attributes ? kAttributeBytes : 0.0);
    w.bytes += double(f.drawn) * (triangleBytes + sideRecordBytes(f)) + double(f.binEntries) * kEntryBytes;
    w.formula += "; per set-up triangle FP64 gradients and " +
                 std::to_string(sizeof(ScreenTriangle) + (f.attributes ? sizeof(TriangleAttributes) : 0)) +
                 " B; per bin entry 16 B and an atomic";
    return w;
}

std::string percent(double part, double whole) {
    return std::to_string(whole > 0.0 ? int(std::lround(100.0 * part / whole)) : 0) + "%";
}

KernelWork rasterWork(const RasterCounts& r, const FrameFacts& f) {
    KernelWork w;
    const double lanes = kWarpSize;
    const double cullInt = double(r.bandChunks) * kRasterBlock * (kBandSlots * kCullSlotInt + kCullChunkInt);
    const double listInt = cullInt + lanes * (double(r.liveWarps) * kWarpInt + double(r.rowTests) * kBatchInt);
    const double walkInt = lanes * double(r.pairRounds) * (kPairInt + kWalkInt);
    const double shadeInt = double(r.textured) * kTextureInt + double(r.trilinear) * kTrilinearInt;
    w.intOps = listInt + walkInt + shadeInt;
    w.fp32Ops = lanes * double(r.pairRounds) * kWalkFp32 + double(r.shaded) * kShadeFp32 +
                double(r.textured) * kTextureFp32 + double(r.trilinear) * kTrilinearFp32 + double(r.lit) * kLightFp32 +
                double(r.vertexColored) * kVertexColorFp32;
    // Read with the triangle: its attributes and side record where it has them.
    const double sideBytes =
        (f.attributes ? kAttributeBytes : 0.0) + (f.sideRecords ? double(sizeof(TriangleColors)) : 0.0);
    w.bytes = double(r.tileEntries) * (kTileEntryBytes + sideBytes) + double(r.pixels) * kPixelBytes +
              double(r.textured) * kTexelBytes;
    w.formula = std::to_string(r.blocks) + " blocks cull " + std::to_string(r.bandEntries) + " tile-list entries to " +
                std::to_string(r.bandTriangles) + " in " + std::to_string(r.bandChunks) + " chunks; " +
                std::to_string(r.warpEntries) + " (warp, band-list entry) pairs in " + std::to_string(r.rowTests) +
                " batches, " + std::to_string(r.rowEntries) + " meeting the warp's row; " +
                std::to_string(r.walkLanes) + " (triangle, quad) pairs walked in " + std::to_string(r.pairRounds) +
                " rounds (lanes used: " + percent(double(r.walkLanes), lanes * double(r.pairRounds)) +
                "); integer operations: culls and batches " + percent(listInt, w.intOps) + ", pair walks " +
                percent(walkInt, w.intOps) + ", texturing " + percent(shadeInt, w.intOps) + "; " +
                std::to_string(r.shaded) + " of " + std::to_string(r.pixels) + " pixels shaded, " +
                std::to_string(r.textured) + " textured";
    return w;
}

KernelWork libraryWork(const std::string& name, const Logged& l) {
    KernelWork w;
    w.bytes = l.bytes;
    if (name == "scan") {
        w.launches = 2 * l.calls;
        w.intOps = double(l.items) * kScanInt;
        w.formula = "cub DeviceScan: read and write each element";
    } else if (name == "sortPairs") {
        const int passes = std::max(1, (l.keyBits + 7) / 8);
        w.launches = l.calls * std::uint64_t(2 + passes);
        w.bytes = double(l.items) * (4.0 + 16.0 * passes);
        w.intOps = double(l.items) * kSortInt * passes;
        w.formula = "cub DeviceRadixSort: a histogram, then " + std::to_string(passes) + " pass(es) of 16 B an entry";
    } else if (name == "memset") {
        w.launches = l.calls;
        w.formula = "cudaMemsetAsync";
    } else if (name == "roundTrip") {
        w.roundTrips = l.calls;
        w.formula = "download of totals, then the stream synchronised";
    }
    return w;
}

KernelWork workOf(const std::string& name, const Logged& l, const FrameFacts& f, const RasterCounts& r) {
    KernelWork w;
    if (name == "vertexSetup" || name == "classify") w = vertexWork(name.c_str(), l, f);
    else if (name == "triangleCount" || name == "triangleWrite") w = triangleWork(name.c_str(), f);
    else if (name == "rasterQuad") w = rasterWork(r, f);
    else w = libraryWork(name, l);
    w.name = name;
    const bool kernel = name == "vertexSetup" || name == "classify" || name == "triangleCount" ||
                        name == "triangleWrite" || name == "rasterQuad";
    if (kernel) w.launches = l.calls;
    w.threads = l.items; // a library call's elements
    return w;
}

} // namespace

std::vector<KernelWorkItem> kernelWork(const std::vector<LaunchRecord>& log, const FrameFacts& facts,
                                       const RasterCounts& raster) {
    std::vector<std::string> order;
    std::vector<Logged> logged;
    for (const LaunchRecord& r : log) {
        auto at = std::find(order.begin(), order.end(), r.name);
        if (at == order.end()) {
            order.push_back(r.name);
            logged.emplace_back();
            at = order.end() - 1;
        }
        Logged& l = logged[std::size_t(at - order.begin())];
        l.calls += 1;
        l.items += r.items;
        l.bytes += r.bytes;
        l.ms += r.ms;
        l.keyBits = std::max(l.keyBits, r.keyBits);
    }
    std::vector<KernelWorkItem> items;
    for (std::size_t i = 0; i < order.size(); ++i) items.push_back({workOf(order[i], logged[i], facts, raster), logged[i].ms});
    return items;
}

} // namespace facet
