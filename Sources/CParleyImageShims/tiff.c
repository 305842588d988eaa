#include <tiffio.h>
#include <stdlib.h>
#include "common.h"

typedef struct {
    const uint8_t *data;
    size_t size;
    toff_t offset;
    char *message;
    int reported;
    int over_memory_limit;   /* libtiff refused an allocation over max_single_alloc */
} tiff_memory_file;

static tmsize_t parley_tiff_read(thandle_t handle, void *out, tmsize_t count) {
    tiff_memory_file *file = (tiff_memory_file *)handle;
    if (count <= 0 || file->offset >= file->size) return 0;
    size_t n = (size_t)count;
    if (n > file->size - file->offset) n = file->size - (size_t)file->offset;
    memcpy(out, file->data + file->offset, n);
    file->offset += n;
    return (tmsize_t)n;
}

static tmsize_t parley_tiff_write(thandle_t handle, void *data, tmsize_t count) {
    (void)handle; (void)data; (void)count;
    return -1;
}

static toff_t parley_tiff_seek(thandle_t handle, toff_t offset, int whence) {
    tiff_memory_file *file = (tiff_memory_file *)handle;
    toff_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? file->offset : (toff_t)file->size;
    file->offset = base + offset;
    return file->offset;
}

static int parley_tiff_close(thandle_t handle) { (void)handle; return 0; }
static toff_t parley_tiff_size(thandle_t handle) { return (toff_t)((tiff_memory_file *)handle)->size; }
static int parley_tiff_map(thandle_t handle, void **base, toff_t *size) {
    tiff_memory_file *file = (tiff_memory_file *)handle;
    *base = (void *)file->data;
    *size = (toff_t)file->size;
    return 1;
}
static void parley_tiff_unmap(thandle_t handle, void *base, toff_t size) { (void)handle; (void)base; (void)size; }

static int parley_tiff_error(TIFF *tiff, void *user_data, const char *module, const char *format, va_list args) {
    (void)tiff; (void)module;
    tiff_memory_file *file = (tiff_memory_file *)user_data;
    if (!file->reported) {
        vsnprintf(file->message, PARLEY_IMAGE_MESSAGE_SIZE, format, args);
        file->reported = 1;
        /* libtiff 4.5's wording in _TIFFmallocExt and friends. */
        if (strstr(file->message, "byte limit defined in open options")) file->over_memory_limit = 1;
    }
    return 1;
}

static int parley_tiff_warning(TIFF *tiff, void *user_data, const char *module, const char *format, va_list args) {
    (void)tiff; (void)user_data; (void)module; (void)format; (void)args;
    return 1;
}

static TIFF *parley_tiff_open(tiff_memory_file *file, size_t max_single_alloc) {
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (!options) return NULL;
    /* 0 would mean no limit. */
    TIFFOpenOptionsSetMaxSingleMemAlloc(options, max_single_alloc > 0 ? (tmsize_t)max_single_alloc : 1);
    TIFFOpenOptionsSetErrorHandlerExtR(options, parley_tiff_error, file);
    TIFFOpenOptionsSetWarningHandlerExtR(options, parley_tiff_warning, file);
    /* "m": no memory mapping (reads go through the procs); "O": strip and tile offsets are read on
     * demand, so a header declaring a million strips allocates nothing until a strip is read. */
    TIFF *tiff = TIFFClientOpenExt("memory", "rmO", (thandle_t)file, parley_tiff_read, parley_tiff_write,
                                   parley_tiff_seek, parley_tiff_close, parley_tiff_size,
                                   parley_tiff_map, parley_tiff_unmap, options);
    TIFFOpenOptionsFree(options);
    return tiff;
}

int parley_tiff_info(const uint8_t *data, size_t size, uint32_t max_pages, size_t max_single_alloc,
                     parley_tiff_info_t *info, char *message) {
    tiff_memory_file file = { data, size, 0, message, 0, 0 };
    parley_set_message(message, "not a readable TIFF");
    TIFF *tiff = parley_tiff_open(&file, max_single_alloc);
    if (!tiff) return file.over_memory_limit ? PARLEY_IMAGE_MEMORY_LIMIT : PARLEY_IMAGE_MALFORMED;
    uint16_t extra_count = 0, *extra_types = NULL;
    memset(info, 0, sizeof *info);
    if (!TIFFGetField(tiff, TIFFTAG_IMAGEWIDTH, &info->width) ||
        !TIFFGetField(tiff, TIFFTAG_IMAGELENGTH, &info->height)) {
        if (!file.reported) parley_set_message(message, "the first page has no width or height");
        TIFFClose(tiff);
        return PARLEY_IMAGE_MALFORMED;
    }
    TIFFGetFieldDefaulted(tiff, TIFFTAG_SAMPLESPERPIXEL, &info->samples_per_pixel);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_BITSPERSAMPLE, &info->bits_per_sample);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_COMPRESSION, &info->compression);
    if (!TIFFGetField(tiff, TIFFTAG_PHOTOMETRIC, &info->photometric)) info->photometric = 0xFFFF;
    if (TIFFGetField(tiff, TIFFTAG_EXTRASAMPLES, &extra_count, &extra_types) && extra_count > 0) {
        info->extra_samples = extra_types[0] == EXTRASAMPLE_UNSPECIFIED ? 0 : extra_count;
    }
    uint32_t pages = 1;
    while (pages <= max_pages && TIFFReadDirectory(tiff)) pages++;
    info->page_count = pages;
    TIFFClose(tiff);
    return PARLEY_IMAGE_OK;
}

int parley_tiff_decode_rgba(const uint8_t *data, size_t size, uint8_t *out,
                            uint32_t width, uint32_t height, size_t max_single_alloc, char *message) {
    tiff_memory_file file = { data, size, 0, message, 0, 0 };
    parley_set_message(message, "not a readable TIFF");
    TIFF *tiff = parley_tiff_open(&file, max_single_alloc);
    if (!tiff) return file.over_memory_limit ? PARLEY_IMAGE_MEMORY_LIMIT : PARLEY_IMAGE_MALFORMED;
    uint32_t w = 0, h = 0;
    TIFFGetField(tiff, TIFFTAG_IMAGEWIDTH, &w);
    TIFFGetField(tiff, TIFFTAG_IMAGELENGTH, &h);
    if (w != width || h != height) {
        TIFFClose(tiff);
        parley_set_message(message, "libtiff read other dimensions than the header");
        return PARLEY_IMAGE_MISMATCH;
    }
    char reason[1024];
    if (!TIFFRGBAImageOK(tiff, reason)) {
        TIFFClose(tiff);
        parley_set_message(message, reason);
        return PARLEY_IMAGE_MALFORMED;
    }
    /* Packed ABGR words: in memory on a little-endian machine that is R, G, B, A. */
    int ok = TIFFReadRGBAImageOriented(tiff, width, height, (uint32_t *)out, ORIENTATION_TOPLEFT, 1);
    int reported = file.reported;
    TIFFClose(tiff);
    if (!ok || reported) {
        if (!reported) parley_set_message(message, "libtiff could not decode the first page");
        return file.over_memory_limit ? PARLEY_IMAGE_MEMORY_LIMIT : PARLEY_IMAGE_MALFORMED;
    }
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    uint32_t *words = (uint32_t *)out;
    for (size_t i = 0; i < (size_t)width * height; i++) {
        uint32_t v = words[i];
        out[i * 4] = TIFFGetR(v);
        out[i * 4 + 1] = TIFFGetG(v);
        out[i * 4 + 2] = TIFFGetB(v);
        out[i * 4 + 3] = TIFFGetA(v);
    }
#endif
    return PARLEY_IMAGE_OK;
}
