#include "bench/load_section.h"

#include "asset/load_model.h"
#include "asset/obj_loader.h"
#include "asset/stl_loader.h"
#include "cli.h"

#include <glm/glm.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <string>

namespace facet::bench {

namespace {

namespace fs = std::filesystem;

// A UV sphere of about `triangles` triangles: rings x segments quads, two triangles each.
struct Sphere {
    int rings, segments;
    explicit Sphere(std::uint64_t triangles) {
        rings = std::max(2, int(std::sqrt(double(triangles) / 4.0)));
        segments = 2 * rings;
    }
    int vertices() const { return (rings + 1) * (segments + 1); }
    glm::vec3 position(int r, int s) const {
        const double theta = M_PI * r / rings, phi = 2.0 * M_PI * s / segments;
        return {float(std::sin(theta) * std::cos(phi)), float(std::cos(theta)), float(std::sin(theta) * std::sin(phi))};
    }
    int index(int r, int s) const { return r * (segments + 1) + s; }
    template <class F>
    void forTriangles(F f) const {
        for (int r = 0; r < rings; ++r)
            for (int s = 0; s < segments; ++s) {
                f(index(r, s), index(r + 1, s), index(r + 1, s + 1));
                f(index(r, s), index(r + 1, s + 1), index(r, s + 1));
            }
    }
    std::uint64_t triangles() const { return 2ull * std::uint64_t(rings) * std::uint64_t(segments); }
};

void writeObj(const fs::path& path, const Sphere& sphere) {
    std::ofstream out(path, std::ios::binary);
    char line[128];
    for (int r = 0; r <= sphere.rings; ++r)
        for (int s = 0; s <= sphere.segments; ++s) {
            const glm::vec3 p = sphere.position(r, s);
            out.write(line, std::snprintf(line, sizeof line, "v %.6g %.6g %.6g\n", p.x, p.y, p.z));
            out.write(line, std::snprintf(line, sizeof line, "vt %.5g %.5g\n", double(s) / sphere.segments,
                                          double(r) / sphere.rings));
        }
    sphere.forTriangles([&](int a, int b, int c) {
        out.write(line, std::snprintf(line, sizeof line, "f %d/%d %d/%d %d/%d\n", a + 1, a + 1, b + 1, b + 1, c + 1, c + 1));
    });
}

void writePly(const fs::path& path, const Sphere& sphere) {
    std::ofstream out(path, std::ios::binary);
    out << "ply\nformat binary_little_endian 1.0\nelement vertex " << sphere.vertices()
        << "\nproperty float x\nproperty float y\nproperty float z\nelement face " << sphere.triangles()
        << "\nproperty list uchar int vertex_indices\nend_header\n";
    for (int r = 0; r <= sphere.rings; ++r)
        for (int s = 0; s <= sphere.segments; ++s) {
            const glm::vec3 p = sphere.position(r, s);
            out.write(reinterpret_cast<const char*>(&p), sizeof p);
        }
    sphere.forTriangles([&](int a, int b, int c) {
        const unsigned char three = 3;
        const std::int32_t corners[3] = {a, b, c};
        out.write(reinterpret_cast<const char*>(&three), 1);
        out.write(reinterpret_cast<const char*>(corners), sizeof corners);
    });
}

void writeStl(const fs::path& path, const Sphere& sphere) {
    std::ofstream out(path, std::ios::binary);
    char header[80] = "facet-bench sphere";
    out.write(header, sizeof header);
    const auto count = static_cast<std::uint32_t>(sphere.triangles());
    out.write(reinterpret_cast<const char*>(&count), 4);
    std::vector<glm::vec3> positions;
    for (int r = 0; r <= sphere.rings; ++r)
        for (int s = 0; s <= sphere.segments; ++s) positions.push_back(sphere.position(r, s));
    sphere.forTriangles([&](int a, int b, int c) {
        const glm::vec3 n = glm::cross(positions[b] - positions[a], positions[c] - positions[a]);
        const glm::vec3 record[4] = {n, positions[a], positions[b], positions[c]};
        const std::uint16_t attributes = 0;
        out.write(reinterpret_cast<const char*>(record), sizeof record);
        out.write(reinterpret_cast<const char*>(&attributes), 2);
    });
}

struct Format {
    const char* name;
    const char* extension;
    void (*write)(const fs::path&, const Sphere&);
    bool threaded;   // its loader uses every thread (ObjLoadOptions::threads)
    int ownThreads;  // otherwise, the threads its loader takes by itself where the machine has them
};

constexpr Format kFormats[] = {
    {"obj", ".obj", writeObj, true, 1},
    {"ply", ".ply", writePly, false, 1},
    {"stl", ".stl", writeStl, false, 2}, // from kStlTwoThreadFacets facets
};

// A temporary folder, removed with what it holds.
class ScratchFolder {
public:
    ScratchFolder() : path_(fs::temp_directory_path() / ("facet-bench-load-" + std::to_string(std::random_device{}()))) {
        fs::create_directories(path_);
    }
    ~ScratchFolder() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    ScratchFolder(const ScratchFolder&) = delete;
    ScratchFolder& operator=(const ScratchFolder&) = delete;
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

double loadMs(const fs::path& path, const Format& format, int threads) {
    const auto t0 = std::chrono::steady_clock::now();
    if (format.threaded) {
        ObjLoadOptions options;
        options.threads = threads;
        loadObj(path, options);
    } else {
        loadModel(path);
    }
    return msSince(t0);
}

} // namespace

void runLoadSection(const Options& o, const Machine& machine, std::vector<Record>& records) {
    const std::vector<std::uint64_t> sizes = o.quick ? std::vector<std::uint64_t>{10000}
                                                     : std::vector<std::uint64_t>{100000, 1000000, 4000000};
    const int runs = o.quick ? 1 : 3;
    const int allThreads = o.threads > 0 ? o.threads : machine.hardwareThreads;
    ScratchFolder scratch;
    for (const std::uint64_t size : sizes) {
        const Sphere sphere(size);
        const std::string caseName = size >= 1000000 ? std::to_string(size / 1000000) + "m" : std::to_string(size / 1000) + "k";
        for (const Format& format : kFormats) {
            if (cli::stopSignal()) return;
            const fs::path path = scratch.path() / (std::string("sphere_") + caseName + format.extension);
            format.write(path, sphere);
            const auto bytes = static_cast<std::uint64_t>(fs::file_size(path));
            const int own =
                sphere.triangles() >= kStlTwoThreadFacets ? std::min(format.ownThreads, machine.hardwareThreads) : 1;
            std::vector<int> threadCounts{format.threaded ? 1 : own};
            if (format.threaded && allThreads > 1) threadCounts.push_back(allThreads);
            for (const int threads : threadCounts) {
                std::vector<double> ms;
                loadMs(path, format, threads); // warm: the file in the page cache
                for (int run = 0; run < runs; ++run) ms.push_back(loadMs(path, format, threads));
                Record r = measured("load", std::string(format.name) + "_" + caseName, "threads_" + std::to_string(threads),
                                    std::string(format.name) + ", " + pluralThreads(threads),
                                    bytes, summarise(ms),
                                    std::to_string(sphere.triangles()) + " triangles, file in the page cache");
                r.item = "byte";
                records.push_back(std::move(r));
            }
            fs::remove(path);
        }
    }
}

void printLoadTable(const std::vector<Record>& records) {
    std::cout << "\nLoading, file to model (median of the runs; the file in the page cache)\n";
    char line[160];
    std::snprintf(line, sizeof line, "%-10s %-16s %10s %10s %10s\n", "case", "path", "MB", "median", "MB/s");
    std::cout << line;
    for (const Record& r : records) {
        if (r.section != "load") continue;
        std::snprintf(line, sizeof line, "%-10s %-16s %10.1f %10s %10.0f\n", r.caseName.c_str(), r.label.c_str(),
                      double(r.n) / 1e6, formatMs(r.time.medianMs).c_str(), r.itemsPerS.value_or(0.0) / 1e6);
        std::cout << line;
    }
}

} // namespace facet::bench
