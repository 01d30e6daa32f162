// facet-viewer's command line: what to show, the camera of facet-render, and the scripted mode
// (--frames, --screenshot, --report) that tests and demos use.
#pragma once

#include "cli.h"

#include "core/names.h"
#include "core/shading.h"

#include <optional>
#include <string>
#include <vector>

namespace facet::viewer {

struct Options {
    std::vector<std::string> meshes; // opened together as one scene; none: the bundled default scene
    cli::CameraFlags camera; // applies to the first scene shown
    int width = 1280, height = 720; // window size in screen coordinates
    float resolutionScale = 1.0f;
    RenderSettings settings;
    Backend stage = Backend::Auto; // auto, cpu or gpu
    int threads = 0;    // 0: one per hardware thread
    int device = -1;    // CUDA device; -1: FACET_DEVICE, else the one driving the window, else 0
    int frames = 0;     // > 0: scripted, exit after this many frames of the scene
    std::optional<std::string> screenshot;       // the facet frame, after the last frame
    std::optional<std::string> windowScreenshot; // the window with the panel, after the last frame
    bool ui = true;
    bool vsync = true;
    bool report = false; // print the camera, the mesh and the timings on exit
    bool help = false;
    bool version = false;
};

std::string usageText();

// Throws cli::UsageError naming the offending argument.
Options parseArguments(int argc, char** argv);

} // namespace facet::viewer
