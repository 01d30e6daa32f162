#include "asset/text_file.h"

#include "host/huge_pages.h"

#include "core/error.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <system_error>

namespace facet {

namespace {

enum class Utf16 { No, LittleEndian, BigEndian };

std::size_t lineOfOffset(const std::string& text, std::size_t offset) {
    return 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + std::ptrdiff_t(offset), '\n'));
}

// UTF-16 without a BOM shows up as ASCII text with a NUL in every other byte. Anything else
// with NUL bytes is not text.
Utf16 guessUtf16(const std::string& bytes) {
    if (bytes.size() % 2 != 0) return Utf16::No;
    std::size_t evenNuls = 0, oddNuls = 0;
    for (std::size_t i = 0; i < bytes.size(); ++i)
        if (bytes[i] == '\0') ++((i % 2 == 0) ? evenNuls : oddNuls);
    const std::size_t half = bytes.size() / 2;
    if (evenNuls == 0 && oddNuls * 2 > half) return Utf16::LittleEndian;
    if (oddNuls == 0 && evenNuls * 2 > half) return Utf16::BigEndian;
    return Utf16::No;
}

std::string utf16ToAscii(const std::string& bytes, std::size_t start, Utf16 order, const std::string& name) {
    if ((bytes.size() - start) % 2 != 0)
        throw ParseError(name, 0, "UTF-16 file with an odd number of bytes (truncated?)");
    std::string text;
    text.reserve((bytes.size() - start) / 2);
    for (std::size_t i = start; i + 1 < bytes.size(); i += 2) {
        const auto lo = static_cast<unsigned char>(bytes[order == Utf16::LittleEndian ? i : i + 1]);
        const auto hi = static_cast<unsigned char>(bytes[order == Utf16::LittleEndian ? i + 1 : i]);
        const unsigned unit = (unsigned(hi) << 8) | lo;
        if (unit >= 0x80 || unit == 0)
            throw ParseError(name, lineOfOffset(text, text.size()),
                             "UTF-16 file with a non-ASCII character; save it as UTF-8 or ASCII");
        text.push_back(static_cast<char>(unit));
    }
    return text;
}

} // namespace

namespace {

// The size of the file at `path`, refusing what readFileBytes refuses.
std::size_t checkedSize(const std::filesystem::path& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (!fs::exists(status)) throw Error(path.string() + ": file not found");
    if (fs::is_directory(status)) throw Error(path.string() + ": is a directory, not a file");
    if (!fs::is_regular_file(status)) throw Error(path.string() + ": not a regular file");
    const std::uintmax_t size = fs::file_size(path, ec);
    if (ec) throw Error(path.string() + ": cannot read the file size: " + ec.message());
    if (size > kMaxTextFileBytes) throw Error(path.string() + ": file is larger than 4 GiB");
    return static_cast<std::size_t>(size);
}

std::unique_ptr<std::FILE, int (*)(std::FILE*)> openFile(const std::filesystem::path& path) {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.string().c_str(), "rb"), std::fclose);
    if (!file) throw Error(path.string() + ": cannot open: " + std::strerror(errno));
    return file;
}

} // namespace

std::string readFileBytes(const std::filesystem::path& path) {
    const std::size_t size = checkedSize(path);
    const auto file = openFile(path);
    std::string bytes;
    reserveOnHugePages(bytes, size);
    bytes.resize(size);
    const std::size_t got = std::fread(bytes.data(), 1, bytes.size(), file.get());
    if (got != bytes.size()) throw Error(path.string() + ": read " + std::to_string(got) + " of " +
                                         std::to_string(bytes.size()) + " bytes");
    return bytes;
}

std::string decodeText(std::string bytes, const std::string& name) {
    const auto startsWith = [&](const char* bom, std::size_t n) {
        return bytes.size() >= n && std::memcmp(bytes.data(), bom, n) == 0;
    };
    std::string text;
    if (startsWith("\xFF\xFE", 2)) {
        text = utf16ToAscii(bytes, 2, Utf16::LittleEndian, name);
    } else if (startsWith("\xFE\xFF", 2)) {
        text = utf16ToAscii(bytes, 2, Utf16::BigEndian, name);
    } else {
        const bool utf8Bom = startsWith("\xEF\xBB\xBF", 3);
        if (utf8Bom) bytes.erase(0, 3);
        if (const void* nul = std::memchr(bytes.data(), '\0', bytes.size())) {
            const Utf16 order = utf8Bom ? Utf16::No : guessUtf16(bytes);
            if (order == Utf16::No) {
                const auto offset = static_cast<std::size_t>(static_cast<const char*>(nul) - bytes.data());
                throw ParseError(name, lineOfOffset(bytes, offset), "binary file (NUL byte); expected text");
            }
            text = utf16ToAscii(bytes, 0, order, name);
        } else {
            text = std::move(bytes);
        }
    }
    // Classic Mac files end lines with CR alone.
    if (text.find('\n') == std::string::npos) std::replace(text.begin(), text.end(), '\r', '\n');
    return text;
}

TextBlocks::TextBlocks(const std::filesystem::path& path, Cut cut, std::size_t blockBytes)
    : path_(path), cut_(cut), blockBytes_(blockBytes), size_(checkedSize(path)), file_(openFile(path)) {}

// Appends up to `count` bytes of the file to `to`; at the file's end, checks that it still has
// the size it had when opened.
void TextBlocks::read(std::string& to, std::size_t count) {
    const std::size_t start = to.size();
    to.resize(start + count);
    const std::size_t got = std::fread(to.data() + start, 1, count, file_.get());
    to.resize(start + got);
    read_ += got;
    if (got == count) return;
    if (std::ferror(file_.get())) throw Error(path_.string() + ": read error: " + std::strerror(errno));
    atEnd_ = true;
    if (read_ != size_)
        throw Error(path_.string() + ": the file changed while it was read (" + std::to_string(size_) +
                    " bytes when opened, " + std::to_string(read_) + " read)");
}

bool TextBlocks::next(std::string& block, std::size_t linesBefore) {
    if (atEnd_ && carry_.empty()) return false;
    block.swap(carry_);
    carry_.clear();
    const bool first = read_ == 0;
    read(block, blockBytes_ + (first ? 3 : 0));
    if (first && !plainFirstBlock(block)) {
        block = decodeText(readFileBytes(path_), path_.string());
        atEnd_ = true;
        return true;
    }
    // At the file's end the rest is the last block; before it, a block holding no whole unit
    // (a line longer than a block) grows.
    std::size_t end = atEnd_ ? block.size() : cut_(block);
    while (end == 0 && !atEnd_) {
        read(block, std::max(block.size(), blockBytes_));
        end = atEnd_ ? block.size() : cut_(block);
    }
    if (const void* nul = std::memchr(block.data(), '\0', end))
        throw ParseError(path_.string(), linesBefore + lineOfOffset(block, std::size_t(static_cast<const char*>(nul) - block.data())),
                         "binary file (NUL byte); expected text");
    carry_.assign(block, end, std::string::npos);
    block.resize(end);
    return true;
}

// A first block the blocks can go on from: UTF-8 (its byte-order mark dropped), no NUL byte, and
// a line end. Anything else (UTF-16, a CR-only or binary file) goes whole through decodeText.
bool TextBlocks::plainFirstBlock(std::string& block) const {
    if (block.size() >= 2 && (std::memcmp(block.data(), "\xFF\xFE", 2) == 0 || std::memcmp(block.data(), "\xFE\xFF", 2) == 0))
        return false;
    if (block.size() >= 3 && std::memcmp(block.data(), "\xEF\xBB\xBF", 3) == 0) block.erase(0, 3);
    return std::memchr(block.data(), '\0', block.size()) == nullptr &&
           (block.empty() || std::memchr(block.data(), '\n', block.size()) != nullptr);
}

} // namespace facet
