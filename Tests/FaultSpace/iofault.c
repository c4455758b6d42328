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
//   IOFAULT_AT    the number of the call to act on (1 = the first counted call); up to 8 numbers,
//                 comma-separated, for a fault inside the handling of another ("12,15")
//   IOFAULT_KIND  ENOSPC | EIO | EACCES (the call fails with that errno, doing nothing),
//                 KILL_BEFORE (SIGKILL before the call), KILL_AFTER (SIGKILL once it returned);
//                 one per number of IOFAULT_AT, comma-separated (the last one for the rest)
//   IOFAULT_AT_CALL  <call>:<n>[,<call>:<n> ...], instead of IOFAULT_AT: act on the n-th call of
//                 that kind (the names of the log: "fsync:2" is the second fsync on the folder,
//                 "rename:1" ...)
//   IOFAULT_DELAY_MS  a call made to fail with an errno fails only after this many milliseconds
//                 (a flush that fails late, while other processes read)
// A sync made to fail is recorded (when recording) as "syncfail <inode>" or "syncdirfail
// <path>": the crash-state model may take it to forget what it failed to write.
//
// Recording, for the crash-state enumerator (Tests/CrashStates, scripts/crash-states.sh):
//   IOFAULT_RECORD  a file to which every call that changes the folder is appended, once it
//                 succeeded, in the order the calls took effect across threads and processes
//                 (each call and its line are made under a lock on that file), with its bytes:
//                 "<pid> open <path> <inode> <created> <truncated>", "<pid> write <inode> <offset>
//                 <hex bytes>", "<pid> setsize <inode> <size>", "<pid> fallocate <inode> <mode>
//                 <offset> <length>", "<pid> sync <inode>", "<pid> syncdir <path>", "<pid> rename
//                 <from> <to> <flags>", "<pid> unlink <path>", "<pid> rmdir <path>", "<pid> mkdir
//                 <path>", "<pid> link <from> <to>", "<pid> symlink <path>". Paths are relative to
//                 the folder ("." the folder itself, ".." the folder above it, "!<path>" outside),
//                 hex-encoded.
//   IOFAULT_PLANT  a breakage the enumerator must catch, made in the recorded run:
//                 no-file-sync    fsync/fdatasync of a file in the folder does nothing
//                 no-folder-sync  fsync of the folder (or the one above it) does nothing
//                 in-place        a rename of a temporary file ("~w-" in its name) over a
//                                 document ("*.json") writes the document in place instead:
//                                 open with O_TRUNC, write, fsync, then the temporary is removed
//                 current-slot    a pwrite into a two-slot document at the offset of one slot
//                                 goes to the other slot's offset instead (the slot size read
//                                 from the file's header, `"slotSize":"<10 digits>"` in its first
//                                 4096 bytes; else IOFAULT_SLOT_LAYOUT="<header bytes>,<slot
//                                 bytes>", 4096,4096)
//                 ftruncate-prealloc  a rename of a temporary file over a document that does not
//                                 exist yet makes the document in place instead: open it with
//                                 O_CREAT, ftruncate it to the temporary's size (preallocated,
//                                 zero-filled), write the temporary's bytes, fsync, then the
//                                 temporary is removed
//                 Each time a plant acts, "<pid> plant <name>" is recorded.
//
// Built by the script with `cc -shared -fPIC -O1 -o iofault.so iofault.c -ldl`; never part of the
// package, never loaded by anything but the search.
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
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
#define MAX_FAULTS 8
static long fault_ats[MAX_FAULTS];
static int fault_errnos[MAX_FAULTS];
static int fault_kills[MAX_FAULTS];  // 1 before, 2 after
static int fault_count = 0;
static long delay_ms = 0;
static long counter = 0;
static unsigned char tracked[MAX_FDS];
static int ready = 0;
static char fault_labels[MAX_FAULTS][32];
static long fault_label_ats[MAX_FAULTS];
static long label_counters[MAX_FAULTS];

// Recording (see the top of the file).
static char record_path[4096];
static int record_fd = -1;
static pid_t record_pid = 0;
static pthread_mutex_t record_mutex = PTHREAD_MUTEX_INITIALIZER;
static char plant[32];
static long slot_header = 4096, slot_size = 4096;
static char parent[4096];

__attribute__((constructor)) static void iofault_init(void) {
    const char *dir = getenv("IOFAULT_DIR");
    if (dir == NULL || dir[0] != '/' || strlen(dir) >= sizeof(folder)) return;
    strcpy(folder, dir);
    folder_length = strlen(folder);
    while (folder_length > 1 && folder[folder_length - 1] == '/') folder[--folder_length] = 0;
    const char *log = getenv("IOFAULT_LOG");
    if (log != NULL) log_fd = (int)syscall(SYS_open, log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    const char *at = getenv("IOFAULT_AT");
    const char *at_call = getenv("IOFAULT_AT_CALL");
    if (at != NULL) {
        const char *next = at;
        while (*next != 0 && fault_count < MAX_FAULTS) {
            char *end_of;
            long number = strtol(next, &end_of, 10);
            if (end_of == next) break;
            fault_ats[fault_count++] = number;
            next = *end_of == ',' ? end_of + 1 : end_of;
        }
    } else if (at_call != NULL) {
        const char *next = at_call;
        while (*next != 0 && fault_count < MAX_FAULTS) {
            const char *colon = strchr(next, ':');
            if (colon == NULL || (size_t)(colon - next) >= sizeof(fault_labels[0])) break;
            memcpy(fault_labels[fault_count], next, (size_t)(colon - next));
            fault_labels[fault_count][colon - next] = 0;
            char *end_of;
            fault_label_ats[fault_count] = strtol(colon + 1, &end_of, 10);
            fault_count++;
            next = *end_of == ',' ? end_of + 1 : end_of;
        }
    }
    const char *kind = getenv("IOFAULT_KIND");
    for (int i = 0; kind != NULL && i < fault_count; i++) {
        if (strncmp(kind, "ENOSPC", 6) == 0) fault_errnos[i] = ENOSPC;
        else if (strncmp(kind, "EIO", 3) == 0) fault_errnos[i] = EIO;
        else if (strncmp(kind, "EACCES", 6) == 0) fault_errnos[i] = EACCES;
        else if (strncmp(kind, "KILL_BEFORE", 11) == 0) fault_kills[i] = 1;
        else if (strncmp(kind, "KILL_AFTER", 10) == 0) fault_kills[i] = 2;
        const char *comma = strchr(kind, ',');
        if (comma != NULL) kind = comma + 1;  // else the last kind serves the rest
    }
    const char *delay = getenv("IOFAULT_DELAY_MS");
    if (delay != NULL) delay_ms = strtol(delay, NULL, 10);
    const char *record = getenv("IOFAULT_RECORD");
    if (record != NULL && strlen(record) < sizeof(record_path)) strcpy(record_path, record);
    const char *planted = getenv("IOFAULT_PLANT");
    if (planted != NULL && strlen(planted) < sizeof(plant)) strcpy(plant, planted);
    const char *layout = getenv("IOFAULT_SLOT_LAYOUT");
    if (layout != NULL) sscanf(layout, "%ld,%ld", &slot_header, &slot_size);
    strcpy(parent, folder);
    char *slash = strrchr(parent, '/');
    if (slash != NULL) { if (slash == parent) slash[1] = 0; else *slash = 0; }
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

// The fault acting on call `number`, or -1.
static int fault_of(long number) {
    for (int i = 0; i < fault_count; i++)
        if (__atomic_load_n(&fault_ats[i], __ATOMIC_SEQ_CST) == number) return i;
    return -1;
}

// Takes a number for the call; returns 1 when the call must fail with errno set.
static int begin(const char *name, const char *path, int fd, long *number) {
    *number = __atomic_add_fetch(&counter, 1, __ATOMIC_SEQ_CST);
    for (int i = 0; i < fault_count; i++) {
        if (fault_labels[i][0] != 0 && strcmp(name, fault_labels[i]) == 0
            && __atomic_add_fetch(&label_counters[i], 1, __ATOMIC_SEQ_CST) == fault_label_ats[i])
            __atomic_store_n(&fault_ats[i], *number, __ATOMIC_SEQ_CST);
    }
    int fault = fault_of(*number);
    if (log_fd >= 0) {
        char described[4200];
        if (path == NULL) describe_fd(fd, described, sizeof described);
        char line[4400];
        int length = snprintf(line, sizeof line, "%ld %s %s%s\n", *number, name, path ? path : described,
                              fault >= 0 ? " <fault>" : "");
        if (length > 0) syscall(SYS_write, log_fd, line, (size_t)(length < (int)sizeof line ? length : (int)sizeof line - 1));
    }
    if (fault < 0) return 0;
    if (fault_kills[fault] == 1) syscall(SYS_kill, getpid(), SIGKILL);
    if (fault_errnos[fault] != 0) {
        if (delay_ms > 0) {
            struct timespec pause = {delay_ms / 1000, (delay_ms % 1000) * 1000000L};
            while (nanosleep(&pause, &pause) != 0 && errno == EINTR) {}
        }
        errno = fault_errnos[fault];
        return 1;
    }
    return 0;
}

static void end(long number) {
    int fault = fault_of(number);
    if (fault >= 0 && fault_kills[fault] == 2) syscall(SYS_kill, getpid(), SIGKILL);
}


// ---- recording

static int recording(void) { return ready && record_path[0] != 0; }
static int planted(const char *name) { return ready && strcmp(plant, name) == 0; }

static char record_buffer[65536];
static size_t record_used = 0;

static void record_flush(void) {
    size_t done = 0;
    while (done < record_used) {
        ssize_t n = syscall(SYS_write, record_fd, record_buffer + done, record_used - done);
        if (n <= 0) break;
        done += (size_t)n;
    }
    record_used = 0;
}

static void record_put(const char *text) {
    size_t length = strlen(text);
    if (record_used + length > sizeof record_buffer) record_flush();
    if (length > sizeof record_buffer) length = sizeof record_buffer;
    memcpy(record_buffer + record_used, text, length);
    record_used += length;
}

static void record_hex(const unsigned char *bytes, size_t count) {
    static const char digits[] = "0123456789abcdef";
    if (count == 0) { record_put("-"); return; }
    for (size_t i = 0; i < count; i++) {
        if (record_used + 2 > sizeof record_buffer) record_flush();
        record_buffer[record_used++] = digits[bytes[i] >> 4];
        record_buffer[record_used++] = digits[bytes[i] & 15];
    }
}

static void record_number(long long value) {
    char text[32];
    snprintf(text, sizeof text, " %lld", value);
    record_put(text);
}

// Starts a recorded call: the lock that orders the calls of every process is taken (a mutex for
// this process's threads, flock on the record for the others) and kept until record_done.
static void record_begin(void) {
    pthread_mutex_lock(&record_mutex);
    if (record_fd < 0 || record_pid != getpid()) {
        if (record_fd >= 0) syscall(SYS_close, record_fd);  // a forked child: its own description
        record_fd = (int)syscall(SYS_openat, AT_FDCWD, record_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
        record_pid = getpid();
    }
    if (record_fd >= 0) syscall(SYS_flock, record_fd, LOCK_EX);
}

static void record_line_start(const char *call) {
    char text[64];
    snprintf(text, sizeof text, "%d %s", (int)getpid(), call);
    record_put(text);
}

static void record_done(void) {
    if (record_fd >= 0) {
        record_flush();
        syscall(SYS_flock, record_fd, LOCK_UN);
    }
    record_used = 0;
    pthread_mutex_unlock(&record_mutex);
}

// The absolute path of `path` as seen from `dirfd` (without following links), into `out`.
static int absolute_at(int dirfd, const char *path, char *out, size_t size) {
    if (path != NULL && path[0] == '/') {
        if (strlen(path) >= size) return 0;
        strcpy(out, path);
    } else {
        char base[4096];
        ssize_t n;
        if (dirfd == AT_FDCWD) {
            n = syscall(SYS_getcwd, base, sizeof base);
            if (n <= 0) return 0;
            n = (ssize_t)strlen(base);
        } else {
            char link[64];
            snprintf(link, sizeof link, "/proc/self/fd/%d", dirfd);
            n = syscall(SYS_readlinkat, AT_FDCWD, link, base, sizeof base - 1);
            if (n <= 0) return 0;
            base[n] = 0;
        }
        if (path == NULL || path[0] == 0 || (path[0] == '.' && path[1] == 0)) snprintf(out, size, "%s", base);
        else snprintf(out, size, "%s%s%s", base, (n == 1 && base[0] == '/') ? "" : "/", path);
    }
    size_t length = strlen(out);
    while (length > 1 && out[length - 1] == '/') out[--length] = 0;
    return 1;
}

// Records a path relative to the folder, hex-encoded: "." the folder, ".." the one above it,
// "!<absolute path>" anything else.
static void record_path_at(int dirfd, const char *path) {
    char absolute[4200], relative[4300];
    if (!absolute_at(dirfd, path, absolute, sizeof absolute)) strcpy(relative, "!?");
    else if (strcmp(absolute, folder) == 0) strcpy(relative, ".");
    else if (strncmp(absolute, folder, folder_length) == 0 && absolute[folder_length] == '/')
        strcpy(relative, absolute + folder_length + 1);
    else if (strcmp(absolute, parent) == 0) strcpy(relative, "..");
    else snprintf(relative, sizeof relative, "!%s", absolute);
    record_put(" ");
    record_hex((const unsigned char *)relative, strlen(relative));
}

static int stat_fd(int fd, struct stat *info) { return (int)syscall(SYS_newfstatat, fd, "", info, AT_EMPTY_PATH); }

static int stat_at(int dirfd, const char *path, struct stat *info) {
    return (int)syscall(SYS_newfstatat, dirfd, path, info, AT_SYMLINK_NOFOLLOW);
}

static long long inode_of(int fd) {
    struct stat info;
    return stat_fd(fd, &info) == 0 ? (long long)info.st_ino : -1;
}

static void record_plant(void) {
    record_line_start("plant ");
    record_put(plant);
    record_put("\n");
}

// Whether the descriptor's file (or the path) is a document: "*.json" with no "~" in its name.
static int names_document(const char *path) {
    const char *name = strrchr(path, '/');
    name = name ? name + 1 : path;
    size_t length = strlen(name);
    return length > 5 && strcmp(name + length - 5, ".json") == 0 && strchr(name, '~') == NULL;
}

static int fd_names_document(int fd) {
    char path[4200];
    describe_fd(fd, path, sizeof path);
    return names_document(path);
}

#define REAL(ret, name, ...) \
    static ret (*real_##name)(__VA_ARGS__) = NULL; \
    if (real_##name == NULL) real_##name = (ret (*)(__VA_ARGS__))dlsym(RTLD_NEXT, #name)

// ---- opening

static int opened(int fd, int ours) {
    if (ours && fd >= 0) track(fd, 1);
    return fd;
}

// An open that may create or truncate a file in the folder is recorded (made under the record's
// lock, with whether it created the file, found by looking before).
#define OPEN_BODY(realcall, ours, label, dirfd, path, flags) \
    long number = 0; \
    if (ours) { if (begin(label, path, -1, &number)) return -1; } \
    int changes = (ours) && recording() && ((flags) & (O_CREAT | O_TRUNC)); \
    struct stat before; \
    int existed = 0; \
    if (changes) { record_begin(); existed = stat_at(dirfd, path, &before) == 0; } \
    int fd = realcall; \
    int saved = errno; \
    if (changes) { \
        if (fd >= 0) { \
            record_line_start("open"); \
            record_path_at(dirfd, path); \
            record_number(inode_of(fd)); \
            record_number(!existed); \
            record_number(((flags) & O_TRUNC) && existed && before.st_size > 0); \
            record_put("\n"); \
        } \
        record_done(); \
    } \
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
    OPEN_BODY(real_open(path, flags, mode), in_folder(path), "open", AT_FDCWD, path, flags)
}
int open64(const char *path, int flags, ...) {
    va_list args; va_start(args, flags); mode_t mode = mode_of(flags, args); va_end(args);
    REAL(int, open64, const char *, int, ...);
    OPEN_BODY(real_open64(path, flags, mode), in_folder(path), "open", AT_FDCWD, path, flags)
}
int __open_2(const char *path, int flags) {
    REAL(int, __open_2, const char *, int);
    OPEN_BODY(real___open_2(path, flags), in_folder(path), "open", AT_FDCWD, path, flags)
}
int __open64_2(const char *path, int flags) {
    REAL(int, __open64_2, const char *, int);
    OPEN_BODY(real___open64_2(path, flags), in_folder(path), "open", AT_FDCWD, path, flags)
}
int openat(int dirfd, const char *path, int flags, ...) {
    va_list args; va_start(args, flags); mode_t mode = mode_of(flags, args); va_end(args);
    REAL(int, openat, int, const char *, int, ...);
    OPEN_BODY(real_openat(dirfd, path, flags, mode), at_in_folder(dirfd, path), "open", dirfd, path, flags)
}
int openat64(int dirfd, const char *path, int flags, ...) {
    va_list args; va_start(args, flags); mode_t mode = mode_of(flags, args); va_end(args);
    REAL(int, openat64, int, const char *, int, ...);
    OPEN_BODY(real_openat64(dirfd, path, flags, mode), at_in_folder(dirfd, path), "open", dirfd, path, flags)
}
int __openat_2(int dirfd, const char *path, int flags) {
    REAL(int, __openat_2, int, const char *, int);
    OPEN_BODY(real___openat_2(dirfd, path, flags), at_in_folder(dirfd, path), "open", dirfd, path, flags)
}
int __openat64_2(int dirfd, const char *path, int flags) {
    REAL(int, __openat64_2, int, const char *, int);
    OPEN_BODY(real___openat64_2(dirfd, path, flags), at_in_folder(dirfd, path), "open", dirfd, path, flags)
}
int creat(const char *path, mode_t mode) {
    REAL(int, creat, const char *, mode_t);
    OPEN_BODY(real_creat(path, mode), in_folder(path), "open", AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC)
}
int creat64(const char *path, mode_t mode) {
    REAL(int, creat64, const char *, mode_t);
    OPEN_BODY(real_creat64(path, mode), in_folder(path), "open", AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC)
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
// A write to a file in the folder is recorded with its offset and bytes; `offset` is -1 for
// write/writev (the offset is where the descriptor's position was, found after the call).
static void record_write(int fd, long long offset, ssize_t written, const struct iovec *vector, int count) {
    if (written <= 0) return;
    if (offset < 0) offset = (long long)syscall(SYS_lseek, fd, 0, SEEK_CUR) - written;
    record_line_start("write");
    record_number(inode_of(fd));
    record_number(offset);
    record_put(" ");
    size_t left = (size_t)written;
    for (int i = 0; i < count && left > 0; i++) {
        size_t part = vector[i].iov_len < left ? vector[i].iov_len : left;
        record_hex((const unsigned char *)vector[i].iov_base, part);
        left -= part;
    }
    record_put("\n");
}

// The layout of the two-slot file open as `fd`: its header's slot size (a file grown past its
// first slots has bigger ones), else IOFAULT_SLOT_LAYOUT's.
static void slot_layout(int fd, long *header, long *size) {
    *header = slot_header;
    *size = slot_size;
    char text[4097];
    ssize_t n = syscall(SYS_pread64, fd, text, 4096, (off_t)0);
    if (n <= 0) return;
    text[n] = 0;
    const char *field = strstr(text, "\"slotSize\":\"");
    if (field == NULL) return;
    long parsed = strtol(field + strlen("\"slotSize\":\""), NULL, 10);
    if (parsed > 0) { *header = 4096; *size = parsed; }
}

// The offset a pwrite into a document goes to under the current-slot plant: the other slot's
// (recorded as the plant acting).
static off_t planted_offset(int fd, off_t offset) {
    if (!fd_tracked(fd) || !recording() || !planted("current-slot") || !fd_names_document(fd)) return offset;
    long slot_header, slot_size;
    slot_layout(fd, &slot_header, &slot_size);
    if (offset < slot_header || slot_size <= 0) return offset;
    long slot = (long)((offset - slot_header) / slot_size);
    if (slot > 1) return offset;
    record_begin();
    record_plant();
    record_done();
    return offset + (slot == 0 ? slot_size : -slot_size);
}

// A call that changes the folder: numbered (and maybe failed) as any call, made under the
// record's lock, and recorded by RECORD once it succeeded (a result of 0 or more).
#define RECORDED_CALL(ret, label, ours, path, fd, realcall, RECORD) \
    long number = 0; \
    int mine = (ours); \
    if (mine && begin(label, path, fd, &number)) return -1; \
    int records = mine && recording(); \
    if (records) record_begin(); \
    ret result = realcall; \
    int saved = errno; \
    if (records) { if (result >= 0) { RECORD; } record_done(); } \
    if (mine) end(number); \
    errno = saved; \
    return result;

#define WRITE_BODY(fd, offset, vector, count, realcall) \
    RECORDED_CALL(ssize_t, "write", fd_tracked(fd), NULL, fd, realcall, record_write(fd, offset, result, vector, count))

ssize_t write(int fd, const void *buffer, size_t count) {
    REAL(ssize_t, write, int, const void *, size_t);
    struct iovec one = {(void *)buffer, count};
    WRITE_BODY(fd, -1, &one, 1, real_write(fd, buffer, count))
}
ssize_t pwrite(int fd, const void *buffer, size_t count, off_t offset) {
    REAL(ssize_t, pwrite, int, const void *, size_t, off_t);
    struct iovec one = {(void *)buffer, count};
    offset = planted_offset(fd, offset);
    WRITE_BODY(fd, offset, &one, 1, real_pwrite(fd, buffer, count, offset))
}
ssize_t pwrite64(int fd, const void *buffer, size_t count, off_t offset) {
    REAL(ssize_t, pwrite64, int, const void *, size_t, off_t);
    struct iovec one = {(void *)buffer, count};
    offset = planted_offset(fd, offset);
    WRITE_BODY(fd, offset, &one, 1, real_pwrite64(fd, buffer, count, offset))
}
ssize_t pwritev(int fd, const struct iovec *vector, int count, off_t offset) {
    REAL(ssize_t, pwritev, int, const struct iovec *, int, off_t);
    offset = planted_offset(fd, offset);
    WRITE_BODY(fd, offset, vector, count, real_pwritev(fd, vector, count, offset))
}
ssize_t pwritev64(int fd, const struct iovec *vector, int count, off_t offset) {
    REAL(ssize_t, pwritev64, int, const struct iovec *, int, off_t);
    offset = planted_offset(fd, offset);
    WRITE_BODY(fd, offset, vector, count, real_pwritev64(fd, vector, count, offset))
}
ssize_t pwritev2(int fd, const struct iovec *vector, int count, off_t offset, int flags) {
    REAL(ssize_t, pwritev2, int, const struct iovec *, int, off_t, int);
    if (offset >= 0) offset = planted_offset(fd, offset);
    WRITE_BODY(fd, offset, vector, count, real_pwritev2(fd, vector, count, offset, flags))
}
ssize_t writev(int fd, const struct iovec *vector, int count) {
    REAL(ssize_t, writev, int, const struct iovec *, int);
    WRITE_BODY(fd, -1, vector, count, real_writev(fd, vector, count))
}

// A sync of a file or folder in the folder, or of the folder above it (which makes the folder's
// own creation durable), is recorded; the no-file-sync and no-folder-sync plants skip it.
#define SYNC_BODY(label, fd, realcall) \
    long number = 0; \
    int ours = fd_tracked(fd); \
    struct stat info; \
    int isFolder = 0, isParent = 0; \
    if (recording() && stat_fd(fd, &info) == 0) { \
        isFolder = S_ISDIR(info.st_mode); \
        if (!ours && isFolder) { char path[4200]; describe_fd(fd, path, sizeof path); isParent = strcmp(path, parent) == 0; } \
    } \
    int records = (ours || isParent) && recording(); \
    if (ours && begin(label, NULL, fd, &number)) { \
        if (records) { \
            int failed = errno; \
            record_begin(); \
            if (isFolder) { record_line_start("syncdirfail"); record_path_at(fd, NULL); } \
            else { record_line_start("syncfail"); record_number(inode_of(fd)); } \
            record_put("\n"); \
            record_done(); \
            errno = failed; \
        } \
        return -1; \
    } \
    if (records && ((isFolder && planted("no-folder-sync")) || (!isFolder && planted("no-file-sync")))) { \
        record_begin(); record_plant(); record_done(); \
        if (ours) end(number); \
        return 0; \
    } \
    if (records) record_begin(); \
    int result = realcall; \
    int saved = errno; \
    if (records) { \
        if (result == 0) { \
            if (isFolder) { record_line_start("syncdir"); record_path_at(fd, NULL); } \
            else { record_line_start("sync"); record_number(inode_of(fd)); } \
            record_put("\n"); \
        } \
        record_done(); \
    } \
    if (ours) end(number); \
    errno = saved; \
    return result;

int fsync(int fd) {
    REAL(int, fsync, int);
    SYNC_BODY("fsync", fd, real_fsync(fd))
}
int fdatasync(int fd) {
    REAL(int, fdatasync, int);
    SYNC_BODY("fdatasync", fd, real_fdatasync(fd))
}

#define TRUNCATE_BODY(fd, length, realcall) \
    RECORDED_CALL(int, "ftruncate", fd_tracked(fd), NULL, fd, realcall, \
                  record_line_start("setsize"); record_number(inode_of(fd)); record_number(length); record_put("\n"))

int ftruncate(int fd, off_t length) {
    REAL(int, ftruncate, int, off_t);
    TRUNCATE_BODY(fd, (long long)length, real_ftruncate(fd, length))
}
int ftruncate64(int fd, off_t length) {
    REAL(int, ftruncate64, int, off_t);
    TRUNCATE_BODY(fd, (long long)length, real_ftruncate64(fd, length))
}
int fallocate(int fd, int mode, off_t offset, off_t length) {
    REAL(int, fallocate, int, int, off_t, off_t);
    long number = 0;
    int ours = fd_tracked(fd);
    if (ours && begin("fallocate", NULL, fd, &number)) return -1;
    int records = ours && recording();
    if (records) record_begin();
    int result = real_fallocate(fd, mode, offset, length);
    if (records && result == 0) {
        record_line_start("fallocate");
        record_number(inode_of(fd));
        record_number(mode);
        record_number(offset);
        record_number(length);
        record_put("\n");
    }
    int saved = errno;
    if (records) record_done();
    if (ours) end(number);
    errno = saved;
    return result;
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
// A call that changes the folder's names, recorded once it succeeded (RECORD names what).
#define CHANGE_CALL(label, ours, path, realcall, RECORD) \
    RECORDED_CALL(int, label, ours, path, -1, realcall, RECORD; record_put("\n"))

// The in-place and ftruncate-prealloc plants: the temporary file's bytes written into the
// document itself (in-place: over it, with O_TRUNC; ftruncate-prealloc: only when it does not
// exist yet, made and sized to the temporary's size before the bytes are written), fsync, the
// temporary removed; recorded as those calls. Returns 1 when it acted.
static int write_in_place(int fromfd, const char *from, int tofd, const char *to, int *result) {
    char source[4200], target[4200];
    int prealloc = planted("ftruncate-prealloc");
    if (!(planted("in-place") || prealloc) || !recording()) return 0;
    if (!absolute_at(fromfd, from, source, sizeof source) || !absolute_at(tofd, to, target, sizeof target)) return 0;
    if (strstr(strrchr(source, '/') ? strrchr(source, '/') : source, "~w-") == NULL || !names_document(target)) return 0;
    struct stat present;
    if (prealloc && stat_at(AT_FDCWD, target, &present) == 0) return 0;  // an update: renamed as it is
    int in = (int)syscall(SYS_openat, AT_FDCWD, source, O_RDONLY | O_CLOEXEC);
    if (in < 0) return 0;
    struct stat info;
    if (stat_fd(in, &info) != 0) { syscall(SYS_close, in); return 0; }
    size_t size = (size_t)info.st_size;
    unsigned char *bytes = malloc(size ? size : 1);
    size_t got = 0;
    while (bytes != NULL && got < size) {
        ssize_t n = syscall(SYS_read, in, bytes + got, size - got);
        if (n <= 0) break;
        got += (size_t)n;
    }
    syscall(SYS_close, in);
    if (bytes == NULL) return 0;
    record_begin();
    record_plant();
    struct stat before;
    int existed = stat_at(AT_FDCWD, target, &before) == 0;
    int out = (int)syscall(SYS_openat, AT_FDCWD, target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    *result = -1;
    if (out >= 0) {
        record_line_start("open");
        record_path_at(AT_FDCWD, target);
        record_number(inode_of(out));
        record_number(!existed);
        record_number(existed && before.st_size > 0);
        record_put("\n");
        if (prealloc && syscall(SYS_ftruncate, out, (long)got) == 0) {
            record_line_start("setsize");
            record_number(inode_of(out));
            record_number((long long)got);
            record_put("\n");
        }
        size_t done = 0;
        while (done < got) {
            ssize_t n = syscall(SYS_write, out, bytes + done, got - done);
            if (n <= 0) break;
            struct iovec part = {bytes + done, (size_t)n};
            record_write(out, (long long)done, n, &part, 1);
            done += (size_t)n;
        }
        if (done == got && syscall(SYS_fsync, out) == 0) {
            record_line_start("sync");
            record_number(inode_of(out));
            record_put("\n");
            if (syscall(SYS_unlinkat, AT_FDCWD, source, 0) == 0) {
                record_line_start("unlink");
                record_path_at(AT_FDCWD, source);
                record_put("\n");
                *result = 0;
            }
        }
        syscall(SYS_close, out);
    }
    record_done();
    free(bytes);
    if (*result != 0) errno = EIO;
    return 1;
}

#define RECORD_TWO(call, fromfd, from, tofd, to) \
    record_line_start(call); record_path_at(fromfd, from); record_path_at(tofd, to)
#define RECORD_ONE(call, dirfd, path) record_line_start(call); record_path_at(dirfd, path)

int rename(const char *from, const char *to) {
    REAL(int, rename, const char *, const char *);
    int planted_result;
    if ((in_folder(from) || in_folder(to)) && write_in_place(AT_FDCWD, from, AT_FDCWD, to, &planted_result))
        return planted_result;
    CHANGE_CALL("rename", in_folder(from) || in_folder(to), to, real_rename(from, to),
                RECORD_TWO("rename", AT_FDCWD, from, AT_FDCWD, to); record_number(0))
}
int renameat(int fromfd, const char *from, int tofd, const char *to) {
    REAL(int, renameat, int, const char *, int, const char *);
    int planted_result;
    int ours = at_in_folder(fromfd, from) || at_in_folder(tofd, to);
    if (ours && write_in_place(fromfd, from, tofd, to, &planted_result)) return planted_result;
    CHANGE_CALL("rename", ours, to, real_renameat(fromfd, from, tofd, to),
                RECORD_TWO("rename", fromfd, from, tofd, to); record_number(0))
}
int renameat2(int fromfd, const char *from, int tofd, const char *to, unsigned int flags) {
    REAL(int, renameat2, int, const char *, int, const char *, unsigned int);
    int planted_result;
    int ours = at_in_folder(fromfd, from) || at_in_folder(tofd, to);
    if (ours && (flags == 0 || (flags == RENAME_NOREPLACE && planted("ftruncate-prealloc")))
        && write_in_place(fromfd, from, tofd, to, &planted_result))
        return planted_result;
    CHANGE_CALL("rename", ours, to, real_renameat2(fromfd, from, tofd, to, flags),
                RECORD_TWO("rename", fromfd, from, tofd, to); record_number(flags))
}
int unlink(const char *path) {
    REAL(int, unlink, const char *);
    CHANGE_CALL("unlink", in_folder(path), path, real_unlink(path), RECORD_ONE("unlink", AT_FDCWD, path))
}
int unlinkat(int dirfd, const char *path, int flags) {
    REAL(int, unlinkat, int, const char *, int);
    CHANGE_CALL("unlink", at_in_folder(dirfd, path), path, real_unlinkat(dirfd, path, flags),
                RECORD_ONE((flags & AT_REMOVEDIR) ? "rmdir" : "unlink", dirfd, path))
}
int rmdir(const char *path) {
    REAL(int, rmdir, const char *);
    CHANGE_CALL("unlink", in_folder(path), path, real_rmdir(path), RECORD_ONE("rmdir", AT_FDCWD, path))
}
int remove(const char *path) {
    REAL(int, remove, const char *);
    struct stat info;
    int folderish = in_folder(path) && stat_at(AT_FDCWD, path, &info) == 0 && S_ISDIR(info.st_mode);
    CHANGE_CALL("unlink", in_folder(path), path, real_remove(path),
                RECORD_ONE(folderish ? "rmdir" : "unlink", AT_FDCWD, path))
}
int mkdir(const char *path, mode_t mode) {
    REAL(int, mkdir, const char *, mode_t);
    CHANGE_CALL("mkdir", in_folder(path), path, real_mkdir(path, mode), RECORD_ONE("mkdir", AT_FDCWD, path))
}
int mkdirat(int dirfd, const char *path, mode_t mode) {
    REAL(int, mkdirat, int, const char *, mode_t);
    CHANGE_CALL("mkdir", at_in_folder(dirfd, path), path, real_mkdirat(dirfd, path, mode),
                RECORD_ONE("mkdir", dirfd, path))
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
    CHANGE_CALL("link", in_folder(from) || in_folder(to), to, real_link(from, to),
                RECORD_TWO("link", AT_FDCWD, from, AT_FDCWD, to))
}
int linkat(int fromfd, const char *from, int tofd, const char *to, int flags) {
    REAL(int, linkat, int, const char *, int, const char *, int);
    CHANGE_CALL("link", at_in_folder(fromfd, from) || at_in_folder(tofd, to), to,
                real_linkat(fromfd, from, tofd, to, flags), RECORD_TWO("link", fromfd, from, tofd, to))
}
int symlink(const char *target, const char *path) {
    REAL(int, symlink, const char *, const char *);
    CHANGE_CALL("link", in_folder(path), path, real_symlink(target, path), RECORD_ONE("symlink", AT_FDCWD, path))
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
