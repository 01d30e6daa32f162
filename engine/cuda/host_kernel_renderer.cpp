#include "cuda/host_kernel_renderer.h"

#include <new>

namespace facet {

HostKernelRenderer::HostKernelRenderer(int threads) : pool_(threads), exec_(pool_), pipeline_(exec_) {}

void HostKernelRenderer::setModel(const Model& model) {
    validateMesh(model.mesh, model.materials.size(), model.source);
    materials_ = shadeMaterials(model);
    model_ = &model;
}

KernelFrameStats HostKernelRenderer::render(const ViewParams& view, const FramePlan& plan, const FrameView& target) {
    if (!model_) throw Error("no model to render: call setModel first");
    const Model& model = *model_;
    work_.clear();
    raster_ = {};
    log_.clear();
    exec_.logLaunches(counting_ ? &log_ : nullptr);
    try {
        const KernelFrameStats stats = pipeline_.render(meshView(model.mesh), materials_.data(), view, plan, target);
        if (counting_) countWork(stats);
        return stats;
    } catch (const std::bad_alloc&) {
        throw Error("not enough memory to render " + std::to_string(model.mesh.triangleCount()) +
                    " triangles into " + std::to_string(target.width) + "x" + std::to_string(target.height) +
                    " pixels");
    }
}

void HostKernelRenderer::countWork(const KernelFrameStats& stats) {
    exec_.logLaunches(nullptr);
    const MeshView mesh = meshView(model_->mesh);
    FrameFacts facts;
    facts.texCoords = mesh.u != nullptr;
    facts.normals = mesh.nx != nullptr;
    facts.vertexColors = mesh.cr != nullptr;
    facts.materialRanges = mesh.rangeCount;
    facts.meshTriangles = mesh.triangleCount;
    facts.clipped = stats.trianglesClipped;
    facts.drawn = stats.trianglesDrawn;
    facts.binEntries = stats.binEntries;
    const RasterParams& raster = pipeline_.lastRasterParams();
    facts.sideRecords = raster.triangleColors != nullptr;
    facts.tiles = std::uint32_t(raster.plan.grid.tilesX) * std::uint32_t(raster.plan.grid.tilesY);
    facts.attributes = pipeline_.lastFrameKeptAttributes();
    facts.tangents = facts.sideRecords && mesh.tx != nullptr && raster.plan.lit;
    raster_ = countRasterWork(raster, pool_);
    work_ = kernelWork(log_, facts, raster_);
}

} // namespace facet
