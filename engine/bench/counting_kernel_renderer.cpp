#include "bench/counting_kernel_renderer.h"

namespace facet {

KernelFrameStats CountingKernelRenderer::render(const Model& model, const ViewParams& view,
                                                const RenderSettings& settings, const FrameView& target) {
    work_.clear();
    raster_ = {};
    log_.clear();
    kernels_.executor().logLaunches(&log_);
    const KernelFrameStats stats = kernels_.render(model, view, settings, target);
    countWork(model, stats);
    return stats;
}

void CountingKernelRenderer::countWork(const Model& model, const KernelFrameStats& stats) {
    kernels_.executor().logLaunches(nullptr);
    const MeshView mesh = meshView(model.mesh);
    FrameFacts facts;
    facts.texCoords = mesh.u != nullptr;
    facts.normals = mesh.nx != nullptr;
    facts.vertexColors = mesh.cr != nullptr;
    facts.materialRanges = mesh.rangeCount;
    facts.meshTriangles = mesh.triangleCount;
    facts.clipped = stats.trianglesClipped;
    facts.drawn = stats.trianglesDrawn;
    facts.binEntries = stats.binEntries;
    const RasterParams& raster = kernels_.pipeline().lastRasterParams();
    facts.sideRecords = raster.triangleColors != nullptr;
    facts.tiles = std::uint32_t(raster.grid.tilesX) * std::uint32_t(raster.grid.tilesY);
    facts.attributes = kernels_.pipeline().lastFrameKeptAttributes();
    facts.tangents = facts.sideRecords && mesh.tx != nullptr && raster.settings.shading == ShadingModel::Lit;
    raster_ = countRasterWork(raster, kernels_.pool());
    work_ = kernelWork(log_, facts, raster_);
}

} // namespace facet
