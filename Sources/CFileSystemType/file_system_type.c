#include "file_system_type.h"

#include <sys/vfs.h>

long long h2j_file_system_magic(const char *path) {
    struct statfs info;
    if (statfs(path, &info) != 0) return -1;
    return (long long)(unsigned long)info.f_type;
}
