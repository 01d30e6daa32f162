// The device's side of the raster stage's visibility (visibility.h): a block's band list in
// shared memory and the warps' walks of it (DeviceBand, the host executor's HostBand's
// counterpart), and whether the block's tile is drawn forward. Shared-memory and warp-level code,
// nvcc only: for raster.cu, the raster kernel's one file.
#pragma once

#include "shaders_cuda/visibility.h"

#include <cstdint>

namespace facet {

namespace {

constexpr unsigned kWarps = kRasterBlock / 32;
static_assert(kRasterBlock % 32 == 0, "a raster block is whole warps");

// A raster block's band list (see kRasterBlock in visibility.h) in shared memory: chunk c
// of the tile's list is culled by the whole block, each thread testing kBandSlots consecutive
// entries and writing its survivors at its place in draw order, found by an exclusive scan of
// the threads' counts (within a warp by shuffles, across the warps through warpTotals).
// load() is called by every thread of the block the same number of times (chunks(), the same
// for the whole block) from the same place, as __syncthreads() and the full-mask shuffles ask.
class DeviceBand {
public:
    __device__ DeviceBand(const RasterParams& p, const RasterBand& band, bool forward, std::uint32_t* ids,
                          std::uint32_t* warpTotals, unsigned long long* keys)
        : tileTriangles_(p.tileTriangles), triangles_(p.triangles), rect_(band.rect), first_(p.tileStart[band.tile]),
          last_(p.tileStart[band.tile + 1]), forward_(forward), ids_(ids), warpTotals_(warpTotals), keys_(keys) {}

    __device__ bool drawsForward() const { return forward_; }
    __device__ std::uint32_t chunks() const { return bandChunks(last_ - first_); }

    __device__ BandChunk load(std::uint32_t c) {
        __syncthreads(); // every thread is done with the previous chunk's list and totals
        const std::uint32_t base = first_ + c * kBandChunk + threadIdx.x * kBandSlots;
        std::uint32_t id[kBandSlots];
        unsigned keep = 0;
#pragma unroll
        for (std::uint32_t s = 0; s < kBandSlots; ++s) {
            const bool inList = base + s < last_;
            id[s] = inList ? tileTriangles_[base + s] : 0u;
            if (inList && meetsBand(triangles_[id[s]], rect_)) keep |= 1u << s;
        }
        const std::uint32_t kept = static_cast<std::uint32_t>(__popc(keep));
        const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
        std::uint32_t inclusive = kept;
#pragma unroll
        for (unsigned d = 1; d < 32; d *= 2) {
            const std::uint32_t before = __shfl_up_sync(0xFFFFFFFFu, inclusive, d);
            if (lane >= d) inclusive += before;
        }
        if (lane == 31) warpTotals_[warp] = inclusive;
        __syncthreads();
        std::uint32_t at = inclusive - kept, count = 0;
#pragma unroll
        for (unsigned w = 0; w < kWarps; ++w) {
            at += w < warp ? warpTotals_[w] : 0u;
            count += warpTotals_[w];
        }
#pragma unroll
        for (std::uint32_t s = 0; s < kBandSlots; ++s)
            if (keep >> s & 1u) ids_[at++] = id[s];
        __syncthreads(); // the chunk's list is whole before any thread walks it
        return BandChunk{ids_, count};
    }

    // Calls f(id) for each triangle of the chunk meeting the warp's quad row at qy (the same for
    // its 32 lanes: kQuadsPerTileRow), in draw order: 32 entries at a time, a lane testing one,
    // a ballot gathering the answers, then the warp calls f for each set bit in turn. Every lane
    // runs the same loop (chunk.count is the block's), so each ballot has the whole warp.
    template <class F>
    __device__ void forRow(const BandChunk& chunk, int qy, F&& f) const {
        const TileRect row = quadRowRect(rect_, qy);
        const unsigned lane = threadIdx.x % 32;
        for (std::uint32_t base = 0; base < chunk.count; base += 32) {
            const std::uint32_t e = base + lane;
            unsigned meets = __ballot_sync(0xFFFFFFFFu, e < chunk.count && meetsBand(triangles_[chunk.ids[e]], row));
            while (meets != 0u) {
                const unsigned bit = static_cast<unsigned>(__ffs(meets)) - 1u;
                meets &= meets - 1u;
                f(chunk.ids[base + bit]);
            }
        }
    }

    // The keys of this lane's quad at (qx, qy), by pairs (see visibilityKey in visibility.h):
    // per 32 entries of each chunk, each lane counts its entry's quads in the warp's row, a
    // shuffle scan numbers the pairs, and then per 32 pairs each lane finds its pair's entry (a
    // binary search over the lanes' first pair numbers), walks that quad and takes each of its
    // keys into the owner's slot in shared memory with atomicMin. The warp's loops are the
    // same for all its lanes (the counts and totals are the warp's), as the shuffles ask.
    __device__ void quadKeys(const RasterParams& p, int qx, int qy, bool cutouts, std::uint64_t (&keys)[4]) {
        unsigned long long* const warpKeys = keys_ + (threadIdx.x & ~31u) * 4;
        unsigned long long* const mine = warpKeys + (qx - rect_.x0) / 2 * 4; // lane (qx - x0) / 2's
#pragma unroll
        for (int k = 0; k < 4; ++k) mine[k] = kClearKey;
        __syncwarp();
        const TileRect row = quadRowRect(rect_, qy);
        const std::uint32_t chunkCount = chunks();
        for (std::uint32_t c = 0; c < chunkCount; ++c) {
            const BandChunk chunk = load(c);
            for (std::uint32_t base = 0; base < chunk.count; base += 32)
                takePairs(p, chunk, base, row, cutouts, warpKeys);
        }
        __syncwarp();
#pragma unroll
        for (int k = 0; k < 4; ++k) keys[k] = mine[k];
    }

private:
    // The pairs of entries [base, base + 32) of the chunk, 32 at a time.
    __device__ void takePairs(const RasterParams& p, const BandChunk& chunk, std::uint32_t base, const TileRect& row,
                              bool cutouts, unsigned long long* warpKeys) const {
        const unsigned lane = threadIdx.x % 32;
        const std::uint32_t e = base + lane;
        const std::uint32_t id = e < chunk.count ? chunk.ids[e] : 0u;
        const RowQuads quads = e < chunk.count ? rowQuads(triangles_[id], row) : RowQuads{0, 0u};
        std::uint32_t end = quads.count; // this lane's pairs end here (an inclusive scan)
#pragma unroll
        for (unsigned d = 1; d < 32; d *= 2) {
            const std::uint32_t before = __shfl_up_sync(0xFFFFFFFFu, end, d);
            if (lane >= d) end += before;
        }
        const std::uint32_t start = end - quads.count, total = __shfl_sync(0xFFFFFFFFu, end, 31);
        for (std::uint32_t first = 0; first < total; first += 32) {
            const std::uint32_t pair = first + lane;
            unsigned from = 0; // the last lane whose pairs start at or before `pair`
#pragma unroll
            for (unsigned step = 16; step > 0; step /= 2)
                if (__shfl_sync(0xFFFFFFFFu, start, from + step) <= pair) from += step;
            const std::uint32_t pairId = __shfl_sync(0xFFFFFFFFu, id, from);
            const int pairFirstQx = __shfl_sync(0xFFFFFFFFu, quads.firstQx, from);
            const std::uint32_t pairStart = __shfl_sync(0xFFFFFFFFu, start, from);
            if (pair >= total) continue;
            const int qx = pairFirstQx + 2 * static_cast<int>(pair - pairStart);
            const PairKeys walked = pairKeys(p, pairId, qx, row.y0, cutouts);
            unsigned long long* const owner = warpKeys + (qx - rect_.x0) / 2 * 4;
#pragma unroll
            for (int k = 0; k < 4; ++k)
                if (walked.key[k] != kClearKey) atomicMin(owner + k, static_cast<unsigned long long>(walked.key[k]));
        }
    }

    const std::uint32_t* tileTriangles_;
    const ScreenTriangle* triangles_;
    TileRect rect_;
    std::uint32_t first_, last_;
    bool forward_; // the tile is drawn forward (blockDrawsForward)
    std::uint32_t* ids_;
    std::uint32_t* warpTotals_;
    unsigned long long* keys_; // four per thread: its quad's pixels
};

// tileDrawsForward for the block's tile, its list scanned by the whole block at once (a thread
// every kRasterBlock-th entry, stopping at its first find) and the answers joined by the
// barrier, which every thread of the block reaches. A frame that may not draw forward (the
// same answer for every thread: a kernel parameter) returns before both.
__device__ bool blockDrawsForward(const RasterParams& p, const RasterBand& band) {
    if (!frameMayDrawForward(p)) return false;
    bool found = false;
    const std::uint32_t last = p.tileStart[band.tile + 1];
    for (std::uint32_t e = p.tileStart[band.tile] + threadIdx.x; e < last && !found; e += kRasterBlock)
        found = entryDrawsForward(p, e);
    return __syncthreads_or(found) != 0;
}

} // namespace

} // namespace facet
