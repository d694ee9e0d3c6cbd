// See include/CUnwrittenBlocks.h.
#include "CUnwrittenBlocks.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/// The pattern repeats every PERIOD bytes of address space; `pattern` holds one period
/// and enough more for any block row (8 samples of up to 2 bytes) to be read in one piece.
#define PERIOD 4093
#define TAIL 64
static uint8_t pattern[PERIOD + TAIL];
static pthread_once_t pattern_once = PTHREAD_ONCE_INIT;

static void make_pattern(void) {
    uint64_t state = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < PERIOD; i++) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        pattern[i] = (uint8_t)(state >> 24);
    }
    memcpy(pattern + PERIOD, pattern, TAIL);
}

/// The pattern's bytes for the address `at`.
static const uint8_t *expected(const void *at) {
    return pattern + (uintptr_t)at % PERIOD;
}

void h2j_unwritten_fill(void *memory, size_t size) {
    pthread_once(&pattern_once, make_pattern);
    uint8_t *bytes = memory;
    size_t phase = (uintptr_t)bytes % PERIOD;
    while (size > 0) {
        size_t run = PERIOD - phase < size ? PERIOD - phase : size;
        memcpy(bytes, pattern + phase, run);
        bytes += run;
        size -= run;
        phase = 0;
    }
}

static _Thread_local int filling;

void h2j_unwritten_fill_allocations_begin(void) { filling++; }
void h2j_unwritten_fill_allocations_end(void) { filling--; }

/// Aligned allocation as libc does it (glibc's `aligned_alloc` is its `memalign`), with
/// the pattern written while the calling thread asked for it.
static void *allocate(size_t alignment, size_t size) {
    void *memory = aligned_alloc(alignment, size);
    if (memory && filling > 0) h2j_unwritten_fill(memory, size);
    return memory;
}

/// `posix_memalign` and `memalign`, which libde265 allocates its pictures with (Debian's
/// build takes the first). The executable's definitions take the place of libc's for every
/// shared library; they keep libc's contracts (EINVAL for a bad alignment; `memalign`
/// rounds one up to a power of two).
int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *memory = allocate(alignment, size);
    if (!memory) return ENOMEM;
    *out = memory;
    return 0;
}

void *memalign(size_t alignment, size_t size) {
    size_t rounded = sizeof(void *);
    while (rounded < alignment) rounded <<= 1;
    void *memory = allocate(rounded, size);
    if (!memory) errno = ENOMEM;
    return memory;
}

int h2j_unwritten_first_block(const uint8_t *plane, ptrdiff_t stride, int width, int height,
                              int sample_bytes, int *x, int *y) {
    pthread_once(&pattern_once, make_pattern);
    if (width <= 0 || height <= 0 || sample_bytes < 1 || sample_bytes > 2) return 0;
    int columns = (width + 7) / 8;
    unsigned char *untouched = malloc((size_t)columns);
    if (!untouched) return 0;
    int found = 0;
    for (int top = 0; top < height && !found; top += 8) {
        memset(untouched, 1, (size_t)columns);
        int left = columns;
        for (int row = top; row < top + 8 && row < height && left > 0; row++) {
            const uint8_t *line = plane + (ptrdiff_t)row * stride;
            for (int column = 0; column < columns; column++) {
                if (!untouched[column]) continue;
                int samples = width - column * 8 < 8 ? width - column * 8 : 8;
                const uint8_t *at = line + (size_t)column * 8 * (size_t)sample_bytes;
                if (memcmp(at, expected(at), (size_t)samples * (size_t)sample_bytes) != 0) {
                    untouched[column] = 0;
                    left--;
                }
            }
        }
        for (int column = 0; column < columns && left > 0; column++) {
            if (untouched[column]) {
                *x = column * 8;
                *y = top;
                found = 1;
                break;
            }
        }
    }
    free(untouched);
    return found;
}
