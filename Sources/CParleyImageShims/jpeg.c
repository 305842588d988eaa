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
    int premature_end;   /* JWRN_JPEG_EOF seen */
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
    error->status = PARLEY_IMAGE_MALFORMED;
    longjmp(error->jump, 1);
}

static void parley_jpeg_emit_message(j_common_ptr cinfo, int level) {
    parley_jpeg_error *error = (parley_jpeg_error *)cinfo->err;
    if (level < 0 && cinfo->err->msg_code == JWRN_JPEG_EOF) error->premature_end = 1;
}

static void parley_jpeg_output_message(j_common_ptr cinfo) { (void)cinfo; }

/* Stops progressive JPEGs with absurd scan counts (a known CPU exhaustion pattern). */
static void parley_jpeg_progress_monitor(j_common_ptr cinfo) {
    if (!cinfo->is_decompressor) return;
    j_decompress_ptr dinfo = (j_decompress_ptr)cinfo;
    parley_jpeg_progress *progress = (parley_jpeg_progress *)cinfo->progress;
    if (dinfo->input_scan_number > progress->max_scans) {
        parley_jpeg_error *error = (parley_jpeg_error *)cinfo->err;
        char text[PARLEY_IMAGE_MESSAGE_SIZE];
        snprintf(text, sizeof text, "more than %d progressive scans", progress->max_scans);
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
    error->premature_end = 0;
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

int parley_jpeg_decode_rgba(const uint8_t *data, size_t size, uint8_t *out,
                            uint32_t width, uint32_t height, int max_scans, long max_memory, char *message) {
    struct jpeg_decompress_struct cinfo;
    parley_jpeg_error error;
    parley_jpeg_progress progress;
    parley_jpeg_install_errors(&error, message);
    cinfo.err = &error.manager;
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return error.status;
    }
    jpeg_create_decompress(&cinfo);
    cinfo.mem->max_memory_to_use = max_memory;
    progress.manager.progress_monitor = parley_jpeg_progress_monitor;
    progress.max_scans = max_scans;
    cinfo.progress = &progress.manager;
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    if (jpeg_read_header(&cinfo, TRUE) != JPEG_HEADER_OK) {
        jpeg_destroy_decompress(&cinfo);
        parley_set_message(message, "no image in the JPEG stream");
        return PARLEY_IMAGE_MALFORMED;
    }
    if (cinfo.image_width != width || cinfo.image_height != height) {
        jpeg_destroy_decompress(&cinfo);
        parley_set_message(message, "libjpeg read other dimensions than the header");
        return PARLEY_IMAGE_MISMATCH;
    }
    int cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    cinfo.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    jpeg_start_decompress(&cinfo);
    if (cinfo.output_components != 4) {
        jpeg_destroy_decompress(&cinfo);
        parley_set_message(message, "unexpected output components");
        return PARLEY_IMAGE_MALFORMED;
    }
    size_t stride = (size_t)width * 4;
    JSAMPROW rows[16];
    while (cinfo.output_scanline < cinfo.output_height) {
        JDIMENSION first = cinfo.output_scanline;
        JDIMENSION count = cinfo.rec_outbuf_height < 16 ? cinfo.rec_outbuf_height : 16;
        if (count > cinfo.output_height - first) count = cinfo.output_height - first;
        for (JDIMENSION i = 0; i < count; i++) rows[i] = out + (size_t)(first + i) * stride;
        JDIMENSION read = jpeg_read_scanlines(&cinfo, rows, count);
        if (cmyk) {
            for (JDIMENSION i = 0; i < read; i++) parley_cmyk_to_rgba(rows[i], width, cinfo.saw_Adobe_marker);
        }
        if (read == 0) {   /* cannot happen with a memory source; never return unwritten rows */
            jpeg_destroy_decompress(&cinfo);
            parley_set_message(message, "libjpeg returned no scanlines");
            return PARLEY_IMAGE_MALFORMED;
        }
    }
    jpeg_finish_decompress(&cinfo);
    int premature = error.premature_end;
    jpeg_destroy_decompress(&cinfo);
    if (premature) {
        parley_set_message(message, "the JPEG data ended before the image did");
        return PARLEY_IMAGE_TRUNCATED;
    }
    return PARLEY_IMAGE_OK;
}

int parley_jpeg_encode_rgba(const uint8_t *rgba, uint32_t width, uint32_t height, int quality,
                            uint8_t **out, size_t *out_size, char *message) {
    struct jpeg_compress_struct cinfo;
    parley_jpeg_error error;
    unsigned char *buffer = NULL;
    unsigned long buffer_size = 0;
    parley_jpeg_install_errors(&error, message);
    cinfo.err = &error.manager;
    if (setjmp(error.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(buffer);
        return error.status;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, &buffer, &buffer_size);
    cinfo.image_width = width;
    cinfo.image_height = height;
    cinfo.input_components = 4;
    cinfo.in_color_space = JCS_EXT_RGBA;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    jpeg_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(rgba + (size_t)cinfo.next_scanline * width * 4);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *out = buffer;
    *out_size = buffer_size;
    return PARLEY_IMAGE_OK;
}
