/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "monitor.h"

#include <stdlib.h>
#include <string.h>
#include "condition.h"
#include "ovsdb-error.h"
#include "ovsdb-parser.h"
#include "ovsdb.h"
#include "transaction.h"
#include "util.h"

/* What a monitor watches in one table. */
struct monitor_table {
    struct ovsdb_table *table;
    const struct ovsdb_column **columns;
    size_t n_columns;
    bool initial, insert, delete, modify;
    bool has_condition;         /* False: every row. */
    struct ovsdb_condition condition;
};

struct ovsdb_monitor {
    struct ovsdb *db;
    json_t *id;
    enum ovsdb_monitor_version version;
    struct monitor_table *tables;
    size_t n_tables;
};

static struct ovsdb_error *parse_table_requests(struct ovsdb_monitor *,
                                                struct monitor_table *,
                                                const json_t *);
static bool row_selected(const struct monitor_table *,
                         const struct ovsdb_row *);
static json_t *row_json(const struct monitor_table *,
                        const struct ovsdb_row *, bool skip_defaults);
static json_t *modify_json(const struct monitor_table *,
                           const struct ovsdb_row *old,
                           const struct ovsdb_row *new, json_t **v1_oldp);
static void add_update(json_t *updates, const struct monitor_table *,
                       const struct ovsdb_row *row, json_t *update);
static void add_row_change(const struct ovsdb_monitor *,
                           const struct ovsdb_table *,
                           const struct ovsdb_row *old,
                           const struct ovsdb_row *new, json_t **updatesp);

/* Creates in '*monitorp' a monitor of 'db' called 'id' for 'requests' (the
 * <monitor-requests> or <monitor-cond-requests> object). */
struct ovsdb_error *
ovsdb_monitor_create(struct ovsdb *db, const json_t *id,
                     const json_t *requests,
                     enum ovsdb_monitor_version version,
                     struct ovsdb_monitor **monitorp)
{
    struct ovsdb_monitor *m;
    const char *name;
    json_t *value;

    *monitorp = NULL;
    if (!json_is_object(requests)) {
        return ovsdb_syntax_error(requests, NULL,
                                  "monitor-requests must be object");
    }
    m = xzalloc(sizeof *m);
    m->db = db;
    m->id = json_deep_copy(id);
    m->version = version;
    m->tables = xcalloc(json_object_size(requests) + 1, sizeof *m->tables);
    json_object_foreach ((json_t *) requests, name, value) {
        struct monitor_table *mt = &m->tables[m->n_tables];
        struct ovsdb_error *error;

        mt->table = ovsdb_get_table(db, name);
        if (!mt->table) {
            ovsdb_monitor_destroy(m);
            return ovsdb_syntax_error(requests, NULL, "no table named %s",
                                      name);
        }
        m->n_tables++;
        error = parse_table_requests(m, mt, value);
        if (error) {
            ovsdb_monitor_destroy(m);
            return error;
        }
    }
    *monitorp = m;
    return NULL;
}

/* Frees 'm' (which may be NULL). */
void
ovsdb_monitor_destroy(struct ovsdb_monitor *m)
{
    size_t i;

    if (!m) {
        return;
    }
    for (i = 0; i < m->n_tables; i++) {
        free(m->tables[i].columns);
        if (m->tables[i].has_condition) {
            ovsdb_condition_destroy(&m->tables[i].condition);
        }
    }
    free(m->tables);
    json_decref(m->id);
    free(m);
}

/* Returns the client's name for 'm'. */
const json_t *
ovsdb_monitor_get_id(const struct ovsdb_monitor *m)
{
    return m->id;
}

/* Returns the database that 'm' watches. */
struct ovsdb *
ovsdb_monitor_get_db(const struct ovsdb_monitor *m)
{
    return m->db;
}

/* Returns the protocol version of 'm'. */
enum ovsdb_monitor_version
ovsdb_monitor_get_version(const struct ovsdb_monitor *m)
{
    return m->version;
}

/* Renames 'm' to 'id'. */
void
ovsdb_monitor_set_id(struct ovsdb_monitor *m, const json_t *id)
{
    json_decref(m->id);
    m->id = json_deep_copy(id);
}

/* Returns a hash of what decides the updates of 'm' (everything that
 * ovsdb_monitor_same_updates() compares except the conditions' values), so
 * that monitors whose hashes differ need not be compared. */
uint32_t
ovsdb_monitor_hash(const struct ovsdb_monitor *m)
{
    uint32_t hash = ovsdb_hash_bytes(&m->db, sizeof m->db, m->version);
    size_t i, j;

    for (i = 0; i < m->n_tables; i++) {
        const struct monitor_table *mt = &m->tables[i];
        uint32_t flags = (mt->initial | mt->insert << 1 | mt->delete << 2
                          | mt->modify << 3 | mt->has_condition << 4);

        hash = ovsdb_hash_bytes(&mt->table, sizeof mt->table, hash);
        hash = ovsdb_hash_bytes(&flags, sizeof flags, hash);
        hash = ovsdb_hash_bytes(mt->columns,
                                mt->n_columns * sizeof *mt->columns, hash);
        if (mt->has_condition) {
            for (j = 0; j < mt->condition.n_clauses; j++) {
                const struct ovsdb_clause *c = &mt->condition.clauses[j];

                hash = ovsdb_hash_bytes(&c->function, sizeof c->function,
                                        hash);
                hash = ovsdb_hash_bytes(&c->column, sizeof c->column, hash);
            }
        }
    }
    return hash;
}

/* Returns true if 'a' and 'b' send the same updates, byte for byte, for
 * every transaction: the same database, protocol version, tables in the
 * same order, columns in the same order, "select" flags and conditions.
 * Their ids may differ.  ovsdb-server uses this to compute and serialize
 * one update for many clients. */
bool
ovsdb_monitor_same_updates(const struct ovsdb_monitor *a,
                           const struct ovsdb_monitor *b)
{
    size_t i, j;

    if (a->db != b->db || a->version != b->version
        || a->n_tables != b->n_tables) {
        return false;
    }
    for (i = 0; i < a->n_tables; i++) {
        const struct monitor_table *x = &a->tables[i];
        const struct monitor_table *y = &b->tables[i];

        if (x->table != y->table || x->n_columns != y->n_columns
            || x->initial != y->initial || x->insert != y->insert
            || x->delete != y->delete || x->modify != y->modify
            || x->has_condition != y->has_condition
            || memcmp(x->columns, y->columns,
                      x->n_columns * sizeof *x->columns)) {
            return false;
        }
        if (!x->has_condition) {
            continue;
        }
        if (x->condition.n_clauses != y->condition.n_clauses) {
            return false;
        }
        for (j = 0; j < x->condition.n_clauses; j++) {
            const struct ovsdb_clause *p = &x->condition.clauses[j];
            const struct ovsdb_clause *q = &y->condition.clauses[j];

            if (p->function != q->function || p->column != q->column
                || (p->column && !ovsdb_datum_equals(&p->arg, &q->arg,
                                                     &p->column->type))) {
                return false;
            }
        }
    }
    return true;
}

/* Returns the reply to the request that created 'm': the rows it selects
 * now, for the tables that asked for "initial". */
json_t *
ovsdb_monitor_get_initial(const struct ovsdb_monitor *m)
{
    json_t *updates = json_object();
    size_t i;

    for (i = 0; i < m->n_tables; i++) {
        const struct monitor_table *mt = &m->tables[i];
        struct ovsdb_row *row;

        if (!mt->initial) {
            continue;
        }
        OHMAP_FOR_EACH (row, node, &mt->table->rows) {
            json_t *update;

            if (!row_selected(mt, row)) {
                continue;
            }
            update = json_object();
            if (m->version == OVSDB_MONITOR_V1) {
                json_object_set_new(update, "new", row_json(mt, row, false));
            } else {
                json_object_set_new(update, "initial",
                                    row_json(mt, row, true));
            }
            add_update(updates, mt, row, update);
        }
    }
    return updates;
}

/* Returns the updates that 'txn' (being committed) means for 'm', or NULL
 * if it means none. */
json_t *
ovsdb_monitor_get_changes(const struct ovsdb_monitor *m,
                          const struct ovsdb_txn *txn)
{
    const struct ovsdb_txn_row *txr;
    json_t *updates = NULL;

    if (ovsdb_txn_get_db(txn) != m->db) {
        return NULL;
    }
    for (txr = ovsdb_txn_first_row(txn); txr; txr = txr->next) {
        if (ovsdb_txn_row_changed(txr, NULL)) {
            add_row_change(m, txr->table, txr->old, txr->new, &updates);
        }
    }
    return updates;
}

/* Returns the updates that the transactions 'entries' (of the history of
 * the database of 'm', oldest first) mean together for 'm', as the
 * "monitor_cond_since" reply gives them when it found the client's last
 * transaction: each row as it was before the first of them and as it is
 * after the last ({} if nothing changed). */
json_t *
ovsdb_monitor_get_changes_since(
    const struct ovsdb_monitor *m,
    struct ovsdb_txn_history_entry *const *entries, size_t n_entries)
{
    struct merged_row {
        struct ohmap_node node;
        const struct ovsdb_txn_history_row *first, *last;
    };
    struct merged_row *mr, **order = NULL;
    json_t *updates = NULL;
    size_t n_order = 0;
    struct ohmap rows;

    ohmap_init(&rows);
    for (size_t i = 0; i < n_entries; i++) {
        for (size_t j = 0; j < entries[i]->n_rows; j++) {
            const struct ovsdb_txn_history_row *hr = &entries[i]->rows[j];
            const struct ovsdb_row *row = hr->new ? hr->new : hr->old;
            const struct uuid *uuid = ovsdb_row_get_uuid(row);
            uint32_t hash = uuid_hash(uuid);
            bool found = false;

            OHMAP_FOR_EACH_WITH_HASH (mr, node, hash, &rows) {
                const struct ovsdb_row *r = (mr->first->old
                                             ? mr->first->old
                                             : mr->first->new);
                if (mr->first->table == hr->table
                    && uuid_equals(ovsdb_row_get_uuid(r), uuid)) {
                    mr->last = hr;
                    found = true;
                    break;
                }
            }
            if (!found) {
                mr = xmalloc(sizeof *mr);
                mr->first = mr->last = hr;
                ohmap_insert(&rows, &mr->node, hash);
                order = xrealloc(order, (n_order + 1) * sizeof *order);
                order[n_order++] = mr;
            }
        }
    }
    for (size_t i = 0; i < n_order; i++) {
        mr = order[i];
        if (mr->first->old || mr->last->new) {
            add_row_change(m, mr->first->table, mr->first->old,
                           mr->last->new, &updates);
        }
        free(mr);
    }
    free(order);
    ohmap_destroy(&rows);
    return updates ? updates : json_object();
}

/* Replaces the conditions of 'm' by those in 'requests' ({table:
 * [{"where": ...}]}) and stores in '*updatesp' the updates that bring the
 * client's view from the old selection to the new one (NULL if none). */
struct ovsdb_error *
ovsdb_monitor_change_conditions(struct ovsdb_monitor *m,
                                const json_t *requests, json_t **updatesp)
{
    const char *name;
    json_t *value;

    *updatesp = NULL;
    if (!json_is_object(requests)) {
        return ovsdb_syntax_error(requests, NULL,
                                  "monitor-cond-change-requests must be "
                                  "object");
    }
    json_object_foreach ((json_t *) requests, name, value) {
        struct ovsdb_condition cond;
        struct monitor_table *mt = NULL;
        struct ovsdb_error *error;
        const json_t *where;
        struct ovsdb_row *row;
        size_t i;

        for (i = 0; i < m->n_tables; i++) {
            if (!strcmp(m->tables[i].table->schema->name, name)) {
                mt = &m->tables[i];
            }
        }
        if (!mt) {
            return ovsdb_syntax_error(requests, NULL, "no table named %s "
                                      "in this monitor", name);
        }
        if (json_is_array(value) && json_array_size(value)) {
            value = json_array_get(value, 0);
        }
        where = json_is_object(value) ? json_object_get(value, "where")
                                      : NULL;
        if (!where) {
            continue;
        }
        error = ovsdb_condition_from_json(mt->table->schema, where, NULL,
                                          &cond);
        if (error) {
            return error;
        }

        OHMAP_FOR_EACH (row, node, &mt->table->rows) {
            bool in_old = row_selected(mt, row);
            bool in_new = ovsdb_condition_evaluate_any(&cond, row);
            json_t *update;

            if (in_old == in_new) {
                continue;
            }
            update = json_object();
            if (in_new) {
                json_object_set_new(update, "insert",
                                    row_json(mt, row, true));
            } else {
                json_object_set_new(update, "delete", json_null());
            }
            if (!*updatesp) {
                *updatesp = json_object();
            }
            add_update(*updatesp, mt, row, update);
        }
        if (mt->has_condition) {
            ovsdb_condition_destroy(&mt->condition);
        }
        mt->condition = cond;
        mt->has_condition = true;
    }
    return NULL;
}

static struct ovsdb_error *
parse_one_request(struct ovsdb_monitor *m, struct monitor_table *mt,
                  const json_t *request, bool first)
{
    const struct ovsdb_table_schema *ts = mt->table->schema;
    const json_t *columns, *select, *where;
    struct ovsdb_parser parser;
    struct ovsdb_error *error;
    size_t i;

    ovsdb_parser_init(&parser, request, "table %s", ts->name);
    columns = ovsdb_parser_member(&parser, "columns",
                                  OP_ARRAY | OP_OPTIONAL);
    select = ovsdb_parser_member(&parser, "select", OP_OBJECT | OP_OPTIONAL);
    where = (m->version == OVSDB_MONITOR_V1 ? NULL
             : ovsdb_parser_member(&parser, "where",
                                   OP_ARRAY | OP_OPTIONAL));
    error = ovsdb_parser_finish(&parser);
    if (error) {
        return error;
    }

    if (select) {
        static const char *const names[] = { "initial", "insert", "delete",
                                             "modify" };
        bool *flags[] = { &mt->initial, &mt->insert, &mt->delete,
                          &mt->modify };

        for (i = 0; i < ARRAY_SIZE(names); i++) {
            const json_t *b = json_object_get(select, names[i]);

            if (!b || json_is_true(b)) {
                *flags[i] = true;
            } else if (!json_is_false(b)) {
                return ovsdb_syntax_error(select, NULL, "\"%s\" must be a "
                                          "boolean", names[i]);
            }
        }
    } else {
        mt->initial = mt->insert = mt->delete = mt->modify = true;
    }

    if (columns) {
        for (i = 0; i < json_array_size(columns); i++) {
            const json_t *name = json_array_get(columns, i);
            const struct ovsdb_column *column;
            size_t j;

            column = (json_is_string(name)
                      ? ovsdb_table_schema_find_column(
                          ts, json_string_value(name))
                      : NULL);
            if (!column) {
                return ovsdb_syntax_error(columns, NULL, "%s is not a "
                                          "valid column name",
                                          json_is_string(name)
                                          ? json_string_value(name) : "?");
            }
            for (j = 0; j < mt->n_columns; j++) {
                if (mt->columns[j] == column) {
                    break;
                }
            }
            if (j == mt->n_columns) {
                mt->columns = xrealloc(mt->columns, (mt->n_columns + 1)
                                       * sizeof *mt->columns);
                mt->columns[mt->n_columns++] = column;
            }
        }
    } else {
        for (i = OVSDB_N_HIDDEN_COLUMNS; i < ts->n_columns; i++) {
            size_t j;

            for (j = 0; j < mt->n_columns; j++) {
                if (mt->columns[j] == ts->columns[i]) {
                    break;
                }
            }
            if (j == mt->n_columns) {
                mt->columns = xrealloc(mt->columns, (mt->n_columns + 1)
                                       * sizeof *mt->columns);
                mt->columns[mt->n_columns++] = ts->columns[i];
            }
        }
    }

    if (where && first) {
        error = ovsdb_condition_from_json(ts, where, NULL, &mt->condition);
        if (error) {
            return error;
        }
        mt->has_condition = true;
    }
    return NULL;
}

static struct ovsdb_error *
parse_table_requests(struct ovsdb_monitor *m, struct monitor_table *mt,
                     const json_t *value)
{
    if (json_is_array(value)) {
        size_t i;

        for (i = 0; i < json_array_size(value); i++) {
            struct ovsdb_error *error;

            error = parse_one_request(m, mt, json_array_get(value, i),
                                      i == 0);
            if (error) {
                return error;
            }
        }
        return NULL;
    }
    return parse_one_request(m, mt, value, true);
}

static bool
row_selected(const struct monitor_table *mt, const struct ovsdb_row *row)
{
    return (!mt->has_condition
            || ovsdb_condition_evaluate_any(&mt->condition, row));
}

static json_t *
row_json(const struct monitor_table *mt, const struct ovsdb_row *row,
         bool skip_defaults)
{
    json_t *json = json_object();
    size_t i;

    for (i = 0; i < mt->n_columns; i++) {
        const struct ovsdb_column *column = mt->columns[i];
        const struct ovsdb_datum *datum = &row->fields[column->index];

        if (skip_defaults && ovsdb_datum_is_default(datum, &column->type)) {
            continue;
        }
        json_object_set_new(json, column->name,
                            ovsdb_datum_to_json(datum, &column->type));
    }
    return json;
}

/* Returns the "modify" object for a row that changed from 'old' to 'new',
 * or NULL if no monitored column changed.  With 'v1_oldp', also stores
 * there the old values of the changed columns. */
static json_t *
modify_json(const struct monitor_table *mt, const struct ovsdb_row *old,
            const struct ovsdb_row *new, json_t **v1_oldp)
{
    json_t *json = NULL;
    size_t i;

    for (i = 0; i < mt->n_columns; i++) {
        const struct ovsdb_column *column = mt->columns[i];
        const struct ovsdb_type *type = &column->type;
        const struct ovsdb_datum *a = &old->fields[column->index];
        const struct ovsdb_datum *b = &new->fields[column->index];

        if (ovsdb_datum_equals(a, b, type)) {
            continue;
        }
        if (!json) {
            json = json_object();
            if (v1_oldp) {
                *v1_oldp = json_object();
            }
        }
        if (v1_oldp) {
            json_object_set_new(*v1_oldp, column->name,
                                ovsdb_datum_to_json(a, type));
        }
        if (type->n_max > 1) {
            struct ovsdb_datum diff;

            ovsdb_datum_diff(&diff, a, b, type);
            json_object_set_new(json, column->name,
                                ovsdb_datum_to_json(&diff, type));
            ovsdb_datum_destroy(&diff, type);
        } else {
            json_object_set_new(json, column->name,
                                ovsdb_datum_to_json(b, type));
        }
    }
    return json;
}

static void
add_update(json_t *updates, const struct monitor_table *mt,
           const struct ovsdb_row *row, json_t *update)
{
    const char *name = mt->table->schema->name;
    json_t *table = json_object_get(updates, name);
    char uuid[UUID_LEN + 1];

    if (!table) {
        table = json_object();
        json_object_set_new(updates, name, table);
    }
    uuid_to_string(ovsdb_row_get_uuid(row), uuid);
    json_object_set_new(table, uuid, update);
}

/* Adds to '*updatesp' (created if NULL) what the change of a row of 'table'
 * from 'old' to 'new' (either NULL for an insertion or a deletion) means
 * for 'm', if anything. */
static void
add_row_change(const struct ovsdb_monitor *m, const struct ovsdb_table *table,
               const struct ovsdb_row *old, const struct ovsdb_row *new,
               json_t **updatesp)
{
    const struct monitor_table *mt = NULL;
    bool in_old, in_new;
    json_t *update = NULL;
    size_t i;

    for (i = 0; i < m->n_tables; i++) {
        if (m->tables[i].table == table) {
            mt = &m->tables[i];
            break;
        }
    }
    if (!mt) {
        return;
    }
    in_old = old && row_selected(mt, old);
    in_new = new && row_selected(mt, new);

    if (!in_old && in_new) {
        if (mt->insert) {
            update = json_object();
            if (m->version == OVSDB_MONITOR_V1) {
                json_object_set_new(update, "new", row_json(mt, new, false));
            } else {
                json_object_set_new(update, "insert",
                                    row_json(mt, new, true));
            }
        }
    } else if (in_old && !in_new) {
        if (mt->delete) {
            update = json_object();
            if (m->version == OVSDB_MONITOR_V1) {
                json_object_set_new(update, "old", row_json(mt, old, false));
            } else {
                json_object_set_new(update, "delete", json_null());
            }
        }
    } else if (in_old && in_new && mt->modify) {
        json_t *v1_old = NULL;
        json_t *diff = modify_json(mt, old, new,
                                   m->version == OVSDB_MONITOR_V1
                                   ? &v1_old : NULL);
        if (diff) {
            update = json_object();
            if (m->version == OVSDB_MONITOR_V1) {
                json_object_set_new(update, "old", v1_old);
                json_object_set_new(update, "new", row_json(mt, new, false));
                json_decref(diff);
            } else {
                json_object_set_new(update, "modify", diff);
            }
        }
    }
    if (update) {
        if (!*updatesp) {
            *updatesp = json_object();
        }
        add_update(*updatesp, mt, new ? new : old, update);
    }
}
