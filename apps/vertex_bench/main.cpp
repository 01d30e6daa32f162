// facet-vertex-bench: the seed's vertex stage (shift, rotate, divide) on the CPU, measured with
// Google Benchmark: the seed's own workload (1,000 vertices per call), and a sweep from 10^3 to
// 10^7 vertices with the vectorised loop on one thread, on all threads, the scalar loop, and
// a plain copy of the same bytes (what memory bandwidth allows). The NumPy baseline for the
// same math is scripts/numpy_vertex_baseline.py.
#include "bench/project.h"
#include "host/thread_pool.h"
#include "seed_workload.h"

#include <benchmark/benchmark.h>

#include <cstring>
#include <random>
#include <vector>

namespace {

using Vertices = facet::SeedVertices;

void setCounters(benchmark::State& state, std::size_t n) {
    state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(n));
    state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(n) * 24); // 12 in, 12 out
}

void BM_Vectorised(benchmark::State& state) {
    const auto n = std::size_t(state.range(0));
    Vertices v(n);
    const facet::ProjectParams p = v.params();
    for (auto _ : state) {
        facet::projectVertices(p, 0, n);
        benchmark::ClobberMemory();
    }
    setCounters(state, n);
}

void BM_Scalar(benchmark::State& state) {
    const auto n = std::size_t(state.range(0));
    Vertices v(n);
    const facet::ProjectParams p = v.params();
    for (auto _ : state) {
        facet::projectVerticesScalar(p, 0, n);
        benchmark::ClobberMemory();
    }
    setCounters(state, n);
}

// All hardware threads through the persistent pool, in blocks of 64k vertices.
void BM_AllThreads(benchmark::State& state) {
    const auto n = std::size_t(state.range(0));
    Vertices v(n);
    const facet::ProjectParams p = v.params();
    facet::ThreadPool pool;
    constexpr std::size_t kBlock = 65536;
    for (auto _ : state) {
        pool.run((n + kBlock - 1) / kBlock, [&](std::size_t b, int) {
            facet::projectVertices(p, b * kBlock, std::min(n, (b + 1) * kBlock));
        });
        benchmark::ClobberMemory();
    }
    state.counters["threads"] = pool.threadCount();
    setCounters(state, n);
}

// Reading the 12 input bytes and writing the 12 output bytes of each vertex, nothing else.
void BM_CopySameBytes(benchmark::State& state) {
    const auto n = std::size_t(state.range(0));
    Vertices v(n);
    for (auto _ : state) {
        std::memcpy(v.x.data(), v.px.data(), n * 4);
        std::memcpy(v.y.data(), v.py.data(), n * 4);
        std::memcpy(v.z.data(), v.pz.data(), n * 4);
        benchmark::ClobberMemory();
    }
    setCounters(state, n);
}

// The seed: 1,000 vertices per call (its 10,000 calls are Google Benchmark's iterations).
BENCHMARK(BM_Vectorised)->Name("seed/vectorised")->Arg(1000);
BENCHMARK(BM_Scalar)->Name("seed/scalar")->Arg(1000);
BENCHMARK(BM_Vectorised)->Name("sweep/vectorised")->RangeMultiplier(10)->Range(1000, 10000000);
BENCHMARK(BM_AllThreads)->Name("sweep/all_threads")->RangeMultiplier(10)->Range(1000, 10000000);
BENCHMARK(BM_Scalar)->Name("sweep/scalar")->RangeMultiplier(10)->Range(1000, 10000000);
BENCHMARK(BM_CopySameBytes)->Name("sweep/copy_same_bytes")->RangeMultiplier(10)->Range(1000, 10000000);

} // namespace

BENCHMARK_MAIN();
