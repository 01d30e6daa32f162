// The build's guard against register spills, shown working (tests/check_spills.cmake): compiled
// with FACET_CUDA_OPTIONS and -maxrregcount=24, the kernel below must spill and so fail to
// build; with FACET_SPILL_GUARD_FITS its working set is small enough to build.
#ifdef FACET_SPILL_GUARD_FITS
constexpr int kLive = 4;
#else
constexpr int kLive = 64;
#endif

__global__ void manyLiveValues(float* out, const float* in) {
    float v[kLive];
#pragma unroll
    for (int i = 0; i < kLive; ++i) v[i] = in[threadIdx.x * kLive + i] * in[i];
    float sum = 0.0f;
#pragma unroll
    for (int i = 0; i < kLive; ++i) sum += v[i] * v[kLive - 1 - i] + v[(i * 7) % kLive];
    out[threadIdx.x] = sum;
}
