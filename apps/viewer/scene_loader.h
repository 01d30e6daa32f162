// Loads mesh files on a worker thread so the window keeps drawing (and answering the window
// manager) while a large mesh is parsed. The render loop polls it once a frame and puts what
// arrived into its scene: in place of it (Open) or beside it (Add).
#pragma once

#include "asset/scene.h"

#include <atomic>
#include <chrono>
#include <deque>
#include <future>
#include <optional>
#include <string>
#include <vector>

namespace facet::viewer {

enum class LoadMode { Replace, Add };

struct LoadRequest {
    std::vector<std::string> paths;
    LoadMode mode = LoadMode::Replace;
};

struct LoadResult {
    std::vector<std::string> paths;
    LoadMode mode = LoadMode::Replace;
    Scene scene;                     // the files that loaded, in order (no instances when none did)
    std::vector<std::string> errors; // one per file that did not, naming it
};

class SceneLoader {
public:
    SceneLoader() = default;
    SceneLoader(const SceneLoader&) = delete;
    SceneLoader& operator=(const SceneLoader&) = delete;
    // Waits for a load in progress: loadScene cannot be interrupted, and its thread must not
    // outlive what it writes to.
    ~SceneLoader() = default;

    // Starts loading now, or once the loads before it finish. Each file is loaded on its own, so
    // one that fails costs only itself. A Replace drops the requests still waiting, since the
    // scene they would have built is about to be replaced; an Add waits behind them.
    void request(std::vector<std::string> paths, LoadMode mode);
    void request(std::string path, LoadMode mode = LoadMode::Replace) {
        request(std::vector<std::string>{std::move(path)}, mode);
    }

    // A finished load, at most one per call; starts the next waiting request, if any.
    std::optional<LoadResult> poll();

    bool busy() const { return current_.valid(); }
    const std::vector<std::string>& loadingPaths() const { return currentRequest_.paths; }
    double elapsedSeconds() const;
    // The share of the file being loaded read so far, from 0 to 1 (asset's LoadOptions::progress).
    float progress() const { return progress_.load(std::memory_order_relaxed); }

private:
    void start(LoadRequest request);

    std::atomic<float> progress_{0.0f}; // before current_: outlives the worker writing it
    std::future<LoadResult> current_;
    LoadRequest currentRequest_;
    std::chrono::steady_clock::time_point started_;
    std::deque<LoadRequest> waiting_;
};

} // namespace facet::viewer
