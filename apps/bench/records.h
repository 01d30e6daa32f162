// What facet-bench measures and keeps: timings summarised over runs, and the records that
// become the table's rows and the lines of bench.csv and bench.json.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace facet::bench {

struct Timing {
    double medianMs = 0.0, lowMs = 0.0, highMs = 0.0; // spread: min-max over the runs
    int runs = 0;
};

Timing summarise(std::vector<double> ms);

// The middle value (the upper middle one of an even count), as summarise's median; 0 of none.
double median(std::vector<double> values);

double msSince(std::chrono::steady_clock::time_point t0);

// One row of the table, one record of bench.csv and bench.json.
struct Record {
    std::string section; // vertex | raster
    std::string caseName;
    std::string path;  // stable id, e.g. cpu_vectorised
    std::string label; // what the table shows
    std::uint64_t n = 0; // vertices, or triangles
    int width = 0, height = 0;
    bool present = true;
    std::string note; // why absent; otherwise how it was measured
    Timing time;
    std::string item; // vertex | triangle
    int samples = 0;  // raster: samples per pixel of the frames
    std::optional<double> nsPerItem, itemsPerS, pixelsPerS, ratioToGl;
    std::optional<double> msaaCost; // --msaa-cost: the median of the pairs' ratios (N samples / 1)
    std::optional<double> outputsCost; // --outputs-cost: the median of the pairs' ratios (with outputs / without)
};

// A measured record, with the per-item rates its time gives.
Record measured(std::string section, std::string caseName, std::string path, std::string label, std::uint64_t n,
                const Timing& t, std::string note);

// A record of a path that could not run, saying why.
Record absent(std::string section, std::string caseName, std::string path, std::string label, std::uint64_t n,
              std::string why);

const Record* findRecord(const std::vector<Record>& records, const std::string& section, const std::string& caseName,
                         const std::string& path, std::uint64_t n);

// Three significant digits in a unit that suits the value.
std::string formatMs(double ms);

std::string formatNumber(double v, const char* format = "%.3g");

// "1 thread", "4 threads".
std::string pluralThreads(int threads);

} // namespace facet::bench
