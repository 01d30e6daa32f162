// The loaders' warnings, capped per kind: beyond kMaxPerKind a kind is only counted and
// summarised once at the end, so a broken million-face file still gives a readable list.
#pragma once

#include "asset/model.h"

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace facet {

enum class WarningKind { BadValue, DroppedFace, FanFace, Other, Count };

class WarningLog {
public:
    static constexpr std::size_t kMaxPerKind = 50;

    explicit WarningLog(std::vector<Warning>& out) : out_(out) {}

    void add(WarningKind kind, const std::string& file, std::size_t line, std::string message) {
        if (++counts_[std::size_t(kind)] <= kMaxPerKind || kind == WarningKind::Other)
            out_.push_back({file, line, std::move(message)});
    }

    void summarise(const std::string& file) {
        static constexpr const char* kWhat[] = {"non-finite or unusable values", "dropped faces",
                                                "faces triangulated as fans"};
        for (std::size_t k = 0; k < std::size_t(WarningKind::Other); ++k)
            if (counts_[k] > kMaxPerKind)
                out_.push_back({file, 0, std::to_string(counts_[k] - kMaxPerKind) + " more warnings about " + kWhat[k]});
    }

    std::vector<Warning>& list() { return out_; }

private:
    std::vector<Warning>& out_;
    std::array<std::size_t, std::size_t(WarningKind::Count)> counts_{};
};

} // namespace facet
