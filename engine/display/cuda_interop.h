// CUDA-GL interop for the display's pixel buffer, in one module: the PBO is registered with
// CUDA once (write-discard: kernels overwrite every pixel), registered again when its storage
// has been reallocated since (PixelBuffer::generation), and mapped per frame by a scoped guard
// on the renderer's stream; the kernels write through the mapped device pointer and the guard
// unmaps before GL reads the buffer. Kernels never see GL. Built only with CUDA (target
// facet::display); needs a current OpenGL context.
//
// The owner's part (see display/pixel_buffer.h): while registered, the PixelBuffer is neither
// resized nor mapped from GL (release() first, attach() again after) and it outlives the
// registration (release() or destroy the InteropBuffer before the PixelBuffer). After a CUDA
// failure, abandon() the registration and replace the PixelBuffer with a fresh one.
#pragma once

#include "display/pixel_buffer.h" // glad first: cuda_gl_interop.h expects the GL types declared

#include <cuda_gl_interop.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace facet {

// The CUDA devices that drive the current OpenGL context (cudaGLGetDevices), best first; empty
// when none does (a context on an integrated GPU or Mesa's, no driver, any error: the frame is
// then copied into the pixel buffer instead of mapped). Never throws facet::Error.
std::vector<int> cudaDevicesForCurrentGlContext();

// Makes `device` the calling thread's current CUDA device: a buffer registers with, and maps on,
// the current device, which must be the renderer's (on a machine of several GPUs the last
// device used may be another). Throws facet::Error with CUDA's reason.
void makeDeviceCurrent(int device);

class InteropBuffer {
public:
    InteropBuffer() = default;
    ~InteropBuffer(); // unregisters, best effort; never throws
    InteropBuffer(InteropBuffer&& other) noexcept;
    InteropBuffer& operator=(InteropBuffer&& other) noexcept;
    InteropBuffer(const InteropBuffer&) = delete;
    InteropBuffer& operator=(const InteropBuffer&) = delete;

    // Registers `buffer`, or registers it again when it is another buffer or its storage has
    // been reallocated since (another generation). Throws facet::Error with CUDA's reason.
    void attach(const PixelBuffer& buffer);

    // Unregisters now (no MappedInterop of it may be alive), so the owner may resize the
    // PixelBuffer, map it from GL or destroy it. Throws facet::Error with CUDA's reason; the
    // registration is forgotten either way (after a failure, treat the buffer as abandoned).
    void release();

    // After a CUDA failure (a sticky error poisons the context): unregisters best effort,
    // clears CUDA's last error (a sticky one stays) and forgets the registration. The owner then replaces the
    // PixelBuffer with a fresh one (a new GL name): the old may still be registered or mapped.
    void abandon() noexcept;

    bool attached() const { return resource_ != nullptr; }
    cudaGraphicsResource_t resource() const { return resource_; }
    int width() const { return width_; }
    int height() const { return height_; }

private:
    cudaGraphicsResource_t resource_ = nullptr;
    GLuint buffer_ = 0;
    std::uint64_t generation_ = 0;
    int width_ = 0, height_ = 0;
};

// The registered buffer mapped for this object's lifetime (or until unmap()).
class MappedInterop {
public:
    // `stream`: the cudaStream_t the kernels writing the pixels run on.
    MappedInterop(InteropBuffer& buffer, void* stream);
    ~MappedInterop(); // unmaps if still mapped; never throws
    MappedInterop(const MappedInterop&) = delete;
    MappedInterop& operator=(const MappedInterop&) = delete;

    std::uint32_t* pixels() const { return pixels_; } // device pointer, width x height RGBA8
    std::size_t bytes() const { return bytes_; }

    // Unmaps now (ordered after the stream's work, before GL's next use). Throws facet::Error.
    void unmap();

private:
    cudaGraphicsResource_t resource_ = nullptr;
    cudaStream_t stream_ = nullptr;
    std::uint32_t* pixels_ = nullptr;
    std::size_t bytes_ = 0;
};

} // namespace facet
