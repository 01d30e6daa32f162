// The layer table of docs/architecture.md, held against the code: every `#include "..."` in the
// engine, the kernels, the apps and the Python module must name a file of its own folder or of
// a folder (or file) its row's "may include" column lists. The table is read from the document
// itself, so the document and the code cannot drift apart unnoticed.
#include "test_support.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

namespace facet {
namespace {

namespace fs = std::filesystem;

// One row of the table: the folder (or files, for `engine/renderer.*`) it speaks for, and the
// paths, relative to the checkout, its files may include besides their own folder's.
struct LayerRow {
    std::string folder;
    std::vector<std::string> allowed;
};

std::string readText(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// The texts between backticks in `text`, in order. (No std::regex: GCC 12's, inlined under
// the sanitizers, trips -Wmaybe-uninitialized inside the standard library.)
std::vector<std::string> backticked(const std::string& text) {
    std::vector<std::string> tokens;
    for (std::size_t open = text.find('`'); open != std::string::npos; open = text.find('`', open)) {
        const std::size_t close = text.find('`', open + 1);
        if (close == std::string::npos) break;
        tokens.push_back(text.substr(open + 1, close - open - 1));
        open = close + 1;
    }
    return tokens;
}

// The name a line's `#include "name"` names; empty for any other line.
std::string quotedInclude(const std::string& line) {
    std::size_t at = line.find_first_not_of(" \t");
    if (at == std::string::npos || line[at] != '#') return {};
    at = line.find_first_not_of(" \t", at + 1);
    if (at == std::string::npos || line.compare(at, 7, "include") != 0) return {};
    at = line.find_first_not_of(" \t", at + 7);
    if (at == std::string::npos || line[at] != '"') return {};
    const std::size_t close = line.find('"', at + 1);
    return close == std::string::npos ? std::string() : line.substr(at + 1, close - at - 1);
}

// A rule's token (`core`, `cpu/simd`, `gl/gl_objects.h`, `renderer.h`, `shaders_cuda`) as a path
// in the checkout: under engine/ first, then at the top.
std::optional<std::string> rulePath(const std::string& token) {
    for (const std::string prefix : {"engine/", ""}) {
        const std::string path = prefix + token;
        if (fs::exists(test::sourceDir() / path)) return path;
    }
    return std::nullopt;
}

// The rows of the table under "## Folders" in docs/architecture.md. A backticked token of the
// last column that names a folder or file of the checkout is a rule; one that looks like a
// path (a '/' or a '.h') and names nothing fails the test, so a typo cannot void a rule.
std::vector<LayerRow> readLayerTable(std::vector<std::string>& problems) {
    const std::string doc = readText(test::sourceDir() / "docs/architecture.md");
    const std::size_t start = doc.find("## Folders");
    std::istringstream lines(doc.substr(start == std::string::npos ? doc.size() : start));
    std::vector<LayerRow> rows;
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("| `", 0) != 0) {
            if (!rows.empty() && line.rfind("|", 0) != 0) break; // the table has ended
            continue;
        }
        const std::size_t firstEnd = line.find('|', 1), lastStart = line.rfind('|', line.size() - 2);
        const std::vector<std::string> folder = backticked(line.substr(1, firstEnd - 1));
        if (folder.empty()) continue;
        LayerRow row{folder.front(), {}};
        for (const std::string& token : backticked(line.substr(lastStart + 1))) {
            if (const auto path = rulePath(token)) row.allowed.push_back(*path);
            else if (token.find('/') != std::string::npos || token.find(".h") != std::string::npos)
                problems.push_back("docs/architecture.md: the row of " + row.folder + " names `" + token +
                                   "`, which is no folder or file of the checkout");
        }
        rows.push_back(row);
    }
    return rows;
}

bool within(const std::string& path, const std::string& folder) {
    if (folder.size() > 2 && folder.compare(folder.size() - 2, 2, ".*") == 0) // `engine/renderer.*`
        return path.rfind(folder.substr(0, folder.size() - 1), 0) == 0 && path.find('/', folder.size() - 2) == std::string::npos;
    return path == folder || path.rfind(folder + "/", 0) == 0;
}

// The row speaking for `path`: the one with the longest folder holding it (engine/cpu/simd's,
// not engine/cpu's, for a file of engine/cpu/simd).
const LayerRow* rowOf(const std::vector<LayerRow>& rows, const std::string& path) {
    const LayerRow* best = nullptr;
    for (const LayerRow& row : rows)
        if (within(path, row.folder) && (!best || row.folder.size() > best->folder.size())) best = &row;
    return best;
}

// Where `#include "name"` in `file` leads: beside the file, else through the include directories
// (apps/ for the apps, engine/, the top); empty where it names no file of the checkout (a
// generated header, e.g. glad's or version.h).
std::string resolveInclude(const std::string& file, const std::string& name) {
    const fs::path root = test::sourceDir();
    std::vector<fs::path> candidates{fs::path(file).parent_path() / name};
    if (within(file, "apps")) candidates.push_back(fs::path("apps") / name);
    candidates.push_back(fs::path("engine") / name);
    candidates.push_back(fs::path(name));
    for (const fs::path& candidate : candidates)
        if (fs::exists(root / candidate)) return candidate.lexically_normal().generic_string();
    return {};
}

TEST(Layers, EveryIncludeFollowsTheArchitectureTable) {
    std::vector<std::string> problems;
    const std::vector<LayerRow> rows = readLayerTable(problems);
    ASSERT_GE(rows.size(), 10u) << "docs/architecture.md's folder table was not found";
    std::size_t checked = 0;
    for (const std::string top : {"engine", "shaders_cuda", "apps", "python/src"}) {
        for (const auto& entry : fs::recursive_directory_iterator(test::sourceDir() / top)) {
            const std::string ext = entry.path().extension().string();
            if (!entry.is_regular_file() || (ext != ".h" && ext != ".cpp" && ext != ".cu" && ext != ".cuh")) continue;
            const std::string file = fs::relative(entry.path(), test::sourceDir()).generic_string();
            const LayerRow* row = rowOf(rows, file);
            if (!row) {
                problems.push_back(file + ": no row of docs/architecture.md's table speaks for it");
                continue;
            }
            std::ifstream in(entry.path());
            int number = 0;
            for (std::string line; std::getline(in, line);) {
                ++number;
                const std::string name = quotedInclude(line);
                if (name.empty()) continue;
                const std::string target = resolveInclude(file, name);
                if (target.empty()) continue;
                ++checked;
                const LayerRow* owner = rowOf(rows, target);
                if (owner == row) continue;
                bool allowed = false;
                for (const std::string& rule : row->allowed) allowed = allowed || within(target, rule);
                if (!allowed)
                    problems.push_back(file + ":" + std::to_string(number) + ": includes " + target + ", but " +
                                       row->folder + " may not include " + (owner ? owner->folder : target) +
                                       " (docs/architecture.md)");
            }
        }
    }
    EXPECT_GT(checked, 200u) << "too few includes were read: is the source tree where FACET_SOURCE_DIR says?";
    std::string all;
    for (const std::string& p : problems) all += "\n  " + p;
    EXPECT_TRUE(problems.empty()) << problems.size() << " includes break the layer table:" << all;
}

} // namespace
} // namespace facet
