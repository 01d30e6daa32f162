// facet.project: the seed's render_all_verts, d = R (v - shift); d.xy *= focus / |d.z|, over
// (N, 3) float32 vertices, on the engine's vectorised CPU path over rows (cpu/project.h) or on
// the GPU (shaders_cuda/vertex_stage.h's kernel, over columns); the GIL is released meanwhile.
#include "bindings.h"

#include "core/error.h"
#include "cpu/project.h"
#if defined(FACET_HAVE_CUDA)
#include "cuda/device.h"
#include "cuda/device_buffer.h"
#endif

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <optional>

namespace facet::python {

namespace {

void projectOnCpu(const float* v, float* out, std::size_t n, ProjectParams p) {
    p.px = v, p.x = out;
    projectVertexRows(p, 0, n);
}

#if defined(FACET_HAVE_CUDA)
// Splits (N, 3) rows into three columns, and back.
void splitRows(const float* v, std::size_t n, float* x, float* y, float* z) {
    for (std::size_t i = 0; i < n; ++i) x[i] = v[3 * i], y[i] = v[3 * i + 1], z[i] = v[3 * i + 2];
}

void joinRows(const float* x, const float* y, const float* z, std::size_t n, float* out) {
    for (std::size_t i = 0; i < n; ++i) out[3 * i] = x[i], out[3 * i + 1] = y[i], out[3 * i + 2] = z[i];
}

// One call's round trip: columns up, the kernel, columns back.
void projectOnGpu(const float* v, float* out, std::size_t n, ProjectParams p, int device) {
    const GpuStatus status = probeGpu(device);
    if (!status.usable) throw Error("facet.project on the GPU: " + status.reason);
    FACET_CUDA_CHECK(cudaSetDevice(chooseGpuDevice(device)));
    std::vector<float> columns(3 * n);
    splitRows(v, n, columns.data(), columns.data() + n, columns.data() + 2 * n);
    DeviceBuffer<float> in, result;
    in.ensure(3 * n);
    result.ensure(3 * n);
    const CudaStream stream;
    in.upload(columns.data(), 3 * n, stream.get());
    p.px = in.data(), p.py = in.data() + n, p.pz = in.data() + 2 * n;
    p.x = result.data(), p.y = result.data() + n, p.z = result.data() + 2 * n;
    p.count = static_cast<std::uint32_t>(n);
    launchProject(p, stream.get());
    FACET_CUDA_CHECK(
        cudaMemcpyAsync(columns.data(), result.data(), 3 * n * sizeof(float), cudaMemcpyDeviceToHost, stream.get()));
    FACET_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    joinRows(columns.data(), columns.data() + n, columns.data() + 2 * n, n, out);
}
#else
void projectOnGpu(const float*, float*, std::size_t, ProjectParams, int) {
    throw Error("facet.project on the GPU: facet was built without CUDA");
}
#endif

// A small parameter (R, shift) as `count` floats; these few numbers are converted from any
// real dtype, unlike the vertices.
template <std::size_t count>
std::array<float, count> smallArray(py::handle value, const char* name, const std::vector<py::ssize_t>& shape) {
    using Floats = py::array_t<float, py::array::forcecast | py::array::c_style>;
    // Float32 arrays as they are (the common case, and the cheap one), anything else converted.
    const auto a = Floats::check_(value) ? py::reinterpret_borrow<Floats>(value) : Floats::ensure(value);
    if (!a || a.ndim() != static_cast<py::ssize_t>(shape.size()) || !std::equal(shape.begin(), shape.end(), a.shape()))
        throw py::value_error(std::string(name) + " must be an array of shape " + shapeText(shape) + ", got " +
                              std::string(py::repr(value)));
    std::array<float, count> out;
    std::copy(a.data(), a.data() + count, out.begin());
    return out;
}

py::array_t<float> project(py::handle vertices, py::handle rotation, py::handle shift, float focus, py::handle out,
                           const std::string& on, std::optional<int> device) {
    const auto v = requireArray<float>(vertices, "vertices", {kAny, 3});
    const auto n = static_cast<std::size_t>(v.shape(0));
    if (n > std::numeric_limits<std::uint32_t>::max()) throw py::value_error("vertices: at most 2^32 - 1 rows");
    const auto r = smallArray<9>(rotation, "R", {3, 3});
    const auto s = smallArray<3>(shift, "shift", {3});
    if (on != "cpu" && on != "gpu") throw py::value_error("on must be 'cpu' or 'gpu', got '" + on + "'");
    py::array_t<float> result = out.is_none() ? py::array_t<float>({v.shape(0), py::ssize_t(3)})
                                              : requireArray<float>(out, "out", {v.shape(0), 3}, true);
    ProjectParams p{};
    p.eye = {s[0], s[1], s[2]};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) p.rotation[j][i] = r[3 * i + j]; // R's rows; glm is column-major
    p.focus = focus;
    const float* in = v.data();
    float* o = result.mutable_data();
    if (o != in && o < in + 3 * n && in < o + 3 * n)
        throw py::value_error("out overlaps vertices without being the same array: pass out=vertices to work in place");
    if (n == 0) return result; // nothing to launch
    py::gil_scoped_release release;
    if (on == "gpu")
        projectOnGpu(in, o, n, p, device.value_or(-1));
    else
        projectOnCpu(in, o, n, p);
    return result;
}

} // namespace

void bindProject(py::module_& m) {
    m.def("project", &project, py::arg("vertices"), py::arg("R"), py::arg("shift"), py::arg("focus"),
          py::arg("out") = py::none(), py::kw_only(), py::arg("on") = "cpu", py::arg("device") = py::none(),
          "The seed's render_all_verts: d = R (v - shift), then d[:, :2] *= focus / |d[:, 2]|, for (N, 3) "
          "float32 C-contiguous vertices; into out ((N, 3) float32, may be vertices itself) or a new array. "
          "on='gpu' runs it on CUDA device `device`.");
}

} // namespace facet::python
