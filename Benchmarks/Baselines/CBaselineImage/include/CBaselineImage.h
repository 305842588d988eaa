#ifndef CBaselineImage_H
#define CBaselineImage_H
#include <stddef.h>
/* Placeholder: baseline loops calling the C library directly. */
int baseline_image_placeholder(void);
#endif
