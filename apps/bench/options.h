// facet-bench's command line: which sections to run, how long, on how many threads, and where
// to write the records.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace facet::bench {

// The kinds of raster path to make (--paths; RasterPaths): the others are not paths at all.
struct RasterPathsWanted {
    bool cpu = true, gpu = true, gl = true;
};

struct Options {
    bool quick = false;
    bool vertex = true, raster = true, load = true;
    std::optional<int> frames;
    int threads = 0; // 0: one per hardware thread
    int device = -1; // CUDA device; -1: FACET_DEVICE, else 0
    int msaa = 1;     // samples per pixel of the raster section's frames
    int msaaCost = 0; // --msaa-cost: N-sample frames paired with 1-sample ones (0: not asked)
    bool outputsCost = false; // --outputs-cost: frames with the outputs for vision users paired with frames without
    std::optional<std::string> out;
    std::vector<std::string> scenes;    // --scenes: only these raster scenes (empty: the plan's)
    RasterPathsWanted paths;            // --paths: the raster section's paths to run
    std::vector<std::string> gpuModels; // --gpu-model: GPUs to estimate the CUDA kernels' frame on
    bool listGpuModels = false;         // --gpu-model list
    bool help = false;
    bool version = false;
};

std::string usageText();

// Throws cli::UsageError naming the offending argument.
Options parseArguments(int argc, char** argv);

} // namespace facet::bench
