/* ovsdb-idl-typed: the run-time half of a typed, generated IDL binding.
 *
 * lib/ovsdb-idlc.py turns a schema (vswitchd/vswitch.ovsschema) into a C
 * binding (lib/vswitch-idl.{c,h} in the build directory): one struct per
 * table with a typed member per column, an enum of column ids, descriptors
 * of the tables and columns, and small typed functions that call into this
 * file.  The generic IDL (ovsdb-idl.h) stays the engine: it keeps the
 * replica and the transactions; this layer decodes its rows into the typed
 * structs and encodes typed values back into datums.
 *
 * How a column is laid out in its row struct ("layout"):
 *
 *   SCALAR    a required single value: "T name;"
 *   OPTIONAL  an optional string or reference: "T name;", NULL if empty;
 *   ARRAY     any other optional value or set: "T *name; size_t n_name;"
 *   SMAP      a string-to-string map: "struct smap name;"
 *   MAP       any other map: "K *key_name; V *value_name; size_t n_name;"
 *
 * with T int64_t (integer), double (real), bool (boolean), const char *
 * (string), struct uuid (uuid) or a pointer to the referenced table's
 * struct (reference; references to rows that are not replicated or do not
 * exist are left out, or NULL).
 *
 * Lifetime: a typed row, and everything its members point to, stays valid
 * until the next ovsdb_idl_run() that changes the replica, or the end of
 * the transaction (ovsdb_idl_txn_destroy()), whichever comes first; the
 * typed rows are then decoded again, lazily.  A typed setter writes the
 * column through the IDL's transaction and decodes it again at once, so
 * that the row reads its new value.
 *
 * Columns the server's schema lacks (an older database) read as their
 * default and are not written, as with the generic IDL.
 *
 * Threads: as the IDL, one thread.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OVSDB_IDL_TYPED_H
#define OVSDB_IDL_TYPED_H 1

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ovsdb/ohmap.h"
#include "ovsdb/ovsdb-types.h"
#include "ovsdb/uuid.h"

struct ovsdb_idl;
struct ovsdb_idl_row;
struct ovsdb_idl_txn;
struct smap;

enum ovsdb_idl_typed_layout {
    OVSDB_IDL_TYPED_SCALAR,
    OVSDB_IDL_TYPED_OPTIONAL,
    OVSDB_IDL_TYPED_ARRAY,
    OVSDB_IDL_TYPED_SMAP,
    OVSDB_IDL_TYPED_MAP
};

/* A column's descriptor (generated). */
struct ovsdb_idl_typed_column {
    const char *name;                   /* As in the schema. */
    size_t table;                       /* Index of its table. */
    size_t index;                       /* Index among its table's. */
    enum ovsdb_idl_typed_layout layout;
    enum ovsdb_atomic_type key_type;
    enum ovsdb_atomic_type value_type;  /* OVSDB_TYPE_VOID unless a map. */
    int key_ref;                        /* Referenced table's index, or -1. */
    int value_ref;
    unsigned int n_min, n_max;          /* As in the schema. */
    size_t offset;                      /* Of the member (keys, for MAP). */
    size_t value_offset;                /* MAP: of the values array. */
    size_t n_offset;                    /* ARRAY and MAP: of the count. */
};

/* A table's descriptor (generated). */
struct ovsdb_idl_typed_table {
    const char *name;
    size_t index;
    size_t row_size;                    /* sizeof its row struct. */
    const struct ovsdb_idl_typed_column *columns;
    size_t n_columns;
};

/* A database's descriptor (generated). */
struct ovsdb_idl_typed_db {
    const char *name;
    const struct ovsdb_idl_typed_table *tables;
    size_t n_tables;
};

/* The first member, "header_", of every typed row struct. */
struct ovsdb_idl_typed_row {
    struct ohmap_node node;             /* In the binding's cache. */
    struct ovsdb_idl *idl;
    const struct ovsdb_idl_row *row;    /* The generic row. */
    const struct ovsdb_idl_typed_table *table;
};

/* Registration (before the first ovsdb_idl_run(), as with
 * ovsdb_idl_add_table() and ovsdb_idl_add_column()). */
void ovsdb_idl_typed_add_table(struct ovsdb_idl *,
                               const struct ovsdb_idl_typed_db *,
                               const struct ovsdb_idl_typed_table *);
void ovsdb_idl_typed_add_column(struct ovsdb_idl *,
                                const struct ovsdb_idl_typed_db *,
                                const struct ovsdb_idl_typed_column *);

/* Rows, as typed rows (cast by the generated code), NULL at the end. */
const struct ovsdb_idl_typed_row *ovsdb_idl_typed_first(
    struct ovsdb_idl *, const struct ovsdb_idl_typed_db *,
    const struct ovsdb_idl_typed_table *);
const struct ovsdb_idl_typed_row *ovsdb_idl_typed_next(
    const struct ovsdb_idl_typed_row *);
const struct ovsdb_idl_typed_row *ovsdb_idl_typed_get_for_uuid(
    struct ovsdb_idl *, const struct ovsdb_idl_typed_db *,
    const struct ovsdb_idl_typed_table *, const struct uuid *);
/* The typed row of generic row 'row' of 'table', or NULL if 'row' is not
 * in that table. */
const struct ovsdb_idl_typed_row *ovsdb_idl_typed_from_row(
    struct ovsdb_idl *, const struct ovsdb_idl_typed_db *,
    const struct ovsdb_idl_typed_table *, const struct ovsdb_idl_row *);

/* Transactions.  Inserting returns the new typed row (NULL if the server's
 * schema lacks the table). */
const struct ovsdb_idl_typed_row *ovsdb_idl_typed_insert(
    struct ovsdb_idl_txn *, const struct ovsdb_idl_typed_db *,
    const struct ovsdb_idl_typed_table *);
void ovsdb_idl_typed_delete(struct ovsdb_idl_txn *,
                            const struct ovsdb_idl_typed_row *);
void ovsdb_idl_typed_verify(struct ovsdb_idl_txn *,
                            const struct ovsdb_idl_typed_row *,
                            const struct ovsdb_idl_typed_column *);

/* Writes 'n' elements to 'column' of 'row': 'keys' (and for a map,
 * 'values') are arrays of the column's C element type (see above; a
 * reference is a typed row pointer).  Repeated keys after the first are
 * dropped.  The row is decoded again. */
void ovsdb_idl_typed_write(struct ovsdb_idl_txn *,
                           const struct ovsdb_idl_typed_row *,
                           const struct ovsdb_idl_typed_column *,
                           const void *keys, const void *values, size_t n);
void ovsdb_idl_typed_write_smap(struct ovsdb_idl_txn *,
                                const struct ovsdb_idl_typed_row *,
                                const struct ovsdb_idl_typed_column *,
                                const struct smap *);

/* Change tracking (see ovsdb_idl_row_get_insert_seqno()): whether the row
 * was inserted, or 'column' changed, by an update after seqno 'since'. */
bool ovsdb_idl_typed_is_new(const struct ovsdb_idl_typed_row *,
                            unsigned int since);
bool ovsdb_idl_typed_is_updated(const struct ovsdb_idl_typed_row *,
                                const struct ovsdb_idl_typed_column *,
                                unsigned int since);

/* Conditional monitoring.  A condition is the list of clauses sent as the
 * "where" of the table's monitor_cond request, combined as the server
 * combines them; a single "true" clause matches every row.  The generated
 * <prefix>_<table>_add_clause_<column>() functions append a clause with a
 * typed value. */
enum ovsdb_idl_function {
    OVSDB_IDL_F_EQ,                     /* == */
    OVSDB_IDL_F_NE,                     /* != */
    OVSDB_IDL_F_LT,                     /* <  */
    OVSDB_IDL_F_LE,                     /* <= */
    OVSDB_IDL_F_GT,                     /* >  */
    OVSDB_IDL_F_GE,                     /* >= */
    OVSDB_IDL_F_INCLUDES,
    OVSDB_IDL_F_EXCLUDES
};

struct ovsdb_idl_condition {
    json_t *clauses;                    /* JSON array. */
};

void ovsdb_idl_condition_init(struct ovsdb_idl_condition *);
void ovsdb_idl_condition_destroy(struct ovsdb_idl_condition *);
void ovsdb_idl_condition_add_true(struct ovsdb_idl_condition *);
/* Appends [column, function, value] ('value' taken). */
void ovsdb_idl_condition_add_clause(struct ovsdb_idl_condition *,
                                    const struct ovsdb_idl_typed_column *,
                                    enum ovsdb_idl_function, json_t *value);
/* The JSON of the C element at 'elem' of 'column''s key type. */
json_t *ovsdb_idl_typed_atom_to_json(const struct ovsdb_idl_typed_column *,
                                     const void *elem);
/* Makes 'cond' the monitor condition of 'table' (ovsdb_idl_set_condition();
 * 'cond' is copied). */
void ovsdb_idl_typed_set_condition(struct ovsdb_idl *,
                                   const struct ovsdb_idl_typed_table *,
                                   const struct ovsdb_idl_condition *);

#endif /* ovsdb-idl-typed.h */
