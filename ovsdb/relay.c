/* Relay mode of ovsdb-server, as Open vSwitch 3.1 has it.
 *
 * The relay connects to one of its remotes, fetches the schema of its
 * database, and monitors every column of every table with
 * "monitor_cond_since", as Open vSwitch's relay does, giving the id of the
 * last transaction it has.  The reply replaces the local contents (or, if
 * the remote found that transaction in its history, brings them up to
 * date); each "update3" is applied as a local transaction (with
 * replication.c's helpers) under the id the remote gave, for the relay's
 * own transaction history, and reaches the relay's monitoring clients like
 * any other.  Nothing is written to disk.  A
 * "transact" that changes anything is forwarded to the remote under an id
 * of the relay's own, and the remote's answer goes back to the client under
 * the client's id.  While the relay is not in sync, forwarded transactions
 * wait; those already sent when the connection goes are canceled.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>

#include "relay.h"

#include <stdlib.h>
#include <string.h>
#include "jsonrpc.h"
#include "ovsdb-error.h"
#include "ovsdb.h"
#include "poll-loop.h"
#include "replication.h"
#include "schema.h"
#include "timeval.h"
#include "transaction.h"
#include "util.h"
#include "uuid.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(relay);

enum relay_state {
    RELAY_CONNECTING,           /* No connection, or not asked yet. */
    RELAY_SCHEMA_REQUESTED,     /* Sent "get_schema". */
    RELAY_MONITOR_REQUESTED,    /* Sent "monitor_cond_since". */
    RELAY_SYNCED                /* Monitor answered. */
};

/* A transaction being forwarded. */
struct relay_txn {
    void *client;               /* NULL once the client is gone. */
    json_t *client_id;
    json_t *params;
    json_t *id;                 /* Our request's id, NULL if not sent. */
};

struct relay {
    char *db_name;
    char **remotes;
    size_t n_remotes;
    size_t cur;                 /* Index of the remote tried now. */
    const struct relay_ops *ops;
    void *aux;

    struct jsonrpc_session *session;
    unsigned int seqno;
    bool was_connected;         /* The session has connected. */
    long long int next_try;     /* When to open the next session. */
    int backoff;                /* Wait after a round that failed. */

    enum relay_state state;
    bool ready;                 /* Has had the remote's schema. */
    json_t *request_id;         /* Of "get_schema" or "monitor". */
    struct ovsdb_schema *schema;

    struct relay_txn *txns;
    size_t n_txns;
};

static void cancel_txn(struct relay *r, const struct relay_txn *t);
static void txn_free(struct relay_txn *t);
static void disconnected(struct relay *r);
static void send_txn(struct relay *r, struct relay_txn *t);
static void send_request(struct relay *r, const char *method, json_t *params,
                         enum relay_state state);
static void handle_msg(struct relay *r, struct jsonrpc_msg *msg);

char *
relay_parse(const char *spec, char **db_namep, char **remotesp)
{
    const char *name = spec + strlen("relay:");
    const char *colon = strchr(name, ':');

    if (!colon) {
        return xasprintf("ovsdb error: %s: invalid syntax", spec);
    }
    *db_namep = xmemdup0(name, colon - name);
    *remotesp = xstrdup(colon + 1);
    return NULL;
}

struct relay *
relay_create(const char *db_name, const char *remotes,
             const struct relay_ops *ops, void *aux)
{
    struct relay *r = xzalloc(sizeof *r);
    char *copy = xstrdup(remotes), *save = NULL, *item;

    r->db_name = xstrdup(db_name);
    for (item = strtok_r(copy, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
        r->remotes = xrealloc(r->remotes,
                              (r->n_remotes + 1) * sizeof *r->remotes);
        r->remotes[r->n_remotes++] = xstrdup(item);
    }
    free(copy);
    if (!r->n_remotes) {
        /* "relay:DB:", as Open vSwitch takes it: never connects. */
        r->remotes = xmalloc(sizeof *r->remotes);
        r->remotes[r->n_remotes++] = xstrdup("");
    }
    r->ops = ops;
    r->aux = aux;
    r->backoff = 1000;
    return r;
}

void
relay_destroy(struct relay *r)
{
    size_t i;

    if (!r) {
        return;
    }
    jsonrpc_session_close(r->session);
    for (i = 0; i < r->n_remotes; i++) {
        free(r->remotes[i]);
    }
    free(r->remotes);
    for (i = 0; i < r->n_txns; i++) {
        /* The database goes (ovsdb-server/remove-db): as its waiting
         * transactions do, these fail. */
        cancel_txn(r, &r->txns[i]);
        txn_free(&r->txns[i]);
    }
    free(r->txns);
    json_decref(r->request_id);
    ovsdb_schema_destroy(r->schema);
    free(r->db_name);
    free(r);
}

void
relay_run(struct relay *r)
{
    int i;

    if (!r->session) {
        if (time_msec() < r->next_try) {
            return;
        }
        /* One remote: the session reconnects, with back-off, itself. */
        r->session = jsonrpc_session_open(r->remotes[r->cur],
                                          r->n_remotes == 1);
        r->seqno = jsonrpc_session_get_seqno(r->session);
        r->was_connected = false;
    }
    jsonrpc_session_run(r->session);
    if (!jsonrpc_session_is_alive(r->session)) {
        /* On to the next remote: at once after a connection that worked,
         * otherwise with back-off once every remote has failed. */
        jsonrpc_session_close(r->session);
        r->session = NULL;
        disconnected(r);
        r->cur = (r->cur + 1) % r->n_remotes;
        if (r->was_connected) {
            r->backoff = 1000;
            r->next_try = time_msec();
        } else if (!r->cur) {
            r->next_try = time_msec() + r->backoff;
            r->backoff = MIN(r->backoff * 2, 8000);
        }
        poll_immediate_wake();
        return;
    }
    if (jsonrpc_session_get_seqno(r->session) != r->seqno) {
        r->seqno = jsonrpc_session_get_seqno(r->session);
        disconnected(r);
        if (jsonrpc_session_is_connected(r->session)) {
            r->was_connected = true;
            send_request(r, "get_schema", json_pack("[s]", r->db_name),
                         RELAY_SCHEMA_REQUESTED);
        }
    }
    for (i = 0; i < 50; i++) {
        struct jsonrpc_msg *msg = jsonrpc_session_recv(r->session);

        if (!msg) {
            break;
        }
        handle_msg(r, msg);
        jsonrpc_msg_destroy(msg);
    }
    if (i >= 50) {
        poll_immediate_wake();
    }
}

void
relay_wait(struct relay *r)
{
    if (r->session) {
        jsonrpc_session_wait(r->session);
        jsonrpc_session_recv_wait(r->session);
    } else {
        poll_timer_wait_until(r->next_try);
    }
}

bool
relay_is_ready(const struct relay *r)
{
    return r->ready;
}

void
relay_forward(struct relay *r, void *client, const json_t *id,
              const json_t *params)
{
    struct relay_txn *t;

    r->txns = xrealloc(r->txns, (r->n_txns + 1) * sizeof *r->txns);
    t = &r->txns[r->n_txns++];
    t->client = client;
    t->client_id = json_incref((json_t *) id);
    t->params = json_incref((json_t *) params);
    t->id = NULL;
    if (r->state == RELAY_SYNCED) {
        send_txn(r, t);
    }
}

void
relay_forget_client(struct relay *r, void *client)
{
    size_t i;

    for (i = 0; i < r->n_txns; i++) {
        if (r->txns[i].client == client) {
            r->txns[i].client = NULL;
        }
    }
}

static void
txn_free(struct relay_txn *t)
{
    json_decref(t->client_id);
    json_decref(t->params);
    json_decref(t->id);
}

/* Answers 't''s client, if it is still there, with a "canceled" error. */
static void
cancel_txn(struct relay *r, const struct relay_txn *t)
{
    if (t->client) {
        struct ovsdb_error *error = ovsdb_error("canceled", NULL);

        r->ops->reply(r->aux, t->client, jsonrpc_create_error(
                          ovsdb_error_to_json(error), t->client_id));
        ovsdb_error_destroy(error);
    }
}

static void
remove_txn(struct relay *r, size_t i)
{
    txn_free(&r->txns[i]);
    memmove(&r->txns[i], &r->txns[i + 1],
            (r->n_txns - i - 1) * sizeof *r->txns);
    r->n_txns--;
}

/* The connection is gone: back to connecting, and the transactions that
 * were sent fail as canceled. */
static void
disconnected(struct relay *r)
{
    size_t i;

    r->state = RELAY_CONNECTING;
    json_decref(r->request_id);
    r->request_id = NULL;
    for (i = 0; i < r->n_txns; ) {
        struct relay_txn *t = &r->txns[i];

        if (t->id) {
            cancel_txn(r, t);
            remove_txn(r, i);
        } else {
            i++;
        }
    }
}

static void
send_txn(struct relay *r, struct relay_txn *t)
{
    struct jsonrpc_msg *msg;

    msg = jsonrpc_create_request("transact", json_deep_copy(t->params),
                                 &t->id);
    jsonrpc_session_send(r->session, msg);
}

static void
send_request(struct relay *r, const char *method, json_t *params,
             enum relay_state state)
{
    struct jsonrpc_msg *msg;

    json_decref(r->request_id);
    msg = jsonrpc_create_request(method, params, &r->request_id);
    jsonrpc_session_send(r->session, msg);
    r->state = state;
}

static void
log_error(struct relay *r, struct ovsdb_error *error)
{
    char *s = ovsdb_error_to_string(error);

    VLOG_WARN("%s: %s", r->db_name, s);
    free(s);
    ovsdb_error_destroy(error);
}

static void
handle_schema(struct relay *r, const struct jsonrpc_msg *msg)
{
    char last_id[UUID_LEN + 1];
    struct ovsdb_schema *schema;
    struct ovsdb_error *error;

    error = (msg->type == JSONRPC_REPLY
             ? ovsdb_schema_from_json(msg->result, &schema)
             : ovsdb_error(NULL, "the remote has no database"));
    if (!error && strcmp(schema->name, r->db_name)) {
        error = ovsdb_error(NULL, "the remote's schema is of database %s",
                            schema->name);
        ovsdb_schema_destroy(schema);
    }
    if (error) {
        /* Try again on the next connection, as Open vSwitch does. */
        log_error(r, error);
        jsonrpc_session_force_reconnect(r->session);
        r->state = RELAY_CONNECTING;
        return;
    }
    ovsdb_schema_destroy(r->schema);
    r->schema = ovsdb_schema_clone(schema);
    r->ops->install(r->aux, schema);
    uuid_to_string(ovsdb_txn_history_last_id(r->ops->get_db(r->aux)),
                   last_id);
    send_request(r, "monitor_cond_since",
                 json_pack("[s s o s]", r->db_name, r->db_name,
                           replication_monitor_requests(r->schema, true),
                           last_id),
                 RELAY_MONITOR_REQUESTED);
}

static void
handle_monitor_reply(struct relay *r, const struct jsonrpc_msg *msg)
{
    struct ovsdb *db = r->ops->get_db(r->aux);
    const json_t *result = msg->result;
    struct ovsdb_error *error = NULL;
    struct uuid last_id;
    size_t i;

    if (msg->type != JSONRPC_REPLY || !json_is_array(result)
        || json_array_size(result) != 3
        || !json_is_boolean(json_array_get(result, 0))
        || !uuid_from_string(&last_id, json_string_value(
                                 json_array_get(result, 1)) ?: "")) {
        log_error(r, ovsdb_error(NULL, "the remote refused to monitor"));
        jsonrpc_session_force_reconnect(r->session);
        r->state = RELAY_CONNECTING;
        return;
    }
    if (!json_is_true(json_array_get(result, 0))) {
        /* A new copy: the history starts again with it. */
        error = replication_reset_db(db, true);
        ovsdb_txn_history_init(db, true);
    }
    if (!error) {
        error = replication_apply_updates2(db, json_array_get(result, 2),
                                           &last_id);
    }
    if (error) {
        log_error(r, error);
    }
    r->state = RELAY_SYNCED;
    if (!r->ready) {
        /* As in Open vSwitch, the "_Server" row says "connected" from the
         * first time in sync on, even while the remote is away. */
        r->ready = true;
        r->ops->set_connected(r->aux, true);
    }
    for (i = 0; i < r->n_txns; i++) {
        if (!r->txns[i].id) {
            send_txn(r, &r->txns[i]);
        }
    }
}

static void
handle_txn_reply(struct relay *r, struct jsonrpc_msg *msg)
{
    size_t i;

    for (i = 0; i < r->n_txns; i++) {
        struct relay_txn *t = &r->txns[i];

        if (t->id && json_equal(t->id, msg->id)) {
            if (t->client) {
                struct jsonrpc_msg *reply = (
                    msg->type == JSONRPC_REPLY
                    ? jsonrpc_create_reply(json_incref(msg->result),
                                           t->client_id)
                    : jsonrpc_create_error(json_incref(msg->error),
                                           t->client_id));

                r->ops->reply(r->aux, t->client, reply);
            }
            remove_txn(r, i);
            return;
        }
    }
}

static void
handle_msg(struct relay *r, struct jsonrpc_msg *msg)
{
    if (msg->type == JSONRPC_NOTIFY) {
        const char *id = json_string_value(json_array_get(msg->params, 0));

        struct uuid last_id;

        if (!strcmp(msg->method, "update3") && r->state == RELAY_SYNCED
            && id && !strcmp(id, r->db_name)
            && json_array_size(msg->params) == 3
            && uuid_from_string(&last_id, json_string_value(
                                    json_array_get(msg->params, 1)) ?: "")) {
            struct ovsdb_error *error = replication_apply_updates2(
                r->ops->get_db(r->aux), json_array_get(msg->params, 2),
                &last_id);

            if (error) {
                log_error(r, error);
            }
        }
    } else if (msg->type == JSONRPC_REQUEST) {
        if (!strcmp(msg->method, "echo")) {
            jsonrpc_session_send(r->session, jsonrpc_create_reply(
                                     json_deep_copy(msg->params), msg->id));
        }
    } else if (r->request_id && msg->id
               && json_equal(r->request_id, msg->id)) {
        json_decref(r->request_id);
        r->request_id = NULL;
        if (r->state == RELAY_SCHEMA_REQUESTED) {
            handle_schema(r, msg);
        } else if (r->state == RELAY_MONITOR_REQUESTED) {
            handle_monitor_reply(r, msg);
        }
    } else if (msg->id) {
        handle_txn_reply(r, msg);
    }
}
