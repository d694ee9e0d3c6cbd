// CJPEGCodec: the only C code of our own. It exists because libjpeg reports fatal
// errors by calling `error_exit`, which must not return; the standard answer is
// `longjmp`, and a `longjmp` must never cross Swift frames. Every function here owns
// its `setjmp`, so an error comes back to Swift as a return code plus a message.
// Warnings (corrupt-data messages) are counted, never printed.
#ifndef CJPEGCODEC_H
#define CJPEGCODEC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Return codes of every function below.
enum {
    CJPEGCODEC_OK = 0,
    /// libjpeg raised an error; the message says which.
    CJPEGCODEC_ERROR = 1,
    /// libjpeg emitted a warning, which means corrupt data (decode) or a misuse (encode).
    CJPEGCODEC_WARNING = 2,
    /// Out of memory, or a call in the wrong state.
    CJPEGCODEC_FAILED = 3,
};

/// Chroma subsampling for colour output.
typedef enum {
    CJPEGCODEC_SUBSAMPLING_420 = 0,
    CJPEGCODEC_SUBSAMPLING_422 = 1,
    CJPEGCODEC_SUBSAMPLING_444 = 2,
} cjpegcodec_subsampling;

/// An encoder writing baseline JPEG to a file descriptor. Opaque.
typedef struct cjpegcodec_encoder cjpegcodec_encoder;

/// Allocates an encoder that writes to `fd` (never closed by the encoder). NULL when out of memory.
cjpegcodec_encoder *cjpegcodec_encoder_create(int fd);

/// Writes SOI and the frame header. `components` is 1 (grayscale) or 3 (interleaved RGB).
int cjpegcodec_encoder_start(cjpegcodec_encoder *enc, uint32_t width, uint32_t height,
                             int components, int quality, cjpegcodec_subsampling subsampling);

/// Writes one APPn/COM marker; call after start and before the first row.
/// `length` must be at most 65,533 bytes.
int cjpegcodec_encoder_write_marker(cjpegcodec_encoder *enc, int marker,
                                    const uint8_t *data, size_t length);

/// Writes an ICC profile as APP2 `ICC_PROFILE` chunks (jpeg_write_icc_profile).
int cjpegcodec_encoder_write_icc(cjpegcodec_encoder *enc, const uint8_t *data, size_t length);

/// Compresses `count` scanlines from `rows` (each `stride` bytes apart).
int cjpegcodec_encoder_write_rows(cjpegcodec_encoder *enc, const uint8_t *rows,
                                  size_t stride, uint32_t count);

/// Writes EOI and flushes the destination.
int cjpegcodec_encoder_finish(cjpegcodec_encoder *enc);

/// The message of the last error or warning; empty when there was none.
const char *cjpegcodec_encoder_message(const cjpegcodec_encoder *enc);

/// Frees the encoder (aborting an unfinished image).
void cjpegcodec_encoder_destroy(cjpegcodec_encoder *enc);

/// What `cjpegcodec_decode` found.
typedef struct {
    uint32_t width;
    uint32_t height;
    /// 1 for grayscale output, 3 for RGB.
    int components;
    /// libjpeg warnings: each one means corrupt or truncated data.
    int warnings;
    /// The message of the error, or of the first warning.
    char message[200];
} cjpegcodec_decode_info;

/// Decodes a whole JPEG held in memory. When `pixels` is not NULL it receives a
/// malloc'd buffer of width × height × components bytes (free with `cjpegcodec_free`);
/// when NULL the image is decoded and discarded (a validity check).
/// Returns CJPEGCODEC_WARNING when the image decoded but libjpeg warned.
int cjpegcodec_decode(const uint8_t *data, size_t length, uint8_t **pixels,
                      cjpegcodec_decode_info *info);

/// Frees a buffer returned by `cjpegcodec_decode`.
void cjpegcodec_free(void *buffer);

#ifdef __cplusplus
}
#endif

#endif
