#include "cpu/simd/isa.h"

#include "core/error.h"

#include <cpuid.h>
#include <cstdlib>

namespace facet {

bool cpuSupports(Isa isa) {
    switch (isa) {
    case Isa::Scalar: return true;
    case Isa::Avx2: return __builtin_cpu_supports("avx2");
    case Isa::Avx512: return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
    }
    return false;
}

namespace {

// AVX512-FP16 or AMX-TILE in CPUID leaf 7's EDX (bits 23 and 24, Intel's Software Developer's
// Manual, vol. 2A, CPUID), read directly: clang 14's __builtin_cpu_supports knows neither name.
// Only whether the CPU has them, to tell its core: facet runs neither.
bool readSapphireRapidsFeatures() {
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
    return (d >> 23 & 1u) != 0 || (d >> 24 & 1u) != 0;
}

// The same, read once (as __builtin_cpu_is reads what libgcc found at start-up): under a
// hypervisor CPUID traps to it, and the vertex stage asks for its path every chunk (read each
// time, it was 3% of the 1M-triangle grid's frame under KVM, perf).
bool sapphireRapidsFeatures() {
    static const bool features = readSapphireRapidsFeatures();
    return features;
}

} // namespace

CpuTraits thisCpu() {
    __builtin_cpu_init();
    CpuTraits cpu;
    cpu.skylakeSpModel =
        __builtin_cpu_is("skylake-avx512") || __builtin_cpu_is("cascadelake") || __builtin_cpu_is("cooperlake");
    // __builtin_cpu_is("skylake") also answers for Kaby Lake, Coffee Lake and Comet Lake.
    cpu.gdsModel = __builtin_cpu_is("skylake") || cpu.skylakeSpModel || __builtin_cpu_is("icelake-client") ||
                   __builtin_cpu_is("icelake-server") || __builtin_cpu_is("tigerlake") ||
                   __builtin_cpu_is("rocketlake");
    cpu.sapphireRapidsOrLater = sapphireRapidsFeatures();
    return cpu;
}

bool avx512LowersClock(const CpuTraits& cpu) { return cpu.skylakeSpModel && !cpu.sapphireRapidsOrLater; }

bool avx512LowersClock() { return avx512LowersClock(thisCpu()); }

Isa defaultIsa() { return cpuSupports(Isa::Avx512) && !avx512LowersClock() ? Isa::Avx512 : Isa::Avx2; }

Isa chosenIsa() {
    const char* requested = std::getenv("FACET_ISA");
    if (!requested || !*requested) return defaultIsa();
    const std::optional<Isa> isa = fromName<Isa>(requested);
    if (!isa) throw Error(std::string("FACET_ISA expects ") + nameChoices<Isa>() + ", got '" + requested + "'");
    if (!cpuSupports(*isa)) throw Error(std::string("FACET_ISA=") + requested + ": this CPU does not support it");
    return *isa;
}

bool samplePairWalkChosen() {
    const char* requested = std::getenv("FACET_ISA");
    return requested && *requested && chosenIsa() == Isa::Avx512;
}

bool wideFilterSupported() { return cpuSupports(Isa::Avx512) && __builtin_cpu_supports("avx512bw"); }

bool wideFilterChosen() {
    return chosenIsa() == Isa::Avx512 && wideFilterSupported() && chosenIndexedLoads() == IndexedLoads::Gather;
}

bool gathersSlowed(const CpuTraits& cpu) { return cpu.gdsModel && !cpu.sapphireRapidsOrLater; }

bool gathersSlowed() { return gathersSlowed(thisCpu()); }

IndexedLoads chosenIndexedLoads() {
    const char* requested = std::getenv("FACET_INDEXED_LOADS");
    if (!requested || !*requested) return gathersSlowed() ? IndexedLoads::ByLane : IndexedLoads::Gather;
    const std::optional<IndexedLoads> loads = fromName<IndexedLoads>(requested);
    if (!loads)
        throw Error(std::string("FACET_INDEXED_LOADS expects ") + nameChoices<IndexedLoads>() + ", got '" + requested +
                    "'");
    return *loads;
}

} // namespace facet
