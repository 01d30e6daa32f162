#include "cpu/thread_pool.h"

#include <algorithm>

namespace facet {

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
