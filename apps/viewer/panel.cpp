// The viewer's panel, in Dear ImGui's immediate mode: every frame it reads ViewerState, draws
// the widgets, and writes back whatever the user changed.
#include "viewer/viewer_state.h"

#include "core/error.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace facet::viewer {

namespace {

const ImVec4 kErrorColor{1.0f, 0.45f, 0.4f, 1.0f};
const ImVec4 kWarningColor{1.0f, 0.8f, 0.35f, 1.0f};

// A label and its formatted value in the next two columns of the current table.
template <typename... Args>
void cell(const char* label, const char* format, Args... args) {
    ImGui::TableNextColumn();
    ImGui::TextDisabled("%s", label);
    ImGui::TableNextColumn();
    ImGui::Text(format, args...);
}

// A combo box over the names of E (engine/core/names.h).
template <class E>
void choiceCombo(const char* label, E& value) {
    int index = indexOf(value);
    const auto name = [](void*, int i, const char** text) {
        *text = Names<E>::table[std::size_t(i)].second;
        return true;
    };
    if (ImGui::Combo(label, &index, name, nullptr, static_cast<int>(nameCount<E>())))
        value = valueAt<E>(std::size_t(index));
}

// Samples per pixel: 1 (off), 2, 4 or 8.
void msaaCombo(int& msaa) {
    static const char* const kNames[] = {"off", "2x", "4x", "8x"};
    int index = msaa == 8 ? 3 : msaa == 4 ? 2 : msaa == 2 ? 1 : 0;
    if (ImGui::Combo("multisampling", &index, kNames, 4)) msaa = 1 << index;
}

// One row of CPU/GPU radio buttons; GPU is disabled, with the reason on hover, while unusable.
void stageChoice(const char* label, Side& stage, const std::string& gpuUnavailable) {
    ImGui::PushID(label);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(label);
    ImGui::SameLine(110.0f);
    if (ImGui::RadioButton("CPU", stage == Side::Cpu)) stage = Side::Cpu;
    ImGui::SameLine();
    ImGui::BeginDisabled(!gpuUnavailable.empty());
    if (ImGui::RadioButton("GPU", stage == Side::Gpu)) stage = Side::Gpu;
    ImGui::EndDisabled();
    if (!gpuUnavailable.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("%s", gpuUnavailable.c_str());
    ImGui::PopID();
}

void pipelineSection(ViewerState& s) {
    if (!ImGui::CollapsingHeader("Pipeline", ImGuiTreeNodeFlags_DefaultOpen)) return;
    stageChoice("vertex stage", s.vertexStage, s.gpuUnavailable);
    stageChoice("raster stage", s.rasterStage, s.gpuUnavailable);
    ImGui::PushTextWrapPos(0.0f);
    if (!s.gpuUnavailable.empty()) ImGui::TextDisabled("GPU unavailable: %s", s.gpuUnavailable.c_str());
    if (!s.gpuName.empty()) ImGui::TextDisabled("GPU stages on %s", s.gpuName.c_str());
    ImGui::PopTextWrapPos();
    if (ImGui::TreeNode("CUDA devices")) {
        for (const std::string& line : s.gpus) ImGui::TextDisabled("%s", line.c_str());
        ImGui::TreePop();
    }

    ImGui::Spacing();
    const StageTimes& t = s.last;
    if (ImGui::BeginTable("times", 4, ImGuiTableFlags_SizingStretchSame)) {
        cell("vertex", "%6.2f ms", double(t.vertexMs));
        cell("triangle", "%6.2f ms", double(t.triangleMs));
        cell("raster", "%6.2f ms", double(t.rasterMs));
        cell("display", "%6.2f ms", double(t.displayMs));
        cell("frame", "%6.2f ms", double(t.frameMs));
        cell("", "%6.1f fps", t.frameMs > 0 ? 1000.0 / double(t.frameMs) : 0.0);
        ImGui::EndTable();
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("wall-clock time of the last frame's stages; display: map, unmap, upload the\n"
                          "pixel buffer into the texture and draw it; frame: from the previous frame's start");

    // The frame-time plot, scaled so a 60 fps frame sits at a third of its height.
    const FrameHistory& h = s.history;
    float peak = 50.0f;
    for (int i = 0; i < h.count(); ++i) peak = std::max(peak, h.at(i).frameMs);
    char overlay[64];
    std::snprintf(overlay, sizeof overlay, "frame ms, last %d frames (median %.1f)", h.count(),
                  double(h.median(&StageTimes::frameMs)));
    const auto frameMs = [](void* data, int i) { return static_cast<const FrameHistory*>(data)->at(i).frameMs; };
    ImGui::SetNextItemWidth(-FLT_MIN);
    ImGui::PlotLines("##frames", frameMs, const_cast<FrameHistory*>(&h), h.count(), 0, overlay, 0.0f, peak * 1.1f,
                     ImVec2(0.0f, 48.0f));

    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%dx%d pixels, %d threads: %zu triangles drawn, %zu culled, %zu clipped", s.renderWidth,
                        s.renderHeight, s.threads, s.stats.trianglesIn - s.stats.trianglesCulled,
                        s.stats.trianglesCulled, s.stats.trianglesClipped);
    if (!s.stats.note.empty()) ImGui::TextColored(kWarningColor, "%s", s.stats.note.c_str());
    if (!s.renderError.empty()) ImGui::TextColored(kErrorColor, "render error: %s", s.renderError.c_str());
    ImGui::PopTextWrapPos();
}

void markEdited(ViewerState& s) { s.sceneChanged = s.sceneEdited = true; }

// The path field with Open (Enter) and Add (Shift+Enter).
void pathRow(ViewerState& s) {
    if (s.focusPathField) {
        ImGui::SetKeyboardFocusHere();
        s.focusPathField = false;
    }
    const ImGuiStyle& style = ImGui::GetStyle();
    const float buttons = ImGui::CalcTextSize("Open").x + ImGui::CalcTextSize("Add").x + 4.0f * style.FramePadding.x +
                          2.0f * style.ItemSpacing.x;
    ImGui::SetNextItemWidth(-buttons);
    // Like a browser's address bar: focusing the field selects it, so typing replaces the path.
    const bool entered =
        ImGui::InputTextWithHint("##path", "path/to/mesh.obj (or drop files)", s.pathField.data(), s.pathField.size(),
                                 ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll);
    const bool shift = ImGui::GetIO().KeyShift; // read with Enter: Shift+Enter adds
    ImGui::SameLine();
    const bool open = ImGui::Button("Open");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("open the file in place of the scene (Enter)");
    ImGui::SameLine();
    const bool add = ImGui::Button("Add");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("add the file to the scene (Shift+Enter, or drop files on the window)");
    if (s.pathField[0] == '\0') return;
    if (add || (entered && shift))
        s.loader.request(s.pathField.data(), LoadMode::Add);
    else if (open || entered)
        s.loader.request(s.pathField.data(), LoadMode::Replace);
}

void loadStatus(ViewerState& s) {
    ImGui::PushTextWrapPos(0.0f);
    if (s.loader.busy()) {
        const std::vector<std::string>& paths = s.loader.loadingPaths();
        const std::string first = paths.empty() ? std::string() : std::filesystem::path(paths[0]).filename().string();
        ImGui::TextColored(kWarningColor, "loading %s%s... %.1f s", first.c_str(),
                           paths.size() > 1 ? (" and " + std::to_string(paths.size() - 1) + " more").c_str() : "",
                           s.loader.elapsedSeconds());
        ImGui::ProgressBar(s.loader.progress());
    }
    if (!s.loadError.empty()) ImGui::TextColored(kErrorColor, "%s", s.loadError.c_str());
    ImGui::PopTextWrapPos();
}

void sceneStatistics(const Scene& scene) {
    std::size_t textures = 0, hidden = 0;
    for (const auto& m : scene.meshes) textures += m->textures.size();
    for (const Instance& i : scene.instances) hidden += !i.visible;
    if (ImGui::BeginTable("scene", 4, ImGuiTableFlags_SizingStretchSame)) {
        cell("objects", "%zu", scene.instances.size());
        cell("hidden", "%zu", hidden);
        cell("triangles", "%zu", scene.triangleCount());
        cell("textures", "%zu", textures);
        ImGui::EndTable();
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("triangles of the visible objects; %zu meshes", scene.meshes.size());
    const std::vector<Warning>& w = scene.warnings;
    if (w.empty()) return;
    ImGui::TextColored(kWarningColor, "%zu loader warning%s", w.size(), w.size() == 1 ? "" : "s");
    const float height = std::min(120.0f, ImGui::GetTextLineHeightWithSpacing() * float(w.size() + 1));
    ImGui::BeginChild("warnings", ImVec2(0.0f, height), true, ImGuiWindowFlags_HorizontalScrollbar);
    for (const Warning& warning : w) ImGui::TextUnformatted(warning.toString().c_str());
    ImGui::EndChild();
}

// One row of the objects list: shown, name (selects it for the pose fields), triangles, remove.
void objectRow(ViewerState& s, Instance& i, std::uint32_t& removed) {
    ImGui::PushID(static_cast<int>(i.id));
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    if (ImGui::Checkbox("##shown", &i.visible)) markEdited(s);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("shown");
    ImGui::TableNextColumn();
    if (ImGui::Selectable(i.name.c_str(), s.selected == i.id)) s.selected = i.id;
    const Model& mesh = *s.scene.meshes[i.mesh];
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("object %u: %s", i.id, mesh.source.c_str());
    ImGui::TableNextColumn();
    ImGui::TextDisabled("%zu", mesh.mesh.triangleCount());
    ImGui::TableNextColumn();
    if (ImGui::SmallButton("x")) removed = i.id;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("remove %s", i.name.c_str());
    ImGui::PopID();
}

// The scene's objects, a scrolling table of which only the rows in sight are drawn (a scene
// of thousands stays quick).
void objectList(ViewerState& s) {
    std::vector<Instance>& objects = s.scene.instances;
    if (objects.empty()) {
        ImGui::TextDisabled("no objects: open or add a file");
        return;
    }
    const int rows = std::min(static_cast<int>(objects.size()), kObjectRowsShown);
    const float rowHeight = ImGui::GetFrameHeight() + 2.0f * ImGui::GetStyle().CellPadding.y;
    const ImGuiTableFlags flags =
        ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersOuter | ImGuiTableFlags_SizingFixedFit;
    std::uint32_t removed = 0;
    if (ImGui::BeginTable("objects", 4, flags, ImVec2(0.0f, rowHeight * float(rows + 1) + 2.0f))) {
        ImGui::TableSetupScrollFreeze(0, 1);
        ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn("object", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableSetupColumn("triangles", ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableHeadersRow();
        ImGuiListClipper clipper;
        clipper.Begin(static_cast<int>(objects.size()));
        while (clipper.Step())
            for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) objectRow(s, objects[std::size_t(r)], removed);
        ImGui::EndTable();
    }
    if (removed != 0) {
        s.scene.remove(removed); // its mesh stays: the renderer needs no new scene
        s.edits.erase(removed);
        if (s.selected == removed) s.selected = 0;
        markEdited(s);
    }
}

// The selected object's position, rotation and scale, composed into its pose on each change.
void objectPose(ViewerState& s) {
    Instance* object = s.selected != 0 ? s.scene.find(s.selected) : nullptr;
    if (!object) {
        if (!s.scene.instances.empty()) ImGui::TextDisabled("click an object to move, turn or scale it");
        return;
    }
    const auto [at, fresh] = s.edits.try_emplace(object->id);
    ObjectEdit& e = at->second;
    if (fresh) e.pose = decomposePose(object->pose);
    ImGui::TextDisabled("pose of");
    ImGui::SameLine();
    ImGui::TextUnformatted(object->name.c_str());
    const float radius = s.sceneBounds.empty() ? 1.0f : std::max(s.sceneBounds.radius(), 1e-6f);
    ImGui::PushItemWidth(240.0f);
    bool changed = ImGui::DragFloat3("position", &e.pose.translation.x, radius * 0.005f, 0.0f, 0.0f, "%.3g");
    changed |= ImGui::DragFloat3("rotation", &e.pose.rotationDegrees.x, 0.5f, 0.0f, 0.0f, "%.1f");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("degrees about x, then y, then z");
    if (e.uniformScale) {
        float uniform = e.pose.scale.x;
        if (ImGui::DragFloat("scale", &uniform, 0.005f, 0.0f, 0.0f, "%.3g")) {
            e.pose.scale = glm::vec3(uniform);
            changed = true;
        }
    } else {
        changed |= ImGui::DragFloat3("scale", &e.pose.scale.x, 0.005f, 0.0f, 0.0f, "%.3g");
    }
    ImGui::PopItemWidth();
    if (ImGui::Checkbox("uniform scale", &e.uniformScale) && e.uniformScale) {
        e.pose.scale = glm::vec3(e.pose.scale.x);
        changed = true;
    }
    ImGui::SameLine();
    if (ImGui::Button("Reset pose")) {
        e.pose = ObjectPose{};
        changed = true;
    }
    if (!changed) return;
    e.pose.scale = invertibleScale(e.pose.scale); // a scale of 0 would make the pose singular
    object->pose = composePose(e.pose); // drawn so at the next frame: the renderer reads poses afresh
    markEdited(s);
}

void sceneSection(ViewerState& s) {
    // "###scene" keeps the header's identity when its text changes.
    const std::size_t count = s.scene.instances.size();
    const std::string header = !s.loaded ? "Scene###scene"
                               : count == 1 ? "Scene: " + s.scene.instances[0].name + "###scene"
                                            : "Scene: " + std::to_string(count) + " objects###scene";
    if (!ImGui::CollapsingHeader(header.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) return;
    pathRow(s);
    loadStatus(s);
    if (!s.loaded) return;
    sceneStatistics(s.scene);
    objectList(s);
    objectPose(s);
}

void renderSection(ViewerState& s) {
    if (!ImGui::CollapsingHeader("Render", ImGuiTreeNodeFlags_DefaultOpen)) return;
    ImGui::PushItemWidth(180.0f);
    choiceCombo("texture filter", s.settings.filter);
    choiceCombo("view", s.settings.view); // the debug views (docs/guide.md: how to read them)
    // The debug views draw one sample per pixel (the renderer refuses them multisampled,
    // core/multisample.h).
    const bool oneSample = s.settings.view != View::Shaded;
    if (oneSample) s.settings.msaa = 1;
    ImGui::BeginDisabled(oneSample);
    msaaCombo(s.settings.msaa);
    ImGui::EndDisabled();
    // Alpha-to-coverage changes only the lit model's cut-outs, and only multisampled.
    ImGui::BeginDisabled(s.settings.msaa == 1 || s.settings.shading != ShadingModel::Lit);
    ImGui::Checkbox("alpha to coverage", &s.settings.alphaToCoverage);
    ImGui::EndDisabled();
    ImGui::SliderFloat("resolution scale", &s.resolutionScale, 0.25f, 1.0f, "%.2f");
    // The renderer is rebuilt for a new thread count, so only once the slider is let go.
    const int maxThreads = std::max(2 * static_cast<int>(std::thread::hardware_concurrency()), 2);
    ImGui::SliderInt("threads", &s.threadsEdit, 1, maxThreads);
    if (ImGui::IsItemDeactivatedAfterEdit()) s.threads = s.threadsEdit;
    ImGui::PopItemWidth();
    bool cull = s.settings.cull == CullMode::Back;
    if (ImGui::Checkbox("cull back faces", &cull)) s.settings.cull = cull ? CullMode::Back : CullMode::None;
    ImGui::SameLine();
    if (ImGui::Checkbox("headlight", &s.settings.headlight)) s.headlightChosen = true;
    ImGui::SameLine();
    ImGui::Checkbox("vsync", &s.vsync);
}

// The lit model's lights (RenderSettings::shading, core/lighting.h); the classic look has the
// headlight checkbox above only.
void lightSection(ViewerState& s) {
    if (!ImGui::CollapsingHeader("Light", ImGuiTreeNodeFlags_DefaultOpen)) return;
    ImGui::PushItemWidth(180.0f);
    choiceCombo("shading", s.settings.shading);
    if (s.settings.shading == ShadingModel::Lit) {
        Lights& l = s.settings.lights;
        ImGui::SliderFloat("headlight", &l.headlight, 0.0f, 2.0f, "%.2f");
        ImGui::ColorEdit3("headlight colour", &l.headlightColor.x, ImGuiColorEditFlags_NoInputs);
        ImGui::SliderFloat("ambient", &l.ambient, 0.0f, 1.0f, "%.2f");
        ImGui::ColorEdit3("ambient colour", &l.ambientColor.x, ImGuiColorEditFlags_NoInputs);
        for (int i = 0; i < kMaxDirectionalLights; ++i) {
            DirectionalLight& d = l.directional[i];
            ImGui::PushID(i);
            ImGui::Text("sun %d", i + 1);
            ImGui::SliderFloat("intensity", &d.intensity, 0.0f, 2.0f, "%.2f");
            ImGui::DragFloat3("direction", &d.direction.x, 0.01f, -1.0f, 1.0f, "%.2f");
            ImGui::ColorEdit3("colour", &d.color.x, ImGuiColorEditFlags_NoInputs);
            ImGui::PopID();
        }
    }
    ImGui::PopItemWidth();
}

// The scene files' cameras (glTF's perspective ones): choosing one views through it (flying on
// from there keeps its place and direction; its roll goes once it turns).
void fileCameras(ViewerState& s) {
    const std::vector<SceneCamera>& cameras = s.scene.cameras;
    if (cameras.empty()) return;
    ImGui::PushItemWidth(220.0f);
    if (ImGui::BeginCombo("file camera", "view through...")) {
        for (std::size_t i = 0; i < cameras.size(); ++i) {
            ImGui::PushID(static_cast<int>(i));
            if (ImGui::Selectable((std::to_string(i) + ": " + cameras[i].name).c_str())) {
                try {
                    s.camera = sceneCamera(s.scene, i);
                    s.cameraError.clear();
                } catch (const Error& e) {
                    s.cameraError = e.what();
                }
            }
            ImGui::PopID();
        }
        ImGui::EndCombo();
    }
    ImGui::PopItemWidth();
    if (!s.cameraError.empty()) ImGui::TextColored(kErrorColor, "%s", s.cameraError.c_str());
}

void cameraSection(ViewerState& s) {
    if (!ImGui::CollapsingHeader("Camera", ImGuiTreeNodeFlags_DefaultOpen)) return;
    Camera& c = s.camera;
    const float radius = s.sceneBounds.empty() ? 1.0f : s.sceneBounds.radius();
    ImGui::PushItemWidth(220.0f);
    bool changed = ImGui::DragFloat3("position", &c.eye.x, radius * 0.005f, 0.0f, 0.0f, "%.2f");
    // A given orientation (--look-at, --pose) shows as its yaw and pitch; turning folds it (Camera::fold).
    glm::vec2 yawPitch = c.yawPitch();
    bool turned = ImGui::DragFloat("yaw", &yawPitch.x, 0.25f, 0.0f, 0.0f, "%.1f deg");
    turned |= ImGui::SliderFloat("pitch", &yawPitch.y, -Camera::kMaxPitchDegrees, Camera::kMaxPitchDegrees, "%.1f deg");
    if (turned) {
        c.fold();
        c.yawDegrees = yawPitch.x;
        c.pitchDegrees = std::clamp(yawPitch.y, -Camera::kMaxPitchDegrees, Camera::kMaxPitchDegrees);
    }
    changed |= turned;
    if (c.intrinsics) // the lens is the intrinsics' (--intrinsics), not a field of view
        ImGui::TextDisabled("intrinsics fx %.1f fy %.1f cx %.1f cy %.1f", double(c.intrinsics->fx),
                            double(c.intrinsics->fy), double(c.intrinsics->cx), double(c.intrinsics->cy));
    else
        ImGui::SliderFloat("fov", &c.fovYDegrees, 10.0f, 120.0f, "%.0f deg");
    ImGui::PopItemWidth();
    if (changed) fitClipPlanes(c, s.sceneBounds);
    ImGui::TextDisabled("near %.3g, far %.3g; speed %.3g/s (scroll)", double(c.nearPlane), double(c.farPlane),
                        double(s.fly.speed()));
    fileCameras(s);
    if (ImGui::Button("Reset view (R)")) s.resetRequested = true;
    ImGui::SameLine();
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("W/A/S/D move, Q/E down/up, Shift faster\nright mouse button held: look around\n"
                          "scroll: speed, R: reset view\nCtrl+L: type a path, F1: hide the panel\n"
                          "Esc: release the mouse, or quit");
}

void screenshotSection(ViewerState& s) {
    if (ImGui::Button("Screenshot")) s.screenshotRequested = true;
    ImGui::SameLine();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", s.screenshotMessage.empty() ? "facet's frame as PNG, in the current folder"
                                                          : s.screenshotMessage.c_str());
    ImGui::PopTextWrapPos();
}

// Dear ImGui keeps only a corner of a window on screen: once the window shrank to a few pixels
// the panel was pushed up and left past the edge, and stayed there, its title bar out of reach,
// when the window grew again. Keep it whole inside the display wherever it fits (call between
// Begin and End).
void keepInsideDisplay(ViewerState& s) {
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    const ImVec2 inside(std::max(0.0f, std::min(pos.x, display.x - size.x)),
                        std::max(0.0f, std::min(pos.y, display.y - size.y)));
    if (display.x > 0.0f && display.y > 0.0f && (inside.x != pos.x || inside.y != pos.y)) ImGui::SetWindowPos(inside);
    s.panelX = inside.x;
    s.panelY = inside.y;
    s.panelWidth = size.x;
    s.panelHeight = size.y;
}

} // namespace

std::string sceneTitle(const Scene& scene) {
    const std::vector<Instance>& objects = scene.instances;
    if (objects.empty()) return "empty scene";
    const std::size_t named = objects.size() <= 3 ? objects.size() : 2;
    std::string title;
    for (std::size_t i = 0; i < named; ++i) title += (i ? ", " : "") + objects[i].name;
    if (named < objects.size()) title += " and " + std::to_string(objects.size() - named) + " more";
    return title;
}

float panelCover(const ViewerState& state, float windowWidth) {
    if (!state.showPanel || !(windowWidth > 0.0f)) return 0.0f;
    const float right = state.panelWidth > 0.0f ? state.panelX + state.panelWidth : kPanelMargin + kPanelWidth;
    const float cover = std::max(right + kPanelMargin, 0.0f) / windowWidth;
    return cover <= 0.5f ? cover : 0.0f;
}

void drawPanel(ViewerState& s) {
    ImGui::SetNextWindowPos(ImVec2(kPanelMargin, kPanelMargin), ImGuiCond_FirstUseEver);
    // As tall as its contents, but within the window: it scrolls when the window is short.
    const float maxHeight = std::max(ImGui::GetIO().DisplaySize.y - 2.0f * kPanelMargin, 100.0f);
    ImGui::SetNextWindowSizeConstraints(ImVec2(kPanelWidth, 0.0f), ImVec2(kPanelWidth, maxHeight));
    ImGui::SetNextWindowBgAlpha(0.85f);
    if (ImGui::Begin("facet  (F1 hides this panel)", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        pipelineSection(s);
        sceneSection(s);
        renderSection(s);
        lightSection(s);
        cameraSection(s);
        ImGui::Separator();
        screenshotSection(s);
    }
    keepInsideDisplay(s);
    ImGui::End();
}

} // namespace facet::viewer
