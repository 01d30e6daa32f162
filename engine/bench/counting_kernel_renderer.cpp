#include "bench/counting_kernel_renderer.h"

namespace facet {

KernelFrameStats CountingKernelRenderer::render(const ViewParams& view, const FramePlan& plan, const FrameView& target) {
    work_.clear();
    raster_ = {};
    log_.clear();
    kernels_.executor().logLaunches(&log_);
    const KernelFrameStats stats = kernels_.render(view, plan, target);
    countWork(stats);
    return stats;
}

void CountingKernelRenderer::countWork(const KernelFrameStats& stats) {
    kernels_.executor().logLaunches(nullptr);
    // The attributes the kernels read, as the first mesh has them (the benchmarks' scenes share one kind).
    const MeshView mesh = scene_->meshes.empty() ? MeshView{} : meshView(scene_->meshes[0]->mesh);
    FrameFacts facts;
    facts.texCoords = mesh.u != nullptr;
    facts.normals = mesh.nx != nullptr;
    facts.vertexColors = mesh.cr != nullptr;
    facts.materialRanges = mesh.rangeCount;
    facts.meshTriangles = std::uint32_t(stats.trianglesIn);
    facts.clipped = stats.trianglesClipped;
    facts.drawn = stats.trianglesDrawn;
    facts.binEntries = stats.binEntries;
    const RasterParams& raster = kernels_.pipeline().lastRasterParams();
    facts.sideRecords = raster.triangleColors != nullptr;
    facts.tiles = std::uint32_t(raster.plan.grid.tilesX) * std::uint32_t(raster.plan.grid.tilesY);
    facts.attributes = kernels_.pipeline().lastFrameKeptAttributes();
    facts.tangents = facts.sideRecords && mesh.tx != nullptr && raster.plan.lit;
    raster_ = countRasterWork(raster, kernels_.pool());
    work_ = kernelWork(log_, facts, raster_);
}

} // namespace facet
