#ifndef SINGLETON_STORES_FILE_INFO_H
#define SINGLETON_STORES_FILE_INFO_H

/// What the storage needs to know of a file: never its times.
typedef struct {
    unsigned long long device;
    unsigned long long inode;
    unsigned int mode;
    unsigned int owner;
    unsigned long long links;
    long long size;
} singleton_stores_file_info;

/// `fstatat(directory, path, …, flags)` without asking for the file's times: on Linux a `statx`
/// whose mask leaves them out, falling back to `fstatat` where there is no `statx`; elsewhere
/// `fstatat`. Returns 0, or -1 with `errno` set.
///
/// Why: on Linux 6.13 and later, asking for a file's change time makes the next write of the
/// file take a fine-grained time stamp, which changes the inode, and the `fdatasync` after that
/// write then also writes the inode to the disk. A document written in place and looked at
/// between its writes would pay a second disk write on every commit.
int singleton_stores_file_info_at(int directory, const char *path, int flags, singleton_stores_file_info *info);

/// ``singleton_stores_file_info_at`` of the file open as `descriptor`.
int singleton_stores_file_info_of(int descriptor, singleton_stores_file_info *info);

#endif
