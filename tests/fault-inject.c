/* An LD_PRELOAD shim that makes file writes fail on demand, for the fault
 * injection tests (tests/fault.at).
 *
 *   DPS_FAULT_FILE=NAME   only descriptors open on a file whose path ends
 *                         with "/NAME" are affected;
 *   DPS_FAULT_CTL=PATH    a control file, read at every affected call: each
 *                         line "CALL ERRNO", CALL one of "write" (write(),
 *                         pwrite(), writev(), pwritev()) or "fsync" (fsync(),
 *                         fdatasync()), ERRNO one of ENOSPC, EIO, EDQUOT;
 *                         an absent or empty file injects nothing, so a
 *                         test turns faults on and off by writing it.
 *
 * Each injected failure appends a line "CALL NAME ERRNO" to PATH.log, so a
 * test can check that the fault was actually hit.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

/* These are exported on purpose (they interpose on libc's), so they have no
 * prototypes of their own beyond libc's. */

static const char *
errno_name(int error)
{
    return (error == ENOSPC ? "ENOSPC"
            : error == EIO ? "EIO"
            : error == EDQUOT ? "EDQUOT"
            : "?");
}

/* Reads the control file: returns the errno to inject for 'call' ("write"
 * or "fsync"), or 0. */
static int
fault_for_call(const char *call)
{
    const char *ctl = getenv("DPS_FAULT_CTL");
    char line[128];
    int error = 0;
    FILE *file;

    if (!ctl) {
        return 0;
    }
    file = fopen(ctl, "re");
    if (!file) {
        return 0;
    }
    while (!error && fgets(line, sizeof line, file)) {
        char name[32], err[32];

        if (sscanf(line, "%31s %31s", name, err) == 2
            && !strcmp(name, call)) {
            error = (!strcmp(err, "ENOSPC") ? ENOSPC
                     : !strcmp(err, "EIO") ? EIO
                     : !strcmp(err, "EDQUOT") ? EDQUOT
                     : 0);
        }
    }
    fclose(file);
    return error;
}

/* Returns true if 'fd' is open on the file DPS_FAULT_FILE names. */
static bool
fd_is_target(int fd)
{
    const char *target = getenv("DPS_FAULT_FILE");
    char link[64], path[4096];
    size_t target_len, path_len;
    ssize_t n;

    if (!target || !*target || fd < 0) {
        return false;
    }
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    n = readlink(link, path, sizeof path - 1);
    if (n <= 0) {
        return false;
    }
    path[n] = '\0';
    path_len = n;
    target_len = strlen(target);
    return (path_len > target_len
            && path[path_len - target_len - 1] == '/'
            && !strcmp(path + path_len - target_len, target));
}

/* Returns the errno to inject into 'call' on 'fd', or 0, and logs it. */
static int
inject(const char *call, int fd)
{
    int saved_errno = errno;
    int error = 0;

    if (fd_is_target(fd)) {
        error = fault_for_call(call);
        if (error) {
            const char *ctl = getenv("DPS_FAULT_CTL");
            char log_name[4096];
            FILE *log;

            snprintf(log_name, sizeof log_name, "%s.log", ctl);
            log = fopen(log_name, "ae");
            if (log) {
                fprintf(log, "%s %s %s\n", call, getenv("DPS_FAULT_FILE"),
                        errno_name(error));
                fclose(log);
            }
        }
    }
    errno = saved_errno;
    return error;
}

static void *
next_symbol(const char *name)
{
    void *sym = dlsym(RTLD_NEXT, name);

    if (!sym) {
        fprintf(stderr, "fault-inject: %s not found\n", name);
        abort();
    }
    return sym;
}

#define FAULT_CHECK(CALL, FD)                   \
    do {                                        \
        int error_ = inject(CALL, FD);          \
        if (error_) {                           \
            errno = error_;                     \
            return -1;                          \
        }                                       \
    } while (0)

ssize_t
write(int fd, const void *buf, size_t count)
{
    static ssize_t (*real)(int, const void *, size_t);

    FAULT_CHECK("write", fd);
    if (!real) {
        real = next_symbol("write");
    }
    return real(fd, buf, count);
}

ssize_t
pwrite(int fd, const void *buf, size_t count, off_t offset)
{
    static ssize_t (*real)(int, const void *, size_t, off_t);

    FAULT_CHECK("write", fd);
    if (!real) {
        real = next_symbol("pwrite");
    }
    return real(fd, buf, count, offset);
}

ssize_t
pwrite64(int fd, const void *buf, size_t count, off_t offset)
{
    static ssize_t (*real)(int, const void *, size_t, off_t);

    FAULT_CHECK("write", fd);
    if (!real) {
        real = next_symbol("pwrite64");
    }
    return real(fd, buf, count, offset);
}

ssize_t
writev(int fd, const struct iovec *iov, int iovcnt)
{
    static ssize_t (*real)(int, const struct iovec *, int);

    FAULT_CHECK("write", fd);
    if (!real) {
        real = next_symbol("writev");
    }
    return real(fd, iov, iovcnt);
}

int
fsync(int fd)
{
    static int (*real)(int);

    FAULT_CHECK("fsync", fd);
    if (!real) {
        real = next_symbol("fsync");
    }
    return real(fd);
}

int
fdatasync(int fd)
{
    static int (*real)(int);

    FAULT_CHECK("fsync", fd);
    if (!real) {
        real = next_symbol("fdatasync");
    }
    return real(fd);
}
