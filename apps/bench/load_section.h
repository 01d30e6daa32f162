// facet-bench's load section: how fast each mesh format loads, in MB of file a second, for
// the time to a first picture (a user waits for the load, not the frame). The files, a sphere
// tessellated to the case's size, are written to a temporary folder first, in the forms
// exporters write: OBJ with texture coordinates (as text), binary PLY and binary STL.
#pragma once

#include "bench/machine.h"
#include "bench/options.h"
#include "bench/records.h"

#include <vector>

namespace facet::bench {

void runLoadSection(const Options& o, const Machine& machine, std::vector<Record>& records);

void printLoadTable(const std::vector<Record>& records);

} // namespace facet::bench
