#define _GNU_SOURCE
#include "CMemoryFile.h"
#include <sys/mman.h>

int h2j_memory_file(void) {
    return memfd_create("heic2jpg", MFD_CLOEXEC);
}
