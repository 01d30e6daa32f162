#include "core/frame_plan.h"

#include "core/error.h"
#include "core/multisample.h"
#include "core/quad_shading.h"
#include "core/view_shading.h"

namespace facet {

ModelFacts modelFacts(const Mesh& mesh, const ShadeMaterial* materials, std::size_t count) {
    ModelFacts facts;
    facts.vertexColors = mesh.hasVertexColors();
    facts.tangents = mesh.hasTangents();
    facts.textured = anyTextured(materials, count);
    for (std::size_t i = 0; i < count; ++i) {
        facts.blended = facts.blended || translucent(materials[i]);
        facts.cutouts = facts.cutouts || materials[i].cutout;
    }
    return facts;
}

void FramePlan::requireTarget(const FrameView& target) const {
    facet::requireTarget(target);
    if (target.width != width || target.height != height)
        throw Error("the frame was planned for " + std::to_string(width) + "x" + std::to_string(height) +
                    " pixels, not the target's " + std::to_string(target.width) + "x" + std::to_string(target.height));
}

namespace {

// The settings' refusals, each naming the setting: what no backend draws, then what this one
// cannot.
void checkSettings(const RenderSettings& settings, const BackendLimits& limits) {
    if (const std::string problem = sampleCountProblem(settings.msaa, settings.view); !problem.empty())
        throw Error(problem);
    if (settings.msaa > limits.maxSamples)
        throw Error("msaa " + std::to_string(settings.msaa) + " is beyond " + limits.name + ", which offers at most " +
                    std::to_string(limits.maxSamples) + " samples");
    if (settings.view == View::Tiles && !limits.tilesViewRefusal.empty()) throw Error(limits.tilesViewRefusal);
}

} // namespace

FramePlan planFrame(const RenderSettings& settings, const ModelFacts& model, const ViewParams& view, int width,
                    int height, const BackendLimits& limits, const FrameOutputs& outputs) {
    facet::requireTarget(width, height, true);
    checkSettings(settings, limits);
    FramePlan plan;
    plan.settings = settings;
    plan.width = width;
    plan.height = height;
    plan.grid = makeTileGrid(width, height);
    plan.planes = makeClipPlanes(view, width, height);
    plan.viewForward = viewForward(view);
    plan.lit = settings.shading == ShadingModel::Lit;
    plan.rig = lightRig(settings.lights, plan.viewForward);
    plan.sampleReach = sampleReach(settings.msaa);
    plan.cullBack = settings.cull == CullMode::Back;
    plan.tangents = plan.lit && model.tangents; // tangents serve only the lit model's normal maps
    plan.sideRecords = model.vertexColors || plan.tangents;
    // Metric depth and the normal output interpolate the corners' 1 / z and normals; an
    // instance id is found from the winner's place in the draw order.
    plan.attributes = shadingReadsAttributes(model.textured, settings, plan.sideRecords) || outputs.metricDepth ||
                      outputs.normal;
    plan.sources = viewNeedsSources(settings.view) || outputs.instance;
    plan.forwardMaterials = plan.lit && (model.blended || (settings.msaa > 1 && model.cutouts)); // drawsForward
    plan.shadesWinners = viewShadesWinners(settings.view);
    plan.finishesFrame = viewFinishesFrame(settings.view);
    plan.countsFragments = viewCountsFragments(settings.view);
    return plan;
}

} // namespace facet
