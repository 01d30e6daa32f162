#include "cuda/warp_emulation.h"

#include "core/names.h"
#include "shaders_cuda/visibility_device.h"

#include <algorithm>
#include <sstream>

#include <sys/mman.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define FACET_ASAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FACET_ASAN_FIBERS 1
#endif
#endif
#if defined(FACET_ASAN_FIBERS)
#include <sanitizer/common_interface_defs.h>
#endif

namespace facet {

namespace {

constexpr unsigned kWarp = 32;

// A raster thread's deepest stack, measured (resident pages after the WarpEmulation tests, 8
// samples included): 4 KB at -O3, 12 KB under AddressSanitizer at -O1. The mapping is reserved,
// not committed, so a margin costs only address space, except under AddressSanitizer, whose
// swapcontext clears the shadow of the whole stack it switches to: there a 2 MB stack made the
// tests eight times slower than this one.
#if defined(FACET_ASAN_FIBERS)
constexpr std::size_t kStackBytes = std::size_t(64) << 10;
#else
constexpr std::size_t kStackBytes = std::size_t(256) << 10;
#endif

bool blockLevel(WarpOp op) { return op == WarpOp::SyncThreads || op == WarpOp::SyncThreadsOr; }

// AddressSanitizer must be told when the stack changes under it (its fiber annotations);
// elsewhere these do nothing.
void startSwitch(void** fakeStack, const void* bottom, std::size_t size) {
#if defined(FACET_ASAN_FIBERS)
    __sanitizer_start_switch_fiber(fakeStack, bottom, size);
#else
    (void)fakeStack, (void)bottom, (void)size;
#endif
}
void finishSwitch(void* fakeStack, const void** oldBottom, std::size_t* oldSize) {
#if defined(FACET_ASAN_FIBERS)
    __sanitizer_finish_switch_fiber(fakeStack, oldBottom, oldSize);
#else
    (void)fakeStack, (void)oldBottom, (void)oldSize;
#endif
}

} // namespace

template <>
struct Names<WarpOp> {
    static constexpr std::array<std::pair<WarpOp, const char*>, 7> table{
        {{WarpOp::None, "nothing"}, {WarpOp::SyncThreads, "__syncthreads"}, {WarpOp::SyncThreadsOr, "__syncthreads_or"},
         {WarpOp::SyncWarp, "__syncwarp"}, {WarpOp::Shuffle, "__shfl_sync"}, {WarpOp::ShuffleUp, "__shfl_up_sync"},
         {WarpOp::Ballot, "__ballot_sync"}}};
};

std::uint32_t EmulatedThread::arrive(WarpOp op, std::uint32_t value, unsigned arg) {
    op_ = op;
    value_ = value;
    arg_ = arg;
    state_ = State::Waiting;
    emulator_->switchToScheduler(*this, false);
    return result_;
}

WarpEmulator::WarpEmulator(unsigned threads) : threads_(threads), fibers_(threads) {
    if (threads == 0 || threads % kWarp != 0)
        throw Error("warp emulation runs whole warps: " + std::to_string(threads) + " threads a block");
    const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    stackBytes_ = kStackBytes;
    const std::size_t slot = page + stackBytes_; // a guard page below each stack
    mappedBytes_ = slot * threads;
    void* mapped =
        mmap(nullptr, mappedBytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mapped == MAP_FAILED)
        throw Error("warp emulation: cannot map " + std::to_string(mappedBytes_ >> 20) + " MB for its threads' stacks");
    stacks_ = mapped;
    for (unsigned t = 0; t < threads; ++t) {
        char* guard = static_cast<char*>(stacks_) + slot * t;
        if (mprotect(guard, page, PROT_NONE) != 0) {
            munmap(stacks_, mappedBytes_);
            throw Error("warp emulation: cannot protect a stack's guard page");
        }
        fibers_[t].emulator_ = this;
        fibers_[t].index_ = t;
        fibers_[t].context_.uc_stack.ss_sp = guard + page;
        fibers_[t].context_.uc_stack.ss_size = stackBytes_;
    }
}

WarpEmulator::~WarpEmulator() { munmap(stacks_, mappedBytes_); }

void WarpEmulator::runBlock(unsigned block, Entry entry, void* context) {
    block_ = block;
    entry_ = entry;
    context_ = context;
    error_ = nullptr;
    const auto self = reinterpret_cast<std::uintptr_t>(this);
    for (EmulatedThread& t : fibers_) {
        void* const stack = t.context_.uc_stack.ss_sp;
        getcontext(&t.context_);
        t.context_.uc_stack.ss_sp = stack;
        t.context_.uc_stack.ss_size = stackBytes_;
        t.context_.uc_link = nullptr; // a fiber never returns from fiberMain: it switches back
        makecontext(&t.context_, reinterpret_cast<void (*)()>(&WarpEmulator::fiberMain), 3,
                    static_cast<unsigned>(self >> 32), static_cast<unsigned>(self & 0xFFFFFFFFu), t.index_);
        t.state_ = EmulatedThread::State::Ready;
        t.op_ = WarpOp::None;
    }
    for (;;) {
        for (EmulatedThread& t : fibers_)
            if (t.state_ == EmulatedThread::State::Ready) switchToFiber(t);
        if (error_) std::rethrow_exception(error_);
        if (std::all_of(fibers_.begin(), fibers_.end(),
                        [](const EmulatedThread& t) { return t.state_ == EmulatedThread::State::Done; }))
            return;
        bool released = false;
        for (unsigned w = 0; w < threads_ / kWarp; ++w) released |= releaseWarp(w);
        if (!released) released = releaseBlock();
        if (!released) throw Error(stuckReport());
    }
}

void WarpEmulator::fiberMain(unsigned high, unsigned low, unsigned thread) {
    auto* emulator = reinterpret_cast<WarpEmulator*>(static_cast<std::uintptr_t>(high) << 32 | low);
    emulator->fiberBody(thread);
}

void WarpEmulator::fiberBody(unsigned thread) {
    finishSwitch(nullptr, &schedulerStackBottom_, &schedulerStackSize_);
    EmulatedThread& t = fibers_[thread];
    try {
        entry_(t, context_);
    } catch (...) {
        if (!error_) error_ = std::current_exception();
    }
    t.state_ = EmulatedThread::State::Done;
    switchToScheduler(t, true); // never resumed
}

void WarpEmulator::switchToFiber(EmulatedThread& t) {
    void* fakeStack = nullptr;
    startSwitch(&fakeStack, t.context_.uc_stack.ss_sp, t.context_.uc_stack.ss_size);
    swapcontext(&scheduler_, &t.context_);
    finishSwitch(fakeStack, nullptr, nullptr);
}

void WarpEmulator::switchToScheduler(EmulatedThread& t, bool finished) {
    void* fakeStack = nullptr;
    startSwitch(finished ? nullptr : &fakeStack, schedulerStackBottom_, schedulerStackSize_);
    swapcontext(&t.context_, &scheduler_);
    finishSwitch(fakeStack, nullptr, nullptr);
}

// Releases warp w if its 32 lanes all wait at the same warp-level primitive, each lane given
// its result as the hardware computes it (a shuffle's source lane modulo 32; shuffling up, a
// lane below the distance keeps its own value).
bool WarpEmulator::releaseWarp(unsigned w) {
    EmulatedThread* const lanes = &fibers_[w * kWarp];
    const WarpOp op = lanes[0].op_;
    for (unsigned l = 0; l < kWarp; ++l)
        if (lanes[l].state_ != EmulatedThread::State::Waiting || lanes[l].op_ != op || blockLevel(op)) return false;
    std::uint32_t ballot = 0;
    for (unsigned l = 0; l < kWarp; ++l) ballot |= (lanes[l].value_ != 0u ? 1u : 0u) << l;
    for (unsigned l = 0; l < kWarp; ++l) {
        EmulatedThread& lane = lanes[l];
        switch (op) {
        case WarpOp::Shuffle:
            lane.result_ = lanes[lane.arg_ % kWarp].value_;
            break;
        case WarpOp::ShuffleUp:
            lane.result_ = l >= lane.arg_ ? lanes[l - lane.arg_].value_ : lane.value_;
            break;
        case WarpOp::Ballot:
            lane.result_ = ballot;
            break;
        default:
            lane.result_ = 0;
            break;
        }
        lane.state_ = EmulatedThread::State::Ready;
    }
    ++warpSteps_;
    return true;
}

// Releases the block if every thread waits at the same barrier (none returned: a barrier some
// threads never reach hangs the device, or is undefined).
bool WarpEmulator::releaseBlock() {
    const WarpOp op = fibers_[0].op_;
    std::uint32_t any = 0;
    for (const EmulatedThread& t : fibers_) {
        if (t.state_ != EmulatedThread::State::Waiting || t.op_ != op || !blockLevel(op)) return false;
        any |= t.value_;
    }
    for (EmulatedThread& t : fibers_) {
        t.result_ = any != 0u ? 1u : 0u;
        t.state_ = EmulatedThread::State::Ready;
    }
    ++blockSteps_;
    return true;
}

// What every thread waits at, where they disagree: the first warp whose lanes differ, else the
// first two threads that do.
std::string WarpEmulator::stuckReport() const {
    auto where = [](const EmulatedThread& t) {
        return t.state_ == EmulatedThread::State::Done ? std::string("has returned")
                                                       : std::string("waits at ") + nameOf(t.op_);
    };
    std::ostringstream out;
    out << "warp emulation: block " << block_ << " cannot go on, its threads disagree: ";
    for (unsigned w = 0; w < threads_ / kWarp; ++w)
        for (unsigned l = 1; l < kWarp; ++l) {
            const EmulatedThread& a = fibers_[w * kWarp];
            const EmulatedThread& b = fibers_[w * kWarp + l];
            if (a.state_ != b.state_ || a.op_ != b.op_) {
                out << "in warp " << w << ", thread " << a.index_ << " " << where(a) << " but thread " << b.index_
                    << " " << where(b);
                return out.str();
            }
        }
    for (const EmulatedThread& t : fibers_)
        if (t.state_ != fibers_[0].state_ || t.op_ != fibers_[0].op_) {
            out << "thread " << fibers_[0].index_ << " " << where(fibers_[0]) << " but thread " << t.index_ << " "
                << where(t);
            return out.str();
        }
    out << "every thread " << where(fibers_[0]);
    return out.str();
}

void runHostBlock(const RasterParams& p, std::uint32_t begin, std::uint32_t end, WarpEmulator& emulator) {
    // Shared memory starts as garbage on the device: here a pattern no index is, so a read of a
    // slot the block never wrote lands far out of bounds (the sanitizers' catch).
    std::vector<std::uint32_t> ids(kBandChunk), totals(kRasterWarps);
    std::vector<std::uint64_t> keys(std::size_t(kRasterBlock) * 4);
    const BandShared shared{ids.data(), totals.data(), keys.data()};
    const bool multisampled = p.plan.settings.msaa > 1;
    auto body = [&](EmulatedThread& t) {
        if (multisampled)
            rasterBlockThread<true>(t, p, shared);
        else
            rasterBlockThread<false>(t, p, shared);
    };
    for (std::uint32_t b = begin; b < end; b += kRasterBlock) {
        std::fill(ids.begin(), ids.end(), 0xA5A5A5A5u);
        std::fill(totals.begin(), totals.end(), 0xA5A5A5A5u);
        std::fill(keys.begin(), keys.end(), 0xA5A5A5A5A5A5A5A5ull);
        emulator.run(b / kRasterBlock, body);
    }
}

} // namespace facet
