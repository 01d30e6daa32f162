// Loads OBJ files on a worker thread so the window keeps drawing (and answering the window
// manager) while a large mesh is parsed. The render loop polls it once a frame.
#pragma once

#include "asset/model.h"

#include <chrono>
#include <future>
#include <optional>
#include <string>

namespace facet::viewer {

struct LoadResult {
    std::string path;
    std::optional<Model> model; // empty when the load failed
    std::string error;          // why, when it failed
};

class SceneLoader {
public:
    SceneLoader() = default;
    SceneLoader(const SceneLoader&) = delete;
    SceneLoader& operator=(const SceneLoader&) = delete;
    // Waits for a load in progress: loadModel cannot be interrupted, and its thread must not
    // outlive what it writes to.
    ~SceneLoader() = default;

    // Starts loading now, or once the current load finishes; a newer request replaces one
    // still waiting, since only the last file asked for is wanted.
    void request(std::string path);

    // A finished load, at most one per call; starts the waiting request, if any.
    std::optional<LoadResult> poll();

    bool busy() const { return current_.valid(); }
    const std::string& loadingPath() const { return currentPath_; }
    double elapsedSeconds() const;

private:
    void start(std::string path);

    std::future<Model> current_;
    std::string currentPath_;
    std::chrono::steady_clock::time_point started_;
    std::optional<std::string> waiting_;
};

} // namespace facet::viewer
