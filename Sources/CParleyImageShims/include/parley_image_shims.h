/* C shims for ParleyImage: each function owns the library's error handling (setjmp/longjmp for
 * libpng and libjpeg, callbacks for libtiff, return codes for giflib and libwebp) and returns a
 * status code, so Swift never sees a longjmp. Messages are copied into a caller-provided buffer.
 * Callers check limits from the header and allocate the output before decoding. */
#ifndef PARLEY_IMAGE_SHIMS_H
#define PARLEY_IMAGE_SHIMS_H

#include <stddef.h>
#include <stdint.h>

/* Status codes every shim returns. */
enum {
    PARLEY_IMAGE_OK = 0,
    PARLEY_IMAGE_MALFORMED = 1,
    PARLEY_IMAGE_TRUNCATED = 2,
    PARLEY_IMAGE_LIMIT = 3,
    PARLEY_IMAGE_MISMATCH = 4,   /* the library read other dimensions than the caller's header parse */
    PARLEY_IMAGE_NO_MEMORY = 5,
    PARLEY_IMAGE_MEMORY_LIMIT = 6, /* the library needed more memory than the decode's budget leaves */
};

#define PARLEY_IMAGE_MESSAGE_SIZE 200

/* ---- PNG (libpng) ---- */

/* Decodes a whole PNG into `out` (width*height*4 bytes, RGBA8, straight alpha): palette and
 * gray expanded, tRNS to alpha, 16-bit samples reduced to their high byte, no gamma applied.
 * `width`/`height` are what the caller parsed from IHDR; libpng must agree. Ancillary chunks
 * other than tRNS (text, ICC profile, gamma...) and unknown chunks are skipped unread, never
 * inflated or stored; a chunk libpng keeps may take at most `max_chunk_bytes` (at least 1). */
int parley_png_decode_rgba(const uint8_t *data, size_t size, uint8_t *out,
                           uint32_t width, uint32_t height, size_t max_chunk_bytes, char *message);

/* Encodes RGBA8 rows as PNG (RGB when `opaque`), into a malloc'ed buffer freed with parley_image_free. */
int parley_png_encode_rgba(const uint8_t *rgba, uint32_t width, uint32_t height, int opaque,
                           int compression_level, uint8_t **out, size_t *out_size, char *message);

/* ---- JPEG (libjpeg-turbo) ---- */

/* Decodes a baseline or progressive JPEG into `out` (width*height*4 bytes, RGBA8). CMYK and YCCK
 * are converted to RGB (Adobe inverted CMYK un-inverted first). At most `max_scans` scans
 * (PARLEY_IMAGE_LIMIT), at most `max_memory` (at least 1) bytes of libjpeg's image-sized arrays
 * (PARLEY_IMAGE_MEMORY_LIMIT). Entropy data that ends early, at the end of the body or at a
 * marker, stops the decode at once with PARLEY_IMAGE_TRUNCATED. */
int parley_jpeg_decode_rgba(const uint8_t *data, size_t size, uint8_t *out,
                            uint32_t width, uint32_t height, int max_scans, long max_memory, char *message);

/* Encodes RGBA8 rows as a baseline JPEG (alpha dropped) at `quality` 1...100. */
int parley_jpeg_encode_rgba(const uint8_t *rgba, uint32_t width, uint32_t height, int quality,
                            uint8_t **out, size_t *out_size, char *message);

/* ---- GIF (giflib) ---- */

/* Decodes the first frame of a GIF onto a transparent canvas_width*canvas_height RGBA8 canvas. */
int parley_gif_decode_first_frame_rgba(const uint8_t *data, size_t size, uint8_t *out,
                                       uint32_t canvas_width, uint32_t canvas_height, char *message);

/* ---- WebP (libwebp, libwebpdemux) ---- */

/* Reads the canvas size, alpha, animation flag and frame count without decoding pixels. */
int parley_webp_info(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height,
                     int *has_alpha, int *is_lossless, uint32_t *frame_count, char *message);

/* Decodes a still image, or the first fully composed frame of an animation, into `out`. */
int parley_webp_decode_rgba(const uint8_t *data, size_t size, uint8_t *out,
                            uint32_t width, uint32_t height, char *message);

/* ---- TIFF (libtiff) ---- */

/* What parley_tiff_info reads from the first directory. */
typedef struct {
    uint32_t width, height;
    uint16_t samples_per_pixel, bits_per_sample, photometric, compression, extra_samples;
    uint32_t page_count;
} parley_tiff_info_t;

/* Reads the first page's header and counts pages (stops counting past `max_pages`). */
int parley_tiff_info(const uint8_t *data, size_t size, uint32_t max_pages, size_t max_single_alloc,
                     parley_tiff_info_t *info, char *message);

/* Decodes the first page into `out` (width*height*4 bytes, RGBA8, top-left origin). An allocation
 * over `max_single_alloc` (at least 1) is PARLEY_IMAGE_MEMORY_LIMIT. */
int parley_tiff_decode_rgba(const uint8_t *data, size_t size, uint8_t *out,
                            uint32_t width, uint32_t height, size_t max_single_alloc, char *message);

/* Frees a buffer an encoder returned. */
void parley_image_free(void *pointer);

#endif
