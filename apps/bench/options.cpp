#include "bench/options.h"

#include "cli.h"
#include "core/error.h"
#include "core/multisample.h"

#if defined(FACET_HAVE_KERNELS_HOST)
#include "bench/gpu_model.h"
#endif

#include <initializer_list>
#include <sstream>
#include <utility>

namespace facet::bench {

namespace {

constexpr const char* kUsage = R"(usage: facet-bench [options]

Measures the vertex stage (NumPy, CPU, GPU with data resident or copied every call, three
kernels or one fused) over 10^3..10^7 vertices, and whole frames of the default scene and of
generated scenes (10k..4M tiny triangles, a few hundred large quads), two fill-bound ones (a
close view over the default scene's textured plaza; a textured sheet of 12k triangles of 20 to
100 pixels, trilinear) and instancing's pair (1,000 instances of a 10k-triangle sphere; the
same 10M triangles merged into one mesh) at 1280x720 and 1920x1080 on the CPU (1..N threads), the GPU and
OpenGL. Paths that cannot run here are reported with the reason. Prints a table; --out also
writes bench.csv and bench.json (plot them with scripts/plot_bench.py).

  --quick            a tiny configuration (seconds): sweep 10^3..10^4, few calls, the default
                     scene, the plaza view and the textured sheet at 160x90, 3 frames
  --sections LIST    vertex,raster,load (default all): load times loading OBJ (1 thread and
                     all), binary PLY and binary STL (on 2 threads from 32k facets) files of
                     100k, 1M and 4M triangles (10k with --quick), in MB of file a second
  --scenes LIST      only these raster scenes (comma-separated: default, grid_10k, grid_100k,
                     grid_1m, grid_4m, quads_200, plaza_close, textured_sheet, instances_1k,
                     instances_1k_merged; default all)
  --frames K         measured frames per raster case (default 10; 3 with --quick), taken in
                     rounds: each path one frame a round, so the load falls on every path alike
  --paths LIST       only these raster paths (comma-separated: cpu, gpu, gl; default all):
                     for an A/B of facet's own frames (scripts/bench_ab.py), `--paths cpu`
                     spends no time on OpenGL; without gl the rows have no ratio to it
  --threads N        CPU threads at most (default: one per hardware thread)
  --device N         CUDA device (default: FACET_DEVICE, else 0)
  --msaa N           samples per pixel of the raster frames: 1 (default), 2, 4 or 8
  --msaa-cost N      what N samples per pixel (2, 4 or 8) cost: each path's frames are taken
                     in pairs, one at 1 sample and one at N, alternating, so that the machine's
                     load falls on both alike; rows show the N-sample frames and the median of
                     the pairs' ratios (N-sample frame / 1-sample frame)
  --outputs-cost     what the outputs for vision users cost (metric depth, instance ids and
                     normals, core/outputs.h): frames with them in pairs with frames without,
                     alternating; rows show the frames with them and the median of the pairs'
                     ratios (with / without)
  --out DIR          write DIR/bench.csv and DIR/bench.json
  --gpu-model LIST   also estimate each raster case's frame of the CUDA kernels on these GPUs
                     (comma-separated names; 'list' lists them with their figures): the kernels
                     run once on the CPU counting their work, and a roofline model turns it into
                     a time per kernel. An estimate from a model, not a measurement.
  -h, --help         this text
  --version          print facet's version
)";

// A comma-separated list of names, each setting its flag (all cleared first); an unknown name,
// or a list naming none, is refused with `expected`.
void parseNames(const std::string& list, std::initializer_list<std::pair<const char*, bool*>> names,
                const std::string& expected) {
    for (const auto& [name, flag] : names) *flag = false;
    bool any = false;
    std::stringstream in(list);
    for (std::string part; std::getline(in, part, ',');) {
        bool known = false;
        for (const auto& [name, flag] : names)
            if (part == name) *flag = known = true;
        if (!known) throw cli::UsageError(expected);
        any = true;
    }
    if (!any) throw cli::UsageError(expected);
}

void parseSections(const std::string& list, Options& o) {
    parseNames(list, {{"vertex", &o.vertex}, {"raster", &o.raster}, {"load", &o.load}},
               "--sections expects a list of vertex, raster and load, got '" + list + "'");
}

void parsePaths(const std::string& list, Options& o) {
    parseNames(list, {{"cpu", &o.paths.cpu}, {"gpu", &o.paths.gpu}, {"gl", &o.paths.gl}},
               "--paths expects a list of cpu, gpu and gl, got '" + list + "'");
}

// Each name of a comma-separated list a GPU the model knows (or the list is 'list').
void parseGpuModels(const std::string& list, Options& o) {
#if defined(FACET_HAVE_KERNELS_HOST)
    if (list == "list") {
        o.listGpuModels = true;
        return;
    }
    std::stringstream in(list);
    for (std::string name; std::getline(in, name, ',');) {
        try {
            findGpuSpec(name);
        } catch (const Error& e) {
            throw cli::UsageError("--gpu-model: " + std::string(e.what()));
        }
        o.gpuModels.push_back(name);
    }
    if (o.gpuModels.empty()) throw cli::UsageError("--gpu-model expects GPU names (" + gpuModelNames() + ") or 'list'");
#else
    (void)o;
    throw cli::UsageError("--gpu-model " + list +
                          ": this facet-bench was built without the CUDA kernels' host executor (no CCCL headers)");
#endif
}

} // namespace

std::string usageText() { return kUsage; }

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
        } else if (arg == "--quick") {
            o.quick = true;
        } else if (arg == "--sections") {
            parseSections(args.value(), o);
        } else if (arg == "--paths") {
            parsePaths(args.value(), o);
        } else if (arg == "--frames") {
            o.frames = static_cast<int>(parseInteger(arg, args.value(), 1, 10000));
        } else if (arg == "--threads") {
            o.threads = static_cast<int>(parseInteger(arg, args.value(), 1, 1024));
        } else if (arg == "--device") {
            o.device = static_cast<int>(parseInteger(arg, args.value(), 0, 1023));
        } else if (arg == "--scenes") {
            std::stringstream in(args.value());
            for (std::string name; std::getline(in, name, ',');) o.scenes.push_back(name);
        } else if (arg == "--gpu-model") {
            parseGpuModels(args.value(), o);
        } else if (arg == "--msaa") {
            o.msaa = parseSampleCount(arg, args.value());
        } else if (arg == "--msaa-cost") {
            const std::string text = args.value();
            o.msaaCost = static_cast<int>(parseInteger(arg, text, -1000000, 1000000)); // any whole number: refused by name
            if (o.msaaCost == 1 || !validSampleCount(o.msaaCost))
                throw UsageError("--msaa-cost compares N samples per pixel with 1: N is 2, 4 or 8, got " + text);
        } else if (arg == "--outputs-cost") {
            o.outputsCost = true;
        } else if (arg == "--out") {
            o.out = args.value();
            if (o.out->empty()) throw UsageError("--out expects a directory, got ''");
        } else {
            throw UsageError(arg.rfind('-', 0) == 0 ? "unknown option " + arg + " (see --help)"
                                                    : "unexpected argument '" + arg + "' (see --help)");
        }
    }
    // The cost model counts the one-sample raster kernel's work only.
    if (!o.gpuModels.empty() && o.msaa > 1)
        throw UsageError("--gpu-model estimates frames of one sample per pixel: use it without --msaa");
    if (o.msaaCost > 0 && o.msaa > 1)
        throw UsageError("--msaa-cost sets the frames' samples per pixel itself (1 and N): use it without --msaa");
    if (o.outputsCost && o.msaaCost > 0)
        throw UsageError("--outputs-cost and --msaa-cost each pair the frames: use one at a time");
    if (!o.gpuModels.empty() && o.msaaCost > 0)
        throw UsageError("--gpu-model estimates frames of one sample per pixel: use it without --msaa-cost");
    return o;
}

} // namespace facet::bench
