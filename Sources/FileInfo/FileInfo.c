#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "SingletonStoresFileInfo.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#if defined(__linux__)
#include <sys/sysmacros.h>
#endif

static void fill(singleton_stores_file_info *info, const struct stat *seen) {
    info->device = (unsigned long long)seen->st_dev;
    info->inode = (unsigned long long)seen->st_ino;
    info->mode = (unsigned int)seen->st_mode;
    info->owner = (unsigned int)seen->st_uid;
    info->links = (unsigned long long)seen->st_nlink;
    info->size = (long long)seen->st_size;
}

static int from_stat(int directory, const char *path, int flags, singleton_stores_file_info *info) {
    struct stat seen;
    if (fstatat(directory, path, &seen, flags) != 0) return -1;
    fill(info, &seen);
    return 0;
}

int singleton_stores_file_info_at(int directory, const char *path, int flags, singleton_stores_file_info *info) {
#if defined(__linux__) && defined(STATX_INO) && defined(AT_STATX_SYNC_AS_STAT)
    struct statx seen;
    const unsigned int wanted = STATX_TYPE | STATX_MODE | STATX_NLINK | STATX_UID | STATX_INO | STATX_SIZE;
    if (statx(directory, path, flags | AT_STATX_SYNC_AS_STAT, wanted, &seen) == 0) {
        if ((seen.stx_mask & wanted) == wanted) {
            info->device = (unsigned long long)makedev(seen.stx_dev_major, seen.stx_dev_minor);
            info->inode = (unsigned long long)seen.stx_ino;
            info->mode = (unsigned int)seen.stx_mode;
            info->owner = (unsigned int)seen.stx_uid;
            info->links = (unsigned long long)seen.stx_nlink;
            info->size = (long long)seen.stx_size;
            return 0;
        }
        // A file system that could not give every field asked for: the plain call.
    } else if (errno != ENOSYS && errno != EPERM) {
        return -1;
    }
    // No statx (a kernel before 4.11, or a sandbox that refuses it): the plain call.
#endif
    return from_stat(directory, path, flags, info);
}

int singleton_stores_file_info_of(int descriptor, singleton_stores_file_info *info) {
#if defined(__linux__) && defined(AT_EMPTY_PATH)
    return singleton_stores_file_info_at(descriptor, "", AT_EMPTY_PATH, info);
#else
    struct stat seen;
    if (fstat(descriptor, &seen) != 0) return -1;
    fill(info, &seen);
    return 0;
#endif
}
