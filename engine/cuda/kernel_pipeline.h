// The CUDA pipeline's frame, written once for two executors (see shaders_cuda/kernels.h
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
#include "asset/scene.h"
#include "core/frame_plan.h"
#include "core/multisample.h"
#include "cuda/kernel_stats.h"
#include "shaders_cuda/kernels.h"

#include <cstdint>
#include <algorithm>
#include <string>
#include <vector>

namespace facet {

// Set-up triangles and bin entries are indexed with 32 bits (the tile bins, the raster's
// walk); per-triangle counts are scanned in 64 bits, so a frame beyond that is refused here,
// naming its count, instead of its totals wrapping and the buffers being written past their end.
inline constexpr std::uint64_t kMaxFrameIndex = 0xFFFFFFFFu;

inline void checkFrameTotals(std::uint64_t triangles, std::uint64_t binEntries, int width, int height) {
    const std::string at = " at " + std::to_string(width) + "x" + std::to_string(height) + " exceed the " +
                           std::to_string(kMaxFrameIndex) + " the CUDA pipeline can index";
    if (triangles > kMaxFrameIndex) throw LimitError(std::to_string(triangles) + " set-up triangles" + at);
    if (binEntries > kMaxFrameIndex)
        throw LimitError(std::to_string(binEntries) + " bin entries (pairs of a set-up triangle and a " +
                    std::to_string(kTileSize) + "-pixel tile it touches)" + at);
}

template <class Exec>
class KernelPipeline {
public:
    explicit KernelPipeline(Exec& exec) : exec_(exec) {}

    // Renders the drawn instances of `frame` (frameInstances), of the scene meshes `meshes`
    // (executor memory, validated when they were made resident), with `materials` (the scene's
    // one table, executor memory) into `target` (executor memory), as `plan` says. Buffers grow
    // with the scene, the target and the number of set-up triangles, and are reused from frame
    // to frame. A frame needing more set-up triangles or bin entries than 32-bit indices reach is
    // refused with facet::Error before anything is written.
    KernelFrameStats render(const std::vector<MeshView>& meshes, const FrameInstances& frame,
                            const ShadeMaterial* materials, const ViewParams& view, const FramePlan& plan,
                            const FrameView& target, const CameraSpacePositions& given = {}) { // given: executor memory
        plan.requireTarget(target);
        KernelFrameStats stats;
        stats.trianglesIn = frame.triangles + frame.trianglesCulled;
        exec_.timerStart();
        vertexStage(meshes, frame, plan, given);
        exec_.timerMark(0);
        triangleStage(plan, stats);
        exec_.timerMark(1);
        rasterStage(materials, plan, target);
        finishViewStage(view, plan, target);
        exec_.timerMark(2);
        finishFrame(stats);
        stats.trianglesCulled += frame.trianglesCulled;
        return stats;
    }

    // The last frame's raster parameters: its tile bins and set-up triangles, in executor
    // memory, valid until the next render. For the GPU cost model's count (bench/kernel_work.h).
    const RasterParams& lastRasterParams() const { return lastRaster_; }
    // Whether the last frame's set-up triangles kept their attributes.
    bool lastFrameKeptAttributes() const { return lastRaster_.plan.attributes; }

private:
    static std::uint32_t tileCount(const TileGrid& grid) {
        return static_cast<std::uint32_t>(grid.tilesX * grid.tilesY);
    }

    // The frame's per-vertex arrays, sized for its drawn vertices (dx, dy, dz unless given).
    FrameVertexArrays frameArrays(const FrameInstances& frame, const FramePlan& plan, const CameraSpacePositions& given) {
        const auto v = static_cast<std::size_t>(frame.vertices);
        outside_.ensure(v);
        projected_.ensure(v);
        FrameVertexArrays a{};
        if (given.dx) {
            a.dx = const_cast<float*>(given.dx); // only read: classifyThread writes no positions
            a.dy = const_cast<float*>(given.dy);
            a.dz = const_cast<float*>(given.dz);
        } else {
            for (Buffer<float>* b : {&dx_, &dy_, &dz_}) b->ensure(v);
            a.dx = dx_.data();
            a.dy = dy_.data();
            a.dz = dz_.data();
        }
        bool posed = false;
        for (const InstanceDraw& d : frame.draws) posed = posed || d.posed;
        if (posed) {
            for (Buffer<float>* b : {&nx_, &ny_, &nz_}) b->ensure(v);
            a.nx = nx_.data();
            a.ny = ny_.data();
            a.nz = nz_.data();
            if (plan.tangents) {
                for (Buffer<float>* b : {&tx_, &ty_, &tz_, &tw_}) b->ensure(v);
                a.tx = tx_.data();
                a.ty = ty_.data();
                a.tz = tz_.data();
                a.tw = tw_.data();
            }
        }
        a.outside = outside_.data();
        a.projected = projected_.data();
        return a;
    }

    // Each drawn instance's stage input: its mesh (normals and tangents redirected to the
    // frame's world-space arrays where it is posed) and its slices of the frame's arrays.
    void stageInstances(const std::vector<MeshView>& meshes, const FrameInstances& frame, const FramePlan& plan,
                        const FrameVertexArrays& a) {
        instanceHost_.clear();
        for (const InstanceDraw& d : frame.draws) {
            InstanceStage s;
            s.stored = meshes[d.mesh];
            s.draw = d;
            MeshView mesh = triangleStageMesh(s.stored, plan.tangents);
            if (d.posed) {
                const std::size_t f = d.firstVertex;
                if (mesh.nx) {
                    mesh.nx = a.nx + f;
                    mesh.ny = a.ny + f;
                    mesh.nz = a.nz + f;
                }
                if (mesh.tx) {
                    mesh.tx = a.tx + f;
                    mesh.ty = a.ty + f;
                    mesh.tz = a.tz + f;
                    mesh.tw = a.tw + f;
                }
            }
            s.in = instanceStageInput(plan, mesh, d, a.dx, a.dy, a.dz, a.outside, a.projected);
            instanceHost_.push_back(s);
        }
        instances_.ensure(std::max<std::size_t>(1, instanceHost_.size()));
        exec_.upload(instanceHost_.data(), instances_.data(), instanceHost_.size());
        instanceCount_ = static_cast<std::uint32_t>(instanceHost_.size());
        triangleCount_ = static_cast<std::uint32_t>(frame.triangles);
    }

    // 1. Camera-space positions (computed here unless given), clip classification, projection;
    // a posed instance's normals and tangents to world space.
    void vertexStage(const std::vector<MeshView>& meshes, const FrameInstances& frame, const FramePlan& plan,
                     const CameraSpacePositions& given) {
        const FrameVertexArrays a = frameArrays(frame, plan, given);
        stageInstances(meshes, frame, plan, a);
        const auto v = static_cast<std::uint32_t>(frame.vertices);
        if (given.dx)
            exec_.launch(ClassifyParams{instances_.data(), instanceCount_, v, plan.planes, plan.width, plan.height, a},
                         v);
        else
            exec_.launch(
                VertexSetupParams{instances_.data(), instanceCount_, v, plan.planes, plan.width, plan.height, a}, v);
    }

    // 2. Set-up triangles and their tile bins: counted, given slots, written (with what `plan`
    // says the stages after them read), sorted by tile.
    void triangleStage(const FramePlan& plan, KernelFrameStats& stats) {
        const TriangleOffsets totals = countTriangles(plan);
        stats.trianglesDrawn = totals.triangles;
        stats.binEntries = totals.entries;
        binTriangles(plan, totals);
    }

    // Per mesh triangle: how many set-up triangles and bin entries; their exclusive scan (one
    // scan of the pairs, in 64 bits) gives each its slots, and its totals, checked, size what
    // follows.
    TriangleOffsets countTriangles(const FramePlan& plan) {
        const TileGrid& grid = plan.grid;
        const std::uint32_t t = triangleCount_;
        counts_.ensure(std::size_t(t) + 1);
        offsets_.ensure(std::size_t(t) + 1);
        // triangleWrite's counters too: the count kernel zeroes them (see zeroCounts).
        const std::uint32_t tileSlots = tileCount(grid) + 1;
        tileCount_.ensure(tileSlots);
        counters_.ensure(1);
        exec_.launch(TriangleCountParams{instances_.data(), instanceCount_, t, grid, counts_.data(), tileCount_.data(),
                                         tileSlots, counters_.data()},
                     triangleCountThreads(t, tileSlots));
        exec_.exclusiveScan(counts_.data(), offsets_.data(), std::size_t(t) + 1);
        TriangleOffsets totals; // the scan's last element: the sums over the whole mesh
        exec_.download(offsets_.data() + t, &totals, 1);
        exec_.synchronize();
        checkFrameTotals(totals.triangles, totals.entries, plan.width, plan.height);
        return totals;
    }

    // The set-up triangles written to their slots with one (tile, triangle) entry per tile they
    // touch; the entries sorted by tile, draw order kept, and each tile's range scanned.
    void binTriangles(const FramePlan& plan, const TriangleOffsets& totals) {
        const TileGrid& grid = plan.grid;
        const std::uint32_t tiles = tileCount(grid);
        triangles_.ensure(totals.triangles);
        // Always as many as the triangles, so the raster parameters point at storage; written
        // only where the shading reads them.
        triangleAttributes_.ensure(totals.triangles);
        triangleMaterials_.ensure(totals.triangles);
        if (plan.sideRecords) triangleColors_.ensure(totals.triangles);
        colors_ = plan.sideRecords ? triangleColors_.data() : nullptr;
        if (plan.sources) triangleSources_.ensure(totals.triangles);
        sources_ = plan.sources ? triangleSources_.data() : nullptr;
        entryTile_.ensure(totals.entries);
        entryTriangle_.ensure(totals.entries);
        sortedTile_.ensure(totals.entries);
        tileTriangles_.ensure(totals.entries);
        tileStart_.ensure(std::size_t(tiles) + 1);
        exec_.launch(TriangleWriteParams{instances_.data(), instanceCount_, triangleCount_, grid, offsets_.data(),
                                         triangles_.data(),
                                         plan.attributes ? triangleAttributes_.data() : nullptr, triangleMaterials_.data(),
                                         entryTile_.data(), entryTriangle_.data(), tileCount_.data(), counters_.data(),
                                         colors_, sources_},
                     triangleCount_);
        exec_.exclusiveScan(tileCount_.data(), tileStart_.data(), std::size_t(tiles) + 1);
        int keyBits = 1;
        while ((1u << keyBits) < tiles) ++keyBits;
        exec_.sortPairs(entryTile_.data(), sortedTile_.data(), entryTriangle_.data(), tileTriangles_.data(),
                        static_cast<std::size_t>(totals.entries), keyBits);
    }

    // 3. One thread per quad of every tile: visibility over the tile's triangles, then shading.
    void rasterStage(const ShadeMaterial* materials, const FramePlan& plan, const FrameView& target) {
        lastRaster_ = RasterParams{triangles_.data(), triangleAttributes_.data(), triangleMaterials_.data(),
                                   materials, tileStart_.data(), tileTriangles_.data(), target, plan, colors_, sources_};
        exec_.launch(lastRaster_, tileCount(plan.grid) * kQuadsPerTile);
    }

    // 4. The debug views of the whole frame (core/view_shading.h): the depth view's range of drawn
    // depths, then every pixel rewritten (tileCount_ still holds each tile's bin entries).
    void finishViewStage(const ViewParams& view, const FramePlan& plan, const FrameView& target) {
        if (!plan.finishesFrame) return;
        const RenderSettings& settings = plan.settings;
        const std::uint32_t pixels = static_cast<std::uint32_t>(target.width) * static_cast<std::uint32_t>(target.height);
        DepthRange range;
        if (settings.view == View::Depth) {
            depthRange_.ensure(2);
            exec_.zero(depthRange_.data(), 2);
            exec_.launch(DepthRangeParams{target, depthRange_.data()}, pixels);
            std::uint32_t bits[2] = {0u, 0u};
            exec_.download(depthRange_.data(), bits, 2);
            exec_.synchronize();
            if (bits[0] != 0u) range = DepthRange{bitsFloat(~bits[0]), bitsFloat(bits[1])};
        }
        exec_.launch(ViewFinishParams{ViewFinish{settings.view, target, view.nearPlane, view.farPlane, range,
                                                 tileCount_.data(), plan.grid}},
                     pixels);
    }

    // The clip and cull counters, and the stage times.
    void finishFrame(KernelFrameStats& stats) {
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
    }

    template <class T>
    using Buffer = typename Exec::template Buffer<T>;

    Exec& exec_;
    Buffer<float> dx_, dy_, dz_;
    Buffer<float> nx_, ny_, nz_, tx_, ty_, tz_, tw_; // posed instances' world-space normals, tangents
    Buffer<InstanceStage> instances_;               // this frame's drawn instances ...
    std::vector<InstanceStage> instanceHost_;       // ... as the host made them
    std::uint32_t instanceCount_ = 0, triangleCount_ = 0;
    Buffer<std::uint8_t> outside_;
    Buffer<ScreenVertex> projected_;
    Buffer<TriangleCounts> counts_;   // per mesh triangle: 32 bits suffice
    Buffer<TriangleOffsets> offsets_; // their sums need not fit 32 bits
    Buffer<ScreenTriangle> triangles_;
    Buffer<TriangleAttributes> triangleAttributes_;
    Buffer<std::uint32_t> triangleMaterials_;
    Buffer<TriangleColors> triangleColors_;
    TriangleColors* colors_ = nullptr; // this frame's triangleColors_, or null for a mesh without colours or tangents
    Buffer<std::uint32_t> triangleSources_, depthRange_;
    std::uint32_t* sources_ = nullptr;  // this frame's triangleSources_, or null
    Buffer<std::uint32_t> entryTile_, entryTriangle_, sortedTile_, tileTriangles_;
    Buffer<std::uint32_t> tileCount_, tileStart_;
    Buffer<TriangleCounters> counters_;
    RasterParams lastRaster_{};
};

} // namespace facet
