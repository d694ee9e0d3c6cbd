// Test-only: runs the real worker sandbox (`h2j_enter_sandbox`) in a forked child and
// reports what one call did there. C, because the child of a fork in a multithreaded
// test process must stay in plain system calls until it exits.
#ifndef CSANDBOXPROBE_H
#define CSANDBOXPROBE_H

/// The calls a probe can try: the escapes of issue 19 (each must fail), then what a
/// worker needs (each must work).
typedef enum {
    H2J_PROBE_OPEN_BY_HANDLE_WRITE,  // open_by_handle_at(O_RDWR) of a file, then a write through it
    H2J_PROBE_PIDFD_GETFD,           // pidfd_getfd of the parent's writable descriptor, then a write
    H2J_PROBE_PIDFD_OPEN,            // pidfd_open of the parent
    H2J_PROBE_PTRACE,                // PTRACE_ATTACH to the bystander
    H2J_PROBE_KILL_BYSTANDER,        // kill(SIGTERM) of a process running as the worker's user
    H2J_PROBE_FORK,
    H2J_PROBE_EXECVE,                // execve of /bin/true
    H2J_PROBE_SOCKET,                // socket(AF_INET)
    H2J_PROBE_UNIX_SOCKET,           // socket(AF_UNIX)
    H2J_PROBE_IO_URING_SETUP,
    H2J_PROBE_FCHMOD,                // fchmod(held descriptor, 04777)
    H2J_PROBE_FCHOWN,                // fchown(held descriptor, the worker's uid, 0)
    H2J_PROBE_UTIMENSAT,             // utimensat(held descriptor, NULL path, forged times)
    H2J_PROBE_SETXATTR,              // fsetxattr(held descriptor, "user.h2j")
    H2J_PROBE_OPEN,                  // open(path, O_RDONLY)
    H2J_PROBE_OPENAT,                // openat(AT_FDCWD, path, O_RDONLY)
    H2J_PROBE_CREATE,                // openat(O_CREAT) of a new file
    H2J_PROBE_ESCAPES,               // the number of escapes above
    H2J_PROBE_READ_HELD = H2J_PROBE_ESCAPES,  // read of a descriptor held before
    H2J_PROBE_WRITE_HELD,            // write to a descriptor held before (the pipe back)
    H2J_PROBE_THREAD,                // pthread_create and join
    H2J_PROBE_MEMFD,                 // memfd_create, write, pread back
    H2J_PROBE_WRITE_PAST_LIMIT,      // write 2 bytes to a memfd whose RLIMIT_FSIZE is 1 byte
    H2J_PROBE_CALLS,
} h2j_probe_call;

/// What a probe child did: the call's outcome, the sandbox layers it entered, its ids.
typedef struct {
    /// 0 when the call did what it tried, its errno when it failed, -signal when it
    /// killed the child; -1000 when the child could not run, -1001 when it could not
    /// enter the sandbox (`layers` then holds that errno).
    int outcome;
    int layers;
    int uid, gid, groups;
    /// The child's effective, permitted and bounding capability sets, from capget and
    /// PR_CAPBSET_READ (bit n = capability n).
    unsigned long long effective, permitted, bounding;
} h2j_probe_result;

enum { H2J_PROBE_UNRUN = -1000, H2J_PROBE_NO_SANDBOX = -1001 };

/// Forks a child that becomes `uid`/`gid` first when `uid` is not -1 (an ordinary user),
/// opens `target` (a file in `directory` it then holds, as a worker holds its source),
/// enters the sandbox layers `layers` with a 1-byte file size limit, and tries `call`.
/// A bystander process runs as the worker's user while it does; `target` is given to
/// that user first (when the caller is root), so only the sandbox stands in the way.
h2j_probe_result h2j_probe(h2j_probe_call call, int layers, int uid, int gid, const char *directory, const char *target);

/// The kernel's Landlock ABI version, or 0 without Landlock.
int h2j_probe_landlock_abi(void);

#endif
