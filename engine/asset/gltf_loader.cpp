#include "asset/gltf_loader.h"

#include "asset/gltf_access.h"
#include "asset/gltf_build.h"
#include "asset/text_file.h"
#include "core/error.h"

#include <nlohmann/json.hpp>
#include <tiny_gltf.h>

#include <algorithm>
#include <cctype>
#include <climits>

namespace facet {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

// ---- The GLB container: checked here before tinygltf sees it (its own checks let a BIN chunk
// run 8 bytes past the file's end).

constexpr std::uint32_t kGlbMagic = 0x46546C67u; // "glTF"
constexpr std::uint32_t kChunkJson = 0x4E4F534Au, kChunkBin = 0x004E4942u;

std::uint32_t readU32(const std::string& bytes, std::size_t at) {
    std::uint32_t v = 0;
    for (int k = 3; k >= 0; --k) v = v << 8 | static_cast<unsigned char>(bytes[at + std::size_t(k)]);
    return v;
}

struct GlbLayout {
    std::size_t length = 0; // the header's, what tinygltf is given
    std::string_view json;
};

GlbLayout checkGlb(const std::string& bytes, const std::string& name) {
    const auto fail = [&](const std::string& what) { throw ParseError(name, 0, what); };
    if (bytes.size() < 12)
        fail("truncated GLB: " + std::to_string(bytes.size()) + " bytes, less than the 12-byte header");
    if (readU32(bytes, 0) != kGlbMagic) fail("not a GLB file: bad magic (the file does not start with 'glTF')");
    if (readU32(bytes, 4) != 2) fail("GLB version " + std::to_string(readU32(bytes, 4)) + " (facet reads version 2)");
    GlbLayout glb;
    glb.length = readU32(bytes, 8);
    if (glb.length > bytes.size())
        fail("truncated GLB: the header says " + std::to_string(glb.length) + " bytes, the file has " +
             std::to_string(bytes.size()));
    std::size_t at = 12;
    for (int chunk = 0; at < glb.length; ++chunk) {
        if (glb.length - at < 8) fail("truncated GLB: chunk " + std::to_string(chunk) + "'s header is cut short");
        const std::size_t size = readU32(bytes, at), type = readU32(bytes, at + 4);
        if (size > glb.length - at - 8)
            fail("truncated GLB: chunk " + std::to_string(chunk) + " of " + std::to_string(size) +
                 " bytes runs past the end of the file");
        if (chunk == 0 && type != kChunkJson) fail("GLB: the first chunk is not JSON");
        if (chunk == 1 && type != kChunkBin) fail("GLB: the second chunk is not BIN");
        if (chunk == 1 && size % 4 != 0) fail("GLB: the BIN chunk's length is not a multiple of 4");
        if (chunk == 0) glb.json = std::string_view(bytes).substr(at + 8, size);
        at += 8 + size;
        if (chunk == 1) break; // later chunks are of types facet ignores, as the spec says
    }
    if (glb.json.empty()) fail("GLB without a JSON chunk");
    return glb;
}

// ---- The document before tinygltf reads it: JSON syntax, required extensions, buffer files.

// Extensions a file may require that facet reads: quantized attributes come through the same
// accessor reader as floats; the emissive strength scales emission.
constexpr const char* kImplementedExtensions[] = {"KHR_mesh_quantization", "KHR_materials_emissive_strength",
                                                  "KHR_texture_transform"};

Json parseJson(std::string_view text, const std::string& name) {
    try {
        Json doc = Json::parse(text.begin(), text.end());
        if (!doc.is_object()) throw ParseError(name, 0, "malformed glTF: the JSON document is not an object");
        return doc;
    } catch (const Json::exception& e) {
        throw ParseError(name, 0, std::string("malformed JSON: ") + e.what());
    }
}

void checkRequiredExtensions(const Json& doc, const std::string& name) {
    const auto it = doc.find("extensionsRequired");
    if (it == doc.end() || !it->is_array()) return;
    for (const Json& e : *it) {
        const std::string ext = e.is_string() ? e.get<std::string>() : e.dump();
        const bool known = std::any_of(std::begin(kImplementedExtensions), std::end(kImplementedExtensions),
                                       [&](const char* k) { return ext == k; });
        if (!known)
            throw ParseError(name, 0, "the file requires the extension '" + ext +
                                          "', which facet does not implement (extensionsRequired)");
    }
}

// Every buffer in a file of its own: followable and there, or the file is refused naming it.
void checkBufferFiles(const Json& doc, const std::string& name, const UriRule& rule) {
    const auto it = doc.find("buffers");
    if (it == doc.end() || !it->is_array()) return;
    for (std::size_t i = 0; i < it->size(); ++i) {
        const Json& b = (*it)[i];
        if (!b.is_object() || !b.contains("uri") || !b["uri"].is_string()) continue;
        const std::string uri = b["uri"].get<std::string>();
        if (isDataUri(uri)) continue;
        const std::string where = "buffers[" + std::to_string(i) + "].uri '" + uri + "'";
        fs::path file;
        const UriVerdict verdict = rule.resolve(uri, file);
        if (verdict != UriVerdict::File)
            throw ParseError(name, 0, where + " is not read: " + describe(verdict) + "; the geometry cannot be drawn without it");
        std::error_code ec;
        if (!fs::is_regular_file(file, ec))
            throw ParseError(name, 0, "missing buffer file '" + uri + "' (" + where + ", looked for at " + file.string() + ")");
    }
}

// ---- tinygltf, its file access routed through the folder rule.

// tinygltf keeps each image's encoded bytes (facet decodes them, within its own limits); an
// image in a buffer view is read later from the checked view, as tinygltf hands over its bytes
// without checking the view against its buffer.
bool keepEncodedImage(tinygltf::Image* image, const int, std::string*, std::string*, int, int,
                      const unsigned char* bytes, int size, void*) {
    if (image->bufferView < 0 && bytes && size > 0) image->image.assign(bytes, bytes + size);
    return true;
}

tinygltf::Model parseDocument(const std::string& bytes, std::string_view json, bool binary, std::size_t glbLength,
                              const std::string& name, GltfFileAccess& access) {
    tinygltf::TinyGLTF reader;
    access.install(reader);
    reader.SetImageLoader(keepEncodedImage, nullptr);
    tinygltf::Model doc;
    std::string err, warn;
    bool ok = false;
    try {
        const std::string base = access.baseString();
        ok = binary ? reader.LoadBinaryFromMemory(&doc, &err, &warn, reinterpret_cast<const unsigned char*>(bytes.data()),
                                                  static_cast<unsigned int>(glbLength), base)
                    : reader.LoadASCIIFromString(&doc, &err, &warn, json.data(), static_cast<unsigned int>(json.size()), base);
    } catch (const std::exception& e) {
        err = e.what();
    }
    if (!ok) {
        while (!err.empty() && (err.back() == '\n' || err.back() == ' ')) err.pop_back();
        std::replace(err.begin(), err.end(), '\n', ';');
        throw ParseError(name, 0, "malformed glTF: " + (err.empty() ? std::string("tinygltf refused it") : err));
    }
    return doc;
}

} // namespace

Scene loadGltfSceneFromBytes(const std::string& bytes, bool binary, const std::string& name, const fs::path& baseDir,
                             const LoadOptions& options) {
    if (!binary && bytes.size() >= 4 && readU32(bytes, 0) == kGlbMagic) binary = true; // a .gltf that is a GLB
    GlbLayout glb;
    if (binary) glb = checkGlb(bytes, name);
    else if (bytes.size() > UINT_MAX) throw ParseError(name, 0, "a .gltf of 4 GiB or more");
    const std::string_view json = binary ? glb.json : std::string_view(bytes);
    const Json doc = parseJson(json, name);
    checkRequiredExtensions(doc, name);
    const UriRule rule(baseDir, options.allowOutsidePaths);
    checkBufferFiles(doc, name, rule);
    GltfFileAccess access(rule);
    const tinygltf::Model gltf = parseDocument(bytes, json, binary, glb.length, name, access);
    return buildGltfScene(gltf, name, rule);
}

Scene loadGltfScene(const fs::path& path, const LoadOptions& options) {
    std::string lower = path.extension().string();
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return loadGltfSceneFromBytes(readFileBytes(path), lower == ".glb", path.string(),
                                  fs::absolute(path).parent_path(), options);
}

} // namespace facet
