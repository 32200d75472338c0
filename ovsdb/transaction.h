/* OVSDB transactions: atomic groups of row insertions, modifications and
 * deletions.
 *
 * Changes apply to the database at once, so later operations of the same
 * transaction see them; the transaction keeps a copy of each row as it
 * was, so ovsdb_txn_abort() can put everything back.  ovsdb_txn_commit()
 * first enforces the database-wide rules -- strong references must point
 * to existing rows, weak references to deleted rows disappear, non-root
 * rows that nothing references are deleted, "maxRows" and unique indexes
 * hold -- then hands the changes to the database's file (if any) and
 * forgets the undo information.  Any failure aborts the whole transaction.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OVSDB_TRANSACTION_H
#define OVSDB_TRANSACTION_H 1

#include <stdbool.h>
#include "compiler.h"
#include "ohmap.h"
#include "uuid.h"

struct ovsdb;
struct ovsdb_row;
struct ovsdb_table;
struct uuid;

/* One row that a transaction touched. */
struct ovsdb_txn_row {
    struct ohmap_node node;     /* In the transaction's 'rows', by UUID. */
    struct ovsdb_txn_row *next; /* In order of first touch. */
    struct ovsdb_table *table;
    struct ovsdb_row *old;      /* Detached copy as it was, or NULL. */
    struct ovsdb_row *new;      /* Live row in the table, or NULL. */
    size_t n_refs;              /* Strong references, while committing. */
    struct ref *refs;           /* Strong references counted for 'new'. */
    size_t n_counted;
};

struct ovsdb_txn *ovsdb_txn_create(struct ovsdb *);
void ovsdb_txn_abort(struct ovsdb_txn *);
struct ovsdb_error *ovsdb_txn_commit(struct ovsdb_txn *, bool durable)
    DPS_WARN_UNUSED_RESULT;
struct ovsdb_error *ovsdb_txn_precommit(struct ovsdb_txn *)
    DPS_WARN_UNUSED_RESULT;
void ovsdb_txn_finish(struct ovsdb_txn *);

void ovsdb_txn_add_comment(struct ovsdb_txn *, const char *);
const char *ovsdb_txn_get_comment(const struct ovsdb_txn *);
struct ovsdb *ovsdb_txn_get_db(const struct ovsdb_txn *);
const struct ovsdb_txn_row *ovsdb_txn_first_row(const struct ovsdb_txn *);
bool ovsdb_txn_row_changed(const struct ovsdb_txn_row *, bool *columns);

void ovsdb_txn_row_insert(struct ovsdb_txn *, struct ovsdb_row *);
struct ovsdb_row *ovsdb_txn_row_modify(struct ovsdb_txn *,
                                       struct ovsdb_row *);
void ovsdb_txn_row_delete(struct ovsdb_txn *, struct ovsdb_row *);
bool ovsdb_txn_may_create_row(const struct ovsdb_txn *,
                              const struct ovsdb_table *,
                              const struct uuid *);

void ovsdb_txn_set_txnid(struct ovsdb_txn *, const struct uuid *);
const struct uuid *ovsdb_txn_get_txnid(const struct ovsdb_txn *);

/* Transaction history, for "monitor_cond_since".
 *
 * A database with a history (Open vSwitch 3.1 keeps one for clustered and
 * relay databases, whose transactions have ids: the Raft entry's, or the
 * one the relay's source gave) remembers its recent committed
 * transactions, each as the rows it changed, before and after.  A client
 * that reconnects with the id of the last transaction it saw then gets the
 * changes since, not the whole database.  ovsdb_txn_history_run() keeps
 * the history within Open vSwitch's limits: at most 100 transactions, and
 * no more atoms than the database itself holds (then a full copy costs
 * less), always keeping the newest transaction. */
struct ovsdb_txn_history_row {
    const struct ovsdb_table *table;
    struct ovsdb_row *old;      /* Before the transaction, or NULL. */
    struct ovsdb_row *new;      /* After it, or NULL. */
};

struct ovsdb_txn_history_entry {
    struct uuid txnid;
    struct ovsdb_txn_history_row *rows;
    size_t n_rows;
    size_t n_atoms;             /* In 'old' and 'new' of every row. */
};

void ovsdb_txn_history_init(struct ovsdb *, bool keep);
void ovsdb_txn_history_run(struct ovsdb *);
void ovsdb_txn_history_destroy(struct ovsdb *);
const struct uuid *ovsdb_txn_history_last_id(const struct ovsdb *);
bool ovsdb_txn_history_since(const struct ovsdb *, const struct uuid *txnid,
                             struct ovsdb_txn_history_entry *const **entriesp,
                             size_t *n_entriesp);
size_t ovsdb_row_n_atoms(const struct ovsdb_row *);

#endif /* transaction.h */
