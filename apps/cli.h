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

// --eye X,Y,Z --yaw DEG --pitch DEG --fov DEG --near N --far F: what is not given comes from
// framing the mesh.
struct CameraFlags {
    std::optional<glm::vec3> eye;
    std::optional<float> yaw, pitch, fov, nearPlane, farPlane;

    static constexpr const char* kHelp = R"(  --eye X,Y,Z        camera position
  --yaw DEG          turn left from looking down -Z (default 25 when framing)
  --pitch DEG        look up (negative: down), within +-89
  --fov DEG          vertical field of view (default 60)
  --near N --far F   clip planes (default: enclose the mesh)
)";

    // Takes `arg` (and its value) if it is a camera flag; false otherwise.
    bool consume(const std::string& arg, Arguments& args);
    // `coveredLeft` as Camera::framing's: where the framing is not overridden.
    Camera camera(const Mesh& mesh, float aspect, float coveredLeft = 0.0f) const;
    // The same over the scene's visible instances (sceneFraming; for a lone instance at the
    // identity pose, exactly the camera of its mesh).
    Camera camera(const Scene& scene, float aspect, float coveredLeft = 0.0f) const;

private:
    Camera overridden(Camera framed) const; // the flags given, over the framing
};

// Runs body() and turns exceptions into a message on stderr and an exit code.
int runMain(const char* program, const std::function<int()>& body);

// SIGINT and SIGTERM as a request to stop, for the apps that run until told to (the viewer,
// facet-bench): they poll stopSignal() and end as their own way of stopping would. A second
// signal ends the program at once (the handler gives way to the default action).
void installStopSignals();
// The signal that asked to stop, or 0.
int stopSignal();

} // namespace facet::cli
