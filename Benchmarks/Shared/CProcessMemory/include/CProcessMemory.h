#ifndef CProcessMemory_H
#define CProcessMemory_H

/// Returns the heap's free memory to the system (glibc's malloc_trim(0)), so the resident set
/// shows what is still allocated. Returns 1 when memory was released.
int process_memory_trim(void);

#endif
