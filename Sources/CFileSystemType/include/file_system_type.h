#ifndef CFILESYSTEMTYPE_H
#define CFILESYSTEMTYPE_H

/// The `f_type` magic number `statfs(2)` reports for the file system holding `path`, or
/// -1 with errno set (statfs is not in Swift's Glibc module).
long long h2j_file_system_magic(const char *path);

#endif
