// Bump mapping's load-time half: height maps (MTL map_Bump / bump) turned into the tangent-space
// normal maps the shading reads (core/lighting.h's perturbNormal), and the mesh's tangents.
#pragma once

#include "asset/image.h"
#include "asset/model.h"

namespace facet {

// A height map (an image in file order, its height per texel the mean of R, G and B in [0, 1])
// as a tangent-space normal map: per texel, by central differences with wrap-around (the map
// tiles, as GL_REPEAT samples it), dh/du = (h[x+1] - h[x-1]) / 2 and dh/dv likewise up the
// picture, and the normal normalize(-bm dh/du, -bm dh/dv, 1) stored as rgb = xyz * 0.5 + 0.5.
// The texel scale: heights are measured in texels, the full range [0, 1] being `bumpScale`
// (the MTL's -bm) texel widths high; a negative -bm turns bumps into dents.
Image heightToNormalMap(const Image& heights, float bumpScale);

// Prepares a loaded model for bump mapping: where a material used by some triangle has a bump
// map, generates the mesh's tangents (generateTangents) when it has texture coordinates and
// normals, and otherwise warns (naming `file`) that the material is drawn flat. Models without
// bump-mapped materials are left as they are (no tangents: nothing for the renderers to carry).
void prepareBumpMapping(Model& model, const std::string& file);

} // namespace facet
