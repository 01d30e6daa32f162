// A persistent pool of worker threads: created once, woken per parallel section, so a frame
// never pays for thread creation. The calling thread works too, so a pool of N threads has
// N - 1 workers.
#pragma once

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

private:
    void workerLoop(int thread);
    void drain(int thread);

    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    const std::function<void(std::size_t, int)>* task_ = nullptr;
    std::size_t count_ = 0;
    std::size_t next_ = 0;       // next task index, guarded by mutex_
    std::size_t generation_ = 0; // bumped per section so workers join each one once
    int busy_ = 0;               // workers still inside the current section
    bool stop_ = false;
    std::exception_ptr error_;
};

} // namespace facet
