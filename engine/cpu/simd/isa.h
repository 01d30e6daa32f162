// Which vector instruction set the CPU paths picked at run time use (the vertex stage and the
// seed's projection): the widest this CPU runs at full clock (defaultIsa), or what
// FACET_ISA=scalar|avx2|avx512 asks for, so the tests can run every path the machine supports,
// not only its default one. The multisampled walk's AVX-512 path is taken only when asked for
// (samplePairWalkChosen). The classic model's textured pixels take AVX-512's filters where it is
// chosen (wideFilterChosen). And how the texture sampling passes read texels (chosenIndexedLoads).
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

// What the choices below read of a CPU to tell Intel's cores apart: which lists its model number
// is in, and whether its features show a core from Sapphire Rapids on (AVX512-FP16 or AMX, which
// no core on either list has). The features win over the number: a hypervisor may report another
// core's model (a Xeon under KVM here reports model 167, Rocket Lake's, and has AMX and
// AVX512-FP16), but it cannot give a CPU instructions it lacks.
struct CpuTraits {
    bool skylakeSpModel = false; // Skylake-SP and -X, Cascade Lake or Cooper Lake by model number
    bool gdsModel = false;       // a core Gather Data Sampling affects, by model number
    bool sapphireRapidsOrLater = false;
};

// This CPU's traits.
CpuTraits thisCpu();

// Whether this CPU lowers its clock for 512-bit instructions enough that the AVX-512 path loses
// to AVX2: Intel's Skylake-SP family (Skylake-SP and -X, Cascade Lake, Cooper Lake), whose cores
// drop to a lower frequency licence while they run them (licence-based downclocking; far milder
// from Ice Lake on: Travis Downs, "Ice Lake AVX-512 Downclocking", 2020). Measured on a Cascade
// Lake Xeon: the vertex stage at 10^5 to 10^7 vertices 10-23% slower on AVX-512 than on AVX2.
bool avx512LowersClock(const CpuTraits& cpu);
bool avx512LowersClock();

// The path taken when FACET_ISA is not set: AVX-512 where the CPU has it and it does not lower
// the clock, else AVX2.
Isa defaultIsa();

// FACET_ISA's choice when set (facet::Error for an unknown name or one this CPU lacks), else
// defaultIsa().
Isa chosenIsa();

// Whether the multisampled walk takes AVX-512's sample pairs (cpu/visibility/sample_pair_walk.h): only
// when FACET_ISA=avx512 asks for it. Otherwise it takes the 8-lane AVX2 walk, faster on the
// AVX-512 CPUs measured: 2-, 4- and 8-sample frames 8-20% on an AMD EPYC (Zen 4), 4-sample
// frames 2-6% on an Intel Xeon (Cascade Lake), and on an AMD EPYC of family 26 (Zen 5, 512-bit
// units) the plaza view's 2-, 4- and 8-sample frames 5-37%. On an Intel Xeon of model 207
// (Emerald Rapids) the two were within that host's noise of each other, and on the Xeon that
// reports model 167 (CpuTraits) within 3%: 4-sample frames 0.97-0.99 (the default scene) and
// 1.01-1.02 (the plaza close view).
bool samplePairWalkChosen();

// Whether this CPU runs cpu/simd/wide_filter.h's AVX-512 texture filters: AVX-512 F, VL and BW.
bool wideFilterSupported();

// Whether the classic model's bilinear and trilinear pixels take those filters (sixteen lanes
// to a vector where AVX2 takes eight): where chosenIsa() is AVX-512, wideFilterSupported() and
// texels are read by gathers (chosenIndexedLoads(); the filters have no other way). The
// textured scenes' frames took 0.94-0.98 of the AVX2 filters' time on an AMD EPYC (Zen 4),
// 0.90-0.94 on an Intel Xeon of model 207 (Emerald Rapids), whose gathers run at full speed;
// on an AMD EPYC of family 26 (Zen 5) the AVX2 filters took the sheet to 1.12-1.17, and on the
// Xeon that reports model 167 to 1.10-1.13.
bool wideFilterChosen();

// How the texture sampling passes read by index (texels, the sRGB table), gather instructions
// or one load per lane; and whether the triangle stage's set-up front takes eight triangles at
// a time (it reads their corners by gathers) or the set-up takes them one by one. Intel's
// microcode against Gather Data Sampling (INTEL-SA-00828, 2023) makes gathers several times
// slower on the cores it affects: on a Cascade Lake Xeon an eight-lane gather from L1 took
// about 24 cycles, eight loads about 7.
enum class IndexedLoads { Gather, ByLane };

template <>
struct Names<IndexedLoads> {
    static constexpr std::array<std::pair<IndexedLoads, const char*>, 2> table{
        {{IndexedLoads::Gather, "gather"}, {IndexedLoads::ByLane, "by-lane"}}};
};

// Whether this CPU is one of the Intel cores Gather Data Sampling affects (Skylake to Tiger Lake
// and Rocket Lake, as Intel's advisory lists them), whose microcode slows gathers. Other cores
// keep gathers: by lane, the textured scenes' frames took 1.01 of their time on an AMD EPYC
// (Zen 4) and 1.15-1.16 on an Intel Xeon of model 207 (Emerald Rapids). On the Xeon that
// reports model 167 (CpuTraits), gathers and the AVX-512 filters took the textured scenes'
// frames to 0.88-0.91 of by lane's with the AVX2 filters, and the 4M-triangle grid's to 0.70-0.80.
bool gathersSlowed(const CpuTraits& cpu);
bool gathersSlowed();

// The loads the sampling passes and the set-up front take: what
// FACET_INDEXED_LOADS=gather|by-lane asks for when set (facet::Error for another name; the
// tests run both), else by lane where gathersSlowed(), else gathers. Either way the same bytes.
IndexedLoads chosenIndexedLoads();

} // namespace facet
