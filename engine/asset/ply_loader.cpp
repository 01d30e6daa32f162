#include "asset/ply_loader.h"

#include "asset/image.h"
#include "asset/text_file.h"
#include "asset/text_scan.h"
#include "asset/triangulate.h"
#include "asset/warning_log.h"
#include "core/error.h"
#include "core/mesh.h"
#include "host/huge_pages.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>
#include <unordered_map>

namespace facet {

namespace {

namespace fs = std::filesystem;

constexpr std::uint32_t kAbsent = 0xFFFFFFFFu;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

enum class Format { Ascii, BinaryLittleEndian, BinaryBigEndian };
enum class Scalar : std::uint8_t { Int8, Uint8, Int16, Uint16, Int32, Uint32, Float32, Float64 };

struct ScalarName {
    std::string_view name;
    Scalar type;
};

// The spec's names and the sized aliases most writers use today.
constexpr ScalarName kScalarNames[] = {
    {"char", Scalar::Int8},     {"int8", Scalar::Int8},       {"uchar", Scalar::Uint8},   {"uint8", Scalar::Uint8},
    {"short", Scalar::Int16},   {"int16", Scalar::Int16},     {"ushort", Scalar::Uint16}, {"uint16", Scalar::Uint16},
    {"int", Scalar::Int32},     {"int32", Scalar::Int32},     {"uint", Scalar::Uint32},   {"uint32", Scalar::Uint32},
    {"float", Scalar::Float32}, {"float32", Scalar::Float32}, {"double", Scalar::Float64}, {"float64", Scalar::Float64},
};

std::size_t sizeOf(Scalar t) {
    static constexpr std::size_t kSize[] = {1, 1, 2, 2, 4, 4, 4, 8};
    return kSize[std::size_t(t)];
}

bool isIntegral(Scalar t) { return t < Scalar::Float32; }

std::string_view nameOf(Scalar t) {
    for (const ScalarName& n : kScalarNames)
        if (n.type == t) return n.name;
    return "?";
}

// The largest value of an integral type: what a colour of that type is divided by.
double maxOf(Scalar t) {
    static constexpr double kMax[] = {127.0, 255.0, 32767.0, 65535.0, 2147483647.0, 4294967295.0, 1.0, 1.0};
    return kMax[std::size_t(t)];
}

struct Property {
    std::string name;
    Scalar type = Scalar::Float32; // a list's items
    bool list = false;
    Scalar countType = Scalar::Uint8;
};

struct Element {
    std::string name;
    std::uint64_t count = 0;
    std::vector<Property> properties;
    std::size_t line = 0; // the header line declaring it
};

struct Header {
    Format format = Format::Ascii;
    std::vector<Element> elements;
    std::vector<std::string> comments; // `comment` lines' text
    std::size_t bodyOffset = 0;        // the first byte after end_header's line
    std::size_t bodyLine = 0;          // the line the body starts on
};

// The header's lines, trimmed of blanks (CR included, so CRLF headers need no special case).
class HeaderLines {
public:
    explicit HeaderLines(std::string_view bytes) : bytes_(bytes) {}

    bool next(std::string_view& line) {
        if (pos_ >= bytes_.size()) return false;
        const std::size_t end = std::min(bytes_.find('\n', pos_), bytes_.size());
        line = text::trim(bytes_.substr(pos_, end - pos_));
        pos_ = end == bytes_.size() ? end : end + 1;
        ++line_;
        return true;
    }
    std::size_t line() const { return line_; }
    std::size_t offset() const { return pos_; }

private:
    std::string_view bytes_;
    std::size_t pos_ = 0, line_ = 0;
};

bool parseScalarName(std::string_view token, Scalar& type) {
    for (const ScalarName& n : kScalarNames)
        if (n.name == token) {
            type = n.type;
            return true;
        }
    return false;
}

// Where the header ends: the offset just past the end_header line; refused without one.
std::size_t findHeaderEnd(std::string_view bytes, const std::string& name, std::size_t& bodyLine) {
    if (bytes.empty()) throw ParseError(name, 0, "empty file (a PLY file starts with the line 'ply')");
    HeaderLines lines(bytes);
    std::string_view line;
    lines.next(line);
    if (line != "ply") throw ParseError(name, 1, "not a PLY file: the first line is not 'ply'");
    while (lines.next(line))
        if (line == "end_header") {
            bodyLine = lines.line() + 1;
            return lines.offset();
        }
    throw ParseError(name, 0, "the header has no 'end_header' line (truncated file?)");
}

class HeaderParser {
public:
    HeaderParser(const std::string& name, Header& header) : name_(name), header_(header) {}

    void line(std::string_view text, std::size_t number);
    void finish();

private:
    [[noreturn]] void fail(const std::string& what) const { throw ParseError(name_, line_, what); }
    void format(text::Tokens& tokens);
    void element(text::Tokens& tokens);
    void property(text::Tokens& tokens);
    Scalar scalar(std::string_view token) const;

    const std::string& name_;
    Header& header_;
    std::size_t line_ = 0;
    bool hasFormat_ = false;
};

void HeaderParser::line(std::string_view text, std::size_t number) {
    line_ = number;
    text::Tokens tokens(text);
    const std::string_view keyword = tokens.next();
    if (keyword.empty()) return;
    if (keyword == "format") {
        format(tokens);
    } else if (keyword == "comment") {
        header_.comments.emplace_back(tokens.rest());
    } else if (keyword == "obj_info") {
        // Free text about the object (VCG, zipper): nothing to read.
    } else if (keyword == "element") {
        element(tokens);
    } else if (keyword == "property") {
        property(tokens);
    } else {
        fail("unknown header line '" + std::string(text.substr(0, 40)) + "'");
    }
}

void HeaderParser::format(text::Tokens& tokens) {
    if (hasFormat_) fail("a second 'format' line");
    hasFormat_ = true;
    const std::string_view f = tokens.next();
    if (f == "ascii") header_.format = Format::Ascii;
    else if (f == "binary_little_endian") header_.format = Format::BinaryLittleEndian;
    else if (f == "binary_big_endian") header_.format = Format::BinaryBigEndian;
    else
        fail("unknown format '" + std::string(f) + "' (facet reads ascii, binary_little_endian and binary_big_endian)");
    // The version (1.0) is not checked: every writer says 1.0, and some leave it out.
}

void HeaderParser::element(text::Tokens& tokens) {
    Element e;
    e.name = std::string(tokens.next());
    const std::string_view count = tokens.next();
    std::int64_t n = 0;
    if (e.name.empty() || !text::parseInt(count, n) || n < 0 || !tokens.next().empty())
        fail("malformed element line (expected 'element <name> <count>')");
    for (const Element& other : header_.elements)
        if (other.name == e.name)
            fail("duplicate element '" + e.name + "' (first declared on line " + std::to_string(other.line) + ")");
    if (e.name == "vertex" && std::uint64_t(n) >= kAbsent)
        fail("element 'vertex' declares " + std::to_string(n) + " vertices, more than facet's 32-bit indices can name");
    e.count = std::uint64_t(n);
    e.line = line_;
    header_.elements.push_back(std::move(e));
}

Scalar HeaderParser::scalar(std::string_view token) const {
    Scalar type = Scalar::Float32;
    if (!parseScalarName(token, type)) fail("unknown property type '" + std::string(token.substr(0, 40)) + "'");
    return type;
}

void HeaderParser::property(text::Tokens& tokens) {
    if (header_.elements.empty()) fail("a property before any element");
    Property p;
    std::string_view type = tokens.next();
    if (type == "list") {
        p.list = true;
        p.countType = scalar(tokens.next());
        if (!isIntegral(p.countType)) fail("a list's count must have an integer type, not " + std::string(nameOf(p.countType)));
        type = tokens.next();
    }
    p.type = scalar(type);
    p.name = std::string(tokens.next());
    if (p.name.empty() || !tokens.next().empty()) fail("malformed property line (expected 'property [list <count type>] <type> <name>')");
    Element& e = header_.elements.back();
    for (const Property& other : e.properties)
        if (other.name == p.name) fail("duplicate property '" + p.name + "' in element '" + e.name + "'");
    e.properties.push_back(std::move(p));
}

void HeaderParser::finish() {
    line_ = 0;
    if (!hasFormat_) fail("the header has no 'format' line");
    const auto vertex = std::find_if(header_.elements.begin(), header_.elements.end(),
                                     [](const Element& e) { return e.name == "vertex"; });
    if (vertex == header_.elements.end()) fail("the header declares no 'vertex' element");
}

Header parseHeader(std::string_view bytes, const std::string& name) {
    Header header;
    header.bodyOffset = findHeaderEnd(bytes, name, header.bodyLine);
    HeaderParser parser(name, header);
    HeaderLines lines(bytes.substr(0, header.bodyOffset));
    std::string_view line;
    lines.next(line); // "ply"
    while (lines.next(line) && line != "end_header") parser.line(line, lines.line());
    parser.finish();
    return header;
}

// The binary scalar at `at` as a double, its bytes reversed first where `swap`.
double decodeScalar(const char* at, Scalar type, bool swap) {
    const std::size_t size = sizeOf(type);
    unsigned char b[8] = {};
    for (std::size_t k = 0; k < size; ++k) b[k] = static_cast<unsigned char>(at[swap ? size - 1 - k : k]);
    const auto as = [&b](auto v) {
        std::memcpy(&v, b, sizeof v);
        return static_cast<double>(v);
    };
    switch (type) {
    case Scalar::Int8: return as(std::int8_t());
    case Scalar::Uint8: return as(std::uint8_t());
    case Scalar::Int16: return as(std::int16_t());
    case Scalar::Uint16: return as(std::uint16_t());
    case Scalar::Int32: return as(std::int32_t());
    case Scalar::Uint32: return as(std::uint32_t());
    case Scalar::Float32: return as(float());
    case Scalar::Float64: return as(double());
    }
    return 0.0;
}

bool hostIsBigEndian() {
    const std::uint16_t one = 1;
    unsigned char first = 0;
    std::memcpy(&first, &one, 1);
    return first == 0;
}

// The body, value by value, in either encoding; every refusal names the element being read
// and the line (ascii) or byte offset (binary).
class BodyReader {
public:
    BodyReader(std::string_view bytes, const Header& header, const std::string& name)
        : bytes_(bytes), pos_(header.bodyOffset), line_(header.bodyLine), name_(name),
          ascii_(header.format == Format::Ascii),
          swap_((header.format == Format::BinaryBigEndian) != hostIsBigEndian()) {}

    bool ascii() const { return ascii_; }
    // The line the next value is on (ascii).
    std::size_t nextLine() {
        skipBlanks();
        return line_;
    }

    // Names the instance read next in messages; refuses an element whose instances cannot all
    // fit in what is left of a binary file.
    void start(const Element& e, std::uint64_t index) {
        element_ = &e;
        index_ = index;
    }
    void checkRoom(const Element& e);

    double scalar(Scalar type, const Property& p);
    std::uint64_t listCount(const Property& p);
    void skip(const Property& p);
    // At most how many instances of `e` the rest of the file can hold (for reserving).
    std::size_t plausibleCount(const Element& e) const;
    // What is left after the last element: blanks (ascii) or nothing (binary) is clean.
    std::size_t leftover();

    [[noreturn]] void fail(const std::string& what) const;

    // Binary only, for reading runs of plain instances straight from the bytes: what is left of
    // the file, and stepping past what was read of it; whether its byte order is reversed.
    std::string_view rest() const { return bytes_.substr(pos_); }
    void advance(std::size_t bytes) { pos_ += bytes; }
    bool swapped() const { return swap_; }

private:
    void skipBlanks();
    std::string_view token(const Property& p);
    double binaryScalar(Scalar type, const Property& p);
    std::size_t minimumBytes(const Element& e) const;

    std::string_view bytes_;
    std::size_t pos_, line_;
    std::size_t at_ = 0;       // binary: where the value being read starts, for messages
    std::size_t lastLine_ = 0; // ascii: the line of the last value read, where a truncated file ends
    const std::string& name_;
    bool ascii_, swap_;
    const Element* element_ = nullptr;
    std::uint64_t index_ = 0;
};

void BodyReader::fail(const std::string& what) const {
    std::string where;
    if (element_)
        where = "element '" + element_->name + "' " + std::to_string(index_ + 1) + " of " +
                std::to_string(element_->count) + ": ";
    if (ascii_) throw ParseError(name_, line_, where + what);
    throw ParseError(name_, 0, "byte " + std::to_string(at_) + ", " + where + what);
}

// A binary instance takes at least its scalars' bytes and its lists' counts; an ascii one at
// least a character and a blank per property.
std::size_t BodyReader::minimumBytes(const Element& e) const {
    std::size_t bytes = 0;
    for (const Property& p : e.properties) bytes += ascii_ ? 2 : p.list ? sizeOf(p.countType) : sizeOf(p.type);
    return bytes;
}

void BodyReader::checkRoom(const Element& e) {
    const std::size_t minimum = minimumBytes(e), left = bytes_.size() - pos_;
    if (ascii_ || minimum == 0 || e.count <= left / minimum) return;
    element_ = &e;
    index_ = left / minimum;
    at_ = pos_;
    fail("the file ends before this instance (truncated): " + std::to_string(e.count) + " instances of at least " +
         std::to_string(minimum) + " bytes need more than the " + std::to_string(left) + " bytes left");
}

std::size_t BodyReader::plausibleCount(const Element& e) const {
    const std::size_t minimum = std::max<std::size_t>(minimumBytes(e), 1);
    return static_cast<std::size_t>(std::min<std::uint64_t>(e.count, (bytes_.size() - pos_) / minimum + 1));
}

void BodyReader::skipBlanks() {
    while (pos_ < bytes_.size() && (text::isBlank(bytes_[pos_]) || bytes_[pos_] == '\n')) {
        if (bytes_[pos_] == '\n') ++line_;
        ++pos_;
    }
}

std::string_view BodyReader::token(const Property& p) {
    skipBlanks();
    if (pos_ == bytes_.size()) {
        line_ = std::max(lastLine_, std::size_t(1)); // where the text ends, not the empty line after it
        fail("the file ends before property '" + p.name + "' (truncated)");
    }
    lastLine_ = line_;
    const std::size_t start = pos_;
    while (pos_ < bytes_.size() && !text::isBlank(bytes_[pos_]) && bytes_[pos_] != '\n') ++pos_;
    return bytes_.substr(start, pos_ - start);
}

double BodyReader::binaryScalar(Scalar type, const Property& p) {
    const std::size_t size = sizeOf(type);
    at_ = pos_;
    if (bytes_.size() - pos_ < size)
        fail("the file ends inside property '" + p.name + "' (truncated)");
    const double value = decodeScalar(bytes_.data() + pos_, type, swap_);
    pos_ += size;
    return value;
}

// A value as a double: integers exactly; a non-finite float as NaN or infinity.
double BodyReader::scalar(Scalar type, const Property& p) {
    if (!ascii_) return binaryScalar(type, p);
    const std::string_view t = token(p);
    if (isIntegral(type)) {
        std::int64_t v = 0;
        if (!text::parseInt(t, v))
            fail("'" + std::string(t.substr(0, 40)) + "' is not an integer (" + std::string(nameOf(type)) +
                 " property '" + p.name + "')");
        return static_cast<double>(v);
    }
    float v = 0.0f;
    const text::NumberStatus status = text::parseFloat(t, v);
    if (status == text::NumberStatus::Malformed)
        fail("'" + std::string(t.substr(0, 40)) + "' is not a number (property '" + p.name + "')");
    return status == text::NumberStatus::NonFinite ? std::numeric_limits<double>::quiet_NaN() : double(v);
}

std::uint64_t BodyReader::listCount(const Property& p) {
    const double n = scalar(p.countType, p); // messages below name the count's offset
    if (n < 0.0) fail("list '" + p.name + "' has a negative count (" + std::to_string(std::int64_t(n)) + ")");
    const auto count = static_cast<std::uint64_t>(n);
    // Each item takes its bytes (binary) or a character and a blank (ascii).
    const std::size_t itemBytes = ascii_ ? 2 : sizeOf(p.type);
    const std::size_t left = bytes_.size() - pos_;
    if (count > (left + 1) / itemBytes)
        fail("list '" + p.name + "' declares " + std::to_string(count) + " items, more than the " +
             std::to_string(left) + " bytes left in the file hold");
    return count;
}

void BodyReader::skip(const Property& p) {
    const std::uint64_t n = p.list ? listCount(p) : 1;
    if (ascii_) {
        for (std::uint64_t i = 0; i < n; ++i) scalar(p.type, p);
        return;
    }
    at_ = pos_;
    const std::size_t bytes = std::size_t(n) * sizeOf(p.type); // listCount bounded n by the file
    if (bytes_.size() - pos_ < bytes) fail("the file ends inside property '" + p.name + "' (truncated)");
    pos_ += bytes;
}

std::size_t BodyReader::leftover() {
    element_ = nullptr;
    if (ascii_) skipBlanks();
    return bytes_.size() - pos_;
}

// What a vertex property means to facet.
enum Role { X, Y, Z, NX, NY, NZ, Red, Green, Blue, U, V, kRoles, kNoRole = kRoles };

struct RoleName {
    std::string_view name;
    Role role;
};

constexpr RoleName kVertexRoles[] = {
    {"x", X},          {"y", Y},          {"z", Z},           {"nx", NX},
    {"ny", NY},        {"nz", NZ},        {"red", Red},       {"green", Green},
    {"blue", Blue},    {"diffuse_red", Red}, {"diffuse_green", Green}, {"diffuse_blue", Blue},
    {"s", U},          {"t", V},          {"u", U},           {"v", V},
    {"texture_u", U},  {"texture_v", V},  {"texture_s", U},   {"texture_t", V},
};

Role roleOf(const Property& p) {
    if (p.list) return kNoRole;
    for (const RoleName& r : kVertexRoles)
        if (r.name == p.name) return r.role;
    return kNoRole;
}

// The faces as read: each face's corners (file vertex indices), and where the face element has
// per-face texture coordinates, a (u, v) per corner (NaN where the face's list was unusable).
struct Faces {
    std::vector<std::uint32_t> corners;
    std::vector<std::size_t> starts{0}; // face f's corners are [starts[f], starts[f + 1])
    std::vector<float> uv;              // two per corner, when cornerUvs
    std::vector<std::size_t> lines;     // ascii: each face's line, for warnings
    bool cornerUvs = false;
    std::size_t count() const { return starts.size() - 1; }
};

class PlyParser {
public:
    PlyParser(std::string name, fs::path baseDir, Model& model)
        : name_(std::move(name)), baseDir_(std::move(baseDir)), model_(model), warnings_(model.warnings) {}

    void parse(std::string_view bytes);

private:
    void warn(WarningKind kind, std::size_t line, std::string message) {
        warnings_.add(kind, name_, line, std::move(message));
    }
    void readVertices(BodyReader& body, const Element& e);
    void readFaces(BodyReader& body, const Element& e);
    void readFixedVertices(BodyReader& body, const Element& e, const std::vector<Role>& roles,
                           std::vector<float>* (&arrays)[kRoles], const bool (&keep)[kRoles]);
    std::uint64_t readPlainFaces(BodyReader& body, const Element& e);
    void readFace(BodyReader& body, const Element& e, const Property* indices, const Property* texcoords);
    void skipElement(BodyReader& body, const Element& e);
    void checkVertices();
    void triangulate();
    void expandCorners();
    void finishMesh();
    std::int32_t faceTexture();

    std::string name_;
    fs::path baseDir_;
    Model& model_;
    WarningLog warnings_;
    Header header_;

    std::uint64_t vertexCount_ = 0;   // declared in the header
    bool hasNormals_ = false, hasColors_ = false, hasUvs_ = false;
    Faces faces_;
    std::vector<float> uvScratch_;
    std::vector<std::uint32_t> triangleCorners_; // three face corners per triangle
};

void PlyParser::parse(std::string_view bytes) {
    header_ = parseHeader(bytes, name_);
    for (const Element& e : header_.elements)
        if (e.name == "vertex") vertexCount_ = e.count;
    BodyReader body(bytes, header_, name_);
    for (const Element& e : header_.elements) {
        body.checkRoom(e);
        if (e.name == "vertex") readVertices(body, e);
        else if (e.name == "face") readFaces(body, e);
        else skipElement(body, e);
    }
    const std::size_t left = body.leftover();
    if (left > 0)
        warn(WarningKind::Other, body.ascii() ? body.nextLine() : 0,
             std::to_string(left) + (body.ascii() ? " characters of text" : " bytes") + " after the last element ignored");
    checkVertices();
    triangulate();
    finishMesh();
    warnings_.summarise(name_);
}

void PlyParser::readVertices(BodyReader& body, const Element& e) {
    std::vector<Role> roles;
    bool has[kRoles] = {};
    for (const Property& p : e.properties) {
        roles.push_back(roleOf(p));
        if (roles.back() != kNoRole) has[roles.back()] = true;
    }
    if (!has[X] || !has[Y] || !has[Z])
        throw ParseError(name_, e.line, "element 'vertex' lacks an x, y or z property");
    hasNormals_ = has[NX] && has[NY] && has[NZ];
    hasColors_ = has[Red] && has[Green] && has[Blue];
    hasUvs_ = has[U] && has[V];

    Mesh& mesh = model_.mesh;
    std::vector<float>* arrays[kRoles] = {&mesh.px, &mesh.py, &mesh.pz, &mesh.nx, &mesh.ny, &mesh.nz,
                                          &mesh.cr, &mesh.cg, &mesh.cb, &mesh.u,  &mesh.v};
    const bool keep[kRoles] = {true, true, true, hasNormals_, hasNormals_, hasNormals_,
                               hasColors_, hasColors_, hasColors_, hasUvs_, hasUvs_};
    if (!body.ascii() && std::none_of(e.properties.begin(), e.properties.end(), [](const Property& p) { return p.list; })) {
        readFixedVertices(body, e, roles, arrays, keep);
        return;
    }
    const std::size_t reserve = body.plausibleCount(e);
    for (int r = 0; r < kRoles; ++r)
        if (keep[r]) reserveOnHugePages(*arrays[r], reserve);
    for (std::uint64_t i = 0; i < e.count; ++i) {
        body.start(e, i);
        double values[kRoles] = {};
        for (std::size_t k = 0; k < e.properties.size(); ++k) {
            const Property& p = e.properties[k];
            if (roles[k] == kNoRole) {
                body.skip(p);
                continue;
            }
            const double x = body.scalar(p.type, p);
            const bool color = roles[k] == Red || roles[k] == Green || roles[k] == Blue;
            values[roles[k]] = color && isIntegral(p.type) ? x / maxOf(p.type) : x;
        }
        for (int r = 0; r < kRoles; ++r)
            if (keep[r]) arrays[r]->push_back(static_cast<float>(values[r]));
    }
}

// Binary vertices without lists are all one size: read at fixed offsets, every value as the
// general path reads it (checkRoom has made sure the file holds them all).
void PlyParser::readFixedVertices(BodyReader& body, const Element& e, const std::vector<Role>& roles,
                                  std::vector<float>* (&arrays)[kRoles], const bool (&keep)[kRoles]) {
    struct Field {
        std::size_t offset;
        Scalar type;
        Role role;
        double scale; // integral colours to [0, 1]
    };
    std::vector<Field> fields;
    std::size_t size = 0;
    for (std::size_t k = 0; k < e.properties.size(); ++k) {
        const Property& p = e.properties[k];
        const Role r = roles[k];
        if (r != kNoRole && keep[r]) {
            const bool color = r == Red || r == Green || r == Blue;
            fields.push_back({size, p.type, r, color && isIntegral(p.type) ? maxOf(p.type) : 1.0});
        }
        size += sizeOf(p.type);
    }
    const auto count = static_cast<std::size_t>(e.count);
    for (int r = 0; r < kRoles; ++r)
        if (keep[r]) arrays[r]->assign(count, 0.0f);
    const char* data = body.rest().data();
    const bool swap = body.swapped();
    for (std::size_t i = 0; i < count; ++i) {
        const char* record = data + i * size;
        for (const Field& f : fields) {
            double x;
            if (f.type == Scalar::Float32 && !swap) {
                float v;
                std::memcpy(&v, record + f.offset, sizeof v);
                x = v;
            } else {
                x = decodeScalar(record + f.offset, f.type, swap);
            }
            (*arrays[f.role])[i] = static_cast<float>(f.scale == 1.0 ? x : x / f.scale);
        }
    }
    body.advance(count * size);
}

void PlyParser::readFaces(BodyReader& body, const Element& e) {
    const Property* indices = nullptr;
    const Property* texcoords = nullptr;
    for (const Property& p : e.properties) {
        if (p.name == "vertex_indices" || p.name == "vertex_index") indices = &p;
        if (p.name == "texcoord") texcoords = &p;
    }
    for (const Property* p : {indices, texcoords})
        if (p && !p->list) throw ParseError(name_, e.line, "property '" + p->name + "' of element 'face' must be a list");
    if (!indices) {
        warn(WarningKind::Other, e.line, "element 'face' has no vertex_indices list; its faces are skipped");
        skipElement(body, e);
        return;
    }
    faces_.cornerUvs = texcoords != nullptr;
    const std::size_t reserve = body.plausibleCount(e);
    reserveOnHugePages(faces_.starts, reserve + 1);
    reserveOnHugePages(faces_.corners, 3 * reserve);
    std::uint64_t f = 0;
    if (!body.ascii() && e.properties.size() == 1 && !body.swapped() && indices->countType == Scalar::Uint8 &&
        (indices->type == Scalar::Int32 || indices->type == Scalar::Uint32))
        f = readPlainFaces(body, e);
    for (; f < e.count; ++f) {
        body.start(e, f);
        if (body.ascii()) faces_.lines.push_back(body.nextLine());
        readFace(body, e, indices, texcoords);
    }
}

// The faces of the common binary layout (a uchar count, then 32-bit indices, nothing else, in
// the host's byte order) read straight from the bytes for as long as each is plain: its list
// fits in the file and its indices name vertices. The first that is not is left to readFace,
// which reports it as it always has. Returns how many faces were read.
std::uint64_t PlyParser::readPlainFaces(BodyReader& body, const Element& e) {
    const std::string_view bytes = body.rest();
    const char* data = bytes.data();
    std::size_t at = 0;
    std::uint64_t f = 0;
    for (; f < e.count; ++f) {
        if (at >= bytes.size()) break;
        const std::size_t n = static_cast<unsigned char>(data[at]);
        if (bytes.size() - at - 1 < 4 * n) break;
        const std::size_t first = faces_.corners.size();
        bool plain = true;
        for (std::size_t k = 0; k < n; ++k) {
            std::int32_t index;
            std::memcpy(&index, data + at + 1 + 4 * k, sizeof index);
            // An int32 as read; a uint32 above 2^31 reads negative here, and is out of range either way.
            if (index < 0 || std::uint64_t(index) >= vertexCount_) {
                plain = false;
                break;
            }
            faces_.corners.push_back(static_cast<std::uint32_t>(index));
        }
        if (!plain) {
            faces_.corners.resize(first);
            break;
        }
        faces_.starts.push_back(faces_.corners.size());
        at += 1 + 4 * n;
    }
    body.advance(at);
    return f;
}

void PlyParser::readFace(BodyReader& body, const Element& e, const Property* indices, const Property* texcoords) {
    uvScratch_.clear();
    const std::size_t first = faces_.corners.size();
    for (const Property& p : e.properties) {
        if (&p == indices) {
            const std::uint64_t n = body.listCount(p);
            for (std::uint64_t k = 0; k < n; ++k) {
                const double index = body.scalar(p.type, p);
                if (!(index >= 0.0 && index < double(vertexCount_)) || index != std::floor(index))
                    body.fail("vertex index " + (std::isfinite(index) ? std::to_string(std::int64_t(index)) : "NaN") +
                              " out of range (" + std::to_string(vertexCount_) + " vertices)");
                faces_.corners.push_back(static_cast<std::uint32_t>(index));
            }
        } else if (&p == texcoords) {
            const std::uint64_t n = body.listCount(p);
            for (std::uint64_t k = 0; k < n; ++k) uvScratch_.push_back(static_cast<float>(body.scalar(p.type, p)));
        } else {
            body.skip(p);
        }
    }
    faces_.starts.push_back(faces_.corners.size());
    if (!texcoords) return;
    const std::size_t corners = faces_.corners.size() - first;
    const bool usable = uvScratch_.size() == 2 * corners &&
                        std::all_of(uvScratch_.begin(), uvScratch_.end(), [](float x) { return std::isfinite(x); });
    if (!usable) {
        warn(WarningKind::BadValue, faces_.lines.empty() ? 0 : faces_.lines.back(),
             "face " + std::to_string(faces_.count()) + ": its texcoord list has " + std::to_string(uvScratch_.size()) +
                 " values, not two finite ones per corner (" + std::to_string(2 * corners) + "); its corners get none");
        uvScratch_.assign(2 * corners, kNaN);
    }
    faces_.uv.insert(faces_.uv.end(), uvScratch_.begin(), uvScratch_.end());
}

void PlyParser::skipElement(BodyReader& body, const Element& e) {
    if (e.properties.empty()) return; // nothing to read, however many instances it declares
    for (std::uint64_t i = 0; i < e.count; ++i) {
        body.start(e, i);
        for (const Property& p : e.properties) body.skip(p);
    }
}


bool finitePosition(const Mesh& mesh, std::size_t i) {
    return std::isfinite(mesh.px[i]) && std::isfinite(mesh.py[i]) && std::isfinite(mesh.pz[i]);
}

// Positions that are not finite are warned about (faces using them are dropped when
// triangulating), texture coordinates that are not finite taken as 0; the file's normals are
// kept only if every usable vertex has one, as in OBJ, so given and generated normals never meet
// at a seam; colours are clamped into [0, 1].
void PlyParser::checkVertices() {
    Mesh& mesh = model_.mesh;
    bool badNormal = false, clamped = false, badUv = false;
    for (std::size_t i = 0; i < mesh.vertexCount(); ++i) {
        if (!finitePosition(mesh, i)) {
            warn(WarningKind::BadValue, 0, "vertex index " + std::to_string(i) +
                                               " has a non-finite coordinate; faces using it are dropped");
            continue;
        }
        for (std::vector<float>* c : {&mesh.u, &mesh.v}) {
            if (!hasUvs_ || std::isfinite((*c)[i])) continue;
            if (!badUv)
                warn(WarningKind::BadValue, 0, "vertex index " + std::to_string(i) +
                                                   " (and maybe others) has a non-finite texture coordinate; it is taken as 0");
            badUv = true;
            (*c)[i] = 0.0f;
        }
        if (hasNormals_ && !badNormal) {
            const std::optional<glm::vec3> unit = unitVector({mesh.nx[i], mesh.ny[i], mesh.nz[i]});
            badNormal = !unit;
            const glm::vec3 n = unit.value_or(glm::vec3(mesh.nx[i], mesh.ny[i], mesh.nz[i]));
            mesh.nx[i] = n.x;
            mesh.ny[i] = n.y;
            mesh.nz[i] = n.z;
        }
        if (!hasColors_) continue;
        for (std::vector<float>* c : {&mesh.cr, &mesh.cg, &mesh.cb}) {
            float& x = (*c)[i];
            if (!std::isfinite(x)) {
                warn(WarningKind::BadValue, 0, "vertex index " + std::to_string(i) + " has a non-finite colour; it is drawn white");
                mesh.cr[i] = mesh.cg[i] = mesh.cb[i] = 1.0f;
                break;
            }
            clamped = clamped || x < 0.0f || x > 1.0f;
            x = std::clamp(x, 0.0f, 1.0f);
        }
    }
    if (clamped) warn(WarningKind::Other, 0, "vertex colours outside [0, 1] are clamped");
    if (badNormal) {
        warn(WarningKind::Other, 0, "a vertex normal is not finite or has zero length; normals are generated instead");
        hasNormals_ = false;
        for (std::vector<float>* a : {&mesh.nx, &mesh.ny, &mesh.nz}) a->clear();
    }
}

// Each face into triangles as OBJ polygons are; a face too small, on a non-finite vertex or
// without area is dropped with a warning.
void PlyParser::triangulate() {
    const Mesh& mesh = model_.mesh;
    std::vector<glm::vec3> points;
    std::vector<std::uint32_t> local;
    reserveOnHugePages(triangleCorners_, 3 * faces_.count()); // exact for triangles, a start for polygons
    for (std::size_t f = 0; f < faces_.count(); ++f) {
        const std::size_t line = faces_.lines.empty() ? 0 : faces_.lines[f];
        const std::size_t begin = faces_.starts[f], n = faces_.starts[f + 1] - begin;
        const auto face = [f] { return "face " + std::to_string(f + 1); }; // only for a warning
        if (n < 3) {
            warn(WarningKind::DroppedFace, line, face() + " with " + std::to_string(n) + " corners dropped (a face needs at least 3)");
            continue;
        }
        points.clear();
        for (std::size_t k = 0; k < n && points.size() == k; ++k) {
            const std::uint32_t v = faces_.corners[begin + k];
            if (finitePosition(mesh, v)) points.push_back(mesh.position(v));
            else warn(WarningKind::DroppedFace, line, face() + " dropped: vertex index " + std::to_string(v) + " is not finite");
        }
        if (points.size() != n) continue;
        local.clear();
        const Triangulation result = triangulatePolygon(points, local);
        if (result == Triangulation::Degenerate) {
            warn(WarningKind::DroppedFace, line, "degenerate " + face() + " dropped (fewer than 3 distinct corners, or no area)");
            continue;
        }
        if (result == Triangulation::Fan)
            warn(WarningKind::FanFace, line, face() + " of " + std::to_string(n) +
                                                 " corners is self-intersecting or too large to cut into ears: triangulated as a fan");
        for (const std::uint32_t i : local) triangleCorners_.push_back(static_cast<std::uint32_t>(begin + i));
    }
}

using MeshArray = std::vector<float> Mesh::*;

// The arrays of `mesh` that hold a value per vertex.
std::vector<MeshArray> vertexArrays(const Mesh& mesh) {
    std::vector<MeshArray> arrays;
    for (const MeshArray a : {&Mesh::px, &Mesh::py, &Mesh::pz, &Mesh::u, &Mesh::v, &Mesh::nx, &Mesh::ny, &Mesh::nz,
                              &Mesh::cr, &Mesh::cg, &Mesh::cb})
        if (!(mesh.*a).empty() && (mesh.*a).size() == mesh.px.size()) arrays.push_back(a);
    return arrays;
}

// Vertices with a non-finite position are on no triangle by now: removed, the rest keeping
// the file's order.
void removeNonFiniteVertices(Mesh& mesh) {
    const std::size_t n = mesh.vertexCount();
    std::size_t firstBad = 0;
    while (firstBad < n && finitePosition(mesh, firstBad)) ++firstBad;
    if (firstBad == n) return;
    std::vector<std::uint32_t> remap(n, kAbsent);
    const std::vector<MeshArray> arrays = vertexArrays(mesh);
    std::uint32_t next = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (!finitePosition(mesh, i)) continue;
        for (const MeshArray a : arrays) (mesh.*a)[next] = (mesh.*a)[i];
        remap[i] = next++;
    }
    for (const MeshArray a : arrays) (mesh.*a).resize(next);
    for (std::uint32_t& index : mesh.indices) index = remap[index];
}

struct CornerKey {
    std::uint32_t vertex, u, v; // u and v as their bits
    bool operator==(const CornerKey& o) const { return vertex == o.vertex && u == o.u && v == o.v; }
};

struct CornerKeyHash {
    std::size_t operator()(const CornerKey& k) const {
        std::uint64_t h = k.vertex;
        h = h * 0x9E3779B97F4A7C15ull + k.u;
        h = h * 0x9E3779B97F4A7C15ull + k.v;
        return static_cast<std::size_t>(h ^ (h >> 29));
    }
};

std::uint32_t bitsOf(float x) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &x, sizeof bits);
    return bits;
}

// Per-face texture coordinates: every distinct (vertex, u, v) a triangle corner uses becomes a
// vertex of its own, so a vertex on a UV seam is split and keeps its (smooth) normal and colour
// on both sides. Corners without a usable (u, v) take the vertex's own, or (0, 0). Vertices on
// no triangle are left out.
void PlyParser::expandCorners() {
    const Mesh& mesh = model_.mesh;
    std::vector<MeshArray> arrays = vertexArrays(mesh);
    arrays.erase(std::remove_if(arrays.begin(), arrays.end(), [](MeshArray a) { return a == &Mesh::u || a == &Mesh::v; }),
                 arrays.end());
    Mesh out;
    std::unordered_map<CornerKey, std::uint32_t, CornerKeyHash> vertexOf;
    vertexOf.reserve(triangleCorners_.size());
    out.indices.reserve(triangleCorners_.size());
    bool anyUv = hasUvs_;
    for (const std::uint32_t corner : triangleCorners_) {
        const std::uint32_t v = faces_.corners[corner];
        float u = faces_.uv[2 * std::size_t(corner)], w = faces_.uv[2 * std::size_t(corner) + 1];
        if (std::isnan(u)) {
            u = hasUvs_ ? mesh.u[v] : 0.0f;
            w = hasUvs_ ? mesh.v[v] : 0.0f;
        } else {
            anyUv = true;
        }
        const auto [it, added] = vertexOf.emplace(CornerKey{v, bitsOf(u), bitsOf(w)}, std::uint32_t(out.px.size()));
        if (added) {
            for (const MeshArray a : arrays) (out.*a).push_back((mesh.*a)[v]);
            out.u.push_back(u);
            out.v.push_back(w);
        }
        out.indices.push_back(it->second);
    }
    out.hasTexCoords = anyUv;
    model_.mesh = std::move(out);
}

// The texture a `comment TextureFile <name>` line names (MeshLab's and VCG's convention), for
// the default material of a mesh with texture coordinates; -1 for none (plain grey). One that
// cannot be loaded is warned about and shown as the checker.
std::int32_t PlyParser::faceTexture() {
    std::vector<Texture>& textures = model_.textures;
    std::string file;
    for (const std::string& c : header_.comments) {
        text::Tokens tokens(c);
        if (tokens.next() == "TextureFile") file = std::string(tokens.rest());
    }
    if (!file.empty()) {
        try {
            textures.push_back(makeTexture(loadImage(baseDir_ / text::unescapePath(file)), (baseDir_ / file).string()));
            return std::int32_t(textures.size() - 1);
        } catch (const Error& e) {
            warn(WarningKind::Other, 0, "texture '" + file + "' not loaded, the default checker is used: " + e.what());
            textures.push_back(makeCheckerTexture());
            return std::int32_t(textures.size() - 1);
        }
    }
    return -1;
}

// Indices, normals (the file's, or generated over the file's vertices before any are split),
// the one default material as an OBJ without mtllib has, bounds and the file's counts.
void PlyParser::finishMesh() {
    Mesh& mesh = model_.mesh;
    const std::size_t vertices = mesh.vertexCount();
    mesh.indices.clear();
    reserveOnHugePages(mesh.indices, triangleCorners_.size());
    if (!hasNormals_)
        for (std::vector<float>* a : {&mesh.nx, &mesh.ny, &mesh.nz}) reserveOnHugePages(*a, vertices);
    if (!hasUvs_)
        for (std::vector<float>* a : {&mesh.u, &mesh.v}) reserveOnHugePages(*a, vertices);
    for (const std::uint32_t corner : triangleCorners_) mesh.indices.push_back(faces_.corners[corner]);
    if (!hasNormals_) generateNormals(mesh);
    if (faces_.cornerUvs) {
        expandCorners();
    } else {
        mesh.hasTexCoords = hasUvs_;
        removeNonFiniteVertices(mesh);
    }
    for (std::vector<float>* a : {&model_.mesh.u, &model_.mesh.v}) a->resize(model_.mesh.vertexCount(), 0.0f);

    Mesh& out = model_.mesh;
    const auto triangles = static_cast<std::uint32_t>(out.triangleCount());
    if (triangles > 0) {
        out.ranges = {MaterialRange{0, triangles, 0}};
        model_.materials.push_back(Material{"default", {0.8f, 0.8f, 0.8f}, out.hasTexCoords ? faceTexture() : -1});
    } else if (faces_.count() == 0) {
        warn(WarningKind::Other, 0, "no faces: a point cloud of " + std::to_string(vertices) + " vertices, nothing to draw");
    } else {
        warn(WarningKind::Other, 0, "no faces left to draw");
    }
    model_.fileCounts = FileCounts{vertices, hasUvs_ ? vertices : faces_.uv.size() / 2, hasNormals_ ? vertices : 0,
                                   faces_.count()};
    computeBounds(out);
}

} // namespace

Model loadPlyFromBytes(const std::string& bytes, const std::string& name, const fs::path& baseDir) {
    Model model;
    model.source = name;
    PlyParser(name, baseDir, model).parse(bytes);
    return model;
}

Model loadPly(const fs::path& path) {
    return loadPlyFromBytes(readFileBytes(path), path.string(), path.parent_path());
}

} // namespace facet
