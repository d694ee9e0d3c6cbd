// The loaded libjpeg-turbo's version, read from the library's own bytes. See CJPEGCodec.h.
#define _GNU_SOURCE
#include "CJPEGCodec.h"

#include <link.h>
#include <stdio.h> // jpeglib.h needs FILE
#include <string.h>

#include <jpeglib.h>

static const char version_prefix[] = "libjpeg-turbo version ";

/// What `find_version` looks for (an address inside libjpeg) and what it found.
typedef struct {
    uintptr_t inside;
    char *version;
    size_t capacity;
    int found;
} version_search;

/// True when `address` lies in one of the object's loaded segments.
static int object_holds(const struct dl_phdr_info *info, uintptr_t address) {
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + segment->p_vaddr;
        if (segment->p_type == PT_LOAD && address >= start && address - start < segment->p_memsz) return 1;
    }
    return 0;
}

/// `dl_iterate_phdr` callback: in the object holding `inside`, scans each readable
/// loaded segment's file-backed bytes for the version string; stops at that object.
static int find_version(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    version_search *search = data;
    if (!object_holds(info, search->inside)) return 0;
    for (int i = 0; i < info->dlpi_phnum && !search->found; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        if (segment->p_type != PT_LOAD || !(segment->p_flags & PF_R)) continue;
        const char *start = (const char *)(info->dlpi_addr + segment->p_vaddr);
        const char *hit = memmem(start, segment->p_filesz, version_prefix, sizeof version_prefix - 1);
        if (hit == NULL) continue;
        const char *digits = hit + sizeof version_prefix - 1, *end = start + segment->p_filesz;
        size_t length = 0;
        while (digits + length < end && length + 1 < search->capacity
               && ((digits[length] >= '0' && digits[length] <= '9') || digits[length] == '.')) length++;
        if (length == 0) continue;
        memcpy(search->version, digits, length);
        search->version[length] = '\0';
        search->found = 1;
    }
    return 1;
}

int cjpegcodec_library_version(char *version, size_t capacity) {
    if (capacity == 0) return -1;
    version[0] = '\0';
    // The standard message table is libjpeg's own data, so its address names the
    // object libjpeg was loaded from (a function's address could be a PLT stub).
    struct jpeg_error_mgr errors;
    jpeg_std_error(&errors);
    version_search search = { (uintptr_t)errors.jpeg_message_table, version, capacity, 0 };
    dl_iterate_phdr(find_version, &search);
    return search.found ? 0 : -1;
}
