// facet-viewer: facet's frames in a window, with a fly camera and a Dear ImGui panel.
// Each frame has Dear ImGui's shape: poll events, start the UI frame, build the panel, render
// facet's frame into a mapped pixel buffer and draw it, draw the UI over it, swap.
// The CPU backend writes straight into the mapped PBO (engine/display/pixel_buffer.h), so the only
// copy of a frame is the driver's upload into the texture the quad samples.
#include "viewer/options.h"
#include "viewer/viewer_state.h"

#include "asset/image.h"
#include "core/error.h"
#include "cuda/gpu_renderer.h"
#include "display/frame_display.h"
#include "display/pixel_buffer.h"
#if defined(FACET_HAVE_CUDA)
#include "display/cuda_interop.h"
#endif

#include <glad/gl.h>
// glad first: GLFW must not pull in the system GL header.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace {

using namespace facet;
using namespace facet::viewer;
using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::string glfwErrorText(const char* fallback) {
    const char* description = nullptr;
    glfwGetError(&description);
    return description ? description : fallback;
}

// GLFW's lifetime. Failing to start is the usual "no display" case: say GLFW's reason.
class GlfwSession {
public:
    GlfwSession() {
        if (!glfwInit()) throw Error("cannot open a window: " + glfwErrorText("glfwInit failed"));
    }
    ~GlfwSession() { glfwTerminate(); }
    GlfwSession(const GlfwSession&) = delete;
    GlfwSession& operator=(const GlfwSession&) = delete;
};

// A window with an OpenGL 3.3 core context, current on this thread, GL functions loaded.
class Window {
public:
    Window(int width, int height, const char* title) {
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
        glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
        window_ = glfwCreateWindow(width, height, title, nullptr, nullptr);
        if (!window_)
            throw Error("cannot open an OpenGL 3.3 core window: " + glfwErrorText("glfwCreateWindow failed"));
        glfwMakeContextCurrent(window_);
        const int version = gladLoadGL(glfwGetProcAddress);
        if (GLAD_VERSION_MAJOR(version) * 10 + GLAD_VERSION_MINOR(version) < 33) {
            glfwDestroyWindow(window_);
            throw Error("OpenGL 3.3 is needed; the context offers " + std::to_string(GLAD_VERSION_MAJOR(version)) +
                        "." + std::to_string(GLAD_VERSION_MINOR(version)));
        }
    }
    ~Window() { glfwDestroyWindow(window_); }
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;

    GLFWwindow* get() const { return window_; }

private:
    GLFWwindow* window_ = nullptr;
};

// Dear ImGui's context and its GLFW and OpenGL 3 backends. The backends install no GLFW
// callbacks: the viewer's own callbacks forward each event to them first.
class ImGuiSession {
public:
    explicit ImGuiSession(GLFWwindow* window) {
        IMGUI_CHECKVERSION();
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr; // no imgui.ini left in whatever folder the viewer ran from
        // DejaVu Sans reads better than ImGui's bitmap font; it is there on most Linux desktops.
        const char* font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
        std::error_code ignored;
        if (std::filesystem::is_regular_file(font, ignored)) io.Fonts->AddFontFromFileTTF(font, 15.0f);
        ImGui::StyleColorsDark();
        ImGuiStyle& style = ImGui::GetStyle();
        style.WindowRounding = 6.0f;
        style.FrameRounding = 3.0f;
        style.GrabRounding = 3.0f;
        style.WindowBorderSize = 0.0f;
        style.ItemSpacing = ImVec2(8.0f, 3.0f);
        style.FramePadding = ImVec2(6.0f, 2.0f);
        if (!ImGui_ImplGlfw_InitForOpenGL(window, false) || !ImGui_ImplOpenGL3_Init("#version 330 core")) {
            ImGui::DestroyContext();
            throw Error("Dear ImGui cannot start on this OpenGL context");
        }
    }
    ~ImGuiSession() {
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
    }
    ImGuiSession(const ImGuiSession&) = delete;
    ImGuiSession& operator=(const ImGuiSession&) = delete;
};

std::optional<Move> moveFor(int key) {
    switch (key) {
    case GLFW_KEY_W: return Move::Forward;
    case GLFW_KEY_S: return Move::Back;
    case GLFW_KEY_A: return Move::Left;
    case GLFW_KEY_D: return Move::Right;
    case GLFW_KEY_Q: return Move::Down;
    case GLFW_KEY_E: return Move::Up;
    default: return std::nullopt;
    }
}

// Dear ImGui 1.86 reads keys as "down" flags once per frame, so a key pressed and released
// between two frames (a quick tap, or xdotool) would never be seen: Enter in the path field
// would be lost. Releases of keys pressed since the last frame are held back and handed to
// ImGui before the next frame's events. (Not during a frame: ImGui asserts that modifier keys
// do not change between NewFrame and Render.)
class KeyTaps {
public:
    void onKey(GLFWwindow* window, int key, int scancode, int action, int mods) {
        if (action == GLFW_PRESS) pressedThisFrame_.push_back(key);
        if (action == GLFW_RELEASE &&
            std::find(pressedThisFrame_.begin(), pressedThisFrame_.end(), key) != pressedThisFrame_.end()) {
            held_.push_back({key, scancode, mods});
            return;
        }
        ImGui_ImplGlfw_KeyCallback(window, key, scancode, action, mods);
    }
    // Call before polling events, outside ImGui's frame.
    void releaseHeld(GLFWwindow* window) {
        for (const Release& r : held_) ImGui_ImplGlfw_KeyCallback(window, r.key, r.scancode, GLFW_RELEASE, r.mods);
        held_.clear();
        pressedThisFrame_.clear();
    }

private:
    struct Release {
        int key, scancode, mods;
    };
    std::vector<int> pressedThisFrame_;
    std::vector<Release> held_;
};

// A file name that does not exist yet: facet-viewer-001.png, facet-viewer-002.png, ...
std::filesystem::path nextScreenshotPath(int& counter) {
    for (;;) {
        char name[64];
        std::snprintf(name, sizeof name, "facet-viewer-%03d.png", ++counter);
        std::error_code ignored;
        if (!std::filesystem::exists(name, ignored)) return std::filesystem::absolute(name, ignored);
    }
}

void writeScreenshot(const std::filesystem::path& path, std::vector<std::uint32_t> pixels, int width, int height) {
    writePng(path, Image{static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(height), std::move(pixels)});
}

class Viewer {
public:
    Viewer(const Options& options, GLFWwindow* window, GpuStatus gpu);
    ~Viewer();
    Viewer(const Viewer&) = delete;
    Viewer& operator=(const Viewer&) = delete;

    int run();

private:
    static Viewer& of(GLFWwindow* window) { return *static_cast<Viewer*>(glfwGetWindowUserPointer(window)); }
    void installCallbacks();
    void onKey(int key, int action, int mods);
    void onMouseButton(int button, int action);
    void onCursor(double x, double y);
    void onScroll(double notches);
    void onDrop(int count, const char** paths);
    void startLooking();
    void stopLooking();

    bool scripted() const { return options_.frames > 0; }
    // facet's frame size for a framebuffer size: the resolution scale applied, at least 1.
    int renderSize(int framebufferSize) const {
        return std::max(1, static_cast<int>(std::lround(static_cast<float>(framebufferSize) * state_.resolutionScale)));
    }
    void applyLoads(int renderWidth, int renderHeight);
    void applySettings();
    void moveCamera(float seconds);
    void renderFrame(int framebufferWidth, int framebufferHeight, bool capture);
    CpuFrameStats renderToHost(const ViewParams& view, const FrameView& target);
    CameraSpacePositions cpuVertexStage(const ViewParams& view, double& ms);
    void disableGpu(const std::string& why);
    void report() const;

    const Options& options_;
    GLFWwindow* window_;
    ViewerState state_;
    std::unique_ptr<CpuRenderer> renderer_;
    std::optional<GpuRenderer> gpu_; // made when a GPU is usable; dropped (with the reason) on a GPU error
#if defined(FACET_HAVE_CUDA)
    InteropBuffer interop_; // pixels_ as the GPU raster stage writes it
#endif
    std::vector<float> handX_, handY_, handZ_; // camera-space positions handed between CPU and GPU
    FrameDisplay display_;
    PixelBuffer pixels_;
    std::vector<float> depth_;
    std::vector<std::uint32_t> capture_; // the frame, when it is also wanted on the host
    bool firstLoad_ = true;              // the command line's camera applies to the first mesh only
    std::optional<bool> appliedVsync_; // the swap interval set last
    KeyTaps keyTaps_;
    int scenesFrames_ = 0; // frames drawn with a scene; scripted runs count these
    Clock::time_point firstSceneFrame_;
};

Viewer::Viewer(const Options& options, GLFWwindow* window, GpuStatus gpu) : options_(options), window_(window) {
    state_.settings = options.settings;
    state_.resolutionScale = options.resolutionScale;
    state_.vsync = options.vsync;
    state_.showPanel = options.ui;
    state_.gpu = std::move(gpu);
    state_.gpuUnavailable = state_.gpu.reason;
    if (state_.gpu.usable) {
        try {
            gpu_.emplace();
            state_.gpuUnavailable.clear();
            if (options.stage != StageChoice::Cpu) state_.vertexStage = state_.rasterStage = Side::Gpu;
        } catch (const Error& e) {
            state_.gpuUnavailable = e.what();
        }
    }
    renderer_ = std::make_unique<CpuRenderer>(options.threads);
    state_.threads = state_.threadsEdit = renderer_->threadCount();
    const std::string mesh = options.mesh.empty() ? std::string(FACET_DEFAULT_SCENE) : options.mesh;
    std::snprintf(state_.pathField.data(), state_.pathField.size(), "%s", mesh.c_str());
    state_.loader.request(mesh);
    installCallbacks();
}

Viewer::~Viewer() {
    // The callbacks reach this object through the window; the window outlives it.
    glfwSetKeyCallback(window_, nullptr);
    glfwSetCharCallback(window_, nullptr);
    glfwSetMouseButtonCallback(window_, nullptr);
    glfwSetCursorPosCallback(window_, nullptr);
    glfwSetScrollCallback(window_, nullptr);
    glfwSetWindowFocusCallback(window_, nullptr);
    glfwSetCursorEnterCallback(window_, nullptr);
    glfwSetDropCallback(window_, nullptr);
    glfwSetWindowUserPointer(window_, nullptr);
}

void Viewer::installCallbacks() {
    glfwSetWindowUserPointer(window_, this);
    glfwSetKeyCallback(window_, [](GLFWwindow* w, int key, int scancode, int action, int mods) {
        of(w).keyTaps_.onKey(w, key, scancode, action, mods);
        of(w).onKey(key, action, mods);
    });
    glfwSetCharCallback(window_, ImGui_ImplGlfw_CharCallback);
    glfwSetMouseButtonCallback(window_, [](GLFWwindow* w, int button, int action, int mods) {
        ImGui_ImplGlfw_MouseButtonCallback(w, button, action, mods);
        of(w).onMouseButton(button, action);
    });
    glfwSetCursorPosCallback(window_, [](GLFWwindow* w, double x, double y) { of(w).onCursor(x, y); });
    glfwSetScrollCallback(window_, [](GLFWwindow* w, double dx, double dy) {
        ImGui_ImplGlfw_ScrollCallback(w, dx, dy);
        of(w).onScroll(dy);
    });
    glfwSetWindowFocusCallback(window_, [](GLFWwindow* w, int focused) {
        ImGui_ImplGlfw_WindowFocusCallback(w, focused);
        // Keys released while another window had the focus never reach us.
        if (!focused) of(w).state_.keys.releaseAll();
    });
    glfwSetCursorEnterCallback(window_, ImGui_ImplGlfw_CursorEnterCallback);
    glfwSetDropCallback(window_, [](GLFWwindow* w, int count, const char** paths) { of(w).onDrop(count, paths); });
}

void Viewer::onKey(int key, int action, int mods) {
    const ImGuiIO& io = ImGui::GetIO();
    const std::optional<Move> move = moveFor(key);
    if (action == GLFW_RELEASE) {
        if (move) state_.keys.release(*move);
        return;
    }
    if (action != GLFW_PRESS) return; // key repeat: movement is continuous already
    if (key == GLFW_KEY_ESCAPE) {
        if (state_.looking)
            stopLooking();
        else if (!io.WantTextInput) // in a text field, Esc belongs to ImGui
            state_.quit = true;
    } else if (key == GLFW_KEY_F1) {
        state_.showPanel = !state_.showPanel;
    } else if (key == GLFW_KEY_L && (mods & GLFW_MOD_CONTROL)) {
        state_.showPanel = true;
        state_.focusPathField = true;
    } else if (io.WantCaptureKeyboard && !state_.looking) {
        return; // typing into the panel
    } else if (move) {
        state_.keys.press(*move);
    } else if (key == GLFW_KEY_R) {
        resetView(state_);
    }
}

void Viewer::onMouseButton(int button, int action) {
    if (button != GLFW_MOUSE_BUTTON_RIGHT) return;
    if (action == GLFW_PRESS && !ImGui::GetIO().WantCaptureMouse)
        startLooking();
    else if (action == GLFW_RELEASE)
        stopLooking();
}

void Viewer::startLooking() {
    // A disabled cursor is hidden and unbounded: the view can turn all the way round.
    glfwSetInputMode(window_, GLFW_CURSOR, GLFW_CURSOR_DISABLED);
    glfwGetCursorPos(window_, &state_.cursorX, &state_.cursorY);
    state_.looking = true;
}

void Viewer::stopLooking() {
    if (!state_.looking) return;
    state_.looking = false;
    glfwSetInputMode(window_, GLFW_CURSOR, GLFW_CURSOR_NORMAL);
}

void Viewer::onCursor(double x, double y) {
    if (state_.looking) {
        state_.lookDx += static_cast<float>(x - state_.cursorX);
        state_.lookDy += static_cast<float>(y - state_.cursorY);
    }
    state_.cursorX = x;
    state_.cursorY = y;
}

void Viewer::onScroll(double notches) {
    if (!ImGui::GetIO().WantCaptureMouse) state_.fly.scroll(static_cast<float>(notches));
}

void Viewer::onDrop(int count, const char** paths) {
    if (count < 1) return;
    std::snprintf(state_.pathField.data(), state_.pathField.size(), "%s", paths[0]);
    state_.loader.request(paths[0]);
}

void Viewer::applyLoads(int renderWidth, int renderHeight) {
    std::optional<LoadResult> result = state_.loader.poll();
    if (!result) return;
    if (!result->model) {
        // A failed load keeps the current mesh; a scripted run has nothing to show without one.
        if (scripted() && !state_.loaded) throw Error(result->error);
        state_.loadError = result->error;
        std::cerr << "facet-viewer: " << result->error << "\n";
        return;
    }
    state_.model = std::move(*result->model);
    state_.loaded = true;
    state_.loadError.clear();
    for (const Warning& w : state_.model.warnings) std::cerr << "warning: " << w.toString() << "\n";

    // The default view as facet-render computes it, so a scripted screenshot matches its PNG.
    const Mesh& mesh = state_.model.mesh;
    const float aspect = static_cast<float>(renderWidth) / static_cast<float>(renderHeight);
    // A bad --near or --pitch is the command line's error: camera() throws and the run stops.
    const Camera home = firstLoad_ ? options_.camera.camera(mesh, aspect) : Camera::framing(mesh, aspect);
    firstLoad_ = false;
    state_.home = state_.camera = home;
    state_.fly.setScene(mesh.bounds);
    if (gpu_) {
        try {
            gpu_->upload(state_.model); // resident from now on: per frame only the camera crosses
        } catch (const Error& e) {
            disableGpu(e.what());
        }
    }
    const std::string title = "facet-viewer - " + std::filesystem::path(state_.model.source).filename().string();
    glfwSetWindowTitle(window_, title.c_str());
}

void Viewer::applySettings() {
    if (appliedVsync_ != state_.vsync) {
        glfwSwapInterval(state_.vsync ? 1 : 0);
        appliedVsync_ = state_.vsync;
    }
    if (state_.threads != renderer_->threadCount()) {
        renderer_ = std::make_unique<CpuRenderer>(state_.threads);
        state_.threads = state_.threadsEdit = renderer_->threadCount();
    }
}

void Viewer::moveCamera(float seconds) {
    const bool fast = glfwGetKey(window_, GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS ||
                      glfwGetKey(window_, GLFW_KEY_RIGHT_SHIFT) == GLFW_PRESS;
    state_.fly.update(state_.camera, state_.keys, fast, state_.lookDx, state_.lookDy, seconds);
    state_.keys.endFrame();
    state_.lookDx = state_.lookDy = 0.0f;
}

void Viewer::renderFrame(int framebufferWidth, int framebufferHeight, bool capture) {
    const int width = renderSize(framebufferWidth), height = renderSize(framebufferHeight);
    const std::size_t pixelCount = std::size_t(width) * std::size_t(height);
    pixels_.resize(width, height);
    depth_.resize(pixelCount);
    if (capture) capture_.resize(pixelCount);
    state_.renderWidth = width;
    state_.renderHeight = height;

    const float aspect = static_cast<float>(width) / static_cast<float>(height);
    double displayMs = 0.0;
    // The GPU raster stage draws straight into the pixel buffer through interop. A frame also
    // wanted on the host, or an impossible camera typed into the panel (its error is shown the
    // host way), goes the host way below.
    bool cameraValid = true;
    try {
        state_.camera.validate();
    } catch (const Error&) {
        cameraValid = false;
    }
    const bool drawOnGpu = gpu_ && state_.rasterStage == Side::Gpu && !capture && cameraValid;
#if defined(FACET_HAVE_CUDA)
    if (drawOnGpu) {
        try {
            const ViewParams view = state_.camera.view(aspect);
            double vertexMs = 0.0;
            const CameraSpacePositions given =
                state_.vertexStage == Side::Cpu ? cpuVertexStage(view, vertexMs) : CameraSpacePositions{};
            const auto mapStart = Clock::now();
            interop_.attach(pixels_); // registered again only after a resize
            MappedInterop mapped(interop_, gpu_->stream());
            displayMs += millisecondsSince(mapStart);
            const KernelFrameStats k = gpu_->renderColor(view, state_.settings, mapped.pixels(), width, height, given);
            const auto unmapStart = Clock::now();
            mapped.unmap();
            displayMs += millisecondsSince(unmapStart);
            state_.stats = CpuFrameStats{k.trianglesIn, k.trianglesClipped, k.trianglesCulled, 0,
                                         vertexMs + k.vertexMs, k.triangleMs, k.rasterMs};
            state_.renderError.clear();
        } catch (const Error& e) {
            disableGpu(e.what()); // the next frame is drawn on the CPU
        }
    }
#endif
    if (!drawOnGpu || !gpu_) { // not drawn on the GPU, or the GPU failed (and is now disabled)
        const auto mapStart = Clock::now();
        MappedPixels mapped(pixels_);
        displayMs += millisecondsSince(mapStart);
        // A frame wanted on the host as well is rendered there and copied: a buffer mapped for
        // writing must not be read back.
        const FrameView target{capture ? capture_.data() : mapped.pixels(), depth_.data(), width, height};
        try {
            state_.stats = renderToHost(state_.camera.view(aspect), target);
            state_.renderError.clear();
        } catch (const Error& e) {
            if (scripted()) throw;
            // An impossible camera typed into the panel, say: show it, keep the window alive.
            state_.renderError = e.what();
            state_.stats = {};
            std::fill(target.color, target.color + pixelCount, state_.settings.clearColor);
        }
        if (capture) std::memcpy(mapped.pixels(), capture_.data(), pixelCount * sizeof(std::uint32_t));
        const auto unmapStart = Clock::now();
        mapped.unmap(); // contents lost (rare): this frame shows garbage, the next is fine
        displayMs += millisecondsSince(unmapStart);
    }
    const auto uploadStart = Clock::now();
    display_.upload(pixels_);
    display_.draw(0, 0, framebufferWidth, framebufferHeight);
    displayMs += millisecondsSince(uploadStart);

    state_.last.vertexMs = static_cast<float>(state_.stats.vertexMs);
    state_.last.triangleMs = static_cast<float>(state_.stats.triangleMs);
    state_.last.rasterMs = static_cast<float>(state_.stats.rasterMs);
    state_.last.displayMs = static_cast<float>(displayMs);
}

// A frame into host memory, each stage where the panel says (the GPU's only while usable).
CpuFrameStats Viewer::renderToHost(const ViewParams& view, const FrameView& target) {
    const bool vertexGpu = gpu_ && state_.vertexStage == Side::Gpu;
    const bool rasterGpu = gpu_ && state_.rasterStage == Side::Gpu;
    if (rasterGpu) {
        double vertexMs = 0.0;
        const CameraSpacePositions given = vertexGpu ? CameraSpacePositions{} : cpuVertexStage(view, vertexMs);
        const KernelFrameStats k = gpu_->renderToHost(view, state_.settings, target, given);
        return CpuFrameStats{k.trianglesIn, k.trianglesClipped, k.trianglesCulled, 0, vertexMs + k.vertexMs,
                             k.triangleMs, k.rasterMs};
    }
    if (!vertexGpu) return renderer_->render(state_.model, view, state_.settings, target);
    const std::size_t n = state_.model.mesh.vertexCount();
    handX_.resize(n);
    handY_.resize(n);
    handZ_.resize(n);
    const double vertexMs = gpu_->cameraSpaceToHost(view, handX_.data(), handY_.data(), handZ_.data());
    CpuFrameStats stats = renderer_->render(state_.model, view, state_.settings, target,
                                            CameraSpacePositions{handX_.data(), handY_.data(), handZ_.data()});
    stats.vertexMs += vertexMs;
    return stats;
}

// The CPU's vertex stage for the GPU's raster stage: camera-space positions, uploaded per frame.
CameraSpacePositions Viewer::cpuVertexStage(const ViewParams& view, double& ms) {
    const auto start = Clock::now();
    const std::size_t n = state_.model.mesh.vertexCount();
    handX_.resize(n);
    handY_.resize(n);
    handZ_.resize(n);
    transformVertices(state_.model.mesh, view, 0, n, handX_.data(), handY_.data(), handZ_.data());
    ms = millisecondsSince(start);
    return CameraSpacePositions{handX_.data(), handY_.data(), handZ_.data()};
}

void Viewer::disableGpu(const std::string& why) {
    std::cerr << "facet-viewer: GPU disabled, drawing on the CPU: " << why << "\n";
    gpu_.reset();
    state_.gpuUnavailable = why;
    state_.vertexStage = state_.rasterStage = Side::Cpu;
}

void Viewer::report() const {
    const Camera& c = state_.camera;
    const double seconds = std::chrono::duration<double>(Clock::now() - firstSceneFrame_).count();
    const FrameHistory& h = state_.history;
    std::cout << "mesh " << (state_.loaded ? state_.model.source : std::string("(none)")) << "\n"
              << "triangles " << state_.model.mesh.triangleCount() << "\n"
              << "eye " << c.eye.x << " " << c.eye.y << " " << c.eye.z << "\n"
              << "yaw " << c.yawDegrees << "\n"
              << "pitch " << c.pitchDegrees << "\n"
              << "fov " << c.fovYDegrees << "\n"
              << "frames " << scenesFrames_ << "\n"
              << "size " << state_.renderWidth << "x" << state_.renderHeight << ", " << state_.threads << " threads\n"
              << "fps " << (scenesFrames_ > 1 && seconds > 0 ? (scenesFrames_ - 1) / seconds : 0.0) << "\n"
              << "median ms (last " << h.count() << " frames): frame " << h.median(&StageTimes::frameMs) << ", vertex "
              << h.median(&StageTimes::vertexMs) << ", triangle " << h.median(&StageTimes::triangleMs) << ", raster "
              << h.median(&StageTimes::rasterMs) << ", display " << h.median(&StageTimes::displayMs) << "\n";
}

int Viewer::run() {
    auto previous = Clock::now();
    for (;;) {
        keyTaps_.releaseHeld(window_);
        glfwPollEvents();
        int fbWidth = 0, fbHeight = 0;
        glfwGetFramebufferSize(window_, &fbWidth, &fbHeight);
        const bool minimised = fbWidth <= 0 || fbHeight <= 0;
        const bool closing = glfwWindowShouldClose(window_) || state_.quit;
        const bool wantsFinalShots = options_.screenshot || options_.windowScreenshot;
        if (closing && (minimised || !wantsFinalShots)) break;
        if (minimised) {
            // Nothing to draw into: sleep until the window comes back instead of spinning.
            glfwWaitEvents();
            previous = Clock::now();
            continue;
        }
        applyLoads(renderSize(fbWidth), renderSize(fbHeight));

        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        const auto now = Clock::now();
        const float seconds = std::min(std::chrono::duration<float>(now - previous).count(), 0.1f);
        state_.last.frameMs = std::chrono::duration<float, std::milli>(now - previous).count();
        previous = now;
        moveCamera(seconds);
        if (state_.showPanel) drawPanel(state_);
        applySettings();

        // The last frame: the one after a close request, or the scripted run's last.
        const bool finalFrame = closing || (scripted() && state_.loaded && scenesFrames_ + 1 >= options_.frames);
        const bool shotFacet = state_.screenshotRequested || (finalFrame && options_.screenshot);
        renderFrame(fbWidth, fbHeight, shotFacet);
        if (finalFrame && options_.screenshot)
            writeScreenshot(*options_.screenshot, capture_, state_.renderWidth, state_.renderHeight);
        if (state_.screenshotRequested) {
            // The panel's button: a failure is shown there, not fatal.
            const std::filesystem::path path = nextScreenshotPath(state_.screenshotCounter);
            try {
                writeScreenshot(path, capture_, state_.renderWidth, state_.renderHeight);
                state_.screenshotMessage = "wrote " + path.string();
            } catch (const Error& e) {
                state_.screenshotMessage = e.what();
            }
            state_.screenshotRequested = false;
        }

        ImGui::Render();
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        if (finalFrame && options_.windowScreenshot)
            writeScreenshot(*options_.windowScreenshot, readFramebuffer(fbWidth, fbHeight), fbWidth, fbHeight);
        glfwSwapBuffers(window_);

        if (state_.loaded) {
            if (scenesFrames_++ == 0) firstSceneFrame_ = Clock::now();
            state_.history.push(state_.last);
        }
        if (finalFrame) break;
    }
    if (options_.report) report();
    return 0;
}

int run(const Options& options) {
    if (options.help) {
        std::cout << usageText();
        return 0;
    }
    const GpuStatus gpu = probeGpu();
    if (options.stage == StageChoice::Gpu && !gpu.usable) throw Error("--stage gpu: " + gpu.reason);
    if (options.stage == StageChoice::Auto && !gpu.usable)
        std::cerr << "note: rendering on the CPU: " << gpu.reason << "\n";

    GlfwSession glfw;
    Window window(options.width, options.height, "facet-viewer");
    ImGuiSession imgui(window.get());
    // Declared last, destroyed first: its GL objects go while the context is still current.
    Viewer viewer(options, window.get(), gpu);
    return viewer.run();
}

} // namespace

int main(int argc, char** argv) {
    return facet::cli::runMain("facet-viewer", [&] { return run(parseArguments(argc, argv)); });
}
