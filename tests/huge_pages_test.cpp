// Large loader arrays on huge pages (host/huge_pages.h): the advice reaches the kernel, so a
// touched array is backed by 2 MB pages where the system offers them, and reserving never
// changes what an array holds.
#include "host/huge_pages.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace facet {
namespace {

std::string firstLine(const char* path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

// The AnonHugePages of the mapping holding `address`, in KB (/proc/self/smaps), or -1.
long anonHugeKbAt(const void* address) {
    std::ifstream smaps("/proc/self/smaps");
    const auto at = reinterpret_cast<std::uintptr_t>(address);
    std::string line;
    bool inside = false;
    while (std::getline(smaps, line)) {
        std::uintptr_t begin = 0, end = 0;
        char dash = 0;
        std::istringstream head(line);
        if (head >> std::hex >> begin >> dash >> end && dash == '-') {
            inside = begin <= at && at < end;
            continue;
        }
        if (inside && line.rfind("AnonHugePages:", 0) == 0) return std::stol(line.substr(14));
    }
    return -1;
}

TEST(HugePages, ALargeReservedArrayIsBackedByHugePages) {
    const std::string mode = firstLine("/sys/kernel/mm/transparent_hugepage/enabled");
    if (mode.empty() || mode.find("[never]") != std::string::npos)
        GTEST_SKIP() << "transparent huge pages are off here ("
                     << (mode.empty() ? "no THP in this kernel" : mode) << ")";
    std::vector<float> values;
    reserveOnHugePages(values, std::size_t(16) << 20); // 64 MB
    values.resize(values.capacity(), 1.0f);
    EXPECT_GE(anonHugeKbAt(values.data() + values.size() / 2), 2048)
        << "a 64 MB array written after reserveOnHugePages has no huge page (THP: " << mode << ")";
}

TEST(HugePages, ReservingKeepsWhatAnArrayHolds) {
    std::vector<int> small;
    reserveOnHugePages(small, 10);
    EXPECT_GE(small.capacity(), 10u);
    std::vector<int> held{1, 2, 3};
    const int* before = held.data();
    reserveOnHugePages(held, std::size_t(8) << 20); // an array with elements is left alone
    EXPECT_EQ(held.data(), before);
    EXPECT_EQ(held, (std::vector<int>{1, 2, 3}));
    std::string bytes;
    reserveOnHugePages(bytes, std::size_t(8) << 20);
    EXPECT_GE(bytes.capacity(), std::size_t(8) << 20);
    EXPECT_TRUE(bytes.empty());
}

} // namespace
} // namespace facet
