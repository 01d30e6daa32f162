// The debug views (core/view_shading.h) in the OpenGL reference, drawn the way facet draws them
// so the backends can be compared: normals, uv and triangles (by gl_PrimitiveID) from a
// fragment shader in place of the shading; overdraw by additive blending with the depth test
// on, so each fragment that passes adds one; wireframe as a second pass over the shaded
// picture, its edge distances from a geometry shader; depth from the depth buffer read back.
// Tiles, facet's own binning, has no OpenGL counterpart: GlReferenceRenderer::limits() refuses
// it for the frame plan. Internal to engine/gl.
#pragma once

#include "core/frame.h"
#include "core/names.h"
#include "core/transform.h"
#include "gl/gl_objects.h"

#include <cstddef>

namespace facet {

// Whether the reference draws its shaded picture in `view` (shaded, depth, wireframe).
bool glViewDrawsShaded(View view);

// The views' shader programs (made with the context current; deleted likewise).
class GlViewPrograms {
public:
    // `vertexShader`: the reference's own, so positions and depths are the shaded pass's bits.
    explicit GlViewPrograms(const char* vertexShader);

    // Draws `view`'s pass, if it has one, over what the frame holds: the mesh's `triangleCount`
    // triangles from `vertexArray` in one draw, in mesh order.
    void draw(View view, const ViewParams& camera, const FrameView& target, std::size_t triangleCount,
              GLuint vertexArray);

    void abandon() noexcept;

private:
    GlObject winners_, wireframe_;
};

// After read-back: what the view drew as data turned into its colours, as facet does
// (overdraw's counts, the depth view's depths).
void finishGlView(View view, const FrameView& target, const ViewParams& camera);

} // namespace facet
