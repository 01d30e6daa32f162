// The CUDA pipeline's debug views of the finished frame (see kernels.h and core/view_shading.h),
// which the CPU renderer finishes on the host.
#pragma once

#include "core/frame.h"
#include "core/view_shading.h"

#include <cuda/atomic>

#include <cstdint>

namespace facet {

// ---- 5. the debug views of the finished frame (core/view_shading.h) -------------------------
// depthRange, one thread per pixel: the frame's nearest and farthest drawn depths, as the
// largest complement of their bits and the largest bits (non-negative floats order as their
// bits; both counters start at zero).
struct DepthRangeParams {
    FrameView target;
    std::uint32_t* range; // [0]: max of ~bits, [1]: max of bits
};

FACET_HD void depthRangeThread(const DepthRangeParams& p, std::uint32_t i) {
    if (i >= static_cast<std::uint32_t>(p.target.width) * static_cast<std::uint32_t>(p.target.height)) return;
    const float d = p.target.depth[i] + 0.0f; // -0 as +0
    if (!(d < 1.0f)) return;
    cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device>(p.range[0]).fetch_max(~floatBits(d),
                                                                                    cuda::std::memory_order_relaxed);
    cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device>(p.range[1]).fetch_max(floatBits(d),
                                                                                    cuda::std::memory_order_relaxed);
}

// viewFinish, one thread per pixel.
struct ViewFinishParams {
    ViewFinish finish;
};

FACET_HD void viewFinishThread(const ViewFinishParams& p, std::uint32_t i) {
    if (i >= static_cast<std::uint32_t>(p.finish.target.width) * static_cast<std::uint32_t>(p.finish.target.height))
        return;
    finishViewPixel(p.finish, i);
}

} // namespace facet
