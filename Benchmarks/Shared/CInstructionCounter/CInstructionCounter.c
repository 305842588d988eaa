#include "CInstructionCounter.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HAS_CALLGRIND 1
#else
#define HAS_CALLGRIND 0
#endif

int instruction_counter_open(void) {
    struct perf_event_attr attributes;
    memset(&attributes, 0, sizeof attributes);
    attributes.type = PERF_TYPE_HARDWARE;
    attributes.size = sizeof attributes;
    attributes.config = PERF_COUNT_HW_INSTRUCTIONS;
    attributes.exclude_kernel = 1;
    attributes.exclude_hv = 1;
    long fd = syscall(SYS_perf_event_open, &attributes, 0, -1, -1, 0);
    return fd < 0 ? -errno : (int)fd;
}

long long instruction_counter_read(int fd) {
    long long count = 0;
    return read(fd, &count, sizeof count) == (ssize_t)sizeof count ? count : -1;
}

int instruction_counter_running_on_valgrind(void) {
#if HAS_CALLGRIND
    return RUNNING_ON_VALGRIND ? 1 : 0;
#else
    return 0;
#endif
}

void instruction_counter_callgrind_begin(void) {
#if HAS_CALLGRIND
    CALLGRIND_START_INSTRUMENTATION;
    CALLGRIND_ZERO_STATS;
#endif
}

void instruction_counter_callgrind_end(const char *label) {
#if HAS_CALLGRIND
    CALLGRIND_DUMP_STATS_AT(label);
    CALLGRIND_STOP_INSTRUMENTATION;
#else
    (void)label;
#endif
}
