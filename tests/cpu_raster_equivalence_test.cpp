// The CPU backend's fast paths against the straightforward evaluation of the shared functions
// they stand in for: they must agree bit for bit, since the CUDA backend runs the originals.
#include "draw_with.h"
#include "test_support.h"
#include "asset/image.h"
#include "core/camera.h"
#include "core/clip.h"
#include "core/coverage_walk.h"
#include "core/names.h"
#include "core/texture_sampling.h"
#include "core/triangle_setup.h"
#include "cpu/cpu_renderer.h"
#include "cpu/shading/tile_shading.h"
#include "cpu/simd/isa.h"
#include "cpu/simd/lit_lanes.h"
#include "cpu/simd/simd_quad.h"
#include "cpu/simd/stream_store.h"
#include "cpu/simd/wide_filter.h"
#include "cpu/visibility/block_depth_bounds.h"
#include "cpu/visibility/visibility.h"
#include "raster_reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace facet {
namespace {

ScreenVertex vertexAt(glm::vec2 p) {
    return ScreenVertex{{{snapToFixed(p.x), snapToFixed(p.y)}, 0.5f}, {1.0f, glm::vec2(0.0f), glm::vec3(0.0f)}, p};
}

// The coverage of quad (qx, qy) as a 4-bit mask, from the three edge values stepped to its
// top-left pixel (as the walks step them) and the pixel bounds.
unsigned steppedQuadMask(const EdgeStepper<std::int64_t>& edges, const std::int64_t* at, int qx, int qy, const ScreenTriangle& tri) {
    unsigned mask = 0;
    for (int k = 0; k < 4; ++k) {
        const int x = qx + (k & 1), y = qy + (k >> 1);
        bool inside = x >= tri.minX && x <= tri.maxX && y >= tri.minY && y <= tri.maxY;
        for (int i = 0; i < 3; ++i) inside = inside && at[i] + (k & 1) * edges.stepX[i] + (k >> 1) * edges.stepY[i] > 0;
        mask |= unsigned(inside) << k;
    }
    return mask;
}

// Stepped edge values (EdgeStepper, as the coverage walk steps them) decide coverage as
// covers(edgeValues()) does on every pixel of the triangle's bounds, for triangles from
// sub-pixel slivers to ones far larger than the target (guard band sized).
TEST(CpuRasterEquivalence, SteppedCoverageMatchesEdgeValues) {
    std::mt19937 rng(7);
    const int w = 97, h = 61;
    int covered = 0;
    for (int n = 0; n < 3000; ++n) {
        const float scale = n % 3 == 0 ? 4.0f : n % 3 == 1 ? 40.0f : 9000.0f;
        std::uniform_real_distribution<float> d(-scale, scale);
        const glm::vec2 centre(std::uniform_real_distribution<float>(0.0f, float(w))(rng),
                               std::uniform_real_distribution<float>(0.0f, float(h))(rng));
        ScreenVertex v[3];
        for (ScreenVertex& s : v) s = vertexAt(centre + glm::vec2(d(rng), d(rng)));
        // Snapped coordinates on exact pixel centres and shared edges exercise the fill rule.
        if (n % 5 == 0) v[1].p.y = v[0].p.y;
        if (n % 7 == 0) v[2].p.x = v[1].p.x = pixelCentreFixed(w / 2);
        ScreenTriangle tri{};
        if (setupTriangle(v[0], v[1], v[2], false, w, h, tri) != SetupResult::Ok) continue;
        for (int quadRowOffset = 0; quadRowOffset < 2; ++quadRowOffset) {
            const int firstQx = tri.minX & ~1, firstQy = ((tri.minY + quadRowOffset) & ~1) - quadRowOffset;
            const EdgeStepper<std::int64_t> edges(tri, firstQx, firstQy);
            std::int64_t rowStart[3] = {edges.value[0], edges.value[1], edges.value[2]};
            for (int qy = firstQy; qy <= tri.maxY; qy += 2) {
                std::int64_t at[3] = {rowStart[0], rowStart[1], rowStart[2]};
                for (int qx = firstQx; qx <= tri.maxX; qx += 2) {
                    const unsigned mask = steppedQuadMask(edges, at, qx, qy, tri);
                    for (int k = 0; k < 4; ++k) {
                        const int x = qx + (k & 1), y = qy + (k >> 1);
                        const bool expected = x >= tri.minX && x <= tri.maxX && y >= tri.minY && y <= tri.maxY &&
                                              covers(tri, edgeValues(tri, x, y));
                        ASSERT_EQ(bool(mask >> k & 1), expected) << "triangle " << n << " pixel " << x << "," << y;
                        covered += expected;
                    }
                    for (int i = 0; i < 3; ++i) at[i] += 2 * edges.stepX[i];
                }
                for (int i = 0; i < 3; ++i) rowStart[i] += 2 * edges.stepY[i];
            }
        }
    }
    EXPECT_GT(covered, 10000);
}

// The host's vector unpack gives the scalar casts' values for every byte in every channel.
TEST(CpuRasterEquivalence, UnpackMatchesScalarCasts) {
    for (std::uint32_t b = 0; b < 256; ++b)
        for (std::uint32_t other : {0u, 1u, 127u, 128u, 255u}) {
            for (int channel = 0; channel < 4; ++channel) {
                std::uint32_t c = other * 0x01010101u;
                c = (c & ~(0xFFu << (8 * channel))) | (b << (8 * channel));
                const glm::vec4 v = unpackRgba8(c);
                for (int i = 0; i < 4; ++i) ASSERT_EQ(v[i], float((c >> (8 * i)) & 0xFFu)) << std::hex << c;
            }
        }
}

// wrapRepeat's fast path for in-range indices agrees with the plain modulo everywhere.
TEST(CpuRasterEquivalence, WrapRepeatMatchesModulo) {
    for (int size : {1, 2, 3, 7, 64, 100, 1024})
        for (int i = -3 * size - 2; i <= 3 * size + 2; ++i) {
            const int m = i % size;
            ASSERT_EQ(wrapRepeat(i, size), m < 0 ? m + size : m) << i << " mod " << size;
        }
}


std::uint32_t bitsOf(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

// The same float: the same bits, except that any NaN equals any NaN. Which NaN an operation on
// two NaNs gives (sign and payload) is not the code's choice: x86 keeps its first operand's,
// and the compiler may swap the operands of a commutative add or multiply. Every path packs
// a NaN channel to 0 alike.
bool sameFloat(float a, float b) { return bitsOf(a) == bitsOf(b) || (std::isnan(a) && std::isnan(b)); }

// A texture of random texels with its mip chain, w x h on level 0.
Texture randomTexture(std::mt19937& rng, std::uint32_t w, std::uint32_t h) {
    Image image;
    image.width = w;
    image.height = h;
    image.pixels.resize(std::size_t(w) * h);
    for (std::uint32_t& p : image.pixels) p = std::uint32_t(rng());
    return makeTexture(image, "random");
}

// A float that is sometimes special: NaN, infinities, huge, tiny, negative, exact halves.
float wildFloat(std::mt19937& rng, float scale) {
    const float specials[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                              -std::numeric_limits<float>::infinity(), 3.0e9f, -3.0e9f, 1.0e-30f, -0.0f, 0.5f, 1.0f,
                              -1.0f, 255.5f, 256.0f, -0.5f};
    if (rng() % 16 == 0) return specials[rng() % (sizeof(specials) / sizeof(specials[0]))];
    return std::uniform_real_distribution<float>(-scale, scale)(rng);
}

// A float of any bit pattern (negative, subnormal, infinite, NaN).
float anyFloat(std::mt19937& rng) {
    const std::uint32_t bits = std::uint32_t(rng());
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

// pack4 equals packRgba8 lane by lane, out-of-range and NaN channels included.
TEST(CpuRasterEquivalence, SimdPackMatchesPackRgba8) {
    std::mt19937 rng(11);
    for (int n = 0; n < 200000; ++n) {
        alignas(16) float ch[4][4];
        for (auto& c : ch)
            for (float& f : c) f = wildFloat(rng, n % 2 ? 300.0f : 2.0f);
        const simd::Rgba4 c{_mm_load_ps(ch[0]), _mm_load_ps(ch[1]), _mm_load_ps(ch[2]), _mm_load_ps(ch[3])};
        alignas(16) std::uint32_t packed[4];
        _mm_store_si128(reinterpret_cast<__m128i*>(packed), simd::pack4(c));
        for (int k = 0; k < 4; ++k)
            ASSERT_EQ(packed[k], packRgba8(glm::vec4(ch[0][k], ch[1][k], ch[2][k], ch[3][k])))
                << ch[0][k] << " " << ch[1][k] << " " << ch[2][k] << " " << ch[3][k];
    }
}

// lodFromSquaredLengths8 equals lodFromSquaredLengths per lane, over every kind of float:
// any bit pattern (negative, subnormal, infinite, NaN), the special values, and the squared
// lengths real derivatives give.
TEST(CpuRasterEquivalence, SimdLevelOfDetailMatchesLodFromSquaredLengths) {
    std::mt19937 rng(17);
    const auto lengthSquared = [&](int kind) {
        if (kind == 0) return anyFloat(rng);
        if (kind == 1) return wildFloat(rng, 1.0e3f);
        const float d = std::uniform_real_distribution<float>(0.0f, 64.0f)(rng);
        return d * d;
    };
    for (int n = 0; n < 200000; ++n) {
        alignas(32) float dx2[8], dy2[8], lod[8];
        for (int k = 0; k < 8; ++k) {
            dx2[k] = lengthSquared(n % 3);
            dy2[k] = lengthSquared((n + k) % 3);
        }
        _mm256_store_ps(lod, simd::lodFromSquaredLengths8(_mm256_load_ps(dx2), _mm256_load_ps(dy2)));
        for (int k = 0; k < 8; ++k)
            ASSERT_TRUE(sameFloat(lod[k], lodFromSquaredLengths(dx2[k], dy2[k])))
                << dx2[k] << " " << dy2[k] << ": " << lod[k] << " against " << lodFromSquaredLengths(dx2[k], dy2[k]);
    }
}

// chooseLevels8 equals chooseLevels per lane (lo, hi, f, and `blends` where f > 0), for both
// filters and 1 to 16 levels, over any bit pattern, the special values, the whole levels and
// the fractions between them.
TEST(CpuRasterEquivalence, SimdLevelChoiceMatchesChooseLevels) {
    std::mt19937 rng(19);
    const float special[] = {0.0f, -0.0f, 1.0f, 15.0f, 16.0f, INFINITY, -INFINITY, NAN, 1e-30f, 0.5f};
    for (int n = 0; n < 100000; ++n) {
        const TextureView texture{nullptr, nullptr, 1 + n % 16};
        alignas(32) float lod[8];
        for (int k = 0; k < 8; ++k) {
            const int kind = (n + k) % 4;
            lod[k] = kind == 0   ? anyFloat(rng)
                     : kind == 1 ? special[rng() % std::size(special)]
                     : kind == 2 ? float(int(rng() % 20) - 2)
                                 : std::uniform_real_distribution<float>(-2.0f, 18.0f)(rng);
        }
        for (TextureFilter filter : {TextureFilter::Bilinear, TextureFilter::Trilinear}) {
            const simd::LevelChoice8 c = simd::chooseLevels8(texture, filter, _mm256_load_ps(lod));
            alignas(32) std::int32_t lo[8], hi[8];
            alignas(32) float f[8];
            _mm256_store_si256(reinterpret_cast<__m256i*>(lo), c.lo);
            _mm256_store_si256(reinterpret_cast<__m256i*>(hi), c.hi);
            _mm256_store_ps(f, c.f);
            for (int k = 0; k < 8; ++k) {
                const simd::LevelChoice expected = simd::chooseLevels(texture, filter, lod[k]);
                const auto where = [&] {
                    return "lod " + std::to_string(lod[k]) + ", " + std::to_string(texture.levelCount) + " levels";
                };
                ASSERT_EQ(lo[k], expected.lo) << where();
                ASSERT_EQ(hi[k], expected.hi) << where();
                ASSERT_TRUE(sameFloat(f[k], expected.f)) << f[k] << " against " << expected.f << ": " << where();
                ASSERT_EQ(bool(c.blends >> k & 1u), expected.f > 0.0f) << where();
            }
        }
    }
}

// The lit model's lanes (cpu/simd/lit_lanes.h) equal its scalar functions per lane: lanePow equals
// powShared over every kind of float (any bit pattern, the special values, the shininesses and
// sRGB exponent the model uses), and litFragmentLanes and encodeFragmentLanes equal
// litFragment and encodeFragment on random surfaces and normals (zero, NaN and huge ones too),
// under the default lights and under four coloured ones.
TEST(CpuRasterEquivalence, SimdLitLanesMatchScalarLitModel) {
    std::mt19937 rng(23);
    const auto unit = [&rng]() { return std::uniform_real_distribution<float>(0.0f, 1.0f)(rng); };
    for (int n = 0; n < 200000; ++n) {
        alignas(32) float x[8], e[8], p[8];
        for (int k = 0; k < 8; ++k) {
            x[k] = n % 3 == 0 ? anyFloat(rng) : n % 3 == 1 ? wildFloat(rng, 2.0f) : unit();
            e[k] = n % 4 == 0 ? 1.0f / 2.4f : n % 4 == 1 ? std::abs(wildFloat(rng, 1000.0f)) : float(rng() % 1001);
        }
        _mm256_store_ps(p, lanes::lanePow(lanes::F32x8(_mm256_load_ps(x)), lanes::F32x8(_mm256_load_ps(e))).v);
        for (int k = 0; k < 8; ++k)
            ASSERT_TRUE(sameFloat(p[k], powShared(x[k], e[k]))) << x[k] << "^" << e[k] << ": " << p[k];
    }
    Lights coloured;
    coloured.headlightColor = {0.9f, 0.8f, 1.0f};
    coloured.directional[1] = {{-1.0f, 0.5f, -0.2f}, {1.0f, 0.5f, 0.25f}, 0.6f};
    coloured.directional[2] = {{0.0f, -1.0f, 0.0f}, {0.2f, 0.4f, 1.0f}, 0.4f};
    for (const Lights& lights : {Lights{}, coloured}) {
        const glm::vec3 forward = glm::normalize(glm::vec3(0.3f, -0.4f, -1.0f));
        const LightRig rig = lightRig(lights, forward);
        for (int n = 0; n < 50000; ++n) {
            using F = lanes::F32x8;
            alignas(32) float kd[3][8], nv[3][8], ns[8], alpha[8];
            for (int k = 0; k < 8; ++k) {
                for (int c = 0; c < 3; ++c) {
                    kd[c][k] = unit();
                    nv[c][k] = n % 50 == 0 ? wildFloat(rng, 1.0f) : n % 7 == 0 ? 0.0f : unit() * 2.0f - 1.0f;
                }
                ns[k] = float(rng() % 200);
                alpha[k] = unit();
            }
            const glm::vec3 ks = n % 2 ? glm::vec3(0.0f) : glm::vec3(unit(), unit(), unit());
            const glm::vec3 ke = n % 5 ? glm::vec3(0.0f) : glm::vec3(unit(), unit(), unit());
            const glm::vec3 ka(unit(), unit(), unit());
            const Illumination illumination = Illumination(n % 3);
            const auto load = [](const float (&v)[3][8]) {
                return Vec3Lanes<F>{F(_mm256_load_ps(v[0])), F(_mm256_load_ps(v[1])), F(_mm256_load_ps(v[2]))};
            };
            const LitSurfaceLanes<F> s{load(kd), splat3<F>(ks), splat3<F>(ke), F(_mm256_load_ps(ns)),
                                       F(_mm256_load_ps(alpha))};
            const ColorLanes<F> c = encodeFragmentLanes(litFragmentLanes(s, illumination, ka, lights, rig, load(nv)));
            alignas(32) float out[4][8];
            _mm256_store_ps(out[0], c.r.v);
            _mm256_store_ps(out[1], c.g.v);
            _mm256_store_ps(out[2], c.b.v);
            _mm256_store_ps(out[3], c.a.v);
            for (int k = 0; k < 8; ++k) {
                const LitSurface scalar{{kd[0][k], kd[1][k], kd[2][k]}, ks, ke, ns[k], alpha[k]};
                const glm::vec4 want = encodeFragment(
                    litFragment(scalar, illumination, ka, lights, lightRig(lights, forward), {nv[0][k], nv[1][k], nv[2][k]}));
                for (int ch = 0; ch < 4; ++ch)
                    ASSERT_TRUE(sameFloat(out[ch][k], want[ch]))
                        << "channel " << ch << ": " << out[ch][k] << " against " << want[ch] << ", normal " << nv[0][k]
                        << " " << nv[1][k] << " " << nv[2][k];
            }
        }
    }
}

// The wraps the sampling tests below take in turn, on u and v: each alone on both axes, and mixed.
constexpr Wrap kWraps[][2] = {{Wrap::Repeat, Wrap::Repeat},
                              {Wrap::ClampToEdge, Wrap::ClampToEdge},
                              {Wrap::MirroredRepeat, Wrap::MirroredRepeat},
                              {Wrap::ClampToEdge, Wrap::MirroredRepeat},
                              {Wrap::MirroredRepeat, Wrap::Repeat}};
constexpr int kWrapCount = int(sizeof(kWraps) / sizeof(kWraps[0]));

TextureView wrappedView(const Texture& tex, int wrap) {
    return TextureView{tex.texels.data(), tex.levels.data(), int(tex.levels.size()), kWraps[wrap][0], kWraps[wrap][1]};
}

// The classic model's fixed-point sampleTexture4 equals sampleTexture8 per lane, for every
// filter, and the lit model's float fetchSamples4 (sRGB texels) equals sampleTexture, on textures
// of odd and power-of-two sizes, at any uv (far outside [0, 1], NaN and infinite too) and lod,
// under every wrap (kWraps), with either way of reading texels (gathers, a load per lane). The
// sizes give every way simd::LevelTable looks levels up: up to 8 levels, up to 16, and more (17).
template <IndexedLoads L> void expectSimdSamplingMatchesSampleTexture() {
    std::mt19937 rng(12);
    const std::uint32_t sizes[][2] = {{1, 1}, {2, 1}, {5, 3}, {64, 64}, {256, 32}, {97, 131}, {1024, 3}, {70000, 1}};
    const SrgbTable srgb = makeSrgbTable();
    for (const auto& size : sizes) {
        const Texture tex = randomTexture(rng, size[0], size[1]);
        for (int n = 0; n < 20000; ++n) {
            const TextureView view = wrappedView(tex, n % kWrapCount);
            const simd::LevelTable levels(view);
            const float uvScale = n % 3 == 0 ? 1.0f : n % 3 == 1 ? 20.0f : 1.0e5f;
            alignas(16) float u[4], v[4];
            for (int k = 0; k < 4; ++k) {
                u[k] = wildFloat(rng, uvScale);
                v[k] = wildFloat(rng, uvScale);
            }
            const float lod = n % 5 == 0 ? wildFloat(rng, 3.0f) : std::uniform_real_distribution<float>(-2.0f, 18.0f)(rng);
            const auto where = [&](TextureFilter filter, int k) {
                std::ostringstream s;
                s << "filter " << int(filter) << " uv " << u[k] << "," << v[k] << " lod " << lod << ", " << nameOf(L)
                  << ", wraps " << nameOf(view.wrapS) << " " << nameOf(view.wrapT);
                return s.str();
            };
            for (TextureFilter filter : {TextureFilter::Nearest, TextureFilter::Bilinear, TextureFilter::Trilinear}) {
                alignas(16) std::uint32_t packed[4];
                _mm_store_si128(reinterpret_cast<__m128i*>(packed),
                                simd::sampleTexture4<L>(view, filter, _mm_load_ps(u), _mm_load_ps(v), lod));
                for (int k = 0; k < 4; ++k)
                    ASSERT_EQ(packed[k], sampleTexture8(view, filter, glm::vec2(u[k], v[k]), lod)) << where(filter, k);
                if (filter == TextureFilter::Nearest) continue;
                const simd::LevelChoice c = simd::chooseLevels(view, filter, lod);
                const simd::Rgba4 lit = simd::fetchSamples4<L>(
                    view,
                    simd::planSamples4(levels, _mm_load_ps(u), _mm_load_ps(v), _mm_set1_epi32(c.lo),
                                       _mm_set1_epi32(c.hi), _mm_set1_ps(c.f)),
                    simd::SrgbTexel8<L>{&srgb});
                alignas(16) float ch[4][4];
                _mm_store_ps(ch[0], lit.r);
                _mm_store_ps(ch[1], lit.g);
                _mm_store_ps(ch[2], lit.b);
                _mm_store_ps(ch[3], lit.a);
                for (int k = 0; k < 4; ++k) {
                    const glm::vec4 expected =
                        sampleTexture(view, filter, glm::vec2(u[k], v[k]), lod, SrgbTexel{&srgb});
                    for (int i = 0; i < 4; ++i)
                        ASSERT_TRUE(sameFloat(ch[i][k], expected[i]))
                            << ch[i][k] << " vs " << expected[i] << ": " << where(filter, k);
                }
            }
        }
    }
}

TEST(CpuRasterEquivalence, SimdSamplingMatchesSampleTexture) {
    expectSimdSamplingMatchesSampleTexture<IndexedLoads::Gather>();
    expectSimdSamplingMatchesSampleTexture<IndexedLoads::ByLane>();
}

// cpu/simd/wide_filter.h's AVX-512 filters equal sampleTexture8 per pixel, on the same textures
// and inputs (and wraps) as the test above: each pixel's levels as the stream chooses them
// (simd::chooseLevels), one level to filterOneLevel16 and two to filterTwoLevels16, in lists
// padded as the stream pads them.
TEST(CpuRasterEquivalence, WideFiltersMatchSampleTexture) {
    if (!wideFilterSupported()) GTEST_SKIP() << "this CPU has no AVX-512BW, so the AVX-512 texture filters never run";
    std::mt19937 rng(31);
    const std::uint32_t sizes[][2] = {{1, 1}, {2, 1}, {5, 3}, {64, 64}, {256, 32}, {97, 131}, {1024, 3}, {70000, 1}};
    std::size_t checked[2] = {0, 0};
    for (const auto& size : sizes) {
        const Texture tex = randomTexture(rng, size[0], size[1]);
        ASSERT_EQ(WideLevels(wrappedView(tex, 0)).fits, tex.levels.size() <= 16) << size[0] << "x" << size[1];
        if (tex.levels.size() > 16) continue; // the stream takes the AVX2 passes (the test above)
        for (int n = 0; n < 3000; ++n) {
            const TextureView view = wrappedView(tex, n % kWrapCount);
            const WideLevels levels(view);
            struct List {
                alignas(32) float u[64], v[64], f[64], lod[64];
                alignas(32) std::int32_t lo[64], hi[64];
                int count = 0;
            } lists[2];
            const float uvScale = n % 3 == 0 ? 1.0f : n % 3 == 1 ? 20.0f : 1.0e5f;
            for (int k = 0; k < 48; ++k) {
                const float u = wildFloat(rng, uvScale), v = wildFloat(rng, uvScale);
                const float lod =
                    n % 5 == 0 ? wildFloat(rng, 3.0f) : std::uniform_real_distribution<float>(-2.0f, 18.0f)(rng);
                const simd::LevelChoice c = simd::chooseLevels(view, TextureFilter::Trilinear, lod);
                List& l = lists[c.f > 0.0f ? 1 : 0];
                l.u[l.count] = u;
                l.v[l.count] = v;
                l.f[l.count] = c.f;
                l.lod[l.count] = lod;
                l.lo[l.count] = c.lo;
                l.hi[l.count] = c.hi;
                ++l.count;
            }
            for (int two = 0; two < 2; ++two) {
                List& l = lists[two];
                if (l.count == 0) continue;
                const int padded = two ? (l.count + 7) & ~7 : (l.count + 15) & ~15;
                for (int k = l.count; k < padded; ++k) { // padLanes' copies of the last pixel
                    l.u[k] = l.u[l.count - 1];
                    l.v[k] = l.v[l.count - 1];
                    l.f[k] = l.f[l.count - 1];
                    l.lo[k] = l.lo[l.count - 1];
                    l.hi[k] = l.hi[l.count - 1];
                }
                alignas(32) std::uint32_t colors[64];
                (two ? filterTwoLevels16 : filterOneLevel16)(view, levels, {l.u, l.v, l.lo, l.hi, l.f, l.count},
                                                             colors);
                for (int k = 0; k < l.count; ++k)
                    ASSERT_EQ(colors[k],
                              sampleTexture8(view, TextureFilter::Trilinear, glm::vec2(l.u[k], l.v[k]), l.lod[k]))
                        << (two ? "two levels" : "one level") << ", pixel " << k << " of " << l.count << ": uv "
                        << l.u[k] << "," << l.v[k] << " lod " << l.lod[k] << ", texture " << size[0] << "x" << size[1]
                        << ", wraps " << nameOf(view.wrapS) << " " << nameOf(view.wrapT);
                checked[two] += std::size_t(l.count);
            }
        }
    }
    EXPECT_GT(checked[0], 100000u);
    EXPECT_GT(checked[1], 100000u);
}

// The streamed row writes equal std::copy and std::fill at every alignment and length, and
// leave the elements around the row alone.
TEST(CpuRasterEquivalence, StreamedRowsMatchCopyAndFill) {
    std::vector<std::uint32_t> from(300);
    for (std::size_t i = 0; i < from.size(); ++i) from[i] = std::uint32_t(i * 2654435761u);
    for (std::size_t start = 0; start < 20; ++start)
        for (std::size_t n : {0, 1, 3, 4, 15, 16, 17, 31, 64, 65, 200}) {
            std::vector<std::uint32_t> copied(260, 7u), expected(260, 7u);
            streamRow(copied.data() + start, from.data() + 3, n);
            std::copy_n(from.data() + 3, n, expected.data() + start);
            EXPECT_EQ(copied, expected) << "copy of " << n << " from element " << start;
            std::vector<float> filled(260, 0.5f), expectedFill(260, 0.5f);
            streamFillRow(filled.data() + start, 1.0f, n);
            std::fill_n(expectedFill.data() + start, n, 1.0f);
            EXPECT_EQ(filled, expectedFill) << "fill of " << n << " from element " << start;
        }
    streamFence();
}

// Draws `tri` over a w x h target cut into tiles of `tile` pixels as the renderer cuts them
// (columns from an even x, rows from -quadRowOffset), once with the reference
// (raster_reference.h) and once deferred (visibility, then shading of the pixels it won), from
// the same random depth buffer, and adds a failure where the colours, depths or fragment
// counts differ. Returns the fragments drawn.
std::size_t drawBothWays(const ScreenTriangle& tri, const TriangleAttributes& attributes, const ShadeMaterial& material,
                         const RenderSettings& settings, glm::vec3 forward, int w, int h, int tile, std::mt19937& rng,
                         const std::string& what) {
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    const std::size_t pixels = std::size_t(w) * std::size_t(h);
    // Colour starts as the clear colour (shadeTile writes it where nothing is drawn); depth at
    // random, so the depth test decides.
    std::vector<float> depthA(pixels), depthB;
    std::vector<std::uint32_t> colorA(pixels, settings.clearColor), colorB;
    for (std::size_t i = 0; i < pixels; ++i) depthA[i] = i % 5 == 0 ? 1.0f : unit(rng);
    depthB = depthA;
    colorB = colorA;
    const FrameView targetA{colorA.data(), depthA.data(), w, h}, targetB{colorB.data(), depthB.data(), w, h};
    const int quadRowOffset = h & 1;
    const FramePlan plan = test::tilePlan(settings, forward, quadRowOffset);
    const RasterContext ctxA{plan, targetA}, ctxB{plan, targetB};
    std::vector<std::uint32_t> idBuffer(kTileBufferElements), tileColor(kTileBufferElements);
    std::vector<float> tileDepth(kTileBufferElements);
    const TileTriangle drawn[1] = {{&tri, &attributes, &material}};
    std::size_t fragments = 0;
    for (int ty = -quadRowOffset; ty < h; ty += tile)
        for (int tx = 0; tx < w; tx += tile) {
            const TileRect rect{tx, std::max(0, ty), std::min(w, tx + tile) - 1, std::min(h, ty + tile) - 1};
            const std::size_t a = drawTriangleReference(tri, attributes, material, ctxA, rect);
            std::fill(idBuffer.begin(), idBuffer.end(), 0u);
            std::fill(tileDepth.begin(), tileDepth.end(), 1.0f);
            const TileBuffers buffers{idBuffer.data(), tileDepth.data(), tileColor.data(), tx, ty};
            loadTileDepth(ctxB, rect, buffers);
            const std::size_t b = rasterizeVisibility(tri, 1, ctxB, rect, buffers);
            storeTileDepth(ctxB, rect, buffers);
            shadeTile(drawn, nullptr, ctxB, rect, buffers);
            EXPECT_EQ(a, b) << what << ", tile " << tx << "," << ty;
            if (a != b) return fragments;
            fragments += a;
        }
    for (std::size_t i = 0; i < pixels; ++i) {
        EXPECT_EQ(colorA[i], colorB[i]) << what << ", pixel " << i % std::size_t(w) << "," << i / std::size_t(w);
        EXPECT_EQ(bitsOf(depthA[i]), bitsOf(depthB[i])) << what << ", pixel " << i % std::size_t(w) << ","
                                                         << i / std::size_t(w);
        if (colorA[i] != colorB[i] || bitsOf(depthA[i]) != bitsOf(depthB[i])) break;
    }
    return fragments;
}

// Whole triangles: the SIMD quad loop writes exactly the colours and depths of the scalar
// reference, for every filter with and without the headlight, textured or not, over random
// triangles (slivers to huge), random attributes, a random depth buffer, odd target sizes,
// both quad row offsets and tiles cut anywhere.
TEST(CpuRasterEquivalence, SimdVisibilityAndShadingMatchScalar) {
    std::mt19937 rng(13);
    const Texture tex = randomTexture(rng, 64, 32);
    std::size_t fragments = 0;
    for (int n = 0; n < 4000; ++n) {
        const int w = 1 + int(rng() % 70), h = 1 + int(rng() % 50);
        const float scale = n % 3 == 0 ? 3.0f : n % 3 == 1 ? 30.0f : 3000.0f;
        std::uniform_real_distribution<float> d(-scale, scale), unit(0.0f, 1.0f);
        const glm::vec2 centre(unit(rng) * float(w), unit(rng) * float(h));
        ScreenVertex v[3];
        for (ScreenVertex& s : v) {
            s = vertexAt(centre + glm::vec2(d(rng), d(rng)));
            s.depth = std::uniform_real_distribution<float>(-0.1f, 1.1f)(rng);
            s.attributes.invW = std::uniform_real_distribution<float>(n % 4 == 0 ? -1.0f : 0.01f, 2.0f)(rng);
            s.attributes.uvOverW =
                glm::vec2(wildFloat(rng, 4.0f), wildFloat(rng, 4.0f)) * (n % 7 == 0 ? 1000.0f : 1.0f);
            s.attributes.nOverW = glm::vec3(d(rng), d(rng), n % 9 == 0 ? 0.0f : d(rng));
        }
        if (n % 11 == 0) v[1].attributes.nOverW = v[2].attributes.nOverW = v[0].attributes.nOverW = glm::vec3(0.0f);
        ScreenTriangle tri{};
        TriangleAttributes attributes;
        if (setupTriangle(v[0], v[1], v[2], false, w, h, tri, true, 0, &attributes) != SetupResult::Ok) continue;

        RenderSettings settings = test::classicSettings();
        settings.clearColor = std::uint32_t(rng());
        settings.filter = TextureFilter(n % 3);
        settings.headlight = (n / 3) % 2 == 1;
        const ShadeMaterial material{glm::vec4(unit(rng) * 255.0f, unit(rng) * 255.0f, unit(rng) * 255.0f, 255.0f),
                                     n % 8 == 7 ? TextureView{}
                                                : TextureView{tex.texels.data(), tex.levels.data(), int(tex.levels.size())}};
        const glm::vec3 forward = glm::normalize(glm::vec3(d(rng), d(rng), d(rng)) + glm::vec3(0.0f, 0.0f, 1e-3f));
        const int tile = 2 * (1 + int(rng() % 20));
        fragments += drawBothWays(tri, attributes, material, settings, forward, w, h, tile, rng,
                                  "triangle " + std::to_string(n));
        if (HasFatalFailure() || HasNonfatalFailure()) return;
    }
    EXPECT_GT(fragments, 100000u);
}

// Triangles of a pixel or two, and tiles cut anywhere, so that many have one pixel in a tile's
// range (depthTestPixel, without a walk): the deferred drawing gives exactly the scalar
// reference's pixels, textured or not, over a random depth buffer.
TEST(CpuRasterEquivalence, OnePixelRangesMatchScalar) {
    std::mt19937 rng(31);
    const Texture tex = randomTexture(rng, 16, 16);
    std::size_t fragments = 0, onePixel = 0;
    for (int n = 0; n < 20000; ++n) {
        const int w = 1 + int(rng() % 24), h = 1 + int(rng() % 18);
        std::uniform_real_distribution<float> d(-1.2f, 1.2f), unit(0.0f, 1.0f);
        const glm::vec2 centre(unit(rng) * float(w), unit(rng) * float(h));
        ScreenVertex v[3];
        for (ScreenVertex& s : v) {
            s = vertexAt(centre + glm::vec2(d(rng), d(rng)));
            s.depth = std::uniform_real_distribution<float>(-0.1f, 1.1f)(rng);
            s.attributes.uvOverW = glm::vec2(wildFloat(rng, 4.0f), wildFloat(rng, 4.0f));
        }
        ScreenTriangle tri{};
        TriangleAttributes attributes;
        if (setupTriangle(v[0], v[1], v[2], false, w, h, tri, true, 0, &attributes) != SetupResult::Ok) continue;
        const int tile = 2 * (1 + int(rng() % 3));
        // Ranges of one pixel: the triangle's bounds, or a tile's corner cutting them.
        for (int ty = -(h & 1); ty < h; ty += tile)
            for (int tx = 0; tx < w; tx += tile)
                onePixel += std::max(tri.minX, tx) == std::min(tri.maxX, tx + tile - 1) &&
                            std::max(tri.minY, ty) == std::min(tri.maxY, ty + tile - 1);
        RenderSettings settings = test::classicSettings();
        settings.clearColor = std::uint32_t(rng());
        settings.filter = TextureFilter(n % 3);
        const TextureView textured{tex.texels.data(), tex.levels.data(), int(tex.levels.size())};
        const ShadeMaterial material{glm::vec4(unit(rng) * 255.0f, unit(rng) * 255.0f, unit(rng) * 255.0f, 255.0f),
                                     n % 4 == 3 ? TextureView{} : textured};
        fragments += drawBothWays(tri, attributes, material, settings, glm::vec3(0.0f, 0.0f, 1.0f), w, h, tile, rng,
                                  "triangle " + std::to_string(n));
        if (HasFatalFailure() || HasNonfatalFailure()) return;
    }
    EXPECT_GT(onePixel, 3000u);
    EXPECT_GT(fragments, 3000u);
}

// Small triangles take a 32-bit walk (kSmallTriangleExtent); at its limit and just past it,
// anywhere in the target, cut by tiles and target edges or not, set-up marks them so exactly
// and both walks give the scalar reference's pixels.
TEST(CpuRasterEquivalence, SmallTriangleWalkMatchesScalarAtItsLimit) {
    std::mt19937 rng(17);
    const int w = 301, h = 203;
    std::size_t fragments = 0;
    for (int n = 0; n < 400; ++n) {
        // Sides of kSmallTriangleExtent - 1 (the last 32-bit one) or kSmallTriangleExtent
        // sub-pixels, along x or y or both, at random positions and orientations.
        const std::int32_t extent = kSmallTriangleExtent - 1 + (n % 2);
        const std::int32_t x0 = std::int32_t(rng() % std::uint32_t(w * kSubpixelOne)) - kSmallTriangleExtent / 2;
        const std::int32_t y0 = std::int32_t(rng() % std::uint32_t(h * kSubpixelOne)) - kSmallTriangleExtent / 2;
        const std::int32_t a = std::int32_t(rng() % std::uint32_t(extent + 1)), b = std::int32_t(rng() % std::uint32_t(extent + 1));
        FixedPoint2 p[3];
        switch ((n / 2) % 3) {
        case 0: p[0] = {x0, y0}, p[1] = {x0 + extent, y0 + a}, p[2] = {x0 + b, y0 + a / 2 + 300}; break;
        case 1: p[0] = {x0 + a, y0}, p[1] = {x0, y0 + extent}, p[2] = {x0 + b / 2 + 300, y0 + b}; break;
        default: p[0] = {x0, y0}, p[1] = {x0 + extent, y0 + a}, p[2] = {x0 + b, y0 + extent}; break;
        }
        if (n % 4 >= 2) std::swap(p[1], p[2]);
        ScreenVertex v[3];
        for (int k = 0; k < 3; ++k) {
            v[k] = vertexAt(glm::vec2(float(p[k].x), float(p[k].y)) / float(kSubpixelOne));
            v[k].p = p[k];
            v[k].depth = std::uniform_real_distribution<float>(0.0f, 1.0f)(rng);
        }
        ScreenTriangle tri{};
        TriangleAttributes attributes;
        if (setupTriangle(v[0], v[1], v[2], false, w, h, tri, true, 0, &attributes) != SetupResult::Ok) continue;
        // Set-up's decision is the corners' extent, whatever the samples' reach adds to the bounds.
        const bool small = extent < kSmallTriangleExtent;
        ASSERT_EQ(tri.small != 0, small) << "triangle " << n << " extent " << extent;
        ScreenTriangle reached{};
        if (setupTriangle(v[0], v[1], v[2], false, w, h, reached, true, sampleReach(4)) == SetupResult::Ok) {
            ASSERT_EQ(reached.small != 0, small) << "triangle " << n << " extent " << extent << ", 4 samples";
        }
        RenderSettings settings = test::classicSettings();
        settings.filter = TextureFilter::Nearest;
        const ShadeMaterial material{glm::vec4(200.0f, 100.0f, 50.0f, 255.0f), TextureView{}};
        const int tile = n % 3 == 0 ? kTileSize : 2 * (1 + int(rng() % (kTileSize / 2)));
        fragments += drawBothWays(tri, attributes, material, settings, glm::vec3(0.0f, 0.0f, 1.0f), w, h, tile, rng,
                                  "triangle " + std::to_string(n) + " extent " + std::to_string(extent));
        if (HasFatalFailure() || HasNonfatalFailure()) return;
    }
    EXPECT_GT(fragments, 100000u);
}

// Three vertices within `scale` pixels of `centre` on each axis, at depths in [-0.1, 1.1] (so
// the depth test's range checks decide too).
void randomVertices(std::mt19937& rng, glm::vec2 centre, float scale, ScreenVertex (&v)[3]) {
    std::uniform_real_distribution<float> d(-scale, scale);
    for (ScreenVertex& s : v) {
        s = vertexAt(centre + glm::vec2(d(rng), d(rng)));
        s.depth = std::uniform_real_distribution<float>(-0.1f, 1.1f)(rng);
    }
}

// A tile of a w x h target cut at random as the renderer cuts them (columns from an even x,
// rows from -quadRowOffset), `tile` pixels at most on a side, and two equal copies (a and b) of
// `samples` planes of its buffers: no ids, random stored depths.
struct RandomTilePlanes {
    int tx, ty;
    TileRect cut;
    std::size_t elements;
    std::vector<std::uint32_t> idsA, idsB, colors;
    std::vector<float> depthA, depthB;

    RandomTilePlanes(std::mt19937& rng, int w, int h, int tile, int quadRowOffset, int samples)
        : tx(int(rng() % std::uint32_t(w / 2)) * 2), ty(int(rng() % std::uint32_t(h / 2)) * 2 - quadRowOffset),
          cut{tx, std::max(0, ty), std::min(w, tx + tile) - 1, std::min(h, ty + tile) - 1},
          elements(std::size_t(samples) * kTileBufferElements), idsA(elements, 0u), colors(elements),
          depthA(elements) {
        std::uniform_real_distribution<float> unit(0.0f, 1.0f);
        for (float& z : depthA) z = rng() % 5 == 0 ? 1.0f : unit(rng);
        idsB = idsA;
        depthB = depthA;
    }
    TileBuffers a() { return TileBuffers{idsA.data(), depthA.data(), colors.data(), tx, ty}; }
    TileBuffers b() { return TileBuffers{idsB.data(), depthB.data(), colors.data(), tx, ty}; }

    // Fails (fatally) at the first element whose id or depth bits differ between the copies.
    void expectEqual(const std::string& what) const {
        for (std::size_t i = 0; i < elements; ++i) {
            ASSERT_EQ(idsA[i], idsB[i]) << what << ", element " << i;
            ASSERT_EQ(bitsOf(depthA[i]), bitsOf(depthB[i])) << what << ", element " << i;
        }
    }
};

// The multisampled walk in cpu/visibility/sample_pair_walk.h's AVX-512 lanes (two samples a pass) makes the
// AVX2 walk's decisions: the same ids and depths in every sample plane and the same count, for
// random triangles from slivers to huge, small (32-bit) and not, cut by tiles anywhere, over
// random stored depths, at 2, 4 and 8 samples.
TEST(CpuRasterEquivalence, SamplePairWalkMatchesTheOneSampleWalk) {
    if (!cpuSupports(Isa::Avx512)) GTEST_SKIP() << "this CPU has no AVX-512, so the sample-pair walk never runs";
    std::mt19937 rng(29);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    const int w = 97, h = 61;
    const FrameView target{nullptr, nullptr, w, h};
    const RenderSettings settings = test::classicSettings();
    std::size_t samplesWon = 0;
    for (int n = 0; n < 3000; ++n) {
        const int samples = 2 << (n % 3);
        const float scale = n % 4 == 0 ? 2.0f : n % 4 == 1 ? 20.0f : n % 4 == 2 ? 60.0f : 3000.0f;
        const glm::vec2 centre(unit(rng) * float(w), unit(rng) * float(h));
        ScreenVertex v[3];
        randomVertices(rng, centre, scale, v);
        ScreenTriangle tri{};
        if (setupTriangle(v[0], v[1], v[2], false, w, h, tri, true, sampleReach(samples)) != SetupResult::Ok) continue;
        const int quadRowOffset = n % 2;
        const int tile = 2 * (1 + int(rng() % (kTileSize / 2)));
        RandomTilePlanes planes(rng, w, h, tile, quadRowOffset, samples);
        const FramePlan plan = test::tilePlan(settings, glm::vec3(0.0f, 0.0f, 1.0f), quadRowOffset);
        RasterContext ctx{plan, target};
        const std::size_t wonA = rasterizeVisibility(tri, 7, ctx, planes.cut, planes.a(), samples);
        ctx.avx512 = true;
        const std::size_t wonB = rasterizeVisibility(tri, 7, ctx, planes.cut, planes.b(), samples);
        const std::string what = "triangle " + std::to_string(n) + " at " + std::to_string(samples) + " samples";
        ASSERT_EQ(wonA, wonB) << what;
        ASSERT_NO_FATAL_FAILURE(planes.expectEqual(what));
        samplesWon += wonA;
    }
    EXPECT_GT(samplesWon, 100000u);
}

// One sample plane of tile buffers as the CUDA raster thread's walk target: the portable quad
// lanes of core/coverage_walk.h, element by element.
struct QuadPlaneTarget {
    TileBuffers plane;
    std::uint32_t id;
    std::uint32_t* counts; // the overdraw view's, or null

    struct Row {
        const QuadPlaneTarget& t;
        int qy;
        std::size_t element(int qx, int k) const { return t.plane.at(qx + (k & 1), qy + (k >> 1)); }
        Quad<float> depthAt(int qx) const {
            Quad<float> d;
            for (int k = 0; k < 4; ++k) d.v[k] = t.plane.depth[element(qx, k)];
            return d;
        }
        void write(int qx, unsigned keep, const Quad<float>& value, const Quad<float>&) const {
            for (int k = 0; k < 4; ++k)
                if (keep >> k & 1u) {
                    t.plane.ids[element(qx, k)] = t.id;
                    t.plane.depth[element(qx, k)] = value.v[k];
                    if (t.counts) t.counts[element(qx, k)] += 1;
                }
        }
    };
    Row row(int qy) const { return Row{*this, qy}; }
};

// A large triangle's walk goes block by block (walkBlocks: blocks outside skipped, blocks inside
// depth-tested with no edge work); it makes the decisions of the CUDA raster thread's walk of
// every quad (walkCoverage in QuadLanes, one pass per sample): the same ids, depth bits and
// count in every sample plane, and the overdraw view's counts, for large triangles (huge ones,
// ones just past the 32-bit walk's limit, long slivers) cut by tiles anywhere, over random
// stored depths, at 1, 2, 4 and 8 samples.
TEST(CpuRasterEquivalence, BlockWalkMatchesTheQuadWalk) {
    std::mt19937 rng(31);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    const int w = 301, h = 203;
    const FrameView target{nullptr, nullptr, w, h};
    const RenderSettings settings = test::classicSettings();
    std::size_t samplesWon = 0;
    for (int n = 0; n < 1500; ++n) {
        const int samples = 1 << (n % 4);
        const float scale = n % 3 == 0 ? 70.0f : n % 3 == 1 ? 400.0f : 6000.0f;
        const glm::vec2 centre(unit(rng) * float(w), unit(rng) * float(h));
        ScreenVertex v[3];
        randomVertices(rng, centre, scale, v);
        if (n % 5 == 0) { // a long sliver
            const glm::vec2 off = glm::vec2(unit(rng) - 0.5f, unit(rng) - 0.5f) * scale * 0.02f;
            v[2] = vertexAt(glm::mix(v[0].pos, v[1].pos, unit(rng)) + off);
        }
        ScreenTriangle tri{};
        if (setupTriangle(v[0], v[1], v[2], false, w, h, tri, true, sampleReach(samples)) != SetupResult::Ok) continue;
        const int quadRowOffset = n % 2;
        const int tile = n % 2 ? kTileSize : 2 * (1 + int(rng() % (kTileSize / 2)));
        RandomTilePlanes planes(rng, w, h, tile, quadRowOffset, samples);
        std::vector<std::uint32_t> countsA(kTileBufferElements, 0u), countsB = countsA;
        const FramePlan plan = test::tilePlan(settings, glm::vec3(0.0f, 0.0f, 1.0f), quadRowOffset);
        const RasterContext ctx{plan, target};
        const std::size_t wonA =
            samples == 1 ? rasterizeVisibilityCounting(tri, 7, ctx, planes.cut, planes.a(), countsA.data())
                         : rasterizeVisibility(tri, 7, ctx, planes.cut, planes.a(), samples);
        std::size_t wonB = 0;
        QuadRange q;
        if (quadRange(tri, planes.cut, quadRowOffset, q))
            for (int s = 0; s < samples; ++s) {
                QuadPlaneTarget plane{samplePlane(planes.b(), s), 7, samples == 1 ? countsB.data() : nullptr};
                wonB += walkCoverage<QuadLanes, true>(tri, q, plane, samples == 1 ? pixelCentreSample() : samplePoint(samples, s));
            }
        const std::string what = "triangle " + std::to_string(n) + " at " + std::to_string(samples) + " samples";
        ASSERT_EQ(wonA, wonB) << what;
        ASSERT_EQ(countsA, countsB) << what;
        ASSERT_NO_FATAL_FAILURE(planes.expectEqual(what));
        samplesWon += wonA;
    }
    EXPECT_GT(samplesWon, 500000u);
}

// The largest depth stored in each bound block (cpu/visibility/block_depth_bounds.h) of a tile's planes.
std::vector<float> blockMaxima(const std::vector<float>& depth, int samples) {
    std::vector<float> most(kBoundBlocks, -std::numeric_limits<float>::infinity());
    for (int s = 0; s < samples; ++s)
        for (int y = 0; y < kTileSize; ++y)
            for (int x = 0; x < kTileSize; ++x) {
                float& m = most[std::size_t(y / kCoverBlock * kBoundBlocksPerRow + x / kCoverBlock)];
                m = std::max(m, depth[std::size_t(s) * kTileBufferElements + std::size_t(y * kTileBufferStride + x)]);
            }
    return most;
}

// The walk of a large triangle culled by the tile's block depth bounds makes the decisions of
// the same walk without them (the same ids, depth bits and count), through sequences of large
// triangles over random stored depths: level ones (so bounds tighten and later triangles fall
// behind them), tilted ones, ones reaching outside [0, 1], and small ones between them (which
// do not keep the bounds; they stay true), at 1, 2, 4 and 8 samples. After every triangle each
// bound is still no nearer than any depth in its block's sample planes; and many blocks were
// found occluded, so the skipping is tested. Triangles are set up for the samples they are
// walked at, as the renderer sets them up (FramePlan::sampleReach): set up for the pixel centres
// alone, one could cover a sample outside its pixel bounds, which only the block-aligned walk
// visits (clang's order of evaluating arguments drew such a triangle from the same seed).
TEST(CpuRasterEquivalence, BlockDepthBoundsCullOnlyWhatFails) {
    std::mt19937 rng(37);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    const int w = 301, h = 203;
    const FrameView target{nullptr, nullptr, w, h};
    const RenderSettings settings = test::classicSettings();
    std::size_t occluded = 0, won = 0;
    for (int round = 0; round < 80; ++round) {
        const int quadRowOffset = round % 2, samples = 1 << (round / 2 % 4);
        RandomTilePlanes planes(rng, w, h, kTileSize, quadRowOffset, samples);
        std::vector<float> farthest = blockMaxima(planes.depthA, samples);
        TileBuffers culled = planes.a();
        culled.farthest = farthest.data();
        const FramePlan plan = test::tilePlan(settings, glm::vec3(0.0f, 0.0f, 1.0f), quadRowOffset);
        const RasterContext ctx{plan, target};
        for (int n = 0; n < 24; ++n) {
            const glm::vec2 centre(float(planes.cut.x0) + unit(rng) * kTileSize, float(planes.cut.y0) + unit(rng) * kTileSize);
            ScreenVertex v[3];
            randomVertices(rng, centre, n % 6 == 5 ? 20.0f : 300.0f, v);
            if (n % 3 != 2) v[1].depth = v[2].depth = v[0].depth = unit(rng); // level
            ScreenTriangle tri{};
            if (setupTriangle(v[0], v[1], v[2], false, w, h, tri, true, sampleReach(samples)) != SetupResult::Ok) continue;
            QuadRange q;
            if (quadRange(tri, planes.cut, quadRowOffset, q) && culled.farthest) {
                const QuadRange grid = alignedToBoundBlocks(q, culled);
                const BlockDepthBounds bounds(tri, q, culled, samples);
                for (int by = grid.firstQy; by <= q.maxY; by += kCoverBlock)
                    for (int bx = grid.firstQx; bx <= q.maxX; bx += kCoverBlock) occluded += bounds.occluded(bx, by);
            }
            const std::uint32_t id = std::uint32_t(n + 1);
            const std::size_t wonA = rasterizeVisibility(tri, id, ctx, planes.cut, culled, samples);
            const std::size_t wonB = rasterizeVisibility(tri, id, ctx, planes.cut, planes.b(), samples);
            const std::string what = "round " + std::to_string(round) + ", triangle " + std::to_string(n) + " at " +
                                     std::to_string(samples) + " samples";
            ASSERT_EQ(wonA, wonB) << what;
            ASSERT_NO_FATAL_FAILURE(planes.expectEqual(what));
            const std::vector<float> most = blockMaxima(planes.depthA, samples);
            for (int b = 0; b < kBoundBlocks; ++b) ASSERT_GE(farthest[std::size_t(b)], most[std::size_t(b)]) << what << ", block " << b;
            won += wonA;
        }
    }
    EXPECT_GT(occluded, 2000u);
    EXPECT_GT(won, 200000u);
}

// classifyVertices (eight vertices a lane each) equals classifyVertex vertex by vertex: the
// same outside masks, and the same projection bits wherever a vertex is inside every plane;
// with and without uvs and normals, for non-finite, behind-the-eye and far-off positions, and
// ranges that do not start or end on a multiple of eight.
TEST(CpuRasterEquivalence, VectorisedClassificationMatchesClassifyVertex) {
    std::mt19937 rng(19);
    std::size_t projected = 0, culled = 0;
    for (int round = 0; round < 40; ++round) {
        const std::size_t n = 37 + rng() % 200;
        std::vector<float> dx(n), dy(n), dz(n), u(n), v(n), nx(n), ny(n), nz(n);
        for (std::size_t i = 0; i < n; ++i) {
            const float scale = round % 3 == 0 ? 5.0f : round % 3 == 1 ? 50.0f : 5.0e4f;
            dx[i] = wildFloat(rng, scale);
            dy[i] = wildFloat(rng, scale);
            dz[i] = i % 4 == 0 ? wildFloat(rng, scale) : std::uniform_real_distribution<float>(0.05f, scale)(rng);
            u[i] = wildFloat(rng, 4.0f);
            v[i] = wildFloat(rng, 4.0f);
            nx[i] = wildFloat(rng, 1.0f);
            ny[i] = wildFloat(rng, 1.0f);
            nz[i] = wildFloat(rng, 1.0f);
        }
        MeshView mesh;
        mesh.vertexCount = std::uint32_t(n);
        if (round % 2 == 0) {
            mesh.u = u.data();
            mesh.v = v.data();
        }
        if (round % 4 < 2) {
            mesh.nx = nx.data();
            mesh.ny = ny.data();
            mesh.nz = nz.data();
        }
        Camera cam;
        cam.fovYDegrees = 30.0f + float(round);
        const int w = 64 + int(rng() % 2000), h = 48 + int(rng() % 1500);
        ViewParams view = cam.view(float(w) / float(h));
        view.nearPlane = 0.1f + 0.05f * float(round % 5);
        view.farPlane = 100.0f + 1000.0f * float(round % 3);
        const ClipPlanes planes = makeClipPlanes(view, w, h);
        std::vector<std::uint8_t> outsideA(n, 0xEE), outsideB(n, 0xEE);
        std::vector<ScreenVertex> projectedA(n), projectedB(n);
        const std::size_t begin = rng() % 9, end = n - rng() % 9;
        for (std::size_t i = begin; i < end; ++i)
            classifyVertex(mesh, dx.data(), dy.data(), dz.data(), planes, view, w, h, outsideA.data(), projectedA.data(),
                           std::uint32_t(i));
        classifyVertices(mesh, dx.data(), dy.data(), dz.data(), planes, view, w, h, outsideB.data(), projectedB.data(),
                         begin, end);
        for (std::size_t i = 0; i < n; ++i) {
            ASSERT_EQ(int(outsideA[i]), int(outsideB[i])) << "round " << round << " vertex " << i;
            if (i < begin || i >= end) continue;
            if (outsideA[i] != 0) {
                ++culled;
                continue;
            }
            ++projected;
            const ScreenVertex &a = projectedA[i], &b = projectedB[i];
            ASSERT_EQ(a.p.x, b.p.x) << "round " << round << " vertex " << i;
            ASSERT_EQ(a.p.y, b.p.y) << "round " << round << " vertex " << i;
            const CornerAttributes &aa = a.attributes, &ba = b.attributes;
            const float fa[] = {a.pos.x,      a.pos.y,     a.depth,     aa.invW,    aa.uvOverW.x,
                                aa.uvOverW.y, aa.nOverW.x, aa.nOverW.y, aa.nOverW.z};
            const float fb[] = {b.pos.x,      b.pos.y,     b.depth,     ba.invW,    ba.uvOverW.x,
                                ba.uvOverW.y, ba.nOverW.x, ba.nOverW.y, ba.nOverW.z};
            for (int k = 0; k < 9; ++k) ASSERT_EQ(bitsOf(fa[k]), bitsOf(fb[k])) << "round " << round << " vertex " << i << " field " << k;
        }
    }
    EXPECT_GT(projected, 1000u);
    EXPECT_GT(culled, 1000u);
}

// The whole renderer, drawing each tile deferred (coverage and depth for all its triangles,
// then one shading per pixel), against the plain definition: drawTriangleReference drawing
// the same set-up triangles one by one, in input order, over the whole target. Random
// triangle soups piled in front of the camera, so pixels are covered many times over, with
// shared vertices and edges, textured and untextured materials, every filter, with and
// without the headlight and back-face culling, odd target sizes and several thread counts.
TEST(CpuRasterEquivalence, DeferredRendererMatchesTrianglesDrawnInOrder) {
    std::mt19937 rng(21);
    Model model;
    model.textures.push_back(randomTexture(rng, 64, 32));
    model.textures.push_back(randomTexture(rng, 7, 5));
    model.materials = {Material{"a", {0.2f, 0.7f, 0.9f}, 0}, Material{"b", {0.9f, 0.4f, 0.1f}, -1},
                       Material{"c", {1.0f, 1.0f, 1.0f}, 1}};
    std::size_t fragments = 0, overdrawn = 0;
    for (int scene = 0; scene < 6; ++scene) {
        const int w = scene % 2 ? 201 : 130, h = scene % 3 == 0 ? 97 : 150;
        Camera cam;
        cam.eye = {0.1f * float(scene), 0.0f, 0.0f};
        const ViewParams view = cam.view(float(w) / float(h));

        // The soup: vertices around a few centres in front of the camera, triangles from
        // slivers to ones far larger than the picture; some share vertices with the last.
        Mesh& mesh = model.mesh;
        mesh = Mesh{};
        std::uniform_real_distribution<float> unit(0.0f, 1.0f), side(-1.0f, 1.0f);
        const int triangles = 3000;
        for (int t = 0; t < triangles; ++t) {
            const float size = t % 4 == 0 ? 0.02f : t % 4 == 1 ? 0.2f : t % 4 == 2 ? 0.8f : 3.0f;
            const glm::vec3 centre(0.6f * side(rng), 0.4f * side(rng), -3.0f - 2.0f * unit(rng));
            for (int k = 0; k < 3; ++k) {
                if (k < 2 && t % 5 == 1) { // reuse an edge of the previous triangle
                    mesh.indices.push_back(mesh.indices[mesh.indices.size() - 3]);
                    continue;
                }
                mesh.px.push_back(centre.x + size * side(rng));
                mesh.py.push_back(centre.y + size * side(rng));
                mesh.pz.push_back(centre.z + 0.5f * size * side(rng));
                mesh.u.push_back(wildFloat(rng, 3.0f) * (t % 13 == 0 ? 500.0f : 1.0f));
                mesh.v.push_back(wildFloat(rng, 3.0f));
                mesh.indices.push_back(std::uint32_t(mesh.px.size() - 1));
            }
        }
        mesh.hasTexCoords = true;
        generateNormals(mesh);
        computeBounds(mesh);
        for (int r = 0; r < 7; ++r)
            mesh.ranges.push_back({std::uint32_t(r * triangles / 7), std::uint32_t((r + 1) * triangles / 7 - r * triangles / 7),
                                   std::uint32_t(r % 3)});

        // The soup lies inside every clip plane (asserted), so the reference sets up each
        // triangle from its projected vertices as the renderer does, with no clipping.
        std::vector<float> dx(mesh.vertexCount()), dy(dx.size()), dz(dx.size());
        transformVertices(mesh, view, 0, mesh.vertexCount(), dx.data(), dy.data(), dz.data());
        const ClipPlanes planes = makeClipPlanes(view, w, h);
        std::vector<ScreenVertex> projected(dx.size());
        for (std::size_t i = 0; i < dx.size(); ++i) {
            const ClipVertex v{{dx[i], dy[i], dz[i]}, {mesh.u[i], mesh.v[i]}, {mesh.nx[i], mesh.ny[i], mesh.nz[i]}};
            ASSERT_EQ(outsideMask(planes, v.d), 0u) << "vertex " << i;
            projected[i] = projectVertex(v, view, w, h);
        }
        std::vector<ShadeMaterial> materials;
        for (const Material& m : model.materials) {
            ShadeMaterial sm{glm::vec4(glm::clamp(m.diffuse, 0.0f, 1.0f) * 255.0f, 255.0f), TextureView{}};
            if (m.texture >= 0) {
                const Texture& tex = model.textures[std::size_t(m.texture)];
                sm.texture = TextureView{tex.texels.data(), tex.levels.data(), int(tex.levels.size())};
            }
            materials.push_back(sm);
        }

        for (int variant = 0; variant < 6; ++variant) {
            RenderSettings settings = test::classicSettings();
            settings.filter = TextureFilter(variant % 3);
            settings.headlight = (variant + scene) % 2 == 0;
            settings.cull = variant == 4 ? CullMode::Back : CullMode::None;
            const std::size_t pixels = std::size_t(w) * std::size_t(h);

            std::vector<std::uint32_t> refColor(pixels, settings.clearColor);
            std::vector<float> refDepth(pixels, 1.0f);
            const FrameView refTarget{refColor.data(), refDepth.data(), w, h};
            const FramePlan plan = test::tilePlan(settings, viewForward(view), h & 1);
            const RasterContext ctx{plan, refTarget};
            std::size_t refFragments = 0;
            for (const MaterialRange& range : mesh.ranges)
                for (std::size_t t = range.firstTriangle; t < range.firstTriangle + range.triangleCount; ++t) {
                    const std::uint32_t* c = &mesh.indices[3 * t];
                    ScreenTriangle tri{};
                    TriangleAttributes attributes;
                    if (setupTriangle(projected[c[0]], projected[c[1]], projected[c[2]],
                                      settings.cull == CullMode::Back, w, h, tri, true, 0,
                                      &attributes) != SetupResult::Ok)
                        continue;
                    refFragments += drawTriangleReference(tri, attributes, materials[range.material], ctx,
                                                          TileRect{0, 0, w - 1, h - 1});
                }

            const int threads = 1 + (scene + variant) % 3;
            CpuRenderer renderer(threads);
            std::vector<std::uint32_t> color(pixels);
            std::vector<float> depth(pixels);
            for (int frame = 0; frame < 2; ++frame) { // the second frame reuses the scratch
                const CpuFrameStats stats = test::drawWith(renderer, model, view, settings, FrameView{color.data(), depth.data(), w, h});
                ASSERT_EQ(stats.fragmentsShaded, refFragments) << "scene " << scene << " variant " << variant;
                for (std::size_t i = 0; i < pixels; ++i) {
                    ASSERT_EQ(color[i], refColor[i]) << "scene " << scene << " variant " << variant << " pixel "
                                                     << i % std::size_t(w) << "," << i / std::size_t(w);
                    ASSERT_EQ(bitsOf(depth[i]), bitsOf(refDepth[i])) << "scene " << scene << " variant " << variant;
                }
            }
            std::size_t covered = 0;
            for (float d : refDepth) covered += d < 1.0f;
            fragments += refFragments;
            overdrawn += refFragments - covered;
        }
    }
    // Heavy overdraw: most fragments written are overwritten later.
    EXPECT_GT(overdrawn, fragments / 2);
}

} // namespace
} // namespace facet
