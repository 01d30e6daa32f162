// Reading the text formats (OBJ, MTL) from disk: refuse what is not a regular file of sane
// size before reading it, and turn every encoding we meet in the wild into plain UTF-8.
#pragma once

#include <filesystem>
#include <string>

namespace facet {

// Files above this size are refused before reading (a 1M-triangle OBJ is about 100 MB).
inline constexpr std::uintmax_t kMaxTextFileBytes = std::uintmax_t(4) << 30;

// The raw bytes of a file. Throws facet::Error naming the path when it is missing, not a
// regular file (a directory, /dev/zero, a FIFO), larger than kMaxTextFileBytes or unreadable.
std::string readFileBytes(const std::filesystem::path& path);

// Text as UTF-8 without a byte-order mark and with '\n' line ends (a CR-only file has its CRs
// turned into LFs; CRLF is left for the scanner, which treats CR as a blank). UTF-16 LE/BE (with a
// BOM, or recognised by its NUL bytes) is converted when every character is ASCII. Throws
// facet::ParseError naming `name` for UTF-16 with other characters and for binary files.
std::string decodeText(std::string bytes, const std::string& name);

} // namespace facet
