// facet's PLY reader (Stanford polygon files): ascii, binary_little_endian and
// binary_big_endian bodies, every scalar type and its alias, vertex positions, normals,
// colours and texture coordinates (per vertex or per face corner), polygon faces of any size
// triangulated as OBJ polygons are. Other elements and properties are skipped by their types.
#pragma once

#include "asset/model.h"

#include <filesystem>
#include <string>

namespace facet {

// Loads a PLY file. A file without faces (a point cloud) loads with 0 triangles and a warning.
// Throws facet::ParseError naming the file, the element and the line (ascii) or byte offset
// (binary) when the file cannot be loaded correctly: a broken header, a truncated body, an
// index out of range, a list that overruns the file.
Model loadPly(const std::filesystem::path& path);

// The same from bytes already in memory; `name` is used in messages and `baseDir` to find the
// texture a `comment TextureFile` line names.
Model loadPlyFromBytes(const std::string& bytes, const std::string& name, const std::filesystem::path& baseDir);

} // namespace facet
