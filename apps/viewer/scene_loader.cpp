#include "viewer/scene_loader.h"

#include "asset/load_model.h"

#include <exception>
#include <utility>

namespace facet::viewer {

namespace {

LoadResult load(const LoadRequest& request, std::atomic<float>& progress) {
    LoadResult result{request.paths, request.mode, {}, {}};
    LoadOptions options;
    options.progress = &progress;
    for (const std::string& path : request.paths) {
        progress.store(0.0f);
        try {
            Scene scene = loadScene(std::filesystem::path(path), options);
            // Refused here, on the worker, rather than by setScene on the UI thread, where a
            // bad file would take the scene down with it.
            validateScene(scene);
            result.scene.append(std::move(scene));
        } catch (const std::exception& e) {
            result.errors.push_back(e.what());
        }
    }
    return result;
}

} // namespace

void SceneLoader::request(std::vector<std::string> paths, LoadMode mode) {
    LoadRequest request{std::move(paths), mode};
    if (!busy()) {
        start(std::move(request));
        return;
    }
    if (mode == LoadMode::Replace) waiting_.clear();
    waiting_.push_back(std::move(request));
}

void SceneLoader::start(LoadRequest request) {
    currentRequest_ = std::move(request);
    started_ = std::chrono::steady_clock::now();
    // The worker gets its own copy: currentRequest_ changes with the next request.
    progress_.store(0.0f);
    current_ = std::async(std::launch::async, [this, request = currentRequest_] { return load(request, progress_); });
}

std::optional<LoadResult> SceneLoader::poll() {
    if (!busy() || current_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return std::nullopt;
    LoadResult result;
    try {
        result = current_.get();
    } catch (const std::exception& e) { // load() catches the loaders' errors; this is running out of memory
        result = LoadResult{currentRequest_.paths, currentRequest_.mode, {}, {e.what()}};
    }
    if (!waiting_.empty()) {
        start(std::move(waiting_.front()));
        waiting_.pop_front();
    }
    return result;
}

double SceneLoader::elapsedSeconds() const {
    return busy() ? std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count() : 0.0;
}

} // namespace facet::viewer
