/* Internal helpers shared by the shims. */
#ifndef PARLEY_IMAGE_COMMON_H
#define PARLEY_IMAGE_COMMON_H
#include <stdio.h>
#include <string.h>
#include "parley_image_shims.h"

static inline void parley_set_message(char *message, const char *text) {
    if (message) snprintf(message, PARLEY_IMAGE_MESSAGE_SIZE, "%s", text ? text : "");
}
#endif
