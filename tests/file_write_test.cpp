// Output files are written whole or not at all (asset/file_write.h): the final name only ever
// holds a complete file, a failure names the path and the reason, and no temporary file stays.
#include "test_support.h"

#include "asset/file_write.h"
#include "asset/image.h"
#include "core/error.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

std::string contents(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Everything in `dir` but `keep`, in name order: what a write left behind.
std::string strays(const fs::path& dir, const fs::path& keep) {
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.path() != keep) names.insert(entry.path().filename().string());
    std::string found;
    for (const std::string& name : names) found += name + " ";
    return found;
}

// A fresh, empty scratch folder.
fs::path emptyDir(const std::string& name) {
    const fs::path dir = facet::test::scratchDir(name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

std::string messageOf(const fs::path& path, const std::string& bytes) {
    try {
        facet::writeFileAtomically(path, bytes, "the test file");
    } catch (const facet::Error& e) {
        return e.what();
    }
    return "";
}

TEST(FileWrite, ReplacesTheFileWholeAndLeavesNothingElse) {
    const fs::path dir = emptyDir("file_write_replace");
    const fs::path path = dir / "out.bin";
    facet::writeFileAtomically(path, "first", "the test file");
    EXPECT_EQ(contents(path), "first");
    const std::string big(3 << 20, 'x');
    facet::writeFileAtomically(path, big, "the test file");
    EXPECT_EQ(contents(path), big);
    facet::writeFileAtomically(path, "", "the test file");
    EXPECT_TRUE(fs::exists(path));
    EXPECT_EQ(fs::file_size(path), 0u);
    EXPECT_EQ(strays(dir, path), "");
}

TEST(FileWrite, AFolderThatIsMissingOrNotAFolderIsNamedWithTheReason) {
    const fs::path dir = emptyDir("file_write_fail");
    EXPECT_EQ(messageOf(dir / "no_such_folder" / "out.png", "x"),
              (dir / "no_such_folder" / "out.png").string() +
                  ": cannot write the test file (creating a temporary file in its folder: No such file or directory)");
    const fs::path file = facet::test::writeFile(dir / "plain_file", "kept");
    EXPECT_EQ(messageOf(file / "out.png", "x"),
              (file / "out.png").string() +
                  ": cannot write the test file (creating a temporary file in its folder: Not a directory)");
    EXPECT_EQ(contents(file), "kept");
    // A folder in the final name's place: the new file is complete but cannot replace it.
    fs::create_directories(dir / "a_folder");
    EXPECT_NE(messageOf(dir / "a_folder", "x").find("a_folder: cannot write the test file (renaming into place: "),
              std::string::npos);
    EXPECT_EQ(strays(dir, ""), "a_folder plain_file ");
}

// writePng goes through it: an unwritable PNG leaves the file already there as it was.
TEST(FileWrite, PngThatCannotBeWrittenKeepsTheOldFile) {
    const fs::path dir = emptyDir("file_write_png");
    const fs::path kept = facet::test::writeFile(dir / "picture.png", "the old picture");
    facet::writePng(kept, facet::Image{2, 1, {0xFF0000FFu, 0xFF00FF00u}});
    EXPECT_EQ(facet::loadImage(kept).pixels, (std::vector<std::uint32_t>{0xFF0000FFu, 0xFF00FF00u}));
    EXPECT_THROW(facet::writePng(dir / "missing" / "picture.png", facet::Image{1, 1, {0}}), facet::Error);
    EXPECT_EQ(strays(dir, kept), "");
}

} // namespace
