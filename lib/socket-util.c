/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "socket-util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include "dynamic-string.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(socket_util);

/* Unlike listen()'s historical default of 5, enough for a burst of clients
 * such as ovs-vsctl invocations started in parallel. */
#define SOCK_LISTEN_BACKLOG 64

static void sock_ignore_sigpipe_once(void);
static int sock_set_fd_flag(int fd, int get_cmd, int set_cmd, int flag);
static int sock_parse_host(const char *host, struct sockaddr_storage *);
static bool sock_parse_port(const char *s, bool allow_zero, int *portp);
static void sock_ss_set_port(struct sockaddr_storage *, int port);
static int sock_inet_socket(int family, int *fdp);
static int sock_unix_prepare(const char *path, struct sockaddr_un *,
                             socklen_t *lenp, int *dirfdp);
static int sock_unlink_stale(const char *path);

/* Puts 'fd' into non-blocking mode.  Returns 0 or a positive errno. */
int
sock_set_nonblocking(int fd)
{
    return sock_set_fd_flag(fd, F_GETFL, F_SETFL, O_NONBLOCK);
}

/* Sets the close-on-exec flag on 'fd'.  Returns 0 or a positive errno. */
int
sock_set_cloexec(int fd)
{
    return sock_set_fd_flag(fd, F_GETFD, F_SETFD, FD_CLOEXEC);
}

/* Disables Nagle's algorithm on TCP socket 'fd': the streams carry small
 * request/reply messages for which latency matters more than packing.
 * Returns 0 or a positive errno. */
int
sock_set_nodelay(int fd)
{
    int on = 1;

    return (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on) < 0
            ? errno : 0);
}

/* Makes sure that writing to a socket whose peer has gone away fails with
 * EPIPE instead of killing the process with SIGPIPE.  Plain sockets avoid
 * the signal with MSG_NOSIGNAL; this is for code that writes through a
 * library (OpenSSL) that cannot pass that flag.  Leaves a SIGPIPE handler
 * other than the default one in place.  Idempotent. */
void
sock_ignore_sigpipe(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;

    pthread_once(&once, sock_ignore_sigpipe_once);
}

/* Parses an IPv4 address, quietly (see the header). */
bool
sock_ipv4_from_string(const char *s, uint32_t *be_addr)
{
    struct in_addr in;

    if (inet_pton(AF_INET, s, &in) != 1) {
        return false;
    }
    *be_addr = in.s_addr;
    return true;
}

/* Parses an IPv4 address, logging a failure (see the header). */
bool
sock_parse_ipv4(const char *s, uint32_t *be_addr)
{
    if (!sock_ipv4_from_string(s, be_addr)) {
        VLOG_ERR("\"%s\" is not a valid IP address", s);
        return false;
    }
    return true;
}

/* Returns the pending error on socket 'fd' (SO_ERROR), clearing it, or 0 if
 * there is none. */
int
sock_get_error(int fd)
{
    socklen_t len;
    int error;

    len = sizeof error;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &len) < 0) {
        return errno;
    }
    return error;
}

/* Checks on a connection started on non-blocking socket 'fd'.  Returns 0 if
 * it is established, EAGAIN if it is still in progress, otherwise the
 * positive errno value that made it fail (ECONNREFUSED, ETIMEDOUT, ...). */
int
sock_check_connection(int fd)
{
    struct pollfd pfd = { .fd = fd, .events = POLLOUT };
    int retval;

    do {
        retval = poll(&pfd, 1, 0);
    } while (retval < 0 && errno == EINTR);

    if (retval < 0) {
        return errno;
    } else if (retval == 0) {
        return EAGAIN;
    } else {
        int error = sock_get_error(fd);
        if (!error && pfd.revents & (POLLERR | POLLHUP)
            && !(pfd.revents & POLLOUT)) {
            error = ECONNRESET;
        }
        return error;
    }
}

/* Parses 'target' as an address to connect to: "HOST:PORT", where HOST is
 * an IPv4 literal or an IPv6 literal in brackets ("[::1]:6640").  When
 * 'default_port' is nonnegative ":PORT" may be left out; an IPv6 literal
 * without a port may then also be written without brackets.  On success
 * stores the address in '*ss' and returns 0; otherwise logs why and returns
 * EINVAL. */
int
sock_parse_active(const char *target, int default_port,
                  struct sockaddr_storage *ss)
{
    char *copy = xstrdup(target);
    const char *port_s = NULL;
    char *host = copy;
    int port = default_port;
    int error = EINVAL;

    memset(ss, 0, sizeof *ss);
    if (host[0] == '[') {
        char *end = strchr(host, ']');
        if (!end || (end[1] && end[1] != ':')) {
            VLOG_ERR("%s: bad IPv6 address (expected \"[ADDRESS]:PORT\")",
                     target);
            goto out;
        }
        *end = '\0';
        host++;
        if (end[1] == ':') {
            port_s = end + 2;
        }
    } else {
        char *colon = strchr(host, ':');
        if (colon && !strchr(colon + 1, ':')) {
            *colon = '\0';
            port_s = colon + 1;
        }
    }

    if (port_s) {
        if (!sock_parse_port(port_s, false, &port)) {
            VLOG_ERR("%s: bad port number \"%s\"", target, port_s);
            goto out;
        }
    } else if (default_port < 0) {
        VLOG_ERR("%s: port number must be specified", target);
        goto out;
    }

    if (!host[0]) {
        VLOG_ERR("%s: host must be specified", target);
        goto out;
    }
    error = sock_parse_host(host, ss);
    if (error) {
        VLOG_ERR("%s: bad IP address \"%s\" (only IPv4 and IPv6 literals "
                 "are supported)", target, host);
        goto out;
    }
    sock_ss_set_port(ss, port);

out:
    free(copy);
    return error;
}

/* Parses 'target' as an address to listen on: "PORT[:HOST]", where HOST is
 * an IPv4 literal or an IPv6 literal, with or without brackets.  An empty
 * PORT means 'default_port' (which must then be nonnegative); port 0 asks
 * the kernel to choose.  Without HOST, listens on every IPv4 address.  On
 * success stores the address in '*ss' and returns 0; otherwise logs why and
 * returns EINVAL. */
int
sock_parse_passive(const char *target, int default_port,
                   struct sockaddr_storage *ss)
{
    char *copy = xstrdup(target);
    char *port_s = copy;
    char *host = strchr(copy, ':');
    int port = default_port;
    int error = EINVAL;

    memset(ss, 0, sizeof *ss);
    if (host) {
        *host++ = '\0';
    }

    if (port_s[0]) {
        if (!sock_parse_port(port_s, true, &port)) {
            VLOG_ERR("%s: bad port number \"%s\"", target, port_s);
            goto out;
        }
    } else if (default_port < 0) {
        VLOG_ERR("%s: port number must be specified", target);
        goto out;
    }

    if (host && host[0]) {
        size_t len = strlen(host);
        if (host[0] == '[') {
            if (host[len - 1] != ']') {
                VLOG_ERR("%s: bad IPv6 address \"%s\"", target, host);
                goto out;
            }
            host[len - 1] = '\0';
            host++;
        }
        error = sock_parse_host(host, ss);
        if (error) {
            VLOG_ERR("%s: bad IP address \"%s\" (only IPv4 and IPv6 "
                     "literals are supported)", target, host);
            goto out;
        }
    } else {
        struct sockaddr_in *sin = (struct sockaddr_in *) ss;
        sin->sin_family = AF_INET;
        sin->sin_addr.s_addr = htonl(INADDR_ANY);
        error = 0;
    }
    sock_ss_set_port(ss, port);

out:
    free(copy);
    return error;
}

/* Returns the port number, in host byte order, of IPv4 or IPv6 address
 * 'ss', or -1 for another address family. */
int
sock_ss_get_port(const struct sockaddr_storage *ss)
{
    if (ss->ss_family == AF_INET) {
        return ntohs(((const struct sockaddr_in *) ss)->sin_port);
    } else if (ss->ss_family == AF_INET6) {
        return ntohs(((const struct sockaddr_in6 *) ss)->sin6_port);
    }
    return -1;
}

/* Appends the IP address in 'ss' to 'ds': "1.2.3.4" or "::1" (without
 * brackets).  Other address families are shown as "?". */
void
sock_ss_format_address(const struct sockaddr_storage *ss, struct ds *ds)
{
    char buf[INET6_ADDRSTRLEN];
    const void *addr = NULL;

    if (ss->ss_family == AF_INET) {
        addr = &((const struct sockaddr_in *) ss)->sin_addr;
    } else if (ss->ss_family == AF_INET6) {
        addr = &((const struct sockaddr_in6 *) ss)->sin6_addr;
    }
    if (addr && inet_ntop(ss->ss_family, addr, buf, sizeof buf)) {
        ds_put_cstr(ds, buf);
    } else {
        ds_put_char(ds, '?');
    }
}

/* Appends "ADDRESS:PORT" for 'ss' to 'ds', with an IPv6 address in
 * brackets, the form sock_parse_active() reads. */
void
sock_ss_format_full(const struct sockaddr_storage *ss, struct ds *ds)
{
    bool ipv6 = ss->ss_family == AF_INET6;

    if (ipv6) {
        ds_put_char(ds, '[');
    }
    sock_ss_format_address(ss, ds);
    if (ipv6) {
        ds_put_char(ds, ']');
    }
    ds_put_format(ds, ":%d", sock_ss_get_port(ss));
}

/* Appends "PORT:ADDRESS" for 'ss' to 'ds', with an IPv6 address in
 * brackets, the form sock_parse_passive() reads. */
void
sock_ss_format_passive(const struct sockaddr_storage *ss, struct ds *ds)
{
    bool ipv6 = ss->ss_family == AF_INET6;

    ds_put_format(ds, "%d:%s", sock_ss_get_port(ss), ipv6 ? "[" : "");
    sock_ss_format_address(ss, ds);
    if (ipv6) {
        ds_put_char(ds, ']');
    }
}

/* Returns the length of the socket address in 'ss', as bind() and connect()
 * want it. */
socklen_t
sock_ss_length(const struct sockaddr_storage *ss)
{
    return (ss->ss_family == AF_INET ? sizeof (struct sockaddr_in)
            : ss->ss_family == AF_INET6 ? sizeof (struct sockaddr_in6)
            : sizeof *ss);
}

/* Starts a TCP connection to 'target' (see sock_parse_active() for the
 * syntax and 'default_port').  On success stores a new non-blocking,
 * close-on-exec socket in '*fdp' and returns 0 if the connection is already
 * established or EINPROGRESS if it is under way.  On failure stores -1 in
 * '*fdp' and returns a positive errno value.  If 'ss' is nonnull, stores the
 * parsed address there. */
int
sock_inet_open_active(const char *target, int default_port,
                      struct sockaddr_storage *ss, int *fdp)
{
    struct sockaddr_storage storage;
    int error;
    int fd;

    *fdp = -1;
    if (!ss) {
        ss = &storage;
    }
    error = sock_parse_active(target, default_port, ss);
    if (error) {
        return error;
    }

    error = sock_inet_socket(ss->ss_family, &fd);
    if (error) {
        return error;
    }
    /* A non-blocking connect() that is interrupted carries on in the
     * background, so EINTR means the same as EINPROGRESS. */
    if (connect(fd, (struct sockaddr *) ss, sock_ss_length(ss)) < 0) {
        error = errno == EINTR ? EINPROGRESS : errno;
    }
    if (error && error != EINPROGRESS) {
        close(fd);
        return error;
    }
    *fdp = fd;
    return error;
}

/* Opens a TCP socket listening on 'target' (see sock_parse_passive() for the
 * syntax and 'default_port').  On success stores the non-blocking,
 * close-on-exec socket in '*fdp', the address it is bound to (with the port
 * the kernel chose, for port 0) in '*ss' if 'ss' is nonnull, and returns 0.
 * On failure logs it, stores -1 in '*fdp' and returns a positive errno
 * value. */
int
sock_inet_open_passive(const char *target, int default_port,
                       struct sockaddr_storage *ss, int *fdp)
{
    struct sockaddr_storage storage;
    socklen_t len;
    int error;
    int on = 1;
    int fd;

    *fdp = -1;
    if (!ss) {
        ss = &storage;
    }
    error = sock_parse_passive(target, default_port, ss);
    if (error) {
        return error;
    }

    error = sock_inet_socket(ss->ss_family, &fd);
    if (error) {
        VLOG_ERR("%s: socket: %s", target, util_strerror(error));
        return error;
    }
    /* A restarted daemon must be able to listen again at once even with
     * connections of its previous life in TIME_WAIT. */
    if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) < 0) {
        error = errno;
        VLOG_ERR("%s: setsockopt(SO_REUSEADDR): %s", target,
                 util_strerror(error));
        goto error;
    }
    /* "[::]" means IPv4 and IPv6 alike, whatever the system default. */
    if (ss->ss_family == AF_INET6
        && setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &(int) { 0 },
                      sizeof (int)) < 0) {
        error = errno;
        VLOG_ERR("%s: setsockopt(IPV6_V6ONLY): %s", target,
                 util_strerror(error));
        goto error;
    }
    if (bind(fd, (struct sockaddr *) ss, sock_ss_length(ss)) < 0) {
        error = errno;
        VLOG_ERR("%s: bind: %s", target, util_strerror(error));
        goto error;
    }
    if (listen(fd, SOCK_LISTEN_BACKLOG) < 0) {
        error = errno;
        VLOG_ERR("%s: listen: %s", target, util_strerror(error));
        goto error;
    }
    len = sizeof *ss;
    if (getsockname(fd, (struct sockaddr *) ss, &len) < 0) {
        error = errno;
        VLOG_ERR("%s: getsockname: %s", target, util_strerror(error));
        goto error;
    }
    *fdp = fd;
    return 0;

error:
    close(fd);
    return error;
}

/* Accepts a connection waiting on listening socket 'listen_fd' (TCP or Unix
 * domain).  On success stores the new non-blocking, close-on-exec socket in
 * '*fdp' (with Nagle's algorithm off, for TCP), the peer's address in '*ss'
 * if 'ss' is nonnull, and returns 0.  Returns EAGAIN if no connection is
 * waiting, otherwise a positive errno value; either way stores -1 in
 * '*fdp'. */
int
sock_accept(int listen_fd, struct sockaddr_storage *ss, int *fdp)
{
    struct sockaddr_storage storage;
    socklen_t len;
    int fd;

    *fdp = -1;
    if (!ss) {
        ss = &storage;
    }
    do {
        len = sizeof *ss;
        memset(ss, 0, sizeof *ss);
        fd = accept4(listen_fd, (struct sockaddr *) ss, &len,
                     SOCK_NONBLOCK | SOCK_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        return errno == EWOULDBLOCK ? EAGAIN : errno;
    }
    if (ss->ss_family == AF_INET || ss->ss_family == AF_INET6) {
        /* Failure here only costs latency. */
        sock_set_nodelay(fd);
    }
    *fdp = fd;
    return 0;
}

/* Starts a connection to the Unix domain socket named 'path'.  On success
 * stores a new non-blocking, close-on-exec socket in '*fdp' and returns 0
 * (connected), EINPROGRESS (under way) or EAGAIN (the listener's backlog is
 * full: call sock_unix_connect() on the socket again later).  On failure
 * stores -1 in '*fdp' and returns a positive errno value: ENOENT if there is
 * no such socket, ECONNREFUSED if nothing listens on it, ENAMETOOLONG if
 * even the last component of 'path' is too long. */
int
sock_unix_open_active(const char *path, int *fdp)
{
    int error;
    int fd;

    *fdp = -1;
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return errno;
    }
    error = sock_unix_connect(fd, path);
    if (error && error != EINPROGRESS && error != EAGAIN) {
        close(fd);
        return error;
    }
    *fdp = fd;
    return error;
}

/* Connects non-blocking Unix domain socket 'fd' to the socket named 'path'.
 * Returns 0 (connected), EINPROGRESS (under way), EAGAIN (the listener's
 * backlog is full; nothing changed, try again later) or another positive
 * errno value. */
int
sock_unix_connect(int fd, const char *path)
{
    struct sockaddr_un sun;
    socklen_t sun_len;
    int dirfd;
    int error;

    error = sock_unix_prepare(path, &sun, &sun_len, &dirfd);
    if (error) {
        return error;
    }
    if (connect(fd, (struct sockaddr *) &sun, sun_len) < 0) {
        error = errno == EINTR ? EINPROGRESS : errno;
    }
    if (dirfd >= 0) {
        close(dirfd);
    }
    return error == EWOULDBLOCK ? EAGAIN : error;
}

/* Creates a Unix domain socket named 'path' and listens on it.  A socket
 * file left behind at 'path' by a process that has gone away is removed
 * first; any other kind of file there makes this fail with EADDRINUSE.  On
 * success stores the non-blocking, close-on-exec socket in '*fdp' and
 * returns 0.  On failure logs it, stores -1 in '*fdp' and returns a positive
 * errno value.  The caller removes the socket file when done with it. */
int
sock_unix_open_passive(const char *path, int *fdp)
{
    struct sockaddr_un sun;
    socklen_t sun_len;
    int dirfd;
    int error;
    int fd;

    *fdp = -1;
    error = sock_unlink_stale(path);
    if (error) {
        return error;
    }
    error = sock_unix_prepare(path, &sun, &sun_len, &dirfd);
    if (error) {
        VLOG_ERR("%s: %s", path, util_strerror(error));
        return error;
    }

    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        error = errno;
        VLOG_ERR("%s: socket: %s", path, util_strerror(error));
    } else if (fchmod(fd, 0770) < 0) {
        /* On Linux the socket file takes the mode of the socket (less the
         * umask): user and group may connect, never others, as in Open
         * vSwitch. */
        error = errno;
        VLOG_ERR("%s: fchmod: %s", path, util_strerror(error));
    } else if (bind(fd, (struct sockaddr *) &sun, sun_len) < 0) {
        error = errno;
        VLOG_ERR("%s: bind: %s", path, util_strerror(error));
    } else if (listen(fd, SOCK_LISTEN_BACKLOG) < 0) {
        error = errno;
        VLOG_ERR("%s: listen: %s", path, util_strerror(error));
        unlink(path);
    }
    if (dirfd >= 0) {
        close(dirfd);
    }
    if (error) {
        if (fd >= 0) {
            close(fd);
        }
        return error;
    }
    *fdp = fd;
    return 0;
}

static void
sock_ignore_sigpipe_once(void)
{
    struct sigaction old;

    /* Leave alone a handler the program installed on purpose. */
    if (!sigaction(SIGPIPE, NULL, &old) && old.sa_handler == SIG_DFL) {
        signal(SIGPIPE, SIG_IGN);
    }
}

static int
sock_set_fd_flag(int fd, int get_cmd, int set_cmd, int flag)
{
    int flags = fcntl(fd, get_cmd, 0);

    if (flags < 0) {
        return errno;
    }
    if (!(flags & flag) && fcntl(fd, set_cmd, flags | flag) < 0) {
        return errno;
    }
    return 0;
}

/* Parses IP literal 'host' (no brackets) into '*ss', leaving the port 0.
 * An IPv6 literal may end in "%SCOPE", a network device name or a number,
 * for link-local addresses ("fe80::1%eth0").  Returns 0 or EINVAL. */
static int
sock_parse_host(const char *host, struct sockaddr_storage *ss)
{
    struct sockaddr_in *sin = (struct sockaddr_in *) ss;
    struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *) ss;
    const char *percent = strchr(host, '%');
    char *addr;
    int error = EINVAL;

    memset(ss, 0, sizeof *ss);
    if (!percent && inet_pton(AF_INET, host, &sin->sin_addr) == 1) {
        sin->sin_family = AF_INET;
        return 0;
    }

    addr = percent ? xmemdup0(host, percent - host) : xstrdup(host);
    if (inet_pton(AF_INET6, addr, &sin6->sin6_addr) == 1) {
        sin6->sin6_family = AF_INET6;
        error = 0;
        if (percent) {
            unsigned int scope = if_nametoindex(percent + 1);
            if (!scope && !util_str_to_uint(percent + 1, 10, &scope)) {
                error = EINVAL;
            }
            sin6->sin6_scope_id = scope;
        }
    }
    free(addr);
    return error;
}

/* Parses decimal port number 's', 1...65535, or 0...65535 if 'allow_zero'. */
static bool
sock_parse_port(const char *s, bool allow_zero, int *portp)
{
    int port;

    if (!s[0] || s[strspn(s, "0123456789")]
        || !util_str_to_int(s, 10, &port)
        || port > UINT16_MAX || (!port && !allow_zero)) {
        return false;
    }
    *portp = port;
    return true;
}

static void
sock_ss_set_port(struct sockaddr_storage *ss, int port)
{
    if (ss->ss_family == AF_INET) {
        ((struct sockaddr_in *) ss)->sin_port = htons(port);
    } else if (ss->ss_family == AF_INET6) {
        ((struct sockaddr_in6 *) ss)->sin6_port = htons(port);
    }
}

/* Creates a non-blocking, close-on-exec TCP socket of 'family' with Nagle's
 * algorithm disabled. */
static int
sock_inet_socket(int family, int *fdp)
{
    int fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int error;

    *fdp = -1;
    if (fd < 0) {
        return errno;
    }
    error = sock_set_nodelay(fd);
    if (error) {
        close(fd);
        return error;
    }
    *fdp = fd;
    return 0;
}

/* Fills in '*sun' and '*lenp' with an address for Unix domain socket
 * 'path'.  A 'path' too long for sun_path is reached through
 * /proc/self/fd/N/BASENAME instead, with N a descriptor for the directory;
 * then the directory's descriptor is stored in '*dirfdp' and must stay open
 * until after bind() or connect().  Otherwise stores -1 there. */
static int
sock_unix_prepare(const char *path, struct sockaddr_un *sun,
                  socklen_t *lenp, int *dirfdp)
{
    size_t len = strlen(path);

    *dirfdp = -1;
    memset(sun, 0, sizeof *sun);
    sun->sun_family = AF_UNIX;
    if (!len) {
        return EINVAL;
    }
    if (len >= sizeof sun->sun_path) {
        const char *slash = strrchr(path, '/');
        char *dir;
        int dirfd;
        int n;

        if (!slash) {
            return ENAMETOOLONG;
        }
        dir = slash == path ? xstrdup("/") : xmemdup0(path, slash - path);
        dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
        free(dir);
        if (dirfd < 0) {
            return errno;
        }
        n = snprintf(sun->sun_path, sizeof sun->sun_path, "/proc/self/fd/%d/%s",
                     dirfd, slash + 1);
        if (n < 0 || (size_t) n >= sizeof sun->sun_path) {
            close(dirfd);
            return ENAMETOOLONG;
        }
        *dirfdp = dirfd;
        len = n;
    } else {
        memcpy(sun->sun_path, path, len);
    }
    *lenp = offsetof(struct sockaddr_un, sun_path) + len + 1;
    return 0;
}

/* Removes the socket file at 'path', if there is one.  Returns 0 if 'path'
 * is now free, otherwise a positive errno value (logged). */
static int
sock_unlink_stale(const char *path)
{
    struct stat st;

    if (lstat(path, &st) < 0) {
        return 0;
    }
    if (!S_ISSOCK(st.st_mode)) {
        VLOG_ERR("%s: exists and is not a socket, not removing it", path);
        return EADDRINUSE;
    }
    if (unlink(path) < 0 && errno != ENOENT) {
        int error = errno;
        VLOG_ERR("%s: could not remove stale socket: %s", path,
                 util_strerror(error));
        return error;
    }
    return 0;
}
