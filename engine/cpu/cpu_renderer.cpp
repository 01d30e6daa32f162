#include "cpu/cpu_renderer.h"

#include "core/error.h"
#include "core/mesh.h"
#include "core/multisample.h"
#include "core/triangle_stage.h"
#include "core/view_shading.h"
#include "cpu/shading/multisample_tile.h"
#include "cpu/shading/outputs_tile.h"
#include "cpu/shading/tile_shading.h"
#include "cpu/shading/view_tile.h"
#include "cpu/simd/isa.h"
#include "cpu/simd/stream_store.h"
#include "cpu/triangle/set_up_front.h"
#include "cpu/visibility/block_depth_bounds.h"
#include "cpu/visibility/visibility.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <immintrin.h>
#include <new>
#include <type_traits>

namespace facet {

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

// How many triangles ahead the raster stage prefetches: enough to cover a miss to memory with
// the few hundred cycles a small triangle's visibility takes.
constexpr std::uint32_t kPrefetchAhead = 8;

// Set-up triangle i's record (with its attributes where kept): four addresses under 64 bytes
// apart, so every line of a record of up to 192 bytes, without a loop.
void prefetchTriangle(const SetUpTriangles& triangles, std::size_t i) {
    const char* bytes = reinterpret_cast<const char*>(&triangles.triangle(i));
    const std::size_t size = triangles.recordSize();
    static_assert(sizeof(ScreenTriangle) + sizeof(TriangleAttributes) <= 192, "four prefetches cover a record");
    _mm_prefetch(bytes, _MM_HINT_T0);
    _mm_prefetch(bytes + size / 3, _MM_HINT_T0);
    _mm_prefetch(bytes + 2 * size / 3, _MM_HINT_T0);
    _mm_prefetch(bytes + size - 1, _MM_HINT_T0);
}

// Calls visit(tile) for each tile of `span` in a grid `tilesX` tiles wide, row by row. Most
// triangles of a dense mesh lie in one tile; for them the loops' set-up is skipped.
template <class Visit> inline void forEachTile(const TileSpan& span, int tilesX, Visit&& visit) {
    const std::size_t first = std::size_t(span.ty0) * std::size_t(tilesX) + std::size_t(span.tx0);
    if (span.tx0 == span.tx1 && span.ty0 == span.ty1) {
        visit(first);
        return;
    }
    for (int ty = span.ty0; ty <= span.ty1; ++ty)
        for (int tx = span.tx0; tx <= span.tx1; ++tx) visit(std::size_t(ty) * std::size_t(tilesX) + std::size_t(tx));
}

} // namespace

CpuRenderer::CpuRenderer(int threads)
    : pool_(threads), tileScratch_(std::size_t(pool_.threadCount())) {}

void CpuRenderer::setScene(const Scene& scene) {
    validateScene(scene);
    // Material 0 of each mesh exists even for a model without materials: the default grey.
    SceneMaterials materials = shadeMaterials(scene);
    materials_ = std::move(materials.table);
    materialBases_ = std::move(materials.bases);
    for (ShadeMaterial& m : materials_) m.srgbTable = &srgbTable_;
    scene_ = &scene;
}

CpuFrameStats CpuRenderer::render(const ViewParams& view, const FramePlan& plan, const FrameView& target,
                                  const CameraSpacePositions& given, const FrameOutputs& outputs) {
    if (!scene_) throw Error("no scene to render: call setScene first");
    plan.requireTarget(target);
    // Scratch buffers grow with the scene and the target; running out of memory there is a
    // clear error, not a bare std::bad_alloc from deep inside a worker thread.
    try {
        return renderFrame(view, plan, target, given, outputs);
    } catch (const std::bad_alloc&) {
        throw Error("not enough memory to render " + std::to_string(scene_->triangleCount()) + " triangles into " +
                    std::to_string(target.width) + "x" + std::to_string(target.height) + " pixels");
    }
}

CpuFrameStats CpuRenderer::renderFrame(const ViewParams& view, const FramePlan& plan, const FrameView& target,
                                       const CameraSpacePositions& given, const FrameOutputs& outputs) {
    CpuFrameStats stats;
    auto t0 = Clock::now();
    frame_ = frameInstances(*scene_, materialBases_, view, plan.planes);
    vertexStage(plan, given);
    stats.vertexMs = msSince(t0);

    t0 = Clock::now();
    forwardMaterials_ = plan.forwardMaterials;
    const std::size_t chunkCount = triangleStage(plan);
    stats.trianglesIn = stats.trianglesCulled = std::size_t(frame_.trianglesCulled);
    for (std::size_t c = 0; c < chunkCount; ++c) {
        stats.trianglesIn += chunks_[c].stats.trianglesIn;
        stats.trianglesClipped += chunks_[c].stats.trianglesClipped;
        stats.trianglesCulled += chunks_[c].stats.trianglesCulled;
    }
    stats.triangleMs = msSince(t0);

    t0 = Clock::now();
    const OutputFrame outputFrameAsked =
        outputFrame(outputs, plan.width, plan.height, view, frame_.draws.data(), std::uint32_t(frame_.draws.size()));
    const RasterContext context{plan,           target, samplePairWalkChosen(), chosenIndexedLoads(), wideFilterChosen(),
                                outputs.any() ? &outputFrameAsked : nullptr};
    stats.fragmentsShaded = rasterStage(context, plan, chunkCount);
    if (plan.finishesFrame) { // the debug views of the whole frame, a row at a time
        const ViewFinish finish = makeViewFinish(plan.settings.view, target, view, tileWork_.data());
        const auto width = std::size_t(target.width);
        pool_.run(std::size_t(target.height), [&](std::size_t row, int) {
            for (std::size_t i = row * width; i < (row + 1) * width; ++i) finishViewPixel(finish, i);
        });
    }
    stats.rasterMs = msSince(t0);
    return stats;
}

// A posed instance's normals (where its mesh has them) and tangents (where the frame reads them,
// FramePlan::tangents) are read from the world-space arrays posedDirections fills.
MeshView CpuRenderer::instanceMesh(const InstanceDraw& draw, const FramePlan& plan) {
    MeshView mesh = triangleStageMesh(meshView(scene_->meshes[draw.mesh]->mesh), plan.tangents);
    if (!draw.posed) return mesh;
    const std::size_t first = draw.firstVertex;
    if (mesh.nx) {
        mesh.nx = nx_.data() + first;
        mesh.ny = ny_.data() + first;
        mesh.nz = nz_.data() + first;
    }
    if (mesh.tx) {
        mesh.tx = tx_.data() + first;
        mesh.ty = ty_.data() + first;
        mesh.tz = tz_.data() + first;
        mesh.tw = tw_.data() + first;
    }
    return mesh;
}

// Vertices [begin, end) of a posed instance: its normals and tangents in world space.
void CpuRenderer::posedDirections(const InstanceDraw& draw, const FramePlan& plan, std::size_t begin,
                                  std::size_t end) {
    const Mesh& mesh = scene_->meshes[draw.mesh]->mesh;
    const std::size_t first = draw.firstVertex;
    if (mesh.nx.size() == mesh.px.size()) {
        for (std::size_t i = begin; i < end; ++i) {
            const glm::vec3 n = posedDirection(draw.normalMatrix, {mesh.nx[i], mesh.ny[i], mesh.nz[i]});
            nx_[first + i] = n.x;
            ny_[first + i] = n.y;
            nz_[first + i] = n.z;
        }
    }
    if (plan.tangents && mesh.hasTangents()) {
        const float handedness = draw.mirrored ? -1.0f : 1.0f;
        for (std::size_t i = begin; i < end; ++i) {
            const glm::vec3 t = posedDirection(draw.tangentMatrix, {mesh.tx[i], mesh.ty[i], mesh.tz[i]});
            tx_[first + i] = t.x;
            ty_[first + i] = t.y;
            tz_[first + i] = t.z;
            tw_[first + i] = mesh.tw[i] * handedness;
        }
    }
}

// 1. Vertex stage, in blocks of 4k vertices of each drawn instance: camera space (through the
// instance's view), each vertex's outside mask and, for the vertices inside every clip plane,
// their projection; a posed instance's normals and tangents move to world space first.
void CpuRenderer::vertexStage(const FramePlan& plan, const CameraSpacePositions& given) {
    const std::size_t vertexCount = std::size_t(frame_.vertices);
    const bool transform = given.dx == nullptr;
    if (transform) {
        dx_.resize(vertexCount);
        dy_.resize(vertexCount);
        dz_.resize(vertexCount);
    }
    const float* dx = transform ? dx_.data() : given.dx;
    const float* dy = transform ? dy_.data() : given.dy;
    const float* dz = transform ? dz_.data() : given.dz;
    outside_.resize(vertexCount + 3); // setupFront8 reads each vertex's flags as 4 bytes
    projected_.resize(vertexCount);
    bool posed = false;
    for (const InstanceDraw& d : frame_.draws) posed = posed || d.posed;
    if (posed) {
        for (auto* v : {&nx_, &ny_, &nz_}) v->resize(vertexCount);
        if (plan.tangents)
            for (auto* v : {&tx_, &ty_, &tz_, &tw_}) v->resize(vertexCount);
    }
    constexpr std::size_t kVertexBlock = 4096;
    struct Block {
        std::size_t draw, begin, end;
    };
    std::vector<Block> blocks;
    for (std::size_t k = 0; k < frame_.draws.size(); ++k) {
        const std::size_t n = scene_->meshes[frame_.draws[k].mesh]->mesh.vertexCount();
        for (std::size_t b = 0; b < n; b += kVertexBlock) blocks.push_back({k, b, std::min(n, b + kVertexBlock)});
    }
    inputs_.clear();
    for (const InstanceDraw& d : frame_.draws)
        inputs_.push_back(instanceStageInput(plan, instanceMesh(d, plan), d, dx, dy, dz, outside_.data(),
                                             projected_.data()));
    pool_.run(blocks.size(), [&](std::size_t i, int) {
        const Block& block = blocks[i];
        const InstanceDraw& d = frame_.draws[block.draw];
        const std::size_t first = d.firstVertex;
        if (transform)
            transformVertices(scene_->meshes[d.mesh]->mesh, d.view, block.begin, block.end, dx_.data() + first,
                              dy_.data() + first, dz_.data() + first);
        if (d.posed) posedDirections(d, plan, block.begin, block.end);
        const TriangleStageInput& in = inputs_[block.draw];
        classifyVertices(in.mesh, in.dx, in.dy, in.dz, plan.planes, d.view, plan.width, plan.height,
                         outside_.data() + first, projected_.data() + first, block.begin, block.end);
    });
}

// 2. Triangle stage: chunks of each drawn instance's triangles in order, each set up and binned
// on its own, taken by the threads as they come free. Returns the number of chunks. (setScene
// checked the indices.)
std::size_t CpuRenderer::triangleStage(const FramePlan& plan) {
    const std::size_t triangleCount = std::size_t(frame_.triangles);
    const auto threads = std::size_t(pool_.threadCount());
    // Sixteen chunks a thread (of 1024 triangles at least): a view's cost lies unevenly along the
    // mesh (what is on screen costs most), and with four a thread, the last chunks of a close
    // view left one thread idle for a tenth of the stage. With 4096 at least, the 12k-triangle
    // textured sheet made three chunks for two threads, one thread taking two.
    const std::size_t chunkSize = std::max<std::size_t>(1024, (triangleCount + threads * 16 - 1) / (threads * 16));
    chunkRanges_.clear();
    for (std::size_t k = 0; k < frame_.draws.size(); ++k) {
        const std::size_t n = inputs_[k].mesh.triangleCount;
        for (std::size_t b = 0; b < n; b += chunkSize) chunkRanges_.push_back({k, b, std::min(n, b + chunkSize)});
    }
    const std::size_t chunkCount = chunkRanges_.size();
    if (chunks_.size() < chunkCount) chunks_.resize(chunkCount);
    const ChunkLayout layout{plan.sideRecords, plan.sources, plan.attributes};
    pool_.run(chunkCount, [&](std::size_t c, int) {
        const ChunkRange& range = chunkRanges_[c];
        const TriangleStageInput& input = inputs_[range.draw];
        // The set-up's front eight triangles at a time where gathers run at full speed: it reads
        // the corners by gathers, 9 for 8 triangles (not measured where microcode slows them).
        // A mirrored instance swaps corners, which only the whole set-up does.
        const bool batched =
            setupFrontFits(input) && chosenIndexedLoads() == IndexedLoads::Gather && !input.mirrored;
        setupChunk(chunks_[c], input, plan.grid, range.begin, range.end, layout, batched);
        binChunk(chunks_[c], plan.grid);
    });
    return chunkCount;
}

// Room for `size` set-up triangles at least, with what `layout` keeps beside each: the storage
// doubles as it grows.
inline void CpuRenderer::Chunk::makeRoom(std::size_t size, ChunkLayout layout) {
    if (triangles.size() >= size) return;
    const std::size_t grown = std::max(size, triangles.size() * 2);
    triangles.resize(grown, layout.attributes);
    materials.resize(grown);
    spans.resize(grown);
    if (layout.colors) colors.resize(grown);
    if (layout.sources) sources.resize(grown);
}

// Ready for a frame of `layout`: bins for `tileCount` tiles counted from zero, and room for
// `size` set-up triangles in this frame's layout.
void CpuRenderer::Chunk::prepare(std::size_t tileCount, std::size_t size, ChunkLayout layout) {
    binOffsets.assign(tileCount + 1, 0);
    triangles.resize(triangles.size(), layout.attributes); // this frame's layout
    makeRoom(size, layout);
    if (layout.colors) colors.resize(triangles.size()); // the storage may have grown without them
    if (layout.sources) sources.resize(triangles.size());
}

// Triangles [begin, end) set up into the chunk, their bins counted.
void CpuRenderer::setupChunk(Chunk& chunk, TriangleStageInput input, TileGrid grid, std::size_t begin, std::size_t end,
                             ChunkLayout layout, bool batched) {
    // Each triangle is set up straight into the chunk's storage, which has room for the
    // chunk's triangles unclipped and grows when clipping fans them out. Its tile span is
    // kept beside it and its bins counted at once, so binning never reads the triangles
    // again. Its attributes are written only where the frame's shading reads them.
    chunk.prepare(std::size_t(grid.tilesX) * std::size_t(grid.tilesY), end - begin + kMaxFanTriangles, layout);
    std::size_t count = 0;
    // Counted here and stored once: the chunks are set up on different threads. Added without
    // branches: whether a triangle is clipped or drawn follows no pattern.
    std::size_t clipped = 0, drawn = 0; // mesh triangles clipped, drawn (as one or more)
    RisingMaterials materials(input.mesh, std::uint32_t(begin));
    // Batched, eight triangles at a time, their fronts in AVX2 lanes (cpu/triangle/set_up_front.h), each
    // one drawn then finished on its own; a clipped one, and the chunk's last few, set up whole.
    // Two instantiations: for a mesh without vertex colours, the set-up has no colour code;
    // two more for the views that keep each triangle's mesh index (`keep`, a std::bool_constant).
    const auto setUp = [&](auto&& colors, auto keep) {
        std::size_t t = begin; // the triangle being set up
        const auto slot = [&] {
            return TriangleSlot{chunk.triangles.place(count), chunk.triangles.placeAttributes(count)};
        };
        const auto emit = [&](const ScreenTriangle& tri, const TriangleAttributes*) {
            const TileSpan span = tileSpan(grid, tri.minX, tri.minY, tri.maxX, tri.maxY);
            forEachTile(span, grid.tilesX, [&](std::size_t tile) { ++chunk.binOffsets[tile + 1]; });
            chunk.spans[count] = span;
            chunk.materials[count] = input.materialBase + materials.at(std::uint32_t(t));
            if constexpr (decltype(keep)::value) chunk.sources[count] = input.firstTriangle + std::uint32_t(t);
            ++count;
        };
        const auto whole = [&] {
            chunk.makeRoom(count + kMaxFanTriangles, layout);
            const TriangleOutcome outcome = setupMeshTriangleIn(input, std::uint32_t(t), slot, emit, true, colors);
            clipped += std::size_t(outcome.clipped);
            drawn += std::size_t(outcome.drawn > 0);
        };
        const auto batch = [&](std::size_t first) {
            const SetupFront8 front = setupFront8(input, std::uint32_t(first));
            for (std::uint32_t left = front.ready | front.scalar; left != 0; left &= left - 1) {
                const int k = __builtin_ctz(left);
                t = first + std::size_t(k);
                if (front.scalar >> k & 1u) {
                    whole();
                    continue;
                }
                chunk.makeRoom(count + kMaxFanTriangles, layout);
                const std::uint32_t* corner = input.mesh.indices + 3 * t;
                const TriangleSlot place = slot();
                setUpReady(input, corner, front, k, place, true);
                emitInside(input, corner, place, emit, colors);
            }
            drawn += std::size_t(__builtin_popcount(front.ready));
        };
        std::size_t first = begin;
        for (; batched && first + 8 <= end; first += 8) batch(first);
        for (t = first; t < end; ++t) whole();
    };
    const auto setUpAll = [&](auto keep) {
        if (layout.colors)
            setUp([&](const TriangleColors& colors) { chunk.colors[count] = colors; }, keep);
        else
            setUp(NoColors{}, keep);
    };
    if (layout.sources)
        setUpAll(std::true_type{});
    else
        setUpAll(std::false_type{});
    chunk.count = count;
    chunk.stats = CpuFrameStats{};
    chunk.stats.trianglesIn = end - begin;
    chunk.stats.trianglesClipped = clipped;
    chunk.stats.trianglesCulled = end - begin - drawn;
}

// Bins the chunk's triangles by the tiles their bounds touch: prefix-sums the counts, fills
// in order.
void CpuRenderer::binChunk(Chunk& chunk, TileGrid grid) {
    const std::size_t tileCount = std::size_t(grid.tilesX) * std::size_t(grid.tilesY);
    for (std::size_t i = 0; i < tileCount; ++i) chunk.binOffsets[i + 1] += chunk.binOffsets[i];
    chunk.binTriangles.resize(chunk.binOffsets[tileCount]);
    chunk.binFill.assign(chunk.binOffsets.begin(), chunk.binOffsets.end() - 1);
    for (std::size_t i = 0; i < chunk.count; ++i) {
        forEachTile(chunk.spans[i], grid.tilesX,
                    [&](std::size_t tile) { chunk.binTriangles[chunk.binFill[tile]++] = std::uint32_t(i); });
    }
}

// 3. Raster stage: each tile is drawn chunk by chunk in input order into buffers of its own,
// then its depth and colour are written to the target once (an empty tile just gets the
// clear colour and depth). Threads take the busiest tiles first, so no thread is left alone
// with a heavy tile at the end (a scene's triangles crowd into a few tiles). Tiles share no
// pixels: any order gives the same picture. Returns the fragments that passed the depth test.
std::size_t CpuRenderer::rasterStage(const RasterContext& context, const FramePlan& plan, std::size_t chunkCount) {
    const TileGrid& grid = plan.grid;
    const std::size_t tileCount = std::size_t(grid.tilesX) * std::size_t(grid.tilesY);
    tileWork_.assign(tileCount, 0);
    for (std::size_t c = 0; c < chunkCount; ++c)
        for (std::size_t tile = 0; tile < tileCount; ++tile)
            tileWork_[tile] += chunks_[c].binOffsets[tile + 1] - chunks_[c].binOffsets[tile];
    tileOrder_.resize(tileCount);
    for (std::size_t tile = 0; tile < tileCount; ++tile) tileOrder_[tile] = std::uint32_t(tile);
    std::sort(tileOrder_.begin(), tileOrder_.end(), [&](std::uint32_t a, std::uint32_t b) {
        return tileWork_[a] != tileWork_[b] ? tileWork_[a] > tileWork_[b] : a < b;
    });
    std::size_t mostWork = 0;
    for (std::uint32_t w : tileWork_) mostWork = std::max<std::size_t>(mostWork, w);
    // The scratch grows before any tile is drawn, so a failed allocation leaves no tile half
    // drawn.
    // With multisampling, a plane of ids, depths and colours per sample.
    const std::size_t planes = std::size_t(plan.samples()) * kTileBufferElements;
    for (TileScratch& scratch : tileScratch_) {
        scratch.fragments = 0;
        if (scratch.ids.size() < planes) {
            scratch.ids.assign(planes, 0u);
            scratch.depth.assign(planes, 1.0f);
            scratch.color.assign(planes, 0u);
        }
        if (plan.samples() > 1 && scratch.sampleCounts.size() < kTileBufferElements)
            scratch.sampleCounts.resize(kTileBufferElements);
        if (scratch.farthest.size() < std::size_t(kBoundBlocks)) scratch.farthest.resize(std::size_t(kBoundBlocks));
        if (scratch.triangles.size() < mostWork) scratch.triangles.resize(mostWork);
        if (context.plan.sideRecords && scratch.colors.size() < mostWork) scratch.colors.resize(mostWork);
        if (plan.sources && scratch.sources.size() < mostWork) scratch.sources.resize(mostWork);
        if (plan.countsFragments && scratch.counts.size() < kTileBufferElements)
            scratch.counts.assign(kTileBufferElements, 0u);
    }
    const bool byWinners = plan.shadesWinners;
    pool_.run(tileCount, [&](std::size_t task, int thread) {
        const std::uint32_t tile = tileOrder_[task];
        const TilePlace place = tilePlace(grid, tile);
        const TileRect rect = tileRect(place, context.target.width, context.target.height);
        if (tileWork_[tile] == 0) {
            clearTile(context, rect);
            if (context.outputs) clearTileOutputs(*context.outputs, rect);
        } else {
            TileScratch& scratch = tileScratch_[std::size_t(thread)];
            scratch.fragments += byWinners ? drawTileView(context, tile, place, rect, chunkCount, scratch)
                                           : drawTile(context, tile, place, rect, chunkCount, scratch);
            if (context.outputs && !scratch.outputsWritten)
                drawTileOutputs(context, tile, place, rect, chunkCount, scratch);
        }
    });
    std::size_t fragments = 0;
    for (const TileScratch& scratch : tileScratch_) fragments += scratch.fragments;
    return fragments;
}

// A tile nothing is drawn in: the clear colour and depth.
void CpuRenderer::clearTile(const RasterContext& context, const TileRect& rect) {
    const FrameView& target = context.target;
    for (int y = rect.y0; y <= rect.y1; ++y) {
        const std::size_t row = std::size_t(y) * std::size_t(target.width);
        const std::size_t n = std::size_t(rect.x1 - rect.x0 + 1);
        streamFillRow(target.color + row + rect.x0, viewBackground(context.plan.settings), n);
        streamFillRow(target.depth + row + rect.x0, 1.0f, n);
    }
    streamFence();
}

// The outputs' visibility pass of one tile (core/outputs.h): its triangles again, in order, at one
// sample per pixel and every one opaque (cut-outs alpha-tested as in a one-sample frame), then
// writeTileOutputs. The tile's drawing left its buffers at ids 0 and depth 1, and so does this.
void CpuRenderer::drawTileOutputs(const RasterContext& context, std::uint32_t tile, TilePlace place, TileRect rect,
                                  std::size_t chunkCount, TileScratch& scratch) {
    const FramePlan& plan = context.plan;
    const bool sources = context.outputs->outputs.instance != nullptr;
    const TileBuffers buffers{scratch.ids.data(), scratch.depth.data(), scratch.color.data(), place.x, place.y};
    std::uint32_t count = 0;
    for (std::size_t c = 0; c < chunkCount; ++c) {
        const Chunk& chunk = chunks_[c];
        for (std::uint32_t k = chunk.binOffsets[tile]; k < chunk.binOffsets[tile + 1]; ++k) {
            const std::uint32_t i = chunk.binTriangles[k];
            const TileTriangle& drawn = scratch.triangles[count] = tileTriangle(chunk, i);
            if (sources) scratch.sources[count] = chunk.sources[i];
            ++count;
            const bool cutout = drawn.material->cutout && plan.lit;
            rasterizeVisibility(chunk.triangles.triangle(i), count, context, rect, buffers, 1, cutout ? &drawn : nullptr);
        }
    }
    writeTileOutputs(*context.outputs, scratch.triangles.data(), sources ? scratch.sources.data() : nullptr, rect,
                     buffers, true);
    for (int y = rect.y0; y <= rect.y1; ++y) std::fill_n(buffers.depth + buffers.at(rect.x0, y), rect.x1 - rect.x0 + 1, 1.0f);
}

// Whether any triangle binned to the tile has a material drawn forward (drawsForward).
bool CpuRenderer::tileDrawsForward(const RasterContext& context, std::uint32_t tile, std::size_t chunkCount) const {
    for (std::size_t c = 0; c < chunkCount; ++c) {
        const Chunk& chunk = chunks_[c];
        for (std::uint32_t k = chunk.binOffsets[tile]; k < chunk.binOffsets[tile + 1]; ++k)
            if (drawsForward(materials_[chunk.materials[chunk.binTriangles[k]]], context.plan.settings)) return true;
    }
    return false;
}

// One tile, deferred: coverage and depth of its triangles, then each pixel shaded once.
// Returns the fragments that passed the depth test.
std::size_t CpuRenderer::drawTile(RasterContext context, std::uint32_t tile, TilePlace place, TileRect rect,
                                  std::size_t chunkCount, TileScratch& scratch) {
    // The buffers (every sample plane) hold ids 0 and depth 1: as allocated, and as the last
    // tile left them; so 1 bounds every block's depths.
    std::fill(scratch.farthest.begin(), scratch.farthest.end(), 1.0f);
    scratch.outputsWritten = false;
    const TileBuffers buffers{scratch.ids.data(), scratch.depth.data(), scratch.color.data(), place.x, place.y,
                              scratch.farthest.data()};

    // A tile holding a blended triangle (lit model, d < 1), or multisampled a cut-out, is drawn
    // forward, in order.
    const bool forward = forwardMaterials_ && tileDrawsForward(context, tile, chunkCount);

    // Pass 1: coverage and depth (per sample with multisampling), in input order; id n + 1 is
    // the tile's n-th triangle.
    const int samples = context.plan.settings.msaa;
    std::size_t won = 0;
    std::uint32_t count = 0;
    for (std::size_t c = 0; c < chunkCount; ++c) {
        const Chunk& chunk = chunks_[c];
        const std::uint32_t first = chunk.binOffsets[tile], last = chunk.binOffsets[tile + 1];
        for (std::uint32_t k = first; k < last; ++k) {
            // The triangles were set up by the triangle stage, long out of this core's cache
            // by now, and a tile's are scattered through its chunks: ask for the ones a few
            // calls ahead, so the visibility pass does not wait on each.
            if (k + kPrefetchAhead < last) prefetchTriangle(chunk.triangles, chunk.binTriangles[k + kPrefetchAhead]);
            const std::uint32_t i = chunk.binTriangles[k];
            const TileTriangle& drawn = scratch.triangles[count] = tileTriangle(chunk, i);
            const ShadeMaterial& material = *drawn.material;
            if (context.plan.sideRecords) scratch.colors[count] = &chunk.colors[i];
            if (context.plan.sources) scratch.sources[count] = chunk.sources[i];
            ++count;
            const bool cutout = material.cutout && context.plan.lit;
            if (!forward)
                won += rasterizeVisibility(chunk.triangles.triangle(i), count, context, rect, buffers, samples,
                                           cutout ? &drawn : nullptr);
        }
    }
    if (forward) {
        won = drawTileForward(scratch.triangles.data(), scratch.colors.data(), count, context, rect, buffers);
        storeTileDepth(context, rect, buffers);
        return won;
    }
    if (samples > 1) { // pass 2, multisampled: shading once per pixel and triangle, then the resolve
        resolveTileSamples(scratch.triangles.data(), scratch.colors.data(), context, rect, buffers,
                           scratch.sampleCounts.data());
        return won;
    }
    storeTileDepth(context, rect, buffers);
    // The outputs from the ids as they are (the winners shading will read).
    if (context.outputs) {
        writeTileOutputs(*context.outputs, scratch.triangles.data(), scratch.sources.data(), rect, buffers, false);
        scratch.outputsWritten = true;
    }
    // Pass 2: each pixel shaded once, by the triangle that won it.
    shadeTile(scratch.triangles.data(), scratch.colors.data(), context, rect, buffers);
    return won;
}

// drawTile for the views that colour a pixel by its winner: the same visibility pass (counting
// fragments where the view needs them, and keeping each triangle's mesh triangle), then
// shadeTileView.
std::size_t CpuRenderer::drawTileView(RasterContext context, std::uint32_t tile, TilePlace place, TileRect rect,
                                      std::size_t chunkCount, TileScratch& scratch) {
    scratch.outputsWritten = false;
    const TileBuffers buffers{scratch.ids.data(), scratch.depth.data(), scratch.color.data(), place.x, place.y};
    const View view = context.plan.settings.view;
    std::uint32_t* counts = viewCountsFragments(view) ? scratch.counts.data() : nullptr;
    const bool sources = viewNeedsSources(view);
    std::size_t won = 0;
    std::uint32_t count = 0;
    for (std::size_t c = 0; c < chunkCount; ++c) {
        const Chunk& chunk = chunks_[c];
        for (std::uint32_t k = chunk.binOffsets[tile]; k < chunk.binOffsets[tile + 1]; ++k) {
            const std::uint32_t i = chunk.binTriangles[k];
            scratch.triangles[count] = tileTriangle(chunk, i);
            if (context.plan.sideRecords) scratch.colors[count] = &chunk.colors[i];
            if (sources) scratch.sources[count] = chunk.sources[i];
            ++count;
            const ScreenTriangle& tri = chunk.triangles.triangle(i);
            won += counts ? rasterizeVisibilityCounting(tri, count, context, rect, buffers, counts)
                          : rasterizeVisibility(tri, count, context, rect, buffers);
        }
    }
    storeTileDepth(context, rect, buffers);
    shadeTileView(TileViewInputs{scratch.triangles.data(), scratch.colors.data(),
                                 sources ? scratch.sources.data() : nullptr, counts},
                  context, rect, buffers);
    return won;
}

} // namespace facet
