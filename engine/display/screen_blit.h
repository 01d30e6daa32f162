// Puts a facet frame on screen: the frame's pixel buffer is copied into a texture on the GPU
// (glTexSubImage2D sourcing the bound PBO, so the CPU does not touch the pixels again) and drawn
// as one triangle covering the viewport. facet's row 0 is the top of the picture while GL's
// texture row 0 is the bottom, so the shader flips v rather than anyone flipping rows.
// Needs a current OpenGL 3.3 core context with glad loaded; objects must be destroyed while
// it is still current.
#pragma once

#include "display/pixel_buffer.h"
#include "gl/gl_objects.h"

#include <cstdint>
#include <vector>

namespace facet {

class FrameDisplay {
public:
    // Compiles the shaders and makes the vertex array and texture. Throws facet::Error.
    FrameDisplay();

    // Copies the pixel buffer (unmapped) into the texture, reallocating it on a size change.
    void upload(const PixelBuffer& frame);

    // Draws the last upload stretched over the viewport (x, y, width, height) of the current
    // framebuffer, texels sampled nearest so a scaled-down frame shows its true pixels.
    // Leaves depth test, blending, culling and scissor disabled.
    void draw(int x, int y, int width, int height) const;

    int width() const { return width_; }
    int height() const { return height_; }

private:
    GlObject program_, vertexArray_, texture_;
    GLint frameLocation_ = -1;
    int width_ = 0, height_ = 0;
};

// The current read framebuffer's pixels (the window's back buffer after drawing, say) in facet's
// layout: RGBA8, R in the low byte, row 0 at the top. Throws facet::Error on a GL error.
std::vector<std::uint32_t> readFramebuffer(int width, int height);

} // namespace facet
