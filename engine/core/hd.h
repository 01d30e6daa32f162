// FACET_HD marks the small math both backends share: __host__ __device__ under nvcc,
// plain inline C++ everywhere else, so the CPU path and the tests run the kernels' own logic.
#pragma once

#if defined(__CUDACC__)
#define FACET_HD __host__ __device__ __forceinline__
#else
#define FACET_HD inline
#endif

#define GLM_FORCE_CXX17
#include <glm/glm.hpp>
