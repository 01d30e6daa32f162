#include "asset/obj_chunks.h"

#include "asset/text_scan.h"

#include <fast_float/fast_float.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace facet::obj {

namespace {

// A float as text::parseFloat reads it. fast_float rounds exactly as from_chars does; whatever
// it does not take plainly (a '+', "1.#IND", a result out of float's normal range) goes to
// parseFloat itself. False when the token is not a finite number.
bool lexFloat(std::string_view token, float& out) {
    const char* last = token.data() + token.size();
    const auto [ptr, ec] = fast_float::from_chars(token.data(), last, out);
    if (ec == std::errc() && ptr == last && std::isfinite(out) &&
        (std::fabs(out) >= std::numeric_limits<float>::min() ||
         (out == 0.0f && token.find_first_of("eE") == std::string_view::npos)))
        return true;
    return text::parseFloat(token, out) == text::NumberStatus::Ok;
}

// Up to `max` finite numbers; false when there are more, or one is not a finite number.
bool lexFloats(text::Tokens& tokens, float* values, std::size_t max, std::size_t& count) {
    count = 0;
    for (std::string_view token = tokens.next(); !token.empty(); token = tokens.next()) {
        if (count == max || !lexFloat(token, values[count])) return false;
        ++count;
    }
    return true;
}

// A non-zero index of at most nine digits, optionally negative.
bool lexIndex(std::string_view part, std::int32_t& out) {
    const bool negative = !part.empty() && part[0] == '-';
    const std::size_t first = negative ? 1 : 0;
    if (part.size() == first || part.size() - first > 9) return false;
    std::int32_t value = 0;
    for (std::size_t i = first; i < part.size(); ++i) {
        const unsigned digit = unsigned(part[i]) - unsigned('0');
        if (digit > 9) return false;
        value = value * 10 + std::int32_t(digit);
    }
    if (value == 0) return false;
    out = negative ? -value : value;
    return true;
}

// v, v/vt, v//vn, v/vt/vn, v/vt/ or v//: the parser's corner forms, each index well formed.
bool lexCorner(std::string_view token, std::int32_t* pTN) {
    std::size_t start = 0;
    for (int part = 0; part < 3; ++part) {
        const std::size_t slash = token.find('/', start);
        const std::string_view text = token.substr(start, slash == std::string_view::npos ? slash : slash - start);
        pTN[part] = 0;
        if (!text.empty() && !lexIndex(text, pTN[part])) return false;
        if (part == 0 && text.empty()) return false;
        if (slash == std::string_view::npos) return true;
        start = slash + 1;
    }
    return false; // a third '/'
}

// A vector whose length in float is sure to be finite and non-zero, so the replay's
// normalisation never warns (the parser's warning names the line).
bool plainLength(const float* c) {
    const float big = std::max({std::fabs(c[0]), std::fabs(c[1]), std::fabs(c[2])});
    return big >= 1e-18f && big <= 1e18f;
}

class Lexer {
public:
    Lexer(std::string_view text, ObjChunk& chunk, bool plain) : text_(text), chunk_(chunk), plain_(plain) {}

    void run() {
        text::LineReader lines(text_);
        std::string_view line;
        while (lines.next(line)) {
            if (line.empty()) continue;
            lineNumber_ = static_cast<std::uint32_t>(lines.lineNumber());
            const bool inText = line.data() >= text_.data() && line.data() < text_.data() + text_.size();
            if (!inText) leave(chunk_.joined.emplace_back(line));
            else if (!plain_ || !fast(line)) leave(line);
        }
        chunk_.physicalLines = lines.physicalLineCount();
    }

private:
    // Lexes a plain statement; false (having stored nothing) for any other line.
    bool fast(std::string_view line) {
        if (line.size() < 2) return false;
        if (line[0] == 'f' && text::isBlank(line[1])) return face(line.substr(1));
        if (line[0] != 'v') return false;
        const bool position = text::isBlank(line[1]);
        if (!position && (line.size() < 3 || !text::isBlank(line[2]))) return false;
        text::Tokens tokens(line.substr(position ? 1 : 2));
        float c[3];
        std::size_t count = 0;
        const bool read = lexFloats(tokens, c, 3, count);
        if (position) {
            if (!read || count != 3) return false;
            store(Op::positions, chunk_.positions, c, 3);
        } else if (line[1] == 't') {
            if (!read || count < 2) return false;
            store(Op::texcoords, chunk_.texcoords, c, 2);
        } else if (line[1] == 'n') {
            if (!read || count != 3 || !plainLength(c)) return false;
            store(Op::normals, chunk_.normals, c, 3);
        } else {
            return false;
        }
        return true;
    }

    // `corners` is the line after its 'f'.
    bool face(std::string_view corners) {
        std::vector<std::int32_t>& faces = chunk_.faces;
        const std::size_t header = faces.size();
        faces.resize(header + 4);
        std::int32_t count = 0;
        text::Tokens tokens(corners);
        for (std::string_view token = tokens.next(); !token.empty(); token = tokens.next()) {
            faces.resize(faces.size() + 3);
            if (count == kMaxCorners || !lexCorner(token, &faces[faces.size() - 3])) {
                faces.resize(header);
                return false;
            }
            ++count;
        }
        if (count < 3) {
            faces.resize(header);
            return false;
        }
        const std::string_view line(corners.data() - 1, corners.size() + 1);
        faces[header] = count;
        faces[header + 1] = std::int32_t(lineNumber_);
        faces[header + 2] = std::int32_t(line.data() - text_.data());
        faces[header + 3] = std::int32_t(line.size());
        countOp(Op::faces);
        return true;
    }

    void store(Op op, std::vector<float>& to, const float* values, std::size_t count) {
        to.insert(to.end(), values, values + count);
        countOp(op);
    }

    // Counts one more statement of `op`, extending the last run when it is of the same kind.
    void countOp(Op op) {
        std::vector<std::uint32_t>& ops = chunk_.ops;
        if (lastRun_ != kNone && ops[lastRun_] == std::uint32_t(op)) {
            ++ops[lastRun_ + 1];
            return;
        }
        lastRun_ = ops.size();
        ops.insert(ops.end(), {std::uint32_t(op), 1u});
    }

    void leave(std::string_view line) {
        chunk_.ops.insert(chunk_.ops.end(), {std::uint32_t(Op::line), std::uint32_t(chunk_.lines.size())});
        chunk_.lines.push_back({line, lineNumber_});
        lastRun_ = kNone;
    }

    static constexpr std::size_t kNone = ~std::size_t(0);
    static constexpr std::int32_t kMaxCorners = 1 << 20; // longer faces go to the replay
    std::string_view text_;
    ObjChunk& chunk_;
    bool plain_;
    std::size_t lastRun_ = kNone;
    std::uint32_t lineNumber_ = 0;
};

} // namespace

void lexChunk(std::string_view text, ObjChunk& chunk, bool plain) { Lexer(text, chunk, plain).run(); }

std::size_t lastLineEnd(std::string_view text) {
    std::size_t end = text.size();
    while (end > 0) {
        const std::size_t newline = text.rfind('\n', end - 1);
        if (newline == std::string_view::npos) return 0;
        const std::size_t start = newline == 0 ? 0 : text.rfind('\n', newline - 1);
        const std::size_t lineStart = start == std::string_view::npos || newline == 0 ? 0 : start + 1;
        const std::string_view content = text::lineContent(text.substr(lineStart, newline - lineStart));
        if (content.empty() || content.back() != '\\') return newline + 1;
        end = lineStart;
    }
    return 0;
}

std::vector<std::string_view> cutAtLines(std::string_view text, std::size_t parts) {
    std::vector<std::string_view> pieces;
    std::size_t start = 0;
    for (std::size_t p = 1; p < parts && start < text.size(); ++p) {
        const std::size_t target = text.size() * p / parts;
        if (target <= start) continue;
        // The first logical line end at or after the target.
        std::size_t end = target;
        for (;;) {
            const void* nl = std::memchr(text.data() + end, '\n', text.size() - end);
            if (!nl) {
                end = text.size();
                break;
            }
            end = static_cast<std::size_t>(static_cast<const char*>(nl) - text.data()) + 1;
            if (lastLineEnd(text.substr(start, end - start)) == end - start) break;
        }
        pieces.push_back(text.substr(start, end - start));
        start = end;
    }
    if (start < text.size()) pieces.push_back(text.substr(start));
    return pieces;
}

} // namespace facet::obj
