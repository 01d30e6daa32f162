// The CUDA pipeline's executor for the GPU (see engine/cuda/kernel_pipeline.h): kernels on one
// stream, cub's device scans and sorts with grow-only temporary storage (one each), CUDA events
// for the stage timings. nvcc only (cub).
#pragma once

#include "cuda/device_buffer.h"
#include "shaders_cuda/kernels.h"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>

#include <cstdint>

namespace facet {

class DeviceExec {
public:
    explicit DeviceExec(cudaStream_t stream) : stream_(stream) {}

    template <class T>
    using Buffer = DeviceBuffer<T>;

    template <class Params>
    void launch(const Params& params, std::uint32_t threads) {
        FACET_CUDA_CHECK(launchKernel(params, threads, stream_));
    }

    template <class T>
    void zero(T* p, std::size_t n) {
        if (n) FACET_CUDA_CHECK(cudaMemsetAsync(p, 0, n * sizeof(T), stream_));
    }

    // Sums in Out's width (64-bit offsets from 32-bit counts, or TriangleOffsets from
    // TriangleCounts): cub accumulates in the type of the initial value, Out{} (zero).
    template <class In, class Out>
    void exclusiveScan(const In* in, Out* out, std::size_t n) {
        const cuda::std::plus<> sum;
        std::size_t bytes = 0;
        FACET_CUDA_CHECK(cub::DeviceScan::ExclusiveScan(nullptr, bytes, in, out, sum, Out{}, n, stream_));
        void* temp = scratch(scanTemp_, bytes);
        FACET_CUDA_CHECK(cub::DeviceScan::ExclusiveScan(temp, bytes, in, out, sum, Out{}, n, stream_));
    }

    // cub's radix sort is stable: entries with equal keys keep their order (draw order).
    void sortPairs(const std::uint32_t* keysIn, std::uint32_t* keysOut, const std::uint32_t* valuesIn,
                   std::uint32_t* valuesOut, std::size_t n, int keyBits) {
        if (n == 0) return;
        std::size_t bytes = 0;
        FACET_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keysIn, keysOut, valuesIn, valuesOut, n, 0,
                                                         keyBits, stream_));
        void* temp = scratch(sortTemp_, bytes);
        FACET_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp, bytes, keysIn, keysOut, valuesIn, valuesOut, n, 0,
                                                         keyBits, stream_));
    }

    template <class T>
    void download(const T* src, T* dst, std::size_t n) {
        FACET_CUDA_CHECK(cudaMemcpyAsync(dst, src, n * sizeof(T), cudaMemcpyDeviceToHost, stream_));
    }
    // From pageable host memory: the copy has read `src` when this returns.
    template <class T>
    void upload(const T* src, T* dst, std::size_t n) {
        if (n) FACET_CUDA_CHECK(cudaMemcpyAsync(dst, src, n * sizeof(T), cudaMemcpyHostToDevice, stream_));
    }
    void synchronize() { FACET_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

    void timerStart() { FACET_CUDA_CHECK(cudaEventRecord(marks_[0].get(), stream_)); }
    void timerMark(int stage) { FACET_CUDA_CHECK(cudaEventRecord(marks_[stage + 1].get(), stream_)); }
    void timerRead(double* ms, int stages) {
        FACET_CUDA_CHECK(cudaEventSynchronize(marks_[stages].get()));
        for (int s = 0; s < stages; ++s) {
            float t = 0.0f;
            FACET_CUDA_CHECK(cudaEventElapsedTime(&t, marks_[s].get(), marks_[s + 1].get()));
            ms[s] = t;
        }
    }

private:
    // cub's temporary storage of `bytes`. Growing frees the old block, which a scan or sort
    // queued earlier on the stream may still be using: the stream is drained first.
    void* scratch(DeviceBuffer<unsigned char>& buffer, std::size_t bytes) {
        if (bytes > buffer.capacity() && buffer.capacity() > 0) synchronize();
        buffer.ensure(bytes);
        return buffer.data();
    }

    cudaStream_t stream_;
    DeviceBuffer<unsigned char> scanTemp_, sortTemp_; // apart, so the sort's growth never frees the scan's
    CudaEvent marks_[4];
};

} // namespace facet
