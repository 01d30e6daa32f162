// facet's Python module: `import facet` loads this as facet._facet; python/facet/__init__.py
// re-exports it with the package's Python helpers.
#include "bindings.h"

#include "core/error.h"
#include "facet/version.h"
#include "renderer.h"

namespace facet::python {

namespace {

// The exception types, made once when the module is imported and kept with it.
struct ErrorTypes {
    py::object error, parseError;
};

ErrorTypes& errorTypes() {
    static ErrorTypes* types = new ErrorTypes(); // never destroyed: Python may outlive C++ statics
    return *types;
}

} // namespace

void bindErrors(py::module_& m) {
    ErrorTypes& types = errorTypes();
    types.error = py::reinterpret_steal<py::object>(PyErr_NewExceptionWithDoc(
        "facet.Error", "A failure facet reports (facet::Error).", PyExc_RuntimeError, nullptr));
    types.parseError = py::reinterpret_steal<py::object>(PyErr_NewExceptionWithDoc(
        "facet.ParseError", "A rejected input file; .file and .line (1-based, 0: the whole file) say where.",
        types.error.ptr(), nullptr));
    m.attr("Error") = types.error;
    m.attr("ParseError") = types.parseError;
    m.attr("LoadWarning") = py::reinterpret_steal<py::object>(PyErr_NewExceptionWithDoc(
        "facet.LoadWarning", "Something a loader recovered from (missing MTL or texture, dropped faces).",
        PyExc_UserWarning, nullptr));
    py::register_exception_translator(&translateFacetError);
}

void translateFacetError(std::exception_ptr p) {
    try {
        if (p) std::rethrow_exception(p);
    } catch (const ParseError& e) {
        py::object error = errorTypes().parseError(e.what());
        error.attr("file") = e.file();
        error.attr("line") = e.line();
        PyErr_SetObject(errorTypes().parseError.ptr(), error.ptr());
    } catch (const Error& e) {
        PyErr_SetString(errorTypes().error.ptr(), e.what());
    }
}

void translateError(std::exception_ptr p) {
    try {
        translateFacetError(p);
    } catch (const std::bad_alloc&) {
        PyErr_NoMemory();
    } catch (const std::exception& e) {
        PyErr_SetString(PyExc_RuntimeError, e.what());
    } catch (...) {
        PyErr_SetString(PyExc_RuntimeError, "facet: an unknown C++ exception");
    }
}

PYBIND11_MODULE(_facet, m) {
    m.doc() = "facet: a software rasterizer on the CPU and the GPU, NumPy-native";
    m.attr("__version__") = FACET_VERSION_STRING; // CMakeLists.txt's project version, as the apps' --version
    bindErrors(m);
    bindImages(m);
    bindModel(m);
    bindScene(m);
    bindCamera(m);
    bindRenderer(m);
    bindProject(m);
    m.def("gpus", &describeGpus, "The CUDA devices, one line each (one 'none: why' line without any).");
}

} // namespace facet::python
