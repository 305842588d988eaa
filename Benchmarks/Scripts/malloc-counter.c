// An LD_PRELOAD allocation counter for gateway-allocations.sh: counts every call of malloc, calloc,
// realloc, memalign, aligned_alloc and posix_memalign in the process (each then calls glibc's own),
// and on SIGUSR2 appends the count so far, one line, to the file named by MALLOC_COUNTER_FILE.
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static unsigned long count;
static char path[512];

static void counted(void) { __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED); }

void *malloc(size_t size) { counted(); return __libc_malloc(size); }
void *calloc(size_t number, size_t size) { counted(); return __libc_calloc(number, size); }
void *realloc(void *pointer, size_t size) { counted(); return __libc_realloc(pointer, size); }
void *memalign(size_t alignment, size_t size) { counted(); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { counted(); return __libc_memalign(alignment, size); }

int posix_memalign(void **pointer, size_t alignment, size_t size) {
  counted();
  *pointer = __libc_memalign(alignment, size);
  return *pointer ? 0 : 12;  // ENOMEM
}

// Async-signal-safe: open, write and close only, into a buffer on the stack.
static void dump(int signal) {
  (void)signal;
  char line[32];
  int length = snprintf(line, sizeof line, "%lu\n", __atomic_load_n(&count, __ATOMIC_RELAXED));
  int descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (descriptor < 0) return;
  ssize_t written = write(descriptor, line, (size_t)length);
  (void)written;
  close(descriptor);
}

__attribute__((constructor)) static void start(void) {
  const char *file = getenv("MALLOC_COUNTER_FILE");
  if (!file) return;
  snprintf(path, sizeof path, "%s", file);
  signal(SIGUSR2, dump);
}
