#include "asset/model.h"

#include <algorithm>

namespace facet {

std::string Warning::toString() const {
    return line > 0 ? file + ":" + std::to_string(line) + ": " + message : file + ": " + message;
}

namespace {

// The lit model's values of a material: colours decoded to linear light.
void setLitValues(ShadeMaterial& out, const Material& mat) {
    out.kd = srgbToLinear(mat.diffuse);
    out.ka = mat.ambient;
    out.ks = srgbToLinear(mat.specular);
    out.ke = srgbToLinear(mat.emission);
    out.ns = mat.shininess;
    out.opacity = mat.opacity;
    out.illumination = mat.illumination;
    out.bumpScale = mat.bumpScale;
}

} // namespace

std::vector<ShadeMaterial> shadeMaterials(const Model& model) {
    ShadeMaterial grey{glm::vec4(0.8f * 255.0f, 0.8f * 255.0f, 0.8f * 255.0f, 255.0f), TextureView{}};
    setLitValues(grey, Material{});
    std::vector<ShadeMaterial> out(std::max<std::size_t>(1, model.materials.size()), grey);
    for (std::size_t i = 0; i < model.materials.size(); ++i) {
        const Material& mat = model.materials[i];
        out[i].color = glm::vec4(glm::clamp(mat.diffuse, 0.0f, 1.0f) * 255.0f, 255.0f);
        setLitValues(out[i], mat);
        if (!model.mesh.hasTexCoords) continue;
        forEachMap(out[i], mat, [&](TextureView& view, std::int32_t index) {
            if (index < 0 || static_cast<std::size_t>(index) >= model.textures.size()) return;
            const Texture& t = model.textures[static_cast<std::size_t>(index)];
            view = TextureView{t.texels.data(), t.levels.data(), static_cast<int>(t.levels.size())};
        });
        const auto translucent = [&](std::int32_t index) {
            return index >= 0 && static_cast<std::size_t>(index) < model.textures.size() &&
                   model.textures[static_cast<std::size_t>(index)].translucent;
        };
        out[i].alphaMapUsesAlpha = translucent(mat.alphaMap);
        out[i].cutout = out[i].alphaMap.levelCount > 0 || (out[i].texture.levelCount > 0 && translucent(mat.texture));
        // glTF says an OPAQUE material ignores its texture's alpha: no cut-out there.
        if (mat.metallicRoughness && mat.alphaMode == Material::AlphaMode::Opaque) out[i].cutout = false;
    }
    return out;
}

ModelFacts modelFacts(const Model& model) {
    const std::vector<ShadeMaterial> materials = shadeMaterials(model);
    return modelFacts(model.mesh, materials.data(), materials.size());
}

} // namespace facet
