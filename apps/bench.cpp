// facet-bench: "why was my GPU renderer slower than my CPU one", answered with measurements.
// The vertex stage (the seed's math) on NumPy, the CPU and the GPU, the GPU both with its data
// resident and copied over the bus on every call, three kernels and one fused; then whole
// frames of the default scene and of generated scenes on the CPU (1..N threads), the GPU and
// OpenGL. Paths that cannot run here (no GPU, no numpy, no OpenGL) are rows that say why.
#include "cli.h"

#include "asset/obj_loader.h"
#include "core/camera.h"
#include "core/error.h"
#include "core/mesh.h"
#include "cpu/cpu_renderer.h"
#include "cpu/project.h"
#include "cpu/thread_pool.h"
#include "cuda/device.h"
#include "cuda/gpu_renderer.h"
#include "gl/gl_reference.h"
#if defined(FACET_HAVE_CUDA)
#include "cuda/device_buffer.h"
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr const char* kUsage = R"(usage: facet-bench [options]

Measures the vertex stage (NumPy, CPU, GPU with data resident or copied every call, three
kernels or one fused) over 10^3..10^7 vertices, and whole frames of the default scene and of
generated scenes (10k..4M tiny triangles, a few hundred large quads) at 1280x720 and 1920x1080
on the CPU (1..N threads), the GPU and OpenGL. Paths that cannot run here are reported with
the reason. Prints a table; --out also writes bench.csv and bench.json (plot them with
scripts/plot_bench.py).

  --quick            a tiny configuration (seconds): sweep 10^3..10^4, few calls, the default
                     scene at 160x90, 3 frames
  --sections LIST    vertex,raster (default both)
  --frames K         measured frames per raster case (default 10; 3 with --quick)
  --threads N        CPU threads at most (default: one per hardware thread)
  --out DIR          write DIR/bench.csv and DIR/bench.json
  -h, --help         this text
)";

struct Options {
    bool quick = false;
    bool vertex = true, raster = true;
    std::optional<int> frames;
    int threads = 0;
    std::optional<std::string> out;
    bool help = false;
};

Options parseArguments(int argc, char** argv) {
    using namespace facet::cli;
    Options o;
    Arguments args(argc, argv);
    for (std::string arg; args.next(arg);) {
        if (arg == "-h" || arg == "--help") {
            o.help = true;
            return o;
        } else if (arg == "--quick") {
            o.quick = true;
        } else if (arg == "--sections") {
            const std::string list = args.value();
            o.vertex = o.raster = false;
            std::stringstream in(list);
            for (std::string part; std::getline(in, part, ',');) {
                if (part == "vertex") o.vertex = true;
                else if (part == "raster") o.raster = true;
                else throw UsageError("--sections expects a list of vertex and raster, got '" + list + "'");
            }
            if (!o.vertex && !o.raster) throw UsageError("--sections expects a list of vertex and raster, got '" + list + "'");
        } else if (arg == "--frames") {
            o.frames = static_cast<int>(parseInteger(arg, args.value(), 1, 10000));
        } else if (arg == "--threads") {
            o.threads = static_cast<int>(parseInteger(arg, args.value(), 1, 1024));
        } else if (arg == "--out") {
            o.out = args.value();
            if (o.out->empty()) throw UsageError("--out expects a directory, got ''");
        } else {
            throw UsageError(arg.rfind('-', 0) == 0 ? "unknown option " + arg + " (see --help)"
                                                    : "unexpected argument '" + arg + "' (see --help)");
        }
    }
    return o;
}

// ---- Measurements and their records ----

struct Timing {
    double medianMs = 0.0, lowMs = 0.0, highMs = 0.0; // spread: min-max over the runs
    int runs = 0;
};

Timing summarise(std::vector<double> ms) {
    std::sort(ms.begin(), ms.end());
    Timing t;
    if (ms.empty()) return t;
    t.medianMs = ms[ms.size() / 2];
    t.lowMs = ms.front();
    t.highMs = ms.back();
    t.runs = static_cast<int>(ms.size());
    return t;
}

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

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
    std::optional<double> nsPerItem, itemsPerS, pixelsPerS, ratioToGl;
};

Record named(std::string section, std::string caseName, std::string path, std::string label, std::uint64_t n) {
    Record r;
    r.section = std::move(section);
    r.caseName = std::move(caseName);
    r.path = std::move(path);
    r.label = std::move(label);
    r.n = n;
    return r;
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

// Three significant digits in a unit that suits the value.
std::string formatMs(double ms) {
    char buf[32];
    if (ms < 1e-3) std::snprintf(buf, sizeof buf, "%.3g ns", ms * 1e6);
    else if (ms < 1.0) std::snprintf(buf, sizeof buf, "%.3g us", ms * 1e3);
    else if (ms < 1000.0) std::snprintf(buf, sizeof buf, "%.3g ms", ms);
    else std::snprintf(buf, sizeof buf, "%.3g s", ms * 1e-3);
    return buf;
}

std::string formatNumber(double v, const char* format = "%.3g") {
    char buf[32];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

// ---- The machine ----

struct Machine {
    std::string cpu;
    int hardwareThreads = 1;
    facet::GpuStatus gpu;
    facet::GlAvailability gl;
};

// The model name from /proc/cpuinfo, and the widest vector path the engine picks at run time
// (the same test as engine/cpu/project.cpp).
std::string cpuModel() {
    std::ifstream in("/proc/cpuinfo");
    std::string model = "unknown (no model name in /proc/cpuinfo)";
    for (std::string line; std::getline(in, line);) {
        const auto colon = line.find(':');
        if (line.rfind("model name", 0) == 0 && colon != std::string::npos) {
            model = line.substr(std::min(line.size(), colon + 2));
            break;
        }
    }
    __builtin_cpu_init();
    const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
    return model + (avx512 ? ", AVX-512" : __builtin_cpu_supports("avx2") ? ", AVX2 (no AVX-512)" : ", no AVX2");
}

Machine probeMachine() {
    Machine m;
    m.cpu = cpuModel();
    m.hardwareThreads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    m.gpu = facet::probeGpu();
    m.gl = facet::GlReferenceRenderer::probe();
    return m;
}

std::string gpuText(const facet::GpuStatus& gpu) {
    return gpu.usable ? gpu.deviceName + " (compute " + std::to_string(gpu.computeMajor) + "." +
                            std::to_string(gpu.computeMinor) + ")"
                      : "none: " + gpu.reason;
}

std::string glText(const facet::GlAvailability& gl) {
    return gl.usable ? gl.renderer + " (" + gl.context + ")" : "unusable: " + gl.reason;
}

// ---- Vertex stage ----

constexpr std::size_t kSeedVertices = 1000;

struct VertexPlan {
    int seedCalls = 10000; // the seed's 10,000 calls of 1,000 vertices, per run
    int maxCalls = 10000;  // sweep: a run is min(maxCalls, 10^7 / n) calls, at least 3
    int runs = 5;
    std::vector<std::size_t> sizes{1000, 10000, 100000, 1000000, 10000000};

    int callsFor(std::size_t n) const {
        return static_cast<int>(std::max<std::size_t>(3, std::min<std::size_t>(std::size_t(maxCalls), 10000000 / n)));
    }
};

// The seed's data: float32 positions in [-50, 50]^3 as structure of arrays, and the outputs.
struct Vertices {
    std::vector<float> px, py, pz, x, y, z;
    explicit Vertices(std::size_t n) : px(n), py(n), pz(n), x(n), y(n), z(n) {
        std::mt19937 rng(42);
        std::uniform_real_distribution<float> pos(-50.0f, 50.0f);
        for (std::size_t i = 0; i < n; ++i) {
            px[i] = pos(rng);
            py[i] = pos(rng);
            pz[i] = pos(rng);
        }
    }
    std::size_t size() const { return px.size(); }
};

// The seed's camera: identity rotation, shift (0, 0, 10), focus 5.
facet::ProjectParams seedParams(const float* px, const float* py, const float* pz, float* x, float* y, float* z,
                                std::size_t n) {
    return {px, py, pz, x, y, z, static_cast<std::uint32_t>(n), glm::vec3(0.0f, 0.0f, 10.0f), glm::mat3(1.0f), 5.0f};
}

// Per-call milliseconds: a warm-up, then `runs` runs of `calls` calls, each run timed whole.
template <class Call>
Timing timeCalls(int calls, int runs, Call&& call) {
    for (int i = 0; i < std::min(calls, 100); ++i) call();
    std::vector<double> perCall;
    for (int r = 0; r < runs; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < calls; ++i) call();
        perCall.push_back(msSince(t0) / calls);
    }
    return summarise(perCall);
}

struct NumpyResult {
    std::string caseName;
    std::size_t n = 0;
    int calls = 0;
    Timing time;
    std::string version;
};

// Values from the baseline script's JSON lines: flat objects with known keys, so a key search
// is enough.
std::optional<std::string> jsonField(const std::string& line, const std::string& key) {
    const std::string needle = "\"" + key + "\": ";
    const auto at = line.find(needle);
    if (at == std::string::npos) return std::nullopt;
    std::size_t i = at + needle.size();
    if (i < line.size() && line[i] == '"') {
        std::string value;
        for (++i; i < line.size() && line[i] != '"'; ++i) {
            if (line[i] == '\\' && i + 1 < line.size()) ++i;
            value += line[i];
        }
        return value;
    }
    const auto end = line.find_first_of(",}", i);
    return line.substr(i, end == std::string::npos ? std::string::npos : end - i);
}

std::string shellQuote(const std::string& s) {
    std::string q = "'";
    for (const char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// Runs scripts/numpy_vertex_baseline.py with the first Python that has numpy: Debian's
// /usr/bin/python3 first, since python3 on PATH may be another installation without it.
std::vector<NumpyResult> runNumpy(const VertexPlan& plan, std::string& why) {
    std::string sizes;
    for (const std::size_t n : plan.sizes) sizes += (sizes.empty() ? "" : ",") + std::to_string(n);
    const std::string args = " " + shellQuote(FACET_NUMPY_SCRIPT) + " --json --sizes " + sizes + " --seed-calls " +
                             std::to_string(plan.seedCalls) + " --max-calls " + std::to_string(plan.maxCalls) +
                             " --runs " + std::to_string(plan.runs) + " 2>&1";
    std::vector<std::string> reasons;
    for (const std::string python : {"/usr/bin/python3", "python3"}) {
        if (python.front() == '/' && !std::filesystem::exists(python)) {
            reasons.push_back(python + " does not exist");
            continue;
        }
        if (python.front() != '/' && std::system("command -v python3 >/dev/null 2>&1") != 0) {
            reasons.push_back("no python3 on PATH");
            continue;
        }
        std::FILE* pipe = popen((python + args).c_str(), "r");
        if (!pipe) {
            reasons.push_back("cannot run " + python);
            continue;
        }
        std::string output;
        char buf[4096];
        while (std::fgets(buf, sizeof buf, pipe)) output += buf;
        const int status = pclose(pipe);
        std::vector<NumpyResult> results;
        std::string absentReason, lastLine;
        std::istringstream lines(output);
        for (std::string line; std::getline(lines, line);) {
            if (!line.empty()) lastLine = line;
            if (line.empty() || line[0] != '{') continue;
            if (const auto a = jsonField(line, "absent")) {
                absentReason = *a;
                continue;
            }
            const auto c = jsonField(line, "case"), n = jsonField(line, "n"), calls = jsonField(line, "calls"),
                       med = jsonField(line, "median_s"), lo = jsonField(line, "min_s"), hi = jsonField(line, "max_s"),
                       runs = jsonField(line, "runs"), version = jsonField(line, "numpy");
            if (!c || !n || !calls || !med || !lo || !hi || !runs) continue;
            NumpyResult r;
            r.caseName = *c;
            r.n = std::stoull(*n);
            r.calls = std::stoi(*calls);
            r.time = {std::stod(*med) * 1e3, std::stod(*lo) * 1e3, std::stod(*hi) * 1e3, std::stoi(*runs)};
            r.version = version.value_or("?");
            results.push_back(r);
        }
        if (!results.empty() && status == 0) return results;
        reasons.push_back(!absentReason.empty() ? absentReason
                          : lastLine.empty()    ? python + " printed nothing (exit status " + std::to_string(status) + ")"
                                                : python + ": " + lastLine);
    }
    why.clear();
    for (const std::string& r : reasons) why += (why.empty() ? "" : "; ") + r;
    return {};
}

struct GpuPath {
    const char* id;
    const char* label;
    bool fused;
    bool copies;
};

constexpr GpuPath kGpuPaths[] = {
    {"gpu_separate_resident", "GPU 3 kernels, resident", false, false},
    {"gpu_separate_copies", "GPU 3 kernels, copy each call", false, true},
    {"gpu_fused_resident", "GPU fused, resident", true, false},
    {"gpu_fused_copies", "GPU fused, copy each call", true, true},
};

#if defined(FACET_HAVE_CUDA)
// The vertex stage on the device, timed with CUDA events on one stream. "Copies" sends the
// positions to the device and the results back on every call, from ordinary (pageable) host
// memory, as a renderer that keeps nothing resident does.
class GpuVertexBench {
public:
    explicit GpuVertexBench(Vertices& v) : v_(v), n_(v.size()) {
        for (facet::DeviceBuffer<float>* b : {&px_, &py_, &pz_, &x_, &y_, &z_}) b->ensure(n_);
        px_.upload(v.px.data(), n_);
        py_.upload(v.py.data(), n_);
        pz_.upload(v.pz.data(), n_);
    }

    Timing measure(const GpuPath& path, int calls, int runs) {
        const auto call = [&] {
            cudaStream_t s = stream_.get();
            if (path.copies) {
                FACET_CUDA_CHECK(cudaMemcpyAsync(px_.data(), v_.px.data(), n_ * 4, cudaMemcpyHostToDevice, s));
                FACET_CUDA_CHECK(cudaMemcpyAsync(py_.data(), v_.py.data(), n_ * 4, cudaMemcpyHostToDevice, s));
                FACET_CUDA_CHECK(cudaMemcpyAsync(pz_.data(), v_.pz.data(), n_ * 4, cudaMemcpyHostToDevice, s));
            }
            const auto count = static_cast<std::uint32_t>(n_);
            if (path.fused) {
                facet::launchProject(seedParams(px_.data(), py_.data(), pz_.data(), x_.data(), y_.data(), z_.data(), n_),
                                     s);
            } else {
                facet::launchShift({px_.data(), py_.data(), pz_.data(), x_.data(), y_.data(), z_.data(), count,
                                    glm::vec3(0.0f, 0.0f, 10.0f)},
                                   s);
                facet::launchRotate({x_.data(), y_.data(), z_.data(), count, glm::mat3(1.0f)}, s);
                facet::launchDivide({x_.data(), y_.data(), z_.data(), count, 5.0f}, s);
            }
            if (path.copies) {
                FACET_CUDA_CHECK(cudaMemcpyAsync(v_.x.data(), x_.data(), n_ * 4, cudaMemcpyDeviceToHost, s));
                FACET_CUDA_CHECK(cudaMemcpyAsync(v_.y.data(), y_.data(), n_ * 4, cudaMemcpyDeviceToHost, s));
                FACET_CUDA_CHECK(cudaMemcpyAsync(v_.z.data(), z_.data(), n_ * 4, cudaMemcpyDeviceToHost, s));
            }
        };
        for (int i = 0; i < std::min(calls, 100); ++i) call();
        FACET_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
        std::vector<double> perCall;
        for (int r = 0; r < runs; ++r) {
            FACET_CUDA_CHECK(cudaEventRecord(start_.get(), stream_.get()));
            for (int i = 0; i < calls; ++i) call();
            FACET_CUDA_CHECK(cudaEventRecord(stop_.get(), stream_.get()));
            FACET_CUDA_CHECK(cudaEventSynchronize(stop_.get()));
            float ms = 0.0f;
            FACET_CUDA_CHECK(cudaEventElapsedTime(&ms, start_.get(), stop_.get()));
            perCall.push_back(double(ms) / calls);
        }
        return summarise(perCall);
    }

private:
    Vertices& v_;
    std::size_t n_;
    facet::DeviceBuffer<float> px_, py_, pz_, x_, y_, z_;
    facet::CudaStream stream_;
    facet::CudaEvent start_, stop_;
};
#endif

const char* const kCpuVertexPaths[] = {"cpu_scalar", "cpu_vectorised", "cpu_threads"};

// The CPU rows and the GPU rows of one vertex count (the NumPy rows come from the script).
void measureVertexCase(const std::string& caseName, std::size_t n, int calls, int runs, facet::ThreadPool& pool,
                       const Machine& machine, std::vector<Record>& records) {
    Vertices v(n);
    const facet::ProjectParams p = seedParams(v.px.data(), v.py.data(), v.pz.data(), v.x.data(), v.y.data(),
                                              v.z.data(), n);
    const std::string how = std::to_string(calls) + " calls x " + std::to_string(runs) + " runs";
    records.push_back(measured("vertex", caseName, "cpu_scalar", "CPU scalar, 1 thread", n,
                               timeCalls(calls, runs, [&] { facet::projectVerticesScalar(p, 0, n); }), how));
    records.push_back(measured("vertex", caseName, "cpu_vectorised", "CPU vectorised, 1 thread", n,
                               timeCalls(calls, runs, [&] { facet::projectVertices(p, 0, n); }), how));
    constexpr std::size_t kBlock = 65536;
    const int threads = pool.threadCount();
    records.push_back(measured(
        "vertex", caseName, "cpu_threads",
        "CPU vectorised, " + std::to_string(threads) + (threads == 1 ? " thread" : " threads"), n,
        timeCalls(calls, runs,
                  [&] {
                      pool.run((n + kBlock - 1) / kBlock, [&](std::size_t b, int) {
                          facet::projectVertices(p, b * kBlock, std::min(n, (b + 1) * kBlock));
                      });
                  }),
        how + ", blocks of 64k vertices"));

    std::string gpuWhy = machine.gpu.usable ? std::string() : machine.gpu.reason;
#if defined(FACET_HAVE_CUDA)
    if (machine.gpu.usable) {
        try {
            GpuVertexBench gpu(v);
            for (const GpuPath& path : kGpuPaths)
                records.push_back(measured("vertex", caseName, path.id, path.label, n, gpu.measure(path, calls, runs),
                                           how + ", CUDA events"));
            return;
        } catch (const facet::Error& e) {
            gpuWhy = e.what();
        }
    }
#endif
    for (const GpuPath& path : kGpuPaths) records.push_back(absent("vertex", caseName, path.id, path.label, n, gpuWhy));
}

const Record* findRecord(const std::vector<Record>& records, const std::string& section, const std::string& caseName,
                         const std::string& path, std::uint64_t n) {
    for (const Record& r : records)
        if (r.section == section && r.caseName == caseName && r.path == path && r.n == n) return &r;
    return nullptr;
}

// The smallest sweep size where the resident, fused GPU kernel beats every CPU row.
Record breakEven(const std::vector<Record>& records, const VertexPlan& plan, const Machine& machine) {
    Record r = absent("vertex", "break_even", "gpu_fused_resident", "GPU fused, resident vs best CPU", 0, "");
    const Record* any = nullptr;
    for (const std::size_t n : plan.sizes) {
        const Record* gpu = findRecord(records, "vertex", "sweep", "gpu_fused_resident", n);
        if (!gpu) continue;
        any = gpu;
        if (!gpu->present) continue;
        double bestCpu = 0.0;
        std::string bestPath;
        for (const char* path : kCpuVertexPaths) {
            const Record* c = findRecord(records, "vertex", "sweep", path, n);
            if (c && c->present && (bestPath.empty() || c->time.medianMs < bestCpu)) {
                bestCpu = c->time.medianMs;
                bestPath = c->label;
            }
        }
        if (!bestPath.empty() && gpu->time.medianMs < bestCpu) {
            r = measured("vertex", "break_even", "gpu_fused_resident", r.label, n, gpu->time,
                         "the GPU (resident, fused) overtakes the best CPU path (" + bestPath + ", " +
                             formatMs(bestCpu) + ") at n = " + std::to_string(n));
            return r;
        }
    }
    if (any && !any->present) r.note = "no GPU: " + any->note;
    else if (!machine.gpu.usable) r.note = "no GPU: " + machine.gpu.reason;
    else
        r.note = "the GPU (resident, fused) never overtakes the best CPU path within the sweep (n = " +
                 std::to_string(plan.sizes.front()) + " .. " + std::to_string(plan.sizes.back()) + ")";
    return r;
}

void runVertexSection(const Options& o, const Machine& machine, std::vector<Record>& records) {
    VertexPlan plan;
    if (o.quick) {
        plan.seedCalls = 200;
        plan.maxCalls = 100;
        plan.runs = 3;
        plan.sizes = {1000, 10000};
    }
    std::cout << "vertex stage: d = R(v - eye), then x, y *= focus/|d.z| (identity R, eye (0,0,10), focus 5)\n"
              << std::flush;

    std::string numpyWhy;
    const std::vector<NumpyResult> numpy = runNumpy(plan, numpyWhy);
    const auto numpyRecord = [&](const std::string& caseName, std::size_t n) {
        for (const NumpyResult& r : numpy)
            if (r.caseName == caseName && r.n == n)
                return measured("vertex", caseName, "numpy", "NumPy", n, r.time,
                                std::to_string(r.calls) + " calls x " + std::to_string(r.time.runs) + " runs, numpy " +
                                    r.version);
        return absent("vertex", caseName, "numpy", "NumPy", n,
                      numpy.empty() ? numpyWhy : "the baseline script reported no result for this size");
    };

    facet::ThreadPool pool(o.threads);
    records.push_back(numpyRecord("seed", kSeedVertices));
    measureVertexCase("seed", kSeedVertices, plan.seedCalls, plan.runs, pool, machine, records);
    for (const std::size_t n : plan.sizes) {
        std::cout << "  sweep n = " << n << "\n" << std::flush;
        records.push_back(numpyRecord("sweep", n));
        measureVertexCase("sweep", n, plan.callsFor(n), plan.runs, pool, machine, records);
    }
    records.push_back(breakEven(records, plan, machine));
}

// ---- Raster ----

constexpr int kGeneratedEyeDistance = 2;

// Generated scenes are seen from (0, 0, 2) down -Z with a 60 degree vertical field of view.
facet::Camera generatedCamera() {
    facet::Camera c;
    c.eye = glm::vec3(0.0f, 0.0f, float(kGeneratedEyeDistance));
    c.fovYDegrees = 60.0f;
    c.nearPlane = 0.5f;
    c.farPlane = 10.0f;
    return c;
}

// Half the height the generated camera sees at z = 0, a little more so the grid's border is
// outside the picture.
float generatedHalfHeight() {
    return 1.02f * float(kGeneratedEyeDistance) * std::tan(glm::radians(30.0f));
}

void finishModel(facet::Model& model) {
    facet::Mesh& m = model.mesh;
    const std::size_t n = m.vertexCount();
    m.u.assign(n, 0.0f);
    m.v.assign(n, 0.0f);
    m.hasTexCoords = false;
    facet::generateNormals(m);
    facet::computeBounds(m);
    facet::Material material;
    material.name = "generated";
    model.materials = {material};
    m.ranges = {{0, static_cast<std::uint32_t>(m.triangleCount()), 0}};
    facet::validateMesh(m, model.materials.size(), model.source);
}

// About `triangles` small triangles tiling the view at aspect 16:9: a grid of cells, two
// triangles each.
facet::Model gridScene(std::size_t triangles) {
    constexpr float kAspect = 16.0f / 9.0f;
    const auto cells = double(triangles / 2);
    const auto rows = std::max<std::size_t>(1, std::size_t(std::lround(std::sqrt(cells / kAspect))));
    const auto cols = std::max<std::size_t>(1, std::size_t(std::lround(cells / double(rows))));
    const float h = generatedHalfHeight(), w = h * kAspect;
    facet::Model model;
    model.source = "generated grid of " + std::to_string(2 * rows * cols) + " triangles";
    facet::Mesh& m = model.mesh;
    const std::size_t vertices = (rows + 1) * (cols + 1);
    m.px.reserve(vertices);
    m.py.reserve(vertices);
    m.pz.reserve(vertices);
    for (std::size_t r = 0; r <= rows; ++r)
        for (std::size_t c = 0; c <= cols; ++c) {
            m.px.push_back(-w + 2.0f * w * float(c) / float(cols));
            m.py.push_back(-h + 2.0f * h * float(r) / float(rows));
            m.pz.push_back(0.0f);
        }
    m.indices.reserve(6 * rows * cols);
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c) {
            const auto a = static_cast<std::uint32_t>(r * (cols + 1) + c), b = a + 1;
            const auto d = static_cast<std::uint32_t>(a + cols + 1), e = d + 1;
            m.indices.insert(m.indices.end(), {a, b, e, a, e, d});
        }
    finishModel(model);
    return model;
}

// `quads` large quads facing the camera at different depths, each a tenth to two fifths of
// the view high, overlapping many times over: few triangles, many fragments each.
facet::Model quadScene(std::size_t quads) {
    constexpr float kAspect = 16.0f / 9.0f;
    const float h = generatedHalfHeight(), w = h * kAspect;
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    facet::Model model;
    model.source = "generated " + std::to_string(quads) + " overlapping quads";
    facet::Mesh& m = model.mesh;
    for (std::size_t q = 0; q < quads; ++q) {
        const float cx = (2.0f * unit(rng) - 1.0f) * w, cy = (2.0f * unit(rng) - 1.0f) * h;
        const float sx = (0.2f + 0.6f * unit(rng)) * h, sy = (0.2f + 0.6f * unit(rng)) * h;
        const float z = -1.5f * unit(rng);
        const auto base = static_cast<std::uint32_t>(m.px.size());
        for (const glm::vec2 corner : {glm::vec2(-1, -1), glm::vec2(1, -1), glm::vec2(1, 1), glm::vec2(-1, 1)}) {
            m.px.push_back(cx + 0.5f * sx * corner.x);
            m.py.push_back(cy + 0.5f * sy * corner.y);
            m.pz.push_back(z);
        }
        m.indices.insert(m.indices.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
    }
    finishModel(model);
    return model;
}

struct SceneSpec {
    std::string name;
    std::string kind; // obj | grid | quads
    std::size_t count = 0;
};

struct Size {
    int width, height;
};

struct RasterPlan {
    std::vector<SceneSpec> scenes;
    std::vector<Size> sizes;
    int warmup = 2;
    int frames = 10;
};

std::string pluralThreads(int t) { return std::to_string(t) + (t == 1 ? " thread" : " threads"); }

template <class Frame>
Timing timeFrames(const RasterPlan& plan, Frame&& frame) {
    for (int i = 0; i < plan.warmup; ++i) frame();
    std::vector<double> ms;
    for (int i = 0; i < plan.frames; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        frame();
        ms.push_back(msSince(t0));
    }
    return summarise(ms);
}

Record rasterRecord(Record r, int width, int height) {
    r.width = width;
    r.height = height;
    r.item = "triangle";
    if (r.present && r.time.medianMs > 0.0) r.pixelsPerS = double(width) * double(height) / (r.time.medianMs * 1e-3);
    return r;
}

void runRasterSection(const Options& o, const Machine& machine, std::vector<Record>& records) {
    RasterPlan plan;
    if (o.quick) {
        plan.scenes = {{"default", "obj", 0}};
        plan.sizes = {{160, 90}};
        plan.warmup = 1;
        plan.frames = 3;
    } else {
        plan.scenes = {{"default", "obj", 0},         {"grid_10k", "grid", 10000},  {"grid_100k", "grid", 100000},
                       {"grid_1m", "grid", 1000000}, {"grid_4m", "grid", 4000000}, {"quads_200", "quads", 200}};
        plan.sizes = {{1280, 720}, {1920, 1080}};
    }
    if (o.frames) plan.frames = *o.frames;
    const int maxThreads = o.threads > 0 ? o.threads : machine.hardwareThreads;

    std::cout << "raster: whole frames, " << plan.warmup << " warm-up + " << plan.frames << " measured each\n"
              << std::flush;
    std::vector<std::unique_ptr<facet::CpuRenderer>> cpus; // a renderer owns its thread pool, so it cannot move
    for (int t = 1; t <= maxThreads; ++t) cpus.push_back(std::make_unique<facet::CpuRenderer>(t));
    std::optional<facet::GpuRenderer> gpu;
    std::string gpuWhy;
    try {
        gpu.emplace();
    } catch (const std::exception& e) {
        gpuWhy = e.what();
    }
    std::optional<facet::GlReferenceRenderer> gl;
    std::string glWhy;
    try {
        gl.emplace();
    } catch (const std::exception& e) {
        glWhy = e.what();
    }
    const facet::RenderSettings settings;

    for (const SceneSpec& spec : plan.scenes) {
        std::cout << "  scene " << spec.name << "\n" << std::flush;
        const facet::Model model = spec.kind == "obj"    ? facet::loadObj(FACET_DEFAULT_SCENE)
                                   : spec.kind == "grid" ? gridScene(spec.count)
                                                         : quadScene(spec.count);
        const std::uint64_t triangles = model.mesh.triangleCount();
        std::string sceneGpuWhy = gpuWhy;
        if (gpu) {
            try {
                gpu->upload(model);
            } catch (const std::exception& e) {
                sceneGpuWhy = e.what();
            }
        }
        for (const Size size : plan.sizes) {
            const float aspect = float(size.width) / float(size.height);
            const facet::ViewParams view = spec.kind == "obj" ? facet::Camera::framing(model.mesh, aspect).view(aspect)
                                                              : generatedCamera().view(aspect);
            std::vector<std::uint32_t> color(std::size_t(size.width) * std::size_t(size.height));
            std::vector<float> depth(color.size());
            const facet::FrameView target{color.data(), depth.data(), size.width, size.height};
            const std::string frames = std::to_string(plan.frames) + " frames after " + std::to_string(plan.warmup) +
                                       " warm-up";
            const std::size_t first = records.size();
            for (const std::unique_ptr<facet::CpuRenderer>& cpu : cpus) {
                const int t = cpu->threadCount();
                records.push_back(rasterRecord(
                    measured("raster", spec.name, "cpu_" + std::to_string(t) + "t", "facet CPU, " + pluralThreads(t),
                             triangles, timeFrames(plan, [&] { cpu->render(model, view, settings, target); }), frames),
                    size.width, size.height));
            }
            if (gpu && sceneGpuWhy.empty()) {
                try {
                    records.push_back(rasterRecord(
                        measured("raster", spec.name, "gpu", "facet GPU", triangles,
                                 timeFrames(plan, [&] { gpu->renderToHost(view, settings, target); }),
                                 frames + ", frame copied to the host"),
                        size.width, size.height));
                } catch (const std::exception& e) {
                    records.push_back(rasterRecord(absent("raster", spec.name, "gpu", "facet GPU", triangles, e.what()),
                                                   size.width, size.height));
                }
            } else {
                records.push_back(rasterRecord(absent("raster", spec.name, "gpu", "facet GPU", triangles, sceneGpuWhy),
                                               size.width, size.height));
            }
            std::optional<double> glMs;
            if (gl) {
                try {
                    const Timing t = timeFrames(plan, [&] { gl->render(model, view, settings, target); });
                    records.push_back(rasterRecord(measured("raster", spec.name, "gl", "OpenGL", triangles, t,
                                                            frames + ", " + gl->rendererName() + ", read back"),
                                                   size.width, size.height));
                    glMs = t.medianMs;
                } catch (const std::exception& e) {
                    records.push_back(rasterRecord(absent("raster", spec.name, "gl", "OpenGL", triangles, e.what()),
                                                   size.width, size.height));
                }
            } else {
                records.push_back(
                    rasterRecord(absent("raster", spec.name, "gl", "OpenGL", triangles, "OpenGL is unusable: " + glWhy),
                                 size.width, size.height));
            }
            for (std::size_t i = first; i < records.size(); ++i)
                if (records[i].present && glMs && *glMs > 0.0) records[i].ratioToGl = records[i].time.medianMs / *glMs;
        }
    }
}

// ---- Output ----

void printHeader(const Machine& m, const Options& o) {
    std::cout << "facet-bench" << (o.quick ? " (quick)" : "") << "\n"
              << "  CPU      " << m.cpu << "\n"
              << "  threads  " << m.hardwareThreads << " hardware" << (o.threads > 0 ? ", using at most " + std::to_string(o.threads) : std::string()) << "\n"
              << "  GPU      " << gpuText(m.gpu) << (facet::builtWithCuda() ? "" : " (built without CUDA)") << "\n"
              << "  OpenGL   " << glText(m.gl) << "\n\n"
              << std::flush;
}

std::string pad(const std::string& s, std::size_t width) {
    return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}

std::string spreadText(const Timing& t) { return formatMs(t.lowMs) + " - " + formatMs(t.highMs); }

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

void printRasterTable(const std::vector<Record>& records) {
    std::cout << "\nRaster, whole frames (median; spread min - max; vs GL = frame time / OpenGL's)\n"
              << pad("scene", 11) << pad("triangles", 10) << pad("size", 10) << pad("path", 22) << pad("median", 10)
              << pad("spread", 21) << pad("Mtri/s", 9) << pad("Mpix/s", 9) << "vs GL\n";
    for (const Record& r : records) {
        if (r.section != "raster") continue;
        std::cout << pad(r.caseName, 11) << pad(std::to_string(r.n), 10)
                  << pad(std::to_string(r.width) + "x" + std::to_string(r.height), 10) << pad(r.label, 22);
        if (r.present)
            std::cout << pad(formatMs(r.time.medianMs), 10) << pad(spreadText(r.time), 21)
                      << pad(formatNumber(r.itemsPerS.value_or(0.0) * 1e-6), 9)
                      << pad(formatNumber(r.pixelsPerS.value_or(0.0) * 1e-6), 9)
                      << (r.ratioToGl ? formatNumber(*r.ratioToGl, "%.2f") : std::string("-")) << "\n";
        else
            std::cout << "absent: " << r.note << "\n";
    }
}

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

void writeOutputs(const std::string& dir, const Machine& m, const Options& o, const std::vector<Record>& records) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw facet::Error("--out " + dir + ": cannot create the directory: " + ec.message());

    const std::string csvPath = dir + "/bench.csv", jsonPath = dir + "/bench.json";
    std::ofstream csv(csvPath);
    csv << "section,case,path,label,n,item,width,height,status,median_ms,spread_low_ms,spread_high_ms,spread_kind,"
           "runs,ns_per_item,items_per_s,pixels_per_s,ratio_to_gl,note\n";
    for (const Record& r : records)
        csv << r.section << "," << csvField(r.caseName) << "," << r.path << "," << csvField(r.label) << "," << r.n << ","
            << (r.item.empty() ? "vertex" : r.item) << "," << r.width << "," << r.height << ","
            << (r.present ? "ok" : "absent") << "," << numberText(timed(r, &Timing::medianMs), false) << ","
            << numberText(timed(r, &Timing::lowMs), false) << "," << numberText(timed(r, &Timing::highMs), false)
            << ",min-max," << (r.present ? r.time.runs : 0) << "," << numberText(r.nsPerItem, false) << ","
            << numberText(r.itemsPerS, false) << "," << numberText(r.pixelsPerS, false) << ","
            << numberText(r.ratioToGl, false) << "," << csvField(r.note) << "\n";
    csv.close();
    if (!csv) throw facet::Error(csvPath + ": cannot write");

    std::ofstream json(jsonPath);
    json << "{\n  \"machine\": {\"cpu\": " << jsonEscape(m.cpu) << ", \"hardware_threads\": " << m.hardwareThreads
         << ", \"gpu\": " << jsonEscape(gpuText(m.gpu)) << ", \"gpu_usable\": " << (m.gpu.usable ? "true" : "false")
         << ", \"gl\": " << jsonEscape(glText(m.gl)) << ", \"gl_usable\": " << (m.gl.usable ? "true" : "false")
         << ", \"built_with_cuda\": " << (facet::builtWithCuda() ? "true" : "false") << "},\n"
         << "  \"quick\": " << (o.quick ? "true" : "false") << ",\n  \"spread_kind\": \"min-max\",\n  \"records\": [";
    for (std::size_t i = 0; i < records.size(); ++i) {
        const Record& r = records[i];
        json << (i ? ",\n" : "\n") << "    {\"section\": " << jsonEscape(r.section) << ", \"case\": " << jsonEscape(r.caseName)
             << ", \"path\": " << jsonEscape(r.path) << ", \"label\": " << jsonEscape(r.label) << ", \"n\": " << r.n
             << ", \"item\": " << jsonEscape(r.item.empty() ? "vertex" : r.item) << ", \"width\": " << r.width
             << ", \"height\": " << r.height << ", \"status\": " << jsonEscape(r.present ? "ok" : "absent")
             << ", \"median_ms\": " << numberText(timed(r, &Timing::medianMs), true)
             << ", \"spread_ms\": [" << numberText(timed(r, &Timing::lowMs), true) << ", "
             << numberText(timed(r, &Timing::highMs), true) << "], \"runs\": " << (r.present ? r.time.runs : 0)
             << ", \"ns_per_item\": " << numberText(r.nsPerItem, true)
             << ", \"items_per_s\": " << numberText(r.itemsPerS, true)
             << ", \"pixels_per_s\": " << numberText(r.pixelsPerS, true)
             << ", \"ratio_to_gl\": " << numberText(r.ratioToGl, true) << ", \"note\": " << jsonEscape(r.note) << "}";
    }
    json << "\n  ]\n}\n";
    json.close();
    if (!json) throw facet::Error(jsonPath + ": cannot write");
    std::cout << "\nwrote " << csvPath << " and " << jsonPath << " (" << records.size() << " records)\n";
}

int run(const Options& o) {
    if (o.help) {
        std::cout << kUsage;
        return 0;
    }
    const Machine machine = probeMachine();
    printHeader(machine, o);
    std::vector<Record> records;
    if (o.vertex) runVertexSection(o, machine, records);
    if (o.raster) runRasterSection(o, machine, records);
    if (o.vertex) printVertexTable(records);
    if (o.raster) printRasterTable(records);
    if (o.out) writeOutputs(*o.out, machine, o, records);
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    return facet::cli::runMain("facet-bench", [&] { return run(parseArguments(argc, argv)); });
}
