#include "gl/gl_views.h"

#include "core/error.h"
#include "core/view_shading.h"

#include <string>

namespace facet {

namespace {

// core/view_shading.h's normalColor, uvColor and triangleColor, and a count of one for overdraw.
constexpr const char* kWinnersFragmentShader = R"(#version 330 core
in vec2 uv;
in vec3 worldNormal;
uniform int view; // 1 normals, 2 uv, 3 triangles, 4 overdraw
out vec4 fragColor;
uint triangleColor(uint index) {
    uint h = index + 1u;
    h ^= h >> 16;
    h *= 0x85EBCA6Bu;
    h ^= h >> 13;
    h *= 0xC2B2AE35u;
    h ^= h >> 16;
    return h | 0x404040u;
}
void main() {
    if (view == 1) {
        float len = length(worldNormal);
        vec3 unit = len > 0.0 ? worldNormal / len : vec3(0.0);
        fragColor = vec4((unit + 1.0) * 0.5, 1.0);
    } else if (view == 2) {
        fragColor = vec4(fract(uv), 0.0, 1.0);
    } else if (view == 3) {
        uint c = triangleColor(uint(gl_PrimitiveID));
        fragColor = vec4(float(c & 255u), float((c >> 8) & 255u), float((c >> 16) & 255u), 255.0) / 255.0;
    } else {
        fragColor = vec4(1.0 / 255.0, 0.0, 0.0, 0.0);
    }
}
)";

// Per vertex, its distance in pixels to the opposite edge; interpolated linearly on screen, each
// fragment gets its distances to the three edges (core/view_shading.h's onEdge).
constexpr const char* kWireframeGeometryShader = R"(#version 330 core
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
uniform vec2 viewportSize;
noperspective out vec3 edgeDistance;
void main() {
    vec2 p[3];
    for (int i = 0; i < 3; ++i)
        p[i] = (gl_in[i].gl_Position.xy / gl_in[i].gl_Position.w * 0.5 + 0.5) * viewportSize;
    float area = abs((p[1].x - p[0].x) * (p[2].y - p[0].y) - (p[1].y - p[0].y) * (p[2].x - p[0].x));
    vec3 height = vec3(area / length(p[2] - p[1]), area / length(p[0] - p[2]), area / length(p[1] - p[0]));
    for (int i = 0; i < 3; ++i) {
        gl_Position = gl_in[i].gl_Position;
        gl_PrimitiveID = gl_PrimitiveIDIn;
        edgeDistance = vec3(i == 0 ? height.x : 0.0, i == 1 ? height.y : 0.0, i == 2 ? height.z : 0.0);
        EmitVertex();
    }
    EndPrimitive();
}
)";

constexpr const char* kWireframeFragmentShader = R"(#version 330 core
noperspective in vec3 edgeDistance;
out vec4 fragColor;
void main() {
    if (min(edgeDistance.x, min(edgeDistance.y, edgeDistance.z)) > 0.5) discard;
    fragColor = vec4(0.0, 0.0, 0.0, 1.0);
}
)";

int viewCode(View view) {
    switch (view) {
    case View::Normals: return 1;
    case View::Uv: return 2;
    case View::Triangles: return 3;
    default: return 4;
    }
}

GLint uniform(GLuint program, const char* name) { return glGetUniformLocation(program, name); }

// The reference vertex shader's camera uniforms, as GlReferenceRenderer sets them.
void setCamera(GLuint p, const ViewParams& view) {
    const glm::mat3& r = view.rotation;
    const double n = view.nearPlane, f = view.farPlane;
    FACET_GL(glUniform3f(uniform(p, "eye"), view.eye.x, view.eye.y, view.eye.z));
    FACET_GL(glUniform3f(uniform(p, "right"), r[0][0], r[1][0], r[2][0]));
    FACET_GL(glUniform3f(uniform(p, "up"), r[0][1], r[1][1], r[2][1]));
    FACET_GL(glUniform3f(uniform(p, "forward"), r[0][2], r[1][2], r[2][2]));
    FACET_GL(glUniform2f(uniform(p, "projection"), view.focus / view.aspect, view.focus));
    FACET_GL(glUniform2f(uniform(p, "principal"), view.principal.x, view.principal.y));
    FACET_GL(glUniform2f(uniform(p, "depthMap"), float((f + n) / (f - n)), float(-2.0 * f * n / (f - n))));
}

} // namespace

bool glViewDrawsShaded(View view) { return view == View::Shaded || view == View::Depth || view == View::Wireframe; }

GlViewPrograms::GlViewPrograms(const char* vertexShader)
    : winners_(buildGlProgram(vertexShader, kWinnersFragmentShader, "the GL reference's view shaders")),
      wireframe_(buildGlProgram(vertexShader, kWireframeFragmentShader, "the GL reference's wireframe shaders",
                                kWireframeGeometryShader)) {}

void GlViewPrograms::draw(View view, const ViewParams& camera, const FrameView& target, std::size_t triangleCount,
                          GLuint vertexArray) {
    if (view == View::Shaded || view == View::Depth) return;
    const bool wire = view == View::Wireframe;
    const GLuint p = wire ? wireframe_.get() : winners_.get();
    FACET_GL(glUseProgram(p));
    setCamera(p, camera);
    if (wire) {
        // Over the shaded pass, where the triangle won: "less or equal" its own depth, without
        // writing it. With a geometry shader llvmpipe's depths can differ from the shaded pass's by
        // a few units in the last place, so the pass is offset toward the eye by 8 units (about
        // 5e-7 of window depth near the far plane): enough for every winner, too little for an
        // edge behind the surface to show through.
        FACET_GL(glUniform2f(uniform(p, "viewportSize"), float(target.width), float(target.height)));
        FACET_GL(glDepthFunc(GL_LEQUAL));
        FACET_GL(glDepthMask(GL_FALSE));
        FACET_GL(glEnable(GL_POLYGON_OFFSET_FILL));
        FACET_GL(glPolygonOffset(0.0f, -8.0f));
    } else {
        FACET_GL(glUniform1i(uniform(p, "view"), viewCode(view)));
    }
    if (view == View::Overdraw) { // counts from 0, one per fragment that passes the depth test
        FACET_GL(glClearColor(0.0f, 0.0f, 0.0f, 0.0f));
        FACET_GL(glClear(GL_COLOR_BUFFER_BIT));
        FACET_GL(glEnable(GL_BLEND));
        FACET_GL(glBlendEquation(GL_FUNC_ADD));
        FACET_GL(glBlendFunc(GL_ONE, GL_ONE));
    }
    FACET_GL(glBindVertexArray(vertexArray));
    FACET_GL(glDrawElements(GL_TRIANGLES, GLsizei(triangleCount * 3), GL_UNSIGNED_INT, nullptr));
}

void GlViewPrograms::abandon() noexcept {
    winners_.abandon();
    wireframe_.abandon();
}

void finishGlView(View view, const FrameView& target, const ViewParams& camera) {
    if (view == View::Overdraw) {
        const std::size_t n = std::size_t(target.width) * std::size_t(target.height);
        for (std::size_t i = 0; i < n; ++i) target.color[i] = overdrawColor(target.color[i] & 0xFFu);
    }
    if (view == View::Depth) finishView(view, target, camera, nullptr);
}

} // namespace facet
