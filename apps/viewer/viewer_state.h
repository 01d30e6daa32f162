// Everything the viewer's panel shows and edits, in one struct: the panel writes settings here
// and the render loop applies them (recreating the renderer for a new thread count, say), so
// neither holds hidden state of its own.
#pragma once

#include "asset/scene.h"
#include "core/camera.h"
#include "core/shading.h"
#include "renderer.h"
#include "viewer/fly_camera.h"
#include "viewer/object_pose.h"
#include "viewer/scene_loader.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace facet::viewer {

// One frame's wall-clock milliseconds: the whole frame (frame to frame, so vsync included),
// facet's three stages, and the display (map, unmap, upload to the texture, draw the quad).
struct StageTimes {
    float frameMs = 0, vertexMs = 0, triangleMs = 0, rasterMs = 0, displayMs = 0;
};

// The last kSize frames in a ring, for the plot and the medians.
class FrameHistory {
public:
    static constexpr int kSize = 120;

    void push(const StageTimes& t) {
        samples_[std::size_t(next_)] = t;
        next_ = (next_ + 1) % kSize;
        count_ = std::min(count_ + 1, kSize);
    }
    int count() const { return count_; }
    // Sample i counted from the oldest kept.
    const StageTimes& at(int i) const { return samples_[std::size_t((next_ - count_ + i + kSize) % kSize)]; }

    float median(float StageTimes::*field) const {
        std::vector<float> v;
        for (int i = 0; i < count_; ++i) v.push_back(at(i).*field);
        if (v.empty()) return 0.0f;
        std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
        return v[v.size() / 2];
    }

private:
    std::array<StageTimes, kSize> samples_{};
    int next_ = 0, count_ = 0;
};

// An object's pose fields in the panel, made from its pose when first shown (decomposePose).
struct ObjectEdit {
    ObjectPose pose;
    bool uniformScale = true; // one scale field for the three axes
};

struct ViewerState {
    // The scene: `loaded` is false until the first file arrives. The renderer reads the
    // instances each frame, so the panel moves and hides them in place; the loop hands the
    // scene over again (setScene) when meshes come or go.
    Scene scene;
    bool loaded = false;
    std::string loadError; // the last load's failures, one a line, shown until the next load
    Bounds sceneBounds;    // of the visible instances as they are now
    // The panel changed poses, visibility or the instances: the loop refits the bounds, the clip
    // planes and the title (sceneChanged, once), and R frames the scene as it now is rather
    // than as it was loaded (sceneEdited, until then).
    bool sceneChanged = false, sceneEdited = false;
    std::uint32_t selected = 0; // the instance whose pose the panel edits; 0: none
    std::map<std::uint32_t, ObjectEdit> edits; // by instance id
    Camera camera;
    Camera home; // the scene's default view, for R
    bool resetRequested = false; // the panel's Reset view, done by the loop
    std::string cameraError;     // why the file camera chosen last could not be used

    // How to render.
    RenderSettings settings;
    // Whether the headlight is the user's choice (--light, or the checkbox); until it is, each
    // mesh loaded sets it: on where the mesh has no texture, which the classic look would
    // otherwise draw as one flat colour, a silhouette.
    bool headlightChosen = false;
    float resolutionScale = 1.0f; // of the framebuffer, 0.25 to 1
    int threads = 1;              // applied by the loop: a new CpuRenderer
    bool vsync = true;
    Side vertexStage = Side::Cpu, rasterStage = Side::Cpu; // the panel's choice, applied by the loop
    std::string gpuUnavailable; // why the GPU options are disabled; empty when they are not
    std::string gpuName;        // the GPU the stages run on, when one is
    std::vector<std::string> gpus; // the CUDA devices, one line each (or why there are none)

    // What the last frame took, and the frames before it.
    FrameStats stats;
    StageTimes last;
    FrameHistory history;
    int renderWidth = 0, renderHeight = 0;
    std::string renderError;

    // The panel.
    bool showPanel = true;
    std::array<char, 1024> pathField{};
    bool focusPathField = false; // Ctrl+L: put the keyboard in the path field next frame
    int threadsEdit = 1;         // the slider's value until it is released
    bool screenshotRequested = false;
    int screenshotCounter = 0;
    std::string screenshotMessage;
    float panelX = 0, panelY = 0, panelWidth = 0, panelHeight = 0; // where the panel was last drawn (--report)

    // Input and loading.
    FlyCamera fly;
    MoveKeys keys;
    bool looking = false; // right button held: the cursor is hidden and moves the view
    double cursorX = 0, cursorY = 0;
    float lookDx = 0, lookDy = 0; // cursor movement while looking, since the last frame
    bool quit = false;
    SceneLoader loader;
};

// Where the panel first opens (its left and top margin) and its width, in window coordinates.
constexpr float kPanelMargin = 10.0f, kPanelWidth = 380.0f;
// Rows of the objects list shown at once; more scroll (only the rows in sight are drawn).
constexpr int kObjectRowsShown = 8;

// Draws the ImGui panel for one frame (between ImGui::NewFrame and ImGui::Render).
void drawPanel(ViewerState& state);

// The share of a window `windowWidth` wide, from its left edge, that the panel hides, for
// framing a new mesh beside it (Camera::framing's coveredLeft): up to the panel's right edge
// and a margin, where it was last drawn (before its first frame, where it first opens). 0 where
// the panel is hidden, or where it would leave less than half the window: a narrow window is
// framed whole, as facet-render frames its picture.
float panelCover(const ViewerState& state, float windowWidth);

// Where the window's title names the scene: its objects' names, the first few of them.
std::string sceneTitle(const Scene& scene);

} // namespace facet::viewer
