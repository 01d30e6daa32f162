// A frame's decisions, made once. The front door (engine/renderer.cpp) builds a FramePlan from
// the settings, what the model holds and the target's size, before any backend runs: every
// setting is checked there, and one a backend cannot honour is refused there, naming the
// setting and why; every fact the stages derive from the settings is computed there. Backends
// and kernel parameters read the plan; none derives these again, so the CPU and the CUDA
// pipeline cannot disagree about, say, whether set-up triangles keep their attributes.
#pragma once

#include "core/clip.h"
#include "core/frame.h"
#include "core/lighting.h"
#include "core/mesh.h"
#include "core/multisample.h"
#include "core/shading.h"
#include "core/tiles.h"
#include "core/transform.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace facet {

// What a frame plan needs to know of the model: found once per model (Renderer::setModel).
struct ModelFacts {
    bool vertexColors = false; // the mesh has vertex colours
    bool tangents = false;     // the mesh has tangents (the lit model's normal maps read them)
    bool textured = false;     // some material has a texture (map_Kd)
    bool blended = false;      // some material is see-through (d < 1): blended under the lit model
    bool cutouts = false;      // some material is a cut-out (ShadeMaterial::cutout)
};

ModelFacts modelFacts(const Mesh& mesh, const ShadeMaterial* materials, std::size_t count);

// What a backend can draw, for the plan's refusals. The defaults are facet's own pipelines'.
struct BackendLimits {
    int maxSamples = kMaxSamples; // the most samples per pixel it offers
    std::string name = "facet";   // how a refusal names it, e.g. "this OpenGL (llvmpipe ...)"
    std::string tilesViewRefusal; // why it cannot draw the tiles view; empty where it can
};

struct FramePlan {
    RenderSettings settings; // as asked, every value checked
    int width = 0, height = 0; // the target's size
    TileGrid grid{};           // the target's tiles (core/tiles.h)
    ClipPlanes planes{};       // the camera's clip planes at this size, guard band included
    glm::vec3 viewForward{};   // the camera's forward axis (the headlight's direction)
    LightRig rig{};            // the lit model's lights as this camera sees them (lightRig)
    std::int32_t sampleReach = 0; // how far a pixel's samples reach past its centre (sampleReach)
    bool cullBack = false;        // back faces are culled
    bool lit = false;             // the lit model shades the frame
    // What the triangle stage keeps of each set-up triangle, for the stages after it:
    bool tangents = false;       // it reads the mesh's tangents (the lit model's normal maps only)
    bool sideRecords = false;    // vertex colours or tangents beside each set-up triangle
    bool attributes = false;     // its corners' attributes: the frame's shading reads them
    bool sources = false;        // its place in the draw order: the view colours by it, or instance ids are asked
    bool forwardMaterials = false; // some material is drawn forward: a tile holding one is (drawsForward)
    // The debug view (core/view_shading.h):
    bool shadesWinners = false;   // pixels coloured by their winners, not shaded
    bool finishesFrame = false;   // the finished frame rewritten pixel by pixel
    bool countsFragments = false; // depth-test passes counted per pixel

    int samples() const { return settings.msaa; }
    // Throws facet::Error unless `target` has the size the plan was made for.
    void requireTarget(const FrameView& target) const;
};

// The plan of one frame: throws facet::Error naming the setting and the reason for an empty
// target, a sample count facet or the backend cannot draw, or a view the backend cannot draw.
// `outputs`: those the frame writes beside its picture (only which are given is read).
FramePlan planFrame(const RenderSettings& settings, const ModelFacts& model, const ViewParams& view, int width,
                    int height, const BackendLimits& limits = {}, const FrameOutputs& outputs = {});

} // namespace facet
