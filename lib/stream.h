/* Byte streams: active ("unix:", "tcp:", "ssl:") and passive ("punix:",
 * "ptcp:", "pssl:") connections, all non-blocking.
 *
 * Names, as Open vSwitch writes them:
 *   unix:FILE              a Unix domain socket
 *   tcp:HOST:PORT          HOST an IPv4 literal or an IPv6 literal in [ ]
 *   ssl:HOST:PORT          as tcp:, through TLS (stream-ssl.h)
 *   punix:FILE             listen on a Unix domain socket
 *   ptcp:PORT[:HOST]       listen on TCP, on all addresses or HOST
 *   pssl:PORT[:HOST]       as ptcp:, through TLS
 * A relative FILE is taken relative to the run directory (dirs_rundir()).
 *
 * Return conventions: functions returning int give 0 on success or a
 * positive errno value; EAGAIN means "not yet, wait and call again".
 * stream_recv() and stream_send() return a byte count (> 0), 0 for end of
 * file (recv only), or a negative errno value.
 *
 * A stream or pstream belongs to one thread at a time.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef STREAM_H
#define STREAM_H 1

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct stream;
struct pstream;

/* Active streams. */
int stream_verify_name(const char *name);
int stream_open(const char *name, struct stream **);
int stream_open_block(int error, long long int timeout_msec,
                      struct stream **);
void stream_close(struct stream *);
const char *stream_get_name(const struct stream *);
int stream_connect(struct stream *);
ssize_t stream_recv(struct stream *, void *buffer, size_t n);
ssize_t stream_send(struct stream *, const void *buffer, size_t n);
void stream_run(struct stream *);
void stream_run_wait(struct stream *);

enum stream_wait_type {
    STREAM_CONNECT,
    STREAM_RECV,
    STREAM_SEND
};
void stream_wait(struct stream *, enum stream_wait_type);
void stream_connect_wait(struct stream *);
void stream_recv_wait(struct stream *);
void stream_send_wait(struct stream *);

/* Passive streams. */
int pstream_verify_name(const char *name);
int pstream_open(const char *name, struct pstream **);
const char *pstream_get_name(const struct pstream *);
void pstream_close(struct pstream *);
int pstream_accept(struct pstream *, struct stream **);
int pstream_accept_block(struct pstream *, struct stream **);
void pstream_wait(struct pstream *);
int pstream_get_bound_port(const struct pstream *);

/* Additions to the original contract. */
int stream_open_with_default_port(const char *name, int default_port,
                                  struct stream **);
int pstream_open_with_default_port(const char *name, int default_port,
                                   struct pstream **);
int stream_or_pstream_needs_probes(const char *name);
void stream_usage(const char *name, bool active, bool passive,
                  bool bootstrap);

#endif /* stream.h */
