#include "CStandardStreams.h"
#include <stdio.h>

int standard_input_reopen(const char *path) {
    return freopen(path, "r", stdin) == NULL ? -1 : 0;
}
