#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include "common.h"

typedef struct {
    const uint8_t *data;
    size_t size, offset;
} png_memory_reader;

typedef struct {
    uint8_t *bytes;
    size_t size, capacity;
} png_memory_writer;

/* Everything a decode changes after setjmp lives here, on the heap: after a longjmp the handler
 * reads it through a pointer that was set before setjmp and never changes. */
typedef struct {
    png_structp png;
    png_infop info;
    png_bytep *rows;
    png_memory_reader reader;
} png_decoder;

/* The error pointer is the caller's message buffer. */
static void parley_png_error(png_structp png, png_const_charp text) {
    parley_set_message((char *)png_get_error_ptr(png), text);
    png_longjmp(png, 1);
}

static void parley_png_warning(png_structp png, png_const_charp text) { (void)png; (void)text; }

static void parley_png_read(png_structp png, png_bytep out, size_t count) {
    png_memory_reader *reader = (png_memory_reader *)png_get_io_ptr(png);
    if (count > reader->size - reader->offset) {
        png_error(png, "truncated: the data ended before the image did");
    }
    memcpy(out, reader->data + reader->offset, count);
    reader->offset += count;
}

static void parley_png_decoder_free(png_decoder *decoder) {
    free(decoder->rows);
    png_destroy_read_struct(&decoder->png, &decoder->info, NULL);
    free(decoder);
}

int parley_png_decode_rgba(const uint8_t *data, size_t size, uint8_t *out,
                           uint32_t width, uint32_t height, size_t max_chunk_bytes, char *message) {
    png_decoder *decoder = calloc(1, sizeof *decoder);
    if (!decoder) { parley_set_message(message, "out of memory"); return PARLEY_IMAGE_NO_MEMORY; }
    decoder->reader = (png_memory_reader){ data, size, 0 };
    decoder->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, message, parley_png_error, parley_png_warning);
    if (decoder->png) decoder->info = png_create_info_struct(decoder->png);
    if (!decoder->png || !decoder->info) {
        parley_png_decoder_free(decoder);
        parley_set_message(message, "out of memory");
        return PARLEY_IMAGE_NO_MEMORY;
    }
    png_structp png = decoder->png;
    png_infop info = decoder->info;
    if (setjmp(png_jmpbuf(png))) {
        parley_png_decoder_free(decoder);
        return strncmp(message, "truncated", 9) == 0 ? PARLEY_IMAGE_TRUNCATED : PARLEY_IMAGE_MALFORMED;
    }
    png_set_read_fn(png, &decoder->reader, parley_png_read);
    png_set_user_limits(png, width, height);
    png_set_chunk_malloc_max(png, max_chunk_bytes > 0 ? max_chunk_bytes : 1);   /* 0 would mean no limit */
    png_set_chunk_cache_max(png, 1000);
    /* Skip every ancillary chunk libpng knows except tRNS (text, iCCP, gAMA, sPLT...) and every
     * unknown chunk: their CRC is read, their data is neither inflated nor stored. */
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);
    png_read_info(png, info);

    png_uint_32 w, h;
    int bit_depth, color_type, interlace;
    png_get_IHDR(png, info, &w, &h, &bit_depth, &color_type, &interlace, NULL, NULL);
    if (w != width || h != height) {
        parley_png_decoder_free(decoder);
        parley_set_message(message, "libpng read other dimensions than the header");
        return PARLEY_IMAGE_MISMATCH;
    }
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (has_trns) png_set_tRNS_to_alpha(png);
    if (bit_depth == 16) png_set_strip_16(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!(color_type & PNG_COLOR_MASK_ALPHA) && !has_trns) png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) {
        png_error(png, "unexpected row size after transformations");
    }
    decoder->rows = malloc(sizeof(png_bytep) * height);
    if (!decoder->rows) png_error(png, "out of memory");
    for (uint32_t y = 0; y < height; y++) decoder->rows[y] = out + (size_t)y * width * 4;
    png_read_image(png, decoder->rows);
    png_read_end(png, NULL);
    parley_png_decoder_free(decoder);
    return PARLEY_IMAGE_OK;
}

static void parley_png_write(png_structp png, png_bytep bytes, size_t count) {
    png_memory_writer *writer = (png_memory_writer *)png_get_io_ptr(png);
    if (count > writer->capacity - writer->size) {
        size_t capacity = writer->capacity ? writer->capacity : 4096;
        while (count > capacity - writer->size) {
            if (capacity > SIZE_MAX / 2) png_error(png, "output too large");
            capacity *= 2;
        }
        uint8_t *grown = realloc(writer->bytes, capacity);
        if (!grown) png_error(png, "out of memory");
        writer->bytes = grown;
        writer->capacity = capacity;
    }
    memcpy(writer->bytes + writer->size, bytes, count);
    writer->size += count;
}

static void parley_png_flush(png_structp png) { (void)png; }

int parley_png_encode_rgba(const uint8_t *rgba, uint32_t width, uint32_t height, int opaque,
                           int compression_level, uint8_t **out, size_t *out_size, char *message) {
    /* The writer grows after setjmp, so it lives on the heap (see png_decoder). */
    png_memory_writer *writer = calloc(1, sizeof *writer);
    if (!writer) { parley_set_message(message, "out of memory"); return PARLEY_IMAGE_NO_MEMORY; }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, message, parley_png_error, parley_png_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        free(writer);
        parley_set_message(message, "out of memory");
        return PARLEY_IMAGE_NO_MEMORY;
    }
    if (setjmp(png_jmpbuf(png))) {
        free(writer->bytes);
        free(writer);
        png_destroy_write_struct(&png, &info);
        return PARLEY_IMAGE_MALFORMED;
    }
    png_set_write_fn(png, writer, parley_png_write, parley_png_flush);
    png_set_compression_level(png, compression_level);
    png_set_IHDR(png, info, width, height, 8, opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGBA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    if (opaque) png_set_filler(png, 0, PNG_FILLER_AFTER);   /* strips the 4th byte on write */
    for (uint32_t y = 0; y < height; y++) {
        png_write_row(png, (png_const_bytep)(rgba + (size_t)y * width * 4));
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    *out = writer->bytes;
    *out_size = writer->size;
    free(writer);
    return PARLEY_IMAGE_OK;
}
