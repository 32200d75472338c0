/* ovsdb-idl: a client-side replica of an OVSDB database (see ovsdb-idl.h).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ovsdb-idl.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dynamic-string.h"
#include "json.h"
#include "jsonrpc.h"
#include "ovsdb/ohmap.h"
#include "ovsdb/ovsdb-data.h"
#include "ovsdb/ovsdb-error.h"
#include "ovsdb/schema.h"
#include "ovsdb/uuid.h"
#include "poll-loop.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ovsdb_idl);

/* The pause after a round of remotes that would not do (see 'paused'). */
#define IDL_ROUND_BACKOFF_MIN 1000
#define IDL_ROUND_BACKOFF_MAX 8000

enum idl_state {
    IDL_S_NEW,                  /* Connected, nothing sent yet. */
    IDL_S_SERVER_REQUESTED,     /* A monitor of "_Server"'s "Database"
                                 * table asked for, to learn whether this
                                 * server serves the database as wanted. */
    IDL_S_SCHEMA_REQUESTED,     /* "get_schema" sent. */
    IDL_S_MONITOR_REQUESTED,    /* A monitor request sent. */
    IDL_S_MONITORING,           /* Replica current. */
    IDL_S_ERROR                 /* Server refused the database; idle. */
};

/* The monitor methods, in the order they are tried. */
enum idl_monitor {
    IDL_MON_COND_SINCE,
    IDL_MON_COND,
    IDL_MON_PLAIN
};

static const char *const monitor_methods[] = {
    "monitor_cond_since", "monitor_cond", "monitor"
};

/* A registration by name, resolved against the server's schema. */
struct idl_reg {
    char *table;
    char *column;               /* NULL: the table itself. */
};

/* Per table of the server's schema. */
struct idl_table {
    const struct ovsdb_table_schema *schema;
    bool replicated;
    bool *columns;              /* Indexed by column index: replicated? */
    struct ohmap rows;          /* Contains "struct ovsdb_idl_row"s. */
};

struct ovsdb_idl_row {
    struct ohmap_node node;     /* In idl_table's 'rows'. */
    struct uuid uuid;
    struct idl_table *table;
    struct ovsdb_idl *idl;
    struct ovsdb_datum *old;    /* Replica values, NULL if txn-inserted. */
    struct ovsdb_datum *new;    /* Txn values for 'written' columns. */
    bool *written;              /* Per column, NULL if none. */
    bool *verified;             /* Per column, NULL if none. */
    bool txn_deleted;           /* Deleted by the current transaction. */
    bool server_deleted;        /* Gone from the server, kept for the txn. */
    bool in_txn;                /* On the txn's 'rows' list. */
    bool persist_uuid;          /* Txn-inserted with a UUID the server keeps. */
    struct ovsdb_idl_row *txn_next;

    /* Change tracking: the seqno (ovsdb_idl_get_seqno()) after the update
     * that inserted the row, and after the last update of each column. */
    unsigned int insert_seqno;
    unsigned int *column_seqnos;
};

/* A table's monitor condition (ovsdb_idl_set_condition()). */
struct idl_cond {
    char *table;
    json_t *where;              /* JSON array of clauses. */
};

struct ovsdb_idl {
    struct jsonrpc_session *session;
    char *db_name;

    /* "REMOTE1,REMOTE2,...": the remotes, tried in turn until one whose
     * "_Server" row says it serves the database (connected to its cluster
     * and, if 'leader_only', its leader), as Open vSwitch's IDL does.  The
     * row stays monitored: when it stops saying so (a new leader, a
     * partition), the IDL moves on to the next remote, and a transaction
     * in flight comes back as "try again". */
    char **remotes;
    size_t n_remotes, cur_remote, n_tried;
    bool retry, leader_only;

    /* After every remote was tried once without finding one that will do,
     * the next connection waits until 'next_remote_try' ('paused'), longer
     * after each such round, up to IDL_ROUND_BACKOFF_MAX ms; a server that
     * will do ends the back-off.  (Without the wait, a cluster that is down
     * or has no leader yet would be polled in a busy loop.) */
    bool paused;
    bool gave_up;               /* Only one remote, no retry, and it would
                                 * not do: dead, as Open vSwitch's. */
    long long int next_remote_try;
    int round_backoff;          /* ms; 0 until a round fails. */
    json_t *server_monitor_id;  /* ["server", DB]. */
    struct uuid server_row;     /* Our database's "_Server" row, or zero. */
    int64_t min_index;          /* Highest cluster "index" seen: a server
                                 * behind it has stale data. */

    unsigned int conn_seqno;    /* Session seqno last seen. */
    unsigned int change_seqno;
    enum idl_state state;
    enum idl_monitor monitor;
    bool ever_connected;
    bool db_change_aware;
    char *db_error;

    struct idl_reg *regs;
    size_t n_regs;
    struct idl_cond *conds;
    size_t n_conds;

    /* Changes whenever rows may have changed or gone away other than by
     * the caller's own writes (see ovsdb_idl_get_row_generation()). */
    unsigned int row_generation;

    /* A typed binding's state (ovsdb_idl_set_binding()). */
    void *binding;
    void (*binding_destroy)(void *);

    struct ovsdb_schema *schema;
    struct idl_table *tables;   /* One per schema table, same index. */
    json_t *request_id;         /* Outstanding get_schema/monitor request. */
    json_t *monitor_id;         /* ["monid", DB]. */
    struct uuid last_txn_id;

    /* Locks. */
    char *lock_name;
    bool steal;                 /* Use "steal" rather than "lock". */
    bool has_lock;
    bool lock_contended;
    json_t *lock_request_id;

    struct ovsdb_idl_txn *txn;
};

struct idl_insert {
    struct uuid temp;
    struct uuid real;
    bool persist;               /* 'temp' is the row's UUID for good. */
};

struct ovsdb_idl_txn {
    struct ovsdb_idl *idl;
    enum ovsdb_idl_txn_status status;
    struct ds comment;
    bool dry_run;
    char *error;
    struct ovsdb_idl_row *rows;     /* Touched rows, 'txn_next' list. */
    json_t *extra_ops;              /* Raw ops from ovsdb_idl_txn_add_op(). */
    json_t *pre_ops;                /* From ovsdb_idl_txn_add_precondition. */
    json_t *request_id;
    json_t *results;                /* The transact reply. */

    struct idl_insert *inserts;
    size_t n_inserts;

    /* Increment. */
    const struct ovsdb_idl_row *inc_row;
    const struct ovsdb_column *inc_column;
    size_t inc_index;               /* Index of the "mutate" op. */
    int64_t inc_new_value;
    bool inc_on_insert;             /* Increment folded into an insert. */

    size_t extra_index;             /* Index of the first raw op. */
    size_t n_idl_ops;
};

static void idl_restart(struct ovsdb_idl *);
static void idl_clear_replica(struct ovsdb_idl *);
static void idl_process_msg(struct ovsdb_idl *, struct jsonrpc_msg *);
static void idl_send_schema_request(struct ovsdb_idl *);
static void idl_send_server_request(struct ovsdb_idl *);
static void idl_next_remote(struct ovsdb_idl *);
static void idl_send_monitor_request(struct ovsdb_idl *);
static void idl_send_lock_request(struct ovsdb_idl *);
static void idl_txn_process_reply(struct ovsdb_idl_txn *,
                                  const struct jsonrpc_msg *);
static void idl_row_free(struct ovsdb_idl_row *);
static struct ovsdb_idl_row *idl_row_find(struct idl_table *,
                                          const struct uuid *);

static void
idl_register(struct ovsdb_idl *idl, const char *table, const char *column);
static struct idl_cond *
idl_find_cond(const struct ovsdb_idl *idl, const char *table);
static struct idl_table *
idl_table(const struct ovsdb_idl *idl, const struct ovsdb_table_schema *ts);
static bool row_is_visible(const struct ovsdb_idl_row *row);
static const struct ovsdb_idl_row *
next_visible(const struct idl_table *t, struct ohmap_node *node);
static void
idl_set_lock__(struct ovsdb_idl *idl, const char *name, bool steal);
static struct ovsdb_idl_row *
idl_row_create(struct ovsdb_idl *idl, struct idl_table *t,
               const struct uuid *uuid);
static void idl_row_clear_txn(struct ovsdb_idl_row *row);
static void txn_touch(struct ovsdb_idl_txn *txn, struct ovsdb_idl_row *row);
static json_t *txn_build_ops(struct ovsdb_idl_txn *txn, bool *any_updates);

static struct idl_table *
idl_table(const struct ovsdb_idl *idl, const struct ovsdb_table_schema *ts);

/* ------------------------------------------------------------------------
 * The replica.
 * ------------------------------------------------------------------------ */

/* Creates an IDL; see ovsdb-idl.h. */
struct ovsdb_idl *
ovsdb_idl_create(const char *remote, const char *db_name, bool retry)
{
    struct ovsdb_idl *idl = xzalloc(sizeof *idl);
    char *copy = xstrdup(remote), *save = NULL, *r;

    for (r = strtok_r(copy, ",", &save); r; r = strtok_r(NULL, ",", &save)) {
        idl->remotes = xrealloc(idl->remotes, ((idl->n_remotes + 1)
                                               * sizeof *idl->remotes));
        idl->remotes[idl->n_remotes++] = xstrdup(r);
    }
    free(copy);
    if (!idl->n_remotes) {
        idl->remotes = xmalloc(sizeof *idl->remotes);
        idl->remotes[idl->n_remotes++] = xstrdup(remote);
    }
    idl->retry = retry;
    idl->leader_only = true;
    idl->session = jsonrpc_session_open(idl->remotes[0],
                                        retry || idl->n_remotes > 1);
    idl->db_name = xstrdup(db_name);
    idl->conn_seqno = jsonrpc_session_get_seqno(idl->session);
    idl->change_seqno = 1;
    idl->state = IDL_S_NEW;
    idl->monitor_id = jsonx_array(2, json_string("monid"),
                                  json_string(db_name));
    idl->server_monitor_id = jsonx_array(2, json_string("server"),
                                         json_string(db_name));
    uuid_zero(&idl->last_txn_id);
    return idl;
}

/* Destroys 'idl' and its replica.  An open transaction must have been
 * destroyed first. */
void
ovsdb_idl_destroy(struct ovsdb_idl *idl)
{
    size_t i;

    if (!idl) {
        return;
    }
    if (idl->txn) {
        ovsdb_idl_txn_destroy(idl->txn);
    }
    if (idl->binding_destroy) {
        idl->binding_destroy(idl->binding);
    }
    idl_clear_replica(idl);
    jsonrpc_session_close(idl->session);
    for (i = 0; i < idl->n_remotes; i++) {
        free(idl->remotes[i]);
    }
    free(idl->remotes);
    for (i = 0; i < idl->n_regs; i++) {
        free(idl->regs[i].table);
        free(idl->regs[i].column);
    }
    free(idl->regs);
    for (i = 0; i < idl->n_conds; i++) {
        free(idl->conds[i].table);
        json_decref(idl->conds[i].where);
    }
    free(idl->conds);
    free(idl->db_name);
    free(idl->db_error);
    free(idl->lock_name);
    json_decref(idl->request_id);
    json_decref(idl->monitor_id);
    json_decref(idl->server_monitor_id);
    json_decref(idl->lock_request_id);
    free(idl);
}

/* With several remotes, whether only a cluster's leader will do (the
 * default, as in Open vSwitch) or any connected member. */
void
ovsdb_idl_set_leader_only(struct ovsdb_idl *idl, bool leader_only)
{
    idl->leader_only = leader_only;
}

/* Registers 'table' for replication (row set at least). */
void
ovsdb_idl_add_table(struct ovsdb_idl *idl, const char *table)
{
    idl_register(idl, table, NULL);
}

/* Registers 'column' of 'table' for replication. */
void
ovsdb_idl_add_column(struct ovsdb_idl *idl, const char *table,
                     const char *column)
{
    idl_register(idl, table, column);
}

/* Sets the monitor condition of 'table'; see ovsdb-idl.h. */
void
ovsdb_idl_set_condition(struct ovsdb_idl *idl, const char *table,
                        json_t *where)
{
    struct idl_cond *cond = idl_find_cond(idl, table);

    if (!cond) {
        idl->conds = xrealloc(idl->conds,
                              (idl->n_conds + 1) * sizeof *idl->conds);
        cond = &idl->conds[idl->n_conds++];
        cond->table = xstrdup(table);
        cond->where = NULL;
    }
    json_decref(cond->where);
    cond->where = where ? where : jsonx_array(1, json_true());

    if (idl->state == IDL_S_MONITORING && idl->monitor != IDL_MON_PLAIN
        && idl->schema && ovsdb_schema_find_table(idl->schema, table)) {
        /* Change the condition of the running monitor; the server answers
         * with the rows that now match or no longer do. */
        json_t *requests = json_object();
        json_t *request = json_object();

        json_object_set_new(request, "where", json_deep_copy(cond->where));
        json_object_set_new(requests, table, jsonx_array(1, request));
        jsonrpc_session_send(idl->session,
                             jsonrpc_create_request(
                                 "monitor_cond_change",
                                 jsonx_array(3,
                                             json_incref(idl->monitor_id),
                                             json_incref(idl->monitor_id),
                                             requests),
                                 NULL));
    }
}

/* Enables or disables "set_db_change_aware" on each new monitor. */
void
ovsdb_idl_set_db_change_aware(struct ovsdb_idl *idl, bool aware)
{
    idl->db_change_aware = aware;
}

/* Runs the connection and the state machine; see ovsdb-idl.h. */
void
ovsdb_idl_run(struct ovsdb_idl *idl)
{
    int i;

    if (idl->gave_up) {
        return;
    }
    if (idl->paused) {
        if (time_msec() < idl->next_remote_try) {
            return;
        }
        idl->paused = false;
    }
    jsonrpc_session_run(idl->session);
    if (jsonrpc_session_get_seqno(idl->session) != idl->conn_seqno) {
        idl->conn_seqno = jsonrpc_session_get_seqno(idl->session);
        idl_restart(idl);
        if (idl->n_remotes > 1
            && !jsonrpc_session_is_connected(idl->session)) {
            /* The connection ended: another server, rather than this one
             * again after a back-off. */
            idl_next_remote(idl);
            return;
        }
    }
    if (idl->n_remotes > 1 && !jsonrpc_session_is_connected(idl->session)
        && jsonrpc_session_get_last_error(idl->session)) {
        idl_next_remote(idl);
        return;
    }
    if (jsonrpc_session_is_connected(idl->session)) {
        idl->ever_connected = true;
        if (idl->state == IDL_S_NEW) {
            /* Every server first shows its "_Server" row, even the only
             * one: a cluster member that is not what the client wants is
             * left for later (or for another), as in Open vSwitch. */
            idl_send_server_request(idl);
        }
    }

    /* Bound the work per call so that a flood of updates cannot starve the
     * caller's other duties. */
    for (i = 0; i < 50; i++) {
        struct jsonrpc_msg *msg = jsonrpc_session_recv(idl->session);

        if (!msg) {
            break;
        }
        idl_process_msg(idl, msg);
        jsonrpc_msg_destroy(msg);
        if (i == 49) {
            poll_immediate_wake();
        }
    }
}

/* Registers the events that make ovsdb_idl_run() useful. */
void
ovsdb_idl_wait(struct ovsdb_idl *idl)
{
    if (idl->paused) {
        /* Nothing can happen before the pause ends: no connection. */
        poll_timer_wait_until(idl->next_remote_try);
        return;
    }
    jsonrpc_session_wait(idl->session);
    jsonrpc_session_recv_wait(idl->session);
}

/* Returns the change seqno. */
unsigned int
ovsdb_idl_get_seqno(const struct ovsdb_idl *idl)
{
    return idl->change_seqno;
}

/* True once the replica is current on this connection. */
bool
ovsdb_idl_is_monitoring(const struct ovsdb_idl *idl)
{
    return idl->state == IDL_S_MONITORING;
}

/* True if the IDL has connected at least once. */
bool
ovsdb_idl_has_ever_connected(const struct ovsdb_idl *idl)
{
    return idl->ever_connected;
}

/* False once a non-retrying IDL has given up. */
bool
ovsdb_idl_is_alive(const struct ovsdb_idl *idl)
{
    return !idl->gave_up && jsonrpc_session_is_alive(idl->session);
}

/* True if a non-retrying IDL with one remote gave up because the server
 * would not do (not the leader, cut off from its cluster, stale). */
bool
ovsdb_idl_gave_up(const struct ovsdb_idl *idl)
{
    return idl->gave_up;
}

/* True while connected. */
bool
ovsdb_idl_is_connected(const struct ovsdb_idl *idl)
{
    return jsonrpc_session_is_connected(idl->session);
}

/* Returns the last connection error, or 0. */
int
ovsdb_idl_get_last_error(const struct ovsdb_idl *idl)
{
    int error = jsonrpc_session_get_last_error(idl->session);

    if (!error) {
        error = jsonrpc_session_get_status(idl->session);
    }
    return error == EOF ? 0 : error;
}

/* Returns the server's complaint about the database, or NULL. */
const char *
ovsdb_idl_get_db_error(const struct ovsdb_idl *idl)
{
    return idl->db_error;
}

/* Returns the remote's name. */
const char *
ovsdb_idl_get_remote(const struct ovsdb_idl *idl)
{
    return jsonrpc_session_get_name(idl->session);
}

/* Returns the name of the monitor method in use, or NULL. */
const char *
ovsdb_idl_get_monitor_method(const struct ovsdb_idl *idl)
{
    return (idl->state == IDL_S_MONITORING
            ? monitor_methods[idl->monitor] : NULL);
}

/* Drops the connection; the IDL reconnects and resynchronizes. */
void
ovsdb_idl_force_reconnect(struct ovsdb_idl *idl)
{
    jsonrpc_session_force_reconnect(idl->session);
}

/* Returns the server's schema, or NULL. */
const struct ovsdb_schema *
ovsdb_idl_get_schema(const struct ovsdb_idl *idl)
{
    return idl->schema;
}

/* Returns the schema of table 'name', or NULL. */
const struct ovsdb_table_schema *
ovsdb_idl_get_table(const struct ovsdb_idl *idl, const char *name)
{
    return idl->schema ? ovsdb_schema_find_table(idl->schema, name) : NULL;
}

/* Whether 'column' of 'ts' is replicated. */
bool
ovsdb_idl_is_replicated(const struct ovsdb_idl *idl,
                        const struct ovsdb_table_schema *ts,
                        const struct ovsdb_column *column)
{
    struct idl_table *t = idl_table(idl, ts);

    return t && t->replicated && column->index < ts->n_columns
           && t->columns[column->index];
}

/* Returns the first row of 'ts', or NULL. */
const struct ovsdb_idl_row *
ovsdb_idl_first_row(const struct ovsdb_idl *idl,
                    const struct ovsdb_table_schema *ts)
{
    struct idl_table *t = idl_table(idl, ts);

    return t ? next_visible(t, ohmap_first(&t->rows)) : NULL;
}

/* Returns the row after 'row' in its table, or NULL. */
const struct ovsdb_idl_row *
ovsdb_idl_next_row(const struct ovsdb_idl_row *row)
{
    return next_visible(row->table,
                        ohmap_next(&row->table->rows, &row->node));
}

/* Returns the row of 'ts' with 'uuid', or NULL. */
const struct ovsdb_idl_row *
ovsdb_idl_get_row(const struct ovsdb_idl *idl,
                  const struct ovsdb_table_schema *ts, const struct uuid *uuid)
{
    struct idl_table *t = idl_table(idl, ts);
    struct ovsdb_idl_row *row = t ? idl_row_find(t, uuid) : NULL;

    return row && row_is_visible(row) ? row : NULL;
}

/* Returns the number of visible rows of 'ts'. */
size_t
ovsdb_idl_count_rows(const struct ovsdb_idl *idl,
                     const struct ovsdb_table_schema *ts)
{
    const struct ovsdb_idl_row *row;
    size_t n = 0;

    OVSDB_IDL_FOR_EACH_ROW (row, idl, ts) {
        n++;
    }
    return n;
}

/* Returns the row's UUID (temporary for a row the txn inserted). */
const struct uuid *
ovsdb_idl_row_get_uuid(const struct ovsdb_idl_row *row)
{
    return &row->uuid;
}

/* Returns the row's table schema. */
const struct ovsdb_table_schema *
ovsdb_idl_row_get_table(const struct ovsdb_idl_row *row)
{
    return row->table->schema;
}

/* Returns the current value of 'column' of 'row'. */
const struct ovsdb_datum *
ovsdb_idl_row_get(const struct ovsdb_idl_row *row,
                  const struct ovsdb_column *column)
{
    unsigned int idx = column->index;

    if (row->written && row->written[idx]) {
        return &row->new[idx];
    }
    return &row->old[idx];
}

/* Returns the value of the column named 'name', or NULL. */
const struct ovsdb_datum *
ovsdb_idl_row_get_by_name(const struct ovsdb_idl_row *row, const char *name)
{
    const struct ovsdb_column *c
        = ovsdb_table_schema_find_column(row->table->schema, name);

    return c ? ovsdb_idl_row_get(row, c) : NULL;
}

/* True for a row inserted by the current transaction. */
bool
ovsdb_idl_row_is_new(const struct ovsdb_idl_row *row)
{
    return row->in_txn && !row->old;
}

/* Change tracking; see ovsdb-idl.h. */
unsigned int
ovsdb_idl_row_get_insert_seqno(const struct ovsdb_idl_row *row)
{
    return row->insert_seqno;
}

unsigned int
ovsdb_idl_row_get_column_seqno(const struct ovsdb_idl_row *row,
                               const struct ovsdb_column *column)
{
    unsigned int seqno = row->column_seqnos[column->index];

    return MAX(seqno, row->insert_seqno);
}

/* Returns the generation of 'idl''s rows; see ovsdb-idl.h. */
unsigned int
ovsdb_idl_get_row_generation(const struct ovsdb_idl *idl)
{
    return idl->row_generation;
}

/* Attaches a typed binding's state to 'idl'; see ovsdb-idl.h. */
void
ovsdb_idl_set_binding(struct ovsdb_idl *idl, void *binding,
                      void (*destroy)(void *))
{
    if (idl->binding_destroy) {
        idl->binding_destroy(idl->binding);
    }
    idl->binding = binding;
    idl->binding_destroy = destroy;
}

void *
ovsdb_idl_get_binding(const struct ovsdb_idl *idl)
{
    return idl->binding;
}

/* Sets the lock the IDL wants; see ovsdb-idl.h. */
void
ovsdb_idl_set_lock(struct ovsdb_idl *idl, const char *name)
{
    idl_set_lock__(idl, name, false);
}

/* Steals lock 'name'. */
void
ovsdb_idl_steal_lock(struct ovsdb_idl *idl, const char *name)
{
    idl_set_lock__(idl, name, true);
}

/* True if the IDL holds its lock. */
bool
ovsdb_idl_has_lock(const struct ovsdb_idl *idl)
{
    return idl->has_lock;
}

/* True if another client holds the lock the IDL wants. */
bool
ovsdb_idl_is_lock_contended(const struct ovsdb_idl *idl)
{
    return idl->lock_contended;
}

/* ------------------------------------------------------------------------
 * Transactions.
 * ------------------------------------------------------------------------ */

/* Returns the name of 'status'. */
const char *
ovsdb_idl_txn_status_to_string(enum ovsdb_idl_txn_status status)
{
    switch (status) {
#define OVSDB_IDL_TXN_STATUS(ENUM, NAME) case TXN_##ENUM: return NAME;
        OVSDB_IDL_TXN_STATUSES
#undef OVSDB_IDL_TXN_STATUS
    }
    return "<unknown>";
}

/* Starts a transaction on 'idl', which must have none open. */
struct ovsdb_idl_txn *
ovsdb_idl_txn_create(struct ovsdb_idl *idl)
{
    struct ovsdb_idl_txn *txn = xzalloc(sizeof *txn);

    util_assert(!idl->txn);
    txn->idl = idl;
    txn->status = TXN_UNCOMMITTED;
    ds_init(&txn->comment);
    txn->extra_ops = json_array();
    txn->pre_ops = json_array();
    idl->txn = txn;
    return txn;
}

/* Ends 'txn', undoing its effects on the replica. */
void
ovsdb_idl_txn_destroy(struct ovsdb_idl_txn *txn)
{
    struct ovsdb_idl_row *row, *next;

    if (!txn) {
        return;
    }
    for (row = txn->rows; row; row = next) {
        next = row->txn_next;
        if (!row->old || row->server_deleted) {
            ohmap_remove(&row->table->rows, &row->node);
            idl_row_free(row);
        } else {
            idl_row_clear_txn(row);
        }
    }
    if (txn->idl->txn == txn) {
        txn->idl->txn = NULL;
    }
    txn->idl->row_generation++;
    ds_destroy(&txn->comment);
    free(txn->error);
    json_decref(txn->extra_ops);
    json_decref(txn->pre_ops);
    json_decref(txn->request_id);
    json_decref(txn->results);
    free(txn->inserts);
    free(txn);
}

/* Appends to the transaction's comment. */
void
ovsdb_idl_txn_add_comment(struct ovsdb_idl_txn *txn, const char *fmt, ...)
{
    va_list args;

    if (txn->comment.length) {
        ds_put_char(&txn->comment, '\n');
    }
    va_start(args, fmt);
    ds_put_format_valist(&txn->comment, fmt, args);
    va_end(args);
}

/* Makes 'txn' a dry run. */
void
ovsdb_idl_txn_set_dry_run(struct ovsdb_idl_txn *txn)
{
    txn->dry_run = true;
}

/* Inserts a new row into 'ts'. */
const struct ovsdb_idl_row *
ovsdb_idl_txn_insert(struct ovsdb_idl_txn *txn,
                     const struct ovsdb_table_schema *ts)
{
    return ovsdb_idl_txn_insert_uuid(txn, ts, NULL);
}

/* Inserts a new row into 'ts' with temporary UUID 'temp' (NULL: a fresh
 * one). */
const struct ovsdb_idl_row *
ovsdb_idl_txn_insert_uuid(struct ovsdb_idl_txn *txn,
                          const struct ovsdb_table_schema *ts,
                          const struct uuid *temp)
{
    struct idl_table *t = idl_table(txn->idl, ts);
    struct ovsdb_idl_row *row;
    struct uuid uuid;
    size_t i;

    util_assert(t);
    if (temp) {
        uuid = *temp;
    } else {
        uuid_generate(&uuid);
    }
    row = idl_row_create(txn->idl, t, &uuid);
    txn_touch(txn, row);
    /* Every column of a new row reads as written, with its default. */
    for (i = 0; i < ts->n_columns; i++) {
        ovsdb_datum_init_default(&row->new[i], &ts->columns[i]->type);
        row->written[i] = true;
    }
    row->new[OVSDB_COL_UUID].keys[0].uuid = uuid;
    return row;
}

/* Inserts a new row into 'ts' whose UUID is 'uuid' for good: the insert
 * asks the server for that UUID (its "uuid" member), which fails if a row
 * already has it. */
const struct ovsdb_idl_row *
ovsdb_idl_txn_insert_persist_uuid(struct ovsdb_idl_txn *txn,
                                  const struct ovsdb_table_schema *ts,
                                  const struct uuid *uuid)
{
    struct ovsdb_idl_row *row;

    row = (struct ovsdb_idl_row *) ovsdb_idl_txn_insert_uuid(txn, ts, uuid);
    row->persist_uuid = true;
    return row;
}

/* Writes 'datum' (moved) to 'column' of 'row'. */
void
ovsdb_idl_txn_write(struct ovsdb_idl_txn *txn,
                    const struct ovsdb_idl_row *row_,
                    const struct ovsdb_column *column,
                    struct ovsdb_datum *datum)
{
    struct ovsdb_idl_row *row = (struct ovsdb_idl_row *) row_;
    unsigned int idx = column->index;

    txn_touch(txn, row);
    if (row->written[idx]) {
        ovsdb_datum_destroy(&row->new[idx], &column->type);
    }
    row->new[idx] = *datum;
    row->written[idx] = true;
    ovsdb_datum_init_empty(datum);
}

/* Writes a copy of 'datum' to 'column' of 'row'. */
void
ovsdb_idl_txn_write_clone(struct ovsdb_idl_txn *txn,
                          const struct ovsdb_idl_row *row,
                          const struct ovsdb_column *column,
                          const struct ovsdb_datum *datum)
{
    struct ovsdb_datum copy;

    ovsdb_datum_clone(&copy, datum, &column->type);
    ovsdb_idl_txn_write(txn, row, column, &copy);
}

/* Deletes 'row'. */
void
ovsdb_idl_txn_delete(struct ovsdb_idl_txn *txn,
                     const struct ovsdb_idl_row *row_)
{
    struct ovsdb_idl_row *row = (struct ovsdb_idl_row *) row_;

    txn_touch(txn, row);
    row->txn_deleted = true;
}

/* Adds a precondition on 'column' of 'row'. */
void
ovsdb_idl_txn_verify(struct ovsdb_idl_txn *txn,
                     const struct ovsdb_idl_row *row_,
                     const struct ovsdb_column *column)
{
    struct ovsdb_idl_row *row = (struct ovsdb_idl_row *) row_;

    if (!row->old) {
        return;                 /* Inserted by this txn: nothing to verify. */
    }
    txn_touch(txn, row);
    row->verified[column->index] = true;
}

/* Increments 'column' of 'row' in the transaction. */
void
ovsdb_idl_txn_increment(struct ovsdb_idl_txn *txn,
                        const struct ovsdb_idl_row *row,
                        const struct ovsdb_column *column)
{
    txn->inc_row = row;
    txn->inc_column = column;
    if (!row->old) {
        /* The row is new: there is nothing to mutate on the server yet;
         * write the incremented default instead. */
        const struct ovsdb_datum *d = ovsdb_idl_row_get(row, column);
        int64_t v = (d->n ? d->keys[0].integer : 0) + 1;
        struct ovsdb_datum nd;
        union ovsdb_atom atom;

        ovsdb_datum_init_empty(&nd);
        atom.integer = v;
        ovsdb_datum_add(&nd, &atom, NULL, &column->type);
        ovsdb_idl_txn_write(txn, row, column, &nd);
        txn->inc_new_value = v;
        txn->inc_row = NULL;
        txn->inc_on_insert = true;
    }
}

/* Appends a raw operation. */
size_t
ovsdb_idl_txn_add_op(struct ovsdb_idl_txn *txn, json_t *op)
{
    json_array_append(txn->extra_ops, op);
    return json_array_size(txn->extra_ops) - 1;
}

/* Adds a raw operation (reference taken) before all others, typically a
 * "wait" that the transaction depends on.  Its result is not reported. */
void
ovsdb_idl_txn_add_precondition(struct ovsdb_idl_txn *txn, json_t *op)
{
    json_array_append(txn->pre_ops, op);
}

/* Sends 'txn' if not yet sent; returns its status. */
enum ovsdb_idl_txn_status
ovsdb_idl_txn_commit(struct ovsdb_idl_txn *txn)
{
    struct ovsdb_idl *idl = txn->idl;
    bool any_updates;
    json_t *ops, *params;
    size_t i;

    if (txn->status != TXN_UNCOMMITTED) {
        return txn->status;
    }
    if (idl->state != IDL_S_MONITORING) {
        txn->status = TXN_TRY_AGAIN;
        return txn->status;
    }
    if (idl->lock_name && !idl->has_lock) {
        txn->status = TXN_NOT_LOCKED;
        return txn->status;
    }
    ops = txn_build_ops(txn, &any_updates);
    /* An increment alone changes nothing worth committing. */
    if (!any_updates) {
        json_decref(ops);
        txn->status = TXN_UNCHANGED;
        return txn->status;
    }
    params = jsonx_array(1, json_string(idl->db_name));
    for (i = 0; i < json_array_size(ops); i++) {
        json_array_append(params, json_array_get(ops, i));
    }
    json_decref(ops);
    json_decref(txn->request_id);
    txn->request_id = NULL;
    if (jsonrpc_session_send(idl->session,
                             jsonrpc_create_request("transact", params,
                                                    &txn->request_id))) {
        txn->status = TXN_TRY_AGAIN;
    } else {
        txn->status = TXN_INCOMPLETE;
    }
    return txn->status;
}

/* Commits 'txn' and waits for the outcome. */
enum ovsdb_idl_txn_status
ovsdb_idl_txn_commit_block(struct ovsdb_idl_txn *txn)
{
    enum ovsdb_idl_txn_status status;

    while ((status = ovsdb_idl_txn_commit(txn)) == TXN_INCOMPLETE) {
        ovsdb_idl_run(txn->idl);
        if (txn->status != TXN_INCOMPLETE) {
            continue;
        }
        ovsdb_idl_wait(txn->idl);
        poll_block();
    }
    return status;
}

/* Returns the reason for an ERROR status. */
const char *
ovsdb_idl_txn_get_error(const struct ovsdb_idl_txn *txn)
{
    return txn->error ? txn->error
           : ovsdb_idl_txn_status_to_string(txn->status);
}

/* Returns the real UUID of the row inserted with temporary UUID 'temp',
 * or NULL. */
const struct uuid *
ovsdb_idl_txn_get_insert_uuid(const struct ovsdb_idl_txn *txn,
                              const struct uuid *temp)
{
    size_t i;

    for (i = 0; i < txn->n_inserts; i++) {
        if (uuid_equals(&txn->inserts[i].temp, temp)) {
            return (uuid_is_zero(&txn->inserts[i].real) ? NULL
                    : &txn->inserts[i].real);
        }
    }
    return NULL;
}

/* Returns the incremented column's new value. */
int64_t
ovsdb_idl_txn_get_increment_new_value(const struct ovsdb_idl_txn *txn)
{
    return txn->inc_new_value;
}

/* Returns the server's result for raw op 'index', or NULL. */
const json_t *
ovsdb_idl_txn_get_op_result(const struct ovsdb_idl_txn *txn, size_t index)
{
    return txn->results ? json_array_get(txn->results,
                                         txn->extra_index + index) : NULL;
}

/* Returns the IDL of 'txn'. */
struct ovsdb_idl *
ovsdb_idl_txn_get_idl(const struct ovsdb_idl_txn *txn)
{
    return txn->idl;
}

static void
idl_register(struct ovsdb_idl *idl, const char *table, const char *column)
{
    struct idl_reg *reg;

    idl->regs = xrealloc(idl->regs, (idl->n_regs + 1) * sizeof *idl->regs);
    reg = &idl->regs[idl->n_regs++];
    reg->table = xstrdup(table);
    reg->column = column ? xstrdup(column) : NULL;
}

static struct idl_cond *
idl_find_cond(const struct ovsdb_idl *idl, const char *table)
{
    for (size_t i = 0; i < idl->n_conds; i++) {
        if (!strcmp(idl->conds[i].table, table)) {
            return &idl->conds[i];
        }
    }
    return NULL;
}

static struct idl_table *
idl_table(const struct ovsdb_idl *idl, const struct ovsdb_table_schema *ts)
{
    if (!idl->schema || !ts || ts->index >= idl->schema->n_tables
        || idl->schema->tables[ts->index] != ts) {
        return NULL;
    }
    return &idl->tables[ts->index];
}

static bool
row_is_visible(const struct ovsdb_idl_row *row)
{
    return !row->txn_deleted && !row->server_deleted;
}

static const struct ovsdb_idl_row *
next_visible(const struct idl_table *t, struct ohmap_node *node)
{
    for (; node; node = ohmap_next(&t->rows, node)) {
        struct ovsdb_idl_row *row = (struct ovsdb_idl_row *) node;

        if (row_is_visible(row)) {
            return row;
        }
    }
    return NULL;
}

/* ------------------------------------------------------------------------
 * Locks.
 * ------------------------------------------------------------------------ */

static void
idl_set_lock__(struct ovsdb_idl *idl, const char *name, bool steal)
{
    if (idl->lock_name && (!name || strcmp(name, idl->lock_name))) {
        if (jsonrpc_session_is_connected(idl->session)) {
            json_t *params = jsonx_array(1, json_string(idl->lock_name));

            jsonrpc_session_send(idl->session,
                                 jsonrpc_create_request("unlock", params,
                                                        NULL));
        }
        free(idl->lock_name);
        idl->lock_name = NULL;
        idl->has_lock = idl->lock_contended = false;
        json_decref(idl->lock_request_id);
        idl->lock_request_id = NULL;
    }
    if (name && (!idl->lock_name || steal)) {
        if (!idl->lock_name) {
            idl->lock_name = xstrdup(name);
        }
        idl->steal = steal;
        if (idl->state == IDL_S_MONITORING) {
            idl_send_lock_request(idl);
        }
    }
}

static void
idl_send_lock_request(struct ovsdb_idl *idl)
{
    json_t *params = jsonx_array(1, json_string(idl->lock_name));

    json_decref(idl->lock_request_id);
    idl->lock_request_id = NULL;
    jsonrpc_session_send(idl->session,
                         jsonrpc_create_request(idl->steal ? "steal" : "lock",
                                                params,
                                                &idl->lock_request_id));
}

/* ------------------------------------------------------------------------
 * State machine.
 * ------------------------------------------------------------------------ */

static void
idl_changed(struct ovsdb_idl *idl)
{
    idl->change_seqno++;
    idl->row_generation++;
}

/* A new connection (or none): start over from the schema. */
static void
idl_restart(struct ovsdb_idl *idl)
{
    json_decref(idl->request_id);
    idl->request_id = NULL;
    json_decref(idl->lock_request_id);
    idl->lock_request_id = NULL;
    if (idl->has_lock) {
        idl->has_lock = false;
    }
    idl->lock_contended = false;
    idl->state = IDL_S_NEW;
    idl->monitor = IDL_MON_COND_SINCE;
    if (idl->txn && idl->txn->status == TXN_INCOMPLETE) {
        idl->txn->status = TXN_TRY_AGAIN;
        json_decref(idl->txn->request_id);
        idl->txn->request_id = NULL;
    }
    idl_changed(idl);
}

/* Moves on to the next remote (after a pause once all were tried). */
static void
idl_next_remote(struct ovsdb_idl *idl)
{
    if (idl->n_remotes == 1 && !idl->retry) {
        /* Nowhere else to go, and no retrying: give up. */
        jsonrpc_session_force_reconnect(idl->session);
        idl->gave_up = true;
        return;
    }
    idl->cur_remote = (idl->cur_remote + 1) % idl->n_remotes;
    if (++idl->n_tried % idl->n_remotes == 0) {
        idl->round_backoff = (!idl->round_backoff ? IDL_ROUND_BACKOFF_MIN
                              : MIN(2 * idl->round_backoff,
                                    IDL_ROUND_BACKOFF_MAX));
        idl->next_remote_try = time_msec() + idl->round_backoff;
        idl->paused = true;
    }
    VLOG_DBG("%s: trying %s%s", idl->db_name, idl->remotes[idl->cur_remote],
             idl->paused ? " after a pause" : "");
    jsonrpc_session_close(idl->session);
    idl->session = jsonrpc_session_open(idl->remotes[idl->cur_remote],
                                        idl->retry || idl->n_remotes > 1);
    idl->conn_seqno = jsonrpc_session_get_seqno(idl->session);
    idl_restart(idl);
}

/* Asks the server to monitor the "Database" table of its "_Server". */
static void
idl_send_server_request(struct ovsdb_idl *idl)
{
    json_t *params = json_pack("[s, O, {s:{s:[s,s,s,s,s,s]}}]", "_Server",
                               idl->server_monitor_id, "Database", "columns",
                               "name", "model", "connected", "leader",
                               "schema", "index");

    json_decref(idl->request_id);
    idl->request_id = NULL;
    uuid_zero(&idl->server_row);
    jsonrpc_session_send(idl->session,
                         jsonrpc_create_request("monitor", params,
                                                &idl->request_id));
    idl->state = IDL_S_SERVER_REQUESTED;
}

/* Whether the "_Server" row 'row' (NULL: there is none for our database)
 * says that this server will do: a standalone database, or a connected
 * member of its cluster (or a relay in sync) that is, if 'leader_only',
 * its leader, and not behind what the IDL has already seen.  Logs why
 * not, with Open vSwitch's words. */
static bool
idl_server_will_do(struct ovsdb_idl *idl, const json_t *row)
{
    const char *name = jsonrpc_session_get_name(idl->session);
    const char *model, *why = NULL;
    const json_t *schema, *index;
    bool relay;

    if (!row && idl->n_remotes == 1) {
        /* Nowhere else to look: "get_schema" gets the server's error. */
        return true;
    } else if (!row) {
        VLOG_INFO("%s: server does not have %s database", name, idl->db_name);
        return false;
    }
    model = json_string_value(json_object_get(row, "model"));
    relay = model && !strcmp(model, "relay");
    if (!relay && (!model || strcmp(model, "clustered"))) {
        return true;
    }
    schema = json_object_get(row, "schema");
    index = json_object_get(row, "index");
    if (!json_is_string(schema)) {
        why = (relay ? "has not yet connected to the relay source"
               : "has not yet joined cluster");
    } else if (!json_is_true(json_object_get(row, "connected"))) {
        why = (relay ? "is disconnected from the relay source"
               : "is disconnected from cluster");
    } else if (idl->leader_only && relay) {
        why = "cannot be a leader";
    } else if (idl->leader_only
               && !json_is_true(json_object_get(row, "leader"))) {
        why = "is not cluster leader";
    } else if (!relay && json_is_integer(index)
               && json_integer_value(index) < idl->min_index) {
        why = "has stale data";
    }
    if (why) {
        VLOG_INFO("%s: %s database server %s; trying another server",
                  name, relay ? "relay" : "clustered", why);
        return false;
    }
    if (json_is_integer(index)) {
        idl->min_index = json_integer_value(index);
    }
    return true;
}

/* Applies the "_Server" monitor's 'updates' (its first reply when
 * 'initial') to the IDL's idea of our database's row, and returns whether
 * the server will still do.  A plain "monitor" sends every column in
 * "new", so the row is the latest "new" with our database's name. */
static bool
idl_server_update(struct ovsdb_idl *idl, const json_t *updates, bool initial)
{
    const json_t *rows = json_object_get(updates, "Database");
    const json_t *found = NULL, *update;
    const char *id;
    bool touched = initial;

    json_object_foreach ((json_t *) rows, id, update) {
        const json_t *new = json_object_get(update, "new");
        const char *name = json_string_value(json_object_get(new, "name"));
        struct uuid uuid;

        if (!uuid_from_string(&uuid, id)) {
            continue;
        }
        if (name && !strcmp(name, idl->db_name)) {
            idl->server_row = uuid;
            found = new;
            touched = true;
        } else if (uuid_equals(&uuid, &idl->server_row)) {
            uuid_zero(&idl->server_row);
            found = NULL;
            touched = true;
        }
    }
    return !touched || idl_server_will_do(idl, found);
}

static void
idl_send_schema_request(struct ovsdb_idl *idl)
{
    json_t *params = jsonx_array(1, json_string(idl->db_name));

    json_decref(idl->request_id);
    idl->request_id = NULL;
    jsonrpc_session_send(idl->session,
                         jsonrpc_create_request("get_schema", params,
                                                &idl->request_id));
    idl->state = IDL_S_SCHEMA_REQUESTED;
}

static void
idl_free_tables(struct ovsdb_idl *idl)
{
    size_t i;

    if (!idl->schema) {
        return;
    }
    for (i = 0; i < idl->schema->n_tables; i++) {
        struct idl_table *t = &idl->tables[i];
        struct ovsdb_idl_row *row;

        OHMAP_FOR_EACH_SAFE (row, node, &t->rows) {
            ohmap_remove(&t->rows, &row->node);
            idl_row_free(row);
        }
        ohmap_destroy(&t->rows);
        free(t->columns);
    }
    free(idl->tables);
    idl->tables = NULL;
}

/* Drops every row (and the schema). */
static void
idl_clear_replica(struct ovsdb_idl *idl)
{
    idl_free_tables(idl);
    ovsdb_schema_destroy(idl->schema);
    idl->schema = NULL;
    uuid_zero(&idl->last_txn_id);
}

/* Drops every row but keeps the schema. */
static void
idl_clear_rows(struct ovsdb_idl *idl)
{
    size_t i;

    for (i = 0; idl->schema && i < idl->schema->n_tables; i++) {
        struct idl_table *t = &idl->tables[i];
        struct ovsdb_idl_row *row;

        OHMAP_FOR_EACH_SAFE (row, node, &t->rows) {
            if (row->in_txn) {
                row->server_deleted = true;
                continue;
            }
            ohmap_remove(&t->rows, &row->node);
            idl_row_free(row);
        }
    }
}

/* Resolves the registrations against the server's schema 'schema' (which
 * the IDL takes). */
static void
idl_set_schema(struct ovsdb_idl *idl, struct ovsdb_schema *schema)
{
    size_t i;

    if (idl->schema && ovsdb_schema_equal(idl->schema, schema)) {
        ovsdb_schema_destroy(schema);
        return;
    }
    if (idl->txn) {
        /* The caller's rows point into the old schema: it must not use
         * them any more.  Fail its transaction. */
        idl->txn->status = TXN_TRY_AGAIN;
    }
    idl_clear_replica(idl);
    idl->schema = schema;
    idl->tables = xcalloc(schema->n_tables, sizeof *idl->tables);
    for (i = 0; i < schema->n_tables; i++) {
        struct idl_table *t = &idl->tables[i];

        t->schema = schema->tables[i];
        t->columns = xcalloc(t->schema->n_columns, sizeof *t->columns);
        ohmap_init(&t->rows);
        if (!idl->n_regs) {
            size_t j;

            t->replicated = true;
            for (j = OVSDB_N_HIDDEN_COLUMNS; j < t->schema->n_columns; j++) {
                t->columns[j] = true;
            }
        }
    }
    for (i = 0; i < idl->n_regs; i++) {
        const struct idl_reg *reg = &idl->regs[i];
        const struct ovsdb_table_schema *ts
            = ovsdb_schema_find_table(schema, reg->table);
        const struct ovsdb_column *c;

        if (!ts) {
            VLOG_WARN("%s database lacks %s table (database needs "
                      "upgrade?)", idl->db_name, reg->table);
            continue;
        }
        idl->tables[ts->index].replicated = true;
        if (!reg->column) {
            continue;
        }
        c = ovsdb_table_schema_find_column(ts, reg->column);
        if (!c) {
            VLOG_WARN("%s table in %s database lacks %s column (database "
                      "needs upgrade?)", reg->table, idl->db_name,
                      reg->column);
            continue;
        }
        idl->tables[ts->index].columns[c->index] = true;
    }
    idl_changed(idl);
}

static json_t *
idl_monitor_requests(const struct ovsdb_idl *idl)
{
    json_t *requests = json_object();
    size_t i, j;

    for (i = 0; i < idl->schema->n_tables; i++) {
        const struct idl_table *t = &idl->tables[i];
        json_t *columns, *request;

        if (!t->replicated) {
            continue;
        }
        columns = json_array();
        for (j = OVSDB_N_HIDDEN_COLUMNS; j < t->schema->n_columns; j++) {
            if (t->columns[j]) {
                json_array_append_new(columns,
                                      json_string(t->schema->columns[j]->name));
            }
        }
        request = json_object();
        json_object_set_new(request, "columns", columns);
        if (idl->monitor != IDL_MON_PLAIN) {
            const struct idl_cond *cond = idl_find_cond(idl,
                                                        t->schema->name);
            if (cond) {
                json_object_set_new(request, "where",
                                    json_deep_copy(cond->where));
            }
            request = jsonx_array(1, request);
        }
        json_object_set_new(requests, t->schema->name, request);
    }
    return requests;
}

static void
idl_send_monitor_request(struct ovsdb_idl *idl)
{
    json_t *params = jsonx_array(3, json_string(idl->db_name),
                                 json_incref(idl->monitor_id),
                                 idl_monitor_requests(idl));

    if (idl->monitor == IDL_MON_COND_SINCE) {
        char s[UUID_LEN + 1];

        uuid_to_string(&idl->last_txn_id, s);
        json_array_append_new(params, json_string(s));
    }
    json_decref(idl->request_id);
    idl->request_id = NULL;
    jsonrpc_session_send(idl->session,
                         jsonrpc_create_request(monitor_methods[idl->monitor],
                                                params, &idl->request_id));
    idl->state = IDL_S_MONITOR_REQUESTED;
}

static bool
ids_equal(const json_t *a, const json_t *b)
{
    return a && b && json_equal((json_t *) a, (json_t *) b);
}

static char *
error_to_string(const json_t *error)
{
    if (json_is_string(error)) {
        return xstrdup(json_string_value(error));
    }
    return jsonx_to_string(error, JSONX_SORT_KEYS);
}

static void idl_apply_updates(struct ovsdb_idl *, const json_t *updates,
                              bool version2);

static void
idl_monitoring(struct ovsdb_idl *idl)
{
    idl->state = IDL_S_MONITORING;
    /* A server that will do: the next failure starts a new round. */
    idl->n_tried = 0;
    idl->round_backoff = 0;
    if (idl->db_change_aware) {
        json_t *params = jsonx_array(1, json_true());

        jsonrpc_session_send(idl->session,
                             jsonrpc_create_request("set_db_change_aware",
                                                    params, NULL));
    }
    if (idl->lock_name) {
        idl_send_lock_request(idl);
    }
    idl_changed(idl);
}

static void
idl_process_reply(struct ovsdb_idl *idl, const struct jsonrpc_msg *msg)
{
    json_decref(idl->request_id);
    idl->request_id = NULL;

    if (idl->state == IDL_S_SERVER_REQUESTED) {
        /* A server without "_Server" (an old one) will do. */
        if (msg->type == JSONRPC_ERROR
            || idl_server_update(idl, msg->result, true)) {
            idl_send_schema_request(idl);
        } else {
            idl_next_remote(idl);
        }
    } else if (idl->state == IDL_S_SCHEMA_REQUESTED) {
        struct ovsdb_schema *schema;
        struct ovsdb_error *error;

        if (msg->type == JSONRPC_ERROR) {
            free(idl->db_error);
            idl->db_error = error_to_string(msg->error);
            VLOG_WARN("%s: get_schema failed: %s",
                      jsonrpc_session_get_name(idl->session), idl->db_error);
            idl->state = IDL_S_ERROR;
            idl_changed(idl);
            return;
        }
        error = ovsdb_schema_from_json(msg->result, &schema);
        if (error) {
            char *s = ovsdb_error_to_string(error);

            VLOG_WARN("%s: bad schema: %s",
                      jsonrpc_session_get_name(idl->session), s);
            free(idl->db_error);
            idl->db_error = s;
            ovsdb_error_destroy(error);
            idl->state = IDL_S_ERROR;
            idl_changed(idl);
            return;
        }
        free(idl->db_error);
        idl->db_error = NULL;
        idl_set_schema(idl, schema);
        idl_send_monitor_request(idl);
    } else if (idl->state == IDL_S_MONITOR_REQUESTED) {
        if (msg->type == JSONRPC_ERROR) {
            if (idl->monitor < IDL_MON_PLAIN) {
                VLOG_DBG("%s: %s failed, falling back",
                         jsonrpc_session_get_name(idl->session),
                         monitor_methods[idl->monitor]);
                idl->monitor++;
                idl_send_monitor_request(idl);
            } else {
                free(idl->db_error);
                idl->db_error = error_to_string(msg->error);
                idl->state = IDL_S_ERROR;
                idl_changed(idl);
            }
            return;
        }
        if (idl->monitor == IDL_MON_COND_SINCE) {
            const json_t *r = msg->result;
            struct uuid id;

            if (!json_is_array(r) || json_array_size(r) != 3
                || !json_is_boolean(json_array_get(r, 0))
                || !json_is_string(json_array_get(r, 1))
                || !uuid_from_string(&id, json_string_value(
                                         json_array_get(r, 1)))) {
                VLOG_WARN("%s: bad monitor_cond_since reply",
                          jsonrpc_session_get_name(idl->session));
                jsonrpc_session_force_reconnect(idl->session);
                return;
            }
            if (!json_is_true(json_array_get(r, 0))) {
                idl_clear_rows(idl);
            }
            idl->last_txn_id = id;
            idl_apply_updates(idl, json_array_get(r, 2), true);
        } else {
            idl_clear_rows(idl);
            idl_apply_updates(idl, msg->result,
                              idl->monitor == IDL_MON_COND);
        }
        idl_monitoring(idl);
    }
}

static void
idl_process_lock_reply(struct ovsdb_idl *idl, const struct jsonrpc_msg *msg)
{
    json_decref(idl->lock_request_id);
    idl->lock_request_id = NULL;
    if (msg->type == JSONRPC_REPLY && json_is_object(msg->result)) {
        bool locked = json_is_true(json_object_get(msg->result, "locked"));

        idl->has_lock = locked;
        idl->lock_contended = !locked;
    } else {
        VLOG_WARN("%s: lock request failed",
                  jsonrpc_session_get_name(idl->session));
    }
    idl_changed(idl);
}

static bool
notify_names(const struct jsonrpc_msg *msg, const char *name)
{
    return name && json_is_array(msg->params)
           && json_array_size(msg->params) >= 1
           && json_is_string(json_array_get(msg->params, 0))
           && !strcmp(json_string_value(json_array_get(msg->params, 0)),
                      name);
}

static void
idl_process_msg(struct ovsdb_idl *idl, struct jsonrpc_msg *msg)
{
    if (msg->type == JSONRPC_NOTIFY) {
        const json_t *params = msg->params;

        if (!strcmp(msg->method, "update") || !strcmp(msg->method, "update2")
            || !strcmp(msg->method, "update3")) {
            bool v3 = !strcmp(msg->method, "update3");
            size_t n = v3 ? 3 : 2;

            if (idl->state != IDL_S_NEW && idl->state != IDL_S_ERROR
                && !strcmp(msg->method, "update")
                && json_is_array(params) && json_array_size(params) == 2
                && json_equal(json_array_get(params, 0),
                              idl->server_monitor_id)) {
                if (!idl_server_update(idl, json_array_get(params, 1),
                                       false)) {
                    idl_next_remote(idl);
                }
                return;
            }
            if (idl->state != IDL_S_MONITORING
                && idl->state != IDL_S_MONITOR_REQUESTED) {
                return;
            }
            if (!json_is_array(params) || json_array_size(params) != n
                || !json_equal(json_array_get(params, 0), idl->monitor_id)) {
                return;
            }
            if (v3) {
                const json_t *id = json_array_get(params, 1);

                if (json_is_string(id)) {
                    uuid_from_string(&idl->last_txn_id,
                                     json_string_value(id));
                }
            }
            idl_apply_updates(idl, json_array_get(params, n - 1),
                              strcmp(msg->method, "update") != 0);
        } else if (!strcmp(msg->method, "locked")) {
            if (notify_names(msg, idl->lock_name)) {
                idl->has_lock = true;
                idl->lock_contended = false;
                idl_changed(idl);
            }
        } else if (!strcmp(msg->method, "stolen")) {
            if (notify_names(msg, idl->lock_name)) {
                idl->has_lock = false;
                idl->lock_contended = true;
                /* The thief's server forgets our request: queue again, so
                 * that we get the lock back when the thief lets go. */
                idl->steal = false;
                idl_send_lock_request(idl);
                idl_changed(idl);
            }
        } else if (!strcmp(msg->method, "monitor_canceled")) {
            /* The database changed (schema conversion, removal): start
             * over with a fresh schema. */
            idl_restart(idl);
            if (jsonrpc_session_is_connected(idl->session)) {
                idl_send_schema_request(idl);
            }
        }
        return;
    }
    if (msg->type != JSONRPC_REPLY && msg->type != JSONRPC_ERROR) {
        return;
    }
    if (ids_equal(msg->id, idl->request_id)) {
        idl_process_reply(idl, msg);
    } else if (ids_equal(msg->id, idl->lock_request_id)) {
        idl_process_lock_reply(idl, msg);
    } else if (idl->txn && ids_equal(msg->id, idl->txn->request_id)) {
        idl_txn_process_reply(idl->txn, msg);
    }
}

/* ------------------------------------------------------------------------
 * Rows and updates.
 * ------------------------------------------------------------------------ */

static struct ovsdb_idl_row *
idl_row_find(struct idl_table *t, const struct uuid *uuid)
{
    struct ovsdb_idl_row *row;

    OHMAP_FOR_EACH_WITH_HASH (row, node, uuid_hash(uuid), &t->rows) {
        if (uuid_equals(&row->uuid, uuid)) {
            return row;
        }
    }
    return NULL;
}

static struct ovsdb_datum *
idl_datums_create_default(const struct ovsdb_table_schema *ts,
                          const struct uuid *uuid)
{
    struct ovsdb_datum *d = xcalloc(ts->n_columns, sizeof *d);
    size_t i;

    for (i = 0; i < ts->n_columns; i++) {
        ovsdb_datum_init_default(&d[i], &ts->columns[i]->type);
    }
    if (uuid) {
        d[OVSDB_COL_UUID].keys[0].uuid = *uuid;
    }
    return d;
}

static void
idl_datums_destroy(struct ovsdb_datum *d, const struct ovsdb_table_schema *ts)
{
    size_t i;

    if (!d) {
        return;
    }
    for (i = 0; i < ts->n_columns; i++) {
        ovsdb_datum_destroy(&d[i], &ts->columns[i]->type);
    }
    free(d);
}

static struct ovsdb_idl_row *
idl_row_create(struct ovsdb_idl *idl, struct idl_table *t,
               const struct uuid *uuid)
{
    struct ovsdb_idl_row *row = xzalloc(sizeof *row);

    row->uuid = *uuid;
    row->table = t;
    row->idl = idl;
    row->column_seqnos = xcalloc(t->schema->n_columns,
                                 sizeof *row->column_seqnos);
    ohmap_insert(&t->rows, &row->node, uuid_hash(uuid));
    return row;
}

static void
idl_row_clear_txn(struct ovsdb_idl_row *row)
{
    const struct ovsdb_table_schema *ts = row->table->schema;
    size_t i;

    if (row->new) {
        for (i = 0; i < ts->n_columns; i++) {
            if (row->written[i]) {
                ovsdb_datum_destroy(&row->new[i], &ts->columns[i]->type);
            }
        }
    }
    free(row->new);
    free(row->written);
    free(row->verified);
    row->new = NULL;
    row->written = row->verified = NULL;
    row->txn_deleted = false;
    row->in_txn = false;
    row->txn_next = NULL;
}

static void
idl_row_free(struct ovsdb_idl_row *row)
{
    idl_row_clear_txn(row);
    idl_datums_destroy(row->old, row->table->schema);
    free(row->column_seqnos);
    free(row);
}

/* Sets the columns in 'json' (an object of column names to values) in the
 * row's replica values; with 'diff', set and map values are differences to
 * apply (update2 "modify"). */
static bool
idl_row_apply(struct ovsdb_idl_row *row, const json_t *json, bool diff)
{
    const struct ovsdb_table_schema *ts = row->table->schema;
    const char *name;
    json_t *value;
    bool changed = false;

    if (!json_is_object(json)) {
        return false;
    }
    json_object_foreach ((json_t *) json, name, value) {
        const struct ovsdb_column *c
            = ovsdb_table_schema_find_column(ts, name);
        struct ovsdb_error *error;
        struct ovsdb_datum datum;

        if (!c || c->index < OVSDB_N_HIDDEN_COLUMNS) {
            continue;
        }
        if (diff && c->type.n_max > 1) {
            struct ovsdb_type dtype = c->type;

            dtype.n_min = 0;
            dtype.n_max = UINT_MAX;
            error = ovsdb_datum_from_json(&datum, &dtype, value, NULL);
            if (!error) {
                error = ovsdb_datum_apply_diff(&row->old[c->index], &datum,
                                               &dtype);
                ovsdb_datum_destroy(&datum, &dtype);
            }
        } else {
            error = ovsdb_datum_from_json(&datum, &c->type, value, NULL);
            if (!error) {
                ovsdb_datum_swap(&row->old[c->index], &datum);
                ovsdb_datum_destroy(&datum, &c->type);
            }
        }
        if (error) {
            char *s = ovsdb_error_to_string(error);

            char u[UUID_LEN + 1];

            uuid_to_string(&row->uuid, u);
            VLOG_WARN("error parsing column %s in row %s of table %s: %s",
                      name, u, ts->name, s);
            free(s);
            ovsdb_error_destroy(error);
            continue;
        }
        /* idl_apply_updates() bumps the seqno once the update is in. */
        row->column_seqnos[c->index] = row->idl->change_seqno + 1;
        changed = true;
    }
    return changed;
}

static void
idl_row_delete(struct idl_table *t, struct ovsdb_idl_row *row)
{
    if (row->in_txn) {
        row->server_deleted = true;
    } else {
        ohmap_remove(&t->rows, &row->node);
        idl_row_free(row);
    }
}

/* Applies one row's update.  'op' is "initial", "insert", "modify",
 * "delete" (version 2), or NULL for a version 1 {"old", "new"} update. */
static void
idl_apply_row(struct ovsdb_idl *idl, struct idl_table *t,
              const struct uuid *uuid, const json_t *u, bool version2)
{
    struct ovsdb_idl_row *row = idl_row_find(t, uuid);

    if (row && row->server_deleted) {
        /* A deleted row the txn still references came back: revive. */
        row->server_deleted = false;
        idl_datums_destroy(row->old, t->schema);
        row->old = idl_datums_create_default(t->schema, uuid);
    }
    if (!version2) {
        const json_t *new = json_object_get(u, "new");

        if (!new || json_is_null(new)) {
            if (row && row->old) {
                idl_row_delete(t, row);
            }
            return;
        }
        if (!row) {
            row = idl_row_create(idl, t, uuid);
        }
        if (!row->old) {
            row->old = idl_datums_create_default(t->schema, uuid);
            row->insert_seqno = idl->change_seqno + 1;
        }
        idl_row_apply(row, new, false);
        return;
    }

    if (!json_is_object(u) || json_object_size(u) != 1) {
        return;
    }
    const char *op = json_object_iter_key(json_object_iter((json_t *) u));
    const json_t *body = json_object_get(u, op);

    if (!strcmp(op, "delete")) {
        if (row && row->old) {
            idl_row_delete(t, row);
        }
    } else if (!strcmp(op, "initial") || !strcmp(op, "insert")) {
        if (!row) {
            row = idl_row_create(idl, t, uuid);
        }
        idl_datums_destroy(row->old, t->schema);
        row->old = idl_datums_create_default(t->schema, uuid);
        row->insert_seqno = idl->change_seqno + 1;
        idl_row_apply(row, body, false);
    } else if (!strcmp(op, "modify")) {
        if (row && row->old) {
            idl_row_apply(row, body, true);
        } else {
            VLOG_WARN("modify for unknown row in table %s", t->schema->name);
        }
    }
}

static void
idl_apply_updates(struct ovsdb_idl *idl, const json_t *updates,
                  bool version2)
{
    const char *table_name;
    json_t *table_updates;

    if (!json_is_object(updates)) {
        return;
    }
    json_object_foreach ((json_t *) updates, table_name, table_updates) {
        const struct ovsdb_table_schema *ts
            = ovsdb_schema_find_table(idl->schema, table_name);
        const char *uuid_s;
        json_t *u;

        if (!ts || !json_is_object(table_updates)) {
            continue;
        }
        json_object_foreach (table_updates, uuid_s, u) {
            struct uuid uuid;

            if (uuid_from_string(&uuid, uuid_s)) {
                idl_apply_row(idl, &idl->tables[ts->index], &uuid, u,
                              version2);
            }
        }
    }
    idl_changed(idl);
}

static void
txn_touch(struct ovsdb_idl_txn *txn, struct ovsdb_idl_row *row)
{
    size_t n = row->table->schema->n_columns;

    if (!row->in_txn) {
        row->in_txn = true;
        row->txn_next = txn->rows;
        txn->rows = row;
    }
    if (!row->written) {
        row->written = xcalloc(n, sizeof *row->written);
        row->verified = xcalloc(n, sizeof *row->verified);
        row->new = xcalloc(n, sizeof *row->new);
    }
}

static json_t *
where_uuid(const struct uuid *uuid)
{
    char s[UUID_LEN + 1];

    uuid_to_string(uuid, s);
    return jsonx_array(1, jsonx_array(3, json_string("_uuid"),
                                      json_string("=="),
                                      jsonx_array(2, json_string("uuid"),
                                                  json_string(s))));
}

static void
named_uuid_for(const struct uuid *uuid, char name[UUID_LEN + 5])
{
    char s[UUID_LEN + 1];
    char *p;

    uuid_to_string(uuid, s);
    snprintf(name, UUID_LEN + 5, "row%s", s);
    for (p = name; *p; p++) {
        if (*p == '-') {
            *p = '_';
        }
    }
}

/* Replaces, in place, ["uuid", U] by ["named-uuid", N] wherever U is the
 * temporary UUID of a row that 'txn' inserts. */
static void
substitute_uuids(struct ovsdb_idl_txn *txn, json_t *json)
{
    size_t i;

    if (json_is_array(json)) {
        if (json_array_size(json) == 2
            && json_is_string(json_array_get(json, 0))
            && !strcmp(json_string_value(json_array_get(json, 0)), "uuid")
            && json_is_string(json_array_get(json, 1))) {
            struct uuid u;

            if (uuid_from_string(&u, json_string_value(json_array_get(json,
                                                                      1)))) {
                for (i = 0; i < txn->n_inserts; i++) {
                    /* A row inserted with its UUID for good is referred
                     * to by that UUID, valid when the transaction ends. */
                    if (uuid_equals(&txn->inserts[i].temp, &u)
                        && !txn->inserts[i].persist) {
                        char name[UUID_LEN + 5];

                        named_uuid_for(&u, name);
                        json_array_set_new(json, 0,
                                           json_string("named-uuid"));
                        json_array_set_new(json, 1, json_string(name));
                        return;
                    }
                }
            }
            return;
        }
        for (i = 0; i < json_array_size(json); i++) {
            substitute_uuids(txn, json_array_get(json, i));
        }
    } else if (json_is_object(json)) {
        const char *key;
        json_t *value;

        json_object_foreach (json, key, value) {
            substitute_uuids(txn, value);
        }
    }
}

static json_t *
row_json(const struct ovsdb_idl_row *row, bool all)
{
    const struct ovsdb_table_schema *ts = row->table->schema;
    json_t *json = json_object();
    size_t i;

    for (i = OVSDB_N_HIDDEN_COLUMNS; i < ts->n_columns; i++) {
        const struct ovsdb_column *c = ts->columns[i];

        if (!row->written[i]) {
            continue;
        }
        if (!all && row->old
            && ovsdb_datum_equals(&row->new[i], &row->old[i], &c->type)) {
            continue;
        }
        if (!row->old && ovsdb_datum_is_default(&row->new[i], &c->type)) {
            continue;
        }
        json_object_set_new(json, c->name,
                            ovsdb_datum_to_json(&row->new[i], &c->type));
    }
    return json;
}

static json_t *
txn_build_ops(struct ovsdb_idl_txn *txn, bool *any_updates)
{
    struct ovsdb_idl *idl = txn->idl;
    json_t *ops = json_array();
    struct ovsdb_idl_row *row;
    size_t i;

    *any_updates = false;

    /* Record the inserted rows first so that references to them, in any
     * op, become named-uuids. */
    free(txn->inserts);
    txn->inserts = NULL;
    txn->n_inserts = 0;
    for (row = txn->rows; row; row = row->txn_next) {
        if (!row->old && !row->txn_deleted) {
            txn->inserts = xrealloc(txn->inserts, (txn->n_inserts + 1)
                                    * sizeof *txn->inserts);
            txn->inserts[txn->n_inserts].temp = row->uuid;
            uuid_zero(&txn->inserts[txn->n_inserts].real);
            txn->inserts[txn->n_inserts].persist = row->persist_uuid;
            txn->n_inserts++;
        }
    }

    /* Preconditions. */
    for (i = 0; i < json_array_size(txn->pre_ops); i++) {
        json_array_append(ops, json_array_get(txn->pre_ops, i));
    }
    for (row = txn->rows; row; row = row->txn_next) {
        const struct ovsdb_table_schema *ts = row->table->schema;
        json_t *columns, *values;

        if (!row->old || row->server_deleted) {
            continue;
        }
        columns = json_array();
        values = json_object();
        for (i = 0; i < ts->n_columns; i++) {
            if (row->verified[i]) {
                const struct ovsdb_column *c = ts->columns[i];

                json_array_append_new(columns, json_string(c->name));
                json_object_set_new(values, c->name,
                                    ovsdb_datum_to_json(&row->old[i],
                                                        &c->type));
            }
        }
        if (json_array_size(columns)) {
            json_t *op = json_object();

            json_object_set_new(op, "op", json_string("wait"));
            json_object_set_new(op, "table", json_string(ts->name));
            json_object_set_new(op, "where", where_uuid(&row->uuid));
            json_object_set_new(op, "columns", columns);
            json_object_set_new(op, "until", json_string("=="));
            json_object_set_new(op, "rows", jsonx_array(1, values));
            json_object_set_new(op, "timeout", json_integer(0));
            json_array_append_new(ops, op);
        } else {
            json_decref(columns);
            json_decref(values);
        }
    }

    /* Changes. */
    for (row = txn->rows; row; row = row->txn_next) {
        const struct ovsdb_table_schema *ts = row->table->schema;
        json_t *op;

        if (row->txn_deleted) {
            if (!row->old || row->server_deleted) {
                continue;
            }
            if (!ts->is_root) {
                /* Rows of non-root tables go when nothing refers to them
                 * any more: let the server decide, as Open vSwitch's IDL
                 * does, rather than fail on a remaining reference. */
                continue;
            }
            op = json_object();
            json_object_set_new(op, "op", json_string("delete"));
            json_object_set_new(op, "table", json_string(ts->name));
            json_object_set_new(op, "where", where_uuid(&row->uuid));
            json_array_append_new(ops, op);
            *any_updates = true;
        } else if (!row->old) {
            char name[UUID_LEN + 5];

            named_uuid_for(&row->uuid, name);
            op = json_object();
            json_object_set_new(op, "op", json_string("insert"));
            json_object_set_new(op, "table", json_string(ts->name));
            json_object_set_new(op, "row", row_json(row, true));
            if (row->persist_uuid) {
                char uuid[UUID_LEN + 1];

                uuid_to_string(&row->uuid, uuid);
                json_object_set_new(op, "uuid", json_string(uuid));
            } else {
                json_object_set_new(op, "uuid-name", json_string(name));
            }
            json_array_append_new(ops, op);
            *any_updates = true;
        } else if (!row->server_deleted) {
            json_t *r = row_json(row, false);

            if (!json_object_size(r)) {
                json_decref(r);
                continue;
            }
            op = json_object();
            json_object_set_new(op, "op", json_string("update"));
            json_object_set_new(op, "table", json_string(ts->name));
            json_object_set_new(op, "where", where_uuid(&row->uuid));
            json_object_set_new(op, "row", r);
            json_array_append_new(ops, op);
            *any_updates = true;
        }
    }

    txn->extra_index = json_array_size(ops);
    for (i = 0; i < json_array_size(txn->extra_ops); i++) {
        json_array_append(ops, json_array_get(txn->extra_ops, i));
        *any_updates = true;
    }

    if (txn->inc_row) {
        const struct ovsdb_table_schema *ts = txn->inc_row->table->schema;
        const char *col = txn->inc_column->name;
        json_t *op = json_object();

        txn->inc_index = json_array_size(ops);
        json_object_set_new(op, "op", json_string("mutate"));
        json_object_set_new(op, "table", json_string(ts->name));
        json_object_set_new(op, "where", where_uuid(&txn->inc_row->uuid));
        json_object_set_new(op, "mutations",
                            jsonx_array(1, jsonx_array(3, json_string(col),
                                                       json_string("+="),
                                                       json_integer(1))));
        json_array_append_new(ops, op);

        op = json_object();
        json_object_set_new(op, "op", json_string("select"));
        json_object_set_new(op, "table", json_string(ts->name));
        json_object_set_new(op, "where", where_uuid(&txn->inc_row->uuid));
        json_object_set_new(op, "columns", jsonx_array(1, json_string(col)));
        json_array_append_new(ops, op);
    }

    if (txn->comment.length) {
        json_t *op = json_object();

        json_object_set_new(op, "op", json_string("comment"));
        json_object_set_new(op, "comment",
                            json_string(ds_cstr(&txn->comment)));
        json_array_append_new(ops, op);
    }
    if (idl->lock_name) {
        json_t *op = json_object();

        json_object_set_new(op, "op", json_string("assert"));
        json_object_set_new(op, "lock", json_string(idl->lock_name));
        json_array_append_new(ops, op);
    }
    if (txn->dry_run) {
        json_t *op = json_object();

        json_object_set_new(op, "op", json_string("abort"));
        json_array_append_new(ops, op);
    }
    txn->n_idl_ops = json_array_size(ops);
    substitute_uuids(txn, ops);
    return ops;
}

static void
txn_set_error(struct ovsdb_idl_txn *txn, char *error)
{
    free(txn->error);
    txn->error = error;
    txn->status = TXN_ERROR;
}

static bool
error_tag_is(const json_t *result, const char *tag)
{
    const json_t *e = json_object_get(result, "error");

    return json_is_string(e) && !strcmp(json_string_value(e), tag);
}

static void
idl_txn_process_reply(struct ovsdb_idl_txn *txn,
                      const struct jsonrpc_msg *msg)
{
    const json_t *results = msg->result;
    size_t i, n;

    json_decref(txn->request_id);
    txn->request_id = NULL;

    if (msg->type == JSONRPC_ERROR) {
        txn_set_error(txn, error_to_string(msg->error));
        return;
    }
    if (!json_is_array(results)) {
        txn_set_error(txn, xstrdup("reply to \"transact\" is not an array"));
        return;
    }
    json_decref(txn->results);
    txn->results = json_incref((json_t *) results);

    n = json_array_size(results);
    for (i = 0; i < n; i++) {
        const json_t *r = json_array_get(results, i);

        if (!json_is_object(r) || !json_object_get(r, "error")) {
            continue;
        }
        if (txn->dry_run && i + 1 == txn->n_idl_ops
            && error_tag_is(r, "aborted")) {
            continue;
        }
        if (error_tag_is(r, "timed out")) {
            /* A precondition ("wait" with timeout 0) failed. */
            txn->status = TXN_TRY_AGAIN;
            return;
        }
        if (error_tag_is(r, "not owner")) {
            txn->status = TXN_NOT_LOCKED;
            return;
        }
        txn_set_error(txn, error_to_string(r));
        /* Logged as Open vSwitch's IDL logs it. */
        VLOG_WARN("transaction error: %s", txn->error);
        return;
    }
    if (n < txn->n_idl_ops) {
        txn_set_error(txn, xstrdup("reply to \"transact\" has too few "
                                   "results"));
        return;
    }

    /* Inserted rows' UUIDs: the inserts come in list order after the
     * preconditions; find them by scanning for "uuid" results. */
    {
        size_t k = 0;

        for (i = 0; i < txn->extra_index && k < txn->n_inserts; i++) {
            const json_t *u = json_object_get(json_array_get(results, i),
                                              "uuid");

            if (json_is_array(u) && json_array_size(u) == 2
                && json_is_string(json_array_get(u, 1))) {
                /* Inserts are emitted in 'txn->rows' order, which is the
                 * order of 'txn->inserts'. */
                uuid_from_string(&txn->inserts[k++].real,
                                 json_string_value(json_array_get(u, 1)));
            }
        }
    }
    if (txn->inc_row) {
        const json_t *sel = json_array_get(results, txn->inc_index + 1);
        const json_t *rows = json_object_get(sel, "rows");
        const json_t *v = json_object_get(json_array_get(rows, 0),
                                          txn->inc_column->name);

        if (json_is_integer(v)) {
            txn->inc_new_value = json_integer_value(v);
        } else {
            txn_set_error(txn, xstrdup("increment: no value in reply"));
            return;
        }
    }
    txn->status = TXN_SUCCESS;
}
