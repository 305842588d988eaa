#ifndef C_STANDARD_STREAMS_H
#define C_STANDARD_STREAMS_H

// The C standard streams, for code that runs a command in-process with its input from a file:
// Swift 6 cannot name stdio's `stdin` (a mutable global), so the gate's workloads call these.

/// Reopens standard input on the file at `path` (clearing its end-of-file state); 0 on success.
int standard_input_reopen(const char *path);

#endif
