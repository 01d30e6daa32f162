// The GPU backend: the scene's meshes made resident in device memory once (positions, UVs, normals,
// indices, material ranges, materials, textures with their mip chains), then per frame only
// the camera crosses the bus and the picture is drawn by the kernels of
// shaders_cuda/kernels.h into device memory: a mapped OpenGL pixel buffer
// (engine/display/cuda_interop.h) or the renderer's own buffers, copied back for the headless
// renderer. In a build without CUDA, or where no device is usable, construction throws
// facet::Error with the reason (probeGpu's), so callers fall back to the CPU.
// The renderer lives on one device (see chooseGpuDevice in cuda/device.h); every call makes it
// the calling thread's current device first (CUDA's current device is per host thread).
#pragma once

#include "asset/scene.h"
#include "core/frame.h"
#include "core/frame_plan.h"
#include "core/shading.h"
#include "core/transform.h"
#include "cuda/kernel_stats.h"

#include <memory>
#include <string>

namespace facet {

class GpuRenderer {
public:
    // On device `device` as chooseGpuDevice(device) picks it (-1: FACET_DEVICE, else 0).
    explicit GpuRenderer(int device = -1);
    ~GpuRenderer();
    GpuRenderer(GpuRenderer&&) noexcept;
    GpuRenderer& operator=(GpuRenderer&&) noexcept;

    std::string deviceName() const;
    int device() const; // the CUDA device index it renders on

    // The renderer's one CUDA stream (a cudaStream_t): map interop buffers on it.
    void* stream() const;

    // Validates the scene and makes its meshes resident, replacing the previous scene's. Its
    // instances are read each frame.
    void setScene(const Scene& scene);
    BackendLimits limits() const { return {}; }

    // Renders the resident model into device memory (colour and depth device pointers), as
    // `plan` says. `hostPositions`, when given, are camera-space positions from the CPU's
    // vertex stage (host arrays, uploaded: 12 bytes a vertex) instead of the GPU's own.
    KernelFrameStats render(const ViewParams& view, const FramePlan& plan, const FrameView& deviceTarget,
                            const CameraSpacePositions& hostPositions = {});

    // The same with the depth buffer the renderer's own (for a display that shows only colour,
    // e.g. a mapped interop pixel buffer), of the plan's size.
    KernelFrameStats renderColor(const ViewParams& view, const FramePlan& plan, std::uint32_t* deviceColor,
                                 const CameraSpacePositions& hostPositions = {});

    // The same into host memory: drawn into the renderer's own device buffers, then copied.
    KernelFrameStats renderToHost(const ViewParams& view, const FramePlan& plan, const FrameView& hostTarget,
                                  const CameraSpacePositions& hostPositions = {});

    // The vertex stage alone, d = R (v - eye) for each drawn instance of the resident scene,
    // copied into host arrays of frame.vertices floats each, laid out as `frame` places them (for
    // the CPU rasterizer with the GPU's vertex stage).
    double cameraSpaceToHost(const FrameInstances& frame, float* dx, float* dy, float* dz);

private:
    struct Impl;
    Impl& current() const; // impl_, its device made current
    std::unique_ptr<Impl> impl_;
};

} // namespace facet
