// Test support: decodes a JPEG to its component planes as stored, so tests can compare
// the samples heic2jpg's raw encoder was given with what a decoder gets back. Kept out
// of the shipped codec (CJPEGCodec), which never needs it. Like CJPEGCodec it owns its
// setjmp, so libjpeg's longjmp never crosses Swift frames.
#ifndef CJPEGPLANES_H
#define CJPEGPLANES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Where `cjpegplanes_decode` put each component's samples.
typedef struct {
    /// 1 (gray) or 3 (Y, Cb, Cr).
    int count;
    /// Component p is `width[p]` × `height[p]` samples (its downsampled size), rows
    /// `width[p]` bytes apart, starting `offset[p]` bytes into the buffer.
    uint32_t width[3];
    uint32_t height[3];
    size_t offset[3];
    /// libjpeg warnings (each means corrupt or truncated data).
    int warnings;
    /// The error's message, or the first warning's.
    char message[200];
} cjpegplanes_result;

/// Decodes a whole JPEG held in memory to its component planes (libjpeg's
/// `raw_data_out`: no upsampling, no colour conversion). `*buffer` receives one malloc'd
/// buffer holding every plane (free with `free`). Only 1- and 3-component images are
/// accepted. Returns 0 on success, 1 when it decoded with warnings, -1 on error.
int cjpegplanes_decode(const uint8_t *data, size_t length, uint8_t **buffer, cjpegplanes_result *result);

#ifdef __cplusplus
}
#endif

#endif
