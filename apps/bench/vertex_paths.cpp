#include "bench/vertex_paths.h"

#include "bench/project.h"
#include "core/error.h"
#include "host/thread_pool.h"
#include "seed_workload.h"
#if defined(FACET_HAVE_CUDA)
#include "cuda/device_buffer.h"
#endif

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <random>

namespace facet::bench {

namespace {

using Vertices = SeedVertices;


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

struct GpuPath {
    const char* id;
    const char* label;
    bool fused;
    bool copies;
};

constexpr GpuPath kGpuPaths[] = {
    {"gpu_separate_resident", "GPU 3 kernels, resident", false, false},
    {"gpu_separate_copies", "GPU 3 kernels, copy each call", false, true},
    {kGpuFusedResident, "GPU fused, resident", true, false},
    {"gpu_fused_copies", "GPU fused, copy each call", true, true},
};

#if defined(FACET_HAVE_CUDA)
// The vertex stage on the device, timed with CUDA events on one stream. "Copies" sends the
// positions to the device and the results back on every call, from ordinary (pageable) host
// memory, as a renderer that keeps nothing resident does.
class GpuVertexBench {
public:
    GpuVertexBench(Vertices& v, int device) : device_(device), v_(v), n_(v.size()) {
        for (DeviceBuffer<float>* b : {&px_, &py_, &pz_, &x_, &y_, &z_}) b->ensure(n_);
        px_.upload(v.px.data(), n_);
        py_.upload(v.py.data(), n_);
        pz_.upload(v.pz.data(), n_);
    }

    Timing measure(const GpuPath& path, int calls, int runs) {
        for (int i = 0; i < std::min(calls, 100); ++i) call(path);
        FACET_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
        std::vector<double> perCall;
        for (int r = 0; r < runs; ++r) {
            FACET_CUDA_CHECK(cudaEventRecord(start_.get(), stream_.get()));
            for (int i = 0; i < calls; ++i) call(path);
            FACET_CUDA_CHECK(cudaEventRecord(stop_.get(), stream_.get()));
            FACET_CUDA_CHECK(cudaEventSynchronize(stop_.get()));
            float ms = 0.0f;
            FACET_CUDA_CHECK(cudaEventElapsedTime(&ms, start_.get(), stop_.get()));
            perCall.push_back(double(ms) / calls);
        }
        return summarise(perCall);
    }

private:
    // One call, queued on the stream.
    void call(const GpuPath& path) {
        cudaStream_t s = stream_.get();
        if (path.copies) {
            FACET_CUDA_CHECK(cudaMemcpyAsync(px_.data(), v_.px.data(), n_ * 4, cudaMemcpyHostToDevice, s));
            FACET_CUDA_CHECK(cudaMemcpyAsync(py_.data(), v_.py.data(), n_ * 4, cudaMemcpyHostToDevice, s));
            FACET_CUDA_CHECK(cudaMemcpyAsync(pz_.data(), v_.pz.data(), n_ * 4, cudaMemcpyHostToDevice, s));
        }
        const auto count = static_cast<std::uint32_t>(n_);
        if (path.fused) {
            launchProject(seedProjectParams(px_.data(), py_.data(), pz_.data(), x_.data(), y_.data(), z_.data(), n_), s);
        } else {
            launchShift({px_.data(), py_.data(), pz_.data(), x_.data(), y_.data(), z_.data(), count,
                         glm::vec3(0.0f, 0.0f, 10.0f)},
                        s);
            launchRotate({x_.data(), y_.data(), z_.data(), count, glm::mat3(1.0f)}, s);
            launchDivide({x_.data(), y_.data(), z_.data(), count, 5.0f}, s);
        }
        if (path.copies) {
            FACET_CUDA_CHECK(cudaMemcpyAsync(v_.x.data(), x_.data(), n_ * 4, cudaMemcpyDeviceToHost, s));
            FACET_CUDA_CHECK(cudaMemcpyAsync(v_.y.data(), y_.data(), n_ * 4, cudaMemcpyDeviceToHost, s));
            FACET_CUDA_CHECK(cudaMemcpyAsync(v_.z.data(), z_.data(), n_ * 4, cudaMemcpyDeviceToHost, s));
        }
    }

    // Made current before anything below is allocated on it (cudaSetDevice is per host thread).
    struct CurrentDevice {
        explicit CurrentDevice(int device) { FACET_CUDA_CHECK(cudaSetDevice(device)); }
    } device_;
    Vertices& v_;
    std::size_t n_;
    DeviceBuffer<float> px_, py_, pz_, x_, y_, z_;
    CudaStream stream_;
    CudaEvent start_, stop_;
};
#endif

// The GPU rows, or the GPU's rows absent with the reason.
void measureGpuPaths(const std::string& caseName, Vertices& v, int calls, int runs, const std::string& how,
                     const Machine& machine, std::vector<Record>& records) {
    const std::size_t n = v.size();
    std::string gpuWhy = machine.gpu.usable ? std::string() : machine.gpu.reason;
#if defined(FACET_HAVE_CUDA)
    if (machine.gpu.usable) {
        try {
            GpuVertexBench gpu(v, chooseGpuDevice(machine.gpuDevice));
            for (const GpuPath& path : kGpuPaths)
                records.push_back(measured("vertex", caseName, path.id, path.label, n, gpu.measure(path, calls, runs),
                                           how + ", CUDA events"));
            return;
        } catch (const Error& e) {
            gpuWhy = e.what();
        }
    }
#else
    (void)calls;
    (void)runs;
    (void)how;
#endif
    for (const GpuPath& path : kGpuPaths) records.push_back(absent("vertex", caseName, path.id, path.label, n, gpuWhy));
}

} // namespace

void measureVertexCase(const std::string& caseName, std::size_t n, int calls, int runs, ThreadPool& pool,
                       const Machine& machine, std::vector<Record>& records) {
    Vertices v(n);
    const ProjectParams p = v.params();
    const std::string how = std::to_string(calls) + " calls x " + std::to_string(runs) + " runs";
    records.push_back(measured("vertex", caseName, kCpuVertexPaths[0], "CPU scalar, 1 thread", n,
                               timeCalls(calls, runs, [&] { projectVerticesScalar(p, 0, n); }), how));
    records.push_back(measured("vertex", caseName, kCpuVertexPaths[1], "CPU vectorised, 1 thread", n,
                               timeCalls(calls, runs, [&] { projectVertices(p, 0, n); }), how));
    constexpr std::size_t kBlock = 65536;
    const auto blocks = [&] {
        pool.run((n + kBlock - 1) / kBlock,
                 [&](std::size_t b, int) { projectVertices(p, b * kBlock, std::min(n, (b + 1) * kBlock)); });
    };
    records.push_back(measured("vertex", caseName, kCpuVertexPaths[2],
                               "CPU vectorised, " + pluralThreads(pool.threadCount()), n,
                               timeCalls(calls, runs, blocks), how + ", blocks of 64k vertices"));
    measureGpuPaths(caseName, v, calls, runs, how, machine, records);
}

} // namespace facet::bench
