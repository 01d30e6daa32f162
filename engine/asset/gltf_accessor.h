// glTF accessors read without trusting the file: every element is checked to lie inside its
// buffer view and the view inside its buffer before a byte is read; strides, normalized
// integers and sparse substitutions are applied here. Refusals are facet::ParseError naming the
// file and the JSON path of the property that named the accessor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace tinygltf {
class Model;
}

namespace facet {

struct AccessorFloats {
    std::vector<float> values; // count * components
    int components = 0;
    std::size_t count = 0;
};

// An accessor without a buffer view holds zeros (and its sparse values): more elements than
// this from so little file is refused rather than allocated.
inline constexpr std::size_t kMaxElementsWithoutView = std::size_t(1) << 22;

class AccessorReader {
public:
    AccessorReader(const tinygltf::Model& doc, const std::string& file) : doc_(doc), file_(file) {}

    // Accessor `index` as floats; refused unless its type has one of `allowedComponents`
    // components. Normalized integers become [0, 1] (unsigned) or [-1, 1] (signed).
    AccessorFloats floats(int index, const std::string& path, std::initializer_list<int> allowedComponents) const;
    // An index accessor (SCALAR, unsigned byte, short or int).
    std::vector<std::uint32_t> indices(int index, const std::string& path) const;
    // How many elements accessor `index` has (checked as floats() would).
    std::size_t count(int index, const std::string& path) const;

    struct ViewBytes {
        const unsigned char* data;
        std::size_t size;
    };
    // Buffer view `view`'s bytes, checked to lie in its buffer; `what` says who asks, for messages.
    ViewBytes viewBytes(int view, const std::string& what) const;

    [[noreturn]] void fail(const std::string& what) const;

private:
    struct Layout;
    Layout layout(int index, const std::string& path) const;
    template <class T, class Convert>
    void applySparse(int index, const Layout& l, std::vector<T>& out, const std::string& path, Convert convert) const;
    template <class T, class Convert>
    std::vector<T> read(int index, const Layout& l, const std::string& path, Convert convert) const;

    const tinygltf::Model& doc_;
    const std::string& file_;
};

} // namespace facet
