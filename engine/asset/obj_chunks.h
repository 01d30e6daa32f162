// Reading an OBJ on every thread: the text is cut at line ends into chunks, each chunk lexed by
// one thread into an ObjChunk, and the chunks replayed in file order by the OBJ parser, which
// alone resolves indices, de-duplicates corners and warns. The lexer takes only the lines it can
// read without judgement (v, vt, vn with finite numbers, f with well-formed non-zero indices) and
// hands every other line to the replay as text, so a file's errors and warnings stay exactly
// those of reading it line by line on one thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace facet {
class ThreadPool;
}

namespace facet::obj {

// What an entry of ObjChunk::ops stands for.
enum class Op : std::uint32_t {
    positions, // {op, count}: `count` v lines, their xyz next in ObjChunk::positions
    texcoords, // {op, count}: vt lines, uv in ObjChunk::texcoords
    normals,   // {op, count}: vn lines, xyz (as written) in ObjChunk::normals
    faces,     // {op, count}: f lines, each in ObjChunk::faces
    line,      // {op, index}: a line for the replay to read, ObjChunk::lines[index]
};

// A line left to the replay: its text (a logical line: comment cut, continuations joined) and
// its physical line number within the chunk (1-based).
struct ChunkLine {
    std::string_view text;
    std::uint32_t line;
};

// One chunk's statements, in file order.
struct ObjChunk {
    std::vector<std::uint32_t> ops;
    std::vector<float> positions;
    std::vector<float> texcoords;
    std::vector<float> normals;
    // Per face: corner count, line within the chunk, the line's offset and length in the chunk's
    // text (so the replay can read it again when an index is out of range), then per corner the
    // v, vt and vn indices as written (0 where absent; negative ones relative).
    std::vector<std::int32_t> faces;
    std::vector<ChunkLine> lines;
    std::deque<std::string> joined; // continued lines, joined (ChunkLine::text points here)
    std::size_t physicalLines = 0;  // lines the chunk holds

    // Empties the chunk for the next block, keeping its arrays' memory (fresh arrays of this
    // size come from the system page by page, zeroed).
    void clear();
};

// Lexes `text`, which must start at a line start and end at the end of a logical line. With
// `plain` false every line is left to the replay.
void lexChunk(std::string_view text, ObjChunk& chunk, bool plain = true);

// A block of the file (whole logical lines) and its chunks, lexed.
struct ObjBlock {
    std::string text;
    std::vector<std::string_view> pieces; // of text, one per chunk
    std::vector<ObjChunk> chunks;

    std::size_t physicalLines() const;
};

// Cuts block.text into chunks, two per thread, and lexes them on every thread.
void lexBlock(ObjBlock& block, ThreadPool& pool, bool plain);

// Cuts `text` into at most `parts` pieces of about equal size, each ending at the end of a
// logical line (a '\n' not continued by '\').
std::vector<std::string_view> cutAtLines(std::string_view text, std::size_t parts);

// Where the last logical line of `text` ends: just past its '\n'; 0 when no line ends in it.
std::size_t lastLineEnd(std::string_view text);

} // namespace facet::obj
