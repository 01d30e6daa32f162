// The raster kernel (kernels.h, 4. rasterQuad): both halves of the raster stage, visibility
// (visibility.h, and the block's band list, visibility_device.h) and shading (shading.h), in
// one kernel, a thread per quad; one for one-sample frames and one for multisampled ones
// (rasterQuadThread). Each is compiled in a file of its own, raster.cu and
// raster_multisampled.cu, so that the two compile side by side: ptxas takes minutes over each,
// and the one file that held both ended every CUDA build. nvcc only.
#pragma once

#include "shaders_cuda/cuda_block.cuh"
#include "shaders_cuda/kernels.h"
#include "shaders_cuda/visibility_device.h"

#include <cuda_runtime_api.h>

namespace facet {

// kRasterBlock threads a block, the band's list in 4 KB of static shared memory and, with one
// sample, its quads' keys in 8 KB (only the one-sample walk takes pairs).
template <bool Multisampled>
__global__ void rasterKernel(RasterParams params) {
    __shared__ std::uint32_t ids[kBandChunk];
    __shared__ std::uint32_t warpTotals[kRasterWarps];
    __shared__ std::uint64_t keys[Multisampled ? 1 : kRasterBlock * 4];
    CudaBlock block;
    rasterBlockThread<Multisampled>(block, params, BandShared{ids, warpTotals, keys});
}

// Launches the multisampled frames' kernel on `blocks` blocks (raster_multisampled.cu).
void launchMultisampledRaster(const RasterParams& params, unsigned blocks, cudaStream_t stream);

} // namespace facet
