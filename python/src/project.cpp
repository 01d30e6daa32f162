// facet.project: the seed's render_all_verts, d = R (v - shift); d.xy *= focus / |d.z|, over
// (N, 3) float32 vertices, on the engine's vectorised CPU path over rows (bench/project.h) or on
// the GPU (bench/project_kernels.h's kernel, over columns); the GIL is released meanwhile.
#include "bindings.h"

#include "bench/project.h"
#include "core/error.h"
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

// Below this many vertices facet.project keeps the GIL: releasing and taking it back costs about
// as much as projecting a few hundred vertices, and a call this short (under ~10 us) holds it
// for less time than Python's own 5 ms switch interval lets any thread run.
constexpr std::size_t kReleaseGilFrom = 16384;

// Whether `value` is what facet.project takes without a copy: an ndarray of native float32,
// C-contiguous, of `shape` (kAny: any size), writable when asked; read from NumPy's structs as
// pybind11 reads them, without py::array_t's calls into NumPy: facet.project is called in loops
// on small arrays, where those cost more than the projection. Stricter than requireArray
// (native is little-endian here, '<' or '='), which decides and explains whatever this refuses.
// `arrayType` is numpy.ndarray, kept from import (not npy_api::get() for every array).
template <std::size_t dimensions>
bool fitsFloats(PyTypeObject* arrayType, PyObject* value, const py::ssize_t (&shape)[dimensions],
                bool writable = false) {
    using Api = py::detail::npy_api;
    if (!PyObject_TypeCheck(value, arrayType)) return false;
    const py::detail::PyArray_Proxy* a = py::detail::array_proxy(value);
    const py::detail::PyArrayDescr_Proxy* d = py::detail::array_descriptor_proxy(a->descr);
    const int flags = Api::NPY_ARRAY_C_CONTIGUOUS_ | (writable ? Api::NPY_ARRAY_WRITEABLE_ : 0);
    if (d->type_num != Api::NPY_FLOAT_ || (d->byteorder != '=' && d->byteorder != '<') ||
        a->nd != static_cast<int>(dimensions) || (a->flags & flags) != flags)
        return false;
    for (std::size_t i = 0; i < dimensions; ++i)
        if (shape[i] != kAny && a->dimensions[i] != shape[i]) return false;
    return true;
}

const float* floatData(PyObject* array) { return reinterpret_cast<const float*>(py::detail::array_proxy(array)->data); }

// The rows of float32 `value`, or requireArray's error for what it is instead.
PyObject* vertexRows(PyTypeObject* arrayType, PyObject* value, const char* name, py::ssize_t rows, bool writable) {
    if (!fitsFloats(arrayType, value, {rows, 3}, writable)) requireArray<float>(value, name, {rows, 3}, writable);
    return value;
}

// A small parameter (R, shift) as `count` floats; these few numbers are converted from any
// real dtype, unlike the vertices.
template <std::size_t count, std::size_t dimensions>
std::array<float, count> smallArray(PyTypeObject* arrayType, py::handle value, const char* name,
                                    const py::ssize_t (&shape)[dimensions]) {
    std::array<float, count> out;
    if (fitsFloats(arrayType, value.ptr(), shape)) {
        std::copy(floatData(value.ptr()), floatData(value.ptr()) + count, out.begin());
        return out;
    }
    using Floats = py::array_t<float, py::array::forcecast | py::array::c_style>;
    const auto a = Floats::ensure(value); // any real dtype, converted
    if (!a || a.ndim() != static_cast<py::ssize_t>(dimensions) || !std::equal(shape, shape + dimensions, a.shape()))
        throw py::value_error(std::string(name) + " must be an array of shape " +
                              shapeText({shape, shape + dimensions}) + ", got " + std::string(py::repr(value)));
    std::copy(a.data(), a.data() + count, out.begin());
    return out;
}

// A new C-contiguous (n, 3) float32 array of `float32`, the dtype (a reference of its own is
// handed to NumPy), made without pybind11's shape and stride vectors or a dtype lookup.
py::object newRows(PyTypeObject* arrayType, PyObject* float32, py::ssize_t n) {
    py::ssize_t shape[2] = {n, 3};
    Py_INCREF(float32);
    PyObject* a =
        py::detail::npy_api::get().PyArray_NewFromDescr_(arrayType, float32, 2, shape, nullptr, nullptr, 0, nullptr);
    if (!a) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(a);
}

// facet.project's arguments, in the signature's order.
enum Argument { kVertices, kRotation, kShift, kFocus, kOut, kOn, kDevice, kArguments };
constexpr const char* kArgumentNames[kArguments] = {"vertices", "R", "shift", "focus", "out", "on", "device"};
constexpr Py_ssize_t kPositional = kOn, kRequired = kOut;
static_assert(kPositional == 5, "parseArguments copies up to five positional arguments");

// The arguments of a METH_FASTCALL | METH_KEYWORDS call by position (nullptr: not given), with
// the TypeErrors Python gives a function of this signature.
std::array<PyObject*, kArguments> parseArguments(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
    if (nargs > kPositional)
        throw py::type_error("project() takes from " + std::to_string(kRequired) + " to " +
                             std::to_string(kPositional) + " positional arguments but " + std::to_string(nargs) +
                             " were given");
    // Copied one by one: a memmove call, or the masked load GCC makes of a loop, costs more here
    // (the masked load waits for the interpreter's stores of these pointers to reach the cache).
    std::array<PyObject*, kArguments> a{};
    switch (nargs) {
    case 5: a[4] = args[4]; [[fallthrough]];
    case 4: a[3] = args[3]; [[fallthrough]];
    case 3: a[2] = args[2]; [[fallthrough]];
    case 2: a[1] = args[1]; [[fallthrough]];
    case 1: a[0] = args[0]; [[fallthrough]];
    default: break;
    }
    const Py_ssize_t keywords = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < keywords; ++k) {
        PyObject* name = PyTuple_GET_ITEM(kwnames, k);
        int i = 0;
        while (i < kArguments && PyUnicode_CompareWithASCIIString(name, kArgumentNames[i]) != 0) ++i;
        if (i == kArguments)
            throw py::type_error("project() got an unexpected keyword argument '" + py::str(name).cast<std::string>() +
                                 "'");
        if (a[i])
            throw py::type_error(std::string("project() got multiple values for argument '") + kArgumentNames[i] + "'");
        a[i] = args[nargs + k];
    }
    for (int i = 0; i < kRequired; ++i)
        if (!a[i]) throw py::type_error(std::string("project() missing required argument '") + kArgumentNames[i] + "'");
    return a;
}

// A NumPy float32 scalar, as NumPy lays it out (numpy/arrayscalars.h's PyFloatScalarObject).
struct Float32Scalar {
    PyObject_HEAD float value;
};

// focus from a Python float or a NumPy float32 (read directly: the common cases, and the ones
// PyFloat_AsDouble is slowest for, through float32.__float__), or any number with __float__.
float focusValue(PyObject* value, PyObject* float32Type) {
    if (Py_TYPE(value) == reinterpret_cast<PyTypeObject*>(float32Type))
        return reinterpret_cast<const Float32Scalar*>(value)->value;
    const double focus = PyFloat_CheckExact(value) ? PyFloat_AS_DOUBLE(value) : PyFloat_AsDouble(value);
    if (focus == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        throw py::type_error("focus must be a real number, got " + describeValue(value));
    }
    return static_cast<float>(focus);
}

bool onGpu(PyObject* on) {
    if (!on) return false;
    if (!PyUnicode_Check(on)) throw py::type_error("on must be 'cpu' or 'gpu', got " + describeValue(on));
    if (PyUnicode_CompareWithASCIIString(on, "cpu") == 0) return false;
    if (PyUnicode_CompareWithASCIIString(on, "gpu") == 0) return true;
    throw py::value_error("on must be 'cpu' or 'gpu', got '" + py::str(on).cast<std::string>() + "'");
}

int deviceValue(PyObject* device) {
    if (!device || device == Py_None) return -1;
    const long value = PyLong_Check(device) || PyIndex_Check(device) ? PyLong_AsLong(device) : -1;
    if ((!PyLong_Check(device) && !PyIndex_Check(device)) || (value == -1 && PyErr_Occurred()) ||
        value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max()) {
        PyErr_Clear();
        throw py::type_error("device must be a CUDA device number or None, got " + describeValue(device));
    }
    return static_cast<int>(value);
}

// What facet.project keeps between calls, looked up once when the module is imported: the CPU
// path (cpu/simd/isa.h; None when FACET_ISA is wrong, chosenIsa() then says why at each call),
// NumPy's float32 scalar type, the float32 dtype (for new results) and numpy.ndarray. A tuple,
// the function object's `self`.
enum Kept { kIsa, kFloat32Type, kFloat32, kArrayType, kKept };

// The numbers of d = R (v - shift); d.xy *= focus / |d.z| for rows `in` to `out`, set field by
// field (a ProjectParams{} is a rep stos, a tenth of a small call's own cost).
ProjectParams rowParams(const std::array<float, 9>& r, const std::array<float, 3>& s, float focus, const float* in,
                        float* out, std::size_t n) {
    ProjectParams p;
    p.px = in, p.x = out; // rows in, rows out (bench/project.h)
    p.py = p.pz = nullptr, p.y = p.z = nullptr;
    p.count = static_cast<std::uint32_t>(n);
    p.eye = {s[0], s[1], s[2]};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) p.rotation[j][i] = r[3 * i + j]; // R's rows; glm is column-major
    p.focus = focus;
    return p;
}

PyObject* project(PyObject* kept, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
    const std::array<PyObject*, kArguments> a = parseArguments(args, nargs, kwnames);
    auto* arrayType = reinterpret_cast<PyTypeObject*>(PyTuple_GET_ITEM(kept, kArrayType));
    PyObject* vertices = vertexRows(arrayType, a[kVertices], "vertices", kAny, false);
    const py::ssize_t rows = py::detail::array_proxy(vertices)->dimensions[0];
    const auto n = static_cast<std::size_t>(rows);
    if (n > std::numeric_limits<std::uint32_t>::max()) throw py::value_error("vertices: at most 2^32 - 1 rows");
    const auto r = smallArray<9>(arrayType, a[kRotation], "R", {3, 3});
    const auto s = smallArray<3>(arrayType, a[kShift], "shift", {3});
    const float focus = focusValue(a[kFocus], PyTuple_GET_ITEM(kept, kFloat32Type));
    const bool gpu = onGpu(a[kOn]);
    const int device = deviceValue(a[kDevice]);
    const py::object result =
        !a[kOut] || a[kOut] == Py_None
            ? newRows(arrayType, PyTuple_GET_ITEM(kept, kFloat32), rows)
            : py::reinterpret_borrow<py::object>(vertexRows(arrayType, a[kOut], "out", rows, true));
    const float* in = floatData(vertices);
    auto* out = reinterpret_cast<float*>(py::detail::array_proxy(result.ptr())->data);
    if (out != in && out < in + 3 * n && in < out + 3 * n)
        throw py::value_error("out overlaps vertices without being the same array: pass out=vertices to work in place");
    if (n > 0) { // nothing to launch otherwise
        const ProjectParams p = rowParams(r, s, focus, in, out, n);
        std::optional<py::gil_scoped_release> release;
        if (gpu || n >= kReleaseGilFrom) release.emplace();
        if (gpu) {
            projectOnGpu(p.px, p.x, n, p, device);
        } else {
            PyObject* isa = PyTuple_GET_ITEM(kept, kIsa);
            projectVertexRows(p, 0, n, isa == Py_None ? chosenIsa() : static_cast<Isa>(PyLong_AsLong(isa)));
        }
    }
    return result.inc_ref().ptr();
}

// facet.project as a METH_FASTCALL function rather than through pybind11's dispatcher, whose
// argument conversion costs about as long as projecting a thousand vertices. Errors become the
// Python exceptions pybind11 would raise for them (facet::Error as facet.Error).
PyObject* projectEntry(PyObject* kept, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
    try {
        return project(kept, args, nargs, kwnames);
    } catch (py::error_already_set& e) {
        e.restore();
    } catch (const py::builtin_exception& e) {
        e.set_error();
    } catch (...) {
        translateError(std::current_exception());
    }
    return nullptr;
}

} // namespace

void bindProject(py::module_& m) {
    // Static: Python keeps a pointer to the definition for as long as the function lives.
    static PyMethodDef definition = {
        "project", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&projectEntry)),
        METH_FASTCALL | METH_KEYWORDS,
        "project($module, vertices, R, shift, focus, out=None, *, on='cpu', device=None)\n--\n\n"
        "The seed's render_all_verts: d = R (v - shift), then d[:, :2] *= focus / |d[:, 2]|, for (N, 3) "
        "float32 C-contiguous vertices; into out ((N, 3) float32, may be vertices itself) or a new array. "
        "on='gpu' runs it on CUDA device `device`."};
    py::object isa = py::none(); // the CPU path chosen once, rather than by a getenv per call
    try {
        isa = py::int_(static_cast<int>(chosenIsa()));
    } catch (const Error&) {
    }
    py::tuple kept(static_cast<std::size_t>(kKept));
    kept[kIsa] = isa;
    kept[kFloat32Type] = py::dtype::of<float>().attr("type");
    kept[kFloat32] = py::dtype::of<float>();
    kept[kArrayType] = py::reinterpret_borrow<py::object>(
        reinterpret_cast<PyObject*>(py::detail::npy_api::get().PyArray_Type_));
    m.attr("project") =
        py::reinterpret_steal<py::object>(PyCFunction_NewEx(&definition, kept.ptr(), m.attr("__name__").ptr()));
}

} // namespace facet::python
