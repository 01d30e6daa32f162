#include "cpu/cpu_renderer.h"

#include "core/error.h"
#include "core/triangle_setup.h"
#include "shaders_cuda/vertex_stage.h"

#include <algorithm>
#include <cmath>

namespace facet {

void transformVertices(const Mesh& mesh, const ViewParams& view, float* dx, float* dy, float* dz) {
    const VertexStageParams params{mesh.px.data(), mesh.py.data(), mesh.pz.data(), dx, dy, dz,
                                   static_cast<std::uint32_t>(mesh.vertexCount()), view};
    for (std::uint32_t i = 0; i < params.count; ++i) vertexStageThread(params, i);
}

namespace {

// Rasterizes one screen triangle in 2x2 pixel quads: the quad's helper pixels give the uv
// derivatives for the texture level of detail, as on a GPU.
void rasterizeTriangle(const ScreenTriangle& tri, const ShadeMaterial& material, const RenderSettings& settings,
                       glm::vec3 viewForward, const FrameView& target, CpuFrameStats& stats) {
    const bool textured = material.texture.levelCount > 0;
    const glm::vec2 texSize = textured ? glm::vec2(material.texture.levels[0].width, material.texture.levels[0].height)
                                       : glm::vec2(0.0f);
    for (int qy = tri.minY & ~1; qy <= tri.maxY; qy += 2) {
        for (int qx = tri.minX & ~1; qx <= tri.maxX; qx += 2) {
            EdgeValues e[4];
            bool any = false;
            bool covered[4];
            for (int k = 0; k < 4; ++k) {
                const int x = qx + (k & 1), y = qy + (k >> 1);
                e[k] = edgeValues(tri, x, y);
                covered[k] = x >= tri.minX && x <= tri.maxX && y >= tri.minY && y <= tri.maxY && covers(tri, e[k]);
                any = any || covered[k];
            }
            if (!any) continue;

            glm::vec3 b[4];
            float invW[4];
            glm::vec2 uv[4];
            for (int k = 0; k < 4; ++k) {
                b[k] = barycentrics(tri, e[k]);
                invW[k] = interpolateInvW(tri, b[k]);
                uv[k] = interpolateUv(tri, b[k], invW[k]);
            }
            const float lod = textured ? textureLod((uv[1] - uv[0]) * texSize, (uv[2] - uv[0]) * texSize) : 0.0f;

            for (int k = 0; k < 4; ++k) {
                if (!covered[k]) continue;
                const float depth = interpolateDepth(tri, b[k]);
                if (!(depth >= 0.0f && depth <= 1.0f)) continue; // beyond the far plane
                const std::size_t pixel = std::size_t(qy + (k >> 1)) * std::size_t(target.width) + std::size_t(qx + (k & 1));
                if (!(depth < target.depth[pixel])) continue;
                const glm::vec3 n = settings.headlight ? interpolateNormal(tri, b[k], invW[k]) : glm::vec3(0.0f);
                const glm::vec4 c = shadeFragment(material, settings.filter, uv[k], lod, settings.headlight, n, viewForward);
                target.depth[pixel] = depth;
                target.color[pixel] = packRgba8(c);
                ++stats.fragmentsShaded;
            }
        }
    }
}

ShadeMaterial shadeMaterial(const Model& model, std::uint32_t index) {
    ShadeMaterial m{glm::vec4(0.8f * 255.0f, 0.8f * 255.0f, 0.8f * 255.0f, 255.0f), TextureView{}};
    if (index >= model.materials.size()) return m;
    const Material& mat = model.materials[index];
    m.color = glm::vec4(glm::clamp(mat.diffuse, 0.0f, 1.0f) * 255.0f, 255.0f);
    if (mat.texture >= 0 && static_cast<std::size_t>(mat.texture) < model.textures.size() && model.mesh.hasTexCoords) {
        const Texture& t = model.textures[static_cast<std::size_t>(mat.texture)];
        m.texture = TextureView{t.texels.data(), t.levels.data(), static_cast<int>(t.levels.size())};
    }
    return m;
}

} // namespace

CpuFrameStats CpuRenderer::render(const Model& model, const ViewParams& view, const RenderSettings& settings,
                                  const FrameView& target) {
    if (target.width <= 0 || target.height <= 0 || !target.color || !target.depth)
        throw Error("render target is empty (" + std::to_string(target.width) + "x" + std::to_string(target.height) +
                    "); nothing to draw into");
    const std::size_t pixels = std::size_t(target.width) * std::size_t(target.height);
    std::fill_n(target.color, pixels, settings.clearColor);
    std::fill_n(target.depth, pixels, 1.0f);

    const Mesh& mesh = model.mesh;
    dx_.resize(mesh.vertexCount());
    dy_.resize(mesh.vertexCount());
    dz_.resize(mesh.vertexCount());
    transformVertices(mesh, view, dx_.data(), dy_.data(), dz_.data());

    const ClipPlanes planes = makeClipPlanes(view, target.width, target.height);
    const glm::vec3 viewForward{view.rotation[0][2], view.rotation[1][2], view.rotation[2][2]};
    const bool hasNormals = mesh.nx.size() == mesh.vertexCount();
    CpuFrameStats stats;
    for (const MaterialRange& range : mesh.ranges) {
        const ShadeMaterial material = shadeMaterial(model, range.material);
        for (std::uint32_t t = range.firstTriangle; t < range.firstTriangle + range.triangleCount; ++t) {
            ++stats.trianglesIn;
            ClipVertex poly[kMaxClippedVertices], scratch[kMaxClippedVertices];
            unsigned outAll = ~0u, outAny = 0;
            bool finite = true;
            for (int k = 0; k < 3; ++k) {
                const std::uint32_t i = mesh.indices[3 * std::size_t(t) + std::size_t(k)];
                poly[k].d = {dx_[i], dy_[i], dz_[i]};
                poly[k].uv = mesh.hasTexCoords ? glm::vec2(mesh.u[i], mesh.v[i]) : glm::vec2(0.0f);
                poly[k].n = hasNormals ? glm::vec3(mesh.nx[i], mesh.ny[i], mesh.nz[i]) : glm::vec3(0.0f);
                finite = finite && std::isfinite(poly[k].d.x) && std::isfinite(poly[k].d.y) && std::isfinite(poly[k].d.z);
                const unsigned mask = outsideMask(planes, poly[k].d);
                outAll &= mask;
                outAny |= mask;
            }
            if (!finite || outAll != 0) { // all three outside one plane: nothing to draw
                ++stats.trianglesCulled;
                continue;
            }
            int count = 3;
            if (outAny != 0) {
                ++stats.trianglesClipped;
                count = clipPolygon(planes, outAny, poly, count, scratch);
            }
            ScreenVertex sv[kMaxClippedVertices];
            for (int k = 0; k < count; ++k) sv[k] = projectVertex(poly[k], view, target.width, target.height);
            // The clipped polygon is convex: a fan from its first vertex covers it exactly.
            for (int k = 1; k + 1 < count; ++k) {
                ScreenTriangle tri;
                const SetupResult r = setupTriangle(sv[0], sv[k], sv[k + 1], settings.cullBackFaces, target.width,
                                                    target.height, tri);
                if (r == SetupResult::Ok)
                    rasterizeTriangle(tri, material, settings, viewForward, target, stats);
                else if (k == 1)
                    ++stats.trianglesCulled;
            }
        }
    }
    return stats;
}

} // namespace facet
