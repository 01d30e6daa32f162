// Coarse depth culling for the CPU's walk of a large triangle (walkBlocks' block filter): per
// 8x8 block of a tile (kCoverBlock, blocks from the tile's first pixel), an upper bound of the
// depths stored there, in every sample plane (TileBuffers::farthest). A block where the
// triangle is nowhere nearer than that bound fails the depth test at every pixel, so the walk
// skips it; a block the triangle covers wholly lowers the bound to the farthest depth the
// triangle can have there. Stored depths only ever decrease while a tile is drawn, so a bound
// stays true however the tile's pixels are written after it is taken.
//
// Skipping must never change a pixel, so the bounds hold for the floats the lanes compute, not
// only for the exact plane: the plane's depth at a block's corners is taken in double (the
// depth is affine, so its extremes over the block's sample points lie there), and widened by
// `margin`, a bound on the rounding of the float evaluation (BarycentricPlane, interpolate at the
// pixel centre, plus sampleDepthStep). At the centre the floats are px = (x + 1/2) - x0 (the
// sum exact), four products t = db * px (and the same in y), b1 = t0 + r0, b2 = t1 + r1,
// b0 = (1 - b1) - b2, then b0 d0 + b1 d1 + b2 d2, each step rounding by at most u = 2^-24 of its
// result (Higham, "Accuracy and Stability of Numerical Algorithms", 2.2). With T bounding
// |t0| + |t1| + |r0| + |r1| over the centres and |d| <= D, the error in b1 and b2 together is
// at most 6uT, in b0 at most 8uT + 2u, and the products and sums add 3uD(1 + 2T): under
// uD(20T + 5) (to first order in u). The step, with G = |db1x| + |db2x| + |db1y| + |db2y|:
// d1 - d0 and d2 - d0 (at most 2D), the gradients dz/dx and dz/dy (each off by at most 6uD of
// its part of G), times offsets of at most 1/2 (exact), and their sum: under 5uDG, and adding
// it to the centre's depth (at most D + DG) uD(1 + G). Taking T over the sample points, whose
// centres are at most 1/2 away, adds at most G/2 to it: uD(20T + 16G + 6) in all, which
// margin = 2^-19 D (T + G + 1) = 32uD(T + G + 1) covers with room for the double evaluation's
// own.
#pragma once

#include "core/coverage_walk.h"
#include "cpu/visibility/tile_buffers.h"

#include <algorithm>
#include <cmath>

namespace facet {

inline constexpr int kBoundBlocksPerRow = kTileSize / kCoverBlock;
inline constexpr int kBoundBlocks = kBoundBlocksPerRow * kBoundBlocksPerRow; // TileBuffers::farthest's length

// The walk range `q` of a tile of `buffers` with its first quad moved back to the block grid
// (multiples of kCoverBlock from the tile's first pixel), so that walkBlocks' blocks are the
// bounds' blocks. The pixel bounds are kept: the walk still tests only the range.
inline QuadRange alignedToBoundBlocks(const QuadRange& q, const TileBuffers& buffers) {
    QuadRange aligned = q;
    aligned.firstQx = buffers.originX + ((q.firstQx - buffers.originX) & ~(kCoverBlock - 1));
    aligned.firstQy = buffers.originY + ((q.firstQy - buffers.originY) & ~(kCoverBlock - 1));
    return aligned;
}

class BlockDepthBounds {
public:
    // `tri`, walked at `samples` per pixel (the pixel centre for 1, else core/multisample.h's
    // points) over the pixels of `q` in the tile of `buffers` (whose `farthest` is set).
    BlockDepthBounds(const ScreenTriangle& tri, const QuadRange& q, const TileBuffers& buffers, int samples)
        : farthest_(buffers.farthest), originX_(buffers.originX), originY_(buffers.originY), x0_(tri.origin.x),
          y0_(tri.origin.y), d0_(tri.v[0].depth), e1_(double(tri.v[1].depth) - d0_),
          e2_(double(tri.v[2].depth) - d0_), db1x_(tri.db1.x), db1y_(tri.db1.y), db2x_(tri.db2.x),
          db2y_(tri.db2.y) {
        double sxHi = 0.0, syHi = 0.0;
        sxLo_ = syLo_ = 1.0;
        for (int s = 0; s < samples; ++s) {
            const SamplePoint p = samples == 1 ? pixelCentreSample() : samplePoint(samples, s);
            sxLo_ = std::min(sxLo_, double(p.x));
            sxHi = std::max(sxHi, double(p.x));
            syLo_ = std::min(syLo_, double(p.y));
            syHi = std::max(syHi, double(p.y));
        }
        const double spanX = kCoverBlock - 1 + (sxHi - sxLo_), spanY = kCoverBlock - 1 + (syHi - syLo_);
        const double gx = db1x_ * e1_ + db2x_ * e2_, gy = db1y_ * e1_ + db2y_ * e2_;
        towardNear_ = std::min(0.0, gx * spanX) + std::min(0.0, gy * spanY);
        towardFar_ = std::max(0.0, gx * spanX) + std::max(0.0, gy * spanY);
        const double px = std::max(std::abs(q.minX + sxLo_ - x0_), std::abs(q.maxX + sxHi - x0_));
        const double py = std::max(std::abs(q.minY + syLo_ - y0_), std::abs(q.maxY + syHi - y0_));
        const double terms = (std::abs(db1x_) + std::abs(db2x_)) * px + (std::abs(db1y_) + std::abs(db2y_)) * py;
        const double gradient = std::abs(db1x_) + std::abs(db2x_) + std::abs(db1y_) + std::abs(db2y_);
        const double depths = std::max({std::abs(d0_), std::abs(double(tri.v[1].depth)), std::abs(double(tri.v[2].depth))});
        margin_ = std::ldexp(depths * (terms + gradient + 1.0), -19) + std::ldexp(1.0, -40);
    }

    // Whether every pixel of block (bx, by) fails the depth test: the triangle's depth there is
    // at least the block's bound. (False for a NaN bound, as for a degenerate triangle.)
    bool occluded(int bx, int by) const { return nearest(bx, by) >= double(farthest_[block(bx, by)]); }

    // Block (bx, by), every sample of every pixel depth-tested: where every depth lies within
    // [0, 1] (so a sample failing the test keeps a depth no farther than the triangle's), each
    // stored depth is now at most the triangle's farthest there.
    void covered(int bx, int by) {
        const double corner = cornerDepth(bx, by);
        const double lo = corner + towardNear_ - margin_, hi = corner + towardFar_ + margin_;
        if (!(lo >= 0.0 && hi <= 1.0)) return;
        float bound = float(hi);
        if (double(bound) < hi) bound = std::nextafter(bound, 2.0f);
        float& stored = farthest_[block(bx, by)];
        stored = std::min(stored, bound);
    }

private:
    int block(int bx, int by) const {
        return (by - originY_) / kCoverBlock * kBoundBlocksPerRow + (bx - originX_) / kCoverBlock;
    }
    // The exact plane's depth at pixel (bx, by)'s least sample offsets (the centre at one
    // sample), from the float set-up the lanes use.
    double cornerDepth(int bx, int by) const {
        const double px = bx + sxLo_ - x0_, py = by + syLo_ - y0_;
        return d0_ + (db1x_ * px + db1y_ * py) * e1_ + (db2x_ * px + db2y_ * py) * e2_;
    }
    double nearest(int bx, int by) const { return cornerDepth(bx, by) + towardNear_ - margin_; }

    float* farthest_;
    int originX_, originY_;
    double x0_, y0_, d0_, e1_, e2_, db1x_, db1y_, db2x_, db2y_;
    double sxLo_, syLo_; // the least sample offsets within a pixel
    double towardNear_ = 0.0, towardFar_ = 0.0, margin_ = 0.0;
};

} // namespace facet
