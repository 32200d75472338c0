/* ovsdb-idl-typed: decoding generic IDL rows into generated typed structs
 * and encoding typed values into datums (see ovsdb-idl-typed.h).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ovsdb-idl-typed.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ovsdb-idl.h"
#include "ovsdb/ovsdb-data.h"
#include "ovsdb/schema.h"
#include "smap.h"
#include "util.h"

/* The binding's state, kept with the IDL (ovsdb_idl_set_binding()). */
struct binding {
    struct ovsdb_idl *idl;
    const struct ovsdb_idl_typed_db *db;
    unsigned int generation;    /* ovsdb_idl_get_row_generation() seen. */
    struct ohmap rows;          /* "struct ovsdb_idl_typed_row"s. */

    /* The server's tables and columns, by typed index (NULL: the server's
     * schema lacks it, or has it with another type). */
    const struct ovsdb_table_schema **tables;
    const struct ovsdb_column ***columns;
};

static struct binding *binding_get(struct ovsdb_idl *,
                                   const struct ovsdb_idl_typed_db *);
static const struct ovsdb_idl_typed_row *typed_row_get(
    struct binding *, const struct ovsdb_idl_typed_table *,
    const struct ovsdb_idl_row *);
static void decode_column(struct binding *, struct ovsdb_idl_typed_row *,
                          const struct ovsdb_idl_typed_column *);
static void free_column(struct ovsdb_idl_typed_row *,
                        const struct ovsdb_idl_typed_column *);
static bool encode_atom(const void *src, enum ovsdb_atomic_type, int ref,
                        union ovsdb_atom *);
static size_t elem_size(enum ovsdb_atomic_type, int ref);

/* ------------------------------------------------------------------------
 * Public functions.
 * ------------------------------------------------------------------------ */

/* Registers 'table' of 'db' for replication. */
void
ovsdb_idl_typed_add_table(struct ovsdb_idl *idl,
                          const struct ovsdb_idl_typed_db *db DPS_UNUSED,
                          const struct ovsdb_idl_typed_table *table)
{
    ovsdb_idl_add_table(idl, table->name);
}

/* Registers 'column' of 'db' for replication (and its table). */
void
ovsdb_idl_typed_add_column(struct ovsdb_idl *idl,
                           const struct ovsdb_idl_typed_db *db,
                           const struct ovsdb_idl_typed_column *column)
{
    ovsdb_idl_add_column(idl, db->tables[column->table].name, column->name);
}

/* Returns the first typed row of 'table', or NULL. */
const struct ovsdb_idl_typed_row *
ovsdb_idl_typed_first(struct ovsdb_idl *idl,
                      const struct ovsdb_idl_typed_db *db,
                      const struct ovsdb_idl_typed_table *table)
{
    struct binding *b = binding_get(idl, db);
    const struct ovsdb_table_schema *ts = b->tables[table->index];
    const struct ovsdb_idl_row *row = ts ? ovsdb_idl_first_row(idl, ts) : NULL;

    return row ? typed_row_get(b, table, row) : NULL;
}

/* Returns the typed row after 'tr' in its table, or NULL. */
const struct ovsdb_idl_typed_row *
ovsdb_idl_typed_next(const struct ovsdb_idl_typed_row *tr)
{
    struct binding *b = ovsdb_idl_get_binding(tr->idl);
    const struct ovsdb_idl_row *row = ovsdb_idl_next_row(tr->row);

    return row ? typed_row_get(b, tr->table, row) : NULL;
}

/* Returns the typed row of 'table' with UUID 'uuid', or NULL. */
const struct ovsdb_idl_typed_row *
ovsdb_idl_typed_get_for_uuid(struct ovsdb_idl *idl,
                             const struct ovsdb_idl_typed_db *db,
                             const struct ovsdb_idl_typed_table *table,
                             const struct uuid *uuid)
{
    struct binding *b = binding_get(idl, db);
    const struct ovsdb_table_schema *ts = b->tables[table->index];
    const struct ovsdb_idl_row *row
        = ts ? ovsdb_idl_get_row(idl, ts, uuid) : NULL;

    return row ? typed_row_get(b, table, row) : NULL;
}

/* Returns the typed row of generic row 'row', which must be in 'table'. */
const struct ovsdb_idl_typed_row *
ovsdb_idl_typed_from_row(struct ovsdb_idl *idl,
                         const struct ovsdb_idl_typed_db *db,
                         const struct ovsdb_idl_typed_table *table,
                         const struct ovsdb_idl_row *row)
{
    struct binding *b = binding_get(idl, db);

    if (!row || !b->tables[table->index]
        || ovsdb_idl_row_get_table(row) != b->tables[table->index]) {
        return NULL;
    }
    return typed_row_get(b, table, row);
}

/* Inserts a row into 'table' and returns it typed. */
const struct ovsdb_idl_typed_row *
ovsdb_idl_typed_insert(struct ovsdb_idl_txn *txn,
                       const struct ovsdb_idl_typed_db *db,
                       const struct ovsdb_idl_typed_table *table)
{
    struct ovsdb_idl *idl = ovsdb_idl_txn_get_idl(txn);
    struct binding *b = binding_get(idl, db);
    const struct ovsdb_table_schema *ts = b->tables[table->index];

    if (!ts) {
        return NULL;
    }
    return typed_row_get(b, table, ovsdb_idl_txn_insert(txn, ts));
}

/* Deletes 'tr'. */
void
ovsdb_idl_typed_delete(struct ovsdb_idl_txn *txn,
                       const struct ovsdb_idl_typed_row *tr)
{
    ovsdb_idl_txn_delete(txn, tr->row);
}

/* Makes the commit depend on 'column' of 'tr' keeping its value. */
void
ovsdb_idl_typed_verify(struct ovsdb_idl_txn *txn,
                       const struct ovsdb_idl_typed_row *tr,
                       const struct ovsdb_idl_typed_column *column)
{
    struct binding *b = ovsdb_idl_get_binding(tr->idl);
    const struct ovsdb_column *c = b->columns[column->table][column->index];

    if (c) {
        ovsdb_idl_txn_verify(txn, tr->row, c);
    }
}

/* Writes 'n' keys (and values) to 'column' of 'tr'; see the header. */
void
ovsdb_idl_typed_write(struct ovsdb_idl_txn *txn,
                      const struct ovsdb_idl_typed_row *tr_,
                      const struct ovsdb_idl_typed_column *column,
                      const void *keys, const void *values, size_t n)
{
    struct ovsdb_idl_typed_row *tr = (struct ovsdb_idl_typed_row *) tr_;
    struct binding *b = binding_get(tr->idl, NULL);
    const struct ovsdb_column *c = b->columns[column->table][column->index];
    size_t ksize = elem_size(column->key_type, column->key_ref);
    size_t vsize = elem_size(column->value_type, column->value_ref);
    struct ovsdb_datum d;

    if (!c) {
        return;                 /* An older schema: nothing to write to. */
    }
    ovsdb_datum_init_empty(&d);
    for (size_t i = 0; i < n; i++) {
        union ovsdb_atom key, value;

        if (!encode_atom((const char *) keys + i * ksize, column->key_type,
                         column->key_ref, &key)
            || ovsdb_datum_find_key(&d, &key, column->key_type) != UINT_MAX) {
            continue;
        }
        if (column->value_type != OVSDB_TYPE_VOID) {
            if (!encode_atom((const char *) values + i * vsize,
                             column->value_type, column->value_ref, &value)) {
                continue;
            }
            ovsdb_datum_add(&d, &key, &value, &c->type);
        } else {
            ovsdb_datum_add(&d, &key, NULL, &c->type);
        }
    }
    ovsdb_idl_txn_write(txn, tr->row, c, &d);
    free_column(tr, column);
    decode_column(b, tr, column);
}

/* Writes 'smap' to string-to-string map 'column' of 'tr'. */
void
ovsdb_idl_typed_write_smap(struct ovsdb_idl_txn *txn,
                           const struct ovsdb_idl_typed_row *tr,
                           const struct ovsdb_idl_typed_column *column,
                           const struct smap *smap)
{
    size_t n = smap_count(smap);
    const char **keys = xmalloc(MAX(n, 1) * sizeof *keys);
    const char **values = xmalloc(MAX(n, 1) * sizeof *values);
    const struct smap_node *node;
    size_t i = 0;

    SMAP_FOR_EACH (node, smap) {
        keys[i] = node->key;
        values[i] = node->value;
        i++;
    }
    ovsdb_idl_typed_write(txn, tr, column, keys, values, n);
    free(keys);
    free(values);
}

/* True if 'tr' was inserted by an update after seqno 'since'. */
bool
ovsdb_idl_typed_is_new(const struct ovsdb_idl_typed_row *tr,
                       unsigned int since)
{
    return ovsdb_idl_row_get_insert_seqno(tr->row) > since;
}

/* True if 'column' of 'tr' changed in an update after seqno 'since'. */
bool
ovsdb_idl_typed_is_updated(const struct ovsdb_idl_typed_row *tr,
                           const struct ovsdb_idl_typed_column *column,
                           unsigned int since)
{
    struct binding *b = ovsdb_idl_get_binding(tr->idl);
    const struct ovsdb_column *c = b->columns[column->table][column->index];

    return c && ovsdb_idl_row_get_column_seqno(tr->row, c) > since;
}

/* Initialises 'cond' with no clause. */
void
ovsdb_idl_condition_init(struct ovsdb_idl_condition *cond)
{
    cond->clauses = json_array();
}

void
ovsdb_idl_condition_destroy(struct ovsdb_idl_condition *cond)
{
    json_decref(cond->clauses);
    cond->clauses = NULL;
}

/* Appends the clause that every row matches. */
void
ovsdb_idl_condition_add_true(struct ovsdb_idl_condition *cond)
{
    json_array_append_new(cond->clauses, json_true());
}

/* Appends [column, function, value] to 'cond' ('value' taken). */
void
ovsdb_idl_condition_add_clause(struct ovsdb_idl_condition *cond,
                               const struct ovsdb_idl_typed_column *column,
                               enum ovsdb_idl_function function,
                               json_t *value)
{
    static const char *const names[] = {
        [OVSDB_IDL_F_EQ] = "==", [OVSDB_IDL_F_NE] = "!=",
        [OVSDB_IDL_F_LT] = "<", [OVSDB_IDL_F_LE] = "<=",
        [OVSDB_IDL_F_GT] = ">", [OVSDB_IDL_F_GE] = ">=",
        [OVSDB_IDL_F_INCLUDES] = "includes",
        [OVSDB_IDL_F_EXCLUDES] = "excludes",
    };
    json_t *clause = json_array();

    json_array_append_new(clause, json_string(column->name));
    json_array_append_new(clause, json_string(names[function]));
    json_array_append_new(clause, value);
    json_array_append_new(cond->clauses, clause);
}

/* Returns the JSON of the C element at 'elem' (of 'column''s key type); a
 * NULL string or reference gives JSON null, which matches nothing. */
json_t *
ovsdb_idl_typed_atom_to_json(const struct ovsdb_idl_typed_column *column,
                             const void *elem)
{
    union ovsdb_atom atom;

    if (!encode_atom(elem, column->key_type, column->key_ref, &atom)) {
        return json_null();
    }
    return ovsdb_atom_to_json(&atom, column->key_type);
}

/* Makes a copy of 'cond' the monitor condition of 'table'. */
void
ovsdb_idl_typed_set_condition(struct ovsdb_idl *idl,
                              const struct ovsdb_idl_typed_table *table,
                              const struct ovsdb_idl_condition *cond)
{
    ovsdb_idl_set_condition(idl, table->name, json_deep_copy(cond->clauses));
}

/* ------------------------------------------------------------------------
 * The cache of typed rows.
 * ------------------------------------------------------------------------ */

static void
typed_row_free(struct ovsdb_idl_typed_row *tr)
{
    for (size_t i = 0; i < tr->table->n_columns; i++) {
        free_column(tr, &tr->table->columns[i]);
    }
    free(tr);
}

static void
binding_flush(struct binding *b)
{
    struct ovsdb_idl_typed_row *tr;

    OHMAP_FOR_EACH_SAFE (tr, node, &b->rows) {
        ohmap_remove(&b->rows, &tr->node);
        typed_row_free(tr);
    }
}

static void
binding_free_columns(struct binding *b)
{
    for (size_t i = 0; b->columns && i < b->db->n_tables; i++) {
        free(b->columns[i]);
    }
    free(b->columns);
    free(b->tables);
    b->columns = NULL;
    b->tables = NULL;
}

static void
binding_destroy(void *b_)
{
    struct binding *b = b_;

    binding_flush(b);
    ohmap_destroy(&b->rows);
    binding_free_columns(b);
    free(b);
}

/* Finds the server's tables and columns for the typed ones. */
static void
binding_resolve(struct binding *b)
{
    binding_free_columns(b);
    b->tables = xcalloc(b->db->n_tables, sizeof *b->tables);
    b->columns = xcalloc(b->db->n_tables, sizeof *b->columns);
    for (size_t i = 0; i < b->db->n_tables; i++) {
        const struct ovsdb_idl_typed_table *t = &b->db->tables[i];
        const struct ovsdb_table_schema *ts
            = ovsdb_idl_get_table(b->idl, t->name);

        b->tables[i] = ts;
        b->columns[i] = xcalloc(MAX(t->n_columns, 1), sizeof *b->columns[i]);
        for (size_t j = 0; ts && j < t->n_columns; j++) {
            const struct ovsdb_idl_typed_column *tc = &t->columns[j];
            const struct ovsdb_column *c
                = ovsdb_table_schema_find_column(ts, tc->name);

            if (c && c->type.key.type == tc->key_type
                && c->type.value.type == tc->value_type) {
                b->columns[i][j] = c;
            }
        }
    }
}

/* Returns the binding of 'idl', creating it with 'db' if needed, with its
 * cache dropped if the IDL's rows may have changed. */
static struct binding *
binding_get(struct ovsdb_idl *idl, const struct ovsdb_idl_typed_db *db)
{
    struct binding *b = ovsdb_idl_get_binding(idl);
    unsigned int generation = ovsdb_idl_get_row_generation(idl);

    if (!b) {
        util_assert(db);
        b = xzalloc(sizeof *b);
        b->idl = idl;
        b->db = db;
        ohmap_init(&b->rows);
        b->generation = generation;
        binding_resolve(b);
        ovsdb_idl_set_binding(idl, b, binding_destroy);
        return b;
    }
    util_assert(!db || b->db == db);
    if (b->generation != generation) {
        b->generation = generation;
        binding_flush(b);
        binding_resolve(b);
    }
    return b;
}

/* Returns the typed row of 'row' (of 'table'), decoding it if needed. */
static const struct ovsdb_idl_typed_row *
typed_row_get(struct binding *b, const struct ovsdb_idl_typed_table *table,
              const struct ovsdb_idl_row *row)
{
    uint32_t hash = uuid_hash(ovsdb_idl_row_get_uuid(row));
    struct ovsdb_idl_typed_row *tr;

    OHMAP_FOR_EACH_WITH_HASH (tr, node, hash, &b->rows) {
        if (tr->row == row) {
            return tr;
        }
    }
    tr = xzalloc(table->row_size);
    tr->idl = b->idl;
    tr->row = row;
    tr->table = table;
    /* In the cache before decoding, so that a reference cycle ends. */
    ohmap_insert(&b->rows, &tr->node, hash);
    for (size_t i = 0; i < table->n_columns; i++) {
        decode_column(b, tr, &table->columns[i]);
    }
    return tr;
}

/* ------------------------------------------------------------------------
 * Encoding and decoding.
 * ------------------------------------------------------------------------ */

static size_t
elem_size(enum ovsdb_atomic_type type, int ref)
{
    switch (type) {
    case OVSDB_TYPE_INTEGER:
        return sizeof(int64_t);
    case OVSDB_TYPE_REAL:
        return sizeof(double);
    case OVSDB_TYPE_BOOLEAN:
        return sizeof(bool);
    case OVSDB_TYPE_STRING:
        return sizeof(const char *);
    case OVSDB_TYPE_UUID:
        return ref >= 0 ? sizeof(void *) : sizeof(struct uuid);
    case OVSDB_TYPE_VOID:
    case OVSDB_N_TYPES:
    default:
        return 0;
    }
}

/* Makes '*atom' from the C element at 'src'; false to leave it out (a
 * NULL string or reference). */
static bool
encode_atom(const void *src, enum ovsdb_atomic_type type, int ref,
            union ovsdb_atom *atom)
{
    switch (type) {
    case OVSDB_TYPE_INTEGER:
        memcpy(&atom->integer, src, sizeof atom->integer);
        return true;
    case OVSDB_TYPE_REAL:
        memcpy(&atom->real, src, sizeof atom->real);
        return true;
    case OVSDB_TYPE_BOOLEAN:
        memcpy(&atom->boolean, src, sizeof atom->boolean);
        return true;
    case OVSDB_TYPE_STRING: {
        const char *s;
        memcpy(&s, src, sizeof s);
        atom->string = (char *) s;
        return s != NULL;
    }
    case OVSDB_TYPE_UUID:
        if (ref >= 0) {
            const struct ovsdb_idl_typed_row *tr;
            memcpy(&tr, src, sizeof tr);
            if (!tr) {
                return false;
            }
            atom->uuid = *ovsdb_idl_row_get_uuid(tr->row);
        } else {
            memcpy(&atom->uuid, src, sizeof atom->uuid);
        }
        return true;
    case OVSDB_TYPE_VOID:
    case OVSDB_N_TYPES:
    default:
        return false;
    }
}


/* Stores the C element for 'atom' at 'dst'; false to leave it out (a
 * reference to a row that is not there). */
static bool
decode_atom(struct binding *b, const union ovsdb_atom *atom,
            enum ovsdb_atomic_type type, int ref, void *dst)
{
    switch (type) {
    case OVSDB_TYPE_INTEGER:
        memcpy(dst, &atom->integer, sizeof atom->integer);
        return true;
    case OVSDB_TYPE_REAL:
        memcpy(dst, &atom->real, sizeof atom->real);
        return true;
    case OVSDB_TYPE_BOOLEAN:
        memcpy(dst, &atom->boolean, sizeof atom->boolean);
        return true;
    case OVSDB_TYPE_STRING: {
        const char *s = atom->string;
        memcpy(dst, &s, sizeof s);
        return true;
    }
    case OVSDB_TYPE_UUID:
        if (ref >= 0) {
            const struct ovsdb_idl_typed_table *t = &b->db->tables[ref];
            const struct ovsdb_table_schema *ts = b->tables[ref];
            const struct ovsdb_idl_row *row
                = ts ? ovsdb_idl_get_row(b->idl, ts, &atom->uuid) : NULL;
            const struct ovsdb_idl_typed_row *tr
                = row ? typed_row_get(b, t, row) : NULL;

            memcpy(dst, &tr, sizeof tr);
            return tr != NULL;
        }
        memcpy(dst, &atom->uuid, sizeof atom->uuid);
        return true;
    case OVSDB_TYPE_VOID:
    case OVSDB_N_TYPES:
    default:
        return false;
    }
}

/* Stores the default C value of a required column at 'dst'. */
static void
default_scalar(enum ovsdb_atomic_type type, int ref, void *dst)
{
    memset(dst, 0, elem_size(type, ref));
    if (type == OVSDB_TYPE_STRING) {
        const char *empty = "";
        memcpy(dst, &empty, sizeof empty);
    }
}

static void
decode_column(struct binding *b, struct ovsdb_idl_typed_row *tr,
              const struct ovsdb_idl_typed_column *col)
{
    const struct ovsdb_column *c = b->columns[col->table][col->index];
    const struct ovsdb_datum *d = c ? ovsdb_idl_row_get(tr->row, c) : NULL;
    unsigned int n = d ? d->n : 0;
    char *base = (char *) tr;
    size_t ksize = elem_size(col->key_type, col->key_ref);
    size_t vsize = elem_size(col->value_type, col->value_ref);

    switch (col->layout) {
    case OVSDB_IDL_TYPED_SCALAR:
        if (!n || !decode_atom(b, &d->keys[0], col->key_type, col->key_ref,
                               base + col->offset)) {
            default_scalar(col->key_type, col->key_ref, base + col->offset);
        }
        break;

    case OVSDB_IDL_TYPED_OPTIONAL:
        memset(base + col->offset, 0, ksize);
        if (n) {
            decode_atom(b, &d->keys[0], col->key_type, col->key_ref,
                        base + col->offset);
        }
        break;

    case OVSDB_IDL_TYPED_ARRAY: {
        char *keys = xmalloc(MAX(n, 1) * ksize);
        size_t k = 0;

        for (unsigned int i = 0; i < n; i++) {
            if (decode_atom(b, &d->keys[i], col->key_type, col->key_ref,
                            keys + k * ksize)) {
                k++;
            }
        }
        memcpy(base + col->offset, &keys, sizeof keys);
        memcpy(base + col->n_offset, &k, sizeof k);
        break;
    }

    case OVSDB_IDL_TYPED_SMAP: {
        struct smap *smap = (struct smap *) (base + col->offset);

        smap_init(smap);
        for (unsigned int i = 0; d && d->values && i < n; i++) {
            smap_add(smap, d->keys[i].string, d->values[i].string);
        }
        break;
    }

    case OVSDB_IDL_TYPED_MAP: {
        char *keys = xmalloc(MAX(n, 1) * ksize);
        char *values = xmalloc(MAX(n, 1) * vsize);
        size_t k = 0;

        for (unsigned int i = 0; d && d->values && i < n; i++) {
            if (decode_atom(b, &d->keys[i], col->key_type, col->key_ref,
                            keys + k * ksize)
                && decode_atom(b, &d->values[i], col->value_type,
                               col->value_ref, values + k * vsize)) {
                k++;
            }
        }
        memcpy(base + col->offset, &keys, sizeof keys);
        memcpy(base + col->value_offset, &values, sizeof values);
        memcpy(base + col->n_offset, &k, sizeof k);
        break;
    }
    }
}

/* Frees what decode_column() allocated for 'col' of 'tr'. */
static void
free_column(struct ovsdb_idl_typed_row *tr,
            const struct ovsdb_idl_typed_column *col)
{
    char *base = (char *) tr;
    void *p;

    switch (col->layout) {
    case OVSDB_IDL_TYPED_SCALAR:
    case OVSDB_IDL_TYPED_OPTIONAL:
        break;
    case OVSDB_IDL_TYPED_ARRAY:
        memcpy(&p, base + col->offset, sizeof p);
        free(p);
        break;
    case OVSDB_IDL_TYPED_SMAP:
        smap_destroy((struct smap *) (base + col->offset));
        break;
    case OVSDB_IDL_TYPED_MAP:
        memcpy(&p, base + col->offset, sizeof p);
        free(p);
        memcpy(&p, base + col->value_offset, sizeof p);
        free(p);
        break;
    }
}
