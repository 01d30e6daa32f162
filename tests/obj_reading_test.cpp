// How an OBJ is read never changes what is read: the parallel lexer (asset/obj_chunks.h), the
// number of threads and the size of the blocks the file comes in give the model, warnings and
// errors that reading every line on one thread gives, for the corpus and for a file made to
// hold every kind of line the lexer passes on, cut at every kind of place.
#include "asset/obj_corners.h"
#include "asset/obj_loader.h"
#include "asset/text_file.h"
#include "core/error.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <tuple>
#include <random>
#include <sstream>

namespace facet {
namespace {

namespace fs = std::filesystem;

// Everything a load returns, as text a failing comparison can show, or the error it gave.
std::string describe(const fs::path& path, const ObjLoadOptions& options) {
    std::ostringstream out;
    try {
        const Model model = loadObj(path, options);
        const Mesh& m = model.mesh;
        const auto floats = [&](const char* name, const std::vector<float>& v) {
            out << name << ' ' << v.size();
            for (const float f : v) {
                std::uint32_t bits = 0;
                std::memcpy(&bits, &f, 4);
                out << ' ' << bits;
            }
            out << '\n';
        };
        for (const auto& [name, v] : {std::pair{"px", &m.px}, {"py", &m.py}, {"pz", &m.pz}, {"u", &m.u}, {"v", &m.v},
                                      {"nx", &m.nx}, {"ny", &m.ny}, {"nz", &m.nz}, {"cr", &m.cr}, {"cg", &m.cg},
                                      {"cb", &m.cb}, {"tx", &m.tx}, {"ty", &m.ty}, {"tz", &m.tz}, {"tw", &m.tw}})
            floats(name, *v);
        out << "indices";
        for (const std::uint32_t i : m.indices) out << ' ' << i;
        out << "\nranges";
        for (const MaterialRange& r : m.ranges) out << ' ' << r.firstTriangle << '+' << r.triangleCount << ':' << r.material;
        out << "\ncounts " << model.fileCounts.positions << ' ' << model.fileCounts.texcoords << ' '
            << model.fileCounts.normals << ' ' << model.fileCounts.faces << " texcoords " << m.hasTexCoords << '\n';
        for (const Material& material : model.materials) out << "material " << material.name << ' ' << material.texture << '\n';
        out << "textures " << model.textures.size() << '\n';
        for (const Warning& w : model.warnings) out << "warning " << w.toString() << '\n';
    } catch (const std::exception& e) {
        out << "error " << e.what() << '\n';
    }
    return out.str();
}

ObjLoadOptions reference() {
    ObjLoadOptions o;
    o.lexInParallel = false;
    o.threads = 1;
    return o;
}

// The ways of reading the tests hold to the reference; `small` cuts nearly every line of a
// small file.
std::vector<std::pair<std::string, ObjLoadOptions>> ways(std::size_t small) {
    std::vector<std::pair<std::string, ObjLoadOptions>> w;
    w.emplace_back("default", ObjLoadOptions{});
    ObjLoadOptions one;
    one.threads = 1;
    w.emplace_back("one thread", one);
    ObjLoadOptions cut;
    cut.threads = 3;
    cut.blockBytes = small; // and grows for longer lines
    w.emplace_back(std::to_string(small) + "-byte blocks, 3 threads", cut);
    ObjLoadOptions serialSmall = reference();
    serialSmall.blockBytes = small + 36;
    w.emplace_back("reference in " + std::to_string(small + 36) + "-byte blocks", serialSmall);
    return w;
}

void expectSameEveryWay(const fs::path& path) {
    const std::string expected = describe(path, reference());
    // (Large files in blocks of a few lines would only take long.)
    for (const auto& [name, options] : ways(fs::file_size(path) > 100000 ? 4093 : 61)) {
        const std::string got = describe(path, options);
        EXPECT_TRUE(got == expected) << path << " read " << name << " differs from the one-thread reading:\n"
                                     << got.substr(0, 2000) << "\nexpected:\n"
                                     << expected.substr(0, 2000);
    }
}

// A float written the ways exporters write them, some of which the lexer must pass on.
std::string number(std::mt19937& random, bool withErrors) {
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    const double x = unit(random) * std::pow(10.0, std::uniform_int_distribution<int>(-3, 4)(random));
    char text[64];
    switch (std::uniform_int_distribution<int>(0, 59)(random)) {
    case 0: std::snprintf(text, sizeof text, "%.3e", x); break;
    case 1: std::snprintf(text, sizeof text, "+%.4f", std::fabs(x)); break;
    case 2: return "1.#IND";
    case 3: return std::uniform_int_distribution<int>(0, 1)(random) ? "1e39" : "-1e-41"; // out of range, subnormal
    case 4: return std::uniform_int_distribution<int>(0, 1)(random) ? "1e-50" : "-0";
    case 5: return ".5";
    case 6: return "5.";
    case 7: std::snprintf(text, sizeof text, "%.17g", x); break;
    case 8: // hex: not a number in OBJ, so an error (rarely, to come late in the file)
        std::snprintf(text, sizeof text, withErrors && std::uniform_int_distribution<int>(0, 99)(random) == 0 ? "%a" : "%g", x);
        break;
    default: std::snprintf(text, sizeof text, "%.6g", x); break;
    }
    return text;
}

// A file with every kind of statement, plain and not, so that small blocks cut everywhere.
std::string mixedObj(unsigned seed, bool withErrors) {
    std::mt19937 random(seed);
    std::ostringstream obj;
    obj << "# mixed\nmtllib mixed.mtl\n";
    int positions = 0, texcoords = 0, normals = 0;
    const auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(random); };
    for (int line = 0; line < 3000; ++line) {
        switch (pick(16)) {
        case 0: case 1: case 2: case 3:
            obj << "v " << number(random, withErrors) << ' ' << number(random, withErrors)
                << (pick(7) == 0 ? " \\\n" : pick(3) ? "\t" : "  ") // a continued line
                << number(random, withErrors);
            if (pick(40) == 0) obj << " 0.5 0.25 " << (pick(2) ? "2" : "0.75"); // a colour, once out of range
            obj << (pick(20) == 0 ? "\t# a comment\n" : withErrors && pick(300) == 0 ? "#not a comment\n" : "\n");
            ++positions;
            break;
        case 4:
            obj << "vt " << number(random, withErrors) << ' ' << number(random, withErrors) << (pick(4) ? "\n" : " 0\n");
            ++texcoords;
            break;
        case 5:
            obj << "vn " << (pick(30) ? number(random, withErrors) : "0") << ' ' << (pick(30) ? number(random, withErrors) : "0") << ' '
                << (pick(30) ? number(random, withErrors) : "0") << "\r\n";
            ++normals;
            break;
        case 6: obj << (pick(2) ? "usemtl red\n" : pick(2) ? "usemtl missing\n" : "g part # comment\n"); break;
        case 7: obj << (pick(2) ? "s 1\n" : pick(2) ? "o thing\n" : "\n# only a comment\n"); break;
        case 8: obj << (pick(2) ? "l 1 2\n" : "frobnicate 3\n"); break;
        default: {
            if (positions < 3) break;
            const int corners = pick(4) == 0 ? 3 + pick(5) : 3;
            obj << (pick(9) == 0 ? "f\t" : "f ");
            for (int c = 0; c < corners; ++c) {
                const bool relative = pick(5) == 0;
                const int p = 1 + pick(positions);
                obj << (relative ? -(positions - p + 1) : p);
                const int form = pick(4);
                if (form >= 1) obj << '/' << (texcoords > 0 && form != 2 ? std::to_string(1 + pick(texcoords + (pick(200) == 0))) : "");
                if (form >= 2) obj << '/' << (normals > 0 ? std::to_string(1 + pick(normals + (pick(200) == 0))) : "");
                obj << ' ';
            }
            if (withErrors && pick(1500) == 0) obj << (pick(2) ? "1/2/3/4" : "x");
            obj << (pick(20) == 0 ? "# a comment\n" : pick(20) == 0 ? "\r\n" : "\n");
        }
        }
    }
    return obj.str();
}

TEST(ObjReading, TheCorpusReadsTheSameEveryWay) {
    const fs::path dir = test::modelsDir();
    if (!fs::exists(dir)) FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_CORPUS", "no corpus at " << dir);
    std::size_t files = 0;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
        if (entry.path().extension() != ".obj") continue;
        expectSameEveryWay(entry.path());
        ++files;
    }
    EXPECT_GE(files, 30u);
    expectSameEveryWay(test::sourceDir() / "assets" / "material_scene" / "scene.obj");
}

TEST(ObjReading, AFileWithEveryKindOfLineReadsTheSameEveryWay) {
    const fs::path dir = test::scratchDir("obj_reading");
    test::writeFile(dir / "mixed.mtl", "newmtl red\nKd 1 0 0\n");
    for (unsigned seed = 1; seed <= 4; ++seed) {
        const fs::path path = test::writeFile(dir / ("mixed" + std::to_string(seed) + ".obj"), mixedObj(seed, seed > 2));
        SCOPED_TRACE(path.string());
        expectSameEveryWay(path);
        if (seed <= 2) {
            EXPECT_EQ(describe(path, {}).find("error"), std::string::npos) << "meant to load";
        }
    }
}

TEST(ObjReading, ANulByteInALaterBlockNamesItsLine) {
    std::string text;
    for (int i = 0; i < 400; ++i) text += "v 1 2 3\n";
    text += "v 1 2 ";
    text += '\0'; // on line 401
    text += " 3\n";
    const fs::path path = test::writeFile(test::scratchDir("obj_reading") / "nul.obj", text);
    ObjLoadOptions options;
    options.blockBytes = 100;
    try {
        loadObj(path, options);
        FAIL() << "a NUL byte was read as text";
    } catch (const ParseError& e) {
        EXPECT_NE(std::string(e.what()).find(":401:"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("binary file"), std::string::npos) << e.what();
    }
}

// Decimals as exporters write them, read by the lexer's own short path or fast_float, give the
// bits std::from_chars gives (the reference reads every line with it): digits before and after
// the point, leading and trailing zeros, signs, around the short path's limits (7 significant
// digits, 10 after the point).
TEST(ObjReading, DecimalsReadAsFromCharsReadsThem) {
    std::mt19937 random(11);
    const auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(random); };
    const auto decimal = [&] {
        std::string text = pick(2) ? "-" : "";
        const int before = pick(5), after = pick(13);
        for (int i = 0; i < before; ++i) text += char('0' + pick(10));
        if (after > 0 || before == 0 || pick(4) == 0) text += '.';
        for (int i = 0; i < after || text.back() == '.' || text == "-"; ++i) text += char('0' + pick(10));
        return text;
    };
    std::string obj;
    for (int i = 0; i < 30000; ++i) obj += "v " + decimal() + ' ' + decimal() + ' ' + decimal() + '\n';
    for (int v = 1; v <= 30000; v += 3) // (a model holds only the vertices faces use)
        obj += "f " + std::to_string(v) + ' ' + std::to_string(v + 1) + ' ' + std::to_string(v + 2) + '\n';
    const fs::path path = test::writeFile(test::scratchDir("obj_reading") / "decimals.obj", obj);
    const std::string expected = describe(path, reference());
    EXPECT_EQ(expected.find("error"), std::string::npos) << expected.substr(0, 300);
    EXPECT_TRUE(describe(path, ObjLoadOptions{}) == expected) << "the lexer's numbers differ from from_chars'";
}

// Vertices are numbered by the first corner naming them, however many triples share a position
// (past CornerMap's chain of 16, its hash table takes over).
TEST(ObjReading, CornersAreNumberedInTheOrderFirstNamed) {
    std::mt19937 random(7);
    obj::CornerMap map;
    std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::uint32_t> expected;
    for (int i = 0; i < 200000; ++i) {
        // Position 0 with hundreds of triples; the others with a few; some corners without vt or vn.
        const std::uint32_t p = i % 3 == 0 ? 0 : std::uniform_int_distribution<std::uint32_t>(0, 5000)(random);
        const std::uint32_t t = std::uniform_int_distribution<std::uint32_t>(0, p == 0 ? 400 : 3)(random);
        const std::uint32_t n = i % 5 == 0 ? obj::kAbsent : std::uniform_int_distribution<std::uint32_t>(0, 1)(random);
        const auto [it, added] = expected.emplace(std::make_tuple(p, t, n), std::uint32_t(expected.size()));
        ASSERT_EQ(map.findOrInsert(obj::Corner{p, t, n}), it->second) << "corner " << i;
    }
    ASSERT_EQ(map.vertices().size(), expected.size());
    for (const auto& [key, vertex] : expected) {
        const obj::Corner& c = map.vertices()[vertex];
        EXPECT_TRUE(c.p == std::get<0>(key) && c.t == std::get<1>(key) && c.n == std::get<2>(key)) << vertex;
    }
}

// The viewer's progress bar: the share read reaches 1 when the load ends, block by block.
TEST(ObjReading, ProgressReachesOneAtTheEnd) {
    const fs::path dir = test::scratchDir("obj_reading");
    test::writeFile(dir / "mixed.mtl", "newmtl red\nKd 1 0 0\n");
    const fs::path path = test::writeFile(dir / "progress.obj", mixedObj(1, false));
    std::atomic<float> progress{0.0f};
    ObjLoadOptions options;
    options.blockBytes = 4096;
    options.progress = &progress;
    loadObj(path, options);
    EXPECT_EQ(progress.load(), 1.0f);
}

// A file that grows or shrinks between two blocks is an error, not a crash or a torn model.
TEST(ObjReading, AFileThatChangesWhileReadIsAnError) {
    const fs::path path = test::scratchDir("obj_reading") / "changing.obj";
    for (const bool grow : {true, false}) {
        std::string text;
        for (int i = 0; i < 20000; ++i) text += "v 1 2 3\n"; // far more than stdio's buffer
        test::writeFile(path, text);
        TextBlocks blocks(path, [](std::string_view t) { return t.rfind('\n') + 1; }, 4096);
        std::string block;
        ASSERT_TRUE(blocks.next(block, 0));
        if (grow) {
            std::ofstream(path, std::ios::app) << "v 4 5 6\n";
        } else {
            fs::resize_file(path, 10000);
        }
        try {
            while (blocks.next(block, 0)) {
            }
            FAIL() << (grow ? "growing" : "shrinking") << " went unnoticed";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("changed while it was read"), std::string::npos) << e.what();
        }
    }
}

} // namespace
} // namespace facet
