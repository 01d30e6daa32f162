// Quad jobs: a triangle's pixels in one 2x2 quad, the unit a multisampled tile is shaded in (and
// a one-sample tile's triangles that pair jobs do not take: cpu/shading/pair_jobs.h), collected and
// shaded a batch at a time. Internal to engine/cpu.
#pragma once

#include "cpu/shading/pixel_stream.h"
#include "cpu/simd/quad_coverage.h"
#include "cpu/visibility/tile_buffers.h"

#include <cstdint>
#include <immintrin.h>

namespace facet {

// A quad's pixels that one triangle won: a unit of shading. The shading passes collect a batch
// of them and shade the batch in passes, each a loop whose iterations are independent: the
// texel coordinates (and headlight) of every job, the levels of detail eight at a time, then
// the colours. A quad's shading is one long chain of dependent steps (divisions, the
// logarithm, the texel addresses, the gathers, the blends); one quad after another, each
// chain waited for the last, while a loop of independent iterations lets the processor run
// several at once.
struct ShadeJob {
    __m128 u, v;    // texel coordinates per pixel (textured materials)
    __m128 light;   // the headlight factor per pixel (1 without the headlight)
    __m128 nx, ny, nz; // the lit model's interpolated normal per pixel
    const TileTriangle* triangle;
    float dx2, dy2; // squared lengths of the texel coordinates' derivatives (trilinear filtering)
    float lod;      // level of detail (trilinear filtering)
    __m128i plane;  // per pixel, its element's distance from plane 0's: with multisampling the
                    // plane of the layer the triangle is in there (a pixel holds it in one only)
    int qx, qy;     // the quad's top-left pixel
    unsigned mask;  // the pixels this triangle won (bit k: pixel k)
};

inline constexpr int kShadeBatch = 16;

// The triangles the tile's ids name, and their vertex colours (see shadeTile).
struct TileTriangles {
    const TileTriangle* triangles;
    const TriangleColors* const* colors;
};

// An untextured material's colour in the classic look, in every lane.
inline simd::Rgba4 materialColor4(const ShadeMaterial& material) {
    return simd::Rgba4{_mm_set1_ps(material.color.r), _mm_set1_ps(material.color.g), _mm_set1_ps(material.color.b),
                       _mm_set1_ps(material.color.a)};
}

// The packed colours of a quad's pixels `mask` (lane k: pixel k) into the colour buffer whose
// element 0 is the quad's pixel 0; its other pixels keep theirs.
inline void storeQuadColors(std::uint32_t* c0, __m128i colors, unsigned mask) {
    std::uint32_t* c1 = c0 + kTileBufferStride;
    const __m128i old = _mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(c0)),
                                           _mm_loadl_epi64(reinterpret_cast<const __m128i*>(c1)));
    const __m128i color = _mm_blendv_epi8(old, colors, lanes::laneMask(mask));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(c0), color);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(c1), _mm_unpackhi_epi64(color, color));
}

// storeQuadColors with each pixel in its plane (`plane`, as ShadeJob::plane); all in plane 0
// without multisampling.
inline void storeLayerColors(std::uint32_t* c0, __m128i colors, unsigned mask, __m128i plane) {
    if (_mm_testz_si128(plane, plane)) {
        storeQuadColors(c0, colors, mask);
        return;
    }
    alignas(16) std::int32_t offset[4];
    alignas(16) std::uint32_t color[4];
    _mm_store_si128(reinterpret_cast<__m128i*>(offset), plane);
    _mm_store_si128(reinterpret_cast<__m128i*>(color), colors);
    for (int k = 0; k < 4; ++k)
        if (mask >> k & 1) c0[quadElement(std::size_t(offset[k]), k)] = color[k];
}

// Shades a batch of jobs into the tile's colour buffer, each in the pixels it won.
void shadeBatch(ShadeJob* jobs, int count, PixelStream& stream, TileTriangles drawn, const RasterContext& ctx,
                const TileBuffers& buffers);

// shadeBatch's jobs, collected and shaded a batch at a time.
struct JobBatch {
    ShadeJob jobs[kShadeBatch];
    int count = 0;

    JobBatch() {
        for (ShadeJob& job : jobs) job.plane = _mm_setzero_si128(); // and so it stays without multisampling
    }

    ShadeJob& add() { return jobs[count++]; }
    // Shades the jobs if the batch is full (`all`: if it holds any).
    void shade(PixelStream& stream, TileTriangles drawn, const RasterContext& ctx, const TileBuffers& buffers,
               bool all = false) {
        if (count == kShadeBatch || (all && count > 0)) {
            shadeBatch(jobs, count, stream, drawn, ctx, buffers);
            count = 0;
        }
    }
};

} // namespace facet
