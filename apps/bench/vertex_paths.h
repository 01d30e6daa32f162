// The vertex stage's measured paths, the seed's math d = R(v - eye), x, y *= focus/|d.z|:
// on the CPU scalar, vectorised and on threads, and on the GPU as three kernels or one fused,
// its data resident or copied over the bus on every call. A micro-benchmark of the engine's
// own functions, so it includes backend headers (the raster section does not).
#pragma once

#include "bench/machine.h"
#include "bench/records.h"

#include <cstddef>
#include <string>
#include <vector>

namespace facet {
class ThreadPool;
}

namespace facet::bench {

// The CPU paths' ids: the rows the GPU must beat to break even.
inline constexpr const char* kCpuVertexPaths[] = {"cpu_scalar", "cpu_vectorised", "cpu_threads"};

// The id of the GPU path the break-even point is about.
inline constexpr const char* kGpuFusedResident = "gpu_fused_resident";

// The CPU rows and the GPU rows of one vertex count (the NumPy rows come from the script):
// `calls` calls per run, `runs` runs, after a warm-up.
void measureVertexCase(const std::string& caseName, std::size_t n, int calls, int runs, ThreadPool& pool,
                       const Machine& machine, std::vector<Record>& records);

} // namespace facet::bench
