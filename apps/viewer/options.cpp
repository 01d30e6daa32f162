#include "viewer/options.h"

#include "core/multisample.h"

#include <string>

namespace facet::viewer {

namespace {

constexpr const char* kUsage = R"(usage: facet-viewer [MESH...] [options]

Shows the meshes (.obj, .ply, .stl; default: the bundled scene, default_scene/scene.obj in
facet's data folder: share/facet beside the program's bin/, or $FACET_DATA_DIR) together as one
scene in a window, rendered by facet, with a panel of settings, timings and the scene's
objects, each of which can be hidden, moved, turned, scaled or removed. Drop files on the
window to add them to the scene; the panel's path field opens a file in place of the scene
(Enter, or Open) or adds it (Shift+Enter, or Add).

Controls: W/A/S/D move, Q/E down/up, hold the right mouse button to look around, scroll to
change speed, Shift to go faster, R to reset the view, Ctrl+L to type a path, F1 to hide the
panel, Esc to release the mouse or quit.

Camera (defaults frame the whole scene from the front right, slightly above, in the part of
the window the panel leaves free where that is at least half of it):
%CAMERA%Picture:
  --size WxH         window size (default 1280x720); facet renders at the framebuffer size
  --scale S          render at S times the window size, 0.25 to 1 (default 1)
  --filter F         nearest | bilinear | trilinear (default trilinear)
  --cull C           none | back (default none: OBJ files mix windings)
  --light            with --shading classic: headlight Lambert shading (without it: on for a
                     scene with no texture, which would otherwise be one flat colour; the
                     panel's checkbox decides once touched)
  --background R,G,B  the colour behind the scene, each 0 to 1 (default 0.13,0.17,0.23)
  --msaa N           samples per pixel: 1 (default), 2, 4 or 8 (multisampling)
  --alpha-to-coverage
                     with --msaa 2, 4 or 8 and --shading lit: cut-outs keep each sample by
                     their alpha instead of the alpha test (no effect at --msaa 1)
  --stage S          cpu | gpu | auto (default auto: the GPU when one is usable)
  --threads N        CPU threads (default: one per hardware thread)
  --device N         CUDA device for the GPU stages (default: FACET_DEVICE, else the GPU that
                     drives the window, else 0); elsewhere than on the window's GPU the frame is
                     copied into the window instead of written through CUDA-GL interop
  --vsync on|off     wait for the display's refresh (default on)
  --no-ui            start with the panel hidden (F1 shows it)
Scripted runs (tests, demos, measurements):
  --frames N         render N frames of the scene, then exit
  --screenshot FILE  after the last frame, write facet's frame (without the panel) as PNG
  --screenshot-window FILE
                     after the last frame, write the whole window (with the panel) as PNG
  --report           on exit, print the meshes, the objects, the camera, the panel's state,
                     where the stages ran and the median stage timings
  -h, --help         this text
  --version          print facet's version
)";

} // namespace

std::string usageText() {
    std::string usage = kUsage;
    usage.replace(usage.find("%CAMERA%"), 8, cli::CameraFlags::kHelp);
    return usage + cli::kLightHelp;
}

Options parseArguments(int argc, char** argv) {
    using namespace cli;
    Options o;
    Arguments args(argc, argv);
    for (std::string arg; args.next(arg);) {
        if (arg == "-h" || arg == "--help") {
            o.help = true;
            return o;
        } else if (arg == "--version") {
            o.version = true;
            return o;
        } else if (o.camera.consume(arg, args)) {
        } else if (arg == "--size") {
            parseSize(arg, args.value(), o.width, o.height);
        } else if (arg == "--scale") {
            o.resolutionScale = parseFloat(arg, args.value());
            if (o.resolutionScale < 0.25f || o.resolutionScale > 1.0f)
                throw UsageError("--scale expects a number from 0.25 to 1");
        } else if (consumeRenderSetting(arg, args, o.settings)) {
        } else if (arg == "--stage") {
            const std::string v = args.value();
            o.stage = parseChoice<Backend>(arg, v);
            if (o.stage == Backend::Gl || o.stage == Backend::Kernels)
                throw UsageError("--stage " + v + " renders offscreen only (facet-render); the viewer takes auto, cpu or gpu");
        } else if (arg == "--threads") {
            o.threads = static_cast<int>(parseInteger(arg, args.value(), 1, 1024));
        } else if (arg == "--device") {
            o.device = static_cast<int>(parseInteger(arg, args.value(), 0, 1023));
        } else if (arg == "--vsync") {
            const std::string v = args.value();
            if (v != "on" && v != "off") throw UsageError("--vsync expects on or off, got '" + v + "'");
            o.vsync = v == "on";
        } else if (arg == "--no-ui") {
            o.ui = false;
        } else if (arg == "--frames") {
            o.frames = static_cast<int>(parseInteger(arg, args.value(), 1, 100000000));
        } else if (arg == "--screenshot") {
            o.screenshot = args.value();
        } else if (arg == "--screenshot-window") {
            o.windowScreenshot = args.value();
        } else if (arg == "--report") {
            o.report = true;
        } else if (!arg.empty() && arg[0] == '-') {
            throw UsageError("unknown option " + arg + " (see --help)");
        } else {
            o.meshes.push_back(arg);
        }
    }
    // Refused here, before a window opens, as the renderer would refuse every frame.
    if (const std::string problem = sampleCountProblem(o.settings.msaa, o.settings.view); !problem.empty())
        throw UsageError(problem);
    return o;
}

} // namespace facet::viewer
