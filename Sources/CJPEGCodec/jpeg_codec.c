// libjpeg wrapped so that no longjmp ever leaves C. See CJPEGCodec.h for why.
#include "CJPEGCodec.h"

#include <errno.h>
#include <setjmp.h>
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

int cjpegcodec_encoder_start(cjpegcodec_encoder *enc, uint32_t width, uint32_t height,
                             int components, int quality, cjpegcodec_subsampling subsampling) {
    if (enc == NULL || enc->started || (components != 1 && components != 3)) return CJPEGCODEC_FAILED;
    if (setjmp(enc->err.jump)) return encoder_failed(enc);
    struct jpeg_compress_struct *cinfo = &enc->cinfo;
    cinfo->image_width = width;
    cinfo->image_height = height;
    cinfo->input_components = components;
    cinfo->in_color_space = components == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(cinfo);
    jpeg_set_quality(cinfo, quality, TRUE);
    cinfo->optimize_coding = TRUE;
    cinfo->dct_method = JDCT_ISLOW;
    if (components == 3) {
        int h = subsampling == CJPEGCODEC_SUBSAMPLING_444 ? 1 : 2;
        int v = subsampling == CJPEGCODEC_SUBSAMPLING_420 ? 2 : 1;
        cinfo->comp_info[0].h_samp_factor = h;
        cinfo->comp_info[0].v_samp_factor = v;
        cinfo->comp_info[1].h_samp_factor = 1;
        cinfo->comp_info[1].v_samp_factor = 1;
        cinfo->comp_info[2].h_samp_factor = 1;
        cinfo->comp_info[2].v_samp_factor = 1;
    }
    jpeg_start_compress(cinfo, TRUE);
    enc->started = 1;
    return encoder_status(enc);
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
    uint8_t *pixels;
} decode_state;

int cjpegcodec_decode(const uint8_t *data, size_t length, uint8_t **pixels,
                      cjpegcodec_decode_info *info) {
    if (info == NULL || data == NULL) return CJPEGCODEC_FAILED;
    memset(info, 0, sizeof(*info));
    if (pixels != NULL) *pixels = NULL;
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
    state->cinfo.out_color_space = state->cinfo.num_components == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_start_decompress(&state->cinfo);
    size_t row_bytes = (size_t)state->cinfo.output_width * (size_t)state->cinfo.output_components;
    info->width = state->cinfo.output_width;
    info->height = state->cinfo.output_height;
    info->components = state->cinfo.output_components;
    if (pixels != NULL) {
        state->pixels = malloc(row_bytes * state->cinfo.output_height);
        if (state->pixels == NULL) ERREXIT1(&state->cinfo, JERR_OUT_OF_MEMORY, 0);
    } else {
        state->pixels = malloc(row_bytes);
        if (state->pixels == NULL) ERREXIT1(&state->cinfo, JERR_OUT_OF_MEMORY, 0);
    }
    while (state->cinfo.output_scanline < state->cinfo.output_height) {
        size_t row = pixels != NULL ? state->cinfo.output_scanline : 0;
        JSAMPROW pointer = state->pixels + row * row_bytes;
        jpeg_read_scanlines(&state->cinfo, &pointer, 1);
    }
    jpeg_finish_decompress(&state->cinfo);
    info->warnings = state->err.warnings;
    snprintf(info->message, sizeof(info->message), "%s", state->err.message);
    jpeg_destroy_decompress(&state->cinfo);
    if (pixels != NULL) {
        *pixels = state->pixels;
    } else {
        free(state->pixels);
    }
    free(state);
    return info->warnings > 0 ? CJPEGCODEC_WARNING : CJPEGCODEC_OK;
}

void cjpegcodec_free(void *buffer) {
    free(buffer);
}
