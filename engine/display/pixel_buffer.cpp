#include "display/pixel_buffer.h"

#include "core/error.h"

#include <string>

namespace facet {

void PixelBuffer::resize(int width, int height) {
    if (width <= 0 || height <= 0)
        throw Error("a pixel buffer needs a positive size, got " + std::to_string(width) + "x" +
                    std::to_string(height));
    if (buffer_ && width == width_ && height == height_) return;
    if (!buffer_) buffer_ = makeGlBuffer();
    const auto bytes = static_cast<GLsizeiptr>(std::size_t(width) * std::size_t(height) * sizeof(std::uint32_t));
    // STREAM_DRAW: written once per frame by the application, read once by GL.
    FACET_GL(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, buffer_.get()));
    ++generation_; // before the call: storage a failed glBufferData leaves is not the old either
    FACET_GL(glBufferData(GL_PIXEL_UNPACK_BUFFER, bytes, nullptr, GL_STREAM_DRAW));
    FACET_GL(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0));
    width_ = width;
    height_ = height;
}

MappedPixels::MappedPixels(const PixelBuffer& buffer) : buffer_(buffer.name()) {
    if (buffer_ == 0 || buffer.byteSize() == 0) throw Error("cannot map an empty pixel buffer");
    FACET_GL(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, buffer_));
    void* p = glMapBufferRange(GL_PIXEL_UNPACK_BUFFER, 0, static_cast<GLsizeiptr>(buffer.byteSize()),
                               GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
    const GLenum error = glGetError();
    if (p == nullptr || error != GL_NO_ERROR) {
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
        if (error != GL_NO_ERROR) throwGlError(error, "glMapBufferRange", __FILE__, __LINE__);
        throw Error("glMapBufferRange returned no memory for a " + std::to_string(buffer.width()) + "x" +
                    std::to_string(buffer.height()) + " pixel buffer");
    }
    pixels_ = static_cast<std::uint32_t*>(p);
}

MappedPixels::~MappedPixels() { unmap(); }

bool MappedPixels::unmap() noexcept {
    if (pixels_ == nullptr) return true;
    pixels_ = nullptr;
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, buffer_);
    const bool intact = glUnmapBuffer(GL_PIXEL_UNPACK_BUFFER) == GL_TRUE;
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    return intact;
}

} // namespace facet
