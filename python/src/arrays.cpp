#include "bindings.h"

#include <cstdint>

namespace facet::python {

namespace {

template <class T> const char* dtypeName();
template <> const char* dtypeName<float>() { return "float32"; }
template <> const char* dtypeName<std::uint8_t>() { return "uint8"; }
template <> const char* dtypeName<std::uint32_t>() { return "uint32"; }

} // namespace

std::string describeValue(py::handle value) {
    if (!py::isinstance<py::array>(value)) return std::string(py::str(py::type::of(value).attr("__name__")));
    const auto a = py::reinterpret_borrow<py::array>(value);
    std::string shape;
    for (py::ssize_t i = 0; i < a.ndim(); ++i) shape += (i ? ", " : "") + std::to_string(a.shape(i));
    if (a.ndim() == 1) shape += ",";
    return std::string(py::str(a.dtype())) + " array of shape (" + shape + ")";
}

std::string shapeText(const std::vector<py::ssize_t>& shape, const char* letters) {
    std::string text = "(";
    std::size_t letter = 0;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i) text += ", ";
        text += shape[i] == kAny ? std::string(1, letters[letter++]) : std::to_string(shape[i]);
    }
    return text + (shape.size() == 1 ? ",)" : ")");
}

template <class T>
py::array_t<T> requireArray(py::handle value, const std::string& name, const std::vector<py::ssize_t>& shape,
                            bool writable) {
    const std::string expected =
        std::string("a C-contiguous ") + dtypeName<T>() + " array of shape " + shapeText(shape);
    if (!py::array_t<T>::check_(value))
        throw py::type_error(name + " must be " + expected + ", got " + describeValue(value) +
                             " (facet converts nothing silently: use .astype(numpy." + dtypeName<T>() + "))");
    auto a = py::reinterpret_borrow<py::array_t<T>>(value);
    bool fits = a.ndim() == static_cast<py::ssize_t>(shape.size());
    for (std::size_t i = 0; fits && i < shape.size(); ++i) fits = shape[i] == kAny || a.shape(i) == shape[i];
    if (!fits) throw py::value_error(name + " must be " + expected + ", got " + describeValue(value));
    if (!(a.flags() & py::array::c_style))
        throw py::value_error(name + " must be " + expected +
                              ", got a non-contiguous one (use numpy.ascontiguousarray)");
    if (writable && !a.writeable()) throw py::value_error(name + " must be writable, got a read-only array");
    return a;
}

template py::array_t<float> requireArray<float>(py::handle, const std::string&, const std::vector<py::ssize_t>&, bool);
template py::array_t<std::uint8_t> requireArray<std::uint8_t>(py::handle, const std::string&,
                                                              const std::vector<py::ssize_t>&, bool);
template py::array_t<std::uint32_t> requireArray<std::uint32_t>(py::handle, const std::string&,
                                                                const std::vector<py::ssize_t>&, bool);

glm::mat4 matrix4From(py::handle value, const char* what) {
    if (value.is_none()) return glm::mat4(1.0f);
    const auto m = matrixFrom<4, 4>(value, what);
    glm::mat4 out;
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) out[c][r] = m[r][c]; // glm: [column][row]
    return out;
}

py::array_t<float> matrix4Array(const glm::mat4& m) {
    py::array_t<float> out({4, 4});
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) out.mutable_at(r, c) = m[c][r];
    return out;
}

} // namespace facet::python
