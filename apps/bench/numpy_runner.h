// The NumPy rows of the vertex section: scripts/numpy_vertex_baseline.py run with the first
// Python that has numpy, its --json output read back.
#pragma once

#include "bench/records.h"

#include <cstddef>
#include <string>
#include <vector>

namespace facet::bench {

struct NumpyResult {
    std::string caseName; // seed | sweep
    std::size_t n = 0;
    int calls = 0;
    Timing time; // per call
    std::string version;
};

struct NumpyRun {
    std::vector<NumpyResult> results;
    std::string why; // when there are no results: why, for each Python tried
};

// The script's cases: the seed (`seedCalls` calls of 1,000 vertices) and a sweep over `sizes`,
// min(maxCalls, 10^7 / n) calls per run, `runs` runs each. Throws facet::Error naming the
// Python, the script and the line when the script prints a result line that is not one.
NumpyRun runNumpy(const std::vector<std::size_t>& sizes, int seedCalls, int maxCalls, int runs);

} // namespace facet::bench
