#include <gif_lib.h>
#include <stdlib.h>
#include "common.h"

typedef struct {
    const uint8_t *data;
    size_t size, offset;
} gif_memory_reader;

static int parley_gif_read(GifFileType *gif, GifByteType *out, int count) {
    gif_memory_reader *reader = (gif_memory_reader *)gif->UserData;
    size_t available = reader->size - reader->offset;
    size_t n = count < 0 ? 0 : (size_t)count;
    if (n > available) n = available;
    memcpy(out, reader->data + reader->offset, n);
    reader->offset += n;
    return (int)n;
}

static int parley_gif_status(int error, char *message) {
    parley_set_message(message, GifErrorString(error));
    return error == D_GIF_ERR_READ_FAILED || error == D_GIF_ERR_EOF_TOO_SOON
        ? PARLEY_IMAGE_TRUNCATED : PARLEY_IMAGE_MALFORMED;
}

int parley_gif_decode_first_frame_rgba(const uint8_t *data, size_t size, uint8_t *out,
                                       uint32_t canvas_width, uint32_t canvas_height, char *message) {
    gif_memory_reader reader = { data, size, 0 };
    int error = 0;
    GifFileType *gif = DGifOpen(&reader, parley_gif_read, &error);
    if (!gif) return parley_gif_status(error, message);
    memset(out, 0, (size_t)canvas_width * canvas_height * 4);
    int transparent = -1;
    GifRecordType record;
    GifByteType *line = NULL;
    int status = PARLEY_IMAGE_MALFORMED;
    parley_set_message(message, "no image in the GIF");
    for (;;) {
        if (DGifGetRecordType(gif, &record) == GIF_ERROR) { status = parley_gif_status(gif->Error, message); break; }
        if (record == TERMINATE_RECORD_TYPE) break;
        if (record == EXTENSION_RECORD_TYPE) {
            int code;
            GifByteType *block;
            if (DGifGetExtension(gif, &code, &block) == GIF_ERROR) {
                status = parley_gif_status(gif->Error, message);
                break;
            }
            if (code == GRAPHICS_EXT_FUNC_CODE && block && block[0] >= 4) {
                transparent = (block[1] & 0x01) ? block[4] : -1;
            }
            int failed = 0;
            while (block) {
                if (DGifGetExtensionNext(gif, &block) == GIF_ERROR) { failed = 1; break; }
            }
            if (failed) { status = parley_gif_status(gif->Error, message); break; }
            continue;
        }
        if (record != IMAGE_DESC_RECORD_TYPE) continue;
        if (DGifGetImageDesc(gif) == GIF_ERROR) { status = parley_gif_status(gif->Error, message); break; }
        GifImageDesc *desc = &gif->Image;
        ColorMapObject *map = desc->ColorMap ? desc->ColorMap : gif->SColorMap;
        if (!map) { parley_set_message(message, "a frame without a color table"); break; }
        if (desc->Width <= 0 || desc->Height <= 0) { parley_set_message(message, "an empty frame"); break; }
        line = malloc((size_t)desc->Width);
        if (!line) { status = PARLEY_IMAGE_NO_MEMORY; parley_set_message(message, "out of memory"); break; }
        static const int pass_start[] = { 0, 4, 2, 1 }, pass_step[] = { 8, 8, 4, 2 };
        int passes = desc->Interlace ? 4 : 1;
        int failed = 0;
        for (int pass = 0; pass < passes && !failed; pass++) {
            int start = desc->Interlace ? pass_start[pass] : 0, step = desc->Interlace ? pass_step[pass] : 1;
            for (int row = start; row < desc->Height; row += step) {
                if (DGifGetLine(gif, line, desc->Width) == GIF_ERROR) { failed = 1; break; }
                long y = (long)desc->Top + row;
                if (y < 0 || y >= (long)canvas_height) continue;
                uint8_t *pixel = out + (size_t)y * canvas_width * 4;
                for (int x = 0; x < desc->Width; x++) {
                    long cx = (long)desc->Left + x;
                    if (cx < 0 || cx >= (long)canvas_width) continue;
                    int index = line[x];
                    if (index >= map->ColorCount) continue;
                    GifColorType color = map->Colors[index];
                    uint8_t *p = pixel + cx * 4;
                    /* The transparent index keeps its palette colour with alpha 0, as Pillow does. */
                    p[0] = color.Red; p[1] = color.Green; p[2] = color.Blue; p[3] = index == transparent ? 0 : 255;
                }
            }
        }
        if (failed) { status = parley_gif_status(gif->Error, message); break; }
        status = PARLEY_IMAGE_OK;
        break;
    }
    free(line);
    DGifCloseFile(gif, &error);
    return status;
}
