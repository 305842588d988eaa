#include "CBaselineImage.h"
int baseline_image_placeholder(void) { return 0; }
