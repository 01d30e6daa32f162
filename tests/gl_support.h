// What the tests of the OpenGL reference share: whether a context can be had here, asked once.
#pragma once

#include "gl/gl_reference.h"
#include "test_support.h"

namespace facet {

inline const GlAvailability& glAvailability() {
    static const GlAvailability availability = GlReferenceRenderer::probe();
    return availability;
}

} // namespace facet

// Skipped without OpenGL, failed instead under FACET_REQUIRE_GL=1 (scripts/test.sh), where a
// probe failing means facet's GL context code or the installed Mesa broke.
#define FACET_REQUIRE_GL()                                                                                              \
    do {                                                                                                                \
        if (!::facet::glAvailability().usable)                                                                          \
            FACET_SKIP_UNLESS_REQUIRED("FACET_REQUIRE_GL",                                                              \
                                       "OpenGL unusable: " + ::facet::glAvailability().reason);                         \
    } while (0)
