// The GPU probe and the device choice: where no device is usable (this machine, CI) they must
// say why, plainly, so programs can show the reason and carry on with the CPU backend; and the
// growth policy of the executors' buffers, which is plain arithmetic.
#include "core/error.h"
#include "cuda/buffer_growth.h"
#include "cuda/device.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <limits>
#include <optional>
#include <string>

namespace facet {
namespace {

TEST(Gpu, ProbeGivesAReasonOrADevice) {
    const GpuStatus s = probeGpu();
    if (s.usable) {
        EXPECT_FALSE(s.deviceName.empty());
        EXPECT_GE(s.computeMajor * 10 + s.computeMinor, 75);
    } else {
        EXPECT_FALSE(s.reason.empty());
        if (!builtWithCuda()) {
            EXPECT_NE(s.reason.find("without CUDA"), std::string::npos) << s.reason;
        }
    }
}

TEST(Gpu, ProbeIsRepeatable) {
    // A failed probe must not leave a sticky error that changes the next answer.
    const GpuStatus a = probeGpu(), b = probeGpu();
    EXPECT_EQ(a.usable, b.usable);
    EXPECT_EQ(a.reason, b.reason);
}

std::string errorOf(int requested) {
    try {
        const int d = chooseGpuDevice(requested);
        return "no error: device " + std::to_string(d);
    } catch (const Error& e) {
        return e.what();
    }
}

TEST(GpuDevice, ListMatchesTheProbe) {
    const test::ScopedVariable unset("FACET_DEVICE", std::nullopt);
    const std::vector<GpuDeviceInfo> devices = listGpuDevices();
    if (probeGpu().usable) {
        ASSERT_FALSE(devices.empty());
    }
    for (std::size_t i = 0; i < devices.size(); ++i) {
        EXPECT_EQ(devices[i].index, static_cast<int>(i));
        EXPECT_FALSE(devices[i].name.empty());
        EXPECT_GT(devices[i].memoryBytes, 0u);
    }
    if (devices.empty()) {
        EXPECT_NE(errorOf(-1).find("CUDA device 0 does not exist: no CUDA device was found"), std::string::npos)
            << errorOf(-1);
    } else {
        EXPECT_EQ(chooseGpuDevice(-1), 0);
    }
}

TEST(GpuDevice, AnIndexNoDeviceHasSaysHowManyThereAre) {
    const test::ScopedVariable unset("FACET_DEVICE", std::nullopt);
    const std::size_t count = listGpuDevices().size();
    const std::string e = errorOf(1000);
    EXPECT_NE(e.find("CUDA device 1000 does not exist: "), std::string::npos) << e;
    if (count > 0) {
        EXPECT_NE(e.find(std::to_string(count) + " device"), std::string::npos) << e;
    }
    const GpuStatus s = probeGpu(1000);
    EXPECT_FALSE(s.usable);
    EXPECT_FALSE(s.reason.empty());
}

TEST(GpuDevice, TheEnvironmentVariableIsReadAndABadValueNamed) {
    for (const char* bad : {"abc", "-1", "1x", "99999999999999999999"}) {
        const test::ScopedVariable variable("FACET_DEVICE", std::string{bad});
        const std::string e = errorOf(-1);
        EXPECT_NE(e.find("FACET_DEVICE"), std::string::npos) << e;
        EXPECT_NE(e.find(std::string("'") + bad + "'"), std::string::npos) << e;
        // An explicit request wins over the variable, bad or not.
        EXPECT_EQ(errorOf(1000).find("FACET_DEVICE"), std::string::npos);
    }
    const test::ScopedVariable variable("FACET_DEVICE", std::string{"1000"});
    const std::string e = errorOf(-1);
    EXPECT_NE(e.find("CUDA device 1000 does not exist"), std::string::npos) << e;
    EXPECT_NE(e.find("(FACET_DEVICE)"), std::string::npos) << e;
}

TEST(BufferGrowth, GrowsGeometricallyOrToWhatIsNeeded) {
    EXPECT_EQ(grownCapacity(0, 10, 4), 10u);    // the first allocation is what is asked
    EXPECT_EQ(grownCapacity(100, 101, 4), 150u); // a little more: half as much again
    EXPECT_EQ(grownCapacity(100, 400, 4), 400u); // much more: what is asked
    std::size_t capacity = 1000, reallocations = 0;
    for (std::size_t needed = 1000; needed <= 100000; needed += 100) // a camera closing in
        if (needed > capacity) {
            capacity = grownCapacity(capacity, needed, 4);
            ++reallocations;
        }
    EXPECT_LE(reallocations, 12u);
}

TEST(BufferGrowth, NeverOverflowsTheByteSize) {
    const std::size_t most = std::numeric_limits<std::size_t>::max() / 8;
    EXPECT_EQ(grownCapacity(most - 1, most, 8), most);
    EXPECT_EQ(grownCapacity(most / 4 * 3, most / 4 * 3 + 1, 8), most);
    EXPECT_LE(grownCapacity(most / 2, most / 2 + 1, 8), most);
}

} // namespace
} // namespace facet
