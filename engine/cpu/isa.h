// Which vector instruction set the CPU paths picked at run time use (the vertex stage, the
// seed's projection and the multisampled walk, cpu/sample_pair_walk.h): the best this CPU has, or what FACET_ISA=scalar|avx2|avx512 asks for,
// so the tests can run every path the machine supports, not only its best one.
#pragma once

#include "core/names.h"

namespace facet {

enum class Isa { Scalar, Avx2, Avx512 };

template <>
struct Names<Isa> {
    static constexpr std::array<std::pair<Isa, const char*>, 3> table{
        {{Isa::Scalar, "scalar"}, {Isa::Avx2, "avx2"}, {Isa::Avx512, "avx512"}}};
};

bool cpuSupports(Isa isa);

// FACET_ISA's choice when set (facet::Error for an unknown name or one this CPU lacks), else
// the best this CPU supports.
Isa chosenIsa();

} // namespace facet
