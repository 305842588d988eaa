#ifndef CBaselineImage_H
#define CBaselineImage_H
#include <stddef.h>
#include <stdint.h>

/// Decodes a PNG held in memory to RGBA8 with libpng's own read API (png_set_read_fn, the
/// expand / tRNS / strip-16 / gray-to-RGB / filler transforms, png_read_image into a malloc'ed
/// buffer): the baseline a C user calling libpng directly gets. Returns the buffer (free it) or
/// NULL, and the dimensions.
uint8_t *baseline_png_decode_rgba(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height);

/// Decodes a JPEG held in memory to RGBA8 with libjpeg-turbo (jpeg_mem_src, JCS_EXT_RGBA,
/// jpeg_read_scanlines into a malloc'ed buffer). Returns the buffer (free it) or NULL.
uint8_t *baseline_jpeg_decode_rgba(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height);

/// Frees a buffer the baselines returned.
void baseline_image_free(void *pointer);

#endif
