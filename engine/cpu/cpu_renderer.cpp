#include "cpu/cpu_renderer.h"

#include "core/error.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <new>

namespace facet {

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

struct TileRect {
    int x0, y0, x1, y1; // inclusive pixel bounds
};

// Rasterizes one set-up triangle within a tile, in 2x2 pixel quads: the quad's helper pixels
// give the uv derivatives for the texture level of detail, as on a GPU. Quads pair rows as
// OpenGL does, counting from the bottom of the picture, so they start at row `quadRowOffset`
// (1 for an odd height; row -1 is then only ever a helper).
std::size_t rasterizeTriangle(const ScreenTriangle& tri, const ShadeMaterial& material,
                              const RenderSettings& settings, glm::vec3 viewForward, const FrameView& target,
                              const TileRect& tile, int quadRowOffset) {
    const int minX = std::max(tri.minX, tile.x0), maxX = std::min(tri.maxX, tile.x1);
    const int minY = std::max(tri.minY, tile.y0), maxY = std::min(tri.maxY, tile.y1);
    const bool textured = material.texture.levelCount > 0;
    const glm::vec2 texSize = textured ? glm::vec2(material.texture.levels[0].width, material.texture.levels[0].height)
                                       : glm::vec2(0.0f);
    std::size_t shaded = 0;
    for (int qy = ((minY + quadRowOffset) & ~1) - quadRowOffset; qy <= maxY; qy += 2) {
        for (int qx = minX & ~1; qx <= maxX; qx += 2) {
            bool covered[4];
            bool any = false;
            for (int k = 0; k < 4; ++k) {
                const int x = qx + (k & 1), y = qy + (k >> 1);
                covered[k] = x >= minX && x <= maxX && y >= minY && y <= maxY && covers(tri, edgeValues(tri, x, y));
                any = any || covered[k];
            }
            if (!any) continue;

            glm::vec3 b[4];
            float invW[4];
            glm::vec2 uv[4];
            for (int k = 0; k < 4; ++k) {
                b[k] = barycentrics(tri, qx + (k & 1), qy + (k >> 1));
                invW[k] = interpolateInvW(tri, b[k]);
                uv[k] = interpolateUv(tri, b[k], invW[k]);
            }
            // Derivatives along the quad's lower row and left column: OpenGL's first quad row is
            // the lower one (its rows count up from the bottom of the picture).
            const float lod = textured ? textureLod((uv[3] - uv[2]) * texSize, (uv[0] - uv[2]) * texSize) : 0.0f;

            for (int k = 0; k < 4; ++k) {
                if (!covered[k]) continue;
                const float depth = interpolateDepth(tri, b[k]);
                if (!(depth >= 0.0f && depth <= 1.0f)) continue; // beyond the far plane
                const std::size_t pixel =
                    std::size_t(qy + (k >> 1)) * std::size_t(target.width) + std::size_t(qx + (k & 1));
                if (!(depth < target.depth[pixel])) continue;
                const glm::vec3 n = settings.headlight ? interpolateNormal(tri, b[k], invW[k]) : glm::vec3(0.0f);
                const glm::vec4 c =
                    shadeFragment(material, settings.filter, uv[k], lod, settings.headlight, n, viewForward);
                target.depth[pixel] = depth;
                target.color[pixel] = packRgba8(c);
                ++shaded;
            }
        }
    }
    return shaded;
}

ShadeMaterial shadeMaterial(const Model& model, std::size_t index) {
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

CpuRenderer::CpuRenderer(int threads) : pool_(threads), fragments_(std::size_t(pool_.threadCount())) {}

CpuFrameStats CpuRenderer::render(const Model& model, const ViewParams& view, const RenderSettings& settings,
                                  const FrameView& target) {
    if (target.width <= 0 || target.height <= 0 || !target.color || !target.depth)
        throw Error("render target is empty (" + std::to_string(target.width) + "x" + std::to_string(target.height) +
                    "); nothing to draw into");
    const Mesh& mesh = model.mesh;
    const std::size_t vertexCount = mesh.vertexCount();
    const std::size_t triangleCount = mesh.triangleCount();
    const int threads = pool_.threadCount();
    CpuFrameStats stats;

    // 1. Vertex stage, in blocks of 16k vertices.
    auto t0 = Clock::now();
    try {
        dx_.resize(vertexCount);
        dy_.resize(vertexCount);
        dz_.resize(vertexCount);
    } catch (const std::bad_alloc&) {
        throw Error("not enough memory for the vertex stage of " + std::to_string(vertexCount) + " vertices");
    }
    constexpr std::size_t kVertexBlock = 16384;
    pool_.run((vertexCount + kVertexBlock - 1) / kVertexBlock, [&](std::size_t block, int) {
        const std::size_t begin = block * kVertexBlock, end = std::min(vertexCount, begin + kVertexBlock);
        transformVertices(mesh, view, begin, end, dx_.data(), dy_.data(), dz_.data());
    });
    stats.vertexMs = msSince(t0);

    // 2. Triangle stage: a few chunks per thread, each set up and binned on its own.
    t0 = Clock::now();
    // Tile rows start at -quadRowOffset so that quads never straddle two tiles.
    const int quadRowOffset = target.height & 1;
    const int tilesX = (target.width + kTileSize - 1) / kTileSize;
    const int tilesY = (target.height + quadRowOffset + kTileSize - 1) / kTileSize;
    const std::size_t tileCount = std::size_t(tilesX) * std::size_t(tilesY);
    const std::size_t chunkSize =
        std::max<std::size_t>(4096, (triangleCount + std::size_t(threads) * 4 - 1) / (std::size_t(threads) * 4));
    const std::size_t chunkCount = (triangleCount + chunkSize - 1) / chunkSize;
    if (chunks_.size() < chunkCount) chunks_.resize(chunkCount);

    // Material 0 exists even for a model without materials: it is the default grey.
    materials_.clear();
    for (std::size_t m = 0; m < std::max<std::size_t>(1, model.materials.size()); ++m)
        materials_.push_back(shadeMaterial(model, m));
    for (const MaterialRange& range : mesh.ranges)
        if (range.material >= materials_.size() || range.firstTriangle + std::size_t(range.triangleCount) > triangleCount)
            throw Error("model " + model.source + ": a material range names material " + std::to_string(range.material) +
                        " or triangles beyond the mesh");

    const ClipPlanes planes = makeClipPlanes(view, target.width, target.height);
    const bool hasNormals = mesh.nx.size() == vertexCount;
    const std::vector<MaterialRange>& ranges = mesh.ranges;

    pool_.run(chunkCount, [&](std::size_t c, int) {
        Chunk& chunk = chunks_[c];
        chunk.triangles.clear();
        chunk.materials.clear();
        chunk.stats = CpuFrameStats{};
        const std::size_t begin = c * chunkSize, end = std::min(triangleCount, begin + chunkSize);
        // The material range holding `begin`; ranges are sorted and cover every triangle.
        std::size_t r = std::size_t(std::upper_bound(ranges.begin(), ranges.end(), begin,
                                                     [](std::size_t t, const MaterialRange& mr) {
                                                         return t < mr.firstTriangle;
                                                     }) -
                                    ranges.begin());
        r = r > 0 ? r - 1 : 0;
        for (std::size_t t = begin; t < end; ++t) {
            while (r + 1 < ranges.size() && t >= ranges[r + 1].firstTriangle) ++r;
            const std::uint32_t material = ranges.empty() ? 0u : ranges[r].material;
            ++chunk.stats.trianglesIn;
            ClipVertex poly[kMaxClippedVertices], scratch[kMaxClippedVertices];
            unsigned outAll = ~0u, outAny = 0;
            bool finite = true;
            for (int k = 0; k < 3; ++k) {
                const std::uint32_t i = mesh.indices[3 * t + std::size_t(k)];
                poly[k].d = {dx_[i], dy_[i], dz_[i]};
                poly[k].uv = mesh.hasTexCoords ? glm::vec2(mesh.u[i], mesh.v[i]) : glm::vec2(0.0f);
                poly[k].n = hasNormals ? glm::vec3(mesh.nx[i], mesh.ny[i], mesh.nz[i]) : glm::vec3(0.0f);
                finite = finite && std::isfinite(poly[k].d.x) && std::isfinite(poly[k].d.y) &&
                         std::isfinite(poly[k].d.z);
                const unsigned mask = outsideMask(planes, poly[k].d);
                outAll &= mask;
                outAny |= mask;
            }
            if (!finite || outAll != 0) { // all three outside one plane: nothing to draw
                ++chunk.stats.trianglesCulled;
                continue;
            }
            int count = 3;
            if (outAny != 0) {
                ++chunk.stats.trianglesClipped;
                count = clipPolygon(planes, outAny, poly, count, scratch);
            }
            ScreenVertex sv[kMaxClippedVertices];
            for (int k = 0; k < count; ++k) sv[k] = projectVertex(poly[k], view, target.width, target.height);
            // The clipped polygon is convex: a fan from its first vertex covers it exactly.
            bool drawn = false;
            for (int k = 1; k + 1 < count; ++k) {
                ScreenTriangle tri;
                if (setupTriangle(sv[0], sv[k], sv[k + 1], settings.cullBackFaces, target.width, target.height,
                                  tri) != SetupResult::Ok)
                    continue;
                chunk.triangles.push_back(tri);
                chunk.materials.push_back(material);
                drawn = true;
            }
            if (!drawn) ++chunk.stats.trianglesCulled;
        }

        // Bin by the tiles each triangle's bounds touch: count, prefix-sum, fill (in order).
        chunk.binOffsets.assign(tileCount + 1, 0);
        const auto forTiles = [&](const ScreenTriangle& tri, auto&& f) {
            for (int ty = (tri.minY + quadRowOffset) / kTileSize; ty <= (tri.maxY + quadRowOffset) / kTileSize; ++ty)
                for (int tx = tri.minX / kTileSize; tx <= tri.maxX / kTileSize; ++tx)
                    f(std::size_t(ty) * std::size_t(tilesX) + std::size_t(tx));
        };
        for (const ScreenTriangle& tri : chunk.triangles) forTiles(tri, [&](std::size_t tile) { ++chunk.binOffsets[tile + 1]; });
        for (std::size_t i = 0; i < tileCount; ++i) chunk.binOffsets[i + 1] += chunk.binOffsets[i];
        chunk.binTriangles.resize(chunk.binOffsets[tileCount]);
        chunk.binFill.assign(chunk.binOffsets.begin(), chunk.binOffsets.end() - 1);
        for (std::size_t i = 0; i < chunk.triangles.size(); ++i)
            forTiles(chunk.triangles[i],
                     [&](std::size_t tile) { chunk.binTriangles[chunk.binFill[tile]++] = std::uint32_t(i); });
    });
    for (std::size_t c = 0; c < chunkCount; ++c) {
        stats.trianglesIn += chunks_[c].stats.trianglesIn;
        stats.trianglesClipped += chunks_[c].stats.trianglesClipped;
        stats.trianglesCulled += chunks_[c].stats.trianglesCulled;
    }
    stats.triangleMs = msSince(t0);

    // 3. Raster stage: each tile is cleared, then drawn chunk by chunk in input order.
    t0 = Clock::now();
    const glm::vec3 viewForward{view.rotation[0][2], view.rotation[1][2], view.rotation[2][2]};
    std::fill(fragments_.begin(), fragments_.end(), 0);
    pool_.run(tileCount, [&](std::size_t tile, int thread) {
        const int tx = int(tile % std::size_t(tilesX)), ty = int(tile / std::size_t(tilesX));
        const TileRect rect{tx * kTileSize, std::max(0, ty * kTileSize - quadRowOffset),
                            std::min(target.width, (tx + 1) * kTileSize) - 1,
                            std::min(target.height, (ty + 1) * kTileSize - quadRowOffset) - 1};
        for (int y = rect.y0; y <= rect.y1; ++y) {
            const std::size_t row = std::size_t(y) * std::size_t(target.width);
            std::fill(target.color + row + rect.x0, target.color + row + rect.x1 + 1, settings.clearColor);
            std::fill(target.depth + row + rect.x0, target.depth + row + rect.x1 + 1, 1.0f);
        }
        std::size_t shaded = 0;
        for (std::size_t c = 0; c < chunkCount; ++c) {
            const Chunk& chunk = chunks_[c];
            for (std::uint32_t k = chunk.binOffsets[tile]; k < chunk.binOffsets[tile + 1]; ++k) {
                const std::uint32_t i = chunk.binTriangles[k];
                shaded += rasterizeTriangle(chunk.triangles[i], materials_[chunk.materials[i]], settings, viewForward,
                                            target, rect, quadRowOffset);
            }
        }
        fragments_[std::size_t(thread)] += shaded;
    });
    for (std::size_t f : fragments_) stats.fragmentsShaded += f;
    stats.rasterMs = msSince(t0);
    return stats;
}

} // namespace facet
