#include "asset/bump_map.h"

#include <cmath>

namespace facet {

namespace {

float heightAt(const Image& image, std::uint32_t x, std::uint32_t y) {
    const std::uint32_t c = image.pixels[std::size_t(y) * image.width + x];
    return float((c & 0xFFu) + ((c >> 8) & 0xFFu) + ((c >> 16) & 0xFFu)) / (3.0f * 255.0f);
}

std::uint32_t encodeUnit(float v) { return static_cast<std::uint32_t>(std::lround((v * 0.5f + 0.5f) * 255.0f)); }

} // namespace

Image heightToNormalMap(const Image& heights, float bumpScale) {
    Image out{heights.width, heights.height, std::vector<std::uint32_t>(heights.pixels.size())};
    const std::uint32_t w = heights.width, h = heights.height;
    for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w; ++x) {
            const float dhdu = (heightAt(heights, (x + 1) % w, y) - heightAt(heights, (x + w - 1) % w, y)) * 0.5f;
            // File order runs top to bottom, v bottom to top: up the picture is the row above.
            const float dhdv = (heightAt(heights, x, (y + h - 1) % h) - heightAt(heights, x, (y + 1) % h)) * 0.5f;
            const glm::vec3 n = glm::normalize(glm::vec3(-bumpScale * dhdu, -bumpScale * dhdv, 1.0f));
            out.pixels[std::size_t(y) * w + x] = encodeUnit(n.x) | encodeUnit(n.y) << 8 | encodeUnit(n.z) << 16 | 0xFF000000u;
        }
    return out;
}

void prepareBumpMapping(Model& model, const std::string& file) {
    Mesh& mesh = model.mesh;
    std::vector<bool> bumped(model.materials.size(), false);
    bool any = false;
    for (const MaterialRange& r : mesh.ranges)
        if (r.triangleCount > 0 && r.material < model.materials.size() && model.materials[r.material].bumpMap >= 0)
            any = bumped[r.material] = true;
    if (!any) return;
    const bool normals = mesh.nx.size() == mesh.vertexCount();
    if (mesh.hasTexCoords && normals) {
        generateTangents(mesh);
        return;
    }
    const std::string missing = !mesh.hasTexCoords ? "texture coordinates" : "normals";
    for (std::size_t i = 0; i < bumped.size(); ++i)
        if (bumped[i])
            model.warnings.push_back({file, 0, "material '" + model.materials[i].name + "' has a bump map but the mesh has no " +
                                                   missing + "; it is drawn without bumps"});
}

} // namespace facet
