// The worker's sandbox, layer by layer (ARCHITECTURE.md, "The worker sandbox"): each
// layer holds without the others, so each is put in place even where another already
// forbids the same thing.
#define _GNU_SOURCE
#include "CWorkerIPC.h"

#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/landlock.h>
#include <sched.h>
#include <fcntl.h>
#include <seccomp.h>
#include <signal.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/// Drops root for the unprivileged user and group (no supplementary groups), then every
/// capability: the bounding and ambient sets, then effective, permitted and inheritable.
/// Not root: the user's own ids stay, and whatever capabilities it had go.
static int drop_identity(void) {
    if (prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0) != 0) return -1;
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) return -1;
    // The bounding set shrinks only with CAP_SETPCAP: root has it, an ordinary user has
    // no capability to keep (and no_new_privs keeps it from gaining one).
    if (prctl(PR_CAPBSET_READ, CAP_SETPCAP, 0, 0, 0) == 1 && geteuid() == 0) {
        for (int cap = 0; prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; cap++) {
            if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0) return -1;
        }
    }
    if (geteuid() == 0 || getuid() == 0) {
        if (setgroups(0, NULL) != 0) return -1;
        if (setresgid(H2J_WORKER_ID, H2J_WORKER_ID, H2J_WORKER_ID) != 0) return -1;
        if (setresuid(H2J_WORKER_ID, H2J_WORKER_ID, H2J_WORKER_ID) != 0) return -1;
        if (getuid() == 0 || geteuid() == 0 || getgid() == 0 || getegid() == 0) { errno = EPERM; return -1; }
    }
    struct __user_cap_header_struct header = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
    struct __user_cap_data_struct none[2] = { { 0, 0, 0 }, { 0, 0, 0 } };
    return (int)syscall(SYS_capset, &header, none);
}

/// No core files, and no file written past `max_file_bytes` (the inherited limit when
/// that is lower).
static int set_limits(unsigned long long max_file_bytes) {
    struct rlimit none = { 0, 0 };
    if (setrlimit(RLIMIT_CORE, &none) != 0) return -1;
    struct rlimit size;
    if (getrlimit(RLIMIT_FSIZE, &size) != 0) return -1;
    if (size.rlim_max == RLIM_INFINITY || size.rlim_max > max_file_bytes) size.rlim_max = max_file_bytes;
    if (size.rlim_cur == RLIM_INFINITY || size.rlim_cur > size.rlim_max) size.rlim_cur = size.rlim_max;
    return setrlimit(RLIMIT_FSIZE, &size);
}

/// Dies with the parent: SIGKILL when the thread that started it ends (the parent
/// starts workers only from threads that live as long as the run), and an exit now if
/// the parent is already gone. Set after the identity change, which clears it.
static int follow_parent(pid_t parent) {
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) return -1;
    if (getppid() != parent) _exit(0);
    return 0;
}

/// The rule set of Landlock's newer ABIs, declared here: Debian's headers stop at ABI 3.
struct h2j_landlock_ruleset {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

/// A Landlock domain that handles every file-system right (and, where the ABI has them,
/// TCP and the abstract-socket and signal scopes) and grants none: no path can be
/// opened, made or changed, whatever the filter allows. 1 when in place, 0 when the
/// kernel has no Landlock, -1 on another failure.
static int forbid_paths(void) {
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 1) return errno == ENOSYS || errno == EOPNOTSUPP ? 0 : -1;
    // Each ABI's file-system rights are the bits below the next one's first new right.
    static const uint64_t fs_rights[] = { 0, (1ULL << 13) - 1, (1ULL << 14) - 1, (1ULL << 15) - 1,
                                          (1ULL << 15) - 1, (1ULL << 16) - 1 };
    long known = abi < 5 ? abi : 5;
    struct h2j_landlock_ruleset rules = { .handled_access_fs = fs_rights[known] };
    size_t size = sizeof rules.handled_access_fs;
    if (abi >= 4) {
        rules.handled_access_net = 3;  // LANDLOCK_ACCESS_NET_BIND_TCP | LANDLOCK_ACCESS_NET_CONNECT_TCP
        size = offsetof(struct h2j_landlock_ruleset, scoped);
    }
    if (abi >= 6) {
        rules.scoped = 3;  // LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL
        size = sizeof rules;
    }
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &rules, size, 0);
    if (ruleset < 0) return -1;
    long done = syscall(SYS_landlock_restrict_self, ruleset, 0);
    close(ruleset);
    return done == 0 ? 1 : -1;
}

#define H2J_ALLOW(name, ...) seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(name), __VA_ARGS__)

/// The system-call allow list (ARCHITECTURE.md lists it with how it was found): what
/// decoding, encoding and the worker protocol need, on descriptors already held.
/// Everything else fails with EPERM; clone3 with ENOSYS, so that glibc starts threads
/// with clone, whose flags the filter can read. 1 when in place, 0 when the kernel has
/// no seccomp filters, -1 on another failure.
static int allow_only_decoding_calls(void) {
    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ERRNO(EPERM));
    if (filter == NULL) return -1;
    int failed = 0;
    // Another architecture's numbers kill: they would be other calls. (libseccomp gives
    // the x32 ABI's numbers the default action, EPERM.)
    failed |= seccomp_attr_set(filter, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    failed |= seccomp_attr_set(filter, SCMP_FLTATR_CTL_TSYNC, 1);
    // Traced over Samples/ and ../shared/corpus (Scripts/trace-worker-syscalls), plus
    // what the exit, abort and stop/continue paths make.
    static const int plain[] = {
        // Descriptors already held: the source, the temp output, a memfd, stderr.
        SCMP_SYS(read), SCMP_SYS(pread64), SCMP_SYS(write), SCMP_SYS(pwrite64), SCMP_SYS(lseek),
        SCMP_SYS(fstat), SCMP_SYS(close),
        // Memory (mremap: realloc of a large block).
        SCMP_SYS(mmap), SCMP_SYS(munmap), SCMP_SYS(mprotect), SCMP_SYS(madvise), SCMP_SYS(mremap), SCMP_SYS(brk),
        // Threads: locks, their start and end, scheduling.
        SCMP_SYS(futex), SCMP_SYS(set_robust_list), SCMP_SYS(rseq), SCMP_SYS(sched_yield),
        SCMP_SYS(sched_getaffinity), SCMP_SYS(getpid), SCMP_SYS(gettid), SCMP_SYS(exit), SCMP_SYS(exit_group),
        // Clocks and sleeping; the alarm backstop; a wait resumed after SIGSTOP/SIGCONT.
        SCMP_SYS(clock_gettime), SCMP_SYS(nanosleep), SCMP_SYS(clock_nanosleep), SCMP_SYS(alarm),
        SCMP_SYS(restart_syscall),
        // Signals of its own.
        SCMP_SYS(rt_sigaction), SCMP_SYS(rt_sigprocmask), SCMP_SYS(rt_sigreturn),
        // Random seeds (Swift's hashing); the gain map's in-memory JPEG.
        SCMP_SYS(getrandom), SCMP_SYS(memfd_create),
    };
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
        failed |= seccomp_rule_add(filter, SCMP_ACT_ALLOW, plain[i], 0);
    }
    // The protocol: messages and descriptors on the socket only.
    failed |= H2J_ALLOW(sendmsg, 1, SCMP_A0(SCMP_CMP_EQ, H2J_WORKER_SOCKET));
    failed |= H2J_ALLOW(recvmsg, 1, SCMP_A0(SCMP_CMP_EQ, H2J_WORKER_SOCKET));
    // Threads, never processes: clone only with CLONE_THREAD; clone3's flags sit in
    // memory the filter cannot read.
    failed |= H2J_ALLOW(clone, 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD));
    failed |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
    // Signals to itself only (abort's tgkill, raise).
    pid_t self = getpid();
    failed |= H2J_ALLOW(kill, 1, SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)self));
    failed |= H2J_ALLOW(tgkill, 1, SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)self));
    // fstat as glibc makes it: newfstatat(fd, "", AT_EMPTY_PATH).
    failed |= H2J_ALLOW(newfstatat, 1, SCMP_A3(SCMP_CMP_EQ, AT_EMPTY_PATH));
    // dav1d (libheif's AV1 decoder) names its threads; nothing else of prctl.
    failed |= H2J_ALLOW(prctl, 1, SCMP_A0(SCMP_CMP_EQ, PR_SET_NAME));
    if (failed) {
        seccomp_release(filter);
        errno = EINVAL;
        return -1;
    }
    int loaded = seccomp_load(filter);
    seccomp_release(filter);
    if (loaded == 0) return 1;
    errno = -loaded;
    return errno == EINVAL || errno == ENOSYS ? 0 : -1;
}

int h2j_enter_sandbox(int layers, pid_t parent, unsigned long long max_file_bytes) {
    int entered = 0;
    if (layers & H2J_SANDBOX_LIMITS) {
        if (set_limits(max_file_bytes) != 0) return -1;
        entered |= H2J_SANDBOX_LIMITS;
    }
    if (layers & H2J_SANDBOX_IDENTITY) {
        if (drop_identity() != 0) return -1;
        entered |= H2J_SANDBOX_IDENTITY;
    }
    if (layers & H2J_SANDBOX_PARENT_DEATH) {
        if (follow_parent(parent) != 0) return -1;
        entered |= H2J_SANDBOX_PARENT_DEATH;
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    if (layers & H2J_SANDBOX_LANDLOCK) {
        int paths = forbid_paths();
        if (paths < 0) return -1;
        if (paths > 0) entered |= H2J_SANDBOX_LANDLOCK;
    }
    if (layers & H2J_SANDBOX_SECCOMP) {
        int calls = allow_only_decoding_calls();
        if (calls < 0) return -1;
        if (calls > 0) entered |= H2J_SANDBOX_SECCOMP;
    }
    return entered;
}

void h2j_seccomp_version(unsigned *major, unsigned *minor, unsigned *micro) {
    const struct scmp_version *version = seccomp_version();
    *major = version->major;
    *minor = version->minor;
    *micro = version->micro;
}
