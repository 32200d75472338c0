/* Unit tests for lib/jsonrpc.c: messages, raw connections over real
 * "unix:" streams, and reconnecting sessions.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "dynamic-string.h"
#include "json.h"
#include "jsonrpc.h"
#include "poll-loop.h"
#include "reconnect.h"
#include "stream.h"
#include "timeval.h"
#include "util.h"

/* A private directory for each test's sockets. */
struct fixture {
    char dir[64];
    char *path;             /* dir/sock */
    char *active;           /* "unix:dir/sock" */
    char *passive;          /* "punix:dir/sock" */
};

static int
setup(void **state)
{
    struct fixture *f = xzalloc(sizeof *f);

    snprintf(f->dir, sizeof f->dir, "/tmp/test-jsonrpc.XXXXXX");
    if (!mkdtemp(f->dir)) {
        free(f);
        return -1;
    }
    f->path = xasprintf("%s/sock", f->dir);
    f->active = xasprintf("unix:%s", f->path);
    f->passive = xasprintf("punix:%s", f->path);
    *state = f;
    return 0;
}

static int
teardown(void **state)
{
    struct fixture *f = *state;

    unlink(f->path);
    rmdir(f->dir);
    free(f->path);
    free(f->active);
    free(f->passive);
    free(f);
    return 0;
}

/* Parses 'text', which must be valid JSON. */
static json_t *
parse(const char *text)
{
    json_t *json = jsonx_from_string(text, NULL);

    assert_non_null(json);
    return json;
}

/* Checks that 'msg' serializes as 'text', and destroys it. */
static void
check_msg_text(struct jsonrpc_msg *msg, const char *text)
{
    char *s = jsonrpc_msg_to_string(msg);
    json_t *json;

    assert_null(jsonrpc_msg_is_valid(msg));
    assert_string_equal(s, text);
    free(s);

    json = jsonrpc_msg_to_json(msg);
    s = jsonx_to_string(json, 0);
    assert_string_equal(s, text);
    free(s);
    json_decref(json);
}

/* ------------------------------------------------------------------------
 * Messages.
 * ------------------------------------------------------------------------ */

static void
test_msg_create(void **state DPS_UNUSED)
{
    struct jsonrpc_msg *msg, *clone;
    json_t *id, *id2;
    char *s;

    msg = jsonrpc_create_request("echo", parse("[\"a\",1]"), &id);
    assert_true(json_is_integer(id));
    s = xasprintf("{\"method\":\"echo\",\"params\":[\"a\",1],\"id\":%lld}",
                  (long long int) json_integer_value(id));
    clone = jsonrpc_msg_clone(msg);
    check_msg_text(msg, s);
    check_msg_text(clone, s);
    free(s);

    /* Ids are fresh each time. */
    jsonrpc_msg_destroy(jsonrpc_create_request("x", NULL, &id2));
    assert_false(json_equal(id, id2));
    json_decref(id2);

    check_msg_text(jsonrpc_create_notify("update", NULL),
                   "{\"method\":\"update\",\"params\":[],\"id\":null}");
    s = xasprintf("{\"result\":\"ok\",\"error\":null,\"id\":%lld}",
                  (long long int) json_integer_value(id));
    check_msg_text(jsonrpc_create_reply(json_string("ok"), id), s);
    free(s);
    json_decref(id);
}

static void
test_msg_reply_and_error(void **state DPS_UNUSED)
{
    json_t *id = json_string("abc");

    check_msg_text(jsonrpc_create_reply(json_string("ok"), id),
                   "{\"result\":\"ok\",\"error\":null,\"id\":\"abc\"}");
    check_msg_text(jsonrpc_create_error(json_string("bad"), id),
                   "{\"result\":null,\"error\":\"bad\",\"id\":\"abc\"}");
    /* The id is borrowed: still ours. */
    assert_string_equal(json_string_value(id), "abc");
    json_decref(id);

    assert_string_equal(jsonrpc_msg_type_to_string(JSONRPC_REQUEST),
                        "request");
    assert_string_equal(jsonrpc_msg_type_to_string(JSONRPC_NOTIFY),
                        "notification");
    assert_string_equal(jsonrpc_msg_type_to_string(JSONRPC_REPLY), "reply");
    assert_string_equal(jsonrpc_msg_type_to_string(JSONRPC_ERROR), "error");
    jsonrpc_msg_destroy(NULL);
}

static void
test_msg_from_json_valid(void **state DPS_UNUSED)
{
    static const struct {
        const char *text;
        enum jsonrpc_msg_type type;
        const char *canonical;
    } cases[] = {
        { "{\"id\":0,\"params\":[],\"method\":\"list-commands\"}",
          JSONRPC_REQUEST,
          "{\"method\":\"list-commands\",\"params\":[],\"id\":0}" },
        { "{\"method\":\"update\",\"params\":[null],\"id\":null}",
          JSONRPC_NOTIFY,
          "{\"method\":\"update\",\"params\":[null],\"id\":null}" },
        { "{\"method\":\"update\",\"params\":[]}",
          JSONRPC_NOTIFY,
          "{\"method\":\"update\",\"params\":[],\"id\":null}" },
        { "{\"result\":{\"a\":1},\"error\":null,\"id\":[1]}",
          JSONRPC_REPLY,
          "{\"result\":{\"a\":1},\"error\":null,\"id\":[1]}" },
        { "{\"result\":\"x\",\"id\":2}",
          JSONRPC_REPLY,
          "{\"result\":\"x\",\"error\":null,\"id\":2}" },
        { "{\"result\":null,\"error\":\"e\",\"id\":3}",
          JSONRPC_ERROR,
          "{\"result\":null,\"error\":\"e\",\"id\":3}" },
        { "{\"error\":{\"code\":1},\"id\":null}",
          JSONRPC_ERROR,
          "{\"result\":null,\"error\":{\"code\":1},\"id\":null}" },
    };

    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct jsonrpc_msg *msg;
        char *error = jsonrpc_msg_from_json(parse(cases[i].text), &msg);

        if (error) {
            fail_msg("%s: %s", cases[i].text, error);
        }
        assert_int_equal(msg->type, cases[i].type);
        check_msg_text(msg, cases[i].canonical);
    }
}

static void
test_msg_from_json_invalid(void **state DPS_UNUSED)
{
    static const struct {
        const char *text;
        const char *error;
    } cases[] = {
        { "[1]", "message is not a JSON object" },
        { "\"x\"", "message is not a JSON object" },
        { "{\"method\":\"x\",\"params\":[],\"id\":1,\"foo\":2}",
          "message has unexpected member \"foo\"" },
        { "{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":[],\"id\":1}",
          "message has unexpected member \"jsonrpc\"" },
        { "{\"result\":1,\"error\":null}", "reply has no \"id\"" },
        { "{\"error\":\"e\"}", "error has no \"id\"" },
        { "{\"method\":\"x\",\"params\":{},\"id\":1}",
          "request \"params\" is not a JSON array" },
        { "{\"method\":\"x\",\"params\":\"a\",\"id\":null}",
          "notification \"params\" is not a JSON array" },
        { "{\"method\":\"x\",\"id\":1}",
          "request \"params\" is not a JSON array" },
        { "{\"method\":1,\"params\":[],\"id\":1}",
          "\"method\" is not a JSON string" },
        { "{\"method\":null,\"params\":[],\"id\":1}",
          "\"method\" is not a JSON string" },
        { "{\"id\":1}", "message is not a JSON-RPC request, notification, "
          "reply or error" },
        { "{}", "message is not a JSON-RPC request, notification, reply "
          "or error" },
        { "{\"result\":1,\"error\":\"e\",\"id\":1}",
          "error must not have \"result\"" },
        { "{\"method\":\"x\",\"params\":[],\"result\":1,\"id\":1}",
          "reply must not have \"method\"" },
        { "{\"params\":[],\"result\":1,\"id\":1}",
          "reply must not have \"params\"" },
    };

    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct jsonrpc_msg *msg = (struct jsonrpc_msg *) 1;
        char *error = jsonrpc_msg_from_json(parse(cases[i].text), &msg);

        assert_null(msg);
        if (!error || strcmp(error, cases[i].error)) {
            fail_msg("%s: expected \"%s\", got \"%s\"", cases[i].text,
                     cases[i].error, error ? error : "(success)");
        }
        free(error);
    }
}

static void
test_msg_is_valid(void **state DPS_UNUSED)
{
    struct jsonrpc_msg *msg;
    char *error;

    /* A constructed reply with no result. */
    msg = jsonrpc_create_reply(NULL, json_null());
    error = jsonrpc_msg_is_valid(msg);
    assert_string_equal(error, "reply has no \"result\"");
    free(error);
    jsonrpc_msg_destroy(msg);

    /* A request with a null id. */
    msg = jsonrpc_create_request("x", NULL, NULL);
    json_decref(msg->id);
    msg->id = json_null();
    error = jsonrpc_msg_is_valid(msg);
    assert_string_equal(error, "request has null \"id\"");
    free(error);
    jsonrpc_msg_destroy(msg);
}

/* ------------------------------------------------------------------------
 * Raw connections.
 * ------------------------------------------------------------------------ */

/* A connected pair of raw connections: 'client' made with stream_open(),
 * 'server' accepted on a "punix:" listener. */
struct pair {
    struct jsonrpc *client;
    struct jsonrpc *server;
};

static struct stream *
connect_stream(const char *name)
{
    struct stream *stream;

    assert_int_equal(stream_open_block(stream_open(name, &stream), 5000,
                                       &stream), 0);
    return stream;
}

static void
open_pair(struct fixture *f, struct pair *p, struct stream **client_stream)
{
    struct pstream *pstream;
    struct stream *stream, *cstream;

    assert_int_equal(pstream_open(f->passive, &pstream), 0);
    cstream = connect_stream(f->active);
    assert_int_equal(pstream_accept_block(pstream, &stream), 0);
    pstream_close(pstream);

    p->server = jsonrpc_open(stream);
    if (client_stream) {
        *client_stream = cstream;
        p->client = NULL;
    } else {
        p->client = jsonrpc_open(cstream);
    }
}

static void
close_pair(struct pair *p)
{
    jsonrpc_close(p->client);
    jsonrpc_close(p->server);
}

static void
test_raw_request_reply(void **state)
{
    struct jsonrpc_msg *request, *msg;
    struct pair p;
    json_t *id;

    open_pair(*state, &p, NULL);
    assert_non_null(strstr(jsonrpc_get_name(p.client), "unix:"));

    request = jsonrpc_create_request("version", NULL, &id);
    assert_int_equal(jsonrpc_send(p.client, request), 0);

    assert_int_equal(jsonrpc_recv_block(p.server, &msg), 0);
    assert_int_equal(msg->type, JSONRPC_REQUEST);
    assert_string_equal(msg->method, "version");
    assert_true(json_equal(msg->id, id));
    assert_int_equal(jsonrpc_send(p.server,
                                  jsonrpc_create_reply(json_string("3.1.0"),
                                                       msg->id)), 0);
    jsonrpc_msg_destroy(msg);

    assert_int_equal(jsonrpc_recv_block(p.client, &msg), 0);
    assert_int_equal(msg->type, JSONRPC_REPLY);
    assert_true(json_equal(msg->id, id));
    assert_string_equal(json_string_value(msg->result), "3.1.0");
    jsonrpc_msg_destroy(msg);

    /* Nothing more. */
    assert_int_equal(jsonrpc_recv(p.client, &msg), EAGAIN);
    assert_null(msg);
    assert_int_equal(jsonrpc_get_status(p.client), 0);
    assert_true(jsonrpc_get_received_bytes(p.client) > 0);

    json_decref(id);
    close_pair(&p);
}

static void
test_raw_notification_and_error(void **state)
{
    struct jsonrpc_msg *msg;
    struct pair p;
    json_t *id;

    open_pair(*state, &p, NULL);
    assert_int_equal(jsonrpc_send_block(p.server, jsonrpc_create_notify(
                         "update", jsonx_array(1, json_integer(42)))), 0);
    id = json_integer(9);
    assert_int_equal(jsonrpc_send_block(p.server, jsonrpc_create_error(
                         json_string("no such command"), id)), 0);
    json_decref(id);

    assert_int_equal(jsonrpc_recv_block(p.client, &msg), 0);
    assert_int_equal(msg->type, JSONRPC_NOTIFY);
    assert_string_equal(msg->method, "update");
    assert_null(msg->id);
    assert_int_equal(json_integer_value(json_array_get(msg->params, 0)), 42);
    jsonrpc_msg_destroy(msg);

    assert_int_equal(jsonrpc_recv_block(p.client, &msg), 0);
    assert_int_equal(msg->type, JSONRPC_ERROR);
    assert_string_equal(json_string_value(msg->error), "no such command");
    jsonrpc_msg_destroy(msg);
    close_pair(&p);
}

/* Many messages arrive in one read; each must come out, and
 * jsonrpc_recv_wait() must not sleep while some are still buffered. */
static void
test_raw_many_in_one_read(void **state)
{
    struct jsonrpc_msg *msg;
    struct stream *raw;
    struct ds ds = DS_EMPTY_INITIALIZER;
    struct pair p;

    open_pair(*state, &p, &raw);
    for (int i = 0; i < 100; i++) {
        ds_put_format(&ds, "{\"method\":\"n\",\"params\":[%d],\"id\":null}"
                      "%s", i, i % 3 ? "" : "\n");
    }
    assert_int_equal(stream_send(raw, ds.string, ds.length), ds.length);

    for (int i = 0; i < 100; i++) {
        assert_int_equal(jsonrpc_recv_block(p.server, &msg), 0);
        assert_int_equal(json_integer_value(json_array_get(msg->params, 0)),
                         i);
        jsonrpc_msg_destroy(msg);
    }
    assert_int_equal(jsonrpc_recv(p.server, &msg), EAGAIN);

    ds_destroy(&ds);
    stream_close(raw);
    close_pair(&p);
}

/* A message that ends exactly where one jsonrpc_recv() call stops reading
 * (its read budget of 50 chunks of 4096 bytes) and leaves the stream empty:
 * jsonrpc_recv_wait() must still wake at once, or the parsed message would
 * wait for input that never comes. */
static void
test_raw_message_at_read_budget(void **state)
{
    const char prefix[] = "{\"method\":\"m\",\"params\":[\"";
    const char suffix[] = "\"],\"id\":1}";
    const size_t total = 50 * 4096;
    struct jsonrpc_msg *msg;
    struct stream *raw;
    struct ds ds = DS_EMPTY_INITIALIZER;
    size_t sent = 0;
    struct pair p;

    open_pair(*state, &p, &raw);
    ds_put_cstr(&ds, prefix);
    ds_put_char_multiple(&ds, 'a', total - strlen(prefix) - strlen(suffix));
    ds_put_cstr(&ds, suffix);
    assert_int_equal(ds.length, total);
    while (sent < ds.length) {
        ssize_t n = stream_send(raw, ds.string + sent, ds.length - sent);
        assert_true(n > 0);
        sent += n;
    }

    assert_int_equal(jsonrpc_recv(p.server, &msg), EAGAIN);
    assert_null(msg);
    jsonrpc_recv_wait(p.server);
    assert_true(poll_immediate_pending());
    poll_block();

    assert_int_equal(jsonrpc_recv(p.server, &msg), 0);
    assert_non_null(msg);
    assert_string_equal(msg->method, "m");
    jsonrpc_msg_destroy(msg);

    ds_destroy(&ds);
    stream_close(raw);
    close_pair(&p);
}

/* The peer hangs up in the middle of a message: EOF, and the connection
 * stays failed without crashing or leaking. */
static void
test_raw_eof_mid_message(void **state)
{
    static const char partial[] = "{\"method\":\"echo\",\"params\":[\"ab";
    struct jsonrpc_msg *msg;
    struct stream *raw;
    struct pair p;

    open_pair(*state, &p, &raw);
    assert_int_equal(stream_send(raw, partial, strlen(partial)),
                     strlen(partial));
    assert_int_equal(jsonrpc_recv(p.server, &msg), EAGAIN);
    stream_close(raw);

    assert_int_equal(jsonrpc_recv_block(p.server, &msg), EOF);
    assert_null(msg);
    assert_int_equal(jsonrpc_get_status(p.server), EOF);
    assert_int_equal(jsonrpc_recv(p.server, &msg), EOF);
    assert_int_equal(jsonrpc_send(p.server, jsonrpc_create_notify("x", NULL)),
                     EOF);
    assert_int_equal(jsonrpc_get_backlog(p.server), 0);
    close_pair(&p);
}

/* A clean close between messages is EOF too. */
static void
test_raw_eof_clean(void **state)
{
    struct jsonrpc_msg *msg;
    struct pair p;

    open_pair(*state, &p, NULL);
    assert_int_equal(jsonrpc_send_block(p.client,
                                        jsonrpc_create_notify("bye", NULL)),
                     0);
    jsonrpc_close(p.client);
    p.client = NULL;

    assert_int_equal(jsonrpc_recv_block(p.server, &msg), 0);
    jsonrpc_msg_destroy(msg);
    assert_int_equal(jsonrpc_recv_block(p.server, &msg), EOF);
    close_pair(&p);
}

/* Sends 'text' raw to a fresh connection and checks that the server side
 * fails with 'error'. */
static void
check_raw_bad_input(struct fixture *f, const char *text, size_t max_msg_size,
                    int error)
{
    struct jsonrpc_msg *msg;
    struct stream *raw;
    struct pair p;

    open_pair(f, &p, &raw);
    if (max_msg_size) {
        jsonrpc_set_max_msg_size(p.server, max_msg_size);
    }
    assert_int_equal(stream_send(raw, text, strlen(text)), strlen(text));
    assert_int_equal(jsonrpc_recv_block(p.server, &msg), error);
    assert_null(msg);
    assert_int_equal(jsonrpc_get_status(p.server), error);
    stream_close(raw);
    close_pair(&p);
}

static void
test_raw_bad_input(void **state)
{
    struct ds big = DS_EMPTY_INITIALIZER;

    check_raw_bad_input(*state, "hello", 0, EPROTO);
    check_raw_bad_input(*state, "{\"method\":\"x\",,}", 0, EPROTO);
    check_raw_bad_input(*state, "[\"\xff\"]", 0, EPROTO);
    check_raw_bad_input(*state, "{\"method\":\"x\",\"params\":[],\"id\":1,"
                        "\"bogus\":true}", 0, EPROTO);
    check_raw_bad_input(*state, "[1,2,3]", 0, EPROTO);

    ds_put_cstr(&big, "{\"method\":\"x\",\"params\":[\"");
    ds_put_char_multiple(&big, 'x', 5000);
    ds_put_cstr(&big, "\"],\"id\":1}");
    check_raw_bad_input(*state, ds_cstr(&big), 1000, EMSGSIZE);

    /* Deep nesting. */
    ds_clear(&big);
    ds_put_char_multiple(&big, '[', 5000);
    check_raw_bad_input(*state, ds_cstr(&big), 0, EPROTO);
    ds_destroy(&big);
}

/* A message far larger than the socket buffer goes out in pieces; the
 * backlog shows what is left, and the message arrives whole. */
static void
test_raw_large_backlog(void **state)
{
    const size_t size = 8 * 1024 * 1024;
    struct jsonrpc_msg *msg;
    size_t max_backlog = 0;
    char *payload;
    struct pair p;
    int n_received = 0;

    open_pair(*state, &p, NULL);
    payload = xmalloc(size + 1);
    memset(payload, 'z', size);
    payload[size] = '\0';

    assert_int_equal(jsonrpc_send(p.client, jsonrpc_create_notify(
                         "big", jsonx_array(1, json_string(payload)))), 0);
    assert_int_equal(jsonrpc_send(p.client, jsonrpc_create_notify(
                         "small", NULL)), 0);
    assert_true(jsonrpc_get_backlog(p.client) > 0);

    while (n_received < 2) {
        int error;

        max_backlog = MAX(max_backlog, jsonrpc_get_backlog(p.client));
        jsonrpc_run(p.client);
        error = jsonrpc_recv(p.server, &msg);
        if (!error) {
            if (n_received == 0) {
                assert_string_equal(msg->method, "big");
                assert_string_equal(
                    json_string_value(json_array_get(msg->params, 0)),
                    payload);
            } else {
                assert_string_equal(msg->method, "small");
            }
            jsonrpc_msg_destroy(msg);
            n_received++;
            continue;
        }
        assert_int_equal(error, EAGAIN);
        jsonrpc_wait(p.client);
        jsonrpc_recv_wait(p.server);
        poll_block();
    }
    assert_true(max_backlog > size / 2);
    assert_int_equal(jsonrpc_get_backlog(p.client), 0);
    assert_true(jsonrpc_get_received_bytes(p.server) > size);

    free(payload);
    close_pair(&p);
}

/* Returns a new "echo" request with id 'id' (borrowed). */
static struct jsonrpc_msg *
msg_echo_request(json_t *id)
{
    struct jsonrpc_msg *msg;

    msg = jsonrpc_create_request("echo", jsonx_array(1, json_string("hi")),
                                 NULL);
    json_decref(msg->id);
    msg->id = json_incref(id);
    return msg;
}

/* The server half of test_raw_transact_block(), in a child process: before
 * answering the request it sends a notification, an unrelated reply and an
 * "echo" request, whose answer it checks.  Exits with status 0 if all went
 * well. */
static void DPS_NO_RETURN
transact_server(struct jsonrpc *rpc)
{
    struct jsonrpc_msg *request, *msg;
    json_t *echo_id = json_string("probe-1");
    json_t *other_id = json_integer(-5);
    int error;

    error = jsonrpc_recv_block(rpc, &request);
    util_assert(!error && request->type == JSONRPC_REQUEST);

    jsonrpc_send(rpc, jsonrpc_create_notify("noise", NULL));
    jsonrpc_send(rpc, jsonrpc_create_reply(json_string("wrong"), other_id));
    jsonrpc_send(rpc, msg_echo_request(echo_id));
    error = jsonrpc_recv_block(rpc, &msg);
    util_assert(!error && msg->type == JSONRPC_REPLY);
    util_assert(json_equal(msg->id, echo_id));
    jsonrpc_msg_destroy(msg);

    error = jsonrpc_send_block(rpc, jsonrpc_create_reply(
                                   json_string("answer"), request->id));
    util_assert(!error);
    jsonrpc_msg_destroy(request);
    json_decref(echo_id);
    json_decref(other_id);
    jsonrpc_close(rpc);
    _exit(0);
}

static void
test_raw_transact_block(void **state)
{
    struct jsonrpc_msg *reply;
    struct pair p;
    int error, status;
    pid_t pid;

    open_pair(*state, &p, NULL);
    fflush(NULL);
    pid = fork();
    assert_true(pid >= 0);
    if (!pid) {
        jsonrpc_close(p.client);
        transact_server(p.server);
    }
    jsonrpc_close(p.server);
    p.server = NULL;

    assert_int_equal(jsonrpc_transact_block(
                         p.client, jsonrpc_create_request("q", NULL, NULL),
                         &reply), 0);
    assert_int_equal(reply->type, JSONRPC_REPLY);
    assert_string_equal(json_string_value(reply->result), "answer");
    jsonrpc_msg_destroy(reply);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);

    /* When the peer goes away instead of answering: EOF, no reply. */
    error = jsonrpc_transact_block(p.client,
                                   jsonrpc_create_request("q", NULL, NULL),
                                   &reply);
    assert_true(error == EOF || error == EPIPE || error == ECONNRESET);
    assert_null(reply);
    close_pair(&p);
}

/* ------------------------------------------------------------------------
 * Sessions.
 * ------------------------------------------------------------------------ */

/* Runs 's' (and, if nonnull, writes queued output on 'peer') for at most
 * 'msec' ms or until '*done' becomes true if 'done' is nonnull.  Messages 's'
 * receives that are not echo traffic go into '*msgp' if 'msgp' is nonnull
 * (the first one only; the loop then stops), else are discarded. */
static void
run_session(struct jsonrpc_session *s, struct jsonrpc *peer, int msec,
            struct jsonrpc_msg **msgp)
{
    long long int deadline = time_msec() + msec;

    if (msgp) {
        *msgp = NULL;
    }
    while (time_msec() < deadline) {
        struct jsonrpc_msg *msg;

        jsonrpc_session_run(s);
        if (peer) {
            jsonrpc_run(peer);
        }
        msg = jsonrpc_session_recv(s);
        if (msg) {
            if (msgp) {
                *msgp = msg;
                return;
            }
            jsonrpc_msg_destroy(msg);
        }
        jsonrpc_session_wait(s);
        jsonrpc_session_recv_wait(s);
        if (peer) {
            jsonrpc_wait(peer);
        }
        poll_timer_wait_until(deadline);
        poll_block();
    }
}

/* Runs 's' until its connection state is 'connected', for at most 'msec'
 * ms, discarding what it receives.  Returns true if it got there. */
static bool
run_session_until(struct jsonrpc_session *s, bool connected, int msec)
{
    long long int deadline = time_msec() + msec;

    while (time_msec() < deadline) {
        jsonrpc_session_run(s);
        if (jsonrpc_session_is_connected(s) == connected) {
            return true;
        }
        /* Receiving is how a session notices that its peer has gone. */
        jsonrpc_msg_destroy(jsonrpc_session_recv(s));
        jsonrpc_session_wait(s);
        jsonrpc_session_recv_wait(s);
        poll_timer_wait(10);
        poll_block();
    }
    return false;
}

/* Accepts a connection on 'pstream', running 's' meanwhile. */
static struct jsonrpc *
accept_while_running(struct pstream *pstream, struct jsonrpc_session *s)
{
    long long int deadline = time_msec() + 5000;

    while (time_msec() < deadline) {
        struct stream *stream;

        jsonrpc_session_run(s);
        if (!pstream_accept(pstream, &stream)) {
            return jsonrpc_open(stream);
        }
        jsonrpc_session_wait(s);
        pstream_wait(pstream);
        poll_block();
    }
    fail_msg("no connection to accept");
    return NULL;
}

/* Receives a message on 'rpc', running 's' meanwhile and discarding what
 * 's' receives. */
static struct jsonrpc_msg *
recv_while_running(struct jsonrpc *rpc, struct jsonrpc_session *s)
{
    long long int deadline = time_msec() + 5000;

    while (time_msec() < deadline) {
        struct jsonrpc_msg *msg;
        int error;

        jsonrpc_session_run(s);
        jsonrpc_msg_destroy(jsonrpc_session_recv(s));
        jsonrpc_run(rpc);
        error = jsonrpc_recv(rpc, &msg);
        if (error != EAGAIN) {
            assert_int_equal(error, 0);
            return msg;
        }
        jsonrpc_session_wait(s);
        jsonrpc_session_recv_wait(s);
        jsonrpc_wait(rpc);
        jsonrpc_recv_wait(rpc);
        poll_block();
    }
    fail_msg("no message received");
    return NULL;
}

/* Accepts the connection 's' makes to 'pstream' and waits until 's' sees
 * it too.  Returns the server's end. */
static struct jsonrpc *
accept_session(struct pstream *pstream, struct jsonrpc_session *s)
{
    struct jsonrpc *server = accept_while_running(pstream, s);

    assert_true(run_session_until(s, true, 5000));
    return server;
}

/* Runs 's' until it receives a message, which must be a notification or
 * request for 'method'; 'peer', if nonnull, is run too. */
static void
expect_session_msg(struct jsonrpc_session *s, struct jsonrpc *peer,
                   const char *method)
{
    struct jsonrpc_msg *msg;

    run_session(s, peer, 5000, &msg);
    assert_non_null(msg);
    assert_string_equal(msg->method, method);
    jsonrpc_msg_destroy(msg);
}

/* The server goes away and comes back: the session notices, reconnects
 * after its back-off, and its seqno tells the client each time. */
static void
test_session_reconnect(void **state)
{
    struct fixture *f = *state;
    struct jsonrpc_session *s = jsonrpc_session_open(f->active, true);
    struct reconnect_stats stats;
    struct jsonrpc_msg *msg;
    struct pstream *pstream;
    struct jsonrpc *server;
    unsigned int seqno;

    assert_string_equal(jsonrpc_session_get_name(s), f->active);
    assert_true(jsonrpc_session_is_alive(s));
    assert_false(jsonrpc_session_is_connected(s));
    assert_int_equal(jsonrpc_session_send(s, jsonrpc_create_notify("x",
                                                                   NULL)),
                     ENOTCONN);

    assert_int_equal(pstream_open(f->passive, &pstream), 0);
    seqno = jsonrpc_session_get_seqno(s);
    server = accept_session(pstream, s);
    assert_int_not_equal(jsonrpc_session_get_seqno(s), seqno);
    seqno = jsonrpc_session_get_seqno(s);

    /* Traffic both ways. */
    assert_int_equal(jsonrpc_session_send(s, jsonrpc_create_notify(
                         "hello", NULL)), 0);
    msg = recv_while_running(server, s);
    assert_string_equal(msg->method, "hello");
    jsonrpc_msg_destroy(msg);
    jsonrpc_send(server, jsonrpc_create_notify("welcome", NULL));
    expect_session_msg(s, server, "welcome");

    /* The server goes away entirely. */
    jsonrpc_close(server);
    pstream_close(pstream);
    assert_true(run_session_until(s, false, 5000));
    assert_int_not_equal(jsonrpc_session_get_seqno(s), seqno);
    seqno = jsonrpc_session_get_seqno(s);
    assert_true(jsonrpc_session_is_alive(s));
    jsonrpc_session_get_reconnect_stats(s, &stats);
    assert_int_equal(stats.n_successful_connections, 1);
    assert_false(stats.is_connected);

    /* It comes back; the session reconnects within its back-off. */
    assert_int_equal(pstream_open(f->passive, &pstream), 0);
    server = accept_session(pstream, s);
    assert_int_not_equal(jsonrpc_session_get_seqno(s), seqno);
    jsonrpc_session_get_reconnect_stats(s, &stats);
    assert_int_equal(stats.n_successful_connections, 2);
    assert_true(stats.n_attempted_connections >= 2);
    assert_true(stats.is_connected);

    /* A forced reconnect drops the connection and makes a new one. */
    seqno = jsonrpc_session_get_seqno(s);
    jsonrpc_session_force_reconnect(s);
    jsonrpc_session_run(s);
    assert_false(jsonrpc_session_is_connected(s));
    jsonrpc_close(server);
    server = accept_session(pstream, s);
    assert_int_equal(jsonrpc_session_get_seqno(s), seqno + 2);

    jsonrpc_close(server);
    pstream_close(pstream);
    jsonrpc_session_close(s);
}

/* The session answers "echo" requests itself and does not pass them on. */
static void
test_session_echo_answered(void **state)
{
    struct fixture *f = *state;
    struct jsonrpc_session *s = jsonrpc_session_open(f->active, true);
    struct jsonrpc_msg *msg;
    struct pstream *pstream;
    struct jsonrpc *server;
    json_t *id = json_integer(7);

    assert_int_equal(pstream_open(f->passive, &pstream), 0);
    server = accept_session(pstream, s);

    jsonrpc_send(server, msg_echo_request(id));
    jsonrpc_send(server, jsonrpc_create_notify("after", NULL));
    expect_session_msg(s, server, "after");

    msg = recv_while_running(server, s);
    assert_int_equal(msg->type, JSONRPC_REPLY);
    assert_true(json_equal(msg->id, id));
    assert_string_equal(json_string_value(json_array_get(msg->result, 0)),
                        "hi");
    jsonrpc_msg_destroy(msg);

    json_decref(id);
    jsonrpc_close(server);
    pstream_close(pstream);
    jsonrpc_session_close(s);
}

/* With a short probe interval, a silent peer gets an "echo" probe and,
 * when it does not answer, is dropped; a peer that answers is kept. */
static void
test_session_inactivity_probe(void **state)
{
    struct fixture *f = *state;
    struct jsonrpc_session *s = jsonrpc_session_open(f->active, true);
    struct jsonrpc_msg *msg;
    struct pstream *pstream;
    struct jsonrpc *server;
    long long int start;

    jsonrpc_session_set_probe_interval(s, 100);
    assert_int_equal(pstream_open(f->passive, &pstream), 0);

    /* An answering peer: the probe's reply keeps the session up. */
    server = accept_session(pstream, s);
    for (int i = 0; i < 3; i++) {
        msg = recv_while_running(server, s);
        assert_int_equal(msg->type, JSONRPC_REQUEST);
        assert_string_equal(msg->method, "echo");
        jsonrpc_send(server, jsonrpc_create_reply(json_incref(msg->params),
                                                  msg->id));
        jsonrpc_msg_destroy(msg);
    }
    /* The replies are swallowed, not handed to the caller. */
    run_session(s, server, 50, &msg);
    assert_null(msg);
    assert_true(jsonrpc_session_is_connected(s));
    jsonrpc_close(server);
    assert_true(run_session_until(s, false, 5000));

    /* A silent peer: probed after 100 ms, dropped 100 ms later. */
    server = accept_session(pstream, s);
    start = time_msec();
    assert_true(run_session_until(s, false, 5000));
    assert_true(time_msec() - start >= 150);
    assert_true(time_msec() - start < 2000);
    assert_int_equal(jsonrpc_recv_block(server, &msg), 0);
    assert_string_equal(msg->method, "echo");
    jsonrpc_msg_destroy(msg);
    assert_int_equal(jsonrpc_recv_block(server, &msg), EOF);

    jsonrpc_close(server);
    pstream_close(pstream);
    jsonrpc_session_close(s);
}

/* Without 'retry', a failed attempt or a lost connection is the end. */
static void
test_session_no_retry(void **state)
{
    struct fixture *f = *state;
    struct jsonrpc_session *s;
    struct pstream *pstream;
    struct jsonrpc *server;

    s = jsonrpc_session_open(f->active, false);
    jsonrpc_session_run(s);
    jsonrpc_session_run(s);
    assert_false(jsonrpc_session_is_alive(s));
    assert_int_not_equal(jsonrpc_session_get_last_error(s), 0);
    jsonrpc_session_close(s);

    assert_int_equal(pstream_open(f->passive, &pstream), 0);
    s = jsonrpc_session_open(f->active, false);
    server = accept_session(pstream, s);
    jsonrpc_close(server);
    assert_true(run_session_until(s, false, 5000));
    jsonrpc_session_run(s);
    assert_false(jsonrpc_session_is_alive(s));
    pstream_close(pstream);
    jsonrpc_session_close(s);
}

/* Connection attempts that keep failing wait longer each time, up to the
 * maximum. */
static void
test_session_backoff(void **state)
{
    struct fixture *f = *state;
    struct jsonrpc_session *s = jsonrpc_session_open(f->active, true);
    struct reconnect_stats stats;

    jsonrpc_session_set_max_backoff(s, 1500);
    jsonrpc_session_run(s);
    jsonrpc_session_get_reconnect_stats(s, &stats);
    assert_string_equal(stats.state, "BACKOFF");
    assert_int_equal(stats.backoff, 1000);
    assert_int_equal(stats.n_attempted_connections, 1);
    assert_int_not_equal(jsonrpc_session_get_last_error(s), 0);

    run_session(s, NULL, 1100, NULL);
    jsonrpc_session_get_reconnect_stats(s, &stats);
    assert_int_equal(stats.n_attempted_connections, 2);
    assert_int_equal(stats.backoff, 1500);
    assert_true(jsonrpc_session_is_alive(s));
    jsonrpc_session_close(s);
}

/* A passive session accepts a client, listens again when it leaves, and
 * lets a new client replace the current one. */
static void
test_session_passive(void **state)
{
    struct fixture *f = *state;
    struct jsonrpc_session *s = jsonrpc_session_open(f->passive, true);
    struct jsonrpc *client, *client2;
    struct jsonrpc_msg *msg;

    jsonrpc_session_run(s);
    assert_true(jsonrpc_session_is_alive(s));
    assert_false(jsonrpc_session_is_connected(s));

    for (int round = 0; round < 2; round++) {
        client = jsonrpc_open(connect_stream(f->active));
        assert_true(run_session_until(s, true, 5000));
        jsonrpc_send(client, jsonrpc_create_notify("hi", NULL));
        expect_session_msg(s, client, "hi");
        jsonrpc_close(client);
        assert_true(run_session_until(s, false, 5000));
    }

    /* Replacement. */
    client = jsonrpc_open(connect_stream(f->active));
    assert_true(run_session_until(s, true, 5000));
    client2 = jsonrpc_open(connect_stream(f->active));
    run_session(s, NULL, 100, NULL);
    assert_true(jsonrpc_session_is_connected(s));
    assert_int_equal(jsonrpc_recv_block(client, &msg), EOF);
    jsonrpc_send(client2, jsonrpc_create_notify("second", NULL));
    expect_session_msg(s, client2, "second");

    jsonrpc_close(client);
    jsonrpc_close(client2);
    jsonrpc_session_close(s);
}

/* Sessions work over TCP too. */
static void
test_session_tcp(void **state DPS_UNUSED)
{
    struct jsonrpc_session *s;
    struct jsonrpc_msg *msg;
    struct pstream *pstream;
    struct jsonrpc *server;
    char *name;

    assert_int_equal(pstream_open("ptcp:0:127.0.0.1", &pstream), 0);
    name = xasprintf("tcp:127.0.0.1:%d", pstream_get_bound_port(pstream));
    s = jsonrpc_session_open(name, true);
    server = accept_session(pstream, s);

    assert_int_equal(jsonrpc_session_send(s, jsonrpc_create_notify(
                         "over-tcp", NULL)), 0);
    msg = recv_while_running(server, s);
    assert_string_equal(msg->method, "over-tcp");
    jsonrpc_msg_destroy(msg);

    jsonrpc_close(server);
    assert_true(run_session_until(s, false, 5000));
    jsonrpc_session_close(s);
    pstream_close(pstream);
    free(name);
}

/* A session around a connection a server accepted: no reconnection. */
static void
test_session_unreliably(void **state)
{
    struct jsonrpc_session *s;
    struct jsonrpc_msg *msg;
    struct pair p;

    open_pair(*state, &p, NULL);
    s = jsonrpc_session_open_unreliably(p.server);
    p.server = NULL;
    assert_true(jsonrpc_session_is_connected(s));
    assert_true(jsonrpc_session_is_alive(s));

    jsonrpc_send(p.client, jsonrpc_create_notify("x", NULL));
    expect_session_msg(s, p.client, "x");
    assert_int_equal(jsonrpc_session_send(s, jsonrpc_create_notify("y",
                                                                   NULL)), 0);
    assert_int_equal(jsonrpc_recv_block(p.client, &msg), 0);
    assert_string_equal(msg->method, "y");
    jsonrpc_msg_destroy(msg);

    close_pair(&p);
    assert_true(run_session_until(s, false, 5000));
    jsonrpc_session_run(s);
    assert_false(jsonrpc_session_is_alive(s));
    jsonrpc_session_close(s);
}

int
main(void)
{
#define TEST(NAME) cmocka_unit_test_setup_teardown(NAME, setup, teardown)
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_msg_create),
        cmocka_unit_test(test_msg_reply_and_error),
        cmocka_unit_test(test_msg_from_json_valid),
        cmocka_unit_test(test_msg_from_json_invalid),
        cmocka_unit_test(test_msg_is_valid),
        TEST(test_raw_request_reply),
        TEST(test_raw_notification_and_error),
        TEST(test_raw_many_in_one_read),
        TEST(test_raw_message_at_read_budget),
        TEST(test_raw_eof_mid_message),
        TEST(test_raw_eof_clean),
        TEST(test_raw_bad_input),
        TEST(test_raw_large_backlog),
        TEST(test_raw_transact_block),
        TEST(test_session_reconnect),
        TEST(test_session_echo_answered),
        TEST(test_session_inactivity_probe),
        TEST(test_session_no_retry),
        TEST(test_session_backoff),
        TEST(test_session_passive),
        TEST(test_session_tcp),
        TEST(test_session_unreliably),
    };
#undef TEST

    return cmocka_run_group_tests_name("jsonrpc", tests, NULL, NULL);
}
