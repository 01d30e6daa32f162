// A std::vector whose resize leaves new elements of trivial types uninitialised instead of
// zeroing them. The CPU renderer's scratch arrays are sized for the worst case (every triangle
// of a chunk set up, every vertex projected) but only partly written: a dense mesh's triangles
// mostly cover no pixel centre and are never stored. Zeroing would touch every page of the
// worst case; left alone, the pages nothing writes are never made resident, so the frame's
// memory follows what is drawn, not what could be.
#pragma once

#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace facet {

template <typename T>
class DefaultInitAllocator : public std::allocator<T> {
public:
    template <typename U>
    struct rebind {
        using other = DefaultInitAllocator<U>;
    };
    DefaultInitAllocator() = default;
    template <typename U>
    DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}

    // resize()'s new elements: default-initialised (nothing, for a trivial type).
    template <typename U>
    void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
        ::new (static_cast<void*>(p)) U;
    }
    template <typename U, typename... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};

template <typename T>
using LazyVector = std::vector<T, DefaultInitAllocator<T>>;

} // namespace facet
