#include "asset/model.h"

namespace facet {

std::string Warning::toString() const {
    return line > 0 ? file + ":" + std::to_string(line) + ": " + message : file + ": " + message;
}

} // namespace facet
