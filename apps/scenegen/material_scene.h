// facet-scenegen's second scene (--scene materials): one object for each thing the lit model
// draws, small enough to commit: a tiled floor with a bump map, a glossy sphere (Ks, Ns), a
// cut-out foliage card pair (map_Kd with alpha), a vertex-coloured block, an emissive lamp
// (Ke) and a transparent pane (d 0.35). Its MTL uses Kd 1 under map_Kd, as the spec means:
// map_Kd multiplies Kd.
#pragma once

#include "asset/image.h"
#include "core/error.h"
#include "geometry.h"
#include "textures.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace facet::scenegen {

// An object and the colour of its vertices (white for all but the painted block).
struct ColouredObject {
    Object object;
    std::vector<glm::vec3> colours; // one per position
};

inline ColouredObject quadObject(const char* name, glm::vec3 corner, glm::vec3 across, glm::vec3 up, glm::vec2 uvScale,
                                 int cells) {
    Object o{name, name, {}, {}, {}};
    addGrid(o, cells, cells, [&](float s, float t) {
        return SurfacePoint{corner + s * across + t * up, glm::vec2(s, t) * uvScale};
    });
    return {o, std::vector<glm::vec3>(o.positions.size(), glm::vec3(1.0f))};
}

inline std::vector<ColouredObject> materialSceneObjects() {
    std::vector<ColouredObject> scene;
    // Floor: 8 x 8 units, the texture repeated twice, front facing up.
    scene.push_back(quadObject("floor", {-4.0f, 0.0f, 4.0f}, {8.0f, 0.0f, 0.0f}, {0.0f, 0.0f, -8.0f}, {2.0f, 2.0f}, 16));

    Object ball{"glossy", "glossy", {}, {}, {}};
    addLathe(ball, sphereProfile(), 48, 24);
    for (glm::vec3& p : ball.positions) p = p * 0.9f + glm::vec3(-1.8f, 0.9f, 0.0f);
    scene.push_back({ball, std::vector<glm::vec3>(ball.positions.size(), glm::vec3(1.0f))});

    // Foliage: two crossed cards, the leaves cut out of them by the texture's alpha.
    scene.push_back(quadObject("leaves", {1.0f, 0.0f, -0.2f}, {2.0f, 0.0f, 0.0f}, {0.0f, 2.0f, 0.0f}, {1.0f, 1.0f}, 1));
    scene.push_back(quadObject("leaves", {2.0f, 0.0f, 0.8f}, {0.0f, 0.0f, -2.0f}, {0.0f, 2.0f, 0.0f}, {1.0f, 1.0f}, 1));
    scene.back().object.name = "leaves_crossed";

    // A block painted by its vertex colours: each corner's colour from its position.
    ColouredObject block{Object{"painted", "painted", {}, {}, {}}, {}};
    addDeformedCube(block.object, {2, 2, 2}, {1.0f, 1.0f, 1.0f},
                    [](glm::vec3 p) { return p * glm::vec3(0.6f, 0.6f, 0.6f) + glm::vec3(0.2f, 0.6f, -2.4f); });
    for (const glm::vec3& p : block.object.positions)
        block.colours.push_back(glm::clamp((p - glm::vec3(-0.4f, 0.0f, -3.0f)) / 1.2f, 0.0f, 1.0f));
    scene.push_back(block);

    Object lamp{"lamp", "lamp", {}, {}, {}};
    addDeformedCube(lamp, {1, 1, 1}, {1.0f, 1.0f, 1.0f},
                    [](glm::vec3 p) { return p * 0.25f + glm::vec3(-0.3f, 0.25f, 1.4f); });
    scene.push_back({lamp, std::vector<glm::vec3>(lamp.positions.size(), glm::vec3(1.0f))});

    // A pane of tinted glass in front, drawn last (blending is in draw order).
    scene.push_back(quadObject("glass", {-1.2f, 0.0f, 2.2f}, {2.4f, 0.0f, 0.4f}, {0.0f, 1.6f, 0.0f}, {1.0f, 1.0f}, 1));
    return scene;
}

// Tiles of 4 x 4 with mortar joints; the height map is the same pattern, joints low and the
// tiles' faces slightly uneven (a noise over them), so the whole floor shows its bump map.
inline float floorJoint(float u, float v) {
    const float fu = u * 4.0f - std::floor(u * 4.0f), fv = v * 4.0f - std::floor(v * 4.0f);
    const float d = std::min(std::min(fu, 1.0f - fu), std::min(fv, 1.0f - fv));
    return glm::smoothstep(0.02f, 0.08f, d); // 0 in the joint, 1 on the tile
}

inline Image floorTexture() {
    return paint(128, 128, [](float u, float v) {
        const bool dark = (int(u * 4.0f) + int(v * 4.0f)) % 2 == 1;
        const glm::vec3 tile = dark ? rgb(92, 104, 120) : rgb(214, 200, 170);
        return glm::mix(rgb(70, 66, 60), tile * (0.9f + 0.2f * tilingNoise({u, v}, 8, 3, 301)), floorJoint(u, v));
    });
}

inline Image floorHeight() {
    return paint(128, 128, [](float u, float v) {
        return glm::vec3(0.2f + 0.8f * floorJoint(u, v) * (0.75f + 0.25f * tilingNoise({u, v}, 8, 3, 303)));
    });
}

// Leaves as ellipses along a stem, opaque inside them and clear outside.
inline Image leavesTexture() {
    Image image = paint(128, 128, [](float u, float v) {
        return glm::mix(rgb(40, 90, 30), rgb(110, 170, 60), tilingNoise({u, v}, 4, 2, 302));
    });
    for (std::uint32_t y = 0; y < image.height; ++y)
        for (std::uint32_t x = 0; x < image.width; ++x) {
            const float u = (float(x) + 0.5f) / 128.0f, v = 1.0f - (float(y) + 0.5f) / 128.0f;
            bool inside = std::abs(u - 0.5f) < 0.02f && v < 0.9f; // the stem
            for (int k = 0; k < 4; ++k) {
                const float cy = 0.2f + 0.2f * float(k), side = k % 2 == 0 ? -1.0f : 1.0f;
                const glm::vec2 d = (glm::vec2(u, v) - glm::vec2(0.5f + side * 0.17f, cy)) / glm::vec2(0.17f, 0.08f);
                inside = inside || glm::dot(d, d) < 1.0f;
            }
            if (!inside) image.pixels[std::size_t(y) * image.width + x] &= 0x00FFFFFFu;
        }
    return image;
}

inline constexpr const char* kMaterialSceneMtl = R"(# facet material scene, written by facet-scenegen --scene materials.

newmtl floor
Kd 1 1 1
Ks 0.25 0.25 0.25
Ns 60
illum 2
map_Kd floor.png
map_Bump -bm 2 floor_height.png

newmtl glossy
Kd 0.7 0.08 0.05
Ks 0.9 0.9 0.9
Ns 200
illum 2

newmtl leaves
Kd 1 1 1
illum 1
map_Kd leaves.png

newmtl painted
Kd 1 1 1
Ks 0.3 0.3 0.3
Ns 30
illum 2

newmtl lamp
Kd 0.1 0.1 0.1
Ke 1 0.8 0.3
illum 1

newmtl glass
Kd 0.6 0.8 0.9
Ks 1 1 1
Ns 300
d 0.35
illum 2
)";

// Writes scene.obj (positions, vertex colours, uvs), scene.mtl and the textures into `dir`;
// returns the files written.
inline std::vector<std::filesystem::path> writeMaterialScene(const std::filesystem::path& dir,
                                                             void (*number)(std::string&, float, int)) {
    std::string obj = "# facet material scene, written by facet-scenegen --scene materials.\nmtllib scene.mtl\n";
    std::size_t first = 1;
    for (const ColouredObject& c : materialSceneObjects()) {
        const Object& o = c.object;
        obj += "o " + o.name + "\nusemtl " + o.material + "\n";
        for (std::size_t k = 0; k < o.positions.size(); ++k) {
            obj += "v";
            for (float x : {o.positions[k].x, o.positions[k].y, o.positions[k].z}) {
                obj += ' ';
                number(obj, x, 4);
            }
            for (float x : {c.colours[k].r, c.colours[k].g, c.colours[k].b}) {
                obj += ' ';
                number(obj, x, 3);
            }
            obj += "\n";
        }
        appendUvsAndFaces(obj, o, first, number);
        first += o.positions.size();
    }
    std::vector<std::filesystem::path> files;
    const auto text = [&](const char* name, const std::string& content) {
        std::ofstream file(dir / name, std::ios::binary);
        file << content;
        if (!file) throw Error((dir / name).string() + ": cannot write");
        files.push_back(dir / name);
    };
    text("scene.obj", obj);
    text("scene.mtl", kMaterialSceneMtl);
    const std::pair<const char*, Image> images[] = {
        {"floor.png", floorTexture()}, {"floor_height.png", floorHeight()}, {"leaves.png", leavesTexture()}};
    for (const auto& [name, image] : images) {
        writePng(dir / name, image);
        files.push_back(dir / name);
    }
    return files;
}

} // namespace facet::scenegen
