#ifndef CBaselineXML_H
#define CBaselineXML_H
#include <stddef.h>
/* Placeholder: baseline loops calling the C library directly. */
int baseline_xml_placeholder(void);
#endif
