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
    int msaa = 1;        // samples per pixel of the measured frames
    bool paired = false; // --msaa-cost: each measured frame follows one of 1 sample per pixel
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
    plan.msaa = o.msaaCost > 0 ? o.msaaCost : o.msaa;
    plan.paired = o.msaaCost > 0;
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

Record rasterRecord(Record r, Size size, int samples) {
    r.width = size.width;
    r.height = size.height;
    r.item = "triangle";
    r.samples = samples;
    if (r.present && r.time.medianMs > 0.0)
        r.pixelsPerS = double(size.width) * double(size.height) / (r.time.medianMs * 1e-3);
    return r;
}

// A path's measured frames, and with the plan paired, the 1-sample frames before them and
// the median of each pair's ratio.
struct PathFrames {
    Timing frames, single;
    std::optional<double> cost;
};

// The frames of one path, after the warm-up, each timed whole. Paired, a 1-sample frame goes
// before each: a pair is taken within a few frames' time, so a change in the machine's load
// (2 cores, shared) falls on both its frames alike, where two runs one after the other can
// differ by half.
PathFrames timeFrames(const FrameCase& c, RasterPaths& paths, const RasterPath& path) {
    const RasterPlan& plan = c.plan;
    const auto frameMs = [&](int msaa) { return paths.renderFrame(path, c.view, c.target, msaa).frameMs; };
    for (int i = 0; i < plan.warmup; ++i) {
        if (plan.paired) frameMs(1);
        frameMs(plan.msaa);
    }
    std::vector<double> ms, single, ratios;
    for (int i = 0; i < plan.frames; ++i) {
        if (plan.paired) single.push_back(frameMs(1));
        ms.push_back(frameMs(plan.msaa));
        if (plan.paired && single.back() > 0.0) ratios.push_back(ms.back() / single.back());
    }
    PathFrames f{summarise(ms), summarise(single), std::nullopt};
    if (!ratios.empty()) f.cost = median(ratios);
    return f;
}

// A path's record of one case: measured, or absent with the reason. A failing CPU frame is
// not a path that cannot run here but a fault, so it stops the bench.
Record measurePath(const FrameCase& c, RasterPaths& paths, const RasterPath& path) {
    const std::string id = pathId(path), label = pathLabel(path);
    const int samples = c.plan.msaa;
    if (const std::string why = paths.whyAbsent(path); !why.empty())
        return rasterRecord(absent("raster", c.scene, id, label, c.triangles, why), c.size, samples);
    std::string note = std::to_string(c.plan.frames) + " frames after " + std::to_string(c.plan.warmup) + " warm-up";
    if (const std::string how = paths.howMeasured(path); !how.empty()) note += ", " + how;
    try {
        const PathFrames f = timeFrames(c, paths, path);
        if (c.plan.paired)
            note += ", each after a frame of 1 sample per pixel (their median " + formatMs(f.single.medianMs) + ")";
        Record r = rasterRecord(measured("raster", c.scene, id, label, c.triangles, f.frames, note), c.size, samples);
        r.msaaCost = f.cost;
        return r;
    } catch (const std::exception& e) {
        if (path.kind == RasterPathKind::Cpu) throw;
        return rasterRecord(absent("raster", c.scene, id, label, c.triangles, e.what()), c.size, samples);
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
              << (plan.msaa > 1 ? ", " + std::to_string(plan.msaa) + " samples per pixel" : std::string())
              << (plan.paired ? ", each after one of 1 sample per pixel" : "") << "\n"
              << std::flush;
    RasterPaths paths(o.threads > 0 ? o.threads : machine.hardwareThreads, machine.gpuDevice);
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
