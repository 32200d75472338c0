/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "schema.h"

#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "ovsdb-data.h"
#include "ovsdb-error.h"
#include "ovsdb-json.h"
#include "ovsdb-parser.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ovsdb);

static struct ovsdb_error *table_from_json(const char *name,
                                           const json_t *,
                                           struct ovsdb_table_schema **);
static struct ovsdb_error *column_from_json(const char *name,
                                            const json_t *,
                                            struct ovsdb_column **);
static struct ovsdb_error *parse_indexes(struct ovsdb_table_schema *,
                                         const json_t *);
static struct ovsdb_error *resolve_refs(struct ovsdb_schema *);
static struct ovsdb_column *column_create(const char *name, bool mutable_,
                                          bool persistent,
                                          const struct ovsdb_type *);
static void column_destroy(struct ovsdb_column *);
static void table_destroy(struct ovsdb_table_schema *);
static json_t *table_to_json(const struct ovsdb_table_schema *,
                             bool default_is_root);
static bool is_valid_version(const char *);
static unsigned int *compute_ovs_order(struct ovsdb_column **text_order,
                                       size_t n_columns);
static unsigned int *compute_ovs_table_order(
    struct ovsdb_table_schema **text_order, size_t n_tables);
static int compare_column_names(const void *, const void *);
static int compare_table_names(const void *, const void *);

/* Parses the JSON database schema 'json' into a new '*schemap'. */
struct ovsdb_error *
ovsdb_schema_from_json(const json_t *json, struct ovsdb_schema **schemap)
{
    const json_t *name, *version, *cksum, *tables, *table_json;
    struct ovsdb_schema *schema;
    struct ovsdb_parser parser;
    struct ovsdb_error *error;
    struct ovsdb_table_schema **text_order;
    bool any_root = false;
    const char *table_name;
    size_t i;

    *schemap = NULL;
    ovsdb_parser_init(&parser, json, "database schema");
    name = ovsdb_parser_member(&parser, "name", OP_ID);
    version = ovsdb_parser_member(&parser, "version",
                                  OP_STRING | OP_OPTIONAL);
    cksum = ovsdb_parser_member(&parser, "cksum", OP_STRING | OP_OPTIONAL);
    tables = ovsdb_parser_member(&parser, "tables", OP_OBJECT);
    error = ovsdb_parser_finish(&parser);
    if (error) {
        return error;
    }
    if (version && !is_valid_version(json_string_value(version))) {
        return ovsdb_syntax_error(json, NULL, "schema version \"%s\" not in "
                                  "format x.y.z", json_string_value(version));
    }

    schema = xzalloc(sizeof *schema);
    schema->name = xstrdup(json_string_value(name));
    schema->version = xstrdup(version ? json_string_value(version) : "");
    schema->cksum = xstrdup(cksum ? json_string_value(cksum) : "");
    schema->tables = xcalloc(json_object_size(tables) + 1,
                             sizeof *schema->tables);

    json_object_foreach ((json_t *) tables, table_name, table_json) {
        struct ovsdb_table_schema *table = NULL;

        if (table_name[0] == '_') {
            error = ovsdb_syntax_error(json, NULL, "names beginning with "
                                       "\"_\" are reserved");
        } else if (!ovsdb_parser_is_id(table_name)) {
            error = ovsdb_syntax_error(json, NULL, "name must be a valid id");
        } else {
            error = table_from_json(table_name, table_json, &table);
        }
        if (error) {
            ovsdb_schema_destroy(schema);
            return error;
        }
        schema->tables[schema->n_tables++] = table;
    }
    text_order = xmemdup(schema->tables,
                         (schema->n_tables + 1) * sizeof *schema->tables);
    qsort(schema->tables, schema->n_tables, sizeof *schema->tables,
          compare_table_names);
    for (i = 0; i < schema->n_tables; i++) {
        schema->tables[i]->index = i;
        any_root |= schema->tables[i]->is_root;
    }
    schema->ovs_order = compute_ovs_table_order(text_order,
                                                schema->n_tables);
    free(text_order);
    /* A schema that marks no table as a root (written before "isRoot"
     * existed) keeps every row, as if every table were one. */
    if (!any_root) {
        for (i = 0; i < schema->n_tables; i++) {
            schema->tables[i]->is_root = true;
        }
    }

    error = resolve_refs(schema);
    if (error) {
        ovsdb_schema_destroy(schema);
        return error;
    }
    *schemap = schema;
    return NULL;
}

/* Reads and parses the schema in 'file_name'. */
struct ovsdb_error *
ovsdb_schema_from_file(const char *file_name, struct ovsdb_schema **schemap)
{
    struct ovsdb_error *error;
    json_t *json;

    *schemap = NULL;
    error = ovsdb_json_from_file(file_name, &json);
    if (error) {
        return error;
    }
    error = ovsdb_schema_from_json(json, schemap);
    json_decref(json);
    if (error) {
        return ovsdb_wrap_error(error, "failed to parse \"%s\" as ovsdb "
                                "schema", file_name);
    }
    return NULL;
}

/* Returns the JSON form of 'schema'. */
json_t *
ovsdb_schema_to_json(const struct ovsdb_schema *schema)
{
    json_t *json = json_object(), *tables = json_object();
    bool default_is_root = true;
    const char **names;
    size_t *order, i;

    json_object_set_new(json, "name", json_string(schema->name));
    if (schema->version[0]) {
        json_object_set_new(json, "version", json_string(schema->version));
    }
    if (schema->cksum[0]) {
        json_object_set_new(json, "cksum", json_string(schema->cksum));
    }
    for (i = 0; i < schema->n_tables; i++) {
        default_is_root &= schema->tables[i]->is_root;
    }
    /* Tables and columns in the order Open vSwitch writes them, so that a
     * program that reads this text in order walks them as it would walk
     * the text Open vSwitch writes: Open vSwitch puts them in a JSON object
     * in the order it walks them, and writes the object in its own hash
     * order. */
    names = xmalloc((schema->n_tables + 1) * sizeof *names);
    for (i = 0; i < schema->n_tables; i++) {
        names[i] = schema->tables[schema->ovs_order[i]]->name;
    }
    order = ovsdb_json_ovs_order(names, schema->n_tables);
    for (i = 0; i < schema->n_tables; i++) {
        const struct ovsdb_table_schema *table
            = schema->tables[schema->ovs_order[order[i]]];

        json_object_set_new(tables, table->name,
                            table_to_json(table, default_is_root));
    }
    free(order);
    free(names);
    json_object_set_new(json, "tables", tables);
    return json;
}

/* Returns a deep copy of 'schema' (through its JSON form, which is
 * complete). */
struct ovsdb_schema *
ovsdb_schema_clone(const struct ovsdb_schema *schema)
{
    struct ovsdb_schema *copy;
    struct ovsdb_error *error;
    json_t *json = ovsdb_schema_to_json(schema);

    error = ovsdb_schema_from_json(json, &copy);
    util_assert(!error);
    json_decref(json);
    /* The JSON form lists tables and columns by name: keep the original's
     * orders. */
    memcpy(copy->ovs_order, schema->ovs_order,
           copy->n_tables * sizeof *copy->ovs_order);
    for (size_t i = 0; i < copy->n_tables; i++) {
        memcpy(copy->tables[i]->ovs_order, schema->tables[i]->ovs_order,
               copy->tables[i]->n_columns
               * sizeof *copy->tables[i]->ovs_order);
    }
    return copy;
}

/* Makes every ephemeral column of 'schema' persistent, as a clustered
 * database needs (its log has no room for columns that are not stored),
 * and warns, naming 'file_name' (where the schema came from), if there were
 * any, as Open vSwitch does: the count, and the last such column in its
 * order of tables and columns. */
void
ovsdb_schema_persist_ephemeral_columns(struct ovsdb_schema *schema,
                                       const char *file_name)
{
    const struct ovsdb_table_schema *last_table = NULL;
    const struct ovsdb_column *last_column = NULL;
    size_t n = 0, i, j;

    for (i = 0; i < schema->n_tables; i++) {
        struct ovsdb_table_schema *ts = schema->tables[schema->ovs_order[i]];

        for (j = 0; j < ts->n_columns; j++) {
            struct ovsdb_column *column = ts->columns[ts->ovs_order[j]];

            if (!column->persistent
                && column->index >= OVSDB_N_HIDDEN_COLUMNS) {
                column->persistent = true;
                last_table = ts;
                last_column = column;
                n++;
            }
        }
    }
    if (n) {
        VLOG_WARN("%s: changed %zu columns in '%s' database from ephemeral "
                  "to persistent, including '%s' column in '%s' table, "
                  "because clusters do not support ephemeral columns",
                  file_name, n, schema->name, last_column->name,
                  last_table->name);
    }
}

/* Frees 'schema' (which may be NULL). */
void
ovsdb_schema_destroy(struct ovsdb_schema *schema)
{
    size_t i;

    if (!schema) {
        return;
    }
    for (i = 0; i < schema->n_tables; i++) {
        table_destroy(schema->tables[i]);
    }
    free(schema->tables);
    free(schema->ovs_order);
    free(schema->name);
    free(schema->version);
    free(schema->cksum);
    free(schema);
}

/* Returns true if 'a' and 'b' describe the same database. */
bool
ovsdb_schema_equal(const struct ovsdb_schema *a, const struct ovsdb_schema *b)
{
    json_t *ja = ovsdb_schema_to_json(a);
    json_t *jb = ovsdb_schema_to_json(b);
    bool equal = json_equal(ja, jb);

    json_decref(ja);
    json_decref(jb);
    return equal;
}

/* Returns the table of 'schema' called 'name', or NULL. */
struct ovsdb_table_schema *
ovsdb_schema_find_table(const struct ovsdb_schema *schema, const char *name)
{
    size_t low = 0, high = schema->n_tables;

    while (low < high) {
        size_t mid = low + (high - low) / 2;
        int cmp = strcmp(name, schema->tables[mid]->name);

        if (!cmp) {
            return schema->tables[mid];
        } else if (cmp < 0) {
            high = mid;
        } else {
            low = mid + 1;
        }
    }
    return NULL;
}

/* Compares the rows whose fields are 'a_fields' and 'b_fields', both of
 * table 'ts', as Open vSwitch compares "all columns" of two rows: column by
 * column in its order ('ovs_order'), each datum first by its number of
 * elements, then by its keys, then by its values.  Open vSwitch uses this
 * order to decide which of two rows that clash in a unique index it names
 * first, so its error texts and ours agree.  Returns negative, zero or
 * positive as 'a' sorts before, with or after 'b'. */
int
ovsdb_table_schema_compare_rows(const struct ovsdb_table_schema *ts,
                                const struct ovsdb_datum *a_fields,
                                const struct ovsdb_datum *b_fields)
{
    size_t i;

    for (i = 0; i < ts->n_columns; i++) {
        const struct ovsdb_column *column = ts->columns[ts->ovs_order[i]];
        int cmp = ovsdb_datum_compare_ovs(&a_fields[column->index],
                                          &b_fields[column->index],
                                          &column->type);
        if (cmp) {
            return cmp;
        }
    }
    return 0;
}

/* Returns the column of 'table' called 'name' (including "_uuid" and
 * "_version"), or NULL. */
struct ovsdb_column *
ovsdb_table_schema_find_column(const struct ovsdb_table_schema *table,
                               const char *name)
{
    size_t low = OVSDB_N_HIDDEN_COLUMNS, high = table->n_columns;

    if (name[0] == '_') {
        return (!strcmp(name, "_uuid") ? table->columns[OVSDB_COL_UUID]
                : !strcmp(name, "_version")
                ? table->columns[OVSDB_COL_VERSION]
                : NULL);
    }
    while (low < high) {
        size_t mid = low + (high - low) / 2;
        int cmp = strcmp(name, table->columns[mid]->name);

        if (!cmp) {
            return table->columns[mid];
        } else if (cmp < 0) {
            high = mid;
        } else {
            low = mid + 1;
        }
    }
    return NULL;
}

static struct ovsdb_error *
table_from_json(const char *name, const json_t *json,
                struct ovsdb_table_schema **tablep)
{
    const json_t *columns, *max_rows, *is_root, *indexes, *column_json;
    struct ovsdb_table_schema *table;
    struct ovsdb_parser parser;
    struct ovsdb_error *error;
    const char *column_name;
    struct ovsdb_type uuid_type;
    struct ovsdb_column **text_order;

    *tablep = NULL;
    ovsdb_parser_init(&parser, json, "table schema for table %s", name);
    columns = ovsdb_parser_member(&parser, "columns", OP_OBJECT);
    max_rows = ovsdb_parser_member(&parser, "maxRows",
                                   OP_INTEGER | OP_OPTIONAL);
    is_root = ovsdb_parser_member(&parser, "isRoot",
                                  OP_BOOLEAN | OP_OPTIONAL);
    indexes = ovsdb_parser_member(&parser, "indexes",
                                  OP_ARRAY | OP_OPTIONAL);
    error = ovsdb_parser_finish(&parser);
    if (error) {
        return error;
    }
    if (max_rows && json_integer_value(max_rows) < 1) {
        return ovsdb_syntax_error(json, NULL, "maxRows must be at least 1");
    }
    if (!json_object_size(columns)) {
        return ovsdb_syntax_error(json, NULL,
                                  "table must have at least one column");
    }

    table = xzalloc(sizeof *table);
    table->name = xstrdup(name);
    table->is_root = is_root && json_is_true(is_root);
    table->max_rows = (max_rows && json_integer_value(max_rows) < UINT_MAX
                       ? json_integer_value(max_rows) : UINT_MAX);
    table->columns = xcalloc(json_object_size(columns)
                             + OVSDB_N_HIDDEN_COLUMNS,
                             sizeof *table->columns);

    ovsdb_type_init_scalar(&uuid_type, OVSDB_TYPE_UUID);
    table->columns[table->n_columns++] = column_create("_uuid", false, true,
                                                       &uuid_type);
    table->columns[table->n_columns++] = column_create("_version", false,
                                                       false, &uuid_type);

    json_object_foreach ((json_t *) columns, column_name, column_json) {
        struct ovsdb_column *column = NULL;

        if (column_name[0] == '_') {
            error = ovsdb_syntax_error(json, NULL, "names beginning with "
                                       "\"_\" are reserved");
        } else if (!ovsdb_parser_is_id(column_name)) {
            error = ovsdb_syntax_error(json, NULL, "name must be a valid id");
        } else {
            error = column_from_json(column_name, column_json, &column);
        }
        if (error) {
            table_destroy(table);
            return error;
        }
        table->columns[table->n_columns++] = column;
    }
    text_order = xmemdup(table->columns,
                         table->n_columns * sizeof *table->columns);
    qsort(table->columns + OVSDB_N_HIDDEN_COLUMNS,
          table->n_columns - OVSDB_N_HIDDEN_COLUMNS, sizeof *table->columns,
          compare_column_names);
    for (size_t i = 0; i < table->n_columns; i++) {
        table->columns[i]->index = i;
    }
    table->ovs_order = compute_ovs_order(text_order, table->n_columns);
    free(text_order);

    if (indexes) {
        error = parse_indexes(table, indexes);
        if (error) {
            table_destroy(table);
            return error;
        }
    }
    *tablep = table;
    return NULL;
}

static struct ovsdb_error *
parse_indexes(struct ovsdb_table_schema *table, const json_t *indexes)
{
    size_t i;

    table->indexes = xcalloc(json_array_size(indexes) + 1,
                             sizeof *table->indexes);
    for (i = 0; i < json_array_size(indexes); i++) {
        const json_t *index_json = json_array_get(indexes, i);
        struct ovsdb_index_schema *index = &table->indexes[i];
        size_t j;

        if (!json_is_array(index_json) || !json_array_size(index_json)) {
            return ovsdb_syntax_error(index_json, NULL,
                                      "index must have at least one column");
        }
        table->n_indexes++;
        index->columns = xcalloc(json_array_size(index_json),
                                 sizeof *index->columns);
        for (j = 0; j < json_array_size(index_json); j++) {
            const json_t *name = json_array_get(index_json, j);
            struct ovsdb_column *column;

            if (!json_is_string(name)) {
                return ovsdb_syntax_error(index_json, NULL,
                                          "index column names must be "
                                          "strings");
            }
            column = ovsdb_table_schema_find_column(table,
                                                    json_string_value(name));
            if (!column) {
                return ovsdb_syntax_error(index_json, NULL, "%s is not a "
                                          "valid column name",
                                          json_string_value(name));
            }
            if (!column->persistent) {
                return ovsdb_syntax_error(index_json, NULL, "ephemeral "
                                          "columns (such as %s) may not be "
                                          "indexed", column->name);
            }
            index->columns[index->n_columns++] = column;
        }
    }
    return NULL;
}

static struct ovsdb_error *
column_from_json(const char *name, const json_t *json,
                 struct ovsdb_column **columnp)
{
    const json_t *type_json, *mutable_json, *ephemeral_json;
    struct ovsdb_parser parser;
    struct ovsdb_error *error;
    struct ovsdb_type type;

    *columnp = NULL;
    ovsdb_parser_init(&parser, json, "schema for column %s", name);
    type_json = ovsdb_parser_member(&parser, "type", OP_STRING | OP_OBJECT);
    mutable_json = ovsdb_parser_member(&parser, "mutable",
                                       OP_BOOLEAN | OP_OPTIONAL);
    ephemeral_json = ovsdb_parser_member(&parser, "ephemeral",
                                         OP_BOOLEAN | OP_OPTIONAL);
    error = ovsdb_parser_finish(&parser);
    if (error) {
        return error;
    }
    error = ovsdb_type_from_json(&type, type_json);
    if (error) {
        return error;
    }
    *columnp = column_create(name,
                             !mutable_json || json_is_true(mutable_json),
                             !ephemeral_json || !json_is_true(ephemeral_json),
                             &type);
    ovsdb_type_destroy(&type);
    return NULL;
}

/* Points each reference column's base types at the tables they name. */
static struct ovsdb_error *
resolve_refs(struct ovsdb_schema *schema)
{
    size_t i, j;

    for (i = 0; i < schema->n_tables; i++) {
        struct ovsdb_table_schema *table = schema->tables[i];

        for (j = 0; j < table->n_columns; j++) {
            struct ovsdb_column *column = table->columns[j];
            struct ovsdb_base_type *bases[2] = { &column->type.key,
                                                 &column->type.value };
            static const char *const which[2] = { "key", "value" };
            int k;

            for (k = 0; k < 2; k++) {
                struct ovsdb_base_type *base = bases[k];

                if (!ovsdb_base_type_is_ref(base)) {
                    continue;
                }
                base->uuid.ref_table = ovsdb_schema_find_table(
                    schema, base->uuid.ref_table_name);
                if (!base->uuid.ref_table) {
                    return ovsdb_error("syntax error", "column %s %s refers "
                                       "to undefined table %s", column->name,
                                       which[k], base->uuid.ref_table_name);
                }
            }
        }
    }
    return NULL;
}

static struct ovsdb_column *
column_create(const char *name, bool mutable_, bool persistent,
              const struct ovsdb_type *type)
{
    struct ovsdb_column *column = xzalloc(sizeof *column);

    column->name = xstrdup(name);
    column->mutable_ = mutable_;
    column->persistent = persistent;
    ovsdb_type_clone(&column->type, type);
    return column;
}

static void
column_destroy(struct ovsdb_column *column)
{
    if (column) {
        ovsdb_type_destroy(&column->type);
        free(column->name);
        free(column);
    }
}

static void
table_destroy(struct ovsdb_table_schema *table)
{
    size_t i;

    if (!table) {
        return;
    }
    for (i = 0; i < table->n_indexes; i++) {
        free(table->indexes[i].columns);
    }
    free(table->indexes);
    free(table->ovs_order);
    for (i = 0; i < table->n_columns; i++) {
        column_destroy(table->columns[i]);
    }
    free(table->columns);
    free(table->name);
    free(table);
}

static json_t *
table_to_json(const struct ovsdb_table_schema *table, bool default_is_root)
{
    json_t *json = json_object(), *columns = json_object();
    size_t i;

    const struct ovsdb_column **shown;
    const char **names;
    size_t n = 0, *order;

    /* In Open vSwitch's order: see ovsdb_schema_to_json(). */
    shown = xmalloc((table->n_columns + 1) * sizeof *shown);
    names = xmalloc((table->n_columns + 1) * sizeof *names);
    for (i = 0; i < table->n_columns; i++) {
        const struct ovsdb_column *column
            = table->columns[table->ovs_order[i]];

        if (column->index >= OVSDB_N_HIDDEN_COLUMNS) {
            names[n] = column->name;
            shown[n++] = column;
        }
    }
    order = ovsdb_json_ovs_order(names, n);
    for (i = 0; i < n; i++) {
        const struct ovsdb_column *column = shown[order[i]];
        json_t *column_json = json_object();

        json_object_set_new(column_json, "type",
                            ovsdb_type_to_json(&column->type));
        if (!column->persistent) {
            json_object_set_new(column_json, "ephemeral", json_true());
        }
        if (!column->mutable_) {
            json_object_set_new(column_json, "mutable", json_false());
        }
        json_object_set_new(columns, column->name, column_json);
    }
    free(order);
    free(names);
    free(shown);
    json_object_set_new(json, "columns", columns);
    if (table->max_rows != UINT_MAX) {
        json_object_set_new(json, "maxRows", json_integer(table->max_rows));
    }
    if (table->is_root && !default_is_root) {
        json_object_set_new(json, "isRoot", json_true());
    }
    if (table->n_indexes) {
        json_t *indexes = json_array();

        for (i = 0; i < table->n_indexes; i++) {
            const struct ovsdb_index_schema *index = &table->indexes[i];
            json_t *names = json_array();
            size_t j;

            for (j = 0; j < index->n_columns; j++) {
                json_array_append_new(names,
                                      json_string(index->columns[j]->name));
            }
            json_array_append_new(indexes, names);
        }
        json_object_set_new(json, "indexes", indexes);
    }
    return json;
}

/* Returns true if 's' has the form "x.y.z" with decimal x, y, z. */
static bool
is_valid_version(const char *s)
{
    int part;

    for (part = 0; part < 3; part++) {
        if (!isdigit((unsigned char) *s)) {
            return false;
        }
        while (isdigit((unsigned char) *s)) {
            s++;
        }
        if (part < 2 && *s++ != '.') {
            return false;
        }
    }
    return *s == '\0';
}

static int
compare_column_names(const void *a_, const void *b_)
{
    const struct ovsdb_column *const *a = a_;
    const struct ovsdb_column *const *b = b_;

    return strcmp((*a)->name, (*b)->name);
}

static int
compare_table_names(const void *a_, const void *b_)
{
    const struct ovsdb_table_schema *const *a = a_;
    const struct ovsdb_table_schema *const *b = b_;

    return strcmp((*a)->name, (*b)->name);
}

/* Returns the positions in 'names' of its 'n' names in the order Open
 * vSwitch walks them after parsing a JSON object whose members have these
 * names in this order into a hash map and then adding, to a second hash
 * map, first the 'n_fixed' names it adds itself (the first 'n_fixed' of
 * 'names') and then the members in the first map's order.  This is how it
 * builds a schema's tables (no fixed names) and a table's columns
 * ("_uuid" and "_version" fixed). */
static size_t *
ovs_walk_order(const char *const *names, size_t n, size_t n_fixed)
{
    uint32_t *hashes = xmalloc((n + 1) * sizeof *hashes);
    size_t *member_order = xmalloc((n + 1) * sizeof *member_order);
    size_t *added = xmalloc((n + 1) * sizeof *added);
    size_t *walk = xmalloc((n + 1) * sizeof *walk);
    size_t i;

    for (i = n_fixed; i < n; i++) {
        hashes[i - n_fixed] = ovsdb_json_ovs_hash(names[i]);
    }
    ovsdb_json_ovs_hmap_order(hashes, n - n_fixed, member_order);
    for (i = 0; i < n; i++) {
        added[i] = i < n_fixed ? i : member_order[i - n_fixed] + n_fixed;
        hashes[i] = ovsdb_json_ovs_hash(names[added[i]]);
    }
    ovsdb_json_ovs_hmap_order(hashes, n, walk);
    for (i = 0; i < n; i++) {
        walk[i] = added[walk[i]];
    }
    free(hashes);
    free(member_order);
    free(added);
    return walk;
}

/* Returns the indexes of a table's 'n_columns' columns (the hidden ones
 * first in 'text_order', then the schema's in the order its JSON text
 * lists them) in the order Open vSwitch walks them. */
static unsigned int *
compute_ovs_order(struct ovsdb_column **text_order, size_t n_columns)
{
    const char **names = xmalloc((n_columns + 1) * sizeof *names);
    unsigned int *result = xmalloc((n_columns + 1) * sizeof *result);
    size_t *walk, i;

    for (i = 0; i < n_columns; i++) {
        names[i] = text_order[i]->name;
    }
    walk = ovs_walk_order(names, n_columns, OVSDB_N_HIDDEN_COLUMNS);
    for (i = 0; i < n_columns; i++) {
        result[i] = text_order[walk[i]]->index;
    }
    free(walk);
    free(names);
    return result;
}

/* Returns the indexes of a schema's 'n_tables' tables, given in the order
 * its JSON text lists them, in the order Open vSwitch walks them. */
static unsigned int *
compute_ovs_table_order(struct ovsdb_table_schema **text_order,
                        size_t n_tables)
{
    const char **names = xmalloc((n_tables + 1) * sizeof *names);
    unsigned int *result = xmalloc((n_tables + 1) * sizeof *result);
    size_t *walk, i;

    for (i = 0; i < n_tables; i++) {
        names[i] = text_order[i]->name;
    }
    walk = ovs_walk_order(names, n_tables, 0);
    for (i = 0; i < n_tables; i++) {
        result[i] = text_order[walk[i]]->index;
    }
    free(walk);
    free(names);
    return result;
}
