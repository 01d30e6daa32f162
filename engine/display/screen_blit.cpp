#include "display/screen_blit.h"

#include "core/error.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace facet {

namespace {

// One triangle that covers the viewport, made from gl_VertexID alone (no vertex buffer):
// corners (-1,-1), (3,-1), (-1,3). v runs from 0 at the top edge to 1 at the bottom, so
// texture row 0 (facet's top row) lands at the top of the window.
constexpr const char* kVertexShader = R"(#version 330 core
out vec2 uv;
void main() {
    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
    uv = vec2(0.5 * p.x + 0.5, 0.5 - 0.5 * p.y);
    gl_Position = vec4(p, 0.0, 1.0);
}
)";

constexpr const char* kFragmentShader = R"(#version 330 core
in vec2 uv;
uniform sampler2D frame;
out vec4 fragColor;
void main() {
    fragColor = vec4(texture(frame, uv).rgb, 1.0);
}
)";

// Client-memory layout for pixel transfers: tightly packed rows of 4-byte pixels. Set each
// time because other code on the same context (ImGui) may have changed it.
void setTightPacking(GLenum alignment, GLenum rowLength) {
    FACET_GL(glPixelStorei(alignment, 4));
    FACET_GL(glPixelStorei(rowLength, 0));
}

} // namespace

FrameDisplay::FrameDisplay() {
    program_ = buildGlProgram(kVertexShader, kFragmentShader, "the display shaders");
    const GLuint p = program_.get();
    frameLocation_ = glGetUniformLocation(p, "frame");
    checkGlError("glGetUniformLocation", __FILE__, __LINE__);

    // Core profile draws need a bound vertex array even when it has no attributes.
    vertexArray_ = makeGlVertexArray();
    texture_ = makeGlTexture();
    FACET_GL(glBindTexture(GL_TEXTURE_2D, texture_.get()));
    FACET_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST));
    FACET_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST));
    FACET_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE));
    FACET_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE));
    FACET_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0));
    FACET_GL(glBindTexture(GL_TEXTURE_2D, 0));
}

void FrameDisplay::upload(const PixelBuffer& frame) {
    if (frame.name() == 0) throw Error("cannot display an empty pixel buffer");
    FACET_GL(glBindTexture(GL_TEXTURE_2D, texture_.get()));
    if (frame.width() != width_ || frame.height() != height_) {
        // Storage only (no data), so no unpack buffer may be bound here.
        FACET_GL(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0));
        FACET_GL(glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, frame.width(), frame.height(), 0, GL_RGBA,
                              GL_UNSIGNED_BYTE, nullptr));
        width_ = frame.width();
        height_ = frame.height();
    }
    // With a PBO bound, the data argument is an offset into it. R in the low byte of each
    // little-endian uint32 is byte order R, G, B, A: GL_RGBA + GL_UNSIGNED_BYTE.
    FACET_GL(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, frame.name()));
    setTightPacking(GL_UNPACK_ALIGNMENT, GL_UNPACK_ROW_LENGTH);
    FACET_GL(glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, nullptr));
    FACET_GL(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0));
    FACET_GL(glBindTexture(GL_TEXTURE_2D, 0));
}

void FrameDisplay::draw(int x, int y, int width, int height) const {
    FACET_GL(glViewport(x, y, width, height));
    FACET_GL(glDisable(GL_DEPTH_TEST));
    FACET_GL(glDisable(GL_BLEND));
    FACET_GL(glDisable(GL_CULL_FACE));
    FACET_GL(glDisable(GL_SCISSOR_TEST));
    FACET_GL(glUseProgram(program_.get()));
    FACET_GL(glUniform1i(frameLocation_, 0));
    FACET_GL(glActiveTexture(GL_TEXTURE0));
    FACET_GL(glBindTexture(GL_TEXTURE_2D, texture_.get()));
    FACET_GL(glBindVertexArray(vertexArray_.get()));
    FACET_GL(glDrawArrays(GL_TRIANGLES, 0, 3));
    FACET_GL(glBindVertexArray(0));
    FACET_GL(glBindTexture(GL_TEXTURE_2D, 0));
    FACET_GL(glUseProgram(0));
}

std::vector<std::uint32_t> readFramebuffer(int width, int height) {
    if (width <= 0 || height <= 0) throw Error("cannot read an empty framebuffer");
    const std::size_t w = std::size_t(width), h = std::size_t(height);
    std::vector<std::uint32_t> pixels(w * h);
    FACET_GL(glBindBuffer(GL_PIXEL_PACK_BUFFER, 0));
    setTightPacking(GL_PACK_ALIGNMENT, GL_PACK_ROW_LENGTH);
    FACET_GL(glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data()));
    // GL returns the bottom row first; facet wants the top first.
    for (std::size_t top = 0, bottom = h - 1; top < bottom; ++top, --bottom)
        std::swap_ranges(pixels.begin() + std::ptrdiff_t(top * w), pixels.begin() + std::ptrdiff_t((top + 1) * w),
                         pixels.begin() + std::ptrdiff_t(bottom * w));
    // The window may carry an alpha channel the compositor ignores; a screenshot is opaque.
    for (std::uint32_t& p : pixels) p |= 0xFF000000u;
    return pixels;
}

} // namespace facet
