// facet as a user's program sees it once installed: a red triangle rendered into memory
// through the front door, the pixel at the picture's centre checked.
#include <facet/core/camera.h>
#include <facet/renderer.h>
#include <facet/version.h>

#include <cstdint>
#include <cstdio>
#include <vector>

int main() {
    facet::Model model;
    facet::Mesh& mesh = model.mesh;
    mesh.px = {-1.0f, 1.0f, 0.0f};
    mesh.py = {-1.0f, -1.0f, 1.0f};
    mesh.pz = {-3.0f, -3.0f, -3.0f};
    mesh.u = mesh.v = {0.0f, 0.0f, 0.0f};
    mesh.indices = {0, 1, 2};
    mesh.ranges = {{0, 1, 0}};
    facet::generateNormals(mesh);
    facet::computeBounds(mesh);
    model.materials = {{"red", {1.0f, 0.0f, 0.0f}, -1}};

    facet::Renderer renderer; // the GPU where one is usable, else the CPU
    renderer.setModel(model);
    constexpr int size = 64;
    std::vector<std::uint32_t> color(size * size);
    std::vector<float> depth(size * size);
    const facet::Camera camera; // at the origin, looking down -Z
    renderer.render(camera.view(1.0f), facet::RenderSettings{}, facet::FrameView{color.data(), depth.data(), size, size});

    const std::uint32_t centre = color[(size / 2) * size + size / 2];
    std::printf("facet %s, %s: centre pixel %08x\n", FACET_VERSION_STRING, renderer.placement().describe().c_str(),
                static_cast<unsigned>(centre));
    return centre == 0xFF0000FFu ? 0 : 1; // opaque red (RGBA8, R in the low byte)
}
