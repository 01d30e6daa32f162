#include "cpu/shading/outputs_tile.h"

#include "cpu/simd/lit_lanes.h"
#include "cpu/simd/stream_store.h"

#include <algorithm>

namespace facet {

namespace {

// A tile row's outputs, gathered here and then streamed to the target whole
// (cpu/simd/stream_store.h): written one by one they took the cache from the shading that
// follows, and frames with outputs ran up to twice as long as those without.
struct OutputRow {
    alignas(64) float metric[kTileSize];
    alignas(64) std::uint32_t instance[kTileSize];
    alignas(64) float normal[3 * kTileSize];

    void set(std::size_t k, const OutputPixel& p) {
        metric[k] = p.metricDepth;
        instance[k] = p.instance;
        normal[3 * k] = p.normal.x;
        normal[3 * k + 1] = p.normal.y;
        normal[3 * k + 2] = p.normal.z;
    }

    void stream(const FrameOutputs& o, std::size_t at, std::size_t n) const {
        if (o.metricDepth) streamRow(o.metricDepth + at, metric, n);
        if (o.instance) streamRow(o.instance + at, instance, n);
        if (o.normal) streamRow(o.normal + 3 * at, normal, 3 * n);
    }
};

lanes::F32x8 load8(const float* p) { return lanes::F32x8(_mm256_load_ps(p)); }

// The winners of the eight pixels whose ids start at `ids`, as lanes: one triangle's in every
// lane where one won them all, else each lane's own, gathered (a lane nothing drew takes
// `someId`'s, and its outputs are zeroed after).
WinnerLanes<lanes::F32x8> winners8(const TileTriangle* triangles, const std::uint32_t* ids, std::uint32_t someId,
                                   bool one) {
    using lanes::F32x8;
    if (one) return winnerLanes<F32x8>(*triangles[someId - 1].tri, *triangles[someId - 1].attributes);
    alignas(32) float d[18][8];
    for (int j = 0; j < 8; ++j) {
        const TileTriangle& t = triangles[(ids[j] != 0 ? ids[j] : someId) - 1];
        const float plane[6] = {t.tri->origin.x, t.tri->origin.y, t.tri->db1.x, t.tri->db1.y, t.tri->db2.x, t.tri->db2.y};
        for (int i = 0; i < 6; ++i) d[i][j] = plane[i];
        for (int c = 0; c < 3; ++c) {
            const CornerAttributes& corner = t.attributes->v[c];
            d[6 + c][j] = corner.invW;
            d[9 + 3 * c][j] = corner.nOverW.x;
            d[10 + 3 * c][j] = corner.nOverW.y;
            d[11 + 3 * c][j] = corner.nOverW.z;
        }
    }
    WinnerLanes<F32x8> w{BarycentricPlane<F32x8>(load8(d[0]), load8(d[1]), load8(d[2]), load8(d[3]), load8(d[4]), load8(d[5])),
                         {},
                         {}};
    for (int c = 0; c < 3; ++c) {
        w.invW[c] = load8(d[6 + c]);
        w.nOverW[c] = Vec3Lanes<F32x8>{load8(d[9 + 3 * c]), load8(d[10 + 3 * c]), load8(d[11 + 3 * c])};
    }
    return w;
}

// Pixels k to k + 7 of the row at (x, y), whose ids start at `ids` (some drawn): surfaceOutputs
// on eight lanes.
void eightOutputs(const OutputFrame& frame, const TileTriangle* triangles, const std::uint32_t* sources,
                  const std::uint32_t* ids, int x, int y, std::size_t k, OutputRow& row) {
    using lanes::F32x8;
    const __m256i id8 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(ids));
    const __m256 drawn = _mm256_castsi256_ps(
        _mm256_xor_si256(_mm256_cmpeq_epi32(id8, _mm256_setzero_si256()), _mm256_set1_epi32(-1)));
    std::uint32_t someId = 0;
    for (int j = 0; j < 8 && someId == 0; ++j) someId = ids[j];
    const bool one = _mm256_movemask_epi8(_mm256_cmpeq_epi32(id8, _mm256_set1_epi32(int(someId)))) == -1;
    if (frame.outputs.metricDepth || frame.outputs.normal) {
        const F32x8 xs(_mm256_add_ps(_mm256_set1_ps(float(x)), _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7)));
        F32x8 metric;
        Vec3Lanes<F32x8> n;
        surfaceOutputs(frame, winners8(triangles, ids, someId, one), xs, F32x8(float(y)), metric, n);
        _mm256_store_ps(row.metric + k, _mm256_and_ps(metric.v, drawn));
        alignas(32) float nx[8], ny[8], nz[8];
        _mm256_store_ps(nx, _mm256_and_ps(n.x.v, drawn));
        _mm256_store_ps(ny, _mm256_and_ps(n.y.v, drawn));
        _mm256_store_ps(nz, _mm256_and_ps(n.z.v, drawn));
        for (std::size_t j = 0; j < 8; ++j) {
            row.normal[3 * (k + j)] = nx[j];
            row.normal[3 * (k + j) + 1] = ny[j];
            row.normal[3 * (k + j) + 2] = nz[j];
        }
    }
    if (frame.outputs.instance) {
        const std::uint32_t same = one ? instanceOf(frame, sources[someId - 1]) : 0u;
        for (std::size_t j = 0; j < 8; ++j)
            row.instance[k + j] = one ? same : ids[j] != 0 ? instanceOf(frame, sources[ids[j] - 1]) : 0u;
    }
}

} // namespace

void writeTileOutputs(const OutputFrame& frame, const TileTriangle* triangles, const std::uint32_t* sources,
                      const TileRect& tile, const TileBuffers& buffers, bool clear) {
    OutputRow row;
    const auto n = std::size_t(tile.x1 - tile.x0 + 1);
    for (int y = tile.y0; y <= tile.y1; ++y) {
        for (int x = tile.x0; x <= tile.x1;) {
            const std::size_t at = buffers.at(x, y), k = std::size_t(x - tile.x0);
            // Eight pixels at once, from a lane-aligned column of the row buffers.
            if (k % 8 == 0 && x + 7 <= tile.x1) {
                const std::uint32_t* ids = buffers.ids + at;
                const __m256i id8 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(ids));
                if (_mm256_testz_si256(id8, id8)) {
                    for (std::size_t j = 0; j < 8; ++j) row.set(k + j, OutputPixel{});
                } else {
                    eightOutputs(frame, triangles, sources, ids, x, y, k, row);
                    if (clear) std::fill_n(buffers.ids + at, 8, 0u);
                }
                x += 8;
                continue;
            }
            const std::uint32_t id = buffers.ids[at];
            OutputPixel p;
            if (id != 0) {
                const TileTriangle& t = triangles[id - 1];
                p = outputPixel(frame, OutputWinner{t.tri, t.attributes, sources ? sources[id - 1] : 0u}, x, y);
            }
            row.set(k, p);
            if (clear) buffers.ids[at] = 0;
            ++x;
        }
        row.stream(frame.outputs, std::size_t(y) * std::size_t(frame.width) + std::size_t(tile.x0), n);
    }
    streamFence();
}

void clearTileOutputs(const OutputFrame& frame, const TileRect& tile) {
    const FrameOutputs& o = frame.outputs;
    const auto n = std::size_t(tile.x1 - tile.x0 + 1);
    for (int y = tile.y0; y <= tile.y1; ++y) {
        const std::size_t row = std::size_t(y) * std::size_t(frame.width) + std::size_t(tile.x0);
        if (o.metricDepth) streamFillRow(o.metricDepth + row, 0.0f, n);
        if (o.instance) streamFillRow(o.instance + row, 0u, n);
        if (o.normal) streamFillRow(o.normal + 3 * row, 0.0f, 3 * n);
    }
    streamFence();
}

} // namespace facet
