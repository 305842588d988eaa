#include <setjmp.h>
#include <stdlib.h>
#include <stdio.h>
#include <jpeglib.h>
#include <jerror.h>
#include "common.h"

typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char *message;
    int status;          /* set before jumping */
} parley_jpeg_error;

typedef struct {
    struct jpeg_progress_mgr manager;
    int max_scans;
} parley_jpeg_progress;

static void parley_jpeg_error_exit(j_common_ptr cinfo) {
    parley_jpeg_error *error = (parley_jpeg_error *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    parley_set_message(error->message, text);
    /* With max_memory_to_use set, libjpeg asks for backing store once its arrays exceed it. */
    error->status = cinfo->err->msg_code == JERR_NO_BACKING_STORE ? PARLEY_IMAGE_MEMORY_LIMIT : PARLEY_IMAGE_MALFORMED;
    if (error->status == PARLEY_IMAGE_MEMORY_LIMIT) {
        parley_set_message(error->message, "libjpeg needs more memory for this image than the decode's budget leaves");
    }
    longjmp(error->jump, 1);
}

/* Entropy data that ends early (the body ends: JWRN_JPEG_EOF; a marker comes first:
 * JWRN_HIT_MARKER) stops the decode at once: libjpeg would otherwise go on producing every
 * remaining block of every remaining scan from nothing. */
static void parley_jpeg_emit_message(j_common_ptr cinfo, int level) {
    parley_jpeg_error *error = (parley_jpeg_error *)cinfo->err;
    int code = cinfo->err->msg_code;
    if (level < 0 && (code == JWRN_JPEG_EOF || code == JWRN_HIT_MARKER)) {
        parley_set_message(error->message, "the JPEG entropy data ended before the image did");
        error->status = PARLEY_IMAGE_TRUNCATED;
        longjmp(error->jump, 1);
    }
}

static void parley_jpeg_output_message(j_common_ptr cinfo) { (void)cinfo; }

/* Stops JPEGs with more scans than the caller allows (each scan walks every block of its
 * components, so scans cost time whatever data they carry). */
static void parley_jpeg_progress_monitor(j_common_ptr cinfo) {
    if (!cinfo->is_decompressor) return;
    j_decompress_ptr dinfo = (j_decompress_ptr)cinfo;
    parley_jpeg_progress *progress = (parley_jpeg_progress *)cinfo->progress;
    if (dinfo->input_scan_number > progress->max_scans) {
        parley_jpeg_error *error = (parley_jpeg_error *)cinfo->err;
        char text[PARLEY_IMAGE_MESSAGE_SIZE];
        snprintf(text, sizeof text, "more than %d scans for this image size and body", progress->max_scans);
        parley_set_message(error->message, text);
        error->status = PARLEY_IMAGE_LIMIT;
        longjmp(error->jump, 1);
    }
}

static void parley_jpeg_install_errors(parley_jpeg_error *error, char *message) {
    jpeg_std_error(&error->manager);
    error->manager.error_exit = parley_jpeg_error_exit;
    error->manager.emit_message = parley_jpeg_emit_message;
    error->manager.output_message = parley_jpeg_output_message;
    error->message = message;
    error->status = PARLEY_IMAGE_OK;
}

static inline uint8_t parley_muldiv255(unsigned a, unsigned b) {
    unsigned t = a * b + 128;
    return (uint8_t)(((t >> 8) + t) >> 8);
}

/* CMYK to RGB in place on 4-byte pixels, as Pillow's cmyk2rgb does. */
static void parley_cmyk_to_rgba(uint8_t *row, uint32_t width, int inverted) {
    for (uint32_t x = 0; x < width; x++, row += 4) {
        unsigned c = row[0], m = row[1], y = row[2], k = row[3];
        if (inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
        unsigned nk = 255 - k;
        int r = (int)nk - parley_muldiv255(c, nk);
        int g = (int)nk - parley_muldiv255(m, nk);
        int b = (int)nk - parley_muldiv255(y, nk);
        row[0] = (uint8_t)(r < 0 ? 0 : r);
        row[1] = (uint8_t)(g < 0 ? 0 : g);
        row[2] = (uint8_t)(b < 0 ? 0 : b);
        row[3] = 255;
    }
}

/* A decode's libjpeg state, on the heap and zeroed: it changes after setjmp, and the handler reads
 * it through a pointer set before setjmp. Zeroed, jpeg_destroy_decompress is safe on it even when
 * jpeg_create_decompress failed. */
typedef struct {
    struct jpeg_decompress_struct cinfo;
    parley_jpeg_error error;
    parley_jpeg_progress progress;
} parley_jpeg_decoder;

static int parley_jpeg_decoder_finish(parley_jpeg_decoder *decoder, int status, const char *text, char *message) {
    jpeg_destroy_decompress(&decoder->cinfo);
    free(decoder);
    if (text) parley_set_message(message, text);
    return status;
}

int parley_jpeg_decode_rgba(const uint8_t *data, size_t size, uint8_t *out,
                            uint32_t width, uint32_t height, int max_scans, long max_memory, char *message) {
    parley_jpeg_decoder *decoder = calloc(1, sizeof *decoder);
    if (!decoder) { parley_set_message(message, "out of memory"); return PARLEY_IMAGE_NO_MEMORY; }
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    parley_jpeg_install_errors(&decoder->error, message);
    cinfo->err = &decoder->error.manager;
    if (setjmp(decoder->error.jump)) {
        return parley_jpeg_decoder_finish(decoder, decoder->error.status, NULL, message);
    }
    jpeg_create_decompress(cinfo);
    cinfo->mem->max_memory_to_use = max_memory > 0 ? max_memory : 1;   /* 0 would mean no limit */
    decoder->progress.manager.progress_monitor = parley_jpeg_progress_monitor;
    decoder->progress.max_scans = max_scans;
    cinfo->progress = &decoder->progress.manager;
    jpeg_mem_src(cinfo, data, (unsigned long)size);
    if (jpeg_read_header(cinfo, TRUE) != JPEG_HEADER_OK) {
        return parley_jpeg_decoder_finish(decoder, PARLEY_IMAGE_MALFORMED, "no image in the JPEG stream", message);
    }
    if (cinfo->image_width != width || cinfo->image_height != height) {
        return parley_jpeg_decoder_finish(decoder, PARLEY_IMAGE_MISMATCH,
                                          "libjpeg read other dimensions than the header", message);
    }
    int cmyk = cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK;
    cinfo->out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    jpeg_start_decompress(cinfo);
    if (cinfo->output_components != 4) {
        return parley_jpeg_decoder_finish(decoder, PARLEY_IMAGE_MALFORMED, "unexpected output components", message);
    }
    size_t stride = (size_t)width * 4;
    JSAMPROW rows[16];
    while (cinfo->output_scanline < cinfo->output_height) {
        JDIMENSION first = cinfo->output_scanline;
        JDIMENSION count = cinfo->rec_outbuf_height < 16 ? cinfo->rec_outbuf_height : 16;
        if (count > cinfo->output_height - first) count = cinfo->output_height - first;
        for (JDIMENSION i = 0; i < count; i++) rows[i] = out + (size_t)(first + i) * stride;
        JDIMENSION read = jpeg_read_scanlines(cinfo, rows, count);
        if (cmyk) {
            for (JDIMENSION i = 0; i < read; i++) parley_cmyk_to_rgba(rows[i], width, cinfo->saw_Adobe_marker);
        }
        if (read == 0) {   /* cannot happen with a memory source; never return unwritten rows */
            return parley_jpeg_decoder_finish(decoder, PARLEY_IMAGE_MALFORMED,
                                              "libjpeg returned no scanlines", message);
        }
    }
    jpeg_finish_decompress(cinfo);
    return parley_jpeg_decoder_finish(decoder, PARLEY_IMAGE_OK, NULL, message);
}

int parley_jpeg_encode_rgba(const uint8_t *rgba, uint32_t width, uint32_t height, int quality,
                            uint8_t **out, size_t *out_size, char *message) {
    /* Heap and zeroed for the same reasons as parley_jpeg_decoder; libjpeg grows `buffer`. */
    struct parley_jpeg_encoder {
        struct jpeg_compress_struct cinfo;
        parley_jpeg_error error;
        unsigned char *buffer;
        unsigned long buffer_size;
    } *encoder = calloc(1, sizeof *encoder);
    if (!encoder) { parley_set_message(message, "out of memory"); return PARLEY_IMAGE_NO_MEMORY; }
    struct jpeg_compress_struct *cinfo = &encoder->cinfo;
    parley_jpeg_install_errors(&encoder->error, message);
    cinfo->err = &encoder->error.manager;
    if (setjmp(encoder->error.jump)) {
        int status = encoder->error.status;
        jpeg_destroy_compress(cinfo);
        free(encoder->buffer);
        free(encoder);
        return status;
    }
    jpeg_create_compress(cinfo);
    jpeg_mem_dest(cinfo, &encoder->buffer, &encoder->buffer_size);
    cinfo->image_width = width;
    cinfo->image_height = height;
    cinfo->input_components = 4;
    cinfo->in_color_space = JCS_EXT_RGBA;
    jpeg_set_defaults(cinfo);
    jpeg_set_quality(cinfo, quality, TRUE);
    jpeg_start_compress(cinfo, TRUE);
    while (cinfo->next_scanline < cinfo->image_height) {
        JSAMPROW row = (JSAMPROW)(rgba + (size_t)cinfo->next_scanline * width * 4);
        jpeg_write_scanlines(cinfo, &row, 1);
    }
    jpeg_finish_compress(cinfo);
    jpeg_destroy_compress(cinfo);
    *out = encoder->buffer;
    *out_size = encoder->buffer_size;
    free(encoder);
    return PARLEY_IMAGE_OK;
}
