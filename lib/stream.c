/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "stream.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fatal-signal.h"
#include "poll-loop.h"
#include "replay.h"
#include "stream-provider.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(stream);

/* The registry: every kind of stream, by name prefix.  A new kind is a new
 * file and one line here. */
static const struct stream_class *const stream_classes[] = {
    &stream_fd_tcp_class,
    &stream_fd_unix_class,
    &stream_ssl_class,
};

static const struct pstream_class *const pstream_classes[] = {
    &stream_fd_ptcp_class,
    &stream_fd_punix_class,
    &stream_ssl_pssl_class,
};

static int stream_lookup_class(const char *name,
                               const struct stream_class **);
static int pstream_lookup_class(const char *name,
                                const struct pstream_class **);
static char *stream_name_with_port(const char *name, int default_port,
                                   bool passive);
static bool stream_name_has_type(const char *name, const char *type);
static void stream_record_open(const char *name, int error,
                               struct replay_file **filep);

/* Checks that 'name' starts with the prefix of a known kind of active
 * stream ("tcp:", "unix:", "ssl:").  Returns 0 if so, otherwise
 * EAFNOSUPPORT.  Does not look at the rest of the name. */
int
stream_verify_name(const char *name)
{
    const struct stream_class *class;

    return stream_lookup_class(name, &class);
}

/* Starts connecting to 'name' (see stream.h for the forms it takes).  Never
 * blocks.  On success returns 0 and stores the new stream, possibly still
 * connecting, in '*streamp'.  On failure returns a positive errno value
 * (EAFNOSUPPORT for an unknown prefix, EINVAL for a malformed name, or the
 * reason the connection failed at once, such as ENOENT or ECONNREFUSED) and
 * stores NULL in '*streamp'. */
int
stream_open(const char *name, struct stream **streamp)
{
    const struct stream_class *class;
    struct stream *stream = NULL;
    int error;

    *streamp = NULL;
    error = stream_lookup_class(name, &class);
    if (error) {
        VLOG_DBG("%s: unknown stream type", name);
        return error;
    }

    if (replay_get_mode() == REPLAY_REPLAY) {
        class = &stream_replay_class;
    }
    error = class->open(xstrdup(name), strchr(name, ':') + 1, &stream);
    if (replay_get_mode() == REPLAY_RECORD) {
        stream_record_open(name, error, stream ? &stream->record : NULL);
    }
    if (error) {
        VLOG_DBG("%s: connection failed (%s)", name, util_strerror(error));
        return error;
    }
    *streamp = stream;
    return 0;
}

/* Finishes a stream_open() by blocking until the connection is established
 * or fails, for at most 'timeout_msec' milliseconds (or forever if it is
 * negative).  'error' is what stream_open() returned and '*streamp' the
 * stream it stored.  Returns 0 if the stream is connected.  Otherwise closes
 * the stream, stores NULL in '*streamp' and returns 'error' if it was
 * nonzero, ETIMEDOUT on timeout, or why connecting failed.
 *
 * Typical use: error = stream_open_block(stream_open(name, &s), -1, &s); */
int
stream_open_block(int error, long long int timeout_msec,
                  struct stream **streamp)
{
    struct stream *stream = *streamp;
    long long int deadline;

    if (!error) {
        deadline = (timeout_msec < 0 ? LLONG_MAX
                    : time_msec() + timeout_msec);
        for (;;) {
            stream_run(stream);
            error = stream_connect(stream);
            if (error != EAGAIN) {
                break;
            }
            if (time_msec() >= deadline) {
                error = ETIMEDOUT;
                break;
            }
            stream_run_wait(stream);
            stream_connect_wait(stream);
            if (deadline != LLONG_MAX) {
                poll_timer_wait_until(deadline);
            }
            fatal_signal_wait();
            poll_block();
            fatal_signal_run();
        }
    }
    if (error) {
        stream_close(stream);
        *streamp = NULL;
    }
    return error;
}

/* Closes 'stream' (which may be NULL) and frees it.  Data that could not yet
 * be sent may be lost. */
void
stream_close(struct stream *stream)
{
    if (stream) {
        replay_file_close(stream->record);
        stream->class->close(stream);
    }
}

/* Returns the name of 'stream': the one given to stream_open(), or for an
 * accepted stream one that identifies the peer: "tcp:1.2.3.4:5678",
 * "ssl:[::1]:5678", or "unix#N" with N counting accepted Unix domain
 * connections. */
const char *
stream_get_name(const struct stream *stream)
{
    return stream->name;
}

/* Carries on connecting 'stream'.  Returns 0 once it is connected, EAGAIN if
 * it is not yet, or the positive errno value that made connecting fail (and
 * keeps returning that value). */
int
stream_connect(struct stream *stream)
{
    if (stream->state == STREAM_S_CONNECTING) {
        int error = stream->class->connect(stream);
        if (error == EAGAIN) {
            return EAGAIN;
        }
        if (error) {
            stream->state = STREAM_S_DISCONNECTED;
            stream->error = error;
            VLOG_DBG("%s: connection failed (%s)", stream->name,
                     util_strerror(error));
        } else {
            stream->state = STREAM_S_CONNECTED;
        }
    }
    return stream->state == STREAM_S_CONNECTED ? 0 : stream->error;
}

/* Reads up to 'n' bytes from 'stream' into 'buffer'.  Returns the number of
 * bytes read (> 0), 0 at end of file (or if 'n' is 0), or a negative errno
 * value: -EAGAIN if nothing is available yet (or the stream is still
 * connecting), another one if the connection failed.  Never blocks. */
ssize_t
stream_recv(struct stream *stream, void *buffer, size_t n)
{
    int error = stream_connect(stream);
    ssize_t retval;

    if (!n && !error) {
        return 0;
    }
    retval = error ? -error : stream->class->recv(stream, buffer, n);
    if (stream->record) {
        replay_file_write(stream->record, true, retval, buffer);
    }
    return retval;
}

/* Sends up to 'n' bytes of 'buffer' on 'stream'.  Returns the number of
 * bytes the stream took (> 0, possibly fewer than 'n'; 0 only if 'n' is 0)
 * or a negative errno value: -EAGAIN if nothing can be sent yet (or the
 * stream is still connecting), -EPIPE or -ECONNRESET if the peer has gone.
 * Never blocks and never raises SIGPIPE. */
ssize_t
stream_send(struct stream *stream, const void *buffer, size_t n)
{
    int error = stream_connect(stream);
    ssize_t retval;

    if (!n && !error) {
        return 0;
    }
    retval = error ? -error : stream->class->send(stream, buffer, n);
    if (stream->record) {
        replay_file_write(stream->record, false, retval, NULL);
    }
    return retval;
}

/* Does the background work 'stream' needs, such as sending data it has
 * buffered.  Call it from the poll loop whenever the stream is in use. */
void
stream_run(struct stream *stream)
{
    if (stream->class->run) {
        stream->class->run(stream);
    }
}

/* Makes the next poll_block() wake up when stream_run() has work to do. */
void
stream_run_wait(struct stream *stream)
{
    if (stream->class->run_wait) {
        stream->class->run_wait(stream);
    }
}

/* Makes the next poll_block() wake up when 'stream' is ready for 'type':
 * when stream_connect(), stream_recv() or stream_send() would return
 * something other than EAGAIN.  A stream that is still connecting waits for
 * the connection whatever 'type' is; a stream that has failed, or a
 * connected stream asked about STREAM_CONNECT, wakes at once. */
void
stream_wait(struct stream *stream, enum stream_wait_type type)
{
    switch (stream->state) {
    case STREAM_S_CONNECTING:
        stream->class->wait(stream, STREAM_CONNECT);
        break;

    case STREAM_S_CONNECTED:
        if (type == STREAM_CONNECT) {
            poll_immediate_wake();
        } else {
            stream->class->wait(stream, type);
        }
        break;

    case STREAM_S_DISCONNECTED:
    default:
        poll_immediate_wake();
        break;
    }
}

/* stream_wait(stream, STREAM_CONNECT). */
void
stream_connect_wait(struct stream *stream)
{
    stream_wait(stream, STREAM_CONNECT);
}

/* stream_wait(stream, STREAM_RECV). */
void
stream_recv_wait(struct stream *stream)
{
    stream_wait(stream, STREAM_RECV);
}

/* stream_wait(stream, STREAM_SEND). */
void
stream_send_wait(struct stream *stream)
{
    stream_wait(stream, STREAM_SEND);
}

/* Checks that 'name' starts with the prefix of a known kind of passive
 * stream ("ptcp:", "punix:", "pssl:").  Returns 0 if so, otherwise
 * EAFNOSUPPORT.  Does not look at the rest of the name. */
int
pstream_verify_name(const char *name)
{
    const struct pstream_class *class;

    return pstream_lookup_class(name, &class);
}

/* Starts listening as 'name' (see stream.h for the forms it takes).  On
 * success returns 0 and stores the new pstream in '*pstreamp'.  On failure
 * returns a positive errno value (EAFNOSUPPORT for an unknown prefix, EINVAL
 * for a malformed name, or why listening failed, such as EADDRINUSE) and
 * stores NULL in '*pstreamp'. */
int
pstream_open(const char *name, struct pstream **pstreamp)
{
    const struct pstream_class *class;
    struct pstream *pstream = NULL;
    int error;

    *pstreamp = NULL;
    error = pstream_lookup_class(name, &class);
    if (error) {
        VLOG_DBG("%s: unknown passive stream type", name);
        return error;
    }

    if (replay_get_mode() == REPLAY_REPLAY) {
        class = &stream_replay_pclass;
    }
    error = class->listen(xstrdup(name), strchr(name, ':') + 1, &pstream);
    if (replay_get_mode() == REPLAY_RECORD) {
        stream_record_open(name, error, pstream ? &pstream->record : NULL);
    }
    if (error) {
        VLOG_DBG("%s: listen failed (%s)", name, util_strerror(error));
        return error;
    }
    *pstreamp = pstream;
    return 0;
}

/* Returns the name of 'pstream'.  For TCP and SSL it shows the address and
 * port actually bound, e.g. "ptcp:41234:127.0.0.1" for "ptcp:0:127.0.0.1". */
const char *
pstream_get_name(const struct pstream *pstream)
{
    return pstream->name;
}

/* Stops listening on 'pstream' (which may be NULL) and frees it.  A
 * "punix:" socket file is removed. */
void
pstream_close(struct pstream *pstream)
{
    if (pstream) {
        replay_file_close(pstream->record);
        pstream->class->close(pstream);
    }
}

/* Accepts a waiting connection on 'pstream'.  On success returns 0 and
 * stores the new stream in '*streamp' (an SSL stream may still be doing its
 * handshake, which stream_connect(), stream_recv() and stream_send() carry
 * on).  Returns EAGAIN if no connection is waiting, another positive errno
 * value on error; then stores NULL in '*streamp'.  Never blocks. */
int
pstream_accept(struct pstream *pstream, struct stream **streamp)
{
    int error;

    *streamp = NULL;
    error = pstream->class->accept(pstream, streamp);
    if (pstream->record) {
        /* The new stream's name, or the error (EAGAIN too), then the new
         * stream's own file. */
        if (!error) {
            const char *name = (*streamp)->name;

            replay_file_write(pstream->record, true, strlen(name), name);
            stream_record_open(name, 0, &(*streamp)->record);
        } else {
            replay_file_write(pstream->record, true, -error, NULL);
        }
    }
    if (error) {
        *streamp = NULL;
        if (error != EAGAIN) {
            VLOG_DBG("%s: accept failed (%s)", pstream->name,
                     util_strerror(error));
        }
    }
    return error;
}

/* Like pstream_accept(), but blocks until a connection arrives or an error
 * other than EAGAIN happens. */
int
pstream_accept_block(struct pstream *pstream, struct stream **streamp)
{
    int error;

    while ((error = pstream_accept(pstream, streamp)) == EAGAIN) {
        pstream_wait(pstream);
        fatal_signal_wait();
        poll_block();
        fatal_signal_run();
    }
    return error;
}

/* Makes the next poll_block() wake up when pstream_accept() would return
 * something other than EAGAIN. */
void
pstream_wait(struct pstream *pstream)
{
    pstream->class->wait(pstream);
}

/* Returns the TCP port, in host byte order, that 'pstream' listens on (the
 * one the kernel chose for "ptcp:0"), or 0 for a pstream without a port
 * (punix). */
int
pstream_get_bound_port(const struct pstream *pstream)
{
    return pstream->bound_port;
}

/* Like stream_open(), but a "tcp:" or "ssl:" 'name' without a port connects
 * to 'default_port' (e.g. 6640 for OVSDB). */
int
stream_open_with_default_port(const char *name, int default_port,
                              struct stream **streamp)
{
    char *full_name = stream_name_with_port(name, default_port, false);
    int error = stream_open(full_name, streamp);

    free(full_name);
    return error;
}

/* Like pstream_open(), but a "ptcp:" or "pssl:" 'name' without a port
 * ("ptcp:" or "ptcp::127.0.0.1") listens on 'default_port'. */
int
pstream_open_with_default_port(const char *name, int default_port,
                               struct pstream **pstreamp)
{
    char *full_name = stream_name_with_port(name, default_port, true);
    int error = pstream_open(full_name, pstreamp);

    free(full_name);
    return error;
}

/* Says whether connections made or accepted through 'name' (an active or a
 * passive stream name) should be probed for a dead peer: 1 for network
 * connections, 0 for local ones (Unix domain sockets), -1 if 'name' has no
 * known prefix. */
int
stream_or_pstream_needs_probes(const char *name)
{
    const struct stream_class *class;
    const struct pstream_class *pclass;

    if (!stream_lookup_class(name, &class)) {
        return class->needs_probes;
    } else if (!pstream_lookup_class(name, &pclass)) {
        return pclass->needs_probes;
    }
    return -1;
}

/* Prints to stdout, for a program's --help, the stream names that 'name'
 * (describing what they are for, e.g. "database") accepts: 'active' and
 * 'passive' say which kinds the program takes, 'bootstrap' whether it takes
 * --bootstrap-ca-cert. */
void
stream_usage(const char *name, bool active, bool passive, bool bootstrap)
{
    printf("\n");
    if (active) {
        printf("Active %s connection methods:\n", name);
        printf("  tcp:HOST:PORT           "
               "PORT at remote HOST\n");
        printf("  ssl:HOST:PORT           "
               "SSL PORT at remote HOST\n");
        printf("  unix:FILE               "
               "Unix domain socket named FILE\n");
    }
    if (passive) {
        printf("Passive %s connection methods:\n", name);
        printf("  ptcp:PORT[:IP]          "
               "listen to TCP PORT on IP\n");
        printf("  pssl:PORT[:IP]          "
               "listen for SSL on PORT on IP\n");
        printf("  punix:FILE              "
               "listen on Unix domain socket FILE\n");
    }
    printf("PKI configuration (required to use SSL):\n"
           "  -p, --private-key=FILE  file with private key\n"
           "  -c, --certificate=FILE  file with certificate for private "
           "key\n"
           "  -C, --ca-cert=FILE      file with peer CA certificate\n");
    if (bootstrap) {
        printf("  --bootstrap-ca-cert=FILE  file with peer CA certificate "
               "to read or create\n");
    }
    printf("SSL options:\n"
           "  --ssl-protocols=PROTOS  list of SSL protocols to enable\n"
           "  --ssl-ciphers=CIPHERS   list of SSL ciphers to enable\n");
}

/* Initialises 'stream', as a class's 'open' or a pstream's 'accept' does
 * for the stream it creates: 'class' is its class, 'name' its name (the
 * stream takes ownership), and 'connect_status' 0 if it is connected, EAGAIN
 * if it is still connecting, or a positive errno value if connecting has
 * already failed. */
void
stream_init(struct stream *stream, const struct stream_class *class,
            int connect_status, char *name)
{
    memset(stream, 0, sizeof *stream);
    stream->class = class;
    stream->state = (connect_status == EAGAIN ? STREAM_S_CONNECTING
                     : !connect_status ? STREAM_S_CONNECTED
                     : STREAM_S_DISCONNECTED);
    stream->error = connect_status == EAGAIN ? 0 : connect_status;
    stream->name = name;
}

/* Initialises 'pstream' as a pstream class's 'listen' does: 'class' is its
 * class, 'name' its name (the pstream takes ownership).  The bound port
 * starts at 0; see pstream_set_bound_port(). */
void
pstream_init(struct pstream *pstream, const struct pstream_class *class,
             char *name)
{
    memset(pstream, 0, sizeof *pstream);
    pstream->class = class;
    pstream->name = name;
}

/* Records that 'pstream' listens on TCP 'port' (host byte order), for
 * pstream_get_bound_port(). */
void
pstream_set_bound_port(struct pstream *pstream, int port)
{
    pstream->bound_port = port;
}

/* Returns true if 'name' is of type 'type', that is, starts with 'type'
 * followed by a colon. */
static bool
stream_name_has_type(const char *name, const char *type)
{
    size_t len = strlen(type);

    return !strncmp(name, type, len) && name[len] == ':';
}

/* With --record: creates the replay file of the stream or pstream 'name'
 * that was just opened, with 'error' (0 for success), and stores it in
 * '*filep' if 'filep' is nonnull (the stream exists), or closes it.  A
 * file that cannot be created (logged) leaves the stream unrecorded. */
static void
stream_record_open(const char *name, int error, struct replay_file **filep)
{
    struct replay_file *f;

    if (!replay_file_open(name, &f)) {
        replay_file_write(f, true, -error, NULL);
        if (filep && !error) {
            *filep = f;
        } else {
            replay_file_close(f);
        }
    }
}

/* Finds the class whose prefix 'name' starts with.  Returns 0 or
 * EAFNOSUPPORT. */
static int
stream_lookup_class(const char *name, const struct stream_class **classp)
{
    *classp = NULL;
    for (size_t i = 0; i < ARRAY_SIZE(stream_classes); i++) {
        if (stream_name_has_type(name, stream_classes[i]->name)) {
            *classp = stream_classes[i];
            return 0;
        }
    }
    return EAFNOSUPPORT;
}

/* As stream_lookup_class(), for passive streams. */
static int
pstream_lookup_class(const char *name, const struct pstream_class **classp)
{
    *classp = NULL;
    for (size_t i = 0; i < ARRAY_SIZE(pstream_classes); i++) {
        if (stream_name_has_type(name, pstream_classes[i]->name)) {
            *classp = pstream_classes[i];
            return 0;
        }
    }
    return EAFNOSUPPORT;
}

/* Returns a copy of stream name 'name' with 'default_port' filled in if it
 * is a TCP-based name (tcp, ssl, ptcp, pssl) without a port. */
static char *
stream_name_with_port(const char *name, int default_port, bool passive)
{
    const char *colon = strchr(name, ':');
    const char *suffix = colon ? colon + 1 : "";
    size_t prefix_len = colon ? (size_t) (colon - name) : 0;
    bool tcp_based;

    tcp_based = (stream_name_has_type(name, "tcp")
                 || stream_name_has_type(name, "ssl")
                 || stream_name_has_type(name, "ptcp")
                 || stream_name_has_type(name, "pssl"));
    if (!tcp_based || default_port < 0) {
        return xstrdup(name);
    }

    if (passive) {
        /* "PORT[:IP]": the port is missing if the suffix is empty or starts
         * with the colon before the IP. */
        if (!suffix[0] || suffix[0] == ':') {
            return xasprintf("%.*s:%d%s", (int) prefix_len, name,
                             default_port, suffix);
        }
    } else {
        /* "HOST[:PORT]", HOST an IPv4 literal or "[IPv6]": the port is
         * missing without a colon after the host.  A bare IPv6 literal
         * (several colons) has no port either. */
        const char *host_end = suffix;
        if (suffix[0] == '[') {
            const char *bracket = strchr(suffix, ']');
            host_end = bracket ? bracket : suffix;
        }
        const char *port_colon = strchr(host_end, ':');
        if (suffix[0] != '[' && port_colon && strchr(port_colon + 1, ':')) {
            return xasprintf("%.*s:[%s]:%d", (int) prefix_len, name, suffix,
                             default_port);
        }
        if (suffix[0] && !port_colon) {
            return xasprintf("%s:%d", name, default_port);
        }
    }
    return xstrdup(name);
}
