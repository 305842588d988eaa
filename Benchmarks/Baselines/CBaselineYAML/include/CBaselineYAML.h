#ifndef CBaselineYAML_H
#define CBaselineYAML_H
#include <stddef.h>
/* Placeholder: baseline loops calling the C library directly. */
int baseline_yaml_placeholder(void);
#endif
