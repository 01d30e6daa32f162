// Which files a glTF document may make facet read (the folder rule of asset/gltf_loader.h), and
// tinygltf's file access routed through that rule: tinygltf is handed callbacks that resolve a
// URI only where the rule allows, so it never opens a path the rule refuses (nor looks in the
// working directory, as its own fallback does).
#pragma once

#include <filesystem>
#include <string>

namespace tinygltf {
class TinyGLTF;
}

namespace facet {

enum class UriVerdict {
    File,        // a file the rule lets facet read
    Outside,     // leads out of the model's folder (absolute, `..`, a symlink), not allowed
    Scheme,      // a scheme other than data: (http:, file:, ...), never followed
    Unusable,    // empty, or a data: URI tinygltf could not decode
};

// The reason a verdict other than File gives, for messages.
std::string describe(UriVerdict verdict);

// Whether `uri` is a data: URI (decoded by tinygltf, never a file).
bool isDataUri(const std::string& uri);

// `uri` with its %XX escapes decoded (RFC 3986).
std::string percentDecode(const std::string& uri);

class UriRule {
public:
    UriRule(const std::filesystem::path& baseDir, bool allowOutside);

    // The file `uri` (as written in the document) names, and whether it may be read.
    UriVerdict resolve(const std::string& uri, std::filesystem::path& file) const;
    // The same for a URI already decoded (as tinygltf passes it on).
    UriVerdict resolveDecoded(const std::string& decoded, std::filesystem::path& file) const;

    const std::filesystem::path& base() const { return base_; }

private:
    std::filesystem::path base_;      // absolute
    std::filesystem::path canonical_; // weakly canonical, symlinks resolved
    bool allowOutside_;
};

// The callbacks tinygltf reads buffers and images through.
class GltfFileAccess {
public:
    explicit GltfFileAccess(const UriRule& rule);

    void install(tinygltf::TinyGLTF& reader);
    // The base folder as tinygltf is given it: URIs arrive at the callbacks joined to it.
    const std::string& baseString() const { return base_; }

private:
    static std::string expand(const std::string& joined, void* self);
    static bool exists(const std::string& path, void* self);

    const UriRule& rule_;
    std::string base_, prefix_;
};

} // namespace facet
