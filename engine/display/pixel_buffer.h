// A pixel buffer object (PBO) that holds one RGBA8 frame in facet's layout, and a scoped map
// of it. The CPU backend renders straight into the mapped buffer, so the frame reaches the GPU
// with no copy of ours: the driver takes the bytes from there when the texture is updated.
// CUDA-GL interop (display/cuda_interop.h) registers the same buffer; this class stays a plain
// owner for that. Needs a current OpenGL 3.3 context with glad loaded.
//
// The rule while CUDA holds a registration of the buffer (InteropBuffer::attach): GL must not
// reallocate it (resize to another size) nor map it (MappedPixels), since CUDA would keep
// writing the storage it registered. Release the InteropBuffer first (InteropBuffer::release),
// and attach again before the next CUDA frame; and release it before the PixelBuffer is
// destroyed. After a CUDA failure, abandon it (InteropBuffer::abandon) and replace the
// PixelBuffer with a fresh one: the old storage may still be mapped by CUDA.
#pragma once

#include "gl/gl_objects.h"

#include <cstddef>
#include <cstdint>

namespace facet {

class PixelBuffer {
public:
    PixelBuffer() = default; // no buffer yet; resize() makes one

    // Makes the buffer hold width x height RGBA8 pixels, reallocating when the size changes
    // (the old contents are dropped, the generation bumped). Throws facet::Error for a size of
    // 0 or a GL error.
    void resize(int width, int height);

    GLuint name() const { return buffer_.get(); }
    int width() const { return width_; }
    int height() const { return height_; }
    std::size_t byteSize() const { return std::size_t(width_) * std::size_t(height_) * sizeof(std::uint32_t); }

    // Counts the reallocations (every glBufferData): after a resize A -> B -> A the name and
    // size are as before but the storage is new, and a registration of the old one is stale.
    std::uint64_t generation() const { return generation_; }

    // Forgets the buffer without deleting it, for after a CUDA failure: a poisoned context may
    // still hold it registered or mapped, so GL is not asked to delete it. The next resize()
    // makes a fresh buffer (a new name, a new generation). Never throws.
    void abandon() noexcept {
        buffer_.abandon();
        width_ = height_ = 0;
    }

private:
    GlObject buffer_;
    int width_ = 0, height_ = 0;
    std::uint64_t generation_ = 0;
};

// Maps a PixelBuffer for writing for the lifetime of this object. The previous contents are
// invalidated, so the driver need not wait for a texture upload still reading them; every
// pixel must be written before the unmap. Unmapping leaves GL_PIXEL_UNPACK_BUFFER unbound, so
// later texture uploads (ImGui's, for one) read client memory as usual.
class MappedPixels {
public:
    // Throws facet::Error when the buffer is empty or cannot be mapped.
    explicit MappedPixels(const PixelBuffer& buffer);
    ~MappedPixels(); // unmaps if still mapped; never throws
    MappedPixels(const MappedPixels&) = delete;
    MappedPixels& operator=(const MappedPixels&) = delete;

    std::uint32_t* pixels() const { return pixels_; }

    // Unmaps now. False when GL reports the contents lost while mapped (a mode switch, say):
    // the frame is then undefined and should be rendered again.
    bool unmap() noexcept;

private:
    GLuint buffer_ = 0;
    std::uint32_t* pixels_ = nullptr;
};

} // namespace facet
