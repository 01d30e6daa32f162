#include "core/error.h"

namespace facet {

static std::string located(const std::string& file, std::size_t line, const std::string& what) {
    return line > 0 ? file + ":" + std::to_string(line) + ": " + what : file + ": " + what;
}

ParseError::ParseError(std::string file, std::size_t line, const std::string& what)
    : Error(located(file, line, what)), file_(std::move(file)), line_(line) {}

void throwCheckFailure(const char* expr, const char* file, int line, const std::string& what) {
    throw Error(what + " (" + expr + " failed at " + file + ":" + std::to_string(line) + ")");
}

} // namespace facet
