// facet's STL reader: binary (recognised by its size, 84 + 50 bytes a facet, whatever its
// header says) and ASCII (several solids, any blanks, CRLF). Every facet keeps its own three
// vertices, so the normals computed from them are the facets' own (flat shading); the file's
// facet normals are not read, since exporters often leave them zero or wrong.
#pragma once

#include "asset/model.h"

#include <cstddef>
#include <filesystem>
#include <string>

namespace facet {

// From this many facets a binary body is read, and its normals and bounds made, on two threads
// where the machine has two (below, a second thread costs more to start than it saves).
inline constexpr std::size_t kStlTwoThreadFacets = std::size_t(1) << 15;

// Loads an STL file; a file with no facets loads with 0 triangles and a warning. Per-facet
// colours are read from binary files whose header carries Materialise's "COLOR=". Throws
// facet::ParseError naming the file and the line (ASCII) or byte offset (binary) when the file
// is empty, truncated or malformed.
Model loadStl(const std::filesystem::path& path);

// The same from bytes already in memory; `name` is used in messages.
Model loadStlFromBytes(const std::string& bytes, const std::string& name);

} // namespace facet
