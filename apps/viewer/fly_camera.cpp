#include "viewer/fly_camera.h"

#include <algorithm>
#include <cmath>

namespace facet::viewer {

void FlyCamera::setScene(const Bounds& bounds) {
    bounds_ = bounds;
    // The scene's diameter in about four seconds; a unit per second for an empty scene.
    baseSpeed_ = bounds.empty() ? 1.0f : std::max(bounds.radius(), 1e-6f) * 0.5f;
}

void FlyCamera::scroll(float notches) {
    speedScale_ = std::clamp(speedScale_ * std::pow(kScrollFactor, notches), 1e-3f, 1e3f);
}

bool FlyCamera::update(Camera& camera, const MoveKeys& keys, bool fast, float lookDx, float lookDy, float seconds) {
    const auto axis = [&](Move plus, Move minus) {
        return (keys.active(plus) ? 1.0f : 0.0f) - (keys.active(minus) ? 1.0f : 0.0f);
    };
    const float step = speed() * (fast ? kFastFactor : 1.0f) * seconds;
    const float right = axis(Move::Right, Move::Left), up = axis(Move::Up, Move::Down),
                forward = axis(Move::Forward, Move::Back);
    const bool moves = right != 0.0f || up != 0.0f || forward != 0.0f;
    const bool turns = lookDx != 0.0f || lookDy != 0.0f;
    if (moves) camera.moveLocal(right * step, up * step, forward * step);
    // Mouse right turns right (negative yaw); mouse up (negative dy) looks up.
    if (turns) camera.turn(-lookDx * kDegreesPerPixel, -lookDy * kDegreesPerPixel);
    if (moves || turns) fitClipPlanes(camera, bounds_);
    return moves || turns;
}

void fitClipPlanes(Camera& camera, const Bounds& bounds) {
    if (bounds.empty()) return;
    const float radius = std::max(bounds.radius(), 1e-6f);
    const float toCentre = glm::length(camera.eye - bounds.center());
    // Near shrinks with the distance to the nearest surface, but never below a thousandth of
    // the scene: the depth buffer's precision is shared between near and far.
    const float gap = std::max(toCentre - radius, 0.0f);
    camera.nearPlane = std::max(radius * 1e-3f, 0.5f * gap);
    camera.farPlane = std::max(camera.nearPlane * 2.0f, (toCentre + radius) * 1.5f);
}

} // namespace facet::viewer
