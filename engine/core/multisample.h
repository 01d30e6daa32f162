// Multisampling, written once for every rasterizer of facet: where a pixel's samples lie, and
// how a pixel's samples resolve to its one colour and depth. Coverage and depth are decided per
// sample (the coverage walk at a sample point instead of the pixel centre, same fixed point,
// same fill rule; the depth the centre's plus the depth plane's step to the sample,
// sampleDepthStep in core/coverage_walk.h); the fragment is shaded once per pixel and triangle
// at the pixel centre, as OpenGL does without sample shading; the colours of a pixel's samples
// are averaged (a box resolve, as glBlitFramebuffer from a multisampled framebuffer).
#pragma once

#include "core/names.h"
#include "core/raster_math.h"

#include <cstdint>
#include <string>

namespace facet {

inline constexpr int kMaxSamples = 8;

// The sample counts facet draws with: 1 (no multisampling), 2, 4 or 8.
FACET_HD bool validSampleCount(int samples) { return samples == 1 || samples == 2 || samples == 4 || samples == 8; }

// A sample's place in its pixel: from the pixel's top-left corner in sub-pixel steps (for the
// exact coverage test) and in pixels (for interpolating depth), both exact.
struct SamplePoint {
    std::int32_t fx, fy;
    float x, y;
};

FACET_HD SamplePoint pixelCentreSample() { return SamplePoint{kSubpixelOne / 2, kSubpixelOne / 2, 0.5f, 0.5f}; }

// Sample `index` of `samples`. The positions are the standard ones of Direct3D 10.1+ and
// Vulkan ("standard sample locations"), which Mesa returns by default
// (src/gallium/auxiliary/util/u_sample_positions.c) and llvmpipe rasterizes with, in 1/16
// pixel: packed here one byte a sample, y in the high nibble. Mesa applies them in OpenGL's
// window coordinates, whose rows count up from the bottom of the picture, so in facet's
// top-down rows a sample's y is mirrored (16 - y), as the fill rule is (core/raster_math.h).
// GL_SAMPLE_POSITION of the GL reference confirms it (tests/gl_reference_test.cpp).
FACET_HD SamplePoint samplePoint(int samples, int index) {
    std::uint64_t packed = 0x88u; // the centre
    if (samples == 2) packed = 0x44CCu;
    if (samples == 4) packed = 0xEAA26E26u;           // (6,2) (14,6) (2,10) (10,14)
    if (samples == 8) packed = 0x1FFB71D3359DB759ull; // (9,5) (7,11) (13,9) (5,3) (3,13) (1,7) (11,15) (15,1)
    const auto byte = static_cast<std::int32_t>((packed >> (8 * index)) & 0xFFu);
    const std::int32_t x16 = byte & 15, y16 = 16 - (byte >> 4);
    constexpr std::int32_t kStep = kSubpixelOne / 16;
    return SamplePoint{x16 * kStep, y16 * kStep, static_cast<float>(x16) / 16.0f, static_cast<float>(y16) / 16.0f};
}

// How far the farthest of a pixel's `samples` sample points lies from its centre along x or y,
// in sub-pixels: 0 for 1 sample (the centre), 64, 96 and 112 for 2, 4 and 8 (set-up grows a
// triangle's bounds by it, so they hold every pixel with a sample inside the triangle).
FACET_HD std::int32_t sampleReach(int samples) {
    std::int32_t reach = 0;
    for (int s = 0; s < samples; ++s) {
        const SamplePoint p = samplePoint(samples, s);
        const std::int32_t dx = p.fx - kSubpixelOne / 2, dy = p.fy - kSubpixelOne / 2;
        reach = glm::max(reach, glm::max(dx < 0 ? -dx : dx, dy < 0 ? -dy : dy));
    }
    return reach;
}

// The sum of some samples' RGBA8 colours, channel by channel.
struct ColorSum {
    std::uint32_t c[4] = {0, 0, 0, 0};

    FACET_HD void add(std::uint32_t rgba, std::uint32_t times) {
        FACET_UNROLL
        for (int k = 0; k < 4; ++k) c[k] += ((rgba >> (8 * k)) & 0xFFu) * times;
    }
    // The box resolve: each channel's mean over `samples` (1, 2, 4 or 8), rounded to nearest
    // (halves up); the division by a power of two as a shift.
    FACET_HD std::uint32_t resolve(int samples) const {
        const int shift = samples == 8 ? 3 : samples == 4 ? 2 : samples == 2 ? 1 : 0;
        const std::uint32_t half = (1u << shift) >> 1;
        std::uint32_t rgba = 0;
        FACET_UNROLL
        for (int k = 0; k < 4; ++k) rgba |= ((c[k] + half) >> shift) << (8 * k);
        return rgba;
    }
};

// Alpha-to-coverage (RenderSettings::alphaToCoverage): sample `index` of `samples` is covered
// where the fragment's alpha exceeds index / samples, the rule of llvmpipe, the reference
// (Mesa's lp_state_fs.c, lp_build_sample_alpha_to_coverage; no dithering): alpha 0 covers no
// sample, 1 every one, 0.5 the first half. index / samples is exact (a power of two).
FACET_HD bool alphaCoversSample(float alpha, int index, int samples) {
    return alpha > static_cast<float>(index) / static_cast<float>(samples);
}

// The depth a multisampled pixel resolves to (facet-render --depth, FrameView::depth): the
// nearest of its samples' depths, so a pixel is covered (depth < 1) when any sample is.
FACET_HD float resolveDepth(float a, float b) { return b < a ? b : a; }

// "msaa N is not supported ..." for a count validSampleCount refuses, or for multisampling in a
// debug view (the views show one sample per pixel: what a pixel's winner is, or counts, has no
// resolve); empty otherwise.
inline std::string sampleCountProblem(int samples, View view = View::Shaded) {
    if (!validSampleCount(samples))
        return "msaa " + std::to_string(samples) + " is not supported: the sample count must be 1, 2, 4 or 8";
    if (samples > 1 && view != View::Shaded)
        return "msaa " + std::to_string(samples) + " is not supported in the " + std::string(nameOf(view)) +
               " view: the debug views draw one sample per pixel (use msaa 1)";
    return {};
}

} // namespace facet
