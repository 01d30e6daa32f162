// The device's side of the raster stage's visibility (visibility.h): a block's band list in
// shared memory and the warps' walks of it (DeviceBand, the host executor's HostBand's
// counterpart), whether the block's tile is drawn forward, and the raster kernel's body. Written
// once over a `Block`, the block-level and warp-level primitives of one thread: the device's
// (CudaBlock, cuda_block.cuh: CUDA's intrinsics), or the CPU's warp emulation
// (EmulatedThread, engine/cuda/warp_emulation.h), which runs a block's threads in lockstep so
// that this code runs in the tests. A Block gives:
//   threadIndex(), blockIndex()                 threadIdx.x, blockIdx.x
//   syncThreads(), syncThreadsOr(b), syncWarp() __syncthreads, __syncthreads_or, __syncwarp
//   shuffle(v, lane), shuffleUp(v, d)           __shfl_sync, __shfl_up_sync (full mask, 4 bytes)
//   ballot(b)                                   __ballot_sync (full mask)
//   sharedMin(address, v)                       atomicMin on a 64-bit word of shared memory
#pragma once

#include "shaders_cuda/shading.h"
#include "shaders_cuda/visibility.h"

#include <cstdint>

namespace facet {

inline constexpr unsigned kRasterWarps = kRasterBlock / 32;
static_assert(kRasterBlock % 32 == 0, "a raster block is whole warps");

// A raster block's shared memory: its band's list (a chunk at a time), the warps' totals for
// the scan that fills it, and, in one-sample frames, its quads' keys (four per thread).
struct BandShared {
    std::uint32_t* ids;        // kBandChunk
    std::uint32_t* warpTotals; // kRasterWarps
    std::uint64_t* keys;       // kRasterBlock * 4; unused (and may be one word) when multisampled
};

FACET_HD unsigned bitCount(unsigned x) {
#if defined(__CUDA_ARCH__)
    return static_cast<unsigned>(__popc(x));
#else
    return static_cast<unsigned>(__builtin_popcount(x));
#endif
}

// The lowest set bit's index (x != 0).
FACET_HD unsigned lowestBit(unsigned x) {
#if defined(__CUDA_ARCH__)
    return static_cast<unsigned>(__ffs(x)) - 1u;
#else
    return static_cast<unsigned>(__builtin_ctz(x));
#endif
}

// A raster block's band list (see kRasterBlock in visibility.h) in shared memory: chunk c
// of the tile's list is culled by the whole block, each thread testing kBandSlots consecutive
// entries and writing its survivors at its place in draw order, found by an exclusive scan of
// the threads' counts (within a warp by shuffles, across the warps through warpTotals).
// load() is called by every thread of the block the same number of times (chunks(), the same
// for the whole block) from the same place, as __syncthreads() and the full-mask shuffles ask.
template <class Block>
class DeviceBand {
public:
    FACET_HD DeviceBand(Block& block, const RasterParams& p, const RasterBand& band, bool forward,
                        const BandShared& shared)
        : block_(block), tileTriangles_(p.tileTriangles), triangles_(p.triangles), rect_(band.rect),
          first_(p.tileStart[band.tile]), last_(p.tileStart[band.tile + 1]), forward_(forward), shared_(shared) {}

    FACET_HD bool drawsForward() const { return forward_; }
    FACET_HD std::uint32_t chunks() const { return bandChunks(last_ - first_); }

    FACET_HD BandChunk load(std::uint32_t c) {
        block_.syncThreads(); // every thread is done with the previous chunk's list and totals
        const unsigned thread = block_.threadIndex();
        const std::uint32_t base = first_ + c * kBandChunk + thread * kBandSlots;
        std::uint32_t id[kBandSlots];
        unsigned keep = 0;
        FACET_UNROLL
        for (std::uint32_t s = 0; s < kBandSlots; ++s) {
            const bool inList = base + s < last_;
            id[s] = inList ? tileTriangles_[base + s] : 0u;
            if (inList && meetsBand(triangles_[id[s]], rect_)) keep |= 1u << s;
        }
        const std::uint32_t kept = bitCount(keep);
        const unsigned lane = thread % 32, warp = thread / 32;
        std::uint32_t inclusive = kept;
        FACET_UNROLL
        for (unsigned d = 1; d < 32; d *= 2) {
            const std::uint32_t before = block_.shuffleUp(inclusive, d);
            if (lane >= d) inclusive += before;
        }
        if (lane == 31) shared_.warpTotals[warp] = inclusive;
        block_.syncThreads();
        std::uint32_t at = inclusive - kept, count = 0;
        FACET_UNROLL
        for (unsigned w = 0; w < kRasterWarps; ++w) {
            at += w < warp ? shared_.warpTotals[w] : 0u;
            count += shared_.warpTotals[w];
        }
        FACET_UNROLL
        for (std::uint32_t s = 0; s < kBandSlots; ++s)
            if (keep >> s & 1u) shared_.ids[at++] = id[s];
        block_.syncThreads(); // the chunk's list is whole before any thread walks it
        return BandChunk{shared_.ids, count};
    }

    // Calls f(id) for each triangle of the chunk meeting the warp's quad row at qy (the same for
    // its 32 lanes: kQuadsPerTileRow), in draw order: 32 entries at a time, a lane testing one,
    // a ballot gathering the answers, then the warp calls f for each set bit in turn. Every lane
    // runs the same loop (chunk.count is the block's), so each ballot has the whole warp.
    template <class F>
    FACET_HD void forRow(const BandChunk& chunk, int qy, F&& f) const {
        const TileRect row = quadRowRect(rect_, qy);
        const unsigned lane = block_.threadIndex() % 32;
        for (std::uint32_t base = 0; base < chunk.count; base += 32) {
            const std::uint32_t e = base + lane;
            unsigned meets = block_.ballot(e < chunk.count && meetsBand(triangles_[chunk.ids[e]], row));
            while (meets != 0u) {
                const unsigned bit = lowestBit(meets);
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
    FACET_HD void quadKeys(const RasterParams& p, int qx, int qy, bool cutouts, std::uint64_t (&keys)[4]) {
        std::uint64_t* const warpKeys = shared_.keys + (block_.threadIndex() & ~31u) * 4;
        std::uint64_t* const mine = warpKeys + (qx - rect_.x0) / 2 * 4; // lane (qx - x0) / 2's
        FACET_UNROLL
        for (int k = 0; k < 4; ++k) mine[k] = kClearKey;
        block_.syncWarp();
        const TileRect row = quadRowRect(rect_, qy);
        const std::uint32_t chunkCount = chunks();
        for (std::uint32_t c = 0; c < chunkCount; ++c) {
            const BandChunk chunk = load(c);
            for (std::uint32_t base = 0; base < chunk.count; base += 32)
                takePairs(p, chunk, base, row, cutouts, warpKeys);
        }
        block_.syncWarp();
        FACET_UNROLL
        for (int k = 0; k < 4; ++k) keys[k] = mine[k];
    }

private:
    // The pairs of entries [base, base + 32) of the chunk, 32 at a time.
    FACET_HD void takePairs(const RasterParams& p, const BandChunk& chunk, std::uint32_t base, const TileRect& row,
                            bool cutouts, std::uint64_t* warpKeys) const {
        const unsigned lane = block_.threadIndex() % 32;
        const std::uint32_t e = base + lane;
        const std::uint32_t id = e < chunk.count ? chunk.ids[e] : 0u;
        const RowQuads quads = e < chunk.count ? rowQuads(triangles_[id], row) : RowQuads{0, 0u};
        std::uint32_t end = quads.count; // this lane's pairs end here (an inclusive scan)
        FACET_UNROLL
        for (unsigned d = 1; d < 32; d *= 2) {
            const std::uint32_t before = block_.shuffleUp(end, d);
            if (lane >= d) end += before;
        }
        const std::uint32_t start = end - quads.count, total = block_.shuffle(end, 31);
        for (std::uint32_t first = 0; first < total; first += 32) {
            const std::uint32_t pair = first + lane;
            unsigned from = 0; // the last lane whose pairs start at or before `pair`
            FACET_UNROLL
            for (unsigned step = 16; step > 0; step /= 2)
                if (block_.shuffle(start, from + step) <= pair) from += step;
            const std::uint32_t pairId = block_.shuffle(id, from);
            const int pairFirstQx = block_.shuffle(quads.firstQx, from);
            const std::uint32_t pairStart = block_.shuffle(start, from);
            if (pair >= total) continue;
            const int qx = pairFirstQx + 2 * static_cast<int>(pair - pairStart);
            const PairKeys walked = pairKeys(p, pairId, qx, row.y0, cutouts);
            std::uint64_t* const owner = warpKeys + (qx - rect_.x0) / 2 * 4;
            FACET_UNROLL
            for (int k = 0; k < 4; ++k)
                if (walked.key[k] != kClearKey) block_.sharedMin(owner + k, walked.key[k]);
        }
    }

    Block& block_;
    const std::uint32_t* tileTriangles_;
    const ScreenTriangle* triangles_;
    TileRect rect_;
    std::uint32_t first_, last_;
    bool forward_; // the tile is drawn forward (blockDrawsForward)
    BandShared shared_;
};

// tileDrawsForward for the block's tile, its list scanned by the whole block at once (a thread
// every kRasterBlock-th entry, stopping at its first find) and the answers joined by the
// barrier, which every thread of the block reaches. A frame that may not draw forward (the
// same answer for every thread: a kernel parameter) returns before both.
template <class Block>
FACET_HD bool blockDrawsForward(Block& block, const RasterParams& p, const RasterBand& band) {
    if (!frameMayDrawForward(p)) return false;
    bool found = false;
    const std::uint32_t last = p.tileStart[band.tile + 1];
    for (std::uint32_t e = p.tileStart[band.tile] + block.threadIndex(); e < last && !found; e += kRasterBlock)
        found = entryDrawsForward(p, e);
    return block.syncThreadsOr(found);
}

// The raster kernel's body for one thread of its block (rasterQuadThread, with the block's
// band list in `shared`). A band past the picture returns whole, before any barrier.
template <bool Multisampled, class Block>
FACET_HD void rasterBlockThread(Block& block, const RasterParams& p, const BandShared& shared) {
    const RasterBand band = rasterBand(p, block.blockIndex());
    if (!band.live) return;
    DeviceBand<Block> list(block, p, band, blockDrawsForward(block, p, band), shared);
    rasterQuadThread<Multisampled>(p, block.blockIndex() * kRasterBlock + block.threadIndex(), list);
}

} // namespace facet
