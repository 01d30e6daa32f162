#include "bench/records.h"

#include <algorithm>
#include <cstddef>
#include <cstdio>

namespace facet::bench {

namespace {

Record named(std::string section, std::string caseName, std::string path, std::string label, std::uint64_t n) {
    Record r;
    r.section = std::move(section);
    r.caseName = std::move(caseName);
    r.path = std::move(path);
    r.label = std::move(label);
    r.n = n;
    return r;
}

} // namespace

double median(std::vector<double> values) {
    if (values.empty()) return 0.0;
    const auto middle = values.begin() + std::ptrdiff_t(values.size() / 2);
    std::nth_element(values.begin(), middle, values.end());
    return *middle;
}

Timing summarise(std::vector<double> ms) {
    std::sort(ms.begin(), ms.end());
    Timing t;
    if (ms.empty()) return t;
    t.medianMs = median(ms);
    t.lowMs = ms.front();
    t.highMs = ms.back();
    t.runs = static_cast<int>(ms.size());
    return t;
}

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

Record measured(std::string section, std::string caseName, std::string path, std::string label, std::uint64_t n,
                const Timing& t, std::string note) {
    Record r = named(std::move(section), std::move(caseName), std::move(path), std::move(label), n);
    r.time = t;
    r.note = std::move(note);
    if (t.medianMs > 0.0 && n > 0) {
        r.nsPerItem = t.medianMs * 1e6 / double(n);
        r.itemsPerS = double(n) / (t.medianMs * 1e-3);
    }
    return r;
}

Record absent(std::string section, std::string caseName, std::string path, std::string label, std::uint64_t n,
              std::string why) {
    Record r = named(std::move(section), std::move(caseName), std::move(path), std::move(label), n);
    r.present = false;
    r.note = std::move(why);
    return r;
}

const Record* findRecord(const std::vector<Record>& records, const std::string& section, const std::string& caseName,
                         const std::string& path, std::uint64_t n) {
    for (const Record& r : records)
        if (r.section == section && r.caseName == caseName && r.path == path && r.n == n) return &r;
    return nullptr;
}

std::string formatMs(double ms) {
    char buf[32];
    if (ms < 1e-3) std::snprintf(buf, sizeof buf, "%.3g ns", ms * 1e6);
    else if (ms < 1.0) std::snprintf(buf, sizeof buf, "%.3g us", ms * 1e3);
    else if (ms < 1000.0) std::snprintf(buf, sizeof buf, "%.3g ms", ms);
    else std::snprintf(buf, sizeof buf, "%.3g s", ms * 1e-3);
    return buf;
}

std::string formatNumber(double v, const char* format) {
    char buf[32];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

std::string pluralThreads(int threads) { return std::to_string(threads) + (threads == 1 ? " thread" : " threads"); }

} // namespace facet::bench
