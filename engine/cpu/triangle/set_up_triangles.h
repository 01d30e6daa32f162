// A chunk's set-up triangles (ScreenTriangle), each followed by its attributes
// (TriangleAttributes) in frames whose shading reads them: one stream of 80- or 152-byte
// records. A frame that keeps the attributes finds them beside the triangle, in the lines its
// walk brought in or the next (two arrays cost the textured scenes a few percent); one that
// does not writes and reads 80 bytes a triangle. Sized lazily (host/lazy_vector.h): only the
// records written become resident.
#pragma once

#include "core/triangle_setup.h"
#include "host/lazy_vector.h"

#include <cstddef>
#include <new>

namespace facet {

class SetUpTriangles {
public:
    // Room for `count` records, with or without attributes; what was stored is lost when the
    // layout changes.
    void resize(std::size_t count, bool attributes) {
        stride_ = sizeof(ScreenTriangle) + (attributes ? sizeof(TriangleAttributes) : 0);
        bytes_.resize(count * stride_);
        count_ = count;
    }
    std::size_t size() const { return count_; }
    std::size_t recordSize() const { return stride_; }
    bool keepsAttributes() const { return stride_ > sizeof(ScreenTriangle); }

    // Record i's triangle, begun as an object (trivially: no code) for the set-up to fill.
    ScreenTriangle& place(std::size_t i) { return *::new (record(i)) ScreenTriangle; }
    // And its attributes, or null where they are not kept.
    TriangleAttributes* placeAttributes(std::size_t i) {
        return keepsAttributes() ? ::new (record(i) + sizeof(ScreenTriangle)) TriangleAttributes : nullptr;
    }

    const ScreenTriangle& triangle(std::size_t i) const {
        return *std::launder(reinterpret_cast<const ScreenTriangle*>(record(i)));
    }
    // Record i's attributes; where they are not kept, zeros, which shading then does not read.
    const TriangleAttributes& attributes(std::size_t i) const {
        if (!keepsAttributes()) return none_;
        return *std::launder(reinterpret_cast<const TriangleAttributes*>(record(i) + sizeof(ScreenTriangle)));
    }

private:
    std::byte* record(std::size_t i) { return bytes_.data() + i * stride_; }
    const std::byte* record(std::size_t i) const { return bytes_.data() + i * stride_; }

    LazyVector<std::byte> bytes_;
    std::size_t stride_ = sizeof(ScreenTriangle);
    std::size_t count_ = 0; // bytes_.size() / stride_, kept: the set-up asks for it per triangle
    TriangleAttributes none_{};
};

} // namespace facet
