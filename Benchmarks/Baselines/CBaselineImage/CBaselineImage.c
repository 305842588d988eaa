#include "CBaselineImage.h"
#include <png.h>
#include <stdio.h>
#include <jpeglib.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

typedef struct { const uint8_t *data; size_t size, offset; } memory_reader;

static void read_memory(png_structp png, png_bytep out, size_t count) {
    memory_reader *reader = (memory_reader *)png_get_io_ptr(png);
    if (count > reader->size - reader->offset) png_error(png, "truncated");
    memcpy(out, reader->data + reader->offset, count);
    reader->offset += count;
}

uint8_t *baseline_png_decode_rgba(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height) {
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    uint8_t *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        free(pixels);
        free(rows);
        png_destroy_read_struct(&png, &info, NULL);
        return NULL;
    }
    memory_reader reader = { data, size, 0 };
    png_set_read_fn(png, &reader, read_memory);
    png_read_info(png, info);
    png_uint_32 w, h;
    int depth, color;
    png_get_IHDR(png, info, &w, &h, &depth, &color, NULL, NULL, NULL);
    if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (depth == 16) png_set_strip_16(png);
    if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!(color & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS))
        png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    pixels = malloc((size_t)w * h * 4);
    rows = malloc(sizeof(png_bytep) * h);
    for (png_uint_32 y = 0; y < h; y++) rows[y] = pixels + (size_t)y * w * 4;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    *width = w;
    *height = h;
    return pixels;
}

typedef struct { struct jpeg_error_mgr manager; jmp_buf jump; } jpeg_error;

static void jpeg_error_exit(j_common_ptr cinfo) { longjmp(((jpeg_error *)cinfo->err)->jump, 1); }

uint8_t *baseline_jpeg_decode_rgba(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height) {
    struct jpeg_decompress_struct cinfo;
    jpeg_error error;
    uint8_t *volatile pixels = NULL;
    cinfo.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = jpeg_error_exit;
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&cinfo);
        free(pixels);
        return NULL;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    cinfo.out_color_space = JCS_EXT_RGBA;
    jpeg_start_decompress(&cinfo);
    size_t stride = (size_t)cinfo.output_width * 4;
    pixels = malloc(stride * cinfo.output_height);
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = pixels + (size_t)cinfo.output_scanline * stride;
        jpeg_read_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_decompress(&cinfo);
    *width = cinfo.output_width;
    *height = cinfo.output_height;
    jpeg_destroy_decompress(&cinfo);
    return pixels;
}

void baseline_image_free(void *pointer) { free(pointer); }
