// Rows of the render target written with streaming (non-temporal) stores. The renderer writes
// each target pixel once per frame and never reads it back: ordinary stores would first read
// every cache line of the megabytes of colour and depth from memory only to overwrite it, and
// push the tile's own buffers out of the cache. Streaming stores skip both (on this machine
// 5% of a default-scene frame at 2 threads). They are weakly ordered, so a writer calls
// streamFence() when done, before another thread may read what it wrote.
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace facet {

namespace detail {

// Runs `scalar(i)` on the elements outside the whole 64-byte cache lines of `to`, and
// `vector(i)` on each aligned group of four within them. Only whole lines are streamed: a
// partly written line costs a slow partial write-combining flush, more than an ordinary store.
template <class T, class Scalar, class Vector>
inline void streamRowParts(T* to, std::size_t n, Scalar&& scalar, Vector&& vector) {
    static_assert(sizeof(T) == 4, "four elements to a 16-byte store");
    std::size_t i = 0;
    for (; i < n && (reinterpret_cast<std::uintptr_t>(to + i) & 63) != 0; ++i) scalar(i);
    for (; i + 16 <= n; i += 16) {
        vector(i);
        vector(i + 4);
        vector(i + 8);
        vector(i + 12);
    }
    for (; i < n; ++i) scalar(i);
}

} // namespace detail

// to[0, n) = from[0, n), for 4-byte elements (packed colours, float depths).
template <class T>
inline void streamRow(T* to, const T* from, std::size_t n) {
    detail::streamRowParts(
        to, n, [&](std::size_t i) { to[i] = from[i]; },
        [&](std::size_t i) {
            _mm_stream_si128(reinterpret_cast<__m128i*>(to + i), _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + i)));
        });
}

// to[0, n) = value.
template <class T>
inline void streamFillRow(T* to, T value, std::size_t n) {
    std::int32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    const __m128i v = _mm_set1_epi32(bits);
    detail::streamRowParts(
        to, n, [&](std::size_t i) { to[i] = value; },
        [&](std::size_t i) { _mm_stream_si128(reinterpret_cast<__m128i*>(to + i), v); });
}

inline void streamFence() { _mm_sfence(); }

} // namespace facet
