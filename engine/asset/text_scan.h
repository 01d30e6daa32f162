// Scanning the line-oriented text of OBJ and MTL files: logical lines (comments cut, trailing
// blanks trimmed, '\'-continued lines joined), blank-separated tokens, and numbers read with
// std::from_chars that must consume their whole token.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace facet::text {

// CR counts as a blank, so CRLF files need no special case.
inline bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

std::string_view trim(std::string_view s);

// A physical line (without its '\n') with its comment cut and its blanks trimmed; a line whose
// content ends in '\' continues on the next.
std::string_view lineContent(std::string_view line);

// Walks the logical lines of a text. A comment starts at a '#' that begins a token (so the
// MSVC spelling "1.#IND" is not a comment) and runs to the end of the line. A line whose last
// character (after comments and blanks are removed) is '\' continues on the next line.
class LineReader {
public:
    explicit LineReader(std::string_view text) : text_(text) {}

    // The next logical line, trimmed (possibly empty); false at the end of the text.
    bool next(std::string_view& line);
    // 1-based number of the (first physical) line last returned.
    std::size_t lineNumber() const { return lineNumber_; }
    // Physical lines read so far, and the offset in the text just past them.
    std::size_t physicalLineCount() const { return physicalLines_; }
    std::size_t position() const { return pos_; }

private:
    std::string_view physicalLine(); // the next line without its '\n', comment cut, trimmed

    std::string_view text_;
    std::size_t pos_ = 0;
    std::size_t lineNumber_ = 0;
    std::size_t physicalLines_ = 0;
    std::string joined_; // holds a continued line
};

// Blank-separated tokens of one line.
class Tokens {
public:
    explicit Tokens(std::string_view line) : rest_(line) {}

    // The next token; empty at the end of the line.
    std::string_view next() {
        std::size_t i = 0;
        while (i < rest_.size() && isBlank(rest_[i])) ++i;
        std::size_t j = i;
        while (j < rest_.size() && !isBlank(rest_[j])) ++j;
        const std::string_view token = rest_.substr(i, j - i);
        rest_.remove_prefix(j);
        return token;
    }
    // What is left of the line, without leading or trailing blanks.
    std::string_view rest() const { return trim(rest_); }

private:
    std::string_view rest_;
};

enum class NumberStatus { Ok, NonFinite, Malformed };

// Reads a float from the whole token. NonFinite covers nan/inf in any spelling from_chars
// knows, MSVC's "1.#IND" / "-1.#INF00" / "1.#QNAN", and finite decimals beyond float's range
// (1e39); values below float's range round to zero. Anything not fully a number (3.1+e2) is
// Malformed.
NumberStatus parseFloat(std::string_view token, float& out);

// Reads a decimal integer from the whole token (optional '-'). False when the token is not an
// integer or does not fit in 64 bits.
bool parseInt(std::string_view token, std::int64_t& out);

// File names as exporters write them: "\ " is an escaped space, and '\' or "\\" separate
// folders (Windows). Returns the name with '/' separators.
std::string unescapePath(std::string_view name);

// Splits a list of file names at blanks that are not escaped with '\'.
std::vector<std::string_view> splitEscaped(std::string_view list);

// Case-insensitive ASCII comparison, for MTL keywords (map_Kd, map_kd, MAP_KD).
bool equalsIgnoreCase(std::string_view a, std::string_view b);

} // namespace facet::text
