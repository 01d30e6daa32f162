// How much memory a load may take, asked before it starts: a file too large for what is left
// is refused with a message naming it, rather than ending in std::bad_alloc halfway through or
// in the kernel's OOM killer (which overcommitted memory meets first).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>

namespace facet {

// Parsing an OBJ takes at most about this many bytes of memory per byte of the file (measured:
// 2 for meshes with every attribute, up to 4 for faces of short indices, when the whole text was
// held; read in blocks since, the 4M-triangle scene peaks at 1.4, and the bound is kept).
inline constexpr std::uint64_t kObjLoadBytesPerFileByte = 4;

// PLY: a binary vertex of three one-byte coordinates becomes 44 bytes of mesh arrays and normal
// scratch, so the worst case is about 20 (float vertices and triangle faces take 3 to 4).
inline constexpr std::uint64_t kPlyLoadBytesPerFileByte = 20;

// STL: a binary facet's 50 bytes become three vertices of 44 bytes each, their indices and the
// normals' scratch, beside the file itself (ASCII facets are longer for the same mesh).
inline constexpr std::uint64_t kStlLoadBytesPerFileByte = 5;

// What this process may still allocate, and which limit says so.
struct MemoryRoom {
    std::uint64_t bytes = 0;
    const char* limit = ""; // "the address space limit (ulimit -v)", "the system's free memory", ...
};

// The least of: the address space limit (RLIMIT_AS, less what is mapped), the control group's
// limit less its use (page cache that can be dropped counted as free), and the system's
// available memory and free swap. nullopt where none of them can be read.
std::optional<MemoryRoom> memoryRoom();

// Throws facet::Error naming `path` when loading it would need more than `room` (estimated as
// fileBytes * bytesPerFileByte).
void checkLoadFits(const std::filesystem::path& path, std::uint64_t fileBytes, std::uint64_t bytesPerFileByte,
                   const std::optional<MemoryRoom>& room);

} // namespace facet
