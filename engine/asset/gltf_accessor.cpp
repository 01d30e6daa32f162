#include "asset/gltf_accessor.h"

#include "core/error.h"

#include <tiny_gltf.h>

#include <algorithm>
#include <cstring>

namespace facet {

namespace {

std::size_t componentSize(int type) {
    switch (type) {
    case TINYGLTF_COMPONENT_TYPE_BYTE:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return 1;
    case TINYGLTF_COMPONENT_TYPE_SHORT:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: return 2;
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
    case TINYGLTF_COMPONENT_TYPE_FLOAT: return 4;
    default: return 0; // INT and DOUBLE are not glTF 2.0 accessor types
    }
}

int componentsOf(int type) {
    switch (type) {
    case TINYGLTF_TYPE_SCALAR: return 1;
    case TINYGLTF_TYPE_VEC2: return 2;
    case TINYGLTF_TYPE_VEC3: return 3;
    case TINYGLTF_TYPE_VEC4:
    case TINYGLTF_TYPE_MAT2: return 4;
    case TINYGLTF_TYPE_MAT3: return 9;
    case TINYGLTF_TYPE_MAT4: return 16;
    default: return 0;
    }
}

template <class T>
T load(const unsigned char* p) {
    T v;
    std::memcpy(&v, p, sizeof v); // glTF is little-endian, as the hosts facet runs on
    return v;
}

// One component as a float; normalized integers as the spec maps them.
float toFloat(const unsigned char* p, int type, bool normalized) {
    switch (type) {
    case TINYGLTF_COMPONENT_TYPE_BYTE: {
        const float v = load<std::int8_t>(p);
        return normalized ? std::max(v / 127.0f, -1.0f) : v;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return load<std::uint8_t>(p) / (normalized ? 255.0f : 1.0f);
    case TINYGLTF_COMPONENT_TYPE_SHORT: {
        const float v = load<std::int16_t>(p);
        return normalized ? std::max(v / 32767.0f, -1.0f) : v;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: return load<std::uint16_t>(p) / (normalized ? 65535.0f : 1.0f);
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
        return static_cast<float>(load<std::uint32_t>(p) / (normalized ? 4294967295.0 : 1.0));
    default: return load<float>(p);
    }
}

std::uint32_t toIndex(const unsigned char* p, int type, bool) {
    switch (type) {
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return load<std::uint8_t>(p);
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: return load<std::uint16_t>(p);
    default: return load<std::uint32_t>(p);
    }
}

} // namespace

struct AccessorReader::Layout {
    const unsigned char* data = nullptr; // element 0; null for an accessor without a buffer view
    std::size_t stride = 0, count = 0, componentSize = 0;
    int componentType = 0, components = 0;
    bool normalized = false;
};

void AccessorReader::fail(const std::string& what) const { throw ParseError(file_, 0, what); }

AccessorReader::ViewBytes AccessorReader::viewBytes(int view, const std::string& what) const {
    if (view < 0 || std::size_t(view) >= doc_.bufferViews.size())
        fail(what + ": bufferView " + std::to_string(view) + " does not exist (" +
             std::to_string(doc_.bufferViews.size()) + " bufferViews)");
    const tinygltf::BufferView& v = doc_.bufferViews[std::size_t(view)];
    const std::string where = what + ": bufferViews[" + std::to_string(view) + "]";
    if (v.buffer < 0 || std::size_t(v.buffer) >= doc_.buffers.size())
        fail(where + " names buffer " + std::to_string(v.buffer) + ", which does not exist");
    const std::vector<unsigned char>& data = doc_.buffers[std::size_t(v.buffer)].data;
    if (v.byteOffset > data.size() || v.byteLength > data.size() - v.byteOffset)
        fail(where + " (bytes " + std::to_string(v.byteOffset) + " + " + std::to_string(v.byteLength) +
             ") runs past the end of buffer " + std::to_string(v.buffer) + " (" + std::to_string(data.size()) + " bytes)");
    return {data.data() + v.byteOffset, v.byteLength};
}

AccessorReader::Layout AccessorReader::layout(int index, const std::string& path) const {
    if (index < 0 || std::size_t(index) >= doc_.accessors.size())
        fail(path + ": accessor " + std::to_string(index) + " does not exist (" + std::to_string(doc_.accessors.size()) +
             " accessors)");
    const tinygltf::Accessor& a = doc_.accessors[std::size_t(index)];
    const std::string where = path + ": accessor " + std::to_string(index);
    Layout l;
    l.componentType = a.componentType;
    l.componentSize = componentSize(a.componentType);
    l.components = componentsOf(a.type);
    l.normalized = a.normalized;
    l.count = a.count;
    if (l.componentSize == 0 || l.components == 0)
        fail(where + " has a component type (" + std::to_string(a.componentType) + ") or type facet cannot read");
    const std::size_t element = l.componentSize * std::size_t(l.components);
    if (a.bufferView < 0) {
        if (a.count > kMaxElementsWithoutView)
            fail(where + " has no bufferView and " + std::to_string(a.count) + " elements (facet reads at most " +
                 std::to_string(kMaxElementsWithoutView) + " without one)");
        return l;
    }
    const ViewBytes view = viewBytes(a.bufferView, where);
    const std::size_t declared = doc_.bufferViews[std::size_t(a.bufferView)].byteStride;
    l.stride = declared ? declared : element;
    if (l.stride < element)
        fail(where + ": its bufferView's byteStride " + std::to_string(l.stride) + " is less than an element's " +
             std::to_string(element) + " bytes");
    const bool fits = a.count == 0 || (a.byteOffset <= view.size && view.size - a.byteOffset >= element &&
                                       (a.count - 1) <= (view.size - a.byteOffset - element) / l.stride);
    if (!fits)
        fail(where + " (" + std::to_string(a.count) + " elements of " + std::to_string(element) + " bytes, stride " +
             std::to_string(l.stride) + ", from byte " + std::to_string(a.byteOffset) + ") does not fit its bufferView " +
             std::to_string(a.bufferView) + " of " + std::to_string(view.size) + " bytes");
    l.data = view.data + a.byteOffset;
    return l;
}

template <class T, class Convert>
void AccessorReader::applySparse(int index, const Layout& l, std::vector<T>& out, const std::string& path,
                                 Convert convert) const {
    const tinygltf::Accessor& a = doc_.accessors[std::size_t(index)];
    if (!a.sparse.isSparse) return;
    const std::string where = path + ": accessor " + std::to_string(index) + "'s sparse";
    const auto n = static_cast<std::size_t>(std::max(a.sparse.count, 0));
    if (a.sparse.count < 1 || n > l.count)
        fail(where + " count " + std::to_string(a.sparse.count) + " is not in 1.." + std::to_string(l.count));
    const std::size_t indexSize = componentSize(a.sparse.indices.componentType);
    if (indexSize == 0 || a.sparse.indices.componentType == TINYGLTF_COMPONENT_TYPE_BYTE ||
        a.sparse.indices.componentType == TINYGLTF_COMPONENT_TYPE_SHORT ||
        a.sparse.indices.componentType == TINYGLTF_COMPONENT_TYPE_FLOAT)
        fail(where + ".indices has a component type that is not an unsigned integer");
    const std::size_t element = l.componentSize * std::size_t(l.components);
    const ViewBytes iv = viewBytes(a.sparse.indices.bufferView, where + ".indices");
    const ViewBytes vv = viewBytes(a.sparse.values.bufferView, where + ".values");
    const auto fits = [n](const ViewBytes& v, int offset, std::size_t size) {
        return offset >= 0 && std::size_t(offset) <= v.size && (v.size - std::size_t(offset)) / size >= n;
    };
    if (!fits(iv, a.sparse.indices.byteOffset, indexSize)) fail(where + ".indices do not fit their bufferView");
    if (!fits(vv, a.sparse.values.byteOffset, element)) fail(where + ".values do not fit their bufferView");
    const unsigned char* indices = iv.data + a.sparse.indices.byteOffset;
    const unsigned char* values = vv.data + a.sparse.values.byteOffset;
    for (std::size_t k = 0; k < n; ++k) {
        const std::uint32_t target = toIndex(indices + k * indexSize, a.sparse.indices.componentType, false);
        if (target >= l.count)
            fail(where + " index " + std::to_string(target) + " is out of range (" + std::to_string(l.count) + " elements)");
        for (int c = 0; c < l.components; ++c)
            out[std::size_t(target) * std::size_t(l.components) + std::size_t(c)] =
                convert(values + k * element + std::size_t(c) * l.componentSize, l.componentType, l.normalized);
    }
}

template <class T, class Convert>
std::vector<T> AccessorReader::read(int index, const Layout& l, const std::string& path, Convert convert) const {
    std::vector<T> out(l.count * std::size_t(l.components), T{});
    if (l.data)
        for (std::size_t i = 0; i < l.count; ++i)
            for (int c = 0; c < l.components; ++c)
                out[i * std::size_t(l.components) + std::size_t(c)] =
                    convert(l.data + i * l.stride + std::size_t(c) * l.componentSize, l.componentType, l.normalized);
    applySparse(index, l, out, path, convert);
    return out;
}

AccessorFloats AccessorReader::floats(int index, const std::string& path, std::initializer_list<int> allowedComponents) const {
    const Layout l = layout(index, path);
    if (std::find(allowedComponents.begin(), allowedComponents.end(), l.components) == allowedComponents.end()) {
        std::string wanted;
        for (const int c : allowedComponents) wanted += (wanted.empty() ? "" : " or ") + std::to_string(c);
        fail(path + ": accessor " + std::to_string(index) + " has " + std::to_string(l.components) +
             " components an element; this attribute takes " + wanted);
    }
    return {read<float>(index, l, path, toFloat), l.components, l.count};
}

std::vector<std::uint32_t> AccessorReader::indices(int index, const std::string& path) const {
    const Layout l = layout(index, path);
    const bool unsignedInt = l.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE ||
                             l.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT ||
                             l.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT;
    if (l.components != 1 || !unsignedInt)
        fail(path + ": accessor " + std::to_string(index) + " is not SCALAR of unsigned byte, short or int");
    return read<std::uint32_t>(index, l, path, toIndex);
}

std::size_t AccessorReader::count(int index, const std::string& path) const { return layout(index, path).count; }

} // namespace facet
