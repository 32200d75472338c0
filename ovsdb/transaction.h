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

#endif /* transaction.h */
