// See CJPEGPlanes.h.
#include "CJPEGPlanes.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    int warnings;
    char message[JMSG_LENGTH_MAX > 200 ? JMSG_LENGTH_MAX : 200];
} planes_error_mgr;

static void planes_error_exit(j_common_ptr cinfo) {
    planes_error_mgr *err = (planes_error_mgr *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, err->message);
    longjmp(err->jump, 1);
}

static void planes_emit_message(j_common_ptr cinfo, int msg_level) {
    planes_error_mgr *err = (planes_error_mgr *)cinfo->err;
    if (msg_level < 0) {
        if (err->warnings == 0) (*cinfo->err->format_message)(cinfo, err->message);
        err->warnings++;
    }
}

/// State that must survive a longjmp: on the heap, not in locals the jump could clobber.
typedef struct {
    struct jpeg_decompress_struct cinfo;
    planes_error_mgr err;
    uint8_t *pixels;
    uint8_t *scratch;
} planes_state;

static void planes_free(planes_state *state) {
    jpeg_destroy_decompress(&state->cinfo);
    free(state->pixels);
    free(state->scratch);
    free(state);
}

static uint8_t *planes_alloc(planes_state *state, size_t size) {
    uint8_t *buffer = malloc(size > 0 ? size : 1);
    if (buffer == NULL) ERREXIT1(&state->cinfo, JERR_OUT_OF_MEMORY, 0);
    return buffer;
}

int cjpegplanes_decode(const uint8_t *data, size_t length, uint8_t **buffer, cjpegplanes_result *result) {
    if (data == NULL || buffer == NULL || result == NULL) return -1;
    memset(result, 0, sizeof(*result));
    *buffer = NULL;
    planes_state *state = calloc(1, sizeof(*state));
    if (state == NULL) return -1;
    jpeg_std_error(&state->err.pub);
    state->err.pub.error_exit = planes_error_exit;
    state->err.pub.emit_message = planes_emit_message;
    state->cinfo.err = &state->err.pub;
    if (setjmp(state->err.jump)) {
        snprintf(result->message, sizeof(result->message), "%s", state->err.message);
        result->warnings = state->err.warnings;
        planes_free(state);
        return -1;
    }
    jpeg_create_decompress(&state->cinfo);
    jpeg_mem_src(&state->cinfo, data, (unsigned long)length);
    jpeg_read_header(&state->cinfo, TRUE);
    state->cinfo.raw_data_out = TRUE;
    jpeg_start_decompress(&state->cinfo);
    struct jpeg_decompress_struct *cinfo = &state->cinfo;
    int count = cinfo->num_components;
    if (count != 1 && count != 3) {
        snprintf(result->message, sizeof(result->message), "only 1- or 3-component JPEGs decode to planes");
        planes_free(state);
        return -1;
    }
    result->count = count;
    // Each iMCU row lands in a scratch area of whole blocks, whose real samples are then
    // copied to the component's plane.
    size_t total = 0, scratch_width = 0;
    for (int ci = 0; ci < count; ci++) {
        jpeg_component_info *comp = &cinfo->comp_info[ci];
        result->width[ci] = comp->downsampled_width;
        result->height[ci] = comp->downsampled_height;
        result->offset[ci] = total;
        total += (size_t)comp->downsampled_width * comp->downsampled_height;
        size_t blocks_width = (size_t)comp->width_in_blocks * DCTSIZE;
        if (blocks_width > scratch_width) scratch_width = blocks_width;
    }
    int imcu = cinfo->max_v_samp_factor * DCTSIZE;
    state->pixels = planes_alloc(state, total);
    state->scratch = planes_alloc(state, scratch_width * (size_t)imcu * (size_t)count);
    JSAMPROW pointers[3][MAX_SAMP_FACTOR * DCTSIZE];
    JSAMPARRAY arrays[3];
    for (int ci = 0; ci < count; ci++) {
        arrays[ci] = pointers[ci];
        for (int r = 0; r < imcu; r++) {
            pointers[ci][r] = state->scratch + ((size_t)ci * (size_t)imcu + (size_t)r) * scratch_width;
        }
    }
    while (cinfo->output_scanline < cinfo->output_height) {
        size_t luma_row = cinfo->output_scanline;
        jpeg_read_raw_data(cinfo, arrays, (JDIMENSION)imcu);
        for (int ci = 0; ci < count; ci++) {
            jpeg_component_info *comp = &cinfo->comp_info[ci];
            size_t rows = (size_t)comp->v_samp_factor * DCTSIZE;
            size_t first = luma_row * (size_t)comp->v_samp_factor / (size_t)cinfo->max_v_samp_factor;
            for (size_t r = 0; r < rows && first + r < result->height[ci]; r++) {
                memcpy(state->pixels + result->offset[ci] + (first + r) * result->width[ci],
                       pointers[ci][r], result->width[ci]);
            }
        }
    }
    jpeg_finish_decompress(cinfo);
    result->warnings = state->err.warnings;
    snprintf(result->message, sizeof(result->message), "%s", state->err.message);
    *buffer = state->pixels;
    state->pixels = NULL;
    int warned = state->err.warnings > 0;
    planes_free(state);
    return warned ? 1 : 0;
}
