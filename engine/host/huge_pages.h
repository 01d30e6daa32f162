// Large arrays on the kernel's huge pages. A loader's first write to a fresh array faults each
// 4 KB page in on its own: the 1M-triangle STL's model is 108 MB, 27,000 faults, 56 ms on the
// development VM before a byte of the file is read (more than the 50 ms that 1 GB/s allows).
// Linux backs an anonymous mapping with 2 MB pages where madvise(MADV_HUGEPAGE) asks (its
// default, transparent_hugepage=madvise, does nothing unasked): 512 times fewer faults. Only
// the mapping's pages change; the values never do.
#pragma once

#include <cstddef>

namespace facet {

// Asks for huge pages under [data, data + bytes) where that holds whole 2 MB pages and is at
// least kHugePageMinBytes; elsewhere, or where the system has none, nothing happens.
void adviseHugePages(void* data, std::size_t bytes);

inline constexpr std::size_t kHugePageMinBytes = std::size_t(4) << 20;

// Reserves room for n elements of a std::vector or std::string, on huge pages where large
// enough; one already holding elements is left as it is (their pages are in).
template <class Container>
void reserveOnHugePages(Container& c, std::size_t n) {
    if (!c.empty() || c.capacity() >= n) return;
    c.reserve(n);
    adviseHugePages(c.data(), c.capacity() * sizeof(typename Container::value_type));
}

} // namespace facet
