// Draws a model once with one backend, as the front door (engine/renderer.cpp) would: the
// backend takes the model as a one-instance scene (setScene), the frame is planned for the backend's limits
// (core/frame_plan.h), then rendered. For the tests that speak to a backend directly.
#pragma once

#include "asset/model.h"
#include "asset/scene.h"
#include "core/frame_plan.h"
#include "renderer.h"
#include "test_support.h"

namespace facet::test {

// The frame plan of `settings` for `model` into `target`, with facet's own pipelines' limits.
inline FramePlan planFor(const Model& model, const ViewParams& view, const RenderSettings& settings,
                         const FrameView& target) {
    return planFrame(settings, modelFacts(model), view, target.width, target.height);
}

// A frame plan for the tests that walk or shade a tile without a whole frame: `settings` seen
// along `viewForward` (the lit model's rig made for it), quads paired from row -quadRowOffset
// (the plan's size is not the tests' target's: nothing they call reads it).
inline FramePlan tilePlan(const RenderSettings& settings, glm::vec3 viewForward, int quadRowOffset) {
    FramePlan plan = planFrame(settings, ModelFacts{}, ViewParams{}, kTileSize, kTileSize + quadRowOffset);
    plan.viewForward = viewForward;
    plan.rig = lightRig(settings.lights, viewForward);
    return plan;
}

// `given`: what the backend's render takes after the target (camera-space positions).
template <class Backend, class... Given>
auto drawWith(Backend&& backend, const Model& model, const ViewParams& view, const RenderSettings& settings,
              const FrameView& target, const Given&... given) {
    const Scene scene = sceneOf(model); // the backend holds it until this returns: render once
    backend.setScene(scene);
    const FramePlan plan =
        planFrame(settings, modelFacts(model), view, target.width, target.height, backend.limits());
    return backend.render(view, plan, target, given...);
}

// `scene` drawn through the front door by `backend` (two CPU threads, where it has threads).
inline Frame drawnThrough(Backend backend, const Scene& scene, const ViewParams& view, const RenderSettings& settings,
                          int width, int height) {
    RendererOptions o;
    o.backend = backend;
    if (backend != Backend::Gl) o.threads = 2;
    Renderer renderer(o);
    renderer.setScene(scene);
    Frame frame(width, height);
    renderer.render(view, settings, frame.view());
    return frame;
}

} // namespace facet::test
