// Reading the text formats (OBJ, MTL) from disk: refuse what is not a regular file of sane
// size before reading it, and turn every encoding we meet in the wild into plain UTF-8.
#pragma once

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

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

// A text file read a block at a time, each block ending where `cut` says (for OBJ, at the end of
// a logical line), so that a parser holds one block, never the whole file. A file decodeText
// would convert (UTF-16, CR-only line ends) comes whole, decoded, as one block; a NUL byte is
// refused as decodeText refuses it, naming its line.
class TextBlocks {
public:
    // Where the text's last whole unit ends; 0 when it holds none (the block is then grown).
    using Cut = std::size_t (*)(std::string_view text);

    // Refuses what readFileBytes refuses.
    TextBlocks(const std::filesystem::path& path, Cut cut, std::size_t blockBytes = std::size_t(8) << 20);

    // The next block; false after the last. Throws facet::Error when the file grows or shrinks
    // while it is read. `linesBefore`, the lines of the blocks before, numbers a NUL byte's line.
    bool next(std::string& block, std::size_t linesBefore);
    // The file's size when opened, in bytes.
    std::size_t size() const { return size_; }

private:
    void read(std::string& to, std::size_t count);
    bool plainFirstBlock(std::string& block) const;

    std::filesystem::path path_;
    Cut cut_;
    std::size_t blockBytes_;
    std::size_t size_;      // the file's size when opened
    std::size_t read_ = 0;  // bytes read so far
    bool atEnd_ = false;
    std::string carry_;     // read past the last block's end
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_;
};

} // namespace facet
