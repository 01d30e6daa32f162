// Forward drawing, for the lit model's blended materials (d < 1, see blends() in core/shading.h):
// where a tile holds a blended triangle, its triangles are drawn one by one in draw order, each
// fragment shaded as it passes the depth (and alpha) test, opaque ones writing colour and
// depth, blended ones blended over the colour without writing depth: what OpenGL does with the
// reference's state. The CPU's forward tiles and the CUDA raster thread share this step, so
// they draw the same bytes.
#pragma once

#include "core/coverage_walk.h"
#include "core/quad_shading.h"

namespace facet {

// A triangle as forward drawing needs it.
struct ForwardTriangle {
    const ScreenTriangle* tri;
    const TriangleAttributes* attributes;
    const ShadeMaterial* material;
    const TriangleColors* colors; // null for a mesh without vertex colours
};

// The lanes `keep` of quad (qx, qy) that passed the depth test, at depths `value`, at sample
// `sample` (0 without multisampling): alpha-tested (or alpha-to-coverage'd) where the material
// is cut out, then drawn into color[k] and (unless blended) depth[k]: with multisampling,
// sample `sample`'s own colour and depth, so blending is per sample. The fragment is the pixel
// centre's whatever the sample.
FACET_HD void drawForwardLanes(const ForwardTriangle& t, const FramePlan& plan, int qx, int qy, unsigned keep,
                               const Quad<float>& value, std::uint32_t* const color[4], float* const depth[4],
                               int sample = 0) {
    const RenderSettings& settings = plan.settings;
    const ShadeMaterial& m = *t.material;
    if (m.cutout && settings.shading == ShadingModel::Lit)
        keep = cutoutSampleMask({*t.tri, *t.attributes}, m, settings, qx, qy, keep, sample);
    const bool blended = blends(m, settings);
    for (int k = 0; k < 4; ++k) {
        if (!(keep >> k & 1u)) continue;
        *color[k] = drawQuadPixel({*t.tri, *t.attributes}, m, plan, qx, qy, k, t.colors, *color[k]);
        if (!blended) *depth[k] = value.v[k];
    }
}

} // namespace facet
