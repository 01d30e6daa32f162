// FACET_HD marks the small math both backends share: __host__ __device__ under nvcc,
// plain inline C++ everywhere else, so the CPU path and the tests run the kernels' own logic.
#pragma once

#if defined(__CUDACC__)
#define FACET_HD __host__ __device__ __forceinline__
#else
#define FACET_HD inline
#endif

// A FACET_HD function the host compiler must inline, as the device inlines every FACET_HD one:
// a per-item step of a hot loop, too large for GCC to inline by itself, whose call (saved
// registers, a dozen arguments) every item would pay.
#if defined(__CUDACC__)
#define FACET_HD_INLINED FACET_HD
#else
#define FACET_HD_INLINED [[gnu::always_inline]] inline
#endif

// Fully unrolled on the device, so small per-pixel arrays stay in registers.
#if defined(__CUDA_ARCH__)
#define FACET_UNROLL _Pragma("unroll")
#else
#define FACET_UNROLL
#endif

// Kept a loop on the device, where unrolling would copy a large body (a whole walk) per step.
#if defined(__CUDA_ARCH__)
#define FACET_NO_UNROLL _Pragma("unroll 1")
#else
#define FACET_NO_UNROLL
#endif

// A function the compiler must not vectorise by itself: FACET_ISA=scalar's per-item loops,
// which stand for a CPU without vector units. GCC's attribute; clang (which builds only the
// AddressSanitizer tree) has none, and may vectorise them without changing a result.
#if defined(__clang__) || defined(__CUDACC__)
#define FACET_NOT_VECTORIZED
#else
#define FACET_NOT_VECTORIZED __attribute__((optimize("no-tree-vectorize")))
#endif

// GLM 0.9.9's defaulted __host__ __device__ constructors draw nvcc's warning 20012-D, which
// -Werror=all-warnings makes fatal; -isystem does not silence nvcc's front end, so it is
// suppressed around GLM alone and stays an error in our own code.
#define GLM_FORCE_CXX17
#if defined(__NVCC__)
#pragma nv_diagnostic push
#pragma nv_diag_suppress 20012
#endif
#include <glm/glm.hpp>
#if defined(__NVCC__)
#pragma nv_diagnostic pop
#endif

#include <cmath>

namespace facet {

// |x| with the sign bit cleared, so |-0| is +0 as in NumPy (glm::abs keeps -0); the same
// single operation on host and device.
FACET_HD float absolute(float x) { return fabsf(x); }

// x - x is 0 for every finite x and NaN for NaN and the infinities; the same on host and device.
FACET_HD bool isFinite(float x) { return x - x == 0.0f; }

} // namespace facet
