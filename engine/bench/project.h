// The seed's vertex stage (shift, rotate, divide) over structure-of-arrays vertices on the CPU:
// the kernel's per-thread function as a loop the compiler vectorises, AVX-512 where the CPU has
// it, AVX2 otherwise, with the same roundings as the per-thread function.
#pragma once

#include "bench/project_kernels.h"
#include "cpu/simd/isa.h"

#include <cstddef>

namespace facet {

void projectVertices(const ProjectParams& params, std::size_t begin, std::size_t end);

// The same over interleaved (x, y, z) rows, the seed's NumPy layout: params.px points at the
// input rows and params.x at the output rows (py, pz, y and z are not read), which are either
// the input itself (in place) or do not overlap it; begin and end count rows. The rows are
// turned into columns a few hundred at a time for the loop above.
void projectVertexRows(const ProjectParams& params, std::size_t begin, std::size_t end);

// The same on the path `isa` names (one this CPU supports, e.g. chosenIsa()'s, looked up once
// by a caller projecting small arrays often: FACET_ISA is an environment lookup).
void projectVertexRows(const ProjectParams& params, std::size_t begin, std::size_t end, Isa isa);

// The same one vertex at a time, with vectorisation disabled: the scalar baseline.
void projectVerticesScalar(const ProjectParams& params, std::size_t begin, std::size_t end);

} // namespace facet
