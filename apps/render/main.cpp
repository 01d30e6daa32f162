// facet-render: meshes (or the bundled default scene) to PNG, headless, with the camera on the
// command line; several files are one scene, each at the identity pose. Bad input gives one
// clear message and a non-zero exit code.
#include "app_info.h"
#include "cli.h"

#include "asset/array_files.h"
#include "asset/file_write.h"
#include "asset/image.h"
#include "asset/load_model.h"
#include "core/camera.h"
#include "core/error.h"
#include "host/line_aligned.h"
#include "renderer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <new>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr const char* kUsage = R"(usage: facet-render [MESH...] [options]

Renders the MESH files (.obj, .ply or .stl; default: the bundled scene, default_scene/scene.obj
in facet's data folder: share/facet beside the program's bin/, or $FACET_DATA_DIR) to a PNG.
Several files make one scene, each file's mesh at the identity pose (where the file put it).

Camera (defaults frame the whole scene from the front right, slightly above):
%CAMERA%Picture:
  --size WxH         image size in pixels (default 1280x720)
  --filter F         nearest | bilinear | trilinear (default trilinear)
  --cull C           none | back (default none: OBJ files mix windings)
  --light            with --shading classic: headlight Lambert shading
  --background R,G,B[,A]  the colour behind the scene, each 0 to 1 (default 0.13,0.17,0.23,1);
                     an alpha below 1 is written to the PNG (0: a transparent thumbnail)
  --msaa N           samples per pixel: 1 (default), 2, 4 or 8 (multisampling)
  --alpha-to-coverage
                     with --msaa 2, 4 or 8 and --shading lit: cut-outs keep each sample by
                     their alpha instead of the alpha test (no effect at --msaa 1)
  --texture PATH     use this image as every material's texture (e.g. for a mesh without MTL),
                     in every mesh
  --view V           shaded | normals | depth | uv | overdraw | wireframe | triangles | tiles
                     (default shaded; docs/guide.md says how to read each; gl draws all but tiles)
  --stage S          cpu | gpu | gl | kernels | auto (default auto: the GPU when one is
                     usable, else the CPU; gl: the OpenGL reference path, offscreen;
                     kernels: the CUDA pipeline's kernels run on the CPU)
  --vertex S         cpu | gpu: where the vertex stage (shift, rotate) runs, overriding --stage
  --raster S         cpu | gpu: where clipping, binning, rasterization and texturing run
  --threads N        CPU threads (default: one per hardware thread)
  --device N         CUDA device for the GPU stages (default: FACET_DEVICE, else 0)
Output:
  -o, --output FILE  PNG to write (default facet.png)
  --depth FILE       also write the depth buffer: raw little-endian float32 window depth in
                     [0, 1], top row first, as OpenGL would write it (with --msaa, each
                     pixel's nearest sample)
  --save NAME=FILE   also write an output for vision users (repeatable): metric_depth
                     (float32 camera-space depth in scene units, 0 where nothing is drawn),
                     instance (uint32 instance ids, 0 for none) or normal (float32 x3, unit,
                     OpenCV camera axes), as .npy (numpy.load), or instance as a 16-bit PNG;
                     with --msaa, those of each pixel's centre
  --bench K          render K frames and print the median milliseconds per stage
  --info             print each file's mesh statistics and warnings, the scene's instances and
                     cameras, and the CUDA devices, render nothing
  -h, --help         this text
  --version          print facet's version
)";

struct Options {
    std::vector<std::string> meshes; // the default scene when none is given
    std::string output = "facet.png";
    std::optional<std::string> depthFile, texture;
    std::vector<std::pair<facet::Output, std::string>> saves; // --save NAME=FILE, in order
    facet::cli::CameraFlags camera;
    int width = 1280, height = 720;
    facet::RenderSettings settings;
    facet::Backend backend = facet::Backend::Auto;
    std::optional<facet::Side> vertex, raster; // overriding the backend's placement
    int benchFrames = 0;
    int threads = 0;
    int device = -1;
    bool info = false;
    bool help = false;
    bool version = false;
};

// --save NAME=FILE: an output beyond colour and depth, to a .npy file (or instance ids to a
// 16-bit PNG).
std::pair<facet::Output, std::string> parseSave(const std::string& flag, const std::string& text) {
    using facet::Output;
    const auto equals = text.find('=');
    const std::string name = text.substr(0, equals), file = equals == std::string::npos ? "" : text.substr(equals + 1);
    const std::optional<Output> output = facet::fromName<Output>(name);
    if (equals == std::string::npos || file.empty() || !output || *output == Output::Color || *output == Output::Depth)
        throw facet::cli::UsageError(flag + " expects NAME=FILE with NAME metric_depth, instance or normal, got '" +
                                     text + "' (the picture is -o, window depth --depth)");
    const std::string extension = std::filesystem::path(file).extension().string();
    if (extension != ".npy" && !(extension == ".png" && *output == Output::Instance))
        throw facet::cli::UsageError(flag + " " + name + " is written as .npy" +
                                     (*output == Output::Instance ? " or a 16-bit .png" : "") + ", not '" + file + "'");
    return {*output, file};
}

Options parseArguments(int argc, char** argv) {
    using namespace facet::cli;
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
        } else if (arg == "-o" || arg == "--output") {
            o.output = args.value();
        } else if (arg == "--depth") {
            o.depthFile = args.value();
        } else if (arg == "--save") {
            o.saves.push_back(parseSave(arg, args.value()));
        } else if (arg == "--texture") {
            o.texture = args.value();
        } else if (arg == "--size") {
            parseSize(arg, args.value(), o.width, o.height);
        } else if (consumeRenderSetting(arg, args, o.settings)) {
        } else if (arg == "--view") {
            o.settings.view = parseChoice<facet::View>(arg, args.value());
        } else if (arg == "--stage") {
            o.backend = parseChoice<facet::Backend>(arg, args.value());
        } else if (arg == "--vertex" || arg == "--raster") {
            (arg == "--vertex" ? o.vertex : o.raster) = parseChoice<facet::Side>(arg, args.value());
        } else if (arg == "--threads") {
            o.threads = static_cast<int>(parseInteger(arg, args.value(), 1, 1024));
        } else if (arg == "--device") {
            o.device = static_cast<int>(parseInteger(arg, args.value(), 0, 1023));
        } else if (arg == "--bench") {
            o.benchFrames = static_cast<int>(parseInteger(arg, args.value(), 1, 100000));
        } else if (arg == "--info") {
            o.info = true;
        } else {
            takeMeshes(arg, o.meshes);
        }
    }
    if (o.meshes.empty()) o.meshes.push_back(facet::app::defaultScene().string());
    return o;
}

void printModelInfo(const facet::Model& model) {
    const facet::Mesh& m = model.mesh;
    std::cout << model.source << "\n"
              << "  file       " << model.fileCounts.positions << " v, " << model.fileCounts.texcoords << " vt, "
              << model.fileCounts.normals << " vn, " << model.fileCounts.faces << " f\n"
              << "  vertices   " << m.vertexCount() << " (distinct corners)\n"
              << "  triangles  " << m.triangleCount() << "\n"
              << "  materials  " << model.materials.size() << " (" << m.ranges.size() << " ranges)\n"
              << "  textures   " << model.textures.size() << "\n"
              << "  texcoords  " << (m.hasTexCoords ? "yes" : "no") << "\n";
    if (!m.bounds.empty())
        std::cout << "  bounds     (" << m.bounds.min.x << ", " << m.bounds.min.y << ", " << m.bounds.min.z << ") - ("
                  << m.bounds.max.x << ", " << m.bounds.max.y << ", " << m.bounds.max.z << ")\n";
    std::cout << "  warnings   " << model.warnings.size() << "\n";
    for (const facet::Warning& w : model.warnings) std::cout << "    " << w.toString() << "\n";
}

// Each file's mesh, then the instances placing them, then the GPUs.
void printInfo(const facet::Scene& scene) {
    for (const auto& model : scene.meshes) printModelInfo(*model);
    std::cout << "  instances  " << scene.instances.size() << " (" << scene.triangleCount() << " triangles)\n";
    for (const facet::Instance& i : scene.instances)
        std::cout << "    " << i.id << ": " << i.name << ", mesh " << i.mesh << ", "
                  << scene.meshes[i.mesh]->mesh.triangleCount() << " triangles\n";
    if (!scene.cameras.empty()) { // --camera-index N
        std::cout << "  cameras    " << scene.cameras.size() << "\n";
        for (std::size_t k = 0; k < scene.cameras.size(); ++k) {
            const facet::SceneCamera& c = scene.cameras[k];
            const glm::vec3 at(c.pose[3]);
            std::cout << "    " << k << ": " << c.name << ", at " << at.x << "," << at.y << "," << at.z << ", fov "
                      << glm::degrees(c.yfov) << " degrees\n";
        }
    }
    std::cout << "  gpus\n";
    for (const std::string& line : facet::describeGpus()) std::cout << "    " << line << "\n";
}

double medianOf(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

// The flag that asked for the placement a refusal concerns, to name it in the message.
std::string placementFlags(const Options& o) {
    if (o.threads > 0 && o.backend == facet::Backend::Gl) return "--threads with --stage gl";
    if (o.vertex == facet::Side::Gpu) return "--vertex gpu";
    if (o.raster == facet::Side::Gpu) return "--raster gpu";
    if (o.vertex || o.raster) return std::string("--vertex/--raster with --stage ") + facet::nameOf(o.backend);
    return std::string("--stage ") + facet::nameOf(o.backend);
}

facet::Renderer makeRenderer(const Options& o) {
    facet::RendererOptions options;
    options.backend = o.backend;
    options.vertex = o.vertex;
    options.raster = o.raster;
    options.threads = o.threads;
    options.device = o.device;
    try {
        return facet::Renderer(options);
    } catch (const facet::Error& e) {
        throw facet::Error(placementFlags(o) + ": " + e.what());
    }
}

// `loaded` with `image` as every material's texture: a copy, since a scene's meshes are const
// (the loaded one is freed as the copy takes its place). Among several meshes the warning of
// one without texture coordinates names it.
std::shared_ptr<const facet::Model> textured(std::shared_ptr<const facet::Model> loaded, const facet::Image& image,
                                             const std::string& path, bool several, facet::Scene& scene) {
    auto model = std::make_shared<facet::Model>(*loaded);
    loaded.reset();
    model->textures.push_back(facet::makeTexture(image, path));
    const auto index = static_cast<std::int32_t>(model->textures.size() - 1);
    for (facet::Material& m : model->materials) m.texture = index;
    if (!model->mesh.hasTexCoords) {
        const std::string mesh = several ? "the mesh " + model->source : "the mesh";
        const facet::Warning w{path, 0, mesh + " has no texture coordinates; the texture cannot show"};
        model->warnings.push_back(w);
        scene.warnings.push_back(w);
    }
    return model;
}

// The meshes, one instance each at the identity pose, with --texture applied to every material.
facet::Scene loadScene(const Options& o) {
    facet::Scene scene = facet::loadScene(std::vector<std::filesystem::path>(o.meshes.begin(), o.meshes.end()));
    if (!o.texture) return scene;
    const facet::Image image = facet::loadImage(*o.texture);
    const bool several = scene.meshes.size() > 1;
    for (auto& mesh : scene.meshes) mesh = textured(std::move(mesh), image, *o.texture, several, scene);
    return scene;
}

// Colour and depth for the whole picture (line-aligned, see host/line_aligned.h), or a clear
// message when memory is short.
void allocatePicture(const Options& o, facet::LineAlignedVector<std::uint32_t>& color,
                     facet::LineAlignedVector<float>& depth) {
    const std::size_t pixels = std::size_t(o.width) * std::size_t(o.height);
    try {
        color.resize(pixels);
        depth.resize(pixels);
    } catch (const std::bad_alloc&) {
        throw facet::Error("a " + std::to_string(o.width) + "x" + std::to_string(o.height) + " picture needs " +
                           std::to_string(pixels * 8 >> 20) + " MiB for colour and depth; not enough memory");
    }
}

// One warm-up frame (first touch of the buffers), then --bench frames with their medians.
facet::FrameStats renderFrames(const Options& o, facet::Renderer& renderer, const facet::ViewParams& view,
                               const facet::FrameView& target, const facet::FrameOutputs& outputs) {
    facet::FrameStats stats = renderer.render(view, o.settings, target, outputs);
    if (o.benchFrames == 0) return stats;
    std::vector<double> frameMs, vertexMs, triangleMs, rasterMs;
    for (int f = 0; f < o.benchFrames; ++f) {
        stats = renderer.render(view, o.settings, target, outputs);
        frameMs.push_back(stats.frameMs);
        vertexMs.push_back(stats.vertexMs);
        triangleMs.push_back(stats.triangleMs);
        rasterMs.push_back(stats.rasterMs);
    }
    const facet::Placement& p = stats.placement;
    std::cout << p.describe();
    if (!renderer.deviceName().empty()) std::cout << " (" << renderer.deviceName() << ")";
    if (p.pipeline() && p.raster == facet::Side::Cpu) std::cout << ", " << renderer.threadCount() << " threads";
    std::cout << ", " << o.width << "x" << o.height << ", median of " << o.benchFrames << " frames: frame "
              << medianOf(frameMs) << " ms";
    if (p.backend != facet::Backend::Gl)
        std::cout << " (vertex " << medianOf(vertexMs) << ", triangle " << medianOf(triangleMs) << ", raster "
                  << medianOf(rasterMs) << ")";
    std::cout << "\n";
    return stats;
}

void writeDepth(const std::string& path, const float* depth, std::size_t pixels) {
    facet::writeFileAtomically(path, {reinterpret_cast<const char*>(depth), pixels * sizeof(float)}, "the depth file");
}

// The arrays --save asks for, each allocated only when asked.
struct SavedOutputs {
    std::vector<float> metricDepth, normal;
    std::vector<std::uint32_t> instance;
    facet::FrameOutputs view;

    explicit SavedOutputs(const Options& o) {
        const std::size_t pixels = std::size_t(o.width) * std::size_t(o.height);
        try {
            for (const auto& [output, file] : o.saves) {
                if (output == facet::Output::MetricDepth && metricDepth.empty()) metricDepth.resize(pixels);
                if (output == facet::Output::Instance && instance.empty()) instance.resize(pixels);
                if (output == facet::Output::Normal && normal.empty()) normal.resize(3 * pixels);
            }
        } catch (const std::bad_alloc&) {
            throw facet::Error("a " + std::to_string(o.width) + "x" + std::to_string(o.height) +
                               " picture's --save outputs need up to " + std::to_string(pixels * 20 >> 20) +
                               " MiB; not enough memory");
        }
        view = {metricDepth.empty() ? nullptr : metricDepth.data(), instance.empty() ? nullptr : instance.data(),
                normal.empty() ? nullptr : normal.data()};
    }

    void write(const Options& o) const {
        const std::vector<std::size_t> plane{std::size_t(o.height), std::size_t(o.width)};
        for (const auto& [output, file] : o.saves) {
            if (output == facet::Output::MetricDepth) facet::writeNpy(file, metricDepth.data(), plane);
            if (output == facet::Output::Normal) facet::writeNpy(file, normal.data(), {plane[0], plane[1], 3});
            if (output == facet::Output::Instance) {
                if (std::filesystem::path(file).extension() == ".png")
                    facet::writePng16(file, instance.data(), o.width, o.height);
                else
                    facet::writeNpy(file, instance.data(), plane);
            }
        }
    }
};

int run(const Options& o) {
    if (o.help) {
        std::string usage = kUsage;
        usage.replace(usage.find("%CAMERA%"), 8, facet::cli::CameraFlags::kHelp);
        std::cout << usage << facet::cli::kLightHelp;
        return 0;
    }
    if (o.version) {
        std::cout << facet::app::versionLine("facet-render") << "\n";
        return 0;
    }
    facet::Renderer renderer = makeRenderer(o); // refuses an impossible placement before loading
    const facet::Scene scene = loadScene(o);
    if (o.info) {
        printInfo(scene);
        return 0;
    }
    for (const facet::Warning& w : scene.warnings) std::cerr << "warning: " << w.toString() << "\n";
    for (const auto& model : scene.meshes)
        if (model->mesh.triangleCount() == 0)
            std::cerr << "warning: " << model->source << " has no triangles to draw\n";

    const float aspect = static_cast<float>(o.width) / static_cast<float>(o.height);
    const facet::ViewParams view = o.camera.camera(scene, o.width, o.height).view(aspect);
    facet::LineAlignedVector<std::uint32_t> color;
    facet::LineAlignedVector<float> depth;
    allocatePicture(o, color, depth);
    const SavedOutputs saved(o);
    renderer.setScene(scene);
    const std::string note = renderer.placement().note; // Auto's reason for the CPU, if it chose it
    if (!note.empty()) std::cerr << "note: " << note << "\n";
    const facet::FrameStats stats =
        renderFrames(o, renderer, view, {color.data(), depth.data(), o.width, o.height}, saved.view);
    if (stats.placement.note != note) std::cerr << "note: " << stats.placement.note << "\n";
    if (!stats.note.empty()) std::cerr << "note: " << stats.note << "\n";

    facet::writePng(o.output, facet::Image{static_cast<std::uint32_t>(o.width), static_cast<std::uint32_t>(o.height),
                                           std::vector<std::uint32_t>(color.begin(), color.end())});
    if (o.depthFile) writeDepth(*o.depthFile, depth.data(), depth.size());
    saved.write(o);
    std::cout << "wrote " << o.output << " (" << o.width << "x" << o.height << ", " << scene.triangleCount()
              << " triangles, " << stats.placement.describe();
    if (!renderer.deviceName().empty()) std::cout << " (" << renderer.deviceName() << ")";
    if (stats.fragments > 0) std::cout << ", " << stats.fragments << " fragments";
    std::cout << ")\n";
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    return facet::cli::runMain("facet-render", [&] { return run(parseArguments(argc, argv)); });
}
