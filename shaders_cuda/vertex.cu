// The vertex stage's kernels (vertex.h): the generic kernel (kernels.cuh) instantiated for their
// Params, and the plain vertex stage's own.
#include "shaders_cuda/kernels.cuh"

#include <cuda_runtime_api.h>

namespace facet {

namespace {

__global__ void vertexStageKernel(VertexStageParams params) {
    vertexStageThread(params, blockIdx.x * blockDim.x + threadIdx.x);
}

} // namespace

cudaError_t launchVertexStage(const VertexStageParams& params, void* stream) {
    if (params.count == 0) return cudaSuccess;
    const unsigned blocks = (params.count + kBlock - 1) / kBlock;
    vertexStageKernel<<<blocks, kBlock, 0, static_cast<cudaStream_t>(stream)>>>(params);
    return cudaGetLastError();
}

template cudaError_t launchKernel(const VertexSetupParams&, std::uint32_t, void*);
template cudaError_t launchKernel(const ClassifyParams&, std::uint32_t, void*);

} // namespace facet
