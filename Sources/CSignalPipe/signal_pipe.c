// See include/CSignalPipe.h.
#define _GNU_SOURCE
#include "CSignalPipe.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

/// The write end per signal; written only before the handler is installed.
static int write_ends[65] = {[0 ... 64] = -1};

/// Async-signal-safe: one write(2), errno kept.
static void on_signal(int signo) {
    int saved = errno;
    unsigned char byte = (unsigned char)signo;
    if (signo > 0 && signo < 65 && write_ends[signo] >= 0) (void)!write(write_ends[signo], &byte, 1);
    errno = saved;
}

int h2j_signal_pipe(int signo) {
    if (signo <= 0 || signo >= 65) {
        errno = EINVAL;
        return -1;
    }
    int fds[2];
    if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) return -1;
    write_ends[signo] = fds[1];
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    if (sigaction(signo, &action, NULL) != 0) {
        int saved = errno;
        write_ends[signo] = -1;
        close(fds[0]);
        close(fds[1]);
        errno = saved;
        return -1;
    }
    return fds[0];
}
