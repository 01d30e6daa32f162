#include "frame_kernels.h"

#include "cuda/cuda_check.h"

#include <cuda_runtime_api.h>

namespace facet {

namespace {

constexpr unsigned kBlock = 256; // a quarter of a tile's quads for the raster kernel

template <class Params>
__global__ void frameKernel(Params params) {
    runThread(params, blockIdx.x * blockDim.x + threadIdx.x);
}

} // namespace

template <class Params>
void launchKernel(const Params& params, std::uint32_t threads, void* stream) {
    if (threads == 0) return;
    const unsigned blocks = (threads + kBlock - 1) / kBlock;
    frameKernel<<<blocks, kBlock, 0, static_cast<cudaStream_t>(stream)>>>(params);
    FACET_CUDA_CHECK_LAUNCH();
}

template void launchKernel(const VertexSetupParams&, std::uint32_t, void*);
template void launchKernel(const ClassifyParams&, std::uint32_t, void*);
template void launchKernel(const TriangleCountParams&, std::uint32_t, void*);
template void launchKernel(const TriangleWriteParams&, std::uint32_t, void*);
template void launchKernel(const RasterParams&, std::uint32_t, void*);
template void launchKernel(const DepthRangeParams&, std::uint32_t, void*);
template void launchKernel(const ViewFinishParams&, std::uint32_t, void*);

} // namespace facet
