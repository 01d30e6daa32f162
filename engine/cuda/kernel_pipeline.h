// The CUDA pipeline's frame, written once for two executors (see shaders_cuda/frame_kernels.h
// for the kernels):
//   - DeviceExec (engine/cuda/device_exec.h): kernels on a CUDA stream, cub scans and sorts,
//     CUDA events for the stage timings;
//   - HostExec (engine/cuda/host_exec.h): the same per-thread functions on the CPU's thread
//     pool, the standard library's scans and sorts: the GPU algorithm, run where there is no GPU.
// An executor provides Buffer<T> (grow-only storage: ensure(n), data()), launch(params, n),
// zero(p, n), exclusiveScan(in, out, n), sortPairs(keysIn, keysOut, valuesIn, valuesOut, n,
// keyBits), download(src, dst, n) + synchronize(), and the stage timer (start, mark, read).
#pragma once

#include "core/error.h"
#include "cuda/kernel_stats.h"
#include "shaders_cuda/frame_kernels.h"

#include <cstdint>
#include <string>

namespace facet {

template <class Exec>
class KernelPipeline {
public:
    explicit KernelPipeline(Exec& exec) : exec_(exec) {}

    // Renders `mesh` (executor memory, validated when it was made resident) with `materials`
    // (at least one, and one for every material its ranges name) into `target` (executor
    // memory). Buffers grow with the mesh, the target and the number of set-up triangles, and
    // are reused from frame to frame.
    KernelFrameStats render(const MeshView& mesh, const ShadeMaterial* materials, const ViewParams& view,
                            const RenderSettings& settings, const FrameView& target,
                            const CameraSpacePositions& given = {}) { // given: executor memory
        if (target.width <= 0 || target.height <= 0 || !target.color || !target.depth)
            throw Error("render target is empty (" + std::to_string(target.width) + "x" +
                        std::to_string(target.height) + "); nothing to draw into");
        const std::uint32_t v = mesh.vertexCount, t = mesh.triangleCount;
        const TileGrid grid = makeTileGrid(target.width, target.height);
        const auto tiles = static_cast<std::uint32_t>(grid.tilesX * grid.tilesY);
        KernelFrameStats stats;
        stats.trianglesIn = t;
        exec_.timerStart();

        // 1. Vertex stage. With positions given, the classification and projection still run here.
        outside_.ensure(v);
        projected_.ensure(v);
        const ClipPlanes planes = makeClipPlanes(view, target.width, target.height);
        const float *dx = given.dx, *dy = given.dy, *dz = given.dz;
        if (dx) {
            exec_.launch(ClassifyParams{mesh, view, planes, target.width, target.height, dx, dy, dz, outside_.data(),
                                        projected_.data()},
                         v);
        } else {
            dx_.ensure(v);
            dy_.ensure(v);
            dz_.ensure(v);
            dx = dx_.data();
            dy = dy_.data();
            dz = dz_.data();
            exec_.launch(VertexSetupParams{mesh, view, planes, target.width, target.height, dx_.data(), dy_.data(),
                                           dz_.data(), outside_.data(), projected_.data()},
                         v);
        }
        exec_.timerMark(0);

        // 2. Triangle stage: count, scan, write; then bins ordered by tile, draw order kept.
        emitCount_.ensure(std::size_t(t) + 1);
        entryCount_.ensure(std::size_t(t) + 1);
        emitOffset_.ensure(std::size_t(t) + 1);
        entryOffset_.ensure(std::size_t(t) + 1);
        exec_.zero(emitCount_.data() + t, 1);
        exec_.zero(entryCount_.data() + t, 1);
        const TriangleStageInput in{mesh, dx, dy, dz, outside_.data(), projected_.data(), planes, view,
                                    target.width, target.height, settings.cull == CullMode::Back};
        exec_.launch(TriangleCountParams{in, grid, emitCount_.data(), entryCount_.data()}, t);
        exec_.exclusiveScan(emitCount_.data(), emitOffset_.data(), std::size_t(t) + 1);
        exec_.exclusiveScan(entryCount_.data(), entryOffset_.data(), std::size_t(t) + 1);
        std::uint32_t totals[2] = {0, 0}; // set-up triangles, bin entries: they size what follows
        exec_.download(emitOffset_.data() + t, &totals[0], 1);
        exec_.download(entryOffset_.data() + t, &totals[1], 1);
        exec_.synchronize();
        stats.trianglesDrawn = totals[0];
        stats.binEntries = totals[1];

        triangles_.ensure(totals[0]);
        triangleMaterials_.ensure(totals[0]);
        if (mesh.cr) triangleColors_.ensure(totals[0]); // only a mesh with vertex colours keeps them
        TriangleColors* const colors = mesh.cr ? triangleColors_.data() : nullptr;
        entryTile_.ensure(totals[1]);
        entryTriangle_.ensure(totals[1]);
        sortedTile_.ensure(totals[1]);
        tileTriangles_.ensure(totals[1]);
        tileCount_.ensure(std::size_t(tiles) + 1);
        tileStart_.ensure(std::size_t(tiles) + 1);
        counters_.ensure(1);
        exec_.zero(tileCount_.data(), std::size_t(tiles) + 1);
        exec_.zero(counters_.data(), 1);
        exec_.launch(TriangleWriteParams{in, grid, emitOffset_.data(), entryOffset_.data(), triangles_.data(),
                                         triangleMaterials_.data(), entryTile_.data(), entryTriangle_.data(),
                                         tileCount_.data(), counters_.data(), colors},
                     t);
        exec_.exclusiveScan(tileCount_.data(), tileStart_.data(), std::size_t(tiles) + 1);
        int keyBits = 1;
        while ((1u << keyBits) < tiles) ++keyBits;
        exec_.sortPairs(entryTile_.data(), sortedTile_.data(), entryTriangle_.data(), tileTriangles_.data(), totals[1],
                        keyBits);
        exec_.timerMark(1);

        // 3. Raster stage: one thread per quad of every tile.
        exec_.launch(RasterParams{triangles_.data(), triangleMaterials_.data(), materials, tileStart_.data(),
                                  tileTriangles_.data(), target, settings, viewForward(view), grid, colors},
                     tiles * kQuadsPerTile);
        exec_.timerMark(2);

        TriangleCounters counters{0, 0};
        exec_.download(counters_.data(), &counters, 1);
        exec_.synchronize();
        stats.trianglesClipped = counters.clipped;
        stats.trianglesCulled = counters.culled;
        double ms[3];
        exec_.timerRead(ms, 3);
        stats.vertexMs = ms[0];
        stats.triangleMs = ms[1];
        stats.rasterMs = ms[2];
        return stats;
    }

private:
    template <class T>
    using Buffer = typename Exec::template Buffer<T>;

    Exec& exec_;
    Buffer<float> dx_, dy_, dz_;
    Buffer<std::uint8_t> outside_;
    Buffer<ScreenVertex> projected_;
    Buffer<std::uint32_t> emitCount_, entryCount_, emitOffset_, entryOffset_;
    Buffer<ScreenTriangle> triangles_;
    Buffer<std::uint32_t> triangleMaterials_;
    Buffer<TriangleColors> triangleColors_;
    Buffer<std::uint32_t> entryTile_, entryTriangle_, sortedTile_, tileTriangles_;
    Buffer<std::uint32_t> tileCount_, tileStart_;
    Buffer<TriangleCounters> counters_;
};

} // namespace facet
