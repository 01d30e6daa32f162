// Host memory that starts on a 64-byte cache line, for render targets: the CPU renderer writes
// whole lines of its target with streaming stores, and a buffer starting mid-line turns the
// first and last line of every tile row into ordinary stores that read the line first (where
// malloc happened to put facet-render's buffers, that moved the default scene's frame by 5%).
#pragma once

#include <cstddef>
#include <new>
#include <vector>

namespace facet {

inline constexpr std::size_t kCacheLine = 64;

template <class T>
struct LineAlignedAllocator {
    using value_type = T;
    LineAlignedAllocator() = default;
    template <class U>
    LineAlignedAllocator(const LineAlignedAllocator<U>&) noexcept {}
    T* allocate(std::size_t n) {
        return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(kCacheLine)));
    }
    void deallocate(T* p, std::size_t) noexcept { ::operator delete(p, std::align_val_t(kCacheLine)); }
    template <class U>
    bool operator==(const LineAlignedAllocator<U>&) const noexcept {
        return true;
    }
    template <class U>
    bool operator!=(const LineAlignedAllocator<U>&) const noexcept {
        return false;
    }
};

template <class T>
using LineAlignedVector = std::vector<T, LineAlignedAllocator<T>>;

} // namespace facet
