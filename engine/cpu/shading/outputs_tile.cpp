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

// Whether the eight ids from `ids` are one triangle's (not 0); its id then.
inline std::uint32_t oneWinner(const std::uint32_t* ids) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(ids));
    const __m256i same = _mm256_cmpeq_epi32(v, _mm256_set1_epi32(int(ids[0])));
    return _mm256_movemask_epi8(same) == -1 ? ids[0] : 0u;
}

// Pixels k to k + 7 of the row at (x, y), all of triangle `t`: surfaceOutputs on eight lanes.
void eightOutputs(const OutputFrame& frame, const TileTriangle& t, std::uint32_t instance, int x, int y,
                  std::size_t k, OutputRow& row) {
    using lanes::F32x8;
    if (frame.outputs.metricDepth || frame.outputs.normal) {
        const F32x8 xs(_mm256_add_ps(_mm256_set1_ps(float(x)), _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7)));
        F32x8 metric;
        Vec3Lanes<F32x8> n;
        surfaceOutputs(frame, *t.tri, *t.attributes, xs, F32x8(float(y)), metric, n);
        _mm256_store_ps(row.metric + k, frame.outputs.metricDepth ? metric.v : _mm256_setzero_ps());
        alignas(32) float nx[8], ny[8], nz[8];
        _mm256_store_ps(nx, n.x.v);
        _mm256_store_ps(ny, n.y.v);
        _mm256_store_ps(nz, n.z.v);
        for (std::size_t j = 0; j < 8; ++j) {
            row.normal[3 * (k + j)] = nx[j];
            row.normal[3 * (k + j) + 1] = ny[j];
            row.normal[3 * (k + j) + 2] = nz[j];
        }
    }
    for (std::size_t j = 0; j < 8; ++j) row.instance[k + j] = instance;
}

} // namespace

void writeTileOutputs(const OutputFrame& frame, const TileTriangle* triangles, const std::uint32_t* sources,
                      const TileRect& tile, const TileBuffers& buffers, bool clear) {
    OutputRow row;
    const auto n = std::size_t(tile.x1 - tile.x0 + 1);
    for (int y = tile.y0; y <= tile.y1; ++y) {
        for (int x = tile.x0; x <= tile.x1;) {
            const std::size_t at = buffers.at(x, y), k = std::size_t(x - tile.x0);
            // Eight pixels of one triangle, from a lane-aligned column of the row buffers.
            if (k % 8 == 0 && x + 7 <= tile.x1) {
                if (const std::uint32_t id = oneWinner(buffers.ids + at)) {
                    const std::uint32_t instance =
                        frame.outputs.instance ? instanceOf(frame, sources[id - 1]) : 0u;
                    eightOutputs(frame, triangles[id - 1], instance, x, y, k, row);
                    if (clear) std::fill_n(buffers.ids + at, 8, 0u);
                    x += 8;
                    continue;
                }
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
