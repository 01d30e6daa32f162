// Procedural textures for facet-scenegen: a small value noise of our own and one painter per
// material. The patterns are smooth or flat-coloured on purpose: PNG compresses those well, and
// the scene has to stay small enough to commit.
#pragma once

#include "asset/image.h"
#include "core/hd.h"

#include <cmath>
#include <cstdint>

namespace facet::scenegen {

// A well-mixed 32-bit hash of a lattice point: a multiply-rotate chain over the coordinates,
// then a final avalanche so neighbouring points get unrelated bits.
inline std::uint32_t hashLattice(glm::ivec3 p, std::uint32_t seed) {
    std::uint32_t h = seed * 0x9e3779b9u + 0x7f4a7c15u;
    for (int k = 0; k < 3; ++k) {
        h ^= static_cast<std::uint32_t>(p[k]) * 0xcc9e2d51u;
        h = ((h << 15) | (h >> 17)) * 0x1b873593u;
    }
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    return h ^ (h >> 16);
}

// A hash as a number in [0, 1).
inline float hashUnit(glm::ivec3 p, std::uint32_t seed) { return float(hashLattice(p, seed) >> 8) / 16777216.0f; }

// Value noise in [0, 1]: random values on the integer lattice blended with a quintic fade, so
// the result is smooth (no creases a texture would show). A positive period component makes it
// repeat along that axis, which tiling textures need.
inline float valueNoise(glm::vec3 p, std::uint32_t seed, glm::ivec3 period = glm::ivec3(0)) {
    const glm::vec3 cell = glm::floor(p);
    const glm::vec3 f = p - cell;
    const glm::vec3 w = f * f * f * (f * (f * 6.0f - 15.0f) + 10.0f);
    const glm::ivec3 origin(cell);
    const auto corner = [&](int dx, int dy, int dz) {
        glm::ivec3 q = origin + glm::ivec3(dx, dy, dz);
        for (int k = 0; k < 3; ++k)
            if (period[k] > 0) q[k] = ((q[k] % period[k]) + period[k]) % period[k];
        return hashUnit(q, seed);
    };
    const auto lerpX = [&](int dy, int dz) { return glm::mix(corner(0, dy, dz), corner(1, dy, dz), w.x); };
    const float y0 = glm::mix(lerpX(0, 0), lerpX(1, 0), w.y);
    const float y1 = glm::mix(lerpX(0, 1), lerpX(1, 1), w.y);
    return glm::mix(y0, y1, w.z);
}

// Octaves of value noise, each at twice the frequency and half the weight of the last, scaled
// back to [0, 1]. The period doubles with the frequency, so a tiling sum still tiles.
inline float fractalNoise(glm::vec3 p, int octaves, std::uint32_t seed, glm::ivec3 period = glm::ivec3(0)) {
    float sum = 0.0f, weight = 1.0f, total = 0.0f;
    for (int k = 0; k < octaves; ++k) {
        sum += weight * valueNoise(p, seed + std::uint32_t(k), period);
        total += weight;
        weight *= 0.5f;
        p *= 2.0f;
        period *= 2;
    }
    return sum / total;
}

// Noise over a texture's [0, 1)^2 that wraps at its edges, with `cells` lattice cells across.
inline float tilingNoise(glm::vec2 uv, int cells, int octaves, std::uint32_t seed) {
    return fractalNoise(glm::vec3(uv * float(cells), 0.0f), octaves, seed, glm::ivec3(cells, cells, 0));
}

inline glm::vec3 rgb(int r, int g, int b) { return glm::vec3(float(r), float(g), float(b)) / 255.0f; }

// 1 inside [edge0, edge1] of a band, 0 outside, with soft edges `soft` wide, for crisp-but-not-
// aliased stripes.
inline float band(float x, float edge0, float edge1, float soft) {
    return glm::smoothstep(edge0 - soft, edge0, x) * (1.0f - glm::smoothstep(edge1, edge1 + soft, x));
}

// Paints a width x height image from colour(u, v) at texel centres. v = 0 is the bottom row, as
// texture coordinates count it, while the image is stored top row first.
template <class Paint>
Image paint(std::uint32_t width, std::uint32_t height, const Paint& colour) {
    Image image{width, height, std::vector<std::uint32_t>(std::size_t(width) * height)};
    for (std::uint32_t y = 0; y < height; ++y) {
        const float v = 1.0f - (float(y) + 0.5f) / float(height);
        for (std::uint32_t x = 0; x < width; ++x) {
            const float u = (float(x) + 0.5f) / float(width);
            const glm::vec3 c = glm::clamp(colour(u, v), 0.0f, 1.0f) * 255.0f + 0.5f;
            image.pixels[std::size_t(y) * width + x] = std::uint32_t(c.r) | std::uint32_t(c.g) << 8 |
                                                       std::uint32_t(c.b) << 16 | 0xff000000u;
        }
    }
    return image;
}

// Square stone tiles in a checker of sandstone and slate, four by four, with mortar joints and
// darkened bevels; each tile gets its own shade so the repetition is less obvious.
inline Image stoneTiles() {
    return paint(512, 512, [](float u, float v) {
        const glm::vec2 g = glm::vec2(u, v) * 4.0f;
        const glm::ivec2 tile(glm::floor(g));
        const glm::vec2 f = g - glm::floor(g);
        const float edge = std::min(std::min(f.x, 1.0f - f.x), std::min(f.y, 1.0f - f.y));
        const bool slate = ((tile.x + tile.y) & 1) != 0;
        const float shade = 0.88f + 0.22f * hashUnit({tile.x, tile.y, 0}, 11);
        const float grain = 0.9f + 0.2f * tilingNoise({u, v}, 8, 2, 12);
        const glm::vec3 stone = (slate ? rgb(92, 98, 110) : rgb(206, 188, 152)) * shade * grain;
        const float bevel = glm::mix(0.72f, 1.0f, glm::smoothstep(0.03f, 0.09f, edge));
        const glm::vec3 mortar = rgb(120, 114, 104) * (0.9f + 0.2f * grain);
        return glm::mix(mortar, stone * bevel, glm::smoothstep(0.02f, 0.03f, edge));
    });
}

// Banded marble for the torus knot: alternating crimson and ivory bands (u runs along the knot,
// so the bands ring the tube and show its twist), veined, with a gold line where bands meet.
inline Image bandedMarble() {
    return paint(256, 256, [](float u, float v) {
        const float n = tilingNoise({u, v}, 4, 4, 21);
        const float vein = std::abs(std::sin(2.0f * kPi * (3.0f * u + v) + 7.0f * n));
        const float veinMask = 1.0f - glm::smoothstep(0.0f, 0.14f, vein);
        const bool crimson = u < 0.5f;
        const glm::vec3 stone = crimson ? glm::mix(rgb(128, 22, 30), rgb(224, 160, 150), veinMask)
                                        : glm::mix(rgb(236, 228, 210), rgb(112, 116, 128), veinMask);
        const float seam = std::min(std::abs(u - 0.5f), std::min(u, 1.0f - u));
        return glm::mix(rgb(214, 170, 70), stone * (0.92f + 0.12f * n), glm::smoothstep(0.008f, 0.014f, seam));
    });
}

// An equirectangular planet: u is longitude, v latitude. Noise is taken on the sphere itself,
// so the map has no seam and no pinching at the poles.
inline Image planet() {
    return paint(512, 256, [](float u, float v) {
        const float lon = 2.0f * kPi * u, lat = kPi * (v - 0.5f);
        const glm::vec3 d(std::cos(lat) * std::cos(lon), std::sin(lat), -std::cos(lat) * std::sin(lon));
        const float height = fractalNoise(d * 1.6f + 4.0f, 4, 31);
        const float sea = 0.5f;
        glm::vec3 c;
        if (height < sea) {
            c = glm::mix(rgb(14, 34, 92), rgb(40, 120, 170), glm::smoothstep(sea - 0.16f, sea, height));
        } else {
            const float h = (height - sea) / (1.0f - sea);
            const float dry = fractalNoise(d * 3.0f, 2, 32);
            const glm::vec3 low = glm::mix(rgb(58, 128, 58), rgb(196, 170, 104), glm::smoothstep(0.4f, 0.7f, dry));
            c = glm::mix(low, rgb(120, 96, 74), glm::smoothstep(0.12f, 0.3f, h));
            c = glm::mix(c, rgb(236, 236, 240), glm::smoothstep(0.34f, 0.42f, h));
            c = glm::mix(rgb(226, 214, 160), c, glm::smoothstep(0.0f, 0.02f, h)); // beaches
        }
        const float ice = std::abs(d.y) + 0.08f * (fractalNoise(d * 5.0f, 2, 33) - 0.5f);
        return glm::mix(c, rgb(240, 244, 250), glm::smoothstep(0.9f, 0.92f, ice));
    });
}

// Bricks in running bond, eight courses of four, in varied reds with pale mortar.
inline Image bricks() {
    return paint(256, 256, [](float u, float v) {
        const float course = v * 8.0f;
        const int row = int(std::floor(course));
        const float along = u * 4.0f + ((row & 1) != 0 ? 0.5f : 0.0f);
        const int col = int(std::floor(along)) & 3;
        const float fx = along - std::floor(along), fy = course - float(row);
        const float edge = std::min(std::min(fx, 1.0f - fx) * 0.5f, std::min(fy, 1.0f - fy));
        const float shade = hashUnit({col, row, 0}, 41);
        const glm::vec3 brick = glm::mix(rgb(150, 58, 38), rgb(190, 96, 60), shade) *
                                (0.88f + 0.24f * tilingNoise({u, v}, 16, 2, 42));
        return glm::mix(rgb(200, 192, 176), brick, glm::smoothstep(0.05f, 0.08f, edge));
    });
}

// Cobalt and cream glaze for the vase: u runs around it, v up it. A wavy cream line sits
// between two cream bands, with a gradient in the blue so the body reads as round.
inline Image vaseGlaze() {
    return paint(256, 256, [](float u, float v) {
        glm::vec3 c = glm::mix(rgb(16, 40, 110), rgb(40, 90, 170), v);
        const float soft = 0.006f;
        const float cream = std::max(band(v, 0.26f, 0.29f, soft), band(v, 0.58f, 0.61f, soft));
        const float wave = 0.435f + 0.06f * std::sin(2.0f * kPi * 4.0f * u);
        const float waveLine = band(v, wave - 0.012f, wave + 0.012f, soft);
        const float rim = band(v, 0.9f, 1.0f, soft);
        c = glm::mix(c, rgb(238, 226, 196), std::max(std::max(cream, waveLine), rim));
        return c;
    });
}

// Weathered rock: grey-brown strata bent by noise, lighter on the upper faces of each layer.
inline Image rock() {
    return paint(256, 256, [](float u, float v) {
        const float n = tilingNoise({u, v}, 4, 3, 51);
        const float strata = 0.5f + 0.5f * std::sin(2.0f * kPi * (6.0f * v + 1.5f * n));
        const glm::vec3 base = glm::mix(rgb(96, 88, 80), rgb(168, 160, 146), strata);
        const float lichen = glm::smoothstep(0.6f, 0.68f, tilingNoise({u, v}, 8, 2, 52));
        return glm::mix(base, rgb(150, 156, 90), 0.7f * lichen) * (0.85f + 0.3f * n);
    });
}

// Jade and ivory checks with gold borders: on a twisted column the grid makes the twist plain.
inline Image jadeChecks() {
    return paint(256, 256, [](float u, float v) {
        const glm::vec2 g = glm::vec2(u, v) * 4.0f;
        const glm::vec2 f = g - glm::floor(g);
        const bool jade = ((int(g.x) + int(g.y)) & 1) != 0;
        const float edge = std::min(std::min(f.x, 1.0f - f.x), std::min(f.y, 1.0f - f.y));
        const glm::vec3 check = jade ? rgb(38, 112, 92) : rgb(232, 224, 200);
        return glm::mix(rgb(200, 160, 60), check, glm::smoothstep(0.03f, 0.05f, edge));
    });
}

// Planks of wood: grain running along u, growth rings bent by noise, a darker board edge.
inline Image wood() {
    return paint(256, 256, [](float u, float v) {
        const float n = tilingNoise({u, v}, 4, 2, 61);
        const float rings = 0.5f + 0.5f * std::sin(2.0f * kPi * (10.0f * v + 2.5f * n));
        const glm::vec3 c = glm::mix(rgb(120, 76, 40), rgb(186, 134, 82), rings);
        const float board = std::min(v, 1.0f - v);
        return c * glm::mix(0.7f, 1.0f, glm::smoothstep(0.0f, 0.06f, board));
    });
}

} // namespace facet::scenegen
