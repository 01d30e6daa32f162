// The raster kernel (kernels.h, 4. rasterQuad): both halves of the raster stage, visibility
// (visibility.h, and the block's band list, visibility_device.h) and shading (shading.h), in
// one kernel, a thread per quad.
#include "shaders_cuda/cuda_block.cuh"
#include "shaders_cuda/kernels.h"
#include "shaders_cuda/visibility_device.h"

#include <cuda_runtime_api.h>

namespace facet {

namespace {

// The raster kernel, one for one-sample frames and one for multisampled ones (rasterQuadThread):
// kRasterBlock threads a block (launchBlocks), the band's list in 4 KB of static shared memory
// and, with one sample, its quads' keys in 8 KB (only the one-sample walk takes pairs).
template <bool Multisampled>
__global__ void rasterKernel(RasterParams params) {
    __shared__ std::uint32_t ids[kBandChunk];
    __shared__ std::uint32_t warpTotals[kRasterWarps];
    __shared__ std::uint64_t keys[Multisampled ? 1 : kRasterBlock * 4];
    CudaBlock block;
    rasterBlockThread<Multisampled>(block, params, BandShared{ids, warpTotals, keys});
}

// The raster pipeline launches whole tiles (kQuadsPerTile threads each), so every block is whole.
void launchBlocks(const RasterParams& params, std::uint32_t threads, cudaStream_t stream) {
    const unsigned blocks = (threads + kRasterBlock - 1) / kRasterBlock;
    if (params.plan.settings.msaa > 1)
        rasterKernel<true><<<blocks, kRasterBlock, 0, stream>>>(params);
    else
        rasterKernel<false><<<blocks, kRasterBlock, 0, stream>>>(params);
}

} // namespace

template <>
cudaError_t launchKernel(const RasterParams& params, std::uint32_t threads, void* stream) {
    if (threads == 0) return cudaSuccess;
    launchBlocks(params, threads, static_cast<cudaStream_t>(stream));
    return cudaGetLastError();
}

} // namespace facet
