// The finished frame's debug view kernels (view_finish.h): the generic kernel (kernels.cuh)
// instantiated for their Params.
#include "shaders_cuda/kernels.cuh"

namespace facet {

template cudaError_t launchKernel(const DepthRangeParams&, std::uint32_t, void*);
template cudaError_t launchKernel(const ViewFinishParams&, std::uint32_t, void*);

} // namespace facet
