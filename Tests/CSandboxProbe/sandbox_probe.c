#define _GNU_SOURCE
#include "CSandboxProbe.h"
#include "CMemoryFile.h"
#include "CWorkerIPC.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/io_uring.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

static void *nothing(void *argument) { return argument; }

/// Becomes `uid`/`gid` with no supplementary groups; 0 or -1.
static int become(int uid, int gid) {
    if (setgroups(0, NULL) != 0 || setresgid(gid, gid, gid) != 0 || setresuid(uid, uid, uid) != 0) return -1;
    return 0;
}

/// What the probe child holds when it enters the sandbox, as a worker holds its source.
struct held {
    int file;            // `target`, read-only
    int parent_file;     // the number of the parent's writable descriptor of `target`
    int pidfd;           // the parent's pidfd
    int mount;           // a descriptor on the file system of `target` (the directory)
    pid_t bystander;
    const char *directory, *target;
    char handle_space[sizeof(struct file_handle) + MAX_HANDLE_SZ];
    int uid;
};

/// 0 when `call` did what it tried, else its errno.
static int attempt(h2j_probe_call call, struct held *held) {
    struct file_handle *handle = (struct file_handle *)held->handle_space;
    char path[4096];
    int fd;
    switch (call) {
    case H2J_PROBE_OPEN_BY_HANDLE_WRITE:
        fd = (int)syscall(SYS_open_by_handle_at, held->mount, handle, O_RDWR);
        if (fd < 0) return errno;
        return pwrite(fd, "X", 1, 0) == 1 ? 0 : errno;
    case H2J_PROBE_PIDFD_GETFD:
        fd = (int)syscall(SYS_pidfd_getfd, held->pidfd, held->parent_file, 0);
        if (fd < 0) return errno;
        return pwrite(fd, "X", 1, 0) == 1 ? 0 : errno;
    case H2J_PROBE_PIDFD_OPEN:
        return syscall(SYS_pidfd_open, getppid(), 0) >= 0 ? 0 : errno;
    case H2J_PROBE_PTRACE:
        return ptrace(PTRACE_ATTACH, held->bystander, NULL, NULL) == 0 ? 0 : errno;
    case H2J_PROBE_KILL_BYSTANDER:
        return kill(held->bystander, SIGTERM) == 0 ? 0 : errno;
    case H2J_PROBE_FORK: {
        pid_t child = fork();
        if (child == 0) _exit(0);
        return child > 0 ? 0 : errno;
    }
    case H2J_PROBE_EXECVE: {
        char *argv[] = { "/bin/true", NULL };
        char *envp[] = { NULL };
        execve("/bin/true", argv, envp);  // returns only when refused
        return errno;
    }
    case H2J_PROBE_SOCKET:
        return socket(AF_INET, SOCK_STREAM, 0) >= 0 ? 0 : errno;
    case H2J_PROBE_UNIX_SOCKET:
        return socket(AF_UNIX, SOCK_STREAM, 0) >= 0 ? 0 : errno;
    case H2J_PROBE_IO_URING_SETUP: {
        struct io_uring_params params;
        memset(&params, 0, sizeof params);
        return syscall(SYS_io_uring_setup, 1, &params) >= 0 ? 0 : errno;
    }
    case H2J_PROBE_FCHMOD:
        return fchmod(held->file, 04777) == 0 ? 0 : errno;
    case H2J_PROBE_FCHOWN:
        return fchown(held->file, (uid_t)held->uid, 0) == 0 ? 0 : errno;
    case H2J_PROBE_UTIMENSAT: {
        struct timespec forged[2] = { { 86400, 0 }, { 86400, 0 } };
        return syscall(SYS_utimensat, held->file, NULL, forged, 0) == 0 ? 0 : errno;
    }
    case H2J_PROBE_SETXATTR:
        return fsetxattr(held->file, "user.h2j", "x", 1, 0) == 0 ? 0 : errno;
    case H2J_PROBE_OPEN:
        return syscall(SYS_open, held->target, O_RDONLY) >= 0 ? 0 : errno;
    case H2J_PROBE_OPENAT:
        return openat(AT_FDCWD, held->target, O_RDONLY) >= 0 ? 0 : errno;
    case H2J_PROBE_CREATE:
        snprintf(path, sizeof path, "%s/created", held->directory);
        return openat(AT_FDCWD, path, O_WRONLY | O_CREAT | O_EXCL, 0666) >= 0 ? 0 : errno;
    case H2J_PROBE_READ_HELD: {
        char byte;
        return pread(held->file, &byte, 1, 0) == 1 ? 0 : errno;
    }
    case H2J_PROBE_WRITE_HELD:
        return 0;  // the outcome itself goes back through the pipe
    case H2J_PROBE_THREAD: {
        pthread_t thread;
        int code = pthread_create(&thread, NULL, nothing, NULL);
        return code != 0 ? code : pthread_join(thread, NULL);
    }
    case H2J_PROBE_MEMFD: {
        fd = h2j_memory_file();
        char byte = 0;
        if (fd < 0) return errno;
        if (write(fd, "X", 1) != 1) return errno;
        return pread(fd, &byte, 1, 0) == 1 && byte == 'X' ? 0 : EIO;
    }
    case H2J_PROBE_WRITE_PAST_LIMIT:
        fd = h2j_memory_file();
        if (fd < 0) return errno;
    {
        // Past the limit a write is cut short first, then fails.
        ssize_t n = pwrite(fd, "XY", 2, 0);
        if (n < 0) return errno;
        return n == 2 || pwrite(fd, "Y", 1, n) == 1 ? 0 : errno;
    }
    default:
        return EINVAL;
    }
}

/// The child's capability sets.
static void capabilities(h2j_probe_result *result) {
    struct __user_cap_header_struct header = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof data);
    if (syscall(SYS_capget, &header, data) == 0) {
        result->effective = data[0].effective | (unsigned long long)data[1].effective << 32;
        result->permitted = data[0].permitted | (unsigned long long)data[1].permitted << 32;
    }
    result->bounding = 0;
    for (int cap = 0; cap < 64; cap++) {
        if (prctl(PR_CAPBSET_READ, cap, 0, 0, 0) == 1) result->bounding |= 1ULL << cap;
    }
}

int h2j_probe_landlock_abi(void) {
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, 1);  // LANDLOCK_CREATE_RULESET_VERSION
    return abi > 0 ? (int)abi : 0;
}

h2j_probe_result h2j_probe(h2j_probe_call call, int layers, int uid, int gid, const char *directory, const char *target) {
    h2j_probe_result result = { .outcome = H2J_PROBE_UNRUN };
    int worker_uid = uid >= 0 ? uid : (geteuid() == 0 && (layers & H2J_SANDBOX_IDENTITY) ? H2J_WORKER_ID : (int)geteuid());
    int worker_gid = gid >= 0 ? gid : (geteuid() == 0 && (layers & H2J_SANDBOX_IDENTITY) ? H2J_WORKER_ID : (int)getegid());
    if (geteuid() == 0 && chown(target, worker_uid, worker_gid) != 0) return result;
    int parent_file = open(target, O_RDWR | O_CLOEXEC);
    int pipe_ends[2];
    if (parent_file < 0 || pipe2(pipe_ends, O_CLOEXEC) != 0) return result;
    pid_t bystander = fork();
    if (bystander == 0) {
        if (geteuid() == 0 && become(worker_uid, worker_gid) != 0) _exit(1);
        for (;;) pause();
    }
    pid_t parent = getpid();
    pid_t child = bystander > 0 ? fork() : -1;
    if (child == 0) {
        signal(SIGXFSZ, SIG_IGN);
        if (uid >= 0 && become(uid, gid) != 0) _exit(250);
        struct held held = { .parent_file = parent_file, .bystander = bystander, .directory = directory,
                             .target = target, .uid = worker_uid };
        // The parent's descriptor is reachable only through pidfd_getfd, as in a worker.
        close(parent_file);
        held.file = open(target, O_RDONLY | O_CLOEXEC);
        held.mount = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        held.pidfd = (int)syscall(SYS_pidfd_open, parent, 0);
        struct file_handle *handle = (struct file_handle *)held.handle_space;
        handle->handle_bytes = MAX_HANDLE_SZ;
        int mount_id;
        if (held.file < 0 || held.mount < 0 || held.pidfd < 0 ||
            syscall(SYS_name_to_handle_at, AT_FDCWD, target, handle, &mount_id, 0) != 0) _exit(251);
        h2j_probe_result report = { .outcome = H2J_PROBE_UNRUN };
        report.layers = h2j_enter_sandbox(layers, parent, 1);
        if (report.layers < 0) {
            report.outcome = H2J_PROBE_NO_SANDBOX;
            report.layers = errno;
        } else {
            report.uid = (int)getuid();
            report.gid = (int)getgid();
            report.groups = getgroups(0, NULL);
            capabilities(&report);
            // Sent before the call, so a call that kills the child still leaves the rest.
            if (write(pipe_ends[1], &report, sizeof report) != sizeof report) _exit(252);
            report.outcome = attempt(call, &held);
        }
        if (write(pipe_ends[1], &report, sizeof report) != sizeof report) _exit(252);
        _exit(0);
    }
    close(pipe_ends[1]);
    h2j_probe_result reports[2];
    ssize_t got = 0, n;
    while ((n = read(pipe_ends[0], (char *)reports + got, sizeof reports - (size_t)got)) > 0) got += n;
    close(pipe_ends[0]);
    int status = 0;
    if (child > 0) while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
    if (bystander > 0) {
        int bystander_status = 0;
        kill(bystander, SIGKILL);
        while (waitpid(bystander, &bystander_status, 0) < 0 && errno == EINTR) {}
    }
    close(parent_file);
    if (child <= 0) return result;
    if (got == (ssize_t)sizeof reports) return reports[1];
    if (got == (ssize_t)sizeof reports[0] && reports[0].outcome == H2J_PROBE_NO_SANDBOX) return reports[0];
    if (got == (ssize_t)sizeof reports[0]) {
        result = reports[0];
        // The call ended the child: a signal (the filter's kill), or an exec that worked
        // (the child became /bin/true and exited 0).
        if (WIFSIGNALED(status)) result.outcome = -WTERMSIG(status);
        else if (call == H2J_PROBE_EXECVE && WIFEXITED(status) && WEXITSTATUS(status) == 0) result.outcome = 0;
        return result;
    }
    return result;
}
