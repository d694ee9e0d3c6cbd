// See include/CAVCodecShim.h. The prototypes below are FFmpeg's, declared here with
// opaque pointers so that no FFmpeg header is needed to build.
#include "CAVCodecShim.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The head of AVFrame, the same in every libavutil since 2012 (54) through 7.x (59).
typedef struct {
    uint8_t *data[8];
    int linesize[8];
    uint8_t **extended_data;
    int width, height;
    int nb_samples;
    int format;
} frame_head;

/// The head of AVPacket, the same in every libavcodec since 57 through 61.
typedef struct {
    void *buf;
    int64_t pts;
    int64_t dts;
    uint8_t *data;
    int size;
} packet_head;

/// FFERRTAG('E','O','F',' ').
#define AVERROR_EOF_CODE (-(int)('E' | ('O' << 8) | ('F' << 16) | ((unsigned)' ' << 24)))
#define AV_LOG_QUIET_LEVEL (-8)

static struct {
    const void *(*find_decoder_by_name)(const char *);
    void *(*alloc_context3)(const void *);
    void (*free_context)(void **);
    int (*open2)(void *, const void *, void **);
    int (*send_packet)(void *, const void *);
    int (*receive_frame)(void *, void *);
    void (*flush_buffers)(void *);
    unsigned (*version)(void);
    void *(*packet_alloc)(void);
    void (*packet_free)(void **);
    int (*new_packet)(void *, int);
    void (*packet_unref)(void *);
    void *(*frame_alloc)(void);
    void (*frame_free)(void **);
    void (*frame_unref)(void *);
    int (*opt_set)(void *, const char *, const char *, int);
    int (*get_pix_fmt)(const char *);
    int (*strerror)(int, char *, size_t);
    void (*log_set_level)(int);
    const char *(*version_info)(void);
} av;

/// Planar formats the HEVC decoder outputs, by name (their numbers differ by version).
/// The `yuvj` ones are what libavcodec names an 8-bit full-range picture; the samples are
/// the same.
static const struct { const char *name; int chroma_format, bit_depth; } format_names[] = {
    {"gray", 0, 8}, {"gray9le", 0, 9}, {"gray10le", 0, 10}, {"gray12le", 0, 12},
    {"yuv420p", 1, 8}, {"yuv420p9le", 1, 9}, {"yuv420p10le", 1, 10}, {"yuv420p12le", 1, 12},
    {"yuv422p", 2, 8}, {"yuv422p9le", 2, 9}, {"yuv422p10le", 2, 10}, {"yuv422p12le", 2, 12},
    {"yuv444p", 3, 8}, {"yuv444p9le", 3, 9}, {"yuv444p10le", 3, 10}, {"yuv444p12le", 3, 12},
    {"yuvj420p", 1, 8}, {"yuvj422p", 2, 8}, {"yuvj444p", 3, 8},
    {"gbrp", 3, 8}, {"gbrp9le", 3, 9}, {"gbrp10le", 3, 10}, {"gbrp12le", 3, 12},
};
#define FORMAT_COUNT (sizeof format_names / sizeof format_names[0])
static int format_numbers[FORMAT_COUNT];

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *const *requested_names;
static const char *loaded_name;
static int load_status = -1;
static char load_error[512];

static const char *const default_names[] = {"libavcodec.so.61", "libavcodec.so.60", "libavcodec.so.59", NULL};

/// Resolves every function from `handle` (dlsym also searches libavutil, a dependency).
static int resolve(void *handle) {
#define SYM(field, symbol)                                                        \
    do {                                                                          \
        *(void **)&av.field = dlsym(handle, symbol);                              \
        if (!av.field) {                                                          \
            snprintf(load_error, sizeof load_error, "%s has no %s", loaded_name, symbol); \
            return -1;                                                            \
        }                                                                         \
    } while (0)
    SYM(find_decoder_by_name, "avcodec_find_decoder_by_name");
    SYM(alloc_context3, "avcodec_alloc_context3");
    SYM(free_context, "avcodec_free_context");
    SYM(open2, "avcodec_open2");
    SYM(send_packet, "avcodec_send_packet");
    SYM(receive_frame, "avcodec_receive_frame");
    SYM(flush_buffers, "avcodec_flush_buffers");
    SYM(version, "avcodec_version");
    SYM(packet_alloc, "av_packet_alloc");
    SYM(packet_free, "av_packet_free");
    SYM(new_packet, "av_new_packet");
    SYM(packet_unref, "av_packet_unref");
    SYM(frame_alloc, "av_frame_alloc");
    SYM(frame_free, "av_frame_free");
    SYM(frame_unref, "av_frame_unref");
    SYM(opt_set, "av_opt_set");
    SYM(get_pix_fmt, "av_get_pix_fmt");
    SYM(strerror, "av_strerror");
    SYM(log_set_level, "av_log_set_level");
    SYM(version_info, "av_version_info");
#undef SYM
    return 0;
}

static void load(void) {
    const char *const *names = requested_names ? requested_names : default_names;
    size_t used = 0;
    load_error[0] = 0;
    for (; *names; names++) {
        void *handle = dlopen(*names, RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            const char *why = dlerror();
            int written = snprintf(load_error + used, sizeof load_error - used, "%s%s", used ? "; " : "",
                                   why ? why : *names);
            if (written > 0) used += (size_t)written < sizeof load_error - used ? (size_t)written : sizeof load_error - used - 1;
            continue;
        }
        loaded_name = *names;
        if (resolve(handle) != 0) {
            loaded_name = NULL;
            dlclose(handle);
            return;
        }
        if (!av.find_decoder_by_name("hevc")) {
            snprintf(load_error, sizeof load_error, "%s has no HEVC decoder", *names);
            loaded_name = NULL;
            return;
        }
        for (size_t i = 0; i < FORMAT_COUNT; i++) format_numbers[i] = av.get_pix_fmt(format_names[i].name);
        // Errors come back as codes; libavcodec's own log lines would only clutter stderr.
        av.log_set_level(AV_LOG_QUIET_LEVEL);
        load_error[0] = 0;
        load_status = 0;
        return;
    }
    if (!used) snprintf(load_error, sizeof load_error, "no libavcodec to try");
}

int h2j_avc_load(const char *const *names) {
    requested_names = names;
    pthread_once(&load_once, load);
    return load_status;
}

const char *h2j_avc_load_error(void) { return load_error; }
const char *h2j_avc_soname(void) { return load_status == 0 ? loaded_name : NULL; }
unsigned h2j_avc_version(void) { return load_status == 0 ? av.version() : 0; }
const char *h2j_avc_ffmpeg_version(void) { return load_status == 0 ? av.version_info() : NULL; }

struct h2j_avc_decoder {
    void *context;
    void *packet;
    void *frame;
};

void h2j_avc_decoder_free(h2j_avc_decoder *decoder) {
    if (!decoder) return;
    if (decoder->frame) av.frame_free(&decoder->frame);
    if (decoder->packet) av.packet_free(&decoder->packet);
    if (decoder->context) av.free_context(&decoder->context);
    free(decoder);
}

h2j_avc_decoder *h2j_avc_decoder_new(char *error, size_t capacity) {
    if (load_status != 0) {
        snprintf(error, capacity, "libavcodec is not loaded");
        return NULL;
    }
    h2j_avc_decoder *decoder = calloc(1, sizeof *decoder);
    if (!decoder) {
        snprintf(error, capacity, "out of memory");
        return NULL;
    }
    const void *codec = av.find_decoder_by_name("hevc");
    decoder->context = codec ? av.alloc_context3(codec) : NULL;
    decoder->packet = av.packet_alloc();
    decoder->frame = av.frame_alloc();
    if (!decoder->context || !decoder->packet || !decoder->frame) {
        snprintf(error, capacity, "libavcodec could not allocate an HEVC decoder");
        h2j_avc_decoder_free(decoder);
        return NULL;
    }
    // One thread (the engine runs one decoder per lane); errors fail instead of being
    // concealed; the conformance window cropped exactly, even on the left or top, where
    // libavcodec otherwise keeps pointers aligned and crops less.
    static const char *const options[][2] = {
        {"threads", "1"}, {"err_detect", "+explode"}, {"flags", "+unaligned"},
    };
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        int status = av.opt_set(decoder->context, options[i][0], options[i][1], 0);
        if (status < 0) {
            char text[128];
            h2j_avc_error_text(status, text, sizeof text);
            snprintf(error, capacity, "libavcodec refused %s=%s: %s", options[i][0], options[i][1], text);
            h2j_avc_decoder_free(decoder);
            return NULL;
        }
    }
    int status = av.open2(decoder->context, codec, NULL);
    if (status < 0) {
        char text[128];
        h2j_avc_error_text(status, text, sizeof text);
        snprintf(error, capacity, "libavcodec could not open its HEVC decoder: %s", text);
        h2j_avc_decoder_free(decoder);
        return NULL;
    }
    return decoder;
}

int h2j_avc_decode(h2j_avc_decoder *decoder, const uint8_t *data, size_t size, h2j_avc_picture *picture) {
    memset(picture, 0, sizeof *picture);
    if (size == 0 || size > INT32_MAX - 64) return -EINVAL;
    int status = av.new_packet(decoder->packet, (int)size);
    if (status < 0) return status;
    memcpy(((packet_head *)decoder->packet)->data, data, size);
    status = av.send_packet(decoder->context, decoder->packet);
    av.packet_unref(decoder->packet);
    if (status < 0) return status;
    status = av.send_packet(decoder->context, NULL);
    if (status < 0) return status;
    status = av.receive_frame(decoder->context, decoder->frame);
    if (status == AVERROR_EOF_CODE) return H2J_AVC_NO_PICTURE;
    if (status < 0) return status;
    const frame_head *frame = decoder->frame;
    for (size_t i = 0; i < FORMAT_COUNT; i++) {
        if (format_numbers[i] < 0 || frame->format != format_numbers[i]) continue;
        picture->chroma_format = format_names[i].chroma_format;
        picture->bit_depth = format_names[i].bit_depth;
        picture->width = frame->width;
        picture->height = frame->height;
        for (int plane = 0; plane < (picture->chroma_format == 0 ? 1 : 3); plane++) {
            picture->planes[plane] = frame->data[plane];
            picture->strides[plane] = frame->linesize[plane];
        }
        return 0;
    }
    picture->chroma_format = frame->format;
    return H2J_AVC_UNKNOWN_FORMAT;
}

void h2j_avc_decoder_end(h2j_avc_decoder *decoder) {
    av.frame_unref(decoder->frame);
    av.packet_unref(decoder->packet);
    av.flush_buffers(decoder->context);
}

void h2j_avc_error_text(int code, char *buffer, size_t capacity) {
    if (capacity == 0) return;
    if (load_status != 0 || av.strerror(code, buffer, capacity) < 0) snprintf(buffer, capacity, "error %d", code);
}
