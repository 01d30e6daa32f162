// facet-viewer, run as a user would: on a private X server (Xvfb), in scripted mode and driven
// through its real window with xdotool. Skipped, saying why, where Xvfb or xdotool is missing.
// Every wait is bounded and every process started here is ended here.
#include "test_support.h"

#include "asset/image.h"
#include "asset/load_model.h"
#include "asset/obj_loader.h"
#include "core/camera.h"
#include "viewer/object_pose.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

const fs::path kViewer = fs::path(FACET_BINARY_DIR) / "apps" / "facet-viewer";
const fs::path kRender = fs::path(FACET_BINARY_DIR) / "apps" / "facet-render";

std::optional<fs::path> findOnPath(const std::string& name) {
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        const fs::path candidate = fs::path(dir.empty() ? "." : dir) / name;
        if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    return std::nullopt;
}

// A child process with its own environment changes and output files; killed (and reaped) on
// destruction if it is still running.
class Process {
public:
    struct Setup {
        std::map<std::string, std::optional<std::string>> env; // nullopt: unset
        fs::path out = "/dev/null", err = "/dev/null";
        fs::path cwd; // empty: the test's own
    };

    Process(const std::vector<std::string>& argv, const Setup& setup) {
        std::vector<std::string> envStrings;
        for (char** e = environ; *e; ++e) {
            const std::string entry = *e;
            if (!setup.env.count(entry.substr(0, entry.find('=')))) envStrings.push_back(entry);
        }
        for (const auto& [name, value] : setup.env)
            if (value) envStrings.push_back(name + "=" + *value);
        // facet's own programs, under AddressSanitizer: keep their libraries loaded to the leak
        // check (tests/tools/keep_loaded.c), so it runs on the viewer too.
        const std::string preload = FACET_CHILD_PRELOAD;
        if (!preload.empty() && !setup.env.count("LD_PRELOAD") && argv[0].rfind(FACET_BINARY_DIR, 0) == 0)
            envStrings.push_back("LD_PRELOAD=" + preload);
        std::vector<char*> args, envp;
        for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        for (std::string& e : envStrings) envp.push_back(e.data());
        envp.push_back(nullptr);

        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_addopen(&actions, 1, setup.out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        posix_spawn_file_actions_addopen(&actions, 2, setup.err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (!setup.cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, setup.cwd.c_str());
        const int rc = posix_spawnp(&pid_, args[0], &actions, nullptr, args.data(), envp.data());
        posix_spawn_file_actions_destroy(&actions);
        if (rc != 0) pid_ = -1;
    }
    ~Process() { stop(); }
    Process(const Process&) = delete;
    Process& operator=(const Process&) = delete;

    bool started() const { return pid_ > 0; }
    pid_t pid() const { return pid_; }

    // The exit status, or nullopt when it is still running after `timeout`.
    std::optional<int> wait(std::chrono::milliseconds timeout) {
        const auto end = Clock::now() + timeout;
        while (pid_ > 0) {
            int status = 0;
            if (::waitpid(pid_, &status, WNOHANG) == pid_) {
                pid_ = -1;
                status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            }
            if (Clock::now() >= end) return std::nullopt;
            std::this_thread::sleep_for(10ms);
        }
        return status_;
    }

    // SIGTERM, then SIGKILL if it lingers; always reaps.
    void stop() {
        if (pid_ <= 0) return;
        ::kill(pid_, SIGTERM);
        if (!wait(3000ms)) {
            ::kill(pid_, SIGKILL);
            int status = 0;
            ::waitpid(pid_, &status, 0);
            pid_ = -1;
        }
    }

private:
    pid_t pid_ = -1;
    std::optional<int> status_;
};

// Runs a command to completion (bounded); its exit status, or -1 if it had to be killed.
int runCommand(const std::vector<std::string>& argv, const Process::Setup& setup = {},
               std::chrono::milliseconds timeout = 30000ms) {
    Process p(argv, setup);
    if (!p.started()) return -1;
    const std::optional<int> status = p.wait(timeout);
    return status ? *status : -1;
}

std::string readText(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// A private X server. Display numbers start at a place that depends on the process id, away
// from a desktop's :0 and from other test runs starting at the same moment; a number already
// taken makes Xvfb exit, and the next one is tried. Xvfb's own messages are kept, so a failure
// to start says why.
class VirtualDisplay {
public:
    // Empty name() when it could not start; why() says why.
    VirtualDisplay() {
        const std::optional<fs::path> xvfb = findOnPath("Xvfb");
        if (!xvfb) {
            why_ = "Xvfb is not installed (apt-get install xvfb)";
            return;
        }
        const fs::path log = facet::test::scratchDir("xvfb") / ("xvfb_" + std::to_string(::getpid()) + ".log");
        const int first = 100 + static_cast<int>(::getpid() % 800);
        for (int attempt = 0; attempt < 5 && name_.empty(); ++attempt) {
            const int display = first + 7 * attempt;
            if (fs::exists("/tmp/.X" + std::to_string(display) + "-lock")) continue;
            tryDisplay(*xvfb, display, log);
        }
        if (name_.empty() && why_.empty()) why_ = "Xvfb found no free display number";
    }

    const std::string& name() const { return name_; }
    const std::string& why() const { return why_; }

private:
    void tryDisplay(const fs::path& xvfb, int display, const fs::path& log) {
        // Xvfb writes the display number to -displayfd once it accepts connections. It inherits
        // the pipe's write end (pipe() descriptors stay open across exec), not the read end.
        int fds[2];
        if (::pipe(fds) != 0) {
            why_ = std::string("pipe() failed: ") + std::strerror(errno);
            return;
        }
        ::fcntl(fds[0], F_SETFD, FD_CLOEXEC);
        // -noreset: by default an X server resets when its last client leaves, and a client
        // connecting meanwhile is refused. The test's xdotool calls come and go while the viewer
        // starts, so without it the viewer could find no display ("Failed to open display").
        Process::Setup setup;
        setup.err = log;
        server_.emplace(std::vector<std::string>{xvfb.string(), ":" + std::to_string(display), "-displayfd",
                                                 std::to_string(fds[1]), "-screen", "0", "1280x1024x24", "-nolisten",
                                                 "tcp", "-noreset"},
                        setup);
        ::close(fds[1]);
        // Wait for the number or for Xvfb to exit (the pipe closes), however slow it is to start;
        // the bound only catches a server that hangs.
        std::string number;
        bool exited = false;
        pollfd p{fds[0], POLLIN, 0};
        const auto end = Clock::now() + 60s;
        while (Clock::now() < end && number.find('\n') == std::string::npos && !exited) {
            if (::poll(&p, 1, 100) > 0) {
                char buffer[16];
                const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
                if (n <= 0) exited = true;
                else number.append(buffer, std::size_t(n));
            }
        }
        ::close(fds[0]);
        if (number.find('\n') != std::string::npos) {
            name_ = ":" + number.substr(0, number.find('\n'));
            return;
        }
        server_.reset();
        const std::string messages = readText(log);
        // A display number in use is the one failure worth another number.
        if (exited && messages.find("already active") != std::string::npos) return;
        why_ = "Xvfb :" + std::to_string(display) +
               (exited ? " exited before accepting connections: " : " did not accept connections within 60 s: ") +
               messages;
    }

    std::optional<Process> server_;
    std::string name_, why_;
};

// Skips a test needing the display when there is none, or fails it under
// FACET_REQUIRE_DISPLAY=1 (scripts/test.sh, after setup.sh installed Xvfb and xdotool).
#define FACET_REQUIRE_DISPLAY(display)                                                                                 \
    do {                                                                                                               \
        if ((display).name().empty()) FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_DISPLAY", (display).why());            \
    } while (0)

// "key value..." lines from facet-viewer --report.
std::map<std::string, std::string> parseReport(const std::string& text) {
    std::map<std::string, std::string> fields;
    std::stringstream in(text);
    for (std::string line; std::getline(in, line);) {
        const auto space = line.find(' ');
        if (space != std::string::npos) fields[line.substr(0, space)] = line.substr(space + 1);
    }
    return fields;
}

TEST(Viewer, HelpAndBadArguments) {
    const fs::path dir = facet::test::scratchDir("viewer_args");
    Process::Setup setup;
    setup.out = dir / "help.txt";
    EXPECT_EQ(runCommand({kViewer.string(), "--help"}, setup), 0);
    EXPECT_NE(readText(setup.out).find("usage: facet-viewer"), std::string::npos);

    setup.err = dir / "bad.txt";
    EXPECT_EQ(runCommand({kViewer.string(), "--frames", "0"}, setup), 2);
    EXPECT_EQ(readText(setup.err), "facet-viewer: --frames expects a whole number from 1 to 100000000, got '0'\n");
}

TEST(Viewer, NoDisplayIsAClearErrorNotACrash) {
    const fs::path dir = facet::test::scratchDir("viewer_nodisplay");
    Process::Setup setup;
    setup.env = {{"DISPLAY", std::nullopt}, {"WAYLAND_DISPLAY", std::nullopt}};
    setup.err = dir / "err.txt";
    EXPECT_EQ(runCommand({kViewer.string(), "--frames", "1", "--stage", "cpu"}, setup), 1);
    EXPECT_NE(readText(setup.err).find("facet-viewer: cannot open a window: "), std::string::npos)
        << readText(setup.err);
}

// The same renderer behind both apps: the viewer's scripted screenshot of facet's frame, and
// with --no-ui its window's framebuffer, equal facet-render's PNG for the same camera and size.
TEST(Viewer, ScriptedScreenshotEqualsFacetRender) {
    VirtualDisplay display;
    FACET_REQUIRE_DISPLAY(display);
    const fs::path dir = facet::test::scratchDir("viewer_screenshot");
    const std::vector<std::string> picture = {"--size", "320x240", "--eye", "6,5,9", "--yaw", "30", "--pitch", "-25",
                                              "--fov", "55", "--filter", "bilinear", "--cull", "back", "--light"};

    std::vector<std::string> render = {kRender.string(), "-o", (dir / "render.png").string(), "--stage", "cpu"};
    render.insert(render.end(), picture.begin(), picture.end());
    ASSERT_EQ(runCommand(render), 0);

    std::vector<std::string> viewer = {kViewer.string(), "--no-ui", "--frames", "3", "--vsync", "off", "--stage", "cpu",
                                       "--screenshot", (dir / "viewer.png").string(), "--screenshot-window",
                                       (dir / "window.png").string()};
    viewer.insert(viewer.end(), picture.begin(), picture.end());
    Process::Setup setup;
    setup.env = {{"DISPLAY", display.name()}};
    setup.err = dir / "viewer_err.txt";
    ASSERT_EQ(runCommand(viewer, setup, 30000ms), 0) << readText(setup.err);

    const facet::Image expected = facet::loadImage(dir / "render.png");
    const facet::Image frame = facet::loadImage(dir / "viewer.png");
    const facet::Image window = facet::loadImage(dir / "window.png");
    ASSERT_EQ(frame.width, expected.width);
    ASSERT_EQ(frame.height, expected.height);
    EXPECT_TRUE(frame.pixels == expected.pixels) << "the viewer's frame differs from facet-render's";
    ASSERT_EQ(window.width, expected.width);
    ASSERT_EQ(window.height, expected.height);
    // The window has no alpha to speak of: compare colours.
    std::size_t differing = 0;
    for (std::size_t i = 0; i < expected.pixels.size(); ++i)
        differing += (window.pixels[i] & 0xFFFFFFu) != (expected.pixels[i] & 0xFFFFFFu);
    EXPECT_EQ(differing, 0u) << "the window shows a different picture than facet-render's";
}

// The lit model multisampled with alpha-to-coverage: the viewer's frame of the material scene
// (cut-out foliage, a blended pane) equals facet-render's, and its report names the settings.
TEST(Viewer, LitMultisampledFrameEqualsFacetRender) {
    VirtualDisplay display;
    FACET_REQUIRE_DISPLAY(display);
    const fs::path dir = facet::test::scratchDir("viewer_lit_msaa");
    const std::vector<std::string> picture = {
        (facet::test::sourceDir() / "assets/material_scene/scene.obj").string(), "--size", "240x160", "--shading",
        "lit", "--msaa", "4", "--alpha-to-coverage"};
    std::vector<std::string> render = {kRender.string(), "-o", (dir / "render.png").string(), "--stage", "cpu"};
    render.insert(render.end(), picture.begin(), picture.end());
    ASSERT_EQ(runCommand(render), 0);
    std::vector<std::string> viewer = {kViewer.string(), "--no-ui", "--frames", "3", "--vsync", "off", "--stage", "cpu",
                                       "--screenshot", (dir / "viewer.png").string(), "--report"};
    viewer.insert(viewer.end(), picture.begin(), picture.end());
    Process::Setup setup;
    setup.env = {{"DISPLAY", display.name()}};
    setup.out = dir / "report.txt";
    setup.err = dir / "viewer_err.txt";
    ASSERT_EQ(runCommand(viewer, setup, 30000ms), 0) << readText(setup.err);
    const auto report = parseReport(readText(setup.out));
    EXPECT_EQ(report.at("msaa"), "4");
    EXPECT_EQ(report.at("alpha-to-coverage"), "on");
    EXPECT_TRUE(facet::loadImage(dir / "viewer.png").pixels == facet::loadImage(dir / "render.png").pixels)
        << "the viewer's frame differs from facet-render's";
}

// The cube the interactive tests load: 12 triangles, framed by Camera::framing.
fs::path writeCube(const fs::path& dir) {
    return facet::test::writeFile(dir / "cube.obj", "v -1 -1 -1\nv 1 -1 -1\nv 1 1 -1\nv -1 1 -1\n"
                                                    "v -1 -1 1\nv 1 -1 1\nv 1 1 1\nv -1 1 1\n"
                                                    "f 1 2 3 4\nf 5 8 7 6\nf 1 5 6 2\n"
                                                    "f 2 6 7 3\nf 3 7 8 4\nf 5 1 4 8\n");
}

// A scripted run of the viewer with its panel shown: its report, and facet's frame (which the
// panel does not cover) in `frame`.
std::map<std::string, std::string> runWithPanel(const std::string& display, const fs::path& dir,
                                                const std::vector<std::string>& args, facet::Image& frame) {
    std::vector<std::string> viewer = {kViewer.string(), "--frames", "3", "--vsync", "off", "--stage", "cpu",
                                       "--screenshot", (dir / "frame.png").string(), "--report"};
    viewer.insert(viewer.end(), args.begin(), args.end());
    Process::Setup setup;
    setup.env = {{"DISPLAY", display}};
    setup.out = dir / "report.txt";
    setup.err = dir / "viewer_err.txt";
    EXPECT_EQ(runCommand(viewer, setup, 30000ms), 0) << readText(setup.err);
    frame = facet::loadImage(dir / "frame.png");
    return parseReport(readText(setup.out));
}

// A mesh opens beside the panel, not under it, where the panel leaves at least half the window:
// at 1280x720 the panel (10 + 380 pixels, and a margin) covers 400 / 1280 of the width, so the
// cube is framed in the rest (Camera::framing's coveredLeft) and no pixel of it lies under the
// panel. The cube has no texture, so the headlight is on: its faces are shaded, not one flat
// colour.
TEST(Viewer, AMeshOpensBesideThePanelAndAnUntexturedOneLit) {
    VirtualDisplay display;
    FACET_REQUIRE_DISPLAY(display);
    const fs::path dir = facet::test::scratchDir("viewer_beside_panel");
    const fs::path cube = writeCube(dir);
    facet::Image frame;
    const auto report = runWithPanel(display.name(), dir, {cube.string(), "--size", "1280x720"}, frame);
    ASSERT_TRUE(report.count("eye") && report.count("headlight")) << readText(dir / "viewer_err.txt");
    EXPECT_EQ(report.at("panel-rect").substr(0, 10), "10 10 380 ") << report.at("panel-rect");
    const facet::Camera home =
        facet::Camera::framing(facet::loadObj(cube).mesh, 1280.0f / 720.0f, 60.0f, 400.0f / 1280.0f);
    glm::vec3 eye;
    std::stringstream(report.at("eye")) >> eye.x >> eye.y >> eye.z;
    EXPECT_LT(glm::length(eye - home.eye), 1e-3f) << report.at("eye");

    ASSERT_EQ(frame.width, 1280u);
    const std::uint32_t background = frame.pixels[0];
    std::uint32_t leftmost = frame.width;
    std::vector<std::uint32_t> colours;
    for (std::uint32_t y = 0; y < frame.height; ++y)
        for (std::uint32_t x = 0; x < frame.width; ++x) {
            const std::uint32_t p = frame.pixels[std::size_t(y) * frame.width + x];
            if (p == background) continue;
            leftmost = std::min(leftmost, x);
            if (std::find(colours.begin(), colours.end(), p) == colours.end()) colours.push_back(p);
        }
    EXPECT_GE(leftmost, 400u) << "the cube reaches under the panel";
    EXPECT_LT(leftmost, 640u) << "the cube should fill the part beside the panel";
    EXPECT_EQ(report.at("headlight"), "on");
    EXPECT_GE(colours.size(), 3u) << "the untextured cube's faces should be shaded apart";
}

// A textured mesh keeps the classic look's unlit colours (the default scene), and --light is
// the user's choice, kept whatever the mesh.
TEST(Viewer, ATexturedMeshOpensUnlitAndLightIsKept) {
    VirtualDisplay display;
    FACET_REQUIRE_DISPLAY(display);
    const fs::path dir = facet::test::scratchDir("viewer_headlight");
    facet::Image frame;
    EXPECT_EQ(runWithPanel(display.name(), dir, {"--size", "320x240"}, frame)["headlight"], "off");
    EXPECT_EQ(runWithPanel(display.name(), dir, {"--size", "320x240", "--light"}, frame)["headlight"], "on");
}

// A second cube, 12 triangles as writeCube's, 6 units along +x from it.
fs::path writeFarCube(const fs::path& dir) {
    return facet::test::writeFile(dir / "far_cube.obj", "v 5 -1 -1\nv 7 -1 -1\nv 7 1 -1\nv 5 1 -1\n"
                                                        "v 5 -1 1\nv 7 -1 1\nv 7 1 1\nv 5 1 1\n"
                                                        "f 1 2 3 4\nf 5 8 7 6\nf 1 5 6 2\n"
                                                        "f 2 6 7 3\nf 3 7 8 4\nf 5 1 4 8\n");
}

// "object ID shown|hidden TRIANGLES NAME" lines of --report, in order.
std::vector<std::string> reportedObjects(const std::string& report) {
    std::vector<std::string> objects;
    std::stringstream in(report);
    for (std::string line; std::getline(in, line);)
        if (line.rfind("object ", 0) == 0) objects.push_back(line.substr(7));
    return objects;
}

// Every file on the command line opens, together, as one scene framed whole: the report lists
// both objects, the camera is sceneFraming's, and facet's frame shows two shapes apart.
TEST(Viewer, SeveralFilesOnTheCommandLineAreOneScene) {
    VirtualDisplay display;
    FACET_REQUIRE_DISPLAY(display);
    const fs::path dir = facet::test::scratchDir("viewer_two_files");
    const fs::path cube = writeCube(dir), far = writeFarCube(dir);
    Process::Setup setup;
    setup.env = {{"DISPLAY", display.name()}};
    setup.out = dir / "report.txt";
    setup.err = dir / "viewer_err.txt";
    ASSERT_EQ(runCommand({kViewer.string(), cube.string(), far.string(), "--no-ui", "--size", "320x240", "--frames",
                          "3", "--vsync", "off", "--stage", "cpu", "--screenshot", (dir / "frame.png").string(),
                          "--report"},
                         setup, 30000ms),
              0)
        << readText(setup.err);
    const std::string text = readText(setup.out);
    EXPECT_EQ(reportedObjects(text), (std::vector<std::string>{"1 shown 12 cube.obj", "2 shown 12 far_cube.obj"}))
        << text;
    const auto report = parseReport(text);
    EXPECT_EQ(report.at("objects"), "2");
    EXPECT_EQ(report.at("triangles"), "24");
    const facet::Camera home = facet::sceneFraming(facet::loadScene(std::vector<fs::path>{cube, far}), 320.0f / 240.0f);
    glm::vec3 eye;
    std::stringstream(report.at("eye")) >> eye.x >> eye.y >> eye.z;
    EXPECT_LT(glm::length(eye - home.eye), 1e-3f) << report.at("eye");

    // The columns with any of the cubes in them: two runs with background between.
    const facet::Image frame = facet::loadImage(dir / "frame.png");
    const std::uint32_t background = frame.pixels[0];
    std::vector<bool> used(frame.width, false);
    for (std::uint32_t y = 0; y < frame.height; ++y)
        for (std::uint32_t x = 0; x < frame.width; ++x)
            used[x] = used[x] || frame.pixels[std::size_t(y) * frame.width + x] != background;
    int runs = 0;
    for (std::uint32_t x = 0; x < frame.width; ++x) runs += used[x] && (x == 0 || !used[x - 1]);
    EXPECT_EQ(runs, 2) << "the two cubes should be apart in the frame";
}

// facet-viewer on a private display, driven through its window with xdotool. Each step that
// must reach the viewer waits (bounded, with a message) for a sign that it did.
class ViewerSession {
public:
    // `prefix` runs the viewer through another command (e.g. a shell setting a ulimit).
    ViewerSession(const fs::path& xdotool, const std::string& display, const fs::path& dir,
                  const std::vector<std::string>& extraArgs, const std::vector<std::string>& prefix = {})
        : xdotool_(xdotool), viewer_(viewerCommand(extraArgs, prefix), viewerSetup(display, dir)) {
        tool_.env = {{"DISPLAY", display}};
        tool_.out = dir / "xdotool.txt";
        report_ = dir / "report.txt";
        errors_ = dir / "viewer_err.txt";
    }

    std::string errors() const { return readText(errors_); }
    std::string report() const { return readText(report_); }
    Process& viewer() { return viewer_; }

    int xdo(std::vector<std::string> args) {
        args.insert(args.begin(), xdotool_.string());
        return runCommand(args, tool_, 5000ms);
    }
    std::string output() const { return readText(tool_.out); }

    // The title names the mesh once it is loaded; wait (bounded) for a given one.
    std::string windowFor(const std::string& mesh, std::chrono::seconds timeout) {
        const auto end = Clock::now() + timeout;
        while (Clock::now() < end && !viewer_.wait(0ms)) {
            if (xdo({"search", "--name", "^facet-viewer - " + mesh + "$"}) == 0) {
                const std::string ids = output();
                if (!ids.empty()) return ids.substr(0, ids.find('\n'));
            }
            std::this_thread::sleep_for(100ms);
        }
        return {};
    }

    // Waits for the window showing `mesh`, then (no window manager here) puts the pointer on
    // it and gives it the keyboard.
    testing::AssertionResult open(const std::string& mesh) {
        if (!viewer_.started()) return testing::AssertionFailure() << "facet-viewer did not start";
        window_ = windowFor(mesh, 30s);
        if (window_.empty())
            return testing::AssertionFailure() << "the viewer showed no window with " << mesh << ": " << errors();
        if (xdo({"mousemove", "--window", window_, "400", "300"}) != 0 || xdo({"windowfocus", "--sync", window_}) != 0)
            return testing::AssertionFailure() << "xdotool could not focus the window";
        return testing::AssertionSuccess();
    }
    const std::string& window() const { return window_; }

    // A right-button drag right and down. The right button captures the mouse: GLFW hides the
    // pointer and puts it in the middle of the window, and after each movement the viewer has
    // taken in, puts it back there; on release it gives the pointer back where it was. So the
    // pointer's place says when the viewer has seen each step.
    testing::AssertionResult dragRightAndDown() {
        if (xdo({"getwindowgeometry", "--shell", window_}) != 0) return testing::AssertionFailure() << "no geometry";
        const std::string geometry = output();
        const glm::ivec2 middle(field(geometry, "X") + field(geometry, "WIDTH") / 2,
                                field(geometry, "Y") + field(geometry, "HEIGHT") / 2);
        const std::optional<glm::ivec2> released = pointer();
        if (!released || *released == middle) return testing::AssertionFailure() << "the pointer is not off-centre";
        const std::vector<std::pair<std::vector<std::string>, const char*>> steps = {
            {{"mousedown", "3"}, "the right button did not capture the mouse"},
            {{"mousemove_relative", "--", "100", "0"}, "the viewer did not take in the drag to the right"},
            {{"mousemove_relative", "--", "20", "40"}, "the viewer did not take in the drag down"}};
        for (const auto& [args, failure] : steps) {
            if (xdo(args) != 0) return testing::AssertionFailure() << "xdotool failed: " << failure;
            if (auto reached = pointerReaches(middle, failure); !reached) return reached;
        }
        if (xdo({"mouseup", "3"}) != 0) return testing::AssertionFailure() << "xdotool mouseup failed";
        return pointerReaches(*released, "releasing the right button did not give the pointer back");
    }

    // Ctrl+L, a typed path and Enter (Open; shift+Return: Add). Ctrl+L puts the keyboard in
    // the path field (selecting what is there) a frame or two later and keys typed before that
    // are lost, so the sequence is retried, each time waiting longer, until `landed` (bounded)
    // says it arrived.
    testing::AssertionResult typePath(const fs::path& path, const std::function<bool()>& landed,
                                      const std::string& enter = "Return") {
        for (int attempt = 0; attempt < 4; ++attempt) {
            if (xdo({"key", "ctrl+l"}) != 0) return testing::AssertionFailure() << "xdotool key failed";
            std::this_thread::sleep_for(std::chrono::milliseconds(250 << attempt));
            if (xdo({"type", "--delay", "10", path.string()}) != 0 || xdo({"key", enter}) != 0)
                return testing::AssertionFailure() << "xdotool type failed";
            if (landed()) return testing::AssertionSuccess();
        }
        return testing::AssertionFailure() << "typing " << path << " had no effect: " << errors();
    }

    // Esc quits (the mouse is no longer captured, no text field is active), with status 0.
    testing::AssertionResult quit() {
        std::optional<int> status;
        for (int attempt = 0; attempt < 5 && !status; ++attempt) {
            xdo({"key", "Escape"});
            status = viewer_.wait(2000ms);
        }
        if (!status) return testing::AssertionFailure() << "Esc did not close the viewer";
        if (*status != 0) return testing::AssertionFailure() << "the viewer exited with " << *status << ": " << errors();
        return testing::AssertionSuccess();
    }

private:
    static std::vector<std::string> viewerCommand(const std::vector<std::string>& extraArgs,
                                                  const std::vector<std::string>& prefix) {
        // A quarter of the resolution: quick frames keep the input handling prompt on a busy machine.
        std::vector<std::string> command = {kViewer.string(), "--size",  "640x480", "--scale", "0.25", "--vsync",
                                            "off",            "--stage", "cpu",     "--report"};
        command.insert(command.end(), extraArgs.begin(), extraArgs.end());
        command.insert(command.begin(), prefix.begin(), prefix.end());
        return command;
    }
    static Process::Setup viewerSetup(const std::string& display, const fs::path& dir) {
        Process::Setup setup;
        setup.env = {{"DISPLAY", display}};
        setup.out = dir / "report.txt";
        setup.err = dir / "viewer_err.txt";
        setup.cwd = dir; // where the panel's Screenshot button writes
        return setup;
    }
    static int field(const std::string& shell, const std::string& name) {
        const auto at = shell.find(name + "=");
        return at == std::string::npos ? -1 : std::atoi(shell.c_str() + at + name.size() + 1);
    }
    std::optional<glm::ivec2> pointer() {
        if (xdo({"getmouselocation", "--shell"}) != 0) return std::nullopt;
        const std::string where = output();
        return glm::ivec2(field(where, "X"), field(where, "Y"));
    }
    testing::AssertionResult pointerReaches(glm::ivec2 place, const char* step) {
        const auto end = Clock::now() + 20s;
        std::optional<glm::ivec2> at;
        while (Clock::now() < end) {
            if (at = pointer(); at && *at == place) return testing::AssertionSuccess();
            std::this_thread::sleep_for(20ms);
        }
        testing::AssertionResult failure = testing::AssertionFailure();
        failure << step << ": the pointer never reached (" << place.x << ", " << place.y << ") within 20 s";
        if (at) failure << "; it is at (" << at->x << ", " << at->y << ")";
        return failure;
    }

    fs::path xdotool_;
    Process viewer_;
    Process::Setup tool_;
    fs::path report_, errors_;
    std::string window_;
};

// What the interactive tests need: xdotool and a private display, or why not.
struct DrivableDisplay {
    std::optional<fs::path> xdotool = findOnPath("xdotool");
    VirtualDisplay display;
    std::string whyNot() const {
        if (!xdotool) return "xdotool is not installed (apt-get install xdotool)";
        return display.name().empty() ? display.why() : std::string();
    }
};

// Skips (or under FACET_REQUIRE_DISPLAY=1 fails) a test whose display cannot be driven.
#define FACET_REQUIRE_DRIVABLE(drivable)                                                                               \
    do {                                                                                                               \
        if (const std::string why = (drivable).whyNot(); !why.empty())                                                \
            FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_DISPLAY", why);                                                  \
    } while (0)

// A user's session through the real window: the default scene opens; Ctrl+L, a typed path and
// Enter load another mesh; W moves the camera; a right-button drag turns it; a path that
// cannot load is reported and keeps the mesh; Esc quits; the viewer's --report says where
// everything ended up.
TEST(Viewer, XdotoolDrivesTheWindow) {
    DrivableDisplay drivable;
    FACET_REQUIRE_DRIVABLE(drivable);
    const fs::path dir = facet::test::scratchDir("viewer_xdotool");
    const fs::path cube = writeCube(dir);
    ViewerSession session(*drivable.xdotool, drivable.display.name(), dir, {});
    ASSERT_TRUE(session.open("scene.obj"));
    // Enter also leaves the path field, so the keys below reach the camera.
    ASSERT_TRUE(session.typePath(cube, [&] { return !session.windowFor("cube.obj", 5s).empty(); }));

    // W held for a while (how far the camera flies is not checked, only that it flew forward).
    ASSERT_EQ(session.xdo({"keydown", "w"}), 0);
    std::this_thread::sleep_for(400ms);
    ASSERT_EQ(session.xdo({"keyup", "w"}), 0);
    ASSERT_TRUE(session.dragRightAndDown());

    // A path that cannot load: the viewer says so and keeps the cube.
    const fs::path missing = dir / "no_such_mesh.obj";
    const auto reported = [&] {
        const auto end = Clock::now() + 5s;
        while (Clock::now() < end) {
            if (session.errors().find("facet-viewer: " + missing.string()) != std::string::npos) return true;
            std::this_thread::sleep_for(50ms);
        }
        return false;
    };
    ASSERT_TRUE(session.typePath(missing, reported));
    EXPECT_FALSE(session.windowFor("cube.obj", 5s).empty()) << "the failed load replaced the cube";

    ASSERT_TRUE(session.quit());

    const auto report = parseReport(session.report());
    ASSERT_TRUE(report.count("mesh") && report.count("eye") && report.count("yaw") && report.count("pitch"))
        << session.report();
    EXPECT_EQ(fs::path(report.at("mesh")), cube);
    EXPECT_EQ(report.at("triangles"), "12");
    // Where R would put the camera for the cube in this window, as the viewer computes it.
    const facet::Camera home = facet::Camera::framing(facet::loadObj(cube).mesh, 640.0f / 480.0f);
    glm::vec3 eye;
    std::stringstream(report.at("eye")) >> eye.x >> eye.y >> eye.z;
    // W flies forward: along the direction the camera looked in when W was held (the drag
    // turned it only afterwards).
    const glm::vec3 moved = eye - home.eye;
    ASSERT_GT(glm::length(moved), 0.05f) << "W did not move the camera: " << report.at("eye");
    EXPECT_GT(glm::dot(glm::normalize(moved), home.forward()), 0.999f)
        << "W moved the camera off its forward direction: " << report.at("eye");
    // Dragging right turns right (yaw goes down), dragging down looks down.
    EXPECT_LT(std::stof(report.at("yaw")), home.yawDegrees - 5.0f);
    EXPECT_LT(std::stof(report.at("pitch")), home.pitchDegrees - 1.0f);
}

// R puts the camera back where the mesh's framing has it, after a drag turned it (the drag's
// last step is known to have reached the viewer: see dragRightAndDown).
TEST(Viewer, RResetsTheViewAfterADrag) {
    DrivableDisplay drivable;
    FACET_REQUIRE_DRIVABLE(drivable);
    const fs::path dir = facet::test::scratchDir("viewer_reset");
    const fs::path cube = writeCube(dir);
    ViewerSession session(*drivable.xdotool, drivable.display.name(), dir, {cube.string()});
    ASSERT_TRUE(session.open("cube.obj"));
    ASSERT_TRUE(session.dragRightAndDown());
    ASSERT_EQ(session.xdo({"key", "r"}), 0);
    ASSERT_TRUE(session.quit());

    const auto report = parseReport(session.report());
    ASSERT_TRUE(report.count("eye") && report.count("yaw") && report.count("pitch")) << session.report();
    const facet::Camera home = facet::Camera::framing(facet::loadObj(cube).mesh, 640.0f / 480.0f);
    glm::vec3 eye;
    std::stringstream(report.at("eye")) >> eye.x >> eye.y >> eye.z;
    EXPECT_LT(glm::length(eye - home.eye), 1e-3f) << report.at("eye");
    EXPECT_NEAR(std::stof(report.at("yaw")), home.yawDegrees, 1e-3f);
    EXPECT_NEAR(std::stof(report.at("pitch")), home.pitchDegrees, 1e-3f);
}

// Shift+Enter in the path field adds the file to the scene (the panel's Add; dropped files
// join the scene the same way): the title names both objects and the report lists them. A file
// that cannot load is reported and leaves the scene as it was; Enter (Open) replaces the scene.
TEST(Viewer, ShiftEnterAddsAFileToTheSceneAndEnterReplacesIt) {
    DrivableDisplay drivable;
    FACET_REQUIRE_DRIVABLE(drivable);
    const fs::path dir = facet::test::scratchDir("viewer_add");
    const fs::path cube = writeCube(dir), far = writeFarCube(dir);
    ViewerSession session(*drivable.xdotool, drivable.display.name(), dir, {cube.string()});
    ASSERT_TRUE(session.open("cube.obj"));
    ASSERT_TRUE(session.typePath(far, [&] { return !session.windowFor("cube.obj, far_cube.obj", 5s).empty(); },
                                 "shift+Return"));

    const fs::path missing = dir / "no_such_mesh.obj";
    const auto reported = [&] {
        const auto end = Clock::now() + 5s;
        while (Clock::now() < end) {
            if (session.errors().find("facet-viewer: " + missing.string()) != std::string::npos) return true;
            std::this_thread::sleep_for(50ms);
        }
        return false;
    };
    ASSERT_TRUE(session.typePath(missing, reported, "shift+Return"));
    EXPECT_FALSE(session.windowFor("cube.obj, far_cube.obj", 5s).empty()) << "the failed add changed the scene";
    ASSERT_TRUE(session.typePath(cube, [&] { return !session.windowFor("cube.obj", 5s).empty(); }));
    ASSERT_TRUE(session.typePath(far, [&] { return !session.windowFor("cube.obj, far_cube.obj", 5s).empty(); },
                                 "shift+Return"));
    ASSERT_TRUE(session.quit());

    const std::string text = session.report();
    EXPECT_EQ(reportedObjects(text), (std::vector<std::string>{"1 shown 12 cube.obj", "2 shown 12 far_cube.obj"}))
        << text;
    const auto report = parseReport(text);
    ASSERT_TRUE(report.count("eye")) << text;
    EXPECT_EQ(report.at("triangles"), "24");
    // Each load frames the whole scene.
    const facet::Camera home =
        facet::sceneFraming(facet::loadScene(std::vector<fs::path>{cube, far}), 640.0f / 480.0f, 60.0f);
    glm::vec3 eye;
    std::stringstream(report.at("eye")) >> eye.x >> eye.y >> eye.z;
    EXPECT_LT(glm::length(eye - home.eye), 1e-3f) << report.at("eye");
}

// F1 hides the panel, and then the scroll wheel (no longer over the panel) speeds the camera
// up by kScrollFactor a notch. Each drag shows the keys and wheel before it were taken in.
TEST(Viewer, F1HidesThePanelAndTheWheelSetsTheSpeed) {
    DrivableDisplay drivable;
    FACET_REQUIRE_DRIVABLE(drivable);
    const fs::path dir = facet::test::scratchDir("viewer_f1_scroll");
    const fs::path cube = writeCube(dir);
    ViewerSession session(*drivable.xdotool, drivable.display.name(), dir, {cube.string()});
    ASSERT_TRUE(session.open("cube.obj"));
    ASSERT_EQ(session.xdo({"key", "F1"}), 0);
    ASSERT_TRUE(session.dragRightAndDown());
    for (int notch = 0; notch < 3; ++notch) ASSERT_EQ(session.xdo({"click", "4"}), 0); // wheel up
    ASSERT_TRUE(session.dragRightAndDown());
    ASSERT_TRUE(session.quit());
    const auto report = parseReport(session.report());
    ASSERT_TRUE(report.count("panel") && report.count("speed")) << session.report();
    EXPECT_EQ(report.at("panel"), "hidden");
    EXPECT_NEAR(std::stof(report.at("speed").substr(report.at("speed").find(' ') + 1)), 1.2f * 1.2f * 1.2f, 1e-4f)
        << session.report();
    EXPECT_EQ(report.at("stages"), "vertex cpu, raster cpu");
}

// Resizing the window resizes the picture: the render size follows the window (times
// --scale 0.25). The drag afterwards shows frames ran at the new size before Esc.
TEST(Viewer, ResizingTheWindowResizesThePicture) {
    DrivableDisplay drivable;
    FACET_REQUIRE_DRIVABLE(drivable);
    const fs::path dir = facet::test::scratchDir("viewer_resize");
    const fs::path cube = writeCube(dir);
    ViewerSession session(*drivable.xdotool, drivable.display.name(), dir, {cube.string()});
    ASSERT_TRUE(session.open("cube.obj"));
    ASSERT_EQ(session.xdo({"windowsize", "--sync", session.window(), "800", "600"}), 0);
    // (400, 300) is now the window's middle, where a drag cannot show it was taken in.
    ASSERT_EQ(session.xdo({"mousemove", "--window", session.window(), "600", "450"}), 0);
    ASSERT_TRUE(session.dragRightAndDown());
    ASSERT_TRUE(session.quit());
    const auto report = parseReport(session.report());
    ASSERT_TRUE(report.count("size")) << session.report();
    EXPECT_EQ(report.at("size").substr(0, report.at("size").find(',')), "200x150") << session.report();
}

// The panel stays reachable: after the window shrinks to 1x1 and grows again, the panel is
// whole inside the window (Dear ImGui alone leaves it pushed off the top left, title bar out of
// reach). How long the window stays at 1x1 is not checked: it only has to be long enough for
// some frames to run there.
TEST(Viewer, PanelStaysInsideTheWindowAfterItShrinksTo1x1) {
    DrivableDisplay drivable;
    FACET_REQUIRE_DRIVABLE(drivable);
    const fs::path dir = facet::test::scratchDir("viewer_panel_1x1");
    const fs::path cube = writeCube(dir);
    ViewerSession session(*drivable.xdotool, drivable.display.name(), dir, {cube.string()});
    ASSERT_TRUE(session.open("cube.obj"));
    ASSERT_EQ(session.xdo({"windowsize", "--sync", session.window(), "1", "1"}), 0);
    std::this_thread::sleep_for(2s);
    ASSERT_EQ(session.xdo({"windowsize", "--sync", session.window(), "640", "480"}), 0);
    // The drag shows frames ran at the new size (see ResizingTheWindowResizesThePicture).
    ASSERT_EQ(session.xdo({"mousemove", "--window", session.window(), "600", "450"}), 0);
    ASSERT_TRUE(session.dragRightAndDown());
    ASSERT_TRUE(session.quit());
    const auto report = parseReport(session.report());
    ASSERT_TRUE(report.count("panel-rect")) << session.report();
    float x = -1, y = -1, w = 0, h = 0;
    std::string in, display;
    std::stringstream(report.at("panel-rect")) >> x >> y >> w >> h >> in >> display;
    EXPECT_EQ(display, "640x480") << session.report();
    EXPECT_GT(w, 100.0f) << session.report();
    EXPECT_GT(h, 100.0f) << session.report();
    EXPECT_GE(x, 0.0f) << "the panel is off the window's left edge: " << session.report();
    EXPECT_GE(y, 0.0f) << "the panel's title bar is off the window's top edge: " << session.report();
    EXPECT_LE(x + w, 640.0f) << session.report();
    EXPECT_LE(y + h, 480.0f) << session.report();
}

// SIGTERM and SIGINT end the viewer as its close button would: status 0, --report printed
// (without a handler either signal kills it and nothing is reported).
TEST(Viewer, SigtermAndSigintEndItCleanlyWithItsReport) {
    DrivableDisplay drivable;
    FACET_REQUIRE_DRIVABLE(drivable);
    for (const int number : {SIGTERM, SIGINT}) {
        SCOPED_TRACE(number == SIGTERM ? "SIGTERM" : "SIGINT");
        const fs::path dir = facet::test::scratchDir("viewer_signal_" + std::to_string(number));
        const fs::path cube = writeCube(dir);
        ViewerSession session(*drivable.xdotool, drivable.display.name(), dir, {cube.string()});
        ASSERT_TRUE(session.open("cube.obj"));
        ASSERT_EQ(::kill(session.viewer().pid(), number), 0);
        const std::optional<int> status = session.viewer().wait(30000ms);
        ASSERT_TRUE(status) << "the viewer did not end within 30 s";
        EXPECT_EQ(*status, 0) << session.errors();
        const auto report = parseReport(session.report());
        ASSERT_TRUE(report.count("frames") && report.count("mesh")) << session.report();
        EXPECT_GT(std::stoi(report.at("frames")), 0);
        EXPECT_EQ(fs::path(report.at("mesh")), cube);
    }
}

// A mesh too large for the memory left is refused before it is parsed, in words naming the
// file, and the viewer keeps the mesh it shows. The file is sparse: 1 GiB long, no disk used.
TEST(Viewer, AMeshTooLargeForTheMemoryLeftIsRefusedAndTheMeshKept) {
#if defined(FACET_TEST_ASAN) || defined(FACET_TEST_TSAN)
    GTEST_SKIP() << "ulimit -v cannot be combined with the sanitizers, whose shadow memory takes terabytes of "
                    "address space";
#endif
    DrivableDisplay drivable;
    FACET_REQUIRE_DRIVABLE(drivable);
    const fs::path dir = facet::test::scratchDir("viewer_memory");
    const fs::path cube = writeCube(dir);
    const fs::path huge = dir / "huge.obj";
    std::ofstream(huge).close();
    fs::resize_file(huge, std::uintmax_t(1) << 30);
    // About 750 MB of address space is the viewer's own (Mesa, threads); 1.5 GB leaves no room
    // for the 4 GiB the file would take.
    ViewerSession session(*drivable.xdotool, drivable.display.name(), dir, {cube.string()},
                          {"sh", "-c", "ulimit -v 1500000 && exec \"$0\" \"$@\""});
    ASSERT_TRUE(session.open("cube.obj"));
    const std::string expected = "facet-viewer: " + huge.string() + ": not enough memory to load this 1024 MiB file";
    const auto refused = [&] {
        const auto end = Clock::now() + 10s;
        while (Clock::now() < end) {
            if (session.errors().find(expected) != std::string::npos) return true;
            std::this_thread::sleep_for(50ms);
        }
        return false;
    };
    ASSERT_TRUE(session.typePath(huge, refused));
    EXPECT_FALSE(session.windowFor("cube.obj", 5s).empty()) << "the refused load replaced the cube";
    ASSERT_TRUE(session.quit());
    EXPECT_EQ(session.errors().find("bad_alloc"), std::string::npos) << session.errors();
    const auto report = parseReport(session.report());
    ASSERT_TRUE(report.count("mesh")) << session.report();
    EXPECT_EQ(fs::path(report.at("mesh")), cube);
    EXPECT_EQ(report.at("triangles"), "12");
}

// ---- The monkey test: random input for a set time ----

// A whole number from the environment, or `fallback` when it is unset or not a number.
long long environmentNumber(const char* name, long long fallback) {
    const char* text = std::getenv(name);
    if (!text || !*text) return fallback;
    char* end = nullptr;
    const long long value = std::strtoll(text, &end, 10);
    return *end == '\0' ? value : fallback;
}

// A field of /proc/PID/status in kB ("VmRSS", "VmHWM"), or -1.
long long processStatusKb(pid_t pid, const std::string& field) {
    std::stringstream in(readText("/proc/" + std::to_string(pid) + "/status"));
    for (std::string line; std::getline(in, line);)
        if (line.rfind(field + ":", 0) == 0) return std::atoll(line.c_str() + field.size() + 1);
    return -1;
}

// Paths the monkey types: meshes that load, files that must be refused with a message (binary,
// empty, a folder, a device, hostile OBJ text) and files that are not there.
std::vector<std::string> monkeyPaths(const fs::path& dir) {
    const fs::path cube = writeCube(dir);
    std::vector<std::string> paths = {
        cube.string(),
        (facet::test::sourceDir() / "assets" / "default_scene" / "scene.obj").string(),
        facet::test::writeFile(dir / "empty.obj", "").string(),
        facet::test::writeFile(dir / "nan.obj", "v nan 0 0\nv 0 inf 0\nv 0 0 1\nf 1 2 3\n").string(),
        facet::test::writeFile(dir / "index.obj", "v 0 0 0\nf 1 2 99999999999999999999\n").string(),
        facet::test::writeFile(dir / "binary.obj", std::string("v 0\0\x01\xff 1 2\n", 12)).string(),
        facet::test::writeFile(dir / "mtl.obj", "mtllib /dev/zero\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").string(),
        facet::test::writeFile(dir / "texture.mtl", "newmtl m\nmap_Kd texture.mtl\n").string(),
        dir.string(),
        "/dev/zero",
        "/dev/null",
        (dir / "missing.obj").string(),
        "/nonexistent/folder/mesh.obj",
        "relative/../../mesh with spaces.obj",
        kViewer.string(),
    };
    const fs::path corpus = facet::test::modelsDir();
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(corpus, ec))
        if (entry.path().extension() == ".obj") paths.push_back(entry.path().string());
    return paths;
}

// Random input through xdotool, every event seeded, counted by kind.
class Monkey {
public:
    Monkey(ViewerSession& session, std::uint64_t seed, std::vector<std::string> paths)
        : session_(session), random_(seed), paths_(std::move(paths)) {}

    // One random event.
    void step() {
        const std::string& w = session_.window();
        switch (pick(12)) {
        case 0: tap(); break;
        case 1: hold(); break;
        case 2: move(w); break;
        case 3: drag(); break;
        case 4: scroll(); break;
        case 5: typePath(); break;
        case 6: resize(); break;
        case 7: minimiseAndRestore(); break;
        case 8: togglePanel(); break;
        case 9: click(); break;
        case 10: focus(w); break;
        default: pause(); break;
        }
    }

    // Back to a window that can be seen: mapped, 640x480.
    void settle() {
        send({"keyup", "w", "shift", "ctrl"});
        send({"mouseup", "1"});
        send({"mouseup", "3"});
        send({"windowmap", session_.window()});
        send({"windowsize", "--sync", session_.window(), "640", "480"});
    }

    std::string counts() const {
        std::string text;
        for (const auto& [kind, n] : counts_) text += kind + " " + std::to_string(n) + ", ";
        return text.substr(0, text.size() - 2);
    }
    int events() const {
        int total = 0;
        for (const auto& entry : counts_) total += entry.second;
        return total;
    }
    // The xdotool commands that failed (input that never reached the window), and the first.
    int failures() const { return failures_; }
    int commands() const { return commands_; }
    const std::string& firstFailure() const { return firstFailure_; }

private:
    enum class Expect { Works, MayFail };

    // One xdotool command; a failure is counted (and the first kept) unless it may fail.
    void send(const std::vector<std::string>& args, Expect expect = Expect::Works) {
        ++commands_;
        if (session_.xdo(args) == 0 || expect == Expect::MayFail) return;
        ++failures_;
        if (firstFailure_.empty()) {
            for (const std::string& a : args) firstFailure_ += a + " ";
            firstFailure_ += "-> " + session_.output();
        }
    }

    int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(random_); }
    std::string number(int low, int high) { return std::to_string(std::uniform_int_distribution<int>(low, high)(random_)); }
    void count(const std::string& kind) { ++counts_[kind]; }

    void move(const std::string& w) {
        count("move");
        // "--": a negative coordinate is not an option (xdotool refused "-2" as one).
        send({"mousemove", "--window", w, "--", number(-50, 700), number(-50, 550)});
    }
    void scroll() {
        count("scroll");
        send({"click", "--repeat", number(1, 5), pick(2) ? "4" : "5"});
    }
    void togglePanel() {
        count("panel toggle");
        send({"key", "F1"});
    }
    void focus(const std::string& w) {
        count("focus");
        send({"windowfocus", w});
    }
    void pause() {
        count("pause");
        std::this_thread::sleep_for(std::chrono::milliseconds(pick(300)));
    }
    void tap() {
        static const char* const keys[] = {"w", "a", "s", "d", "q", "e", "r", "F1", "Tab", "Return", "space",
                                            "BackSpace", "Up", "Down", "Left", "Right", "ctrl+l", "shift+w",
                                            "ctrl+a", "Delete", "Home", "End", "1", "x", "ctrl+v", "F2"};
        count("key");
        send({"key", keys[pick(int(std::size(keys)))]});
    }
    void hold() {
        static const char* const keys[] = {"w", "a", "s", "d", "q", "e", "shift"};
        const std::string key = keys[pick(int(std::size(keys)))];
        count("key hold");
        send({"keydown", key});
        std::this_thread::sleep_for(std::chrono::milliseconds(pick(500)));
        send({"keyup", key});
    }
    void drag() {
        const std::string button = pick(2) ? "1" : "3";
        count(button == "1" ? "left drag" : "right drag");
        send({"mousemove", "--window", session_.window(), number(0, 640), number(0, 480)});
        send({"mousedown", button});
        for (int i = pick(6); i >= 0; --i) send({"mousemove_relative", "--", number(-200, 200), number(-200, 200)});
        send({"mouseup", button});
    }
    void click() {
        count("click");
        send({"mousemove", "--window", session_.window(), number(0, 400), number(0, 480)});
        send({"click", "--repeat", number(1, 2), pick(3) ? "1" : "3"});
    }
    void typePath() {
        count("typed path");
        send({"key", "ctrl+l"});
        std::this_thread::sleep_for(100ms);
        send({"type", "--delay", "5", paths_[std::size_t(pick(int(paths_.size())))]});
        send({"key", "Return"});
    }
    void resize() {
        static const std::pair<const char*, const char*> sizes[] = {{"1", "1"}, {"4096", "2160"}, {"2", "700"},
                                                                    {"900", "1"}, {"640", "480"}};
        count("resize");
        if (pick(2)) {
            const auto& [w, h] = sizes[pick(int(std::size(sizes)))];
            send({"windowsize", session_.window(), w, h});
        } else {
            send({"windowsize", session_.window(), number(1, 4096), number(1, 2160)});
        }
    }
    // There is no window manager to iconify a window: unmapping it is what minimising does.
    void minimiseAndRestore() {
        count("minimise");
        send({"windowminimize", session_.window()}, Expect::MayFail); // no window manager to do it
        send({"windowunmap", session_.window()});
        std::this_thread::sleep_for(std::chrono::milliseconds(pick(400)));
        send({"windowmap", session_.window()});
    }

    ViewerSession& session_;
    std::mt19937_64 random_;
    std::vector<std::string> paths_;
    std::map<std::string, int> counts_;
    int commands_ = 0, failures_ = 0;
    std::string firstFailure_;
};

// The monkey test: random keys, drags, scrolling, clicks on the panel, typed paths (meshes
// that load, hostile files, missing ones), resizes from 1x1 to 4096x2160, minimising and
// restoring, panel toggles, for FACET_MONKEY_SECONDS (default 30). It passes when every xdotool
// command but minimising (no window manager here) reached the window, the viewer never died,
// still answers SIGTERM with its report at the end, drew after it opened, and its peak
// resident memory stayed under FACET_MONKEY_MAX_RSS_MB
// (default 3000, room for AddressSanitizer). FACET_MONKEY_SEED replays a run (each run prints
// its seed).
TEST(Viewer, MonkeyRandomInputForASetTime) {
    DrivableDisplay drivable;
    FACET_REQUIRE_DRIVABLE(drivable);
    const long long seconds = environmentNumber("FACET_MONKEY_SECONDS", 30);
    const long long maxRssMb = environmentNumber("FACET_MONKEY_MAX_RSS_MB", 3000);
    const auto seed = static_cast<std::uint64_t>(
        environmentNumber("FACET_MONKEY_SEED", std::chrono::system_clock::now().time_since_epoch().count() & 0xFFFFFFFF));
    std::cout << "monkey: seed " << seed << " (replay with FACET_MONKEY_SEED=" << seed << "), " << seconds << " s"
              << std::endl;
    SCOPED_TRACE("FACET_MONKEY_SEED=" + std::to_string(seed));

    const fs::path dir = facet::test::scratchDir("viewer_monkey");
    ViewerSession session(*drivable.xdotool, drivable.display.name(), dir, {(dir / "cube.obj").string()});
    Monkey monkey(session, seed, monkeyPaths(dir));
    ASSERT_TRUE(session.open("cube.obj"));
    const pid_t pid = session.viewer().pid();
    const auto start = Clock::now(), end = start + std::chrono::seconds(seconds);
    long long peakKb = 0;
    while (Clock::now() < end) {
        monkey.step();
        peakKb = std::max(peakKb, processStatusKb(pid, "VmHWM"));
        ASSERT_FALSE(session.viewer().wait(0ms)) << "the viewer ended after " << monkey.events()
                                                 << " events (" << monkey.counts() << "): " << session.errors();
    }
    monkey.settle();
    peakKb = std::max(peakKb, processStatusKb(pid, "VmHWM"));
    ASSERT_EQ(::kill(pid, SIGTERM), 0);
    const std::optional<int> status = session.viewer().wait(60000ms);
    const double ran = std::chrono::duration<double>(Clock::now() - start).count();
    ASSERT_TRUE(status) << "the viewer did not answer SIGTERM within 60 s";
    EXPECT_EQ(*status, 0) << session.errors();
    const auto report = parseReport(session.report());
    ASSERT_TRUE(report.count("frames")) << session.report() << session.errors();
    const long long frames = std::atoll(report.at("frames").c_str());
    std::cout << "monkey: " << monkey.events() << " events in " << ran << " s (" << monkey.counts() << "); "
              << frames << " frames; peak RSS " << peakKb / 1024 << " MB" << std::endl;
    EXPECT_EQ(monkey.failures(), 0) << monkey.failures() << " of " << monkey.commands()
                                    << " xdotool commands failed; the first: " << monkey.firstFailure();
    EXPECT_GT(frames, 1) << "the viewer drew nothing after its first frame";
    EXPECT_LT(peakKb / 1024, maxRssMb) << "peak resident memory";
}

// ---- The panel's pose fields (apps/viewer/object_pose.h) ----

glm::vec3 transformed(const glm::mat4& m, glm::vec3 p) { return glm::vec3(m * glm::vec4(p, 1.0f)); }

bool closeTo(const glm::mat4& a, const glm::mat4& b, float tolerance = 1e-5f) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (std::abs(a[c][r] - b[c][r]) > tolerance) return false;
    return true;
}

// Scaled first, then turned about x, y and z in that order, then moved.
TEST(ViewerPose, ComposesScaleThenRotationThenTranslation) {
    using facet::viewer::composePose;
    using facet::viewer::ObjectPose;
    EXPECT_TRUE(closeTo(composePose(ObjectPose{}), glm::mat4(1.0f)));
    const glm::mat4 m = composePose({{1, 2, 3}, {0, 90, 0}, {2, 2, 2}});
    // x scaled to 2, turned 90 degrees about y (x goes to -z), moved.
    EXPECT_LT(glm::length(transformed(m, {1, 0, 0}) - glm::vec3(1, 2, 1)), 1e-5f);
    // About x first: +y goes to +z, which the turn about y then takes to +x (the other order
    // would end at +z).
    const glm::mat4 xThenY = composePose({{0, 0, 0}, {90, 90, 0}, {1, 1, 1}});
    EXPECT_LT(glm::length(transformed(xThenY, {0, 1, 0}) - glm::vec3(1, 0, 0)), 1e-5f);
    // ... and z last: +x, unturned by x and y, goes to +y.
    const glm::mat4 z = composePose({{0, 0, 0}, {0, 0, 90}, {1, 1, 1}});
    EXPECT_LT(glm::length(transformed(z, {1, 0, 0}) - glm::vec3(0, 1, 0)), 1e-5f);
    // Per-axis scale along the object's own axes.
    const glm::mat4 s = composePose({{0, 0, 0}, {0, 0, 0}, {1, 2, 3}});
    EXPECT_LT(glm::length(transformed(s, {1, 1, 1}) - glm::vec3(1, 2, 3)), 1e-6f);
}

// The fields read back from a pose give it back, mirrors and the gimbal lock included.
TEST(ViewerPose, DecomposingGivesThePoseBack) {
    using namespace facet::viewer;
    const std::vector<ObjectPose> poses = {
        {{0, 0, 0}, {0, 0, 0}, {1, 1, 1}},       {{1, -2, 3.5f}, {10, 20, 30}, {2, 2, 2}},
        {{-4, 0, 1}, {-170, 45, 120}, {0.5f, 3, 1}}, {{0, 0, 0}, {30, 90, 0}, {1, 1, 1}},
        {{0, 5, 0}, {30, -90, 0}, {1, 2, 1}},    {{1, 1, 1}, {15, -30, 60}, {-1, 1, 1}},
        {{0, 0, 0}, {0, 0, 0}, {1, -2, 1}},
    };
    for (const ObjectPose& p : poses) {
        const glm::mat4 m = composePose(p);
        const ObjectPose back = decomposePose(m);
        EXPECT_TRUE(closeTo(composePose(back), m, 1e-4f))
            << "rotation " << p.rotationDegrees.x << " " << p.rotationDegrees.y << " " << p.rotationDegrees.z;
    }
    // Away from the lock, the very fields come back.
    const ObjectPose p{{1, -2, 3.5f}, {10, 20, 30}, {2, 0.5f, 1}};
    const ObjectPose back = decomposePose(composePose(p));
    EXPECT_LT(glm::length(back.translation - p.translation), 1e-5f);
    EXPECT_LT(glm::length(back.rotationDegrees - p.rotationDegrees), 1e-3f);
    EXPECT_LT(glm::length(back.scale - p.scale), 1e-5f);
    // The identity reads as zeros, not -0, in the panel.
    const ObjectPose identity = decomposePose(glm::mat4(1.0f));
    EXPECT_FALSE(std::signbit(identity.rotationDegrees.x) || std::signbit(identity.rotationDegrees.y) ||
                 std::signbit(identity.rotationDegrees.z));
}

// A scale typed as 0 (or dragged through it) stays invertible, its sign kept.
TEST(ViewerPose, AScaleOfZeroStaysInvertible) {
    using namespace facet::viewer;
    const glm::vec3 s = invertibleScale({0.0f, -0.0f, std::nanf("")});
    EXPECT_EQ(s.x, kMinScale);
    EXPECT_EQ(s.y, -kMinScale);
    EXPECT_EQ(std::abs(s.z), kMinScale);
    EXPECT_EQ(invertibleScale({2.0f, -3.0f, 1e-5f}), glm::vec3(2.0f, -3.0f, kMinScale));
    EXPECT_NE(glm::determinant(composePose({{0, 0, 0}, {0, 0, 0}, invertibleScale(glm::vec3(0.0f))})), 0.0f);
}

} // namespace
