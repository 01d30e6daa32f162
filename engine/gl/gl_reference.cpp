#include "gl/gl_reference.h"

#include "asset/scene.h"
#include "core/error.h"
#include "core/names.h"
#include "core/multisample.h"
#include "gl/gl_context.h"
#include "gl/gl_objects.h"
#include "gl/gl_views.h"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <optional>
#include <vector>

namespace facet {

namespace {

// d = R (v - eye) with the products summed in facet::rotate's order; `precise` (where the
// compiler knows it) forbids fusing into FMA and reassociating, as -ffp-contract=off does on
// the host. gl_Position's w = d.z and z chosen so GL's window depth is facet::windowDepth.
constexpr const char* kVertexShader = R"(#version 330 core
#extension GL_ARB_gpu_shader5 : enable
#ifdef GL_ARB_gpu_shader5
#define PRECISE precise
#else
#define PRECISE
#endif
layout(location = 0) in vec3 position;
layout(location = 1) in vec2 texCoord;
layout(location = 2) in vec3 normal;
layout(location = 3) in vec3 vertexColor;
layout(location = 4) in vec4 tangent;
uniform vec3 eye;
uniform vec3 right;
uniform vec3 up;
uniform vec3 forward;
uniform vec2 projection; // (focus / aspect, focus)
uniform vec2 principal;  // ViewParams::principal, times w = d.z so the divide adds it
uniform vec2 depthMap;   // z_clip = depthMap.x d.z + depthMap.y
uniform bool posed;         // an instance's pose moves its normals and tangents (core/instances.h)
uniform mat3 normalMatrix;  // the pose's inverse transpose
uniform mat3 tangentMatrix; // the pose's 3x3
uniform float handedness;   // -1 for a mirroring pose
out vec2 uv;
out vec3 worldNormal;
out vec3 color3;
out vec4 worldTangent;
void main() {
    PRECISE vec3 s = position - eye;
    PRECISE vec3 d = vec3(right.x * s.x + right.y * s.y + right.z * s.z,
                          up.x * s.x + up.y * s.y + up.z * s.z,
                          forward.x * s.x + forward.y * s.y + forward.z * s.z);
    gl_Position = vec4(projection.x * d.x + principal.x * d.z, projection.y * d.y + principal.y * d.z,
                       depthMap.x * d.z + depthMap.y, d.z);
    uv = texCoord;
    color3 = vertexColor;
    if (posed) { // facet::posedDirection
        vec3 n = normalMatrix * normal, t = tangentMatrix * tangent.xyz;
        worldNormal = dot(n, n) > 0.0 ? n * (1.0 / sqrt(dot(n, n))) : n;
        worldTangent = vec4(dot(t, t) > 0.0 ? t * (1.0 / sqrt(dot(t, t))) : t, tangent.w * handedness);
    } else {
        worldNormal = normal;
        worldTangent = tangent;
    }
}
)";

// facet::shadeFragment, in the same [0, 255] units.
constexpr const char* kFragmentShader = R"(#version 330 core
in vec2 uv;
in vec3 worldNormal;
in vec3 color3;
uniform sampler2D diffuseTexture;
uniform bool textured;
uniform vec4 color; // Kd in [0, 255], alpha 255
uniform bool vertexColors;
uniform bool headlight;
uniform vec3 viewForward;
uniform float ambient;
out vec4 fragColor;
void main() {
    vec4 c = textured ? texture(diffuseTexture, uv) * 255.0 : color;
    if (vertexColors) c.rgb *= color3;
    if (headlight) {
        float len = length(worldNormal);
        float lambert = len > 0.0 ? abs(dot(worldNormal, viewForward)) / len : 1.0;
        c.rgb *= ambient + (1.0 - ambient) * lambert;
    }
    fragColor = c / 255.0;
}
)";

// The multisampled depth resolved as facet resolves it (core/multisample.h, resolveDepth): each
// pixel's nearest sample, drawn by one triangle over the whole target.
constexpr const char* kDepthResolveVertexShader = R"(#version 330 core
void main() {
    vec2 corner = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
    gl_Position = vec4(corner, 0.0, 1.0);
}
)";
constexpr const char* kDepthResolveFragmentShader = R"(#version 330 core
uniform sampler2DMS depthSamples;
uniform int samples;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    float nearest = texelFetch(depthSamples, p, 0).r;
    for (int s = 1; s < samples; ++s) nearest = min(nearest, texelFetch(depthSamples, p, s).r);
    gl_FragDepth = nearest;
}
)";

// facet::shadeLitFragment (core/lighting.h, core/quad_shading.h's litSurface): colour maps are
// sRGB textures (decoded before filtering), the framebuffer is sRGB (encoded after), lights in
// linear light; a light with zero radiance adds nothing, as one facet skips.
constexpr const char* kLitFragmentShader = R"(#version 330 core
in vec2 uv;
in vec3 worldNormal;
in vec3 color3;
in vec4 worldTangent;
uniform sampler2D diffuseMap;   // sRGB
uniform sampler2D specularMap;  // sRGB
uniform sampler2D shininessMap; // linear data
uniform sampler2D emissionMap;  // sRGB
uniform sampler2D alphaMap;     // linear data
uniform sampler2D bumpMap;      // linear data: a tangent-space normal map
uniform bool hasDiffuseMap, hasSpecularMap, hasShininessMap, hasEmissionMap, hasAlphaMap;
uniform bool hasBumpMap;
uniform bool alphaMapUsesAlpha; // else its red
uniform bool cutout;            // the alpha test at alphaCutoff
uniform float alphaCutoff;
uniform bool alphaToCoverage;   // a cut-out's coverage from its alpha (GL_SAMPLE_ALPHA_TO_COVERAGE) instead
uniform vec3 kd, ka, ks, ke; // linear
uniform float ns, opacity;
uniform int illumination;
uniform bool vertexColors;
uniform vec3 viewForward;
uniform vec3 headlight;      // radiance
uniform vec3 ambientLight;   // radiance
uniform vec3 lightDirection[3];
uniform vec3 lightRadiance[3];
// glTF's metallic-roughness materials: facet::pbrFragment (core/pbr.h).
uniform bool pbr;
uniform float metallic, roughness, occlusionStrength, normalScale;
uniform bool alphaBlend;
uniform sampler2D metalRoughMap; // linear data: G roughness, B metalness
uniform sampler2D occlusionMap;  // linear data: R
uniform bool hasMetalRoughMap, hasOcclusionMap;
out vec4 fragColor;
const float kPi = 3.14159265358979;
vec3 schlickFresnel(vec3 f0, float vh) {
    float m = clamp(1.0 - vh, 0.0, 1.0);
    float m2 = m * m;
    return f0 + (vec3(1.0) - f0) * (m2 * m2 * m);
}
float ggxDistribution(float a2, float nh) {
    float f = nh * nh * (a2 - 1.0) + 1.0;
    return a2 / (kPi * f * f);
}
float smithVisibility(float a2, float nl, float nv) {
    float gv = nl * sqrt(nv * nv * (1.0 - a2) + a2);
    float gl = nv * sqrt(nl * nl * (1.0 - a2) + a2);
    float sum = gv + gl;
    return sum > 0.0 ? 0.5 / sum : 0.0;
}
vec3 pbrLight(vec3 n, vec3 v, vec3 l, vec3 radiance, vec3 cDiff, vec3 f0, float a2, float nv) {
    float nl = dot(n, l);
    if (!(nl > 0.0)) return vec3(0.0);
    vec3 h = normalize(l + v);
    vec3 f = schlickFresnel(f0, max(dot(v, h), 0.0));
    vec3 specular = f * (ggxDistribution(a2, max(dot(n, h), 0.0)) * smithVisibility(a2, nl, nv) * kPi);
    return ((vec3(1.0) - f) * cDiff + specular) * radiance * nl;
}
vec3 pbrColor(vec3 base, vec3 n, vec3 emission) {
    float m = metallic, r = roughness, occlusion = 1.0;
    if (hasMetalRoughMap) {
        vec4 t = texture(metalRoughMap, uv);
        r *= t.g;
        m *= t.b;
    }
    if (hasOcclusionMap) occlusion = 1.0 + occlusionStrength * (texture(occlusionMap, uv).r - 1.0);
    vec3 v = -viewForward;
    float nv = max(dot(n, v), 0.0);
    float rc = clamp(r, 0.03, 1.0);
    float a2 = rc * rc * rc * rc;
    vec3 cDiff = base * (1.0 - m);
    vec3 f0 = mix(vec3(0.04), base, m);
    vec3 c = (cDiff + f0) * ambientLight * occlusion + emission;
    c += pbrLight(n, v, v, headlight, cDiff, f0, a2, nv);
    for (int i = 0; i < 3; ++i) c += pbrLight(n, v, lightDirection[i], lightRadiance[i], cDiff, f0, a2, nv);
    return c;
}
float srgbToLinear(float c) { return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4); }
float powShared(float x, float e) { return x > 1e-20 ? pow(x, e) : (e > 0.0 ? 0.0 : 1.0); }
void addLight(inout vec3 diffuse, inout vec3 specular, vec3 n, vec3 l, vec3 toViewer, vec3 radiance, float shininess) {
    float nl = dot(n, l);
    if (!(nl > 0.0)) return;
    diffuse += radiance * nl;
    if (illumination != 2) return;
    vec3 h = normalize(l + toViewer);
    specular += radiance * powShared(max(dot(n, h), 0.0), shininess);
}
// facet::perturbNormal (core/lighting.h).
vec3 perturbNormal(vec3 normal, vec4 tangent, vec3 mapped) {
    float nl = length(normal);
    if (!(nl > 0.0)) return normal;
    vec3 n = normal / nl;
    vec3 along = tangent.xyz - n * dot(n, tangent.xyz);
    float tl = length(along);
    if (!(tl > 1e-6)) return normal;
    vec3 t = along / tl;
    vec3 b = (tangent.w < 0.0 ? -1.0 : 1.0) * cross(n, t);
    return t * mapped.x + b * mapped.y + n * mapped.z;
}
void main() {
    vec3 d = kd, s = ks, e = ke;
    float shininess = ns, cutAlpha = 1.0;
    if (hasDiffuseMap) {
        vec4 t = texture(diffuseMap, uv);
        d *= t.rgb;
        cutAlpha *= t.a;
    }
    if (hasAlphaMap) {
        vec4 t = texture(alphaMap, uv);
        cutAlpha *= alphaMapUsesAlpha ? t.a : t.r;
    }
    if (cutout && !alphaToCoverage && cutAlpha < alphaCutoff) discard;
    float alpha = opacity * cutAlpha;
    if (hasSpecularMap) s *= texture(specularMap, uv).rgb;
    if (hasShininessMap) shininess *= texture(shininessMap, uv).r;
    if (hasEmissionMap) e *= texture(emissionMap, uv).rgb;
    if (vertexColors) {
        vec3 v = clamp(color3, 0.0, 1.0);
        d *= vec3(srgbToLinear(v.r), srgbToLinear(v.g), srgbToLinear(v.b));
    }
    vec3 c = d + e;
    if (illumination != 0) {
        vec3 toViewer = -viewForward;
        vec3 mapped = texture(bumpMap, uv).rgb * 2.0 - 1.0;
        mapped.xy *= normalScale;
        vec3 normal = hasBumpMap ? perturbNormal(worldNormal, worldTangent, mapped) : worldNormal;
        float len = length(normal);
        vec3 n = len > 0.0 ? normal / len : toViewer;
        if (dot(n, toViewer) < 0.0) n = -n;
        vec3 diffuse = vec3(0.0), specular = vec3(0.0);
        addLight(diffuse, specular, n, toViewer, toViewer, headlight, shininess);
        for (int i = 0; i < 3; ++i) addLight(diffuse, specular, n, lightDirection[i], toViewer, lightRadiance[i], shininess);
        c = pbr ? pbrColor(d, n, e) : d * (ka * ambientLight + diffuse) + s * specular + e;
        if (pbr && !(opacity < 1.0 || alphaBlend)) alpha = 1.0;
    }
    fragColor = vec4(clamp(c, 0.0, 1.0), clamp(alpha, 0.0, 1.0));
}
)";

// The lit program's texture units: map_Kd, map_Ks, map_Ns, map_Ke, map_d, the bump map, glTF's
// metal-roughness and occlusion maps.
constexpr int kLitMaps = 8;

// Interleaved vertex: position, uv, normal, colour, tangent (xyz, handedness).
constexpr int kVertexFloats = 15;

// Binds the context to the calling thread for one call, and unbinds it after, so the
// renderer may be used from another thread next time.
class CurrentScope {
public:
    explicit CurrentScope(const GlContext& context) : context_(context) {
        if (!context_.makeCurrent())
            throw Error("cannot make the OpenGL context (" + context_.kind() + ") current on this thread");
        while (glGetError() != GL_NO_ERROR) {
        } // errors left by others are not ours to report
    }
    ~CurrentScope() { context_.release(); }
    CurrentScope(const CurrentScope&) = delete;
    CurrentScope& operator=(const CurrentScope&) = delete;

private:
    const GlContext& context_;
};

// GL needs level i to be max(1, size >> i) on both axes, or the texture is incomplete and
// samples as black; facet's chain is built that way, but a hand-made one might not be.
void checkMipChain(const Texture& t, std::size_t index, GLint maxSize) {
    const std::string name = "texture " + std::to_string(index) + " (" + t.source + ")";
    if (t.width() > std::uint32_t(maxSize) || t.height() > std::uint32_t(maxSize))
        throw Error(name + " is " + std::to_string(t.width()) + "x" + std::to_string(t.height()) +
                    ", beyond this GL's limit of " + std::to_string(maxSize));
    for (std::size_t l = 0; l < t.levels.size(); ++l) {
        const MipLevel& level = t.levels[l];
        const std::uint32_t w = std::max(1u, t.width() >> l), h = std::max(1u, t.height() >> l);
        if (level.width != w || level.height != h)
            throw Error(name + ": mip level " + std::to_string(l) + " is " + std::to_string(level.width) + "x" +
                        std::to_string(level.height) + ", OpenGL needs " + std::to_string(w) + "x" +
                        std::to_string(h));
        if (std::size_t(level.offset) + std::size_t(w) * h > t.texels.size())
            throw Error(name + ": mip level " + std::to_string(l) + " runs past the texel array");
    }
}

// The mesh (validated by setModel) interleaved for GL: position, uv, normal a vertex (zeros
// for what the mesh lacks).
std::vector<float> interleavedVertices(const Model& model) {
    const Mesh& mesh = model.mesh;
    const std::size_t n = mesh.vertexCount();
    const bool uvs = mesh.hasTexCoords;
    // As the CPU backend: normals count only when there is one per vertex.
    const bool normals = mesh.nx.size() == n && mesh.ny.size() == n && mesh.nz.size() == n;
    const bool colors = mesh.hasVertexColors();

    std::vector<float> vertices(n * kVertexFloats, 0.0f);
    for (std::size_t i = 0; i < n; ++i) {
        float* v = &vertices[i * kVertexFloats];
        v[0] = mesh.px[i];
        v[1] = mesh.py[i];
        v[2] = mesh.pz[i];
        if (uvs) {
            v[3] = mesh.u[i];
            v[4] = mesh.v[i];
        }
        if (normals) {
            v[5] = mesh.nx[i];
            v[6] = mesh.ny[i];
            v[7] = mesh.nz[i];
        }
        v[8] = colors ? mesh.cr[i] : 1.0f;
        v[9] = colors ? mesh.cg[i] : 1.0f;
        v[10] = colors ? mesh.cb[i] : 1.0f;
        if (mesh.hasTangents()) {
            v[11] = mesh.tx[i];
            v[12] = mesh.ty[i];
            v[13] = mesh.tz[i];
            v[14] = mesh.tw[i];
        }
    }
    return vertices;
}

// GL's row 0 is the bottom of the picture, facet's the top: read, then swap rows.
void readBack(const FrameView& target) {
    FACET_GL(glPixelStorei(GL_PACK_ALIGNMENT, 1));
    FACET_GL(glReadPixels(0, 0, target.width, target.height, GL_RGBA, GL_UNSIGNED_BYTE, target.color));
    FACET_GL(glReadPixels(0, 0, target.width, target.height, GL_DEPTH_COMPONENT, GL_FLOAT, target.depth));
    const std::size_t w = std::size_t(target.width);
    for (std::size_t top = 0, bottom = std::size_t(target.height) - 1; top < bottom; ++top, --bottom) {
        std::swap_ranges(target.color + top * w, target.color + (top + 1) * w, target.color + bottom * w);
        std::swap_ranges(target.depth + top * w, target.depth + (top + 1) * w, target.depth + bottom * w);
    }
}

// The triangles [begin, end) of one material, and how to draw them.
struct Segment {
    std::size_t begin = 0, end = 0;
    glm::vec4 color{0.8f * 255.0f, 0.8f * 255.0f, 0.8f * 255.0f, 255.0f}; // the default grey
    GLuint texture = 0;
    std::size_t material = 0; // index into shadeMaterials(model)
};

// Segment s of the mesh: a triangle takes the material of the last range starting at or
// before it (range 0 for those before the first), exactly as the CPU backend assigns them.
Segment segment(const Model& model, const std::vector<GlObject>& textures, std::size_t s) {
    const std::vector<MaterialRange>& ranges = model.mesh.ranges;
    Segment g;
    g.begin = s == 0 || ranges.empty() ? 0 : ranges[s].firstTriangle;
    g.end = s + 1 < ranges.size() ? ranges[s + 1].firstTriangle : model.mesh.triangleCount();
    const std::size_t m = ranges.empty() ? 0 : ranges[s].material;
    g.material = m;
    if (m < model.materials.size()) {
        const Material& mat = model.materials[m];
        g.color = glm::vec4(glm::clamp(mat.diffuse, 0.0f, 1.0f) * 255.0f, 255.0f);
        if (mat.texture >= 0 && std::size_t(mat.texture) < textures.size() && model.mesh.hasTexCoords)
            g.texture = textures[std::size_t(mat.texture)].get();
    }
    return g;
}

// An instance's uniforms: its camera (setCameraUniforms with the instance's view, the headlight
// still along the camera's forward axis), its normal and tangent matrices, and the winding GL
// takes as front (a mirroring pose turns it round, as facet swaps its corners).
void setCameraUniforms(GLuint program, const ViewParams& view);
void setInstanceUniforms(GLuint program, const InstanceDraw& draw, const ViewParams& camera) {
    const auto at = [program](const char* name) { return glGetUniformLocation(program, name); };
    setCameraUniforms(program, draw.view);
    const glm::mat3& r = camera.rotation;
    FACET_GL(glUniform3f(at("viewForward"), r[0][2], r[1][2], r[2][2]));
    FACET_GL(glUniform1i(at("posed"), draw.posed ? 1 : 0));
    FACET_GL(glUniformMatrix3fv(at("normalMatrix"), 1, GL_FALSE, &draw.normalMatrix[0][0]));
    FACET_GL(glUniformMatrix3fv(at("tangentMatrix"), 1, GL_FALSE, &draw.tangentMatrix[0][0]));
    FACET_GL(glUniform1f(at("handedness"), draw.mirrored ? -1.0f : 1.0f));
    FACET_GL(glFrontFace(draw.mirrored ? GL_CW : GL_CCW));
}

// The vertex shader's camera (both programs share it): R's rows as facet::rotate reads them, and
// z_clip = A d.z + B with A = (f + n) / (f - n), B = -2 f n / (f - n), i.e. glm::perspective's
// depth mapping. The program must be in use.
void setCameraUniforms(GLuint program, const ViewParams& view) {
    const auto at = [program](const char* name) { return glGetUniformLocation(program, name); };
    const glm::mat3& r = view.rotation;
    const double n = view.nearPlane, f = view.farPlane;
    FACET_GL(glUniform3f(at("eye"), view.eye.x, view.eye.y, view.eye.z));
    FACET_GL(glUniform3f(at("right"), r[0][0], r[1][0], r[2][0]));
    FACET_GL(glUniform3f(at("up"), r[0][1], r[1][1], r[2][1]));
    FACET_GL(glUniform3f(at("forward"), r[0][2], r[1][2], r[2][2]));
    FACET_GL(glUniform2f(at("projection"), view.focus / view.aspect, view.focus));
    FACET_GL(glUniform2f(at("principal"), view.principal.x, view.principal.y));
    FACET_GL(glUniform2f(at("depthMap"), float((f + n) / (f - n)), float(-2.0 * f * n / (f - n))));
    FACET_GL(glUniform3f(at("viewForward"), r[0][2], r[1][2], r[2][2]));
}

// The GL filters of a facet filter: minification, magnification.
std::pair<GLint, GLint> glFilters(TextureFilter filter) {
    if (filter == TextureFilter::Bilinear) return {GL_LINEAR, GL_LINEAR};
    if (filter == TextureFilter::Trilinear) return {GL_LINEAR_MIPMAP_LINEAR, GL_LINEAR};
    return {GL_NEAREST, GL_NEAREST};
}

} // namespace

struct GlReferenceRenderer::Impl {
    // Every GL object; the context must be current when they are deleted.
    struct Objects {
        GlObject program;
        GlObject framebuffer, colorBuffer, depthBuffer;
        // Multisampling: the framebuffer drawn into (colour renderbuffer, depth texture), resolved
        // into the one above, and the depth resolve's program.
        GlObject sampleFramebuffer, sampleColor, sampleDepth, depthResolve, depthResolveArray;
        std::optional<GlViewPrograms> views; // the debug views' programs, made when first asked for
        GlObject litProgram;
        // One per scene mesh: its vertices, indices and textures.
        struct Mesh {
            GlObject vertexArray, vertexBuffer, indexBuffer;
            std::vector<GlObject> textures; // one per Model::textures entry; empty for a texture without levels
            std::vector<GlObject> srgbTextures; // the same as sRGB textures, for the lit model's colour maps
        };
        std::vector<Mesh> meshes;

        void abandon() noexcept {
            for (GlObject* o : {&program, &framebuffer, &colorBuffer, &depthBuffer, &sampleFramebuffer, &sampleColor,
                                &sampleDepth, &depthResolve, &depthResolveArray, &litProgram})
                o->abandon();
            for (Mesh& m : meshes) {
                for (GlObject* o : {&m.vertexArray, &m.vertexBuffer, &m.indexBuffer}) o->abandon();
                for (GlObject& t : m.textures) t.abandon();
                for (GlObject& t : m.srgbTextures) t.abandon();
            }
            if (views) views->abandon();
        }
    };
    struct Uniforms {
        GLint eye, right, up, forward, projection, depthMap;
        GLint diffuseTexture, textured, color, headlight, viewForward, ambient, vertexColors;
    };

    GlContext context;
    std::string renderer;
    GLint maxTextureSize = 0, maxRenderbufferSize = 0;
    GLint maxViewport[2] = {0, 0};
    GLint maxSamples = 0; // the fewest of GL_MAX_SAMPLES, GL_MAX_COLOR_TEXTURE_SAMPLES, GL_MAX_DEPTH_TEXTURE_SAMPLES
    std::optional<Objects> gl;
    Uniforms uniforms{};
    const Scene* uploaded = nullptr;       // setScene's
    SceneMaterials materials;              // its meshes' materials as shading reads them
    int framebufferWidth = 0, framebufferHeight = 0;
    int sampleWidth = 0, sampleHeight = 0, sampleCount = 0; // the multisampled framebuffer's
    bool sampleSrgb = false;
    bool framebufferSrgb = false;

    explicit Impl(GlContext c) : context(std::move(c)) {}
    Impl(const Impl&) = delete;
    Impl& operator=(const Impl&) = delete;

    ~Impl() {
        if (!gl) return;
        if (context.makeCurrent()) {
            gl.reset();
            context.release();
        } else {
            gl->abandon(); // destroying the context frees them
        }
    }

    void createProgram();
    void upload(const Scene& scene);
    void uploadGeometry(Objects::Mesh& to, const std::vector<float>& vertices, const Mesh& mesh);
    void uploadTextures(Objects::Mesh& to, const Model& model);
    void ensureFramebuffer(int width, int height, bool srgb = false);
    void ensureSampleFramebuffer(int width, int height, int samples, bool srgb);
    void resolveSamples(const FrameView& target, int samples);
    GlObject uploadTexture(const Texture& texture, GLenum format);
    void drawLitSegments(const Model& model, const Objects::Mesh& objects, std::uint32_t materialBase,
                         const RenderSettings& settings);
    void setLitUniforms(const RenderSettings& settings);
    // A frame: the fixed state and the clear, the camera and lighting, the draws.
    void setState(const RenderSettings& settings, const FrameView& target);
    void setUniforms(const ViewParams& view, const RenderSettings& settings);
    void drawSegments(const Model& model, const Objects::Mesh& objects, const RenderSettings& settings);
};

void GlReferenceRenderer::Impl::createProgram() {
    gl->program = buildGlProgram(kVertexShader, kFragmentShader, "the GL reference shaders");
    const GLuint p = gl->program.get();
    const auto at = [p](const char* name) { return glGetUniformLocation(p, name); };
    uniforms = Uniforms{at("eye"),     at("right"),          at("up"),       at("forward"),
                        at("projection"), at("depthMap"),    at("diffuseTexture"), at("textured"),
                        at("color"),   at("headlight"),      at("viewForward"),    at("ambient"),
                        at("vertexColors")};
    checkGlError("glGetUniformLocation", __FILE__, __LINE__);
}

void GlReferenceRenderer::Impl::upload(const Scene& scene) {
    uploaded = nullptr;
    gl->meshes.clear();
    gl->meshes.resize(scene.meshes.size());
    for (std::size_t k = 0; k < scene.meshes.size(); ++k) {
        const Model& m = *scene.meshes[k];
        Objects::Mesh& to = gl->meshes[k];
        to.vertexArray = makeGlVertexArray();
        to.vertexBuffer = makeGlBuffer();
        to.indexBuffer = makeGlBuffer();
        uploadGeometry(to, interleavedVertices(m), m.mesh);
        uploadTextures(to, m);
    }
    materials = shadeMaterials(scene);
    uploaded = &scene;
}

void GlReferenceRenderer::Impl::uploadGeometry(Objects::Mesh& to, const std::vector<float>& vertices,
                                               const Mesh& mesh) {
    const std::size_t indexCount = mesh.triangleCount() * 3;
    FACET_GL(glBindVertexArray(to.vertexArray.get()));
    FACET_GL(glBindBuffer(GL_ARRAY_BUFFER, to.vertexBuffer.get()));
    FACET_GL(glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(vertices.size() * sizeof(float)), vertices.data(), GL_STATIC_DRAW));
    FACET_GL(glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, to.indexBuffer.get()));
    FACET_GL(glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(indexCount * sizeof(std::uint32_t)), mesh.indices.data(),
                          GL_STATIC_DRAW));
    constexpr GLsizei stride = kVertexFloats * sizeof(float);
    FACET_GL(glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, nullptr));
    FACET_GL(glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<const void*>(3 * sizeof(float))));
    FACET_GL(glVertexAttribPointer(2, 3, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<const void*>(5 * sizeof(float))));
    FACET_GL(glVertexAttribPointer(3, 3, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<const void*>(8 * sizeof(float))));
    FACET_GL(glVertexAttribPointer(4, 4, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<const void*>(11 * sizeof(float))));
    for (GLuint a = 0; a < 5; ++a) FACET_GL(glEnableVertexAttribArray(a));
}

GlObject GlReferenceRenderer::Impl::uploadTexture(const Texture& texture, GLenum format) {
    GlObject object = makeGlTexture();
    FACET_GL(glBindTexture(GL_TEXTURE_2D, object.get()));
    // facet's own chain, level by level, so both sides filter the same texels.
    for (std::size_t l = 0; l < texture.levels.size(); ++l) {
        const MipLevel& level = texture.levels[l];
        FACET_GL(glTexImage2D(GL_TEXTURE_2D, GLint(l), GLint(format), GLsizei(level.width), GLsizei(level.height), 0,
                              GL_RGBA, GL_UNSIGNED_BYTE, texture.texels.data() + level.offset));
    }
    FACET_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, 0));
    FACET_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, GLint(texture.levels.size() - 1)));
    const auto glWrap = [](Wrap w) -> GLint {
        return w == Wrap::ClampToEdge ? GL_CLAMP_TO_EDGE : w == Wrap::MirroredRepeat ? GL_MIRRORED_REPEAT : GL_REPEAT;
    };
    FACET_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, glWrap(texture.wrapS)));
    FACET_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, glWrap(texture.wrapT)));
    return object;
}

void GlReferenceRenderer::Impl::uploadTextures(Objects::Mesh& to, const Model& model) {
    FACET_GL(glPixelStorei(GL_UNPACK_ALIGNMENT, 4)); // RGBA8 rows are whole words
    for (std::size_t t = 0; t < model.textures.size(); ++t) {
        const Texture& texture = model.textures[t];
        if (texture.levels.empty()) {
            to.textures.emplace_back();
            to.srgbTextures.emplace_back();
            continue;
        }
        checkMipChain(texture, t, maxTextureSize);
        to.textures.push_back(uploadTexture(texture, GL_RGBA8));
        to.srgbTextures.push_back(uploadTexture(texture, GL_SRGB8_ALPHA8));
    }
}

void GlReferenceRenderer::Impl::ensureFramebuffer(int width, int height, bool srgb) {
    if (width == framebufferWidth && height == framebufferHeight && srgb == framebufferSrgb) return;
    const int limit = std::min({maxRenderbufferSize, maxViewport[0], maxViewport[1]});
    if (width > limit || height > limit)
        throw Error("a " + std::to_string(width) + "x" + std::to_string(height) + " target exceeds this GL's limit of " +
                    std::to_string(limit) + " pixels a side");
    framebufferWidth = framebufferHeight = 0;
    FACET_GL(glBindRenderbuffer(GL_RENDERBUFFER, gl->colorBuffer.get()));
    FACET_GL(glRenderbufferStorage(GL_RENDERBUFFER, srgb ? GL_SRGB8_ALPHA8 : GL_RGBA8, width, height));
    FACET_GL(glBindRenderbuffer(GL_RENDERBUFFER, gl->depthBuffer.get()));
    FACET_GL(glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT32F, width, height));
    FACET_GL(glBindFramebuffer(GL_FRAMEBUFFER, gl->framebuffer.get()));
    FACET_GL(glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, gl->colorBuffer.get()));
    FACET_GL(glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, gl->depthBuffer.get()));
    const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE)
        throw Error("the GL reference framebuffer (RGBA8 + DEPTH_COMPONENT32F) is incomplete: status " +
                    std::to_string(status));
    framebufferWidth = width;
    framebufferHeight = height;
    framebufferSrgb = srgb;
}

// The multisampled framebuffer: an RGBA8 (or, for the lit model, SRGB8_ALPHA8) renderbuffer and
// a DEPTH_COMPONENT32F multisample texture (which the depth resolve reads), `samples` each.
void GlReferenceRenderer::Impl::ensureSampleFramebuffer(int width, int height, int samples, bool srgb) {
    if (width == sampleWidth && height == sampleHeight && samples == sampleCount && srgb == sampleSrgb) return;
    if (samples > maxSamples)
        throw Error("msaa " + std::to_string(samples) + " is beyond this OpenGL (" + renderer + "), which offers at most " +
                    std::to_string(maxSamples) + " samples");
    sampleWidth = sampleHeight = sampleCount = 0;
    if (!gl->sampleFramebuffer) {
        gl->sampleFramebuffer = makeGlFramebuffer();
        gl->sampleColor = makeGlRenderbuffer();
        gl->sampleDepth = makeGlTexture();
        gl->depthResolve = buildGlProgram(kDepthResolveVertexShader, kDepthResolveFragmentShader,
                                          "the GL reference's depth resolve shaders");
        gl->depthResolveArray = makeGlVertexArray(); // no attributes: the shader makes its corners
    }
    FACET_GL(glBindRenderbuffer(GL_RENDERBUFFER, gl->sampleColor.get()));
    FACET_GL(glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, srgb ? GL_SRGB8_ALPHA8 : GL_RGBA8, width, height));
    FACET_GL(glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, gl->sampleDepth.get()));
    FACET_GL(glTexImage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, samples, GL_DEPTH_COMPONENT32F, width, height, GL_TRUE));
    FACET_GL(glBindFramebuffer(GL_FRAMEBUFFER, gl->sampleFramebuffer.get()));
    FACET_GL(glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, gl->sampleColor.get()));
    FACET_GL(glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D_MULTISAMPLE, gl->sampleDepth.get(), 0));
    const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE)
        throw Error("the GL reference's " + std::to_string(samples) + "-sample framebuffer is incomplete: status " +
                    std::to_string(status));
    GLint got = 0;
    FACET_GL(glGetIntegerv(GL_SAMPLES, &got));
    if (got != samples)
        throw Error("this OpenGL (" + renderer + ") gave " + std::to_string(got) + " samples when asked for " +
                    std::to_string(samples));
    sampleWidth = width;
    sampleHeight = height;
    sampleCount = samples;
    sampleSrgb = srgb;
}

// Colour by a blit (OpenGL's box resolve), depth by the nearest sample, into the one-sample
// framebuffer that readBack reads.
void GlReferenceRenderer::Impl::resolveSamples(const FrameView& target, int samples) {
    FACET_GL(glBindFramebuffer(GL_READ_FRAMEBUFFER, gl->sampleFramebuffer.get()));
    FACET_GL(glBindFramebuffer(GL_DRAW_FRAMEBUFFER, gl->framebuffer.get()));
    FACET_GL(glBlitFramebuffer(0, 0, target.width, target.height, 0, 0, target.width, target.height,
                               GL_COLOR_BUFFER_BIT, GL_NEAREST));
    FACET_GL(glBindFramebuffer(GL_FRAMEBUFFER, gl->framebuffer.get()));
    FACET_GL(glDisable(GL_MULTISAMPLE));
    FACET_GL(glDisable(GL_CULL_FACE));
    FACET_GL(glDepthFunc(GL_ALWAYS));
    FACET_GL(glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE));
    FACET_GL(glUseProgram(gl->depthResolve.get()));
    FACET_GL(glUniform1i(glGetUniformLocation(gl->depthResolve.get(), "depthSamples"), 0));
    FACET_GL(glUniform1i(glGetUniformLocation(gl->depthResolve.get(), "samples"), samples));
    FACET_GL(glActiveTexture(GL_TEXTURE0));
    FACET_GL(glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, gl->sampleDepth.get()));
    FACET_GL(glBindVertexArray(gl->depthResolveArray.get()));
    FACET_GL(glDrawArrays(GL_TRIANGLES, 0, 3));
    FACET_GL(glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE));
    FACET_GL(glDepthFunc(GL_LESS));
}

GlReferenceRenderer::GlReferenceRenderer() : impl_(std::make_unique<Impl>(GlContext::create())) {
    Impl& im = *impl_;
    const CurrentScope current(im.context);
    const auto* name = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    im.renderer = name ? name : "unknown";
    FACET_GL(glGetIntegerv(GL_MAX_TEXTURE_SIZE, &im.maxTextureSize));
    FACET_GL(glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &im.maxRenderbufferSize));
    FACET_GL(glGetIntegerv(GL_MAX_VIEWPORT_DIMS, im.maxViewport));
    GLint colorSamples = 0, depthSamples = 0;
    FACET_GL(glGetIntegerv(GL_MAX_SAMPLES, &im.maxSamples));
    FACET_GL(glGetIntegerv(GL_MAX_COLOR_TEXTURE_SAMPLES, &colorSamples));
    FACET_GL(glGetIntegerv(GL_MAX_DEPTH_TEXTURE_SAMPLES, &depthSamples));
    im.maxSamples = std::min({im.maxSamples, colorSamples, depthSamples});
    im.gl.emplace();
    im.createProgram();
    im.gl->litProgram = buildGlProgram(kVertexShader, kLitFragmentShader, "the GL reference's lit shaders");
    im.gl->framebuffer = makeGlFramebuffer();
    im.gl->colorBuffer = makeGlRenderbuffer();
    im.gl->depthBuffer = makeGlRenderbuffer();
}

GlReferenceRenderer::~GlReferenceRenderer() = default;
GlReferenceRenderer::GlReferenceRenderer(GlReferenceRenderer&&) noexcept = default;
GlReferenceRenderer& GlReferenceRenderer::operator=(GlReferenceRenderer&&) noexcept = default;

GlAvailability GlReferenceRenderer::probe() noexcept {
    GlAvailability a;
    try {
        const GlReferenceRenderer renderer;
        a.usable = true;
        a.renderer = renderer.rendererName();
        a.context = renderer.contextKind();
    } catch (const std::exception& e) {
        a.reason = e.what();
    } catch (...) {
        a.reason = "unknown failure while making an OpenGL context";
    }
    return a;
}

const std::string& GlReferenceRenderer::rendererName() const {
    if (!impl_) throw Error("GlReferenceRenderer used after being moved from");
    return impl_->renderer;
}

const std::string& GlReferenceRenderer::contextKind() const {
    if (!impl_) throw Error("GlReferenceRenderer used after being moved from");
    return impl_->context.kind();
}

int GlReferenceRenderer::maxSamples() const {
    if (!impl_) throw Error("GlReferenceRenderer used after being moved from");
    return std::max(1, impl_->maxSamples);
}

std::vector<glm::vec2> GlReferenceRenderer::samplePositions(int samples) {
    if (!impl_) throw Error("GlReferenceRenderer used after being moved from");
    Impl& im = *impl_;
    const CurrentScope current(im.context);
    im.ensureSampleFramebuffer(std::max(1, im.framebufferWidth), std::max(1, im.framebufferHeight), samples, false);
    FACET_GL(glBindFramebuffer(GL_FRAMEBUFFER, im.gl->sampleFramebuffer.get()));
    std::vector<glm::vec2> positions(std::size_t(samples), glm::vec2(0.0f));
    for (int i = 0; i < samples; ++i) FACET_GL(glGetMultisamplefv(GL_SAMPLE_POSITION, GLuint(i), &positions[std::size_t(i)].x));
    return positions;
}

BackendLimits GlReferenceRenderer::limits() const {
    return BackendLimits{maxSamples(), "this OpenGL (" + rendererName() + ")",
                         "the OpenGL reference cannot draw the tiles view: it shows the triangles facet bins into each "
                         "64x64 tile, and OpenGL has no tiles to show (use --stage cpu or kernels)"};
}

void GlReferenceRenderer::setScene(const Scene& scene) {
    if (!impl_) throw Error("GlReferenceRenderer used after being moved from");
    validateScene(scene);
    const CurrentScope current(impl_->context);
    impl_->upload(scene);
}

void GlReferenceRenderer::Impl::setState(const RenderSettings& settings, const FrameView& target) {
    const bool multisample = settings.msaa > 1;
    FACET_GL(glBindFramebuffer(GL_FRAMEBUFFER, multisample ? gl->sampleFramebuffer.get() : gl->framebuffer.get()));
    FACET_GL(glViewport(0, 0, target.width, target.height));
    FACET_GL(glDepthRange(0.0, 1.0));
    for (GLenum cap : {GL_DITHER, GL_BLEND, GL_SCISSOR_TEST, GL_STENCIL_TEST, GL_MULTISAMPLE, GL_FRAMEBUFFER_SRGB,
                       GL_POLYGON_OFFSET_FILL, GL_SAMPLE_ALPHA_TO_COVERAGE, GL_DEPTH_CLAMP})
        FACET_GL(glDisable(cap));
    if (multisample) FACET_GL(glEnable(GL_MULTISAMPLE)); // coverage per sample; sample shading stays off
    FACET_GL(glEnable(GL_DEPTH_TEST));
    FACET_GL(glDepthFunc(GL_LESS));
    FACET_GL(glDepthMask(GL_TRUE));
    FACET_GL(glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE));
    FACET_GL(glPolygonMode(GL_FRONT_AND_BACK, GL_FILL));
    FACET_GL(glFrontFace(GL_CCW));
    FACET_GL(glCullFace(GL_BACK));
    FACET_GL(settings.cull == CullMode::Back ? glEnable(GL_CULL_FACE) : glDisable(GL_CULL_FACE));

    const glm::vec4 clear = unpackRgba8(settings.clearColor) / 255.0f;
    FACET_GL(glClearColor(clear.r, clear.g, clear.b, clear.a));
    FACET_GL(glClearDepth(1.0));
    FACET_GL(glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT));
}

// The camera and the classic model's headlight.
void GlReferenceRenderer::Impl::setUniforms(const ViewParams& view, const RenderSettings& settings) {
    const Uniforms& u = uniforms;
    FACET_GL(glUseProgram(gl->program.get()));
    setCameraUniforms(gl->program.get(), view);
    FACET_GL(glUniform1i(u.diffuseTexture, 0));
    FACET_GL(glUniform1i(u.headlight, settings.headlight ? 1 : 0));
    FACET_GL(glUniform1f(u.ambient, kAmbient));
}

// One draw call per material segment, each with its colour, texture and the settings' filter.
void GlReferenceRenderer::Impl::drawSegments(const Model& model, const Objects::Mesh& objects,
                                             const RenderSettings& settings) {
    // As shadeMaterials: every material multiplies by the vertex colour where the mesh has one.
    FACET_GL(glUniform1i(uniforms.vertexColors, model.mesh.hasVertexColors() ? 1 : 0));
    FACET_GL(glActiveTexture(GL_TEXTURE0));
    FACET_GL(glBindVertexArray(objects.vertexArray.get()));
    const auto [minFilter, magFilter] = glFilters(settings.filter);
    const std::size_t segments = std::max<std::size_t>(1, model.mesh.ranges.size());
    for (std::size_t s = 0; s < segments; ++s) {
        const Segment g = segment(model, objects.textures, s);
        if (g.begin >= g.end) continue;
        FACET_GL(glUniform4f(uniforms.color, g.color.r, g.color.g, g.color.b, g.color.a));
        FACET_GL(glUniform1i(uniforms.textured, g.texture != 0 ? 1 : 0));
        FACET_GL(glBindTexture(GL_TEXTURE_2D, g.texture));
        if (g.texture != 0) {
            FACET_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, minFilter));
            FACET_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, magFilter));
        }
        FACET_GL(glDrawElements(GL_TRIANGLES, GLsizei((g.end - g.begin) * 3), GL_UNSIGNED_INT,
                                reinterpret_cast<const void*>(g.begin * 3 * sizeof(std::uint32_t))));
    }
}

// The lit model's lights and samplers (the program in use).
void GlReferenceRenderer::Impl::setLitUniforms(const RenderSettings& settings) {
    const GLuint p = gl->litProgram.get();
    const auto at = [p](const std::string& name) { return glGetUniformLocation(p, name.c_str()); };
    const Lights& lights = settings.lights;
    const auto vec3 = [&](const std::string& name, glm::vec3 v) { FACET_GL(glUniform3f(at(name), v.x, v.y, v.z)); };
    vec3("headlight", lights.headlight > 0.0f ? lights.headlightColor * lights.headlight : glm::vec3(0.0f));
    vec3("ambientLight", lights.ambientColor * lights.ambient);
    for (int i = 0; i < kMaxDirectionalLights; ++i) {
        const DirectionalLight& d = lights.directional[i];
        const float len = glm::length(d.direction);
        const bool on = d.intensity > 0.0f && len > 0.0f;
        vec3("lightDirection[" + std::to_string(i) + "]", on ? d.direction / len : glm::vec3(0.0f, 1.0f, 0.0f));
        vec3("lightRadiance[" + std::to_string(i) + "]", on ? d.color * d.intensity : glm::vec3(0.0f));
    }
    const char* samplers[kLitMaps] = {"diffuseMap", "specularMap", "shininessMap",  "emissionMap",
                                      "alphaMap",   "bumpMap",     "metalRoughMap", "occlusionMap"};
    for (int unit = 0; unit < kLitMaps; ++unit) FACET_GL(glUniform1i(at(samplers[unit]), unit));
}

// The lit model: one draw call per material segment, its values and maps as uniforms.
void GlReferenceRenderer::Impl::drawLitSegments(const Model& model, const Objects::Mesh& objects,
                                                std::uint32_t materialBase, const RenderSettings& settings) {
    const GLuint p = gl->litProgram.get();
    const auto at = [p](const std::string& name) { return glGetUniformLocation(p, name.c_str()); };
    const auto vec3 = [&](const std::string& name, glm::vec3 v) { FACET_GL(glUniform3f(at(name), v.x, v.y, v.z)); };
    FACET_GL(glUniform1i(at("vertexColors"), model.mesh.hasVertexColors() ? 1 : 0));
    const auto [minFilter, magFilter] = glFilters(settings.filter);
    FACET_GL(glBindVertexArray(objects.vertexArray.get()));
    const std::size_t segments = std::max<std::size_t>(1, model.mesh.ranges.size());
    const std::size_t ownMaterials = std::max<std::size_t>(1, model.materials.size());
    for (std::size_t s = 0; s < segments; ++s) {
        const Segment g = segment(model, objects.textures, s);
        if (g.begin >= g.end) continue;
        const ShadeMaterial& m = materials.table[materialBase + std::min(g.material, ownMaterials - 1)];
        vec3("kd", m.kd);
        vec3("ka", m.ka);
        vec3("ks", m.ks);
        vec3("ke", m.ke);
        FACET_GL(glUniform1f(at("ns"), m.ns));
        FACET_GL(glUniform1f(at("opacity"), m.opacity));
        FACET_GL(glUniform1i(at("illumination"), int(m.illumination)));
        FACET_GL(glUniform1i(at("cutout"), m.cutout ? 1 : 0));
        FACET_GL(glUniform1f(at("alphaCutoff"), m.alphaCutoff));
        FACET_GL(glUniform1i(at("pbr"), m.pbr ? 1 : 0));
        FACET_GL(glUniform1f(at("metallic"), m.metallic));
        FACET_GL(glUniform1f(at("roughness"), m.roughness));
        FACET_GL(glUniform1f(at("occlusionStrength"), m.occlusionStrength));
        FACET_GL(glUniform1f(at("normalScale"), m.normalScale));
        FACET_GL(glUniform1i(at("alphaBlend"), m.alphaBlend ? 1 : 0));
        // Alpha-to-coverage for cut-outs, at msaa > 1 (OpenGL ignores it at one sample).
        const bool toCoverage = m.cutout && settings.alphaToCoverage && settings.msaa > 1;
        FACET_GL(glUniform1i(at("alphaToCoverage"), toCoverage ? 1 : 0));
        FACET_GL(toCoverage ? glEnable(GL_SAMPLE_ALPHA_TO_COVERAGE) : glDisable(GL_SAMPLE_ALPHA_TO_COVERAGE));
        // Blended materials (d < 1): blended in draw order over what is drawn, in linear light (the
        // framebuffer is sRGB), depth tested but not written; the others write colour and depth.
        const bool blended = blends(m, settings);
        FACET_GL(blended ? glEnable(GL_BLEND) : glDisable(GL_BLEND));
        FACET_GL(glBlendEquation(GL_FUNC_ADD));
        FACET_GL(glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA));
        FACET_GL(glDepthMask(blended ? GL_FALSE : GL_TRUE));
        FACET_GL(glUniform1i(at("alphaMapUsesAlpha"), m.alphaMapUsesAlpha ? 1 : 0));
        const Material* mat = g.material < model.materials.size() ? &model.materials[g.material] : nullptr;
        const std::int32_t maps[kLitMaps] = {mat ? mat->texture : -1,          mat ? mat->specularMap : -1,
                                             mat ? mat->shininessMap : -1,     mat ? mat->emissionMap : -1,
                                             mat ? mat->alphaMap : -1,         mat ? mat->bumpMap : -1,
                                             mat ? mat->pbr.metalRoughMap : -1, mat ? mat->pbr.occlusionMap : -1};
        const char* has[kLitMaps] = {"hasDiffuseMap", "hasSpecularMap", "hasShininessMap", "hasEmissionMap",
                                     "hasAlphaMap",   "hasBumpMap",     "hasMetalRoughMap", "hasOcclusionMap"};
        for (int unit = 0; unit < kLitMaps; ++unit) {
            const bool usable =
                maps[unit] >= 0 && std::size_t(maps[unit]) < objects.textures.size() && model.mesh.hasTexCoords;
            // map_Ns, map_d, the bump map and glTF's metal-roughness and occlusion maps are data,
            // every other map colour.
            const std::vector<GlObject>& set = unit == 2 || unit >= 4 ? objects.textures : objects.srgbTextures;
            const GLuint texture = usable ? set[std::size_t(maps[unit])].get() : 0;
            FACET_GL(glUniform1i(at(has[unit]), texture != 0 ? 1 : 0));
            FACET_GL(glActiveTexture(GLenum(GL_TEXTURE0 + unit)));
            FACET_GL(glBindTexture(GL_TEXTURE_2D, texture));
            if (texture == 0) continue;
            FACET_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, minFilter));
            FACET_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, magFilter));
        }
        FACET_GL(glDrawElements(GL_TRIANGLES, GLsizei((g.end - g.begin) * 3), GL_UNSIGNED_INT,
                                reinterpret_cast<const void*>(g.begin * 3 * sizeof(std::uint32_t))));
    }
    FACET_GL(glActiveTexture(GL_TEXTURE0));
    FACET_GL(glDisable(GL_BLEND));
    FACET_GL(glDisable(GL_SAMPLE_ALPHA_TO_COVERAGE));
    FACET_GL(glDepthMask(GL_TRUE));
}

void GlReferenceRenderer::render(const ViewParams& view, const FramePlan& plan, const FrameView& target) {
    if (!impl_) throw Error("GlReferenceRenderer used after being moved from");
    Impl& im = *impl_;
    if (!im.uploaded) throw Error("no scene to render: call setScene first");
    plan.requireTarget(target);
    const Scene& scene = *im.uploaded;
    const RenderSettings& settings = plan.settings;
    const FrameInstances frame = frameInstances(scene, im.materials.bases, view, plan.planes);
    // The views that colour by triangle or count fragments restart per draw call here.
    if (!glViewDrawsShaded(settings.view) && frame.draws.size() > 1)
        throw Error(std::string("the OpenGL reference draws the ") + nameOf(settings.view) +
                    " view of one instance at a time only, and this frame draws " +
                    std::to_string(frame.draws.size()) + " (use --stage cpu or kernels)");
    const CurrentScope current(im.context);
    const bool lit = plan.lit;
    im.ensureFramebuffer(target.width, target.height, lit);
    if (settings.msaa > 1) im.ensureSampleFramebuffer(target.width, target.height, settings.msaa, lit);
    im.setState(settings, target);
    im.setUniforms(view, settings);
    if (glViewDrawsShaded(settings.view) && lit) {
        // The clear above wrote the clear colour's bytes as they are, as facet does; the
        // fragments' linear colours are encoded to sRGB.
        FACET_GL(glEnable(GL_FRAMEBUFFER_SRGB));
        FACET_GL(glUseProgram(im.gl->litProgram.get()));
        im.setLitUniforms(settings);
        for (const InstanceDraw& d : frame.draws) {
            setInstanceUniforms(im.gl->litProgram.get(), d, view);
            im.drawLitSegments(*scene.meshes[d.mesh], im.gl->meshes[d.mesh], d.materialBase, settings);
        }
        FACET_GL(glDisable(GL_FRAMEBUFFER_SRGB));
    } else if (glViewDrawsShaded(settings.view)) {
        for (const InstanceDraw& d : frame.draws) {
            setInstanceUniforms(im.gl->program.get(), d, view);
            im.drawSegments(*scene.meshes[d.mesh], im.gl->meshes[d.mesh], settings);
        }
    }
    FACET_GL(glFrontFace(GL_CCW));
    if (settings.view != View::Shaded) { // the debug views (gl/gl_views.h), instance by instance
        if (!im.gl->views) im.gl->views.emplace(kVertexShader);
        for (const InstanceDraw& d : frame.draws)
            im.gl->views->draw(settings.view, d.view, target, scene.meshes[d.mesh]->mesh.triangleCount(),
                               im.gl->meshes[d.mesh].vertexArray.get());
    }
    if (settings.msaa > 1) im.resolveSamples(target, settings.msaa);
    readBack(target);
    finishGlView(settings.view, target, view);
}

} // namespace facet
