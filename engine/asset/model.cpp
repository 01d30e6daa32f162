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

// A glTF material's values (core/pbr.h): MASK's test on the base colour factor's alpha times the
// map's, folded into the cut-off, so the map's alpha alone is tested as for MTL cut-outs.
void setMetallicRoughness(ShadeMaterial& out, const Material& mat) {
    const MetallicRoughness& p = mat.pbr;
    out.pbr = true;
    out.kd = glm::vec3(p.baseColor);
    out.color = glm::vec4(glm::clamp(linearToSrgb(glm::vec3(p.baseColor)), 0.0f, 1.0f) * 255.0f, 255.0f);
    out.metallic = glm::clamp(p.metallic, 0.0f, 1.0f);
    out.roughness = glm::clamp(p.roughness, 0.0f, 1.0f);
    out.occlusionStrength = glm::clamp(p.occlusionStrength, 0.0f, 1.0f);
    out.ke = p.emission;
    out.normalScale = p.normalScale;
    out.opacity = p.alphaMode == AlphaMode::Blend ? glm::clamp(p.baseColor.a, 0.0f, 1.0f) : 1.0f;
    out.alphaBlend = p.alphaMode == AlphaMode::Blend;
    out.cutout = p.alphaMode == AlphaMode::Mask;
    if (out.cutout) out.alphaCutoff = p.baseColor.a > 0.0f ? p.alphaCutoff / p.baseColor.a : 2.0f;
}

// The material's maps (for a mesh with texture coordinates), and whether it is a cut-out.
void setMaps(ShadeMaterial& out, const Material& mat, const std::vector<Texture>& textures) {
    forEachMap(out, mat, [&](TextureView& view, std::int32_t index) {
        if (index < 0 || static_cast<std::size_t>(index) >= textures.size()) return;
        const Texture& t = textures[static_cast<std::size_t>(index)];
        view = TextureView{t.texels.data(), t.levels.data(), static_cast<int>(t.levels.size()), t.wrapS, t.wrapT};
    });
    const auto translucent = [&](std::int32_t index) {
        return index >= 0 && static_cast<std::size_t>(index) < textures.size() &&
               textures[static_cast<std::size_t>(index)].translucent;
    };
    out.alphaMapUsesAlpha = translucent(mat.alphaMap);
    out.cutout = out.alphaMap.levelCount > 0 || (out.texture.levelCount > 0 && translucent(mat.texture));
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
        if (model.mesh.hasTexCoords) setMaps(out[i], mat, model.textures);
        if (mat.pbr.enabled) setMetallicRoughness(out[i], mat);
    }
    return out;
}

ModelFacts modelFacts(const Model& model) {
    const std::vector<ShadeMaterial> materials = shadeMaterials(model);
    return modelFacts(model.mesh, materials.data(), materials.size());
}

} // namespace facet
