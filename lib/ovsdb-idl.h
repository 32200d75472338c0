/* ovsdb-idl: a client-side, schema-driven replica of an OVSDB database.
 *
 * An IDL ("interface definition language" in Open vSwitch's vocabulary)
 * connects to an OVSDB server through a reconnecting JSON-RPC session
 * (jsonrpc.h), fetches the database's schema from the server, and keeps a
 * copy of the tables and columns the program registered, current with the
 * server's monitor notifications.  Nothing here is generated from a schema:
 * tables and columns are found by name, and values are 'struct ovsdb_datum's
 * of the column's type (ovsdb/ovsdb-data.h).
 *
 * Connection state machine (restarted on every new connection and on a
 * "monitor_canceled" notification):
 *
 *   1. "get_schema" [DB]: the server's schema.  Registered tables and
 *      columns the server lacks are dropped with a warning and read as
 *      defaults.
 *   2. "monitor_cond_since" [DB, ID, REQUESTS, LAST-TXN-ID]; on an error
 *      reply, "monitor_cond" [DB, ID, REQUESTS]; on an error again,
 *      "monitor" [DB, ID, REQUESTS].  After a reconnection a server that
 *      kept its history ("found" true) sends only what changed; otherwise
 *      the replica is rebuilt from the initial contents.
 *   3. Optionally "set_db_change_aware" [true]; the lock request if a lock
 *      is wanted.
 *
 * Then "update", "update2" and "update3" notifications keep the replica
 * current; each change bumps the seqno (ovsdb_idl_get_seqno()).
 *
 * Transactions.  ovsdb_idl_txn_create() starts one; reads through
 * ovsdb_idl_row_get() and the row iterators then see the transaction's own
 * writes, inserted rows and deletions.  ovsdb_idl_txn_verify() records the
 * replica's current value of a column as a precondition (sent as a "wait"
 * with timeout 0, so a concurrent change fails the transaction and the
 * commit reports TRY_AGAIN: the caller re-reads and retries).  Inserted rows
 * get a temporary UUID, replaced by "named-uuid" references on the wire;
 * ovsdb_idl_txn_get_insert_uuid() gives the real UUID after a successful
 * commit.
 *
 * Threads: an IDL belongs to one thread.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OVSDB_IDL_H
#define OVSDB_IDL_H 1

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include "compiler.h"

struct ovsdb_column;
struct ovsdb_datum;
struct ovsdb_idl;
struct ovsdb_idl_row;
struct ovsdb_idl_txn;
struct ovsdb_schema;
struct ovsdb_table_schema;
struct uuid;

/* ------------------------------------------------------------------------
 * The replica.
 * ------------------------------------------------------------------------ */

/* Creates an IDL for database 'db_name' at 'remote' (a jsonrpc_session
 * name such as "unix:/run/openvswitch/db.sock").  With 'retry' false the
 * IDL gives up after the first failed connection (ovsdb_idl_is_alive()
 * turns false).  Nothing is sent before the first ovsdb_idl_run(). */
struct ovsdb_idl *ovsdb_idl_create(const char *remote, const char *db_name,
                                   bool retry);
void ovsdb_idl_destroy(struct ovsdb_idl *);

/* 'remote' may be a comma-separated list of remotes, as in Open vSwitch:
 * the IDL then connects to one after another until one whose "_Server"
 * row for 'db_name' is that of a connected member of its cluster and, if
 * "leader only" (the default), of its leader, with data not older than it
 * has seen; a server without "_Server" will do.  With one remote, the same
 * check applies: a server that will not do is tried again later (after
 * 1 s, then 2, 4, at most 8 s, also after each round of several remotes),
 * or, without 'retry', the IDL gives up (ovsdb_idl_gave_up()). */
void ovsdb_idl_set_leader_only(struct ovsdb_idl *, bool leader_only);

/* Registration, before the first ovsdb_idl_run().  With nothing registered
 * the IDL replicates every table and column of the server's schema.
 * ovsdb_idl_add_table() with no column of that table registered replicates
 * the row set only (OVSDB's "columns": []). */
void ovsdb_idl_add_table(struct ovsdb_idl *, const char *table);
void ovsdb_idl_add_column(struct ovsdb_idl *, const char *table,
                          const char *column);

/* Conditional monitoring.  Replicates only the rows of 'table' that match
 * 'where' (a JSON array of RFC 7047 clauses such as ["name", "==", "br0"],
 * the array taken; NULL: every row).  Sent with the monitor request, and
 * with "monitor_cond_change" when the monitor is already running (the
 * server then sends the rows that start or stop matching).  A server that
 * only knows plain "monitor" ignores conditions: every row is replicated.
 * The typed binding (vswitch-idl.h) builds clauses with typed values. */
void ovsdb_idl_set_condition(struct ovsdb_idl *, const char *table,
                             json_t *where);

/* Sends "set_db_change_aware" [true] after the monitor is set up, so that
 * the server may cancel the monitor (and the IDL start again) instead of
 * closing the connection when the database changes schema. */
void ovsdb_idl_set_db_change_aware(struct ovsdb_idl *, bool);

/* Processes what arrived and (re)starts the state machine as needed;
 * ovsdb_idl_wait() registers the poll-loop events that make more work. */
void ovsdb_idl_run(struct ovsdb_idl *);
void ovsdb_idl_wait(struct ovsdb_idl *);

/* The seqno changes whenever the replica changes (rows or schema) and when
 * the connection state changes. */
unsigned int ovsdb_idl_get_seqno(const struct ovsdb_idl *);

/* True once the initial contents have arrived on the current connection. */
bool ovsdb_idl_is_monitoring(const struct ovsdb_idl *);
bool ovsdb_idl_has_ever_connected(const struct ovsdb_idl *);
bool ovsdb_idl_is_alive(const struct ovsdb_idl *);
bool ovsdb_idl_gave_up(const struct ovsdb_idl *);
bool ovsdb_idl_is_connected(const struct ovsdb_idl *);
/* Last connection error (positive errno), or 0. */
int ovsdb_idl_get_last_error(const struct ovsdb_idl *);
/* Error the server gave for the database itself (for example an unknown
 * database), as a string, or NULL. */
const char *ovsdb_idl_get_db_error(const struct ovsdb_idl *);
const char *ovsdb_idl_get_remote(const struct ovsdb_idl *);
/* "monitor_cond_since", "monitor_cond" or "monitor": the method in use, or
 * NULL before monitoring. */
const char *ovsdb_idl_get_monitor_method(const struct ovsdb_idl *);
void ovsdb_idl_force_reconnect(struct ovsdb_idl *);

/* The server's schema, or NULL before it has arrived. */
const struct ovsdb_schema *ovsdb_idl_get_schema(const struct ovsdb_idl *);
const struct ovsdb_table_schema *ovsdb_idl_get_table(const struct ovsdb_idl *,
                                                     const char *name);
/* Whether 'column' of 'table' is replicated. */
bool ovsdb_idl_is_replicated(const struct ovsdb_idl *,
                             const struct ovsdb_table_schema *,
                             const struct ovsdb_column *);

/* Rows.  Iteration order is unspecified.  During a transaction the rows it
 * inserted are included and the rows it deleted are not. */
const struct ovsdb_idl_row *ovsdb_idl_first_row(const struct ovsdb_idl *,
                                                const struct
                                                ovsdb_table_schema *);
const struct ovsdb_idl_row *ovsdb_idl_next_row(const struct ovsdb_idl_row *);
const struct ovsdb_idl_row *ovsdb_idl_get_row(const struct ovsdb_idl *,
                                              const struct
                                              ovsdb_table_schema *,
                                              const struct uuid *);
size_t ovsdb_idl_count_rows(const struct ovsdb_idl *,
                            const struct ovsdb_table_schema *);

#define OVSDB_IDL_FOR_EACH_ROW(ROW, IDL, TABLE)                 \
    for ((ROW) = ovsdb_idl_first_row(IDL, TABLE); (ROW);        \
         (ROW) = ovsdb_idl_next_row(ROW))

const struct uuid *ovsdb_idl_row_get_uuid(const struct ovsdb_idl_row *);
const struct ovsdb_table_schema *ovsdb_idl_row_get_table(
    const struct ovsdb_idl_row *);
/* The value of 'column' (the transaction's if it wrote one).  Never NULL. */
const struct ovsdb_datum *ovsdb_idl_row_get(const struct ovsdb_idl_row *,
                                            const struct ovsdb_column *);
/* The same by column name; NULL if the table has no such column. */
const struct ovsdb_datum *ovsdb_idl_row_get_by_name(
    const struct ovsdb_idl_row *, const char *column);
/* True for a row that the current transaction inserted. */
bool ovsdb_idl_row_is_new(const struct ovsdb_idl_row *);

/* Change tracking.  The seqno (ovsdb_idl_get_seqno()) right after the
 * update that inserted 'row' (0 for a row the transaction inserted), and
 * after the last update that changed 'column' of 'row' (an inserted row's
 * columns count as changed by its insertion).  A caller that remembers the
 * seqno it last acted on finds what changed since by comparing. */
unsigned int ovsdb_idl_row_get_insert_seqno(const struct ovsdb_idl_row *);
unsigned int ovsdb_idl_row_get_column_seqno(const struct ovsdb_idl_row *,
                                            const struct ovsdb_column *);

/* A number that changes whenever rows or their values may have changed or
 * been freed other than by the caller's own writes: with every seqno change
 * and when a transaction ends.  A typed binding that caches decoded rows
 * drops its cache when this changes. */
unsigned int ovsdb_idl_get_row_generation(const struct ovsdb_idl *);

/* One typed binding (vswitch-idl.c) may keep its state with the IDL;
 * 'destroy' (may be NULL) is called with it when the IDL is destroyed or
 * the binding replaced. */
void ovsdb_idl_set_binding(struct ovsdb_idl *, void *binding,
                           void (*destroy)(void *));
void *ovsdb_idl_get_binding(const struct ovsdb_idl *);

/* ------------------------------------------------------------------------
 * Locks.
 * ------------------------------------------------------------------------ */

/* Asks for lock 'name' (NULL: none; a lock held before is released with
 * "unlock").  With a lock set, every transaction carries an "assert" of it
 * and fails with NOT_LOCKED when the IDL does not hold it.
 * ovsdb_idl_steal_lock() takes the lock from its holder ("steal"). */
void ovsdb_idl_set_lock(struct ovsdb_idl *, const char *name);
void ovsdb_idl_steal_lock(struct ovsdb_idl *, const char *name);
bool ovsdb_idl_has_lock(const struct ovsdb_idl *);
/* True when the server told us another client holds the lock (the lock
 * request is queued) or stole it. */
bool ovsdb_idl_is_lock_contended(const struct ovsdb_idl *);

/* ------------------------------------------------------------------------
 * Transactions.
 * ------------------------------------------------------------------------ */

#define OVSDB_IDL_TXN_STATUSES                                        \
    OVSDB_IDL_TXN_STATUS(UNCOMMITTED, "uncommitted")                  \
    OVSDB_IDL_TXN_STATUS(UNCHANGED, "unchanged")                      \
    OVSDB_IDL_TXN_STATUS(INCOMPLETE, "incomplete")                    \
    OVSDB_IDL_TXN_STATUS(ABORTED, "aborted")                          \
    OVSDB_IDL_TXN_STATUS(SUCCESS, "success")                          \
    OVSDB_IDL_TXN_STATUS(TRY_AGAIN, "try again")                      \
    OVSDB_IDL_TXN_STATUS(NOT_LOCKED, "not locked")                    \
    OVSDB_IDL_TXN_STATUS(ERROR, "error")

enum ovsdb_idl_txn_status {
#define OVSDB_IDL_TXN_STATUS(ENUM, NAME) TXN_##ENUM,
    OVSDB_IDL_TXN_STATUSES
#undef OVSDB_IDL_TXN_STATUS
};
const char *ovsdb_idl_txn_status_to_string(enum ovsdb_idl_txn_status);

/* One transaction at a time per IDL. */
struct ovsdb_idl_txn *ovsdb_idl_txn_create(struct ovsdb_idl *);
void ovsdb_idl_txn_destroy(struct ovsdb_idl_txn *);
void ovsdb_idl_txn_add_comment(struct ovsdb_idl_txn *, const char *, ...)
    DPS_PRINTF_FORMAT(2, 3);
/* A dry run ends with an "abort" operation, so the server checks the
 * transaction and commits nothing; success is reported as SUCCESS. */
void ovsdb_idl_txn_set_dry_run(struct ovsdb_idl_txn *);

/* Inserts a row with default values and returns it; its UUID is temporary
 * until the commit succeeds. */
const struct ovsdb_idl_row *ovsdb_idl_txn_insert(
    struct ovsdb_idl_txn *, const struct ovsdb_table_schema *);
const struct ovsdb_idl_row *ovsdb_idl_txn_insert_uuid(
    struct ovsdb_idl_txn *, const struct ovsdb_table_schema *,
    const struct uuid *temp);
const struct ovsdb_idl_row *ovsdb_idl_txn_insert_persist_uuid(
    struct ovsdb_idl_txn *, const struct ovsdb_table_schema *,
    const struct uuid *);
/* Sets 'column' of 'row' to '*datum', taking ownership of its contents
 * (the caller must not destroy it; '*datum' is left empty). */
void ovsdb_idl_txn_write(struct ovsdb_idl_txn *, const struct ovsdb_idl_row *,
                         const struct ovsdb_column *, struct ovsdb_datum *);
void ovsdb_idl_txn_write_clone(struct ovsdb_idl_txn *,
                               const struct ovsdb_idl_row *,
                               const struct ovsdb_column *,
                               const struct ovsdb_datum *);
void ovsdb_idl_txn_delete(struct ovsdb_idl_txn *,
                          const struct ovsdb_idl_row *);
/* Precondition: 'column' of 'row' still has its replica value at commit. */
void ovsdb_idl_txn_verify(struct ovsdb_idl_txn *,
                          const struct ovsdb_idl_row *,
                          const struct ovsdb_column *);
/* Adds "mutate" 'column' += 1 on 'row' and a "select" of the result,
 * available after commit from ovsdb_idl_txn_get_increment_new_value(). */
void ovsdb_idl_txn_increment(struct ovsdb_idl_txn *,
                             const struct ovsdb_idl_row *,
                             const struct ovsdb_column *);
/* Appends a raw operation (reference taken) after the IDL's own; returns
 * its index for ovsdb_idl_txn_get_op_result().  "named-uuid" references to
 * rows inserted by this transaction may be written as ["uuid", TEMP]. */
size_t ovsdb_idl_txn_add_op(struct ovsdb_idl_txn *, json_t *op);

/* Adds a raw operation (reference taken) before every other one, such as
 * a "wait" the whole transaction depends on; its result is not reported. */
void ovsdb_idl_txn_add_precondition(struct ovsdb_idl_txn *, json_t *op);

/* Sends the transaction if not yet sent and returns its status:
 * INCOMPLETE while the reply is awaited.  ovsdb_idl_txn_commit_block()
 * runs the IDL until the status is final. */
enum ovsdb_idl_txn_status ovsdb_idl_txn_commit(struct ovsdb_idl_txn *);
enum ovsdb_idl_txn_status ovsdb_idl_txn_commit_block(struct ovsdb_idl_txn *);
/* For ERROR: the reason (the server's error object as JSON text, or a
 * local explanation).  Never NULL. */
const char *ovsdb_idl_txn_get_error(const struct ovsdb_idl_txn *);
const struct uuid *ovsdb_idl_txn_get_insert_uuid(
    const struct ovsdb_idl_txn *, const struct uuid *temp);
int64_t ovsdb_idl_txn_get_increment_new_value(const struct ovsdb_idl_txn *);
const json_t *ovsdb_idl_txn_get_op_result(const struct ovsdb_idl_txn *,
                                          size_t index);
struct ovsdb_idl *ovsdb_idl_txn_get_idl(const struct ovsdb_idl_txn *);

#endif /* ovsdb-idl.h */
