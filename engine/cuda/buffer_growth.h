// How the executors' grow-only buffers grow: geometrically, so a frame that needs a little more
// than the last (a camera moving toward the geometry) does not reallocate every buffer every
// frame (on the GPU each cudaFree may also wait for the device). Plain C++: the policy is shared
// by DeviceBuffer and HostExec's buffers and tested on the CPU.
#pragma once

#include <cstddef>
#include <limits>

namespace facet {

// The capacity to allocate when `needed` elements of `elementBytes` each do not fit in
// `capacity`: at least needed, and at least 1.5x the old capacity (capped where the byte size
// would overflow; the allocation then fails with the size named).
inline std::size_t grownCapacity(std::size_t capacity, std::size_t needed, std::size_t elementBytes) {
    const std::size_t most = std::numeric_limits<std::size_t>::max() / (elementBytes ? elementBytes : 1);
    const std::size_t geometric = capacity <= most / 3 * 2 ? capacity + capacity / 2 : most;
    return needed > geometric ? needed : geometric;
}

} // namespace facet
