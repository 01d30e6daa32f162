// The OpenGL reference path: renders a Model offscreen with OpenGL, following facet's
// conventions exactly (camera, window depth, culling, texture data and filters, headlight) and
// leaving rasterization and sampling to GL, so the CPU and CUDA backends can be checked
// against a real GL implementation.
// The context has no window where possible (EGL; see gl/gl_context.h); output is in facet's
// layout: row 0 at the top, RGBA8 with R in the low byte, window depth in [0, 1].
#pragma once

#include "asset/scene.h"
#include "core/frame.h"
#include "core/frame_plan.h"
#include "core/shading.h"
#include "core/transform.h"

#include <memory>
#include <string>
#include <vector>

namespace facet {

struct GlAvailability {
    bool usable = false;
    std::string reason;   // why not, when unusable
    std::string renderer; // GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"
    std::string context;  // how the context was made, e.g. "EGL (surfaceless platform)"
};

class GlReferenceRenderer {
public:
    // Whether a renderer can be made here, and why not; never throws.
    static GlAvailability probe() noexcept;

    // Makes the context, compiles the shaders. Throws facet::Error saying why when no
    // OpenGL 3.3 core context can be had.
    GlReferenceRenderer();
    ~GlReferenceRenderer();
    GlReferenceRenderer(GlReferenceRenderer&&) noexcept;
    GlReferenceRenderer& operator=(GlReferenceRenderer&&) noexcept;
    GlReferenceRenderer(const GlReferenceRenderer&) = delete;
    GlReferenceRenderer& operator=(const GlReferenceRenderer&) = delete;

    const std::string& rendererName() const; // GL_RENDERER
    const std::string& contextKind() const;
    // The most samples per pixel RenderSettings::msaa may ask of this GL (at least 1).
    int maxSamples() const;
    // GL_SAMPLE_POSITION of each sample of a `samples`-sample framebuffer: in OpenGL's window
    // convention, from the pixel's bottom-left corner. Throws facet::Error beyond maxSamples().
    std::vector<glm::vec2> samplePositions(int samples);

    // The backend contract (cpu/cpu_renderer.h): setModel validates the model and uploads its
    // mesh, textures and materials, once; the model must outlive its use here, unchanged (call
    // it again after editing the model). limits() says what a frame plan may ask of this GL.
    void setScene(const Scene& scene);
    BackendLimits limits() const;

    // Renders the model into `target` (cleared first to the clear colour and depth 1), as
    // `plan` says. Throws facet::Error for a target of another size than planned, or a GL error.
    // The context is current on the calling thread only during calls.
    void render(const ViewParams& view, const FramePlan& plan, const FrameView& target);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace facet
