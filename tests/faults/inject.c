/* Faults for tests/faults/run.sh, loaded with LD_PRELOAD into calib: writes to regular files (not
 * stdout or stderr) stop after a number of bytes, as on a full disk or under a kill.
 *   CALIB_FAULT_FULL_AFTER=N   writes succeed for N bytes in all, then fail with ENOSPC
 *   CALIB_FAULT_KILL_AFTER=N   the process kills itself with SIGKILL once N bytes are written
 *   CALIB_FAULT_FSYNC=1        fsync fails with EIO (an error the disk reports only at the end)
 * Counts cover every regular file the process writes, in order. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static long long budget(const char* name) {
    const char* text = getenv(name);
    return text ? atoll(text) : -1;
}

static int regular(int fd) {
    struct stat status;
    return fd > 2 && fstat(fd, &status) == 0 && S_ISREG(status.st_mode);
}

static long long written;

ssize_t write(int fd, const void* data, size_t size) {
    static ssize_t (*real)(int, const void*, size_t);
    if (!real) real = (ssize_t(*)(int, const void*, size_t))dlsym(RTLD_NEXT, "write");
    if (!regular(fd)) return real(fd, data, size);
    const long long full = budget("CALIB_FAULT_FULL_AFTER"), kill_at = budget("CALIB_FAULT_KILL_AFTER");
    long long allowed = (long long)size;
    if (full >= 0 && written + allowed > full) allowed = full - written;
    if (kill_at >= 0 && written + allowed > kill_at) allowed = kill_at - written;
    if (allowed < 0) allowed = 0;
    ssize_t done = allowed > 0 ? real(fd, data, (size_t)allowed) : 0;
    if (done > 0) written += done;
    if (kill_at >= 0 && written >= kill_at) raise(SIGKILL);
    if (done == 0 && size > 0) {
        errno = ENOSPC;
        return -1;
    }
    return done;
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    if (regular(fd) && getenv("CALIB_FAULT_FSYNC")) {
        errno = EIO;
        return -1;
    }
    return real(fd);
}
