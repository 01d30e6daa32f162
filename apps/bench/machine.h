// The machine facet-bench runs on: the CPU and its vector width, the hardware threads, the
// GPU and OpenGL, each usable or with the reason it is not.
#pragma once

#include "bench/raster_paths.h"
#include "cuda/device.h"

#include <string>

namespace facet::bench {

struct Machine {
    std::string cpu;
    int hardwareThreads = 1;
    int gpuDevice = -1; // as asked for: -1 is FACET_DEVICE, else 0
    GpuStatus gpu;
    OpenGlStatus gl;
};

Machine probeMachine(int gpuDevice);

// "NAME (compute X.Y)", or "none: why".
std::string gpuText(const GpuStatus& gpu);

} // namespace facet::bench
