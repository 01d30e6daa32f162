// Concurrency under ThreadSanitizer (scripts/test.sh's TSan pass runs Concurrency.*): the thread
// pool's per-thread promise (no two tasks share a `thread` index at once) at every thread
// count, sections back to back, after the workers have gone to sleep and failing ones, an idle
// pool's sleep, and the viewer's background loader asked for file after file while it loads.
#include "test_support.h"

#include "core/error.h"
#include "host/thread_pool.h"
#include "viewer/scene_loader.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace facet;

// Per-thread scratch written without atomics, as the renderer's tiles do: ThreadSanitizer
// reports a race if two tasks ever run with the same `thread` at once.
TEST(Concurrency, ThreadPoolScratchIsPrivateToEachThreadAtEveryCount) {
    for (int threads = 1; threads <= 8; ++threads) {
        ThreadPool pool(threads);
        std::vector<std::uint64_t> scratch(std::size_t(threads), 0);
        std::uint64_t expected = 0;
        for (std::size_t section = 0; section < 60; ++section) {
            const std::size_t count = 1 + section * 7 % 97;
            std::vector<std::atomic<int>> hits(count);
            pool.run(count, [&](std::size_t i, int thread) {
                scratch[std::size_t(thread)] += i + 1;
                hits[i]++;
            });
            for (auto& h : hits) ASSERT_EQ(h.load(), 1);
            expected += count * (count + 1) / 2;
        }
        std::uint64_t total = 0;
        for (const std::uint64_t s : scratch) total += s;
        EXPECT_EQ(total, expected) << threads << " threads";
    }
}

// Sections further apart than the workers spin (ThreadPool::kSpin): each wakes the sleeping
// workers and runs whole, and tasks of one section still never share a `thread`.
TEST(Concurrency, ThreadPoolSectionsRunWholeAfterTheWorkersSleep) {
    for (int threads = 2; threads <= 4; ++threads) {
        ThreadPool pool(threads);
        std::vector<int> scratch(std::size_t(threads), 0);
        for (int section = 0; section < 8; ++section) {
            std::this_thread::sleep_for(ThreadPool::kSpin * 10);
            std::atomic<int> ran{0};
            pool.run(40, [&](std::size_t, int thread) {
                ++scratch[std::size_t(thread)];
                ran++;
            });
            EXPECT_EQ(ran.load(), 40) << threads << " threads, section " << section;
        }
        int total = 0;
        for (const int s : scratch) total += s;
        EXPECT_EQ(total, 8 * 40) << threads << " threads";
    }
}

// Process CPU time in seconds.
double cpuSeconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// An idle pool sleeps once its workers have spun for ThreadPool::kSpin: over a fifth of a
// second, seven workers spinning on would keep every core busy (0.4 s of CPU time on two);
// sleeping, they use almost none.
TEST(Concurrency, ThreadPoolIdleCostsNoCpuTime) {
    ThreadPool pool(8);
    std::atomic<int> ran{0};
    pool.run(64, [&](std::size_t, int) { ran++; });
    ASSERT_EQ(ran.load(), 64);
    const double before = cpuSeconds();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const double spent = cpuSeconds() - before;
    EXPECT_LT(spent, 0.05) << "an idle pool of 8 threads used " << spent << " s of CPU time in 0.2 s";
}

// A failing task stops the section; the error reaches the caller and the next section runs
// whole, on every thread count.
TEST(Concurrency, ThreadPoolSectionsAfterAFailureRunWhole) {
    for (int threads = 1; threads <= 4; ++threads) {
        ThreadPool pool(threads);
        for (int round = 0; round < 20; ++round) {
            EXPECT_THROW(pool.run(64, [&](std::size_t i, int) {
                if (i % 16 == std::size_t(round % 16)) throw Error("task failed");
            }),
                         Error);
            std::atomic<int> ran{0};
            pool.run(64, [&](std::size_t, int) { ran++; });
            EXPECT_EQ(ran.load(), 64);
        }
    }
}

// The viewer's loader: an Open while a load runs replaces the requests waiting, an Add waits
// behind them; every finished load is handed over once, on the thread that polls, and the last
// file asked for is the last loaded. A request's files load one by one: a missing one is an
// error naming it, and the others still load.
TEST(Concurrency, SceneLoaderTakesRequestsWhileItLoads) {
    const std::filesystem::path dir = facet::test::scratchDir("concurrency_loader");
    const std::string cube = (facet::test::sourceDir() / "tests" / "data" / "cube.obj").string();
    const std::string missing = (dir / "missing.obj").string();
    viewer::SceneLoader loader;
    std::vector<viewer::LoadResult> results;
    const auto take = [&] {
        if (auto r = loader.poll()) results.push_back(std::move(*r));
    };
    for (int i = 0; i < 40; ++i) {
        loader.request(i % 3 == 1 ? missing : cube);
        take();
    }
    loader.request({cube, missing, cube}, viewer::LoadMode::Add);
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (loader.busy() && std::chrono::steady_clock::now() < end) {
        take();
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ASSERT_FALSE(loader.busy()) << "the loader did not finish within 60 s";
    ASSERT_GE(results.size(), 2u);
    const viewer::LoadResult& added = results.back();
    EXPECT_EQ(added.mode, viewer::LoadMode::Add);
    ASSERT_EQ(added.scene.instances.size(), 2u);
    EXPECT_EQ(added.scene.triangleCount(), 24u);
    ASSERT_EQ(added.errors.size(), 1u);
    EXPECT_NE(added.errors[0].find(missing), std::string::npos) << added.errors[0];
    // The Add waited behind the last Open, which it did not replace.
    const viewer::LoadResult& opened = results[results.size() - 2];
    EXPECT_EQ(opened.mode, viewer::LoadMode::Replace);
    ASSERT_EQ(opened.paths.size(), 1u);
    for (std::size_t i = 0; i + 1 < results.size(); ++i) {
        const viewer::LoadResult& r = results[i];
        ASSERT_EQ(r.paths.size(), 1u);
        EXPECT_EQ(r.scene.instances.size(), r.paths[0] == cube ? 1u : 0u) << r.paths[0];
        EXPECT_EQ(r.errors.size(), r.paths[0] == cube ? 0u : 1u) << r.paths[0];
    }
}

} // namespace
