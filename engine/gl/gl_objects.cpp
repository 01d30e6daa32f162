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

} // namespace facet
