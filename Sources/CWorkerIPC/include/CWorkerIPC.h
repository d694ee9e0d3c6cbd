// CWorkerIPC: the C the worker processes need and Swift cannot express. Passing a file
// descriptor over a Unix socket (SCM_RIGHTS) uses the CMSG_* macros, which Swift does
// not import; the sandbox (worker_sandbox.c) is prctl, Landlock and libseccomp calls
// with flags Swift would have to spell out by hand.
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

/// The uid and gid a worker started by root runs as: nobody and nogroup.
#define H2J_WORKER_ID 65534
/// The descriptor a worker finds its socket on (`WorkerSocket.workerDescriptor`).
#define H2J_WORKER_SOCKET 3

/// The layers `h2j_enter_sandbox` put in place, one bit each.
enum {
    H2J_SANDBOX_LIMITS = 1 << 0,
    H2J_SANDBOX_IDENTITY = 1 << 1,
    H2J_SANDBOX_PARENT_DEATH = 1 << 2,
    H2J_SANDBOX_LANDLOCK = 1 << 3,
    H2J_SANDBOX_SECCOMP = 1 << 4,
    H2J_SANDBOX_ALL = (1 << 5) - 1,
};

/// Puts the calling process (which must have one thread) into the layers of the worker
/// sandbox that `layers` names (a worker: all of them; tests enter them one at a time to
/// show that each holds alone), in this order: RLIMIT_CORE 0 and RLIMIT_FSIZE at most `max_file_bytes`; run as root, the
/// uid and gid H2J_WORKER_ID with no supplementary groups; no capability in any set,
/// the bounding set included; SIGKILL when the parent goes (and an exit now when
/// `parent` is no longer its parent); no_new_privs; a Landlock domain that grants no
/// file-system access; a seccomp allow list (worker_sandbox.c) under which every other
/// call fails with EPERM. Returns the layers in place (Landlock and seccomp are missing
/// only on kernels without them), or -1 with errno when one could not be put in place:
/// the worker must then not run.
int h2j_enter_sandbox(int layers, pid_t parent, unsigned long long max_file_bytes);

/// The version of the libseccomp the sandbox's filter is built with, as loaded
/// (`seccomp_version`), into `major`, `minor` and `micro`.
void h2j_seccomp_version(unsigned *major, unsigned *minor, unsigned *micro);

#ifdef __cplusplus
}
#endif

#endif
