// The vertex stage's math, written once for both backends (see engine/core/camera.h for the
// convention): shift d = v - eye, rotate d = R * d, perspective divide x, y * focus / z, plus the
// principal point's offset.
#pragma once

#include "core/hd.h"

namespace facet {

// Everything the vertex stage needs from the camera: a plain struct, copied to kernels as is.
struct ViewParams {
    glm::vec3 eye;      // the shift
    glm::mat3 rotation; // R: rows are right, up, forward (world space)
    float focus;        // 1 / tan(fovY / 2)
    float aspect;       // width / height
    float nearPlane;
    float farPlane;
    // Where the lens's axis meets the image, in NDC: (0, 0) for a centred lens. Added after the
    // divide, so an offset of exactly 0 leaves every picture as it was.
    glm::vec2 principal{0.0f, 0.0f};
};

// The camera's forward axis in world space (R's third row), for the headlight.
FACET_HD glm::vec3 viewForward(const ViewParams& view) {
    return {view.rotation[0][2], view.rotation[1][2], view.rotation[2][2]};
}

FACET_HD glm::vec3 shift(glm::vec3 v, glm::vec3 eye) { return v - eye; }

// R * d as three row dot products, in a fixed order so every backend rounds the same way.
FACET_HD glm::vec3 rotate(const glm::mat3& r, glm::vec3 d) {
    const glm::vec3 right{r[0][0], r[1][0], r[2][0]};
    const glm::vec3 up{r[0][1], r[1][1], r[2][1]};
    const glm::vec3 fwd{r[0][2], r[1][2], r[2][2]};
    return {right.x * d.x + right.y * d.y + right.z * d.z,
            up.x * d.x + up.y * d.y + up.z * d.z,
            fwd.x * d.x + fwd.y * d.y + fwd.z * d.z};
}

// Camera space (d.z > 0 in front) to normalised device coordinates.
FACET_HD glm::vec2 perspectiveDivide(glm::vec3 d, const ViewParams& view) {
    const float invZ = 1.0f / d.z;
    return {(view.focus / view.aspect) * d.x * invZ + view.principal.x, view.focus * d.y * invZ + view.principal.y};
}

// NDC to pixel coordinates: pixel (i, j) has its centre at (i + 0.5, j + 0.5); row 0 is the top.
FACET_HD glm::vec2 ndcToPixel(glm::vec2 ndc, int width, int height) {
    return {(ndc.x + 1.0f) * 0.5f * static_cast<float>(width),
            (1.0f - ndc.y) * 0.5f * static_cast<float>(height)};
}

// OpenGL's window depth in [0, 1] for camera depth z (glm::perspective, glDepthRange(0, 1)):
// z_ndc = (f + n) / (f - n) - 2fn / ((f - n) z), depth = (z_ndc + 1) / 2.
FACET_HD float windowDepth(float z, float nearPlane, float farPlane) {
    return farPlane / (farPlane - nearPlane) * (1.0f - nearPlane / z);
}

// The camera depth z whose window depth is `depth`: windowDepth inverted.
FACET_HD float eyeDepth(float depth, float nearPlane, float farPlane) {
    return nearPlane / (1.0f - depth * ((farPlane - nearPlane) / farPlane));
}

} // namespace facet
