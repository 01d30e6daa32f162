#include "bench/raster_section.h"

#include "bench/raster_paths.h"
#include "bench/scenes.h"
#include "cli.h"
#include "core/error.h"
#include "host/line_aligned.h"

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
    bool outputs = false; // --outputs-cost: the measured frames ask for the outputs for vision users
    bool paired = false; // --msaa-cost, --outputs-cost: each measured frame follows one of 1 sample, without outputs
};

// The full run's scenes.
std::vector<SceneSpec> allScenes() {
    return {{"default", SceneKind::DefaultObj, 0},     {"grid_10k", SceneKind::Grid, 10000},
            {"grid_100k", SceneKind::Grid, 100000},    {"grid_1m", SceneKind::Grid, 1000000},
            {"grid_4m", SceneKind::Grid, 4000000},     {"quads_200", SceneKind::Quads, 200},
            {"plaza_close", SceneKind::PlazaClose, 0}, {"textured_sheet", SceneKind::TexturedSheet, 0},
            {"instances_1k", SceneKind::Instances, 1000}, {"instances_1k_merged", SceneKind::Merged, 1000}};
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
    plan.outputs = o.outputsCost;
    plan.paired = o.msaaCost > 0 || o.outputsCost;
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
    FrameOutputs outputs; // the measured frames' with --outputs-cost
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

// One path's frames in a case: its measured frame times and, with the plan paired, the
// 1-sample frames before them and each pair's ratio; or why it stopped.
struct PathRun {
    RasterPath path;
    std::string absentWhy; // why the path cannot run here, or the error of a frame that failed
    std::vector<double> ms, single, ratios;
};

// The path's frame of one round (after a 1-sample frame when the plan is paired), kept when
// `keep` (not a warm-up). A failing CPU frame is not a path that cannot run here but a fault,
// so it stops the bench; another path's failure ends its frames, with the error as the reason.
void takeFrame(const FrameCase& c, RasterPaths& paths, PathRun& run, bool keep) {
    const RasterPlan& plan = c.plan;
    const auto frameMs = [&](int msaa, const FrameOutputs& outputs) {
        return paths.renderFrame(run.path, c.view, c.target, msaa, outputs).frameMs;
    };
    try {
        const double single = plan.paired ? frameMs(1, {}) : 0.0;
        const double ms = frameMs(plan.msaa, plan.outputs ? c.outputs : FrameOutputs{});
        if (!keep) return;
        run.ms.push_back(ms);
        if (!plan.paired) return;
        run.single.push_back(single);
        if (single > 0.0) run.ratios.push_back(ms / single);
    } catch (const std::exception& e) {
        if (run.path.kind == RasterPathKind::Cpu) throw;
        run.absentWhy = e.what();
    }
}

// The frames of every path that can run, in rounds: each path draws one frame a round, in the
// table's order, after the warm-up rounds. A change in the machine's load (2 cores, shared)
// then falls on every path alike, where paths measured one after the other could differ by
// half; so the ratio to OpenGL compares frames taken side by side. A stop signal ends the
// rounds (what was measured is kept, bench/main.cpp).
void takeRounds(const FrameCase& c, RasterPaths& paths, std::vector<PathRun>& runs) {
    for (int round = -c.plan.warmup; round < c.plan.frames; ++round) {
        if (cli::stopSignal()) return;
        for (PathRun& run : runs)
            if (run.absentWhy.empty()) takeFrame(c, paths, run, round >= 0);
    }
}

// A path's record of one case: measured, or absent with the reason.
Record pathRecord(const FrameCase& c, RasterPaths& paths, const PathRun& run) {
    const std::string id = pathId(run.path), label = pathLabel(run.path);
    const int samples = c.plan.msaa;
    if (!run.absentWhy.empty())
        return rasterRecord(absent("raster", c.scene, id, label, c.triangles, run.absentWhy), c.size, samples);
    std::string note = std::to_string(run.ms.size()) + " frames after " + std::to_string(c.plan.warmup) +
                       " warm-up, in rounds with the other paths";
    if (const std::string how = paths.howMeasured(run.path); !how.empty()) note += ", " + how;
    if (c.plan.paired)
        note += std::string(c.plan.outputs ? ", with the outputs for vision users, each after a frame without"
                                           : ", each after a frame of 1 sample per pixel") +
                " (their median " + formatMs(summarise(run.single).medianMs) + ")";
    Record r =
        rasterRecord(measured("raster", c.scene, id, label, c.triangles, summarise(run.ms), note), c.size, samples);
    if (!run.ratios.empty()) (c.plan.outputs ? r.outputsCost : r.msaaCost) = median(run.ratios);
    return r;
}

// Every path's record of one scene at one size, with the frame time's ratio to OpenGL's. A
// path interrupted before its first measured frame has no record.
void measureCase(const FrameCase& c, RasterPaths& paths, std::vector<Record>& records) {
    std::vector<PathRun> runs;
    for (const RasterPath& path : paths.paths()) runs.push_back(PathRun{path, paths.whyAbsent(path), {}, {}, {}});
    takeRounds(c, paths, runs);
    const std::size_t first = records.size();
    std::optional<double> glMs;
    for (const PathRun& run : runs) {
        if (run.absentWhy.empty() && run.ms.empty()) continue;
        records.push_back(pathRecord(c, paths, run));
        if (run.path.kind == RasterPathKind::OpenGl && records.back().present) glMs = records.back().time.medianMs;
    }
    for (std::size_t i = first; i < records.size(); ++i)
        if (records[i].present && glMs && *glMs > 0.0) records[i].ratioToGl = records[i].time.medianMs / *glMs;
}

} // namespace

void runRasterSection(const Options& o, const Machine& machine, std::vector<Record>& records,
                      GpuEstimator* estimator) {
    const RasterPlan plan = rasterPlan(o);
    std::cout << "raster: whole frames, " << nameOf(benchSettings().shading) << " shading, " << plan.warmup << " warm-up + " << plan.frames << " measured each"
              << (plan.msaa > 1 ? ", " + std::to_string(plan.msaa) + " samples per pixel" : std::string())
              << (plan.outputs ? ", with metric depth, instance ids and normals, each after one without"
                  : plan.paired ? ", each after one of 1 sample per pixel" : "")
              << ", the paths in rounds\n"
              << std::flush;
    RasterPaths paths(o.threads > 0 ? o.threads : machine.hardwareThreads, machine.gpuDevice, o.paths);
    for (const SceneSpec& spec : plan.scenes) {
        if (cli::stopSignal()) return; // no scene is made and loaded after the signal
        std::cout << "  scene " << spec.name << "\n" << std::flush;
        const Scene scene = makeScene(spec);
        paths.setScene(scene);
        for (const Size size : plan.sizes) {
            if (cli::stopSignal()) return;
            const float aspect = float(size.width) / float(size.height);
            LineAlignedVector<std::uint32_t> color(std::size_t(size.width) * std::size_t(size.height));
            LineAlignedVector<float> depth(color.size());
            LineAlignedVector<float> metric(plan.outputs ? color.size() : 0), normal(3 * metric.size());
            LineAlignedVector<std::uint32_t> instance(metric.size());
            const FrameCase c{plan,
                              spec.name,
                              scene.triangleCount(),
                              size,
                              sceneView(spec, scene, aspect),
                              {color.data(), depth.data(), size.width, size.height},
                              plan.outputs ? FrameOutputs{metric.data(), instance.data(), normal.data()} : FrameOutputs{}};
            measureCase(c, paths, records);
            if (estimator) estimator->estimate(spec.name, scene, c.view, c.target, records);
        }
    }
}

} // namespace facet::bench
