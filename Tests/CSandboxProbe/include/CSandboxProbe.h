// Test-only: runs the worker's seccomp filter in a forked child and reports what the
// child could still do. C, because the child of a fork in a multithreaded test process
// may only make plain system calls until it exits.
#ifndef CSANDBOXPROBE_H
#define CSANDBOXPROBE_H

/// Bits of `h2j_probe_sandbox`'s result: what succeeded inside the sandbox.
enum {
    H2J_PROBE_CREATE_FILE = 1 << 0,
    H2J_PROBE_OPEN_FOR_WRITING = 1 << 1,
    H2J_PROBE_MAKE_DIRECTORY = 1 << 2,
    H2J_PROBE_UNLINK = 1 << 3,
    H2J_PROBE_RENAME = 1 << 4,
    H2J_PROBE_SOCKET = 1 << 5,
    H2J_PROBE_EXECUTE = 1 << 6,
    H2J_PROBE_READ_FILE = 1 << 7,
    H2J_PROBE_WRITE_OPEN_DESCRIPTOR = 1 << 8,
    H2J_PROBE_START_THREAD = 1 << 9,
};

/// Forks; the child enters the sandbox, then tries each operation on files in
/// `directory` (where `existing` is a file it may read), and exits with the bits of what
/// succeeded. Returns those bits, -1 if the child could not run, -2 if the kernel
/// refused the filter.
int h2j_probe_sandbox(const char *directory, const char *existing);

#endif
