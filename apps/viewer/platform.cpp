#include "viewer/platform.h"

#include "core/error.h"

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <filesystem>
#include <string>

namespace facet::viewer {

namespace {

std::string glfwErrorText(const char* fallback) {
    const char* description = nullptr;
    glfwGetError(&description);
    return description ? description : fallback;
}

void styleImGui() {
    ImGui::StyleColorsDark();
    ImGuiStyle& style = ImGui::GetStyle();
    style.WindowRounding = 6.0f;
    style.FrameRounding = 3.0f;
    style.GrabRounding = 3.0f;
    style.WindowBorderSize = 0.0f;
    style.ItemSpacing = ImVec2(8.0f, 3.0f);
    style.FramePadding = ImVec2(6.0f, 2.0f);
}

} // namespace

GlfwSession::GlfwSession() {
    if (!glfwInit()) throw Error("cannot open a window: " + glfwErrorText("glfwInit failed"));
}

GlfwSession::~GlfwSession() { glfwTerminate(); }

Window::Window(int width, int height, const char* title) {
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    window_ = glfwCreateWindow(width, height, title, nullptr, nullptr);
    if (!window_) throw Error("cannot open an OpenGL 3.3 core window: " + glfwErrorText("glfwCreateWindow failed"));
    glfwMakeContextCurrent(window_);
    const int version = gladLoadGL(glfwGetProcAddress);
    if (GLAD_VERSION_MAJOR(version) * 10 + GLAD_VERSION_MINOR(version) < 33) {
        glfwDestroyWindow(window_);
        throw Error("OpenGL 3.3 is needed; the context offers " + std::to_string(GLAD_VERSION_MAJOR(version)) + "." +
                    std::to_string(GLAD_VERSION_MINOR(version)));
    }
}

Window::~Window() { glfwDestroyWindow(window_); }

ImGuiSession::ImGuiSession(GLFWwindow* window) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr; // no imgui.ini left in whatever folder the viewer ran from
    // DejaVu Sans reads better than ImGui's bitmap font; it is there on most Linux desktops.
    const char* font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
    std::error_code ignored;
    if (std::filesystem::is_regular_file(font, ignored)) io.Fonts->AddFontFromFileTTF(font, 15.0f);
    styleImGui();
    if (!ImGui_ImplGlfw_InitForOpenGL(window, false) || !ImGui_ImplOpenGL3_Init("#version 330 core")) {
        ImGui::DestroyContext();
        throw Error("Dear ImGui cannot start on this OpenGL context");
    }
}

ImGuiSession::~ImGuiSession() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
}

namespace {

bool isModifier(int key) {
    switch (key) {
    case GLFW_KEY_LEFT_SHIFT: case GLFW_KEY_RIGHT_SHIFT: case GLFW_KEY_LEFT_CONTROL: case GLFW_KEY_RIGHT_CONTROL:
    case GLFW_KEY_LEFT_ALT: case GLFW_KEY_RIGHT_ALT: case GLFW_KEY_LEFT_SUPER: case GLFW_KEY_RIGHT_SUPER: return true;
    default: return false;
    }
}

} // namespace

void KeyTaps::onKey(GLFWwindow* window, int key, int scancode, int action, int mods) {
    if (action == GLFW_PRESS) pressedThisFrame_.push_back(key);
    // A modifier let go after a key pressed this frame is held back with it: Shift+Enter
    // typed quickly must still read as Shift+Enter, though Shift went down a frame earlier.
    const bool modifierOfTap = isModifier(key) && !pressedThisFrame_.empty();
    if (action == GLFW_RELEASE &&
        (modifierOfTap || std::find(pressedThisFrame_.begin(), pressedThisFrame_.end(), key) != pressedThisFrame_.end())) {
        held_.push_back({key, scancode, mods});
        return;
    }
    ImGui_ImplGlfw_KeyCallback(window, key, scancode, action, mods);
}

void KeyTaps::releaseHeld(GLFWwindow* window) {
    for (const Release& r : held_) ImGui_ImplGlfw_KeyCallback(window, r.key, r.scancode, GLFW_RELEASE, r.mods);
    held_.clear();
    pressedThisFrame_.clear();
}

} // namespace facet::viewer
