#include "cuda/host_kernel_renderer.h"

#include <new>

namespace facet {

HostKernelRenderer::HostKernelRenderer(int threads) : pool_(threads), exec_(pool_), pipeline_(exec_) {}

void HostKernelRenderer::setScene(const Scene& scene) {
    validateScene(scene);
    materials_ = shadeMaterials(scene);
    meshes_.clear();
    for (const auto& model : scene.meshes) meshes_.push_back(meshView(model->mesh));
    scene_ = &scene;
}

KernelFrameStats HostKernelRenderer::render(const ViewParams& view, const FramePlan& plan, const FrameView& target) {
    if (!scene_) throw Error("no scene to render: call setScene first");
    try {
        const FrameInstances frame = frameInstances(*scene_, materials_.bases, view, plan.planes);
        return pipeline_.render(meshes_, frame, materials_.table.data(), view, plan, target);
    } catch (const std::bad_alloc&) {
        throw Error("not enough memory to render " + std::to_string(scene_->triangleCount()) + " triangles into " +
                    std::to_string(target.width) + "x" + std::to_string(target.height) + " pixels");
    }
}

} // namespace facet
