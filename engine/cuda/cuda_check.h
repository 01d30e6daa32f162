// Checked CUDA runtime calls for setup code: a failure throws facet::Error naming the call,
// the file, the line and CUDA's own error string.
#pragma once

#include "core/error.h"

#include <cuda_runtime_api.h>

#include <string>

namespace facet {

[[noreturn]] inline void throwCudaFailure(cudaError_t code, const char* expr, const char* file, int line) {
    throw Error(std::string("CUDA error ") + cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ") in " +
                expr + " at " + file + ":" + std::to_string(line));
}

} // namespace facet

#define FACET_CUDA_CHECK(call)                                                          \
    do {                                                                                \
        const cudaError_t facet_cuda_status_ = (call);                                   \
        if (facet_cuda_status_ != cudaSuccess)                                          \
            ::facet::throwCudaFailure(facet_cuda_status_, #call, __FILE__, __LINE__);   \
    } while (0)

// After a kernel launch: launch-configuration errors surface here, not at the next sync.
// cudaGetLastError (not cudaPeekAtLastError) also clears a non-sticky error once it is
// reported, so one caught failure is not thrown again by every later check.
#define FACET_CUDA_CHECK_LAUNCH() FACET_CUDA_CHECK(cudaGetLastError())
