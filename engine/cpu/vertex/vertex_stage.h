// The CPU vertex stage (vertex_stage.cpp, vertex_classify.cpp): camera-space positions of a
// range of vertices, then their clip classification and projection.
#pragma once

#include "core/mesh.h"
#include "core/transform.h"
#include "core/triangle_stage.h"

#include <cstddef>
#include <cstdint>

namespace facet {

// The vertex stage over vertices [begin, end): d = R (v - eye) into structure-of-arrays
// outputs. Takes chosenIsa()'s path (cpu/simd/isa.h: AVX-512 or AVX2); every path rounds identically.
void transformVertices(const Mesh& mesh, const ViewParams& view, std::size_t begin, std::size_t end, float* dx,
                       float* dy, float* dz);

// classifyVertex for vertices [begin, end), eight at a time (AVX2), with the same results.
void classifyVertices(const MeshView& mesh, const float* dx, const float* dy, const float* dz, const ClipPlanes& planes,
                      const ViewParams& view, int width, int height, std::uint8_t* outside, ScreenVertex* projected,
                      std::size_t begin, std::size_t end);

} // namespace facet
