#include "asset/obj_loader.h"

#include "asset/bump_map.h"
#include "asset/image.h"
#include "asset/mtl_loader.h"
#include "asset/obj_chunks.h"
#include "asset/obj_corners.h"
#include "asset/text_file.h"
#include "asset/text_scan.h"
#include "asset/triangulate.h"
#include "asset/warning_log.h"
#include "core/error.h"
#include "core/mesh.h"
#include "host/huge_pages.h"
#include "host/thread_pool.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <future>
#include <limits>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace facet {

namespace {

namespace fs = std::filesystem;
using obj::Corner;
using obj::kAbsent;

// The material slot of faces with no usable usemtl; becomes the default material's index.
constexpr std::uint32_t kDefaultSlot = 0xFFFFFFFFu;

// Statements of the OBJ spec that facet does not render: read past without a warning.
constexpr std::string_view kIgnoredStatements[] = {
    "o",   "g",    "s",     "vp",      "cstype",    "deg",       "bmat",  "step",
    "curv", "curv2", "surf", "parm", "trim", "hole",    "scrv",      "sp",        "end",   "con",
    "mg",  "lod",  "usemap", "maplib", "shadow_obj", "trace_obj", "ctech", "stech", "bevel", "c_interp",
    "d_interp", "call", "csh", "res",
};

std::string plural(std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

bool isRegularFile(const fs::path& path) {
    std::error_code ec;
    return fs::is_regular_file(path, ec);
}

fs::path resolvePath(const fs::path& dir, const std::string& name) {
    const fs::path p(name);
    return p.is_absolute() ? p : dir / p;
}

// A material from an MTL library, with where its texture names are relative to.
struct LibraryMaterial {
    MtlMaterial mtl;
    fs::path dir;
    std::string file;
};

// An attribute (vt or vn) that some face corner indexes out of range: dropped for the whole mesh,
// as Blender and MeshLab do, since some exporters write faces naming normals never defined.
struct DroppedAttribute {
    const char* what;
    bool dropped = false;
    std::size_t laterFaults = 0; // faults after the first, which alone is warned about with its line
};

class ObjParser {
public:
    ObjParser(std::string name, fs::path baseDir, const ObjLoadOptions& options, Model& model)
        : name_(std::move(name)), baseDir_(std::move(baseDir)), options_(options), model_(model),
          warnings_(model.warnings) {}

    // Reads a block of whole logical lines, lexed, the file's next after those read before.
    void parse(const obj::ObjBlock& block);
    void finish();

private:
    [[noreturn]] void fail(const std::string& what) const { throw ParseError(name_, line_, what); }
    void warn(WarningKind kind, std::string message) { warnings_.add(kind, name_, line_, std::move(message)); }

    void replay(const obj::ObjChunk& chunk, std::string_view text);
    void replayFace(const std::int32_t* face, std::string_view text);
    void statement(std::string_view line);
    std::size_t readNumbers(text::Tokens& tokens, const char* statement, float* values, std::size_t max);
    void vertex(text::Tokens& tokens);
    void texcoord(text::Tokens& tokens);
    void normal(text::Tokens& tokens);
    void face(text::Tokens& tokens);
    void assembleFace();
    void storeNormal(glm::vec3 n);
    Corner parseCorner(std::string_view token);
    std::uint32_t resolveIndex(std::string_view part, std::size_t defined, const char* what, std::string_view token) const;
    std::string indexFault(std::string_view part, std::size_t defined, const char* what, std::string_view token) const;
    std::uint32_t resolveAttribute(std::string_view part, std::size_t defined, std::string_view token,
                                   DroppedAttribute& dropped);
    void mergeDroppedAttributes();
    std::uint32_t vertexOf(Corner c);
    void useMaterial(std::string_view name);
    void materialLibrary(std::string_view arguments);
    void loadLibrary(const std::string& file);

    void buildVertices();
    void buildMaterials();
    std::int32_t checkerTexture();
    std::int32_t loadTexture(const LibraryMaterial& m, MapKind kind);
    void loadMaps(const LibraryMaterial& m, Material& material);

    std::string name_;
    fs::path baseDir_;
    ObjLoadOptions options_;
    Model& model_;
    WarningLog warnings_;
    std::size_t line_ = 0;
    std::size_t linesBefore_ = 0; // physical lines of the text parsed before the current chunk

    std::vector<float> positions_, texcoords_, normals_; // xyz, uv, xyz; NaN marks an unusable one
    std::vector<float> colors_;                          // rgb per position once any v has a colour
    bool hasColors_ = false;
    obj::CornerMap vertices_;                            // the triple behind each output vertex

    DroppedAttribute droppedTexcoords_{"texture coordinate"}, droppedNormals_{"normal"};

    std::size_t faceStatements_ = 0, lineElements_ = 0, pointElements_ = 0;
    bool notedW_ = false, notedColorRange_ = false;
    std::unordered_set<std::string> unknownStatements_;

    std::vector<Corner> corners_; // scratch for the face being read
    std::vector<glm::vec3> points_;
    std::vector<std::uint32_t> local_, cornerVertex_;

    std::uint32_t slot_ = kDefaultSlot;              // the current usemtl
    std::vector<std::string> slotNames_;             // usemtl names in order of first use
    std::vector<std::size_t> slotLines_;             // the line of that first use
    std::unordered_map<std::string, std::uint32_t> slotOfName_;

    std::vector<LibraryMaterial> library_;
    std::unordered_map<std::string, std::size_t> libraryIndex_;
    std::unordered_set<std::string> loadedLibraries_;

    std::int32_t checker_ = -1;
    std::unordered_map<std::string, std::int32_t> textureOfPath_; // -1: failed to load
};

void ObjParser::parse(const obj::ObjBlock& block) {
    for (std::size_t i = 0; i < block.chunks.size(); ++i) {
        replay(block.chunks[i], block.pieces[i]);
        linesBefore_ += block.chunks[i].physicalLines;
    }
}

// The chunk's statements in order: plain ones from its arrays, the others read here.
void ObjParser::replay(const obj::ObjChunk& chunk, std::string_view text) {
    std::size_t position = 0, texcoord = 0, normal = 0, face = 0;
    for (std::size_t i = 0; i < chunk.ops.size(); i += 2) {
        const std::uint32_t count = chunk.ops[i + 1];
        switch (obj::Op(chunk.ops[i])) {
        case obj::Op::positions: {
            const float* p = chunk.positions.data() + position;
            positions_.insert(positions_.end(), p, p + 3 * std::size_t(count));
            if (hasColors_) colors_.insert(colors_.end(), 3 * std::size_t(count), 1.0f);
            position += 3 * std::size_t(count);
            break;
        }
        case obj::Op::texcoords: {
            const float* t = chunk.texcoords.data() + texcoord;
            texcoords_.insert(texcoords_.end(), t, t + 2 * std::size_t(count));
            texcoord += 2 * std::size_t(count);
            break;
        }
        case obj::Op::normals:
            for (std::uint32_t n = 0; n < count; ++n, normal += 3) // (lengths known to be fine)
                storeNormal({chunk.normals[normal], chunk.normals[normal + 1], chunk.normals[normal + 2]});
            break;
        case obj::Op::faces:
            for (std::uint32_t f = 0; f < count; ++f) {
                const std::int32_t* header = chunk.faces.data() + face;
                replayFace(header, text);
                face += 4 + 3 * std::size_t(header[0]);
            }
            break;
        case obj::Op::line: {
            const obj::ChunkLine& line = chunk.lines[count];
            line_ = linesBefore_ + line.line;
            statement(line.text);
            break;
        }
        }
    }
}

// A face the lexer read: its indices resolved here, where the lines before it are known; one that
// names nothing is read again from its text, so its warning or error is the one-thread parser's.
void ObjParser::replayFace(const std::int32_t* face, std::string_view text) {
    line_ = linesBefore_ + std::size_t(face[1]);
    const auto resolve = [](std::int32_t raw, std::size_t defined, std::uint32_t& index) {
        const auto count = static_cast<std::int64_t>(defined);
        if (raw > count || -std::int64_t(raw) > count) return false;
        index = static_cast<std::uint32_t>(raw > 0 ? raw - 1 : count + raw);
        return true;
    };
    const std::size_t positions = positions_.size() / 3, texcoords = texcoords_.size() / 2, normals = normals_.size() / 3;
    corners_.clear();
    const std::int32_t* c = face + 4;
    for (std::int32_t i = 0; i < face[0]; ++i, c += 3) {
        Corner corner;
        if (!resolve(c[0], positions, corner.p) || (c[1] != 0 && !resolve(c[1], texcoords, corner.t)) ||
            (c[2] != 0 && !resolve(c[2], normals, corner.n))) {
            statement(text.substr(std::size_t(face[2]), std::size_t(face[3])));
            return;
        }
        corners_.push_back(corner);
    }
    ++faceStatements_;
    assembleFace();
}

void ObjParser::statement(std::string_view line) {
    text::Tokens tokens(line);
    const std::string_view keyword = tokens.next();
    if (keyword == "v") {
        vertex(tokens);
    } else if (keyword == "f") {
        face(tokens);
    } else if (keyword == "vt") {
        texcoord(tokens);
    } else if (keyword == "vn") {
        normal(tokens);
    } else if (keyword == "usemtl") {
        useMaterial(tokens.rest());
    } else if (keyword == "mtllib") {
        materialLibrary(tokens.rest());
    } else if (keyword == "l" || keyword == "p") {
        (keyword == "l" ? lineElements_ : pointElements_) += 1;
    } else if (std::find(std::begin(kIgnoredStatements), std::end(kIgnoredStatements), keyword) ==
               std::end(kIgnoredStatements)) {
        if (unknownStatements_.emplace(keyword).second)
            warn(WarningKind::Other, "unknown statement '" + std::string(keyword) + "' ignored");
    }
}

// Reads up to `max` numbers, NaN standing for any non-finite one; a token that is not a number
// rejects the file.
std::size_t ObjParser::readNumbers(text::Tokens& tokens, const char* statement, float* values, std::size_t max) {
    std::size_t count = 0;
    for (std::string_view token = tokens.next(); !token.empty(); token = tokens.next()) {
        if (count == max) fail(std::string("too many numbers in '") + statement + "' (at most " + std::to_string(max) + ")");
        const text::NumberStatus status = text::parseFloat(token, values[count]);
        if (status == text::NumberStatus::Malformed)
            fail("'" + std::string(token) + "' is not a number (in '" + statement + "')");
        if (status == text::NumberStatus::NonFinite) values[count] = std::numeric_limits<float>::quiet_NaN();
        ++count;
    }
    return count;
}

void ObjParser::vertex(text::Tokens& tokens) {
    float c[6];
    const std::size_t count = readNumbers(tokens, "v", c, 6);
    if (count != 3 && count != 4 && count != 6)
        fail("'v' needs 3 numbers (x y z), 4 (x y z w) or 6 (x y z r g b), not " + std::to_string(count));
    const bool finitePosition = std::isfinite(c[0]) && std::isfinite(c[1]) && std::isfinite(c[2]);
    if (!finitePosition) {
        warn(WarningKind::BadValue, "vertex " + std::to_string(positions_.size() / 3 + 1) +
                                        " has a non-finite or out-of-range coordinate; faces using it are dropped");
        c[0] = std::numeric_limits<float>::quiet_NaN();
    }
    positions_.insert(positions_.end(), {c[0], c[1], c[2]});
    if (count == 4 && !notedW_) {
        notedW_ = true;
        warn(WarningKind::Other, "vertex with a w component: w ignored (rational curves are not supported)");
    }

    if (count == 6 && !hasColors_) {
        hasColors_ = true;
        colors_.assign(positions_.size() - 3, 1.0f); // earlier vertices: white
    }
    if (!hasColors_) return;
    glm::vec3 rgb(1.0f);
    if (count == 6) {
        if (std::isfinite(c[3]) && std::isfinite(c[4]) && std::isfinite(c[5])) {
            rgb = {c[3], c[4], c[5]};
            if (glm::any(glm::lessThan(rgb, glm::vec3(0.0f))) || glm::any(glm::greaterThan(rgb, glm::vec3(1.0f)))) {
                if (!notedColorRange_) warn(WarningKind::Other, "vertex colours outside [0, 1] are clamped");
                notedColorRange_ = true;
                rgb = glm::clamp(rgb, 0.0f, 1.0f);
            }
        } else {
            warn(WarningKind::BadValue, "vertex " + std::to_string(positions_.size() / 3) +
                                            " has a non-finite colour; it is drawn white");
        }
    }
    colors_.insert(colors_.end(), {rgb.r, rgb.g, rgb.b});
}

void ObjParser::texcoord(text::Tokens& tokens) {
    float c[3] = {0.0f, 0.0f, 0.0f};
    const std::size_t count = readNumbers(tokens, "vt", c, 3);
    if (count == 0) fail("'vt' needs 1 to 3 numbers (u [v [w]])");
    if (!std::isfinite(c[0]) || !std::isfinite(c[1])) {
        warn(WarningKind::BadValue, "texture coordinate " + std::to_string(texcoords_.size() / 2 + 1) +
                                        " is not finite; corners using it get none");
        c[0] = std::numeric_limits<float>::quiet_NaN();
    }
    texcoords_.insert(texcoords_.end(), {c[0], c[1]});
}

void ObjParser::normal(text::Tokens& tokens) {
    float c[3];
    if (readNumbers(tokens, "vn", c, 3) != 3) fail("'vn' needs 3 numbers (x y z)");
    storeNormal({c[0], c[1], c[2]});
}

// Stored unit length: some exporters write unnormalised normals (Meshlab's |n| = 2 pi).
void ObjParser::storeNormal(glm::vec3 n) {
    if (const std::optional<glm::vec3> unit = unitVector(n)) {
        n = *unit;
    } else {
        warn(WarningKind::BadValue, "normal " + std::to_string(normals_.size() / 3 + 1) +
                                        " is not finite or has zero length; corners using it get a generated one");
        n.x = std::numeric_limits<float>::quiet_NaN();
    }
    normals_.insert(normals_.end(), {n.x, n.y, n.z});
}

// The 0-based element that index `part` names among the `defined` ones so far; false when none.
bool lookUpIndex(std::string_view part, std::size_t defined, std::uint32_t& index) {
    std::int64_t raw = 0;
    const auto count = static_cast<std::int64_t>(defined);
    if (!text::parseInt(part, raw) || raw == 0 || raw > count || raw < -count) return false;
    index = static_cast<std::uint32_t>(raw > 0 ? raw - 1 : count + raw);
    return true;
}

std::uint32_t ObjParser::resolveIndex(std::string_view part, std::size_t defined, const char* what,
                                      std::string_view token) const {
    std::uint32_t index = 0;
    if (lookUpIndex(part, defined, index)) return index;
    fail(indexFault(part, defined, what, token));
}

// What is wrong with an index that resolveIndex could not resolve; rejects the file when the
// index is not a number at all.
std::string ObjParser::indexFault(std::string_view part, std::size_t defined, const char* what,
                                  std::string_view token) const {
    const std::string where = " in face corner '" + std::string(token) + "'";
    const std::size_t sign = (!part.empty() && part[0] == '-') ? 1 : 0;
    if (part.size() == sign || part.find_first_not_of("0123456789", sign) != std::string_view::npos)
        fail("malformed face corner '" + std::string(token) + "' (expected v, v/vt, v//vn or v/vt/vn)");
    if (part.find_first_not_of('0', sign) == std::string_view::npos)
        return std::string(what) + " index 0" + where + " (OBJ indices start at 1)";
    if (sign == 1)
        return "relative " + std::string(what) + " index " + std::string(part) + where +
               " points before the first one (" + std::to_string(defined) + " defined so far)";
    return std::string(what) + " index " + std::string(part) + " out of range" + where + ": only " +
           std::to_string(defined) + " defined so far";
}

// A vt or vn index: one naming nothing drops that attribute for the mesh, with a warning naming
// the first such line, instead of rejecting the file.
std::uint32_t ObjParser::resolveAttribute(std::string_view part, std::size_t defined, std::string_view token,
                                          DroppedAttribute& dropped) {
    std::uint32_t index = 0;
    if (lookUpIndex(part, defined, index)) return index;
    const std::string fault = indexFault(part, defined, dropped.what, token);
    if (dropped.dropped) {
        ++dropped.laterFaults;
    } else {
        dropped.dropped = true;
        warn(WarningKind::Other, fault + "; the mesh's " + dropped.what + "s are dropped" +
                                     (&dropped == &droppedNormals_ ? " and normals generated" : ""));
    }
    return kAbsent;
}

// v, v/vt, v//vn, v/vt/vn; also v/vt/ and v// (an empty trailing index means none).
Corner ObjParser::parseCorner(std::string_view token) {
    std::string_view parts[3];
    std::size_t count = 0;
    for (std::size_t start = 0;;) {
        const std::size_t slash = token.find('/', start);
        if (count == 3) fail("malformed face corner '" + std::string(token) + "' (more than two '/')");
        parts[count++] = token.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
        if (slash == std::string_view::npos) break;
        start = slash + 1;
    }
    if (parts[0].empty()) fail("malformed face corner '" + std::string(token) + "' (no vertex index)");
    Corner c;
    c.p = resolveIndex(parts[0], positions_.size() / 3, "vertex", token);
    if (!parts[1].empty()) c.t = resolveAttribute(parts[1], texcoords_.size() / 2, token, droppedTexcoords_);
    if (!parts[2].empty()) c.n = resolveAttribute(parts[2], normals_.size() / 3, token, droppedNormals_);
    return c;
}

void ObjParser::face(text::Tokens& tokens) {
    ++faceStatements_;
    corners_.clear();
    for (std::string_view token = tokens.next(); !token.empty(); token = tokens.next())
        corners_.push_back(parseCorner(token));
    assembleFace();
}

// The face in corners_, its indices resolved: dropped with a warning, or triangulated into the mesh.
void ObjParser::assembleFace() {
    if (corners_.size() < 3) {
        warn(WarningKind::DroppedFace, "face with " + plural(corners_.size(), "corner", "corners") +
                                           " dropped (a face needs at least 3)");
        return;
    }
    points_.clear();
    for (const Corner& c : corners_) {
        const float* p = &positions_[3 * std::size_t(c.p)];
        if (std::isnan(p[0])) {
            warn(WarningKind::DroppedFace, "face dropped: vertex " + std::to_string(c.p + 1) + " is not finite");
            return;
        }
        points_.emplace_back(p[0], p[1], p[2]);
    }

    local_.clear();
    const Triangulation result = triangulatePolygon(points_, local_);
    if (result == Triangulation::Degenerate) {
        warn(WarningKind::DroppedFace, "degenerate face dropped (fewer than 3 distinct corners, or no area)");
        return;
    }
    if (result == Triangulation::Fan)
        warn(WarningKind::FanFace,
             corners_.size() > kMaxEarClipCorners
                 ? "concave " + plural(corners_.size(), "corner", "corners") +
                       " face: too many corners to cut into ears, triangulated as a fan"
                 : "self-intersecting " + plural(corners_.size(), "corner", "corners") +
                       " face: no ear found, triangulated as a fan");

    // Only corners that end up in a triangle become vertices (a repeated corner may not).
    cornerVertex_.assign(corners_.size(), kAbsent);
    for (const std::uint32_t i : local_) {
        if (cornerVertex_[i] == kAbsent) cornerVertex_[i] = vertexOf(corners_[i]);
        model_.mesh.indices.push_back(cornerVertex_[i]);
    }

    std::vector<MaterialRange>& ranges = model_.mesh.ranges;
    const auto added = static_cast<std::uint32_t>(local_.size() / 3);
    if (ranges.empty() || ranges.back().material != slot_) {
        const auto first = static_cast<std::uint32_t>(model_.mesh.indices.size() / 3 - added);
        ranges.push_back(MaterialRange{first, 0, slot_});
    }
    ranges.back().triangleCount += added;
}

std::uint32_t ObjParser::vertexOf(Corner c) {
    if (c.t != kAbsent && std::isnan(texcoords_[2 * std::size_t(c.t)])) c.t = kAbsent;
    if (c.n != kAbsent && std::isnan(normals_[3 * std::size_t(c.n)])) c.n = kAbsent;
    return vertices_.findOrInsert(c);
}

void ObjParser::useMaterial(std::string_view name) {
    if (name.empty()) {
        warn(WarningKind::Other, "usemtl without a name: the default material is used");
        slot_ = kDefaultSlot;
        return;
    }
    const auto [it, added] = slotOfName_.emplace(std::string(name), static_cast<std::uint32_t>(slotNames_.size()));
    if (added) {
        slotNames_.emplace_back(name);
        slotLines_.push_back(line_);
    }
    slot_ = it->second;
}

// mtllib takes a list of names; a name with spaces is either escaped ("a\ b.mtl") or, when
// the whole rest of the line names an existing file, written as is.
void ObjParser::materialLibrary(std::string_view arguments) {
    if (!options_.loadMaterials) return;
    if (arguments.empty()) {
        warn(WarningKind::Other, "mtllib without a file name");
        return;
    }
    const std::string whole = text::unescapePath(arguments);
    if (isRegularFile(resolvePath(baseDir_, whole))) {
        loadLibrary(whole);
        return;
    }
    for (const std::string_view name : text::splitEscaped(arguments)) loadLibrary(text::unescapePath(name));
}

void ObjParser::loadLibrary(const std::string& file) {
    const fs::path path = resolvePath(baseDir_, file);
    if (!loadedLibraries_.insert(path.lexically_normal().string()).second) return;
    std::string text;
    try {
        text = decodeText(readFileBytes(path), path.string());
    } catch (const Error& e) {
        warn(WarningKind::Other, "material library '" + file + "' not loaded: " + e.what());
        return;
    }
    // A malformed texture option is an error (ParseError naming the MTL's line), not a warning.
    std::vector<MtlMaterial> materials = parseMtl(text, path.string(), warnings_.list());
    for (MtlMaterial& m : materials) {
        if (libraryIndex_.count(m.name)) {
            warn(WarningKind::Other, "material '" + m.name + "' in '" + file +
                                         "' is already defined by an earlier library; the first definition is kept");
            continue;
        }
        libraryIndex_.emplace(m.name, library_.size());
        library_.push_back({std::move(m), path.parent_path(), path.string()});
    }
}

void ObjParser::finish() {
    line_ = 0;
    Mesh& mesh = model_.mesh;
    if (positions_.empty() && faceStatements_ == 0) fail("no geometry (no vertices or faces)");
    if (faceStatements_ == 0) {
        const std::size_t elements = lineElements_ + pointElements_;
        warn(WarningKind::Other, elements > 0 ? "no faces; " + plural(elements, "line/point element", "line/point elements") +
                                                    " ignored"
                                              : "no faces");
    }
    model_.fileCounts = FileCounts{positions_.size() / 3, texcoords_.size() / 2, normals_.size() / 3, faceStatements_};
    mergeDroppedAttributes();
    buildVertices();
    buildMaterials();
    prepareBumpMapping(model_, name_);
    computeBounds(mesh);
    warnings_.summarise(name_);
}

// Forgets the dropped attributes in every vertex and merges the vertices that differed only in
// them, so generated normals are smooth where the file's corners share a position.
void ObjParser::mergeDroppedAttributes() {
    for (const DroppedAttribute* d : {&droppedTexcoords_, &droppedNormals_})
        if (d->laterFaults > 0)
            warn(WarningKind::Other, plural(d->laterFaults, "more face corner", "more face corners") + " with a " +
                                         d->what + " index out of range");
    if (!droppedTexcoords_.dropped && !droppedNormals_.dropped) return;
    obj::CornerMap merged;
    const std::vector<Corner>& vertices = vertices_.vertices();
    std::vector<std::uint32_t> remap(vertices.size());
    for (std::size_t i = 0; i < vertices.size(); ++i) {
        Corner c = vertices[i];
        if (droppedTexcoords_.dropped) c.t = kAbsent;
        if (droppedNormals_.dropped) c.n = kAbsent;
        remap[i] = merged.findOrInsert(c);
    }
    for (std::uint32_t& index : model_.mesh.indices) index = remap[index];
    vertices_ = std::move(merged);
}

void ObjParser::buildVertices() {
    Mesh& mesh = model_.mesh;
    const std::vector<Corner>& vertices = vertices_.vertices();
    const std::size_t n = vertices.size();
    for (std::vector<float>* a : {&mesh.px, &mesh.py, &mesh.pz, &mesh.u, &mesh.v, &mesh.nx, &mesh.ny, &mesh.nz})
        reserveOnHugePages(*a, n);
    for (std::vector<float>* a : {&mesh.px, &mesh.py, &mesh.pz, &mesh.u, &mesh.v}) a->resize(n);
    bool allNormals = true;
    for (std::size_t i = 0; i < n; ++i) {
        const Corner& c = vertices[i];
        const float* p = &positions_[3 * std::size_t(c.p)];
        mesh.px[i] = p[0];
        mesh.py[i] = p[1];
        mesh.pz[i] = p[2];
        if (c.t != kAbsent) {
            mesh.u[i] = texcoords_[2 * std::size_t(c.t)];
            mesh.v[i] = texcoords_[2 * std::size_t(c.t) + 1];
            mesh.hasTexCoords = true;
        }
        allNormals = allNormals && c.n != kAbsent;
    }
    // One missing normal means the file's normals do not describe the surface as a whole, and
    // mixing generated with given ones would shade seams: generate them all instead.
    if (allNormals && n > 0) {
        for (std::vector<float>* a : {&mesh.nx, &mesh.ny, &mesh.nz}) a->resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            const float* nrm = &normals_[3 * std::size_t(vertices[i].n)];
            mesh.nx[i] = nrm[0];
            mesh.ny[i] = nrm[1];
            mesh.nz[i] = nrm[2];
        }
    } else {
        generateNormals(mesh);
    }
    if (hasColors_) {
        for (std::vector<float>* a : {&mesh.cr, &mesh.cg, &mesh.cb}) {
            reserveOnHugePages(*a, n);
            a->resize(n);
        }
        for (std::size_t i = 0; i < n; ++i) {
            const float* rgb = &colors_[3 * std::size_t(vertices[i].p)];
            mesh.cr[i] = rgb[0];
            mesh.cg[i] = rgb[1];
            mesh.cb[i] = rgb[2];
        }
    }
}

std::int32_t ObjParser::checkerTexture() {
    if (checker_ < 0) {
        checker_ = static_cast<std::int32_t>(model_.textures.size());
        model_.textures.push_back(makeCheckerTexture());
    }
    return checker_;
}

// A material's map, decoded once per file however many materials share it; -1 when it cannot
// be loaded (warned about with the MTL's line).
std::int32_t ObjParser::loadTexture(const LibraryMaterial& m, MapKind kind) {
    const MtlMap& map = m.mtl.map(kind);
    const fs::path path = resolvePath(m.dir, map.file);
    // A height map becomes a normal map at load, one for each -bm it is used with.
    const Material& mat = m.mtl.material;
    const bool heights = kind == MapKind::Bump && !mat.bumpIsNormalMap;
    const std::string key = path.lexically_normal().string() + (heights ? "\n-bm " + std::to_string(mat.bumpScale) : "");
    auto it = textureOfPath_.find(key);
    const bool color = kind == MapKind::Diffuse || kind == MapKind::Specular || kind == MapKind::Emission;
    const std::string instead = color ? "the default checker is used" : "the map is ignored";
    if (it == textureOfPath_.end()) {
        std::int32_t index = -1;
        try {
            const Image image = loadImage(path);
            Texture texture = heights ? makeTexture(heightToNormalMap(image, mat.bumpScale), path.string() + " (heights as normals)")
                                      : makeTexture(image, path.string());
            index = static_cast<std::int32_t>(model_.textures.size());
            model_.textures.push_back(std::move(texture));
        } catch (const Error& e) {
            warnings_.add(WarningKind::Other, m.file, map.line,
                          "texture '" + map.file + "' of material '" + m.mtl.name + "' not loaded, " + instead + ": " +
                              e.what());
        }
        it = textureOfPath_.emplace(key, index).first;
    } else if (it->second < 0) {
        warnings_.add(WarningKind::Other, m.file, map.line,
                      "texture '" + map.file + "' of material '" + m.mtl.name + "' not loaded (see above), " + instead);
    }
    // A missing colour map shows as the checker, so the gap is visible; a missing data map (map_Ns,
    // map_d, bump) is left out, since a checker there would cut holes or raise bumps: a missing
    // bump map draws the surface flat, as if it had none (the warning says so).
    return it->second >= 0 ? it->second : color ? checkerTexture() : -1;
}

// The maps a used material names, loaded.
void ObjParser::loadMaps(const LibraryMaterial& m, Material& material) {
    const auto load = [&](MapKind kind) { return m.mtl.map(kind).file.empty() ? -1 : loadTexture(m, kind); };
    material.texture = load(MapKind::Diffuse);
    material.specularMap = load(MapKind::Specular);
    material.shininessMap = load(MapKind::Shininess);
    material.emissionMap = load(MapKind::Emission);
    material.alphaMap = load(MapKind::Alpha);
    material.bumpMap = load(MapKind::Bump);
}

// Every material of the loaded libraries goes into the model in definition order; textures
// are decoded only for the materials faces use. Faces without a usable usemtl get the default
// material: 0.8 grey, with the checker texture when the mesh has texture coordinates (the
// checker marks "no material here" but needs UVs to show; without them it would be one flat
// colour, so plain grey is the honest default then).
void ObjParser::buildMaterials() {
    std::vector<Material>& materials = model_.materials;
    for (const LibraryMaterial& m : library_) materials.push_back(m.mtl.material);

    std::vector<std::uint32_t> materialOfSlot(slotNames_.size(), kDefaultSlot);
    for (std::size_t s = 0; s < slotNames_.size(); ++s) {
        const auto found = libraryIndex_.find(slotNames_[s]);
        if (found != libraryIndex_.end()) {
            materialOfSlot[s] = static_cast<std::uint32_t>(found->second);
        } else if (options_.loadMaterials) {
            warnings_.add(WarningKind::Other, name_, slotLines_[s],
                          "material '" + slotNames_[s] + "' is not defined" +
                              (loadedLibraries_.empty() ? " (no material library loaded)" : " in the loaded libraries") +
                              "; the default material is used");
        }
    }

    std::vector<bool> used(materials.size(), false);
    std::uint32_t defaultMaterial = kDefaultSlot;
    std::vector<MaterialRange> merged;
    for (MaterialRange r : model_.mesh.ranges) {
        r.material = r.material == kDefaultSlot ? kDefaultSlot : materialOfSlot[r.material];
        if (r.material == kDefaultSlot) {
            if (defaultMaterial == kDefaultSlot) {
                defaultMaterial = static_cast<std::uint32_t>(materials.size());
                // Plain grey, textured or not: the checker marks a named texture that could not be
                // read, never a mesh that names none.
                materials.push_back(Material{"default", {0.8f, 0.8f, 0.8f}, -1});
            }
            r.material = defaultMaterial;
        } else {
            used[r.material] = true;
        }
        if (!merged.empty() && merged.back().material == r.material) merged.back().triangleCount += r.triangleCount;
        else merged.push_back(r);
    }
    model_.mesh.ranges = std::move(merged);

    if (!options_.loadTextures) return;
    for (std::size_t i = 0; i < library_.size(); ++i)
        if (used[i]) loadMaps(library_[i], materials[i]);
}

// Threads for a text of `bytes`: below a block's worth, one (starting threads would cost more
// than they save, and the fuzzer feeds thousands of small texts a second).
int threadsFor(std::size_t bytes, const ObjLoadOptions& options) {
    return options.threads == 0 && bytes < options.blockBytes ? 1 : options.threads;
}

} // namespace

Model loadObjFromString(const std::string& text, const std::string& name, const fs::path& baseDir,
                        const ObjLoadOptions& options) {
    Model model;
    model.source = name;
    ObjParser parser(name, baseDir, options, model);
    ThreadPool pool(threadsFor(text.size(), options));
    obj::ObjBlock block;
    block.text = decodeText(text, name);
    obj::lexBlock(block, pool, options.lexInParallel);
    parser.parse(block);
    parser.finish();
    return model;
}

// The next block is read and lexed while the parser replays this one, so the replay, which runs
// on one thread, overlaps the lexing, which runs on all.
Model loadObj(const fs::path& path, const ObjLoadOptions& options) {
    Model model;
    model.source = path.string();
    ObjParser parser(model.source, path.parent_path(), options, model);
    TextBlocks blocks(path, obj::lastLineEnd, options.blockBytes);
    ThreadPool pool(threadsFor(blocks.size(), options));
    std::size_t lines = 0; // in the blocks read so far
    const auto readNext = [&](obj::ObjBlock& block) {
        if (!blocks.next(block.text, lines)) return false;
        obj::lexBlock(block, pool, options.lexInParallel);
        lines += block.physicalLines();
        return true;
    };
    // Two blocks taken in turn (never swapped: the chunks point into the text, which a short
    // string would carry along).
    obj::ObjBlock two[2];
    std::size_t replayed = 0; // bytes
    for (std::size_t i = 0, more = readNext(two[0]); more; ++i) {
        std::future<bool> ahead = std::async(std::launch::async, readNext, std::ref(two[(i + 1) % 2]));
        parser.parse(two[i % 2]);
        replayed += two[i % 2].text.size();
        if (options.progress && blocks.size() > 0)
            options.progress->store(float(std::min(1.0, double(replayed) / double(blocks.size()))));
        more = ahead.get();
    }
    parser.finish();
    return model;
}

} // namespace facet
