// iofault: an LD_PRELOAD library that counts, and can fail, every file-system call a process
// makes on one folder (the data folder of the command under test), whatever thread or library
// makes it. The fault-space search (scripts/fault-space.sh) runs each command once to list the
// calls, then once per call and fault: that call fails with an errno, or the process is killed
// just before or just after it.
//
// Environment:
//   IOFAULT_DIR   the folder, an absolute path without a trailing slash (required)
//   IOFAULT_LOG   a file to which one line is appended per counted call:
//                 "<n> <call> <path or fd path> <result> <errno>"
//   IOFAULT_AT    the number of the call to act on (1 = the first counted call)
//   IOFAULT_KIND  ENOSPC | EIO | EACCES (the call fails with that errno, doing nothing),
//                 KILL_BEFORE (SIGKILL before the call), KILL_AFTER (SIGKILL once it returned)
//
// Built by the script with `cc -shared -fPIC -O1 -o iofault.so iofault.c -ldl`; never part of the
// package, never loaded by anything but the search.
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#define MAX_FDS 65536

static char folder[4096];
static size_t folder_length;
static int log_fd = -1;
static long fault_at = 0;
static int fault_errno = 0;
static int fault_kill = 0;  // 1 before, 2 after
static long counter = 0;
static unsigned char tracked[MAX_FDS];
static int ready = 0;

__attribute__((constructor)) static void iofault_init(void) {
    const char *dir = getenv("IOFAULT_DIR");
    if (dir == NULL || dir[0] != '/' || strlen(dir) >= sizeof(folder)) return;
    strcpy(folder, dir);
    folder_length = strlen(folder);
    while (folder_length > 1 && folder[folder_length - 1] == '/') folder[--folder_length] = 0;
    const char *log = getenv("IOFAULT_LOG");
    if (log != NULL) log_fd = (int)syscall(SYS_open, log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    const char *at = getenv("IOFAULT_AT");
    if (at != NULL) fault_at = strtol(at, NULL, 10);
    const char *kind = getenv("IOFAULT_KIND");
    if (kind != NULL) {
        if (strcmp(kind, "ENOSPC") == 0) fault_errno = ENOSPC;
        else if (strcmp(kind, "EIO") == 0) fault_errno = EIO;
        else if (strcmp(kind, "EACCES") == 0) fault_errno = EACCES;
        else if (strcmp(kind, "KILL_BEFORE") == 0) fault_kill = 1;
        else if (strcmp(kind, "KILL_AFTER") == 0) fault_kill = 2;
    }
    ready = 1;
}

static int in_folder(const char *path) {
    if (!ready || path == NULL || path[0] != '/') return 0;
    if (strncmp(path, folder, folder_length) != 0) return 0;
    return path[folder_length] == 0 || path[folder_length] == '/';
}

static int fd_tracked(int fd) { return ready && fd >= 0 && fd < MAX_FDS && __atomic_load_n(&tracked[fd], __ATOMIC_ACQUIRE); }

static void track(int fd, int on) {
    if (fd >= 0 && fd < MAX_FDS) __atomic_store_n(&tracked[fd], (unsigned char)on, __ATOMIC_RELEASE);
}

// A relative path is ours when its folder descriptor is, or when the descriptor's folder joined
// with the path names the folder or something below it (the folder opened from its parent, as a
// walk that checks each step does); an absolute one when it is below the folder.
static int at_in_folder(int dirfd, const char *path) {
    if (path == NULL) return fd_tracked(dirfd);
    if (path[0] == '/') return in_folder(path);
    if (dirfd == AT_FDCWD) return 0;
    if (fd_tracked(dirfd)) return 1;
    if (!ready || path[0] == 0 || (path[0] == '.' && path[1] == 0)) return 0;
    char link[64], joined[4200];
    snprintf(link, sizeof link, "/proc/self/fd/%d", dirfd);
    ssize_t n = syscall(SYS_readlink, link, joined, 4096);
    if (n <= 0 || joined[0] != '/') return 0;
    joined[n] = 0;
    if ((size_t)n + 1 + strlen(path) >= sizeof joined) return 0;
    if (n > 1) joined[n++] = '/';
    strcpy(joined + n, path);
    size_t length = strlen(joined);
    while (length > 1 && joined[length - 1] == '/') joined[--length] = 0;
    return in_folder(joined);
}

static void describe_fd(int fd, char *out, size_t size) {
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = syscall(SYS_readlink, link, out, size - 1);
    if (n < 0) n = 0;
    out[n] = 0;
}

// Takes a number for the call; returns 1 when the call must fail with errno set.
static int begin(const char *name, const char *path, int fd, long *number) {
    *number = __atomic_add_fetch(&counter, 1, __ATOMIC_SEQ_CST);
    if (log_fd >= 0) {
        char described[4200];
        if (path == NULL) describe_fd(fd, described, sizeof described);
        char line[4400];
        int length = snprintf(line, sizeof line, "%ld %s %s%s\n", *number, name, path ? path : described,
                              *number == fault_at ? " <fault>" : "");
        if (length > 0) syscall(SYS_write, log_fd, line, (size_t)(length < (int)sizeof line ? length : (int)sizeof line - 1));
    }
    if (*number != fault_at) return 0;
    if (fault_kill == 1) syscall(SYS_kill, getpid(), SIGKILL);
    if (fault_errno != 0) {
        errno = fault_errno;
        return 1;
    }
    return 0;
}

static void end(long number) {
    if (number == fault_at && fault_kill == 2) syscall(SYS_kill, getpid(), SIGKILL);
}

#define REAL(ret, name, ...) \
    static ret (*real_##name)(__VA_ARGS__) = NULL; \
    if (real_##name == NULL) real_##name = (ret (*)(__VA_ARGS__))dlsym(RTLD_NEXT, #name)

// ---- opening

static int opened(int fd, int ours) {
    if (ours && fd >= 0) track(fd, 1);
    return fd;
}

#define OPEN_BODY(realcall, ours, label, path) \
    long number = 0; \
    if (ours) { if (begin(label, path, -1, &number)) return -1; } \
    int fd = realcall; \
    int saved = errno; \
    opened(fd, ours); \
    if (ours) end(number); \
    errno = saved; \
    return fd;

static mode_t mode_of(int flags, va_list args) {
    if ((flags & O_CREAT) || (flags & __O_TMPFILE) == __O_TMPFILE) return (mode_t)va_arg(args, int);
    return 0;
}

int open(const char *path, int flags, ...) {
    va_list args; va_start(args, flags); mode_t mode = mode_of(flags, args); va_end(args);
    REAL(int, open, const char *, int, ...);
    OPEN_BODY(real_open(path, flags, mode), in_folder(path), "open", path)
}
int open64(const char *path, int flags, ...) {
    va_list args; va_start(args, flags); mode_t mode = mode_of(flags, args); va_end(args);
    REAL(int, open64, const char *, int, ...);
    OPEN_BODY(real_open64(path, flags, mode), in_folder(path), "open", path)
}
int __open_2(const char *path, int flags) {
    REAL(int, __open_2, const char *, int);
    OPEN_BODY(real___open_2(path, flags), in_folder(path), "open", path)
}
int __open64_2(const char *path, int flags) {
    REAL(int, __open64_2, const char *, int);
    OPEN_BODY(real___open64_2(path, flags), in_folder(path), "open", path)
}
int openat(int dirfd, const char *path, int flags, ...) {
    va_list args; va_start(args, flags); mode_t mode = mode_of(flags, args); va_end(args);
    REAL(int, openat, int, const char *, int, ...);
    OPEN_BODY(real_openat(dirfd, path, flags, mode), at_in_folder(dirfd, path), "open", path)
}
int openat64(int dirfd, const char *path, int flags, ...) {
    va_list args; va_start(args, flags); mode_t mode = mode_of(flags, args); va_end(args);
    REAL(int, openat64, int, const char *, int, ...);
    OPEN_BODY(real_openat64(dirfd, path, flags, mode), at_in_folder(dirfd, path), "open", path)
}
int __openat_2(int dirfd, const char *path, int flags) {
    REAL(int, __openat_2, int, const char *, int);
    OPEN_BODY(real___openat_2(dirfd, path, flags), at_in_folder(dirfd, path), "open", path)
}
int __openat64_2(int dirfd, const char *path, int flags) {
    REAL(int, __openat64_2, int, const char *, int);
    OPEN_BODY(real___openat64_2(dirfd, path, flags), at_in_folder(dirfd, path), "open", path)
}
int creat(const char *path, mode_t mode) {
    REAL(int, creat, const char *, mode_t);
    OPEN_BODY(real_creat(path, mode), in_folder(path), "open", path)
}
int creat64(const char *path, mode_t mode) {
    REAL(int, creat64, const char *, mode_t);
    OPEN_BODY(real_creat64(path, mode), in_folder(path), "open", path)
}

int close(int fd) {
    REAL(int, close, int);
    if (fd_tracked(fd)) track(fd, 0);
    return real_close(fd);
}

int dup(int fd) {
    REAL(int, dup, int);
    int copy = real_dup(fd);
    if (fd_tracked(fd)) track(copy, 1);
    return copy;
}

// ---- calls on a descriptor

#define FD_CALL(ret, label, fd, failure, realcall) \
    long number = 0; \
    int ours = fd_tracked(fd); \
    if (ours && begin(label, NULL, fd, &number)) return failure; \
    ret result = realcall; \
    if (ours) { int saved = errno; end(number); errno = saved; } \
    return result;

ssize_t read(int fd, void *buffer, size_t count) {
    REAL(ssize_t, read, int, void *, size_t);
    FD_CALL(ssize_t, "read", fd, -1, real_read(fd, buffer, count))
}
ssize_t pread(int fd, void *buffer, size_t count, off_t offset) {
    REAL(ssize_t, pread, int, void *, size_t, off_t);
    FD_CALL(ssize_t, "read", fd, -1, real_pread(fd, buffer, count, offset))
}
ssize_t pread64(int fd, void *buffer, size_t count, off_t offset) {
    REAL(ssize_t, pread64, int, void *, size_t, off_t);
    FD_CALL(ssize_t, "read", fd, -1, real_pread64(fd, buffer, count, offset))
}
ssize_t readv(int fd, const struct iovec *vector, int count) {
    REAL(ssize_t, readv, int, const struct iovec *, int);
    FD_CALL(ssize_t, "read", fd, -1, real_readv(fd, vector, count))
}
ssize_t write(int fd, const void *buffer, size_t count) {
    REAL(ssize_t, write, int, const void *, size_t);
    FD_CALL(ssize_t, "write", fd, -1, real_write(fd, buffer, count))
}
ssize_t pwrite(int fd, const void *buffer, size_t count, off_t offset) {
    REAL(ssize_t, pwrite, int, const void *, size_t, off_t);
    FD_CALL(ssize_t, "write", fd, -1, real_pwrite(fd, buffer, count, offset))
}
ssize_t pwrite64(int fd, const void *buffer, size_t count, off_t offset) {
    REAL(ssize_t, pwrite64, int, const void *, size_t, off_t);
    FD_CALL(ssize_t, "write", fd, -1, real_pwrite64(fd, buffer, count, offset))
}
ssize_t writev(int fd, const struct iovec *vector, int count) {
    REAL(ssize_t, writev, int, const struct iovec *, int);
    FD_CALL(ssize_t, "write", fd, -1, real_writev(fd, vector, count))
}
int fsync(int fd) {
    REAL(int, fsync, int);
    FD_CALL(int, "fsync", fd, -1, real_fsync(fd))
}
int fdatasync(int fd) {
    REAL(int, fdatasync, int);
    FD_CALL(int, "fdatasync", fd, -1, real_fdatasync(fd))
}
int ftruncate(int fd, off_t length) {
    REAL(int, ftruncate, int, off_t);
    FD_CALL(int, "ftruncate", fd, -1, real_ftruncate(fd, length))
}
int ftruncate64(int fd, off_t length) {
    REAL(int, ftruncate64, int, off_t);
    FD_CALL(int, "ftruncate", fd, -1, real_ftruncate64(fd, length))
}
int fallocate(int fd, int mode, off_t offset, off_t length) {
    REAL(int, fallocate, int, int, off_t, off_t);
    FD_CALL(int, "fallocate", fd, -1, real_fallocate(fd, mode, offset, length))
}
int flock(int fd, int operation) {
    REAL(int, flock, int, int);
    FD_CALL(int, "flock", fd, -1, real_flock(fd, operation))
}
int fchmod(int fd, mode_t mode) {
    REAL(int, fchmod, int, mode_t);
    FD_CALL(int, "chmod", fd, -1, real_fchmod(fd, mode))
}
int fchown(int fd, uid_t owner, gid_t group) {
    REAL(int, fchown, int, uid_t, gid_t);
    FD_CALL(int, "chown", fd, -1, real_fchown(fd, owner, group))
}
int fstat(int fd, struct stat *info) {
    REAL(int, fstat, int, struct stat *);
    FD_CALL(int, "stat", fd, -1, real_fstat(fd, info))
}
int fstat64(int fd, struct stat64 *info) {
    REAL(int, fstat64, int, struct stat64 *);
    FD_CALL(int, "stat", fd, -1, real_fstat64(fd, info))
}
int futimens(int fd, const struct timespec times[2]) {
    REAL(int, futimens, int, const struct timespec *);
    FD_CALL(int, "utime", fd, -1, real_futimens(fd, times))
}

static int fcntl_is_io(int cmd) {
    return cmd == F_SETLK || cmd == F_SETLKW || cmd == F_GETLK || cmd == F_OFD_SETLK || cmd == F_OFD_SETLKW
        || cmd == F_OFD_GETLK
#ifdef F_FULLFSYNC
        || cmd == F_FULLFSYNC
#endif
        ;
}

#define FCNTL_BODY(realname) \
    va_list args; va_start(args, cmd); void *argument = va_arg(args, void *); va_end(args); \
    REAL(int, realname, int, int, ...); \
    long number = 0; \
    int ours = fd_tracked(fd) && fcntl_is_io(cmd); \
    if (ours && begin("fcntl-lock", NULL, fd, &number)) return -1; \
    int result = real_##realname(fd, cmd, argument); \
    int saved = errno; \
    if ((cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC) && fd_tracked(fd)) track(result, 1); \
    if (ours) end(number); \
    errno = saved; \
    return result;

int fcntl(int fd, int cmd, ...) { FCNTL_BODY(fcntl) }
int fcntl64(int fd, int cmd, ...) { FCNTL_BODY(fcntl64) }

// ---- calls on a path

#define PATH_CALL(ret, label, ours, path, failure, realcall) \
    long number = 0; \
    int mine = (ours); \
    if (mine && begin(label, path, -1, &number)) return failure; \
    ret result = realcall; \
    if (mine) { int saved = errno; end(number); errno = saved; } \
    return result;

int stat(const char *path, struct stat *info) {
    REAL(int, stat, const char *, struct stat *);
    PATH_CALL(int, "stat", in_folder(path), path, -1, real_stat(path, info))
}
int lstat(const char *path, struct stat *info) {
    REAL(int, lstat, const char *, struct stat *);
    PATH_CALL(int, "stat", in_folder(path), path, -1, real_lstat(path, info))
}
int stat64(const char *path, struct stat64 *info) {
    REAL(int, stat64, const char *, struct stat64 *);
    PATH_CALL(int, "stat", in_folder(path), path, -1, real_stat64(path, info))
}
int lstat64(const char *path, struct stat64 *info) {
    REAL(int, lstat64, const char *, struct stat64 *);
    PATH_CALL(int, "stat", in_folder(path), path, -1, real_lstat64(path, info))
}
int fstatat(int dirfd, const char *path, struct stat *info, int flags) {
    REAL(int, fstatat, int, const char *, struct stat *, int);
    PATH_CALL(int, "stat", at_in_folder(dirfd, path), path, -1, real_fstatat(dirfd, path, info, flags))
}
int fstatat64(int dirfd, const char *path, struct stat64 *info, int flags) {
    REAL(int, fstatat64, int, const char *, struct stat64 *, int);
    PATH_CALL(int, "stat", at_in_folder(dirfd, path), path, -1, real_fstatat64(dirfd, path, info, flags))
}
int statx(int dirfd, const char *path, int flags, unsigned int mask, struct statx *info) {
    REAL(int, statx, int, const char *, int, unsigned int, struct statx *);
    PATH_CALL(int, "stat", at_in_folder(dirfd, path), path, -1, real_statx(dirfd, path, flags, mask, info))
}
int access(const char *path, int mode) {
    REAL(int, access, const char *, int);
    PATH_CALL(int, "access", in_folder(path), path, -1, real_access(path, mode))
}
int faccessat(int dirfd, const char *path, int mode, int flags) {
    REAL(int, faccessat, int, const char *, int, int);
    PATH_CALL(int, "access", at_in_folder(dirfd, path), path, -1, real_faccessat(dirfd, path, mode, flags))
}
int rename(const char *from, const char *to) {
    REAL(int, rename, const char *, const char *);
    PATH_CALL(int, "rename", in_folder(from) || in_folder(to), to, -1, real_rename(from, to))
}
int renameat(int fromfd, const char *from, int tofd, const char *to) {
    REAL(int, renameat, int, const char *, int, const char *);
    PATH_CALL(int, "rename", at_in_folder(fromfd, from) || at_in_folder(tofd, to), to, -1,
              real_renameat(fromfd, from, tofd, to))
}
int renameat2(int fromfd, const char *from, int tofd, const char *to, unsigned int flags) {
    REAL(int, renameat2, int, const char *, int, const char *, unsigned int);
    PATH_CALL(int, "rename", at_in_folder(fromfd, from) || at_in_folder(tofd, to), to, -1,
              real_renameat2(fromfd, from, tofd, to, flags))
}
int unlink(const char *path) {
    REAL(int, unlink, const char *);
    PATH_CALL(int, "unlink", in_folder(path), path, -1, real_unlink(path))
}
int unlinkat(int dirfd, const char *path, int flags) {
    REAL(int, unlinkat, int, const char *, int);
    PATH_CALL(int, "unlink", at_in_folder(dirfd, path), path, -1, real_unlinkat(dirfd, path, flags))
}
int rmdir(const char *path) {
    REAL(int, rmdir, const char *);
    PATH_CALL(int, "unlink", in_folder(path), path, -1, real_rmdir(path))
}
int remove(const char *path) {
    REAL(int, remove, const char *);
    PATH_CALL(int, "unlink", in_folder(path), path, -1, real_remove(path))
}
int mkdir(const char *path, mode_t mode) {
    REAL(int, mkdir, const char *, mode_t);
    PATH_CALL(int, "mkdir", in_folder(path), path, -1, real_mkdir(path, mode))
}
int mkdirat(int dirfd, const char *path, mode_t mode) {
    REAL(int, mkdirat, int, const char *, mode_t);
    PATH_CALL(int, "mkdir", at_in_folder(dirfd, path), path, -1, real_mkdirat(dirfd, path, mode))
}
int chmod(const char *path, mode_t mode) {
    REAL(int, chmod, const char *, mode_t);
    PATH_CALL(int, "chmod", in_folder(path), path, -1, real_chmod(path, mode))
}
int fchmodat(int dirfd, const char *path, mode_t mode, int flags) {
    REAL(int, fchmodat, int, const char *, mode_t, int);
    PATH_CALL(int, "chmod", at_in_folder(dirfd, path), path, -1, real_fchmodat(dirfd, path, mode, flags))
}
int chown(const char *path, uid_t owner, gid_t group) {
    REAL(int, chown, const char *, uid_t, gid_t);
    PATH_CALL(int, "chown", in_folder(path), path, -1, real_chown(path, owner, group))
}
int lchown(const char *path, uid_t owner, gid_t group) {
    REAL(int, lchown, const char *, uid_t, gid_t);
    PATH_CALL(int, "chown", in_folder(path), path, -1, real_lchown(path, owner, group))
}
int fchownat(int dirfd, const char *path, uid_t owner, gid_t group, int flags) {
    REAL(int, fchownat, int, const char *, uid_t, gid_t, int);
    PATH_CALL(int, "chown", at_in_folder(dirfd, path), path, -1, real_fchownat(dirfd, path, owner, group, flags))
}
int link(const char *from, const char *to) {
    REAL(int, link, const char *, const char *);
    PATH_CALL(int, "link", in_folder(from) || in_folder(to), to, -1, real_link(from, to))
}
int linkat(int fromfd, const char *from, int tofd, const char *to, int flags) {
    REAL(int, linkat, int, const char *, int, const char *, int);
    PATH_CALL(int, "link", at_in_folder(fromfd, from) || at_in_folder(tofd, to), to, -1,
              real_linkat(fromfd, from, tofd, to, flags))
}
int symlink(const char *target, const char *path) {
    REAL(int, symlink, const char *, const char *);
    PATH_CALL(int, "link", in_folder(path), path, -1, real_symlink(target, path))
}
ssize_t readlink(const char *path, char *buffer, size_t size) {
    REAL(ssize_t, readlink, const char *, char *, size_t);
    PATH_CALL(ssize_t, "readlink", in_folder(path), path, -1, real_readlink(path, buffer, size))
}
ssize_t readlinkat(int dirfd, const char *path, char *buffer, size_t size) {
    REAL(ssize_t, readlinkat, int, const char *, char *, size_t);
    PATH_CALL(ssize_t, "readlink", at_in_folder(dirfd, path), path, -1, real_readlinkat(dirfd, path, buffer, size))
}
int utimensat(int dirfd, const char *path, const struct timespec times[2], int flags) {
    REAL(int, utimensat, int, const char *, const struct timespec *, int);
    PATH_CALL(int, "utime", at_in_folder(dirfd, path), path, -1, real_utimensat(dirfd, path, times, flags))
}
int inotify_add_watch(int fd, const char *path, uint32_t mask) {
    REAL(int, inotify_add_watch, int, const char *, uint32_t);
    PATH_CALL(int, "watch", in_folder(path), path, -1, real_inotify_add_watch(fd, path, mask))
}

// ---- listing a folder

DIR *opendir(const char *path) {
    REAL(DIR *, opendir, const char *);
    long number = 0;
    int ours = in_folder(path);
    if (ours && begin("opendir", path, -1, &number)) return NULL;
    DIR *result = real_opendir(path);
    int saved = errno;
    if (ours && result != NULL) track(dirfd(result), 1);
    if (ours) end(number);
    errno = saved;
    return result;
}
DIR *fdopendir(int fd) {
    REAL(DIR *, fdopendir, int);
    FD_CALL(DIR *, "opendir", fd, NULL, real_fdopendir(fd))
}
struct dirent *readdir(DIR *directory) {
    REAL(struct dirent *, readdir, DIR *);
    int fd = dirfd(directory);
    FD_CALL(struct dirent *, "readdir", fd, NULL, real_readdir(directory))
}
struct dirent64 *readdir64(DIR *directory) {
    REAL(struct dirent64 *, readdir64, DIR *);
    int fd = dirfd(directory);
    FD_CALL(struct dirent64 *, "readdir", fd, NULL, real_readdir64(directory))
}
int closedir(DIR *directory) {
    REAL(int, closedir, DIR *);
    if (fd_tracked(dirfd(directory))) track(dirfd(directory), 0);
    return real_closedir(directory);
}
