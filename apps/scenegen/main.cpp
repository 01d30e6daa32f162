// facet-scenegen: writes the default scene (OBJ + MTL + PNG textures) procedurally, from fixed
// seeds, so every run writes the same bytes. --triangles raises the tessellation of the same
// scene for benchmarks.
#include "app_info.h"
#include "cli.h"

#include "asset/image.h"
#include "core/error.h"
#include "scenegen/geometry.h"
#include "scenegen/material_scene.h"
#include "scenegen/textures.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

namespace {

using namespace facet::scenegen;
namespace fs = std::filesystem;

constexpr const char* kUsage = R"(usage: facet-scenegen [--triangles N] [--scene NAME] [--out DIR]

Writes facet's default scene, procedurally and the same bytes every run: a tiled plaza with a
marble torus knot on a pedestal, a planet, a brick ball, a glazed vase, a twisted column, a
rock and a plank leaning on it. DIR receives scene.obj, scene.mtl and the PNG textures.

  --triangles N   about how many triangles to write, from 10000 to 20000000 (default 85000:
                  the committed scene); larger values tessellate the same scene more finely
  --scene NAME    default (the scene above) or materials: the lit model's test scene (a glossy
                  sphere, a bump-mapped floor, cut-out foliage, a vertex-coloured block, an
                  emissive lamp and a transparent pane)
  --out DIR       where to write (default: default_scene, or material_scene, in facet's data
                  folder, the one the apps read: in a build tree, the checkout's assets/);
                  created if missing
  -h, --help      this text
  --version       print facet's version
)";

constexpr long kDefaultTriangles = 85000;
constexpr long kMinTriangles = 10000, kMaxTriangles = 20000000;

struct Options {
    long triangles = kDefaultTriangles;
    fs::path out; // the data folder's default_scene when not given
    bool help = false;
    bool version = false;
    bool materials = false; // --scene materials
};

Options parseArguments(int argc, char** argv) {
    using namespace facet::cli;
    Options o;
    Arguments args(argc, argv);
    for (std::string arg; args.next(arg);) {
        if (arg == "-h" || arg == "--help") {
            o.help = true;
        } else if (arg == "--version") {
            o.version = true;
        } else if (arg == "--triangles") {
            o.triangles = parseInteger(arg, args.value(), kMinTriangles, kMaxTriangles);
        } else if (arg == "--out") {
            o.out = args.value();
            if (o.out.empty()) throw UsageError("--out needs a folder name");
        } else if (arg == "--scene") {
            const std::string name = args.value();
            if (name != "default" && name != "materials")
                throw UsageError("--scene expects default or materials, got '" + name + "'");
            o.materials = name == "materials";
        } else {
            throw UsageError("unknown argument '" + arg + "' (see --help)");
        }
    }
    if (o.out.empty()) o.out = facet::app::dataDir() / (o.materials ? "material_scene" : "default_scene");
    return o;
}

// ---- The scene -------------------------------------------------------------------------------

struct MaterialSpec {
    std::string name;
    std::string textureFile;
    std::function<facet::Image()> paint;
};

// Texture files shared by the materials below (the curb reuses the bricks).
std::vector<MaterialSpec> materials() {
    return {
        {"ground", "stone_tiles.png", stoneTiles}, {"curb", "bricks.png", bricks},
        {"knot", "marble.png", bandedMarble},      {"pedestal", "rock.png", rock},
        {"planet", "planet.png", planet},          {"bricks", "bricks.png", bricks},
        {"vase", "vase_glaze.png", vaseGlaze},     {"column", "jade_checks.png", jadeChecks},
        {"rock", "rock.png", rock},                {"plank", "wood.png", wood},
    };
}

// Grid cells scaled by the detail factor, never fewer than `least`.
struct Detail {
    float factor = 1.0f;
    int operator()(int cells, int least = 3) const { return std::max(least, int(std::lround(float(cells) * factor))); }
};

// Positions on the plaza as the default camera sees it (yaw 25 degrees): `across` to the right,
// `deep` away from the viewer. Laying out in these terms keeps tall things at the back.
glm::vec3 onStage(float across, float deep, float height = 0.0f) {
    const float yaw = 25.0f * kPi / 180.0f;
    const glm::vec3 right(std::cos(yaw), 0.0f, -std::sin(yaw)), away(-std::sin(yaw), 0.0f, -std::cos(yaw));
    return across * right + deep * away + glm::vec3(0.0f, height, 0.0f);
}

Object makeObject(const char* name) { return Object{name, name, {}, {}, {}}; }

// The plaza floor, a disc tiled in 1-unit stones, ringed by a low rounded curb.
constexpr float kPlazaRadius = 7.6f, kCurbWidth = 0.5f, kCurbHeight = 0.3f;

Object ground(const Detail& detail) {
    Object o = makeObject("ground");
    // Rim to centre, so the front faces up.
    addLathe(o, Profile({{kPlazaRadius + 0.05f, 0.0f}, {0.0f, 0.0f}}), detail(128), detail(40));
    // Planar texture coordinates: one texture (four tiles) per 4 units.
    for (std::size_t k = 0; k < o.positions.size(); ++k) o.uvs[k] = glm::vec2(o.positions[k].x, o.positions[k].z) / 4.0f;
    return o;
}

Object curb(const Detail& detail) {
    const float inner = kPlazaRadius, outer = kPlazaRadius + kCurbWidth, fillet = 0.1f;
    // Outside up, over the rounded top, down the inside: fronts face away from the stone.
    std::vector<glm::vec2> points{{outer, 0.0f}};
    appendArc(points, {outer - fillet, kCurbHeight - fillet}, fillet, 0.0f, 0.5f * kPi, 8);
    appendArc(points, {inner + fillet, kCurbHeight - fillet}, fillet, 0.5f * kPi, kPi, 8);
    points.push_back({inner, 0.0f});
    Object o = makeObject("curb");
    addLathe(o, Profile(std::move(points)), detail(256), detail(12));
    repeatUv(o, {48.0f, 1.0f});
    return o;
}

// A (2, 3) torus knot standing on one lobe. The tube's frame uses the normal of the torus the
// knot winds around: it is always square to the knot, smooth, and closes up after one turn.
constexpr float kPedestalHeight = 0.6f;

Object torusKnot(const Detail& detail) {
    const float big = 2.0f, small = 0.9f, tube = 0.42f;
    Object o = makeObject("knot");
    addGrid(o, detail(420), detail(28, 4), [&](float s, float t) {
        // Both directions wrap; the last row and column reuse angle 0 so the seams close exactly.
        const float phi = s < 1.0f ? 2.0f * kPi * s : 0.0f, theta = t < 1.0f ? 2.0f * kPi * t : 0.0f;
        const float r = big + small * std::cos(3.0f * phi), dr = -3.0f * small * std::sin(3.0f * phi);
        const glm::vec3 centre(r * std::cos(2.0f * phi), r * std::sin(2.0f * phi), small * std::sin(3.0f * phi));
        const glm::vec3 tangent = glm::normalize(glm::vec3(dr * std::cos(2.0f * phi) - 2.0f * r * std::sin(2.0f * phi),
                                                           dr * std::sin(2.0f * phi) + 2.0f * r * std::cos(2.0f * phi),
                                                           3.0f * small * std::cos(3.0f * phi)));
        const glm::vec3 normal(std::cos(3.0f * phi) * std::cos(2.0f * phi), std::cos(3.0f * phi) * std::sin(2.0f * phi),
                               std::sin(3.0f * phi));
        const glm::vec3 binormal = glm::cross(normal, tangent);
        glm::vec3 p = centre + tube * (std::cos(theta) * normal + std::sin(theta) * binormal);
        p = glm::vec3(p.y, -p.x, p.z); // the lobe at phi = 0 points down
        return SurfacePoint{p + glm::vec3(0.0f, big + small + tube + kPedestalHeight - 0.05f, 0.0f), {s * 12.0f, t}};
    });
    return o;
}

Object pedestal(const Detail& detail) {
    const float h = kPedestalHeight;
    Object o = makeObject("pedestal");
    addLathe(o, Profile({{0.0f, 0.0f}, {1.3f, 0.0f}, {1.3f, 0.15f}, {1.05f, 0.25f}, {0.95f, h - 0.1f}, {1.1f, h},
                         {0.0f, h}}),
             detail(64), detail(16));
    repeatUv(o, {3.0f, 1.0f});
    return o;
}

Object sphere(const char* name, float radius, const Detail& detail, int around) {
    Object o = makeObject(name);
    addLathe(o, sphereProfile(), detail(around), detail(around / 2));
    for (glm::vec3& p : o.positions) p = p * radius + glm::vec3(0.0f, radius, 0.0f);
    return o;
}

// A vase turned on a lathe: a smooth outer wall through a few (height, radius) points, a rolled
// lip, an inner wall a wall's thickness inside, and a raised floor.
Object vase(const Detail& detail) {
    const std::vector<glm::vec2> wall = {{0.0f, 0.55f},  {0.35f, 0.9f},  {1.0f, 1.08f}, {1.7f, 0.86f},
                                         {2.35f, 0.46f}, {2.75f, 0.42f}, {3.2f, 0.72f}};
    // A cubic through the wall points with Catmull-Rom slopes (the end points repeated).
    const auto outerRadius = [&](float y) {
        std::size_t k = 0;
        while (k + 2 < wall.size() && y > wall[k + 1].x) ++k;
        const glm::vec2 &p1 = wall[k], &p2 = wall[k + 1];
        const glm::vec2 &p0 = wall[k == 0 ? 0 : k - 1], &p3 = wall[std::min(k + 2, wall.size() - 1)];
        const float t = (y - p1.x) / (p2.x - p1.x);
        const float m1 = (p2.y - p0.y) / (p2.x - p0.x) * (p2.x - p1.x);
        const float m2 = (p3.y - p1.y) / (p3.x - p1.x) * (p2.x - p1.x);
        const float t2 = t * t, t3 = t2 * t;
        return (2 * t3 - 3 * t2 + 1) * p1.y + (t3 - 2 * t2 + t) * m1 + (-2 * t3 + 3 * t2) * p2.y + (t3 - t2) * m2;
    };
    const float top = wall.back().x, thickness = 0.08f, floorHeight = 0.15f;
    std::vector<glm::vec2> points{{0.0f, 0.0f}};
    const int steps = 200;
    for (int k = 0; k <= steps; ++k) {
        const float y = top * float(k) / float(steps);
        points.push_back({outerRadius(y), y});
    }
    const float lipCentre = outerRadius(top) - 0.5f * thickness;
    appendArc(points, {lipCentre, top}, 0.5f * thickness, 0.0f, kPi, 12);
    for (int k = steps; k >= 0; --k) {
        const float y = floorHeight + (top - floorHeight) * float(k) / float(steps);
        points.push_back({outerRadius(y) - thickness, y});
    }
    points.push_back({0.0f, floorHeight});

    Object o = makeObject("vase");
    addLathe(o, Profile(std::move(points)), detail(96), detail(96));
    // Glaze bands follow height, inside and out, so they stay level whatever the profile does.
    for (std::size_t k = 0; k < o.positions.size(); ++k) {
        o.uvs[k] = {o.uvs[k].x * 3.0f, o.positions[k].y / top};
        o.positions[k] *= 1.3f;
    }
    return o;
}

// A square column twisted through 135 degrees and tapering upward, between two plain slabs.
Object column(const Detail& detail) {
    const float height = 5.2f, halfWidth = 0.55f, slab = 0.25f;
    Object o = makeObject("column");
    const auto box = [](glm::vec3 centre, glm::vec3 half) {
        return [=](glm::vec3 p) { return centre + p * half; };
    };
    addDeformedCube(o, {detail(4, 1), detail(2, 1), detail(4, 1)}, {1, 0.25f, 1},
                    box({0, slab / 2, 0}, {0.9f, slab / 2, 0.9f}));
    addDeformedCube(o, {detail(6), detail(80), detail(6)}, {1, height / (2.0f * halfWidth), 1},
                    [=](glm::vec3 p) {
                        const float t = 0.5f * (p.y + 1.0f);
                        const float a = 0.75f * kPi * t, c = std::cos(a), s = std::sin(a);
                        const float w = halfWidth * (1.0f - 0.2f * t);
                        const glm::vec2 xz = w * glm::vec2(c * p.x + s * p.z, -s * p.x + c * p.z);
                        return glm::vec3(xz.x, slab + t * height, xz.y);
                    });
    addDeformedCube(o, {detail(4, 1), detail(2, 1), detail(4, 1)}, {1, 0.25f, 1},
                    box({0, height + 1.5f * slab, 0}, {0.75f, slab / 2, 0.75f}));
    return o;
}

// A lumpy boulder: a squashed sphere pushed in and out by noise along its radius, sunk a
// little into the ground (no deeper, so it does not stretch the scene's bounds for nothing).
// Its poles lie on its sides, where the texture's pinch at a pole is not seen from above.
Object boulder(const Detail& detail) {
    Object o = makeObject("rock");
    addLathe(o, sphereProfile(), detail(96), detail(48));
    float lowest = 0.0f;
    for (glm::vec3& p : o.positions) {
        p = glm::vec3(p.y, -p.x, p.z); // a quarter turn about z: the poles go to -x and +x
        const float bump = 0.38f * (fractalNoise(p * 1.3f + 7.0f, 2, 71) - 0.5f) +
                           0.12f * (fractalNoise(p * 4.0f, 3, 72) - 0.5f);
        p *= glm::vec3(1.5f, 0.85f, 1.25f) * (1.0f + bump);
        lowest = std::min(lowest, p.y);
    }
    for (glm::vec3& p : o.positions) p.y += -0.2f - lowest;
    repeatUv(o, {3.0f, 1.0f});
    return o;
}

// A thin board, 4 units long and 8 cm thick, rising along +x at `slopeDegrees` from its foot
// edge at the origin: thin, sloped geometry is where rasterizers drop pixels or crack.
Object plank(const Detail& detail, float slopeDegrees) {
    const float slope = slopeDegrees * kPi / 180.0f, c = std::cos(slope), s = std::sin(slope);
    const glm::vec3 half(2.0f, 0.04f, 0.3f);
    Object o = makeObject("plank");
    addDeformedCube(o, {detail(32), 1, detail(4, 1)}, {1, 0.05f, 0.3f}, [=](glm::vec3 p) {
        const glm::vec3 q = (p + glm::vec3(1.0f, 1.0f, 0.0f)) * half; // foot edge on the z axis
        return glm::vec3(c * q.x - s * q.y, s * q.x + c * q.y, q.z);
    });
    return o;
}

std::vector<Object> buildScene(const Detail& detail) {
    std::vector<Object> scene;
    scene.push_back(ground(detail));
    scene.push_back(curb(detail));

    // Back row, left to right: column, knot on its pedestal, vase.
    Object pillar = column(detail);
    place(pillar, 10.0f, onStage(-5.6f, 2.6f));
    Object knot = torusKnot(detail), base = pedestal(detail);
    place(knot, 25.0f, onStage(0.0f, 3.0f));
    place(base, 25.0f, onStage(0.0f, 3.0f));
    Object pot = vase(detail);
    place(pot, 0.0f, onStage(5.0f, 2.6f));

    // Front row: planet, rock with a plank leaning on it, brick ball.
    Object world = sphere("planet", 1.7f, detail, 128);
    place(world, 200.0f, onStage(-3.2f, -2.6f));
    const glm::vec3 rockAt = onStage(1.0f, -3.4f), footAt = onStage(-2.69f, -4.49f);
    Object stone = boulder(detail);
    place(stone, 30.0f, rockAt);
    Object board = plank(detail, 26.0f);
    const glm::vec3 toRock = rockAt - footAt;
    place(board, std::atan2(-toRock.z, toRock.x) * 180.0f / kPi, footAt);
    Object ball = sphere("bricks", 1.0f, detail, 64);
    repeatUv(ball, {2.0f, 1.0f});
    place(ball, 0.0f, onStage(4.4f, -2.2f));

    for (Object* o : {&pillar, &knot, &base, &pot, &world, &stone, &board, &ball}) scene.push_back(std::move(*o));
    return scene;
}

std::size_t triangleCount(const std::vector<Object>& scene) {
    std::size_t n = 0;
    for (const Object& o : scene) n += o.triangleCount();
    return n;
}

// The detail factor whose scene comes closest to `target` triangles. Counts grow with the square
// of the factor (grids refine both ways), so a few square-root corrections settle it.
std::vector<Object> sceneNear(long target) {
    Detail detail;
    std::vector<Object> scene = buildScene(detail), best;
    double bestMiss = 0.0;
    for (int round = 0;; ++round) {
        const double count = double(triangleCount(scene)), miss = std::abs(count - double(target));
        if (round == 0 || miss < bestMiss) {
            bestMiss = miss;
            best = std::move(scene);
        }
        if (round == 4) return best;
        detail.factor *= float(std::sqrt(double(target) / count));
        scene = buildScene(detail);
    }
}

// ---- Writing ---------------------------------------------------------------------------------

// A number with `decimals` places and no trailing zeros ("1.5", "-2", "0"): OBJ text is most of
// what gets committed, so every byte counts.
void appendNumber(std::string& out, float value, int decimals) {
    char text[32];
    int n = std::snprintf(text, sizeof text, "%.*f", decimals, double(value));
    while (n > 0 && text[n - 1] == '0') --n;
    if (n > 0 && text[n - 1] == '.') --n;
    if (n == 2 && text[0] == '-' && text[1] == '0') {
        text[0] = '0';
        n = 1;
    }
    out.append(text, std::size_t(n));
}

struct Written {
    std::size_t triangles = 0, vertices = 0;
    int decimals = 0; // of the positions
};

// How many decimals positions need: millimetres (the scene is about 20 units across) unless some
// edge is shorter than 2 mm, as near the poles of finely tessellated spheres; then enough that
// rounding moves each end of the shortest edge by under half its length, so no triangle
// collapses or turns over.
int positionDecimals(const std::vector<Object>& scene) {
    float shortest = 1.0f;
    for (const Object& o : scene) {
        for (const auto& face : o.faces) {
            const int corners = face[3] == kNoCorner ? 3 : 4;
            for (int k = 0; k < corners; ++k)
                shortest = std::min(shortest, glm::distance(o.positions[face[std::size_t(k)]],
                                                            o.positions[face[std::size_t((k + 1) % corners)]]));
        }
    }
    int decimals = 3;
    while (decimals < 6 && std::pow(10.0f, float(-decimals)) > 0.5f * shortest) ++decimals;
    return decimals;
}

// Positions to positionDecimals() and texture coordinates to a ten-thousandth, which is below a
// texel at 512 even where the texture repeats 48 times.
Written writeObj(const fs::path& path, const std::vector<Object>& scene) {
    Written w;
    w.decimals = positionDecimals(scene);
    w.triangles = triangleCount(scene);
    for (const Object& o : scene) w.vertices += o.positions.size();

    std::ofstream file(path, std::ios::binary);
    std::string out; // one object's text at a time, so a 20-million-triangle scene still fits
    out += "# facet default scene, written by facet-scenegen: regenerate it rather than edit it.\n";
    out += "# " + std::to_string(w.triangles) + " triangles, " + std::to_string(w.vertices) +
           " vertices; no normals (the loader computes them).\n";
    out += "mtllib scene.mtl\n";
    std::size_t first = 1; // OBJ counts vertices from 1
    for (const Object& o : scene) {
        out += "o " + o.name + "\nusemtl " + o.material + "\n";
        for (const glm::vec3& p : o.positions) {
            out += "v ";
            appendNumber(out, p.x, w.decimals);
            out += ' ';
            appendNumber(out, p.y, w.decimals);
            out += ' ';
            appendNumber(out, p.z, w.decimals);
            out += '\n';
        }
        appendUvsAndFaces(out, o, first, appendNumber);
        first += o.positions.size();
        file.write(out.data(), std::streamsize(out.size()));
        out.clear();
    }
    if (!file) throw facet::Error(path.string() + ": cannot write the OBJ file");
    return w;
}

// Paints each distinct texture once, writes it, and writes the MTL. Kd is 1 under each map_Kd:
// the MTL spec multiplies the texture by Kd, so the lit model shows the texture as painted (the
// classic look draws textures alone). Returns the files written.
std::vector<fs::path> writeMaterials(const fs::path& dir) {
    std::vector<fs::path> files{dir / "scene.mtl"};
    std::string mtl = "# facet default scene materials, written by facet-scenegen.\n";
    std::vector<std::string> painted;
    for (const MaterialSpec& m : materials()) {
        if (std::find(painted.begin(), painted.end(), m.textureFile) == painted.end()) {
            facet::writePng(dir / m.textureFile, m.paint());
            files.push_back(dir / m.textureFile);
            painted.push_back(m.textureFile);
        }
        mtl += "\nnewmtl " + m.name + "\nKd 1 1 1\nmap_Kd " + m.textureFile + "\n";
    }
    std::ofstream file(dir / "scene.mtl", std::ios::binary);
    file << mtl;
    if (!file) throw facet::Error((dir / "scene.mtl").string() + ": cannot write the MTL file");
    return files;
}

int run(const Options& o) {
    if (o.help) {
        std::cout << kUsage;
        return 0;
    }
    if (o.version) {
        std::cout << facet::app::versionLine("facet-scenegen") << "\n";
        return 0;
    }
    const auto start = std::chrono::steady_clock::now();
    std::error_code error;
    fs::create_directories(o.out, error);
    if (error) throw facet::Error(o.out.string() + ": cannot create the folder (" + error.message() + ")");

    if (o.materials) {
        for (const fs::path& f : writeMaterialScene(o.out, appendNumber))
            std::cout << "  " << f.filename().string() << "  " << fs::file_size(f) << " bytes\n";
        std::cout << "wrote " << o.out.string() << "\n";
        return 0;
    }
    const std::vector<Object> scene = sceneNear(o.triangles);
    const Written w = writeObj(o.out / "scene.obj", scene);
    std::vector<fs::path> files = writeMaterials(o.out);
    files.insert(files.begin(), o.out / "scene.obj");

    std::uintmax_t total = 0;
    std::cout << "wrote " << o.out.string() << ": " << w.triangles << " triangles, " << w.vertices
              << " vertices (positions to " << w.decimals << " decimals), " << scene.size() << " objects\n";
    for (const fs::path& f : files) {
        const std::uintmax_t bytes = fs::file_size(f);
        total += bytes;
        std::cout << "  " << f.filename().string() << "  " << bytes << " bytes\n";
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "  total  " << total << " bytes, in " << seconds << " s\n";
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    return facet::cli::runMain("facet-scenegen", [&] { return run(parseArguments(argc, argv)); });
}
