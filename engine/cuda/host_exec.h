// The CUDA pipeline's executor for the CPU: each "kernel launch" runs the kernel's per-thread
// function for every thread index on the thread pool (blocks of threads as pool tasks, in any
// order and concurrently, as on a GPU, so the libcu++ atomics are exercised; a block's threads
// one after another, after the raster kernel's block-wide step: runHostBlock; or, the raster
// kernel's under warp emulation, in lockstep as the device runs them: emulateWarps). Scans and
// the stable sort are the standard library's, with the results cub gives on the device.
// (thrust's host policy would do as well, but binds a reference to a null pointer inside, which
// the UndefinedBehaviorSanitizer pass of the tests rightly refuses.) See kernel_pipeline.h.
#pragma once

#include "cuda/buffer_growth.h"
#include "cuda/warp_emulation.h"
#include "host/thread_pool.h"
#include "shaders_cuda/visibility.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <numeric>
#include <utility>
#include <vector>

namespace facet {

// One step of a frame on the host executor, logged when asked (see HostExec::logLaunches): a
// kernel launch (items: threads), a library call (scan: 32-bit counts; sort: elements) or a memset,
// with the bytes a library call or memset moves, and the wall time it took on the CPU. A host
// round trip (synchronize) is logged with no items.
struct LaunchRecord {
    const char* name;
    std::uint64_t items;
    double bytes; // library calls and memsets; 0 for kernels (bench/kernel_work.h counts theirs)
    double ms;
    int keyBits;  // sortPairs only
};

class HostExec {
public:
    explicit HostExec(ThreadPool& pool) : pool_(pool) {}

    template <class T>
    class Buffer {
    public:
        // Grows as DeviceBuffer does (geometric capacity); the size is exactly what was asked,
        // so the sanitizers see an access past it.
        void ensure(std::size_t n) {
            if (storage_.size() >= n) return;
            if (storage_.capacity() < n) storage_.reserve(grownCapacity(storage_.capacity(), n, sizeof(T)));
            storage_.resize(n);
        }
        T* data() { return storage_.data(); }

    private:
        std::vector<T> storage_;
    };

    // A block is a tile's worth of raster threads (four raster blocks), so a raster task is one whole tile.
    static constexpr std::uint32_t kBlock = 1024;

    // From now on each step of a frame is appended to `log` (null: no logging, the default).
    void logLaunches(std::vector<LaunchRecord>* log) { log_ = log; }

    // From now on (on: true) the raster kernel's blocks run as the device runs them, their
    // threads in lockstep under warp emulation (cuda/warp_emulation.h), rather than each band
    // culled first and its threads run one after another (HostBand). Slower; for the tests.
    void emulateWarps(bool on) {
        emulators_.clear();
        if (on)
            for (int t = 0; t < pool_.threadCount(); ++t)
                emulators_.push_back(std::make_unique<WarpEmulator>(kRasterBlock));
    }
    // The emulators' steps so far, summed: warps released together, and blocks (see WarpEmulator).
    struct EmulatedSteps {
        std::uint64_t warps = 0, blocks = 0;
    };
    EmulatedSteps emulatedSteps() const {
        EmulatedSteps steps;
        for (const auto& e : emulators_) {
            steps.warps += e->warpSteps();
            steps.blocks += e->blockSteps();
        }
        return steps;
    }

    template <class Params>
    void launch(const Params& params, std::uint32_t threads) {
        const Clock::time_point t0 = Clock::now();
        pool_.run((threads + kBlock - 1) / kBlock, [&](std::size_t block, int thread) {
            const auto begin = static_cast<std::uint32_t>(block) * kBlock;
            // The last block runs whole, as on a GPU: every per-thread function bounds-checks.
            if (emulators_.empty())
                runHostBlock(params, begin, begin + kBlock);
            else
                runHostBlock(params, begin, begin + kBlock, *emulators_[std::size_t(thread)]);
        });
        record(kernelName(params), threads, 0.0, t0);
    }

    template <class T>
    void zero(T* p, std::size_t n) {
        const Clock::time_point t0 = Clock::now();
        std::memset(static_cast<void*>(p), 0, n * sizeof(T));
        record("memset", n, double(n * sizeof(T)), t0);
    }

    // Sums in Out's width (64-bit offsets from 32-bit counts, or TriangleOffsets from
    // TriangleCounts). Logged as the 32-bit counts it sums (a pair of counts is two).
    template <class In, class Out>
    void exclusiveScan(const In* in, Out* out, std::size_t n) {
        const Clock::time_point t0 = Clock::now();
        std::exclusive_scan(in, in + n, out, Out{});
        record("scan", n * (sizeof(In) / sizeof(std::uint32_t)), double(n * (sizeof(In) + sizeof(Out))), t0);
    }

    // Stable: entries with equal keys keep their order (draw order within a tile).
    void sortPairs(const std::uint32_t* keysIn, std::uint32_t* keysOut, const std::uint32_t* valuesIn,
                   std::uint32_t* valuesOut, std::size_t n, int keyBits) {
        const Clock::time_point t0 = Clock::now();
        pairs_.resize(n);
        for (std::size_t i = 0; i < n; ++i) pairs_[i] = {keysIn[i], valuesIn[i]};
        std::stable_sort(pairs_.begin(), pairs_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (std::size_t i = 0; i < n; ++i) {
            keysOut[i] = pairs_[i].first;
            valuesOut[i] = pairs_[i].second;
        }
        record("sortPairs", n, 0.0, t0, keyBits);
    }

    template <class T>
    void download(const T* src, T* dst, std::size_t n) {
        std::copy(src, src + n, dst);
    }
    template <class T>
    void upload(const T* src, T* dst, std::size_t n) {
        std::copy(src, src + n, dst);
    }
    void synchronize() { record("roundTrip", 0, 0.0, Clock::now()); }

    void timerStart() { marks_[0] = Clock::now(); }
    void timerMark(int stage) { marks_[stage + 1] = Clock::now(); }
    void timerRead(double* ms, int stages) const {
        for (int s = 0; s < stages; ++s)
            ms[s] = std::chrono::duration<double, std::milli>(marks_[s + 1] - marks_[s]).count();
    }

private:
    using Clock = std::chrono::steady_clock;

    void record(const char* name, std::uint64_t items, double bytes, Clock::time_point t0, int keyBits = 0) {
        if (log_)
            log_->push_back({name, items, bytes, std::chrono::duration<double, std::milli>(Clock::now() - t0).count(),
                             keyBits});
    }

    ThreadPool& pool_;
    std::vector<LaunchRecord>* log_ = nullptr;
    std::vector<std::unique_ptr<WarpEmulator>> emulators_; // one per pool thread while emulating
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs_;
    Clock::time_point marks_[4];
};

} // namespace facet
