// Command-line pieces the apps share: argument reading, number parsing with clear messages,
// the camera flags of facet-render and facet-viewer, and main()'s error handling (usage errors
// exit 2, any other error exits 1, each with one line naming the program).
#pragma once

#include "asset/model.h"
#include "asset/scene.h"
#include "core/camera.h"
#include "core/error.h"
#include "core/names.h"
#include "core/shading.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace facet::cli {

struct UsageError : Error {
    using Error::Error;
};

// Walks argv; value() takes the next argument as the value of the current flag.
class Arguments {
public:
    Arguments(int argc, char** argv) : argc_(argc), argv_(argv) {}
    bool next(std::string& arg);
    std::string value();

private:
    int argc_;
    char** argv_;
    int i_ = 0;
    std::string current_;
};

float parseFloat(const std::string& flag, const std::string& text);
long parseInteger(const std::string& flag, const std::string& text, long min, long max);
glm::vec3 parseVec3(const std::string& flag, const std::string& text);           // X,Y,Z
void parseSize(const std::string& flag, const std::string& text, int& width, int& height); // WxH, 1..16384

// One of the names of E (engine/core/names.h), or a usage error listing them.
template <class E>
E parseChoice(const std::string& flag, const std::string& text) {
    if (const std::optional<E> value = fromName<E>(text)) return *value;
    throw UsageError(flag + " expects " + nameChoices<E>() + ", got '" + text + "'");
}

// --msaa N: 1, 2, 4 or 8, or a usage error naming the value.
int parseSampleCount(const std::string& flag, const std::string& text);

// --filter F, --cull C, --light, --msaa N, --alpha-to-coverage, --background into `settings`; false when `arg`
// is none of them.
bool consumeRenderSetting(const std::string& arg, Arguments& args, RenderSettings& settings);

// The lit model's flags (--shading, --headlight, --ambient, --sun...: see kLightHelp); false when
// `arg` is none of them.
bool consumeLightSetting(const std::string& arg, Arguments& args, RenderSettings& settings);

// The help text of those flags, for the apps' --help.
inline constexpr const char* kLightHelp = R"(Shading (see docs/guide.md, Materials and light):
  --shading M        lit | classic (default lit: the material, Blinn-Phong for MTL and the
                     metallic-roughness BRDF for glTF, in linear light, sRGB textures and
                     output; classic: the old look, the texture or colour unlit, no sRGB)
  --headlight I      lit: the light at the eye's intensity (default 0.7)
  --headlight-color R,G,B
  --ambient I        lit: the ambient light's intensity (default 0.15)
  --ambient-color R,G,B
  --sun X,Y,Z[,I[,R,G,B]]  lit: directional light 1 from direction X,Y,Z (world space,
                     towards the light; default 0.4,1,0.6 at 0.3); --sun2, --sun3 likewise
)";

// The one positional argument, a mesh path: an unknown option or a second mesh is an error.
void takeMesh(const std::string& arg, std::string& mesh, bool& meshGiven);
// A positional argument of an app taking several meshes: an unknown option is an error.
void takeMeshes(const std::string& arg, std::vector<std::string>& meshes);

// The camera flags: a place (--eye with --yaw/--pitch, --look-at, --eye alone looking at the
// scene's centre, or a --pose), a lens (--fov or --intrinsics) and the clip planes. What is not
// given comes from framing the scene; mixing ways of saying the same thing is refused.
struct CameraFlags {
    std::optional<glm::vec3> eye, lookAt, up;
    std::optional<float> yaw, pitch, fov, nearPlane, farPlane;
    std::optional<glm::vec4> intrinsics; // fx, fy, cx, cy in pixels, for the image drawn
    std::optional<glm::mat4> pose;       // camera to world
    std::optional<PoseConvention> convention;
    std::optional<long> cameraIndex; // a camera of the scene's files (sceneCamera)

    static constexpr const char* kHelp = R"(  --eye X,Y,Z        camera position; alone (no --yaw/--pitch), it looks at the
                     scene's centre
  --yaw DEG          turn left from looking down -Z (default 25 when framing)
  --pitch DEG        look up (negative: down), within +-89
  --look-at X,Y,Z    look at this point (from --eye, else from the framing's eye)
  --up X,Y,Z         the picture's up for --look-at and --eye alone (default 0,1,0)
  --fov DEG          vertical field of view (default 60)
  --intrinsics FX,FY,CX,CY  the lens in pixels of the image drawn, as OpenCV's K (pixel
                     centres at whole numbers, row 0 at the top); not with --fov, --eye,
                     --yaw, --pitch or --look-at
  --pose M|FILE      camera to world, a 4x4 rigid transform: 16 numbers row by row, commas
                     between, or a file holding them (default with --intrinsics: identity)
  --convention C     opencv | opengl: the axes of --pose (default opencv: +Y down, looking
                     down +Z; opengl: +Y up, looking down -Z, as glTF)
  --near N --far F   clip planes (default: enclose the scene)
  --camera-index N   view through the files' camera N (glTF's perspective cameras, in file
                     order; --info lists them); --fov, --near and --far override its own
)";

    // Takes `arg` (and its value) if it is a camera flag; false otherwise.
    bool consume(const std::string& arg, Arguments& args);
    // The camera for a width x height image; `coveredLeft` as Camera::framing's, where the
    // framing is not overridden. Throws UsageError naming flags that cannot go together or a
    // value the camera refuses.
    Camera camera(const Mesh& mesh, int width, int height, float coveredLeft = 0.0f) const;
    // The same over the scene's visible instances (sceneFraming; for a lone instance at the
    // identity pose, exactly the camera of its mesh).
    Camera camera(const Scene& scene, int width, int height, float coveredLeft = 0.0f) const;

private:
    void check() const; // flags that cannot go together
    // The flags given, over the framing; `bounds` what it framed.
    Camera overridden(Camera framed, const Bounds& bounds, int width, int height) const;
};

// --pose's value: 16 numbers with commas between, row by row, or the path of a file holding 16
// numbers (separated by spaces, commas or newlines). Throws naming the value or the file.
glm::mat4 parsePose(const std::string& flag, const std::string& text);

// Runs body() and turns exceptions into a message on stderr and an exit code.
int runMain(const char* program, const std::function<int()>& body);

// SIGINT and SIGTERM as a request to stop, for the apps that run until told to (the viewer,
// facet-bench): they poll stopSignal() and end as their own way of stopping would. A second
// signal ends the program at once (the handler gives way to the default action).
void installStopSignals();
// The signal that asked to stop, or 0.
int stopSignal();

} // namespace facet::cli
