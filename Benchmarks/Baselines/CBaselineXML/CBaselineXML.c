#include "CBaselineXML.h"
int baseline_xml_placeholder(void) { return 0; }
