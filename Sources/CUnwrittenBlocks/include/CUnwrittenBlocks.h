// CUnwrittenBlocks: finds the parts of a decoded picture its decoder never wrote (a slice
// that ends before the picture does). A picture buffer is filled with a fixed pattern
// when it is allocated; an 8x8 block that still holds the pattern afterwards was never
// decoded. The pattern is a function of each byte's address, so a buffer is checked
// wherever the decoder's visible area starts inside it.
#ifndef CUNWRITTENBLOCKS_H
#define CUNWRITTENBLOCKS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Fills `size` bytes at `memory` with the pattern.
void h2j_unwritten_fill(void *memory, size_t size);

/// While a thread's count is above zero, every buffer that thread gets from
/// `posix_memalign` or `memalign` (libde265 1.0's picture allocator, which its custom
/// allocators cannot replace once a stream uses SAO) is filled with the pattern. Calls nest.
void h2j_unwritten_fill_allocations_begin(void);
void h2j_unwritten_fill_allocations_end(void);

/// The first 8x8 block (clipped at the edges), in raster order, of a `width` x `height`
/// plane of `sample_bytes`-byte samples whose every byte still holds the pattern: returns 1
/// and sets `*x`, `*y` to its top-left sample; 0 when every block was written.
int h2j_unwritten_first_block(const uint8_t *plane, ptrdiff_t stride, int width, int height,
                              int sample_bytes, int *x, int *y);

#ifdef __cplusplus
}
#endif

#endif
