/* Unit tests for lib/stream.c, lib/stream-fd.c, lib/stream-ssl.c and
 * lib/socket-util.c.
 *
 * Everything runs on loopback: Unix domain sockets in a private temporary
 * directory, 127.0.0.1 and ::1.  The SSL tests make their own CA and
 * certificates with the openssl command-line tool.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include "dynamic-string.h"
#include "poll-loop.h"
#include "socket-util.h"
#include "stream-ssl.h"
#include "stream.h"
#include "timeval.h"
#include "util.h"

/* No test should take anywhere near this long; a loop that does has hung. */
#define TEST_TIMEOUT_MSEC 20000

/* The private directory every test works in. */
static char *tmp_dir;

static char *
tmp_file(const char *name)
{
    return xasprintf("%s/%s", tmp_dir, name);
}

static bool
file_exists(const char *name)
{
    struct stat st;

    return !lstat(name, &st);
}

/* Runs shell 'command', which must succeed. */
static void
run_command(const char *command)
{
    int status = system(command);

    if (status) {
        fail_msg("\"%s\" failed with status %d", command, status);
    }
}

/* Whether this host can listen and connect on ::1. */
static bool
have_ipv6_loopback(void)
{
    struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6,
                                 .sin6_addr = IN6ADDR_LOOPBACK_INIT };
    int fd = socket(AF_INET6, SOCK_STREAM, 0);
    bool ok;

    if (fd < 0) {
        return false;
    }
    ok = !bind(fd, (struct sockaddr *) &sin6, sizeof sin6);
    close(fd);
    return ok;
}

/* Accepts one connection on 'pstream' while 'client' (if nonnull) connects,
 * driving both from the poll loop until both have finished connecting
 * (including any TLS handshake), successfully or not.  Stores the accepted
 * stream in '*serverp' and the final stream_connect() results in
 * '*client_errorp' and '*server_errorp'. */
static void
connect_both(struct pstream *pstream, struct stream *client,
             struct stream **serverp, int *client_errorp, int *server_errorp)
{
    long long int deadline = time_msec() + TEST_TIMEOUT_MSEC;
    struct stream *server = NULL;
    int client_error = client ? EAGAIN : 0;
    int server_error = EAGAIN;

    while (client_error == EAGAIN || server_error == EAGAIN) {
        if (!server) {
            int error = pstream_accept(pstream, &server);
            if (error && error != EAGAIN) {
                fail_msg("accept failed: %s", util_strerror(error));
            }
        }
        if (server && server_error == EAGAIN) {
            stream_run(server);
            server_error = stream_connect(server);
        }
        if (client && client_error == EAGAIN) {
            stream_run(client);
            client_error = stream_connect(client);
        }
        assert_true(time_msec() < deadline);

        if (!server) {
            pstream_wait(pstream);
        } else if (server_error == EAGAIN) {
            stream_run_wait(server);
            stream_connect_wait(server);
        }
        if (client && client_error == EAGAIN) {
            stream_run_wait(client);
            stream_connect_wait(client);
        }
        poll_timer_wait(100);
        poll_block();
    }
    *serverp = server;
    *client_errorp = client_error;
    *server_errorp = server_error;
}

/* Accepts one connection on 'pstream' while 'client' (if nonnull) connects.
 * Returns the accepted stream, connected, or fails the test. */
static struct stream *
accept_and_connect(struct pstream *pstream, struct stream *client)
{
    int client_error, server_error;
    struct stream *server;

    connect_both(pstream, client, &server, &client_error, &server_error);
    if (client_error) {
        fail_msg("client connect failed: %s", util_strerror(client_error));
    }
    if (server_error) {
        fail_msg("server connect failed: %s", util_strerror(server_error));
    }
    return server;
}

/* Opens 'active', accepts it on 'pstream', and returns both ends. */
static void
open_pair(struct pstream *pstream, const char *active,
          struct stream **clientp, struct stream **serverp)
{
    int error = stream_open(active, clientp);

    if (error) {
        fail_msg("%s: open failed: %s", active, util_strerror(error));
    }
    *serverp = accept_and_connect(pstream, *clientp);
}

/* Returns the active name that connects to TCP-based 'pstream' through
 * 'prefix' ("tcp" or "ssl") at 'host' ("127.0.0.1" or "[::1]"). */
static char *
active_name(const char *prefix, const char *host,
            const struct pstream *pstream)
{
    return xasprintf("%s:%s:%d", prefix, host,
                     pstream_get_bound_port(pstream));
}

static uint8_t
pattern_byte(size_t i)
{
    return (uint8_t) (i * 7 + i / 251);
}

/* Sends 'size' bytes from 'tx' to 'rx', reading them at the same time (so
 * that neither side's buffers need to hold everything), in chunks of up to
 * 'chunk' bytes, and checks that they arrive intact.  Returns the number of
 * stream_send() calls that accepted fewer bytes than offered. */
static int
transfer(struct stream *tx, struct stream *rx, size_t size, size_t chunk)
{
    long long int deadline = time_msec() + TEST_TIMEOUT_MSEC;
    uint8_t *out = xmalloc(size);
    uint8_t *in = xmalloc(size);
    size_t n_sent = 0, n_received = 0;
    int n_partial = 0;

    for (size_t i = 0; i < size; i++) {
        out[i] = pattern_byte(i);
    }

    while (n_received < size) {
        stream_run(tx);
        stream_run(rx);
        if (n_sent < size) {
            size_t n = MIN(chunk, size - n_sent);
            ssize_t retval = stream_send(tx, out + n_sent, n);
            if (retval > 0) {
                assert_true((size_t) retval <= n);
                n_partial += (size_t) retval < n;
                n_sent += retval;
            } else if (retval != -EAGAIN) {
                fail_msg("send failed: %s", util_strerror(-retval));
            }
        }
        ssize_t retval = stream_recv(rx, in + n_received,
                                     MIN(chunk, size - n_received));
        if (retval > 0) {
            n_received += retval;
        } else if (retval == 0) {
            fail_msg("unexpected end of stream after %zu bytes",
                     n_received);
        } else if (retval != -EAGAIN) {
            fail_msg("recv failed: %s", util_strerror(-retval));
        }
        assert_true(time_msec() < deadline);

        stream_run_wait(tx);
        stream_run_wait(rx);
        if (n_sent < size) {
            stream_send_wait(tx);
        }
        stream_recv_wait(rx);
        poll_timer_wait(100);
        poll_block();
    }
    assert_memory_equal(in, out, size);
    free(in);
    free(out);
    return n_partial;
}

/* Reads from 'stream' until end of file or an error; returns the number of
 * bytes read and stores the final stream_recv() result in '*resultp'. */
static size_t
drain(struct stream *stream, ssize_t *resultp)
{
    long long int deadline = time_msec() + TEST_TIMEOUT_MSEC;
    char buf[4096];
    size_t total = 0;

    for (;;) {
        ssize_t retval;

        stream_run(stream);
        retval = stream_recv(stream, buf, sizeof buf);
        if (retval > 0) {
            total += retval;
            continue;
        } else if (retval != -EAGAIN) {
            *resultp = retval;
            return total;
        }
        assert_true(time_msec() < deadline);
        stream_run_wait(stream);
        stream_recv_wait(stream);
        poll_timer_wait(100);
        poll_block();
    }
}

/* Reads exactly 'n' bytes from 'stream' into 'buffer', failing the test on
 * end of file or error. */
static void
recv_exactly(struct stream *stream, void *buffer, size_t n)
{
    long long int deadline = time_msec() + TEST_TIMEOUT_MSEC;
    size_t done = 0;

    while (done < n) {
        ssize_t retval;

        stream_run(stream);
        retval = stream_recv(stream, (char *) buffer + done, n - done);
        if (retval > 0) {
            done += retval;
        } else if (retval == -EAGAIN) {
            assert_true(time_msec() < deadline);
            stream_run_wait(stream);
            stream_recv_wait(stream);
            poll_timer_wait(100);
            poll_block();
        } else {
            fail_msg("recv failed: %s", retval ? util_strerror(-retval)
                     : "end of file");
        }
    }
}

/* Round trips in both directions over 'passive'/'active', with a large
 * buffer sent in one go and then in small pieces. */
static void
check_round_trip(const char *passive, const char *active_prefix,
                 const char *host)
{
    struct stream *client, *server;
    struct pstream *pstream;
    char *active;

    assert_int_equal(pstream_open(passive, &pstream), 0);
    active = (host ? active_name(active_prefix, host, pstream)
              : xstrdup(active_prefix));
    open_pair(pstream, active, &client, &server);

    /* 4 MB offered at once cannot fit in the socket buffers, so the sender
     * sees partial sends. */
    assert_true(transfer(client, server, 4 << 20, 4 << 20) > 0);
    transfer(server, client, 4 << 20, 4 << 20);
    transfer(client, server, 100000, 7);
    transfer(server, client, 1, 1);

    stream_close(client);
    stream_close(server);
    pstream_close(pstream);
    free(active);
}

/* Unix domain sockets. */

static void
test_unix_round_trip(void **state DPS_UNUSED)
{
    char *path = tmp_file("rt.sock");
    char *passive = xasprintf("punix:%s", path);
    char *active = xasprintf("unix:%s", path);

    check_round_trip(passive, active, NULL);
    assert_false(file_exists(path));

    free(active);
    free(passive);
    free(path);
}

static void
test_unix_relative_to_rundir(void **state DPS_UNUSED)
{
    struct stream *client, *server;
    struct pstream *pstream;
    char *path = tmp_file("relative.sock");

    setenv("OVS_RUNDIR", tmp_dir, 1);
    assert_int_equal(pstream_open("punix:relative.sock", &pstream), 0);
    assert_string_equal(pstream_get_name(pstream), "punix:relative.sock");
    assert_int_equal(pstream_get_bound_port(pstream), 0);
    assert_true(file_exists(path));
    open_pair(pstream, "unix:relative.sock", &client, &server);
    assert_string_equal(stream_get_name(client), "unix:relative.sock");
    assert_true(util_str_has_prefix(stream_get_name(server), "unix#"));
    transfer(client, server, 1000, 1000);

    stream_close(client);
    stream_close(server);
    pstream_close(pstream);
    assert_false(file_exists(path));
    unsetenv("OVS_RUNDIR");
    free(path);
}

static void
test_unix_long_path(void **state DPS_UNUSED)
{
    struct ds dir = DS_EMPTY_INITIALIZER;
    struct stream *client, *server;
    struct pstream *pstream;
    char *passive, *active, *path;

    /* Well beyond the ~108 bytes of sun_path. */
    ds_put_cstr(&dir, tmp_dir);
    for (int i = 0; i < 5; i++) {
        ds_put_cstr(&dir, "/a-rather-long-directory-name-to-make-a-long-path");
        assert_int_equal(mkdir(ds_cstr(&dir), 0700), 0);
    }
    path = xasprintf("%s/long.sock", ds_cstr(&dir));
    assert_true(strlen(path) > sizeof ((struct sockaddr_un *) 0)->sun_path);
    passive = xasprintf("punix:%s", path);
    active = xasprintf("unix:%s", path);

    assert_int_equal(pstream_open(passive, &pstream), 0);
    assert_true(file_exists(path));
    open_pair(pstream, active, &client, &server);
    transfer(client, server, 100000, 100000);
    transfer(server, client, 100000, 100000);
    stream_close(client);
    stream_close(server);
    pstream_close(pstream);
    assert_false(file_exists(path));

    free(active);
    free(passive);
    free(path);
    ds_destroy(&dir);
}

/* Leaves at 'path' the socket file of a socket that is bound but not
 * listening, as a crashed daemon would. */
static void
make_dead_socket_file(const char *path)
{
    struct sockaddr_un sun = { .sun_family = AF_UNIX };
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);

    assert_true(fd >= 0);
    assert_true(strlen(path) < sizeof sun.sun_path);
    strcpy(sun.sun_path, path);
    assert_int_equal(bind(fd, (struct sockaddr *) &sun, sizeof sun), 0);
    close(fd);
    assert_true(file_exists(path));
}

static void
test_unix_stale_socket(void **state DPS_UNUSED)
{
    char *path = tmp_file("stale.sock");
    char *passive = xasprintf("punix:%s", path);
    char *active = xasprintf("unix:%s", path);
    struct stream *client, *server;
    struct pstream *pstream;
    int error;

    make_dead_socket_file(path);

    /* Nobody listens: refused. */
    error = stream_open_block(stream_open(active, &client), 5000, &client);
    assert_int_equal(error, ECONNREFUSED);
    assert_null(client);

    /* A new listener replaces the stale file. */
    assert_int_equal(pstream_open(passive, &pstream), 0);
    open_pair(pstream, active, &client, &server);
    transfer(client, server, 5000, 5000);
    stream_close(client);
    stream_close(server);
    pstream_close(pstream);
    assert_false(file_exists(path));

    free(active);
    free(passive);
    free(path);
}

static void
test_unix_not_a_socket(void **state DPS_UNUSED)
{
    char *path = tmp_file("regular-file");
    char *passive = xasprintf("punix:%s", path);
    struct pstream *pstream;
    FILE *file;

    file = fopen(path, "w");
    assert_non_null(file);
    fclose(file);

    /* A file that is not a socket is never removed. */
    assert_int_equal(pstream_open(passive, &pstream), EADDRINUSE);
    assert_null(pstream);
    assert_true(file_exists(path));
    unlink(path);

    free(passive);
    free(path);
}

static void
test_unix_no_such_socket(void **state DPS_UNUSED)
{
    char *active = xasprintf("unix:%s/nonexistent.sock", tmp_dir);
    struct stream *stream;

    assert_int_equal(stream_open(active, &stream), ENOENT);
    assert_null(stream);
    assert_int_equal(stream_open_block(stream_open(active, &stream), -1,
                                       &stream), ENOENT);
    free(active);
}

static void
test_unix_two_listeners(void **state DPS_UNUSED)
{
    char *passive = xasprintf("punix:%s/busy.sock", tmp_dir);
    struct pstream *a, *b;

    /* The second one takes over the name, as Open vSwitch does. */
    assert_int_equal(pstream_open(passive, &a), 0);
    assert_int_equal(pstream_open(passive, &b), 0);
    pstream_close(a);
    pstream_close(b);
    free(passive);
}

static void
test_unix_full_backlog(void **state DPS_UNUSED)
{
    enum { N_CLIENTS = 100 };  /* The backlog is 64. */
    long long int deadline = time_msec() + TEST_TIMEOUT_MSEC;
    char *passive = xasprintf("punix:%s/backlog.sock", tmp_dir);
    char *active = xasprintf("unix:%s/backlog.sock", tmp_dir);
    struct stream *clients[N_CLIENTS], *servers[N_CLIENTS];
    size_t n_accepted = 0, n_connected = 0;
    struct pstream *pstream;

    /* More clients than the listener's backlog holds, before it accepts
     * any: the late ones wait their turn instead of failing. */
    assert_int_equal(pstream_open(passive, &pstream), 0);
    for (size_t i = 0; i < N_CLIENTS; i++) {
        assert_int_equal(stream_open(active, &clients[i]), 0);
    }

    while (n_connected < N_CLIENTS || n_accepted < N_CLIENTS) {
        while (n_accepted < N_CLIENTS
               && !pstream_accept(pstream, &servers[n_accepted])) {
            n_accepted++;
        }
        n_connected = 0;
        for (size_t i = 0; i < N_CLIENTS; i++) {
            int error = stream_connect(clients[i]);
            if (!error) {
                n_connected++;
            } else if (error != EAGAIN) {
                fail_msg("client %zu failed: %s", i, util_strerror(error));
            } else {
                stream_connect_wait(clients[i]);
            }
        }
        assert_true(time_msec() < deadline);
        pstream_wait(pstream);
        poll_timer_wait(100);
        poll_block();
    }

    for (size_t i = 0; i < N_CLIENTS; i++) {
        stream_close(clients[i]);
        stream_close(servers[i]);
    }
    pstream_close(pstream);
    free(active);
    free(passive);
}

static void
test_unix_removed_at_exit(void **state DPS_UNUSED)
{
    char *path = tmp_file("exit.sock");
    char *passive = xasprintf("punix:%s", path);
    pid_t pid;
    int status;

    /* A process that exits with its pstream still open leaves no socket
     * file behind. */
    pid = fork();
    assert_true(pid >= 0);
    if (!pid) {
        /* Static: still reachable at exit, for LeakSanitizer. */
        static struct pstream *pstream;

        if (pstream_open(passive, &pstream) || !file_exists(path)) {
            _exit(2);
        }
        exit(0);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_false(file_exists(path));

    free(passive);
    free(path);
}

/* Peer behaviour, over any kind of stream. */

/* The server sends part of a message and closes: the client gets the bytes,
 * then end of file. */
static void
check_eof_mid_message(struct stream *client, struct stream *server)
{
    char buf[1000];
    ssize_t result;

    memset(buf, 'x', sizeof buf);
    assert_int_equal(stream_send(server, buf, 300), 300);
    stream_close(server);
    assert_int_equal(drain(client, &result), 300);
    assert_int_equal(result, 0);
    stream_close(client);
}

/* The client goes away: the server's sends fail with EPIPE or ECONNRESET
 * (and the process does not die of SIGPIPE). */
static void
check_send_to_closed_peer(struct stream *client, struct stream *server)
{
    long long int deadline = time_msec() + TEST_TIMEOUT_MSEC;
    char buf[65536];
    ssize_t retval;

    memset(buf, 'y', sizeof buf);
    stream_close(client);
    for (;;) {
        stream_run(server);
        retval = stream_send(server, buf, sizeof buf);
        if (retval < 0 && retval != -EAGAIN) {
            break;
        }
        assert_true(time_msec() < deadline);
        if (retval == -EAGAIN) {
            stream_run_wait(server);
            stream_send_wait(server);
            poll_timer_wait(100);
            poll_block();
        }
    }
    assert_true(retval == -EPIPE || retval == -ECONNRESET);
    stream_close(server);
}

static void
check_peer_close(const char *passive, const char *prefix, const char *host)
{
    struct stream *client, *server;
    struct pstream *pstream;
    char *active;

    assert_int_equal(pstream_open(passive, &pstream), 0);
    active = (host ? active_name(prefix, host, pstream) : xstrdup(prefix));

    open_pair(pstream, active, &client, &server);
    check_eof_mid_message(client, server);
    open_pair(pstream, active, &client, &server);
    check_send_to_closed_peer(client, server);

    pstream_close(pstream);
    free(active);
}

static void
test_unix_peer_close(void **state DPS_UNUSED)
{
    char *passive = xasprintf("punix:%s/peer.sock", tmp_dir);
    char *active = xasprintf("unix:%s/peer.sock", tmp_dir);

    check_peer_close(passive, active, NULL);
    free(active);
    free(passive);
}

/* TCP. */

static void
test_tcp_round_trip_ipv4(void **state DPS_UNUSED)
{
    check_round_trip("ptcp:0:127.0.0.1", "tcp", "127.0.0.1");
}

static void
test_tcp_round_trip_ipv6(void **state DPS_UNUSED)
{
    if (!have_ipv6_loopback()) {
        skip();
    }
    check_round_trip("ptcp:0:[::1]", "tcp", "[::1]");
}

/* Checks the names of a TCP-based pstream listening on "PASSIVE:0:127.0.0.1"
 * (its bound port filled in) and of the streams of a connection to it made
 * through 'active'. */
static void
check_bound_names(const char *passive, const char *active_prefix)
{
    struct stream *client, *server;
    struct pstream *pstream;
    char *name, *active;
    int port;

    name = xasprintf("%s:0:127.0.0.1", passive);
    assert_int_equal(pstream_open(name, &pstream), 0);
    free(name);
    port = pstream_get_bound_port(pstream);
    assert_true(port > 0 && port <= 65535);
    name = xasprintf("%s:%d:127.0.0.1", passive, port);
    assert_string_equal(pstream_get_name(pstream), name);
    free(name);

    /* The accepted stream is named after its peer. */
    active = active_name(active_prefix, "127.0.0.1", pstream);
    open_pair(pstream, active, &client, &server);
    assert_string_equal(stream_get_name(client), active);
    name = xasprintf("%s:127.0.0.1:", active_prefix);
    assert_true(util_str_has_prefix(stream_get_name(server), name));
    free(name);

    stream_close(client);
    stream_close(server);
    pstream_close(pstream);
    free(active);
}

static void
test_tcp_bound_port(void **state DPS_UNUSED)
{
    check_bound_names("ptcp", "tcp");
}

static void
test_tcp_refused(void **state DPS_UNUSED)
{
    struct pstream *pstream;
    struct stream *stream;
    char *active;
    int error;

    /* A port that was just free is, with near certainty, still free. */
    assert_int_equal(pstream_open("ptcp:0:127.0.0.1", &pstream), 0);
    active = active_name("tcp", "127.0.0.1", pstream);
    pstream_close(pstream);

    error = stream_open_block(stream_open(active, &stream), 5000, &stream);
    assert_int_equal(error, ECONNREFUSED);
    assert_null(stream);
    free(active);
}

static void
test_tcp_peer_close(void **state DPS_UNUSED)
{
    check_peer_close("ptcp:0:127.0.0.1", "tcp", "127.0.0.1");
}

static void
test_tcp_default_port(void **state DPS_UNUSED)
{
    struct pstream *pstream;
    struct stream *client, *server;
    char *active;
    int port;

    /* Let the kernel pick a port, then ask for it as the "default". */
    assert_int_equal(pstream_open("ptcp:0:127.0.0.1", &pstream), 0);
    port = pstream_get_bound_port(pstream);
    pstream_close(pstream);

    assert_int_equal(pstream_open_with_default_port("ptcp::127.0.0.1", port,
                                                    &pstream), 0);
    assert_int_equal(pstream_get_bound_port(pstream), port);
    assert_int_equal(stream_open_with_default_port("tcp:127.0.0.1", port,
                                                   &client), 0);
    server = accept_and_connect(pstream, client);
    active = active_name("tcp", "127.0.0.1", pstream);
    assert_string_equal(stream_get_name(client), active);
    free(active);
    stream_close(client);
    stream_close(server);
    pstream_close(pstream);
}

/* Names. */

static void
test_bad_names(void **state DPS_UNUSED)
{
    static const char *const active_names[] = {
        "tcp:", "tcp:1.2.3.4", "tcp:host:99999", "tcp:1.2.3.4:0",
        "tcp:1.2.3.4:-1", "tcp:1.2.3.4:6640x", "tcp:[::1", "tcp:[::1]x",
        "tcp:[::1]:", "tcp:1.2.3:80", "tcp:localhost:80", "tcp:[]:80",
        "unix:", "nocolon", "", "foo:bar", "punix:/tmp/x", ":",
    };
    static const char *const passive_names[] = {
        "punix:", "ptcp:99999", "ptcp:abc", "ptcp:-5", "ptcp:0:999.1.1.1",
        "ptcp:0:[::1", "ptcp:0:host", "nocolon", "", "unix:/tmp/x",
        "pfoo:1",
    };

    for (size_t i = 0; i < ARRAY_SIZE(active_names); i++) {
        struct stream *stream = (struct stream *) 1;
        int error = stream_open(active_names[i], &stream);

        if (!error) {
            fail_msg("stream_open(\"%s\") succeeded", active_names[i]);
        }
        assert_null(stream);
    }
    for (size_t i = 0; i < ARRAY_SIZE(passive_names); i++) {
        struct pstream *pstream = (struct pstream *) 1;
        int error = pstream_open(passive_names[i], &pstream);

        if (!error) {
            fail_msg("pstream_open(\"%s\") succeeded", passive_names[i]);
        }
        assert_null(pstream);
    }
}

static void
test_verify_name(void **state DPS_UNUSED)
{
    assert_int_equal(stream_verify_name("tcp:1.2.3.4:5"), 0);
    assert_int_equal(stream_verify_name("ssl:1.2.3.4:5"), 0);
    assert_int_equal(stream_verify_name("unix:x"), 0);
    assert_int_equal(stream_verify_name("ptcp:5"), EAFNOSUPPORT);
    assert_int_equal(stream_verify_name("tcpx:1"), EAFNOSUPPORT);
    assert_int_equal(stream_verify_name("tcp"), EAFNOSUPPORT);
    assert_int_equal(pstream_verify_name("ptcp:5"), 0);
    assert_int_equal(pstream_verify_name("pssl:5"), 0);
    assert_int_equal(pstream_verify_name("punix:x"), 0);
    assert_int_equal(pstream_verify_name("unix:x"), EAFNOSUPPORT);

    assert_int_equal(stream_or_pstream_needs_probes("unix:x"), 0);
    assert_int_equal(stream_or_pstream_needs_probes("punix:x"), 0);
    assert_int_equal(stream_or_pstream_needs_probes("tcp:1.2.3.4:5"), 1);
    assert_int_equal(stream_or_pstream_needs_probes("pssl:5"), 1);
    assert_int_equal(stream_or_pstream_needs_probes("bogus:5"), -1);
}

static void
test_parse_addresses(void **state DPS_UNUSED)
{
    struct sockaddr_storage ss;
    struct ds ds = DS_EMPTY_INITIALIZER;

    assert_int_equal(sock_parse_active("127.0.0.1:6640", -1, &ss), 0);
    sock_ss_format_full(&ss, &ds);
    assert_string_equal(ds_cstr(&ds), "127.0.0.1:6640");

    ds_clear(&ds);
    assert_int_equal(sock_parse_active("[::1]:65535", -1, &ss), 0);
    sock_ss_format_full(&ss, &ds);
    assert_string_equal(ds_cstr(&ds), "[::1]:65535");

    ds_clear(&ds);
    assert_int_equal(sock_parse_active("fe80::1", 6653, &ss), 0);
    sock_ss_format_full(&ss, &ds);
    assert_string_equal(ds_cstr(&ds), "[fe80::1]:6653");

    ds_clear(&ds);
    assert_int_equal(sock_parse_active("10.0.0.1", 6640, &ss), 0);
    assert_int_equal(sock_ss_get_port(&ss), 6640);

    assert_int_equal(sock_parse_passive("6640", -1, &ss), 0);
    sock_ss_format_full(&ss, &ds);
    assert_string_equal(ds_cstr(&ds), "0.0.0.0:6640");

    ds_clear(&ds);
    assert_int_equal(sock_parse_passive(":::1", 6641, &ss), 0);
    sock_ss_format_full(&ss, &ds);
    assert_string_equal(ds_cstr(&ds), "[::1]:6641");

    ds_clear(&ds);
    assert_int_equal(sock_parse_passive("0:[::]", -1, &ss), 0);
    sock_ss_format_full(&ss, &ds);
    assert_string_equal(ds_cstr(&ds), "[::]:0");

    /* Link-local addresses with a scope: a device or a number. */
    assert_int_equal(sock_parse_active("[fe80::1%lo]:6653", -1, &ss), 0);
    assert_int_equal(ss.ss_family, AF_INET6);
    assert_true(((struct sockaddr_in6 *) &ss)->sin6_scope_id > 0);
    assert_int_equal(sock_parse_active("[fe80::1%7]:6653", -1, &ss), 0);
    assert_int_equal(((struct sockaddr_in6 *) &ss)->sin6_scope_id, 7);
    assert_int_equal(sock_parse_active("[fe80::1%nosuchdev0]:1", -1, &ss),
                     EINVAL);
    assert_int_equal(sock_parse_active("1.2.3.4%lo:1", -1, &ss), EINVAL);

    ds_clear(&ds);
    assert_int_equal(sock_parse_passive("6640:[::1]", -1, &ss), 0);
    sock_ss_format_passive(&ss, &ds);
    assert_string_equal(ds_cstr(&ds), "6640:[::1]");

    assert_int_equal(sock_parse_passive("", -1, &ss), EINVAL);
    assert_int_equal(sock_parse_passive("65536", -1, &ss), EINVAL);
    assert_int_equal(sock_parse_active("1.2.3.4:65536", -1, &ss), EINVAL);
    ds_destroy(&ds);
}

static void
test_open_and_accept_block(void **state DPS_UNUSED)
{
    struct stream *client, *server;
    struct pstream *pstream;

    /* Connecting to a listener finishes well within the timeout. */
    assert_int_equal(pstream_open("ptcp:0:127.0.0.1", &pstream), 0);
    char *active = active_name("tcp", "127.0.0.1", pstream);
    assert_int_equal(stream_open_block(stream_open(active, &client), 5000,
                                       &client), 0);
    assert_int_equal(pstream_accept_block(pstream, &server), 0);
    assert_int_equal(stream_send(client, "hello", 5), 5);
    char buf[5];
    recv_exactly(server, buf, sizeof buf);
    assert_memory_equal(buf, "hello", 5);
    assert_int_equal(stream_recv(server, buf, 0), 0);
    assert_int_equal(stream_send(server, buf, 0), 0);

    stream_close(client);
    stream_close(server);
    pstream_close(pstream);
    free(active);
}

/* SSL. */

/* Makes, in the temporary directory, two CAs ("ca" and "otherca"), and
 * certificates signed by "ca" for "server" and "client" and by "otherca" for
 * "stranger": NAME-key.pem and NAME-cert.pem for each. */
static void
make_pki(void)
{
    static const char script[] =
        "set -e\n"
        "key() {\n"
        "  openssl genpkey -algorithm EC"
        " -pkeyopt ec_paramgen_curve:prime256v1 -out $1-key.pem\n"
        "}\n"
        "ca() {\n"
        "  key $1\n"
        "  openssl req -x509 -new -key $1-key.pem -out $1-cert.pem -days 2"
        " -subj \"/CN=$1\" -addext basicConstraints=critical,CA:TRUE"
        " -addext keyUsage=critical,keyCertSign,cRLSign\n"
        "}\n"
        "cert() {\n"
        "  key $1\n"
        "  openssl req -new -key $1-key.pem -out $1-req.pem -subj \"/CN=$1\"\n"
        "  openssl x509 -req -in $1-req.pem -CA $2-cert.pem -CAkey $2-key.pem"
        " -CAcreateserial -out $1-cert.pem -days 2\n"
        "}\n"
        "ca ca\n"
        "ca otherca\n"
        "cert server ca\n"
        "cert client ca\n"
        "cert stranger otherca\n";
    static bool done;
    char *script_name, *command;
    FILE *file;

    if (done) {
        return;
    }
    script_name = tmp_file("make-pki.sh");
    file = fopen(script_name, "w");
    assert_non_null(file);
    fputs(script, file);
    fclose(file);
    command = xasprintf("cd '%s' && sh make-pki.sh >make-pki.log 2>&1",
                        tmp_dir);
    run_command(command);
    free(command);
    free(script_name);
    done = true;
}

/* Configures SSL with TMP_DIR/KEY-key.pem, TMP_DIR/KEY-cert.pem and
 * TMP_DIR/CA-cert.pem. */
static void
configure_ssl(const char *key, const char *ca)
{
    char *key_file = xasprintf("%s/%s-key.pem", tmp_dir, key);
    char *cert_file = xasprintf("%s/%s-cert.pem", tmp_dir, key);
    char *ca_file = xasprintf("%s/%s-cert.pem", tmp_dir, ca);

    make_pki();
    stream_ssl_set_key_and_cert(key_file, cert_file);
    stream_ssl_set_ca_cert_file(ca_file, false);
    assert_true(stream_ssl_is_configured());
    free(ca_file);
    free(cert_file);
    free(key_file);
}

static void
test_ssl_unconfigured(void **state DPS_UNUSED)
{
    struct pstream *pstream;
    struct stream *stream;
    char *missing = tmp_file("missing-key.pem");

    assert_false(stream_ssl_is_configured());
    assert_int_equal(stream_open("ssl:127.0.0.1:6640", &stream),
                     ENOPROTOOPT);
    assert_null(stream);
    assert_int_equal(pstream_open("pssl:0:127.0.0.1", &pstream),
                     ENOPROTOOPT);
    assert_null(pstream);

    /* A key that does not load is as good as none. */
    stream_ssl_set_private_key_file(missing);
    assert_int_equal(stream_open("ssl:127.0.0.1:6640", &stream),
                     ENOPROTOOPT);
    free(missing);
}

static void
test_ssl_round_trip_ipv4(void **state DPS_UNUSED)
{
    configure_ssl("server", "ca");
    check_round_trip("pssl:0:127.0.0.1", "ssl", "127.0.0.1");
}

static void
test_ssl_round_trip_ipv6(void **state DPS_UNUSED)
{
    if (!have_ipv6_loopback()) {
        skip();
    }
    configure_ssl("server", "ca");
    check_round_trip("pssl:0:[::1]", "ssl", "[::1]");
}

static void
test_ssl_peer_close(void **state DPS_UNUSED)
{
    configure_ssl("server", "ca");
    check_peer_close("pssl:0:127.0.0.1", "ssl", "127.0.0.1");
}

static void
test_ssl_names(void **state DPS_UNUSED)
{
    configure_ssl("server", "ca");
    check_bound_names("pssl", "ssl");
}

/* Connects to 'pstream' with the current configuration, expecting both
 * ends to fail their handshake. */
static void
check_handshake_fails(struct pstream *pstream)
{
    int client_error, server_error;
    struct stream *client, *server;
    char *active = active_name("ssl", "127.0.0.1", pstream);

    assert_int_equal(stream_open(active, &client), 0);
    connect_both(pstream, client, &server, &client_error, &server_error);
    assert_int_not_equal(client_error, 0);
    assert_int_not_equal(server_error, 0);
    stream_close(client);
    stream_close(server);
    free(active);
}

static void
test_ssl_wrong_ca(void **state DPS_UNUSED)
{
    struct pstream *pstream;

    /* Both ends present "server", signed by "ca", but trust only
     * "otherca". */
    configure_ssl("server", "otherca");
    assert_int_equal(pstream_open("pssl:0:127.0.0.1", &pstream), 0);
    check_handshake_fails(pstream);

    /* "--ca-cert=none" accepts anyone. */
    struct stream *client, *server;
    char *active = active_name("ssl", "127.0.0.1", pstream);
    stream_ssl_set_ca_cert_file("none", false);
    open_pair(pstream, active, &client, &server);
    stream_close(client);
    stream_close(server);
    free(active);
    pstream_close(pstream);

    configure_ssl("server", "ca");
}

/* Reads the whole of file 'name'. */
static char *
read_file(const char *name)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    FILE *file = fopen(name, "r");
    int c;

    assert_non_null(file);
    while ((c = getc(file)) != EOF) {
        ds_put_char(&ds, c);
    }
    fclose(file);
    return ds_steal_cstr(&ds);
}

static void
test_ssl_bootstrap_ca_cert(void **state DPS_UNUSED)
{
    char *bootstrap_file = tmp_file("bootstrapped-ca.pem");
    char *ca_file = tmp_file("ca-cert.pem");
    int client_error, server_error;
    struct stream *client, *server;
    struct pstream *pstream;
    char *active, *saved, *original;

    configure_ssl("server", "ca");
    stream_ssl_set_peer_ca_cert_file(ca_file);
    assert_false(file_exists(bootstrap_file));
    stream_ssl_set_ca_cert_file(bootstrap_file, true);

    /* The first connection learns the CA and is dropped. */
    assert_int_equal(pstream_open("pssl:0:127.0.0.1", &pstream), 0);
    active = active_name("ssl", "127.0.0.1", pstream);
    assert_int_equal(stream_open(active, &client), 0);
    connect_both(pstream, client, &server, &client_error, &server_error);
    assert_int_equal(client_error, EPROTO);
    assert_int_not_equal(server_error, 0);
    stream_close(client);
    stream_close(server);

    assert_true(file_exists(bootstrap_file));
    saved = read_file(bootstrap_file);
    original = read_file(ca_file);
    assert_string_equal(saved, original);

    /* The next one is verified against it. */
    open_pair(pstream, active, &client, &server);
    transfer(client, server, 10000, 10000);
    stream_close(client);
    stream_close(server);

    /* Naming the saved file again, as a restarted daemon would, loads
     * it. */
    stream_ssl_set_ca_cert_file(bootstrap_file, true);
    open_pair(pstream, active, &client, &server);
    stream_close(client);
    stream_close(server);

    pstream_close(pstream);
    configure_ssl("server", "ca");
    free(original);
    free(saved);
    free(active);
    free(ca_file);
    free(bootstrap_file);
}

/* In a child process, configures SSL with 'key' and 'ca' (see
 * configure_ssl()), accepts one connection on 'pstream', and echoes what it
 * receives until end of file.  Exits with status 0 if the handshake
 * succeeded, 1 if it failed, 2 on any other problem.  Returns the child's
 * pid in the parent. */
static pid_t
fork_echo_server(struct pstream *pstream, const char *key, const char *ca)
{
    pid_t pid = fork();
    struct stream *stream;
    int error;

    assert_true(pid >= 0);
    if (pid) {
        return pid;
    }

    configure_ssl(key, ca);
    if (pstream_accept_block(pstream, &stream)) {
        _exit(2);
    }
    error = stream_open_block(0, TEST_TIMEOUT_MSEC, &stream);
    if (error) {
        _exit(1);
    }
    for (;;) {
        char buf[4096];
        ssize_t n;

        stream_run(stream);
        n = stream_recv(stream, buf, sizeof buf);
        if (n > 0) {
            /* Replies are small: one send takes them whole. */
            if (stream_send(stream, buf, n) != n) {
                _exit(2);
            }
        } else if (n != -EAGAIN) {
            /* Let the last reply out before closing. */
            for (int i = 0; i < 100; i++) {
                stream_run(stream);
            }
            stream_close(stream);
            _exit(n == 0 ? 0 : 2);
        }
        stream_run_wait(stream);
        stream_recv_wait(stream);
        poll_block();
    }
}

/* Starts an SSL echo server in a child process with the "server"
 * certificate, trusting "ca".  Returns its pid and stores in '*activep' the
 * name to connect to it. */
static pid_t
start_echo_server(char **activep)
{
    struct pstream *pstream;
    pid_t pid;

    configure_ssl("server", "ca");
    assert_int_equal(pstream_open("pssl:0:127.0.0.1", &pstream), 0);
    *activep = active_name("ssl", "127.0.0.1", pstream);
    pid = fork_echo_server(pstream, "server", "ca");
    pstream_close(pstream);
    return pid;
}

static int
wait_for_child(pid_t pid)
{
    int status;

    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

static void
test_ssl_distinct_client_and_server(void **state DPS_UNUSED)
{
    struct stream *client;
    char buf[5];
    char *active;
    pid_t pid;

    pid = start_echo_server(&active);

    configure_ssl("client", "ca");
    assert_int_equal(stream_open_block(stream_open(active, &client),
                                       TEST_TIMEOUT_MSEC, &client), 0);
    assert_int_equal(stream_send(client, "hello", 5), 5);
    recv_exactly(client, buf, sizeof buf);
    assert_memory_equal(buf, "hello", 5);
    stream_close(client);
    assert_int_equal(wait_for_child(pid), 0);

    configure_ssl("server", "ca");
    free(active);
}

static void
test_ssl_server_rejects_client(void **state DPS_UNUSED)
{
    struct stream *client;
    char *active;
    ssize_t result;
    pid_t pid;
    int error;

    pid = start_echo_server(&active);

    /* The client trusts the server, but its own certificate comes from a CA
     * the server does not know.  With TLS 1.3 the client may finish its
     * side of the handshake before hearing of the rejection, so the failure
     * may show only when it reads. */
    configure_ssl("stranger", "ca");
    error = stream_open_block(stream_open(active, &client),
                              TEST_TIMEOUT_MSEC, &client);
    if (!error) {
        assert_int_equal(drain(client, &result), 0);
        assert_true(result < 0 || result == 0);
        stream_close(client);
    }
    assert_int_equal(wait_for_child(pid), 1);

    configure_ssl("server", "ca");
    free(active);
}

/* Starts "openssl s_server" on 127.0.0.1:'port' in a child process,
 * serving its status page (-www) to one client that presents a certificate
 * signed by "ca".  Returns its pid. */
static pid_t
start_openssl_server(int port)
{
    char *accept = xasprintf("127.0.0.1:%d", port);
    char *cert = tmp_file("server-cert.pem");
    char *key = tmp_file("server-key.pem");
    char *ca = tmp_file("ca-cert.pem");
    char *log = tmp_file("s_server.log");
    pid_t pid = fork();

    assert_true(pid >= 0);
    if (!pid) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0
            || dup2(fd, STDERR_FILENO) < 0) {
            _exit(126);
        }
        execlp("openssl", "openssl", "s_server", "-accept", accept,
               "-cert", cert, "-key", key, "-CAfile", ca, "-Verify", "1",
               "-verify_return_error", "-www", "-naccept", "1", (char *) NULL);
        _exit(127);
    }
    free(log);
    free(ca);
    free(key);
    free(cert);
    free(accept);
    return pid;
}

static void
test_ssl_interop_openssl_server(void **state DPS_UNUSED)
{
    static const char request[] = "GET / HTTP/1.0\r\n\r\n";
    long long int deadline = time_msec() + TEST_TIMEOUT_MSEC;
    struct ds reply = DS_EMPTY_INITIALIZER;
    struct pstream *pstream;
    struct stream *stream;
    char *active;
    pid_t pid;
    int error;
    int port;

    /* Another TLS server, the openssl tool's, with our client. */
    make_pki();
    assert_int_equal(pstream_open("ptcp:0:127.0.0.1", &pstream), 0);
    active = active_name("ssl", "127.0.0.1", pstream);
    port = pstream_get_bound_port(pstream);
    /* Closed before forking, so that no connection can land on the child's
     * copy of the socket before exec() closes it. */
    pstream_close(pstream);
    pid = start_openssl_server(port);

    configure_ssl("client", "ca");
    do {
        error = stream_open_block(stream_open(active, &stream),
                                  TEST_TIMEOUT_MSEC, &stream);
        if (error == ECONNREFUSED) {
            /* Not listening yet. */
            assert_true(time_msec() < deadline);
            usleep(50 * 1000);
        }
    } while (error == ECONNREFUSED);
    assert_int_equal(error, 0);

    assert_int_equal(stream_send(stream, request, strlen(request)),
                     strlen(request));
    for (;;) {
        char buf[4096];
        ssize_t n;

        stream_run(stream);
        n = stream_recv(stream, buf, sizeof buf);
        if (n > 0) {
            ds_put_buffer(&reply, buf, n);
        } else if (n == 0) {
            break;
        } else if (n != -EAGAIN) {
            fail_msg("recv failed: %s", util_strerror(-n));
        }
        assert_true(time_msec() < deadline);
        stream_run_wait(stream);
        stream_recv_wait(stream);
        poll_timer_wait(100);
        poll_block();
    }
    stream_close(stream);
    assert_true(util_str_has_prefix(ds_cstr(&reply), "HTTP/1.0 200 ok"));
    assert_int_equal(wait_for_child(pid), 0);

    configure_ssl("server", "ca");
    ds_destroy(&reply);
    free(active);
}

static void
test_ssl_protocols_and_ciphers(void **state DPS_UNUSED)
{
    struct stream *client, *server;
    struct pstream *pstream;
    char *active;

    configure_ssl("server", "ca");
    stream_ssl_set_protocols("TLSv1.2");
    stream_ssl_set_ciphers("ECDHE-ECDSA-AES128-GCM-SHA256");
    assert_int_equal(pstream_open("pssl:0:127.0.0.1", &pstream), 0);
    active = active_name("ssl", "127.0.0.1", pstream);
    open_pair(pstream, active, &client, &server);
    transfer(client, server, 100000, 100000);
    stream_close(client);
    stream_close(server);

    /* Bad settings are ignored, with a message. */
    stream_ssl_set_protocols("SSLv2 bogus");
    stream_ssl_set_ciphers("NO-SUCH-CIPHER");
    open_pair(pstream, active, &client, &server);
    stream_close(client);
    stream_close(server);

    stream_ssl_set_protocols("TLSv1.2,TLSv1.3");
    stream_ssl_set_ciphers("HIGH:!aNULL:!MD5");
    pstream_close(pstream);
    free(active);
}

static int
setup_tmp_dir(void **state DPS_UNUSED)
{
    char template[] = "/tmp/test-stream.XXXXXX";

    if (!mkdtemp(template)) {
        return -1;
    }
    tmp_dir = xstrdup(template);
    return 0;
}

static int
teardown_tmp_dir(void **state DPS_UNUSED)
{
    char *command = xasprintf("rm -rf '%s'", tmp_dir);

    run_command(command);
    free(command);
    free(tmp_dir);
    return 0;
}

int
main(int argc DPS_UNUSED, char *argv[])
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_names),
        cmocka_unit_test(test_verify_name),
        cmocka_unit_test(test_parse_addresses),
        cmocka_unit_test(test_unix_round_trip),
        cmocka_unit_test(test_unix_relative_to_rundir),
        cmocka_unit_test(test_unix_long_path),
        cmocka_unit_test(test_unix_stale_socket),
        cmocka_unit_test(test_unix_not_a_socket),
        cmocka_unit_test(test_unix_no_such_socket),
        cmocka_unit_test(test_unix_two_listeners),
        cmocka_unit_test(test_unix_peer_close),
        cmocka_unit_test(test_unix_removed_at_exit),
        cmocka_unit_test(test_unix_full_backlog),
        cmocka_unit_test(test_tcp_round_trip_ipv4),
        cmocka_unit_test(test_tcp_round_trip_ipv6),
        cmocka_unit_test(test_tcp_bound_port),
        cmocka_unit_test(test_tcp_refused),
        cmocka_unit_test(test_tcp_peer_close),
        cmocka_unit_test(test_tcp_default_port),
        cmocka_unit_test(test_open_and_accept_block),
        cmocka_unit_test(test_ssl_unconfigured),
        cmocka_unit_test(test_ssl_round_trip_ipv4),
        cmocka_unit_test(test_ssl_round_trip_ipv6),
        cmocka_unit_test(test_ssl_peer_close),
        cmocka_unit_test(test_ssl_names),
        cmocka_unit_test(test_ssl_wrong_ca),
        cmocka_unit_test(test_ssl_bootstrap_ca_cert),
        cmocka_unit_test(test_ssl_distinct_client_and_server),
        cmocka_unit_test(test_ssl_server_rejects_client),
        cmocka_unit_test(test_ssl_protocols_and_ciphers),
        cmocka_unit_test(test_ssl_interop_openssl_server),
    };

    util_set_program_name(argv[0]);
    return cmocka_run_group_tests_name("stream", tests, setup_tmp_dir,
                                       teardown_tmp_dir);
}
