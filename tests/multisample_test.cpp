// Multisampling (RenderSettings::msaa): the sample positions, set-up's bounds, the CPU's
// per-sample raster stage against a plain per-sample definition, the CUDA kernels run on the CPU
// against the CPU renderer bit for bit at every sample count, refused counts, and a 16384x16384
// target at 8 samples.
#include "draw_with.h"
#include "asset/load_model.h"
#include "core/camera.h"
#include "core/error.h"
#include "core/multisample.h"
#include "core/quad_shading.h"
#include "cpu/cpu_renderer.h"
#include "cpu/shading/multisample_tile.h"
#include "cpu/visibility/visibility.h"
#include "renderer.h"
#include "test_support.h"

#if defined(FACET_HAVE_KERNELS_HOST)
#include "cuda/host_kernel_renderer.h"
#endif

#include <gtest/gtest.h>

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <random>
#include <set>
#include <sstream>
#include <vector>

namespace facet {
namespace {

constexpr int kSampleCounts[] = {2, 4, 8};

// The standard positions in 1/16 pixel from the top-left corner with y down (Direct3D,
// Vulkan; Mesa's u_default_sample_positions), which facet mirrors vertically (OpenGL's rows
// count up).
TEST(Multisample, SamplePositionsAreTheStandardOnesMirrored) {
    const int standard2[][2] = {{12, 12}, {4, 4}};
    const int standard4[][2] = {{6, 2}, {14, 6}, {2, 10}, {10, 14}};
    const int standard8[][2] = {{9, 5}, {7, 11}, {13, 9}, {5, 3}, {3, 13}, {1, 7}, {11, 15}, {15, 1}};
    const auto check = [](int samples, const int (*table)[2]) {
        for (int s = 0; s < samples; ++s) {
            const SamplePoint p = samplePoint(samples, s);
            EXPECT_EQ(p.fx, table[s][0] * kSubpixelOne / 16) << samples << " samples, sample " << s;
            EXPECT_EQ(p.fy, (16 - table[s][1]) * kSubpixelOne / 16) << samples << " samples, sample " << s;
            EXPECT_EQ(p.x, float(table[s][0]) / 16.0f);
            EXPECT_EQ(p.y, float(16 - table[s][1]) / 16.0f);
        }
    };
    check(2, standard2);
    check(4, standard4);
    check(8, standard8);
    const SamplePoint centre = samplePoint(1, 0);
    EXPECT_EQ(centre.fx, pixelCentreFixed(0));
    EXPECT_EQ(centre.fy, pixelCentreFixed(0));
}

TEST(Multisample, ResolveRoundsTheMeanOfEachChannel) {
    ColorSum sum;
    sum.add(0xFF000000u, 3);
    sum.add(0x01FF0080u, 1);
    // alpha (3 * 255 + 1) / 4 = 191.5 -> 192; blue 255 / 4 -> 64; green 0; red 128 / 4 = 32.
    EXPECT_EQ(sum.resolve(4), 0xC0400020u);
    ColorSum one;
    one.add(0x12345678u, 8);
    EXPECT_EQ(one.resolve(8), 0x12345678u);
}

TEST(Multisample, UnsupportedCountsAreRefused) {
    const Model model = loadModel(test::sourceDir() / "assets/default_scene/scene.obj");
    const ViewParams view = Camera::framing(model.mesh, 1.0f).view(1.0f);
    test::Frame frame(32, 32);
    for (const int bad : {0, 3, 16, -4}) {
        RenderSettings settings;
        settings.msaa = bad;
        CpuRenderer cpu(1);
        try {
            test::drawWith(cpu, model, view, settings, frame.view());
            ADD_FAILURE() << "msaa " << bad << " was accepted";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("msaa " + std::to_string(bad) + " is not supported"), std::string::npos)
                << e.what();
        }
        Renderer renderer(RendererOptions{Backend::Cpu, {}, {}, 1, -1});
        renderer.setModel(model);
        EXPECT_THROW(renderer.render(view, settings, frame.view()), Error) << "msaa " << bad;
    }
}

ScreenVertex vertexAt(glm::vec2 p, float depth) {
    return ScreenVertex{{{snapToFixed(p.x), snapToFixed(p.y)}, depth}, {1.0f, glm::vec2(0.0f), glm::vec3(0.0f)}, p};
}

// Whether sample `sp` of pixel (x, y) lies inside a set-up triangle (the fill rule's bias
// included).
bool sampleInside(const ScreenTriangle& tri, int x, int y, const SamplePoint& sp) {
    const FixedPoint2 p{x * kSubpixelOne + sp.fx, y * kSubpixelOne + sp.fy};
    for (int i = 0; i < 3; ++i)
        if (edgeFunction(tri.v[(i + 1) % 3].p, tri.v[(i + 2) % 3].p, p) + tri.bias[i] <= 0) return false;
    return true;
}

// The plain definition: triangles drawn one by one, every sample of every pixel tested on its
// own (edgeFunction at the sample's fixed-point position, depth the pixel centre's plus the
// sample's step, sampleDepthStep), then each pixel's distinct winners shaded at its centre and
// the samples averaged. Every pixel of the frame is tested, not only those in a triangle's
// bounds, so the definition does not lean on set-up's bounds (grown by sampleReach).
void drawReference(const std::vector<ScreenTriangle>& tris, const std::vector<TriangleAttributes>& attributes,
                   const std::vector<ShadeMaterial>& materials, const RenderSettings& settings, int quadRowOffset,
                   test::Frame& out) {
    const int samples = settings.msaa;
    const std::size_t pixels = out.color.size();
    std::vector<float> depth(pixels * std::size_t(samples), 1.0f);
    std::vector<int> winner(pixels * std::size_t(samples), -1);
    for (std::size_t t = 0; t < tris.size(); ++t) {
        const ScreenTriangle& tri = tris[t];
        for (int y = 0; y < out.height; ++y)
            for (int x = 0; x < out.width; ++x)
                for (int s = 0; s < samples; ++s) {
                    const SamplePoint sp = samplePoint(samples, s);
                    if (!sampleInside(tri, x, y, sp)) continue;
                    const float z = interpolateDepth(tri, barycentrics(tri, x, y)) + sampleDepthStep(tri, sp);
                    const std::size_t at = (std::size_t(y) * std::size_t(out.width) + std::size_t(x)) * std::size_t(samples) + std::size_t(s);
                    if (!depthPasses(z, depth[at])) continue;
                    depth[at] = z;
                    winner[at] = int(t);
                }
    }
    const FramePlan plan = test::tilePlan(settings, glm::vec3(0.0f, 0.0f, 1.0f), quadRowOffset);
    for (int y = 0; y < out.height; ++y)
        for (int x = 0; x < out.width; ++x) {
            const std::size_t pixel = std::size_t(y) * std::size_t(out.width) + std::size_t(x);
            const std::size_t first = pixel * std::size_t(samples);
            const int qx = x & ~1, qy = ((y + quadRowOffset) & ~1) - quadRowOffset;
            const int k = (x - qx) + 2 * (y - qy);
            ColorSum sum;
            std::set<int> shaded;
            float nearest = 1.0f;
            for (int s = 0; s < samples; ++s) {
                nearest = std::min(nearest, depth[first + std::size_t(s)]);
                const int w = winner[first + std::size_t(s)];
                if (w < 0) {
                    sum.add(settings.clearColor, 1);
                    continue;
                }
                shaded.insert(w);
                sum.add(shadeQuadPixel({tris[std::size_t(w)], attributes[std::size_t(w)]},
                                       materials[std::size_t(w) % materials.size()], plan, qx, qy, k),
                        1);
            }
            out.color[pixel] = sum.resolve(samples);
            out.depth[pixel] = nearest;
        }
}

// A sample's depth (the centre's plus sampleDepthStep) is the set-up's depth plane at the
// sample, within the rounding bound cpu/visibility/block_depth_bounds.h derives and culls by,
// 2^-19 D (T + G + 1), on triangles from large to thin. At the centre the step is -0, so the
// one-sample depths are kept bit for bit, -0 included.
TEST(Multisample, SampleDepthIsThePlaneAtTheSample) {
    std::mt19937 rng(2311);
    std::uniform_real_distribution<float> at(0.0f, 60.0f), z(0.0f, 1.0f);
    double worst = 0.0; // the largest error as a fraction of its bound
    int tested = 0;
    while (tested < 3000) {
        const float scale = tested % 3 == 0 ? 1.5f : tested % 3 == 1 ? 8.0f : 40.0f;
        std::uniform_real_distribution<float> d(-scale, scale);
        const glm::vec2 c(at(rng), at(rng));
        ScreenVertex v[3];
        for (ScreenVertex& sv : v) sv = vertexAt(c + glm::vec2(d(rng), d(rng)), z(rng));
        ScreenTriangle tri{};
        if (setupTriangle(v[0], v[1], v[2], false, 64, 64, tri, true, sampleReach(8)) != SetupResult::Ok) continue;
        ++tested;
        EXPECT_TRUE(std::signbit(-0.0f + sampleDepthStep(tri, pixelCentreSample())));
        EXPECT_TRUE(std::signbit(-0.0f + sampleDepthStep(tri, samplePoint(1, 0))));
        const double x0 = tri.origin.x, y0 = tri.origin.y, d0 = tri.v[0].depth;
        const double e1 = double(tri.v[1].depth) - d0, e2 = double(tri.v[2].depth) - d0;
        const double D = std::max({std::abs(d0), std::abs(double(tri.v[1].depth)), std::abs(double(tri.v[2].depth))});
        const double G = std::abs(tri.db1.x) + std::abs(tri.db2.x) + std::abs(tri.db1.y) + std::abs(tri.db2.y);
        for (int y = tri.minY; y <= tri.maxY; ++y)
            for (int x = tri.minX; x <= tri.maxX; ++x) {
                const float centre = interpolateDepth(tri, barycentrics(tri, x, y));
                for (const int samples : kSampleCounts)
                    for (int s = 0; s < samples; ++s) {
                        const SamplePoint p = samplePoint(samples, s);
                        const double px = x + double(p.x) - x0, py = y + double(p.y) - y0;
                        const double exact =
                            d0 + (tri.db1.x * px + tri.db1.y * py) * e1 + (tri.db2.x * px + tri.db2.y * py) * e2;
                        const double T = (std::abs(tri.db1.x) + std::abs(tri.db2.x)) * std::abs(px) +
                                         (std::abs(tri.db1.y) + std::abs(tri.db2.y)) * std::abs(py);
                        const double bound = std::ldexp(D * (T + G + 1.0), -19);
                        const double error = std::abs(double(centre + sampleDepthStep(tri, p)) - exact);
                        worst = std::max(worst, error / bound);
                        ASSERT_LE(error, bound) << samples << " samples, sample " << s << ", pixel (" << x << ", " << y
                                                << ") of triangle " << tested << ": plane " << exact;
                    }
            }
    }
    std::printf("largest sample depth error: %.3g of its bound\n", worst);
}

// The CPU's raster stage (rasterizeVisibility per sample, resolveTileSamples) on one tile of
// random triangles, slivers to tile-sized, crossing each other in depth, equals the definition
// bit for bit at every sample count and both quad row pairings.
TEST(Multisample, CpuRasterStageEqualsThePerSampleDefinition) {
    std::mt19937 rng(17);
    const std::vector<ShadeMaterial> materials = {{glm::vec4(200, 40, 30, 255), TextureView{}},
                                                  {glm::vec4(20, 180, 60, 255), TextureView{}},
                                                  {glm::vec4(30, 60, 220, 255), TextureView{}},
                                                  {glm::vec4(250, 250, 250, 255), TextureView{}}};
    for (const int samples : kSampleCounts)
        for (const int height : {64, 63}) {
            const int width = 64, quadRowOffset = height & 1;
            RenderSettings settings;
            settings.msaa = samples;
            std::vector<ScreenTriangle> tris;
            std::vector<TriangleAttributes> attributes;
            while (tris.size() < 60) {
                const float scale = tris.size() % 3 == 0 ? 2.0f : tris.size() % 3 == 1 ? 12.0f : 70.0f;
                std::uniform_real_distribution<float> d(-scale, scale), at(0.0f, 64.0f), z(0.1f, 0.9f);
                const glm::vec2 c(at(rng), at(rng));
                // Every other triangle with corners on the 1/16-pixel grid the sample positions
                // lie on, so samples fall exactly on edges, where the fill rule decides.
                const bool onGrid = tris.size() % 2 == 1;
                ScreenVertex v[3];
                for (ScreenVertex& sv : v) {
                    const glm::vec2 p = c + glm::vec2(d(rng), d(rng));
                    sv = vertexAt(onGrid ? glm::round(p * 16.0f) / 16.0f : p, z(rng));
                }
                ScreenTriangle tri{};
                TriangleAttributes corners;
                if (setupTriangle(v[0], v[1], v[2], false, width, height, tri, true, sampleReach(samples), &corners) !=
                    SetupResult::Ok)
                    continue;
                tris.push_back(tri);
                attributes.push_back(corners);
            }
            test::Frame expected(width, height), actual(width, height, 0xDEADBEEFu, -7.0f);
            drawReference(tris, attributes, materials, settings, quadRowOffset, expected);

            const FrameView target = actual.view();
            const FramePlan plan = test::tilePlan(settings, glm::vec3(0.0f, 0.0f, 1.0f), quadRowOffset);
            const RasterContext ctx{plan, target};
            const std::size_t planes = std::size_t(samples) * kTileBufferElements;
            std::vector<std::uint32_t> ids(planes, 0u), color(planes, 0u), counts(kTileBufferElements);
            std::vector<float> depth(planes, 1.0f);
            const TileBuffers buffers{ids.data(), depth.data(), color.data(), 0, -quadRowOffset};
            const TileRect tile{0, 0, width - 1, height - 1};
            std::vector<TileTriangle> drawn;
            for (std::size_t t = 0; t < tris.size(); ++t)
                drawn.push_back({&tris[t], &attributes[t], &materials[t % materials.size()]});
            for (std::size_t t = 0; t < tris.size(); ++t)
                rasterizeVisibility(tris[t], std::uint32_t(t + 1), ctx, tile, buffers, samples);
            resolveTileSamples(drawn.data(), nullptr, ctx, tile, buffers, counts.data());

            std::size_t differ = 0, partial = 0;
            for (std::size_t i = 0; i < expected.color.size(); ++i) {
                differ += expected.color[i] != actual.color[i] ||
                          std::memcmp(&expected.depth[i], &actual.depth[i], sizeof(float)) != 0;
                partial += expected.color[i] != settings.clearColor;
            }
            EXPECT_EQ(differ, 0u) << samples << " samples, height " << height;
            EXPECT_GT(partial, 1000u);
            // The planes are left ready for the next tile.
            for (std::size_t i = 0; i < planes; ++i) {
                ASSERT_EQ(ids[i], 0u) << i;
                ASSERT_EQ(depth[i], 1.0f) << i;
            }
        }
}

bool inBounds(const ScreenTriangle& tri, int x, int y) {
    return x >= tri.minX && x <= tri.maxX && y >= tri.minY && y <= tri.maxY;
}

// Set-up's bounds hold every pixel with a covered sample, at every sample count. Each triangle
// has a corner within a few sub-pixels of an outermost sample, so its bounds end close to one,
// where bounds grown too little would first lose a pixel; the per-sample definition above
// rarely builds such a case. `tight` counts the covered pixels bounds grown 1/16 pixel less
// would lose, to show the cases reach the edge.
TEST(Multisample, SetupBoundsHoldEveryCoveredSample) {
    std::mt19937 rng(1719);
    constexpr int kSize = 12;
    std::uniform_int_distribution<int> pixel(4, 7), nudge(-3, 3), spread(-384, 384);
    for (const int samples : kSampleCounts) {
        // The samples at the reach (their pixel's outermost), which decide the bounds.
        std::vector<SamplePoint> outermost;
        for (int s = 0; s < samples; ++s) {
            const SamplePoint p = samplePoint(samples, s);
            const int dx = std::abs(p.fx - kSubpixelOne / 2), dy = std::abs(p.fy - kSubpixelOne / 2);
            if (std::max(dx, dy) == sampleReach(samples)) outermost.push_back(p);
        }
        std::uniform_int_distribution<std::size_t> pick(0, outermost.size() - 1);
        int tight = 0;
        for (int n = 0; n < 3000; ++n) {
            const SamplePoint near = outermost[pick(rng)];
            const FixedPoint2 corner{pixel(rng) * kSubpixelOne + near.fx + nudge(rng),
                                     pixel(rng) * kSubpixelOne + near.fy + nudge(rng)};
            ScreenVertex v[3];
            for (int k = 0; k < 3; ++k) {
                const FixedPoint2 p = k == 0 ? corner : FixedPoint2{corner.x + spread(rng), corner.y + spread(rng)};
                v[k] = vertexAt(glm::vec2(p.x, p.y) / float(kSubpixelOne), 0.5f);
            }
            ScreenTriangle tri{}, shrunk{};
            const SetupResult result = setupTriangle(v[0], v[1], v[2], false, kSize, kSize, tri, true, sampleReach(samples));
            if (result == SetupResult::Degenerate) continue;
            // A triangle refused as offscreen holds only its bounds; the test needs its corners.
            if (result == SetupResult::Offscreen)
                orientTriangle(v[0], v[1], v[2], edgeFunction(v[0].p, v[1].p, v[2].p), tri);
            setupTriangle(v[0], v[1], v[2], false, kSize, kSize, shrunk, true, sampleReach(samples) - kSubpixelOne / 16);
            for (int y = 0; y < kSize; ++y)
                for (int x = 0; x < kSize; ++x)
                    for (int s = 0; s < samples; ++s) {
                        if (!sampleInside(tri, x, y, samplePoint(samples, s))) continue;
                        ASSERT_TRUE(result == SetupResult::Ok && inBounds(tri, x, y))
                            << samples << " samples, triangle " << n << ": pixel (" << x << ", " << y << ") sample " << s
                            << " is covered but set-up gave " << int(result) << " and bounds (" << tri.minX << ", "
                            << tri.minY << ")-(" << tri.maxX << ", " << tri.maxY << ")";
                        tight += !inBounds(shrunk, x, y);
                        break;
                    }
        }
        EXPECT_GT(tight, 150) << samples << " samples";
    }
}

// One white triangle in front of a camera at the origin looking down +Z.
Model whiteTriangle() {
    Model model;
    for (const glm::vec3& p : {glm::vec3(-1.0f, -0.8f, 3.0f), glm::vec3(1.1f, -0.5f, 3.0f), glm::vec3(-0.2f, 1.0f, 3.0f)}) {
        model.mesh.px.push_back(p.x);
        model.mesh.py.push_back(p.y);
        model.mesh.pz.push_back(p.z);
        model.mesh.u.push_back(0.0f);
        model.mesh.v.push_back(0.0f);
    }
    model.mesh.indices = {0, 1, 2};
    model.materials.push_back(Material{"white", glm::vec3(1.0f), -1});
    model.mesh.ranges.push_back({0, 1, 0});
    generateNormals(model.mesh);
    computeBounds(model.mesh);
    return model;
}

const ViewParams kLookDownZ{glm::vec3(0.0f), glm::mat3(1.0f), 1.0f, 1.0f, 0.5f, 100.0f};

// Edges are smoothed: at 4 samples a pixel on a triangle's edge gets a colour between the
// triangle's and the background's; with 1 sample every pixel is one or the other.
TEST(Multisample, EdgesGetIntermediateColours) {
    const Model model = whiteTriangle();
    const ViewParams view = kLookDownZ;
    for (const int samples : {1, 4}) {
        RenderSettings settings = test::classicSettings(); // white stays 255
        settings.msaa = samples;
        settings.clearColor = 0xFF000000u;
        test::Frame frame(64, 64);
        test::drawWith(CpuRenderer(1), model, view, settings, frame.view());
        std::set<std::uint32_t> levels;
        for (const std::uint32_t c : frame.color) levels.insert(c & 0xFFu);
        if (samples == 1) EXPECT_EQ(levels, (std::set<std::uint32_t>{0u, 255u}));
        else EXPECT_EQ(levels, (std::set<std::uint32_t>{0u, 64u, 128u, 191u, 255u})); // 0..4 samples of 4
    }
}

// The process's peak resident set so far, in KiB (getrusage).
long peakResidentKiB() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

// The largest target at the most samples: the sample buffers are per tile, so the target stays
// one sample per pixel and 8 samples cost no more memory than 1. Where the machine cannot give
// the target's 2 GiB, the test says so and is skipped. The frame must draw (no error is
// acceptable) and raise the process's peak resident memory by less than 1 GiB: sample buffers
// over the whole frame would take 16 GiB.
TEST(Multisample, LargestTargetAtEightSamples) {
    constexpr int kSide = 16384;
    std::vector<std::uint32_t> color;
    std::vector<float> depth;
    try {
        color.resize(std::size_t(kSide) * kSide);
        depth.resize(std::size_t(kSide) * kSide);
    } catch (const std::bad_alloc&) {
        GTEST_SKIP() << "memory is short: a " << kSide << "x" << kSide << " target needs 2 GiB";
    }
    const Model model = whiteTriangle();
    Renderer renderer(RendererOptions{Backend::Cpu, {}, {}, 2, -1});
    renderer.setModel(model);
    RenderSettings settings;
    settings.msaa = 8;
    settings.clearColor = 0xFF000000u;
    settings.shading = ShadingModel::Classic; // white stays 255
    const long peakBefore = peakResidentKiB();
    renderer.render(kLookDownZ, settings, FrameView{color.data(), depth.data(), kSide, kSide});
    EXPECT_LT(peakResidentKiB() - peakBefore, 1024L * 1024L)
        << "the frame raised peak resident memory by " << (peakResidentKiB() - peakBefore) / 1024 << " MiB";
    const std::size_t centre = std::size_t(kSide / 2) * kSide + kSide / 2;
    EXPECT_EQ(color[centre], 0xFFFFFFFFu);
    EXPECT_LT(depth[centre], 1.0f);
    EXPECT_EQ(color[0], 0xFF000000u);
    EXPECT_EQ(depth[0], 1.0f);
    std::size_t partial = 0;
    for (std::size_t i = 0; i < color.size(); i += 7) partial += (color[i] & 0xFFu) != 0 && (color[i] & 0xFFu) != 255;
    EXPECT_GT(partial, 100u);
}

#if defined(FACET_HAVE_KERNELS_HOST)
// The kernels run on the CPU draw what the CPU renderer draws, bit for bit, at every sample count.
void expectKernelsEqualCpu(const Model& model, const ViewParams& view, const RenderSettings& settings, int width,
                           int height, const std::string& what) {
    CpuRenderer cpu(2);
    HostKernelRenderer kernels(2);
    test::Frame a(width, height, 0xDEADBEEFu, -7.0f), b(width, height, 0xDEADBEEFu, -7.0f);
    test::drawWith(cpu, model, view, settings, a.view());
    test::drawWith(kernels, model, view, settings, b.view());
    test::expectSameBytes(a, b, what);
}

TEST(Multisample, KernelsEqualTheCpuAtEverySampleCount) {
    const Model model = loadModel(test::sourceDir() / "assets/default_scene/scene.obj");
    struct Case {
        int width, height;
        TextureFilter filter;
        bool headlight, cull, low;
    };
    const Case cases[] = {{320, 180, TextureFilter::Trilinear, true, false, false},
                          {161, 121, TextureFilter::Bilinear, false, false, true},
                          {200, 150, TextureFilter::Nearest, true, true, true}};
    for (const int samples : kSampleCounts)
        for (const Case& c : cases) {
            const float aspect = float(c.width) / float(c.height);
            const Camera camera = test::sceneCamera(model.mesh, aspect, c.low);
            RenderSettings settings;
            settings.msaa = samples;
            settings.filter = c.filter;
            settings.headlight = c.headlight;
            settings.cull = c.cull ? CullMode::Back : CullMode::None;
            std::ostringstream name;
            name << samples << " samples, " << c.width << "x" << c.height << (c.low ? ", low view" : "");
            expectKernelsEqualCpu(model, camera.view(aspect), settings, c.width, c.height, name.str());
        }
}

TEST(Multisample, KernelsEqualTheCpuOnCorpusMeshes) {
    const std::filesystem::path dir = test::modelsDir();
    if (!std::filesystem::exists(dir)) FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_CORPUS", "no corpus at " << dir);
    const char* meshes[] = {"common-3d-test-models/stanford-bunny.obj", "tinyobjloader/cube-vertexcol.obj",
                            "obj2gltf/box-textured/box-textured.obj"};
    int drawn = 0;
    for (const char* m : meshes) {
        if (!std::filesystem::exists(dir / m)) continue;
        const Model model = loadModel(dir / m);
        const ViewParams view = Camera::framing(model.mesh, 4.0f / 3.0f).view(4.0f / 3.0f);
        for (const int samples : {4, 8}) {
            RenderSettings settings;
            settings.headlight = true;
            settings.msaa = samples;
            expectKernelsEqualCpu(model, view, settings, 160, 120, std::string(m) + ", " + std::to_string(samples) + " samples");
        }
        ++drawn;
    }
    if (drawn == 0) FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_CORPUS", "none of the meshes is in the corpus at " << dir);
}
#else
TEST(Multisample, KernelsNeedTheCudaToolkitHeaders) {
    FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_KERNELS", "the CUDA kernels cannot be built for the CPU here (no CCCL headers at configure time)");
}
#endif

} // namespace
} // namespace facet
