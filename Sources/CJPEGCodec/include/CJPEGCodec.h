// CJPEGCodec: the only C code the product ships. It exists because libjpeg reports fatal
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

/// An encoder writing a JPEG to a file descriptor. Opaque.
typedef struct cjpegcodec_encoder cjpegcodec_encoder;

/// Allocates an encoder that writes to `fd` (never closed by the encoder). NULL when out of memory.
cjpegcodec_encoder *cjpegcodec_encoder_create(int fd);

/// How the scans are coded, beyond quality and sampling. Both make libjpeg hold every
/// DCT coefficient of the image (a whole-image buffer; H2JJPEGCodec's `JPEGCoefficientMemory`)
/// and write the scans only at `cjpegcodec_encoder_finish`.
typedef struct {
    /// A progressive JPEG (SOF2) with libjpeg's default scan script
    /// (`jpeg_simple_progression`); libjpeg then optimises the tables whatever `optimize`.
    int progressive;
    /// Huffman tables optimised for the image (`optimize_coding`), not the standard ones.
    int optimize;
} cjpegcodec_coding;

/// Writes SOI and the frame header. `components` is 1 (grayscale) or 3 (interleaved RGB,
/// downsampled by libjpeg to `subsampling`).
int cjpegcodec_encoder_start(cjpegcodec_encoder *enc, uint32_t width, uint32_t height,
                             int components, int quality, cjpegcodec_subsampling subsampling,
                             cjpegcodec_coding coding);

/// Starts an image fed as raw sample planes, with no colour conversion and no
/// downsampling (libjpeg's `raw_data_in`). `components` 3: YCbCr with chroma
/// `subsampling` (Cb and Cr 1×1, Y 2×2 for 4:2:0, 2×1 for 4:2:2, 1×1 for 4:4:4), written
/// as a JFIF YCbCr JPEG; 1: grayscale. Quality and DCT are those of
/// `cjpegcodec_encoder_start`. Markers may follow.
///
/// With neither `coding` option the Huffman tables are the standard ones: memory stays at
/// one iMCU row and the output streams out as rows arrive. Optimised tables or
/// progressive scans hold the whole image's coefficients (3 bytes per pixel for 4:2:0,
/// 6 for 4:4:4) and run a serial entropy pass at the end; files are about 4% smaller at
/// quality 90.
int cjpegcodec_encoder_start_raw(cjpegcodec_encoder *enc, uint32_t width, uint32_t height,
                                 int components, int quality, cjpegcodec_subsampling subsampling,
                                 cjpegcodec_coding coding);

/// Rows one iMCU row spans, the unit of `cjpegcodec_encoder_write_raw`: 16 for 4:2:0,
/// 8 for 4:2:2, 4:4:4 and grayscale (max_v_samp_factor × 8; the RGB path has one too).
/// 0 before start.
int cjpegcodec_encoder_imcu_rows(const cjpegcodec_encoder *enc);

/// Compresses `rows` luma rows starting at the next unwritten row, after
/// `cjpegcodec_encoder_start_raw`. Component `p` (0 Y, 1 Cb, 2 Cr; only 0 for gray)
/// row `r` of this call is at `planes[p] + r * strides[p]`; chroma has ceil(rows / 2) rows
/// for 4:2:0, `rows` otherwise.
///
/// Rows: `rows` must be a multiple of `cjpegcodec_encoder_imcu_rows`, except for the call
/// that ends exactly at the image height. In that call the rows libjpeg needs below the
/// image (up to the iMCU boundary) are the last real row again (its pointer is repeated,
/// nothing is copied). Any other count, a call before start, or rows past the end give
/// CJPEGCODEC_FAILED with a message and change nothing.
///
/// Width: every row must have ceil(w / 8) × 8 readable samples, where w is the
/// component's width (Y: W; chroma: ceil(W / 2), or W for 4:4:4), and the samples past w must be edge
/// replicas written by the caller: raw input bypasses libjpeg's edge expansion
/// (jcprepct.c/jcsample.c), and its DCT (jcdctmgr.c `forward_DCT`) reads every sample of
/// each of the component's ceil(w / 8) blocks. Only the blocks beyond those (the right
/// and bottom padding that completes an MCU: a second Y block column or row when
/// ceil(W / 8) or ceil(H / 8) is odd) are made by libjpeg itself, as dummy blocks in
/// its coefficient controller (jccoefct.c `compress_first_pass` or `compress_data`,
/// libjpeg-turbo 2.1.5).
int cjpegcodec_encoder_write_raw(cjpegcodec_encoder *enc, const uint8_t *const planes[3],
                                 const size_t strides[3], uint32_t rows);

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

/// The errno of the write that failed (a full disk), 0 when no write has failed.
int cjpegcodec_encoder_write_errno(const cjpegcodec_encoder *enc);

/// Frees the encoder (aborting an unfinished image).
void cjpegcodec_encoder_destroy(cjpegcodec_encoder *enc);

/// The same JPEG with its scans coded anew from its DCT coefficients, untouched
/// (`jpeg_read_coefficients` → `jpeg_write_coefficients`, as `jpegtran` does): lossless.
/// Progressive when `coding.progressive` or when the source is; optimised tables with
/// `coding.optimize`. Every APPn and COM segment of the source follows in its order,
/// except a JFIF APP0 or Adobe APP14 that libjpeg writes itself. `*output` receives a
/// malloc'd JPEG of `*output_length` bytes (free with `cjpegcodec_free`). Holds the
/// source's whole coefficient buffer. Returns CJPEGCODEC_WARNING (and no output) when
/// libjpeg warned: the source is corrupt.
int cjpegcodec_transcode(const uint8_t *data, size_t length, cjpegcodec_coding coding,
                         uint8_t **output, size_t *output_length, char message[200]);

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

/// The version of the libjpeg-turbo actually loaded ("2.1.5"), which libjpeg-turbo 2.1
/// offers no call for: read from the "libjpeg-turbo version X.Y.Z" string the library
/// carries, in the mapped segments of the object that holds libjpeg's message table.
/// Writes at most `capacity` bytes, NUL included; returns 0, or -1 when no such string
/// is found (another libjpeg) and `version` is then empty.
int cjpegcodec_library_version(char *version, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif
