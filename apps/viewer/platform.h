// The viewer's platform layer, each piece owning one resource: GLFW's lifetime, a window with
// its OpenGL 3.3 core context (glad loaded), Dear ImGui's context with its GLFW and OpenGL 3
// backends, and the key-tap buffering Dear ImGui 1.86 needs.
#pragma once

#include <glad/gl.h>
// glad first: GLFW must not pull in the system GL header.
#include <GLFW/glfw3.h>

#include <vector>

namespace facet::viewer {

// GLFW's lifetime. Failing to start is the usual "no display" case: say GLFW's reason.
class GlfwSession {
public:
    GlfwSession();
    ~GlfwSession();
    GlfwSession(const GlfwSession&) = delete;
    GlfwSession& operator=(const GlfwSession&) = delete;
};

// A window with an OpenGL 3.3 core context, current on this thread, GL functions loaded.
class Window {
public:
    Window(int width, int height, const char* title);
    ~Window();
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;

    GLFWwindow* get() const { return window_; }

private:
    GLFWwindow* window_ = nullptr;
};

// Dear ImGui's context and its GLFW and OpenGL 3 backends. The backends install no GLFW
// callbacks: the viewer's own callbacks forward each event to them first.
class ImGuiSession {
public:
    explicit ImGuiSession(GLFWwindow* window);
    ~ImGuiSession();
    ImGuiSession(const ImGuiSession&) = delete;
    ImGuiSession& operator=(const ImGuiSession&) = delete;
};

// Dear ImGui 1.86 reads keys as "down" flags once per frame, so a key pressed and released
// between two frames (a quick tap, or xdotool) would never be seen: Enter in the path field
// would be lost. Releases of keys pressed since the last frame are held back and handed to
// ImGui before the next frame's events. (Not during a frame: ImGui asserts that modifier keys
// do not change between NewFrame and Render.) A modifier released after such a key is held
// back too, so the key is seen with it.
class KeyTaps {
public:
    void onKey(GLFWwindow* window, int key, int scancode, int action, int mods);
    // Call before polling events, outside ImGui's frame.
    void releaseHeld(GLFWwindow* window);

private:
    struct Release {
        int key, scancode, mods;
    };
    std::vector<int> pressedThisFrame_;
    std::vector<Release> held_;
};

} // namespace facet::viewer
