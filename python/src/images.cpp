// Pictures to and from files through the engine's image code, so a frame written from Python
// is the same file facet-render writes.
#include "bindings.h"

#include "asset/image.h"

#include <cstdint>
#include <cstring>

namespace facet::python {

py::array_t<std::uint8_t> imageArray(const Image& image) {
    py::array_t<std::uint8_t> out({py::ssize_t(image.height), py::ssize_t(image.width), py::ssize_t(4)});
    std::memcpy(out.mutable_data(), image.pixels.data(), image.pixels.size() * sizeof(std::uint32_t));
    return out;
}

void bindImages(py::module_& m) {
    m.def(
        "read_image",
        [](const std::filesystem::path& path) {
            Image image;
            {
                py::gil_scoped_release release;
                image = loadImage(path);
            }
            return imageArray(image);
        },
        py::arg("path"), "A PNG, JPEG, TGA or BMP file as an (h, w, 4) uint8 RGBA array, top row first.");
    m.def(
        "write_png",
        [](const std::filesystem::path& path, py::handle color) {
            const auto a = requireArray<std::uint8_t>(color, "color", {kAny, kAny, 4});
            Image image{static_cast<std::uint32_t>(a.shape(1)), static_cast<std::uint32_t>(a.shape(0)), {}};
            image.pixels.resize(std::size_t(image.width) * image.height);
            std::memcpy(image.pixels.data(), a.data(), image.pixels.size() * sizeof(std::uint32_t));
            py::gil_scoped_release release;
            writePng(path, image);
        },
        py::arg("path"), py::arg("color"),
        "Writes an (h, w, 4) uint8 RGBA array (top row first) as a PNG, as facet-render writes its pictures.");
}

} // namespace facet::python
