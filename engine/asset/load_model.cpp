#include "asset/load_model.h"

#include "asset/gltf_loader.h"
#include "asset/memory_budget.h"
#include "asset/obj_loader.h"
#include "asset/ply_loader.h"
#include "asset/stl_loader.h"
#include "core/error.h"

#include <algorithm>
#include <memory>
#include <cctype>
#include <cstdint>
#include <new>
#include <system_error>

namespace facet {

namespace {

// A format of one mesh gives a Model (`load`); a scene format (glTF) gives a Scene (`scene`),
// which loadModel bakes into one model.
struct Loader {
    const char* extension; // lower case, with the dot
    Model (*load)(const std::filesystem::path& path, const LoadOptions& options);
    Scene (*scene)(const std::filesystem::path& path, const LoadOptions& options);
    std::uint64_t bytesPerFileByte; // the most memory a load takes per byte of the file
};

Model loadObjFile(const std::filesystem::path& path, const LoadOptions& options) {
    ObjLoadOptions obj;
    obj.progress = options.progress;
    return loadObj(path, obj);
}
Model loadPlyFile(const std::filesystem::path& path, const LoadOptions&) { return loadPly(path); }
Model loadStlFile(const std::filesystem::path& path, const LoadOptions&) { return loadStl(path); }

constexpr Loader kLoaders[] = {
    {".obj", loadObjFile, nullptr, kObjLoadBytesPerFileByte},
    {".ply", loadPlyFile, nullptr, kPlyLoadBytesPerFileByte},
    {".stl", loadStlFile, nullptr, kStlLoadBytesPerFileByte},
    {".gltf", nullptr, loadGltfScene, kGltfLoadBytesPerFileByte},
    {".glb", nullptr, loadGltfScene, kGltfLoadBytesPerFileByte},
};

// The file's size is weighed against the memory left before parsing (asset/memory_budget.h);
// a load that runs out of memory all the same (its textures, say) is said in words naming it.
template <class Load>
auto loadWithinMemory(const std::filesystem::path& path, const Loader& loader, Load load) {
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(path, ec); // a missing file is the loader's to report
    if (!ec) checkLoadFits(path, size, loader.bytesPerFileByte, memoryRoom());
    try {
        return load();
    } catch (const std::bad_alloc&) {
        throw Error(path.string() + ": not enough memory to load the file with its materials and textures");
    }
}

std::string lowerCase(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::string extensionList() {
    std::string list;
    for (const Loader& l : kLoaders) list += (list.empty() ? "" : ", ") + std::string(l.extension);
    return list;
}

const Loader& loaderOf(const std::filesystem::path& path) {
    const std::string extension = lowerCase(path.extension().string());
    for (const Loader& l : kLoaders)
        if (extension == l.extension) return l;
    const std::string what = path.extension().empty() ? "has no extension"
                                                      : "has the extension '" + path.extension().string() +
                                                            "', which no loader reads";
    throw ParseError(path.string(), 0, "cannot load a model: the file " + what + " (facet reads " + extensionList() + ")");
}

} // namespace

Model loadModel(const std::filesystem::path& path, const LoadOptions& options) {
    const Loader& l = loaderOf(path);
    if (l.scene) return loadWithinMemory(path, l, [&] { return bakeScene(l.scene(path, options), path.string()); });
    return loadWithinMemory(path, l, [&] { return l.load(path, options); });
}

Scene loadScene(const std::filesystem::path& path, const LoadOptions& options) {
    const Loader& l = loaderOf(path);
    if (l.scene) {
        Scene scene = loadWithinMemory(path, l, [&] { return l.scene(path, options); });
        if (options.progress) options.progress->store(1.0f);
        return scene;
    }
    Scene scene;
    auto model = std::make_shared<Model>(loadWithinMemory(path, l, [&] { return l.load(path, options); }));
    if (options.progress) options.progress->store(1.0f);
    scene.warnings = model->warnings;
    scene.add(scene.addMesh(std::move(model)));
    return scene;
}

Scene loadScene(const std::vector<std::filesystem::path>& paths, const LoadOptions& options) {
    Scene scene;
    for (const std::filesystem::path& path : paths) scene.append(loadScene(path, options));
    return scene;
}

std::vector<std::string> modelExtensions() {
    std::vector<std::string> out;
    for (const Loader& l : kLoaders) out.emplace_back(l.extension);
    return out;
}

} // namespace facet
