#include "viewer/object_pose.h"

#include <glm/gtc/matrix_transform.hpp>

#include <cmath>

namespace facet::viewer {

glm::mat4 composePose(const ObjectPose& pose) {
    const glm::vec3 r = glm::radians(pose.rotationDegrees);
    glm::mat4 m = glm::translate(glm::mat4(1.0f), pose.translation);
    m = glm::rotate(m, r.z, glm::vec3(0, 0, 1));
    m = glm::rotate(m, r.y, glm::vec3(0, 1, 0));
    m = glm::rotate(m, r.x, glm::vec3(1, 0, 0));
    return glm::scale(m, pose.scale);
}

ObjectPose decomposePose(const glm::mat4& pose) {
    ObjectPose p;
    p.translation = glm::vec3(pose[3]);
    glm::mat3 r(pose);
    p.scale = glm::vec3(glm::length(r[0]), glm::length(r[1]), glm::length(r[2]));
    if (glm::determinant(r) < 0.0f) p.scale.x = -p.scale.x;
    for (int c = 0; c < 3; ++c)
        if (p.scale[c] != 0.0f) r[c] /= p.scale[c];
    // r = Rz(z) Ry(y) Rx(x); glm indexes [column][row]. Row 2 is (-sin y, cos y sin x, cos y cos x).
    const float sinY = glm::clamp(-r[0][2], -1.0f, 1.0f);
    float x = 0.0f, y = std::asin(sinY), z = 0.0f;
    if (std::abs(sinY) < 0.9999f) {
        x = std::atan2(r[1][2], r[2][2]);
        z = std::atan2(r[0][1], r[0][0]);
    } else {
        // Gimbal lock: only x - z (y = 90) or x + z (y = -90) is known; z is taken as 0.
        x = sinY > 0.0f ? std::atan2(r[1][0], r[1][1]) : std::atan2(-r[1][0], r[1][1]);
    }
    // + 0: the panel shows 0, not -0.
    p.rotationDegrees = glm::degrees(glm::vec3(x, y, z)) + glm::vec3(0.0f);
    p.translation += glm::vec3(0.0f);
    return p;
}

glm::vec3 invertibleScale(glm::vec3 scale) {
    for (int c = 0; c < 3; ++c)
        if (!(std::abs(scale[c]) >= kMinScale)) scale[c] = std::signbit(scale[c]) ? -kMinScale : kMinScale;
    return scale;
}

} // namespace facet::viewer
