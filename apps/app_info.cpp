#include "app_info.h"

#include "core/error.h"
#include "facet/version.h"

#include <cstdlib>
#include <system_error>

namespace facet::app {

namespace fs = std::filesystem;

std::string versionLine(const std::string& program) {
    const char* cuda = FACET_BUILT_WITH_CUDA ? "CUDA backend built" : "built without CUDA";
    return program + " " + FACET_VERSION_STRING + " (" + cuda + ")";
}

namespace {

// The running binary's own path: where it lives, not where it was called from.
fs::path executablePath() {
    std::error_code error;
    const fs::path self = fs::read_symlink("/proc/self/exe", error);
    if (error) throw Error("cannot find the running program's path (/proc/self/exe): " + error.message());
    return self;
}

} // namespace

fs::path dataDir() {
    if (const char* env = std::getenv("FACET_DATA_DIR"); env && *env) return fs::path(env);
    return (executablePath().parent_path() / FACET_DATA_FROM_BIN).lexically_normal();
}

fs::path dataFile(const std::string& name) {
    const fs::path path = dataDir() / name;
    std::error_code error;
    if (fs::exists(path, error)) return path;
    const char* env = std::getenv("FACET_DATA_DIR");
    throw Error("facet's " + name + " is not at " + path.string() +
                (env && *env ? " (FACET_DATA_DIR is set to '" + std::string(env) + "')"
                             : " (installed beside the program; set FACET_DATA_DIR to the folder holding it)"));
}

fs::path defaultScene() { return dataFile("default_scene/scene.obj"); }

} // namespace facet::app
