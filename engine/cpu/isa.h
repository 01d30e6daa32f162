// Which vector instruction set the CPU paths picked at run time use (the vertex stage and the
// seed's projection): the best this CPU has, or what FACET_ISA=scalar|avx2|avx512 asks for, so
// the tests can run every path the machine supports, not only its best one. The multisampled
// walk's AVX-512 path is taken only when asked for (samplePairWalkChosen).
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

// Whether the multisampled walk takes AVX-512's sample pairs (cpu/sample_pair_walk.h): only
// when FACET_ISA=avx512 asks for it. Otherwise it takes the 8-lane AVX2 walk, which on the one
// AVX-512 CPU measured (AMD EPYC, Zen 4) ran the 2-, 4- and 8-sample frames 8-20% faster.
bool samplePairWalkChosen();

} // namespace facet
