#include "bench/vertex_section.h"

#include "bench/numpy_runner.h"
#include "bench/vertex_paths.h"
#include "cli.h"
#include "host/thread_pool.h"

#include <algorithm>
#include <cstddef>
#include <iostream>
#include <string>

namespace facet::bench {

namespace {

constexpr std::size_t kSeedVertices = 1000;

struct VertexPlan {
    int seedCalls = 10000; // the seed's 10,000 calls of 1,000 vertices, per run
    int maxCalls = 10000;  // sweep: a run is min(maxCalls, 10^7 / n) calls, at least 3
    int runs = 5;
    std::vector<std::size_t> sizes{1000, 10000, 100000, 1000000, 10000000};

    int callsFor(std::size_t n) const {
        return static_cast<int>(std::max<std::size_t>(3, std::min<std::size_t>(std::size_t(maxCalls), 10000000 / n)));
    }
};

VertexPlan vertexPlan(const Options& o) {
    VertexPlan plan;
    if (o.quick) {
        plan.seedCalls = 200;
        plan.maxCalls = 100;
        plan.runs = 3;
        plan.sizes = {1000, 10000};
    }
    return plan;
}

Record numpyRecord(const NumpyRun& numpy, const std::string& caseName, std::size_t n) {
    for (const NumpyResult& r : numpy.results)
        if (r.caseName == caseName && r.n == n)
            return measured("vertex", caseName, "numpy", "NumPy", n, r.time,
                            std::to_string(r.calls) + " calls x " + std::to_string(r.time.runs) + " runs, numpy " +
                                r.version);
    return absent("vertex", caseName, "numpy", "NumPy", n,
                  numpy.results.empty() ? numpy.why : "the baseline script reported no result for this size");
}

// The fastest measured CPU row at sweep size n, or null.
const Record* bestCpu(const std::vector<Record>& records, std::size_t n) {
    const Record* best = nullptr;
    for (const char* path : kCpuVertexPaths) {
        const Record* c = findRecord(records, "vertex", "sweep", path, n);
        if (c && c->present && (!best || c->time.medianMs < best->time.medianMs)) best = c;
    }
    return best;
}

// The smallest sweep size where the resident, fused GPU kernel beats every CPU row.
Record breakEven(const std::vector<Record>& records, const VertexPlan& plan, const Machine& machine) {
    Record r = absent("vertex", "break_even", kGpuFusedResident, "GPU fused, resident vs best CPU", 0, "");
    const Record* any = nullptr;
    for (const std::size_t n : plan.sizes) {
        const Record* gpu = findRecord(records, "vertex", "sweep", kGpuFusedResident, n);
        if (!gpu) continue;
        any = gpu;
        if (!gpu->present) continue;
        const Record* cpu = bestCpu(records, n);
        if (cpu && gpu->time.medianMs < cpu->time.medianMs)
            return measured("vertex", "break_even", kGpuFusedResident, r.label, n, gpu->time,
                            "the GPU (resident, fused) overtakes the best CPU path (" + cpu->label + ", " +
                                formatMs(cpu->time.medianMs) + ") at n = " + std::to_string(n));
    }
    if (any && !any->present) r.note = "no GPU: " + any->note;
    else if (!machine.gpu.usable) r.note = "no GPU: " + machine.gpu.reason;
    else
        r.note = "the GPU (resident, fused) never overtakes the best CPU path within the sweep (n = " +
                 std::to_string(plan.sizes.front()) + " .. " + std::to_string(plan.sizes.back()) + ")";
    return r;
}

} // namespace

void runVertexSection(const Options& o, const Machine& machine, std::vector<Record>& records) {
    const VertexPlan plan = vertexPlan(o);
    std::cout << "vertex stage: d = R(v - eye), then x, y *= focus/|d.z| (identity R, eye (0,0,10), focus 5)\n"
              << std::flush;
    const NumpyRun numpy = runNumpy(plan.sizes, plan.seedCalls, plan.maxCalls, plan.runs);
    ThreadPool pool(o.threads);
    records.push_back(numpyRecord(numpy, "seed", kSeedVertices));
    measureVertexCase("seed", kSeedVertices, plan.seedCalls, plan.runs, pool, machine, records);
    for (const std::size_t n : plan.sizes) {
        if (cli::stopSignal()) return; // interrupted: keep what was measured (bench/main.cpp)
        std::cout << "  sweep n = " << n << "\n" << std::flush;
        records.push_back(numpyRecord(numpy, "sweep", n));
        measureVertexCase("sweep", n, plan.callsFor(n), plan.runs, pool, machine, records);
    }
    records.push_back(breakEven(records, plan, machine));
}

} // namespace facet::bench
