// Shared helpers for the tests: where the corpus and scratch files live.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace facet::test {

// The shared OBJ corpus (FACET_MODELS_DIR, default ../shared/models beside the checkout).
inline std::filesystem::path modelsDir() {
    if (const char* env = std::getenv("FACET_MODELS_DIR"); env && *env) return env;
    return std::filesystem::path(FACET_SOURCE_DIR) / ".." / "shared" / "models";
}

// A per-test scratch folder under the build tree, created on first use.
inline std::filesystem::path scratchDir(const std::string& name) {
    std::filesystem::path base = std::getenv("FACET_TEST_TMP") ? std::getenv("FACET_TEST_TMP")
                                                                : std::string(FACET_BINARY_DIR) + "/tests/tmp";
    const auto dir = base / name;
    std::filesystem::create_directories(dir);
    return dir;
}

inline std::filesystem::path writeFile(const std::filesystem::path& path, const std::string& bytes) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return path;
}

inline std::filesystem::path sourceDir() { return FACET_SOURCE_DIR; }

} // namespace facet::test
