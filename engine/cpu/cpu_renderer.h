// The CPU backend: the reference every other path must match, and the fallback without a GPU.
// A frame runs in three parallel stages on a persistent thread pool:
//   1. vertex stage: d = R (v - eye) for every vertex (vectorised);
//   2. triangle stage: chunks of triangles are culled, clipped, projected, set up and binned
//      into screen tiles, each chunk keeping its triangles in input order;
//   3. raster stage: threads take whole tiles, so no pixel is ever shared and nothing is
//      locked; a tile walks the chunks in order, so the picture is the same for any thread
//      count and equals drawing the triangles one by one. A tile is drawn deferred: first
//      coverage and depth for all its triangles, recording the winner of each pixel, then
//      one shading per pixel (see cpu/visibility/tile_buffers.h).
#pragma once

#include "asset/scene.h"
#include "core/frame.h"
#include "core/frame_plan.h"
#include "core/shading.h"
#include "core/transform.h"
#include "core/triangle_setup.h"
#include "core/triangle_stage.h"
#include "cpu/triangle/set_up_triangles.h"
#include "cpu/vertex/vertex_stage.h"
#include "cpu/visibility/tile_buffers.h"
#include "host/lazy_vector.h"
#include "host/thread_pool.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace facet {

struct CpuFrameStats {
    std::size_t trianglesIn = 0;
    std::size_t trianglesClipped = 0; // crossed the near plane or the guard band
    std::size_t trianglesCulled = 0;  // outside the frustum, back-facing, degenerate, non-finite or covering no pixel
    // Fragments that passed the depth test (each written to the depth buffer; with deferred
    // shading only a pixel's last one is shaded, so this counts overdraw as well).
    std::size_t fragmentsShaded = 0;
    double vertexMs = 0.0, triangleMs = 0.0, rasterMs = 0.0;
};

class CpuRenderer {
public:
    // threads <= 0: one per hardware thread.
    explicit CpuRenderer(int threads = 0);

    int threadCount() const { return pool_.threadCount(); }

    // Validates the scene's meshes and builds their material table: once per scene, whose
    // meshes must outlive their use here, unchanged (its instances are read each frame).
    // Throws facet::Error for an invalid mesh.
    void setScene(const Scene& scene);
    // What this backend draws: every setting facet has.
    BackendLimits limits() const { return {}; }

    // Renders the scene into `target` (cleared first), as `plan` (planFrame, for this target's
    // size) says. Scratch buffers grow with the scene and are reused from frame to frame.
    // `given`: camera-space positions from another vertex stage (the GPU's), laid out as
    // frameInstances places the instances, used instead of this renderer's own. `outputs`: the
    // outputs asked for beside the picture (core/outputs.h), which `plan` was made for.
    CpuFrameStats render(const ViewParams& view, const FramePlan& plan, const FrameView& target,
                         const CameraSpacePositions& given = {}, const FrameOutputs& outputs = {});

private:
    struct Chunk;
    struct ChunkLayout;
    struct TileScratch;

    CpuFrameStats renderFrame(const ViewParams& view, const FramePlan& plan, const FrameView& target,
                              const CameraSpacePositions& given, const FrameOutputs& outputs);
    // The stages of a frame (see the top of this file).
    void vertexStage(const FramePlan& plan, const CameraSpacePositions& given);
    // The mesh of drawn instance k as its stages read it: its normals and tangents in world
    // space where it is posed (posedDirections wrote them).
    MeshView instanceMesh(const InstanceDraw& draw, const FramePlan& plan);
    void posedDirections(const InstanceDraw& draw, const FramePlan& plan, std::size_t begin, std::size_t end);
    // Set-up triangles keep what `plan` says the stages after them read.
    std::size_t triangleStage(const FramePlan& plan);
    // The set-up and binning take their inputs by value: the chunk's stores cannot alias a
    // local, so the compiler keeps them in registers. `batched`: the set-up's front takes eight
    // triangles at a time (cpu/triangle/set_up_front.h).
    static void setupChunk(Chunk& chunk, TriangleStageInput input, TileGrid grid, std::size_t begin, std::size_t end,
                           ChunkLayout layout, bool batched);
    static void binChunk(Chunk& chunk, TileGrid grid);
    std::size_t rasterStage(const RasterContext& context, const FramePlan& plan, std::size_t chunkCount);
    static void clearTile(const RasterContext& context, const TileRect& rect);
    // A tile's outputs from a visibility pass of their own (core/outputs.h), for the tiles whose
    // drawing leaves no one-sample ids to read them from.
    void drawTileOutputs(const RasterContext& context, std::uint32_t tile, TilePlace place, TileRect rect,
                         std::size_t chunkCount, TileScratch& scratch);
    std::size_t drawTile(RasterContext context, std::uint32_t tile, TilePlace place, TileRect rect,
                         std::size_t chunkCount, TileScratch& scratch);
    // drawTile for the debug views that colour pixels by their winners (their pass 2: cpu/shading/view_tile.h).
    std::size_t drawTileView(RasterContext context, std::uint32_t tile, TilePlace place, TileRect rect,
                             std::size_t chunkCount, TileScratch& scratch);
    bool tileDrawsForward(const RasterContext& context, std::uint32_t tile, std::size_t chunkCount) const;

    // The most set-up triangles one mesh triangle gives: its clipped polygon's fan.
    static constexpr std::size_t kMaxFanTriangles = kMaxClippedVertices - 2;

    // What a chunk keeps beside each set-up triangle in this frame.
    struct ChunkLayout {
        bool colors;     // vertex colours, tangents (FramePlan::sideRecords)
        bool sources;    // its mesh triangle (FramePlan::sources)
        bool attributes; // its attributes (FramePlan::attributes)
    };

    // A cache line of its own: each is written by the thread setting it up, and chunks sharing a
    // line made the threads of the triangle stage wait on each other.
    struct alignas(64) Chunk {
        // Set-up triangles in input order: the first `count` elements of each array are this
        // frame's (the arrays only grow, so the storage is reused from frame to frame).
        // Lazy: sized for every triangle of the chunk, but only the drawn ones are written, so
        // only their pages become resident.
        SetUpTriangles triangles;            // with their attributes in frames whose shading reads them
        LazyVector<std::uint32_t> materials; // material of each
        LazyVector<TriangleColors> colors;   // vertex colours, tangents of each (meshes with either only)
        LazyVector<TileSpan> spans;          // tiles each touches
        LazyVector<std::uint32_t> sources;   // mesh triangle of each (views and instance ids only)
        std::size_t count = 0;
        std::vector<std::uint32_t> binOffsets;  // tile t's triangles: binTriangles[offsets[t], offsets[t+1])
        LazyVector<std::uint32_t> binTriangles;
        std::vector<std::uint32_t> binFill; // scratch for filling the bins
        CpuFrameStats stats;

        void makeRoom(std::size_t size, ChunkLayout layout);
        void prepare(std::size_t tileCount, std::size_t size, ChunkLayout layout);
    };

    ThreadPool pool_;
    std::vector<float> dx_, dy_, dz_; // camera-space positions from the vertex stage
    // Per vertex, also from the vertex stage: the clip planes it is outside of (or kNonFinite),
    // and its projection when it is inside them all. A vertex is shared by about six
    // triangles, and most triangles need no clipping, so they reuse these as they are.
    std::vector<std::uint8_t> outside_;  // one per vertex, and 3 bytes more (setupFront8)
    LazyVector<ScreenVertex> projected_; // lazy: written for the vertices inside the planes only
    // Posed instances' normals and tangents in world space, per vertex as dx_ (where a frame reads them).
    std::vector<float> nx_, ny_, nz_, tx_, ty_, tz_, tw_;
    std::vector<Chunk> chunks_;
    // Which drawn instance, and which of its triangles, each chunk sets up.
    struct ChunkRange {
        std::size_t draw, begin, end;
    };
    std::vector<ChunkRange> chunkRanges_;
    const Scene* scene_ = nullptr;          // setScene's
    std::vector<ShadeMaterial> materials_;  // its meshes' materials, one table, as shading reads them (setScene)
    std::vector<std::uint32_t> materialBases_; // each mesh's first entry in materials_
    FrameInstances frame_;                  // this frame's drawn instances (frameInstances)
    std::vector<TriangleStageInput> inputs_; // the triangle stage's input for each of them
    // Set-up triangle i of `chunk` as the raster stage's passes take it.
    TileTriangle tileTriangle(const Chunk& chunk, std::uint32_t i) const {
        return TileTriangle{&chunk.triangles.triangle(i), &chunk.triangles.attributes(i),
                            &materials_[chunk.materials[i]]};
    }
    SrgbTable srgbTable_ = makeSrgbTable(); // the lit model's sRGB decode, looked up
    bool forwardMaterials_ = false; // this frame's FramePlan::forwardMaterials: tiles may draw forward
    std::vector<std::uint32_t> tileOrder_; // raster stage: tiles, busiest first
    std::vector<std::uint32_t> tileWork_;  // triangles binned to each tile
    // Per thread, for the tile it is drawing: its visibility, depth and colour buffers
    // (kTileBufferElements each), the triangles its ids name and, for a mesh with vertex colours,
    // theirs. All grow once and are reused.
    // A cache line of its own, like Chunk: each thread writes its own.
    struct alignas(64) TileScratch {
        std::vector<std::uint32_t> ids;
        std::vector<float> depth;
        std::vector<std::uint32_t> color;
        std::vector<TileTriangle> triangles;
        std::vector<std::uint32_t> sampleCounts; // multisampling: per pixel, the samples of each layer
        std::vector<float> farthest; // the tile's block depth bounds (TileBuffers::farthest)
        std::size_t fragments = 0; // passed the depth test in this frame's tiles
        std::vector<const TriangleColors*> colors; // of each of `triangles` (meshes with colours or tangents only)
        std::vector<std::uint32_t> sources; // mesh triangle of each of `triangles` (views and instance ids only)
        std::vector<std::uint32_t> counts;  // per pixel, as ids: fragments that passed (the overdraw view only)
        bool outputsWritten = false; // the tile just drawn wrote its outputs (from its one-sample ids)
    };
    std::vector<TileScratch> tileScratch_;
};

} // namespace facet
