#include <webp/decode.h>
#include <webp/demux.h>
#include "common.h"

int parley_webp_info(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height,
                     int *has_alpha, int *is_lossless, uint32_t *frame_count, char *message) {
    WebPBitstreamFeatures features;
    VP8StatusCode code = WebPGetFeatures(data, size, &features);
    if (code != VP8_STATUS_OK) {
        parley_set_message(message, code == VP8_STATUS_NOT_ENOUGH_DATA ? "the WebP data ended early"
                                                                        : "not a valid WebP bitstream");
        return code == VP8_STATUS_NOT_ENOUGH_DATA ? PARLEY_IMAGE_TRUNCATED : PARLEY_IMAGE_MALFORMED;
    }
    *width = (uint32_t)features.width;
    *height = (uint32_t)features.height;
    *has_alpha = features.has_alpha;
    *is_lossless = features.format == 2;
    *frame_count = 1;
    if (features.has_animation) {
        WebPData webp = { data, size };
        WebPDemuxer *demux = WebPDemux(&webp);
        if (!demux) { parley_set_message(message, "malformed WebP container"); return PARLEY_IMAGE_MALFORMED; }
        *width = WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH);
        *height = WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT);
        *frame_count = WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT);
        WebPDemuxDelete(demux);
    }
    return PARLEY_IMAGE_OK;
}

int parley_webp_decode_rgba(const uint8_t *data, size_t size, uint8_t *out,
                            uint32_t width, uint32_t height, char *message) {
    WebPBitstreamFeatures features;
    if (WebPGetFeatures(data, size, &features) != VP8_STATUS_OK) {
        parley_set_message(message, "not a valid WebP bitstream");
        return PARLEY_IMAGE_MALFORMED;
    }
    size_t stride = (size_t)width * 4, total = stride * height;
    if (!features.has_animation) {
        if ((uint32_t)features.width != width || (uint32_t)features.height != height) {
            parley_set_message(message, "libwebp read other dimensions than the header");
            return PARLEY_IMAGE_MISMATCH;
        }
        if (!WebPDecodeRGBAInto(data, size, out, total, (int)stride)) {
            parley_set_message(message, "libwebp could not decode the image data");
            return PARLEY_IMAGE_MALFORMED;
        }
        return PARLEY_IMAGE_OK;
    }
    WebPData webp = { data, size };
    WebPAnimDecoderOptions options;
    if (!WebPAnimDecoderOptionsInit(&options)) {
        parley_set_message(message, "libwebp version mismatch");
        return PARLEY_IMAGE_MALFORMED;
    }
    options.color_mode = MODE_RGBA;
    options.use_threads = 0;
    WebPAnimDecoder *decoder = WebPAnimDecoderNew(&webp, &options);
    if (!decoder) { parley_set_message(message, "malformed animated WebP"); return PARLEY_IMAGE_MALFORMED; }
    WebPAnimInfo info;
    uint8_t *frame = NULL;
    int timestamp = 0;
    int status = PARLEY_IMAGE_OK;
    if (!WebPAnimDecoderGetInfo(decoder, &info) || info.canvas_width != width || info.canvas_height != height) {
        parley_set_message(message, "libwebp read other dimensions than the header");
        status = PARLEY_IMAGE_MISMATCH;
    } else if (!WebPAnimDecoderGetNext(decoder, &frame, &timestamp) || !frame) {
        parley_set_message(message, "libwebp could not decode the first frame");
        status = PARLEY_IMAGE_MALFORMED;
    } else {
        memcpy(out, frame, total);
    }
    WebPAnimDecoderDelete(decoder);
    return status;
}
