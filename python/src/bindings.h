// The Python module's parts, one file each: arrays (the checks every NumPy argument passes),
// the model, the scene, the camera, the renderer and facet.project. module.cpp puts them together.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h> // these casters in every part alike: they must not differ between files
#include <pybind11/stl/filesystem.h>

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

} // namespace facet::python
