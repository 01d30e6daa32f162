// facet.Renderer: the front door (engine/renderer.h) for Python. render() returns a Frame whose
// colour and depth are NumPy arrays over the buffers the engine drew into (no copy), or the
// caller's own `out` arrays. The GIL is released while rendering; each Renderer serialises its
// own calls, so one can be shared by threads, and several render at once. A scene is read as
// it is when render() is called: the renderer draws its own copy of the instances.
#include "bindings.h"
#include "scene_binding.h"

#include "core/camera.h"
#include "core/error.h"
#include "core/multisample.h"
#include "host/line_aligned.h"
#include "renderer.h"

#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace facet::python {

namespace {

// A name from E's table (core/names.h), or ValueError listing the names.
template <class E> E choice(const char* what, const std::string& name) {
    if (const std::optional<E> value = fromName<E>(name)) return *value;
    throw py::value_error(std::string(what) + " must be " + nameChoices<E>() + ", got '" + name + "'");
}

// background=(r, g, b[, a]), each in [0, 1], as RenderSettings::clearColor (RGBA8, R in the low byte).
std::uint32_t backgroundColor(py::handle background) {
    const std::string bad = "background must be (r, g, b) or (r, g, b, a) with each from 0 to 1, got " +
                            std::string(py::repr(background));
    if (!py::isinstance<py::sequence>(background) || py::isinstance<py::str>(background)) throw py::value_error(bad);
    const auto values = background.cast<py::sequence>();
    if (values.size() != 3 && values.size() != 4) throw py::value_error(bad);
    glm::vec4 rgba(1.0f);
    for (std::size_t i = 0; i < values.size(); ++i) {
        try {
            rgba[static_cast<int>(i)] = values[i].cast<float>();
        } catch (const py::cast_error&) {
            throw py::value_error(bad);
        }
        if (!(rgba[static_cast<int>(i)] >= 0.0f && rgba[static_cast<int>(i)] <= 1.0f)) throw py::value_error(bad);
    }
    return packRgba8(rgba * 255.0f);
}

// render()'s keywords as RenderSettings, all in this one function: today's values are mapped,
// the others refused with the supported ones named. A new setting is one more line here.
RenderSettings renderSettings(const std::string& filter, const std::string& shading, py::handle light, int msaa,
                              const std::string& view, const std::string& cull, py::handle background) {
    RenderSettings s;
    s.filter = choice<TextureFilter>("filter", filter);
    s.shading = choice<ShadingModel>("shading", shading);
    s.cull = choice<CullMode>("cull", cull);
    if (!py::isinstance<py::bool_>(light))
        throw py::value_error("light must be True (the classic shading's headlight) or False, got " +
                              std::string(py::repr(light)));
    s.headlight = light.cast<bool>();
    if (!validSampleCount(msaa)) throw py::value_error("msaa must be 1, 2, 4 or 8, got " + std::to_string(msaa));
    s.msaa = msaa;
    s.view = choice<View>("view", view);
    if (!background.is_none()) s.clearColor = backgroundColor(background);
    return s;
}

// Colour and depth the renderer allocates, starting on cache lines like facet-render's.
struct Buffers {
    LineAlignedVector<std::uint32_t> color;
    LineAlignedVector<float> depth;
};

struct Frame {
    py::array_t<std::uint8_t> color;
    py::array_t<float> depth;
    FrameStats stats;
    py::object metricDepth = py::none(), instance = py::none(), normal = py::none(); // where asked
};

// The outputs= names asked beyond colour and depth (which every frame has), as new arrays of
// the frame's size, and the engine's view of them.
struct AskedOutputs {
    py::object metricDepth = py::none(), instance = py::none(), normal = py::none();
    FrameOutputs view;
};

AskedOutputs askedOutputs(py::handle names, int width, int height) {
    if (py::isinstance<py::str>(names))
        throw py::type_error("outputs must be a sequence of names such as ('color', 'metric_depth'), not a string");
    AskedOutputs asked;
    const py::ssize_t h = height, w = width;
    for (py::handle item : names) {
        if (!py::isinstance<py::str>(item))
            throw py::type_error("outputs: each name must be a string (" + nameChoices<Output>() + "), got " +
                                 describeValue(item));
        // A new array of `shape` behind `array` and the engine's `pointer`, once per name.
        const auto make = [](py::object& array, auto*& pointer, std::vector<py::ssize_t> shape) {
            if (!array.is_none()) return;
            py::array_t<std::remove_pointer_t<std::remove_reference_t<decltype(pointer)>>> a(shape);
            pointer = a.mutable_data();
            array = std::move(a);
        };
        switch (choice<Output>("outputs", item.cast<std::string>())) {
        case Output::MetricDepth: make(asked.metricDepth, asked.view.metricDepth, {h, w}); break;
        case Output::Instance: make(asked.instance, asked.view.instance, {h, w}); break;
        case Output::Normal: make(asked.normal, asked.view.normal, {h, w, 3}); break;
        case Output::Color:
        case Output::Depth: break; // every frame has them
        }
    }
    return asked;
}

// New arrays over new buffers, which live as long as either array does.
Frame newFrame(int width, int height) {
    auto buffers = std::make_unique<Buffers>();
    const std::size_t pixels = std::size_t(width) * std::size_t(height);
    buffers->color.resize(pixels);
    buffers->depth.resize(pixels);
    Buffers* raw = buffers.get();
    const py::capsule owner(buffers.release(), [](void* p) { delete static_cast<Buffers*>(p); });
    const py::ssize_t h = height, w = width;
    return Frame{
        py::array_t<std::uint8_t>({h, w, py::ssize_t(4)}, reinterpret_cast<std::uint8_t*>(raw->color.data()), owner),
        py::array_t<float>({h, w}, raw->depth.data(), owner),
        {}};
}

// The caller's out=: a Frame, or a (color, depth) pair, of the requested size.
Frame frameFrom(py::handle out, int width, int height) {
    py::object color, depth;
    if (py::isinstance<Frame>(out)) {
        const Frame& f = out.cast<const Frame&>();
        color = f.color, depth = f.depth;
    } else if (py::isinstance<py::tuple>(out) && py::len(out) == 2) {
        color = out[py::int_(0)], depth = out[py::int_(1)];
    } else {
        throw py::type_error("out must be a facet.Frame or a (color, depth) tuple of arrays");
    }
    const py::ssize_t h = height, w = width;
    return Frame{requireArray<std::uint8_t>(color, "out color", {h, w, 4}, true),
                 requireArray<float>(depth, "out depth", {h, w}, true),
                 {}};
}

class PyRenderer {
public:
    explicit PyRenderer(const RendererOptions& options) : renderer_(options) {}

    Frame render(const py::object& model, const Camera& camera, std::pair<int, int> size, const std::string& filter,
                 const std::string& shading, py::handle light, int msaa, const std::string& view,
                 const std::string& cull, py::handle background, py::handle out, py::handle outputs) {
        const auto [width, height] = size;
        // facet-render's --size limits, in its words.
        for (const auto& [what, value] : {std::pair("width", width), std::pair("height", height)})
            if (value < 1 || value > kMaxTargetSide)
                throw py::value_error(std::string("size ") + what + " expects a whole number from 1 to " +
                                      std::to_string(kMaxTargetSide) + ", got '" + std::to_string(value) + "'");
        const RenderSettings settings = renderSettings(filter, shading, light, msaa, view, cull, background);
        ViewParams params;
        try {
            params = camera.view(static_cast<float>(width) / static_cast<float>(height));
        } catch (const Error& e) {
            throw py::value_error(e.what());
        }
        std::optional<Scene> scene;
        const Model* m = nullptr;
        if (py::isinstance<PyScene>(model))
            scene = frameCopy(model.cast<const PyScene&>());
        else if (py::isinstance<Model>(model))
            m = &model.cast<const Model&>();
        else
            throw py::type_error("render expects a facet.Model or a facet.Scene, got " + describeValue(model));
        Frame frame = out.is_none() ? newFrame(width, height) : frameFrom(out, width, height);
        const FrameView target{reinterpret_cast<std::uint32_t*>(frame.color.mutable_data()), frame.depth.mutable_data(),
                               width, height};
        const AskedOutputs asked = askedOutputs(outputs, width, height);
        frame.metricDepth = asked.metricDepth;
        frame.instance = asked.instance;
        frame.normal = asked.normal;
        py::gil_scoped_release release;
        const std::lock_guard<std::mutex> lock(mutex_); // after releasing the GIL: no thread waits holding it
        if (scene) {
            useScene(std::move(*scene));
        } else if (current_ != m) {
            renderer_.setModel(*m);
            current_ = m;
            const py::gil_scoped_acquire acquire;
            model_ = model; // the renderer keeps reading it
        }
        frame.stats = renderer_.render(params, settings, target, asked.view);
        return frame;
    }

    // Reads the renderer's state between renders (one on another thread may change it).
    template <class Read> auto read(Read&& reader) {
        py::gil_scoped_release release;
        const std::lock_guard<std::mutex> lock(mutex_);
        return reader(static_cast<const Renderer&>(renderer_));
    }

private:
    // Draws `next` from now on. Its meshes are shared with the scene it copies (which keep them
    // alive); only when they change does the renderer take the scene anew (uploading the meshes
    // where the GPU draws), else it reads the new instances at its next frame.
    void useScene(Scene next) {
        if (current_ || !sceneSet_ || next.meshes != scene_.meshes) {
            scene_ = std::move(next);
            current_ = nullptr;
            sceneSet_ = false; // until the renderer has taken it
            renderer_.setScene(scene_);
            sceneSet_ = true;
        } else {
            scene_.instances = std::move(next.instances);
        }
    }

    std::mutex mutex_;
    Renderer renderer_;
    py::object model_;
    const Model* current_ = nullptr; // the model drawn, when a model is
    Scene scene_;                    // the scene drawn, when one is: the renderer's own copy
    bool sceneSet_ = false;
};

// Where a stage runs: "auto" leaves it to the renderer.
std::optional<Side> stageSide(const char* what, const std::string& name) {
    if (name == "auto") return std::nullopt;
    if (const std::optional<Side> side = fromName<Side>(name)) return side;
    throw py::value_error(std::string(what) + " must be auto, " + nameChoices<Side>() + ", got '" + name + "'");
}

std::unique_ptr<PyRenderer> makeRenderer(const std::string& vertex, const std::string& raster,
                                         std::optional<int> threads, std::optional<int> device,
                                         const std::string& stage) {
    RendererOptions o;
    o.backend = choice<Backend>("stage", stage);
    o.vertex = stageSide("vertex", vertex);
    o.raster = stageSide("raster", raster);
    if (threads && *threads < 1) throw py::value_error("threads must be None (one per hardware thread) or >= 1");
    if (device && *device < 0) throw py::value_error("device must be None (FACET_DEVICE, else 0) or a CUDA index >= 0");
    o.threads = threads.value_or(0);
    o.device = device.value_or(-1);
    py::gil_scoped_release release;
    return std::make_unique<PyRenderer>(o);
}

void bindStats(py::module_& m) {
    py::class_<FrameStats>(m, "FrameStats", "What a render did and how long each stage took (milliseconds).")
        .def_readonly("triangles_in", &FrameStats::trianglesIn)
        .def_readonly("triangles_clipped", &FrameStats::trianglesClipped)
        .def_readonly("triangles_culled", &FrameStats::trianglesCulled)
        .def_readonly("triangles_drawn", &FrameStats::trianglesDrawn)
        .def_readonly("fragments", &FrameStats::fragments)
        .def_readonly("vertex_ms", &FrameStats::vertexMs)
        .def_readonly("triangle_ms", &FrameStats::triangleMs)
        .def_readonly("raster_ms", &FrameStats::rasterMs)
        .def_readonly("frame_ms", &FrameStats::frameMs)
        .def_property_readonly("placement", [](const FrameStats& s) { return s.placement.describe(); })
        .def_property_readonly("note", [](const FrameStats& s) { return s.placement.note; })
        .def_readonly("scene_note", &FrameStats::note,
                      "what the picture lacks and why (an empty scene, every instance hidden); empty otherwise")
        .def("__repr__", [](const FrameStats& s) {
            return "<facet.FrameStats " + s.placement.describe() + ": frame " + std::to_string(s.frameMs) + " ms, " +
                   std::to_string(s.trianglesIn) + " triangles in, " + std::to_string(s.fragments) + " fragments>";
        });
    py::class_<Frame>(m, "Frame", "A rendered picture: color (h, w, 4) uint8 RGBA, depth (h, w) float32, stats.")
        .def_readonly("color", &Frame::color)
        .def_readonly("depth", &Frame::depth)
        .def_readonly("stats", &Frame::stats)
        .def_readonly("metric_depth", &Frame::metricDepth,
                      "(h, w) float32: camera-space depth along the optical axis in scene units, 0 where nothing is "
                      "drawn; None unless outputs= asked for 'metric_depth'")
        .def_readonly("instance", &Frame::instance,
                      "(h, w) uint32: the scene's id of the instance seen (Scene.add's), 0 where nothing is drawn; "
                      "None unless asked")
        .def_readonly("normal", &Frame::normal,
                      "(h, w, 3) float32: the unit normal seen, in OpenCV camera axes (x right, y down, z forward), "
                      "0 where nothing is drawn; None unless asked");
}

} // namespace

void bindRenderer(py::module_& m) {
    bindStats(m);
    py::class_<PyRenderer>(m, "Renderer", "facet's renderer; where each stage runs is chosen at construction.")
        .def(py::init(&makeRenderer), py::arg("vertex") = "auto", py::arg("raster") = "auto",
             py::arg("threads") = py::none(), py::arg("device") = py::none(), py::arg("stage") = "auto",
             "vertex, raster: 'auto', 'cpu' or 'gpu'; threads: CPU threads (None: one per hardware thread); device: "
             "CUDA device; stage: 'auto', 'cpu', 'gpu', 'gl' (the OpenGL reference) or 'kernels' (the CUDA kernels on "
             "the CPU), as facet-render's --stage.")
        .def("render", &PyRenderer::render, py::arg("model"), py::arg("camera"), py::kw_only(),
             py::arg("size") = std::pair<int, int>(1280, 720), py::arg("filter") = "trilinear",
             py::arg("shading") = "lit", py::arg("light") = false, py::arg("msaa") = 1, py::arg("view") = "shaded", py::arg("cull") = "none",
             py::arg("background") = py::none(), py::arg("out") = py::none(),
             py::arg("outputs") = py::make_tuple("color", "depth"),
             "Renders model (a facet.Model or a facet.Scene) seen by camera into a new Frame of size (width, "
             "height), or into out (a Frame or a (color, depth) pair of C-contiguous arrays of that size). shading: 'lit' "
             "(the material under the default lights) or 'classic' (the old unlit look; light=True adds its "
             "headlight). background: (r, g, b) or (r, g, b, a), each 0 to 1, behind the scene (alpha 0: transparent). "
             "outputs: names among 'color', 'depth' (every frame has both), 'metric_depth', 'instance' and 'normal' "
             "(new arrays on the frame, computed only when asked; with msaa > 1 those of the pixel centre).")
        .def_property_readonly(
            "placement",
            [](PyRenderer& r) { return r.read([](const Renderer& x) { return x.placement().describe(); }); })
        .def_property_readonly(
            "note", [](PyRenderer& r) { return r.read([](const Renderer& x) { return x.placement().note; }); })
        .def_property_readonly("threads",
                               [](PyRenderer& r) { return r.read([](const Renderer& x) { return x.threadCount(); }); })
        .def_property_readonly("device_name",
                               [](PyRenderer& r) { return r.read([](const Renderer& x) { return x.deviceName(); }); })
        .def_property_readonly("gpu_unavailable", [](PyRenderer& r) {
            return r.read([](const Renderer& x) { return x.gpuUnavailable(); });
        });
}

} // namespace facet::python
