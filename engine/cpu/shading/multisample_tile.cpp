#include "cpu/shading/multisample_tile.h"

#include "core/multisample.h"
#include "cpu/shading/tile_shading.h"
#include "cpu/simd/stream_store.h"

#include <algorithm>
#include <immintrin.h>

namespace facet {

namespace {

constexpr std::size_t kPlane = kTileBufferElements;

// Eight pixels' sample ids from element i (ids[s * kPlane]) made distinct in place: plane L
// gets each pixel's L-th distinct triangle, the greatest id first, 0 past its last; `counts`
// the samples each covers, nibble L for layer L (a count of 8 fits 4 bits). Returns the most
// layers among the eight. A layer at a time, every pixel at once: the greatest id not yet in a
// layer (id 0, no triangle, never is), and the samples holding it, which are then set to 0.
// Which plane a triangle lands in changes nothing downstream: it is shaded for its pixels
// whatever plane they are in, and the resolve's sums are of integers.
template <int S>
inline int layer8(std::uint32_t* ids, std::uint32_t* counts) {
    const auto plane = [ids](int s) { return reinterpret_cast<__m256i*>(ids + std::size_t(s) * kPlane); };
    const auto greatest = [](const __m256i(&id)[S]) {
        __m256i m = id[0];
        for (int s = 1; s < S; ++s) m = _mm256_max_epu32(m, id[s]);
        return m;
    };
    const __m256i zero = _mm256_setzero_si256();
    __m256i id[S];
    for (int s = 0; s < S; ++s) id[s] = _mm256_loadu_si256(plane(s));
    __m256i packed = zero;
    int layers = 0;
    for (__m256i pick = greatest(id); !_mm256_testz_si256(pick, pick); pick = greatest(id), ++layers) {
        __m256i n = zero;
        for (int s = 0; s < S; ++s) {
            const __m256i mine = _mm256_cmpeq_epi32(id[s], pick);
            n = _mm256_sub_epi32(n, mine); // mine is -1 where the sample is the layer's
            id[s] = _mm256_andnot_si256(mine, id[s]);
        }
        n = _mm256_andnot_si256(_mm256_cmpeq_epi32(pick, zero), n); // a pixel with no id left: its 0s are no layer
        _mm256_storeu_si256(plane(layers), pick);
        packed = _mm256_or_si256(packed, _mm256_slli_epi32(n, 4 * layers));
    }
    for (int s = layers; s < S; ++s) _mm256_storeu_si256(plane(s), zero);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(counts), packed);
    return layers;
}

// resolveDepth over the samples of eight pixels from element i, into plane 0 (the same
// operation: _mm256_min_ps(b, a) is b < a ? b : a); the other planes' depths back to 1 as
// they are read.
template <int S>
inline void resolveDepth8(float* depth) {
    __m256 nearest = _mm256_loadu_ps(depth);
    for (int s = 1; s < S; ++s) {
        float* plane = depth + std::size_t(s) * kPlane;
        nearest = _mm256_min_ps(_mm256_loadu_ps(plane), nearest);
        _mm256_storeu_ps(plane, _mm256_set1_ps(1.0f));
    }
    _mm256_storeu_ps(depth, nearest);
}

// resolveDepth8 and layer8 over a row's n elements from `at`, eight at a time; returns the most
// layers of any of its pixels.
template <int S>
int layerRow(const TileBuffers& buffers, std::uint32_t* counts, std::size_t at, std::size_t n) {
    int most = 0;
    for (std::size_t i = at; i < at + n; i += 8) {
        resolveDepth8<S>(buffers.depth + i);
        most = std::max(most, layer8<S>(buffers.ids + i, counts + i));
    }
    return most;
}

inline int layerRow(const TileBuffers& buffers, std::uint32_t* counts, std::size_t at, std::size_t n, int samples) {
    switch (samples) {
    case 2: return layerRow<2>(buffers, counts, at, n);
    case 4: return layerRow<4>(buffers, counts, at, n);
    default: return layerRow<8>(buffers, counts, at, n);
    }
}

// The layers of every pixel of the tile rect, and the resolved depths to the target (the
// planes' depths back to 1). Returns the tile's layers: the most any pixel has, and the rows
// each is found in (the first and last with a pixel of more than L layers). Rows are taken
// eight elements at a time, the last group reaching past the rect at most to the tile's last
// column (kTileSize is a multiple of 8), where nothing is ever covered.
TileLayers layerTile(const RasterContext& ctx, const TileRect& tile, const TileBuffers& buffers,
                     std::uint32_t* counts) {
    TileLayers layers{0, {}, {}};
    std::fill_n(layers.first, kMaxSamples, tile.y1 + 1);
    std::fill_n(layers.last, kMaxSamples, tile.y0 - 1);
    const int samples = ctx.plan.settings.msaa;
    const FrameView& target = ctx.target;
    for (int y = tile.y0; y <= tile.y1; ++y) {
        const std::size_t row = buffers.at(tile.x0, y), n = std::size_t(tile.x1 - tile.x0 + 1);
        const int most = layerRow(buffers, counts, row, n, samples);
        streamRow(target.depth + std::size_t(y) * std::size_t(target.width) + std::size_t(tile.x0), buffers.depth + row, n);
        std::fill_n(buffers.depth + row, n, 1.0f);
        for (int layer = 0; layer < most; ++layer) {
            layers.first[layer] = std::min(layers.first[layer], y);
            layers.last[layer] = y;
        }
        layers.count = std::max(layers.count, most);
    }
    return layers;
}

// Two sources' colours of eight pixels weighted and summed per channel, in 16-bit words:
// `a` and `b` the colours (packed RGBA), `w` per pixel their weights, a's in byte 0 and b's in
// byte 1 (each at most 8). Interleaving a's and b's bytes puts a channel's two values side by
// side, and maddubs multiplies and adds them. Unpacking works within 128-bit lanes, so `lo`
// takes pixels 0, 1, 4, 5 and `hi` pixels 2, 3, 6, 7, four words each.
inline void addWeighted(__m256i a, __m256i b, __m256i w, __m256i& lo, __m256i& hi) {
    const __m256i pixels01 = _mm256_setr_epi8(0, 1, 0, 1, 0, 1, 0, 1, 4, 5, 4, 5, 4, 5, 4, 5, //
                                              0, 1, 0, 1, 0, 1, 0, 1, 4, 5, 4, 5, 4, 5, 4, 5);
    const __m256i pixels23 = _mm256_setr_epi8(8, 9, 8, 9, 8, 9, 8, 9, 12, 13, 12, 13, 12, 13, 12, 13, //
                                              8, 9, 8, 9, 8, 9, 8, 9, 12, 13, 12, 13, 12, 13, 12, 13);
    lo = _mm256_add_epi16(lo, _mm256_maddubs_epi16(_mm256_unpacklo_epi8(a, b), _mm256_shuffle_epi8(w, pixels01)));
    hi = _mm256_add_epi16(hi, _mm256_maddubs_epi16(_mm256_unpackhi_epi8(a, b), _mm256_shuffle_epi8(w, pixels23)));
}

// The box resolve of ColorSum::add and ColorSum::resolve for eight pixels from element i at
// once, in 16-bit channels (8 samples of 255 fit): the planes' colours two at a time, each
// weighted by its count (nibble L of `counts`, as many planes as `layers`), plus the clear
// colour times the samples left, rounded to nearest and divided by the sample count. A pixel
// of one triangle (or none) comes out as its colour as it is, so every pixel may take it.
inline void resolve8(std::uint32_t* color, const std::uint32_t* counts, int layers, int samples, std::uint32_t clear) {
    const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(counts));
    const __m256i low = _mm256_set1_epi32(0x0F), high = _mm256_set1_epi32(0xF0);
    __m256i lo = _mm256_setzero_si256(), hi = lo, covered = lo;
    for (int plane = 0; plane < layers; plane += 2) {
        // Layers `plane` and plane + 1: counts in bytes 0 and 1. A pixel with layer L has
        // every layer below it: past a plane none of the eight pixels has, none has another
        // (the tile's `layers` are the most of any of its pixels). Plane + 1 exists (an odd
        // count of layers is fewer than the samples); where it holds no layer its count is 0.
        const __m256i t = _mm256_srli_epi32(c, 4 * plane);
        const __m256i first = _mm256_and_si256(t, low), second = _mm256_and_si256(t, high);
        if (plane > 0 && _mm256_testz_si256(first, first)) break;
        covered = _mm256_add_epi32(covered, _mm256_add_epi32(first, _mm256_srli_epi32(second, 4)));
        const std::uint32_t* at = color + std::size_t(plane) * kPlane;
        addWeighted(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(at)),
                    _mm256_loadu_si256(reinterpret_cast<const __m256i*>(at + kPlane)),
                    _mm256_or_si256(first, _mm256_slli_epi32(second, 4)), lo, hi);
    }
    const __m256i left = _mm256_sub_epi32(_mm256_set1_epi32(samples), covered);
    addWeighted(_mm256_set1_epi32(int(clear)), _mm256_setzero_si256(), left, lo, hi);
    const int shift = samples == 8 ? 3 : samples == 4 ? 2 : 1;
    const __m256i half = _mm256_set1_epi16(short(1 << (shift - 1)));
    const __m128i count = _mm_cvtsi32_si128(shift);
    lo = _mm256_srl_epi16(_mm256_add_epi16(lo, half), count);
    hi = _mm256_srl_epi16(_mm256_add_epi16(hi, half), count);
    // Per 128-bit lane, lo's two pixels then hi's: pixels 0 1 2 3 and 4 5 6 7, in order.
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(color), _mm256_packus_epi16(lo, hi));
}

// Plane 0's colours become the resolved ones: each layer's colour weighted by the samples it
// covers, the clear colour for the rest (resolve8, eight pixels at a time where any of them
// mixes colours). The last group of a row reaches past the rect at most to the tile's last
// column, whose counts layerTile made 0.
void resolveColors(const RasterContext& ctx, const TileRect& tile, const TileBuffers& buffers, const std::uint32_t* counts,
                   int layers) {
    const int samples = ctx.plan.settings.msaa;
    const __m256i allOrNone = _mm256_set1_epi32(samples);
    for (int y = tile.y0; y <= tile.y1; ++y) {
        const std::size_t row = buffers.at(tile.x0, y), n = std::size_t(tile.x1 - tile.x0 + 1);
        for (std::size_t i = row; i < row + n; i += 8) {
            // Eight pixels of one triangle each (or none): nothing to mix.
            const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(counts + i));
            const __m256i plain = _mm256_or_si256(_mm256_cmpeq_epi32(c, allOrNone), _mm256_cmpeq_epi32(c, _mm256_setzero_si256()));
            if (_mm256_movemask_epi8(plain) != -1) resolve8(buffers.color + i, counts + i, layers, samples, ctx.plan.settings.clearColor);
        }
    }
}

} // namespace

void resolveTileSamples(const TileTriangle* triangles, const TriangleColors* const* colors, const RasterContext& ctx,
                        const TileRect& tile, const TileBuffers& buffers, std::uint32_t* counts) {
    const TileLayers layers = layerTile(ctx, tile, buffers, counts);
    shadeTileLayers(triangles, colors, ctx, tile, buffers, layers);
    resolveColors(ctx, tile, buffers, counts, layers.count);
    const FrameView& target = ctx.target;
    for (int y = tile.y0; y <= tile.y1; ++y)
        streamRow(target.color + std::size_t(y) * std::size_t(target.width) + std::size_t(tile.x0),
                  buffers.color + buffers.at(tile.x0, y), std::size_t(tile.x1 - tile.x0 + 1));
    streamFence();
}

} // namespace facet
