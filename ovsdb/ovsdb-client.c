/* ovsdb-client: a command-line client of ovsdb-server.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "daemon.h"
#include "dirs.h"
#include "dynamic-string.h"
#include "fatal-signal.h"
#include "json.h"
#include "jsonrpc.h"
#include "ovsdb-data.h"
#include "ovsdb-error.h"
#include "ovsdb-json.h"
#include "poll-loop.h"
#include "schema.h"
#include "stream.h"
#include "stream-ssl.h"
#include "table.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ovsdb_client);

static enum table_format format = TABLE_FORMAT_TABLE;
static bool headings = true;
static bool timestamp;
static int timeout_secs;

/* The connection and what the command line named. */
struct context {
    struct jsonrpc *rpc;
    const char *db;             /* Database name. */
    int argc;                   /* Remaining arguments. */
    char **argv;
};

struct command {
    const char *name;
    bool needs_db;              /* Takes an optional [DATABASE]. */
    int min_args, max_args;     /* After SERVER and DATABASE. */
    void (*handler)(struct context *);
};

static const struct command *find_command(const char *name);
static void parse_options(int argc, char *argv[]);
static void usage(void) DPS_NO_RETURN;

int
main(int argc, char *argv[])
{
    const struct command *command;
    struct context ctx;
    char *server;
    struct stream *stream;
    char **args;
    int n_args, error;

    util_set_program_name(argv[0]);
    vlog_init();
    fatal_signal_init();
    parse_options(argc, argv);
    args = argv + optind;
    n_args = argc - optind;
    if (timeout_secs) {
        alarm(timeout_secs);
    }

    if (n_args < 1) {
        util_fatal(0, "missing command name; use --help for help");
    }
    command = find_command(args[0]);
    if (!command) {
        util_fatal(0, "unknown command '%s'; use --help for help", args[0]);
    }
    args++;
    n_args--;

    if (n_args > 0 && (!stream_verify_name(args[0])
                       || !strncmp(args[0], "unix:", 5))) {
        server = xstrdup(args[0]);
        args++;
        n_args--;
    } else {
        server = xasprintf("unix:%s/db.sock", dirs_rundir());
    }

    error = stream_open_block(stream_open(server, &stream), -1, &stream);
    if (error) {
        util_fatal(0, "failed to connect to \"%s\" (%s)", server,
                   error == EOF ? "End of file" : util_strerror(error));
    }
    memset(&ctx, 0, sizeof ctx);
    ctx.rpc = jsonrpc_open(stream);

    ctx.db = "Open_vSwitch";
    if (command->needs_db && n_args > 0) {
        struct jsonrpc_msg *reply;
        size_t i;

        /* A first argument that names a database on the server is one. */
        error = jsonrpc_transact_block(ctx.rpc,
                                       jsonrpc_create_request("list_dbs",
                                                              json_array(),
                                                              NULL),
                                       &reply);
        if (error) {
            util_fatal(error, "%s: list_dbs failed", server);
        }
        for (i = 0; reply->result && i < json_array_size(reply->result);
             i++) {
            const json_t *name = json_array_get(reply->result, i);

            if (json_is_string(name)
                && !strcmp(json_string_value(name), args[0])) {
                ctx.db = args[0];
                args++;
                n_args--;
                break;
            }
        }
        jsonrpc_msg_destroy(reply);
    }
    if (n_args < command->min_args || n_args > command->max_args) {
        util_fatal(0, "invalid syntax for '%s' (use --help for help)",
                   command->name);
    }
    ctx.argc = n_args;
    ctx.argv = args;
    command->handler(&ctx);

    jsonrpc_close(ctx.rpc);
    free(server);
    return 0;
}

static void
parse_options(int argc, char *argv[])
{
    enum {
        OPT_NO_HEADINGS = UCHAR_MAX + 1,
        OPT_TIMESTAMP,
        STREAM_SSL_OPTION_ENUMS,
        DAEMON_OPTION_ENUMS,
        VLOG_OPTION_ENUMS,
    };
    static const struct option long_options[] = {
        {"format", required_argument, NULL, 'f'},
        {"no-headings", no_argument, NULL, OPT_NO_HEADINGS},
        {"timestamp", no_argument, NULL, OPT_TIMESTAMP},
        {"timeout", required_argument, NULL, 't'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        STREAM_SSL_LONG_OPTIONS,
        DAEMON_LONG_OPTIONS,
        VLOG_LONG_OPTIONS,
        {NULL, 0, NULL, 0},
    };

    for (;;) {
        int c = getopt_long(argc, argv, "f:t:p:c:C:hVv::", long_options,
                            NULL);

        if (c == -1) {
            break;
        }
        switch (c) {
        case 'f':
            if (!strcmp(optarg, "table")) {
                format = TABLE_FORMAT_TABLE;
            } else if (!strcmp(optarg, "list")) {
                format = TABLE_FORMAT_LIST;
            } else if (!strcmp(optarg, "csv")) {
                format = TABLE_FORMAT_CSV;
            } else if (!strcmp(optarg, "json")) {
                format = TABLE_FORMAT_JSON;
            } else {
                util_fatal(0, "unknown output format \"%s\"", optarg);
            }
            break;

        case OPT_NO_HEADINGS:
            headings = false;
            break;

        case OPT_TIMESTAMP:
            timestamp = true;
            break;

        case 't':
            if (!util_str_to_int(optarg, 10, &timeout_secs)
                || timeout_secs < 0) {
                util_fatal(0, "value %s on -t or --timeout is invalid",
                           optarg);
            }
            break;

        case 'h':
            usage();

        case 'V':
            util_print_version();
            exit(EXIT_SUCCESS);

        STREAM_SSL_OPTION_HANDLERS
        DAEMON_OPTION_HANDLERS
        VLOG_OPTION_HANDLERS

        case '?':
            exit(EXIT_FAILURE);

        default:
            abort();
        }
    }
}

static void
usage(void)
{
    printf("%s: Open vSwitch database JSON-RPC client\n"
           "usage: %s [OPTIONS] COMMAND [ARG...]\n\n"
           "Valid commands are:\n\n"
           "  list-dbs [SERVER]\n"
           "  get-schema [SERVER] [DATABASE]\n"
           "  get-schema-version [SERVER] [DATABASE]\n"
           "  get-schema-cksum [SERVER] [DATABASE]\n"
           "  list-tables [SERVER] [DATABASE]\n"
           "  list-columns [SERVER] [DATABASE] [TABLE]\n"
           "  transact [SERVER] TRANSACTION\n"
           "  query [SERVER] TRANSACTION\n"
           "  dump [SERVER] [DATABASE] [TABLE [COLUMN]...]\n"
           "  monitor [SERVER] [DATABASE] TABLE [COLUMN,...]...\n"
           "  monitor [SERVER] [DATABASE] ALL\n"
           "  monitor-cond [SERVER] [DATABASE] CONDITION TABLE "
           "[COLUMN,...]...\n"
           "  convert [SERVER] SCHEMA\n"
           "  needs-conversion [SERVER] SCHEMA\n"
           "  lock [SERVER] LOCK\n"
           "  steal [SERVER] LOCK\n"
           "  unlock [SERVER] LOCK\n\n"
           "The default SERVER is unix:%s/db.sock.\n"
           "The default DATABASE is Open_vSwitch.\n\n"
           "Output formatting options:\n"
           "  -f, --format=FORMAT     table, list, csv or json\n"
           "  --no-headings           omit table headings\n"
           "  --timestamp             timestamp \"monitor\" output\n",
           util_program_name(), util_program_name(), dirs_rundir());
    daemon_usage();
    vlog_usage();
    printf("\nOther options:\n"
           "  -t, --timeout=SECS      limit runtime to SECS seconds\n"
           "  -h, --help              display this help message\n"
           "  -V, --version           display version information\n");
    exit(EXIT_SUCCESS);
}

/* ------------------------------------------------------------------------
 * Talking to the server.
 * ------------------------------------------------------------------------ */

/* Sends request 'method' with 'params' (consumed) and returns the result,
 * exiting with a message on failure. */
static json_t *request__(struct context *, const char *method, json_t *params,
                         const char *what);

static json_t *
request(struct context *ctx, const char *method, json_t *params)
{
    return request__(ctx, method, params, method);
}

/* Like request(), with 'what' in place of the method in the message for an
 * error reply ("WHAT returned error: ..."). */
static json_t *
request__(struct context *ctx, const char *method, json_t *params,
          const char *what)
{
    struct jsonrpc_msg *reply;
    json_t *result;
    int error;

    error = jsonrpc_transact_block(ctx->rpc,
                                   jsonrpc_create_request(method, params,
                                                          NULL), &reply);
    if (error) {
        util_fatal(0, "transaction failed (%s)",
                   error == EOF ? "End of file" : util_strerror(error));
    }
    if (reply->error) {
        char *s = ovsdb_json_to_string(reply->error, OVSDB_JSON_SORT);

        util_fatal(0, "%s returned error: %s", what, s);
    }
    result = json_incref(reply->result);
    jsonrpc_msg_destroy(reply);
    return result;
}

static struct ovsdb_schema *
fetch_schema(struct context *ctx)
{
    json_t *params = json_array(), *json;
    struct ovsdb_schema *schema;
    struct ovsdb_error *error;

    json_array_append_new(params, json_string(ctx->db));
    json = request(ctx, "get_schema", params);
    error = ovsdb_schema_from_json(json, &schema);
    json_decref(json);
    if (error) {
        char *s = ovsdb_error_to_string(error);

        util_fatal(0, "%s", s);
    }
    return schema;
}

static json_t *
parse_json_arg(const char *s)
{
    struct ovsdb_error *error;
    json_t *json;

    error = ovsdb_json_from_string(s, &json);
    if (error) {
        char *msg = ovsdb_error_to_string(error);

        util_fatal(0, "%s", msg);
    }
    return json;
}

static void
print_json(const json_t *json)
{
    char *s = ovsdb_json_to_string(json, OVSDB_JSON_SORT);

    puts(s);
    fflush(stdout);
    free(s);
}

/* ------------------------------------------------------------------------
 * Tables of output.
 * ------------------------------------------------------------------------ */

/* Sets 'c' to 'datum' as text and JSON. */
static void
cell_set_datum(struct table_cell *c, const struct ovsdb_datum *datum,
               const struct ovsdb_type *type)
{
    struct ds ds = DS_EMPTY_INITIALIZER;

    ovsdb_datum_to_string(datum, type, &ds);
    table_cell_set(c, ds_cstr(&ds), NULL, ovsdb_datum_to_json(datum, type));
    ds_destroy(&ds);
}

/* Prints 't' to stdout in the format the options ask for. */
static void
print_table(const struct table *t)
{
    const struct table_style style = {
        .format = format,
        .data = TABLE_DATA_STRING,
        .headings = headings,
        .json_flags = JSONX_SHORT_REALS,
        .csv_specials = ",\"\r\n",
    };
    struct ds ds = DS_EMPTY_INITIALIZER;

    table_format(t, &style, &ds);
    fputs(ds_cstr(&ds), stdout);
    fflush(stdout);
    ds_destroy(&ds);
}

/* ------------------------------------------------------------------------
 * Commands.
 * ------------------------------------------------------------------------ */

static void
do_list_dbs(struct context *ctx)
{
    json_t *result = request(ctx, "list_dbs", json_array());
    size_t i;

    for (i = 0; i < json_array_size(result); i++) {
        const json_t *name = json_array_get(result, i);

        if (json_is_string(name)) {
            puts(json_string_value(name));
        }
    }
    json_decref(result);
}

static void
do_get_schema(struct context *ctx)
{
    struct ovsdb_schema *schema = fetch_schema(ctx);
    json_t *json = ovsdb_schema_to_json(schema);

    print_json(json);
    json_decref(json);
    ovsdb_schema_destroy(schema);
}

static void
do_get_schema_version(struct context *ctx)
{
    struct ovsdb_schema *schema = fetch_schema(ctx);

    puts(schema->version);
    ovsdb_schema_destroy(schema);
}

static void
do_get_schema_cksum(struct context *ctx)
{
    struct ovsdb_schema *schema = fetch_schema(ctx);

    puts(schema->cksum);
    ovsdb_schema_destroy(schema);
}

static void
do_list_tables(struct context *ctx)
{
    struct ovsdb_schema *schema = fetch_schema(ctx);
    struct table *t = table_create(NULL);
    size_t i;

    table_add_column(t, "Table");
    for (i = 0; i < schema->n_tables; i++) {
        table_cell_set(&table_add_row(t)[0], schema->tables[i]->name, NULL,
                       NULL);
    }
    print_table(t);
    table_destroy(t);
    ovsdb_schema_destroy(schema);
}

static void
do_list_columns(struct context *ctx)
{
    struct ovsdb_schema *schema = fetch_schema(ctx);
    const char *only = ctx->argc ? ctx->argv[0] : NULL;
    struct table *t = table_create(NULL);
    size_t i, j;

    if (only && !ovsdb_schema_find_table(schema, only)) {
        util_fatal(0, "%s does not exist", only);
    }
    j = 0;
    if (!only) {
        table_add_column(t, "Table");
    }
    table_add_column(t, "Column");
    table_add_column(t, "Type");
    for (i = 0; i < schema->n_tables; i++) {
        const struct ovsdb_table_schema *ts = schema->tables[i];
        size_t c;

        if (only && strcmp(only, ts->name)) {
            continue;
        }
        for (c = 0; c < ts->n_columns; c++) {
            const struct ovsdb_column *column = ts->columns[c];
            struct table_cell *row = table_add_row(t);
            json_t *type = ovsdb_type_to_json(&column->type);
            char *s = ovsdb_json_to_string(type, OVSDB_JSON_SORT);

            j = 0;
            if (!only) {
                table_cell_set(&row[j++], ts->name, NULL, NULL);
            }
            table_cell_set(&row[j++], column->name, NULL, NULL);
            table_cell_set(&row[j], s, NULL, type);
            free(s);
        }
    }
    print_table(t);
    table_destroy(t);
    ovsdb_schema_destroy(schema);
}

static void
transact(struct context *ctx, bool query)
{
    json_t *params = parse_json_arg(ctx->argv[0]), *result;

    if (query) {
        /* Run it, then undo it: an "abort" at the end rolls back. */
        json_t *abort_op = json_object();

        if (!json_is_array(params)) {
            util_fatal(0, "TRANSACTION must be a JSON array");
        }
        json_object_set_new(abort_op, "op", json_string("abort"));
        json_array_append_new(params, abort_op);
    }
    result = request(ctx, "transact", params);
    if (query && json_is_array(result) && json_array_size(result)) {
        /* Drop the result of the "abort". */
        json_array_remove(result, json_array_size(result) - 1);
    }
    print_json(result);
    json_decref(result);
}

static void
do_transact(struct context *ctx)
{
    transact(ctx, false);
}

static void
do_query(struct context *ctx)
{
    transact(ctx, true);
}

/* Compares rows of a dump by their cells, _uuid (the first) last. */
static size_t dump_n_columns;

static int
compare_rows(const void *a_, const void *b_)
{
    const struct table_cell *a = a_, *b = b_;
    size_t i;

    for (i = 1; i <= dump_n_columns; i++) {
        size_t j = i % dump_n_columns;
        int cmp = strcmp(a[j].text, b[j].text);

        if (cmp) {
            return cmp;
        }
    }
    return 0;
}

static void
dump_table(struct context *ctx, const struct ovsdb_table_schema *ts,
           char **names, int n_names)
{
    const struct ovsdb_column **columns;
    json_t *params = json_array(), *op = json_object(), *cols, *result;
    const json_t *rows;
    struct table *t;
    size_t n = 0, i, j;
    char *caption;

    columns = xcalloc(ts->n_columns + n_names + 1, sizeof *columns);
    if (n_names) {
        for (i = 0; i < (size_t) n_names; i++) {
            columns[n] = ovsdb_table_schema_find_column(ts, names[i]);
            if (!columns[n]) {
                util_fatal(0, "%s does not contain a column whose name "
                           "matches \"%s\"", ts->name, names[i]);
            }
            n++;
        }
    } else {
        for (i = 0; i < ts->n_columns; i++) {
            if (i != OVSDB_COL_VERSION) {
                columns[n++] = ts->columns[i];
            }
        }
    }

    cols = json_array();
    for (i = 0; i < n; i++) {
        json_array_append_new(cols, json_string(columns[i]->name));
    }
    json_object_set_new(op, "op", json_string("select"));
    json_object_set_new(op, "table", json_string(ts->name));
    json_object_set_new(op, "where", json_array());
    json_object_set_new(op, "columns", cols);
    json_array_append_new(params, json_string(ctx->db));
    json_array_append_new(params, op);
    result = request(ctx, "transact", params);
    rows = json_object_get(json_array_get(result, 0), "rows");
    if (!json_is_array(rows)) {
        char *s = ovsdb_json_to_string(result, OVSDB_JSON_SORT);

        util_fatal(0, "select failed: %s", s);
    }

    caption = xasprintf("%s table", ts->name);
    t = table_create(caption);
    free(caption);
    for (j = 0; j < n; j++) {
        table_add_column(t, columns[j]->name);
    }
    for (i = 0; i < json_array_size(rows); i++) {
        const json_t *row_json = json_array_get(rows, i);
        struct table_cell *row = table_add_row(t);

        for (j = 0; j < n; j++) {
            const struct ovsdb_column *column = columns[j];
            struct ovsdb_datum datum;
            struct ovsdb_error *error;

            error = ovsdb_datum_from_json(&datum, &column->type,
                                          json_object_get(row_json,
                                                          column->name),
                                          NULL);
            if (error) {
                char *s = ovsdb_error_to_string(error);

                util_fatal(0, "%s", s);
            }
            cell_set_datum(&row[j], &datum, &column->type);
            ovsdb_datum_destroy(&datum, &column->type);
        }
    }
    dump_n_columns = n;
    if (n && t->n_rows) {
        qsort(t->cells, t->n_rows, n * sizeof *t->cells, compare_rows);
    }
    print_table(t);
    table_destroy(t);
    json_decref(result);
    free(columns);
}

static void
do_dump(struct context *ctx)
{
    struct ovsdb_schema *schema = fetch_schema(ctx);
    size_t i;

    if (ctx->argc) {
        const struct ovsdb_table_schema *ts;

        ts = ovsdb_schema_find_table(schema, ctx->argv[0]);
        if (!ts) {
            util_fatal(0, "No table \"%s\" found.", ctx->argv[0]);
        }
        dump_table(ctx, ts, ctx->argv + 1, ctx->argc - 1);
    } else {
        for (i = 0; i < schema->n_tables; i++) {
            if (i && format == TABLE_FORMAT_TABLE) {
                putchar('\n');
            }
            dump_table(ctx, schema->tables[i], NULL, 0);
        }
    }
    ovsdb_schema_destroy(schema);
}

/* Waits for the next message from the server, like jsonrpc_recv_block(),
 * but letting fatal signals (SIGTERM...) end the program cleanly. */
static int
recv_msg(struct context *ctx, struct jsonrpc_msg **msgp)
{
    for (;;) {
        int error;

        fatal_signal_run();
        jsonrpc_run(ctx->rpc);
        error = jsonrpc_recv(ctx->rpc, msgp);
        if (error != EAGAIN) {
            return error;
        }
        jsonrpc_wait(ctx->rpc);
        jsonrpc_recv_wait(ctx->rpc);
        fatal_signal_wait();
        poll_block();
    }
}

/* Goes into the background if --detach asked for it.  The output of
 * "monitor" and "lock" is the point of running them, so stdout stays
 * where the user sent it rather than going to /dev/null. */
static void
daemonize_keeping_stdout(void)
{
    int saved = dup(STDOUT_FILENO);

    fflush(stdout);
    daemon_start();
    daemon_complete();
    if (saved >= 0) {
        dup2(saved, STDOUT_FILENO);
        close(saved);
    }
}

/* One monitored table of "monitor". */
struct monitored {
    const struct ovsdb_table_schema *ts;
    const struct ovsdb_column **columns;
    size_t n_columns;
};

static void
print_updates(const struct monitored *tables, size_t n_tables,
              const json_t *updates, bool initial)
{
    /* As Open vSwitch's client prints them: each table that has rows,
     * separated from the previous one by a blank line, preceded by the time
     * with --timestamp and, when several tables are monitored, by its
     * name. */
    static unsigned int n_printed;
    size_t k;

    for (k = 0; k < n_tables; k++) {
        const struct monitored *mt = &tables[k];
        const json_t *table_updates = json_object_get(updates, mt->ts->name);
        char *caption;
        const char *uuid;
        json_t *update;
        struct table *t;
        size_t j;

        if (!table_updates || !json_object_size(table_updates)) {
            continue;
        }
        caption = n_tables > 1 ? xstrdup(mt->ts->name) : NULL;
        t = table_create(caption);
        free(caption);
        table_add_column(t, "row");
        table_add_column(t, "action");
        for (j = 0; j < mt->n_columns; j++) {
            table_add_column(t, mt->columns[j]->name);
        }
        json_object_foreach ((json_t *) table_updates, uuid, update) {
            const json_t *old = json_object_get(update, "old");
            const json_t *new = json_object_get(update, "new");
            const char *kind2 = NULL;
            int pass;

            /* <row-update2>: one member naming the kind of change. */
            if (!old && !new && json_object_size(update) == 1) {
                void *iter = json_object_iter((json_t *) update);

                kind2 = json_object_iter_key(iter);
                new = json_object_iter_value(iter);
            }
            for (pass = 0; pass < 2; pass++) {
                const json_t *row = pass ? new : old;
                const char *action;
                struct table_cell *cells;

                if (!row) {
                    continue;
                }
                action = (kind2 ? kind2
                          : initial ? "initial"
                          : old && new ? (pass ? "new" : "old")
                          : new ? "insert" : "delete");
                cells = table_add_row(t);
                table_cell_set(&cells[0], pass && old ? "" : uuid, NULL,
                               NULL);
                table_cell_set(&cells[1], action, NULL, NULL);
                for (j = 0; j < mt->n_columns; j++) {
                    const struct ovsdb_column *column = mt->columns[j];
                    const json_t *value = json_object_get(row, column->name);
                    struct ovsdb_datum datum;

                    struct ovsdb_type type = column->type;

                    /* A "modify" carries differences, which need not fit
                     * the column's bounds. */
                    type.n_min = 0;
                    type.n_max = MAX(type.n_max, OVSDB_UNLIMITED);
                    if (!value || ovsdb_datum_from_json(&datum, &type,
                                                        value, NULL)) {
                        table_cell_set(&cells[j + 2], "", NULL, json_null());
                        continue;
                    }
                    cell_set_datum(&cells[j + 2], &datum, &column->type);
                    ovsdb_datum_destroy(&datum, &column->type);
                }
            }
        }
        if (format == TABLE_FORMAT_TABLE && n_printed++) {
            putchar('\n');
        }
        if (timestamp) {
            struct ds ds = DS_EMPTY_INITIALIZER;

            ds_put_strftime(&ds, "%Y-%m-%d %H:%M:%S.###", time_wall_msec(),
                            true);
            puts(ds_cstr(&ds));
            ds_destroy(&ds);
        }
        print_table(t);
        table_destroy(t);
    }
    fflush(stdout);
}

static void
monitor(struct context *ctx, const json_t *condition)
{
    struct ovsdb_schema *schema = fetch_schema(ctx);
    struct monitored *tables;
    size_t n_tables = 0, i;
    json_t *params, *requests, *initial;

    tables = xcalloc(schema->n_tables + ctx->argc + 1, sizeof *tables);
    requests = json_object();
    if (!strcmp(ctx->argv[0], "ALL")) {
        for (i = 0; i < schema->n_tables; i++) {
            const struct ovsdb_table_schema *ts = schema->tables[i];
            struct monitored *mt = &tables[n_tables++];
            size_t c;

            json_t *request = json_object(), *cols = json_array();

            mt->ts = ts;
            mt->columns = xcalloc(ts->n_columns, sizeof *mt->columns);
            for (c = OVSDB_N_HIDDEN_COLUMNS; c < ts->n_columns; c++) {
                mt->columns[mt->n_columns++] = ts->columns[c];
                json_array_append_new(cols,
                                      json_string(ts->columns[c]->name));
            }
            /* Like Open vSwitch's client: every column, then "_version",
             * named explicitly, since a request without "columns" does not
             * get "_version". */
            mt->columns[mt->n_columns++] = ts->columns[OVSDB_COL_VERSION];
            json_array_append_new(cols, json_string("_version"));
            json_object_set_new(request, "columns", cols);
            if (condition) {
                json_object_set(request, "where", (json_t *) condition);
            }
            json_object_set_new(requests, ts->name, request);
        }
    } else {
        int a;

        for (a = 0; a < ctx->argc; ) {
            const struct ovsdb_table_schema *ts;
            struct monitored *mt;
            json_t *request = json_object(), *cols = json_array();
            json_t *select = json_object();

            ts = ovsdb_schema_find_table(schema, ctx->argv[a]);
            if (!ts) {
                util_fatal(0, "%s does not contain a table named %s",
                           ctx->db, ctx->argv[a]);
            }
            a++;
            mt = &tables[n_tables++];
            mt->ts = ts;
            mt->columns = xcalloc(ts->n_columns + 1, sizeof *mt->columns);
            if (a < ctx->argc && !ovsdb_schema_find_table(schema,
                                                          ctx->argv[a])) {
                char *copy = xstrdup(ctx->argv[a++]), *save = NULL, *tok;

                for (tok = strtok_r(copy, ",", &save); tok;
                     tok = strtok_r(NULL, ",", &save)) {
                    const struct ovsdb_column *column;

                    if (tok[0] == '!') {
                        json_object_set_new(select, tok + 1, json_false());
                        continue;
                    }
                    column = ovsdb_table_schema_find_column(ts, tok);
                    if (!column) {
                        util_fatal(0, "%s does not contain a column whose "
                                   "name matches \"%s\"", ts->name, tok);
                    }
                    mt->columns[mt->n_columns++] = column;
                    json_array_append_new(cols, json_string(column->name));
                }
                free(copy);
            }
            if (!mt->n_columns) {
                size_t c;

                for (c = OVSDB_N_HIDDEN_COLUMNS; c < ts->n_columns; c++) {
                    mt->columns[mt->n_columns++] = ts->columns[c];
                    json_array_append_new(cols,
                                          json_string(ts->columns[c]->name));
                }
                mt->columns[mt->n_columns++]
                    = ts->columns[OVSDB_COL_VERSION];
                json_array_append_new(cols, json_string("_version"));
            }
            json_object_set_new(request, "columns", cols);
            if (condition) {
                json_object_set(request, "where", (json_t *) condition);
            }
            if (json_object_size(select)) {
                json_object_set_new(request, "select", select);
            } else {
                json_decref(select);
            }
            json_object_set_new(requests, ts->name, request);
        }
    }

    params = json_array();
    json_array_append_new(params, json_string(ctx->db));
    json_array_append_new(params, json_null());
    json_array_append_new(params, requests);
    initial = request(ctx, condition ? "monitor_cond" : "monitor", params);
    daemonize_keeping_stdout();
    print_updates(tables, n_tables, initial, true);
    json_decref(initial);

    for (;;) {
        struct jsonrpc_msg *msg;
        int error = recv_msg(ctx, &msg);

        if (error) {
            if (error != EOF) {
                VLOG_WARN("connection failed (%s)", util_strerror(error));
            }
            break;
        }
        if (msg->type == JSONRPC_REQUEST && !strcmp(msg->method, "echo")) {
            jsonrpc_send(ctx->rpc,
                         jsonrpc_create_reply(json_deep_copy(msg->params),
                                              msg->id));
        } else if (msg->type == JSONRPC_NOTIFY
                   && !strcmp(msg->method, condition ? "update2" : "update")
                   && json_array_size(msg->params) == 2) {
            print_updates(tables, n_tables, json_array_get(msg->params, 1),
                          false);
        }
        jsonrpc_msg_destroy(msg);
    }
    for (i = 0; i < n_tables; i++) {
        free(tables[i].columns);
    }
    free(tables);
    ovsdb_schema_destroy(schema);
}

static void
do_monitor(struct context *ctx)
{
    monitor(ctx, NULL);
}

static void
do_monitor_cond(struct context *ctx)
{
    json_t *condition = parse_json_arg(ctx->argv[0]);

    if (!json_is_array(condition)) {
        util_fatal(0, "CONDITION must be a JSON array");
    }
    ctx->argv++;
    ctx->argc--;
    monitor(ctx, condition);
    json_decref(condition);
}

static void
lock_command(struct context *ctx, const char *method)
{
    json_t *params = json_array(), *result;

    json_array_append_new(params, json_string(ctx->argv[0]));
    result = request(ctx, method, params);
    if (strcmp(method, "unlock")) {
        daemonize_keeping_stdout();
    }
    print_json(result);
    json_decref(result);
    if (!strcmp(method, "unlock")) {
        return;
    }
    /* Hold the lock (and report changes) until killed. */
    for (;;) {
        struct jsonrpc_msg *msg;

        if (recv_msg(ctx, &msg)) {
            break;
        }
        if (msg->type == JSONRPC_NOTIFY
            && (!strcmp(msg->method, "locked")
                || !strcmp(msg->method, "stolen"))) {
            printf("%s\n", msg->method);
            fflush(stdout);
        } else if (msg->type == JSONRPC_REQUEST
                   && !strcmp(msg->method, "echo")) {
            jsonrpc_send(ctx->rpc,
                         jsonrpc_create_reply(json_deep_copy(msg->params),
                                              msg->id));
        }
        jsonrpc_msg_destroy(msg);
    }
}

static void
do_lock(struct context *ctx)
{
    lock_command(ctx, "lock");
}

static void
do_steal(struct context *ctx)
{
    lock_command(ctx, "steal");
}

static void
do_unlock(struct context *ctx)
{
    lock_command(ctx, "unlock");
}

/* Reads the schema file named by the command's last argument. */
static struct ovsdb_schema *
read_schema_arg(struct context *ctx)
{
    struct ovsdb_schema *schema;
    struct ovsdb_error *error;

    error = ovsdb_schema_from_file(ctx->argv[ctx->argc - 1], &schema);
    if (error) {
        char *s = ovsdb_error_to_string(error);

        ovsdb_error_destroy(error);
        util_fatal(0, "%s", s);
    }
    return schema;
}

/* "convert [SERVER] SCHEMA": asks the server to convert the database that
 * SCHEMA names to SCHEMA.  Prints nothing on success. */
static void
do_convert(struct context *ctx)
{
    struct ovsdb_schema *schema = read_schema_arg(ctx);
    json_t *params = json_array();

    json_array_append_new(params, json_string(schema->name));
    json_array_append_new(params, ovsdb_schema_to_json(schema));
    /* Open vSwitch's wording for an error, which scripts match. */
    json_decref(request__(ctx, "convert", params, "transaction"));
    ovsdb_schema_destroy(schema);
}

/* "needs-conversion [SERVER] SCHEMA": prints "yes" if the database that
 * SCHEMA names has a different schema on the server, else "no". */
static void
do_needs_conversion(struct context *ctx)
{
    struct ovsdb_schema *schema = read_schema_arg(ctx);
    struct ovsdb_schema *current;

    ctx->db = schema->name;
    current = fetch_schema(ctx);
    puts(ovsdb_schema_equal(schema, current) ? "no" : "yes");
    ovsdb_schema_destroy(current);
    ovsdb_schema_destroy(schema);
}

static const struct command *
find_command(const char *name)
{
    static const struct command commands[] = {
        { "list-dbs", false, 0, 0, do_list_dbs },
        { "get-schema", true, 0, 0, do_get_schema },
        { "get-schema-version", true, 0, 0, do_get_schema_version },
        { "get-schema-cksum", true, 0, 0, do_get_schema_cksum },
        { "list-tables", true, 0, 0, do_list_tables },
        { "list-columns", true, 0, 1, do_list_columns },
        { "transact", false, 1, 1, do_transact },
        { "query", false, 1, 1, do_query },
        { "dump", true, 0, INT_MAX, do_dump },
        { "monitor", true, 1, INT_MAX, do_monitor },
        { "monitor-cond", true, 2, INT_MAX, do_monitor_cond },
        { "convert", false, 1, 1, do_convert },
        { "needs-conversion", false, 1, 1, do_needs_conversion },
        { "lock", false, 1, 1, do_lock },
        { "steal", false, 1, 1, do_steal },
        { "unlock", false, 1, 1, do_unlock },
    };
    size_t i;

    for (i = 0; i < ARRAY_SIZE(commands); i++) {
        if (!strcmp(commands[i].name, name)) {
            return &commands[i];
        }
    }
    return NULL;
}
