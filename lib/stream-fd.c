/* Streams over plain sockets: "unix:" and "tcp:" (active), "punix:" and
 * "ptcp:" (passive).  Both kinds share everything but how the socket is
 * opened and how accepted peers are named.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "dirs.h"
#include "dynamic-string.h"
#include "fatal-signal.h"
#include "poll-loop.h"
#include "socket-util.h"
#include "stream-provider.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(stream_fd);

/* How often a "unix:" stream retries connecting to a listener whose backlog
 * is full. */
#define STREAM_FD_RETRY_MSEC 10

/* An active stream over a connected (or connecting) socket. */
struct stream_fd {
    struct stream up;
    int fd;
    char *retry_path;   /* unix: to connect() again because the listener's
                         * backlog was full; otherwise NULL. */
};

/* A passive stream over a listening socket. */
struct pstream_fd {
    struct pstream up;
    int fd;
    char *unix_path;    /* punix: socket file to remove on close; or NULL. */
};

static struct stream_fd *stream_fd_cast(struct stream *);
static struct pstream_fd *pstream_fd_cast(struct pstream *);
static int stream_fd_start(char *name, int fd, int error,
                           const struct stream_class *,
                           struct stream **streamp);
static char *stream_fd_unix_path(const char *suffix);
static struct pstream_fd *pstream_fd_new(char *name, int fd,
                                         const struct pstream_class *);

/* The active classes. */

static int
stream_fd_unix_open(char *name, const char *suffix, struct stream **streamp)
{
    char *path;
    int error;
    int fd;

    if (!suffix[0]) {
        VLOG_ERR("%s: a file name is required", name);
        free(name);
        return EINVAL;
    }
    path = stream_fd_unix_path(suffix);
    error = sock_unix_open_active(path, &fd);
    if (error == EAGAIN) {
        /* The server is slow to accept: keep trying (see
         * stream_fd_connect()). */
        error = stream_fd_start(name, fd, EINPROGRESS, &stream_fd_unix_class,
                                streamp);
        stream_fd_cast(*streamp)->retry_path = path;
        return error;
    }
    free(path);
    return stream_fd_start(name, fd, error, &stream_fd_unix_class, streamp);
}

static int
stream_fd_tcp_open(char *name, const char *suffix, struct stream **streamp)
{
    int error;
    int fd;

    error = sock_inet_open_active(suffix, -1, NULL, &fd);
    return stream_fd_start(name, fd, error, &stream_fd_tcp_class, streamp);
}

static void
stream_fd_close(struct stream *stream)
{
    struct stream_fd *s = stream_fd_cast(stream);

    close(s->fd);
    free(s->retry_path);
    free(s->up.name);
    free(s);
}

static int
stream_fd_connect(struct stream *stream)
{
    struct stream_fd *s = stream_fd_cast(stream);

    if (s->retry_path) {
        int error = sock_unix_connect(s->fd, s->retry_path);
        if (error == EAGAIN) {
            return EAGAIN;
        }
        free(s->retry_path);
        s->retry_path = NULL;
        if (error != EINPROGRESS) {
            return error;
        }
    }
    return sock_check_connection(s->fd);
}

static ssize_t
stream_fd_recv(struct stream *stream, void *buffer, size_t n)
{
    struct stream_fd *s = stream_fd_cast(stream);
    ssize_t retval;

    do {
        retval = recv(s->fd, buffer, n, MSG_DONTWAIT);
    } while (retval < 0 && errno == EINTR);
    if (retval < 0) {
        return errno == EWOULDBLOCK ? -EAGAIN : -errno;
    }
    return retval;
}

static ssize_t
stream_fd_send(struct stream *stream, const void *buffer, size_t n)
{
    struct stream_fd *s = stream_fd_cast(stream);
    ssize_t retval;

    /* MSG_NOSIGNAL: a vanished peer gives EPIPE, not a fatal SIGPIPE. */
    do {
        retval = send(s->fd, buffer, n, MSG_DONTWAIT | MSG_NOSIGNAL);
    } while (retval < 0 && errno == EINTR);
    if (retval < 0) {
        return errno == EWOULDBLOCK ? -EAGAIN : -errno;
    }
    return retval ? retval : -EAGAIN;
}

static void
stream_fd_wait(struct stream *stream, enum stream_wait_type type)
{
    struct stream_fd *s = stream_fd_cast(stream);

    if (s->retry_path) {
        /* Nothing signals room in a listener's backlog. */
        poll_timer_wait(STREAM_FD_RETRY_MSEC);
    } else {
        poll_fd_wait(s->fd, type == STREAM_RECV ? POLLIN : POLLOUT);
    }
}

/* "unix:FILE": a Unix domain socket, FILE relative to the run directory. */
const struct stream_class stream_fd_unix_class = {
    .name = "unix",
    .needs_probes = false,
    .open = stream_fd_unix_open,
    .close = stream_fd_close,
    .connect = stream_fd_connect,
    .recv = stream_fd_recv,
    .send = stream_fd_send,
    .run = NULL,
    .run_wait = NULL,
    .wait = stream_fd_wait,
};

/* "tcp:HOST:PORT". */
const struct stream_class stream_fd_tcp_class = {
    .name = "tcp",
    .needs_probes = true,
    .open = stream_fd_tcp_open,
    .close = stream_fd_close,
    .connect = stream_fd_connect,
    .recv = stream_fd_recv,
    .send = stream_fd_send,
    .run = NULL,
    .run_wait = NULL,
    .wait = stream_fd_wait,
};

/* The passive classes. */

static int
stream_fd_punix_listen(char *name, const char *suffix,
                       struct pstream **pstreamp)
{
    struct pstream_fd *ps;
    char *path;
    int error;
    int fd;

    if (!suffix[0]) {
        VLOG_ERR("%s: a file name is required", name);
        free(name);
        return EINVAL;
    }
    path = stream_fd_unix_path(suffix);
    error = sock_unix_open_passive(path, &fd);
    if (error) {
        free(path);
        free(name);
        return error;
    }
    /* Should the process die without closing the pstream, the socket file
     * goes with it. */
    fatal_signal_add_file_to_unlink(path);
    ps = pstream_fd_new(name, fd, &stream_fd_punix_class);
    ps->unix_path = path;
    *pstreamp = &ps->up;
    return 0;
}

static int
stream_fd_ptcp_listen(char *name, const char *suffix,
                      struct pstream **pstreamp)
{
    struct sockaddr_storage ss;
    struct pstream_fd *ps;
    struct ds bound_name;
    int error;
    int fd;

    error = sock_inet_open_passive(suffix, -1, &ss, &fd);
    free(name);
    if (error) {
        return error;
    }

    /* Name the pstream after what it is bound to, port chosen by the
     * kernel included. */
    ds_init(&bound_name);
    ds_put_cstr(&bound_name, "ptcp:");
    sock_ss_format_passive(&ss, &bound_name);
    ps = pstream_fd_new(ds_steal_cstr(&bound_name), fd,
                        &stream_fd_ptcp_class);
    pstream_set_bound_port(&ps->up, sock_ss_get_port(&ss));
    *pstreamp = &ps->up;
    return 0;
}

static void
stream_fd_pclose(struct pstream *pstream)
{
    struct pstream_fd *ps = pstream_fd_cast(pstream);

    close(ps->fd);
    if (ps->unix_path) {
        fatal_signal_unlink_file_now(ps->unix_path);
        free(ps->unix_path);
    }
    free(ps->up.name);
    free(ps);
}

static int
stream_fd_accept(struct pstream *pstream, struct stream **streamp)
{
    struct pstream_fd *ps = pstream_fd_cast(pstream);
    struct sockaddr_storage ss;
    char *name;
    int error;
    int fd;

    error = sock_accept(ps->fd, &ss, &fd);
    if (error) {
        return error;
    }

    if (pstream->class == &stream_fd_ptcp_class) {
        struct ds ds = DS_EMPTY_INITIALIZER;
        ds_put_cstr(&ds, "tcp:");
        sock_ss_format_full(&ss, &ds);
        name = ds_steal_cstr(&ds);
        return stream_fd_start(name, fd, 0, &stream_fd_tcp_class, streamp);
    } else {
        /* Clients rarely bind their sockets to a name, so number them
         * instead, as Open vSwitch does, to tell them apart in logs. */
        static unsigned int n_accepted;
        name = xasprintf("unix#%u", __atomic_fetch_add(&n_accepted, 1,
                                                       __ATOMIC_RELAXED));
        return stream_fd_start(name, fd, 0, &stream_fd_unix_class, streamp);
    }
}

static void
stream_fd_pwait(struct pstream *pstream)
{
    poll_fd_wait(pstream_fd_cast(pstream)->fd, POLLIN);
}

/* "punix:FILE": listens on a Unix domain socket, FILE relative to the run
 * directory.  The socket file is removed on close, or at exit or on a fatal
 * signal (fatal-signal.h) if the pstream is still open then. */
const struct pstream_class stream_fd_punix_class = {
    .name = "punix",
    .needs_probes = false,
    .listen = stream_fd_punix_listen,
    .close = stream_fd_pclose,
    .accept = stream_fd_accept,
    .wait = stream_fd_pwait,
};

/* "ptcp:PORT[:IP]". */
const struct pstream_class stream_fd_ptcp_class = {
    .name = "ptcp",
    .needs_probes = true,
    .listen = stream_fd_ptcp_listen,
    .close = stream_fd_pclose,
    .accept = stream_fd_accept,
    .wait = stream_fd_pwait,
};

/* Helpers. */

static struct stream_fd *
stream_fd_cast(struct stream *stream)
{
    return CONTAINER_OF(stream, struct stream_fd, up);
}

static struct pstream_fd *
pstream_fd_cast(struct pstream *pstream)
{
    return CONTAINER_OF(pstream, struct pstream_fd, up);
}

/* Finishes opening an active stream called 'name' over socket 'fd', given
 * 'error', what the socket-util open function returned: 0 (connected),
 * EINPROGRESS (connecting) or an error, in which case 'fd' is -1 and 'name'
 * is freed. */
static int
stream_fd_start(char *name, int fd, int error,
                const struct stream_class *class, struct stream **streamp)
{
    struct stream_fd *s;

    if (error && error != EINPROGRESS) {
        free(name);
        return error;
    }
    s = xzalloc(sizeof *s);
    stream_init(&s->up, class, error ? EAGAIN : 0, name);
    s->fd = fd;
    *streamp = &s->up;
    return 0;
}

/* Returns the absolute name of the socket file for "unix:" or "punix:" name
 * suffix 'suffix': relative names are relative to the run directory. */
static char *
stream_fd_unix_path(const char *suffix)
{
    return util_abs_file_name(dirs_rundir(), suffix);
}

static struct pstream_fd *
pstream_fd_new(char *name, int fd, const struct pstream_class *class)
{
    struct pstream_fd *ps = xzalloc(sizeof *ps);

    pstream_init(&ps->up, class, name);
    ps->fd = fd;
    ps->unix_path = NULL;
    return ps;
}
