#include "asset/model.h"

#include <algorithm>

namespace facet {

std::string Warning::toString() const {
    return line > 0 ? file + ":" + std::to_string(line) + ": " + message : file + ": " + message;
}

std::vector<ShadeMaterial> shadeMaterials(const Model& model) {
    std::vector<ShadeMaterial> out(std::max<std::size_t>(1, model.materials.size()),
                                   ShadeMaterial{glm::vec4(0.8f * 255.0f, 0.8f * 255.0f, 0.8f * 255.0f, 255.0f),
                                                 TextureView{}});
    for (std::size_t i = 0; i < model.materials.size(); ++i) {
        const Material& mat = model.materials[i];
        out[i].color = glm::vec4(glm::clamp(mat.diffuse, 0.0f, 1.0f) * 255.0f, 255.0f);
        if (mat.texture >= 0 && static_cast<std::size_t>(mat.texture) < model.textures.size() &&
            model.mesh.hasTexCoords) {
            const Texture& t = model.textures[static_cast<std::size_t>(mat.texture)];
            out[i].texture = TextureView{t.texels.data(), t.levels.data(), static_cast<int>(t.levels.size())};
        }
    }
    return out;
}

} // namespace facet
