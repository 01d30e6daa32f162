// The raster kernel for multisampled frames (raster_kernel.cuh), in a file of its own so that it
// compiles beside the one-sample kernel (raster.cu).
#include "shaders_cuda/raster_kernel.cuh"

namespace facet {

void launchMultisampledRaster(const RasterParams& params, unsigned blocks, cudaStream_t stream) {
    rasterKernel<true><<<blocks, kRasterBlock, 0, stream>>>(params);
}

} // namespace facet
