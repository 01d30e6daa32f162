#include "bench/output.h"

#include "asset/file_write.h"
#include "cli.h"
#include "core/error.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <iostream>
#include <optional>

namespace facet::bench {

namespace {

std::string pad(const std::string& s, std::size_t width) {
    return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}

std::string spreadText(const Timing& t) { return formatMs(t.lowMs) + " - " + formatMs(t.highMs); }

std::string jsonEscape(const std::string& s) {
    std::string out = "\"";
    for (const char c : s) {
        if (c == '"' || c == '\\') out += std::string("\\") + c;
        else if (c == '\n') out += "\\n";
        else if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
            out += buf;
        } else out += c;
    }
    return out + "\"";
}

std::string numberText(std::optional<double> v, bool json) {
    if (!v || !std::isfinite(*v)) return json ? "null" : "";
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.9g", *v);
    return buf;
}

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string out = "\"";
    for (const char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::optional<double> timed(const Record& r, double Timing::*field) {
    return r.present ? std::optional<double>(r.time.*field) : std::nullopt;
}

// A raster record's samples per pixel; a vertex record has none.
std::string samplesText(const Record& r, bool json) {
    return r.samples > 0 ? std::to_string(r.samples) : json ? "null" : "";
}

const char* boolText(bool b) { return b ? "true" : "false"; }

void writeCsv(const std::string& path, const std::vector<Record>& records) {
    std::ostringstream csv;
    csv << "section,case,path,label,n,item,width,height,status,median_ms,spread_low_ms,spread_high_ms,spread_kind,"
           "runs,ns_per_item,items_per_s,pixels_per_s,ratio_to_gl,samples,msaa_cost,outputs_cost,note\n";
    for (const Record& r : records)
        csv << r.section << "," << csvField(r.caseName) << "," << r.path << "," << csvField(r.label) << "," << r.n << ","
            << (r.item.empty() ? "vertex" : r.item) << "," << r.width << "," << r.height << ","
            << (r.present ? "ok" : "absent") << "," << numberText(timed(r, &Timing::medianMs), false) << ","
            << numberText(timed(r, &Timing::lowMs), false) << "," << numberText(timed(r, &Timing::highMs), false)
            << ",min-max," << (r.present ? r.time.runs : 0) << "," << numberText(r.nsPerItem, false) << ","
            << numberText(r.itemsPerS, false) << "," << numberText(r.pixelsPerS, false) << ","
            << numberText(r.ratioToGl, false) << "," << samplesText(r, false) << "," << numberText(r.msaaCost, false) << ","
            << numberText(r.outputsCost, false) << "," << csvField(r.note) << "\n";
    writeFileAtomically(path, csv.str(), "the bench results");
}

void writeJsonRecord(std::ostream& json, const Record& r) {
    json << "    {\"section\": " << jsonEscape(r.section) << ", \"case\": " << jsonEscape(r.caseName)
         << ", \"path\": " << jsonEscape(r.path) << ", \"label\": " << jsonEscape(r.label) << ", \"n\": " << r.n
         << ", \"item\": " << jsonEscape(r.item.empty() ? "vertex" : r.item) << ", \"width\": " << r.width
         << ", \"height\": " << r.height << ", \"status\": " << jsonEscape(r.present ? "ok" : "absent")
         << ", \"median_ms\": " << numberText(timed(r, &Timing::medianMs), true)
         << ", \"spread_ms\": [" << numberText(timed(r, &Timing::lowMs), true) << ", "
         << numberText(timed(r, &Timing::highMs), true) << "], \"runs\": " << (r.present ? r.time.runs : 0)
         << ", \"ns_per_item\": " << numberText(r.nsPerItem, true)
         << ", \"items_per_s\": " << numberText(r.itemsPerS, true)
         << ", \"pixels_per_s\": " << numberText(r.pixelsPerS, true)
         << ", \"ratio_to_gl\": " << numberText(r.ratioToGl, true) << ", \"samples\": " << samplesText(r, true)
         << ", \"msaa_cost\": " << numberText(r.msaaCost, true) << ", \"outputs_cost\": " << numberText(r.outputsCost, true)
         << ", \"note\": " << jsonEscape(r.note) << "}";
}

void writeJson(const std::string& path, const Machine& m, const Options& o, const std::vector<Record>& records) {
    std::ostringstream json;
    json << "{\n  \"machine\": {\"cpu\": " << jsonEscape(m.cpu) << ", \"hardware_threads\": " << m.hardwareThreads
         << ", \"gpu\": " << jsonEscape(gpuText(m.gpu)) << ", \"gpu_usable\": " << boolText(m.gpu.usable)
         << ", \"gl\": " << jsonEscape(m.gl.text) << ", \"gl_usable\": " << boolText(m.gl.usable)
         << ", \"built_with_cuda\": " << boolText(builtWithCuda()) << "},\n"
         << "  \"quick\": " << boolText(o.quick) << ",\n"
         << "  \"interrupted\": " << boolText(cli::stopSignal() != 0) << ",\n"
         << "  \"spread_kind\": \"min-max\",\n  \"records\": [";
    for (std::size_t i = 0; i < records.size(); ++i) {
        json << (i ? ",\n" : "\n");
        writeJsonRecord(json, records[i]);
    }
    json << "\n  ]\n}\n";
    writeFileAtomically(path, json.str(), "the bench results");
}

} // namespace

void printHeader(const Machine& m, const Options& o) {
    std::cout << "facet-bench" << (o.quick ? " (quick)" : "") << "\n"
              << "  CPU      " << m.cpu << "\n"
              << "  threads  " << m.hardwareThreads << " hardware"
              << (o.threads > 0 ? ", using at most " + std::to_string(o.threads) : std::string()) << "\n"
              << "  GPU      " << gpuText(m.gpu) << (builtWithCuda() ? "" : " (built without CUDA)") << "\n"
              << "  OpenGL   " << m.gl.text << "\n\n"
              << std::flush;
}

void printVertexTable(const std::vector<Record>& records) {
    std::cout << "\nVertex stage, time per call (median of the runs; spread min - max)\n"
              << pad("case", 7) << pad("n", 10) << pad("path", 31) << pad("median", 11) << pad("spread", 23)
              << pad("ns/vertex", 10) << "\n";
    for (const Record& r : records) {
        if (r.section != "vertex" || r.caseName == "break_even") continue;
        std::cout << pad(r.caseName, 7) << pad(std::to_string(r.n), 10) << pad(r.label, 31);
        if (r.present)
            std::cout << pad(formatMs(r.time.medianMs), 11) << pad(spreadText(r.time), 23)
                      << pad(formatNumber(r.nsPerItem.value_or(0.0)), 10) << "\n";
        else
            std::cout << "absent: " << r.note << "\n";
    }
    for (const Record& r : records)
        if (r.section == "vertex" && r.caseName == "break_even") std::cout << "break-even: " << r.note << "\n";
}

// The paired cost of a raster record (--msaa-cost's or --outputs-cost's), if it has one.
std::optional<double> pairedCost(const Record& r) { return r.msaaCost ? r.msaaCost : r.outputsCost; }

// The heading of the raster records' paired column: "4x/1x" (--msaa-cost 4), "out/plain"
// (--outputs-cost); empty without.
std::string pairedHeading(const std::vector<Record>& records) {
    for (const Record& r : records) {
        if (r.section != "raster") continue;
        if (r.msaaCost) return std::to_string(r.samples) + "x/1x";
        if (r.outputsCost) return "out/plain";
    }
    return {};
}

// A measured raster row's last columns: its ratio to OpenGL's and, paired, its cost.
std::string ratioColumns(const Record& r, bool paired) {
    const std::string gl = r.ratioToGl ? formatNumber(*r.ratioToGl, "%.2f") : "-";
    if (!paired) return gl;
    const std::optional<double> cost = pairedCost(r);
    return pad(gl, 7) + (cost ? formatNumber(*cost, "%.3f") : "-");
}

void printRasterTable(const std::vector<Record>& records) {
    const std::string cost = pairedHeading(records);
    const bool paired = !cost.empty();
    std::cout << "\nRaster, whole frames (median; spread min - max; vs GL = frame time / OpenGL's"
              << (paired ? "; " + cost + " = median of the pairs' frame time ratios" : std::string()) << ")\n"
              << pad("scene", 15) << pad("triangles", 10) << pad("size", 10) << pad("path", 22) << pad("median", 10)
              << pad("spread", 21) << pad("Mtri/s", 9) << pad("Mpix/s", 9) << (paired ? pad("vs GL", 7) + cost : "vs GL")
              << "\n";
    for (const Record& r : records) {
        if (r.section != "raster") continue;
        std::cout << pad(r.caseName, 15) << pad(std::to_string(r.n), 10)
                  << pad(std::to_string(r.width) + "x" + std::to_string(r.height), 10) << pad(r.label, 22);
        if (r.present)
            std::cout << pad(formatMs(r.time.medianMs), 10) << pad(spreadText(r.time), 21)
                      << pad(formatNumber(r.itemsPerS.value_or(0.0) * 1e-6), 9)
                      << pad(formatNumber(r.pixelsPerS.value_or(0.0) * 1e-6), 9)
                      << ratioColumns(r, paired) << "\n";
        else
            std::cout << "absent: " << r.note << "\n";
    }
}

void writeOutputs(const std::string& dir, const Machine& m, const Options& o, const std::vector<Record>& records) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw Error("--out " + dir + ": cannot create the directory: " + ec.message());
    const std::string csvPath = dir + "/bench.csv", jsonPath = dir + "/bench.json";
    writeCsv(csvPath, records);
    writeJson(jsonPath, m, o, records);
    std::cout << "\nwrote " << csvPath << " and " << jsonPath << " (" << records.size() << " records)\n";
}

} // namespace facet::bench
