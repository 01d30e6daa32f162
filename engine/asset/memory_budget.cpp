#include "asset/memory_budget.h"

#include "core/error.h"

#include <sys/resource.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

namespace facet {

namespace {

constexpr std::uint64_t kKiB = 1024, kMiB = 1024 * 1024;

// The number after `key` in a "key value [kB]" file (/proc/meminfo, /proc/self/status, memory.stat).
std::optional<std::uint64_t> fieldOf(const std::string& file, const std::string& key, std::uint64_t unit) {
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::string name;
        std::uint64_t value = 0;
        if (words >> name >> value && name == key) return value * unit;
    }
    return std::nullopt;
}

// A file holding one number ("max", or unreadable: nullopt).
std::optional<std::uint64_t> numberIn(const std::string& file) {
    std::ifstream in(file);
    std::uint64_t value = 0;
    if (in >> value) return value;
    return std::nullopt;
}

void consider(std::optional<MemoryRoom>& room, std::uint64_t bytes, const char* limit) {
    if (!room || bytes < room->bytes) room = MemoryRoom{bytes, limit};
}

void considerAddressSpace(std::optional<MemoryRoom>& room) {
    rlimit limit{};
    if (::getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return;
    const std::uint64_t mapped = fieldOf("/proc/self/status", "VmSize:", kKiB).value_or(0);
    consider(room, limit.rlim_cur > mapped ? limit.rlim_cur - mapped : 0, "the address space limit (ulimit -v)");
}

// The process's own control group as a container sees it (cgroup v2, then v1). The page cache
// it may drop counts as free.
void considerControlGroup(std::optional<MemoryRoom>& room) {
    struct Files {
        const char *max, *current, *stat, *inactive;
    };
    for (const Files f : {Files{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current",
                                "/sys/fs/cgroup/memory.stat", "inactive_file"},
                          Files{"/sys/fs/cgroup/memory/memory.limit_in_bytes",
                                "/sys/fs/cgroup/memory/memory.usage_in_bytes", "/sys/fs/cgroup/memory/memory.stat",
                                "total_inactive_file"}}) {
        const std::optional<std::uint64_t> max = numberIn(f.max), current = numberIn(f.current);
        if (!max || !current || *max >= (std::uint64_t(1) << 60)) continue; // no limit
        const std::uint64_t used = *current - std::min(*current, fieldOf(f.stat, f.inactive, 1).value_or(0));
        consider(room, *max > used ? *max - used : 0, "the memory limit of its control group");
        return;
    }
}

std::string mebibytes(std::uint64_t bytes) { return std::to_string((bytes + kMiB / 2) / kMiB) + " MiB"; }

} // namespace

std::optional<MemoryRoom> memoryRoom() {
    std::optional<MemoryRoom> room;
    considerAddressSpace(room);
    considerControlGroup(room);
    const std::optional<std::uint64_t> available = fieldOf("/proc/meminfo", "MemAvailable:", kKiB);
    if (available)
        consider(room, *available + fieldOf("/proc/meminfo", "SwapFree:", kKiB).value_or(0),
                 "the system's available memory and swap");
    return room;
}

void checkLoadFits(const std::filesystem::path& path, std::uint64_t fileBytes, std::uint64_t bytesPerFileByte,
                   const std::optional<MemoryRoom>& room) {
    const std::uint64_t needed = fileBytes * bytesPerFileByte;
    if (!room || needed <= room->bytes) return;
    throw Error(path.string() + ": not enough memory to load this " + mebibytes(fileBytes) +
                " file: loading it takes up to " + mebibytes(needed) + ", and " + room->limit + " leaves " +
                mebibytes(room->bytes));
}

} // namespace facet
