// Pair jobs: a textured triangle's pixels in two neighbouring quads of a one-sample tile, found
// in eight lanes and sent to the pixel stream, collected and shaded a batch at a time.
// Internal to engine/cpu.
#pragma once

#include "cpu/shading/pixel_stream.h"
#include "cpu/shading/quad_jobs.h"
#include "cpu/visibility/tile_buffers.h"

#include <immintrin.h>

namespace facet {

// Two quads of a quad row in eight lanes: quad (qx, qy) in lanes 0-3 and quad (qx + 2, qy) in
// lanes 4-7, lane k of each its pixel k. A triangle's texel coordinates there, each lane with
// jobTexelCoordinates's operations, and what the frame's settings read besides: with the
// headlight its factor (1 under the lit model), under the lit model or the headlight the normals.
struct QuadPairLanes {
    __m256 u, v, light, nx, ny, nz;
};

// A textured triangle's pixels `mask` (bit k: lane k of QuadPairLanes) in the quad pair at
// (qx, qy), bound for the stream: shadeQuadPairs collects a batch of them and shades it in
// passes of independent iterations, as shadeBatch does jobs (see ShadeJob).
struct PairJob {
    QuadPairLanes lanes;
    __m256 lod; // per lane, its quad's (trilinear filtering)
    const TileTriangle* triangle;
    int qx, qy;
    unsigned mask;
};

// Pair jobs, collected and shaded a batch at a time.
class PairBatch {
public:
    PairBatch(PixelStream& stream, const RasterContext& ctx, const TileBuffers& buffers)
        : stream_(stream), ctx_(ctx), buffers_(buffers) {}

    // A job of `t`'s pixels `mask` in the quad pair at (qx, qy); the batch shaded once full.
    void add(const TileTriangle& t, int qx, int qy, unsigned mask) {
        PairJob& job = jobs_[count_++];
        job.triangle = &t;
        job.qx = qx;
        job.qy = qy;
        job.mask = mask;
        if (count_ == kShadeBatch) shadeFull();
    }

    // Shades the jobs the batch holds.
    void shade();

private:
    // shade() for a full batch: its count a constant, for which GCC compiles the passes' loops
    // apart (1% of the textured sheet's instructions).
    void shadeFull();

    PixelStream& stream_;
    const RasterContext& ctx_;
    const TileBuffers& buffers_;
    PairJob jobs_[kShadeBatch];
    int count_ = 0;
};

} // namespace facet
