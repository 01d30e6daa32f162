#include "bench/project_kernels.h"

#include "cuda/cuda_check.h"

#include <cuda_runtime_api.h>

namespace facet {

namespace {

constexpr unsigned kBlock = 256;

__global__ void projectKernel(ProjectParams params) { projectThread(params, blockIdx.x * blockDim.x + threadIdx.x); }
__global__ void shiftKernel(ShiftParams params) { shiftThread(params, blockIdx.x * blockDim.x + threadIdx.x); }
__global__ void rotateKernel(RotateParams params) { rotateThread(params, blockIdx.x * blockDim.x + threadIdx.x); }
__global__ void divideKernel(DivideParams params) { divideThread(params, blockIdx.x * blockDim.x + threadIdx.x); }

template <class Params>
void launch(void (*kernel)(Params), const Params& params, void* stream) {
    if (params.count == 0) return;
    const unsigned blocks = (params.count + kBlock - 1) / kBlock;
    kernel<<<blocks, kBlock, 0, static_cast<cudaStream_t>(stream)>>>(params);
    FACET_CUDA_CHECK_LAUNCH();
}

} // namespace

void launchProject(const ProjectParams& params, void* stream) { launch(projectKernel, params, stream); }
void launchShift(const ShiftParams& params, void* stream) { launch(shiftKernel, params, stream); }
void launchRotate(const RotateParams& params, void* stream) { launch(rotateKernel, params, stream); }
void launchDivide(const DivideParams& params, void* stream) { launch(divideKernel, params, stream); }

} // namespace facet
