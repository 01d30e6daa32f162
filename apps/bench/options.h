// facet-bench's command line: which sections to run, how long, on how many threads, and where
// to write the records.
#pragma once

#include <optional>
#include <string>

namespace facet::bench {

struct Options {
    bool quick = false;
    bool vertex = true, raster = true;
    std::optional<int> frames;
    int threads = 0; // 0: one per hardware thread
    int device = -1; // CUDA device; -1: FACET_DEVICE, else 0
    int msaa = 1;    // samples per pixel of the raster section's frames
    std::optional<std::string> scenes; // the raster section's scenes, comma-separated; all when absent
    std::optional<std::string> out;
    bool help = false;
};

std::string usageText();

// Throws cli::UsageError naming the offending argument.
Options parseArguments(int argc, char** argv);

} // namespace facet::bench
