// The raster section's scenes: the bundled default scene, a grid of about N small triangles
// tiling the view, and a few hundred large overlapping quads; two fill-bound ones, a close
// view over the default scene's textured plaza and a textured sheet of triangles of 20 to 100
// pixels; and instancing's pair: N instances of one 10k-triangle part at N poses, and the same
// triangles merged into one mesh; each with its camera.
#pragma once

#include "asset/model.h"
#include "asset/scene.h"
#include "core/transform.h"

#include <cstddef>
#include <string>

namespace facet::bench {

enum class SceneKind { DefaultObj, Grid, Quads, PlazaClose, TexturedSheet, Instances, Merged };

struct SceneSpec {
    std::string name;
    SceneKind kind = SceneKind::DefaultObj;
    std::size_t count = 0; // triangles of a grid, quads of Quads, instances of Instances and Merged
};

Scene makeScene(const SceneSpec& spec);

// The default scene framed as facet-render frames it, or (PlazaClose) from low over the plaza;
// generated scenes seen from (0, 0, 2).
ViewParams sceneView(const SceneSpec& spec, const Scene& scene, float aspect);

} // namespace facet::bench
