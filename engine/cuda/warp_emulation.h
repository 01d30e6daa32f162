// Warp emulation: a CUDA block's threads run on one CPU thread, in lockstep at every block-level
// and warp-level primitive, so that the raster kernel's device-only code (DeviceBand's shuffle
// scans, ballots and shared-memory atomics, the block's barriers; visibility_device.h) runs in
// the tests, not only compiles. Each emulated thread is a fiber (ucontext) with a stack of its
// own; a primitive posts the thread's request and switches to the scheduler, which releases a
// warp once its 32 lanes have all arrived at the same primitive (and the block once all its
// threads are at the same barrier), computing each lane's result as the hardware defines it.
// Threads that disagree (one lane at a shuffle, another at a barrier or returned) are the
// divergence a full-mask primitive forbids: the block stops with an Error naming the threads
// and primitives. Only one fiber runs at a time, so shared memory needs no locks, and the
// schedule is the same every run: the emulation checks what the code computes, not timing.
// What it cannot show is listed in docs/gpu.md ("read, never run").
#pragma once

#include "core/error.h"

#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include <ucontext.h>

namespace facet {

struct RasterParams;
class WarpEmulator;

// The primitives a Block offers (visibility_device.h), as an emulated thread's request (named
// as CUDA spells them, for the divergence report: warp_emulation.cpp).
enum class WarpOp : std::uint8_t { None, SyncThreads, SyncThreadsOr, SyncWarp, Shuffle, ShuffleUp, Ballot };

// One emulated thread: the Block of visibility_device.h on the CPU.
class EmulatedThread {
public:
    unsigned threadIndex() const { return index_; }
    unsigned blockIndex() const;
    void syncThreads() { arrive(WarpOp::SyncThreads, 0u, 0u); }
    bool syncThreadsOr(bool b) { return arrive(WarpOp::SyncThreadsOr, b ? 1u : 0u, 0u) != 0u; }
    void syncWarp() { arrive(WarpOp::SyncWarp, 0u, 0u); }
    template <class T>
    T shuffle(T v, unsigned lane) {
        return fromBits<T>(arrive(WarpOp::Shuffle, bits(v), lane));
    }
    template <class T>
    T shuffleUp(T v, unsigned delta) {
        return fromBits<T>(arrive(WarpOp::ShuffleUp, bits(v), delta));
    }
    unsigned ballot(bool b) { return arrive(WarpOp::Ballot, b ? 1u : 0u, 0u); }
    // Fibers switch only at the primitives above, so this read-modify-write is never interleaved:
    // it is as atomic as the device's.
    void sharedMin(std::uint64_t* address, std::uint64_t v) {
        if (v < *address) *address = v;
    }

private:
    friend class WarpEmulator;
    enum class State : std::uint8_t { Ready, Waiting, Done };

    template <class T>
    static std::uint32_t bits(T v) {
        static_assert(sizeof(T) == 4, "the emulated shuffles move 4-byte values, as __shfl_sync's int and unsigned");
        std::uint32_t b;
        std::memcpy(&b, &v, 4);
        return b;
    }
    template <class T>
    static T fromBits(std::uint32_t b) {
        T v;
        std::memcpy(&v, &b, 4);
        return v;
    }

    // Posts the request, switches to the scheduler, and returns this lane's result.
    std::uint32_t arrive(WarpOp op, std::uint32_t value, unsigned arg);

    WarpEmulator* emulator_ = nullptr;
    unsigned index_ = 0;
    State state_ = State::Ready;
    WarpOp op_ = WarpOp::None;
    std::uint32_t value_ = 0, result_ = 0;
    unsigned arg_ = 0;
    ucontext_t context_{};
};

// Runs blocks of `threads` emulated threads (whole warps) on the calling CPU thread, one block
// at a time. Holds a stack per thread (mapped once, with a guard page below each), so one
// emulator serves every block a CPU thread runs. Neither copied nor moved: its fibers point into it.
class WarpEmulator {
public:
    explicit WarpEmulator(unsigned threads);
    ~WarpEmulator();
    WarpEmulator(const WarpEmulator&) = delete;
    WarpEmulator& operator=(const WarpEmulator&) = delete;

    // Runs body(thread) on every thread of block `block` until all have returned. Throws
    // facet::Error on divergence (see above), and rethrows what a thread's body threw.
    template <class Body>
    void run(unsigned block, Body& body) {
        runBlock(block, [](EmulatedThread& t, void* b) { (*static_cast<Body*>(b))(t); }, &body);
    }

    // How many times the scheduler released a warp or a block in this emulator's life: each a
    // step every thread of it took together (the tests show the primitives ran).
    std::uint64_t warpSteps() const { return warpSteps_; }
    std::uint64_t blockSteps() const { return blockSteps_; }

private:
    friend class EmulatedThread;
    using Entry = void (*)(EmulatedThread&, void*);

    void runBlock(unsigned block, Entry entry, void* context);
    static void fiberMain(unsigned high, unsigned low, unsigned thread);
    void fiberBody(unsigned thread);
    void switchToFiber(EmulatedThread& t);
    void switchToScheduler(EmulatedThread& t, bool finished);
    bool releaseWarp(unsigned warp);
    bool releaseBlock();
    std::string stuckReport() const;

    unsigned threads_;
    std::size_t stackBytes_;
    void* stacks_ = nullptr; // threads_ stacks, each above a guard page
    std::size_t mappedBytes_ = 0;
    std::vector<EmulatedThread> fibers_;
    ucontext_t scheduler_{};
    unsigned block_ = 0;
    Entry entry_ = nullptr;
    void* context_ = nullptr;
    std::exception_ptr error_;
    const void* schedulerStackBottom_ = nullptr; // AddressSanitizer's fiber annotations
    std::size_t schedulerStackSize_ = 0;
    std::uint64_t warpSteps_ = 0, blockSteps_ = 0;
};

inline unsigned EmulatedThread::blockIndex() const { return emulator_->block_; }

// The raster kernel's blocks among threads [begin, end) run as the device runs them
// (rasterBlockThread over EmulatedThread, visibility_device.h), not as the host executor's
// HostBand runs them (kernels.h's runHostBlock).
void runHostBlock(const RasterParams& p, std::uint32_t begin, std::uint32_t end, WarpEmulator& emulator);

// Every other kernel has no block-level code: its threads run one after another, as without emulation.
template <class Params>
void runHostBlock(const Params& p, std::uint32_t begin, std::uint32_t end, WarpEmulator&) {
    runHostBlock(p, begin, end);
}

} // namespace facet
