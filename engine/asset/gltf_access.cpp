#include "asset/gltf_access.h"

#include "asset/text_file.h"
#include "core/error.h"

#include <tiny_gltf.h>

#include <cctype>
#include <vector>

namespace facet {

namespace fs = std::filesystem;

namespace {

int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// A scheme is letters, digits, '+', '-' or '.' after a first letter, then ':' (RFC 3986).
bool hasScheme(const std::string& uri) {
    const std::size_t colon = uri.find(':');
    if (colon == std::string::npos || colon == 0 || !std::isalpha(static_cast<unsigned char>(uri[0]))) return false;
    for (std::size_t i = 1; i < colon; ++i) {
        const unsigned char c = static_cast<unsigned char>(uri[i]);
        if (!std::isalnum(c) && c != '+' && c != '-' && c != '.') return false;
    }
    return true;
}

// Whether `inner` (weakly canonical) is `outer` or below it, component by component.
bool isWithin(const fs::path& inner, const fs::path& outer) {
    auto i = inner.begin();
    for (auto o = outer.begin(); o != outer.end(); ++o, ++i) {
        if (o->empty() && std::next(o) == outer.end()) break; // a trailing separator
        if (i == inner.end() || *i != *o) return false;
    }
    return true;
}

bool readWhole(std::vector<unsigned char>* out, std::string* err, const std::string& path, void*) {
    try {
        const std::string bytes = readFileBytes(path);
        out->assign(bytes.begin(), bytes.end());
        return true;
    } catch (const std::exception& e) { // nothing may unwind through tinygltf's frames unannounced
        if (err) *err = e.what();
        return false;
    }
}

bool writeNothing(std::string* err, const std::string&, const std::vector<unsigned char>&, void*) {
    if (err) *err = "facet does not write glTF files";
    return false;
}

} // namespace

std::string describe(UriVerdict verdict) {
    switch (verdict) {
    case UriVerdict::File: return "a file in the model's folder";
    case UriVerdict::Outside:
        return "it leads outside the model's folder, which facet does not follow by default (LoadOptions::allowOutsidePaths)";
    case UriVerdict::Scheme: return "facet follows no URI scheme but data:";
    case UriVerdict::Unusable: return "it names no file";
    }
    return "?";
}

bool isDataUri(const std::string& uri) { return uri.rfind("data:", 0) == 0; }

std::string percentDecode(const std::string& uri) {
    std::string out;
    out.reserve(uri.size());
    for (std::size_t i = 0; i < uri.size(); ++i) {
        if (uri[i] == '%' && i + 2 < uri.size()) {
            const int hi = hexValue(uri[i + 1]), lo = hexValue(uri[i + 2]);
            if (hi >= 0 && lo >= 0) {
                out += static_cast<char>(hi * 16 + lo);
                i += 2;
                continue;
            }
        }
        out += uri[i];
    }
    return out;
}

UriRule::UriRule(const fs::path& baseDir, bool allowOutside)
    : base_(fs::absolute(baseDir)), allowOutside_(allowOutside) {
    std::error_code ec;
    canonical_ = fs::weakly_canonical(base_, ec);
    if (ec) canonical_ = base_.lexically_normal();
}

UriVerdict UriRule::resolve(const std::string& uri, fs::path& file) const {
    if (isDataUri(uri)) return UriVerdict::Unusable;
    return resolveDecoded(percentDecode(uri), file);
}

UriVerdict UriRule::resolveDecoded(const std::string& decoded, fs::path& file) const {
    if (decoded.empty() || decoded.find('\0') != std::string::npos) return UriVerdict::Unusable;
    if (hasScheme(decoded)) return UriVerdict::Scheme;
    const fs::path relative(decoded);
    file = base_ / relative; // an absolute path replaces the base, as a URI reference would
    if (allowOutside_) return UriVerdict::File;
    std::error_code ec;
    // weakly_canonical resolves `..` and every symlink that exists along the way.
    const fs::path real = fs::weakly_canonical(file, ec);
    if (relative.is_absolute() || ec || !isWithin(real, canonical_)) return UriVerdict::Outside;
    return UriVerdict::File;
}

GltfFileAccess::GltfFileAccess(const UriRule& rule) : rule_(rule), base_(rule.base().string()) {
    prefix_ = !base_.empty() && base_.back() == '/' ? base_ : base_ + "/";
}

void GltfFileAccess::install(tinygltf::TinyGLTF& reader) {
    tinygltf::FsCallbacks callbacks{};
    callbacks.FileExists = &GltfFileAccess::exists;
    callbacks.ExpandFilePath = &GltfFileAccess::expand;
    callbacks.ReadWholeFile = &readWhole;
    callbacks.WriteWholeFile = &writeNothing;
    callbacks.user_data = this;
    reader.SetFsCallbacks(callbacks);
}

// tinygltf joins base and (decoded) URI, then asks for the path to open: the URI is taken back
// out of the join and resolved by the rule; anything else (its try in the working directory) or
// anything the rule refuses becomes "", which no file matches.
std::string GltfFileAccess::expand(const std::string& joined, void* self) {
    const auto& access = *static_cast<const GltfFileAccess*>(self);
    if (joined.size() <= access.prefix_.size() || joined.compare(0, access.prefix_.size(), access.prefix_) != 0) return {};
    fs::path file;
    if (access.rule_.resolveDecoded(joined.substr(access.prefix_.size()), file) != UriVerdict::File) return {};
    return file.string();
}

bool GltfFileAccess::exists(const std::string& path, void*) {
    std::error_code ec;
    return !path.empty() && fs::is_regular_file(path, ec);
}

} // namespace facet
