// facet-render: an OBJ (or the bundled default scene) to PNG, headless, with the camera on the
// command line. Bad input gives one clear message and a non-zero exit code.
#include "asset/image.h"
#include "asset/obj_loader.h"
#include "core/camera.h"
#include "core/error.h"
#include "cpu/cpu_renderer.h"
#include "cuda/device.h"
#include "gl/gl_reference.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <new>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr const char* kUsage = R"(usage: facet-render [MESH.obj] [options]

Renders MESH.obj (default: the bundled scene, assets/default_scene/scene.obj) to a PNG.

Camera (defaults frame the whole mesh from the front right, slightly above):
  --eye X,Y,Z        camera position
  --yaw DEG          turn left from looking down -Z (default 25 when framing)
  --pitch DEG        look up (negative: down), within +-89
  --fov DEG          vertical field of view (default 60)
  --near N --far F   clip planes (default: enclose the mesh)
Picture:
  --size WxH         image size in pixels (default 1280x720)
  --filter F         nearest | bilinear | trilinear (default trilinear)
  --cull C           none | back (default none: OBJ files mix windings)
  --light            headlight Lambert shading
  --texture PATH     use this image as every material's texture (e.g. for a mesh without MTL)
  --stage S          cpu | gpu | gl | auto (default auto: the GPU when one is usable;
                     gl: the OpenGL reference path, offscreen)
  --threads N        CPU threads (default: one per hardware thread)
Output:
  -o, --output FILE  PNG to write (default facet.png)
  --depth FILE       also write the depth buffer: raw little-endian float32 window depth in
                     [0, 1], top row first, as OpenGL would write it
  --bench K          render K frames and print the median milliseconds per stage
  --info             print mesh statistics and the loader's warnings, render nothing
  -h, --help         this text
)";

struct Options {
    std::string mesh = FACET_DEFAULT_SCENE;
    std::string output = "facet.png";
    std::optional<std::string> depthFile, texture;
    std::optional<glm::vec3> eye;
    std::optional<float> yaw, pitch, fov, nearPlane, farPlane;
    int width = 1280, height = 720;
    facet::RenderSettings settings;
    std::string stage = "auto";
    int benchFrames = 0;
    int threads = 0;
    bool info = false;
    bool help = false;
};

struct UsageError : facet::Error {
    using facet::Error::Error;
};

float parseFloat(const std::string& flag, const std::string& text) {
    std::size_t used = 0;
    float value = 0.0f;
    try {
        value = std::stof(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || !std::isfinite(value))
        throw UsageError(flag + " expects a finite number, got '" + text + "'");
    return value;
}

int parsePositiveInt(const std::string& flag, const std::string& text, int max) {
    std::size_t used = 0;
    long value = 0;
    try {
        value = std::stol(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || value < 1 || value > max)
        throw UsageError(flag + " expects a whole number from 1 to " + std::to_string(max) + ", got '" + text + "'");
    return static_cast<int>(value);
}

glm::vec3 parseVec3(const std::string& flag, const std::string& text) {
    std::vector<std::string> parts;
    std::stringstream in(text);
    for (std::string part; std::getline(in, part, ',');) parts.push_back(part);
    if (parts.size() != 3) throw UsageError(flag + " expects X,Y,Z, got '" + text + "'");
    return {parseFloat(flag, parts[0]), parseFloat(flag, parts[1]), parseFloat(flag, parts[2])};
}

Options parseArguments(int argc, char** argv) {
    Options o;
    bool meshGiven = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw UsageError(arg + " needs a value");
            return argv[++i];
        };
        if (arg == "-h" || arg == "--help") {
            o.help = true;
            return o;
        } else if (arg == "-o" || arg == "--output") {
            o.output = value();
        } else if (arg == "--depth") {
            o.depthFile = value();
        } else if (arg == "--texture") {
            o.texture = value();
        } else if (arg == "--eye") {
            o.eye = parseVec3(arg, value());
        } else if (arg == "--yaw") {
            o.yaw = parseFloat(arg, value());
        } else if (arg == "--pitch") {
            o.pitch = parseFloat(arg, value());
        } else if (arg == "--fov") {
            o.fov = parseFloat(arg, value());
        } else if (arg == "--near") {
            o.nearPlane = parseFloat(arg, value());
        } else if (arg == "--far") {
            o.farPlane = parseFloat(arg, value());
        } else if (arg == "--size") {
            const std::string v = value();
            const auto x = v.find('x');
            if (x == std::string::npos) throw UsageError("--size expects WxH, got '" + v + "'");
            o.width = parsePositiveInt("--size width", v.substr(0, x), 16384);
            o.height = parsePositiveInt("--size height", v.substr(x + 1), 16384);
        } else if (arg == "--filter") {
            const std::string v = value();
            if (v == "nearest") o.settings.filter = facet::TextureFilter::Nearest;
            else if (v == "bilinear") o.settings.filter = facet::TextureFilter::Bilinear;
            else if (v == "trilinear") o.settings.filter = facet::TextureFilter::Trilinear;
            else throw UsageError("--filter expects nearest, bilinear or trilinear, got '" + v + "'");
        } else if (arg == "--cull") {
            const std::string v = value();
            if (v != "none" && v != "back") throw UsageError("--cull expects none or back, got '" + v + "'");
            o.settings.cullBackFaces = v == "back";
        } else if (arg == "--light") {
            o.settings.headlight = true;
        } else if (arg == "--stage") {
            o.stage = value();
            if (o.stage != "cpu" && o.stage != "gpu" && o.stage != "gl" && o.stage != "auto")
                throw UsageError("--stage expects cpu, gpu, gl or auto, got '" + o.stage + "'");
        } else if (arg == "--threads") {
            o.threads = parsePositiveInt(arg, value(), 1024);
        } else if (arg == "--bench") {
            o.benchFrames = parsePositiveInt(arg, value(), 100000);
        } else if (arg == "--info") {
            o.info = true;
        } else if (!arg.empty() && arg[0] == '-') {
            throw UsageError("unknown option " + arg + " (see --help)");
        } else if (!meshGiven) {
            o.mesh = arg;
            meshGiven = true;
        } else {
            throw UsageError("more than one mesh given: '" + o.mesh + "' and '" + arg + "'");
        }
    }
    return o;
}

void printInfo(const facet::Model& model) {
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

double medianOf(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

int run(const Options& o) {
    if (o.help) {
        std::cout << kUsage;
        return 0;
    }
    const facet::GpuStatus gpu = facet::probeGpu();
    if (o.stage == "gpu") {
        if (!gpu.usable) throw facet::Error("--stage gpu: " + gpu.reason);
        throw facet::Error("--stage gpu: the CUDA pipeline is not built yet; use --stage cpu");
    }

    facet::Model model = facet::loadObj(o.mesh);
    if (o.texture) {
        model.textures.push_back(facet::makeTexture(facet::loadImage(*o.texture), *o.texture));
        const auto index = static_cast<std::int32_t>(model.textures.size() - 1);
        for (facet::Material& m : model.materials) m.texture = index;
        if (!model.mesh.hasTexCoords)
            model.warnings.push_back({*o.texture, 0, "the mesh has no texture coordinates; the texture cannot show"});
    }
    if (o.info) {
        printInfo(model);
        return 0;
    }
    for (const facet::Warning& w : model.warnings) std::cerr << "warning: " << w.toString() << "\n";
    if (model.mesh.triangleCount() == 0) std::cerr << "warning: " << o.mesh << " has no triangles to draw\n";

    const float aspect = static_cast<float>(o.width) / static_cast<float>(o.height);
    facet::Camera camera = facet::Camera::framing(model.mesh, aspect, o.fov.value_or(60.0f));
    if (o.eye) camera.eye = *o.eye;
    if (o.yaw) camera.yawDegrees = *o.yaw;
    if (o.pitch) camera.pitchDegrees = *o.pitch;
    if (o.nearPlane) camera.nearPlane = *o.nearPlane;
    if (o.farPlane) camera.farPlane = *o.farPlane;
    const facet::ViewParams view = camera.view(aspect);

    const std::size_t pixels = std::size_t(o.width) * std::size_t(o.height);
    std::vector<std::uint32_t> color;
    std::vector<float> depth;
    try {
        color.resize(pixels);
        depth.resize(pixels);
    } catch (const std::bad_alloc&) {
        throw facet::Error("a " + std::to_string(o.width) + "x" + std::to_string(o.height) + " picture needs " +
                           std::to_string(pixels * 8 >> 20) + " MiB for colour and depth; not enough memory");
    }
    const facet::FrameView target{color.data(), depth.data(), o.width, o.height};
    facet::CpuRenderer renderer(o.threads);
    if (o.stage == "auto" && !gpu.usable) std::cerr << "note: rendering on the CPU: " << gpu.reason << "\n";
    std::optional<facet::GlReferenceRenderer> gl;
    if (o.stage == "gl") {
        try {
            gl.emplace();
        } catch (const facet::Error& e) {
            throw facet::Error(std::string("--stage gl: OpenGL is unusable: ") + e.what());
        }
    }
    // The OpenGL path reports no per-stage statistics.
    const auto renderFrame = [&]() -> facet::CpuFrameStats {
        if (!gl) return renderer.render(model, view, o.settings, target);
        gl->render(model, view, o.settings, target);
        return {};
    };

    // One warm-up frame (first touch of the buffers), then the measured ones.
    facet::CpuFrameStats stats = renderFrame();
    std::vector<double> frameMs, vertexMs, triangleMs, rasterMs;
    for (int f = 0; f < o.benchFrames; ++f) {
        const auto t0 = std::chrono::steady_clock::now();
        stats = renderFrame();
        frameMs.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        vertexMs.push_back(stats.vertexMs);
        triangleMs.push_back(stats.triangleMs);
        rasterMs.push_back(stats.rasterMs);
    }
    if (o.benchFrames > 0 && gl)
        std::cout << "gl (" << gl->rendererName() << "), " << o.width << "x" << o.height << ", median of "
                  << o.benchFrames << " frames: frame " << medianOf(frameMs) << " ms\n";
    else if (o.benchFrames > 0)
        std::cout << "cpu, " << renderer.threadCount() << " threads, " << o.width << "x" << o.height << ", median of "
                  << o.benchFrames << " frames: frame " << medianOf(frameMs) << " ms (vertex " << medianOf(vertexMs)
                  << ", triangle " << medianOf(triangleMs) << ", raster " << medianOf(rasterMs) << ")\n";

    facet::Image image{static_cast<std::uint32_t>(o.width), static_cast<std::uint32_t>(o.height), std::move(color)};
    facet::writePng(o.output, image);
    if (o.depthFile) {
        std::ofstream out(*o.depthFile, std::ios::binary);
        out.write(reinterpret_cast<const char*>(depth.data()), static_cast<std::streamsize>(pixels * sizeof(float)));
        if (!out) throw facet::Error(*o.depthFile + ": cannot write the depth file");
    }
    std::cout << "wrote " << o.output << " (" << o.width << "x" << o.height << ", " << model.mesh.triangleCount()
              << " triangles, ";
    if (gl)
        std::cout << "OpenGL " << gl->rendererName() << ")\n";
    else
        std::cout << stats.fragmentsShaded << " fragments)\n";
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    try {
        return run(parseArguments(argc, argv));
    } catch (const UsageError& e) {
        std::cerr << "facet-render: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "facet-render: " << e.what() << "\n";
        return 1;
    }
}
