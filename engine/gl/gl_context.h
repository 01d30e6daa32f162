// An OpenGL 3.3 core context for offscreen rendering, with no window where possible:
//   1. EGL on Mesa's surfaceless platform (EGL_MESA_platform_surfaceless): no display server;
//   2. EGL on the first device that initialises (EGL_EXT_platform_device: NVIDIA, Mesa);
//   3. EGL's default display;
//   4. a hidden GLFW window (needs a display server).
// Internal to engine/gl: the EGL and GLFW headers stay out of gl_reference.h.
#pragma once

#include <EGL/egl.h>

#include <string>

struct GLFWwindow;

namespace facet {

class GlContext {
public:
    // Throws facet::Error listing why every way above failed. The context is current on the
    // calling thread when this returns, and glad has loaded the GL functions.
    static GlContext create();

    GlContext(GlContext&& other) noexcept;
    GlContext& operator=(GlContext&& other) noexcept;
    GlContext(const GlContext&) = delete;
    GlContext& operator=(const GlContext&) = delete;
    ~GlContext();

    // Binds the context to the calling thread; false when the window system refuses.
    bool makeCurrent() const noexcept;
    // Unbinds it, so another thread may use it next.
    void release() const noexcept;

    // How the context was made, e.g. "EGL (surfaceless platform)".
    const std::string& kind() const { return kind_; }

private:
    GlContext() = default;
    void destroy() noexcept;
    // Each way of making a context; on failure they leave *this empty and say why.
    bool tryEgl(EGLDisplay display, const std::string& kind, std::string& why);
    bool tryGlfw(std::string& why);
    bool loadFunctions(std::string& why);

    EGLDisplay display_ = EGL_NO_DISPLAY;
    EGLContext context_ = EGL_NO_CONTEXT;
    EGLSurface surface_ = EGL_NO_SURFACE; // a 1x1 pbuffer where surfaceless contexts are unsupported
    GLFWwindow* window_ = nullptr;        // set instead of the EGL handles for the GLFW fallback
    std::string kind_;
};

} // namespace facet
