// The raster kernel's launch (raster_kernel.cuh), and its one-sample frames' kernel; the
// multisampled frames' is compiled in raster_multisampled.cu. The raster pipeline launches whole
// tiles (kQuadsPerTile threads each), so every block is whole.
#include "shaders_cuda/raster_kernel.cuh"

namespace facet {

template <>
cudaError_t launchKernel(const RasterParams& params, std::uint32_t threads, void* stream) {
    if (threads == 0) return cudaSuccess;
    const unsigned blocks = (threads + kRasterBlock - 1) / kRasterBlock;
    const auto cudaStream = static_cast<cudaStream_t>(stream);
    if (params.plan.settings.msaa > 1)
        launchMultisampledRaster(params, blocks, cudaStream);
    else
        rasterKernel<false><<<blocks, kRasterBlock, 0, cudaStream>>>(params);
    return cudaGetLastError();
}

} // namespace facet
