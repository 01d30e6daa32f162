// Checked OpenGL calls and move-only owners of GL object names. Internal to engine/gl.
#pragma once

#include <glad/gl.h>

#include <string>
#include <utility>

namespace facet {

// Throws facet::Error naming the GL error, the call, the file and the line.
[[noreturn]] void throwGlError(GLenum error, const char* call, const char* file, int line);

// The first pending GL error, if any, as an exception.
inline void checkGlError(const char* call, const char* file, int line) {
    if (const GLenum error = glGetError(); error != GL_NO_ERROR) throwGlError(error, call, file, line);
}

// One GL object name and how to delete it; the context must be current when it is destroyed.
class GlObject {
public:
    using Deleter = void (*)(GLuint);

    GlObject() = default;
    GlObject(GLuint name, Deleter deleter) noexcept : name_(name), deleter_(deleter) {}
    GlObject(GlObject&& other) noexcept
        : name_(std::exchange(other.name_, 0u)), deleter_(std::exchange(other.deleter_, nullptr)) {}
    GlObject& operator=(GlObject&& other) noexcept {
        if (this != &other) {
            reset();
            name_ = std::exchange(other.name_, 0u);
            deleter_ = std::exchange(other.deleter_, nullptr);
        }
        return *this;
    }
    GlObject(const GlObject&) = delete;
    GlObject& operator=(const GlObject&) = delete;
    ~GlObject() { reset(); }

    GLuint get() const { return name_; }
    explicit operator bool() const { return name_ != 0; }

    void reset() noexcept {
        if (name_ != 0 && deleter_) deleter_(name_);
        name_ = 0;
    }
    // Forgets the name without deleting it: for when the context is gone or cannot be made
    // current, and destroying the context frees the object anyway.
    void abandon() noexcept { name_ = 0; }

private:
    GLuint name_ = 0;
    Deleter deleter_ = nullptr;
};

// Each throws facet::Error when GL cannot make the object.
GlObject makeGlBuffer();
GlObject makeGlVertexArray();
GlObject makeGlTexture();
GlObject makeGlRenderbuffer();
GlObject makeGlFramebuffer();
GlObject makeGlShader(GLenum type);
GlObject makeGlProgram();

// Compiles and links a vertex and a fragment shader (and a geometry shader, where given) into a
// program. Throws facet::Error with GL's log, naming `what` (e.g. "the display shaders"), when
// any fails.
GlObject buildGlProgram(const char* vertexSource, const char* fragmentSource, const std::string& what,
                        const char* geometrySource = nullptr);

} // namespace facet

// A checked GL call: runs it, then throws facet::Error if GL reports an error.
#define FACET_GL(call)                                          \
    do {                                                        \
        call;                                                   \
        ::facet::checkGlError(#call, __FILE__, __LINE__);       \
    } while (0)
