// The paths facet-bench renders whole frames on: facet's CPU renderer with 1..N threads, its
// GPU renderer (the frame copied back to the host) and the OpenGL reference. This is the only
// part of the raster section that knows the renderers (cpu/, cuda/, gl/): the rest asks it
// which paths there are, why one cannot run, and for one timed frame.
#pragma once

#include "asset/scene.h"
#include "bench/options.h"
#include "core/frame.h"
#include "core/shading.h"
#include "core/transform.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace facet::bench {

enum class RasterPathKind { Cpu, Gpu, OpenGl };

struct RasterPath {
    RasterPathKind kind = RasterPathKind::Cpu;
    int threads = 1; // the CPU's
};

// Where a frame's time went, as the renderer measured it (OpenGL does not say).
struct StageTimes {
    double vertexMs = 0.0, triangleMs = 0.0, rasterMs = 0.0;
};

struct FrameSample {
    double frameMs = 0.0; // wall time of the whole call, the picture in host memory
    std::optional<StageTimes> stages;
};

// Whether OpenGL renders here: "RENDERER (how the context was made)", or "unusable: why".
struct OpenGlStatus {
    bool usable = false;
    std::string text;
};

OpenGlStatus probeOpenGl();

class RasterPaths {
public:
    // Makes the CPU renderers of 1..maxThreads threads, the GPU's (on CUDA device gpuDevice, -1
    // for FACET_DEVICE or 0) and OpenGL's renderers, those of the kinds wanted; a renderer that
    // cannot be made leaves its path absent, with the reason.
    RasterPaths(int maxThreads, int gpuDevice, RasterPathsWanted wanted);
    ~RasterPaths();
    RasterPaths(const RasterPaths&) = delete;
    RasterPaths& operator=(const RasterPaths&) = delete;

    // The paths wanted, in the table's order: CPU by thread count, GPU, OpenGL.
    std::vector<RasterPath> paths() const;

    // The scene the next frames draw (kept by reference; the GPU uploads it now).
    void setScene(const Scene& scene);

    // Why `path` cannot draw the scene; empty when it can.
    std::string whyAbsent(const RasterPath& path) const;

    // How a frame on `path` is taken, for the record's note; empty when there is nothing to add.
    std::string howMeasured(const RasterPath& path) const;

    // One frame of the scene seen through `view` into `target` (its size is the frame's), on
    // `path`, with benchSettings(msaa) and the outputs asked (none by default). Throws what the
    // renderer throws.
    FrameSample renderFrame(const RasterPath& path, const ViewParams& view, const FrameView& target, int msaa,
                            const FrameOutputs& outputs = {});

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    RasterPathsWanted wanted_;
};

// What every measured frame is drawn with: the default settings but the classic shading (the
// look the performance tables have measured since the first, on every path and the OpenGL one)
// and `msaa` samples per pixel. The raster section's header names it.
RenderSettings benchSettings(int msaa = 1);

} // namespace facet::bench
