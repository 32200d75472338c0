/* ovsdb-client: a command-line client of ovsdb-server.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>

#include <ctype.h>
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
#include "file.h"
#include "log.h"
#include "ovsdb.h"
#include "ovsdb-data.h"
#include "ovsdb-error.h"
#include "ovsdb-json.h"
#include "poll-loop.h"
#include "replay.h"
#include "schema.h"
#include "stream.h"
#include "stream-ssl.h"
#include "table.h"
#include "timeval.h"
#include "util.h"
#include "uuid.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ovsdb_client);

static enum table_format format = TABLE_FORMAT_TABLE;
static enum table_data data_format = TABLE_DATA_STRING;
static int json_flags = OVSDB_JSON_SORT;
static bool headings = true;
static bool timestamp;
static bool force;
static bool leader_only = true; /* --no-leader-only clears it. */
static int timeout_secs;

/* The connection and what the command line named. */
struct context {
    struct jsonrpc *rpc;
    const char *server;         /* The server's remote, as named. */
    const char *db;             /* Database name. */
    char *db_name;              /* Owned copy of 'db', if any. */
    size_t remote;              /* Which of a list of servers 'rpc' is. */
    bool clustered;             /* 'db' is clustered there. */
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
static void do_wait(struct context *);
static void do_convert(struct context *);
static void choose_server(struct context *, bool always);
static char *restore_row_name(const char *uuid);
static struct jsonrpc *open_rpc(const char *server);
static const char *choose_db(struct context *, const char *server,
                             char ***argsp, int *n_argsp, int min_args);
static void parse_options(int argc, char *argv[]);
static void usage(void) DPS_NO_RETURN;
static void fatal_ovsdb_error(struct ovsdb_error *) DPS_NO_RETURN;

int
main(int argc, char *argv[])
{
    const struct command *command;
    struct context ctx;
    char *server;
    char **args;
    int n_args;

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

    memset(&ctx, 0, sizeof ctx);
    if (command->handler == do_wait) {
        /* "wait" parses its [SERVER] itself and keeps reconnecting. */
        if (n_args < command->min_args || n_args > command->max_args) {
            util_fatal(0, "invalid syntax for '%s' (use --help for help)",
                       command->name);
        }
        ctx.argc = n_args;
        ctx.argv = args;
        command->handler(&ctx);
        return 0;
    }

    /* As in Open vSwitch's client, a first argument is the server only if
     * the command has arguments to spare and it looks like "method:...". */
    if (n_args > command->min_args
        && isalpha((unsigned char) args[0][0]) && strchr(args[0], ':')) {
        server = xstrdup(args[0]);
        args++;
        n_args--;
    } else {
        server = xasprintf("unix:%s/db.sock", dirs_rundir());
    }

    ctx.server = server;
    ctx.rpc = open_rpc(server);
    if (command->needs_db) {
        ctx.db = choose_db(&ctx, server, &args, &n_args,
                           command->min_args);
        choose_server(&ctx, false);
    }
    if (n_args < command->min_args || n_args > command->max_args) {
        util_fatal(0, "invalid syntax for '%s' (use --help for help)",
                   command->name);
    }
    ctx.argc = n_args;
    ctx.argv = args;
    command->handler(&ctx);

    jsonrpc_close(ctx.rpc);
    free(ctx.db_name);
    free(server);
    return 0;
}

/* Connects to the first server of the comma-separated list 'server',
 * from the '*ip'th on, that answers, and stores its index in '*ip'.
 * Returns NULL if none does. */
static struct jsonrpc *
open_rpc_from(const char *server, size_t *ip)
{
    char *copy = xstrdup(server), *save = NULL, *r;
    struct stream *stream = NULL;
    size_t i = 0;

    for (r = strtok_r(copy, ",", &save); r && !stream;
         r = strtok_r(NULL, ",", &save), i++) {
        if (i >= *ip
            && !stream_open_block(stream_open(r, &stream), -1, &stream)) {
            *ip = i;
        } else {
            stream = NULL;
        }
    }
    free(copy);
    return stream ? jsonrpc_open(stream) : NULL;
}

/* Connects to 'server', exiting with Open vSwitch's message on failure.
 * 'server' may be a comma-separated list (the servers of a cluster): the
 * first that answers, for now (see choose_server()). */
static struct jsonrpc *
open_rpc(const char *server)
{
    struct stream *stream = NULL;
    int error = ENOENT;

    if (strchr(server, ',')) {
        size_t i = 0;
        struct jsonrpc *rpc = open_rpc_from(server, &i);

        if (!rpc) {
            util_fatal(0, "no servers were available");
        }
        return rpc;
    } else {
        error = stream_open_block(stream_open(server, &stream), -1, &stream);
    }
    if (error) {
        util_fatal(0, "failed to connect to \"%s\" (%s)", server,
                   error == EOF ? "End of file" : util_strerror(error));
    }
    return jsonrpc_open(stream);
}

/* Returns the names of the databases on the server of 'ctx'. */
static json_t *
fetch_dbs(struct context *ctx, const char *server)
{
    struct jsonrpc_msg *reply;
    json_t *dbs;
    int error;

    error = jsonrpc_transact_block(ctx->rpc,
                                   jsonrpc_create_request("list_dbs",
                                                          json_array(),
                                                          NULL), &reply);
    if (error) {
        util_fatal(error, "%s: list_dbs failed", server);
    }
    dbs = json_is_array(reply->result) ? json_incref(reply->result)
                                       : json_array();
    jsonrpc_msg_destroy(reply);
    return dbs;
}

static bool
dbs_contain(const json_t *dbs, const char *name)
{
    size_t i;

    for (i = 0; i < json_array_size(dbs); i++) {
        const json_t *db = json_array_get(dbs, i);

        if (json_is_string(db) && !strcmp(json_string_value(db), name)) {
            return true;
        }
    }
    return false;
}

/* Picks the database of a command that takes [DATABASE], as Open vSwitch's
 * client does: the first of the '*n_argsp' arguments '*argsp' if the
 * command has arguments to spare and the server has a database of that
 * name (consuming it), otherwise "Open_vSwitch" if the server has it,
 * otherwise the server's only database whose name does not begin with
 * "_".  Exits if there is none.  Returns the name, which 'ctx' owns. */
static const char *
choose_db(struct context *ctx, const char *server, char ***argsp,
          int *n_argsp, int min_args)
{
    json_t *dbs = fetch_dbs(ctx, server);
    const char *best = NULL;
    size_t i, n = 0;

    if (*n_argsp > min_args && dbs_contain(dbs, (*argsp)[0])) {
        best = (*argsp)[0];
        (*argsp)++;
        (*n_argsp)--;
    } else if (dbs_contain(dbs, "Open_vSwitch")) {
        best = "Open_vSwitch";
    } else {
        for (i = 0; i < json_array_size(dbs); i++) {
            const char *name = json_string_value(json_array_get(dbs, i));

            if (name && name[0] != '_') {
                best = name;
                n++;
            }
        }
        if (n != 1) {
            util_fatal(0, "could not find a default database, please "
                       "specify a database name");
        }
    }
    ctx->db_name = xstrdup(best);
    json_decref(dbs);
    return ctx->db_name;
}

/* Whether the server of 'ctx' will do for its database, by its "_Server"
 * row, as Open vSwitch's ovsdb-client asks: for a 'list' of servers, a
 * clustered database must be connected to its cluster and, unless
 * --no-leader-only, be its leader.  Notes whether it is clustered.  A
 * server without "_Server" will do. */
static bool
server_will_do(struct context *ctx, bool list)
{
    json_t *params = json_pack("[s,{s:[[s,s,s]],s:s,s:s}]", "_Server",
                               "where", "name", "==", ctx->db, "op",
                               "select", "table", "Database");
    const json_t *row;
    struct jsonrpc_msg *reply;
    const char *model;
    bool ok = true;
    int error;

    error = jsonrpc_transact_block(ctx->rpc,
                                   jsonrpc_create_request("transact", params,
                                                          NULL), &reply);
    if (error) {
        if (list) {
            return false;
        }
        util_fatal(0, "transaction failed (%s)",
                   error == EOF ? "End of file" : util_strerror(error));
    }
    row = json_array_get(json_object_get(json_array_get(reply->result, 0),
                                         "rows"), 0);
    model = json_string_value(json_object_get(row, "model"));
    ctx->clustered = model && !strcmp(model, "clustered");
    if (list && ctx->clustered) {
        ok = (json_is_true(json_object_get(row, "connected"))
              && (!leader_only
                  || json_is_true(json_object_get(row, "leader"))));
    }
    jsonrpc_msg_destroy(reply);
    return ok;
}

/* Given a list of servers, moves on from the one 'ctx' is connected to
 * until one will do for its database (server_will_do()), or exits with
 * Open vSwitch's "no servers were available".  With one server, asks only
 * if 'always'. */
static void
choose_server(struct context *ctx, bool always)
{
    bool list = strchr(ctx->server, ',') != NULL;

    if (!list && !always) {
        return;
    }
    while (!server_will_do(ctx, list)) {
        jsonrpc_close(ctx->rpc);
        ctx->remote++;
        ctx->rpc = open_rpc_from(ctx->server, &ctx->remote);
        if (!ctx->rpc) {
            util_fatal(0, "no servers were available");
        }
    }
}

static void
parse_options(int argc, char *argv[])
{
    enum {
        OPT_NO_HEADINGS = UCHAR_MAX + 1,
        OPT_TIMESTAMP,
        OPT_PRETTY,
        OPT_BARE,
        OPT_FORCE,
        OPT_NO_LEADER_ONLY,
        STREAM_SSL_OPTION_ENUMS,
        DAEMON_OPTION_ENUMS,
        VLOG_OPTION_ENUMS,
        REPLAY_OPTION_ENUMS,
    };
    static const struct option long_options[] = {
        {"format", required_argument, NULL, 'f'},
        {"data", required_argument, NULL, 'd'},
        {"no-headings", no_argument, NULL, OPT_NO_HEADINGS},
        {"pretty", no_argument, NULL, OPT_PRETTY},
        {"bare", no_argument, NULL, OPT_BARE},
        {"force", no_argument, NULL, OPT_FORCE},
        {"no-leader-only", no_argument, NULL, OPT_NO_LEADER_ONLY},
        {"timestamp", no_argument, NULL, OPT_TIMESTAMP},
        {"timeout", required_argument, NULL, 't'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        STREAM_SSL_LONG_OPTIONS,
        DAEMON_LONG_OPTIONS,
        VLOG_LONG_OPTIONS,
        REPLAY_LONG_OPTIONS,
        {NULL, 0, NULL, 0},
    };

    for (;;) {
        int c = getopt_long(argc, argv, "f:d:t:p:c:C:hVv::", long_options,
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
            } else if (!strcmp(optarg, "html")) {
                format = TABLE_FORMAT_HTML;
            } else {
                util_fatal(0, "unknown output format \"%s\"", optarg);
            }
            break;

        case 'd':
            if (!strcmp(optarg, "string")) {
                data_format = TABLE_DATA_STRING;
            } else if (!strcmp(optarg, "bare")) {
                data_format = TABLE_DATA_BARE;
            } else if (!strcmp(optarg, "json")) {
                data_format = TABLE_DATA_JSON;
            } else {
                util_fatal(0, "unknown data format \"%s\"", optarg);
            }
            break;

        case OPT_PRETTY:
            json_flags |= OVSDB_JSON_PRETTY;
            break;

        case OPT_FORCE:
            force = true;
            break;

        case OPT_NO_LEADER_ONLY:
            leader_only = false;
            break;

        case OPT_BARE:
            format = TABLE_FORMAT_LIST;
            data_format = TABLE_DATA_BARE;
            headings = false;
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
        REPLAY_OPTION_HANDLERS

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
           "  monitor-cond-since [SERVER] [DATABASE] [LASTID] CONDITION "
           "TABLE [COLUMN,...]...\n"
           "  wait [SERVER] DATABASE STATE\n"
           "    (STATE is \"added\", \"connected\" or \"removed\")\n"
           "  backup [SERVER] [DATABASE] > SNAPSHOT\n"
           "  [--force] restore [SERVER] [DATABASE] < SNAPSHOT\n"
           "  lock [SERVER] LOCK\n"
           "  steal [SERVER] LOCK\n"
           "  unlock [SERVER] LOCK\n\n"
           "The default SERVER is unix:%s/db.sock.\n"
           "The default DATABASE is Open_vSwitch.\n\n"
           "Output formatting options:\n"
           "  -f, --format=FORMAT     table, list, html, csv or json\n"
           "  -d, --data=FORMAT       cells as string, bare or json\n"
           "  --no-headings           omit table headings\n"
           "  --pretty                pretty-print JSON in output\n"
           "  --bare                  --format=list --data=bare "
           "--no-headings\n"
           "  --timestamp             timestamp \"monitor\" output\n",
           util_program_name(), util_program_name(), dirs_rundir());
    daemon_usage();
    vlog_usage();
    replay_usage();
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

/* Exits with 'error''s message.  The message stays reachable from a static
 * and 'error' is freed, so that a fatal error is no leak for LeakSanitizer. */
static void
fatal_ovsdb_error(struct ovsdb_error *error)
{
    static char *message;

    message = ovsdb_error_to_string(error);
    ovsdb_error_destroy(error);
    util_fatal(0, "%s", message);
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
        fatal_ovsdb_error(error);
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
        fatal_ovsdb_error(error);
    }
    return json;
}

static void
print_json(const json_t *json)
{
    char *s = ovsdb_json_to_string(json, json_flags);

    puts(s);
    fflush(stdout);
    free(s);
}

/* ------------------------------------------------------------------------
 * Tables of output.
 * ------------------------------------------------------------------------ */

/* Sets 'cell' to 'datum' of 'type' in each data form (--data). */
static void
cell_set_datum(struct table_cell *cell, const struct ovsdb_datum *datum,
               const struct ovsdb_type *type)
{
    struct ds text = DS_EMPTY_INITIALIZER;
    struct ds bare = DS_EMPTY_INITIALIZER;

    ovsdb_datum_to_string(datum, type, &text);
    ovsdb_datum_to_bare(datum, type, &bare);
    table_cell_set(cell, ds_cstr(&text), ds_cstr(&bare),
                   ovsdb_datum_to_json(datum, type));
    ds_destroy(&text);
    ds_destroy(&bare);
}

/* Whether consecutive tables of output have a blank line between them. */
static bool
format_separates_tables(void)
{
    return format != TABLE_FORMAT_JSON && format != TABLE_FORMAT_HTML;
}

/* Prints 't' in the format the options ask for. */
static void
table_print(const struct table *t)
{
    const struct table_style style = {
        .format = format,
        .data = data_format,
        .headings = headings,
        .pretty = (json_flags & OVSDB_JSON_PRETTY) != 0,
        .json_flags = JSONX_SHORT_REALS,
        .csv_specials = NULL,
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

static int
compare_strings(const void *a_, const void *b_)
{
    const char *const *a = a_;
    const char *const *b = b_;

    return strcmp(*a, *b);
}

static void
do_list_dbs(struct context *ctx)
{
    json_t *result = request(ctx, "list_dbs", json_array());
    const char **names = xcalloc(json_array_size(result) + 1, sizeof *names);
    size_t n = 0, i;

    for (i = 0; i < json_array_size(result); i++) {
        const json_t *name = json_array_get(result, i);

        if (json_is_string(name)) {
            names[n++] = json_string_value(name);
        }
    }
    /* Sorted, as Open vSwitch's client prints them whatever the server's
     * order. */
    qsort(names, n, sizeof *names, compare_strings);
    for (i = 0; i < n; i++) {
        puts(names[i]);
    }
    free(names);
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

    /* In Open vSwitch's order, which its client prints. */
    table_add_column(t, "Table");
    for (i = 0; i < schema->n_tables; i++) {
        table_cell_set_fixed(&table_add_row(t)[0],
                             schema->tables[schema->ovs_order[i]]->name, NULL);
    }
    table_print(t);
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
    /* Tables and columns in Open vSwitch's order, which its client
     * prints. */
    for (i = 0; i < schema->n_tables; i++) {
        const struct ovsdb_table_schema *ts
            = schema->tables[schema->ovs_order[i]];
        size_t c;

        if (only && strcmp(only, ts->name)) {
            continue;
        }
        for (c = 0; c < ts->n_columns; c++) {
            const struct ovsdb_column *column = ts->columns[ts->ovs_order[c]];
            struct table_cell *row = table_add_row(t);
            json_t *type = ovsdb_type_to_json(&column->type);
            char *s = ovsdb_json_to_string(type, OVSDB_JSON_SORT);

            j = 0;
            if (!only) {
                table_cell_set_fixed(&row[j++], ts->name, NULL);
            }
            table_cell_set_fixed(&row[j++], column->name, NULL);
            table_cell_set_fixed(&row[j], s, type);
            free(s);
        }
    }
    table_print(t);
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
    result = request__(ctx, "transact", params, "transaction");
    if (query && json_is_array(result) && json_array_size(result)
        && !json_is_null(json_array_get(result,
                                        json_array_size(result) - 1))) {
        /* Drop the result of our "abort", as Open vSwitch's client does;
         * if an earlier operation failed, it did not run and its null
         * stays. */
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

/* The columns of the table being dumped, for compare_dump_rows(). */
static const struct ovsdb_column **dump_columns;
static size_t dump_n_columns;

/* Compares two rows of a dump (arrays of datums, one per dump column) as
 * Open vSwitch's client does: column by column in the dump's order, with
 * "_uuid" last. */
static int
compare_dump_rows(const void *a_, const void *b_)
{
    struct ovsdb_datum *const *a = a_, *const *b = b_;
    size_t uuid_column = SIZE_MAX, i;
    int cmp;

    for (i = 0; i < dump_n_columns; i++) {
        if (!strcmp(dump_columns[i]->name, "_uuid")) {
            uuid_column = i;
            continue;
        }
        cmp = ovsdb_datum_compare_ovs(&(*a)[i], &(*b)[i],
                                      &dump_columns[i]->type);
        if (cmp) {
            return cmp;
        }
    }
    return (uuid_column == SIZE_MAX ? 0
            : ovsdb_datum_compare_ovs(&(*a)[uuid_column], &(*b)[uuid_column],
                                      &dump_columns[uuid_column]->type));
}

static int
compare_columns_by_name(const void *a_, const void *b_)
{
    const struct ovsdb_column *const *a = a_, *const *b = b_;

    return strcmp((*a)->name, (*b)->name);
}

/* Prints the rows of table 'ts', in the columns 'names' (all but
 * "_version" if 'n_names' is 0), as Open vSwitch's client does: columns in
 * order of their names, rows sorted by their values, and rows that look
 * the same in those columns printed once. */
static void
dump_table(struct context *ctx, const struct ovsdb_table_schema *ts,
           char **names, int n_names)
{
    const struct ovsdb_column **columns;
    json_t *params = json_array(), *op = json_object(), *cols, *result;
    struct ovsdb_datum **data;
    const json_t *rows;
    struct table *t;
    size_t n = 0, n_rows, i, j;
    char *caption;

    columns = xcalloc(ts->n_columns + n_names + 1, sizeof *columns);
    if (n_names) {
        for (i = 0; i < (size_t) n_names; i++) {
            columns[n] = ovsdb_table_schema_find_column(ts, names[i]);
            if (!columns[n]) {
                util_fatal(0, "%s does not contain a column whose name "
                           "matches \"%s\"", ts->name, names[i]);
            }
            /* Open vSwitch's client never dumps "_version". */
            if (columns[n]->index != OVSDB_COL_VERSION) {
                n++;
            }
        }
    } else {
        for (i = 0; i < ts->n_columns; i++) {
            if (i != OVSDB_COL_VERSION) {
                columns[n++] = ts->columns[i];
            }
        }
    }
    qsort(columns, n, sizeof *columns, compare_columns_by_name);

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

    n_rows = json_array_size(rows);
    data = xcalloc(n_rows + 1, sizeof *data);
    for (i = 0; i < n_rows; i++) {
        const json_t *row_json = json_array_get(rows, i);

        data[i] = xcalloc(n + 1, sizeof **data);
        for (j = 0; j < n; j++) {
            struct ovsdb_error *error;

            error = ovsdb_datum_from_json(&data[i][j], &columns[j]->type,
                                          json_object_get(row_json,
                                                          columns[j]->name),
                                          NULL);
            if (error) {
                fatal_ovsdb_error(error);
            }
        }
    }
    dump_columns = columns;
    dump_n_columns = n;
    if (n_rows) {
        qsort(data, n_rows, sizeof *data, compare_dump_rows);
    }

    caption = xasprintf("%s table", ts->name);
    t = table_create(caption);
    free(caption);
    for (j = 0; j < n; j++) {
        table_add_column(t, columns[j]->name);
    }
    for (i = 0; i < n_rows; i++) {
        if (!i || compare_dump_rows(&data[i - 1], &data[i])) {
            struct table_cell *row = table_add_row(t);

            for (j = 0; j < n; j++) {
                cell_set_datum(&row[j], &data[i][j], &columns[j]->type);
            }
        }
    }
    table_print(t);
    table_destroy(t);
    for (i = 0; i < n_rows; i++) {
        for (j = 0; j < n; j++) {
            ovsdb_datum_destroy(&data[i][j], &columns[j]->type);
        }
        free(data[i]);
    }
    free(data);
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
            if (i && format_separates_tables()) {
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

/* How many tables "monitor" printed, and whether the next one follows a
 * line that already separates it from the previous one. */
static unsigned int n_tables_printed;
static bool separated;

/* Starts a new table of "monitor" output with a blank line, unless it is
 * the first. */
static void
put_table_separator(void)
{
    if (format_separates_tables() && n_tables_printed++ && !separated) {
        putchar('\n');
    }
    separated = false;
}

static void
print_updates(const struct monitored *tables, size_t n_tables,
              const json_t *updates, bool initial)
{
    /* As Open vSwitch's client prints them: each table that has rows,
     * separated from the previous one by a blank line, preceded by the time
     * with --timestamp and, when several tables are monitored, by its
     * name. */
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
                table_cell_set_fixed(&cells[0], pass && old ? "" : uuid,
                                     NULL);
                table_cell_set_fixed(&cells[1], action, NULL);
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
                        table_cell_set_fixed(&cells[j + 2], "",
                                             json_null());
                        continue;
                    }
                    cell_set_datum(&cells[j + 2], &datum, &column->type);
                    ovsdb_datum_destroy(&datum, &column->type);
                }
            }
        }
        put_table_separator();
        if (timestamp) {
            struct ds ds = DS_EMPTY_INITIALIZER;

            ds_put_strftime(&ds, "%Y-%m-%d %H:%M:%S.###", time_wall_msec(),
                            true);
            puts(ds_cstr(&ds));
            ds_destroy(&ds);
        }
        table_print(t);
        table_destroy(t);
    }
    fflush(stdout);
}

/* Adds every column of 'mt''s table to 'mt' and their names to 'cols':
 * like Open vSwitch's client, the schema's columns and then "_version",
 * named explicitly, since a request without "columns" does not get
 * "_version". */
static void
monitor_every_column(struct monitored *mt, json_t *cols)
{
    const struct ovsdb_table_schema *ts = mt->ts;
    size_t c;

    for (c = OVSDB_N_HIDDEN_COLUMNS; c < ts->n_columns; c++) {
        mt->columns[mt->n_columns++] = ts->columns[c];
        json_array_append_new(cols, json_string(ts->columns[c]->name));
    }
    mt->columns[mt->n_columns++] = ts->columns[OVSDB_COL_VERSION];
    json_array_append_new(cols, json_string("_version"));
}

/* Runs "monitor" (without 'condition'), "monitor-cond" (with it) or, if
 * 'last_id' is nonnull, "monitor-cond-since" from that transaction. */
static void
monitor(struct context *ctx, const json_t *condition, const char *last_id)
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
            json_t *request = json_object(), *cols = json_array();

            mt->ts = ts;
            mt->columns = xcalloc(ts->n_columns + 1, sizeof *mt->columns);
            monitor_every_column(mt, cols);
            json_object_set_new(request, "columns", cols);
            if (condition) {
                json_object_set(request, "where", (json_t *) condition);
            }
            json_object_set_new(requests, ts->name, request);
        }
    } else {
        /* As in Open vSwitch's client: one table, then any number of
         * comma-separated lists of its columns, "!initial", "!insert",
         * "!delete" and "!modify" turning off that kind of update. */
        const struct ovsdb_table_schema *ts;
        struct monitored *mt;
        json_t *request = json_object(), *cols = json_array();
        json_t *select = json_object();
        int a;

        ts = ovsdb_schema_find_table(schema, ctx->argv[0]);
        if (!ts) {
            util_fatal(0, "%s: %s does not have a table named \"%s\"",
                       ctx->server, ctx->db, ctx->argv[0]);
        }
        mt = &tables[n_tables++];
        mt->ts = ts;
        mt->columns = xcalloc(ts->n_columns + 1, sizeof *mt->columns);
        for (a = 1; a < ctx->argc; a++) {
            char *copy = xstrdup(ctx->argv[a]), *save = NULL, *tok;

            for (tok = strtok_r(copy, ",", &save); tok;
                 tok = strtok_r(NULL, ",", &save)) {
                const struct ovsdb_column *column;
                size_t c;

                if (tok[0] == '!') {
                    json_object_set_new(select, tok + 1, json_false());
                    continue;
                }
                column = ovsdb_table_schema_find_column(ts, tok);
                if (!column) {
                    util_fatal(0, "%s: table \"%s\" in %s does not have a "
                               "column named \"%s\"", ctx->server, ts->name,
                               ctx->db, tok);
                }
                for (c = 0; c < mt->n_columns; c++) {
                    if (mt->columns[c] == column) {
                        util_fatal(0, "%s: column \"%s\" mentioned multiple "
                                   "times", ctx->server, tok);
                    }
                }
                mt->columns[mt->n_columns++] = column;
                json_array_append_new(cols, json_string(column->name));
            }
            free(copy);
        }
        if (!mt->n_columns) {
            monitor_every_column(mt, cols);
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

    params = json_array();
    json_array_append_new(params, json_string(ctx->db));
    json_array_append_new(params, json_null());
    json_array_append_new(params, requests);
    if (last_id) {
        json_array_append_new(params, json_string(last_id));
    }
    initial = request(ctx, (last_id ? "monitor_cond_since"
                            : condition ? "monitor_cond" : "monitor"),
                      params);
    daemonize_keeping_stdout();
    if (last_id) {
        /* The reply is [found, last-txn-id, updates]. */
        const json_t *found = json_array_get(initial, 0);
        const json_t *id = json_array_get(initial, 1);

        printf("found: %s, last_id: %s\n",
               json_is_true(found) ? "true" : "false",
               json_is_string(id) ? json_string_value(id) : "");
        print_updates(tables, n_tables, json_array_get(initial, 2), true);
    } else {
        print_updates(tables, n_tables, initial, true);
    }
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
        } else if (msg->type == JSONRPC_NOTIFY && last_id
                   && !strcmp(msg->method, "update3")
                   && json_array_size(msg->params) == 3) {
            const json_t *id = json_array_get(msg->params, 1);

            /* Open vSwitch's client puts the blank line before this. */
            put_table_separator();
            n_tables_printed--;
            separated = true;
            printf("last_id: %s\n",
                   json_is_string(id) ? json_string_value(id) : "");
            print_updates(tables, n_tables, json_array_get(msg->params, 2),
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
    monitor(ctx, NULL, NULL);
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
    monitor(ctx, condition, NULL);
    json_decref(condition);
}

/* monitor-cond-since [SERVER] [DATABASE] [LASTID] CONDITION TABLE... */
static void
do_monitor_cond_since(struct context *ctx)
{
    const char *last_id = "00000000-0000-0000-0000-000000000000";
    json_t *condition;
    struct uuid uuid;

    if (ctx->argc > 2 && uuid_from_string(&uuid, ctx->argv[0])) {
        last_id = ctx->argv[0];
        ctx->argv++;
        ctx->argc--;
    }
    condition = parse_json_arg(ctx->argv[0]);
    if (!json_is_array(condition)) {
        util_fatal(0, "CONDITION must be a JSON array");
    }
    ctx->argv++;
    ctx->argc--;
    monitor(ctx, condition, last_id);
    json_decref(condition);
}

/* wait [SERVER] DATABASE STATE: waits, reconnecting as needed, until the
 * server's _Server database shows DATABASE "added", "connected" or
 * "removed", by sending the same blocking "wait" operation Open vSwitch's
 * client sends. */
static void
do_wait(struct context *ctx)
{
    const char *db = ctx->argv[ctx->argc - 2];
    const char *state = ctx->argv[ctx->argc - 1];
    char *server = (ctx->argc == 3 ? xstrdup(ctx->argv[0])
                    : xasprintf("unix:%s/db.sock", dirs_rundir()));
    json_t *rows = json_array(), *columns = json_array(), *request_id = NULL;
    struct jsonrpc_session *session;
    unsigned int seqno = 0;

    if (!strcmp(state, "added")) {
        json_array_append_new(rows, json_object());
    } else if (!strcmp(state, "connected")) {
        json_t *row = json_object();

        json_object_set_new(row, "connected", json_true());
        json_array_append_new(rows, row);
        json_array_append_new(columns, json_string("connected"));
    } else if (strcmp(state, "removed")) {
        util_fatal(0, "%s: unknown state", state);
    }

    session = jsonrpc_session_open(server, true);
    for (;;) {
        struct jsonrpc_msg *msg;

        fatal_signal_run();
        jsonrpc_session_run(session);
        if (jsonrpc_session_is_connected(session)
            && seqno != jsonrpc_session_get_seqno(session)) {
            json_t *params = json_array(), *op = json_object();
            json_t *where = json_array(), *clause = json_array();

            seqno = jsonrpc_session_get_seqno(session);
            json_array_append_new(params, json_true());
            jsonrpc_session_send(session,
                                 jsonrpc_create_request("set_db_change_aware",
                                                        params, NULL));
            json_array_append_new(clause, json_string("name"));
            json_array_append_new(clause, json_string("=="));
            json_array_append_new(clause, json_string(db));
            json_array_append_new(where, clause);
            json_object_set_new(op, "op", json_string("wait"));
            json_object_set_new(op, "table", json_string("Database"));
            json_object_set_new(op, "where", where);
            json_object_set(op, "columns", columns);
            json_object_set_new(op, "until", json_string("=="));
            json_object_set(op, "rows", rows);
            params = json_array();
            json_array_append_new(params, json_string("_Server"));
            json_array_append_new(params, op);
            if (request_id) {
                json_decref(request_id);
            }
            jsonrpc_session_send(session,
                                 jsonrpc_create_request("transact", params,
                                                        &request_id));
        }
        msg = jsonrpc_session_recv(session);
        if (msg) {
            bool done = (msg->type == JSONRPC_REPLY && request_id
                         && json_equal(msg->id, request_id));

            if (done) {
                const json_t *result = json_array_get(msg->result, 0);

                if (!json_is_object(result)
                    || json_object_get(result, "error")) {
                    char *text = ovsdb_json_to_string(msg->result,
                                                      OVSDB_JSON_SORT);

                    util_fatal(0, "%s: wait failed: %s", server, text);
                }
            }
            jsonrpc_msg_destroy(msg);
            if (done) {
                break;
            }
        }
        jsonrpc_session_wait(session);
        jsonrpc_session_recv_wait(session);
        fatal_signal_wait();
        poll_block();
    }
    jsonrpc_session_close(session);
    json_decref(request_id);
    json_decref(rows);
    json_decref(columns);
    free(server);
}

/* Writes 'json' to standard output as one database file record. */
static void
write_record(const json_t *json)
{
    struct ds header = DS_EMPTY_INITIALIZER, data = DS_EMPTY_INITIALIZER;

    ovsdb_log_compose_record(json, OVSDB_LOG_JSON, &header, &data);
    fputs(ds_cstr(&header), stdout);
    fputs(ds_cstr(&data), stdout);
    ds_destroy(&header);
    ds_destroy(&data);
}

/* backup [SERVER] [DATABASE] > SNAPSHOT: writes the database's schema and
 * contents to standard output as a database file, as Open vSwitch's client
 * does: one record with the schema, one with every row. */
static void
do_backup(struct context *ctx)
{
    json_t *params = json_array(), *schema_json, *result, *record;
    struct ovsdb_schema *schema;
    struct ovsdb_error *error;
    size_t i;

    if (isatty(STDOUT_FILENO)) {
        util_fatal(0, "not writing backup to a terminal; "
                   "please redirect stdout to a file");
    }
    json_array_append_new(params, json_string(ctx->db));
    schema_json = request(ctx, "get_schema", params);
    error = ovsdb_schema_from_json(schema_json, &schema);
    if (error) {
        fatal_ovsdb_error(error);
    }

    params = json_array();
    json_array_append_new(params, json_string(ctx->db));
    for (i = 0; i < schema->n_tables; i++) {
        const struct ovsdb_table_schema *ts = schema->tables[i];
        json_t *op = json_object(), *cols = json_array();
        size_t c;

        for (c = 0; c < ts->n_columns; c++) {
            if (c != OVSDB_COL_VERSION) {
                json_array_append_new(cols,
                                      json_string(ts->columns[c]->name));
            }
        }
        json_object_set_new(op, "op", json_string("select"));
        json_object_set_new(op, "table", json_string(ts->name));
        json_object_set_new(op, "where", json_array());
        json_object_set_new(op, "columns", cols);
        json_array_append_new(params, op);
    }
    result = request(ctx, "transact", params);

    record = json_object();
    json_object_set_new(record, "_date", json_integer(time_wall_msec()));
    for (i = 0; i < schema->n_tables; i++) {
        const json_t *rows = json_object_get(json_array_get(result, i),
                                             "rows");
        json_t *table = json_object();
        size_t r;

        if (!json_is_array(rows)) {
            char *s = ovsdb_json_to_string(result, OVSDB_JSON_SORT);

            util_fatal(0, "select failed: %s", s);
        }
        for (r = 0; r < json_array_size(rows); r++) {
            json_t *row = json_deep_copy(json_array_get(rows, r));
            const json_t *uuid = json_array_get(json_object_get(row,
                                                                "_uuid"), 1);

            if (!json_is_string(uuid)) {
                util_fatal(0, "row without _uuid in table %s",
                           schema->tables[i]->name);
            }
            json_object_set_new(table, json_string_value(uuid), row);
            json_object_del(row, "_uuid");
        }
        if (json_object_size(table)) {
            json_object_set_new(record, schema->tables[i]->name, table);
        } else {
            json_decref(table);
        }
    }
    json_object_set_new(record, "_is_diff", json_true());
    json_object_set_new(record, "_comment",
                        json_string("produced by \"ovsdb-client backup\""));

    write_record(schema_json);
    write_record(record);
    if (fflush(stdout) || ferror(stdout)) {
        util_fatal(errno, "writing backup failed");
    }
    json_decref(record);
    json_decref(result);
    json_decref(schema_json);
    ovsdb_schema_destroy(schema);
}

/* Replaces, in 'json' (the value of a reference column), each
 * ["uuid", UUID] by the ["named-uuid", "rowUUID"] that do_restore() gives
 * the row with that UUID. */
static void
uuids_to_named(json_t *json)
{
    size_t i;

    if (!json_is_array(json)) {
        return;
    }
    if (json_array_size(json) == 2
        && json_is_string(json_array_get(json, 0))
        && !strcmp(json_string_value(json_array_get(json, 0)), "uuid")
        && json_is_string(json_array_get(json, 1))) {
        char *name = restore_row_name(json_string_value(
                                          json_array_get(json, 1)));

        json_array_set_new(json, 0, json_string("named-uuid"));
        json_array_set_new(json, 1, json_string(name));
        free(name);
        return;
    }
    for (i = 0; i < json_array_size(json); i++) {
        uuids_to_named(json_array_get(json, i));
    }
}

/* The "uuid-name" of the row with 'uuid' in a restore: "row" and the UUID
 * with '_' for '-', as Open vSwitch's client names it. */
static char *
restore_row_name(const char *uuid)
{
    char *name = xasprintf("row%s", uuid), *p;

    for (p = name; *p; p++) {
        if (*p == '-') {
            *p = '_';
        }
    }
    return name;
}

/* Returns the "insert" operation that restores 'row' of 'ts'.  Columns at
 * their defaults are left out. */
static json_t *
restore_insert_op(const struct ovsdb_table_schema *ts,
                  const struct ovsdb_row *row)
{
    json_t *op = json_object(), *row_json = json_object();
    char uuid[UUID_LEN + 1], *name;
    size_t c;

    for (c = OVSDB_N_HIDDEN_COLUMNS; c < ts->n_columns; c++) {
        const struct ovsdb_column *column = ts->columns[c];
        json_t *value;

        if (ovsdb_datum_is_default(&row->fields[c], &column->type)) {
            continue;
        }
        value = ovsdb_datum_to_json(&row->fields[c], &column->type);
        if (ovsdb_base_type_is_ref(&column->type.key)
            || ovsdb_base_type_is_ref(&column->type.value)) {
            uuids_to_named(value);
        }
        json_object_set_new(row_json, column->name, value);
    }
    uuid_to_string(ovsdb_row_get_uuid(row), uuid);
    name = restore_row_name(uuid);
    json_object_set_new(op, "op", json_string("insert"));
    json_object_set_new(op, "table", json_string(ts->name));
    json_object_set_new(op, "uuid-name", json_string(name));
    json_object_set_new(op, "row", row_json);
    free(name);
    return op;
}

/* Reads the database file on standard input into a new in-memory database,
 * which the caller must destroy. */
static struct ovsdb *
read_backup(void)
{
    struct ovsdb_schema *schema = NULL;
    struct ovsdb_error *error;
    struct ovsdb_log *log;
    struct ovsdb *db = NULL;
    json_t *json = NULL;

    error = ovsdb_log_open("/dev/stdin", OVSDB_LOG_READ_ONLY, &log);
    if (error) {
        fatal_ovsdb_error(error);
    }
    error = ovsdb_log_read(log, &json);
    if (!error && !json) {
        error = ovsdb_error("ovsdb error",
                            "/dev/stdin: cannot identify file type");
    }
    if (!error) {
        error = ovsdb_schema_from_json(json, &schema);
        json_decref(json);
    }
    if (!error) {
        db = ovsdb_create(schema);
        for (;;) {
            error = ovsdb_log_read(log, &json);
            if (error || !json) {
                break;
            }
            error = ovsdb_file_replay(db, json);
            json_decref(json);
            if (error) {
                break;
            }
        }
    }
    if (error) {
        fatal_ovsdb_error(error);
    }
    ovsdb_log_close(log);
    return db;
}

/* [--force] restore [SERVER] [DATABASE] < SNAPSHOT: replaces the contents
 * of the database by those of the database file on standard input, in one
 * transaction that deletes every row and inserts the file's rows.  As in
 * Open vSwitch, the rows get new UUIDs (references among them are kept);
 * the file's schema must be the server's unless --force is given. */
static void
do_restore(struct context *ctx)
{
    const struct ovsdb_schema *backup_schema;
    struct jsonrpc_msg *reply;
    struct ovsdb_schema *schema;
    json_t *params, *result;
    struct ovsdb *db;
    size_t i;
    int error;

    if (isatty(STDIN_FILENO)) {
        util_fatal(0, "not reading backup from a terminal; "
                   "please redirect stdin from a file");
    }
    db = read_backup();
    backup_schema = db->schema;
    schema = fetch_schema(ctx);
    if (!ovsdb_schema_equal(backup_schema, schema)) {
        char *problem = (!strcmp(backup_schema->version, schema->version)
                         ? xasprintf("backup schema and database schema are "
                                     "both version %s but still differ",
                                     schema->version)
                         : xasprintf("backup schema has version \"%s\" but "
                                     "database schema has version \"%s\"",
                                     backup_schema->version,
                                     schema->version));
        if (!force) {
            util_fatal(0, "%s (use --force to override differences, or "
                       "\"ovsdb-client convert\" to change the schema)",
                       problem);
        }
        VLOG_INFO("%s", problem);
        free(problem);
    }
    ovsdb_schema_destroy(schema);

    /* Like Open vSwitch's client, into the database the backup names. */
    params = json_array();
    json_array_append_new(params, json_string(backup_schema->name));
    for (i = 0; i < backup_schema->n_tables; i++) {
        const struct ovsdb_table *table = &db->tables[i];
        json_t *op = json_object();
        struct ovsdb_row *row;

        json_object_set_new(op, "op", json_string("delete"));
        json_object_set_new(op, "table", json_string(table->schema->name));
        json_object_set_new(op, "where", json_array());
        json_array_append_new(params, op);
        OHMAP_FOR_EACH (row, node, &table->rows) {
            json_array_append_new(params,
                                  restore_insert_op(table->schema, row));
        }
    }
    ovsdb_destroy(db);

    error = jsonrpc_transact_block(ctx->rpc,
                                   jsonrpc_create_request("transact", params,
                                                          NULL), &reply);
    if (error) {
        util_fatal(0, "transaction failed (%s)",
                   error == EOF ? "End of file" : util_strerror(error));
    }
    if (reply->error) {
        char *s = ovsdb_json_to_string(reply->error, OVSDB_JSON_SORT);

        util_fatal(0, "transaction returned error: %s", s);
    }
    result = json_incref(reply->result);
    jsonrpc_msg_destroy(reply);
    for (i = 0; i < json_array_size(result); i++) {
        const json_t *op_result = json_array_get(result, i);

        if (json_is_object(op_result)
            && json_object_get(op_result, "error")) {
            char *s = ovsdb_json_to_string(result, OVSDB_JSON_SORT);

            util_fatal(0, "transaction returned error: %s", s);
        }
    }
    json_decref(result);
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
        fatal_ovsdb_error(error);
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

    ctx->db = schema->name;
    choose_server(ctx, true);
    if (ctx->clustered) {
        /* As Open vSwitch's client does: a cluster keeps every column. */
        ovsdb_schema_persist_ephemeral_columns(schema,
                                               ctx->argv[ctx->argc - 1]);
    }
    /* The conversion does not disconnect a client that knows of it. */
    json_decref(request(ctx, "set_db_change_aware",
                        jsonx_array(1, json_true())));
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
        { "monitor-cond", true, 2, 3, do_monitor_cond },
        { "convert", false, 1, 1, do_convert },
        { "needs-conversion", false, 1, 1, do_needs_conversion },
        { "monitor-cond-since", true, 2, INT_MAX, do_monitor_cond_since },
        { "wait", false, 2, 3, do_wait },
        { "backup", true, 0, 0, do_backup },
        { "restore", true, 0, 0, do_restore },
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
