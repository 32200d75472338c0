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
#include <unistd.h>
#include "dynamic-string.h"
#include "poll-loop.h"
#include "socket-util.h"
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
 * driving both from the poll loop.  Returns the accepted stream, connected
 * (the TLS handshake, if any, done), or fails the test. */
static struct stream *
accept_and_connect(struct pstream *pstream, struct stream *client)
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
        if (server) {
            stream_run(server);
            server_error = stream_connect(server);
        }
        if (client) {
            stream_run(client);
            client_error = stream_connect(client);
        }
        if (client_error && client_error != EAGAIN) {
            fail_msg("client connect failed: %s",
                     util_strerror(client_error));
        }
        if (server_error && server_error != EAGAIN) {
            fail_msg("server connect failed: %s",
                     util_strerror(server_error));
        }
        assert_true(time_msec() < deadline);

        if (!server) {
            pstream_wait(pstream);
        } else {
            stream_run_wait(server);
            stream_connect_wait(server);
        }
        if (client) {
            stream_run_wait(client);
            stream_connect_wait(client);
        }
        poll_timer_wait(100);
        poll_block();
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

static void
test_tcp_bound_port(void **state DPS_UNUSED)
{
    struct stream *client, *server;
    struct pstream *pstream;
    char *expected;
    int port;

    assert_int_equal(pstream_open("ptcp:0:127.0.0.1", &pstream), 0);
    port = pstream_get_bound_port(pstream);
    assert_true(port > 0 && port <= 65535);
    expected = xasprintf("ptcp:%d:127.0.0.1", port);
    assert_string_equal(pstream_get_name(pstream), expected);
    free(expected);

    /* The accepted stream is named after its peer. */
    char *active = active_name("tcp", "127.0.0.1", pstream);
    open_pair(pstream, active, &client, &server);
    assert_true(util_str_has_prefix(stream_get_name(server),
                                    "tcp:127.0.0.1:"));
    stream_close(client);
    stream_close(server);
    pstream_close(pstream);
    free(active);
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
    ssize_t n = 0;
    while (n < 5) {
        ssize_t retval = stream_recv(server, buf + n, sizeof buf - n);
        if (retval == -EAGAIN) {
            stream_recv_wait(server);
            poll_block();
        } else {
            assert_true(retval > 0);
            n += retval;
        }
    }
    assert_memory_equal(buf, "hello", 5);
    assert_int_equal(stream_recv(server, buf, 0), 0);
    assert_int_equal(stream_send(server, buf, 0), 0);

    stream_close(client);
    stream_close(server);
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
        cmocka_unit_test(test_tcp_round_trip_ipv4),
        cmocka_unit_test(test_tcp_round_trip_ipv6),
        cmocka_unit_test(test_tcp_bound_port),
        cmocka_unit_test(test_tcp_refused),
        cmocka_unit_test(test_tcp_peer_close),
        cmocka_unit_test(test_tcp_default_port),
        cmocka_unit_test(test_open_and_accept_block),
    };

    util_set_program_name(argv[0]);
    return cmocka_run_group_tests_name("stream", tests, setup_tmp_dir,
                                       teardown_tmp_dir);
}
