// write_file, check_writable and check_not_an_input (io.hpp): every file calib writes is replaced whole or
// not at all, and never one that the same command reads.
//
// A regular target is written to a temporary file beside it ("<name>.calib-partial-<pid>-<k>",
// created with O_EXCL so that the umask applies and no other file is touched), every write checked,
// fsync'ed, closed and checked, then renamed over the target; a failure removes the temporary file and
// leaves the target as it was. rename() within one directory is atomic on POSIX file systems, so a
// reader (or a crash) sees the old file or the new one, never a mixture. A kill between the two leaves
// the partial file: the next write to the same target removes the partial files of processes that
// no longer exist.
#include <calib/errors.hpp>
#include <calib/io.hpp>

#include "io/numeric_table.hpp"

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>

namespace calib {

namespace {

const std::string partial_marker = ".calib-partial-";

[[noreturn]] void fail(const std::string& path, const std::string& what) {
    throw invalid_argument(detail::display_path(path) + ": cannot be written: " + what);
}

[[noreturn]] void fail_errno(const std::string& path, int error, const std::string& suffix = "") {
    fail(path, std::strerror(error) + suffix);
}

std::string directory_of(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

std::string name_of(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The file a path names after following symbolic links (a link's target is the file updated; the
// link stays). A dangling link names the file it would create.
std::string follow_links(std::string path) {
    for (int depth = 0; depth < 40; ++depth) {
        struct stat status;
        if (::lstat(path.c_str(), &status) != 0 || !S_ISLNK(status.st_mode)) return path;
        std::string target(PATH_MAX, '\0');
        const ssize_t length = ::readlink(path.c_str(), target.data(), target.size());
        if (length < 0) fail_errno(path, errno);
        target.resize(static_cast<std::size_t>(length));
        path = target.front() == '/' ? target : directory_of(path) + "/" + target;
    }
    fail(path, "too many levels of symbolic links");
}

struct Target {
    std::string path;  // after following links
    bool exists = false, regular = false;
    struct stat status {};
};

Target inspect(const std::string& given) {
    if (given.empty()) fail(given, "empty file name");
    Target target;
    target.path = follow_links(given);
    if (::stat(target.path.c_str(), &target.status) == 0) {
        target.exists = true;
        target.regular = S_ISREG(target.status.st_mode);
        if (S_ISDIR(target.status.st_mode)) fail(given, "it is a directory");
        // Root may write anywhere: a file without any write permission is still taken as the user's
        // wish that it stay as it is.
        if (target.regular && (::access(target.path.c_str(), W_OK) != 0 || (target.status.st_mode & 0222) == 0))
            fail(given, "the file is read-only (it was left unchanged)");
    } else if (errno != ENOENT) {
        fail_errno(given, errno);
    }
    return target;
}

// A new, empty temporary file beside the target, open for writing.
int create_partial(const Target& target, const std::string& given, std::string& partial) {
    static std::atomic<unsigned> counter{0};
    const std::string stem = directory_of(target.path) + "/" + name_of(target.path) + partial_marker +
                             std::to_string(::getpid()) + "-";
    for (int attempt = 0; attempt < 100; ++attempt) {
        partial = stem + std::to_string(counter++);
        const int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) return fd;
        if (errno != EEXIST)
            fail_errno(given, errno, errno == ENOENT ? " (the folder " + detail::display_path(directory_of(target.path)) +
                                                           " does not exist)"
                                                     : "");
    }
    fail(given, "no free temporary name beside it");
}

// Partial files of this target left by processes that were killed while writing it.
void remove_stale_partials(const Target& target) {
    const std::string prefix = name_of(target.path) + partial_marker;
    DIR* directory = ::opendir(directory_of(target.path).c_str());
    if (!directory) return;
    while (const dirent* entry = ::readdir(directory)) {
        const std::string name = entry->d_name;
        if (name.compare(0, prefix.size(), prefix) != 0) continue;
        const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
        if (pid > 0 && pid != ::getpid() && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
            ::unlink((directory_of(target.path) + "/" + name).c_str());
    }
    ::closedir(directory);
}

// 0 on success, else the errno of the failed write.
int write_all(int fd, std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t written = ::write(fd, bytes.data(), bytes.size());
        if (written < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        if (written == 0) return ENOSPC;
        bytes.remove_prefix(static_cast<std::size_t>(written));
    }
    return 0;
}

// A device or a FIFO is written through, never replaced.
void write_through(const Target& target, const std::string& given, std::string_view bytes) {
    const int fd = ::open(target.path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) fail_errno(given, errno);
    const int error = write_all(fd, bytes);
    if (::close(fd) != 0 && error == 0) fail_errno(given, errno);
    if (error != 0) fail_errno(given, error);
}

}  // namespace

void check_writable(const std::string& path) {
    const Target target = inspect(path);
    if (target.exists && !target.regular) {
        // Not opened: a FIFO's reader would see the end of its data at our close.
        if (::access(target.path.c_str(), W_OK) != 0) fail_errno(path, errno);
        return;
    }
    std::string partial;
    ::close(create_partial(target, path, partial));
    ::unlink(partial.c_str());
}

void check_not_an_input(const FileOption& output, const std::vector<FileOption>& inputs) {
    struct stat written;
    if (output.path == "-" || ::stat(output.path.c_str(), &written) != 0 || !S_ISREG(written.st_mode)) return;
    for (const FileOption& input : inputs) {
        struct stat read;
        const int found = input.path == "-" ? ::fstat(STDIN_FILENO, &read) : ::stat(input.path.c_str(), &read);
        if (found != 0 || !S_ISREG(read.st_mode) || read.st_dev != written.st_dev || read.st_ino != written.st_ino) continue;
        throw invalid_argument("`" + output.option + "` " + detail::display_path(output.path) + " is the same file as `" +
                               input.option + "` " + detail::display_path(input.path) +
                               ": calib never writes over a file it reads (it was left unchanged); give `" +
                               output.option + "` another file");
    }
}

void write_file(const std::string& path, std::string_view bytes) {
    const Target target = inspect(path);
    if (target.exists && !target.regular) return write_through(target, path, bytes);
    remove_stale_partials(target);
    std::string partial;
    const int fd = create_partial(target, path, partial);
    int error = write_all(fd, bytes);
    if (error == 0 && target.exists) {
        // The replaced file's permissions and owner where the file system and our rights allow; if
        // not, the new file keeps ours, as a new file would.
        if (::fchown(fd, target.status.st_uid, target.status.st_gid) != 0) {}
        if (::fchmod(fd, target.status.st_mode & 07777) != 0) {}
    }
    if (error == 0 && ::fsync(fd) != 0) error = errno;
    if (::close(fd) != 0 && error == 0) error = errno;
    if (error == 0 && ::rename(partial.c_str(), target.path.c_str()) != 0) error = errno;
    if (error != 0) {
        ::unlink(partial.c_str());
        fail_errno(path, error, target.exists ? " (the previous file is unchanged)" : "");
    }
    // The rename itself reaches the disk with the directory.
    const int directory = ::open(directory_of(target.path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (directory >= 0) {
        ::fsync(directory);
        ::close(directory);
    }
}

}  // namespace calib
