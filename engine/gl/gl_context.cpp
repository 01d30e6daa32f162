#include "gl/gl_context.h"

#include "core/error.h"

#include <EGL/eglext.h>
#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <cstring>
#include <utility>
#include <vector>

namespace facet {

namespace {

const char* eglErrorName(EGLint error) {
    switch (error) {
    case EGL_SUCCESS: return "EGL_SUCCESS";
    case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
    case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS";
    case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
    case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE";
    case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
    case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
    case EGL_BAD_CURRENT_SURFACE: return "EGL_BAD_CURRENT_SURFACE";
    case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
    case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
    case EGL_BAD_NATIVE_PIXMAP: return "EGL_BAD_NATIVE_PIXMAP";
    case EGL_BAD_NATIVE_WINDOW: return "EGL_BAD_NATIVE_WINDOW";
    case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
    case EGL_BAD_SURFACE: return "EGL_BAD_SURFACE";
    case EGL_CONTEXT_LOST: return "EGL_CONTEXT_LOST";
    default: return "unknown EGL error";
    }
}

// The failed call and EGL's error code; read at once, before any other EGL call resets it.
std::string eglFailure(const char* call) { return std::string(call) + " failed with " + eglErrorName(eglGetError()); }

// Extension lists are space-separated names; a plain strstr would let a name match a prefix.
bool hasExtension(const char* list, const char* name) {
    if (!list) return false;
    const std::size_t n = std::strlen(name);
    for (const char* p = std::strstr(list, name); p; p = std::strstr(p + n, name))
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
    return false;
}

template <typename Proc>
Proc eglProc(const char* name) {
    return reinterpret_cast<Proc>(eglGetProcAddress(name));
}

// A config for OpenGL pbuffers into `config`, or null where a context without one is offered
// (we render into our own framebuffer object, so that will do); false when neither is.
bool chooseConfig(EGLDisplay display, const char* extensions, EGLConfig& config) {
    const EGLint attributes[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    EGLint count = 0;
    if (eglChooseConfig(display, attributes, &config, 1, &count) && count >= 1) return true;
    config = nullptr;
    return hasExtension(extensions, "EGL_KHR_no_config_context") ||
           hasExtension(extensions, "EGL_MESA_configless_context");
}

EGLContext createCoreContext(EGLDisplay display, EGLConfig config) {
    const EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                                 3,
                                 EGL_CONTEXT_MINOR_VERSION,
                                 3,
                                 EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                 EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                 EGL_NONE};
    return eglCreateContext(display, config, EGL_NO_CONTEXT, attributes);
}

} // namespace

GlContext GlContext::create() {
    std::string reasons;
    const auto note = [&](const std::string& way, const std::string& why) {
        reasons += (reasons.empty() ? "" : "; ") + way + ": " + why;
    };
    GlContext c;
    std::string why;

    // Client extensions are queried without a display; null where EGL lacks them (EGL < 1.5).
    const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    const auto getPlatformDisplay = eglProc<PFNEGLGETPLATFORMDISPLAYEXTPROC>("eglGetPlatformDisplayEXT");

    if (getPlatformDisplay && hasExtension(client, "EGL_MESA_platform_surfaceless")) {
        if (c.tryEgl(getPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr),
                     "EGL (surfaceless platform)", why))
            return c;
        note("EGL surfaceless platform", why);
    } else {
        note("EGL surfaceless platform", "EGL_MESA_platform_surfaceless is not offered");
    }

    const auto queryDevices = eglProc<PFNEGLQUERYDEVICESEXTPROC>("eglQueryDevicesEXT");
    if (getPlatformDisplay && queryDevices && hasExtension(client, "EGL_EXT_platform_device")) {
        EGLint count = 0;
        std::vector<EGLDeviceEXT> devices(16);
        if (!queryDevices(static_cast<EGLint>(devices.size()), devices.data(), &count)) count = 0;
        for (EGLint i = 0; i < count; ++i) {
            const std::string way = "EGL (device " + std::to_string(i) + ")";
            if (c.tryEgl(getPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[std::size_t(i)], nullptr), way, why))
                return c;
            note(way, why);
        }
        if (count == 0) note("EGL devices", "none found");
    } else {
        note("EGL devices", "EGL_EXT_platform_device is not offered");
    }

    if (c.tryEgl(eglGetDisplay(EGL_DEFAULT_DISPLAY), "EGL (default display)", why)) return c;
    note("EGL default display", why);

    if (c.tryGlfw(why)) return c;
    note("GLFW hidden window", why);
    throw Error("no OpenGL 3.3 core context could be made: " + reasons);
}

bool GlContext::tryEgl(EGLDisplay display, const std::string& kind, std::string& why) {
    if (display == EGL_NO_DISPLAY) {
        why = eglFailure("getting the display");
        return false;
    }
    // Never eglTerminate'd: a display is one per process, shared with every other user of it,
    // and terminating it would pull it from under them; EGL cleans it up at exit.
    EGLint major = 0, minor = 0;
    if (!eglInitialize(display, &major, &minor)) {
        why = eglFailure("eglInitialize");
        return false;
    }
    if (!eglBindAPI(EGL_OPENGL_API)) {
        why = eglFailure("eglBindAPI(EGL_OPENGL_API)");
        return false;
    }
    const char* extensions = eglQueryString(display, EGL_EXTENSIONS);
    EGLConfig config = nullptr;
    if (!chooseConfig(display, extensions, config)) {
        why = "EGL " + std::to_string(major) + "." + std::to_string(minor) +
              " has no config for OpenGL pbuffers and no configless contexts";
        return false;
    }
    context_ = createCoreContext(display, config);
    if (context_ == EGL_NO_CONTEXT) {
        why = eglFailure("eglCreateContext(OpenGL 3.3 core)");
        return false;
    }
    display_ = display;
    if (!hasExtension(extensions, "EGL_KHR_surfaceless_context")) {
        const EGLint pbufferAttributes[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
        surface_ = config ? eglCreatePbufferSurface(display, config, pbufferAttributes) : EGL_NO_SURFACE;
        if (surface_ == EGL_NO_SURFACE) {
            why = config ? eglFailure("eglCreatePbufferSurface") : "no surfaceless contexts and no pbuffer config";
            destroy();
            return false;
        }
    }
    if (!makeCurrent()) {
        why = eglFailure("eglMakeCurrent");
        destroy();
        return false;
    }
    kind_ = kind;
    if (loadFunctions(why)) return true;
    destroy();
    return false;
}

bool GlContext::tryGlfw(std::string& why) {
    // GLFW is process-wide: it is initialised once and left so (the viewer may share it);
    // only our window is ours to destroy.
    if (!glfwInit()) {
        const char* description = nullptr;
        glfwGetError(&description);
        why = description ? description : "glfwInit failed";
        return false;
    }
    glfwDefaultWindowHints();
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_API);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    window_ = glfwCreateWindow(16, 16, "facet GL reference", nullptr, nullptr);
    glfwDefaultWindowHints(); // the hints are global: leave them as we found them
    if (!window_) {
        const char* description = nullptr;
        glfwGetError(&description);
        why = description ? description : "glfwCreateWindow failed";
        return false;
    }
    if (!makeCurrent()) {
        why = "glfwMakeContextCurrent failed";
        destroy();
        return false;
    }
    kind_ = "GLFW (hidden window)";
    if (loadFunctions(why)) return true;
    destroy();
    return false;
}

bool GlContext::loadFunctions(std::string& why) {
    const int version = window_ ? gladLoadGL(glfwGetProcAddress) : gladLoadGL(eglGetProcAddress);
    if (version == 0) {
        why = "glad could not load the OpenGL functions";
        return false;
    }
    if (GLAD_VERSION_MAJOR(version) * 10 + GLAD_VERSION_MINOR(version) < 33) {
        why = "the context offers OpenGL " + std::to_string(GLAD_VERSION_MAJOR(version)) + "." +
              std::to_string(GLAD_VERSION_MINOR(version)) + ", below 3.3";
        return false;
    }
    return true;
}

GlContext::GlContext(GlContext&& other) noexcept
    : display_(std::exchange(other.display_, EGL_NO_DISPLAY)),
      context_(std::exchange(other.context_, EGL_NO_CONTEXT)),
      surface_(std::exchange(other.surface_, EGL_NO_SURFACE)),
      window_(std::exchange(other.window_, nullptr)),
      kind_(std::move(other.kind_)) {}

GlContext& GlContext::operator=(GlContext&& other) noexcept {
    if (this != &other) {
        destroy();
        display_ = std::exchange(other.display_, EGL_NO_DISPLAY);
        context_ = std::exchange(other.context_, EGL_NO_CONTEXT);
        surface_ = std::exchange(other.surface_, EGL_NO_SURFACE);
        window_ = std::exchange(other.window_, nullptr);
        kind_ = std::move(other.kind_);
    }
    return *this;
}

GlContext::~GlContext() { destroy(); }

bool GlContext::makeCurrent() const noexcept {
    if (window_) {
        glfwMakeContextCurrent(window_);
        return glfwGetCurrentContext() == window_;
    }
    if (context_ == EGL_NO_CONTEXT) return false;
    // The bound API is per thread: set it again in case this is another thread.
    return eglBindAPI(EGL_OPENGL_API) && eglMakeCurrent(display_, surface_, surface_, context_);
}

void GlContext::release() const noexcept {
    if (window_) {
        if (glfwGetCurrentContext() == window_) glfwMakeContextCurrent(nullptr);
    } else if (context_ != EGL_NO_CONTEXT && eglGetCurrentContext() == context_) {
        eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    }
}

void GlContext::destroy() noexcept {
    release();
    if (window_) glfwDestroyWindow(window_);
    if (surface_ != EGL_NO_SURFACE) eglDestroySurface(display_, surface_);
    if (context_ != EGL_NO_CONTEXT) eglDestroyContext(display_, context_);
    window_ = nullptr;
    surface_ = EGL_NO_SURFACE;
    context_ = EGL_NO_CONTEXT;
    display_ = EGL_NO_DISPLAY;
}

} // namespace facet
