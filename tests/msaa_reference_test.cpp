// Multisampling at every sample count against a reference written here from the rules alone, for
// the counts llvmpipe cannot check (it offers 4 samples only; tests/gl_multisample_test.cpp):
// the standard sample positions (Direct3D 10.1 / Vulkan, as Mesa applies them in OpenGL's
// window coordinates), vertices snapped to 1/256 pixel, a sample covered when it lies strictly
// inside the triangle, the nearest triangle per sample by 1/z, and a box resolve rounded to
// nearest. No facet code is shared beyond the model and the view: the projection is redone in
// double, rows counted from the bottom as OpenGL counts them.
//
// The scene is red and green flat triangles on black, so a pixel's red and green say how many of
// its samples each colour won. A sample exactly on an edge (where only a fill rule decides) or
// where two triangles' depths nearly meet is left undecided: its pixel is not compared, and such
// pixels must stay rare. Every other pixel must equal the reference exactly.
#include "draw_with.h"
#include "core/mesh.h"
#include "core/transform.h"
#include "cpu/cpu_renderer.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <random>
#include <utility>
#include <vector>

namespace facet {
namespace {

constexpr int kWidth = 320, kHeight = 240;

// The standard positions in 1/16 pixel from the pixel's lower-left corner, y up. Their order
// does not matter here: a box resolve only counts.
std::vector<std::pair<int, int>> standardPositions(int samples) {
    switch (samples) {
    case 1: return {{8, 8}};
    case 2: return {{12, 12}, {4, 4}};
    case 4: return {{6, 2}, {14, 6}, {2, 10}, {10, 14}};
    case 8: return {{9, 5}, {7, 11}, {13, 9}, {5, 3}, {3, 13}, {1, 7}, {11, 15}, {15, 1}};
    default: return {};
    }
}

// 300 flat triangles, slivers to large, at depths 2 to 6 in front of a camera at the origin
// looking down +z; the first half red, the second green; many overlap.
Model redAndGreenTriangles() {
    Model model;
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> centre(-0.9f, 0.9f), depth(2.0f, 6.0f);
    constexpr int kTriangles = 300;
    for (int t = 0; t < kTriangles; ++t) {
        const float size = t % 3 == 0 ? 0.01f : t % 3 == 1 ? 0.08f : 0.4f;
        std::uniform_real_distribution<float> d(-size, size);
        const float cx = centre(rng), cy = centre(rng);
        for (int k = 0; k < 3; ++k) {
            const float z = depth(rng); // each corner its own depth: triangles cross each other
            const float x = (cx + d(rng)) * z, y = (cy + d(rng)) * z;
            test::appendCorner(model.mesh, {x, y, z});
        }
    }
    model.materials.push_back(Material{"red", glm::vec3(1.0f, 0.0f, 0.0f), -1});
    model.materials.push_back(Material{"green", glm::vec3(0.0f, 1.0f, 0.0f), -1});
    model.mesh.ranges.push_back({0, kTriangles / 2, 0});
    model.mesh.ranges.push_back({kTriangles / 2, kTriangles / 2, 1});
    generateNormals(model.mesh);
    computeBounds(model.mesh);
    return model;
}

ViewParams straightView() {
    return ViewParams{glm::vec3(0.0f), glm::mat3(1.0f), 1.0f, float(kWidth) / float(kHeight), 0.5f, 100.0f};
}

// What one sample sees: the nearest triangle's colour (0 none, 1 red, 2 green) and its 1/z.
struct SampleHit {
    int colour = 0;
    double inverseZ = 0.0, slack = 0.0; // slack: how far rounding may move inverseZ
    bool undecided = false;
};

// Every sample of every pixel, drawn straight from the rules. Index: (row from the bottom *
// width + column) * samples + sample.
std::vector<SampleHit> referenceSamples(const Model& model, const ViewParams& view, int samples) {
    const std::vector<std::pair<int, int>> positions = standardPositions(samples);
    std::vector<SampleHit> hits(std::size_t(kWidth) * kHeight * std::size_t(samples));
    const Mesh& mesh = model.mesh;
    for (const MaterialRange& range : mesh.ranges)
        for (std::uint32_t t = range.firstTriangle; t < range.firstTriangle + range.triangleCount; ++t) {
            std::int64_t x[3], y[3];
            double inverseZ[3];
            bool nearHalfStep[3]; // float's rounding could snap this corner one step away
            for (int k = 0; k < 3; ++k) {
                const std::uint32_t v = mesh.indices[3 * t + std::uint32_t(k)];
                const double z = mesh.pz[v];
                const double ndcX = double(view.focus) / double(view.aspect) * mesh.px[v] / z;
                const double ndcY = double(view.focus) * mesh.py[v] / z;
                // Window coordinates (y up), snapped to 1/256 pixel.
                const double sx = (ndcX + 1.0) * 0.5 * kWidth * 256.0, sy = (ndcY + 1.0) * 0.5 * kHeight * 256.0;
                x[k] = std::llround(sx);
                y[k] = std::llround(sy);
                const auto nearHalf = [](double c) { return std::abs(c - std::floor(c) - 0.5) < 0.01; };
                nearHalfStep[k] = nearHalf(sx) || nearHalf(sy);
                inverseZ[k] = 1.0 / z;
            }
            const std::int64_t area = (x[1] - x[0]) * (y[2] - y[0]) - (y[1] - y[0]) * (x[2] - x[0]);
            if (area == 0) continue;
            const auto [minX, maxX] = std::minmax({x[0], x[1], x[2]});
            const auto [minY, maxY] = std::minmax({y[0], y[1], y[2]});
            // Rounding: facet projects in float, so a corner near a half step may snap one step
            // away from this one (its edges then move by up to a step), and it interpolates depth
            // from the unsnapped corners (at most half a step from the snapped ones). A sample on
            // an edge, or within a step of one that may move, or whose 1/z lies within a step's
            // change (each triangle's, summed) of another triangle's, is left undecided. An edge
            // value is its distance from the edge times the edge's length.
            std::int64_t edgeSlack[3];
            double gradient = 0.0; // |d(1/z)/dx| + |d(1/z)/dy| per step
            for (int k = 0; k < 3; ++k) {
                const int a = (k + 1) % 3, b = (k + 2) % 3;
                const double dx = double(x[b] - x[a]), dy = double(y[b] - y[a]);
                edgeSlack[k] = nearHalfStep[a] || nearHalfStep[b] ? std::int64_t(std::sqrt(dx * dx + dy * dy)) + 1 : 0;
            }
            {
                double gx = 0.0, gy = 0.0;
                for (int k = 0; k < 3; ++k) {
                    const int a = (k + 1) % 3, b = (k + 2) % 3;
                    gx += -double(y[b] - y[a]) * inverseZ[k];
                    gy += double(x[b] - x[a]) * inverseZ[k];
                }
                gradient = (std::abs(gx) + std::abs(gy)) / std::abs(double(area));
            }
            const double slack = gradient;
            const int i0 = std::max(0, int(minX / 256) - 1), i1 = std::min(kWidth - 1, int(maxX / 256) + 1);
            const int j0 = std::max(0, int(minY / 256) - 1), j1 = std::min(kHeight - 1, int(maxY / 256) + 1);
            for (int j = j0; j <= j1; ++j)
                for (int i = i0; i <= i1; ++i)
                    for (int s = 0; s < samples; ++s) {
                        const std::int64_t px = std::int64_t(i) * 256 + positions[std::size_t(s)].first * 16;
                        const std::int64_t py = std::int64_t(j) * 256 + positions[std::size_t(s)].second * 16;
                        std::int64_t e[3];
                        for (int k = 0; k < 3; ++k) {
                            const int a = (k + 1) % 3, b = (k + 2) % 3; // the edge facing corner k
                            e[k] = (x[b] - x[a]) * (py - y[a]) - (y[b] - y[a]) * (px - x[a]);
                            if (area < 0) e[k] = -e[k];
                        }
                        SampleHit& hit = hits[(std::size_t(j) * kWidth + std::size_t(i)) * std::size_t(samples) + std::size_t(s)];
                        bool outside = false, nearAnEdge = false;
                        for (int k = 0; k < 3; ++k) {
                            outside = outside || e[k] < -edgeSlack[k];
                            nearAnEdge = nearAnEdge || std::abs(e[k]) <= edgeSlack[k];
                        }
                        if (outside) continue;
                        if (nearAnEdge) { // on an edge (the fill rule's call) or within rounding of one
                            hit.undecided = true;
                            continue;
                        }
                        const double total = double(e[0]) + double(e[1]) + double(e[2]);
                        const double w = (double(e[0]) * inverseZ[0] + double(e[1]) * inverseZ[1] + double(e[2]) * inverseZ[2]) / total;
                        if (hit.colour != 0 && std::abs(w - hit.inverseZ) < slack + hit.slack) hit.undecided = true;
                        if (hit.colour == 0 || w > hit.inverseZ) hit = {range.material == 0 ? 1 : 2, w, slack, hit.undecided};
                    }
        }
    return hits;
}

TEST(MultisampleReference, EveryDecidedPixelEqualsTheRulesAtEverySampleCount) {
    const Model model = redAndGreenTriangles();
    const ViewParams view = straightView();
    for (const int samples : {1, 2, 4, 8}) {
        const std::vector<SampleHit> hits = referenceSamples(model, view, samples);
        RenderSettings settings = test::classicSettings(); // flat: a material's colour exactly
        settings.msaa = samples;
        settings.clearColor = 0xFF000000u;
        test::Frame frame(kWidth, kHeight);
        test::drawWith(CpuRenderer(2), model, view, settings, frame.view());

        std::size_t undecided = 0, partial = 0, differ = 0, compared = 0;
        for (int j = 0; j < kHeight; ++j)
            for (int i = 0; i < kWidth; ++i) {
                int red = 0, green = 0;
                bool decided = true;
                for (int s = 0; s < samples; ++s) {
                    const SampleHit& hit = hits[(std::size_t(j) * kWidth + std::size_t(i)) * std::size_t(samples) + std::size_t(s)];
                    red += hit.colour == 1;
                    green += hit.colour == 2;
                    decided = decided && !hit.undecided;
                }
                if (!decided) {
                    ++undecided;
                    continue;
                }
                ++compared;
                partial += (red > 0 && red < samples) || (green > 0 && green < samples);
                // The box resolve: each channel's mean over the samples, halves rounded up.
                const auto mean = [samples](int count) { return std::uint32_t((255 * count + samples / 2) / samples); };
                const std::uint32_t expected = mean(red) | mean(green) << 8 | 0xFF000000u;
                const std::uint32_t drawn = frame.color[std::size_t(kHeight - 1 - j) * kWidth + std::size_t(i)];
                if (drawn != expected && ++differ <= 5)
                    ADD_FAILURE() << samples << " samples, pixel (" << i << ", " << j << " from the bottom): drawn "
                                  << std::hex << drawn << ", the rules give " << expected << std::dec << " (" << red
                                  << " red and " << green << " green samples)";
            }
        std::cout << "[ msaa ref ] " << samples << " samples: " << compared << " pixels compared (" << partial
                  << " partly covered), " << undecided << " undecided, " << differ << " differ\n";
        EXPECT_EQ(differ, 0u) << samples << " samples";
        // Measured: 24, 57, 75 and 166 of 76,800 pixels undecided at 1, 2, 4 and 8 samples.
        EXPECT_LE(undecided, compared / 200) << samples << " samples: too many pixels left undecided";
        if (samples > 1) {
            EXPECT_GT(partial, 1000u) << samples << " samples: too few partly covered pixels to tell";
        }
    }
}

} // namespace
} // namespace facet
