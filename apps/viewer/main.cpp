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
    // The aspect ratio of facet's frame, and the share of the window the panel covers.
    glm::ivec2 frameSize() const; // the frame's size in pixels, as renderFrame will draw it
    float coverNow() const;
    void applyLoads();
    void takeScene(LoadResult& result);
    void frameScene(bool fresh);
    void applySceneEdits();
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
    bool firstLoad_ = true;              // the command line's camera applies to the first scene only
    std::string title_;                  // the window's title as last set
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
    renderer_.setScene(state_.scene); // empty until the first load arrives: frames show the clear colour
    showPlacement();
    state_.threads = state_.threadsEdit = renderer_.threadCount();
    const std::vector<std::string> meshes =
        options.meshes.empty() ? std::vector<std::string>{app::defaultScene().string()} : options.meshes;
    std::snprintf(state_.pathField.data(), state_.pathField.size(), "%s", meshes[0].c_str());
    state_.loader.request(meshes, LoadMode::Replace);
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
        frameScene(false);
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

// Dropped files join the scene (Open in the panel replaces it).
void Viewer::onDrop(int count, const char** paths) {
    if (count < 1) return;
    std::snprintf(state_.pathField.data(), state_.pathField.size(), "%s", paths[0]);
    state_.loader.request(std::vector<std::string>(paths, paths + count), LoadMode::Add);
}

glm::ivec2 Viewer::frameSize() const {
    int width = 0, height = 0;
    glfwGetFramebufferSize(window_, &width, &height);
    return {renderSize(width), renderSize(height)};
}

float Viewer::coverNow() const {
    int windowWidth = 0, windowHeight = 0;
    glfwGetWindowSize(window_, &windowWidth, &windowHeight);
    return panelCover(state_, static_cast<float>(windowWidth));
}

void Viewer::applyLoads() {
    std::optional<LoadResult> result = state_.loader.poll();
    if (!result) return;
    std::string errors;
    for (const std::string& e : result->errors) {
        std::cerr << "facet-viewer: " << e << "\n";
        errors += (errors.empty() ? "" : "\n") + e;
    }
    // A scripted run's picture would silently lack the file.
    if (!errors.empty() && scripted()) throw Error(result->errors.front());
    state_.loadError = errors;
    // A file that failed leaves the scene as it was.
    if (!result->scene.instances.empty()) takeScene(*result);
}

// The loaded files in place of the scene or beside it, framed whole.
void Viewer::takeScene(LoadResult& result) {
    for (const Warning& w : result.scene.warnings) std::cerr << "warning: " << w.toString() << "\n";
    std::size_t kept = 0;
    if (result.mode == LoadMode::Replace) {
        state_.scene = std::move(result.scene);
        state_.edits.clear();
    } else {
        kept = state_.scene.instances.size();
        state_.scene.append(std::move(result.scene));
    }
    state_.selected = state_.scene.instances[kept].id; // the first new object, for the pose fields
    state_.loaded = true;

    if (!state_.headlightChosen) {
        bool textured = false;
        for (const auto& m : state_.scene.meshes) textured |= !m->textures.empty();
        state_.settings.headlight = !textured;
    }
    try {
        renderer_.setScene(state_.scene); // resident on the GPU from now on: per frame only poses and the camera cross
    } catch (const Error& e) {
        renderer_.dropGpu(e.what());
        renderer_.setScene(state_.scene);
    }
    showPlacement();
    frameScene(true);
}

// The default view as facet-render computes it, beside the panel where one is shown (so a
// scripted screenshot without the panel matches facet-render's PNG). `fresh`: the scene just
// arrived; otherwise R, which frames the scene anew only once the panel changed it.
void Viewer::frameScene(bool fresh) {
    if (fresh || state_.sceneEdited) {
        state_.sceneBounds = state_.scene.bounds();
        // A bad --near or --pitch is the command line's error: camera() throws and the run stops.
        const glm::ivec2 size = frameSize();
        const float aspect = static_cast<float>(size.x) / static_cast<float>(size.y), cover = coverNow();
        state_.home = fresh && firstLoad_ ? options_.camera.camera(state_.scene, size.x, size.y, cover)
                                          : sceneFraming(state_.scene, aspect, state_.home.fovYDegrees, cover);
        if (fresh) {
            firstLoad_ = false;
            state_.fly.setScene(state_.sceneBounds);
        } else {
            state_.fly.setBounds(state_.sceneBounds);
        }
        state_.sceneEdited = false;
    }
    state_.camera = state_.home;
}

// What the panel changed in the scene: the bounds the clip planes follow; and the title.
void Viewer::applySceneEdits() {
    if (state_.sceneChanged) {
        state_.sceneChanged = false;
        state_.sceneBounds = state_.scene.bounds();
        state_.fly.setBounds(state_.sceneBounds);
        fitClipPlanes(state_.camera, state_.sceneBounds);
    }
    if (!state_.loaded) return;
    const std::string title = "facet-viewer - " + sceneTitle(state_.scene);
    if (title != title_) glfwSetWindowTitle(window_, title.c_str());
    title_ = title;
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
    if (state_.scene.meshes.empty()) std::cout << "mesh (none)\n";
    for (const auto& m : state_.scene.meshes) std::cout << "mesh " << m->source << "\n";
    std::cout << "objects " << state_.scene.instances.size() << "\n";
    // Name last: it may hold spaces.
    for (const Instance& i : state_.scene.instances)
        std::cout << "object " << i.id << " " << (i.visible ? "shown" : "hidden") << " "
                  << state_.scene.meshes[i.mesh]->mesh.triangleCount() << " " << i.name << "\n";
    std::cout << "triangles " << state_.scene.triangleCount() << "\n"
              << "eye " << c.eye.x << " " << c.eye.y << " " << c.eye.z << "\n"
              << "yaw " << c.yawPitch().x << "\n"
              << "pitch " << c.yawPitch().y << "\n"
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
        applyLoads();

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
        applySceneEdits();
        if (state_.resetRequested) frameScene(false);
        state_.resetRequested = false;

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
