// The CUDA pipeline's kernels, as per-thread functions on plain Params structs: the kernels in
// each stage's .cu call them once per thread, and the tests run the very same functions on the
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
// Each stage's kernels are in a file of their own, named as the CPU renderer's stage folder
// (engine/cpu/): vertex.h, triangle.h, visibility.h and shading.h (the raster stage's two halves,
// one kernel), and view_finish.h (5., the debug views of the finished frame). This file is the
// executors' glue: one name for every per-thread function and the launcher's declaration.
#pragma once

#include "shaders_cuda/shading.h"
#include "shaders_cuda/triangle.h"
#include "shaders_cuda/vertex.h"
#include "shaders_cuda/view_finish.h"
#include "shaders_cuda/visibility.h"

#if defined(FACET_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

#include <cstdint>
#include <vector>

namespace facet {

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

// The kernels' names, for the host executor's log and the GPU cost model (bench/kernel_work.h).
inline const char* kernelName(const VertexSetupParams&) { return "vertexSetup"; }
inline const char* kernelName(const ClassifyParams&) { return "classify"; }
inline const char* kernelName(const TriangleCountParams&) { return "triangleCount"; }
inline const char* kernelName(const TriangleWriteParams&) { return "triangleWrite"; }
inline const char* kernelName(const RasterParams&) { return "rasterQuad"; }
inline const char* kernelName(const DepthRangeParams&) { return "depthRange"; }
inline const char* kernelName(const ViewFinishParams&) { return "viewFinish"; }

#if defined(FACET_HAVE_CUDA)
// Launches the kernel for `params` with `threads` threads (ceil-div blocks) on `stream`, and
// returns the launch's error (cudaGetLastError) for the caller to check (FACET_CUDA_CHECK,
// engine/cuda/cuda_check.h). Pointers in `params` must be device pointers. Each stage's .cu
// instantiates it for its own Params (kernels.cuh); the raster kernel's is its own (raster.cu).
template <class Params>
cudaError_t launchKernel(const Params& params, std::uint32_t threads, void* stream);
template <>
cudaError_t launchKernel(const RasterParams& params, std::uint32_t threads, void* stream);
#endif

} // namespace facet
