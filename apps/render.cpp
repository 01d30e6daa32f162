// facet-render: an OBJ (or the bundled default scene) to PNG, headless, with the camera on the
// command line. Bad input gives one clear message and a non-zero exit code.
#include "cli.h"

#include "asset/image.h"
#include "asset/obj_loader.h"
#include "core/camera.h"
#include "core/error.h"
#include "cpu/cpu_renderer.h"
#include "cuda/device.h"
#include "cuda/gpu_renderer.h"
#if defined(FACET_HAVE_KERNELS_HOST)
#include "cuda/host_kernel_renderer.h"
#endif
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
%CAMERA%Picture:
  --size WxH         image size in pixels (default 1280x720)
  --filter F         nearest | bilinear | trilinear (default trilinear)
  --cull C           none | back (default none: OBJ files mix windings)
  --light            headlight Lambert shading
  --texture PATH     use this image as every material's texture (e.g. for a mesh without MTL)
  --stage S          cpu | gpu | gl | kernels | auto (default auto: the GPU when one is
                     usable, else the CPU; gl: the OpenGL reference path, offscreen;
                     kernels: the CUDA pipeline's kernels run on the CPU)
  --vertex S         cpu | gpu: where the vertex stage (shift, rotate) runs, overriding --stage
  --raster S         cpu | gpu: where clipping, binning, rasterization and texturing run
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
    facet::cli::CameraFlags camera;
    int width = 1280, height = 720;
    facet::RenderSettings settings;
    std::string stage = "auto";
    std::optional<std::string> vertexStage, rasterStage; // cpu | gpu, overriding stage
    int benchFrames = 0;
    int threads = 0;
    bool info = false;
    bool help = false;
};

Options parseArguments(int argc, char** argv) {
    using namespace facet::cli;
    Options o;
    bool meshGiven = false;
    Arguments args(argc, argv);
    for (std::string arg; args.next(arg);) {
        if (arg == "-h" || arg == "--help") {
            o.help = true;
            return o;
        } else if (o.camera.consume(arg, args)) {
        } else if (arg == "-o" || arg == "--output") {
            o.output = args.value();
        } else if (arg == "--depth") {
            o.depthFile = args.value();
        } else if (arg == "--texture") {
            o.texture = args.value();
        } else if (arg == "--size") {
            parseSize(arg, args.value(), o.width, o.height);
        } else if (consumeRenderSetting(arg, args, o.settings)) {
        } else if (arg == "--stage") {
            o.stage = args.value();
            if (o.stage != "cpu" && o.stage != "gpu" && o.stage != "gl" && o.stage != "kernels" && o.stage != "auto")
                throw UsageError("--stage expects cpu, gpu, gl, kernels or auto, got '" + o.stage + "'");
        } else if (arg == "--vertex" || arg == "--raster") {
            const std::string side = args.value();
            if (side != "cpu" && side != "gpu") throw UsageError(arg + " expects cpu or gpu, got '" + side + "'");
            (arg == "--vertex" ? o.vertexStage : o.rasterStage) = side;
        } else if (arg == "--threads") {
            o.threads = static_cast<int>(parseInteger(arg, args.value(), 1, 1024));
        } else if (arg == "--bench") {
            o.benchFrames = static_cast<int>(parseInteger(arg, args.value(), 1, 100000));
        } else if (arg == "--info") {
            o.info = true;
        } else {
            takeMesh(arg, o.mesh, meshGiven);
        }
    }
    if ((o.vertexStage || o.rasterStage) && (o.stage == "gl" || o.stage == "kernels"))
        throw UsageError("--vertex and --raster choose between cpu and gpu; they do not combine with --stage " +
                         o.stage);
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
        std::string usage = kUsage;
        usage.replace(usage.find("%CAMERA%"), 8, facet::cli::CameraFlags::kHelp);
        std::cout << usage;
        return 0;
    }
    // Where each stage runs: --vertex and --raster override --stage; auto means the GPU when
    // one is usable. A stage asked for on the GPU without one is an error that says why.
    const facet::GpuStatus gpu = facet::probeGpu();
    const std::string base = o.stage == "auto" ? (gpu.usable ? "gpu" : "cpu") : o.stage;
    const bool kernels = base == "kernels", useGl = base == "gl";
    const bool vertexOnGpu = o.vertexStage ? *o.vertexStage == "gpu" : base == "gpu";
    const bool rasterOnGpu = o.rasterStage ? *o.rasterStage == "gpu" : base == "gpu";
    if ((vertexOnGpu || rasterOnGpu) && !gpu.usable) {
        const std::string flag = o.vertexStage && *o.vertexStage == "gpu"   ? "--vertex gpu"
                                 : o.rasterStage && *o.rasterStage == "gpu" ? "--raster gpu"
                                                                            : "--stage gpu";
        throw facet::Error(flag + ": " + gpu.reason);
    }
#if !defined(FACET_HAVE_KERNELS_HOST)
    if (kernels)
        throw facet::Error("--stage kernels: this build has no CPU-run CUDA kernels (the CUDA toolkit's CCCL "
                           "headers were not found when it was configured)");
#endif

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
    const facet::ViewParams view = o.camera.camera(model.mesh, aspect).view(aspect);

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
    if (o.stage == "auto" && !gpu.usable) std::cerr << "note: rendering on the CPU: " << gpu.reason << "\n";
    std::optional<facet::CpuRenderer> cpu;
    std::optional<facet::GpuRenderer> gpuRenderer;
    std::optional<facet::GlReferenceRenderer> gl;
#if defined(FACET_HAVE_KERNELS_HOST)
    std::optional<facet::HostKernelRenderer> hostKernels;
    if (kernels) hostKernels.emplace(o.threads);
#endif
    if (useGl) {
        try {
            gl.emplace();
        } catch (const facet::Error& e) {
            throw facet::Error(std::string("--stage gl: OpenGL is unusable: ") + e.what());
        }
    }
    if (vertexOnGpu || rasterOnGpu) {
        gpuRenderer.emplace();
        gpuRenderer->upload(model);
    }
    if (!useGl && !kernels && !rasterOnGpu) cpu.emplace(o.threads);
    // Camera-space positions handed from one side's vertex stage to the other side's raster.
    std::vector<float> dx, dy, dz;
    if (vertexOnGpu != rasterOnGpu) {
        dx.resize(model.mesh.vertexCount());
        dy.resize(model.mesh.vertexCount());
        dz.resize(model.mesh.vertexCount());
    }
    const facet::CameraSpacePositions handed{dx.data(), dy.data(), dz.data()};
    const std::string pathName = useGl      ? "gl"
                                 : kernels  ? "kernels on the CPU"
                                            : std::string("vertex ") + (vertexOnGpu ? "gpu" : "cpu") + ", raster " +
                                                 (rasterOnGpu ? "gpu" : "cpu");

    // Per-stage milliseconds and fragments (the OpenGL path reports no per-stage statistics).
    struct FrameStats {
        double vertexMs = 0.0, triangleMs = 0.0, rasterMs = 0.0;
        std::size_t fragments = 0;
    };
    const auto fromKernels = [](const facet::KernelFrameStats& k, double vertexMs) {
        return FrameStats{vertexMs + k.vertexMs, k.triangleMs, k.rasterMs, 0};
    };
    const auto renderFrame = [&]() -> FrameStats {
        if (gl) {
            gl->render(model, view, o.settings, target);
            return {};
        }
#if defined(FACET_HAVE_KERNELS_HOST)
        if (hostKernels) return fromKernels(hostKernels->render(model, view, o.settings, target), 0.0);
#endif
        if (vertexOnGpu && rasterOnGpu) return fromKernels(gpuRenderer->renderToHost(view, o.settings, target), 0.0);
        if (rasterOnGpu) { // the CPU's vertex stage, uploaded
            const auto t0 = std::chrono::steady_clock::now();
            facet::transformVertices(model.mesh, view, 0, model.mesh.vertexCount(), dx.data(), dy.data(), dz.data());
            const double ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            return fromKernels(gpuRenderer->renderToHost(view, o.settings, target, handed), ms);
        }
        double handMs = 0.0;
        if (vertexOnGpu) handMs = gpuRenderer->cameraSpaceToHost(view, dx.data(), dy.data(), dz.data());
        const facet::CpuFrameStats c = cpu->render(model, view, o.settings, target,
                                                   vertexOnGpu ? handed : facet::CameraSpacePositions{});
        return FrameStats{handMs + c.vertexMs, c.triangleMs, c.rasterMs, c.fragmentsShaded};
    };

    // One warm-up frame (first touch of the buffers), then the measured ones.
    FrameStats stats = renderFrame();
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
        std::cout << pathName << (cpu ? ", " + std::to_string(cpu->threadCount()) + " threads" : std::string()) << ", "
                  << o.width << "x" << o.height << ", median of "
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
        std::cout << pathName << (cpu ? ", " + std::to_string(stats.fragments) + " fragments" : std::string())
                  << ")\n";
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    return facet::cli::runMain("facet-render", [&] { return run(parseArguments(argc, argv)); });
}
