// CUDA-GL interop for the display's pixel buffer, in one module: the PBO is registered with
// CUDA once (write-discard: kernels overwrite every pixel), registered again when it is
// resized (its storage changes), and mapped per frame by a scoped guard on the renderer's
// stream; the kernels write through the mapped device pointer and the guard unmaps before GL
// reads the buffer. Kernels never see GL. Built only with CUDA (target facet::gl_interop);
// needs a current OpenGL context.
#pragma once

#include "display/pixel_buffer.h" // glad first: cuda_gl_interop.h expects the GL types declared

#include <cuda_gl_interop.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace facet {

class InteropBuffer {
public:
    InteropBuffer() = default;
    ~InteropBuffer(); // unregisters; never throws
    InteropBuffer(InteropBuffer&& other) noexcept;
    InteropBuffer& operator=(InteropBuffer&& other) noexcept;
    InteropBuffer(const InteropBuffer&) = delete;
    InteropBuffer& operator=(const InteropBuffer&) = delete;

    // Registers `buffer`, or registers it again when it is another buffer or has been resized
    // since. Throws facet::Error with CUDA's reason.
    void attach(const PixelBuffer& buffer);

    cudaGraphicsResource_t resource() const { return resource_; }
    int width() const { return width_; }
    int height() const { return height_; }

    void release() noexcept;
    void abandon() noexcept { release(); }

private:
    cudaGraphicsResource_t resource_ = nullptr;
    GLuint buffer_ = 0;
    int width_ = 0, height_ = 0;
};

std::vector<int> cudaDevicesForCurrentGlContext();

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
