// CWorkerIPC: the C the worker processes need and Swift cannot express. Passing a file
// descriptor over a Unix socket (SCM_RIGHTS) uses the CMSG_* macros, which Swift does
// not import; the seccomp filter is a BPF program built from macros too.
#ifndef CWORKERIPC_H
#define CWORKERIPC_H

#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Sends all `length` bytes of `bytes` on the stream socket `socket`, with `fd` (when it
/// is not -1) attached to the first byte (SCM_RIGHTS). Never raises SIGPIPE
/// (MSG_NOSIGNAL) and retries EINTR and short sends. Returns 0, or -1 with errno set.
int h2j_send(int socket, const void *bytes, size_t length, int fd);

/// One `recvmsg` of up to `capacity` bytes from `socket`. A descriptor that came with
/// them is stored in `*fd` (close-on-exec), else `*fd` is -1; any further descriptors
/// are closed. Returns the byte count (0 at end of stream), or -1 with errno set;
/// retries EINTR.
ssize_t h2j_receive(int socket, void *bytes, size_t capacity, int *fd);

/// Forks a worker from a process that has exactly one thread (the caller checks): in the
/// child, `socket` becomes descriptor 3, `error_output` descriptor 2, /dev/null
/// descriptors 0 and 1, every other descriptor is closed, every signal but SIGXFSZ gets
/// its default action, and 0 is
/// returned; the parent gets the child's pid, or -1 with errno set. The child is a copy
/// of a process whose libraries are loaded and initialised, so it starts at once
/// (an exec costs about 10 ms, most of it dynamic linking and libde265's tables).
int h2j_fork_worker(int socket, int error_output);

/// Installs the worker's seccomp filter on the calling thread and every thread it
/// creates afterwards (call it before any other thread exists): opening a file for
/// writing or creating one, creating, renaming, linking or removing a directory entry,
/// changing a file's mode or owner by name, making sockets, connecting, and executing a
/// program all fail with EPERM. Reading files, and writing to descriptors already
/// open (the temp file the parent passes), stay allowed. Returns 0, or -1 with errno
/// set when the kernel refuses filters (the worker then runs without one).
int h2j_enter_sandbox(void);

/// An anonymous in-memory file (`memfd_create`, close-on-exec): where a worker, which
/// the sandbox keeps from creating files, encodes a JPEG it needs as bytes (a gain
/// map). Returns the descriptor, or -1 with errno set.
int h2j_memory_file(void);

#ifdef __cplusplus
}
#endif

#endif
