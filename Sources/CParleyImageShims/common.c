#include "parley_image_shims.h"
#include <stdlib.h>

void parley_image_free(void *pointer) { free(pointer); }
