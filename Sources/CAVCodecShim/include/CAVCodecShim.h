// CAVCodecShim: FFmpeg's HEVC decoder (libavcodec) loaded at run time with dlopen, so
// heic2jpg builds, tests and runs where libavcodec is absent, and needs no FFmpeg headers.
// Only functions are called, plus the fields every major version (59, 60, 61) keeps at
// the same offsets: the head of AVFrame (data, linesize, extended_data, width, height,
// nb_samples, format) and of AVPacket (buf, pts, dts, data, size).
#ifndef CAVCODECSHIM_H
#define CAVCODECSHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Loads the first of libavcodec.so.61, .60, .59 that loads and resolves every function
/// the shim calls; once per process (later calls return the first outcome). Returns 0, or
/// -1 when none loads (`h2j_avc_load_error` says why). `names` (NULL: the list above) is a
/// NULL-terminated list to try instead; only the first call's list counts.
int h2j_avc_load(const char *const *names);

/// Why `h2j_avc_load` failed ("" when it did not).
const char *h2j_avc_load_error(void);

/// The file name that loaded ("libavcodec.so.59"); NULL before a successful load.
const char *h2j_avc_soname(void);

/// libavcodec's `avcodec_version()` (major << 16 | minor << 8 | micro) and FFmpeg's
/// `av_version_info()`; 0 and NULL before a successful load.
unsigned h2j_avc_version(void);
const char *h2j_avc_ffmpeg_version(void);

/// One HEVC decoder context, single-threaded, errors not concealed. Opaque.
typedef struct h2j_avc_decoder h2j_avc_decoder;

/// A new decoder, or NULL with a message in `error` (`capacity` bytes, NUL-terminated).
h2j_avc_decoder *h2j_avc_decoder_new(char *error, size_t capacity);
void h2j_avc_decoder_free(h2j_avc_decoder *decoder);

/// One decoded picture, borrowed until `h2j_avc_decoder_end`. Sizes are after the
/// conformance window; samples of more than 8 bits are little-endian 16-bit words.
typedef struct {
    const uint8_t *planes[3];
    int strides[3];
    int width, height;
    /// 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4 (GBR planes stay in coded order: G, B, R).
    int chroma_format;
    int bit_depth;
} h2j_avc_picture;

/// Results of `h2j_avc_decode` besides 0 and negative AVERROR codes.
enum {
    /// The stream ended without a picture.
    H2J_AVC_NO_PICTURE = 1,
    /// The picture's pixel format is not one of the planar YUV/GBR/gray formats known.
    H2J_AVC_UNKNOWN_FORMAT = 2,
};

/// Decodes `size` bytes of Annex-B NAL units (start codes) as one access unit and
/// drains the decoder: 0 with the first picture in `*picture`, H2J_AVC_NO_PICTURE,
/// H2J_AVC_UNKNOWN_FORMAT (with the format's number in `picture->chroma_format`), or the
/// negative AVERROR of the call that failed.
int h2j_avc_decode(h2j_avc_decoder *decoder, const uint8_t *data, size_t size, h2j_avc_picture *picture);

/// Releases the picture and resets the decoder for the next access unit, whatever
/// `h2j_avc_decode` returned.
void h2j_avc_decoder_end(h2j_avc_decoder *decoder);

/// libavutil's text for an AVERROR code (`av_strerror`), into `buffer`.
void h2j_avc_error_text(int code, char *buffer, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif
