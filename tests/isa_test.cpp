// FACET_ISA picks the vector path of the run-time dispatch (engine/cpu/simd/isa.h), so the SIMD
// tests can run on every path this machine supports (tests/CMakeLists.txt registers them once
// per path), not only on its best one.
#include "core/error.h"
#include "cpu/simd/isa.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace facet {
namespace {

// Isa.<path>.SimdTests and IndexedLoads.<way>.SamplingTests (tests/CMakeLists.txt) rerun the
// SIMD tests with a path forced, and set FACET_TEST_FORCED_PATH=1. Where what they force is what
// this CPU takes unasked, the rerun would repeat the default run test for test, so it says so and
// skips; so it does where the CPU lacks the path (facet would take its default one instead).
class ForcedPathOnly : public ::testing::Environment {
public:
    void SetUp() override {
        const char* only = std::getenv("FACET_TEST_FORCED_PATH");
        if (!only || std::string(only) != "1") return;
        const char* isa = std::getenv("FACET_ISA");
        if (isa && fromName<Isa>(isa) && !cpuSupports(*fromName<Isa>(isa)))
            GTEST_SKIP() << "this CPU does not support FACET_ISA=" << isa << ": the default run covers the path it takes";
        const char* loads = std::getenv("FACET_INDEXED_LOADS");
        const bool defaultIsaRun = !isa || fromName<Isa>(isa) == defaultIsa();
        const IndexedLoads unasked = gathersSlowed() ? IndexedLoads::ByLane : IndexedLoads::Gather;
        const bool defaultLoadsRun = !loads || fromName<IndexedLoads>(loads) == unasked;
        if (defaultIsaRun && defaultLoadsRun) {
            GTEST_SKIP() << "FACET_ISA=" << (isa ? isa : "(unset)") << " FACET_INDEXED_LOADS="
                         << (loads ? loads : "(unset)") << " is what this CPU runs unasked: the default run covers it";
        }
    }
};
::testing::Environment* const forcedPathOnly = ::testing::AddGlobalTestEnvironment(new ForcedPathOnly);

TEST(Isa, ChosenPathIsTheOneFacetIsaAsksFor) {
    const char* requested = std::getenv("FACET_ISA");
    if (!requested || !*requested) {
        EXPECT_EQ(chosenIsa(), defaultIsa());
        return;
    }
    const std::optional<Isa> isa = fromName<Isa>(requested);
    ASSERT_TRUE(isa) << "FACET_ISA=" << requested << " names no path";
    if (!cpuSupports(*isa)) GTEST_SKIP() << "this CPU does not support FACET_ISA=" << requested;
    EXPECT_EQ(chosenIsa(), *isa);
    std::cout << "[ ISA ] running the " << nameOf(*isa) << " path\n";
}

// Unasked, AVX-512 where the CPU has it, except on the CPUs whose clock it lowers (Intel's
// Skylake-SP family), which take AVX2; AMD's never do.
TEST(Isa, DefaultIsAvx512UnlessItLowersTheClock) {
    __builtin_cpu_init();
    if (__builtin_cpu_is("amd")) {
        EXPECT_FALSE(avx512LowersClock());
    }
    if (__builtin_cpu_is("cascadelake") && !thisCpu().sapphireRapidsOrLater) {
        EXPECT_TRUE(avx512LowersClock());
    }
    const bool avx512 = cpuSupports(Isa::Avx512) && !avx512LowersClock();
    EXPECT_EQ(defaultIsa(), avx512 ? Isa::Avx512 : Isa::Avx2);
    std::cout << "[ ISA ] default path " << nameOf(defaultIsa())
              << (cpuSupports(Isa::Avx512) && !avx512 ? " (this CPU has AVX-512, which lowers its clock)" : "") << "\n";
}

// The multisampled walk's AVX-512 pairs only when FACET_ISA=avx512 asks for them: unasked, the
// eight-lane walk, faster on both AVX-512 CPUs measured.
TEST(Isa, SamplePairWalkOnlyWhenAskedFor) {
    const char* requested = std::getenv("FACET_ISA");
    const bool asked = requested && std::string(requested) == "avx512";
    if (asked && !cpuSupports(Isa::Avx512)) GTEST_SKIP() << "this CPU does not support FACET_ISA=avx512";
    EXPECT_EQ(samplePairWalkChosen(), asked) << "FACET_ISA=" << (requested ? requested : "(unset)");
}

// The AVX-512 texture filters with the AVX-512 path and gathers where the CPU runs them (AMD's
// AVX-512 CPUs all do), never on another path or with loads by lane.
TEST(Isa, WideFilterWithTheAvx512PathAndGathers) {
    __builtin_cpu_init();
    if (__builtin_cpu_is("amd") && cpuSupports(Isa::Avx512)) {
        EXPECT_TRUE(wideFilterSupported());
    }
    {
        const test::ScopedVariable isa("FACET_ISA", std::string{"avx2"});
        EXPECT_FALSE(wideFilterChosen());
    }
    if (!wideFilterSupported()) GTEST_SKIP() << "this CPU has no AVX-512BW, so the AVX-512 texture filters never run";
    const test::ScopedVariable isa("FACET_ISA", std::string{"avx512"});
    {
        const test::ScopedVariable loads("FACET_INDEXED_LOADS", std::string{"gather"});
        EXPECT_TRUE(wideFilterChosen());
    }
    const test::ScopedVariable loads("FACET_INDEXED_LOADS", std::string{"by-lane"});
    EXPECT_FALSE(wideFilterChosen());
}

TEST(Isa, UnknownOrUnsupportedNamesAreErrorsNamingThem) {
    const test::ScopedVariable variable("FACET_ISA", std::string{"sse9"});
    try {
        chosenIsa();
        ADD_FAILURE() << "FACET_ISA=sse9 was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("FACET_ISA expects scalar, avx2 or avx512, got 'sse9'"), std::string::npos)
            << e.what();
    }
    if (!cpuSupports(Isa::Avx512)) {
        const test::ScopedVariable avx512("FACET_ISA", std::string{"avx512"});
        EXPECT_THROW(chosenIsa(), Error);
    }
}

// The sampling passes read texels by lane on the Intel cores whose gathers Gather Data
// Sampling's microcode slows (this project's Cascade Lake Xeon among them), by gathers on AMD's;
// FACET_INDEXED_LOADS overrides either.
TEST(Isa, IndexedLoadsByLaneWhereGathersAreSlowed) {
    __builtin_cpu_init();
    if (__builtin_cpu_is("amd")) {
        EXPECT_FALSE(gathersSlowed());
    }
    if ((__builtin_cpu_is("cascadelake") || __builtin_cpu_is("skylake")) && !thisCpu().sapphireRapidsOrLater) {
        EXPECT_TRUE(gathersSlowed());
    }
    const char* requested = std::getenv("FACET_INDEXED_LOADS");
    if (requested && *requested) {
        const std::optional<IndexedLoads> loads = fromName<IndexedLoads>(requested);
        ASSERT_TRUE(loads) << "FACET_INDEXED_LOADS=" << requested << " names no way";
        EXPECT_EQ(chosenIndexedLoads(), *loads);
    } else {
        EXPECT_EQ(chosenIndexedLoads(), gathersSlowed() ? IndexedLoads::ByLane : IndexedLoads::Gather);
    }
    std::cout << "[ ISA ] texels read " << (chosenIndexedLoads() == IndexedLoads::ByLane ? "by lane" : "by gathers")
              << "\n";
}

// A model number on Intel's lists (Skylake-SP's family, the cores Gather Data Sampling affects)
// decides only where the CPU's features do not show a later core: a Xeon under KVM that reports
// model 167 (Rocket Lake's) with AMX and AVX512-FP16 keeps AVX-512 and gathers.
TEST(Isa, FeaturesOfALaterCoreOverruleItsModelNumber) {
    const CpuTraits skylakeSp{true, true, false}, iceLake{false, true, false}, other{false, false, false};
    EXPECT_TRUE(avx512LowersClock(skylakeSp));
    EXPECT_TRUE(gathersSlowed(skylakeSp));
    EXPECT_FALSE(avx512LowersClock(iceLake));
    EXPECT_TRUE(gathersSlowed(iceLake));
    EXPECT_FALSE(avx512LowersClock(other));
    EXPECT_FALSE(gathersSlowed(other));
    for (CpuTraits later : {skylakeSp, iceLake}) {
        later.sapphireRapidsOrLater = true;
        EXPECT_FALSE(avx512LowersClock(later));
        EXPECT_FALSE(gathersSlowed(later));
    }
    const CpuTraits cpu = thisCpu();
    const auto yes = [](bool b) { return b ? "yes" : "no"; };
    std::cout << "[ ISA ] this CPU: a Skylake-SP model " << yes(cpu.skylakeSpModel) << ", a Gather Data Sampling model "
              << yes(cpu.gdsModel) << ", Sapphire Rapids or later by its features " << yes(cpu.sapphireRapidsOrLater)
              << "\n";
    if (!cpu.sapphireRapidsOrLater) return;
    EXPECT_FALSE(avx512LowersClock());
    EXPECT_FALSE(gathersSlowed());
    if (cpuSupports(Isa::Avx512)) {
        EXPECT_EQ(defaultIsa(), Isa::Avx512);
    }
}

TEST(Isa, UnknownIndexedLoadsAreAnErrorNamingThem) {
    const test::ScopedVariable variable("FACET_INDEXED_LOADS", std::string{"scatter"});
    try {
        chosenIndexedLoads();
        ADD_FAILURE() << "FACET_INDEXED_LOADS=scatter was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("FACET_INDEXED_LOADS expects gather or by-lane, got 'scatter'"),
                  std::string::npos)
            << e.what();
    }
}

} // namespace
} // namespace facet
