#include "viewer/scene_loader.h"

#include "asset/load_model.h"

#include <exception>
#include <utility>

namespace facet::viewer {

void SceneLoader::request(std::string path) {
    if (busy())
        waiting_ = std::move(path);
    else
        start(std::move(path));
}

void SceneLoader::start(std::string path) {
    currentPath_ = std::move(path);
    started_ = std::chrono::steady_clock::now();
    // The worker gets its own copy of the path: currentPath_ changes with the next request.
    current_ = std::async(std::launch::async, [path = currentPath_] { return loadModel(path); });
}

std::optional<LoadResult> SceneLoader::poll() {
    if (!busy() || current_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return std::nullopt;
    LoadResult result{currentPath_, std::nullopt, {}};
    try {
        result.model = current_.get();
    } catch (const std::exception& e) {
        result.error = e.what();
    }
    if (waiting_) {
        start(std::move(*waiting_));
        waiting_.reset();
    }
    return result;
}

double SceneLoader::elapsedSeconds() const {
    return busy() ? std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count() : 0.0;
}

} // namespace facet::viewer
