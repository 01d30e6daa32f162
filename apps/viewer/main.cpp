// facet-viewer: facet's frames in a window, with a fly camera and a Dear ImGui panel.
// Each frame has Dear ImGui's shape: poll events, start the UI frame, build the panel, render
// facet's frame into a mapped pixel buffer and draw it, draw the UI over it, swap.
// The engine's Renderer draws into the window's pixel buffer (engine/display/display_target.h):
// the CPU writes the mapped buffer, the GPU's raster stage writes it through CUDA-GL interop, so
// the only copy of a frame is the driver's upload into the texture the quad samples.
#include "app_info.h"
#include "viewer/options.h"
#include "viewer/platform.h"
#include "viewer/viewer_state.h"

#include "asset/image.h"
#include "core/error.h"
#include "display/display_target.h"
#include "display/screen_blit.h"
#include "host/line_aligned.h"
#include "renderer.h"

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
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
    Viewer(const Options& options, GLFWwindow* window, Renderer renderer);
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
    FrameStats renderCaptured(const ViewParams& view);
    void showPlacement();
    void report() const;

    const Options& options_;
    GLFWwindow* window_;
    ViewerState state_;
    // Destroyed in reverse: the display's GL objects and CUDA registration go first, the
    // renderer (and its CUDA stream) after them.
    Renderer renderer_;
    FrameDisplay display_;
    DisplayFrame frame_;
    LineAlignedVector<std::uint32_t> capture_; // the frame, when it is also wanted on the host
    std::string shownNote_;              // the placement note last printed
    bool firstLoad_ = true;              // the command line's camera applies to the first mesh only
    std::optional<bool> appliedVsync_; // the swap interval set last
    KeyTaps keyTaps_;
    int scenesFrames_ = 0; // frames drawn with a scene; scripted runs count these
    Clock::time_point firstSceneFrame_;
};

// The GPU to render on: the one asked for, else the one driving the window's context (so its
// pixel buffer is written through interop), else FACET_DEVICE or device 0.
int chooseDevice(const Options& options) {
    if (options.device >= 0) return options.device;
    const char* environment = std::getenv("FACET_DEVICE");
    if (environment && *environment) return -1;
    return DisplayFrame::contextCudaDevice();
}

Renderer makeRenderer(const Options& options) {
    RendererOptions r;
    r.backend = options.stage;
    r.threads = options.threads;
    r.device = chooseDevice(options);
    try {
        return Renderer(r);
    } catch (const Error& e) {
        throw Error(std::string("--stage ") + nameOf(options.stage) + ": " + e.what());
    }
}

Viewer::Viewer(const Options& options, GLFWwindow* window, Renderer renderer)
    : options_(options), window_(window), renderer_(std::move(renderer)) {
    state_.settings = options.settings;
    state_.headlightChosen = options.settings.headlight; // --light
    state_.resolutionScale = options.resolutionScale;
    state_.vsync = options.vsync;
    state_.showPanel = options.ui;
    state_.gpus = describeGpus();
    renderer_.setModel(state_.model); // empty until the first load arrives: frames show the clear colour
    showPlacement();
    state_.threads = state_.threadsEdit = renderer_.threadCount();
    const std::string mesh = options.mesh.empty() ? app::defaultScene().string() : options.mesh;
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

    if (!state_.headlightChosen) state_.settings.headlight = state_.model.textures.empty();

    // The default view as facet-render computes it, beside the panel where one is shown (so a
    // scripted screenshot without the panel matches facet-render's PNG).
    const Mesh& mesh = state_.model.mesh;
    const float aspect = static_cast<float>(renderWidth) / static_cast<float>(renderHeight);
    int windowWidth = 0, windowHeight = 0;
    glfwGetWindowSize(window_, &windowWidth, &windowHeight);
    const float cover = panelCover(state_, static_cast<float>(windowWidth));
    // A bad --near or --pitch is the command line's error: camera() throws and the run stops.
    const Camera home =
        firstLoad_ ? options_.camera.camera(mesh, aspect, cover) : Camera::framing(mesh, aspect, 60.0f, cover);
    firstLoad_ = false;
    state_.home = state_.camera = home;
    state_.fly.setScene(mesh.bounds);
    try {
        renderer_.setModel(state_.model); // resident on the GPU from now on: per frame only the camera crosses
    } catch (const Error& e) {
        renderer_.dropGpu(e.what());
        renderer_.setModel(state_.model);
    }
    showPlacement();
    const std::string title = "facet-viewer - " + std::filesystem::path(state_.model.source).filename().string();
    glfwSetWindowTitle(window_, title.c_str());
}

void Viewer::applySettings() {
    if (appliedVsync_ != state_.vsync) {
        glfwSwapInterval(state_.vsync ? 1 : 0);
        appliedVsync_ = state_.vsync;
    }
    if (state_.threads != renderer_.threadCount()) {
        renderer_.setThreads(state_.threads);
        state_.threads = state_.threadsEdit = renderer_.threadCount();
    }
    const Placement& p = renderer_.placement();
    if (state_.vertexStage != p.vertex || state_.rasterStage != p.raster) {
        try {
            renderer_.setStages(state_.vertexStage, state_.rasterStage);
        } catch (const Error& e) {
            renderer_.dropGpu(e.what());
        }
        showPlacement();
    }
}

// The panel shows where the stages run and why the GPU cannot be chosen; a new reason for
// drawing on the CPU is also printed.
void Viewer::showPlacement() {
    const Placement& p = renderer_.placement();
    state_.vertexStage = p.vertex;
    state_.rasterStage = p.raster;
    state_.gpuUnavailable = renderer_.gpuUnavailable();
    state_.gpuName = renderer_.deviceName();
    if (p.note != shownNote_ && !p.note.empty()) std::cerr << "note: " << p.note << "\n";
    shownNote_ = p.note;
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
    frame_.resize(width, height);
    state_.renderWidth = width;
    state_.renderHeight = height;
    const float aspect = static_cast<float>(width) / static_cast<float>(height);
    double displayMs = 0.0;
    try {
        const ViewParams view = state_.camera.view(aspect); // an impossible camera typed into the panel throws
        state_.stats = capture ? renderCaptured(view) : renderer_.render(view, state_.settings, frame_);
        state_.renderError.clear();
        // Mapping and unmapping the pixel buffer: the frame's time outside the stages.
        displayMs = std::max(0.0, state_.stats.frameMs - state_.stats.vertexMs - state_.stats.triangleMs -
                                      state_.stats.rasterMs);
    } catch (const Error& e) {
        if (scripted()) throw;
        state_.renderError = e.what(); // shown in the panel; the window stays alive
        state_.stats = {};
        std::uint32_t* pixels = frame_.mapHost();
        std::fill(pixels, pixels + std::size_t(width) * std::size_t(height), state_.settings.clearColor);
        frame_.unmapHost();
    }
    showPlacement();
    const auto uploadStart = Clock::now();
    display_.upload(frame_.pixels());
    display_.draw(0, 0, framebufferWidth, framebufferHeight);
    displayMs += millisecondsSince(uploadStart);

    state_.last.vertexMs = static_cast<float>(state_.stats.vertexMs);
    state_.last.triangleMs = static_cast<float>(state_.stats.triangleMs);
    state_.last.rasterMs = static_cast<float>(state_.stats.rasterMs);
    state_.last.displayMs = static_cast<float>(displayMs);
}

// A frame also wanted on the host (a screenshot) is rendered there and copied into the pixel
// buffer: a buffer mapped for writing must not be read back.
FrameStats Viewer::renderCaptured(const ViewParams& view) {
    const std::size_t pixels = std::size_t(frame_.width()) * std::size_t(frame_.height());
    capture_.resize(pixels);
    const FrameStats stats =
        renderer_.render(view, state_.settings, FrameView{capture_.data(), nullptr, frame_.width(), frame_.height()});
    std::memcpy(frame_.mapHost(), capture_.data(), pixels * sizeof(std::uint32_t));
    frame_.unmapHost();
    return stats;
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
              << "msaa " << state_.settings.msaa << "\n"
              << "alpha-to-coverage " << (state_.settings.alphaToCoverage ? "on" : "off") << "\n"
              << "headlight " << (state_.settings.headlight ? "on" : "off") << "\n"
              << "panel " << (state_.showPanel ? "shown" : "hidden") << "\n"
              << "panel-rect " << state_.panelX << " " << state_.panelY << " " << state_.panelWidth << " "
              << state_.panelHeight << " in " << ImGui::GetIO().DisplaySize.x << "x" << ImGui::GetIO().DisplaySize.y
              << "\n"
              << "speed scale " << state_.fly.speedScale() << "\n"
              << "stages " << renderer_.placement().describe() << "\n"
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
        // SIGINT and SIGTERM close the window as its close button would (--report still prints).
        const bool closing = glfwWindowShouldClose(window_) || state_.quit || cli::stopSignal() != 0;
        const bool wantsFinalShots = options_.screenshot || options_.windowScreenshot;
        if (closing && (minimised || !wantsFinalShots)) break;
        if (minimised) {
            // Nothing to draw into: sleep until the window comes back instead of spinning, waking
            // now and then to see whether a signal asked to stop (glfwWaitEvents sleeps through one).
            glfwWaitEventsTimeout(0.25);
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
            writeScreenshot(*options_.screenshot, {capture_.begin(), capture_.end()}, state_.renderWidth,
                            state_.renderHeight);
        if (state_.screenshotRequested) {
            // The panel's button: a failure is shown there, not fatal.
            const std::filesystem::path path = nextScreenshotPath(state_.screenshotCounter);
            try {
                writeScreenshot(path, {capture_.begin(), capture_.end()}, state_.renderWidth, state_.renderHeight);
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
    if (options.version) {
        std::cout << app::versionLine("facet-viewer") << "\n";
        return 0;
    }
    cli::installStopSignals();
    GlfwSession glfw;
    Window window(options.width, options.height, "facet-viewer");
    ImGuiSession imgui(window.get());
    // Made once the window's context exists: the GPU that drives it is the one to render on.
    Renderer renderer = makeRenderer(options);
    // Declared last, destroyed first: its GL objects go while the context is still current.
    Viewer viewer(options, window.get(), std::move(renderer));
    return viewer.run();
}

} // namespace

int main(int argc, char** argv) {
    return facet::cli::runMain("facet-viewer", [&] { return run(parseArguments(argc, argv)); });
}
