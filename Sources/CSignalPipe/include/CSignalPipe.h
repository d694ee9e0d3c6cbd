// CSignalPipe: a signal turned into a byte on a pipe, for the signals libdispatch's
// signal sources cannot see on Linux (SIGPIPE: libdispatch ignores it for its own pipes).
#ifndef CSIGNALPIPE_H
#define CSIGNALPIPE_H

#ifdef __cplusplus
extern "C" {
#endif

/// Installs a handler for `signo` that writes the signal's number, one byte, to a pipe,
/// and returns the pipe's read end (non-blocking, close-on-exec); -1 with errno when the
/// pipe or the handler cannot be made. Once per signal.
int h2j_signal_pipe(int signo);

#ifdef __cplusplus
}
#endif

#endif
