// facet-bench's raster section: whole frames of the default scene and of generated scenes, at
// each size, on every raster path (see bench/raster_paths.h), with each frame time's ratio to
// OpenGL's.
#pragma once

#include "bench/gpu_estimate.h"
#include "bench/machine.h"
#include "bench/options.h"
#include "bench/records.h"

#include <vector>

namespace facet::bench {

// With `estimator` (--gpu-model), each case is also estimated on the model's GPUs.
void runRasterSection(const Options& o, const Machine& machine, std::vector<Record>& records,
                      GpuEstimator* estimator = nullptr);

} // namespace facet::bench
