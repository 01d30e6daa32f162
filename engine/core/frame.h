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

// What a frame writes beside its colours and window depths, for vision users (core/outputs.h
// says how each is found): caller-owned arrays laid out as FrameView's, each written only where
// given (non-null), so a frame computes only what is asked.
struct FrameOutputs {
    float* metricDepth = nullptr;      // camera-space depth along the optical axis, in scene units; 0 where nothing is drawn
    std::uint32_t* instance = nullptr; // the scene's id of the instance seen; 0 where nothing is drawn
    float* normal = nullptr;           // three per pixel: the unit normal seen, camera space (OpenCV axes); 0 where nothing is drawn

    bool any() const { return metricDepth || instance || normal; }
};

// The widest and tallest target facet draws (facet-render's --size, Python's size=): 16384 a
// side keeps every pixel count and index within 32 bits (16384^2 = 2^28, times 8 samples 2^31).
inline constexpr int kMaxTargetSide = 16384;

// Throws facet::Error unless width x height is at least 1x1, at most kMaxTargetSide a side, and
// the buffers are there: the one check of every renderer, so every one words it alike.
void requireTarget(int width, int height, bool hasBuffers);
inline void requireTarget(const FrameView& t) { requireTarget(t.width, t.height, t.color && t.depth); }

} // namespace facet
