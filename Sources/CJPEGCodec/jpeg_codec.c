// libjpeg wrapped so that no longjmp ever leaves C. See CJPEGCodec.h for why.
#include "CJPEGCodec.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jpeglib.h>
#include <jerror.h>

/// Error manager shared by encoder and decoder: libjpeg's own, plus the jump target.
typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    int warnings;
    char message[JMSG_LENGTH_MAX > 200 ? JMSG_LENGTH_MAX : 200];
} codec_error_mgr;

/// Replaces libjpeg's `error_exit` (which calls exit()): jump back to the setjmp in
/// the public function that called into libjpeg.
static void codec_error_exit(j_common_ptr cinfo) {
    codec_error_mgr *err = (codec_error_mgr *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, err->message);
    longjmp(err->jump, 1);
}

/// Replaces `emit_message`: count warnings (level -1) and keep the first one's text;
/// trace messages (level >= 0) are ignored.
static void codec_emit_message(j_common_ptr cinfo, int msg_level) {
    codec_error_mgr *err = (codec_error_mgr *)cinfo->err;
    if (msg_level < 0) {
        if (err->warnings == 0) {
            (*cinfo->err->format_message)(cinfo, err->message);
        }
        err->warnings++;
    }
}

static void codec_error_init(codec_error_mgr *err) {
    jpeg_std_error(&err->pub);
    err->pub.error_exit = codec_error_exit;
    err->pub.emit_message = codec_emit_message;
    err->warnings = 0;
    err->message[0] = '\0';
}

// MARK: - Destination: a file descriptor with our own buffer

enum { DEST_BUFFER_SIZE = 64 * 1024 };

typedef struct {
    struct jpeg_destination_mgr pub;
    int fd;
    int write_errno;
    JOCTET buffer[DEST_BUFFER_SIZE];
} fd_destination;

/// Writes all of `length` bytes, retrying short writes and EINTR; 0 on success.
static int write_fully(fd_destination *dest, const JOCTET *bytes, size_t length) {
    while (length > 0) {
        ssize_t n = write(dest->fd, bytes, length);
        if (n < 0) {
            if (errno == EINTR) continue;
            dest->write_errno = errno;
            return -1;
        }
        bytes += n;
        length -= (size_t)n;
    }
    return 0;
}

static void dest_init(j_compress_ptr cinfo) {
    fd_destination *dest = (fd_destination *)cinfo->dest;
    dest->pub.next_output_byte = dest->buffer;
    dest->pub.free_in_buffer = DEST_BUFFER_SIZE;
}

static boolean dest_empty(j_compress_ptr cinfo) {
    fd_destination *dest = (fd_destination *)cinfo->dest;
    if (write_fully(dest, dest->buffer, DEST_BUFFER_SIZE) != 0) {
        ERREXIT(cinfo, JERR_FILE_WRITE);
    }
    dest->pub.next_output_byte = dest->buffer;
    dest->pub.free_in_buffer = DEST_BUFFER_SIZE;
    return TRUE;
}

static void dest_term(j_compress_ptr cinfo) {
    fd_destination *dest = (fd_destination *)cinfo->dest;
    size_t pending = DEST_BUFFER_SIZE - dest->pub.free_in_buffer;
    if (pending > 0 && write_fully(dest, dest->buffer, pending) != 0) {
        ERREXIT(cinfo, JERR_FILE_WRITE);
    }
}

// MARK: - Encoder

struct cjpegcodec_encoder {
    struct jpeg_compress_struct cinfo;
    codec_error_mgr err;
    fd_destination dest;
    int started;
};

cjpegcodec_encoder *cjpegcodec_encoder_create(int fd) {
    cjpegcodec_encoder *enc = calloc(1, sizeof(*enc));
    if (enc == NULL) return NULL;
    codec_error_init(&enc->err);
    enc->cinfo.err = &enc->err.pub;
    if (setjmp(enc->err.jump)) {
        jpeg_destroy_compress(&enc->cinfo);
        free(enc);
        return NULL;
    }
    jpeg_create_compress(&enc->cinfo);
    enc->dest.fd = fd;
    enc->dest.pub.init_destination = dest_init;
    enc->dest.pub.empty_output_buffer = dest_empty;
    enc->dest.pub.term_destination = dest_term;
    enc->cinfo.dest = &enc->dest.pub;
    return enc;
}

/// Turns a caught libjpeg error into a return code, naming errno for write failures.
static int encoder_failed(cjpegcodec_encoder *enc) {
    if (enc->dest.write_errno != 0) {
        snprintf(enc->err.message, sizeof(enc->err.message), "cannot write output: %s",
                 strerror(enc->dest.write_errno));
    }
    jpeg_abort_compress(&enc->cinfo);
    enc->started = 0;
    return CJPEGCODEC_ERROR;
}

/// After a call into libjpeg: a warning while encoding means we misused it.
static int encoder_status(cjpegcodec_encoder *enc) {
    return enc->err.warnings > 0 ? CJPEGCODEC_WARNING : CJPEGCODEC_OK;
}

/// Sets every parameter both start functions share: size, colour spaces, quality,
/// Huffman optimisation, progression and the accurate integer DCT. Runs under the
/// caller's setjmp.
static void encoder_configure(struct jpeg_compress_struct *cinfo, uint32_t width, uint32_t height,
                              int components, J_COLOR_SPACE in_color_space, int quality,
                              cjpegcodec_coding coding) {
    cinfo->image_width = width;
    cinfo->image_height = height;
    cinfo->input_components = components;
    cinfo->in_color_space = in_color_space;
    jpeg_set_defaults(cinfo);
    jpeg_set_quality(cinfo, quality, TRUE);
    cinfo->optimize_coding = coding.optimize ? TRUE : FALSE;
    cinfo->dct_method = JDCT_ISLOW;
}

/// Luma sampling factors for `subsampling`, chroma 1×1 (colour images only).
static void encoder_set_sampling(struct jpeg_compress_struct *cinfo, cjpegcodec_subsampling subsampling) {
    cinfo->comp_info[0].h_samp_factor = subsampling == CJPEGCODEC_SUBSAMPLING_444 ? 1 : 2;
    cinfo->comp_info[0].v_samp_factor = subsampling == CJPEGCODEC_SUBSAMPLING_420 ? 2 : 1;
    cinfo->comp_info[1].h_samp_factor = 1;
    cinfo->comp_info[1].v_samp_factor = 1;
    cinfo->comp_info[2].h_samp_factor = 1;
    cinfo->comp_info[2].v_samp_factor = 1;
}

/// libjpeg's default progressive scan script for the components set, when asked (after
/// the colour space and components are final).
static void encoder_set_progression(struct jpeg_compress_struct *cinfo, cjpegcodec_coding coding) {
    if (coding.progressive) jpeg_simple_progression(cinfo);
}

/// Refuses a call with CJPEGCODEC_FAILED and a message saying why.
static int encoder_refuse(cjpegcodec_encoder *enc, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
static int encoder_refuse(cjpegcodec_encoder *enc, const char *format, ...) {
    va_list args;
    va_start(args, format);
    vsnprintf(enc->err.message, sizeof(enc->err.message), format, args);
    va_end(args);
    return CJPEGCODEC_FAILED;
}

int cjpegcodec_encoder_start(cjpegcodec_encoder *enc, uint32_t width, uint32_t height,
                             int components, int quality, cjpegcodec_subsampling subsampling,
                             cjpegcodec_coding coding) {
    if (enc == NULL || enc->started || (components != 1 && components != 3)) return CJPEGCODEC_FAILED;
    if (setjmp(enc->err.jump)) return encoder_failed(enc);
    struct jpeg_compress_struct *cinfo = &enc->cinfo;
    encoder_configure(cinfo, width, height, components, components == 1 ? JCS_GRAYSCALE : JCS_RGB, quality, coding);
    if (components == 3) encoder_set_sampling(cinfo, subsampling);
    encoder_set_progression(cinfo, coding);
    jpeg_start_compress(cinfo, TRUE);
    enc->started = 1;
    return encoder_status(enc);
}

int cjpegcodec_encoder_start_raw(cjpegcodec_encoder *enc, uint32_t width, uint32_t height,
                                 int components, int quality, cjpegcodec_subsampling subsampling,
                                 cjpegcodec_coding coding) {
    if (enc == NULL) return CJPEGCODEC_FAILED;
    if (enc->started) return encoder_refuse(enc, "start_raw called on an image already started");
    if (components != 1 && components != 3) {
        return encoder_refuse(enc, "raw input has 1 or 3 components, not %d", components);
    }
    if (setjmp(enc->err.jump)) return encoder_failed(enc);
    struct jpeg_compress_struct *cinfo = &enc->cinfo;
    encoder_configure(cinfo, width, height, components, components == 1 ? JCS_GRAYSCALE : JCS_YCbCr, quality, coding);
    if (components == 3) encoder_set_sampling(cinfo, subsampling);
    encoder_set_progression(cinfo, coding);
    cinfo->raw_data_in = TRUE;
    jpeg_start_compress(cinfo, TRUE);
    enc->started = 1;
    return encoder_status(enc);
}

int cjpegcodec_encoder_imcu_rows(const cjpegcodec_encoder *enc) {
    if (enc == NULL || !enc->started) return 0;
    return enc->cinfo.max_v_samp_factor * DCTSIZE;
}

int cjpegcodec_encoder_write_marker(cjpegcodec_encoder *enc, int marker,
                                    const uint8_t *data, size_t length) {
    if (enc == NULL || !enc->started || length > 65533) return CJPEGCODEC_FAILED;
    if (setjmp(enc->err.jump)) return encoder_failed(enc);
    jpeg_write_marker(&enc->cinfo, marker, data, (unsigned int)length);
    return encoder_status(enc);
}

int cjpegcodec_encoder_write_icc(cjpegcodec_encoder *enc, const uint8_t *data, size_t length) {
    if (enc == NULL || !enc->started || length == 0 || length > 255u * 65519u) return CJPEGCODEC_FAILED;
    if (setjmp(enc->err.jump)) return encoder_failed(enc);
    jpeg_write_icc_profile(&enc->cinfo, data, (unsigned int)length);
    return encoder_status(enc);
}

int cjpegcodec_encoder_write_rows(cjpegcodec_encoder *enc, const uint8_t *rows,
                                  size_t stride, uint32_t count) {
    if (enc == NULL || !enc->started) return CJPEGCODEC_FAILED;
    if (setjmp(enc->err.jump)) return encoder_failed(enc);
    enum { BATCH = 16 };
    JSAMPROW pointers[BATCH];
    uint32_t done = 0;
    while (done < count) {
        uint32_t n = count - done < BATCH ? count - done : BATCH;
        for (uint32_t i = 0; i < n; i++) {
            pointers[i] = (JSAMPROW)(rows + (size_t)(done + i) * stride);
        }
        JDIMENSION written = jpeg_write_scanlines(&enc->cinfo, pointers, n);
        if (written == 0) return CJPEGCODEC_FAILED;
        done += written;
    }
    return encoder_status(enc);
}

int cjpegcodec_encoder_write_raw(cjpegcodec_encoder *enc, const uint8_t *const planes[3],
                                 const size_t strides[3], uint32_t rows) {
    if (enc == NULL) return CJPEGCODEC_FAILED;
    if (!enc->started || !enc->cinfo.raw_data_in) {
        return encoder_refuse(enc, "write_raw called without start_raw");
    }
    struct jpeg_compress_struct *cinfo = &enc->cinfo;
    uint32_t next = cinfo->next_scanline;
    uint32_t height = cinfo->image_height;
    uint32_t imcu = (uint32_t)(cinfo->max_v_samp_factor * DCTSIZE);
    if (rows > height - next) {
        return encoder_refuse(enc, "%u rows from row %u pass the image height %u", rows, next, height);
    }
    if (rows % imcu != 0 && next + rows != height) {
        return encoder_refuse(enc, "%u rows from row %u of %u: not a multiple of %u and not the last rows",
                              rows, next, height, imcu);
    }
    if (planes == NULL || strides == NULL) return encoder_refuse(enc, "no planes given");
    for (int ci = 0; ci < cinfo->num_components; ci++) {
        if (planes[ci] == NULL) return encoder_refuse(enc, "plane %d missing", ci);
    }
    if (setjmp(enc->err.jump)) return encoder_failed(enc);
    // One iMCU row per jpeg_write_raw_data call. Rows below the last real row of this
    // call (only in the image's last iMCU row) point at that last real row.
    JSAMPROW pointers[3][MAX_SAMP_FACTOR * DCTSIZE];
    JSAMPARRAY arrays[3];
    for (int ci = 0; ci < cinfo->num_components; ci++) arrays[ci] = pointers[ci];
    int max_v = cinfo->max_v_samp_factor;
    for (uint32_t done = 0; done < rows; done += imcu) {
        for (int ci = 0; ci < cinfo->num_components; ci++) {
            int v = cinfo->comp_info[ci].v_samp_factor;
            size_t first = (size_t)done * (size_t)v / (size_t)max_v;
            size_t last = ((size_t)rows * (size_t)v + (size_t)max_v - 1) / (size_t)max_v - 1;
            for (size_t r = 0; r < (size_t)v * DCTSIZE; r++) {
                size_t row = first + r < last ? first + r : last;
                pointers[ci][r] = (JSAMPROW)(planes[ci] + row * strides[ci]);
            }
        }
        if (jpeg_write_raw_data(cinfo, arrays, imcu) != imcu) {
            return encoder_refuse(enc, "libjpeg did not take the rows at row %u", cinfo->next_scanline);
        }
    }
    return encoder_status(enc);
}

int cjpegcodec_encoder_finish(cjpegcodec_encoder *enc) {
    if (enc == NULL || !enc->started) return CJPEGCODEC_FAILED;
    if (setjmp(enc->err.jump)) return encoder_failed(enc);
    jpeg_finish_compress(&enc->cinfo);
    enc->started = 0;
    return encoder_status(enc);
}

const char *cjpegcodec_encoder_message(const cjpegcodec_encoder *enc) {
    return enc == NULL ? "out of memory" : enc->err.message;
}

int cjpegcodec_encoder_write_errno(const cjpegcodec_encoder *enc) {
    return enc->dest.write_errno;
}

void cjpegcodec_encoder_destroy(cjpegcodec_encoder *enc) {
    if (enc == NULL) return;
    jpeg_destroy_compress(&enc->cinfo);
    free(enc);
}

// MARK: - Decoder

/// State that must survive a longjmp: kept off the stack of locals the jump could clobber.
typedef struct {
    struct jpeg_decompress_struct cinfo;
    codec_error_mgr err;
    /// The output (or one reused row when the pixels are discarded).
    uint8_t *pixels;
} decode_state;

/// Allocates `size` bytes into `*buffer` or raises libjpeg's out-of-memory error.
static void decode_alloc(decode_state *state, uint8_t **buffer, size_t size) {
    *buffer = malloc(size > 0 ? size : 1);
    if (*buffer == NULL) ERREXIT1(&state->cinfo, JERR_OUT_OF_MEMORY, 0);
}

int cjpegcodec_decode(const uint8_t *data, size_t length, uint8_t **out,
                      cjpegcodec_decode_info *info) {
    if (info == NULL || data == NULL) return CJPEGCODEC_FAILED;
    memset(info, 0, sizeof(*info));
    if (out != NULL) *out = NULL;
    decode_state *state = calloc(1, sizeof(*state));
    if (state == NULL) return CJPEGCODEC_FAILED;
    codec_error_init(&state->err);
    state->cinfo.err = &state->err.pub;
    if (setjmp(state->err.jump)) {
        snprintf(info->message, sizeof(info->message), "%s", state->err.message);
        info->warnings = state->err.warnings;
        jpeg_destroy_decompress(&state->cinfo);
        free(state->pixels);
        free(state);
        return CJPEGCODEC_ERROR;
    }
    jpeg_create_decompress(&state->cinfo);
    jpeg_mem_src(&state->cinfo, data, (unsigned long)length);
    jpeg_read_header(&state->cinfo, TRUE);
    struct jpeg_decompress_struct *cinfo = &state->cinfo;
    cinfo->out_color_space = cinfo->num_components == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_start_decompress(cinfo);
    info->width = cinfo->output_width;
    info->height = cinfo->output_height;
    info->components = cinfo->output_components;
    // Interleaved RGB or gray scanlines; without `out` one row buffer is reused.
    int keep = out != NULL;
    size_t row_bytes = (size_t)cinfo->output_width * (size_t)cinfo->output_components;
    decode_alloc(state, &state->pixels, keep ? row_bytes * cinfo->output_height : row_bytes);
    while (cinfo->output_scanline < cinfo->output_height) {
        size_t row = keep ? cinfo->output_scanline : 0;
        JSAMPROW pointer = state->pixels + row * row_bytes;
        jpeg_read_scanlines(cinfo, &pointer, 1);
    }
    jpeg_finish_decompress(cinfo);
    info->warnings = state->err.warnings;
    snprintf(info->message, sizeof(info->message), "%s", state->err.message);
    jpeg_destroy_decompress(cinfo);
    if (out != NULL) {
        *out = state->pixels;
    } else {
        free(state->pixels);
    }
    free(state);
    return info->warnings > 0 ? CJPEGCODEC_WARNING : CJPEGCODEC_OK;
}

void cjpegcodec_free(void *buffer) {
    free(buffer);
}

// MARK: - Lossless transcoding

/// A destination growing in memory that the state owns at every moment (libjpeg's
/// `jpeg_mem_dest` hands its buffer over only at the end, so an error would leak it).
typedef struct {
    struct jpeg_destination_mgr pub;
    JOCTET *buffer;
    size_t capacity;
} growing_destination;

static void growing_init(j_compress_ptr cinfo) {
    growing_destination *dest = (growing_destination *)cinfo->dest;
    dest->pub.next_output_byte = dest->buffer;
    dest->pub.free_in_buffer = dest->capacity;
}

static boolean growing_empty(j_compress_ptr cinfo) {
    growing_destination *dest = (growing_destination *)cinfo->dest;
    size_t used = dest->capacity;
    JOCTET *bigger = used <= SIZE_MAX / 2 ? realloc(dest->buffer, used * 2) : NULL;
    if (bigger == NULL) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 10);
    dest->buffer = bigger;
    dest->capacity = used * 2;
    dest->pub.next_output_byte = bigger + used;
    dest->pub.free_in_buffer = used;
    return TRUE;
}

static void growing_term(j_compress_ptr cinfo) {
    (void)cinfo;
}

/// State that must survive a longjmp, as in `decode_state`.
typedef struct {
    struct jpeg_decompress_struct source;
    struct jpeg_compress_struct target;
    codec_error_mgr err;
    growing_destination dest;
} transcode_state;

/// Whether libjpeg writes `marker` itself: a JFIF APP0 or an Adobe APP14 when the target
/// gets one of its own (jpegtran's `jcopy_markers_execute` leaves them out alike).
static int transcode_written_by_libjpeg(const struct jpeg_compress_struct *target, jpeg_saved_marker_ptr marker) {
    if (target->write_JFIF_header && marker->marker == JPEG_APP0 && marker->data_length >= 5 &&
        memcmp(marker->data, "JFIF", 5) == 0) return 1;
    return target->write_Adobe_marker && marker->marker == JPEG_APP0 + 14 && marker->data_length >= 5 &&
           memcmp(marker->data, "Adobe", 5) == 0;
}

int cjpegcodec_transcode(const uint8_t *data, size_t length, cjpegcodec_coding coding,
                         uint8_t **output, size_t *output_length, char message[200]) {
    if (data == NULL || output == NULL || output_length == NULL || message == NULL) return CJPEGCODEC_FAILED;
    *output = NULL;
    *output_length = 0;
    message[0] = '\0';
    transcode_state *state = calloc(1, sizeof(*state));
    if (state == NULL) return CJPEGCODEC_FAILED;
    codec_error_init(&state->err);
    state->source.err = &state->err.pub;
    state->target.err = &state->err.pub;
    state->dest.capacity = length > 4096 ? length : 4096;
    state->dest.buffer = malloc(state->dest.capacity);
    state->dest.pub.init_destination = growing_init;
    state->dest.pub.empty_output_buffer = growing_empty;
    state->dest.pub.term_destination = growing_term;
    if (state->dest.buffer == NULL) {
        free(state);
        return CJPEGCODEC_FAILED;
    }
    // The state is zeroed, so destroying an object not created yet does nothing.
    if (setjmp(state->err.jump)) {
        snprintf(message, 200, "%s", state->err.message);
        jpeg_destroy_compress(&state->target);
        jpeg_destroy_decompress(&state->source);
        free(state->dest.buffer);
        free(state);
        return CJPEGCODEC_ERROR;
    }
    jpeg_create_decompress(&state->source);
    jpeg_create_compress(&state->target);
    jpeg_mem_src(&state->source, data, (unsigned long)length);
    jpeg_save_markers(&state->source, JPEG_COM, 0xFFFF);
    for (int m = 0; m < 16; m++) jpeg_save_markers(&state->source, JPEG_APP0 + m, 0xFFFF);
    jpeg_read_header(&state->source, TRUE);
    jvirt_barray_ptr *coefficients = jpeg_read_coefficients(&state->source);
    jpeg_copy_critical_parameters(&state->source, &state->target);
    state->target.optimize_coding = coding.optimize ? TRUE : FALSE;
    if (coding.progressive || state->source.progressive_mode) jpeg_simple_progression(&state->target);
    state->target.dest = &state->dest.pub;
    jpeg_write_coefficients(&state->target, coefficients);
    for (jpeg_saved_marker_ptr marker = state->source.marker_list; marker != NULL; marker = marker->next) {
        if (transcode_written_by_libjpeg(&state->target, marker)) continue;
        jpeg_write_marker(&state->target, marker->marker, marker->data, marker->data_length);
    }
    jpeg_finish_compress(&state->target);
    jpeg_finish_decompress(&state->source);
    int warnings = state->err.warnings;
    snprintf(message, 200, "%s", state->err.message);
    jpeg_destroy_compress(&state->target);
    jpeg_destroy_decompress(&state->source);
    if (warnings > 0) {
        free(state->dest.buffer);
        free(state);
        return CJPEGCODEC_WARNING;
    }
    *output = state->dest.buffer;
    *output_length = state->dest.capacity - state->dest.pub.free_in_buffer;
    free(state);
    return CJPEGCODEC_OK;
}
