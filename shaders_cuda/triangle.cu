// The triangle stage's kernels (triangle.h): the generic kernel (kernels.cuh) instantiated for
// their Params.
#include "shaders_cuda/kernels.cuh"

namespace facet {

template cudaError_t launchKernel(const TriangleCountParams&, std::uint32_t, void*);
template cudaError_t launchKernel(const TriangleWriteParams&, std::uint32_t, void*);

} // namespace facet
