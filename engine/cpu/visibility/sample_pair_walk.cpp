// Compiled with AVX-512 as the default (engine/CMakeLists.txt) and run only where the CPU has it.
// A file of its own rather than target attributes in visibility.cpp: GCC 12 clears the
// upper bits of a struct-wrapped __m512 returned from a target("avx512f") function of a file
// compiled without AVX-512 (a vzeroupper before the return), and the lane types' operators
// return such structs, so unless every one of them is inlined the walk goes silently wrong.
// Nothing compiled here may be shared with the rest of facet, or the linker could keep this
// file's AVX-512 copy of an inline function for every caller: the lane types (cpu/simd/lanes16.h)
// are local to the file, in an unnamed namespace (so is every template instantiated on them),
// and the walks are flattened, so the shared
// inline functions they call (EdgeStepper, samplePoint) are inlined, never emitted.
// Build.SamplePairWalkSharesNoCode (tests/CMakeLists.txt) checks the object file for that.
#include "cpu/visibility/sample_pair_walk.h"
#include "cpu/simd/lanes16.h"

#if !defined(__AVX512F__) || !defined(__AVX512VL__)
#error "sample_pair_walk.cpp is compiled with -mavx512f -mavx512vl (engine/CMakeLists.txt)"
#endif

#include <immintrin.h>

namespace facet {
namespace {

// The lane set (walkSamples' L): lanes 0-7 are SmallBlock's block (lane k pixel
// (x + (k & 3), y + (k >> 2) % 2)) at a sample s, lanes 8-15 the same at sample s + 1, each
// lane making SmallBlock's decisions with the same operations. Where a sample's stored values
// are read and written, sample s + 1's plane is `plane` elements after sample s's.
struct SamplePairBlock {
    static constexpr int kWidth = 4;
    static constexpr bool kSkipEmpty = false; // a branch per pass cost more than it saved
    static constexpr int kSamples = 2;
    using EdgeScalar = std::int32_t;
    using Edge = I32x16;
    using Float = F32x16;
    using Mask = Mask16;

    static __m512i laneX() { return _mm512_setr_epi32(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3); }
    static __m512i laneY() { return _mm512_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1); }

    static Edge spread(std::int32_t v, std::int32_t sx, std::int32_t sy) {
        return Edge(v) + (Edge(laneX()) * Edge(sx) + Edge(laneY()) * Edge(sy));
    }
    // Lanes 0-7 v[0] (sample s's), lanes 8-15 v[1] (sample s + 1's).
    static Edge bySample(const std::int32_t (&v)[2]) {
        return Edge(_mm512_mask_blend_epi32(0xFF00, _mm512_set1_epi32(v[0]), _mm512_set1_epi32(v[1])));
    }
    static Float bySample(const float (&v)[2]) {
        return Float(_mm512_mask_blend_ps(0xFF00, _mm512_set1_ps(v[0]), _mm512_set1_ps(v[1])));
    }
    static Float columns(int x) { return pixels(x, laneX()); }
    static Float rows(int y) { return pixels(y, laneY()); }
    static Mask columnsIn(int x, const QuadRange& q) { return within(x, laneX(), q.minX, q.maxX); }
    static Mask rowsIn(int y, const QuadRange& q) { return within(y, laneY(), q.minY, q.maxY); }
    static Mask mask(Mask m) { return m; }
    static bool none(Mask m) { return m.v == 0; }
    static std::uint32_t count(Mask m) { return std::uint32_t(__builtin_popcount(m.v)); }

    // The stored depths of the block whose first pixel is element 0 of `row0`, rows of 4 at
    // row0 and row1, in sample s's plane and the next.
    static Float load(const float* row0, const float* row1, std::size_t plane) {
        const __m512 s0 = _mm512_insertf32x4(_mm512_castps128_ps512(_mm_loadu_ps(row0)), _mm_loadu_ps(row1), 1);
        const __m512 s1 = _mm512_insertf32x4(s0, _mm_loadu_ps(row0 + plane), 2);
        return Float(_mm512_insertf32x4(s1, _mm_loadu_ps(row1 + plane), 3));
    }
    // The lanes `keep` of `value` written there, the others left as they are: each row's four
    // lanes by a mask store of the whole register placed so that they land on the row (masked
    // lanes are neither written nor faulted on).
    static void storeWhere(float* row0, float* row1, std::size_t plane, Mask keep, Float value) {
        const unsigned k = keep.v;
        _mm512_mask_storeu_ps(row0, __mmask16(k & 0x000Fu), value.v);
        _mm512_mask_storeu_ps(row1 - 4, __mmask16(k & 0x00F0u), value.v);
        _mm512_mask_storeu_ps(row0 + plane - 8, __mmask16(k & 0x0F00u), value.v);
        _mm512_mask_storeu_ps(row1 + plane - 12, __mmask16(k & 0xF000u), value.v);
    }
    static void storeWhere(std::uint32_t* row0, std::uint32_t* row1, std::size_t plane, Mask keep, std::uint32_t value) {
        const unsigned k = keep.v;
        const __m512i v = _mm512_set1_epi32(int(value));
        _mm512_mask_storeu_epi32(row0, __mmask16(k & 0x000Fu), v);
        _mm512_mask_storeu_epi32(row1 - 4, __mmask16(k & 0x00F0u), v);
        _mm512_mask_storeu_epi32(row0 + plane - 8, __mmask16(k & 0x0F00u), v);
        _mm512_mask_storeu_epi32(row1 + plane - 12, __mmask16(k & 0xF000u), v);
    }

private:
    // The lanes' pixel coordinates as floats. (The mask-all conversion: GCC 12's plain
    // _mm512_cvtepi32_ps trips -Wmaybe-uninitialized within its own header.)
    static Float pixels(int at, __m512i lanes) {
        return Float(_mm512_maskz_cvtepi32_ps(0xFFFF, _mm512_add_epi32(_mm512_set1_epi32(at), lanes)));
    }
    // minX <= x <= maxX as x > minX - 1 and maxX + 1 > x, as SmallBlock.
    static Mask within(int at, __m512i lanes, int lo, int hi) {
        const __m512i p = _mm512_add_epi32(_mm512_set1_epi32(at), lanes);
        return {__mmask16(_mm512_cmpgt_epi32_mask(p, _mm512_set1_epi32(lo - 1)) &
                          _mm512_cmpgt_epi32_mask(_mm512_set1_epi32(hi + 1), p))};
    }
};

// walkSamples' target: TileVisibility's rows (visibility.cpp), two sample planes at once,
// read whole and written where kept (mask stores, so the ids are never read).
struct PairVisibility {
    using L = SamplePairBlock;
    TileBuffers buffers;
    std::uint32_t id;

    struct Row {
        std::uint32_t* ids;
        float* depth;
        std::uint32_t id;
        int originX;

        L::Float depthAt(int qx) const {
            const float* d0 = depth + (qx - originX);
            return L::load(d0, d0 + kTileBufferStride, kTileBufferElements);
        }
        void write(int qx, L::Mask keep, L::Float value, L::Float) const {
            std::uint32_t* i0 = ids + (qx - originX);
            L::storeWhere(i0, i0 + kTileBufferStride, kTileBufferElements, keep, id);
            float* d0 = depth + (qx - originX);
            L::storeWhere(d0, d0 + kTileBufferStride, kTileBufferElements, keep, value);
        }
        // Samples s and s + 1.
        Row sample(int s) const {
            const std::size_t plane = std::size_t(s) * kTileBufferElements;
            return Row{ids + plane, depth + plane, id, originX};
        }
    };
    Row row(int qy) const {
        const std::size_t at = buffers.at(buffers.originX, qy);
        return Row{buffers.ids + at, buffers.depth + at, id, buffers.originX};
    }
};

template <bool Bounds, int S>
[[gnu::noinline, gnu::flatten]] std::size_t walk(const ScreenTriangle& tri, std::uint32_t id, const QuadRange& q,
                                                 const TileBuffers& buffers) {
    PairVisibility target{buffers, id};
    return walkSamples<SamplePairBlock, Bounds, S>(tri, q, target);
}

} // namespace

std::size_t walkSamplePairs(const ScreenTriangle& tri, std::uint32_t id, const QuadRange& q, const TileBuffers& buffers,
                            int samples, bool bounds) {
    switch (samples) {
    case 2: return bounds ? walk<true, 2>(tri, id, q, buffers) : walk<false, 2>(tri, id, q, buffers);
    case 4: return bounds ? walk<true, 4>(tri, id, q, buffers) : walk<false, 4>(tri, id, q, buffers);
    default: return bounds ? walk<true, 8>(tri, id, q, buffers) : walk<false, 8>(tri, id, q, buffers);
    }
}

} // namespace facet
