// The viewer's fly camera: what the keyboard and mouse did during a frame, turned into
// Camera::moveLocal / Camera::turn. No GLFW here, so the arithmetic reads (and tests) alone.
#pragma once

#include "core/bounds.h"
#include "core/camera.h"

#include <array>
#include <cstddef>

namespace facet::viewer {

enum class Move { Forward, Back, Left, Right, Down, Up };
inline constexpr std::size_t kMoveCount = 6;

// Movement keys as key events report them. A press released before the next frame still
// moves the camera for that one frame, so a quick tap is never lost between two polls.
class MoveKeys {
public:
    void press(Move m) { down_[index(m)] = tapped_[index(m)] = true; }
    void release(Move m) { down_[index(m)] = false; }
    void releaseAll() { down_ = {}; }
    bool active(Move m) const { return down_[index(m)] || tapped_[index(m)]; }
    void endFrame() { tapped_ = {}; }

private:
    static std::size_t index(Move m) { return static_cast<std::size_t>(m); }
    std::array<bool, kMoveCount> down_{}, tapped_{};
};

class FlyCamera {
public:
    static constexpr float kDegreesPerPixel = 0.15f;
    static constexpr float kFastFactor = 4.0f;      // with Shift held
    static constexpr float kScrollFactor = 1.2f;    // speed change per wheel notch

    // Speed follows the scene's size: crossing it takes a few seconds at the default speed.
    void setScene(const Bounds& bounds);
    // The scene's objects moved: the clip planes follow its new bounds, the speed stays.
    void setBounds(const Bounds& bounds) { bounds_ = bounds; }

    // One frame: moves by keys * speed * seconds and turns by the mouse movement (pixels; +x
    // right, +y down, as window coordinates grow). Returns whether the camera changed; when it
    // did, the clip planes are refitted around the eye (see fitClipPlanes).
    bool update(Camera& camera, const MoveKeys& keys, bool fast, float lookDx, float lookDy, float seconds);

    // Wheel notches up speed the camera up, down slow it down.
    void scroll(float notches);

    float speed() const { return baseSpeed_ * speedScale_; } // world units per second
    float speedScale() const { return speedScale_; }

private:
    Bounds bounds_;
    float baseSpeed_ = 1.0f;
    float speedScale_ = 1.0f;
};

// Near and far planes for a camera that flies anywhere: near small against the scene (so
// walking up to an object does not cut it open), far beyond the scene's farthest point.
void fitClipPlanes(Camera& camera, const Bounds& bounds);

} // namespace facet::viewer
