#include "asset/stl_loader.h"

#include "asset/text_file.h"
#include "asset/text_scan.h"
#include "asset/warning_log.h"
#include "core/error.h"
#include "host/huge_pages.h"

#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>
#include <system_error>
#include <thread>

namespace facet {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kHeaderBytes = 80, kFirstFacet = 84, kFacetBytes = 50;

// f(begin, end) over [0, n): the first half on this thread, the second on another where n is at
// least `twoFrom` and the machine has two threads. Each of the binary STL's passes is a sweep over
// up to hundreds of MB, each element on its own. f must not throw. Where no thread can be
// started (a process at its limit), all of it runs here.
template <class F>
void onTwoThreads(std::size_t n, std::size_t twoFrom, const F& f) {
    std::thread second;
    if (n >= twoFrom && std::thread::hardware_concurrency() >= 2) {
        try {
            second = std::thread([&] { f(n / 2, n); });
        } catch (const std::system_error&) {
        }
    }
    if (!second.joinable()) {
        f(std::size_t(0), n);
        return;
    }
    f(std::size_t(0), n / 2);
    second.join();
}

std::uint32_t readU32(std::string_view bytes, std::size_t at) {
    const auto b = [&](std::size_t i) { return std::uint32_t(static_cast<unsigned char>(bytes[at + i])); };
    return b(0) | b(1) << 8 | b(2) << 16 | b(3) << 24;
}

float readF32(std::string_view bytes, std::size_t at) {
    const std::uint32_t bits = readU32(bytes, at); // little endian whatever the host
    float x = 0.0f;
    std::memcpy(&x, &bits, sizeof x);
    return x;
}

bool caseEquals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
    return true;
}

// The mesh both forms build: three vertices a facet, in order.
class StlBuilder {
public:
    StlBuilder(std::string name, Model& model) : name_(std::move(name)), model_(model), warnings_(model.warnings) {}

    void reserve(std::size_t facets, bool colors) {
        Mesh& mesh = model_.mesh;
        for (std::vector<float>* a : {&mesh.px, &mesh.py, &mesh.pz}) reserveOnHugePages(*a, 3 * facets);
        if (colors)
            for (std::vector<float>* a : {&mesh.cr, &mesh.cg, &mesh.cb}) reserveOnHugePages(*a, 3 * facets);
    }

    // Adds a facet; one with a non-finite corner is dropped with a warning at `line`, or at
    // `byte` of a binary file (npos: none).
    bool facet(const glm::vec3 (&corners)[3], std::size_t line, std::size_t byte = std::string::npos) {
        ++facets_;
        for (const glm::vec3& c : corners)
            if (!std::isfinite(c.x) || !std::isfinite(c.y) || !std::isfinite(c.z)) {
                const std::string where = byte == std::string::npos ? "" : "byte " + std::to_string(byte) + ": ";
                warnings_.add(WarningKind::DroppedFace, name_, line,
                              where + "facet " + std::to_string(facets_) + " dropped: a vertex is not finite");
                return false;
            }
        Mesh& mesh = model_.mesh;
        for (const glm::vec3& c : corners) {
            mesh.px.push_back(c.x);
            mesh.py.push_back(c.y);
            mesh.pz.push_back(c.z);
        }
        return true;
    }

    // Every facet of a binary body at once, two threads writing their halves in place: true if
    // every vertex was finite. Otherwise nothing is kept (false), and the facets are to be added
    // one by one, which drops the non-finite ones with their warnings.
    bool allFacets(std::string_view bytes, std::size_t facets);
    void color(const glm::vec3& rgb) {
        Mesh& mesh = model_.mesh;
        for (int k = 0; k < 3; ++k) {
            mesh.cr.push_back(rgb.r);
            mesh.cg.push_back(rgb.g);
            mesh.cb.push_back(rgb.b);
        }
    }

    void warn(std::size_t line, std::string message) { warnings_.add(WarningKind::Other, name_, line, std::move(message)); }

    void finish();

private:
    std::string name_;
    Model& model_;
    WarningLog warnings_;
    std::size_t facets_ = 0;
};

bool StlBuilder::allFacets(std::string_view bytes, std::size_t facets) {
    Mesh& mesh = model_.mesh;
    for (std::vector<float>* a : {&mesh.px, &mesh.py, &mesh.pz}) a->resize(3 * facets);
    bool finite[2] = {true, true};
    onTwoThreads(facets, kStlTwoThreadFacets, [&](std::size_t begin, std::size_t end) {
        bool all = true;
        for (std::size_t f = begin; f < end; ++f) {
            const std::size_t at = kFirstFacet + kFacetBytes * f + 12;
            for (std::size_t c = 0; c < 3; ++c) {
                const float x = readF32(bytes, at + 12 * c), y = readF32(bytes, at + 12 * c + 4),
                            z = readF32(bytes, at + 12 * c + 8);
                all = all && std::isfinite(x) && std::isfinite(y) && std::isfinite(z);
                mesh.px[3 * f + c] = x;
                mesh.py[3 * f + c] = y;
                mesh.pz[3 * f + c] = z;
            }
        }
        finite[begin == 0 ? 0 : 1] = all;
    });
    if (!finite[0] || !finite[1]) {
        for (std::vector<float>* a : {&mesh.px, &mesh.py, &mesh.pz}) a->clear();
        return false;
    }
    facets_ += facets;
    return true;
}

// Every vertex is on one facet, so the generated normals are the facets' own: flat shading,
// as STL means it. No texture coordinates; the one default material as an OBJ without mtllib.
// The passes over the vertices share two threads, as the facets' did (allFacets).
void StlBuilder::finish() {
    Mesh& mesh = model_.mesh;
    const std::size_t n = mesh.vertexCount();
    reserveOnHugePages(mesh.indices, n);
    for (std::vector<float>* a : {&mesh.u, &mesh.v, &mesh.nx, &mesh.ny, &mesh.nz}) reserveOnHugePages(*a, n);
    mesh.indices.resize(n);
    mesh.u.resize(n);
    mesh.v.resize(n);
    for (std::vector<float>* a : {&mesh.nx, &mesh.ny, &mesh.nz}) a->resize(n);
    Bounds bounds[2];
    onTwoThreads(n / 3, kStlTwoThreadFacets, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = 3 * begin; i < 3 * end; ++i) mesh.indices[i] = static_cast<std::uint32_t>(i);
        writeFlatNormals(mesh, begin, end);
        bounds[begin == 0 ? 0 : 1] = boundsOf(mesh, 3 * begin, 3 * end);
    });
    bounds[0].merge(bounds[1]);
    const auto triangles = static_cast<std::uint32_t>(mesh.triangleCount());
    if (triangles > 0) {
        mesh.ranges = {MaterialRange{0, triangles, 0}};
        model_.materials.push_back(Material{"default", {0.8f, 0.8f, 0.8f}, -1});
    } else {
        warn(0, facets_ == 0 ? "no facets: nothing to draw" : "no facets left to draw");
    }
    // An STL declares a normal with every facet (not read) and no shared vertices.
    model_.fileCounts = FileCounts{3 * facets_, 0, facets_, facets_};
    mesh.bounds = bounds[0];
    warnings_.summarise(name_);
}

// Materialise's convention: a header holding "COLOR=" and four bytes (R, G, B, A) of the whole
// part's colour; an attribute word with bit 15 clear is the facet's own colour, 5 bits each of
// red (bits 0-4), green (5-9) and blue (10-14); bit 15 set means the part's colour. Without
// that header the attribute words are not read: exporters fill them with anything (Blender's
// text padding, 0x2020), and VisCAM's opposite convention cannot be told from such junk.
struct FacetColors {
    bool present = false;
    glm::vec3 part{1.0f};

    explicit FacetColors(std::string_view header) {
        const std::size_t at = header.find("COLOR=");
        if (at == std::string_view::npos) return;
        present = true;
        if (at + 10 <= header.size())
            for (int k = 0; k < 3; ++k) part[k] = float(static_cast<unsigned char>(header[at + 6 + k])) / 255.0f;
    }

    glm::vec3 of(std::uint32_t word) const {
        if (word & 0x8000u) return part;
        return glm::vec3(float(word & 31u), float(word >> 5 & 31u), float(word >> 10 & 31u)) / 31.0f;
    }
};

void loadBinary(std::string_view bytes, std::size_t facets, StlBuilder& out) {
    const FacetColors colors(bytes.substr(0, kHeaderBytes));
    out.reserve(facets, colors.present);
    if (!colors.present && out.allFacets(bytes, facets)) return;
    for (std::size_t f = 0; f < facets; ++f) {
        const std::size_t at = kFirstFacet + kFacetBytes * f;
        glm::vec3 corners[3];
        for (int c = 0; c < 3; ++c)
            for (int k = 0; k < 3; ++k) corners[c][k] = readF32(bytes, at + 12 + 12 * std::size_t(c) + 4 * std::size_t(k));
        const std::uint32_t attribute = std::uint32_t(static_cast<unsigned char>(bytes[at + 48])) |
                                        std::uint32_t(static_cast<unsigned char>(bytes[at + 49])) << 8;
        if (out.facet(corners, 0, at) && colors.present) out.color(colors.of(attribute));
    }
}

// ASCII STL as blank-separated words with line numbers; keywords in any case.
class AsciiReader {
public:
    AsciiReader(std::string_view text, const std::string& name) : text_(text), name_(name) {}

    // The next word; empty at the end of the text.
    std::string_view next() {
        while (pos_ < text_.size() && (text::isBlank(text_[pos_]) || text_[pos_] == '\n')) {
            if (text_[pos_] == '\n') ++line_;
            ++pos_;
        }
        // At the end, the line where the text ends rather than the empty one after it.
        wordLine_ = pos_ < text_.size() ? line_ : wordLine_;
        const std::size_t start = pos_;
        while (pos_ < text_.size() && !text::isBlank(text_[pos_]) && text_[pos_] != '\n') ++pos_;
        return text_.substr(start, pos_ - start);
    }

    void skipLine() {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
    }

    void expect(std::string_view keyword) {
        const std::string_view word = next();
        if (!caseEquals(word, keyword)) fail("expected '" + std::string(keyword) + "', found " + quoted(word));
    }

    float number(const char* what) {
        const std::string_view word = next();
        float x = 0.0f;
        const text::NumberStatus status = text::parseFloat(word, x);
        if (status == text::NumberStatus::Malformed) fail("expected a number (" + std::string(what) + "), found " + quoted(word));
        return status == text::NumberStatus::NonFinite ? std::numeric_limits<float>::quiet_NaN() : x;
    }

    std::size_t line() const { return wordLine_; }
    [[noreturn]] void fail(const std::string& what) const { throw ParseError(name_, wordLine_, what); }

    static std::string quoted(std::string_view word) {
        return word.empty() ? "the end of the file" : "'" + std::string(word.substr(0, 40)) + "'";
    }

private:
    std::string_view text_;
    const std::string& name_;
    std::size_t pos_ = 0, line_ = 1, wordLine_ = 1;
};

void loadAsciiFacet(AsciiReader& in, StlBuilder& out) {
    const std::size_t line = in.line();
    in.expect("normal");
    for (int k = 0; k < 3; ++k) in.number("the facet normal"); // read, not used: normals come from the vertices
    in.expect("outer");
    in.expect("loop");
    glm::vec3 corners[3];
    for (glm::vec3& c : corners) {
        in.expect("vertex");
        for (int k = 0; k < 3; ++k) c[k] = in.number("a vertex coordinate");
    }
    in.expect("endloop");
    in.expect("endfacet");
    out.facet(corners, line);
}

// solid <name> (facet ... endfacet)* endsolid [<name>], as many solids as the file holds.
void loadAscii(std::string_view text, const std::string& name, StlBuilder& out) {
    AsciiReader in(text, name);
    std::string_view word = in.next();
    if (!caseEquals(word, "solid")) in.fail("not an STL file: it starts with neither 'solid' (ASCII) nor an 84-byte binary header");
    for (;;) {
        in.skipLine(); // the solid's name
        for (word = in.next(); caseEquals(word, "facet"); word = in.next()) loadAsciiFacet(in, out);
        if (word.empty()) {
            out.warn(in.line(), "the last solid has no 'endsolid' (truncated file?)");
            return;
        }
        if (!caseEquals(word, "endsolid")) in.fail("expected 'facet' or 'endsolid', found " + AsciiReader::quoted(word));
        in.skipLine(); // the solid's name again
        word = in.next();
        if (word.empty()) return;
        if (!caseEquals(word, "solid")) in.fail("expected 'solid' or the end of the file, found " + AsciiReader::quoted(word));
    }
}

bool looksLikeText(std::string_view bytes) {
    const std::string_view start = text::trim(bytes.substr(0, 512));
    return start.size() >= 5 && caseEquals(start.substr(0, 5), "solid") &&
           bytes.substr(0, 512).find('\0') == std::string_view::npos;
}

} // namespace

Model loadStlFromBytes(const std::string& bytes, const std::string& name) {
    Model model;
    model.source = name;
    StlBuilder out(name, model);
    if (bytes.empty()) throw ParseError(name, 0, "empty file (not an STL file)");
    const std::string_view view(bytes);
    // Binary is told by its size alone: SolidWorks and others begin binary headers with "solid".
    const std::uint64_t facets = bytes.size() >= kFirstFacet ? readU32(view, kHeaderBytes) : 0;
    if (bytes.size() >= kFirstFacet && bytes.size() - kFirstFacet == kFacetBytes * facets) {
        if (facets > (std::uint64_t(0xFFFFFFFFu) - 1) / 3)
            throw ParseError(name, 0, "byte 80: " + std::to_string(facets) + " facets are more than facet's 32-bit indices can name");
        loadBinary(view, static_cast<std::size_t>(facets), out);
    } else if (looksLikeText(view)) {
        loadAscii(view, name, out);
    } else if (bytes.size() < kFirstFacet) {
        throw ParseError(name, 0, "not an STL file: it does not start with 'solid' (ASCII) and is shorter than the 84 bytes of a binary STL's header");
    } else {
        throw ParseError(name, 0, "byte 80: a binary STL of " + std::to_string(facets) + " facets is " +
                                      std::to_string(kFirstFacet + kFacetBytes * facets) + " bytes long, but the file has " +
                                      std::to_string(bytes.size()) + " (truncated, or not an STL file)");
    }
    out.finish();
    return model;
}

Model loadStl(const fs::path& path) { return loadStlFromBytes(readFileBytes(path), path.string()); }

} // namespace facet
