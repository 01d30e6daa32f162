#include "bench/gpu_estimate.h"

#include "core/error.h"

#if defined(FACET_HAVE_KERNELS_HOST)
#include "bench/counting_kernel_renderer.h"
#include "bench/gpu_model.h"
#include "bench/raster_paths.h"
#endif

#include <cstdio>
#include <iostream>

namespace facet::bench {

#if defined(FACET_HAVE_KERNELS_HOST)

namespace {

std::string pad(const std::string& s, std::size_t width) {
    return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}

std::string usText(double us) { return us < 1000.0 ? formatNumber(us, "%.3g") + " us" : formatMs(us * 1e-3); }

// The CPU path with the most threads measured in this case: what the estimate stands beside.
const Record* cpuRecord(const std::vector<Record>& records, const std::string& scene, int width, int height) {
    const Record* best = nullptr;
    for (const Record& r : records)
        if (r.section == "raster" && r.caseName == scene && r.width == width && r.height == height && r.present &&
            r.path.rfind("cpu_", 0) == 0)
            best = &r;
    return best;
}

} // namespace

struct EstimatedCase {
    std::string title;
    std::vector<KernelWorkItem> kernels;
};

struct GpuEstimator::Impl {
    std::vector<const GpuSpec*> gpus;
    CountingKernelRenderer kernels;
    std::vector<EstimatedCase> cases;

    Impl(const std::vector<std::string>& names, int threads) : kernels(threads) {
        for (const std::string& n : names) gpus.push_back(&findGpuSpec(n));
    }

    void printCase(const EstimatedCase& c) const {
        std::cout << "\n" << c.title << "\n"
                  << pad("kernel", 15) << pad("launches", 9) << pad("threads", 10) << pad("MB", 8) << pad("FP32 Gop", 9)
                  << pad("FP64 Gop", 9) << pad("int Gop", 8) << pad("CPU ms", 8);
        for (const GpuSpec* g : gpus) std::cout << pad(g->name, 20);
        std::cout << "\n";
        std::vector<double> frameUs(gpus.size(), 0.0);
        double cpuMs = 0.0;
        for (const KernelWorkItem& k : c.kernels) {
            const KernelWork& w = k.work;
            std::cout << pad(w.name, 15) << pad(std::to_string(w.launches), 9) << pad(std::to_string(w.threads), 10)
                      << pad(formatNumber(w.bytes * 1e-6), 8) << pad(formatNumber(w.fp32Ops * 1e-9), 9)
                      << pad(formatNumber(w.fp64Ops * 1e-9), 9) << pad(formatNumber(w.intOps * 1e-9), 8)
                      << pad(formatNumber(k.cpuMs), 8);
            cpuMs += k.cpuMs;
            for (std::size_t g = 0; g < gpus.size(); ++g) {
                const KernelEstimate e = estimateKernel(*gpus[g], w);
                frameUs[g] += e.totalUs;
                std::cout << pad(usText(e.totalUs) + " " + e.bound, 20);
            }
            std::cout << "\n";
        }
        std::cout << pad("frame", 67) << pad(formatNumber(cpuMs), 8);
        for (const double us : frameUs) std::cout << pad(usText(us), 20);
        std::cout << "\n";
        for (const KernelWorkItem& k : c.kernels)
            if (k.work.name == "rasterQuad") std::cout << "rasterQuad: " << k.work.formula << "\n";
    }
};

GpuEstimator::GpuEstimator(std::vector<std::string> gpus, int threads)
    : impl_(std::make_unique<Impl>(gpus, threads)) {}

void GpuEstimator::estimate(const std::string& name, const Scene& scene, const ViewParams& view,
                            const FrameView& target, const std::vector<Record>& records) {
    const FramePlan plan = planFrame(benchSettings(), sceneFacts(scene), view, target.width, target.height);
    impl_->kernels.setScene(scene);
    impl_->kernels.render(view, plan, target); // warm-up: buffers grown, caches filled
    const KernelFrameStats stats = impl_->kernels.render(view, plan, target);
    std::string title = name + " " + std::to_string(target.width) + "x" + std::to_string(target.height) + " (" +
                        std::to_string(stats.trianglesIn) + " triangles, " + std::to_string(stats.binEntries) +
                        " bin entries): ";
    if (const Record* cpu = cpuRecord(records, name, target.width, target.height))
        title += cpu->label + " " + formatMs(cpu->time.medianMs) + " measured; ";
    title += "kernels run on the CPU " + formatMs(stats.vertexMs + stats.triangleMs + stats.rasterMs) + " measured";
    impl_->cases.push_back({title, impl_->kernels.lastWork()});
}

void GpuEstimator::print() const {
    std::cout << "\nGPU cost model: the CUDA kernels' frame ESTIMATED by a roofline model (not measured; no GPU "
                 "ran):\nper kernel max(bytes / bandwidth, ops / peak rate) + "
              << kLaunchOverheadUs << " us a launch + " << kHostRoundTripUs
              << " us a host round trip, and the term that bounds it\n";
    for (const EstimatedCase& c : impl_->cases) impl_->printCase(c);
}

void printGpuModels() {
    std::cout << pad("name", 9) << pad("GPU", 24) << pad("GB/s", 8) << pad("FP32 TF", 8) << pad("FP64 TF", 8)
              << pad("SMs", 5) << "boost GHz\n";
    for (const GpuSpec& g : gpuSpecs())
        std::cout << pad(g.name, 9) << pad(g.description, 24) << pad(formatNumber(g.bandwidthGBs), 8)
                  << pad(formatNumber(g.fp32Tflops), 8) << pad(formatNumber(g.fp64Tflops), 8)
                  << pad(std::to_string(g.sms), 5) << formatNumber(g.boostGHz) << "\n";
}

#else

struct GpuEstimator::Impl {};

GpuEstimator::GpuEstimator(std::vector<std::string>, int) {
    throw Error("facet-bench: the GPU cost model needs the CUDA kernels' host executor, which this build lacks");
}

void GpuEstimator::estimate(const std::string&, const Model&, const ViewParams&, const FrameView&,
                            const std::vector<Record>&) {}
void GpuEstimator::print() const {}
void printGpuModels() {}

#endif

GpuEstimator::~GpuEstimator() = default;

} // namespace facet::bench
