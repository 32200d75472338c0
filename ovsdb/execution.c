/* Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "execution.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "condition.h"
#include "mutation.h"
#include "ovsdb-data.h"
#include "ovsdb-error.h"
#include "ovsdb-json.h"
#include "ovsdb-parser.h"
#include "ovsdb.h"
#include "transaction.h"
#include "util.h"

/* State of one ovsdb_execute() call. */
struct exec_context {
    struct ovsdb *db;
    struct ovsdb_txn *txn;
    struct ovsdb_symbol_table *symtab;
    const struct ovsdb_execute_options *options;
    bool durable;
    long long int timeout_msec;  /* Set by a "wait" that must block. */
    bool blocked;
};

typedef struct ovsdb_error *operation_func(struct exec_context *,
                                           struct ovsdb_parser *,
                                           json_t **resultp);

static operation_func execute_insert;
static operation_func execute_select;
static operation_func execute_update;
static operation_func execute_mutate;
static operation_func execute_delete;
static operation_func execute_wait;
static operation_func execute_commit;
static operation_func execute_abort;
static operation_func execute_comment;
static operation_func execute_assert;
static struct ovsdb_error *check_defaults(const struct ovsdb_row *);
static struct ovsdb_error *read_only_error(const char *op_name);
static struct ovsdb_error *parse_column_set(const json_t *,
                                            const struct ovsdb_table_schema *,
                                            const struct ovsdb_column ***,
                                            size_t *n_columnsp);

static const struct {
    const char *name;
    operation_func *func;
} operations[] = {
    { "insert", execute_insert },
    { "select", execute_select },
    { "update", execute_update },
    { "mutate", execute_mutate },
    { "delete", execute_delete },
    { "wait", execute_wait },
    { "commit", execute_commit },
    { "abort", execute_abort },
    { "comment", execute_comment },
    { "assert", execute_assert },
};

static json_t *error_result(const json_t *params, const char *details);

/* Executes the "transact" 'params' ([<db-name>, <operation>...]) on 'db'
 * with 'options' (NULL for defaults) and returns the result array, or an
 * error object if 'params' itself is malformed.
 *
 * Returns NULL if a "wait" operation is not yet satisfied and its timeout
 * has not expired: nothing was changed, and the caller should run the
 * request again when the database changes or after '*timeout_msec'
 * milliseconds (LLONG_MAX for never). */
json_t *
ovsdb_execute(struct ovsdb *db, const json_t *params,
              const struct ovsdb_execute_options *options,
              long long int *timeout_msec)
{
    static const struct ovsdb_execute_options default_options;
    struct exec_context ctx;
    struct ovsdb_error *error = NULL;
    json_t *results;
    size_t n_ops, i;

    *timeout_msec = LLONG_MAX;
    if (!options) {
        options = &default_options;
    }
    if (!json_is_array(params)) {
        return error_result(params, "array expected");
    }
    if (!json_array_size(params)
        || !json_is_string(json_array_get(params, 0))
        || strcmp(json_string_value(json_array_get(params, 0)),
                  db->schema->name)) {
        return error_result(params, "database name expected as first "
                            "parameter");
    }

    memset(&ctx, 0, sizeof ctx);
    ctx.db = db;
    ctx.txn = ovsdb_txn_create(db);
    ctx.symtab = ovsdb_symbol_table_create();
    ctx.options = options;
    ctx.timeout_msec = LLONG_MAX;

    n_ops = json_array_size(params) - 1;
    results = json_array();
    for (i = 0; i < n_ops; i++) {
        const json_t *op = json_array_get(params, i + 1);
        const json_t *op_name;
        struct ovsdb_parser parser;
        json_t *result = NULL;
        size_t j;

        ovsdb_parser_init(&parser, op, "ovsdb operation %zu of %zu", i + 1,
                          n_ops);
        op_name = ovsdb_parser_member(&parser, "op", OP_ID);
        if (op_name) {
            const char *name = json_string_value(op_name);

            for (j = 0; j < ARRAY_SIZE(operations); j++) {
                if (!strcmp(name, operations[j].name)) {
                    break;
                }
            }
            if (j < ARRAY_SIZE(operations)) {
                error = operations[j].func(&ctx, &parser, &result);
            } else {
                ovsdb_parser_raise_error(&parser, "No operation \"%s\"",
                                         name);
            }
        }
        if (error) {
            struct ovsdb_error *parse_error = ovsdb_parser_finish(&parser);

            /* As in Open vSwitch, a malformed operation is reported as
             * such rather than as not allowed. */
            if (parse_error
                && !strcmp(ovsdb_error_get_tag(error), "not allowed")) {
                ovsdb_error_destroy(error);
                error = parse_error;
            } else {
                ovsdb_error_destroy(parse_error);
            }
        } else {
            error = ovsdb_parser_finish(&parser);
        }
        if (ctx.blocked) {
            /* Retry the whole request later. */
            ovsdb_error_destroy(error);
            if (result) {
                json_decref(result);
            }
            json_decref(results);
            ovsdb_txn_abort(ctx.txn);
            ovsdb_symbol_table_destroy(ctx.symtab);
            *timeout_msec = ctx.timeout_msec;
            return NULL;
        }
        if (error) {
            if (result) {
                json_decref(result);
            }
            json_array_append_new(results, ovsdb_error_to_json(error));
            ovsdb_error_destroy(error);
            for (i++; i < n_ops; i++) {
                json_array_append_new(results, json_null());
            }
            break;
        }
        json_array_append_new(results, result ? result : json_object());
    }

    if (error || options->dry_run) {
        ovsdb_txn_abort(ctx.txn);
    } else {
        if (options->resultsp) {
            *options->resultsp = results;
        }
        error = ovsdb_txn_commit(ctx.txn, ctx.durable);
        if (options->resultsp) {
            *options->resultsp = NULL;
        }
        if (error) {
            json_array_append_new(results, ovsdb_error_to_json(error));
            ovsdb_error_destroy(error);
        }
    }
    ovsdb_symbol_table_destroy(ctx.symtab);
    return results;
}

static json_t *
error_result(const json_t *params, const char *details)
{
    struct ovsdb_error *error = ovsdb_syntax_error(params, NULL, "%s",
                                                   details);
    json_t *json = ovsdb_error_to_json(error);

    ovsdb_error_destroy(error);
    return json;
}

/* Parses the "table" member. */
static struct ovsdb_table *
parse_table(struct exec_context *ctx, struct ovsdb_parser *parser)
{
    const json_t *json = ovsdb_parser_member(parser, "table", OP_ID);
    struct ovsdb_table *table;

    if (!json) {
        return NULL;
    }
    table = ovsdb_get_table(ctx->db, json_string_value(json));
    if (!table) {
        ovsdb_parser_raise_error(parser, "No table named %s.",
                                 json_string_value(json));
    }
    return table;
}

/* Parses "table" and "where" and collects the matching rows into
 * '*rowsp'. */
static struct ovsdb_error *
parse_where(struct exec_context *ctx, struct ovsdb_parser *parser,
            struct ovsdb_table **tablep, struct ovsdb_row ***rowsp,
            size_t *n_rowsp)
{
    struct ovsdb_table *table = parse_table(ctx, parser);
    const json_t *where = ovsdb_parser_member(parser, "where", OP_ARRAY);
    struct ovsdb_condition cond;
    struct ovsdb_error *error;
    struct ovsdb_row **rows = NULL;
    const struct uuid *uuid;
    size_t n = 0;

    *tablep = table;
    *rowsp = NULL;
    *n_rowsp = 0;
    if (ovsdb_parser_has_error(parser)) {
        return NULL;
    }
    error = ovsdb_condition_from_json(table->schema, where, ctx->symtab,
                                      &cond);
    if (error) {
        return error;
    }

    uuid = ovsdb_condition_get_uuid(&cond);
    if (uuid) {
        struct ovsdb_row *row = ovsdb_table_get_row(table, uuid);

        if (row && ovsdb_condition_evaluate(&cond, row)) {
            rows = xmalloc(sizeof *rows);
            rows[n++] = row;
        }
    } else {
        struct ovsdb_row *row;

        rows = xmalloc((ohmap_count(&table->rows) + 1) * sizeof *rows);
        OHMAP_FOR_EACH (row, node, &table->rows) {
            if (ovsdb_condition_evaluate(&cond, row)) {
                rows[n++] = row;
            }
        }
    }
    ovsdb_condition_destroy(&cond);
    *rowsp = rows;
    *n_rowsp = n;
    return NULL;
}

/* Parses an optional "columns" array into '*columnsp' (all columns if
 * absent). */
static struct ovsdb_error *
parse_columns(struct ovsdb_parser *parser, const struct ovsdb_table *table,
              const struct ovsdb_column ***columnsp, size_t *n_columnsp)
{
    const json_t *json = ovsdb_parser_member(parser, "columns",
                                             OP_ARRAY | OP_OPTIONAL);
    const struct ovsdb_table_schema *ts = table->schema;
    const struct ovsdb_column **columns;
    size_t i;

    *columnsp = NULL;
    *n_columnsp = 0;
    if (!json) {
        columns = xmalloc(ts->n_columns * sizeof *columns);
        for (i = 0; i < ts->n_columns; i++) {
            columns[i] = ts->columns[i];
        }
        *columnsp = columns;
        *n_columnsp = ts->n_columns;
        return NULL;
    }
    return parse_column_set(json, ts, columnsp, n_columnsp);
}

/* Parses 'json', an array of distinct column names of 'ts', into
 * '*columnsp' and '*n_columnsp'. */
static struct ovsdb_error *
parse_column_set(const json_t *json, const struct ovsdb_table_schema *ts,
                 const struct ovsdb_column ***columnsp, size_t *n_columnsp)
{
    const struct ovsdb_column **columns;
    size_t i, j;

    *columnsp = NULL;
    *n_columnsp = 0;
    columns = xmalloc((json_array_size(json) + 1) * sizeof *columns);
    for (i = 0; i < json_array_size(json); i++) {
        const json_t *name = json_array_get(json, i);
        const struct ovsdb_column *column;

        if (!json_is_string(name)) {
            goto not_distinct;
        }
        column = ovsdb_table_schema_find_column(ts, json_string_value(name));
        if (!column) {
            free(columns);
            return ovsdb_syntax_error(json, NULL, "%s is not a "
                                      "valid column name",
                                      json_string_value(name));
        }
        for (j = 0; j < i; j++) {
            if (columns[j] == column) {
                goto not_distinct;
            }
        }
        columns[i] = column;
    }
    *columnsp = columns;
    *n_columnsp = json_array_size(json);
    return NULL;

not_distinct:
    free(columns);
    return ovsdb_syntax_error(json, NULL,
                              "array of distinct column names expected");
}

static struct ovsdb_error *
execute_insert(struct exec_context *ctx, struct ovsdb_parser *parser,
               json_t **resultp)
{
    struct ovsdb_table *table = parse_table(ctx, parser);
    const json_t *row_json, *uuid_name, *uuid_json;
    struct ovsdb_symbol *symbol = NULL;
    struct ovsdb_error *error;
    struct ovsdb_row *row;
    struct uuid uuid;
    char s[UUID_LEN + 1];

    row_json = ovsdb_parser_member(parser, "row", OP_OBJECT | OP_OPTIONAL);
    uuid_name = ovsdb_parser_member(parser, "uuid-name",
                                    OP_ID | OP_OPTIONAL);
    uuid_json = ovsdb_parser_member(parser, "uuid", OP_STRING | OP_OPTIONAL);
    if (ovsdb_parser_has_error(parser)) {
        return NULL;
    }
    if (ctx->options->read_only) {
        return read_only_error("insert");
    }

    if (uuid_json) {
        if (!uuid_from_string(&uuid, json_string_value(uuid_json))) {
            return ovsdb_syntax_error(uuid_json, NULL, "\"%s\" is not a "
                                      "valid UUID",
                                      json_string_value(uuid_json));
        }
    } else {
        uuid_generate(&uuid);
    }
    if (uuid_name) {
        symbol = ovsdb_symbol_table_insert(ctx->symtab,
                                           json_string_value(uuid_name));
        if (symbol->created) {
            return ovsdb_syntax_error(uuid_name, "duplicate uuid-name",
                                      "This \"uuid-name\" appeared on an "
                                      "earlier \"insert\" operation.");
        }
        symbol->created = true;
        if (uuid_json) {
            symbol->uuid = uuid;
        } else {
            /* An earlier reference may already have fixed the UUID. */
            uuid = symbol->uuid;
        }
    }
    if (!ovsdb_txn_may_create_row(ctx->txn, table, &uuid)) {
        return ovsdb_syntax_error(uuid_json ? uuid_json : uuid_name,
                                  "duplicate uuid", "This UUID would "
                                  "duplicate a UUID already present within "
                                  "the table or deleted within the same "
                                  "transaction.");
    }

    row = ovsdb_row_create(table);
    ovsdb_row_set_uuid(row, &uuid);
    if (row_json) {
        error = ovsdb_row_from_json(row, row_json, ctx->symtab, NULL);
        if (error) {
            ovsdb_row_destroy(row);
            return error;
        }
    }
    error = check_defaults(row);
    if (error) {
        ovsdb_row_destroy(row);
        return error;
    }
    ovsdb_txn_row_insert(ctx->txn, row);

    uuid_to_string(&uuid, s);
    *resultp = json_object();
    json_object_set_new(*resultp, "uuid",
                        ovsdb_json_pair(json_string("uuid"),
                                        json_string(s)));
    return NULL;
}

/* Checks the columns of the new 'row' that hold one element against their
 * constraints: the operation may have left them at their defaults (0, "",
 * false, the all-zeros UUID), which a constraint such as "minInteger": 1
 * forbids.  Columns with more elements were checked when they were parsed.
 * The columns are checked in Open vSwitch's order, so that the first error
 * is the one it reports. */
static struct ovsdb_error *
check_defaults(const struct ovsdb_row *row)
{
    const struct ovsdb_table_schema *ts = row->table->schema;
    size_t i;

    for (i = 0; i < ts->n_columns; i++) {
        const struct ovsdb_column *column = ts->columns[ts->ovs_order[i]];
        const struct ovsdb_datum *datum = &row->fields[column->index];

        if (datum->n == 1) {
            struct ovsdb_error *error
                = ovsdb_datum_check_constraints(datum, &column->type);

            if (error) {
                return error;
            }
        }
    }
    return NULL;
}

/* The error Open vSwitch gives for an operation that would change the
 * database on a read-only connection. */
static struct ovsdb_error *
read_only_error(const char *op_name)
{
    return ovsdb_error("not allowed", "%s operation not allowed when "
                       "database server is in read only mode", op_name);
}

/* One row being sorted: its place in the query's order breaks ties. */
struct sort_entry {
    struct ovsdb_row *row;
    size_t position;
    const struct ovsdb_column **columns;
    size_t n_columns;
};

static int
compare_sort_entries(const void *a_, const void *b_)
{
    const struct sort_entry *a = a_, *b = b_;
    size_t i;

    for (i = 0; i < a->n_columns; i++) {
        const struct ovsdb_column *column = a->columns[i];
        int cmp = ovsdb_datum_compare_ovs(&a->row->fields[column->index],
                                          &b->row->fields[column->index],
                                          &column->type);
        if (cmp) {
            return cmp;
        }
    }
    return a->position < b->position ? -1 : a->position > b->position;
}

/* Sorts 'rows' by 'columns', each in ascending order, as Open vSwitch's
 * extension "sort" to "select" does; rows that compare equal keep their
 * order. */
static void
sort_rows(struct ovsdb_row **rows, size_t n_rows,
          const struct ovsdb_column **columns, size_t n_columns)
{
    struct sort_entry *entries = xmalloc((n_rows + 1) * sizeof *entries);
    size_t i;

    for (i = 0; i < n_rows; i++) {
        entries[i] = (struct sort_entry) { rows[i], i, columns, n_columns };
    }
    qsort(entries, n_rows, sizeof *entries, compare_sort_entries);
    for (i = 0; i < n_rows; i++) {
        rows[i] = entries[i].row;
    }
    free(entries);
}

static struct ovsdb_error *
execute_select(struct exec_context *ctx, struct ovsdb_parser *parser,
               json_t **resultp)
{
    const struct ovsdb_column **columns = NULL, **sort_columns = NULL;
    size_t n_rows, n_columns, n_sort_columns = 0, i;
    struct ovsdb_row **rows;
    struct ovsdb_table *table;
    struct ovsdb_error *error;
    const json_t *sort_json;
    json_t *rows_json;

    error = parse_where(ctx, parser, &table, &rows, &n_rows);
    sort_json = ovsdb_parser_member(parser, "sort", OP_ARRAY | OP_OPTIONAL);
    if (!error && !ovsdb_parser_has_error(parser)) {
        error = parse_columns(parser, table, &columns, &n_columns);
    }
    if (!error && !ovsdb_parser_has_error(parser) && sort_json) {
        error = parse_column_set(sort_json, table->schema, &sort_columns,
                                 &n_sort_columns);
    }
    if (error || ovsdb_parser_has_error(parser)) {
        free(rows);
        free(columns);
        return error;
    }
    if (n_sort_columns) {
        sort_rows(rows, n_rows, sort_columns, n_sort_columns);
    }
    free(sort_columns);

    rows_json = json_array();
    for (i = 0; i < n_rows; i++) {
        json_array_append_new(rows_json,
                              ovsdb_row_to_json(rows[i], columns, n_columns));
    }
    free(rows);
    free(columns);
    *resultp = json_object();
    json_object_set_new(*resultp, "rows", rows_json);
    return NULL;
}

static json_t *
count_result(size_t n)
{
    json_t *result = json_object();

    json_object_set_new(result, "count", json_integer(n));
    return result;
}

static struct ovsdb_error *
execute_update(struct exec_context *ctx, struct ovsdb_parser *parser,
               json_t **resultp)
{
    const json_t *row_json;
    struct ovsdb_row **rows, *template = NULL;
    struct ovsdb_table *table;
    struct ovsdb_error *error;
    bool *columns_set = NULL;
    size_t n_rows, i, j;

    error = parse_where(ctx, parser, &table, &rows, &n_rows);
    row_json = ovsdb_parser_member(parser, "row", OP_OBJECT);
    if (!error && !ovsdb_parser_has_error(parser) && ctx->options->read_only) {
        error = read_only_error("update");
    }
    if (error || ovsdb_parser_has_error(parser)) {
        free(rows);
        return error;
    }

    {
        const char *name;
        json_t *value;

        json_object_foreach ((json_t *) row_json, name, value) {
            const struct ovsdb_column *column;

            column = ovsdb_table_schema_find_column(table->schema, name);
            if (column && (!column->mutable_
                           || column->index < OVSDB_N_HIDDEN_COLUMNS)) {
                free(rows);
                return ovsdb_syntax_error(parser->json,
                                          "constraint violation",
                                          "Cannot update immutable column "
                                          "%s in table %s.", column->name,
                                          table->schema->name);
            }
        }
    }

    template = ovsdb_row_create(table);
    columns_set = xcalloc(table->schema->n_columns, sizeof *columns_set);
    error = ovsdb_row_from_json(template, row_json, ctx->symtab,
                                columns_set);
    for (i = 0; !error && i < n_rows; i++) {
        struct ovsdb_row *row = ovsdb_txn_row_modify(ctx->txn, rows[i]);

        for (j = 0; j < table->schema->n_columns; j++) {
            const struct ovsdb_type *type = &table->schema->columns[j]->type;

            if (columns_set[j]) {
                ovsdb_datum_destroy(&row->fields[j], type);
                ovsdb_datum_clone(&row->fields[j], &template->fields[j],
                                  type);
            }
        }
    }
    if (!error) {
        *resultp = count_result(n_rows);
    }
    ovsdb_row_destroy(template);
    free(columns_set);
    free(rows);
    return error;
}

static struct ovsdb_error *
execute_mutate(struct exec_context *ctx, struct ovsdb_parser *parser,
               json_t **resultp)
{
    struct ovsdb_mutation_set mutations;
    const json_t *mutations_json;
    struct ovsdb_row **rows;
    struct ovsdb_table *table;
    struct ovsdb_error *error;
    size_t n_rows, i;

    error = parse_where(ctx, parser, &table, &rows, &n_rows);
    mutations_json = ovsdb_parser_member(parser, "mutations", OP_ARRAY);
    if (!error && !ovsdb_parser_has_error(parser) && ctx->options->read_only) {
        error = read_only_error("mutate");
    }
    if (error || ovsdb_parser_has_error(parser)) {
        free(rows);
        return error;
    }
    error = ovsdb_mutation_set_from_json(table->schema, mutations_json,
                                         ctx->symtab, &mutations);
    for (i = 0; !error && i < n_rows; i++) {
        struct ovsdb_row *row = ovsdb_txn_row_modify(ctx->txn, rows[i]);

        error = ovsdb_mutation_set_execute(row, &mutations);
    }
    if (!error) {
        *resultp = count_result(n_rows);
    }
    ovsdb_mutation_set_destroy(&mutations);
    free(rows);
    return error;
}

static struct ovsdb_error *
execute_delete(struct exec_context *ctx, struct ovsdb_parser *parser,
               json_t **resultp)
{
    struct ovsdb_row **rows;
    struct ovsdb_table *table;
    struct ovsdb_error *error;
    size_t n_rows, i;

    error = parse_where(ctx, parser, &table, &rows, &n_rows);
    if (!error && !ovsdb_parser_has_error(parser) && ctx->options->read_only) {
        error = read_only_error("delete");
    }
    if (error || ovsdb_parser_has_error(parser)) {
        free(rows);
        return error;
    }
    for (i = 0; i < n_rows; i++) {
        ovsdb_txn_row_delete(ctx->txn, rows[i]);
    }
    free(rows);
    *resultp = count_result(n_rows);
    return NULL;
}

/* Returns true if the rows in 'actual' and 'expected' agree on 'columns'
 * as multisets. */
static bool
rows_match(struct ovsdb_row **actual, size_t n_actual,
           struct ovsdb_row **expected, size_t n_expected,
           const struct ovsdb_column **columns, size_t n_columns)
{
    bool *used;
    bool match = true;
    size_t i, j;

    if (n_actual != n_expected) {
        return false;
    }
    used = xcalloc(n_expected + 1, sizeof *used);
    for (i = 0; match && i < n_actual; i++) {
        for (j = 0; j < n_expected; j++) {
            if (!used[j]
                && ovsdb_row_equal_columns(actual[i], expected[j],
                                           (const struct ovsdb_column *const *)
                                           columns, n_columns)) {
                used[j] = true;
                break;
            }
        }
        match = j < n_expected;
    }
    free(used);
    return match;
}

static struct ovsdb_error *
execute_wait(struct exec_context *ctx, struct ovsdb_parser *parser,
             json_t **resultp DPS_UNUSED)
{
    const json_t *until_json, *rows_json, *timeout_json;
    const struct ovsdb_column **columns = NULL;
    struct ovsdb_row **rows, **expected = NULL;
    struct ovsdb_table *table;
    struct ovsdb_error *error;
    size_t n_rows, n_columns = 0, n_expected = 0, i;
    long long int timeout = LLONG_MAX;
    bool equal = true, satisfied;

    error = parse_where(ctx, parser, &table, &rows, &n_rows);
    timeout_json = ovsdb_parser_member(parser, "timeout",
                                       OP_INTEGER | OP_OPTIONAL);
    until_json = ovsdb_parser_member(parser, "until", OP_STRING);
    rows_json = ovsdb_parser_member(parser, "rows", OP_ARRAY);
    if (!error && !ovsdb_parser_has_error(parser)) {
        error = parse_columns(parser, table, &columns, &n_columns);
    }
    if (error || ovsdb_parser_has_error(parser)) {
        free(rows);
        return error;
    }
    if (timeout_json) {
        timeout = json_integer_value(timeout_json);
        if (timeout < 0) {
            timeout = 0;
        }
    }
    if (!strcmp(json_string_value(until_json), "==")) {
        equal = true;
    } else if (!strcmp(json_string_value(until_json), "!=")) {
        equal = false;
    } else {
        free(rows);
        free(columns);
        return ovsdb_syntax_error(until_json, NULL,
                                  "\"until\" must be \"==\" or \"!=\"");
    }

    expected = xcalloc(json_array_size(rows_json) + 1, sizeof *expected);
    for (i = 0; !error && i < json_array_size(rows_json); i++) {
        expected[i] = ovsdb_row_create(table);
        n_expected++;
        error = ovsdb_row_from_json(expected[i],
                                    json_array_get(rows_json, i),
                                    ctx->symtab, NULL);
    }
    if (!error) {
        satisfied = rows_match(rows, n_rows, expected, n_expected, columns,
                               n_columns) == equal;
        if (!satisfied) {
            if (!timeout) {
                error = ovsdb_error("timed out",
                                    "\"where\" clause test failed");
            } else if (ctx->options->elapsed_msec >= timeout) {
                error = ovsdb_error("timed out", "\"wait\" timed out after "
                                    "%lld ms", timeout);
            } else {
                ctx->blocked = true;
                ctx->timeout_msec = (timeout == LLONG_MAX ? LLONG_MAX
                                     : timeout - ctx->options->elapsed_msec);
            }
        }
    }
    for (i = 0; i < n_expected; i++) {
        ovsdb_row_destroy(expected[i]);
    }
    free(expected);
    free(columns);
    free(rows);
    return error;
}

static struct ovsdb_error *
execute_commit(struct exec_context *ctx, struct ovsdb_parser *parser,
               json_t **resultp DPS_UNUSED)
{
    const json_t *durable = ovsdb_parser_member(parser, "durable",
                                                OP_BOOLEAN);

    if (durable && ctx->options->read_only) {
        return read_only_error("commit");
    }
    if (durable && json_is_true(durable)) {
        ctx->durable = true;
    }
    return NULL;
}

static struct ovsdb_error *
execute_abort(struct exec_context *ctx DPS_UNUSED,
              struct ovsdb_parser *parser DPS_UNUSED,
              json_t **resultp DPS_UNUSED)
{
    return ovsdb_error("aborted", "aborted by request");
}

static struct ovsdb_error *
execute_comment(struct exec_context *ctx, struct ovsdb_parser *parser,
                json_t **resultp DPS_UNUSED)
{
    const json_t *comment = ovsdb_parser_member(parser, "comment",
                                                OP_STRING);

    if (comment) {
        ovsdb_txn_add_comment(ctx->txn, json_string_value(comment));
    }
    return NULL;
}

static struct ovsdb_error *
execute_assert(struct exec_context *ctx, struct ovsdb_parser *parser,
               json_t **resultp DPS_UNUSED)
{
    const json_t *lock = ovsdb_parser_member(parser, "lock", OP_ID);
    const char *name;

    if (!lock) {
        return NULL;
    }
    name = json_string_value(lock);
    if (!ctx->options->lock_held
        || !ctx->options->lock_held(name, ctx->options->aux)) {
        return ovsdb_error("not owner", "Asserted lock %s not held.", name);
    }
    return NULL;
}
