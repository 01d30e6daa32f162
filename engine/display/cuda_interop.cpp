#include "display/cuda_interop.h"

#include "cuda/cuda_check.h"

#include <utility>

namespace facet {

std::vector<int> cudaDevicesForCurrentGlContext() {
    constexpr unsigned kMost = 16;
    int devices[kMost] = {};
    unsigned count = 0;
    if (cudaGLGetDevices(&count, devices, kMost, cudaGLDeviceListAll) != cudaSuccess) {
        cudaGetLastError(); // cudaErrorNoDevice for a context CUDA does not drive: an answer, not a fault
        return {};
    }
    return std::vector<int>(devices, devices + (count < kMost ? count : kMost));
}

void makeDeviceCurrent(int device) { FACET_CUDA_CHECK(cudaSetDevice(device)); }

InteropBuffer::~InteropBuffer() { abandon(); }

InteropBuffer::InteropBuffer(InteropBuffer&& other) noexcept
    : resource_(std::exchange(other.resource_, nullptr)), buffer_(std::exchange(other.buffer_, 0u)),
      generation_(std::exchange(other.generation_, 0u)), width_(std::exchange(other.width_, 0)),
      height_(std::exchange(other.height_, 0)) {}

InteropBuffer& InteropBuffer::operator=(InteropBuffer&& other) noexcept {
    if (this != &other) {
        abandon();
        resource_ = std::exchange(other.resource_, nullptr);
        buffer_ = std::exchange(other.buffer_, 0u);
        generation_ = std::exchange(other.generation_, 0u);
        width_ = std::exchange(other.width_, 0);
        height_ = std::exchange(other.height_, 0);
    }
    return *this;
}

void InteropBuffer::attach(const PixelBuffer& buffer) {
    if (resource_ && buffer_ == buffer.name() && generation_ == buffer.generation()) return;
    release();
    if (buffer.name() == 0) throw Error("CUDA-GL interop: the pixel buffer has no storage yet");
    FACET_CUDA_CHECK(cudaGraphicsGLRegisterBuffer(&resource_, buffer.name(), cudaGraphicsRegisterFlagsWriteDiscard));
    buffer_ = buffer.name();
    generation_ = buffer.generation();
    width_ = buffer.width();
    height_ = buffer.height();
}

void InteropBuffer::release() {
    const cudaGraphicsResource_t resource = std::exchange(resource_, nullptr);
    buffer_ = 0;
    generation_ = 0;
    width_ = height_ = 0;
    if (resource) FACET_CUDA_CHECK(cudaGraphicsUnregisterResource(resource));
}

void InteropBuffer::abandon() noexcept {
    if (resource_ && cudaGraphicsUnregisterResource(resource_) != cudaSuccess) cudaGetLastError();
    resource_ = nullptr;
    buffer_ = 0;
    generation_ = 0;
    width_ = height_ = 0;
}

MappedInterop::MappedInterop(InteropBuffer& buffer, void* stream)
    : resource_(buffer.resource()), stream_(static_cast<cudaStream_t>(stream)) {
    if (!resource_) throw Error("CUDA-GL interop: no pixel buffer is registered");
    FACET_CUDA_CHECK(cudaGraphicsMapResources(1, &resource_, stream_));
    void* p = nullptr;
    const cudaError_t e = cudaGraphicsResourceGetMappedPointer(&p, &bytes_, resource_);
    if (e != cudaSuccess) {
        cudaGraphicsUnmapResources(1, &resource_, stream_);
        throwCudaFailure(e, "cudaGraphicsResourceGetMappedPointer", __FILE__, __LINE__);
    }
    pixels_ = static_cast<std::uint32_t*>(p);
}

MappedInterop::~MappedInterop() {
    // Reached with pixels_ set only while an exception unwinds, which reports the failure.
    if (pixels_ && cudaGraphicsUnmapResources(1, &resource_, stream_) != cudaSuccess) cudaGetLastError();
}

void MappedInterop::unmap() {
    if (!pixels_) return;
    pixels_ = nullptr;
    FACET_CUDA_CHECK(cudaGraphicsUnmapResources(1, &resource_, stream_));
}

} // namespace facet
