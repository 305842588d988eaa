/* Placeholder: C shims for image libraries (setjmp error handling). */
#ifndef PARLEY_IMAGE_SHIMS_H
#define PARLEY_IMAGE_SHIMS_H
int parley_image_shims_version(void);
#endif
