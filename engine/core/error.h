// facet::Error is the one exception type of the engine: setup code throws it with a message
// that names what failed and where; library code never calls exit().
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace facet {

class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A frame larger than a backend can index or hold (say, more bin entries than the CUDA pipeline's
// 32-bit indices reach): that frame is refused, or drawn by another backend, but the backend is
// not at fault and stays in use.
class LimitError : public Error {
public:
    using Error::Error;
};

// A rejected input file: carries the file and 1-based line (0 when the whole file is at fault).
class ParseError : public Error {
public:
    ParseError(std::string file, std::size_t line, const std::string& what);
    const std::string& file() const noexcept { return file_; }
    std::size_t line() const noexcept { return line_; }

private:
    std::string file_;
    std::size_t line_;
};

[[noreturn]] void throwCheckFailure(const char* expr, const char* file, int line, const std::string& what);

} // namespace facet

// Checked condition for setup code: throws facet::Error naming the expression, file and line.
#define FACET_CHECK(cond, what)                                                   \
    do {                                                                          \
        if (!(cond)) ::facet::throwCheckFailure(#cond, __FILE__, __LINE__, (what)); \
    } while (0)
