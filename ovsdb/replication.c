/* Active-backup replication: ovsdb-server as the backup of an active server
 * (--sync-from), as Open vSwitch 3.1 does it.
 *
 * The backup connects to the active server, lists its databases, fetches
 * the schemas of those it serves too, checks that each can be replicated,
 * then monitors every column of every table not excluded.  Each monitor
 * reply replaces the local contents of its database (after deleting every
 * row of the replicated tables, in a transaction of its own), and each
 * "update" notification is applied as a local transaction, which goes to
 * the database file and to the backup's own clients like any other.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>

#include "replication.h"

#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "file.h"
#include "json.h"
#include "jsonrpc.h"
#include "ovsdb-error.h"
#include "ovsdb.h"
#include "poll-loop.h"
#include "schema.h"
#include "transaction.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(replication);

enum rpl_state {
    RPL_INIT,                   /* Not connected yet (or reconnecting). */
    RPL_DBS_REQUESTED,          /* Sent "list_dbs". */
    RPL_SCHEMAS_REQUESTED,      /* Sent "get_schema"s. */
    RPL_MONITORS_REQUESTED,     /* Sent "monitor"s. */
    RPL_REPLICATING,            /* Every monitor answered. */
    RPL_ERROR                   /* Failed: the server becomes active. */
};

/* A request sent to the active server that awaits its reply. */
struct rpl_request {
    json_t *id;
    char *method;
    char *db_name;              /* NULL for "list_dbs". */
};

static replication_find_db_func *find_db;
static struct jsonrpc_session *session;
static unsigned int session_seqno;
static int probe_interval = -1; /* -1: the session's default. */
static enum rpl_state state;
static char *active_name;

/* The databases the server serves (without "_Server"), and those of them
 * that are being replicated (those whose schema the active server's
 * matches well enough). */
static char **local_dbs;
static size_t n_local_dbs;
static char **rpl_dbs;
static size_t n_rpl_dbs;

/* The active server's schemas of the databases in 'rpl_dbs' that it has
 * sent, for the monitor requests. */
static struct ovsdb_schema **remote_schemas;
static size_t n_remote_schemas;

static struct rpl_request *requests;
static size_t n_requests;

/* Excluded tables, as sorted "DB:TABLE" strings. */
static char **excluded;
static size_t n_excluded;

static void free_strings(char **strings, size_t n);
static void clear_remote_schemas(void);
static void clear_requests(void);
static int compare_strings(const void *a_, const void *b_);
static void send_request(const char *method, json_t *params,
                         const char *db_name);
static void handle_reply(const struct jsonrpc_msg *msg);
static void handle_notify(const struct jsonrpc_msg *msg);

static bool is_excluded(const char *db_name, const char *table_name);

void
replication_set_find_db(replication_find_db_func *cb)
{
    find_db = cb;
}

void
replication_start(const char *sync_from, char *const *db_names,
                  size_t n_db_names)
{
    size_t i;

    replication_stop();
    active_name = xstrdup(sync_from);
    local_dbs = xcalloc(n_db_names + 1, sizeof *local_dbs);
    for (i = 0; i < n_db_names; i++) {
        if (strcmp(db_names[i], "_Server")) {
            local_dbs[n_local_dbs++] = xstrdup(db_names[i]);
        }
    }
    session = jsonrpc_session_open(sync_from, true);
    if (probe_interval >= 0) {
        jsonrpc_session_set_probe_interval(session, probe_interval);
    }
    session_seqno = jsonrpc_session_get_seqno(session);
    state = RPL_INIT;
}

void
replication_stop(void)
{
    if (session) {
        jsonrpc_session_close(session);
        session = NULL;
    }
    clear_requests();
    clear_remote_schemas();
    free_strings(local_dbs, n_local_dbs);
    local_dbs = NULL;
    n_local_dbs = 0;
    free_strings(rpl_dbs, n_rpl_dbs);
    rpl_dbs = NULL;
    n_rpl_dbs = 0;
    free(active_name);
    active_name = NULL;
    state = RPL_INIT;
}

bool
replication_run(void)
{
    int i;

    if (!session) {
        return true;
    }
    jsonrpc_session_run(session);
    if (jsonrpc_session_get_seqno(session) != session_seqno
        && jsonrpc_session_is_connected(session)) {
        /* (Re)connected: start over, as Open vSwitch does. */
        session_seqno = jsonrpc_session_get_seqno(session);
        clear_requests();
        clear_remote_schemas();
        free_strings(rpl_dbs, n_rpl_dbs);
        rpl_dbs = NULL;
        n_rpl_dbs = 0;
        send_request("list_dbs", json_array(), NULL);
        state = RPL_DBS_REQUESTED;
    }
    for (i = 0; i < 50 && state != RPL_ERROR; i++) {
        struct jsonrpc_msg *msg = jsonrpc_session_recv(session);

        if (!msg) {
            break;
        }
        if (msg->type == JSONRPC_NOTIFY) {
            handle_notify(msg);
        } else if (msg->type == JSONRPC_REPLY
                   || msg->type == JSONRPC_ERROR) {
            handle_reply(msg);
        } else if (msg->type == JSONRPC_REQUEST
                   && !strcmp(msg->method, "echo")) {
            jsonrpc_session_send(session, jsonrpc_create_reply(
                                     json_deep_copy(msg->params), msg->id));
        }
        jsonrpc_msg_destroy(msg);
    }
    if (i >= 50) {
        poll_immediate_wake();
    }
    return state != RPL_ERROR && jsonrpc_session_is_alive(session);
}

void
replication_wait(void)
{
    if (session) {
        jsonrpc_session_wait(session);
        jsonrpc_session_recv_wait(session);
    }
}

char *
replication_status(void)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    size_t i;

    if (!session) {
        return ds_steal_cstr(&ds);
    }
    switch (state) {
    case RPL_REPLICATING:
        ds_put_format(&ds, "replicating: %s\n", active_name);
        for (i = 0; i < n_rpl_dbs; i++) {
            ds_put_format(&ds, "database: %s\n", rpl_dbs[i]);
        }
        if (n_excluded) {
            char *list = replication_get_excluded();

            ds_put_format(&ds, "exclude: %s\n", list);
            free(list);
        }
        break;
    case RPL_ERROR:
        ds_put_format(&ds, "Replication to (%s) failed\n", active_name);
        break;
    case RPL_INIT:
    case RPL_DBS_REQUESTED:
    case RPL_SCHEMAS_REQUESTED:
    case RPL_MONITORS_REQUESTED:
    default:
        ds_put_format(&ds, "connecting: %s\n", active_name);
        break;
    }
    return ds_steal_cstr(&ds);
}

void
replication_set_excluded(const char *spec)
{
    char *copy = xstrdup(spec), *save = NULL, *item;

    free_strings(excluded, n_excluded);
    excluded = NULL;
    n_excluded = 0;
    for (item = strtok_r(copy, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
        char *colon = strchr(item, ':');
        char *key = (colon ? xstrdup(item) : xasprintf("%s:", item));
        size_t i;

        for (i = 0; i < n_excluded; i++) {
            if (!strcmp(excluded[i], key)) {
                break;
            }
        }
        if (i < n_excluded) {
            free(key);
            continue;
        }
        excluded = xrealloc(excluded, (n_excluded + 1) * sizeof *excluded);
        excluded[n_excluded++] = key;
    }
    free(copy);
    if (n_excluded) {
        qsort(excluded, n_excluded, sizeof *excluded, compare_strings);
    }
}

char *
replication_get_excluded(void)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    size_t i;

    for (i = 0; i < n_excluded; i++) {
        ds_put_format(&ds, "%s%s", i ? "," : "", excluded[i]);
    }
    return ds_steal_cstr(&ds);
}

void
replication_set_probe_interval(int msec)
{
    probe_interval = msec;
    if (session) {
        jsonrpc_session_set_probe_interval(session, msec);
    }
}

json_t *
replication_monitor_requests(const struct ovsdb_schema *schema, bool all)
{
    json_t *reqs = json_object();
    size_t j;

    for (j = 0; j < schema->n_tables; j++) {
        const struct ovsdb_table_schema *ts = schema->tables[j];
        json_t *columns, *req;
        size_t k;

        if (!all && is_excluded(schema->name, ts->name)) {
            continue;
        }
        columns = json_array();
        for (k = OVSDB_N_HIDDEN_COLUMNS; k < ts->n_columns; k++) {
            json_array_append_new(columns,
                                  json_string(ts->columns[k]->name));
        }
        req = json_object();
        json_object_set_new(req, "columns", columns);
        json_object_set_new(reqs, ts->name, req);
    }
    return reqs;
}

struct ovsdb_error *
replication_reset_db(struct ovsdb *db, bool all)
{
    struct ovsdb_txn *txn = ovsdb_txn_create(db);
    size_t i;

    for (i = 0; i < db->schema->n_tables; i++) {
        struct ovsdb_table *table = &db->tables[i];
        struct ovsdb_row **rows, *row;
        size_t n = 0, j;

        if ((!all && is_excluded(db->schema->name, table->schema->name))
            || !ohmap_count(&table->rows)) {
            continue;
        }
        rows = xmalloc(ohmap_count(&table->rows) * sizeof *rows);
        OHMAP_FOR_EACH (row, node, &table->rows) {
            rows[n++] = row;
        }
        for (j = 0; j < n; j++) {
            ovsdb_txn_row_delete(txn, rows[j]);
        }
        free(rows);
    }
    return ovsdb_txn_commit(txn, false);
}

struct ovsdb_error *
replication_apply_updates(struct ovsdb *db, const json_t *updates)
{
    struct ovsdb_error *error;
    const char *table_name;
    json_t *record, *table_updates;

    if (!json_is_object(updates)) {
        return ovsdb_syntax_error(updates, NULL,
                                  "<table-updates> is not an object");
    }
    record = json_object();
    json_object_foreach ((json_t *) updates, table_name, table_updates) {
        json_t *rows = json_object(), *update;
        const char *uuid;

        if (!json_is_object(table_updates)) {
            json_decref(rows);
            json_decref(record);
            return ovsdb_syntax_error(table_updates, NULL,
                                      "<table-update> is not an object");
        }
        json_object_foreach (table_updates, uuid, update) {
            json_t *new = json_object_get(update, "new");

            if (new && json_is_object(new)) {
                json_t *copy = json_object();
                const char *column;
                json_t *value;

                json_object_foreach (new, column, value) {
                    if (column[0] != '_') {
                        json_object_set(copy, column, value);
                    }
                }
                json_object_set_new(rows, uuid, copy);
            } else {
                json_object_set_new(rows, uuid, json_null());
            }
        }
        if (table_name[0] != '_') {
            json_object_set_new(record, table_name, rows);
        } else {
            json_decref(rows);
        }
    }
    error = (json_object_size(record) ? ovsdb_file_replay(db, record)
             : NULL);
    json_decref(record);
    return error;
}

/* Applies <table-updates2> 'updates2' (of a "monitor_cond_since" reply or
 * an "update3") to 'db', in one transaction with id 'txnid'.  Returns NULL
 * or an error. */
struct ovsdb_error *
replication_apply_updates2(struct ovsdb *db, const json_t *updates2,
                           const struct uuid *txnid)
{
    struct ovsdb_error *error = NULL;
    const char *table_name;
    json_t *record, *table_updates;

    if (!json_is_object(updates2)) {
        return ovsdb_syntax_error(updates2, NULL,
                                  "<table-updates2> is not an object");
    }

    /* A database file's diff record says the same: whole rows for new
     * ones, differences of sets and maps for the others, null for
     * deletions. */
    record = json_pack("{s:b}", "_is_diff", true);
    json_object_foreach ((json_t *) updates2, table_name, table_updates) {
        json_t *rows, *update;
        const char *uuid;

        if (!json_is_object(table_updates)) {
            error = ovsdb_syntax_error(table_updates, NULL,
                                       "<table-update2> is not an object");
            break;
        }
        if (table_name[0] == '_') {
            continue;
        }
        rows = json_object();
        json_object_set_new(record, table_name, rows);
        json_object_foreach (table_updates, uuid, update) {
            const json_t *row = NULL;

            if (json_is_object(update)) {
                row = json_object_get(update, "initial");
                row = row ? row : json_object_get(update, "insert");
                row = row ? row : json_object_get(update, "modify");
            }
            if (row && json_is_object(row)) {
                json_t *copy = json_object();
                const char *column;
                json_t *value;

                json_object_foreach ((json_t *) row, column, value) {
                    if (column[0] != '_') {
                        json_object_set(copy, column, value);
                    }
                }
                json_object_set_new(rows, uuid, copy);
            } else {
                json_object_set_new(rows, uuid, json_null());
            }
        }
    }
    if (!error && json_object_size(record) > 1) {
        error = ovsdb_file_replay_txnid(db, record, txnid);
    }
    json_decref(record);
    return error;
}

static void
free_strings(char **strings, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        free(strings[i]);
    }
    free(strings);
}

static void
clear_remote_schemas(void)
{
    size_t i;

    for (i = 0; i < n_remote_schemas; i++) {
        ovsdb_schema_destroy(remote_schemas[i]);
    }
    free(remote_schemas);
    remote_schemas = NULL;
    n_remote_schemas = 0;
}

static const struct ovsdb_schema *
find_remote_schema(const char *name)
{
    size_t i;

    for (i = 0; i < n_remote_schemas; i++) {
        if (!strcmp(remote_schemas[i]->name, name)) {
            return remote_schemas[i];
        }
    }
    return NULL;
}

static void
clear_requests(void)
{
    size_t i;

    for (i = 0; i < n_requests; i++) {
        json_decref(requests[i].id);
        free(requests[i].method);
        free(requests[i].db_name);
    }
    free(requests);
    requests = NULL;
    n_requests = 0;
}

static bool
is_excluded(const char *db_name, const char *table_name)
{
    char *key = xasprintf("%s:%s", db_name, table_name);
    bool found = false;
    size_t i;

    for (i = 0; i < n_excluded && !found; i++) {
        found = !strcmp(excluded[i], key);
    }
    free(key);
    return found;
}

static int
compare_strings(const void *a_, const void *b_)
{
    const char *const *a = a_, *const *b = b_;

    return strcmp(*a, *b);
}

static void
send_request(const char *method, json_t *params, const char *db_name)
{
    struct rpl_request *r;
    json_t *id;
    struct jsonrpc_msg *msg = jsonrpc_create_request(method, params, &id);

    requests = xrealloc(requests, (n_requests + 1) * sizeof *requests);
    r = &requests[n_requests++];
    r->id = id;
    r->method = xstrdup(method);
    r->db_name = db_name ? xstrdup(db_name) : NULL;
    jsonrpc_session_send(session, msg);
}

/* Removes the request that 'id' answers into '*r' and returns true, or
 * returns false if there is none. */
static bool
take_request(const json_t *id, struct rpl_request *r)
{
    size_t i;

    for (i = 0; i < n_requests; i++) {
        if (id && json_equal(requests[i].id, (json_t *) id)) {
            *r = requests[i];
            requests[i] = requests[--n_requests];
            return true;
        }
    }
    return false;
}

static bool
is_rpl_db(const char *name)
{
    size_t i;

    for (i = 0; i < n_rpl_dbs; i++) {
        if (!strcmp(rpl_dbs[i], name)) {
            return true;
        }
    }
    return false;
}

static void
remove_rpl_db(const char *name)
{
    size_t i;

    for (i = 0; i < n_rpl_dbs; i++) {
        if (!strcmp(rpl_dbs[i], name)) {
            free(rpl_dbs[i]);
            memmove(&rpl_dbs[i], &rpl_dbs[i + 1],
                    (n_rpl_dbs - i - 1) * sizeof *rpl_dbs);
            n_rpl_dbs--;
            return;
        }
    }
}

static size_t
count_pending(const char *method)
{
    size_t i, n = 0;

    for (i = 0; i < n_requests; i++) {
        n += !strcmp(requests[i].method, method);
    }
    return n;
}

/* Open vSwitch's test of whether a database whose active schema is
 * 'remote' can be replicated into local schema 'local': every table and
 * column of 'remote' must exist in 'local' with the same type. */
static bool
is_replication_possible(const struct ovsdb_schema *remote,
                        const struct ovsdb_schema *local)
{
    size_t i, j;

    for (i = 0; i < remote->n_tables; i++) {
        const struct ovsdb_table_schema *rt
            = remote->tables[remote->ovs_order[i]];
        const struct ovsdb_table_schema *lt
            = ovsdb_schema_find_table(local, rt->name);

        if (!lt) {
            VLOG_INFO("Table %s not present in the local db schema",
                      rt->name);
            return false;
        }
        for (j = 0; j < rt->n_columns; j++) {
            const struct ovsdb_column *rc = rt->columns[rt->ovs_order[j]];
            const struct ovsdb_column *lc;
            json_t *rtype, *ltype;
            bool same;

            if (rc->index < OVSDB_N_HIDDEN_COLUMNS) {
                continue;
            }
            lc = ovsdb_table_schema_find_column(lt, rc->name);
            if (!lc) {
                VLOG_INFO("Column %s not present in the local db schema "
                          "table %s.", rc->name, rt->name);
                return false;
            }
            rtype = ovsdb_type_to_json(&rc->type);
            ltype = ovsdb_type_to_json(&lc->type);
            same = json_equal(rtype, ltype);
            json_decref(rtype);
            json_decref(ltype);
            if (!same) {
                VLOG_INFO("Column %s mismatch in local db schema table %s.",
                          rc->name, rt->name);
                return false;
            }
        }
    }
    return true;
}

static void
send_monitors(void)
{
    size_t i;

    for (i = 0; i < n_rpl_dbs; i++) {
        /* What the active server has: it may lack tables and columns of
         * ours (see is_replication_possible()). */
        const struct ovsdb_schema *schema = find_remote_schema(rpl_dbs[i]);
        json_t *reqs = (schema ? replication_monitor_requests(schema, false)
                        : json_object());
        json_t *params;

        params = json_pack("[s s o]", rpl_dbs[i], rpl_dbs[i], reqs);
        send_request("monitor", params, rpl_dbs[i]);
    }
    state = RPL_MONITORS_REQUESTED;
}

/* All schemas are in: monitor what can be replicated. */
static void
schemas_done(void)
{
    if (!n_rpl_dbs) {
        VLOG_WARN("Nothing to replicate.");
        state = RPL_ERROR;
    } else {
        send_monitors();
    }
}

static void
log_unexpected(struct ovsdb_error *error)
{
    ovsdb_error_log_unexpected(error);
    ovsdb_error_destroy(error);
}

static void
handle_schema_reply(const char *db_name, const json_t *result)
{
    struct ovsdb *db = find_db(db_name);
    struct ovsdb_schema *schema;
    struct ovsdb_error *error;

    error = ovsdb_schema_from_json(result, &schema);
    if (error) {
        log_unexpected(error);
        remove_rpl_db(db_name);
        return;
    }
    if (!db) {
        remove_rpl_db(db_name);
    } else if (!ovsdb_schema_equal(schema, db->schema)) {
        VLOG_INFO("Schema version mismatch, checking if %s can still be "
                  "replicated or not.", db_name);
        if (is_replication_possible(schema, db->schema)) {
            VLOG_INFO("%s can be replicated.", db_name);
        } else {
            VLOG_INFO("%s cannot be replicated.", db_name);
            remove_rpl_db(db_name);
        }
    }
    if (is_rpl_db(db_name)) {
        remote_schemas = xrealloc(remote_schemas, (n_remote_schemas + 1)
                                  * sizeof *remote_schemas);
        remote_schemas[n_remote_schemas++] = schema;
    } else {
        ovsdb_schema_destroy(schema);
    }
}

static void
handle_reply(const struct jsonrpc_msg *msg)
{
    struct rpl_request r;

    if (!take_request(msg->id, &r)) {
        return;
    }
    if (msg->type == JSONRPC_ERROR) {
        /* As in Open vSwitch, an error leaves the request unanswered: a
         * database that the active server does not have stays in
         * "connecting" (other databases replicate all the same). */
        VLOG_DBG("%s: %s request failed", active_name, r.method);
    } else if (!strcmp(r.method, "list_dbs") && state == RPL_DBS_REQUESTED) {
        size_t i, j;

        for (i = 0; i < n_local_dbs; i++) {
            rpl_dbs = xrealloc(rpl_dbs, (n_rpl_dbs + 1) * sizeof *rpl_dbs);
            rpl_dbs[n_rpl_dbs++] = xstrdup(local_dbs[i]);
        }
        state = RPL_SCHEMAS_REQUESTED;
        for (j = 0; j < json_array_size(msg->result); j++) {
            const char *name = json_string_value(json_array_get(msg->result,
                                                                j));

            if (name && strcmp(name, "_Server") && is_rpl_db(name)) {
                send_request("get_schema", json_pack("[s]", name), name);
            }
        }
        if (!count_pending("get_schema")) {
            schemas_done();
        }
    } else if (!strcmp(r.method, "get_schema")
               && state == RPL_SCHEMAS_REQUESTED) {
        handle_schema_reply(r.db_name, msg->result);
        if (!count_pending("get_schema")) {
            schemas_done();
        }
    } else if (!strcmp(r.method, "monitor")
               && state == RPL_MONITORS_REQUESTED) {
        struct ovsdb *db = find_db(r.db_name);
        struct ovsdb_error *error;

        VLOG_INFO("Monitor request received. Resetting the database");
        error = db ? replication_reset_db(db, false) : NULL;
        if (!error && db) {
            error = replication_apply_updates(db, msg->result);
        }
        if (error) {
            log_unexpected(error);
            state = RPL_ERROR;
        } else if (!count_pending("monitor")) {
            state = RPL_REPLICATING;
        }
    }
    json_decref(r.id);
    free(r.method);
    free(r.db_name);
}

static void
handle_notify(const struct jsonrpc_msg *msg)
{
    const json_t *db_json = json_array_get(msg->params, 0);
    const char *db_name = json_string_value(db_json);
    struct ovsdb *db;
    struct ovsdb_error *error;

    if (strcmp(msg->method, "update")
        || (state != RPL_MONITORS_REQUESTED && state != RPL_REPLICATING)
        || !db_name || !is_rpl_db(db_name)) {
        return;
    }
    db = find_db(db_name);
    if (!db) {
        return;
    }
    error = replication_apply_updates(db, json_array_get(msg->params, 1));
    if (error) {
        log_unexpected(error);
        state = RPL_ERROR;
    }
}
