#include "host/thread_pool.h"

#include <algorithm>
#include <immintrin.h>

namespace facet {

namespace {

// Spins until done() or for ThreadPool::kSpin at most; the caller then waits on its condition
// variable as before, which returns at once if done. The clock is read every 64 pauses (a pause
// is 40-140 cycles, by the CPU).
template <class Done> void spinUntil(Done done) {
    const auto end = std::chrono::steady_clock::now() + ThreadPool::kSpin;
    for (unsigned i = 1; !done(); ++i) {
        _mm_pause();
        if (i % 64 == 0 && std::chrono::steady_clock::now() >= end) return;
    }
}

} // namespace

ThreadPool::ThreadPool(int threads) {
    if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    for (int t = 1; t < threads; ++t) workers_.emplace_back([this, t] { workerLoop(t); });
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& w : workers_) w.join();
}

// Takes tasks until none are left. Tasks are coarse (a chunk of triangles, a tile), so one
// lock per task costs nothing measurable and keeps the code obviously correct.
void ThreadPool::drain(int thread) {
    for (;;) {
        std::size_t index;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (next_ >= count_) return;
            index = next_++;
        }
        try {
            (*task_)(index, thread);
        } catch (...) {
            std::lock_guard<std::mutex> lock(mutex_);
            if (!error_) error_ = std::current_exception();
            next_ = count_; // stop handing out work
        }
    }
}

void ThreadPool::workerLoop(int thread) {
    std::size_t seen = 0;
    for (;;) {
        spinUntil([&] { return generation_.load(std::memory_order_acquire) != seen; });
        {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
            if (stop_) return;
            seen = generation_;
        }
        drain(thread);
        {
            std::lock_guard<std::mutex> lock(mutex_);
            --busy_;
        }
        done_.notify_one();
    }
}

void ThreadPool::run(std::size_t count, const std::function<void(std::size_t, int)>& task) {
    if (count == 0) return;
    if (count == 1 || workers_.empty()) {
        // Waking a sleeping worker costs microseconds: more than a small job takes.
        for (std::size_t i = 0; i < count; ++i) task(i, 0);
        return;
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        task_ = &task;
        count_ = count;
        next_ = 0;
        error_ = nullptr;
        busy_ = static_cast<int>(workers_.size());
        ++generation_;
    }
    wake_.notify_all();
    drain(0);
    spinUntil([&] { return busy_.load(std::memory_order_acquire) == 0; });
    std::exception_ptr error;
    {
        std::unique_lock<std::mutex> lock(mutex_);
        done_.wait(lock, [&] { return busy_ == 0; });
        task_ = nullptr;
        error = error_;
    }
    if (error) std::rethrow_exception(error);
}

} // namespace facet
