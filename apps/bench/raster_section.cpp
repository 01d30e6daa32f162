#include "bench/raster_section.h"

#include "bench/raster_paths.h"
#include "bench/scenes.h"
#include "cli.h"
#include "core/error.h"
#include "core/line_aligned.h"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace facet::bench {

namespace {

struct Size {
    int width, height;
};

struct RasterPlan {
    std::vector<SceneSpec> scenes;
    std::vector<Size> sizes;
    int warmup = 2;
    int frames = 10;
};

// The full run's scenes.
std::vector<SceneSpec> allScenes() {
    return {{"default", SceneKind::DefaultObj, 0},     {"grid_10k", SceneKind::Grid, 10000},
            {"grid_100k", SceneKind::Grid, 100000},    {"grid_1m", SceneKind::Grid, 1000000},
            {"grid_4m", SceneKind::Grid, 4000000},     {"quads_200", SceneKind::Quads, 200},
            {"plaza_close", SceneKind::PlazaClose, 0}, {"textured_sheet", SceneKind::TexturedSheet, 0}};
}

// The scenes --scenes names, in the order given; a name no scene has is refused with the names.
std::vector<SceneSpec> chosenScenes(const std::vector<std::string>& names) {
    const std::vector<SceneSpec> all = allScenes();
    std::vector<SceneSpec> chosen;
    for (const std::string& n : names) {
        const auto at = std::find_if(all.begin(), all.end(), [&](const SceneSpec& s) { return s.name == n; });
        if (at == all.end()) {
            std::string known;
            for (const SceneSpec& s : all) known += (known.empty() ? "" : ", ") + s.name;
            throw cli::UsageError("--scenes expects names among " + known + ", got '" + n + "'");
        }
        chosen.push_back(*at);
    }
    return chosen;
}

RasterPlan rasterPlan(const Options& o) {
    RasterPlan plan;
    if (o.quick) {
        plan.scenes = {{"default", SceneKind::DefaultObj, 0},
                       {"plaza_close", SceneKind::PlazaClose, 0},
                       {"textured_sheet", SceneKind::TexturedSheet, 0}};
        plan.sizes = {{160, 90}};
        plan.warmup = 1;
        plan.frames = 3;
    } else {
        plan.scenes = allScenes();
        plan.sizes = {{1280, 720}, {1920, 1080}};
    }
    if (o.frames) plan.frames = *o.frames;
    if (!o.scenes.empty()) plan.scenes = chosenScenes(o.scenes);
    return plan;
}

// One scene at one size: what every path's record shares.
struct FrameCase {
    const RasterPlan& plan;
    const std::string& scene;
    std::uint64_t triangles;
    Size size;
    ViewParams view;
    FrameView target;
};

std::string pathId(const RasterPath& path) {
    switch (path.kind) {
    case RasterPathKind::Cpu: return "cpu_" + std::to_string(path.threads) + "t";
    case RasterPathKind::Gpu: return "gpu";
    case RasterPathKind::OpenGl: return "gl";
    }
    return {};
}

std::string pathLabel(const RasterPath& path) {
    switch (path.kind) {
    case RasterPathKind::Cpu: return "facet CPU, " + pluralThreads(path.threads);
    case RasterPathKind::Gpu: return "facet GPU";
    case RasterPathKind::OpenGl: return "OpenGL";
    }
    return {};
}

Record rasterRecord(Record r, Size size) {
    r.width = size.width;
    r.height = size.height;
    r.item = "triangle";
    if (r.present && r.time.medianMs > 0.0)
        r.pixelsPerS = double(size.width) * double(size.height) / (r.time.medianMs * 1e-3);
    return r;
}

// The frames of one path, after the warm-up, each timed whole.
Timing timeFrames(const FrameCase& c, RasterPaths& paths, const RasterPath& path) {
    for (int i = 0; i < c.plan.warmup; ++i) paths.renderFrame(path, c.view, c.target);
    std::vector<double> ms;
    for (int i = 0; i < c.plan.frames; ++i) ms.push_back(paths.renderFrame(path, c.view, c.target).frameMs);
    return summarise(ms);
}

// A path's record of one case: measured, or absent with the reason. A failing CPU frame is
// not a path that cannot run here but a fault, so it stops the bench.
Record measurePath(const FrameCase& c, RasterPaths& paths, const RasterPath& path) {
    const std::string id = pathId(path), label = pathLabel(path);
    if (const std::string why = paths.whyAbsent(path); !why.empty())
        return rasterRecord(absent("raster", c.scene, id, label, c.triangles, why), c.size);
    std::string note = std::to_string(c.plan.frames) + " frames after " + std::to_string(c.plan.warmup) + " warm-up";
    if (const std::string how = paths.howMeasured(path); !how.empty()) note += ", " + how;
    try {
        return rasterRecord(measured("raster", c.scene, id, label, c.triangles, timeFrames(c, paths, path), note),
                            c.size);
    } catch (const std::exception& e) {
        if (path.kind == RasterPathKind::Cpu) throw;
        return rasterRecord(absent("raster", c.scene, id, label, c.triangles, e.what()), c.size);
    }
}

// Every path's record of one scene at one size, with the frame time's ratio to OpenGL's.
void measureCase(const FrameCase& c, RasterPaths& paths, std::vector<Record>& records) {
    const std::size_t first = records.size();
    std::optional<double> glMs;
    for (const RasterPath& path : paths.paths()) {
        if (cli::stopSignal()) break; // interrupted: keep what was measured (bench/main.cpp)
        records.push_back(measurePath(c, paths, path));
        if (path.kind == RasterPathKind::OpenGl && records.back().present) glMs = records.back().time.medianMs;
    }
    for (std::size_t i = first; i < records.size(); ++i)
        if (records[i].present && glMs && *glMs > 0.0) records[i].ratioToGl = records[i].time.medianMs / *glMs;
}

} // namespace

void runRasterSection(const Options& o, const Machine& machine, std::vector<Record>& records,
                      GpuEstimator* estimator) {
    const RasterPlan plan = rasterPlan(o);
    std::cout << "raster: whole frames, " << plan.warmup << " warm-up + " << plan.frames << " measured each"
              << (o.msaa > 1 ? ", " + std::to_string(o.msaa) + " samples per pixel" : std::string()) << "\n"
              << std::flush;
    RasterPaths paths(o.threads > 0 ? o.threads : machine.hardwareThreads, machine.gpuDevice, o.msaa);
    for (const SceneSpec& spec : plan.scenes) {
        if (cli::stopSignal()) return; // no scene is made and loaded after the signal
        std::cout << "  scene " << spec.name << "\n" << std::flush;
        const Model model = makeScene(spec);
        paths.setScene(model);
        for (const Size size : plan.sizes) {
            if (cli::stopSignal()) return;
            const float aspect = float(size.width) / float(size.height);
            LineAlignedVector<std::uint32_t> color(std::size_t(size.width) * std::size_t(size.height));
            LineAlignedVector<float> depth(color.size());
            const FrameCase c{plan,
                              spec.name,
                              model.mesh.triangleCount(),
                              size,
                              sceneView(spec, model, aspect),
                              {color.data(), depth.data(), size.width, size.height}};
            measureCase(c, paths, records);
            if (estimator) estimator->estimate(spec.name, model, c.view, c.target, records);
        }
    }
}

} // namespace facet::bench
