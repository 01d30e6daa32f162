// The classic model's bilinear and trilinear filters (sampleTexture8, in its 8-bit fixed
// point) on a CPU with AVX-512: sixteen lanes to a vector where the AVX2 passes take eight.
// Pixels sampling one level take sixteen to a vector (simd::planBilinear8 and
// filterBilinear8x8 take eight); pixels blending two take eight, each on its lo level in lanes
// 0-7 and on its hi level in lanes 8-15 (simd::planSamples4 and filterSamples4 take four). The
// plan and the blends are cpu/simd/bilinear_lanes.h's, as the AVX2 passes' are, so the same bits
// (tests/cpu_raster_equivalence_test.cpp).
#pragma once

#include "core/texture_sampling.h"

#include <cstdint>

namespace facet {

// A texture's mip levels as the filters look them up, one register per field, and its wraps:
// only for a texture of at most 16 levels (`fits`), that is, under 32768 texels a side. Built
// here, not in wide_filter.cpp, as every CPU builds it (that file holds AVX-512 code only).
struct WideLevels {
    static constexpr int kLevels = 16;
    alignas(64) std::int32_t width[kLevels] = {}, height[kLevels] = {}, offset[kLevels] = {};
    bool fits = false;
    Wrap wrapS = Wrap::Repeat, wrapT = Wrap::Repeat;

    WideLevels() = default;
    explicit WideLevels(const TextureView& t) : fits(t.levelCount <= kLevels), wrapS(t.wrapS), wrapT(t.wrapT) {
        if (!fits) return;
        for (int l = 0; l < t.levelCount; ++l) {
            width[l] = std::int32_t(t.levels[l].width);
            height[l] = std::int32_t(t.levels[l].height);
            offset[l] = std::int32_t(t.levels[l].offset);
        }
    }
};

// Pixels to filter: per pixel its texel coordinates, its level lo and, blending two levels,
// its level hi (lo < hi) and hi's weight f (unread for one level). The arrays, 32-byte aligned,
// hold `count` pixels rounded up to a multiple of sixteen (one level) or eight (two).
struct WidePixels {
    const float* u;
    const float* v;
    const std::int32_t* lo;
    const std::int32_t* hi;
    const float* f;
    int count;
};

// Each pixel's colour, packed as sampleTexture8 gives it, into `colors` (32-byte aligned, as
// many as the arrays hold): filterOneLevel16 its bilinear sample of level lo, filterTwoLevels16
// those of lo and hi blended with weight f. Only for a CPU with AVX-512 F, VL and BW
// (RasterContext::wideFilter) and a texture whose levels fit (`levels.fits`).
void filterOneLevel16(const TextureView& t, const WideLevels& levels, const WidePixels& p, std::uint32_t* colors);
void filterTwoLevels16(const TextureView& t, const WideLevels& levels, const WidePixels& p, std::uint32_t* colors);

} // namespace facet
