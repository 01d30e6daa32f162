// The GPU probe: where no device is usable (this machine, CI) it must say why, plainly, so
// programs can show the reason and carry on with the CPU backend.
#include "cuda/device.h"

#include <gtest/gtest.h>

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

} // namespace
} // namespace facet
