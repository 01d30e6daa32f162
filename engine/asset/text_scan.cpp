#include "asset/text_scan.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <system_error>

namespace facet::text {

std::string_view trim(std::string_view s) {
    std::size_t b = 0, e = s.size();
    while (b < e && isBlank(s[b])) ++b;
    while (e > b && isBlank(s[e - 1])) --e;
    return s.substr(b, e - b);
}

std::string_view lineContent(std::string_view line) {
    for (std::size_t hash = line.find('#'); hash != std::string_view::npos; hash = line.find('#', hash + 1))
        if (hash == 0 || isBlank(line[hash - 1])) {
            line = line.substr(0, hash);
            break;
        }
    return trim(line);
}

std::string_view LineReader::physicalLine() {
    const char* begin = text_.data() + pos_;
    const std::size_t left = text_.size() - pos_;
    const void* nl = std::memchr(begin, '\n', left);
    const std::size_t length = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - begin) : left;
    pos_ += nl ? length + 1 : length;
    ++physicalLines_;

    return lineContent(std::string_view(begin, length));
}

bool LineReader::next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    line = physicalLine();
    lineNumber_ = physicalLines_;
    if (line.empty() || line.back() != '\\') return true;

    joined_.assign(line.substr(0, line.size() - 1));
    while (pos_ < text_.size()) {
        const std::string_view more = physicalLine();
        joined_.push_back(' ');
        if (more.empty() || more.back() != '\\') {
            joined_.append(more);
            break;
        }
        joined_.append(more.substr(0, more.size() - 1));
    }
    line = trim(joined_);
    return true;
}

namespace {

// MSVC's printf spells non-finite values as 1.#INF, -1.#IND, 1.#QNAN, 1.#SNAN, often followed
// by padding digits ("1.#INF00").
bool isMsvcNonFinite(std::string_view token) {
    std::size_t i = 0;
    if (i < token.size() && (token[i] == '-' || token[i] == '+')) ++i;
    const std::size_t digits = i;
    while (i < token.size() && token[i] >= '0' && token[i] <= '9') ++i;
    if (i == digits || token.substr(i, 2) != ".#") return false;
    i += 2;
    for (const std::string_view word : {"INF", "IND", "QNAN", "SNAN"})
        if (token.substr(i, word.size()) == word) {
            i += word.size();
            while (i < token.size() && token[i] >= '0' && token[i] <= '9') ++i;
            return i == token.size();
        }
    return false;
}

// The token parsed as decimal but lies outside float's range: decide which side.
NumberStatus outOfRange(const char* first, const char* last, float& out) {
    double d = 0.0;
    const auto [ptr, ec] = std::from_chars(first, last, d);
    if (ec == std::errc() && ptr == last) {
        if (std::fabs(d) > double(std::numeric_limits<float>::max())) return NumberStatus::NonFinite;
        out = static_cast<float>(d);
        return NumberStatus::Ok;
    }
    // Beyond double too: a negative exponent means it is tiny, anything else that it is huge.
    const std::string_view s(first, static_cast<std::size_t>(last - first));
    const std::size_t e = s.find_first_of("eE");
    if (e != std::string_view::npos && e + 1 < s.size() && s[e + 1] == '-') {
        out = (s.front() == '-') ? -0.0f : 0.0f;
        return NumberStatus::Ok;
    }
    return NumberStatus::NonFinite;
}

} // namespace

NumberStatus parseFloat(std::string_view token, float& out) {
    const char* first = token.data();
    const char* last = first + token.size();
    // from_chars refuses a leading '+', which OBJ writers do emit.
    if (first != last && *first == '+') {
        ++first;
        if (first != last && (*first == '-' || *first == '+')) return NumberStatus::Malformed;
    }
    if (first == last) return NumberStatus::Malformed;
    const auto [ptr, ec] = std::from_chars(first, last, out);
    if (ptr == last) {
        if (ec == std::errc()) return std::isfinite(out) ? NumberStatus::Ok : NumberStatus::NonFinite;
        if (ec == std::errc::result_out_of_range) return outOfRange(first, last, out);
    }
    return isMsvcNonFinite(token) ? NumberStatus::NonFinite : NumberStatus::Malformed;
}

bool parseInt(std::string_view token, std::int64_t& out) {
    const char* last = token.data() + token.size();
    const auto [ptr, ec] = std::from_chars(token.data(), last, out);
    return ec == std::errc() && ptr == last && !token.empty();
}

std::string unescapePath(std::string_view name) {
    std::string out;
    out.reserve(name.size());
    for (std::size_t i = 0; i < name.size(); ++i) {
        if (name[i] != '\\') {
            out.push_back(name[i]);
        } else if (i + 1 < name.size() && name[i + 1] == ' ') {
            out.push_back(' ');
            ++i;
        } else {
            if (i + 1 < name.size() && name[i + 1] == '\\') ++i;
            out.push_back('/');
        }
    }
    return out;
}

std::vector<std::string_view> splitEscaped(std::string_view list) {
    std::vector<std::string_view> names;
    std::size_t i = 0;
    while (i < list.size()) {
        while (i < list.size() && isBlank(list[i])) ++i;
        const std::size_t start = i;
        while (i < list.size() && !isBlank(list[i])) i += (list[i] == '\\' && i + 1 < list.size()) ? 2 : 1;
        if (i > start) names.push_back(list.substr(start, i - start));
    }
    return names;
}

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const auto lower = [](char c) { return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c; };
        if (lower(a[i]) != lower(b[i])) return false;
    }
    return true;
}

} // namespace facet::text
