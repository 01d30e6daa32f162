#include "bench/options.h"

#include "cli.h"

#include <sstream>

namespace facet::bench {

namespace {

constexpr const char* kUsage = R"(usage: facet-bench [options]

Measures the vertex stage (NumPy, CPU, GPU with data resident or copied every call, three
kernels or one fused) over 10^3..10^7 vertices, and whole frames of the default scene and of
generated scenes (10k..4M tiny triangles, a few hundred large quads) at 1280x720 and 1920x1080
on the CPU (1..N threads), the GPU and OpenGL. Paths that cannot run here are reported with
the reason. Prints a table; --out also writes bench.csv and bench.json (plot them with
scripts/plot_bench.py).

  --quick            a tiny configuration (seconds): sweep 10^3..10^4, few calls, the default
                     scene at 160x90, 3 frames
  --sections LIST    vertex,raster (default both)
  --frames K         measured frames per raster case (default 10; 3 with --quick)
  --threads N        CPU threads at most (default: one per hardware thread)
  --device N         CUDA device (default: FACET_DEVICE, else 0)
  --msaa N           samples per pixel of the raster frames: 1 (default), 2, 4 or 8
  --scenes LIST      the raster section's scenes, e.g. default,quads_200 (default all)
  --out DIR          write DIR/bench.csv and DIR/bench.json
  -h, --help         this text
)";

void parseSections(const std::string& list, Options& o) {
    const std::string expected = "--sections expects a list of vertex and raster, got '" + list + "'";
    o.vertex = o.raster = false;
    std::stringstream in(list);
    for (std::string part; std::getline(in, part, ',');) {
        if (part == "vertex") o.vertex = true;
        else if (part == "raster") o.raster = true;
        else throw cli::UsageError(expected);
    }
    if (!o.vertex && !o.raster) throw cli::UsageError(expected);
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
        } else if (arg == "--quick") {
            o.quick = true;
        } else if (arg == "--sections") {
            parseSections(args.value(), o);
        } else if (arg == "--frames") {
            o.frames = static_cast<int>(parseInteger(arg, args.value(), 1, 10000));
        } else if (arg == "--threads") {
            o.threads = static_cast<int>(parseInteger(arg, args.value(), 1, 1024));
        } else if (arg == "--device") {
            o.device = static_cast<int>(parseInteger(arg, args.value(), 0, 1023));
        } else if (arg == "--scenes") {
            o.scenes = args.value();
        } else if (arg == "--msaa") {
            o.msaa = parseSampleCount(arg, args.value());
        } else if (arg == "--out") {
            o.out = args.value();
            if (o.out->empty()) throw UsageError("--out expects a directory, got ''");
        } else {
            throw UsageError(arg.rfind('-', 0) == 0 ? "unknown option " + arg + " (see --help)"
                                                    : "unexpected argument '" + arg + "' (see --help)");
        }
    }
    return o;
}

} // namespace facet::bench
