#include "asset/file_write.h"

#include "core/error.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

namespace facet {

namespace {

// Owns a temporary file's descriptor and name: closes it, and removes the file unless it was
// renamed into place.
class TemporaryFile {
public:
    TemporaryFile(int fd, std::filesystem::path path) : fd_(fd), path_(std::move(path)) {}
    ~TemporaryFile() {
        if (fd_ >= 0) ::close(fd_);
        if (!path_.empty()) ::unlink(path_.c_str());
    }
    TemporaryFile(const TemporaryFile&) = delete;
    TemporaryFile& operator=(const TemporaryFile&) = delete;

    int fd() const { return fd_; }
    const std::filesystem::path& path() const { return path_; }
    // close() reports write errors a file system defers (NFS, quotas); -1 with errno set then.
    int close() {
        const int rc = ::close(fd_);
        fd_ = -1;
        return rc;
    }
    void keep() { path_.clear(); }

private:
    int fd_;
    std::filesystem::path path_;
};

[[noreturn]] void fail(const std::filesystem::path& path, std::string_view what, const char* step, int error) {
    throw Error(path.string() + ": cannot write " + std::string(what) + " (" + step + ": " +
                std::strerror(error) + ")");
}

// A new file beside `path`, named after it, the process and a counter so that concurrent
// writers never share one; created with 0666 less the umask, as the final file would be.
TemporaryFile createBeside(const std::filesystem::path& path, std::string_view what) {
    const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
    const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    for (int attempt = 0;; ++attempt) {
        const std::filesystem::path temp =
            dir / ("." + path.filename().string() + "." + std::to_string(::getpid()) + "." +
                   std::to_string(stamp + attempt) + ".tmp");
        const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) return TemporaryFile(fd, temp);
        if (errno != EEXIST || attempt == 100) fail(path, what, "creating a temporary file in its folder", errno);
    }
}

} // namespace

void writeFileAtomically(const std::filesystem::path& path, std::string_view bytes, std::string_view what) {
    if (path.empty() || !path.has_filename()) throw Error("'" + path.string() + "': not a file name");
    TemporaryFile temp = createBeside(path, what);
    for (std::size_t written = 0; written < bytes.size();) {
        const ssize_t n = ::write(temp.fd(), bytes.data() + written, bytes.size() - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) fail(path, what, "writing", n < 0 ? errno : ENOSPC);
        written += static_cast<std::size_t>(n);
    }
    // On disk before the rename, so a crash right after it cannot leave an empty file.
    if (::fsync(temp.fd()) != 0 && errno != EINVAL) fail(path, what, "syncing", errno);
    if (temp.close() != 0) fail(path, what, "closing", errno);
    if (std::rename(temp.path().c_str(), path.c_str()) != 0) fail(path, what, "renaming into place", errno);
    temp.keep();
}

} // namespace facet
