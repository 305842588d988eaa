#include "parley_image_shims.h"
int parley_image_shims_version(void) { return 1; }
