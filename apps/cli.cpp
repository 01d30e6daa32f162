#include "cli.h"

#include "core/multisample.h"

#include <signal.h>

#include <cctype>
#include <cmath>
#include <fstream>
#include <limits>
#include <csignal>
#include <iostream>
#include <sstream>
#include <vector>

namespace facet::cli {

namespace {

// The one global of the apps, and it must be one: all a signal handler may portably do is
// write a volatile std::sig_atomic_t with static storage ([support.signal]).
volatile std::sig_atomic_t stopRequest = 0;

extern "C" void requestStop(int number) { stopRequest = number; }

} // namespace

bool Arguments::next(std::string& arg) {
    if (++i_ >= argc_) return false;
    current_ = argv_[i_];
    arg = current_;
    return true;
}

std::string Arguments::value() {
    if (i_ + 1 >= argc_) throw UsageError(current_ + " needs a value");
    return argv_[++i_];
}

float parseFloat(const std::string& flag, const std::string& text) {
    std::size_t used = 0;
    float value = 0.0f;
    try {
        value = std::stof(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || !std::isfinite(value))
        throw UsageError(flag + " expects a finite number, got '" + text + "'");
    return value;
}

long parseInteger(const std::string& flag, const std::string& text, long min, long max) {
    std::size_t used = 0;
    long value = 0;
    try {
        value = std::stol(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || value < min || value > max)
        throw UsageError(flag + " expects a whole number from " + std::to_string(min) + " to " + std::to_string(max) +
                         ", got '" + text + "'");
    return value;
}

glm::vec3 parseVec3(const std::string& flag, const std::string& text) {
    std::vector<std::string> parts;
    std::stringstream in(text);
    for (std::string part; std::getline(in, part, ',');) parts.push_back(part);
    if (parts.size() != 3) throw UsageError(flag + " expects X,Y,Z, got '" + text + "'");
    return {parseFloat(flag, parts[0]), parseFloat(flag, parts[1]), parseFloat(flag, parts[2])};
}

void parseSize(const std::string& flag, const std::string& text, int& width, int& height) {
    const auto x = text.find('x');
    if (x == std::string::npos) throw UsageError(flag + " expects WxH, got '" + text + "'");
    width = static_cast<int>(parseInteger(flag + " width", text.substr(0, x), 1, kMaxTargetSide));
    height = static_cast<int>(parseInteger(flag + " height", text.substr(x + 1), 1, kMaxTargetSide));
}

int parseSampleCount(const std::string& flag, const std::string& text) {
    const long samples = parseInteger(flag, text, -1000000, 1000000); // any whole number: refused below, by name
    if (!validSampleCount(int(samples)))
        throw UsageError(flag + " expects 1, 2, 4 or 8 samples per pixel, got " + text);
    return int(samples);
}

namespace {

std::vector<float> parseFloats(const std::string& flag, const std::string& text) {
    std::vector<float> values;
    std::stringstream in(text);
    for (std::string part; std::getline(in, part, ',');) values.push_back(parseFloat(flag, part));
    return values;
}

// --background R,G,B[,A], each in [0, 1], as RenderSettings::clearColor (RGBA8, R in the low byte).
std::uint32_t parseBackground(const std::string& flag, const std::string& text) {
    std::vector<float> v = parseFloats(flag, text);
    if (v.size() != 3 && v.size() != 4) throw UsageError(flag + " expects R,G,B or R,G,B,A, got '" + text + "'");
    if (v.size() == 3) v.push_back(1.0f);
    for (const float c : v)
        if (!(c >= 0.0f && c <= 1.0f)) throw UsageError(flag + " expects values from 0 to 1, got '" + text + "'");
    return packRgba8(glm::vec4(v[0], v[1], v[2], v[3]) * 255.0f);
}

} // namespace

bool consumeRenderSetting(const std::string& arg, Arguments& args, RenderSettings& settings) {
    if (arg == "--filter") settings.filter = parseChoice<TextureFilter>(arg, args.value());
    else if (arg == "--cull") settings.cull = parseChoice<CullMode>(arg, args.value());
    else if (arg == "--light") settings.headlight = true;
    else if (arg == "--msaa") settings.msaa = parseSampleCount(arg, args.value());
    else if (arg == "--alpha-to-coverage") settings.alphaToCoverage = true;
    else if (arg == "--background") settings.clearColor = parseBackground(arg, args.value());
    else return consumeLightSetting(arg, args, settings);
    return true;
}

namespace {

float parseIntensity(const std::string& flag, const std::string& text) {
    const float v = parseFloat(flag, text);
    if (v < 0.0f) throw UsageError(flag + " expects an intensity of 0 or more, got '" + text + "'");
    return v;
}

glm::vec3 parseColor(const std::string& flag, const std::string& text) {
    const glm::vec3 c = parseVec3(flag, text);
    if (glm::any(glm::lessThan(c, glm::vec3(0.0f)))) throw UsageError(flag + " expects R,G,B of 0 or more, got '" + text + "'");
    return c;
}

// --sun, --sun2, --sun3 X,Y,Z[,INTENSITY[,R,G,B]]: directional light 1, 2 or 3.
DirectionalLight parseSun(const std::string& flag, const std::string& text, DirectionalLight light) {
    const std::vector<float> v = parseFloats(flag, text);
    if (v.size() != 3 && v.size() != 4 && v.size() != 7)
        throw UsageError(flag + " expects X,Y,Z[,INTENSITY[,R,G,B]], got '" + text + "'");
    light.direction = {v[0], v[1], v[2]};
    if (light.direction == glm::vec3(0.0f)) throw UsageError(flag + " needs a direction other than 0,0,0");
    if (v.size() >= 4 && v[3] < 0.0f) throw UsageError(flag + " expects an intensity of 0 or more, got '" + text + "'");
    if (v.size() >= 4) light.intensity = v[3];
    else if (light.intensity == 0.0f) light.intensity = 0.5f;
    if (v.size() == 7) {
        light.color = {v[4], v[5], v[6]};
        if (glm::any(glm::lessThan(light.color, glm::vec3(0.0f))))
            throw UsageError(flag + " expects a colour of 0 or more, got '" + text + "'");
    }
    return light;
}

} // namespace

bool consumeLightSetting(const std::string& arg, Arguments& args, RenderSettings& settings) {
    Lights& lights = settings.lights;
    if (arg == "--shading") settings.shading = parseChoice<ShadingModel>(arg, args.value());
    else if (arg == "--headlight") lights.headlight = parseIntensity(arg, args.value());
    else if (arg == "--headlight-color") lights.headlightColor = parseColor(arg, args.value());
    else if (arg == "--ambient") lights.ambient = parseIntensity(arg, args.value());
    else if (arg == "--ambient-color") lights.ambientColor = parseColor(arg, args.value());
    else if (arg == "--sun") lights.directional[0] = parseSun(arg, args.value(), lights.directional[0]);
    else if (arg == "--sun2") lights.directional[1] = parseSun(arg, args.value(), lights.directional[1]);
    else if (arg == "--sun3") lights.directional[2] = parseSun(arg, args.value(), lights.directional[2]);
    else return false;
    return true;
}

namespace {

void refuseOption(const std::string& arg) {
    if (!arg.empty() && arg[0] == '-') throw UsageError("unknown option " + arg + " (see --help)");
}

} // namespace

void takeMesh(const std::string& arg, std::string& mesh, bool& meshGiven) {
    refuseOption(arg);
    if (meshGiven) throw UsageError("more than one mesh given: '" + mesh + "' and '" + arg + "'");
    mesh = arg;
    meshGiven = true;
}

void takeMeshes(const std::string& arg, std::vector<std::string>& meshes) {
    refuseOption(arg);
    meshes.push_back(arg);
}

namespace {

std::string numberText(float v) {
    std::ostringstream s;
    s << v;
    return s.str();
}

} // namespace

bool CameraFlags::consume(const std::string& arg, Arguments& args) {
    if (arg == "--eye") eye = parseVec3(arg, args.value());
    else if (arg == "--yaw") yaw = parseFloat(arg, args.value());
    else if (arg == "--pitch") pitch = parseFloat(arg, args.value());
    else if (arg == "--look-at") lookAt = parseVec3(arg, args.value());
    else if (arg == "--up") up = parseVec3(arg, args.value());
    else if (arg == "--fov") fov = parseFloat(arg, args.value());
    else if (arg == "--near") nearPlane = parseFloat(arg, args.value());
    else if (arg == "--far") farPlane = parseFloat(arg, args.value());
    else if (arg == "--pose") pose = parsePose(arg, args.value());
    else if (arg == "--convention") convention = parseChoice<PoseConvention>(arg, args.value());
    else if (arg == "--camera-index") cameraIndex = parseInteger(arg, args.value(), 0, 1L << 20);
    else if (arg == "--intrinsics") {
        const std::string text = args.value();
        const std::vector<float> v = parseFloats(arg, text);
        if (v.size() != 4) throw UsageError(arg + " expects FX,FY,CX,CY, got '" + text + "'");
        if (!(v[0] > 0.0f)) throw UsageError(arg + " expects a focal length fx > 0, got " + numberText(v[0]));
        if (!(v[1] > 0.0f)) throw UsageError(arg + " expects a focal length fy > 0, got " + numberText(v[1]));
        intrinsics = glm::vec4(v[0], v[1], v[2], v[3]);
    } else return false;
    return true;
}

void CameraFlags::check() const {
    // The first flag of `others` given beside `flag`, refused.
    const auto refuse = [](const char* flag, std::initializer_list<std::pair<const char*, bool>> others) {
        for (const auto& [name, given] : others)
            if (given) throw UsageError(std::string(flag) + " and " + name + " cannot go together: " + flag +
                                        (std::string(flag) == "--intrinsics" ? " is the lens, and --pose the place"
                                                                              : " places the camera"));
    };
    if (intrinsics)
        refuse("--intrinsics", {{"--fov", bool(fov)}, {"--eye", bool(eye)}, {"--yaw", bool(yaw)},
                                {"--pitch", bool(pitch)}, {"--look-at", bool(lookAt)}});
    if (pose)
        refuse("--pose", {{"--eye", bool(eye)}, {"--yaw", bool(yaw)}, {"--pitch", bool(pitch)},
                          {"--look-at", bool(lookAt)}});
    if (cameraIndex)
        refuse("--camera-index", {{"--eye", bool(eye)}, {"--yaw", bool(yaw)}, {"--pitch", bool(pitch)},
                                  {"--look-at", bool(lookAt)}, {"--up", bool(up)}, {"--pose", bool(pose)},
                                  {"--intrinsics", bool(intrinsics)}});
    if (lookAt) refuse("--look-at", {{"--yaw", bool(yaw)}, {"--pitch", bool(pitch)}});
    if (up && !lookAt && !(eye && !yaw && !pitch))
        throw UsageError("--up is the picture's up for --look-at or --eye alone, and neither is given");
    if (convention && !pose && !intrinsics)
        throw UsageError("--convention names the axes of --pose, and no --pose is given");
}

namespace {

// Near and far planes enclosing `bounds` (as far as the eye sees it) for a camera the flags
// placed: the framing's planes were found for the framing's eye, which may be far from it.
void enclose(Camera& c, const Bounds& bounds) {
    if (bounds.empty()) return;
    const glm::vec3 forward = c.forward();
    float nearest = std::numeric_limits<float>::max(), farthest = -nearest;
    for (int i = 0; i < 8; ++i) {
        const glm::vec3 corner{(i & 1) ? bounds.max.x : bounds.min.x, (i & 2) ? bounds.max.y : bounds.min.y,
                               (i & 4) ? bounds.max.z : bounds.min.z};
        const float z = glm::dot(corner - c.eye, forward);
        nearest = std::min(nearest, z);
        farthest = std::max(farthest, z);
    }
    c.farPlane = std::max(farthest, std::max(bounds.radius(), 1e-6f) * 1e-3f) * 1.5f;
    c.nearPlane = std::max(nearest * 0.5f, c.farPlane * 1e-4f); // inside the box: 1e-4 of the far plane
}

std::string vecText(glm::vec3 v) { return numberText(v.x) + "," + numberText(v.y) + "," + numberText(v.z); }

} // namespace

Camera CameraFlags::camera(const Mesh& mesh, int width, int height, float coveredLeft) const {
    check();
    if (cameraIndex) throw UsageError("--camera-index names a camera of a scene's files; a mesh alone has none");
    const float aspect = static_cast<float>(width) / static_cast<float>(height);
    return overridden(Camera::framing(mesh, aspect, fov.value_or(60.0f), coveredLeft), mesh.bounds, width, height);
}

Camera CameraFlags::camera(const Scene& scene, int width, int height, float coveredLeft) const {
    check();
    if (cameraIndex) {
        Camera c;
        try {
            c = sceneCamera(scene, static_cast<std::size_t>(*cameraIndex));
        } catch (const Error& e) {
            throw UsageError(std::string("--camera-index: ") + e.what());
        }
        if (fov) c.fovYDegrees = *fov;
        if (nearPlane) c.nearPlane = *nearPlane;
        if (farPlane) c.farPlane = *farPlane;
        c.validate();
        return c;
    }
    const float aspect = static_cast<float>(width) / static_cast<float>(height);
    return overridden(sceneFraming(scene, aspect, fov.value_or(60.0f), coveredLeft), scene.bounds(), width, height);
}

Camera CameraFlags::overridden(Camera c, const Bounds& bounds, int width, int height) const {
    const bool eyeAlone = eye && !yaw && !pitch && !bounds.empty();
    if (pose || intrinsics) {
        const float fovY = c.fovYDegrees;
        try {
            c = Camera::fromPose(pose.value_or(glm::mat4(1.0f)), convention.value_or(PoseConvention::OpenCv));
        } catch (const Error& e) {
            throw UsageError(std::string("--pose: ") + e.what());
        }
        c.fovYDegrees = fovY;
        if (intrinsics)
            c.intrinsics = Intrinsics{intrinsics->x, intrinsics->y, intrinsics->z, intrinsics->w, width, height};
        enclose(c, bounds);
    } else if (lookAt || eyeAlone) {
        const glm::vec3 from = eye.value_or(c.eye), target = lookAt ? *lookAt : bounds.center();
        const std::string targetName = lookAt ? "--look-at " + vecText(*lookAt) : "the scene's centre " + vecText(target);
        const std::string fromName = eye ? "--eye " + vecText(*eye) : "the framing's eye " + vecText(from);
        if (from == target) throw UsageError(targetName + " is " + fromName + ": the camera must look somewhere else");
        const glm::vec3 upward = up.value_or(glm::vec3(0.0f, 1.0f, 0.0f));
        if (!(glm::length(glm::cross(glm::normalize(target - from), upward)) > 1e-6f * glm::length(upward)))
            throw UsageError("--up " + vecText(upward) + " is parallel to the view direction, from " + fromName + " to " +
                             targetName + ": give another --up");
        const float fovY = c.fovYDegrees;
        c = Camera::lookAt(from, target, upward);
        c.fovYDegrees = fovY;
        enclose(c, bounds);
    } else {
        if (eye) c.eye = *eye;
        if (yaw) c.yawDegrees = *yaw;
        if (pitch) c.pitchDegrees = *pitch;
    }
    if (nearPlane) c.nearPlane = *nearPlane;
    if (farPlane) c.farPlane = *farPlane;
    c.validate();
    return c;
}

glm::mat4 parsePose(const std::string& flag, const std::string& text) {
    std::vector<float> v;
    if (text.find(',') != std::string::npos) {
        v = parseFloats(flag, text);
        if (v.size() != 16)
            throw UsageError(flag + " expects 16 numbers (a 4x4 matrix, row by row), got " + std::to_string(v.size()) +
                             " in '" + text + "'");
    } else {
        std::ifstream in(text);
        if (!in) throw UsageError(flag + " '" + text + "' is neither 16 numbers nor a file that can be read");
        std::string word;
        for (char ch; in.get(ch);) { // numbers between spaces, commas and newlines
            if (std::isspace(static_cast<unsigned char>(ch)) || ch == ',') {
                if (!word.empty()) v.push_back(parseFloat(flag + " file '" + text + "'", word));
                word.clear();
            } else {
                word += ch;
            }
        }
        if (!word.empty()) v.push_back(parseFloat(flag + " file '" + text + "'", word));
        if (v.size() != 16)
            throw UsageError(flag + " file '" + text + "' holds " + std::to_string(v.size()) +
                             " numbers; a 4x4 matrix needs 16, row by row");
    }
    glm::mat4 m;
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) m[c][r] = v[std::size_t(4 * r + c)]; // glm is column-major
    return m;
}

int runMain(const char* program, const std::function<int()>& body) {
    try {
        return body();
    } catch (const UsageError& e) {
        std::cerr << program << ": " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << program << ": " << e.what() << "\n";
        return 1;
    }
}

void installStopSignals() {
    struct sigaction action {};
    action.sa_handler = requestStop;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND; // a second Ctrl+C is not ignored when the first goes unheard
    for (const int number : {SIGINT, SIGTERM}) ::sigaction(number, &action, nullptr);
}

int stopSignal() { return stopRequest; }

} // namespace facet::cli
