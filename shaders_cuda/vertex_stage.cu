#include "vertex_stage.h"

#include "cuda/cuda_check.h"

#include <cuda_runtime_api.h>

namespace facet {

namespace {

constexpr unsigned kBlock = 256;

__global__ void vertexStageKernel(VertexStageParams params) {
    vertexStageThread(params, blockIdx.x * blockDim.x + threadIdx.x);
}

} // namespace

void launchVertexStage(const VertexStageParams& params, void* stream) {
    if (params.count == 0) return;
    const unsigned blocks = (params.count + kBlock - 1) / kBlock;
    vertexStageKernel<<<blocks, kBlock, 0, static_cast<cudaStream_t>(stream)>>>(params);
    FACET_CUDA_CHECK_LAUNCH();
}

} // namespace facet
