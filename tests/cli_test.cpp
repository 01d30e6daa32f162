// The flags facet-render and the viewer share (apps/cli.h) set what they name, each component in
// its place: the picture tests draw with the same parser on both sides, so a swapped component
// would pass them.
#include "cli.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace facet {
namespace {

// `flags` through consumeRenderSetting, as the apps' argument loops take them; each must be one.
RenderSettings parsed(std::vector<std::string> flags) {
    flags.insert(flags.begin(), "facet-render");
    std::vector<char*> argv;
    for (std::string& f : flags) argv.push_back(f.data());
    cli::Arguments args(static_cast<int>(argv.size()), argv.data());
    RenderSettings settings;
    for (std::string arg; args.next(arg);) EXPECT_TRUE(cli::consumeRenderSetting(arg, args, settings)) << arg;
    return settings;
}

TEST(Cli, LightFlagsSetEachComponent) {
    const RenderSettings s = parsed({"--shading", "classic", "--headlight", "0.5", "--headlight-color", "0.1,0.2,0.3",
                                     "--ambient", "0.25", "--ambient-color", "0.4,0.5,0.6", "--sun", "1,2,3",
                                     "--sun2", "4,5,6,0.75", "--sun3", "7,8,9,0.125,0.7,0.8,0.9"});
    EXPECT_EQ(s.shading, ShadingModel::Classic);
    const Lights& l = s.lights;
    EXPECT_EQ(l.headlight, 0.5f);
    EXPECT_EQ(l.headlightColor, glm::vec3(0.1f, 0.2f, 0.3f));
    EXPECT_EQ(l.ambient, 0.25f);
    EXPECT_EQ(l.ambientColor, glm::vec3(0.4f, 0.5f, 0.6f));
    // --sun keeps the default light's intensity and colour where the flag leaves them out.
    EXPECT_EQ(l.directional[0].direction, glm::vec3(1.0f, 2.0f, 3.0f));
    EXPECT_EQ(l.directional[0].intensity, Lights{}.directional[0].intensity);
    EXPECT_EQ(l.directional[0].color, Lights{}.directional[0].color);
    // An unlit light given a direction alone comes on at 0.5.
    EXPECT_EQ(l.directional[1].direction, glm::vec3(4.0f, 5.0f, 6.0f));
    EXPECT_EQ(l.directional[1].intensity, 0.75f);
    EXPECT_EQ(l.directional[1].color, glm::vec3(1.0f));
    EXPECT_EQ(l.directional[2].direction, glm::vec3(7.0f, 8.0f, 9.0f));
    EXPECT_EQ(l.directional[2].intensity, 0.125f);
    EXPECT_EQ(l.directional[2].color, glm::vec3(0.7f, 0.8f, 0.9f));
    EXPECT_EQ(parsed({"--sun2", "0,1,0"}).lights.directional[1].intensity, 0.5f);
}

TEST(Cli, PictureFlagsSetWhatTheyName) {
    const RenderSettings s = parsed({"--filter", "nearest", "--cull", "back", "--light", "--msaa", "4",
                                     "--alpha-to-coverage", "--background", "0.2,0.4,0.6,0"});
    EXPECT_EQ(s.filter, TextureFilter::Nearest);
    EXPECT_EQ(s.cull, CullMode::Back);
    EXPECT_TRUE(s.headlight);
    EXPECT_EQ(s.msaa, 4);
    EXPECT_TRUE(s.alphaToCoverage);
    EXPECT_EQ(s.clearColor, 0x00996633u) << "R in the low byte: 51, 102, 153, alpha 0";
    EXPECT_EQ(parsed({"--background", "1,0.5,0"}).clearColor, 0xFF0080FFu) << "alpha 1 when left out";
    EXPECT_EQ(RenderSettings{}.shading, ShadingModel::Lit) << "lit is the default";
}

TEST(Cli, BackgroundOutsideZeroToOneIsRefusedNamingIt) {
    // What each refusal names: the whole value, or the part that is not a number.
    for (const auto& [bad, named] : std::vector<std::pair<std::string, std::string>>{
             {"1,0", "'1,0'"}, {"0,0,0,0,0", "'0,0,0,0,0'"}, {"1.5,0,0", "'1.5,0,0'"}, {"0,-0.1,0", "'0,-0.1,0'"},
             {"0,0,nan", "'nan'"}}) {
        try {
            parsed({"--background", bad});
            ADD_FAILURE() << bad << " was taken";
        } catch (const cli::UsageError& e) {
            EXPECT_EQ(std::string(e.what()).rfind("--background", 0), 0u) << e.what();
            EXPECT_NE(std::string(e.what()).find(named), std::string::npos) << e.what();
        }
    }
}

} // namespace
} // namespace facet
