#include "CProcessMemory.h"
#include <malloc.h>

int process_memory_trim(void) { return malloc_trim(0); }
