// Move-only owners of device memory, a stream and events. Setup calls throw facet::Error;
// destructors never throw (a failing free at exit has nobody to tell).
#pragma once

#include "cuda/buffer_growth.h"
#include "cuda/cuda_check.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <limits>
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

    // Room for n elements; growing discards the contents (these are per-frame scratch buffers)
    // and allocates geometrically (grownCapacity). Memory still in use by queued work must not
    // be freed by a growth: callers synchronise the stream first (see DeviceExec::scratch).
    void ensure(std::size_t n) {
        if (n <= capacity_) return;
        if (n > std::numeric_limits<std::size_t>::max() / sizeof(T))
            throw Error("cannot allocate " + std::to_string(n) + " elements of " + std::to_string(sizeof(T)) +
                        " bytes of GPU memory: the size overflows");
        std::size_t size = grownCapacity(capacity_, n, sizeof(T));
        release(); // the contents are discarded anyway: the peak is the new size alone
        void* p = nullptr;
        cudaError_t e = cudaMalloc(&p, size * sizeof(T));
        if (e != cudaSuccess && size > n) { // the geometric slack may be what does not fit
            cudaGetLastError();
            size = n;
            e = cudaMalloc(&p, size * sizeof(T));
        }
        if (e != cudaSuccess) {
            cudaGetLastError();
            throw Error("cannot allocate " + std::to_string((n * sizeof(T) + (1u << 20) - 1) >> 20) +
                        " MiB of GPU memory: " + cudaGetErrorString(e));
        }
        ptr_ = static_cast<T*>(p);
        capacity_ = size;
    }

    // Replaces the contents with n host elements, copied on `stream` (the renderer's): the
    // host memory must stay alive and unchanged until the stream is synchronised.
    void upload(const T* host, std::size_t n, cudaStream_t stream) {
        ensure(n);
        if (n) FACET_CUDA_CHECK(cudaMemcpyAsync(ptr_, host, n * sizeof(T), cudaMemcpyHostToDevice, stream));
    }

    // The same, complete when it returns, so work on any stream may read it (setup only). A
    // plain cudaMemcpy would not do: from pageable memory it may return before the copy lands,
    // and nothing orders it before a non-blocking stream's kernels.
    void upload(const T* host, std::size_t n) {
        upload(host, n, nullptr);
        FACET_CUDA_CHECK(cudaStreamSynchronize(nullptr));
    }

    std::size_t capacity() const { return capacity_; }
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
