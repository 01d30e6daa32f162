// A build without CUDA: the GPU renderer cannot be made, and says why.
#include "cuda/gpu_renderer.h"

#include "core/error.h"
#include "cuda/device.h"

namespace facet {

struct GpuRenderer::Impl {};

GpuRenderer::GpuRenderer(int device) { throw Error("the GPU is unusable: " + probeGpu(device).reason); }
GpuRenderer::~GpuRenderer() = default;
GpuRenderer::GpuRenderer(GpuRenderer&&) noexcept = default;
GpuRenderer& GpuRenderer::operator=(GpuRenderer&&) noexcept = default;

// Unreachable: no GpuRenderer is ever constructed in this build.
std::string GpuRenderer::deviceName() const { return {}; }
int GpuRenderer::device() const { return -1; }
void* GpuRenderer::stream() const { return nullptr; }
void GpuRenderer::setScene(const Scene&) {}
KernelFrameStats GpuRenderer::render(const ViewParams&, const FramePlan&, const FrameView&,
                                     const CameraSpacePositions&) {
    return {};
}
KernelFrameStats GpuRenderer::renderColor(const ViewParams&, const FramePlan&, std::uint32_t*,
                                          const CameraSpacePositions&) {
    return {};
}
KernelFrameStats GpuRenderer::renderToHost(const ViewParams&, const FramePlan&, const FrameView&,
                                           const CameraSpacePositions&) {
    return {};
}
double GpuRenderer::cameraSpaceToHost(const FrameInstances&, float*, float*, float*) { return 0.0; }

} // namespace facet
