#include "asset/load_model.h"

#include "asset/obj_loader.h"
#include "core/error.h"

#include <algorithm>
#include <cctype>

namespace facet {

namespace {

struct Loader {
    const char* extension; // lower case, with the dot
    Model (*load)(const std::filesystem::path& path);
};

Model loadObjFile(const std::filesystem::path& path) { return loadObj(path); }

constexpr Loader kLoaders[] = {
    {".obj", loadObjFile},
};

std::string lowerCase(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::string extensionList() {
    std::string list;
    for (const Loader& l : kLoaders) list += (list.empty() ? "" : ", ") + std::string(l.extension);
    return list;
}

} // namespace

Model loadModel(const std::filesystem::path& path) {
    const std::string extension = lowerCase(path.extension().string());
    for (const Loader& l : kLoaders)
        if (extension == l.extension) return l.load(path);
    const std::string what = path.extension().empty() ? "has no extension"
                                                      : "has the extension '" + path.extension().string() +
                                                            "', which no loader reads";
    throw ParseError(path.string(), 0, "cannot load a model: the file " + what + " (facet reads " + extensionList() + ")");
}

std::vector<std::string> modelExtensions() {
    std::vector<std::string> out;
    for (const Loader& l : kLoaders) out.emplace_back(l.extension);
    return out;
}

} // namespace facet
