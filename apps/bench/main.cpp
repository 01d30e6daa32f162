// facet-bench: "why was my GPU renderer slower than my CPU one", answered with measurements.
// The vertex stage (the seed's math) on NumPy, the CPU and the GPU, the GPU both with its data
// resident and copied over the bus on every call, three kernels and one fused; then whole
// frames of the default scene and of generated scenes on the CPU (1..N threads), the GPU and
// OpenGL. Paths that cannot run here (no GPU, no numpy, no OpenGL) are rows that say why.
#include "bench/load_section.h"
#include "bench/machine.h"
#include "bench/options.h"
#include "bench/output.h"
#include "bench/raster_section.h"
#include "bench/vertex_section.h"
#include "app_info.h"
#include "cli.h"

#include <csignal>
#include <iostream>
#include <memory>
#include <vector>

namespace {

int run(const facet::bench::Options& o) {
    using namespace facet::bench;
    if (o.help) {
        std::cout << usageText();
        return 0;
    }
    if (o.version) {
        std::cout << facet::app::versionLine("facet-bench") << "\n";
        return 0;
    }
    if (o.listGpuModels) {
        printGpuModels();
        return 0;
    }
    // SIGINT or SIGTERM stops the measuring between cases; what was measured is still shown
    // and written (bench.json says "interrupted"), and the exit code says it was cut short.
    facet::cli::installStopSignals();
    const Machine machine = probeMachine(o.device);
    printHeader(machine, o);
    std::vector<Record> records;
    std::unique_ptr<GpuEstimator> estimator;
    if (o.raster && !o.gpuModels.empty())
        estimator = std::make_unique<GpuEstimator>(o.gpuModels, o.threads > 0 ? o.threads : machine.hardwareThreads);
    if (o.vertex) runVertexSection(o, machine, records);
    if (o.raster && !facet::cli::stopSignal()) runRasterSection(o, machine, records, estimator.get());
    if (o.load && !facet::cli::stopSignal()) runLoadSection(o, machine, records);
    if (o.vertex) printVertexTable(records);
    if (o.raster) printRasterTable(records);
    if (o.load) printLoadTable(records);
    if (estimator) estimator->print();
    if (o.out) writeOutputs(*o.out, machine, o, records);
    if (const int signal = facet::cli::stopSignal()) {
        std::cerr << "facet-bench: interrupted by " << (signal == SIGINT ? "SIGINT" : "SIGTERM") << " after "
                  << records.size() << " records\n";
        return 128 + signal;
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    return facet::cli::runMain("facet-bench", [&] { return run(facet::bench::parseArguments(argc, argv)); });
}
