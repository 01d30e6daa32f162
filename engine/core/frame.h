// The render target as every stage sees it: caller-owned colour and depth arrays (plain host
// memory, a mapped OpenGL pixel buffer, or device memory), so display needs no extra copy.
#pragma once

#include <cstdint>

namespace facet {

struct FrameView {
    std::uint32_t* color = nullptr; // RGBA8, R in the low byte; row 0 is the top of the picture
    float* depth = nullptr;         // window depth in [0, 1] (1 = far plane), row 0 at the top
    int width = 0;
    int height = 0;
};

// Throws facet::Error unless width x height is at least 1x1 and the buffers are there: the one
// check of every renderer, so every one words it alike.
void requireTarget(int width, int height, bool hasBuffers);
inline void requireTarget(const FrameView& t) { requireTarget(t.width, t.height, t.color && t.depth); }

} // namespace facet
