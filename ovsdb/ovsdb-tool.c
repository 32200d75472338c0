/* ovsdb-tool: offline management of OVSDB database files.
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
#include "dirs.h"
#include "convert.h"
#include "dynamic-string.h"
#include "execution.h"
#include "file.h"
#include "log.h"
#include "ovsdb-error.h"
#include "ovsdb-json.h"
#include "ovsdb.h"
#include "schema.h"
#include "util.h"
#include "vlog.h"

/* -m given this many times: show-log detail level. */
static int show_log_verbosity;

struct command {
    const char *name;
    int min_args, max_args;
    void (*handler)(int argc, char *argv[]);
};

static const struct command *get_commands(void);
static void parse_options(int argc, char *argv[]);
static void usage(void) DPS_NO_RETURN;
static void check_error(struct ovsdb_error *);

int
main(int argc, char *argv[])
{
    const struct command *command;

    util_set_program_name(argv[0]);
    parse_options(argc, argv);
    argc -= optind;
    argv += optind;

    if (argc < 1) {
        util_fatal(0, "missing command name; use --help for help");
    }
    for (command = get_commands(); command->name; command++) {
        if (!strcmp(command->name, argv[0])) {
            int n_args = argc - 1;

            if (n_args < command->min_args) {
                util_fatal(0, "'%s' command requires at least %d arguments",
                           command->name, command->min_args);
            } else if (n_args > command->max_args) {
                util_fatal(0, "'%s' command takes at most %d arguments",
                           command->name, command->max_args);
            }
            command->handler(argc, argv);
            return 0;
        }
    }
    util_fatal(0, "unknown command '%s'; use --help for help", argv[0]);
}

static void
parse_options(int argc, char *argv[])
{
    enum {
        OPT_RBAC_ROLE = UCHAR_MAX + 1
    };
    static const struct option long_options[] = {
        {"more", no_argument, NULL, 'm'},
        {"rbac-role", required_argument, NULL, OPT_RBAC_ROLE},
        {"verbose", optional_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };

    for (;;) {
        int c = getopt_long(argc, argv, "mv::hV", long_options, NULL);

        if (c == -1) {
            break;
        }
        switch (c) {
        case 'm':
            show_log_verbosity++;
            break;
        case OPT_RBAC_ROLE:
            /* Roles only restrict remote clients; offline access is
             * unrestricted. */
            break;
        case 'v':
            vlog_set_verbosity(optarg);
            break;
        case 'h':
            usage();
        case 'V':
            util_print_version();
            exit(EXIT_SUCCESS);
        case '?':
        default:
            exit(EXIT_FAILURE);
        }
    }
}

static void
usage(void)
{
    printf("%s: Open vSwitch database management utility\n"
           "usage: %s [OPTIONS] COMMAND [ARG...]\n"
           "  create [DB [SCHEMA]]    create DB with the given SCHEMA\n"
           "  compact [DB [DST]]      compact DB in place, or into DST\n"
           "  convert [DB [SCHEMA [DST]]]  convert DB to SCHEMA, in place "
           "or into DST\n"
           "  needs-conversion [DB [SCHEMA]]  print \"yes\" if DB needs "
           "conversion to SCHEMA\n"
           "  db-name [DB]            report name of schema used by DB\n"
           "  db-version [DB]         report version of schema used by DB\n"
           "  db-cksum [DB]           report checksum of schema used by DB\n"
           "  schema-name [SCHEMA]    report SCHEMA's name\n"
           "  schema-version [SCHEMA] report SCHEMA's schema version\n"
           "  schema-cksum [SCHEMA]   report SCHEMA's checksum\n"
           "  query [DB] TRNS         execute read-only transaction on DB\n"
           "  transact [DB] TRNS      execute read/write transaction on DB\n"
           "  show-log [DB]           print DB's log entries\n"
           "The default DB is %s/conf.db.\n"
           "The default SCHEMA is %s/vswitch.ovsschema.\n"
           "\nOther options:\n"
           "  -m, --more              increase show-log verbosity\n"
           "  -v, --verbose=[SPEC]    set logging levels\n"
           "  -h, --help              display this help message\n"
           "  -V, --version           display version information\n",
           util_program_name(), util_program_name(), dirs_dbdir(),
           dirs_pkgdatadir());
    exit(EXIT_SUCCESS);
}

/* Exits with 'error' printed the way Open vSwitch's tools print it, if
 * 'error' is nonnull. */
static void
check_error(struct ovsdb_error *error)
{
    if (error) {
        char *s = ovsdb_error_to_string(error);

        ovsdb_error_destroy(error);
        util_fatal(0, "%s", s);
    }
}

static char *
default_db(void)
{
    return xasprintf("%s/conf.db", dirs_dbdir());
}

static char *
default_schema(void)
{
    return xasprintf("%s/vswitch.ovsschema", dirs_pkgdatadir());
}

/* Returns argv[i] if present, else a copy of the default from 'dflt'. */
static char *
arg_or(int argc, char *argv[], int i, char *(*dflt)(void))
{
    return argc > i ? xstrdup(argv[i]) : dflt();
}

static struct ovsdb_schema *
read_schema_file(const char *file_name)
{
    struct ovsdb_schema *schema;

    check_error(ovsdb_schema_from_file(file_name, &schema));
    return schema;
}

static struct ovsdb_schema *
read_db_schema(const char *file_name)
{
    struct ovsdb_schema *schema;

    check_error(ovsdb_file_read_schema(file_name, &schema));
    return schema;
}

static void
do_create(int argc, char *argv[])
{
    char *db_name = arg_or(argc, argv, 1, default_db);
    char *schema_name = arg_or(argc, argv, 2, default_schema);
    struct ovsdb_schema *schema = read_schema_file(schema_name);

    check_error(ovsdb_file_create(db_name, schema));
    ovsdb_schema_destroy(schema);
    free(db_name);
    free(schema_name);
}

static char *
tool_comment(const char *verb)
{
    return xasprintf("%s by %s %s", verb, util_program_name(),
                     util_program_version());
}

static void
do_compact(int argc, char *argv[])
{
    char *db_name = arg_or(argc, argv, 1, default_db);
    char *comment = tool_comment("compacted");
    struct ovsdb *db;

    if (argc > 2) {
        check_error(ovsdb_file_open(db_name, OVSDB_FILE_READ_ONLY, &db));
        check_error(ovsdb_file_save_copy(argv[2], db, comment));
    } else {
        check_error(ovsdb_file_open(db_name, 0, &db));
        check_error(ovsdb_file_compact(db, comment));
    }
    ovsdb_destroy(db);
    free(comment);
    free(db_name);
}

/* Writes 'db' to 'file_name' through a temporary file renamed over it, so
 * that an existing file (the target of "convert DB SCHEMA TARGET", as Open
 * vSwitch allows) is replaced whole or not at all. */
static struct ovsdb_error *
replace_file(const char *file_name, const struct ovsdb *db,
             const char *comment)
{
    char *tmp = xasprintf("%s.tmp", file_name);
    struct ovsdb_error *error;

    unlink(tmp);
    error = ovsdb_file_save_copy(tmp, db, comment);
    if (!error && rename(tmp, file_name)) {
        error = ovsdb_io_error(errno, "%s: rename to %s failed", tmp,
                               file_name);
    }
    if (error) {
        unlink(tmp);
    }
    free(tmp);
    return error;
}

static void
do_convert(int argc, char *argv[])
{
    char *db_name = arg_or(argc, argv, 1, default_db);
    char *schema_name = arg_or(argc, argv, 2, default_schema);
    char *comment = tool_comment("converted");
    struct ovsdb_schema *schema;
    struct ovsdb *src, *dst;
    struct ovsdb_error *error;

    check_error(ovsdb_file_open(db_name, OVSDB_FILE_READ_ONLY, &src));
    schema = read_schema_file(schema_name);
    error = ovsdb_convert(src, schema, &dst);
    if (!error) {
        if (argc > 3 && strcmp(argv[3], db_name)) {
            error = replace_file(argv[3], dst, comment);
        } else {
            struct ovsdb *locked;

            /* Hold the lock on the original while replacing it, so that
             * a running ovsdb-server's file is never swapped under it. */
            error = ovsdb_file_open(db_name, 0, &locked);
            if (!error) {
                /* Through a symbolic link, the file it names is replaced
                 * and the link stays, as the server's compaction does:
                 * Debian links /etc/openvswitch/conf.db to
                 * /var/lib/openvswitch/conf.db. */
                char *target = realpath(db_name, NULL);

                error = replace_file(target ? target : db_name, dst,
                                     comment);
                free(target);
                ovsdb_destroy(locked);
            }
        }
    }
    ovsdb_destroy(src);
    ovsdb_destroy(dst);
    ovsdb_schema_destroy(schema);
    free(comment);
    free(db_name);
    free(schema_name);
    check_error(error);
}

static void
do_needs_conversion(int argc, char *argv[])
{
    char *db_name = arg_or(argc, argv, 1, default_db);
    char *schema_name = arg_or(argc, argv, 2, default_schema);
    struct ovsdb_schema *a = read_db_schema(db_name);
    struct ovsdb_schema *b = read_schema_file(schema_name);

    puts(ovsdb_schema_equal(a, b) ? "no" : "yes");
    ovsdb_schema_destroy(a);
    ovsdb_schema_destroy(b);
    free(db_name);
    free(schema_name);
}

enum schema_field { FIELD_NAME, FIELD_VERSION, FIELD_CKSUM };

static void
print_schema_field(const struct ovsdb_schema *schema, enum schema_field f)
{
    puts(f == FIELD_NAME ? schema->name
         : f == FIELD_VERSION ? schema->version
         : schema->cksum);
}

static void
print_db_field(int argc, char *argv[], enum schema_field f)
{
    char *db_name = arg_or(argc, argv, 1, default_db);
    struct ovsdb_schema *schema = read_db_schema(db_name);

    print_schema_field(schema, f);
    ovsdb_schema_destroy(schema);
    free(db_name);
}

static void
print_schema_file_field(int argc, char *argv[], enum schema_field f)
{
    char *schema_name = arg_or(argc, argv, 1, default_schema);
    struct ovsdb_schema *schema = read_schema_file(schema_name);

    print_schema_field(schema, f);
    ovsdb_schema_destroy(schema);
    free(schema_name);
}

static void
do_db_name(int argc, char *argv[])
{
    print_db_field(argc, argv, FIELD_NAME);
}

static void
do_db_version(int argc, char *argv[])
{
    print_db_field(argc, argv, FIELD_VERSION);
}

static void
do_db_cksum(int argc, char *argv[])
{
    print_db_field(argc, argv, FIELD_CKSUM);
}

static void
do_schema_name(int argc, char *argv[])
{
    print_schema_file_field(argc, argv, FIELD_NAME);
}

static void
do_schema_version(int argc, char *argv[])
{
    print_schema_file_field(argc, argv, FIELD_VERSION);
}

static void
do_schema_cksum(int argc, char *argv[])
{
    print_schema_file_field(argc, argv, FIELD_CKSUM);
}

static void
transact(int argc, char *argv[], bool dry_run)
{
    char *db_name = argc > 2 ? xstrdup(argv[1]) : default_db();
    const char *request = argv[argc - 1];
    struct ovsdb_execute_options options;
    long long int timeout;
    struct ovsdb *db;
    json_t *params, *result;
    char *s;

    check_error(ovsdb_json_from_string(request, &params));
    check_error(ovsdb_file_open(db_name, dry_run ? OVSDB_FILE_READ_ONLY : 0,
                                &db));

    memset(&options, 0, sizeof options);
    options.dry_run = dry_run;
    result = ovsdb_execute(db, params, &options, &timeout);
    if (!result) {
        /* A "wait" would block; an offline tool cannot wait for other
         * clients. */
        struct ovsdb_error *error = ovsdb_error("not supported",
                                                "triggers not supported");

        result = json_array();
        json_array_append_new(result, ovsdb_error_to_json(error));
        ovsdb_error_destroy(error);
    }
    s = ovsdb_json_to_string(result, OVSDB_JSON_SORT);
    puts(s);
    free(s);
    json_decref(result);
    json_decref(params);
    ovsdb_destroy(db);
    free(db_name);
}

static void
do_query(int argc, char *argv[])
{
    transact(argc, argv, true);
}

static void
do_transact(int argc, char *argv[])
{
    transact(argc, argv, false);
}

/* Remembers row names for show-log: "name" column values by UUID. */
struct name_entry {
    struct ohmap_node node;
    struct uuid uuid;
    char *name;
};

static struct name_entry *
find_name(const struct ohmap *names, const struct uuid *uuid)
{
    struct name_entry *e;

    OHMAP_FOR_EACH_WITH_HASH (e, node, uuid_hash(uuid), names) {
        if (uuid_equals(&e->uuid, uuid)) {
            return e;
        }
    }
    return NULL;
}

static void
print_row_changes(const struct ovsdb_table_schema *ts, const char *uuid_s,
                  const json_t *row, struct ohmap *names)
{
    struct name_entry *entry;
    struct uuid uuid;
    const char *column_name;
    json_t *value;

    if (!uuid_from_string(&uuid, uuid_s)) {
        printf("  table %s row %s: bad UUID\n", ts->name, uuid_s);
        return;
    }
    entry = find_name(names, &uuid);
    if (!entry) {
        printf("  table %s insert row %.8s:\n", ts->name, uuid_s);
        entry = xzalloc(sizeof *entry);
        entry->uuid = uuid;
        entry->name = xmemdup0(uuid_s, 8);
        ohmap_insert(names, &entry->node, uuid_hash(&uuid));
    } else {
        printf("  table %s row %.8s (%s) diff:\n", ts->name, uuid_s,
               entry->name);
    }
    if (json_is_null(row)) {
        printf("    delete row\n");
        ohmap_remove(names, &entry->node);
        free(entry->name);
        free(entry);
        return;
    }
    if (!json_is_object(row)) {
        return;
    }
    json_object_foreach ((json_t *) row, column_name, value) {
        const struct ovsdb_column *column;
        struct ovsdb_type type;
        struct ovsdb_datum datum;
        struct ovsdb_error *error;

        column = ovsdb_table_schema_find_column(ts, column_name);
        if (!column) {
            if (show_log_verbosity > 1) {
                printf("    unknown column %s\n", column_name);
            }
            continue;
        }
        type = column->type;
        type.n_min = 0;
        type.n_max = OVSDB_UNLIMITED;
        error = ovsdb_datum_from_json(&datum, &type, value, NULL);
        if (error) {
            ovsdb_error_destroy(error);
            continue;
        }
        if (!strcmp(column_name, "name") && datum.n == 1
            && column->type.key.type == OVSDB_TYPE_STRING) {
            free(entry->name);
            entry->name = xstrdup(datum.keys[0].string);
        }
        if (show_log_verbosity > 1) {
            struct ds ds = DS_EMPTY_INITIALIZER;

            ovsdb_datum_to_string(&datum, &column->type, &ds);
            printf("    %s=%s\n", column_name, ds_cstr(&ds));
            ds_destroy(&ds);
        }
        ovsdb_datum_destroy(&datum, &column->type);
    }
}

static void
print_record_details(const struct ovsdb_schema *schema, const json_t *record,
                     struct ohmap *names)
{
    const char *table_name;
    json_t *table_json;

    json_object_foreach ((json_t *) record, table_name, table_json) {
        const struct ovsdb_table_schema *ts;
        const char *uuid_s;
        json_t *row;

        if (table_name[0] == '_') {
            continue;
        }
        ts = schema ? ovsdb_schema_find_table(schema, table_name) : NULL;
        if (!ts || !json_is_object(table_json)) {
            printf("  table %s: not in schema\n", table_name);
            continue;
        }
        json_object_foreach (table_json, uuid_s, row) {
            print_row_changes(ts, uuid_s, row, names);
        }
    }
}

static void
do_show_log(int argc, char *argv[])
{
    char *db_name = arg_or(argc, argv, 1, default_db);
    struct ovsdb_schema *schema = NULL;
    struct ovsdb_error *error = NULL;
    struct name_entry *entry;
    struct ovsdb_log *log;
    struct ohmap names;
    size_t i;

    check_error(ovsdb_log_open(db_name, OVSDB_LOG_READ_ONLY, &log));
    ohmap_init(&names);
    for (i = 0; ; i++) {
        json_t *record;

        error = ovsdb_log_read(log, &record);
        if (error || !record) {
            break;
        }
        printf("record %zu:", i);
        if (i == 0) {
            error = ovsdb_schema_from_json(record, &schema);
            if (!error) {
                printf(" \"%s\" schema, version=\"%s\", cksum=\"%s\"\n",
                       schema->name, schema->version, schema->cksum);
            } else {
                putchar('\n');
            }
        } else if (json_is_object(record)) {
            const json_t *date = json_object_get(record, "_date");
            const json_t *comment = json_object_get(record, "_comment");

            if (date && json_is_integer(date)) {
                struct ds ds = DS_EMPTY_INITIALIZER;

                ds_put_strftime(&ds, " %Y-%m-%d %H:%M:%S.###",
                                json_integer_value(date), false);
                fputs(ds_cstr(&ds), stdout);
                ds_destroy(&ds);
            }
            if (comment && json_is_string(comment)) {
                printf(" \"%s\"", json_string_value(comment));
            }
            putchar('\n');
            if (show_log_verbosity > 0) {
                print_record_details(schema, record, &names);
            }
        } else {
            putchar('\n');
        }
        json_decref(record);
        if (error) {
            break;
        }
        if (i == 0 || show_log_verbosity > 0) {
            putchar('\n');
        }
    }
    fflush(stdout);

    OHMAP_FOR_EACH_SAFE (entry, node, &names) {
        free(entry->name);
        free(entry);
    }
    ohmap_destroy(&names);
    ovsdb_schema_destroy(schema);
    ovsdb_log_close(log);
    free(db_name);
    check_error(error);
}

static void
do_help(int argc DPS_UNUSED, char *argv[] DPS_UNUSED)
{
    usage();
}

static const struct command *
get_commands(void)
{
    static const struct command commands[] = {
        { "create", 0, 2, do_create },
        { "compact", 0, 2, do_compact },
        { "convert", 0, 3, do_convert },
        { "needs-conversion", 0, 2, do_needs_conversion },
        { "db-name", 0, 1, do_db_name },
        { "db-version", 0, 1, do_db_version },
        { "db-cksum", 0, 1, do_db_cksum },
        { "schema-name", 0, 1, do_schema_name },
        { "schema-version", 0, 1, do_schema_version },
        { "schema-cksum", 0, 1, do_schema_cksum },
        { "query", 1, 2, do_query },
        { "transact", 1, 2, do_transact },
        { "show-log", 0, 1, do_show_log },
        { "help", 0, INT_MAX, do_help },
        { NULL, 0, 0, NULL },
    };
    return commands;
}
