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

CpuRenderer::CpuRenderer(int threads)
    : pool_(threads), fragments_(std::size_t(pool_.threadCount())), tileScratch_(std::size_t(pool_.threadCount())) {}

CpuFrameStats CpuRenderer::render(const Model& model, const ViewParams& view, const RenderSettings& settings,
                                  const FrameView& target) {
    if (target.width <= 0 || target.height <= 0 || !target.color || !target.depth)
        throw Error("render target is empty (" + std::to_string(target.width) + "x" + std::to_string(target.height) +
                    "); nothing to draw into");
    // Scratch buffers grow with the mesh and the target; running out of memory there is a
    // clear error, not a bare std::bad_alloc from deep inside a worker thread.
    try {
        return renderFrame(model, view, settings, target);
    } catch (const std::bad_alloc&) {
        throw Error("not enough memory to render " + std::to_string(model.mesh.triangleCount()) + " triangles into " +
                    std::to_string(target.width) + "x" + std::to_string(target.height) + " pixels");
    }
}

CpuFrameStats CpuRenderer::renderFrame(const Model& model, const ViewParams& view, const RenderSettings& settings,
                                       const FrameView& target) {
    const Mesh& mesh = model.mesh;
    const std::size_t vertexCount = mesh.vertexCount();
    const std::size_t triangleCount = mesh.triangleCount();
    const int threads = pool_.threadCount();
    CpuFrameStats stats;

    // 1. Vertex stage, in blocks of 16k vertices: camera space, then each vertex's outside mask
    // and, for the vertices inside every clip plane, their projection.
    auto t0 = Clock::now();
    dx_.resize(vertexCount);
    dy_.resize(vertexCount);
    dz_.resize(vertexCount);
    outside_.resize(vertexCount);
    projected_.resize(vertexCount);
    const ClipPlanes planes = makeClipPlanes(view, target.width, target.height);
    const bool hasNormals = mesh.nx.size() == vertexCount;
    const auto clipVertex = [&](std::uint32_t i) {
        return ClipVertex{{dx_[i], dy_[i], dz_[i]},
                          mesh.hasTexCoords ? glm::vec2(mesh.u[i], mesh.v[i]) : glm::vec2(0.0f),
                          hasNormals ? glm::vec3(mesh.nx[i], mesh.ny[i], mesh.nz[i]) : glm::vec3(0.0f)};
    };
    constexpr std::uint8_t kNonFinite = 1u << 5; // beside the five plane bits of outsideMask
    constexpr std::size_t kVertexBlock = 16384;
    pool_.run((vertexCount + kVertexBlock - 1) / kVertexBlock, [&](std::size_t block, int) {
        const std::size_t begin = block * kVertexBlock, end = std::min(vertexCount, begin + kVertexBlock);
        transformVertices(mesh, view, begin, end, dx_.data(), dy_.data(), dz_.data());
        for (std::size_t i = begin; i < end; ++i) {
            const ClipVertex v = clipVertex(std::uint32_t(i));
            if (!(std::isfinite(v.d.x) && std::isfinite(v.d.y) && std::isfinite(v.d.z))) {
                outside_[i] = kNonFinite;
                continue;
            }
            outside_[i] = std::uint8_t(outsideMask(planes, v.d));
            if (outside_[i] == 0) projected_[i] = projectVertex(v, view, target.width, target.height);
        }
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
            const std::uint32_t* corner = &mesh.indices[3 * t];
            const unsigned outAll = outside_[corner[0]] & outside_[corner[1]] & outside_[corner[2]];
            const unsigned outAny = outside_[corner[0]] | outside_[corner[1]] | outside_[corner[2]];
            if ((outAny & kNonFinite) != 0 || outAll != 0) { // all three outside one plane: nothing to draw
                ++chunk.stats.trianglesCulled;
                continue;
            }
            ScreenTriangle tri;
            if (outAny == 0) { // the common case: inside every plane, the projections are ready
                if (setupTriangle(projected_[corner[0]], projected_[corner[1]], projected_[corner[2]],
                                  settings.cullBackFaces, target.width, target.height, tri) == SetupResult::Ok) {
                    chunk.triangles.push_back(tri);
                    chunk.materials.push_back(material);
                } else {
                    ++chunk.stats.trianglesCulled;
                }
                continue;
            }
            ++chunk.stats.trianglesClipped;
            ClipVertex poly[kMaxClippedVertices], scratch[kMaxClippedVertices];
            for (int k = 0; k < 3; ++k) poly[k] = clipVertex(corner[k]);
            const int count = clipPolygon(planes, outAny, poly, 3, scratch);
            ScreenVertex sv[kMaxClippedVertices];
            for (int k = 0; k < count; ++k) sv[k] = projectVertex(poly[k], view, target.width, target.height);
            // The clipped polygon is convex: a fan from its first vertex covers it exactly.
            bool drawn = false;
            for (int k = 1; k + 1 < count; ++k) {
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

    // 3. Raster stage: each tile is cleared, then drawn chunk by chunk in input order. Threads
    // take the busiest tiles first, so no thread is left alone with a heavy tile at the end
    // (a scene's triangles crowd into a few tiles). Tiles share no pixels: any order gives
    // the same picture.
    t0 = Clock::now();
    tileWork_.assign(tileCount, 0);
    for (std::size_t c = 0; c < chunkCount; ++c)
        for (std::size_t tile = 0; tile < tileCount; ++tile)
            tileWork_[tile] += chunks_[c].binOffsets[tile + 1] - chunks_[c].binOffsets[tile];
    tileOrder_.resize(tileCount);
    for (std::size_t tile = 0; tile < tileCount; ++tile) tileOrder_[tile] = std::uint32_t(tile);
    std::sort(tileOrder_.begin(), tileOrder_.end(), [&](std::uint32_t a, std::uint32_t b) {
        return tileWork_[a] != tileWork_[b] ? tileWork_[a] > tileWork_[b] : a < b;
    });
    const RasterContext context{settings,
                                glm::vec3(view.rotation[0][2], view.rotation[1][2], view.rotation[2][2]), target,
                                quadRowOffset};
    std::fill(fragments_.begin(), fragments_.end(), 0);
    std::size_t mostWork = 0;
    for (std::uint32_t w : tileWork_) mostWork = std::max<std::size_t>(mostWork, w);
    // The scratch grows before any tile is drawn, so a failed allocation leaves no visibility
    // buffer half written.
    for (TileScratch& scratch : tileScratch_) {
        if (scratch.ids.size() < std::size_t(kTileSize) * kTileSize) scratch.ids.assign(std::size_t(kTileSize) * kTileSize, 0u);
        if (scratch.triangles.size() < mostWork) scratch.triangles.resize(mostWork);
    }
    pool_.run(tileCount, [&](std::size_t task, int thread) {
        const std::size_t tile = tileOrder_[task];
        const int tx = int(tile % std::size_t(tilesX)), ty = int(tile / std::size_t(tilesX));
        const TileRect rect{tx * kTileSize, std::max(0, ty * kTileSize - quadRowOffset),
                            std::min(target.width, (tx + 1) * kTileSize) - 1,
                            std::min(target.height, (ty + 1) * kTileSize - quadRowOffset) - 1};
        for (int y = rect.y0; y <= rect.y1; ++y) {
            const std::size_t row = std::size_t(y) * std::size_t(target.width);
            std::fill(target.color + row + rect.x0, target.color + row + rect.x1 + 1, settings.clearColor);
            std::fill(target.depth + row + rect.x0, target.depth + row + rect.x1 + 1, 1.0f);
        }
        TileScratch& scratch = tileScratch_[std::size_t(thread)];
        const TileIds ids{scratch.ids.data(), tx * kTileSize, ty * kTileSize - quadRowOffset};
        std::fill(scratch.ids.begin(), scratch.ids.end(), 0u);

        // Pass 1: coverage and depth, in input order; id n + 1 is the tile's n-th triangle.
        std::size_t won = 0;
        std::uint32_t count = 0;
        for (std::size_t c = 0; c < chunkCount; ++c) {
            const Chunk& chunk = chunks_[c];
            for (std::uint32_t k = chunk.binOffsets[tile]; k < chunk.binOffsets[tile + 1]; ++k) {
                const std::uint32_t i = chunk.binTriangles[k];
                scratch.triangles[count] = TileTriangle{&chunk.triangles[i], &materials_[chunk.materials[i]]};
                ++count;
                won += rasterizeVisibility(chunk.triangles[i], count, context, rect, ids);
            }
        }
        // Pass 2: each pixel shaded once, by the triangle that won it.
        if (won != 0) shadeTile(scratch.triangles.data(), context, rect, ids);
        fragments_[std::size_t(thread)] += won;
    });
    for (std::size_t f : fragments_) stats.fragmentsShaded += f;
    stats.rasterMs = msSince(t0);
    return stats;
}

} // namespace facet
