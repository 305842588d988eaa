#ifndef C_INSTRUCTION_COUNTER_H
#define C_INSTRUCTION_COUNTER_H

// Counting the instructions a piece of code retires, two ways:
// - the CPU's own counter through perf_event_open(2) (user space only), where the kernel
//   exposes one (not in most virtual machines);
// - Valgrind's callgrind, through its client requests, when the process runs under
//   `valgrind --tool=callgrind --instr-atstart=no`: each measured region is written to a dump
//   file whose `summary:` line holds the count.

/// Opens a user-space instruction counter for this thread: a file descriptor, or -errno.
int instruction_counter_open(void);

/// The instructions counted since `fd` was opened, or -1.
long long instruction_counter_read(int fd);

/// 1 when the process runs under Valgrind, 0 otherwise.
int instruction_counter_running_on_valgrind(void);

/// Starts callgrind's instrumentation with zeroed counts (nothing outside Valgrind).
void instruction_counter_callgrind_begin(void);

/// Writes the counts since `instruction_counter_callgrind_begin` to the next dump file,
/// labelled `label`, and stops the instrumentation (nothing outside Valgrind).
void instruction_counter_callgrind_end(const char *label);

#endif
