// The seed's vertex stage (shift, rotate, divide) over structure-of-arrays vertices on the CPU:
// the kernel's per-thread function as a loop the compiler vectorises, AVX-512 where the CPU has
// it, AVX2 otherwise, with the same roundings as the per-thread function.
#pragma once

#include "shaders_cuda/vertex_stage.h"

#include <cstddef>

namespace facet {

void projectVertices(const ProjectParams& params, std::size_t begin, std::size_t end);

// The same one vertex at a time, with vectorisation disabled: the scalar baseline.
void projectVerticesScalar(const ProjectParams& params, std::size_t begin, std::size_t end);

} // namespace facet
