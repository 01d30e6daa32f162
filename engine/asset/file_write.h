// Writing output files whole or not at all: the bytes go to a temporary file beside the final
// one, which is renamed over it only once everything is on disk. A crash, a full disk or a
// killed process never leaves a truncated file under the final name, and a file already there
// stays as it was until the new one is complete.
#pragma once

#include <filesystem>
#include <string_view>

namespace facet {

// Writes `bytes` to `path` atomically (temporary file in the same folder, flushed, synced,
// renamed). `what` names the kind of file in messages ("PNG", "the depth file"). Throws
// facet::Error naming the path and the system's reason (no such folder, permission denied, no
// space left on the device, file too large); the temporary file is removed on failure.
void writeFileAtomically(const std::filesystem::path& path, std::string_view bytes, std::string_view what);

} // namespace facet
