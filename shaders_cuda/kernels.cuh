// The device side of launchKernel (kernels.h) for each stage's .cu to instantiate for its own
// Params: the generic kernel, a thread per index running the Params' per-thread function
// (runThread), on ceil-div grids of kBlock threads. nvcc only.
#pragma once

#include "shaders_cuda/kernels.h"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace facet {

namespace {

constexpr unsigned kBlock = 256;

template <class Params>
__global__ void frameKernel(Params params) {
    runThread(params, blockIdx.x * blockDim.x + threadIdx.x);
}

template <class Params>
void launchBlocks(const Params& params, std::uint32_t threads, cudaStream_t stream) {
    const unsigned blocks = (threads + kBlock - 1) / kBlock;
    frameKernel<<<blocks, kBlock, 0, stream>>>(params);
}

} // namespace

template <class Params>
cudaError_t launchKernel(const Params& params, std::uint32_t threads, void* stream) {
    if (threads == 0) return cudaSuccess;
    launchBlocks(params, threads, static_cast<cudaStream_t>(stream));
    return cudaGetLastError();
}

} // namespace facet
