/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "jsonrpc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "json.h"
#include "fatal-signal.h"
#include "poll-loop.h"
#include "reconnect.h"
#include "stream.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(jsonrpc);

/* A raw connection. */
struct jsonrpc {
    struct stream *stream;
    char *name;
    int status;                 /* 0, a positive errno value or EOF. */

    /* Input.  'parser' may hold complete messages not yet returned after
     * jsonrpc_recv() has returned one, because one read can bring several;
     * 'input_pending' is then true, so that jsonrpc_recv_wait() does not
     * wait for the stream. */
    struct jsonx_parser *parser;
    unsigned long long int received_bytes;
    bool input_pending;

    /* Output: bytes [output_ofs, output.length) of 'output' are queued. */
    struct ds output;
    size_t output_ofs;
};

/* How much jsonrpc_recv() reads from the stream at a time, and how many
 * reads it does in one call before it lets the main loop do other work. */
#define RECV_CHUNK_SIZE 4096
#define MAX_RECV_CHUNKS 50

/* A reconnecting session. */
struct jsonrpc_session {
    char *name;
    struct reconnect *reconnect;
    struct jsonrpc *rpc;        /* The connection, if connected. */
    struct stream *stream;      /* Active mode: a connection being made. */
    struct pstream *pstream;    /* Passive mode: the listener. */
    int last_error;             /* Last connect or listen error, or 0. */
    unsigned int seqno;         /* Changes on connect and disconnect. */
    size_t max_msg_size;        /* For each new connection; 0: default. */
};

/* The id of the "echo" requests a session sends as inactivity probes, so
 * that it can recognize the replies and keep them to itself. */
#define PROBE_ID "echo"

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

static struct jsonrpc_msg *msg_create(enum jsonrpc_msg_type, const char *method,
                                      json_t *params, json_t *result,
                                      json_t *error, json_t *id);
static json_t *msg_build_json(const struct jsonrpc_msg *);
static void jsonrpc_log_msg(const struct jsonrpc *, const char *verb,
                            const struct jsonrpc_msg *);
static void jsonrpc_fail(struct jsonrpc *, int error);
static int jsonrpc_recv_parsed(struct jsonrpc *, json_t *,
                               struct jsonrpc_msg **);
static void session_connect(struct jsonrpc_session *);
static void session_disconnect(struct jsonrpc_session *);
static void session_accept(struct jsonrpc_session *);
static void session_set_rpc(struct jsonrpc_session *, struct jsonrpc *);
static bool session_handle_echo(struct jsonrpc_session *,
                                struct jsonrpc_msg *);

/* ------------------------------------------------------------------------
 * Messages.
 * ------------------------------------------------------------------------ */

/* Returns a new request for 'method' with 'params' (consumed; NULL means an
 * empty array) and a fresh integer id.  If 'idp' is nonnull, stores in it a
 * new reference to the id, which the caller must json_decref(). */
struct jsonrpc_msg *
jsonrpc_create_request(const char *method, json_t *params, json_t **idp)
{
    static unsigned long long int next_id;
    json_t *id;

    id = json_integer(__atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED));
    if (idp) {
        *idp = json_incref(id);
    }
    return msg_create(JSONRPC_REQUEST, method, params, NULL, NULL, id);
}

/* Returns a new notification for 'method' with 'params' (consumed; NULL
 * means an empty array). */
struct jsonrpc_msg *
jsonrpc_create_notify(const char *method, json_t *params)
{
    return msg_create(JSONRPC_NOTIFY, method, params, NULL, NULL, NULL);
}

/* Returns a new reply carrying 'result' (consumed) to the request whose id
 * is 'id' (borrowed). */
struct jsonrpc_msg *
jsonrpc_create_reply(json_t *result, const json_t *id)
{
    return msg_create(JSONRPC_REPLY, NULL, NULL, result, NULL,
                      json_incref((json_t *) id));
}

/* Returns a new error reply carrying 'error' (consumed) to the request
 * whose id is 'id' (borrowed). */
struct jsonrpc_msg *
jsonrpc_create_error(json_t *error, const json_t *id)
{
    return msg_create(JSONRPC_ERROR, NULL, NULL, NULL, error,
                      json_incref((json_t *) id));
}

/* Returns a deep copy of 'msg'. */
struct jsonrpc_msg *
jsonrpc_msg_clone(const struct jsonrpc_msg *msg)
{
    return msg_create(msg->type, msg->method,
                      json_deep_copy(msg->params),
                      json_deep_copy(msg->result),
                      json_deep_copy(msg->error),
                      json_deep_copy(msg->id));
}

/* Frees 'msg' and releases the JSON values it holds.  Does nothing if 'msg'
 * is NULL. */
void
jsonrpc_msg_destroy(struct jsonrpc_msg *msg)
{
    if (msg) {
        free(msg->method);
        json_decref(msg->params);
        json_decref(msg->result);
        json_decref(msg->error);
        json_decref(msg->id);
        free(msg);
    }
}

/* Returns the name of 'type', for messages: "request", "notification",
 * "reply" or "error". */
const char *
jsonrpc_msg_type_to_string(enum jsonrpc_msg_type type)
{
    switch (type) {
    case JSONRPC_REQUEST:
        return "request";
    case JSONRPC_NOTIFY:
        return "notification";
    case JSONRPC_REPLY:
        return "reply";
    case JSONRPC_ERROR:
        return "error";
    }
    return "(unknown message type)";
}

/* Checks that the members of 'msg' fit its type: a request has a method,
 * an array of params and a non-null id; a notification the same but no id;
 * a reply a result and an id; an error an error and an id; none has
 * members its type does not use.  Returns NULL if 'msg' is valid, otherwise
 * an error message the caller must free(). */
char *
jsonrpc_msg_is_valid(const struct jsonrpc_msg *msg)
{
    const char *type = jsonrpc_msg_type_to_string(msg->type);
    bool wants_method = (msg->type == JSONRPC_REQUEST
                         || msg->type == JSONRPC_NOTIFY);

    if (wants_method) {
        if (!msg->method) {
            return xasprintf("%s has no \"method\"", type);
        }
        if (!json_is_array(msg->params)) {
            return xasprintf("%s \"params\" is not a JSON array", type);
        }
    } else if (msg->method) {
        return xasprintf("%s must not have \"method\"", type);
    } else if (msg->params) {
        return xasprintf("%s must not have \"params\"", type);
    }

    if (msg->type == JSONRPC_REPLY) {
        if (!msg->result) {
            return xasprintf("%s has no \"result\"", type);
        }
    } else if (msg->result) {
        return xasprintf("%s must not have \"result\"", type);
    }

    if (msg->type == JSONRPC_ERROR) {
        if (!msg->error || json_is_null(msg->error)) {
            return xasprintf("%s has no \"error\"", type);
        }
    } else if (msg->error) {
        return xasprintf("%s must not have \"error\"", type);
    }

    if (msg->type == JSONRPC_NOTIFY) {
        if (msg->id && !json_is_null(msg->id)) {
            return xasprintf("%s must not have a non-null \"id\"", type);
        }
    } else if (!msg->id) {
        return xasprintf("%s has no \"id\"", type);
    } else if (msg->type == JSONRPC_REQUEST && json_is_null(msg->id)) {
        return xasprintf("%s has null \"id\"", type);
    }
    return NULL;
}

/* Converts 'json' (consumed) into a message.  On success stores the new
 * message in '*msgp' and returns NULL.  On failure stores NULL in '*msgp'
 * and returns an error message the caller must free().
 *
 * The message's kind comes from its members: a non-null "error" makes an
 * error reply; otherwise "result" makes a reply; otherwise "method" makes a
 * request, or a notification if "id" is missing or null.  Members other
 * than "method", "params", "result", "error" and "id" are rejected, and so
 * are members with the wrong type or the wrong kind of message. */
char *
jsonrpc_msg_from_json(json_t *json, struct jsonrpc_msg **msgp)
{
    static const char *const known_members[] = {
        "method", "params", "result", "error", "id",
    };
    json_t *method, *params, *result, *error, *id;
    enum jsonrpc_msg_type type;
    struct jsonrpc_msg *msg;
    const char *key;
    json_t *value;
    char *problem;

    *msgp = NULL;
    if (!json_is_object(json)) {
        problem = xasprintf("message is not a JSON object");
        goto exit;
    }

    json_object_foreach (json, key, value) {
        bool known = false;

        for (size_t i = 0; i < ARRAY_SIZE(known_members); i++) {
            if (!strcmp(key, known_members[i])) {
                known = true;
                break;
            }
        }
        if (!known) {
            problem = xasprintf("message has unexpected member \"%s\"", key);
            goto exit;
        }
    }

    method = json_object_get(json, "method");
    params = json_object_get(json, "params");
    result = json_object_get(json, "result");
    error = json_object_get(json, "error");
    id = json_object_get(json, "id");

    if (method && !json_is_string(method)) {
        problem = xasprintf("\"method\" is not a JSON string");
        goto exit;
    }

    if (error && !json_is_null(error)) {
        type = JSONRPC_ERROR;
        if (json_is_null(result)) {
            result = NULL;
        }
    } else if (result) {
        type = JSONRPC_REPLY;
        error = NULL;
    } else if (method) {
        type = id && !json_is_null(id) ? JSONRPC_REQUEST : JSONRPC_NOTIFY;
        if (type == JSONRPC_NOTIFY) {
            id = NULL;
        }
        /* "error": null on a request is harmless noise. */
        error = NULL;
    } else {
        problem = xasprintf("message is not a JSON-RPC request, "
                            "notification, reply or error");
        goto exit;
    }

    msg = xzalloc(sizeof *msg);
    msg->type = type;
    msg->method = method ? xstrdup(json_string_value(method)) : NULL;
    msg->params = json_incref(params);
    msg->result = json_incref(result);
    msg->error = json_incref(error);
    msg->id = json_incref(id);

    problem = jsonrpc_msg_is_valid(msg);
    if (problem) {
        jsonrpc_msg_destroy(msg);
    } else {
        *msgp = msg;
    }

exit:
    json_decref(json);
    return problem;
}

/* Converts 'msg' (consumed) into a new JSON object in JSON-RPC 1.0 form:
 * "method", "params", "id" for requests and notifications (a
 * notification's id is null); "result", "error", "id" for replies and
 * errors, the unused one of "result" and "error" being null. */
json_t *
jsonrpc_msg_to_json(struct jsonrpc_msg *msg)
{
    json_t *json = msg_build_json(msg);

    jsonrpc_msg_destroy(msg);
    return json;
}

/* Returns 'msg' (not consumed) as compact JSON text, which the caller must
 * free(). */
char *
jsonrpc_msg_to_string(const struct jsonrpc_msg *msg)
{
    json_t *json = msg_build_json(msg);
    char *s = jsonx_to_string(json, 0);

    json_decref(json);
    return s;
}

/* ------------------------------------------------------------------------
 * Raw connections.
 * ------------------------------------------------------------------------ */

/* Returns a new connection that sends and receives messages over 'stream',
 * of which it takes ownership.  'stream' may still be connecting. */
struct jsonrpc *
jsonrpc_open(struct stream *stream)
{
    struct jsonrpc *rpc = xzalloc(sizeof *rpc);

    util_assert(stream);
    rpc->stream = stream;
    rpc->name = xstrdup(stream_get_name(stream));
    rpc->parser = jsonx_parser_create(JSONRPC_DEFAULT_MAX_MSG_SIZE,
                                      JSONRPC_MAX_DEPTH);
    ds_init(&rpc->output);
    return rpc;
}

/* Closes 'rpc' and its stream, discarding any output not yet sent.  Does
 * nothing if 'rpc' is NULL. */
void
jsonrpc_close(struct jsonrpc *rpc)
{
    if (rpc) {
        stream_close(rpc->stream);
        jsonx_parser_destroy(rpc->parser);
        ds_destroy(&rpc->output);
        free(rpc->name);
        free(rpc);
    }
}

/* Writes as much of the queued output of 'rpc' as its stream accepts
 * without blocking, and does the stream's own background work. */
void
jsonrpc_run(struct jsonrpc *rpc)
{
    if (rpc->status) {
        return;
    }

    stream_run(rpc->stream);
    while (rpc->output_ofs < rpc->output.length) {
        ssize_t n = stream_send(rpc->stream,
                                rpc->output.string + rpc->output_ofs,
                                rpc->output.length - rpc->output_ofs);
        if (n > 0) {
            rpc->output_ofs += n;
        } else {
            if (n != -EAGAIN) {
                VLOG_WARN_RL(&rl, "%s: send error: %s", rpc->name,
                             util_strerror(-n));
                jsonrpc_fail(rpc, -n);
            }
            break;
        }
    }

    if (rpc->output_ofs >= rpc->output.length) {
        /* Everything went: start the buffer afresh rather than let it grow.
         * A connection that once sent a huge message gives the memory back
         * too. */
        if (rpc->output.allocated > 2 * RECV_CHUNK_SIZE * MAX_RECV_CHUNKS) {
            ds_destroy(&rpc->output);
        }
        ds_clear(&rpc->output);
        rpc->output_ofs = 0;
    }
}

/* Makes poll_block() wake when jsonrpc_run() has work: when the stream
 * needs attention, or when queued output can be written. */
void
jsonrpc_wait(struct jsonrpc *rpc)
{
    if (!rpc->status) {
        stream_run_wait(rpc->stream);
        if (jsonrpc_get_backlog(rpc)) {
            stream_send_wait(rpc->stream);
        }
    }
}

/* Returns the name of the stream of 'rpc', e.g. "unix:/run/x.ctl". */
const char *
jsonrpc_get_name(const struct jsonrpc *rpc)
{
    return rpc->name;
}

/* Returns 0 if 'rpc' is healthy, otherwise EOF or the positive errno value
 * that ended it. */
int
jsonrpc_get_status(const struct jsonrpc *rpc)
{
    return rpc->status;
}

/* Returns the number of bytes queued on 'rpc' and not yet written to its
 * stream. */
size_t
jsonrpc_get_backlog(const struct jsonrpc *rpc)
{
    return rpc->status ? 0 : rpc->output.length - rpc->output_ofs;
}

/* Returns the number of bytes 'rpc' has received so far. */
unsigned long long int
jsonrpc_get_received_bytes(const struct jsonrpc *rpc)
{
    return rpc->received_bytes;
}

/* Sets the largest message 'rpc' will receive to 'max_msg_size' bytes of
 * JSON text (0 for JSONRPC_DEFAULT_MAX_MSG_SIZE).  A larger message makes
 * jsonrpc_recv() fail with EMSGSIZE. */
void
jsonrpc_set_max_msg_size(struct jsonrpc *rpc, size_t max_msg_size)
{
    jsonx_parser_set_max_size(rpc->parser, (max_msg_size ? max_msg_size
                                            : JSONRPC_DEFAULT_MAX_MSG_SIZE));
}

/* Queues 'msg' (consumed) for sending on 'rpc' and writes what it can at
 * once.  Returns 0 if the message was queued, otherwise the status of the
 * failed connection (the message is then dropped).  A message is never
 * refused for being large: the caller watches jsonrpc_get_backlog(). */
int
jsonrpc_send(struct jsonrpc *rpc, struct jsonrpc_msg *msg)
{
    json_t *json;

    if (rpc->status) {
        jsonrpc_msg_destroy(msg);
        return rpc->status;
    }

    jsonrpc_log_msg(rpc, "send", msg);
    json = jsonrpc_msg_to_json(msg);
    jsonx_to_ds(json, 0, &rpc->output);
    json_decref(json);

    jsonrpc_run(rpc);
    return rpc->status;
}

/* Queues 'length' bytes of 'json', one message already serialized, on
 * 'rpc' and tries to write it at once.  Returns 0 or the connection's
 * failure status. */
int
jsonrpc_send_serialized(struct jsonrpc *rpc, const char *json, size_t length)
{
    if (rpc->status) {
        return rpc->status;
    }
    if (VLOG_IS_DBG_ENABLED()) {
        VLOG_DBG("%s: send serialized: %.*s", rpc->name, (int) length, json);
    }
    ds_put_buffer(&rpc->output, json, length);
    jsonrpc_run(rpc);
    return rpc->status;
}

/* Receives the next message on 'rpc' if a complete one is available.
 * Returns 0 and stores the message (which the caller owns) in '*msgp', or
 * stores NULL and returns EAGAIN if no complete message has arrived yet,
 * EOF if the peer closed the connection (even in the middle of a message),
 * or an error: EPROTO for a malformed message, EMSGSIZE for one too large,
 * otherwise the stream's errno value.  After EOF or an error, 'rpc' is
 * dead: later calls return the same status. */
int
jsonrpc_recv(struct jsonrpc *rpc, struct jsonrpc_msg **msgp)
{
    *msgp = NULL;
    if (rpc->status) {
        return rpc->status;
    }

    for (int i = 0; i < MAX_RECV_CHUNKS; ) {
        char buffer[RECV_CHUNK_SIZE];
        json_t *json;
        ssize_t n;
        int error;

        error = jsonx_parser_next(rpc->parser, &json);
        if (!error) {
            rpc->input_pending = true;
            return jsonrpc_recv_parsed(rpc, json, msgp);
        } else if (error != EAGAIN) {
            VLOG_WARN_RL(&rl, "%s: error parsing stream: %s", rpc->name,
                         jsonx_parser_get_error(rpc->parser));
            jsonrpc_fail(rpc, error);
            return error;
        }

        /* The parser needs more input. */
        n = stream_recv(rpc->stream, buffer, sizeof buffer);
        if (n > 0) {
            rpc->received_bytes += n;
            jsonx_parser_feed(rpc->parser, buffer, n);
            i++;
        } else if (n == 0) {
            if (!jsonx_parser_is_idle(rpc->parser)) {
                VLOG_WARN_RL(&rl, "%s: connection closed in the middle of "
                             "a message", rpc->name);
            } else {
                VLOG_DBG("%s: connection closed by peer", rpc->name);
            }
            jsonrpc_fail(rpc, EOF);
            return EOF;
        } else if (n == -EAGAIN) {
            rpc->input_pending = false;
            return EAGAIN;
        } else {
            VLOG_WARN_RL(&rl, "%s: receive error: %s", rpc->name,
                         util_strerror(-n));
            jsonrpc_fail(rpc, -n);
            return rpc->status;
        }
    }

    /* Enough for one call.  The last read may have completed a message that
     * now sits in the parser with nothing left on the stream, so the
     * caller's jsonrpc_recv_wait() must not wait for the stream: mark input
     * pending so that it wakes at once and the next call finds the
     * message. */
    rpc->input_pending = true;
    return EAGAIN;
}

/* Makes poll_block() wake when jsonrpc_recv() has something to return: a
 * message, or the connection's failure. */
void
jsonrpc_recv_wait(struct jsonrpc *rpc)
{
    if (rpc->status || rpc->input_pending) {
        poll_immediate_wake();
    } else {
        stream_recv_wait(rpc->stream);
    }
}

/* Sends 'msg' (consumed) on 'rpc' and waits until all the output queued on
 * 'rpc' has been written.  Returns 0 or the connection's failure status. */
int
jsonrpc_send_block(struct jsonrpc *rpc, struct jsonrpc_msg *msg)
{
    int error = jsonrpc_send(rpc, msg);

    while (!error && jsonrpc_get_backlog(rpc)) {
        jsonrpc_wait(rpc);
        fatal_signal_wait();
        poll_block();
        fatal_signal_run();
        jsonrpc_run(rpc);
        error = rpc->status;
    }
    return error;
}

/* Waits until a message arrives on 'rpc' or the connection fails, writing
 * queued output meanwhile.  Returns 0 with the message in '*msgp', or EOF
 * or an error with NULL in '*msgp'. */
int
jsonrpc_recv_block(struct jsonrpc *rpc, struct jsonrpc_msg **msgp)
{
    for (;;) {
        int error = jsonrpc_recv(rpc, msgp);

        if (error != EAGAIN) {
            return error;
        }
        jsonrpc_run(rpc);
        jsonrpc_wait(rpc);
        jsonrpc_recv_wait(rpc);
        fatal_signal_wait();
        poll_block();
        fatal_signal_run();
    }
}

/* Sends 'request' (consumed) on 'rpc' and waits for the reply or error
 * with the same id.  Returns 0 and stores that reply in '*replyp' (the
 * caller owns it), or returns EOF or an error and stores NULL.
 *
 * While it waits it answers "echo" requests, so that a peer probing the
 * connection does not give up on it, and it discards (logging them at DBG
 * level) every other message, including notifications. */
int
jsonrpc_transact_block(struct jsonrpc *rpc, struct jsonrpc_msg *request,
                       struct jsonrpc_msg **replyp)
{
    json_t *id = json_incref(request->id);
    int error;

    *replyp = NULL;
    error = jsonrpc_send_block(rpc, request);
    while (!error) {
        struct jsonrpc_msg *msg;

        error = jsonrpc_recv_block(rpc, &msg);
        if (error) {
            break;
        }

        if ((msg->type == JSONRPC_REPLY || msg->type == JSONRPC_ERROR)
            && json_equal(msg->id, id)) {
            *replyp = msg;
            break;
        } else if (msg->type == JSONRPC_REQUEST
                   && !strcmp(msg->method, "echo")) {
            error = jsonrpc_send(rpc, jsonrpc_create_reply(
                                     json_incref(msg->params), msg->id));
        } else {
            VLOG_DBG("%s: discarding %s received while waiting for a reply",
                     rpc->name, jsonrpc_msg_type_to_string(msg->type));
        }
        jsonrpc_msg_destroy(msg);
    }
    json_decref(id);
    return error;
}

/* ------------------------------------------------------------------------
 * Reconnecting sessions.
 * ------------------------------------------------------------------------ */

/* Creates and returns a session for 'name', an active ("unix:", "tcp:",
 * "ssl:") or passive ("punix:", "ptcp:", "pssl:") stream name.  Nothing
 * happens until jsonrpc_session_run(), which connects or starts listening.
 *
 * An active session with 'retry' false makes one attempt: when it fails,
 * or when the connection it made ends, the session is dead
 * (jsonrpc_session_is_alive() returns false).  With 'retry' true it tries
 * again for ever, with back-off.  A passive session always listens again.
 *
 * A "tcp:" or "ssl:" name without a port means JSONRPC_SESSION_DEFAULT_PORT
 * (and likewise for "ptcp:" and "pssl:").
 *
 * The probe interval is RECONNECT_DEFAULT_PROBE_INTERVAL, except for Unix
 * domain sockets, which get none: a local peer cannot vanish without the
 * kernel closing the socket. */
struct jsonrpc_session *
jsonrpc_session_open(const char *name, bool retry)
{
    struct jsonrpc_session *s = xzalloc(sizeof *s);
    long long int now = time_msec();
    bool passive = pstream_verify_name(name) == 0;

    s->name = xstrdup(name);
    s->reconnect = reconnect_create(now);
    reconnect_set_name(s->reconnect, name);
    reconnect_set_passive(s->reconnect, passive, now);
    if (!retry && !passive) {
        reconnect_set_max_tries(s->reconnect, 1);
    }
    if (!stream_or_pstream_needs_probes(name)) {
        reconnect_set_probe_interval(s->reconnect, 0);
    }
    reconnect_enable(s->reconnect, now);
    return s;
}

/* Creates and returns a session around 'rpc', a connection already made
 * (typically one a server accepted), of which it takes ownership.  The
 * session never reconnects: when 'rpc' fails, the session is dead.  Its
 * state changes are logged at DBG level only. */
struct jsonrpc_session *
jsonrpc_session_open_unreliably(struct jsonrpc *rpc)
{
    struct jsonrpc_session *s = xzalloc(sizeof *s);
    long long int now = time_msec();
    const char *name = jsonrpc_get_name(rpc);

    s->name = xstrdup(name);
    s->reconnect = reconnect_create(now);
    reconnect_set_name(s->reconnect, name);
    reconnect_set_quiet(s->reconnect, true);
    if (!stream_or_pstream_needs_probes(name)) {
        reconnect_set_probe_interval(s->reconnect, 0);
    }
    reconnect_set_max_tries(s->reconnect, 0);
    reconnect_connected(s->reconnect, now);
    s->rpc = rpc;
    s->seqno = 1;
    return s;
}

/* Closes 'session', its connection and its listener, and frees it.  Does
 * nothing if 'session' is NULL. */
void
jsonrpc_session_close(struct jsonrpc_session *s)
{
    if (s) {
        jsonrpc_close(s->rpc);
        stream_close(s->stream);
        pstream_close(s->pstream);
        reconnect_destroy(s->reconnect);
        free(s->name);
        free(s);
    }
}

/* Does the work 's' has to do now: accepts a connection (passive mode),
 * completes one being made, writes queued output, notices a failed
 * connection, and carries out what the reconnect state machine asks for:
 * connecting, probing with an "echo" request, or dropping a connection
 * that did not answer a probe. */
void
jsonrpc_session_run(struct jsonrpc_session *s)
{
    long long int now;

    if (s->pstream) {
        session_accept(s);
    }

    now = time_msec();
    if (s->rpc) {
        int error;

        jsonrpc_run(s->rpc);
        error = jsonrpc_get_status(s->rpc);
        if (error) {
            reconnect_disconnected(s->reconnect, now, error);
            session_disconnect(s);
        }
    } else if (s->stream) {
        int error;

        stream_run(s->stream);
        error = stream_connect(s->stream);
        if (!error) {
            reconnect_connected(s->reconnect, now);
            session_set_rpc(s, jsonrpc_open(s->stream));
            s->stream = NULL;
        } else if (error != EAGAIN) {
            reconnect_connect_failed(s->reconnect, now, error);
            stream_close(s->stream);
            s->stream = NULL;
            s->last_error = error;
        }
    }

    switch (reconnect_run(s->reconnect, now)) {
    case RECONNECT_CONNECT:
        session_connect(s);
        break;

    case RECONNECT_DISCONNECT:
        reconnect_disconnected(s->reconnect, now, 0);
        session_disconnect(s);
        break;

    case RECONNECT_PROBE:
        if (s->rpc) {
            json_t *id = json_string(PROBE_ID);
            struct jsonrpc_msg *probe;

            probe = msg_create(JSONRPC_REQUEST, "echo", json_array(), NULL,
                               NULL, id);
            jsonrpc_send(s->rpc, probe);
        }
        break;

    case RECONNECT_NONE:
    default:
        break;
    }
}

/* Makes poll_block() wake when jsonrpc_session_run() has work to do. */
void
jsonrpc_session_wait(struct jsonrpc_session *s)
{
    if (s->rpc) {
        jsonrpc_wait(s->rpc);
        if (jsonrpc_get_status(s->rpc)) {
            poll_immediate_wake();
        }
    } else if (s->stream) {
        stream_run_wait(s->stream);
        stream_connect_wait(s->stream);
    }
    if (s->pstream) {
        pstream_wait(s->pstream);
    }
    reconnect_wait(s->reconnect, time_msec());
}

/* Queues 'msg' (consumed) for sending on the connection of 's'.  Returns 0,
 * ENOTCONN if 's' has no connection, or the failure status of the
 * connection; in the last two cases the message is dropped. */
int
jsonrpc_session_send(struct jsonrpc_session *s, struct jsonrpc_msg *msg)
{
    if (!s->rpc) {
        jsonrpc_msg_destroy(msg);
        return ENOTCONN;
    }
    return jsonrpc_send(s->rpc, msg);
}

/* Returns the next message received on 's', which the caller owns, or NULL
 * if none is available (or 's' is not connected).  Answers "echo" requests
 * and swallows the replies to its own probes on the way.  Anything
 * received counts as a sign of life for the inactivity probe. */
struct jsonrpc_msg *
jsonrpc_session_recv(struct jsonrpc_session *s)
{
    while (s->rpc) {
        unsigned long long int received = jsonrpc_get_received_bytes(s->rpc);
        struct jsonrpc_msg *msg;
        int error;

        error = jsonrpc_recv(s->rpc, &msg);
        if (received != jsonrpc_get_received_bytes(s->rpc)) {
            reconnect_activity(s->reconnect, time_msec());
        }
        if (error) {
            /* On failure, jsonrpc_session_run() will notice and clean up;
             * jsonrpc_session_recv_wait() wakes it up. */
            break;
        }
        if (!session_handle_echo(s, msg)) {
            return msg;
        }
    }
    return NULL;
}

/* Makes poll_block() wake when jsonrpc_session_recv() may have a message
 * (or the connection has failed). */
void
jsonrpc_session_recv_wait(struct jsonrpc_session *s)
{
    if (s->rpc) {
        jsonrpc_recv_wait(s->rpc);
    }
}

/* Returns the name 's' was opened with. */
const char *
jsonrpc_session_get_name(const struct jsonrpc_session *s)
{
    return s->name;
}

/* Returns the number of bytes queued on the connection of 's' and not yet
 * sent, 0 if it has no connection. */
size_t
jsonrpc_session_get_backlog(const struct jsonrpc_session *s)
{
    return s->rpc ? jsonrpc_get_backlog(s->rpc) : 0;
}

/* Returns true if 's' is connected, connecting, listening, or waiting to
 * try again; false once it has given up (see jsonrpc_session_open()). */
bool
jsonrpc_session_is_alive(const struct jsonrpc_session *s)
{
    return (s->rpc || s->stream || s->pstream
            || reconnect_is_enabled(s->reconnect));
}

/* Returns true if 's' has a working connection. */
bool
jsonrpc_session_is_connected(const struct jsonrpc_session *s)
{
    return s->rpc != NULL;
}

/* Returns a number that changes every time 's' connects or disconnects.  A
 * client compares it with the value it saw last to learn that it must
 * send its requests again on a new connection. */
unsigned int
jsonrpc_session_get_seqno(const struct jsonrpc_session *s)
{
    return s->seqno;
}

/* Returns the status of the connection of 's' (see jsonrpc_get_status()),
 * or 0 if it has none. */
int
jsonrpc_session_get_status(const struct jsonrpc_session *s)
{
    return s->rpc ? jsonrpc_get_status(s->rpc) : 0;
}

/* Returns the error of the last failed attempt to connect or listen, or 0
 * if there has been none. */
int
jsonrpc_session_get_last_error(const struct jsonrpc_session *s)
{
    return s->last_error;
}

/* Fills in 'stats' with the statistics of the state machine of 's'. */
void
jsonrpc_session_get_reconnect_stats(const struct jsonrpc_session *s,
                                    struct reconnect_stats *stats)
{
    reconnect_get_stats(s->reconnect, time_msec(), stats);
}

/* Drops the connection of 's', if it has one, and makes a new one at
 * once. */
void
jsonrpc_session_force_reconnect(struct jsonrpc_session *s)
{
    reconnect_force_reconnect(s->reconnect, time_msec());
}

/* Sets the longest wait between connection attempts of 's' to
 * 'max_backoff_msec' (the shortest stays RECONNECT_DEFAULT_MIN_BACKOFF,
 * or 'max_backoff_msec' if that is shorter). */
void
jsonrpc_session_set_max_backoff(struct jsonrpc_session *s,
                                int max_backoff_msec)
{
    int min_backoff = MIN(RECONNECT_DEFAULT_MIN_BACKOFF, max_backoff_msec);

    reconnect_set_backoff(s->reconnect, min_backoff, max_backoff_msec);
}

/* Sets the inactivity probe interval of 's' to 'probe_interval_msec'; 0
 * disables probing. */
void
jsonrpc_session_set_probe_interval(struct jsonrpc_session *s,
                                   int probe_interval_msec)
{
    reconnect_set_probe_interval(s->reconnect, probe_interval_msec);
}

/* Sets the largest message 's' accepts, on its current connection and on
 * every later one (see jsonrpc_set_max_msg_size()). */
void
jsonrpc_session_set_max_msg_size(struct jsonrpc_session *s,
                                 size_t max_msg_size)
{
    s->max_msg_size = max_msg_size;
    if (s->rpc) {
        jsonrpc_set_max_msg_size(s->rpc, max_msg_size);
    }
}

/* ------------------------------------------------------------------------
 * Message helpers.
 * ------------------------------------------------------------------------ */

static struct jsonrpc_msg *
msg_create(enum jsonrpc_msg_type type, const char *method, json_t *params,
           json_t *result, json_t *error, json_t *id)
{
    struct jsonrpc_msg *msg = xzalloc(sizeof *msg);

    msg->type = type;
    msg->method = method ? xstrdup(method) : NULL;
    if (!params && (type == JSONRPC_REQUEST || type == JSONRPC_NOTIFY)) {
        params = json_array();
    }
    msg->params = params;
    msg->result = result;
    msg->error = error;
    msg->id = id;
    return msg;
}

/* Returns a new JSON object for 'msg', which it leaves alone. */
static json_t *
msg_build_json(const struct jsonrpc_msg *msg)
{
    json_t *json = json_object();

    if (msg->method) {
        json_object_set_new(json, "method", jsonx_string(msg->method));
    }
    if (msg->params) {
        json_object_set(json, "params", msg->params);
    }
    if (msg->type == JSONRPC_REPLY || msg->type == JSONRPC_ERROR) {
        json_object_set_new(json, "result", (msg->result
                                             ? json_incref(msg->result)
                                             : json_null()));
        json_object_set_new(json, "error", (msg->error
                                            ? json_incref(msg->error)
                                            : json_null()));
    }
    json_object_set_new(json, "id", (msg->id
                                     ? json_incref(msg->id)
                                     : json_null()));
    return json;
}

/* ------------------------------------------------------------------------
 * Connection helpers.
 * ------------------------------------------------------------------------ */

/* Logs 'msg' at DBG level, if enabled, as 'verb' ("send" or "received"). */
static void
jsonrpc_log_msg(const struct jsonrpc *rpc, const char *verb,
                const struct jsonrpc_msg *msg)
{
    if (VLOG_IS_DBG_ENABLED()) {
        char *s = jsonrpc_msg_to_string(msg);

        VLOG_DBG("%s: %s %s: %s", rpc->name, verb,
                 jsonrpc_msg_type_to_string(msg->type), s);
        free(s);
    }
}

/* Marks 'rpc' as failed with 'error' (EOF or a positive errno value), if it
 * has not failed already, and drops its queued output. */
static void
jsonrpc_fail(struct jsonrpc *rpc, int error)
{
    if (!rpc->status) {
        rpc->status = error;
        ds_destroy(&rpc->output);
        ds_init(&rpc->output);
        rpc->output_ofs = 0;
    }
}

/* Turns 'json' (consumed), a value just parsed on 'rpc', into a message in
 * '*msgp'.  Returns 0, or EPROTO if it is not a valid message. */
static int
jsonrpc_recv_parsed(struct jsonrpc *rpc, json_t *json,
                    struct jsonrpc_msg **msgp)
{
    char *problem = jsonrpc_msg_from_json(json, msgp);

    if (problem) {
        VLOG_WARN_RL(&rl, "%s: received bad JSON-RPC message: %s",
                     rpc->name, problem);
        free(problem);
        jsonrpc_fail(rpc, EPROTO);
        return EPROTO;
    }
    jsonrpc_log_msg(rpc, "received", *msgp);
    return 0;
}

/* ------------------------------------------------------------------------
 * Session helpers.
 * ------------------------------------------------------------------------ */

/* Starts connecting (active mode) or listening (passive mode), as the
 * reconnect state machine asked. */
static void
session_connect(struct jsonrpc_session *s)
{
    long long int now = time_msec();
    int error;

    /* The state machine hears of the attempt before its outcome, so that a
     * failure at once counts as a failed attempt and lengthens the
     * back-off. */
    session_disconnect(s);
    if (!reconnect_is_passive(s->reconnect)) {
        reconnect_connecting(s->reconnect, now);
        error = stream_open_with_default_port(s->name,
                                              JSONRPC_SESSION_DEFAULT_PORT,
                                              &s->stream);
        if (error) {
            reconnect_connect_failed(s->reconnect, now, error);
        }
    } else {
        reconnect_listening(s->reconnect, now);
        error = (s->pstream ? 0
                 : pstream_open_with_default_port(s->name,
                                                  JSONRPC_SESSION_DEFAULT_PORT,
                                                  &s->pstream));
        if (error) {
            reconnect_listen_error(s->reconnect, now, error);
        }
    }
    if (error) {
        s->last_error = error;
    }
}

/* Drops the connection of 's', or the attempt to make one.  A passive
 * session keeps listening. */
static void
session_disconnect(struct jsonrpc_session *s)
{
    if (s->rpc) {
        jsonrpc_close(s->rpc);
        s->rpc = NULL;
        s->seqno++;
    } else if (s->stream) {
        stream_close(s->stream);
        s->stream = NULL;
    }
}

/* Passive mode: accepts a connection if one is waiting.  A new connection
 * replaces the current one, as in Open vSwitch: the newest client is the
 * one that is still there. */
static void
session_accept(struct jsonrpc_session *s)
{
    struct stream *stream;
    long long int now;
    int error;

    error = pstream_accept(s->pstream, &stream);
    if (error == EAGAIN) {
        return;
    }

    now = time_msec();
    if (error) {
        /* Listen again from scratch, after a back-off if that fails too.
         * A connection already made carries on; the listener comes back
         * when it ends. */
        VLOG_WARN_RL(&rl, "%s: accept failed: %s", s->name,
                     util_strerror(error));
        if (!s->rpc) {
            reconnect_listen_error(s->reconnect, now, error);
        }
        pstream_close(s->pstream);
        s->pstream = NULL;
        s->last_error = error;
        return;
    }

    if (s->rpc) {
        VLOG_INFO("%s: new connection replacing active connection",
                  s->name);
        reconnect_disconnected(s->reconnect, now, 0);
        session_disconnect(s);
        reconnect_listening(s->reconnect, now);
    }
    reconnect_connected(s->reconnect, now);
    session_set_rpc(s, jsonrpc_open(stream));
}

/* Makes 'rpc', a new connection, the connection of 's'. */
static void
session_set_rpc(struct jsonrpc_session *s, struct jsonrpc *rpc)
{
    s->rpc = rpc;
    s->seqno++;
    if (s->max_msg_size) {
        jsonrpc_set_max_msg_size(rpc, s->max_msg_size);
    }
}

/* If 'msg' (received on 's') is "echo" traffic, deals with it: answers an
 * "echo" request, drops the reply to one of our probes.  Returns true if it
 * did, having freed 'msg'; false if 'msg' is for the caller. */
static bool
session_handle_echo(struct jsonrpc_session *s, struct jsonrpc_msg *msg)
{
    if (msg->type == JSONRPC_REQUEST && !strcmp(msg->method, "echo")) {
        jsonrpc_send(s->rpc, jsonrpc_create_reply(json_incref(msg->params),
                                                  msg->id));
    } else if (msg->type == JSONRPC_REPLY && json_is_string(msg->id)
               && !strcmp(json_string_value(msg->id), PROBE_ID)) {
        /* The answer to our probe: its arrival was the point. */
    } else {
        return false;
    }
    jsonrpc_msg_destroy(msg);
    return true;
}
