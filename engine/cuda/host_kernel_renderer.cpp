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
    try {
        const KernelFrameStats stats = pipeline_.render(meshView(model.mesh), materials_.data(), view, plan, target);
        return stats;
    } catch (const std::bad_alloc&) {
        throw Error("not enough memory to render " + std::to_string(model.mesh.triangleCount()) +
                    " triangles into " + std::to_string(target.width) + "x" + std::to_string(target.height) +
                    " pixels");
    }
}

} // namespace facet
