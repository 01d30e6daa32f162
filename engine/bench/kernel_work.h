// The work one frame of the CUDA pipeline does on a GPU, per kernel, counted from the same
// frame run on the CPU (HostExec): the executor's log gives each kernel's launches and threads
// and each scan's, sort's and memset's elements and bytes; the frame's own buffers (tile bins,
// set-up triangles, materials) give the data-dependent counts (how many warps walk how many
// triangles, which pixels are shaded and how); per-unit costs, read off each kernel's code and
// written beside it in kernel_work.cpp, turn those into bytes and operations.
//
// Why per-unit formulas rather than counters inside the FACET_HD code: the per-thread functions
// are the same source for the device and the CPU, shared with the CPU renderer (core/), and
// counters in them would need a third build of the kernels to stay free elsewhere; the
// per-unit costs of source-level operations are an estimate either way (the compiler's
// instructions differ), while the data-dependent counts, where the kernels' design shows, are
// exact here. tests/gpu_model_test.cpp checks those counts on scenes whose counts are known.
#pragma once

#include "bench/gpu_model.h"
#include "cuda/host_exec.h"
#include "shaders_cuda/visibility.h"

#include <cstdint>
#include <vector>

namespace facet {

inline constexpr std::uint32_t kWarpSize = 32;

// What the raster kernel's threads do at one sample per pixel, counted warp by warp (32
// consecutive threads: one row of 32 quads of a tile) and block by block (kRasterBlock threads:
// a band of a tile). A warp runs every step any of its lanes runs.
struct RasterCounts {
    std::uint64_t blocks = 0;          // blocks with a quad inside the picture (the rest return)
    std::uint64_t bandChunks = 0;      // chunks their culls fill (bandChunks of their tiles' lists)
    std::uint64_t bandEntries = 0;     // entries of their tiles' lists: the culls' tests
    std::uint64_t bandTriangles = 0;   // of those, the triangles meeting the band: the blocks' lists
    std::uint64_t liveWarps = 0;       // the warps of those blocks (all walk their band's list)
    std::uint64_t liveQuads = 0;       // their quads inside the picture (the rest write nothing)
    std::uint64_t warpEntries = 0;     // (live warp, entry of its band's list) pairs: the row tests
    std::uint64_t rowTests = 0;        // the warps' batches: 32 entries of a chunk each, or what is left
    std::uint64_t rowEntries = 0;      // of warpEntries, those meeting the warp's quad row
    std::uint64_t walkLanes = 0;       // (quad, triangle) pairs whose bounds meet: the pairs walked
    std::uint64_t pairRounds = 0;      // the warps' rounds of 32 pairs (per batch, its pairs / 32 up)
    std::uint64_t tileEntries = 0;     // bin entries of tiles with a live warp (each read once a tile)
    std::uint64_t pixels = 0;          // pixels written (inside the picture)
    std::uint64_t shaded = 0;          // of those, with a triangle (the rest get the clear colour)
    std::uint64_t textured = 0;        // shaded from a texture
    std::uint64_t trilinear = 0;       // of those, with trilinear filtering (two mip levels at most)
    std::uint64_t lit = 0;             // shaded with the headlight
    std::uint64_t vertexColored = 0;   // shaded with vertex colours
};

// Counts the raster kernel's work from its parameters (host memory: the HostExec frame's),
// a tile a task on `pool`.
RasterCounts countRasterWork(const RasterParams& p, ThreadPool& pool);

// What else the formulas need about the frame.
struct FrameFacts {
    bool texCoords = false, normals = false, vertexColors = false; // the mesh's attributes
    bool tangents = false;    // the triangle stage read the mesh's tangents (lit model, bump maps)
    bool sideRecords = false; // set-up triangles kept side records (vertex colours, tangents)
    bool attributes = false;  // set-up triangles kept their attributes (TriangleAttributes)
    std::uint32_t materialRanges = 0;
    std::uint32_t meshTriangles = 0; // the mesh's (triangleCount runs more threads: see triangleCountThreads)
    std::uint32_t tiles = 0;         // the frame's tiles
    std::uint64_t clipped = 0;      // mesh triangles clipped
    std::uint64_t drawn = 0;        // set-up triangles
    std::uint64_t binEntries = 0;   // (tile, triangle) pairs
};

// The frame's kernels and library calls in the order they ran, one entry per kernel name (a
// name run twice, like the scans, is one entry of two launches), with the CPU's time for each.
struct KernelWorkItem {
    KernelWork work;
    double cpuMs = 0.0; // what the host executor took
};

std::vector<KernelWorkItem> kernelWork(const std::vector<LaunchRecord>& log, const FrameFacts& facts,
                                       const RasterCounts& raster);

} // namespace facet
