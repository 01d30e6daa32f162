// facet's OBJ/MTL loader: a strict parser of our own (why: see docs/guide.md, "Loading OBJ"),
// which rejects what cannot be rendered correctly and warns about what can be recovered.
#pragma once

#include "asset/model.h"

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <string>

namespace facet {

struct ObjLoadOptions {
    bool loadMaterials = true; // read mtllib files
    bool loadTextures = true;  // decode map_Kd images

    // How the file is read; the model never depends on these (the tests vary them).
    // About how much of the file is held at once (two blocks are: one lexed while one is replayed);
    // 8 MB: the 4M-triangle OBJ peaks at 287 MB with them, 351 MB with 16 MB, as fast.
    std::size_t blockBytes = std::size_t(8) << 20;
    int threads = 0;                                // 0: one per hardware thread
    // False: every line read on one thread by the parser itself, none by the parallel lexer
    // (asset/obj_chunks.h): the reference the tests hold the fast reading to.
    bool lexInParallel = true;
    // When set, the share of the file read so far (LoadOptions::progress).
    std::atomic<float>* progress = nullptr;
};

// Loads an OBJ file and its MTL libraries and textures. Throws facet::ParseError carrying the
// file, the line and what is wrong when the file cannot be loaded correctly.
Model loadObj(const std::filesystem::path& path, const ObjLoadOptions& options = {});

// The same from text already in memory; `name` is used in messages and `baseDir` to resolve
// mtllib paths.
Model loadObjFromString(const std::string& text, const std::string& name,
                        const std::filesystem::path& baseDir, const ObjLoadOptions& options = {});

} // namespace facet
