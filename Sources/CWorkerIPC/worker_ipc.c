#define _GNU_SOURCE
#include "CWorkerIPC.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

int h2j_send(int socket, const void *bytes, size_t length, int fd) {
    const char *next = bytes;
    size_t left = length;
    int attach = fd;
    while (left > 0) {
        struct iovec part = { .iov_base = (void *)next, .iov_len = left };
        union { struct cmsghdr header; char space[CMSG_SPACE(sizeof(int))]; } control;
        struct msghdr message = { .msg_iov = &part, .msg_iovlen = 1 };
        if (attach >= 0) {
            memset(&control, 0, sizeof control);
            message.msg_control = control.space;
            message.msg_controllen = sizeof control.space;
            struct cmsghdr *header = CMSG_FIRSTHDR(&message);
            header->cmsg_level = SOL_SOCKET;
            header->cmsg_type = SCM_RIGHTS;
            header->cmsg_len = CMSG_LEN(sizeof(int));
            memcpy(CMSG_DATA(header), &attach, sizeof(int));
        }
        ssize_t sent = sendmsg(socket, &message, MSG_NOSIGNAL);
        if (sent < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        attach = -1;
        next += sent;
        left -= (size_t)sent;
    }
    return 0;
}

ssize_t h2j_receive(int socket, void *bytes, size_t capacity, int *fd) {
    *fd = -1;
    struct iovec part = { .iov_base = bytes, .iov_len = capacity };
    union { struct cmsghdr header; char space[CMSG_SPACE(4 * sizeof(int))]; } control;
    struct msghdr message = {
        .msg_iov = &part, .msg_iovlen = 1, .msg_control = control.space, .msg_controllen = sizeof control.space,
    };
    ssize_t received;
    do {
        received = recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
    } while (received < 0 && errno == EINTR);
    if (received < 0) return -1;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < count; i++) {
            int received_fd;
            memcpy(&received_fd, CMSG_DATA(header) + i * sizeof(int), sizeof(int));
            if (*fd < 0) *fd = received_fd; else close(received_fd);
        }
    }
    return received;
}

int h2j_fork_worker(int socket, int error_output) {
    pid_t child = fork();
    if (child != 0) return child;
    int null_input = open("/dev/null", O_RDONLY | O_CLOEXEC);
    int null_output = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null_input < 0 || null_output < 0 || dup2(null_input, 0) < 0 || dup2(null_output, 1) < 0 ||
        dup2(error_output, 2) < 0 || dup2(socket, 3) < 0) _exit(71);
    // Nothing else of the parent's: above all not its ends of this worker's sockets (or of
    // other workers'), which would keep them from seeing the parent go.
    if (syscall(SYS_close_range, 4U, ~0U, 0U) != 0) {
        for (int fd = 4; fd < 65536; fd++) close(fd);
    }
    for (int number = 1; number < NSIG; number++) {
        if (number != SIGKILL && number != SIGSTOP && number != SIGXFSZ) signal(number, SIG_DFL);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    // What ps and top show as its name (its command line is the parent's).
    prctl(PR_SET_NAME, "heic2jpg-worker", 0, 0, 0);
    return 0;
}
