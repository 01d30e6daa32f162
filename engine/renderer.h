// facet's front door: one Renderer over every backend. An app hands it a model once, then
// renders a camera with settings into a target (host memory, or the display's pixel buffer),
// and gets one FrameStats back. Where each stage runs is an option: the vertex stage and the
// raster stage each on the CPU or the GPU, or the whole frame on the OpenGL reference or on the
// CUDA pipeline's kernels run by the CPU. Apps speak to this class, never to a backend.
// A placement the machine cannot honour (a GPU stage without a usable GPU, threads for a backend
// that uses none) is refused with a facet::Error that says why; Backend::Auto picks the GPU where
// one is usable and says why it did not otherwise.
#pragma once

#include "asset/model.h"
#include "asset/scene.h"
#include "core/frame.h"
#include "core/names.h"
#include "core/shading.h"
#include "core/transform.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace facet {

struct RendererOptions {
    Backend backend = Backend::Auto;
    // Override where the vertex or raster stage runs; only with Auto, Cpu or Gpu.
    std::optional<Side> vertex, raster;
    int threads = 0; // CPU threads; 0: one per hardware thread
    int device = -1; // CUDA device; -1: FACET_DEVICE, else device 0
};

// Where a frame's stages run, once options are resolved against the machine.
struct Placement {
    // Cpu or Gpu: facet's pipeline, each stage on the side below (Gpu when either is on the
    // GPU); Gl: the OpenGL reference; Kernels: the CUDA pipeline's kernels run by the CPU.
    Backend backend = Backend::Cpu;
    Side vertex = Side::Cpu, raster = Side::Cpu;
    std::string note; // why Auto chose the CPU, or why the GPU was dropped; empty otherwise

    bool pipeline() const { return backend == Backend::Cpu || backend == Backend::Gpu; }
    // "vertex cpu, raster gpu", "gl", "kernels".
    std::string describe() const;
};

struct FrameStats {
    std::size_t trianglesIn = 0;
    std::size_t trianglesClipped = 0; // crossed the near plane or the guard band
    std::size_t trianglesCulled = 0;  // outside the frustum, back-facing, degenerate, non-finite or covering no pixel
    std::size_t trianglesDrawn = 0;   // set-up triangles (the kernels count them; 0 elsewhere)
    std::size_t fragments = 0;        // depth-test passes (the CPU raster stage counts them)
    double vertexMs = 0.0, triangleMs = 0.0, rasterMs = 0.0; // 0 on the OpenGL reference
    double frameMs = 0.0;             // the whole render call, wall clock
    Placement placement;              // where this frame's stages ran
    std::string note;                 // what the picture lacks and why (an empty scene); empty otherwise
};

// The display's pixel buffer as the renderer sees it (engine/display implements it over an
// OpenGL pixel buffer and CUDA-GL interop): mapped for the CPU to write, or for the GPU.
class DisplayTarget {
public:
    virtual ~DisplayTarget() = default;
    virtual int width() const = 0;
    virtual int height() const = 0;
    // Host memory the CPU writes the frame into, valid until unmapHost().
    virtual std::uint32_t* mapHost() = 0;
    virtual void unmapHost() = 0;
    // Device memory the GPU writes into on `stream` (a cudaStream_t) of CUDA device `device`,
    // valid until unmapDevice(); nullptr where interop cannot serve that device (the window's
    // context lives on another GPU), and the renderer then copies the frame through mapHost().
    virtual std::uint32_t* mapDevice(int device, void* stream) = 0;
    virtual void unmapDevice() = 0;
    // After a GPU failure: forget the interop state without touching CUDA again. Never throws.
    virtual void abandonDevice() noexcept = 0;
};

// Whether a backend can render here, and on what; never throws.
struct BackendStatus {
    bool usable = false;
    std::string reason; // why not, when unusable
    std::string device; // the GPU's name, or "GL_RENDERER (how the context was made)"; empty on the CPU
};
BackendStatus probeBackend(Backend backend);

// The CUDA devices, one line each: "0: NAME (compute 8.6, 4096 MiB)"; without any, one line
// "none: why". For facet-render --info and the viewer's panel (the tutorials' select_device).
std::vector<std::string> describeGpus();

class Renderer {
public:
    // Resolves the placement and makes the backends it needs. Throws facet::Error naming the
    // refused option and the reason.
    explicit Renderer(const RendererOptions& options = {});
    ~Renderer();
    Renderer(Renderer&&) noexcept;
    Renderer& operator=(Renderer&&) noexcept;
    Renderer(const Renderer&) = delete;
    Renderer& operator=(const Renderer&) = delete;

    const Placement& placement() const;
    int threadCount() const;     // the CPU backend's threads
    // The device drawing: the GPU's name, or the OpenGL renderer's; empty on the CPU.
    std::string deviceName() const;
    // Why GPU stages cannot be chosen here (empty when they can).
    const std::string& gpuUnavailable() const;

    // Moves the vertex and raster stages (Cpu and Gpu backends only). Throws facet::Error when a
    // GPU stage is asked for without a usable GPU.
    void setStages(Side vertex, Side raster);
    // A new CPU thread count (0: one per hardware thread); the model stays.
    void setThreads(int threads);
    // Drops the GPU after a failure: every stage runs on the CPU from now on, and the placement's
    // note says why.
    void dropGpu(const std::string& why);

    // Validates the scene's meshes and makes them resident where the placement needs it (the
    // GPU's memory). The scene must outlive the renderer's use of it and its meshes stay
    // unchanged; its instances (poses, visibility) are read afresh each frame. With
    // Backend::Auto an upload that fails (a GPU out of memory) falls back to the CPU and says so
    // in the note.
    void setScene(const Scene& scene);
    // setScene for a one-instance scene of `model` at the identity pose (the model is not
    // copied: it must outlive the renderer's use of it, unchanged).
    void setModel(const Model& model);

    // Renders the scene into `target` (cleared first). target.depth may be null: the renderer
    // then keeps the depth buffer itself. Throws facet::Error for an empty target or no model.
    // `outputs`: arrays of target's size for the outputs asked beside the picture (core/outputs.h;
    // the CPU backend finds them in its frame, another backend's frame gets them from a CPU frame).
    FrameStats render(const ViewParams& view, const RenderSettings& settings, const FrameView& target,
                      const FrameOutputs& outputs = {});
    // Renders into the display's pixel buffer: through interop where the raster stage is on
    // the GPU, else written by the CPU into the mapped buffer.
    FrameStats render(const ViewParams& view, const RenderSettings& settings, DisplayTarget& target);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace facet
