#include "gl/gl_objects.h"

#include "core/error.h"

#include <string>

namespace facet {

namespace {

const char* glErrorName(GLenum error) {
    switch (error) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    default: return "unknown GL error";
    }
}

// glGen* and glCreate* report failure as name 0 (and a GL error), not by throwing.
GlObject checkedName(GLuint name, GlObject::Deleter deleter, const char* what) {
    checkGlError(what, __FILE__, __LINE__);
    if (name == 0) throw Error(std::string(what) + " returned no object");
    return GlObject(name, deleter);
}

} // namespace

void throwGlError(GLenum error, const char* call, const char* file, int line) {
    throw Error(std::string("OpenGL error ") + glErrorName(error) + " after " + call + " at " + file + ":" +
                std::to_string(line));
}

GlObject makeGlBuffer() {
    GLuint name = 0;
    glGenBuffers(1, &name);
    return checkedName(name, [](GLuint n) { glDeleteBuffers(1, &n); }, "glGenBuffers");
}

GlObject makeGlVertexArray() {
    GLuint name = 0;
    glGenVertexArrays(1, &name);
    return checkedName(name, [](GLuint n) { glDeleteVertexArrays(1, &n); }, "glGenVertexArrays");
}

GlObject makeGlTexture() {
    GLuint name = 0;
    glGenTextures(1, &name);
    return checkedName(name, [](GLuint n) { glDeleteTextures(1, &n); }, "glGenTextures");
}

GlObject makeGlRenderbuffer() {
    GLuint name = 0;
    glGenRenderbuffers(1, &name);
    return checkedName(name, [](GLuint n) { glDeleteRenderbuffers(1, &n); }, "glGenRenderbuffers");
}

GlObject makeGlFramebuffer() {
    GLuint name = 0;
    glGenFramebuffers(1, &name);
    return checkedName(name, [](GLuint n) { glDeleteFramebuffers(1, &n); }, "glGenFramebuffers");
}

GlObject makeGlShader(GLenum type) {
    return checkedName(glCreateShader(type), [](GLuint n) { glDeleteShader(n); }, "glCreateShader");
}

GlObject makeGlProgram() {
    return checkedName(glCreateProgram(), [](GLuint n) { glDeleteProgram(n); }, "glCreateProgram");
}

namespace {

GlObject compileGlShader(GLenum type, const char* source, const std::string& what) {
    GlObject shader = makeGlShader(type);
    FACET_GL(glShaderSource(shader.get(), 1, &source, nullptr));
    FACET_GL(glCompileShader(shader.get()));
    GLint ok = GL_FALSE;
    FACET_GL(glGetShaderiv(shader.get(), GL_COMPILE_STATUS, &ok));
    if (ok != GL_TRUE) {
        char log[4096] = {};
        glGetShaderInfoLog(shader.get(), sizeof log, nullptr, log);
        const char* stage = type == GL_VERTEX_SHADER ? "vertex" : type == GL_GEOMETRY_SHADER ? "geometry" : "fragment";
        throw Error(what + ": the " + stage +
                    " shader does not compile: " + log);
    }
    return shader;
}

} // namespace

GlObject buildGlProgram(const char* vertexSource, const char* fragmentSource, const std::string& what,
                        const char* geometrySource) {
    const GlObject vs = compileGlShader(GL_VERTEX_SHADER, vertexSource, what);
    const GlObject fs = compileGlShader(GL_FRAGMENT_SHADER, fragmentSource, what);
    const GlObject gs = geometrySource ? compileGlShader(GL_GEOMETRY_SHADER, geometrySource, what) : GlObject();
    GlObject program = makeGlProgram();
    const GLuint p = program.get();
    FACET_GL(glAttachShader(p, vs.get()));
    FACET_GL(glAttachShader(p, fs.get()));
    if (gs) FACET_GL(glAttachShader(p, gs.get()));
    FACET_GL(glLinkProgram(p));
    GLint ok = GL_FALSE;
    FACET_GL(glGetProgramiv(p, GL_LINK_STATUS, &ok));
    if (ok != GL_TRUE) {
        char log[4096] = {};
        glGetProgramInfoLog(p, sizeof log, nullptr, log);
        throw Error(what + " do not link: " + log);
    }
    return program;
}

} // namespace facet
