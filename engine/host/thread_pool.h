// A persistent pool of worker threads: created once, woken per parallel section, so a frame
// never pays for thread creation. The calling thread works too, so a pool of N threads has
// N - 1 workers. Between sections a worker spins for a moment before it sleeps, and the calling
// thread spins while the workers finish, since a frame's sections follow one another within
// microseconds and a wake-up costs tens of them (ThreadPool::kSpin).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace facet {

class ThreadPool {
public:
    // threads <= 0 means one per hardware thread.
    explicit ThreadPool(int threads = 0);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int threadCount() const { return static_cast<int>(workers_.size()) + 1; }

    // Calls task(i, thread) for every i in [0, count), spread over the threads, and returns when
    // all are done. `thread` in [0, threadCount()) lets tasks use per-thread scratch space.
    // Tasks are taken in increasing i from a shared counter. An exception thrown by a task is
    // rethrown here after the section ends.
    void run(std::size_t count, const std::function<void(std::size_t index, int thread)>& task);

    // How long a thread spins before it sleeps: a worker waiting for the next section, the
    // calling thread for the workers to finish. Waking a sleeping thread cost 20-50 us on the
    // project's 2-core VM (a condition variable's futex, then the idle vCPU's wake-up), at a
    // section's start and again at its end: a tenth of the 12k-triangle sheet's triangle stage
    // each. The gaps between a frame's sections are a few to tens of microseconds; past this
    // bound an idle pool sleeps and costs nothing. OpenMP runtimes do the same (GOMP_SPINCOUNT,
    // KMP_BLOCKTIME).
    static constexpr std::chrono::microseconds kSpin{100};

private:
    void workerLoop(int thread);
    void drain(int thread);

    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    const std::function<void(std::size_t, int)>* task_ = nullptr;
    std::size_t count_ = 0;
    std::size_t next_ = 0;       // next task index, guarded by mutex_
    // Written under mutex_; atomic so that the spinning threads may read them without it.
    std::atomic<std::size_t> generation_{0}; // bumped per section so workers join each one once
    std::atomic<int> busy_{0};               // workers still inside the current section
    bool stop_ = false;
    std::exception_ptr error_;
};

} // namespace facet
