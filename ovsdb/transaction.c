/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "transaction.h"

#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "file.h"
#include "ovsdb-error.h"
#include "ovsdb.h"
#include "util.h"

/* A strong reference from a row: the column that holds it, and the
 * target's table and UUID. */
struct ref {
    const struct ovsdb_column *column;
    const struct ovsdb_table_schema *table;
    struct uuid uuid;
};

struct ovsdb_txn {
    struct ovsdb *db;
    struct ohmap rows;              /* Every ovsdb_txn_row, by UUID. */
    struct ovsdb_txn_row *first;    /* The same, in order of first touch. */
    struct ovsdb_txn_row **tailp;
    struct ds comment;
    struct uuid txnid;              /* Zero if it has none. */
};

/* Open vSwitch's limit on the number of transactions in a history. */
#define TXN_HISTORY_MAX 100


static struct ovsdb_txn_row *txn_touch(struct ovsdb_txn *,
                                       struct ovsdb_row *);
static struct ovsdb_txn_row *txn_find_row(const struct ovsdb_txn *,
                                          const struct ovsdb_table *,
                                          const struct uuid *);
static struct ovsdb_txn_row *txn_row_create(struct ovsdb_txn *,
                                            struct ovsdb_table *,
                                            const struct uuid *);
static void collect_refs(const struct ovsdb_row *, struct ref **refsp,
                         size_t *n_refsp);
static struct ovsdb_error *recount_refs(struct ovsdb_txn *,
                                        struct ovsdb_txn_row *,
                                        bool *progress);
static struct ovsdb_error *drop_dangling_weak_refs(const struct ovsdb *,
                                                  struct ovsdb_txn_row *);
static bool touch_weak_referrers(struct ovsdb_txn *);
static bool collect_garbage(struct ovsdb_txn *);
static struct ovsdb_error *check_deleted_rows(const struct ovsdb_txn *);
static struct ovsdb_error *check_max_rows(const struct ovsdb_txn *);
static struct ovsdb_error *check_indexes(const struct ovsdb_txn *);
static void bump_versions(struct ovsdb_txn *);
static void txn_destroy(struct ovsdb_txn *);
static void txn_history_add(struct ovsdb_txn *);
static void txn_history_entry_destroy(struct ovsdb_txn_history_entry *);
static void txn_history_pop(struct ovsdb *);

/* Starts a transaction on 'db'.  Only one may be open at a time. */
struct ovsdb_txn *
ovsdb_txn_create(struct ovsdb *db)
{
    struct ovsdb_txn *txn = xzalloc(sizeof *txn);

    txn->db = db;
    ohmap_init(&txn->rows);
    txn->tailp = &txn->first;
    ds_init(&txn->comment);
    return txn;
}

/* Undoes every change of 'txn' and frees it. */
void
ovsdb_txn_abort(struct ovsdb_txn *txn)
{
    struct ovsdb_txn_row *txr;

    /* Remove the live rows first: an old copy has the same UUID. */
    for (txr = txn->first; txr; txr = txr->next) {
        if (txr->new) {
            ohmap_remove(&txr->table->rows, &txr->new->node);
            ovsdb_row_destroy(txr->new);
            txr->new = NULL;
        }
    }
    for (txr = txn->first; txr; txr = txr->next) {
        if (txr->old) {
            txr->old->txn_row = NULL;
            ohmap_insert(&txr->table->rows, &txr->old->node,
                         uuid_hash(ovsdb_row_get_uuid(txr->old)));
            txr->old = NULL;
        }
    }
    txn_destroy(txn);
}

/* Checks 'txn' against the database-wide rules (see transaction.h), writes
 * it to the database's file, if any, with an fsync if 'durable', and makes
 * it permanent.  On error the transaction is aborted.  Either way 'txn' is
 * freed. */
struct ovsdb_error *
ovsdb_txn_commit(struct ovsdb_txn *txn, bool durable)
{
    struct ovsdb_error *error = ovsdb_txn_precommit(txn);

    if (!error && txn->db->file) {
        error = ovsdb_file_commit(txn->db->file, txn, durable);
    }
    if (error) {
        ovsdb_txn_abort(txn);
        return error;
    }
    if (txn->db->commit_cb) {
        txn->db->commit_cb(txn, txn->db->commit_aux);
    }
    ovsdb_txn_finish(txn);
    return NULL;
}

/* Enforces referential integrity, weak references, garbage collection,
 * "maxRows" and indexes on 'txn', and gives changed rows new "_version"s.
 * On error the caller must abort 'txn'. */
struct ovsdb_error *
ovsdb_txn_precommit(struct ovsdb_txn *txn)
{
    struct ovsdb_error *error;
    bool progress, first_pass = true;

    do {
        struct ovsdb_txn_row *txr;

        progress = false;
        for (txr = txn->first; txr; txr = txr->next) {
            if (txr->new) {
                error = drop_dangling_weak_refs(txn->db, txr);
                if (error) {
                    return error;
                }
            }
            error = recount_refs(txn, txr, &progress);
            if (error) {
                return error;
            }
        }
        if (first_pass) {
            /* As in Open vSwitch, the rows the operations deleted must have
             * lost every reference before garbage collection runs: a row
             * that only a row that would become garbage references may not
             * be deleted. */
            error = check_deleted_rows(txn);
            if (error) {
                return error;
            }
            first_pass = false;
        }
        progress |= collect_garbage(txn);
        progress |= touch_weak_referrers(txn);
    } while (progress);

    error = check_deleted_rows(txn);
    if (!error) {
        error = check_max_rows(txn);
    }
    if (!error) {
        error = check_indexes(txn);
    }
    if (!error) {
        bump_versions(txn);
    }
    return error;
}

/* Makes the changes of a precommitted 'txn' permanent and frees it. */
void
ovsdb_txn_finish(struct ovsdb_txn *txn)
{
    struct ovsdb_txn_row *txr;

    /* Only a transaction with an id can be asked for by it (one without,
     * such as an empty one that no Raft entry carries, stays out). */
    if (txn->db->need_txn_history && !uuid_is_zero(&txn->txnid)) {
        txn_history_add(txn);
    }
    for (txr = txn->first; txr; txr = txr->next) {
        if (txr->table->schema->n_indexes
            && ovsdb_txn_row_changed(txr, NULL)) {
            if (txr->old) {
                ovsdb_table_index_remove(txr->table, txr->old);
            }
            if (txr->new) {
                ovsdb_table_index_add(txr->table, txr->new);
            }
        }
        if (txr->new) {
            txr->new->txn_row = NULL;
            txr->new->n_refs = txr->n_refs;
        }
        ovsdb_row_destroy(txr->old);
        txr->old = NULL;
    }
    txn_destroy(txn);
}

/* Appends 'comment' to the comment of 'txn' (on a new line if there is one
 * already). */
void
ovsdb_txn_add_comment(struct ovsdb_txn *txn, const char *comment)
{
    if (txn->comment.length) {
        ds_put_char(&txn->comment, '\n');
    }
    ds_put_cstr(&txn->comment, comment);
}

/* Returns the comment of 'txn', or NULL if it has none. */
const char *
ovsdb_txn_get_comment(const struct ovsdb_txn *txn)
{
    return txn->comment.length ? ds_cstr_ro(&txn->comment) : NULL;
}

/* Returns the database of 'txn'. */
struct ovsdb *
ovsdb_txn_get_db(const struct ovsdb_txn *txn)
{
    return txn->db;
}

/* Returns the first row 'txn' touched; follow 'next' for the rest. */
const struct ovsdb_txn_row *
ovsdb_txn_first_row(const struct ovsdb_txn *txn)
{
    return txn->first;
}

/* Returns true if 'txr' inserted, deleted or changed a row.  If 'columns'
 * is nonnull, marks there (by column index) each column that differs; all
 * of them for an insertion or deletion.  "_version" never counts. */
bool
ovsdb_txn_row_changed(const struct ovsdb_txn_row *txr, bool *columns)
{
    const struct ovsdb_table_schema *ts = txr->table->schema;
    bool changed = false;
    size_t i;

    if (!txr->old && !txr->new) {
        return false;
    }
    for (i = 0; i < ts->n_columns; i++) {
        bool differs = (i != OVSDB_COL_VERSION
                        && (!txr->old || !txr->new
                            || !ovsdb_datum_equals(&txr->old->fields[i],
                                                   &txr->new->fields[i],
                                                   &ts->columns[i]->type)));
        if (columns) {
            columns[i] = differs;
        }
        changed |= differs;
    }
    return changed;
}

/* Inserts 'row', whose UUID is set and unique in its table, into its table
 * as part of 'txn'. */
void
ovsdb_txn_row_insert(struct ovsdb_txn *txn, struct ovsdb_row *row)
{
    const struct uuid *uuid = ovsdb_row_get_uuid(row);
    struct ovsdb_txn_row *txr = txn_row_create(txn, row->table, uuid);

    row->n_refs = 0;
    row->txn_row = txr;
    txr->new = row;
    /* As in Open vSwitch, a new row has its own "_version" from the start,
     * which later operations of the transaction already see and which the
     * commit keeps. */
    uuid_generate(&row->fields[OVSDB_COL_VERSION].keys[0].uuid);
    ohmap_insert(&row->table->rows, &row->node, uuid_hash(uuid));
}

/* Prepares 'row', which is in its table, to be modified by 'txn', and
 * returns it. */
struct ovsdb_row *
ovsdb_txn_row_modify(struct ovsdb_txn *txn, struct ovsdb_row *row)
{
    txn_touch(txn, row);
    return row;
}

/* Deletes 'row' from its table as part of 'txn'.  'row' is freed. */
void
ovsdb_txn_row_delete(struct ovsdb_txn *txn, struct ovsdb_row *row)
{
    struct ovsdb_txn_row *txr = txn_touch(txn, row);

    ohmap_remove(&row->table->rows, &row->node);
    ovsdb_row_destroy(row);
    txr->new = NULL;
}

/* Returns true if 'txn' may insert a row with 'uuid' into 'table': no row
 * there has it, and no row with it was deleted within 'txn'. */
bool
ovsdb_txn_may_create_row(const struct ovsdb_txn *txn,
                         const struct ovsdb_table *table,
                         const struct uuid *uuid)
{
    return (!ovsdb_table_get_row(table, uuid)
            && !txn_find_row(txn, table, uuid));
}

/* Gives 'txn' the id 'txnid' (a Raft entry's, or the one a relay's source
 * sent), under which a history keeps it. */
void
ovsdb_txn_set_txnid(struct ovsdb_txn *txn, const struct uuid *txnid)
{
    txn->txnid = *txnid;
}

/* Returns the id of 'txn': the one ovsdb_txn_set_txnid() gave, or zero. */
const struct uuid *
ovsdb_txn_get_txnid(const struct ovsdb_txn *txn)
{
    return &txn->txnid;
}

/* Starts keeping a transaction history for 'db' if 'keep' (counting the
 * atoms 'db' holds now), or drops the one it has if not. */
void
ovsdb_txn_history_init(struct ovsdb *db, bool keep)
{
    ovsdb_txn_history_destroy(db);
    db->need_txn_history = keep;
    db->n_atoms = 0;
    if (keep) {
        for (size_t i = 0; i < db->schema->n_tables; i++) {
            struct ovsdb_row *row;

            OHMAP_FOR_EACH (row, node, &db->tables[i].rows) {
                db->n_atoms += ovsdb_row_n_atoms(row);
            }
        }
    }
}

/* Drops the oldest transactions of the history of 'db' while it is over
 * Open vSwitch's limits (see transaction.h).  Called from the server's main
 * loop, so that the transactions read at start-up are judged together. */
void
ovsdb_txn_history_run(struct ovsdb *db)
{
    while (db->n_txn_history > 1
           && (db->n_txn_history > TXN_HISTORY_MAX
               || db->n_txn_history_atoms > db->n_atoms)) {
        txn_history_pop(db);
    }
}

/* Frees the history of 'db' (but keeps recording if it did). */
void
ovsdb_txn_history_destroy(struct ovsdb *db)
{
    while (db->n_txn_history) {
        txn_history_pop(db);
    }
    free(db->txn_history);
    db->txn_history = NULL;
}

/* Returns the id of the newest transaction in the history of 'db', or the
 * all-zero id if it has none (a standalone database). */
const struct uuid *
ovsdb_txn_history_last_id(const struct ovsdb *db)
{
    static const struct uuid zero;

    return (db->n_txn_history
            ? &db->txn_history[db->n_txn_history - 1]->txnid
            : &zero);
}

/* Looks for the transaction 'txnid' in the history of 'db'.  If it is
 * there, stores in '*entriesp' and '*n_entriesp' the transactions that
 * came after it, oldest first (none if it is the newest), and returns
 * true; otherwise returns false. */
bool
ovsdb_txn_history_since(const struct ovsdb *db, const struct uuid *txnid,
                        struct ovsdb_txn_history_entry *const **entriesp,
                        size_t *n_entriesp)
{
    for (size_t i = db->n_txn_history; i-- > 0; ) {
        if (uuid_equals(&db->txn_history[i]->txnid, txnid)) {
            *entriesp = &db->txn_history[i + 1];
            *n_entriesp = db->n_txn_history - i - 1;
            return true;
        }
    }
    *entriesp = NULL;
    *n_entriesp = 0;
    return false;
}

/* Returns the number of atoms in 'row', as Open vSwitch counts them for
 * "memory/show": one per set element, two per map pair, in every column
 * ("_uuid" and "_version" included). */
size_t
ovsdb_row_n_atoms(const struct ovsdb_row *row)
{
    const struct ovsdb_table_schema *ts = row->table->schema;
    size_t n = 0;

    for (size_t i = 0; i < ts->n_columns; i++) {
        n += row->fields[i].n * (ts->columns[i]->type.value.type
                                 == OVSDB_TYPE_VOID ? 1 : 2);
    }
    return n;
}

static struct ovsdb_txn_row *
txn_row_create(struct ovsdb_txn *txn, struct ovsdb_table *table,
               const struct uuid *uuid)
{
    struct ovsdb_txn_row *txr = xzalloc(sizeof *txr);

    txr->table = table;
    ohmap_insert(&txn->rows, &txr->node, uuid_hash(uuid));
    *txn->tailp = txr;
    txn->tailp = &txr->next;
    return txr;
}

/* Returns the ovsdb_txn_row for 'row', creating it (with a copy of the row
 * as it is now) if 'txn' has not touched 'row' yet. */
static struct ovsdb_txn_row *
txn_touch(struct ovsdb_txn *txn, struct ovsdb_row *row)
{
    struct ovsdb_txn_row *txr = row->txn_row;

    if (!txr) {
        txr = txn_row_create(txn, row->table, ovsdb_row_get_uuid(row));
        txr->old = ovsdb_row_clone(row);
        txr->old->txn_row = NULL;
        txr->new = row;
        txr->n_refs = row->n_refs;
        collect_refs(row, &txr->refs, &txr->n_counted);
        row->txn_row = txr;
    }
    return txr;
}

static struct ovsdb_txn_row *
txn_find_row(const struct ovsdb_txn *txn, const struct ovsdb_table *table,
             const struct uuid *uuid)
{
    struct ovsdb_txn_row *txr;

    OHMAP_FOR_EACH_WITH_HASH (txr, node, uuid_hash(uuid), &txn->rows) {
        const struct ovsdb_row *row = txr->new ? txr->new : txr->old;

        if (txr->table == table && row
            && uuid_equals(ovsdb_row_get_uuid(row), uuid)) {
            return txr;
        }
    }
    return NULL;
}

static void
add_ref(struct ref **refsp, size_t *n_refsp, size_t *allocatedp,
        const struct ovsdb_column *column,
        const struct ovsdb_base_type *base, const union ovsdb_atom *atom)
{
    struct ref *ref;

    if (*n_refsp >= *allocatedp) {
        *allocatedp = *allocatedp ? *allocatedp * 2 : 4;
        *refsp = xrealloc(*refsp, *allocatedp * sizeof **refsp);
    }
    ref = &(*refsp)[(*n_refsp)++];
    ref->column = column;
    ref->table = base->uuid.ref_table;
    ref->uuid = atom->uuid;
}

/* Stores in '*refsp' the strong references that 'row' (which may be NULL)
 * holds, one per referencing atom. */
static void
collect_refs(const struct ovsdb_row *row, struct ref **refsp,
             size_t *n_refsp)
{
    size_t allocated = 0, i;

    *refsp = NULL;
    *n_refsp = 0;
    if (!row) {
        return;
    }
    for (i = 0; i < row->table->schema->n_columns; i++) {
        const struct ovsdb_column *column = row->table->schema->columns[i];
        const struct ovsdb_base_type *key = &column->type.key;
        const struct ovsdb_base_type *value = &column->type.value;
        const struct ovsdb_datum *datum = &row->fields[i];
        unsigned int j;

        for (j = 0; j < datum->n; j++) {
            if (ovsdb_base_type_is_strong_ref(key)) {
                add_ref(refsp, n_refsp, &allocated, column, key,
                        &datum->keys[j]);
            }
            if (ovsdb_base_type_is_strong_ref(value)) {
                add_ref(refsp, n_refsp, &allocated, column, value,
                        &datum->values[j]);
            }
        }
    }
}

static int
compare_refs(const void *a_, const void *b_)
{
    const struct ref *a = a_, *b = b_;

    if (a->table != b->table) {
        return a->table->index < b->table->index ? -1 : 1;
    }
    return uuid_compare_3way(&a->uuid, &b->uuid);
}

/* Adds 'delta' to the reference count of the row that 'ref' names.  The
 * row must exist, or (for a decrement) have been deleted by 'txn'. */
static struct ovsdb_error *
adjust_ref(struct ovsdb_txn *txn, const struct ovsdb_txn_row *from,
           const struct ref *ref, int delta)
{
    struct ovsdb_table *table = &txn->db->tables[ref->table->index];
    struct ovsdb_row *row = ovsdb_table_get_row(table, &ref->uuid);
    struct ovsdb_txn_row *txr;

    if (row) {
        txr = txn_touch(txn, row);
    } else {
        txr = txn_find_row(txn, table, &ref->uuid);
    }
    if (delta > 0 && !row) {
        char from_s[UUID_LEN + 1], to_s[UUID_LEN + 1];

        uuid_to_string(ovsdb_row_get_uuid(from->new), from_s);
        uuid_to_string(&ref->uuid, to_s);
        return ovsdb_error("referential integrity violation",
                           "Table %s column %s row %s references "
                           "nonexistent row %s in table %s.",
                           from->table->schema->name, ref->column->name,
                           from_s, to_s, ref->table->name);
    }
    if (txr) {
        txr->n_refs += delta;
    }
    return NULL;
}

/* Brings the reference counts of the rows that 'txr' references up to date
 * with what 'txr->new' references now.  Sets '*progress' if anything
 * changed. */
static struct ovsdb_error *
recount_refs(struct ovsdb_txn *txn, struct ovsdb_txn_row *txr,
             bool *progress)
{
    struct ref *refs;
    size_t n_refs, i, j;
    struct ovsdb_error *error = NULL;

    collect_refs(txr->new, &refs, &n_refs);
    if (n_refs) {
        qsort(refs, n_refs, sizeof *refs, compare_refs);
    }
    if (txr->n_counted) {
        qsort(txr->refs, txr->n_counted, sizeof *txr->refs, compare_refs);
    }

    /* Walk both sorted lists: what only the old list has loses a
     * reference, what only the new list has gains one. */
    for (i = j = 0; !error && (i < txr->n_counted || j < n_refs); ) {
        int cmp = (i >= txr->n_counted ? 1
                   : j >= n_refs ? -1
                   : compare_refs(&txr->refs[i], &refs[j]));
        if (cmp < 0) {
            error = adjust_ref(txn, txr, &txr->refs[i++], -1);
            *progress = true;
        } else if (cmp > 0) {
            error = adjust_ref(txn, txr, &refs[j++], 1);
            *progress = true;
        } else {
            i++;
            j++;
        }
    }
    free(txr->refs);
    txr->refs = refs;
    txr->n_counted = n_refs;
    return error;
}

/* Returns true if 'atom' of a weak reference 'base' names a row that does
 * not exist. */
static bool
weak_ref_dangles(const struct ovsdb *db, const struct ovsdb_base_type *base,
                 const union ovsdb_atom *atom)
{
    return !ovsdb_table_get_row(&db->tables[base->uuid.ref_table->index],
                                &atom->uuid);
}

/* Removes from 'txr->new' the weak references to rows that do not exist. */
static struct ovsdb_error *
drop_dangling_weak_refs(const struct ovsdb *db, struct ovsdb_txn_row *txr)
{
    const struct ovsdb_table_schema *ts = txr->table->schema;
    struct ovsdb_row *row = txr->new;
    size_t i;

    for (i = 0; i < ts->n_columns; i++) {
        const struct ovsdb_column *column = ts->columns[i];
        const struct ovsdb_base_type *key = &column->type.key;
        const struct ovsdb_base_type *value = &column->type.value;
        struct ovsdb_datum *datum = &row->fields[i];
        unsigned int j, n_removed = 0;

        if (!ovsdb_base_type_is_weak_ref(key)
            && !ovsdb_base_type_is_weak_ref(value)) {
            continue;
        }
        for (j = 0; j < datum->n; ) {
            if ((ovsdb_base_type_is_weak_ref(key)
                 && weak_ref_dangles(db, key, &datum->keys[j]))
                || (ovsdb_base_type_is_weak_ref(value)
                    && weak_ref_dangles(db, value, &datum->values[j]))) {
                ovsdb_datum_remove(datum, j, &column->type);
                n_removed++;
            } else {
                j++;
            }
        }
        if (n_removed && datum->n < column->type.n_min) {
            char s[UUID_LEN + 1];

            uuid_to_string(ovsdb_row_get_uuid(row), s);
            return ovsdb_error("constraint violation",
                               "Deletion of %u weak reference(s) to deleted "
                               "(or never-existing) rows from column \"%s\" "
                               "in \"%s\" row %s caused this column to become "
                               "empty, but constraints on this column "
                               "disallow an empty column.", n_removed,
                               column->name, ts->name, s);
        }
    }
    return NULL;
}

/* Returns true if 'datum', the value of weak reference 'column', names a
 * row that 'txn' deleted. */
static bool
datum_names_deleted_row(const struct ovsdb_txn *txn,
                        const struct ovsdb_column *column,
                        const struct ovsdb_datum *datum)
{
    const struct ovsdb_base_type *bases[2] = { &column->type.key,
                                               &column->type.value };
    int k;

    for (k = 0; k < 2; k++) {
        const struct ovsdb_base_type *base = bases[k];
        const union ovsdb_atom *atoms = k ? datum->values : datum->keys;
        const struct ovsdb_table *target;
        unsigned int j;

        if (!ovsdb_base_type_is_weak_ref(base)) {
            continue;
        }
        target = &txn->db->tables[base->uuid.ref_table->index];
        for (j = 0; j < datum->n; j++) {
            const struct ovsdb_txn_row *txr;

            txr = txn_find_row(txn, target, &atoms[j].uuid);
            if (txr && !txr->new) {
                return true;
            }
        }
    }
    return false;
}

/* Brings into 'txn' every row outside it that holds a weak reference to a
 * row 'txn' deleted, so that drop_dangling_weak_refs() cleans it.  Returns
 * true if it touched any row. */
static bool
touch_weak_referrers(struct ovsdb_txn *txn)
{
    struct ovsdb *db = txn->db;
    bool any_deleted = false, touched = false;
    struct ovsdb_txn_row *txr;
    size_t t;

    for (txr = txn->first; txr; txr = txr->next) {
        if (txr->old && !txr->new) {
            any_deleted = true;
            break;
        }
    }
    if (!any_deleted) {
        return false;
    }

    for (t = 0; t < db->schema->n_tables; t++) {
        struct ovsdb_table *table = &db->tables[t];
        const struct ovsdb_table_schema *ts = table->schema;
        struct ovsdb_row *row;
        size_t i;

        for (i = 0; i < ts->n_columns; i++) {
            if (ovsdb_base_type_is_weak_ref(&ts->columns[i]->type.key)
                || ovsdb_base_type_is_weak_ref(&ts->columns[i]->type.value)) {
                break;
            }
        }
        if (i == ts->n_columns) {
            continue;
        }
        OHMAP_FOR_EACH (row, node, &table->rows) {
            if (row->txn_row) {
                continue;
            }
            for (i = 0; i < ts->n_columns; i++) {
                if (datum_names_deleted_row(txn, ts->columns[i],
                                            &row->fields[i])) {
                    txn_touch(txn, row);
                    touched = true;
                    break;
                }
            }
        }
    }
    return touched;
}

/* Returns how many of the strong references that 'txr' counted for its new
 * row point to that row itself. */
static size_t
count_self_refs(const struct ovsdb_txn_row *txr)
{
    const struct uuid *uuid = ovsdb_row_get_uuid(txr->new);
    size_t i, n = 0;

    for (i = 0; i < txr->n_counted; i++) {
        if (txr->refs[i].table == txr->table->schema
            && uuid_equals(&txr->refs[i].uuid, uuid)) {
            n++;
        }
    }
    return n;
}

/* Deletes the rows of non-root tables that 'txn' touched and that no strong
 * reference from another row holds any more: as in Open vSwitch, a row that
 * only references itself is garbage too.  Returns true if it deleted any. */
static bool
collect_garbage(struct ovsdb_txn *txn)
{
    struct ovsdb_txn_row *txr;
    bool deleted = false;

    for (txr = txn->first; txr; txr = txr->next) {
        if (txr->new && !txr->table->schema->is_root
            && txr->n_refs <= count_self_refs(txr)) {
            ovsdb_txn_row_delete(txn, txr->new);
            deleted = true;
        }
    }
    return deleted;
}

static struct ovsdb_error *
check_deleted_rows(const struct ovsdb_txn *txn)
{
    const struct ovsdb_txn_row *txr;

    for (txr = txn->first; txr; txr = txr->next) {
        if (!txr->new && txr->old && txr->n_refs) {
            char s[UUID_LEN + 1];

            uuid_to_string(ovsdb_row_get_uuid(txr->old), s);
            return ovsdb_error("referential integrity violation",
                               "cannot delete %s row %s because of %zu "
                               "remaining reference(s)",
                               txr->table->schema->name, s, txr->n_refs);
        }
    }
    return NULL;
}

static struct ovsdb_error *
check_max_rows(const struct ovsdb_txn *txn)
{
    const struct ovsdb_txn_row *txr;

    for (txr = txn->first; txr; txr = txr->next) {
        const struct ovsdb_table_schema *ts = txr->table->schema;
        size_t n = ohmap_count(&txr->table->rows);

        if (txr->new && n > ts->max_rows) {
            return ovsdb_error("constraint violation",
                               "transaction causes \"%s\" table to contain "
                               "%zu rows, greater than the schema-defined "
                               "limit of %u row(s)", ts->name, n,
                               ts->max_rows);
        }
    }
    return NULL;
}

/* Appends to 'ds' "X", "X and Y" or "X, Y, and Z", with 'i' the index of
 * the item about to be appended among 'n'. */
static void
put_list_separator(size_t i, size_t n, struct ds *ds)
{
    if (i) {
        ds_put_cstr(ds, n > 2 ? ", " : " ");
        if (i == n - 1) {
            ds_put_cstr(ds, "and ");
        }
    }
}

/* Appends the values of 'row' in the columns of 'ix' to 'ds', as an English
 * list. */
static void
put_index_values(const struct ovsdb_row *row,
                 const struct ovsdb_index_schema *ix, struct ds *ds)
{
    size_t i;

    for (i = 0; i < ix->n_columns; i++) {
        const struct ovsdb_column *column = ix->columns[i];

        put_list_separator(i, ix->n_columns, ds);
        ovsdb_datum_to_string(&row->fields[column->index], &column->type,
                              ds);
    }
}

static void
describe_index_row(const struct ovsdb_row *row,
                   const struct ovsdb_index_schema *ix, struct ds *ds)
{
    const struct ovsdb_txn_row *txr = row->txn_row;
    char s[UUID_LEN + 1];

    uuid_to_string(ovsdb_row_get_uuid(row), s);
    ds_put_format(ds, "row, with UUID %s, ", s);
    if (!txr) {
        ds_put_cstr(ds, "existed in the database before this transaction "
                    "and was not modified by the transaction.");
    } else if (!txr->old) {
        ds_put_cstr(ds, "was inserted by this transaction.");
    } else if (ovsdb_row_equal_columns(txr->old, row,
                                       (const struct ovsdb_column *const *)
                                       ix->columns, ix->n_columns)) {
        ds_put_cstr(ds, "existed in the database before this transaction, "
                    "which modified some of the row's columns but not any "
                    "columns in this index.");
    } else {
        ds_put_cstr(ds, "had the following index values before the "
                    "transaction: ");
        put_index_values(txr->old, ix, ds);
        ds_put_char(ds, '.');
    }
}

static struct ovsdb_error *
index_error(const struct ovsdb_row *a, const struct ovsdb_row *b,
            const struct ovsdb_index_schema *ix)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    struct ovsdb_error *error;
    size_t i;

    /* Open vSwitch names the greater row, comparing all columns in its own
     * column order, first; so do we, for the same text. */
    if (ovsdb_table_schema_compare_rows(a->table->schema, a->fields,
                                        b->fields) < 0) {
        const struct ovsdb_row *tmp = a;

        a = b;
        b = tmp;
    }
    ds_put_format(&ds, "Transaction causes multiple rows in \"%s\" table to "
                  "have identical values (", a->table->schema->name);
    put_index_values(a, ix, &ds);
    ds_put_format(&ds, ") for index on column%s ",
                  ix->n_columns > 1 ? "s" : "");
    for (i = 0; i < ix->n_columns; i++) {
        put_list_separator(i, ix->n_columns, &ds);
        ds_put_format(&ds, "\"%s\"", ix->columns[i]->name);
    }
    ds_put_cstr(&ds, ".  First ");
    describe_index_row(a, ix, &ds);
    ds_put_cstr(&ds, "  Second ");
    describe_index_row(b, ix, &ds);
    error = ovsdb_error("constraint violation", "%s", ds_cstr(&ds));
    ds_destroy(&ds);
    return error;
}

/* Entry of the map of changed rows in check_table_index(). */
struct changed_entry {
    struct ohmap_node node;
    const struct ovsdb_row *row;
};

/* Checks index 'ix_idx' of 'table' against the rows that 'txn' inserted or
 * changed: each must differ in its index values from every other row that
 * will exist after the transaction.  Rows outside the transaction are
 * found through the table's index map, which holds committed values; the
 * changed rows are compared among themselves. */
static struct ovsdb_error *
check_table_index(const struct ovsdb_txn *txn,
                  const struct ovsdb_table *table, size_t ix_idx)
{
    const struct ovsdb_index_schema *ix = &table->schema->indexes[ix_idx];
    const struct ovsdb_column *const *columns
        = (const struct ovsdb_column *const *) ix->columns;
    struct ovsdb_error *error = NULL;
    const struct ovsdb_txn_row *txr;
    struct changed_entry *entries;
    size_t n_entries = 0, n_rows = 0;
    struct ohmap changed;

    for (txr = txn->first; txr; txr = txr->next) {
        n_rows++;
    }
    entries = xmalloc((n_rows ? n_rows : 1) * sizeof *entries);
    ohmap_init(&changed);
    for (txr = txn->first; txr && !error; txr = txr->next) {
        const struct ovsdb_row *row = txr->new;
        struct ovsdb_index_entry *e;
        struct changed_entry *c;
        uint32_t hash;

        if (txr->table != table || !row) {
            continue;
        }
        hash = ovsdb_row_index_hash(row, ix);
        OHMAP_FOR_EACH_WITH_HASH (e, node, hash, &table->indexes[ix_idx]) {
            const struct ovsdb_row *other = ovsdb_table_get_row(table,
                                                                &e->uuid);

            if (other && !other->txn_row
                && ovsdb_row_equal_columns(other, row, columns,
                                           ix->n_columns)) {
                error = index_error(row, other, ix);
                break;
            }
        }
        if (error) {
            break;
        }
        OHMAP_FOR_EACH_WITH_HASH (c, node, hash, &changed) {
            if (ovsdb_row_equal_columns(c->row, row, columns,
                                        ix->n_columns)) {
                error = index_error(c->row, row, ix);
                break;
            }
        }
        entries[n_entries].row = row;
        ohmap_insert(&changed, &entries[n_entries].node, hash);
        n_entries++;
    }
    ohmap_destroy(&changed);
    free(entries);
    return error;
}

static struct ovsdb_error *
check_indexes(const struct ovsdb_txn *txn)
{
    struct ovsdb *db = txn->db;
    size_t t;

    for (t = 0; t < db->schema->n_tables; t++) {
        const struct ovsdb_table *table = &db->tables[t];
        const struct ovsdb_txn_row *txr;
        size_t i;

        if (!table->schema->n_indexes) {
            continue;
        }
        for (txr = txn->first; txr; txr = txr->next) {
            if (txr->table == table && txr->new) {
                break;
            }
        }
        if (!txr) {
            continue;
        }
        for (i = 0; i < table->schema->n_indexes; i++) {
            struct ovsdb_error *error = check_table_index(txn, table, i);

            if (error) {
                return error;
            }
        }
    }
    return NULL;
}

/* Gives every row that 'txn' changed a new "_version" (inserted rows got
 * theirs when they were inserted). */
static void
bump_versions(struct ovsdb_txn *txn)
{
    struct ovsdb_txn_row *txr;

    for (txr = txn->first; txr; txr = txr->next) {
        if (txr->old && txr->new && ovsdb_txn_row_changed(txr, NULL)) {
            uuid_generate(&txr->new->fields[OVSDB_COL_VERSION].keys[0].uuid);
        }
    }
}

static void
txn_destroy(struct ovsdb_txn *txn)
{
    struct ovsdb_txn_row *txr, *next;

    for (txr = txn->first; txr; txr = next) {
        next = txr->next;
        ovsdb_row_destroy(txr->old);
        free(txr->refs);
        free(txr);
    }
    ohmap_destroy(&txn->rows);
    ds_destroy(&txn->comment);
    free(txn);
}

/* Appends committed 'txn' to the history of its database, taking the old
 * copies of its rows (ovsdb_txn_finish() would free them) and copying the
 * new ones, and keeps the database's atom count. */
static void
txn_history_add(struct ovsdb_txn *txn)
{
    struct ovsdb *db = txn->db;
    struct ovsdb_txn_history_entry *e = xzalloc(sizeof *e);
    struct ovsdb_txn_row *txr;
    size_t n = 0;

    for (txr = txn->first; txr; txr = txr->next) {
        n++;
    }
    e->txnid = txn->txnid;
    e->rows = xcalloc(n ? n : 1, sizeof *e->rows);
    for (txr = txn->first; txr; txr = txr->next) {
        struct ovsdb_txn_history_row *hr;
        size_t old_atoms, new_atoms;

        if (!ovsdb_txn_row_changed(txr, NULL)) {
            continue;
        }
        hr = &e->rows[e->n_rows++];
        hr->table = txr->table;
        hr->old = txr->old ? ovsdb_row_clone(txr->old) : NULL;
        hr->new = txr->new ? ovsdb_row_clone(txr->new) : NULL;
        old_atoms = hr->old ? ovsdb_row_n_atoms(hr->old) : 0;
        new_atoms = hr->new ? ovsdb_row_n_atoms(hr->new) : 0;
        e->n_atoms += old_atoms + new_atoms;
        db->n_atoms += new_atoms;
        db->n_atoms -= MIN(db->n_atoms, old_atoms);
    }
    db->txn_history = xrealloc(db->txn_history, (db->n_txn_history + 1)
                               * sizeof *db->txn_history);
    db->txn_history[db->n_txn_history++] = e;
    db->n_txn_history_atoms += e->n_atoms;
}

static void
txn_history_entry_destroy(struct ovsdb_txn_history_entry *e)
{
    for (size_t i = 0; i < e->n_rows; i++) {
        ovsdb_row_destroy(e->rows[i].old);
        ovsdb_row_destroy(e->rows[i].new);
    }
    free(e->rows);
    free(e);
}

/* Drops the oldest transaction of the history of 'db'. */
static void
txn_history_pop(struct ovsdb *db)
{
    struct ovsdb_txn_history_entry *e = db->txn_history[0];

    db->n_txn_history_atoms -= e->n_atoms;
    txn_history_entry_destroy(e);
    memmove(&db->txn_history[0], &db->txn_history[1],
            --db->n_txn_history * sizeof *db->txn_history);
}
