// facet's vocabulary: every choice a user makes (where a stage runs, the texture filter, face
// culling) is an enum class with one name table, used alike by the command lines, the viewer's
// panel and the reports, so a name is spelled in one place.
#pragma once

#include "core/camera.h"
#include "core/lighting.h"
#include "core/texture_sampling.h"

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>

namespace facet {

// Which faces are not drawn. OBJ files in the wild mix windings, so None is the default.
enum class CullMode { None, Back };

// What a frame shows: the shaded picture, or one of the debug views that show the pipeline
// (core/view_shading.h defines each; docs/guide.md says how to read their colours).
enum class View { Shaded, Normals, Depth, Uv, Overdraw, Wireframe, Triangles, Tiles };

// What a render gives back: the picture, its window depth (the OpenGL comparison's), and the
// outputs for vision users (FrameOutputs, core/frame.h; core/outputs.h finds them).
enum class Output { Color, Depth, MetricDepth, Instance, Normal };

// Where a pipeline stage runs.
enum class Side { Cpu, Gpu };

// Which renderer draws a frame (see engine/renderer.h): Auto picks the GPU where one is usable;
// Kernels runs the CUDA pipeline's kernels on the CPU; Gl is the OpenGL reference.
enum class Backend { Auto, Cpu, Gpu, Gl, Kernels };

// Names[E] lists every value of E with its name, in the enum's order.
template <class E>
struct Names;

template <>
struct Names<TextureFilter> {
    static constexpr std::array<std::pair<TextureFilter, const char*>, 3> table{
        {{TextureFilter::Nearest, "nearest"}, {TextureFilter::Bilinear, "bilinear"}, {TextureFilter::Trilinear, "trilinear"}}};
};

template <>
struct Names<Wrap> {
    static constexpr std::array<std::pair<Wrap, const char*>, 3> table{
        {{Wrap::Repeat, "repeat"}, {Wrap::ClampToEdge, "clamp_to_edge"}, {Wrap::MirroredRepeat, "mirrored_repeat"}}};
};

template <>
struct Names<ShadingModel> {
    static constexpr std::array<std::pair<ShadingModel, const char*>, 2> table{
        {{ShadingModel::Classic, "classic"}, {ShadingModel::Lit, "lit"}}};
};

template <>
struct Names<CullMode> {
    static constexpr std::array<std::pair<CullMode, const char*>, 2> table{
        {{CullMode::None, "none"}, {CullMode::Back, "back"}}};
};

template <>
struct Names<View> {
    static constexpr std::array<std::pair<View, const char*>, 8> table{
        {{View::Shaded, "shaded"}, {View::Normals, "normals"}, {View::Depth, "depth"}, {View::Uv, "uv"},
         {View::Overdraw, "overdraw"}, {View::Wireframe, "wireframe"}, {View::Triangles, "triangles"},
         {View::Tiles, "tiles"}}};
};

template <>
struct Names<Output> {
    static constexpr std::array<std::pair<Output, const char*>, 5> table{
        {{Output::Color, "color"}, {Output::Depth, "depth"}, {Output::MetricDepth, "metric_depth"},
         {Output::Instance, "instance"}, {Output::Normal, "normal"}}};
};

template <>
struct Names<Side> {
    static constexpr std::array<std::pair<Side, const char*>, 2> table{{{Side::Cpu, "cpu"}, {Side::Gpu, "gpu"}}};
};

template <>
struct Names<Backend> {
    static constexpr std::array<std::pair<Backend, const char*>, 5> table{{{Backend::Auto, "auto"},
                                                                            {Backend::Cpu, "cpu"},
                                                                            {Backend::Gpu, "gpu"},
                                                                            {Backend::Gl, "gl"},
                                                                            {Backend::Kernels, "kernels"}}};
};

template <>
struct Names<PoseConvention> {
    static constexpr std::array<std::pair<PoseConvention, const char*>, 2> table{
        {{PoseConvention::OpenCv, "opencv"}, {PoseConvention::OpenGl, "opengl"}}};
};

template <class E>
constexpr std::size_t nameCount() {
    return Names<E>::table.size();
}

// The name of `value` ("?" for a value outside the table, which a cast could make).
template <class E>
const char* nameOf(E value) {
    for (const auto& entry : Names<E>::table)
        if (entry.first == value) return entry.second;
    return "?";
}

// The value named `name`, if any.
template <class E>
std::optional<E> fromName(const std::string& name) {
    for (const auto& entry : Names<E>::table)
        if (name == entry.second) return entry.first;
    return std::nullopt;
}

// "a, b or c": the names of E for a message.
template <class E>
std::string nameChoices() {
    std::string text;
    const std::size_t n = Names<E>::table.size();
    for (std::size_t i = 0; i < n; ++i) {
        if (i > 0) text += i + 1 == n ? " or " : ", ";
        text += Names<E>::table[i].second;
    }
    return text;
}

// The value at `index` in the table, for list widgets (a combo box's item index).
template <class E>
E valueAt(std::size_t index) {
    return Names<E>::table[index].first;
}

// The index of `value` in the table (0 for a value outside it).
template <class E>
int indexOf(E value) {
    for (std::size_t i = 0; i < Names<E>::table.size(); ++i)
        if (Names<E>::table[i].first == value) return static_cast<int>(i);
    return 0;
}

} // namespace facet
