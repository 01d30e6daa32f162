// The Python module's parts, one file each: arrays (the checks every NumPy argument passes),
// the model, the scene, the camera, the renderer and facet.project. module.cpp puts them together.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h> // these casters in every part alike: they must not differ between files
#include <pybind11/stl/filesystem.h>

#include <glm/mat4x4.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <exception>
#include <string>
#include <vector>

namespace facet {
struct Warning;
}

namespace facet::python {

namespace py = pybind11;

void bindErrors(py::module_& m);
void bindModel(py::module_& m);
void bindScene(py::module_& m);
void bindCamera(py::module_& m);
void bindRenderer(py::module_& m);
void bindProject(py::module_& m);
void bindImages(py::module_& m);

// Loader warnings as facet.LoadWarning warnings at the file and line they concern.
void emitWarnings(const std::vector<Warning>& warnings);

// Sets the Python exception for a facet::Error (facet.Error, facet.ParseError with its file and
// line); anything else is rethrown. pybind11 calls it for the functions it binds.
void translateFacetError(std::exception_ptr p);

// The same for a function pybind11 does not call (a METH_FASTCALL one): any other exception
// becomes MemoryError (std::bad_alloc) or RuntimeError.
void translateError(std::exception_ptr p);

// One dimension of an expected shape: a fixed size, or any size (kAny).
inline constexpr py::ssize_t kAny = -1;

// `value` as a NumPy array of T, C-contiguous, with `shape` (kAny matching any size), used as is:
// never converted or copied. Raises TypeError when it is not an ndarray of T, ValueError for a
// wrong shape, a non-contiguous array or (when `writable`) a read-only one; each message names
// `name` and what was expected, e.g. "positions must be a float32 array of shape (N, 3), ...".
template <class T>
py::array_t<T> requireArray(py::handle value, const std::string& name, const std::vector<py::ssize_t>& shape,
                            bool writable = false);

// What `value` is, for a message: "float64 array of shape (10, 3)", or its type's name.
std::string describeValue(py::handle value);

// "(N, 3)" for a message; `letters` name the kAny dimensions in order.
std::string shapeText(const std::vector<py::ssize_t>& shape, const char* letters = "NMK");

// A (Rows, Cols) array-like of numbers, each finite as a float32, as m[row][column]; ValueError
// naming `what` and the shape or the entry otherwise.
template <int Rows, int Cols>
std::array<std::array<float, Cols>, Rows> matrixFrom(py::handle value, const char* what) {
    const auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(value);
    if (!a || a.ndim() != 2 || a.shape(0) != Rows || a.shape(1) != Cols)
        throw py::value_error(std::string(what) + " must be a (" + std::to_string(Rows) + ", " + std::to_string(Cols) +
                              ") array of numbers, got " + describeValue(value));
    std::array<std::array<float, Cols>, Rows> m{};
    for (int r = 0; r < Rows; ++r)
        for (int c = 0; c < Cols; ++c) {
            m[r][c] = static_cast<float>(a.at(r, c));
            if (!std::isfinite(m[r][c]))
                throw py::value_error(std::string(what) + " must be finite, got " + std::to_string(a.at(r, c)) +
                                      " at [" + std::to_string(r) + "][" + std::to_string(c) + "]");
        }
    return m;
}

// A 4x4 matrixFrom as glm's matrix (m[column][row]); None is the identity. And back: a new
// (4, 4) float32 array, [row][column] as NumPy reads it. Poses and camera matrices both.
glm::mat4 matrix4From(py::handle value, const char* what);
py::array_t<float> matrix4Array(const glm::mat4& m);

} // namespace facet::python
