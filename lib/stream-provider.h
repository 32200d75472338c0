/* The interface between the generic stream layer (stream.c) and the stream
 * classes that implement it (stream-fd.c for "unix:" and "tcp:",
 * stream-ssl.c for "ssl:").  Only those files include this header; everyone
 * else uses stream.h.
 *
 * Life of an active stream:
 *
 *   stream_open() parses the name's "TYPE:" prefix, finds the class and
 *   calls its 'open'.  The class allocates its own structure, which embeds a
 *   'struct stream', and initialises that with stream_init(), saying whether
 *   the connection is already up (0), still being set up (EAGAIN) or has
 *   failed (a positive errno value).
 *
 *   While the stream is connecting, stream.c calls 'connect' until it
 *   returns something other than EAGAIN; 0 moves the stream to "connected"
 *   and an error to "disconnected".  'recv' and 'send' are only ever called
 *   on a connected stream; 'wait' is called in any state but
 *   "disconnected".  A disconnected stream keeps reporting its error.
 *
 *   stream_close() calls 'close', which frees everything, including the
 *   structure in which the 'struct stream' is embedded.
 *
 * Passive streams work the same way with a 'struct pstream', pstream_init()
 * and the pstream_class below; a pstream has no connecting state.
 *
 * With --record (replay.h), stream.c writes down what each call of 'open',
 * 'listen', 'accept', 'recv' and 'send' returned; with --replay, the
 * classes of stream-replay.c take the place of every other.
 *
 * Every slot is called from the thread that owns the stream at the time
 * (streams are single-threaded, see stream.h).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef STREAM_PROVIDER_H
#define STREAM_PROVIDER_H 1

#include <stdbool.h>
#include <sys/types.h>
#include "stream.h"

struct replay_file;

/* The states of an active stream. */
enum stream_state {
    STREAM_S_CONNECTING,      /* 'connect' has not yet reported the end. */
    STREAM_S_CONNECTED,       /* Data may flow. */
    STREAM_S_DISCONNECTED     /* Connecting failed: 'error' says why. */
};

/* An active stream, as every class embeds it. */
struct stream {
    const struct stream_class *class;
    enum stream_state state;
    int error;                /* Positive errno when DISCONNECTED. */
    char *name;               /* Owned; as given to stream_open(). */
    struct replay_file *record; /* With --record: its replay file (owned
                                 * by stream.c), else NULL. */
};

void stream_init(struct stream *, const struct stream_class *,
                 int connect_status, char *name);

/* One kind of active stream. */
struct stream_class {
    /* The name's prefix, without the colon: "tcp" for "tcp:1.2.3.4:6640". */
    const char *name;

    /* True if connections of this kind can break silently (network
     * connections), so that the layers above should send probes to detect a
     * dead peer; false for local connections (Unix domain sockets). */
    bool needs_probes;

    /* Opens a stream called 'name' (the whole name, "tcp:1.2.3.4:6640"),
     * whose part after the "TYPE:" prefix is 'suffix'.  Must not block.
     *
     * On success returns 0 and stores in '*streamp' a stream initialised
     * with stream_init(), which takes ownership of 'name' (a copy the
     * caller made for it); the connection may still be in progress.  On
     * failure returns a positive errno value, frees 'name' and stores
     * nothing; a name that cannot be parsed gives EINVAL.  Must not be
     * NULL. */
    int (*open)(char *name, const char *suffix, struct stream **streamp);

    /* Closes 'stream' and frees it, together with its name (stream_close()
     * cannot: 'stream' is embedded in the class's structure).  Called in any
     * state.  Must not be NULL. */
    void (*close)(struct stream *stream);

    /* Carries on connecting a stream in STREAM_S_CONNECTING.  Returns 0 once
     * the stream is connected, EAGAIN if it is not yet, or a positive errno
     * value if connecting failed; stream.c does not call it again after a
     * value other than EAGAIN.  Must not block.  May be NULL if 'open' never
     * gives EAGAIN as connect status. */
    int (*connect)(struct stream *stream);

    /* Reads up to 'n' (> 0) bytes into 'buffer' from connected 'stream'.
     * Returns the number of bytes read (> 0), 0 at end of file, or a
     * negative errno value: -EAGAIN if nothing can be read now.  Must not
     * block.  Must not be NULL. */
    ssize_t (*recv)(struct stream *stream, void *buffer, size_t n);

    /* Sends up to 'n' (> 0) bytes of 'buffer' on connected 'stream'.
     * Returns the number of bytes accepted (> 0, possibly fewer than 'n') or
     * a negative errno value: -EAGAIN if nothing can be sent now, -EPIPE or
     * -ECONNRESET if the peer has gone.  Bytes counted as sent belong to the
     * stream from then on: the caller may reuse 'buffer' at once.  Must not
     * block or raise SIGPIPE.  Must not be NULL. */
    ssize_t (*send)(struct stream *stream, const void *buffer, size_t n);

    /* Does work the stream needs done in the background, such as flushing
     * data it buffered in 'send'.  Called from stream_run() in any state.
     * Must not block.  May be NULL if there is never any. */
    void (*run)(struct stream *stream);

    /* Makes the next poll_block() wake up when 'run' has work to do.  May be
     * NULL if 'run' is. */
    void (*run_wait)(struct stream *stream);

    /* Makes the next poll_block() wake up when 'stream' is ready for
     * 'type': when 'connect' (STREAM_CONNECT, only asked in
     * STREAM_S_CONNECTING), 'recv' (STREAM_RECV) or 'send' (STREAM_SEND)
     * would return something other than EAGAIN.  Must not be NULL. */
    void (*wait)(struct stream *stream, enum stream_wait_type type);
};

/* A passive stream, as every class embeds it. */
struct pstream {
    const struct pstream_class *class;
    char *name;               /* Owned: the name, e.g. "ptcp:6640:0.0.0.0". */
    int bound_port;           /* TCP port in host order, or 0. */
    struct replay_file *record; /* As in struct stream. */
};

void pstream_init(struct pstream *, const struct pstream_class *,
                  char *name);
void pstream_set_bound_port(struct pstream *, int port);

/* One kind of passive stream. */
struct pstream_class {
    /* The name's prefix, without the colon: "ptcp" for "ptcp:6640". */
    const char *name;

    /* As 'needs_probes' in struct stream_class, for accepted streams. */
    bool needs_probes;

    /* Starts listening as 'name', whose part after the "TYPE:" prefix is
     * 'suffix'.  On success returns 0 and stores in '*pstreamp' a pstream
     * initialised with pstream_init(), which takes ownership of 'name'
     * (the class may also free 'name' and pass pstream_init() a better one,
     * such as one with the port the kernel chose).  On failure returns a
     * positive errno value, frees 'name' and stores nothing.  Must not
     * block.  Must not be NULL. */
    int (*listen)(char *name, const char *suffix, struct pstream **pstreamp);

    /* Stops listening and frees 'pstream' and its name.  Streams accepted
     * from it are independent and stay open.  Must not be NULL. */
    void (*close)(struct pstream *pstream);

    /* Accepts a connection, if one is waiting.  Returns 0 and stores a new
     * stream (which may still be connecting, e.g. for a TLS handshake) in
     * '*streamp', returns EAGAIN if no connection is waiting, or returns
     * another positive errno value on error; stores NULL in '*streamp' if it
     * returns nonzero.  Must not block.  Must not be NULL. */
    int (*accept)(struct pstream *pstream, struct stream **streamp);

    /* Makes the next poll_block() wake up when 'accept' would return
     * something other than EAGAIN.  Must not be NULL. */
    void (*wait)(struct pstream *pstream);
};

/* The classes, defined in stream-fd.c, stream-ssl.c and stream-replay.c
 * (which stands in for every class with --replay, see replay.h). */
extern const struct stream_class stream_fd_unix_class;
extern const struct stream_class stream_fd_tcp_class;
extern const struct stream_class stream_ssl_class;
extern const struct pstream_class stream_fd_punix_class;
extern const struct pstream_class stream_fd_ptcp_class;
extern const struct pstream_class stream_ssl_pssl_class;
extern const struct stream_class stream_replay_class;
extern const struct pstream_class stream_replay_pclass;

#endif /* stream-provider.h */
