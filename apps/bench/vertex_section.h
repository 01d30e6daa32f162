// facet-bench's vertex section: the seed case (10,000 calls of 1,000 vertices) and a sweep of
// vertex counts on NumPy, the CPU and the GPU, and where the GPU breaks even.
#pragma once

#include "bench/machine.h"
#include "bench/options.h"
#include "bench/records.h"

#include <vector>

namespace facet::bench {

void runVertexSection(const Options& o, const Machine& machine, std::vector<Record>& records);

} // namespace facet::bench
