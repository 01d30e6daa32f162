// The device's Block (visibility_device.h): one thread's block-level and warp-level primitives,
// CUDA's own intrinsics, full-mask. nvcc only; the CPU's counterpart is EmulatedThread
// (engine/cuda/warp_emulation.h).
#pragma once

#include <cstdint>

namespace facet {

struct CudaBlock {
    __device__ unsigned threadIndex() const { return threadIdx.x; }
    __device__ unsigned blockIndex() const { return blockIdx.x; }
    __device__ void syncThreads() const { __syncthreads(); }
    __device__ bool syncThreadsOr(bool b) const { return __syncthreads_or(b) != 0; }
    __device__ void syncWarp() const { __syncwarp(); }
    template <class T>
    __device__ T shuffle(T v, unsigned lane) const {
        return __shfl_sync(0xFFFFFFFFu, v, static_cast<int>(lane));
    }
    template <class T>
    __device__ T shuffleUp(T v, unsigned delta) const {
        return __shfl_up_sync(0xFFFFFFFFu, v, delta);
    }
    __device__ unsigned ballot(bool b) const { return __ballot_sync(0xFFFFFFFFu, b); }
    __device__ void sharedMin(std::uint64_t* address, std::uint64_t v) const {
        static_assert(sizeof(std::uint64_t) == sizeof(unsigned long long), "64-bit keys");
        atomicMin(reinterpret_cast<unsigned long long*>(address), static_cast<unsigned long long>(v));
    }
};

} // namespace facet
