// What facet-bench shows and writes: the machine header, the vertex and raster tables, and
// bench.csv and bench.json (read by scripts/plot_bench.py and tests/check_bench_output.cmake).
#pragma once

#include "bench/machine.h"
#include "bench/options.h"
#include "bench/records.h"

#include <string>
#include <vector>

namespace facet::bench {

void printHeader(const Machine& m, const Options& o);
void printVertexTable(const std::vector<Record>& records);
void printRasterTable(const std::vector<Record>& records);

// DIR/bench.csv and DIR/bench.json, the directory made if need be. Throws facet::Error naming
// the file that cannot be written.
void writeOutputs(const std::string& dir, const Machine& m, const Options& o, const std::vector<Record>& records);

} // namespace facet::bench
