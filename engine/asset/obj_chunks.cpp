#include "asset/obj_chunks.h"

#include "asset/text_scan.h"
#include "host/thread_pool.h"

#include <fast_float/fast_float.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace facet::obj {

namespace {

// A number fast_float read as text::parseFloat would: fast_float rounds exactly as from_chars
// does, and what it does not read plainly (a '+', "1.#IND", a result outside float's normal
// range, which parseFloat judges in its own way) is left to the replay.
bool plainFloat(float value, std::string_view token) {
    return std::isfinite(value) && (std::fabs(value) >= std::numeric_limits<float>::min() ||
                                    (value == 0.0f && token.find_first_of("eE") == std::string_view::npos));
}

// A decimal of at most seven significant digits and ten after the point, without exponent, as
// exporters mostly write them ("-0.1155"): read as (integer m) / 10^k in float, which is exactly
// the correctly rounded value, as from_chars gives it, because m < 2^24 and 10^k (k <= 10) are
// both exact in float and one division rounds once (Clinger's fast path). Anything else: false,
// `q` unmoved, for fast_float.
bool shortDecimal(const char*& q, const char* end, float& out) {
    static constexpr float kPowers[] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f, 1e6f, 1e7f, 1e8f, 1e9f, 1e10f};
    const char* p = q;
    const bool negative = p < end && *p == '-';
    p += negative;
    std::uint32_t m = 0;
    int digits = 0, after = -1; // `after`: digits after the point, -1 before it
    for (; p < end; ++p) {
        const unsigned d = unsigned(*p) - unsigned('0');
        if (d <= 9) {
            m = m * 10 + d;
            digits += m != 0;
            after += after >= 0;
            if (digits > 7 || after > 10) return false;
        } else if (*p == '.' && after < 0) {
            after = 0;
        } else {
            break;
        }
    }
    const std::ptrdiff_t length = p - q - negative;
    if (length == 0 || length == (after >= 0) || (p < end && (*p == 'e' || *p == 'E'))) return false;
    const float value = float(m) / kPowers[after > 0 ? after : 0];
    out = negative ? -value : value;
    q = p;
    return true;
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
        const char* const end = text_.data() + text_.size();
        for (const char* p = text_.data(); p < end;) {
            lineNumber_ = static_cast<std::uint32_t>(++physicalLines_);
            if (plain_ && scan(p, end)) continue;
            // Any other line, read as the parser's LineReader reads it.
            text::LineReader reader(std::string_view(p, std::size_t(end - p)));
            std::string_view line;
            reader.next(line);
            physicalLines_ += reader.physicalLineCount() - 1;
            p += reader.position();
            if (line.empty()) continue;
            const bool joined = line.data() < text_.data() || line.data() >= end; // (in the reader)
            leave(joined ? std::string_view(chunk_.joined.emplace_back(line)) : line);
        }
        chunk_.physicalLines = physicalLines_;
    }

private:
    // Reads the physical line at `p` straight from the text when it is a plain v, vt, vn or f
    // statement written the plain way (no continuation, numbers fast_float takes as they are),
    // and moves `p` past it; false, having stored nothing, for any other line.
    bool scan(const char*& p, const char* end) {
        const char* q = p;
        if (end - q < 2) return false;
        const std::size_t faces = chunk_.faces.size();
        bool stored = false;
        if (q[0] == 'f' && text::isBlank(q[1])) {
            stored = scanFace(++q, end);
        } else if (q[0] == 'v') {
            float c[3];
            if (text::isBlank(q[1])) {
                ++q;
                stored = scanFloats(q, end, c, 3) == 3 && lineEnds(q, end);
                if (stored) store(Op::positions, chunk_.positions, c, 3);
            } else if ((q[1] == 't' || q[1] == 'n') && end - q > 2 && text::isBlank(q[2])) {
                const bool normal = q[1] == 'n';
                q += 2;
                const std::size_t count = scanFloats(q, end, c, 3);
                stored = (normal ? count == 3 && plainLength(c) : count >= 2) && lineEnds(q, end);
                if (stored) store(normal ? Op::normals : Op::texcoords, normal ? chunk_.normals : chunk_.texcoords, c,
                                  normal ? 3 : 2);
            }
        }
        if (!stored) {
            chunk_.faces.resize(faces);
            return false;
        }
        p = q;
        return true;
    }

    // At the end of a statement's last field: blanks, then the line's end or a comment. Moves `q`
    // past the line.
    static bool lineEnds(const char*& q, const char* end) {
        const char* s = q;
        while (q < end && text::isBlank(*q)) ++q;
        if (q < end && *q == '#' && q > s) {
            const void* nl = std::memchr(q, '\n', std::size_t(end - q));
            q = nl ? static_cast<const char*>(nl) : end;
        }
        if (q == end) return true;
        if (*q != '\n') return false;
        ++q;
        return true;
    }

    // Blanks, then a token ending at a blank or the line's end.
    static bool tokenStart(const char*& q, const char* end) {
        const char* s = q;
        while (q < end && text::isBlank(*q)) ++q;
        return q > s && q < end && *q != '\n' && *q != '#';
    }
    static bool tokenEnds(const char* q, const char* end) { return q == end || *q == '\n' || text::isBlank(*q); }

    // Up to `max` numbers, each read plainly (plainFloat); stops before the first
    // token that is not one (lineEnds then fails on it, unless it was a comment).
    static std::size_t scanFloats(const char*& q, const char* end, float* c, std::size_t max) {
        std::size_t count = 0;
        for (const char* t = q; count < max && tokenStart(t, end); q = t) {
            const char* ptr = t;
            if (!shortDecimal(ptr, end, c[count])) {
                const auto result = fast_float::from_chars(t, end, c[count]);
                if (result.ec != std::errc()) break;
                ptr = result.ptr;
            }
            if (!tokenEnds(ptr, end) || !plainFloat(c[count], std::string_view(t, std::size_t(ptr - t)))) break;
            t = ptr;
            ++count;
        }
        return count;
    }

    // The corners of a face, `q` just past its 'f'.
    bool scanFace(const char*& q, const char* end) {
        std::vector<std::int32_t>& faces = chunk_.faces;
        const char* line = q - 1;
        const std::size_t header = faces.size();
        faces.resize(header + 4);
        std::int32_t count = 0;
        for (const char* t = q; tokenStart(t, end); q = t, ++count) {
            std::int32_t c[3] = {0, 0, 0};
            if (count == kMaxCorners || !scanIndex(t, end, c[0])) return false;
            for (int part = 1; part < 3 && t < end && *t == '/'; ++part)
                if (++t < end && !tokenEnds(t, end) && *t != '/' && !scanIndex(t, end, c[part])) return false;
            if (!tokenEnds(t, end)) return false;
            faces.insert(faces.end(), c, c + 3);
        }
        // (A chunk holds whole lines of at most a block, which grows only for a longer line.)
        if (count < 3 || !lineEnds(q, end) || q - text_.data() > std::numeric_limits<std::int32_t>::max()) return false;
        faces[header] = count;
        faces[header + 1] = std::int32_t(lineNumber_);
        faces[header + 2] = std::int32_t(line - text_.data());
        faces[header + 3] = std::int32_t(lineLength(line, q));
        countOp(Op::faces);
        return true;
    }

    // The length of the face's logical line as the replay reads it again: to its end, comment cut.
    static std::size_t lineLength(const char* line, const char* next) {
        const char* stop = next > line && next[-1] == '\n' ? next - 1 : next;
        return text::lineContent(std::string_view(line, std::size_t(stop - line))).size();
    }

    // A non-zero index of at most nine digits, optionally negative; `q` moves past it.
    static bool scanIndex(const char*& q, const char* end, std::int32_t& out) {
        const bool negative = q < end && *q == '-';
        const char* digits = q + (negative ? 1 : 0);
        const char* d = digits;
        std::int32_t value = 0;
        while (d < end && unsigned(*d) - unsigned('0') <= 9 && d - digits < 9) value = value * 10 + (*d++ - '0');
        if (d == digits || value == 0 || (d < end && unsigned(*d) - unsigned('0') <= 9)) return false;
        out = negative ? -value : value;
        q = d;
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
    std::size_t physicalLines_ = 0;
    std::size_t lastRun_ = kNone;
    std::uint32_t lineNumber_ = 0;
};

} // namespace

void lexChunk(std::string_view text, ObjChunk& chunk, bool plain) { Lexer(text, chunk, plain).run(); }

void ObjChunk::clear() {
    ops.clear();
    positions.clear();
    texcoords.clear();
    normals.clear();
    faces.clear();
    lines.clear();
    joined.clear();
    physicalLines = 0;
}

std::size_t ObjBlock::physicalLines() const {
    std::size_t lines = 0;
    for (const ObjChunk& c : chunks) lines += c.physicalLines;
    return lines;
}

void lexBlock(ObjBlock& block, ThreadPool& pool, bool plain) {
    block.pieces = cutAtLines(block.text, 2 * std::size_t(pool.threadCount()));
    block.chunks.resize(block.pieces.size());
    for (ObjChunk& chunk : block.chunks) chunk.clear();
    pool.run(block.pieces.size(), [&](std::size_t i, int) { lexChunk(block.pieces[i], block.chunks[i], plain); });
}

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
