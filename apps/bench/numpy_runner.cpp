#include "bench/numpy_runner.h"

#include "app_info.h"

#include "core/error.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>

namespace facet::bench {

namespace {

// ---- The script's --json lines: one flat object each, of strings and numbers, as Python's
// json.dumps writes them. Anything else is refused with the column where it went wrong. ----

struct JsonValue {
    std::string text; // a string unescaped, a number as written
    bool isString = false;
};

using JsonObject = std::map<std::string, JsonValue>;

[[noreturn]] void fail(std::size_t column, const std::string& what) {
    throw Error("column " + std::to_string(column + 1) + ": " + what);
}

void skipSpace(const std::string& s, std::size_t& i) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) ++i;
}

void expect(const std::string& s, std::size_t& i, char c) {
    skipSpace(s, i);
    if (i >= s.size() || s[i] != c) fail(i, std::string("expected '") + c + "'");
    ++i;
}

unsigned hex4(const std::string& s, std::size_t& i) {
    if (i + 4 > s.size()) fail(i, "a \\u escape needs four hex digits");
    unsigned v = 0;
    for (const std::size_t end = i + 4; i < end; ++i) {
        const int c = std::tolower(static_cast<unsigned char>(s[i]));
        if (!std::isxdigit(c)) fail(i, "a \\u escape needs four hex digits");
        v = v * 16 + unsigned(std::isdigit(c) ? c - '0' : c - 'a' + 10);
    }
    return v;
}

// A \u escape (its "\u" read), a UTF-16 surrogate pair joined, as UTF-8.
void appendEscapedCodePoint(const std::string& s, std::size_t& i, std::string& out) {
    unsigned cp = hex4(s, i);
    if (cp >= 0xD800 && cp < 0xDC00 && s.compare(i, 2, "\\u") == 0) {
        std::size_t j = i + 2;
        const unsigned low = hex4(s, j);
        if (low >= 0xDC00 && low < 0xE000) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            i = j;
        }
    }
    if (cp >= 0xD800 && cp < 0xE000) cp = 0xFFFD; // a lone surrogate
    const auto byte = [&out](unsigned b) { out += static_cast<char>(b); };
    if (cp < 0x80) {
        byte(cp);
    } else if (cp < 0x800) {
        byte(0xC0 | cp >> 6);
        byte(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        byte(0xE0 | cp >> 12);
        byte(0x80 | (cp >> 6 & 0x3F));
        byte(0x80 | (cp & 0x3F));
    } else {
        byte(0xF0 | cp >> 18);
        byte(0x80 | (cp >> 12 & 0x3F));
        byte(0x80 | (cp >> 6 & 0x3F));
        byte(0x80 | (cp & 0x3F));
    }
}

std::string readString(const std::string& s, std::size_t& i) {
    expect(s, i, '"');
    std::string out;
    for (;;) {
        if (i >= s.size()) fail(i, "the string does not end");
        const char c = s[i++];
        if (c == '"') return out;
        if (c != '\\') {
            out += c;
            continue;
        }
        if (i >= s.size()) fail(i, "the string does not end");
        const char e = s[i++];
        switch (e) {
        case '"': case '\\': case '/': out += e; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': appendEscapedCodePoint(s, i, out); break;
        default: fail(i - 1, std::string("unknown escape \\") + e);
        }
    }
}

JsonValue readValue(const std::string& s, std::size_t& i) {
    skipSpace(s, i);
    if (i < s.size() && s[i] == '"') return {readString(s, i), true};
    const std::size_t start = i;
    while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || std::strchr("+-.eE", s[i]))) ++i;
    if (i == start) fail(start, "expected a string or a number");
    return {s.substr(start, i - start), false};
}

JsonObject parseObject(const std::string& s) {
    JsonObject fields;
    std::size_t i = 0;
    expect(s, i, '{');
    skipSpace(s, i);
    if (i < s.size() && s[i] == '}') {
        ++i;
    } else {
        for (bool more = true; more;) {
            std::string key = readString(s, i);
            expect(s, i, ':');
            fields[key] = readValue(s, i);
            skipSpace(s, i);
            more = i < s.size() && s[i] == ',';
            if (more) ++i;
            else expect(s, i, '}');
        }
    }
    skipSpace(s, i);
    if (i != s.size()) fail(i, "text after the object");
    return fields;
}

const JsonValue& field(const JsonObject& o, const std::string& key, bool isString) {
    const auto it = o.find(key);
    if (it == o.end() || it->second.isString != isString)
        throw Error(std::string("no ") + (isString ? "string" : "number") + " \"" + key + "\"");
    return it->second;
}

double number(const JsonObject& o, const std::string& key, double min) {
    const std::string& text = field(o, key, false).text;
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(text.c_str(), &end);
    if (*end != '\0' || errno != 0 || !std::isfinite(v) || v < min)
        throw Error("\"" + key + "\" is " + text + ", not a number of at least " + formatNumber(min, "%g"));
    return v;
}

int count(const JsonObject& o, const std::string& key) {
    const double v = number(o, key, 1.0);
    if (v != std::floor(v) || v > 2e9) throw Error("\"" + key + "\" is " + field(o, key, false).text + ", not a count");
    return static_cast<int>(v);
}

NumpyResult resultOf(const JsonObject& o) {
    NumpyResult r;
    r.caseName = field(o, "case", true).text;
    const double n = number(o, "n", 1.0);
    if (n != std::floor(n) || n > 1e15) throw Error("\"n\" is " + field(o, "n", false).text + ", not a vertex count");
    r.n = static_cast<std::size_t>(n);
    r.calls = count(o, "calls");
    r.time = {number(o, "median_s", 0.0) * 1e3, number(o, "min_s", 0.0) * 1e3, number(o, "max_s", 0.0) * 1e3,
              count(o, "runs")};
    const auto version = o.find("numpy");
    r.version = version != o.end() && version->second.isString ? version->second.text : "?";
    return r;
}

// ---- Running the script ----

struct ScriptOutput {
    std::vector<NumpyResult> results;
    std::string absentReason; // the script's own word that numpy is missing
    std::string lastLine;     // what it said last, for a failure that is neither
};

// Lines not starting with '{' (Python's warnings, say) are passed over; one that does is a
// result or the reason numpy is absent, or an error naming `source` and the line.
ScriptOutput readOutput(const std::string& output, const std::string& source) {
    ScriptOutput out;
    std::istringstream lines(output);
    int number = 0;
    for (std::string line; std::getline(lines, line);) {
        ++number;
        if (!line.empty()) out.lastLine = line;
        if (line.empty() || line[0] != '{') continue;
        try {
            const JsonObject o = parseObject(line);
            if (const auto a = o.find("absent"); a != o.end() && a->second.isString) out.absentReason = a->second.text;
            else out.results.push_back(resultOf(o));
        } catch (const Error& e) {
            throw Error(source + ": malformed result on output line " + std::to_string(number) + " (" + e.what() +
                        "): " + line);
        }
    }
    return out;
}

std::string shellQuote(const std::string& s) {
    std::string q = "'";
    for (const char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// Why `python` cannot be tried at all, or nothing.
std::optional<std::string> missing(const std::string& python) {
    if (python.front() == '/' && !std::filesystem::exists(python)) return python + " does not exist";
    if (python.front() != '/' && std::system("command -v python3 >/dev/null 2>&1") != 0) return "no python3 on PATH";
    return std::nullopt;
}

// Runs `command`, its stdout (and stderr, redirected by the command) into `output`; false when
// it cannot be started.
bool runCaptured(const std::string& command, std::string& output, int& status) {
    std::FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) return false;
    char buf[4096];
    while (std::fgets(buf, sizeof buf, pipe)) output += buf;
    status = pclose(pipe);
    return true;
}

} // namespace

// Debian's /usr/bin/python3 first, since python3 on PATH may be another installation without
// numpy.
NumpyRun runNumpy(const std::vector<std::size_t>& sizes, int seedCalls, int maxCalls, int runs) {
    std::string sizeList;
    for (const std::size_t n : sizes) sizeList += (sizeList.empty() ? "" : ",") + std::to_string(n);
    std::string script;
    try {
        script = app::dataFile("numpy_vertex_baseline.py").string();
    } catch (const Error& e) {
        return {{}, e.what()};
    }
    const std::string args = " " + shellQuote(script) + " --json --sizes " + sizeList + " --seed-calls " +
                             std::to_string(seedCalls) + " --max-calls " + std::to_string(maxCalls) + " --runs " +
                             std::to_string(runs) + " 2>&1";
    NumpyRun run;
    for (const std::string python : {"/usr/bin/python3", "python3"}) {
        std::string why, output;
        int status = 0;
        if (const auto reason = missing(python)) {
            why = *reason;
        } else if (!runCaptured(python + args, output, status)) {
            why = "cannot run " + python;
        } else {
            ScriptOutput out = readOutput(output, python + " " + script);
            if (!out.results.empty() && status == 0) return {std::move(out.results), {}};
            why = !out.absentReason.empty() ? out.absentReason
                  : out.lastLine.empty()    ? python + " printed nothing (exit status " + std::to_string(status) + ")"
                                            : python + ": " + out.lastLine;
        }
        run.why += (run.why.empty() ? "" : "; ") + why;
    }
    return run;
}

} // namespace facet::bench
