// facet-bench's GPU cost model (--gpu-model): for each raster case, one frame of the CUDA
// pipeline's kernels run on the CPU with their work counted (bench/kernel_work.h), turned into an
// estimated time per kernel and per frame on each named GPU (bench/gpu_model.h) and printed
// beside the CPU's measured frame. Estimates from a model, never measurements: they go to the
// printed table only, not into the measured records of bench.csv and bench.json.
#pragma once

#include "asset/scene.h"
#include "bench/records.h"
#include "core/frame.h"
#include "core/transform.h"

#include <memory>
#include <string>
#include <vector>

namespace facet::bench {

class GpuEstimator {
public:
    // `gpus`: names the model knows (checked by the options); `threads`: the CPU threads the
    // kernels run on.
    GpuEstimator(std::vector<std::string> gpus, int threads);
    ~GpuEstimator();
    GpuEstimator(const GpuEstimator&) = delete;
    GpuEstimator& operator=(const GpuEstimator&) = delete;

    // One case: a counted frame of `model` through `view` into `target`; `records` are the
    // case's measured records so far (the CPU's frame is shown beside the estimate).
    void estimate(const std::string& name, const Scene& scene, const ViewParams& view, const FrameView& target,
                  const std::vector<Record>& records);

    // The table of every case estimated so far.
    void print() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// --gpu-model list: the model's GPUs and their figures.
void printGpuModels();

} // namespace facet::bench
