/* JSON-RPC 1.0 over a byte stream: messages, raw connections and
 * reconnecting sessions.
 *
 * Messages.  A 'struct jsonrpc_msg' is one of the four kinds of JSON-RPC 1.0
 * message, as OVSDB (RFC 7047) and unixctl use them:
 *
 *   request        {"method": M, "params": [...], "id": ID}
 *   notification   {"method": M, "params": [...], "id": null}
 *   reply          {"result": R, "error": null, "id": ID}
 *   error          {"result": null, "error": E, "id": ID}
 *
 * The jsonrpc_create_*() functions take ownership of the json_t values
 * passed to them ('params', 'result', 'error'); an 'id' passed to them is
 * only borrowed (they take a reference of their own).  Every json_t in a
 * message is owned by the message and released by jsonrpc_msg_destroy().
 *
 * Raw connections.  A 'struct jsonrpc' wraps one stream (stream.h) and moves
 * whole messages over it.  Nothing blocks except the *_block() functions:
 * jsonrpc_send() queues, jsonrpc_run() writes what the stream accepts,
 * jsonrpc_recv() returns a message if a whole one has arrived.  A main loop
 * calls jsonrpc_run() and jsonrpc_wait() (and jsonrpc_recv_wait() when it
 * wants to receive) on every iteration.
 *
 * Return conventions: 0 on success, a positive errno value on error, EAGAIN
 * for "nothing yet", and EOF (from <stdio.h>, a negative value) for a clean
 * end of stream from the peer.  Once a connection has failed, every later
 * send or receive returns the same status (see jsonrpc_get_status()); the
 * caller then closes it.  Errors specific to this layer:
 *
 *   EPROTO     the peer sent something that is not a valid JSON-RPC message
 *              (bad JSON, invalid UTF-8, nesting too deep, bad members).
 *   EMSGSIZE   the peer sent a message larger than the maximum message size
 *              (jsonrpc_set_max_msg_size()).
 *
 * Sessions.  A 'struct jsonrpc_session' is a connection that comes back: it
 * names a stream ("unix:", "tcp:", "ssl:") that it connects to, or a passive
 * stream ("punix:", "ptcp:", "pssl:") on which it listens and accepts one
 * connection at a time; when the connection fails it tries again with
 * exponential back-off (reconnect.h).  It answers "echo" requests by itself,
 * and when the connection has been silent for the probe interval it sends an
 * "echo" request; if nothing at all arrives within another interval, it
 * drops the connection and reconnects.
 *
 * Logging: every message sent and received is logged at DBG level under the
 * vlog module "jsonrpc", as "NAME: send|received KIND: JSON".
 *
 * Threads: a connection or session belongs to one thread at a time.  Message
 * ids made by jsonrpc_create_request() come from a process-wide atomic
 * counter and are unique across threads.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef JSONRPC_H
#define JSONRPC_H 1

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct jsonrpc;
struct jsonrpc_session;
struct reconnect_stats;
struct stream;

/* Default largest message jsonrpc_recv() accepts, in bytes of JSON text.
 * OVSDB's replies to "monitor" on a large database are the largest messages
 * dpswitch sees; this leaves them ample room while still bounding the
 * memory a misbehaving peer can make us spend. */
#define JSONRPC_DEFAULT_MAX_MSG_SIZE (64u * 1024 * 1024)

/* Maximum nesting depth of a received message: arrays and objects within
 * one another.  OVSDB's deepest messages nest fewer than 10 levels. */
#define JSONRPC_MAX_DEPTH 1000

/* The TCP port a session uses for a "tcp:HOST" or "ssl:HOST" name that gives
 * none: OVSDB's registered port, as in Open vSwitch. */
#define JSONRPC_SESSION_DEFAULT_PORT 6640

/* ------------------------------------------------------------------------
 * Messages.
 * ------------------------------------------------------------------------ */

enum jsonrpc_msg_type {
    JSONRPC_REQUEST,       /* Has 'method', 'params', non-null 'id'. */
    JSONRPC_NOTIFY,        /* Has 'method', 'params'; 'id' is null. */
    JSONRPC_REPLY,         /* Has 'result' (non-null) and 'id'. */
    JSONRPC_ERROR          /* Has 'error' (non-null) and 'id'. */
};

struct jsonrpc_msg {
    enum jsonrpc_msg_type type;
    char *method;          /* Request or notification, else NULL. */
    json_t *params;        /* Request or notification: an array. */
    json_t *result;        /* Reply, else NULL. */
    json_t *error;         /* Error, else NULL. */
    json_t *id;            /* Request, reply or error; NULL for notify. */
};

/* Constructors.  jsonrpc_create_request() gives the request a fresh
 * integer id and, if 'idp' is nonnull, stores a new reference to it in
 * '*idp' (the caller then owns it and uses it to match the reply).  A NULL
 * 'params' stands for an empty array.  jsonrpc_create_reply() and
 * jsonrpc_create_error() copy a reference to 'id' (usually the request's).
 * jsonrpc_msg_destroy(NULL) does nothing. */
struct jsonrpc_msg *jsonrpc_create_request(const char *method, json_t *params,
                                           json_t **idp);
struct jsonrpc_msg *jsonrpc_create_notify(const char *method, json_t *params);
struct jsonrpc_msg *jsonrpc_create_reply(json_t *result, const json_t *id);
struct jsonrpc_msg *jsonrpc_create_error(json_t *error, const json_t *id);
struct jsonrpc_msg *jsonrpc_msg_clone(const struct jsonrpc_msg *);
void jsonrpc_msg_destroy(struct jsonrpc_msg *);

/* "request", "notification", "reply" or "error".  jsonrpc_msg_is_valid()
 * returns NULL if a message's members match its type, otherwise an error
 * string the caller must free(). */
const char *jsonrpc_msg_type_to_string(enum jsonrpc_msg_type);
char *jsonrpc_msg_is_valid(const struct jsonrpc_msg *);

/* Conversions.  jsonrpc_msg_from_json() consumes its json_t (one
 * reference) and on success stores a new message in '*msgp' and returns
 * NULL; on failure it stores NULL and returns an error string the caller
 * must free(), e.g. "message has unexpected member \"foo\"".
 * jsonrpc_msg_to_json() consumes the message and returns its JSON object
 * (one new reference).  jsonrpc_msg_to_string() returns the compact JSON
 * text of a message it does not consume; the caller frees it. */
char *jsonrpc_msg_from_json(json_t *, struct jsonrpc_msg **);
json_t *jsonrpc_msg_to_json(struct jsonrpc_msg *);
char *jsonrpc_msg_to_string(const struct jsonrpc_msg *);

/* ------------------------------------------------------------------------
 * Raw connections.
 * ------------------------------------------------------------------------ */

/* jsonrpc_open() takes ownership of a stream, which may still be
 * connecting; jsonrpc_close() closes it and frees everything, including
 * unsent messages.  jsonrpc_close(NULL) does nothing. */
struct jsonrpc *jsonrpc_open(struct stream *);
void jsonrpc_close(struct jsonrpc *);

/* jsonrpc_run() writes queued output as far as the stream accepts it;
 * jsonrpc_wait() makes poll_block() wake when it can write more. */
void jsonrpc_run(struct jsonrpc *);
void jsonrpc_wait(struct jsonrpc *);

/* jsonrpc_get_status(): 0 while healthy, else the error (positive errno,
 * EPROTO, EMSGSIZE) or EOF that ended the connection.
 * jsonrpc_get_backlog(): bytes queued by jsonrpc_send() not yet written; a
 * server uses it to stop feeding a client that does not read. */

const char *jsonrpc_get_name(const struct jsonrpc *);
int jsonrpc_get_status(const struct jsonrpc *);
size_t jsonrpc_get_backlog(const struct jsonrpc *);
unsigned long long int jsonrpc_get_received_bytes(const struct jsonrpc *);
void jsonrpc_set_max_msg_size(struct jsonrpc *, size_t max_msg_size);

/* jsonrpc_send() consumes 'msg' in every case and queues it, trying to
 * write at once; it returns 0 or the connection's failure status.
 * jsonrpc_recv() stores a received message in '*msgp' (the caller owns it)
 * and returns 0, or stores NULL and returns EAGAIN (nothing complete yet:
 * call jsonrpc_recv_wait()), EOF or an error. */
int jsonrpc_send(struct jsonrpc *, struct jsonrpc_msg *);
/* jsonrpc_send_serialized() queues 'length' bytes of 'json', a complete
 * message as jsonx_to_ds() writes it, without parsing or copying it into a
 * message first: for a server that sends the same notification to many
 * clients and serializes it once.  Returns as jsonrpc_send() does. */
int jsonrpc_send_serialized(struct jsonrpc *, const char *json,
                            size_t length);
int jsonrpc_recv(struct jsonrpc *, struct jsonrpc_msg **);
void jsonrpc_recv_wait(struct jsonrpc *);

/* Blocking forms, for clients such as ovs-appctl.  jsonrpc_send_block()
 * waits until everything queued has been written.  jsonrpc_recv_block()
 * waits until a message arrives or the connection fails.
 * jsonrpc_transact_block() sends 'request' (consumed) and waits for the
 * reply or error whose id equals the request's, storing it in '*replyp';
 * while it waits it answers "echo" requests and discards every other
 * message.  Each returns 0, EOF or an error; on failure '*replyp' or
 * '*msgp' is NULL. */
int jsonrpc_send_block(struct jsonrpc *, struct jsonrpc_msg *);
int jsonrpc_recv_block(struct jsonrpc *, struct jsonrpc_msg **);
int jsonrpc_transact_block(struct jsonrpc *, struct jsonrpc_msg *request,
                           struct jsonrpc_msg **replyp);

/* ------------------------------------------------------------------------
 * Reconnecting sessions.
 * ------------------------------------------------------------------------ */

/* jsonrpc_session_open() creates a session for 'name', which may be active
 * or passive; it connects (or listens) from jsonrpc_session_run().  With
 * 'retry' false an active session gives up after the first failed attempt
 * or the first lost connection (jsonrpc_session_is_alive() turns false);
 * with 'retry' true it tries for ever.  jsonrpc_session_open_unreliably()
 * wraps a connection already open (such as one a server accepted): it never
 * reconnects and dies with the connection.  jsonrpc_session_close(NULL) does
 * nothing. */
struct jsonrpc_session *jsonrpc_session_open(const char *name, bool retry);
struct jsonrpc_session *jsonrpc_session_open_unreliably(struct jsonrpc *);
void jsonrpc_session_close(struct jsonrpc_session *);

void jsonrpc_session_run(struct jsonrpc_session *);
void jsonrpc_session_wait(struct jsonrpc_session *);

/* jsonrpc_session_send() consumes 'msg'; it returns 0, or ENOTCONN if the
 * session has no connection or the connection's failure status (the message
 * is then dropped).
 * jsonrpc_session_recv() returns the next received message other than
 * "echo" traffic, or NULL; the caller owns it. */
int jsonrpc_session_send(struct jsonrpc_session *, struct jsonrpc_msg *);
struct jsonrpc_msg *jsonrpc_session_recv(struct jsonrpc_session *);
void jsonrpc_session_recv_wait(struct jsonrpc_session *);

/* jsonrpc_session_get_seqno() changes every time the session connects or
 * disconnects, so a client can tell that it must resend its state.
 * jsonrpc_session_is_alive() is false once a non-retrying session has given
 * up.  jsonrpc_session_get_status() is the status of the current
 * connection (0 if none); _get_last_error() the last connection or
 * listening error (0 if none). */
const char *jsonrpc_session_get_name(const struct jsonrpc_session *);
size_t jsonrpc_session_get_backlog(const struct jsonrpc_session *);
bool jsonrpc_session_is_alive(const struct jsonrpc_session *);
bool jsonrpc_session_is_connected(const struct jsonrpc_session *);
unsigned int jsonrpc_session_get_seqno(const struct jsonrpc_session *);
int jsonrpc_session_get_status(const struct jsonrpc_session *);
int jsonrpc_session_get_last_error(const struct jsonrpc_session *);
void jsonrpc_session_get_reconnect_stats(const struct jsonrpc_session *,
                                         struct reconnect_stats *);

/* Settings.  Times are in milliseconds.  The maximum back-off defaults to
 * 8000 (the minimum is 1000).  The probe interval defaults to 5000, or to 0
 * (no probes) for "unix:" and "punix:" sessions, whose peer cannot vanish
 * silently; 0 disables probing.  Short values are honoured as given (the
 * unit tests use tens of milliseconds); a daemon should not go below 1000. */
void jsonrpc_session_force_reconnect(struct jsonrpc_session *);
void jsonrpc_session_set_max_backoff(struct jsonrpc_session *,
                                     int max_backoff_msec);
void jsonrpc_session_set_probe_interval(struct jsonrpc_session *,
                                        int probe_interval_msec);
void jsonrpc_session_set_max_msg_size(struct jsonrpc_session *,
                                      size_t max_msg_size);

#endif /* jsonrpc.h */
