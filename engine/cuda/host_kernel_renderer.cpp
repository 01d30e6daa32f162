#include "cuda/host_kernel_renderer.h"

#include <new>

namespace facet {

HostKernelRenderer::HostKernelRenderer(int threads) : pool_(threads), exec_(pool_), pipeline_(exec_) {}

KernelFrameStats HostKernelRenderer::render(const Model& model, const ViewParams& view,
                                            const RenderSettings& settings, const FrameView& target) {
    validateMesh(model.mesh, model.materials.size(), model.source);
    materials_ = shadeMaterials(model);
    try {
        const KernelFrameStats stats = pipeline_.render(
            meshView(model.mesh), materials_.data(), summarizeMaterials(materials_.data(), materials_.size(), settings),
            view, settings, target);
        return stats;
    } catch (const std::bad_alloc&) {
        throw Error("not enough memory to render " + std::to_string(model.mesh.triangleCount()) +
                    " triangles into " + std::to_string(target.width) + "x" + std::to_string(target.height) +
                    " pixels");
    }
}

} // namespace facet
