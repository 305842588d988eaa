#include "CBaselineYAML.h"
int baseline_yaml_placeholder(void) { return 0; }
