// Move-only owners of device memory, a stream and events. Setup calls throw facet::Error;
// destructors never throw (a failing free at exit has nobody to tell).
#pragma once

#include "cuda/cuda_check.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <utility>

namespace facet {

template <class T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), capacity_(std::exchange(o.capacity_, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
        if (this != &o) {
            release();
            ptr_ = std::exchange(o.ptr_, nullptr);
            capacity_ = std::exchange(o.capacity_, 0);
        }
        return *this;
    }
    ~DeviceBuffer() { release(); }

    // Room for n elements; growing discards the contents (these are per-frame scratch buffers).
    void ensure(std::size_t n) {
        if (n <= capacity_) return;
        void* p = nullptr;
        const cudaError_t e = cudaMalloc(&p, n * sizeof(T));
        if (e != cudaSuccess) {
            cudaGetLastError();
            throw Error("cannot allocate " + std::to_string((n * sizeof(T) + (1u << 20) - 1) >> 20) +
                        " MiB of GPU memory: " + cudaGetErrorString(e));
        }
        release();
        ptr_ = static_cast<T*>(p);
        capacity_ = n;
    }

    // Replaces the contents with n host elements (setup only: a synchronous copy).
    void upload(const T* host, std::size_t n) {
        ensure(n);
        if (n) FACET_CUDA_CHECK(cudaMemcpy(ptr_, host, n * sizeof(T), cudaMemcpyHostToDevice));
    }

    T* data() { return ptr_; }
    const T* data() const { return ptr_; }

private:
    void release() noexcept {
        if (ptr_) cudaFree(ptr_);
        ptr_ = nullptr;
        capacity_ = 0;
    }
    T* ptr_ = nullptr;
    std::size_t capacity_ = 0;
};

class CudaStream {
public:
    CudaStream() { FACET_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
    CudaStream(const CudaStream&) = delete;
    CudaStream& operator=(const CudaStream&) = delete;
    ~CudaStream() {
        if (stream_) cudaStreamDestroy(stream_);
    }
    cudaStream_t get() const { return stream_; }

private:
    cudaStream_t stream_ = nullptr;
};

class CudaEvent {
public:
    CudaEvent() { FACET_CUDA_CHECK(cudaEventCreate(&event_)); }
    CudaEvent(const CudaEvent&) = delete;
    CudaEvent& operator=(const CudaEvent&) = delete;
    ~CudaEvent() {
        if (event_) cudaEventDestroy(event_);
    }
    cudaEvent_t get() const { return event_; }

private:
    cudaEvent_t event_ = nullptr;
};

} // namespace facet
