#include "core/frame.h"

#include "core/error.h"

#include <string>

namespace facet {

void requireTarget(int width, int height, bool hasBuffers) {
    if (width <= 0 || height <= 0 || !hasBuffers)
        throw Error("render target is empty (" + std::to_string(width) + "x" + std::to_string(height) +
                    "); nothing to draw into");
    if (width > kMaxTargetSide || height > kMaxTargetSide)
        throw Error("a " + std::to_string(width) + "x" + std::to_string(height) + " target is larger than facet draws: at most " +
                    std::to_string(kMaxTargetSide) + " pixels a side");
}

} // namespace facet
