/* ovsdb-tool: offline management of OVSDB database files.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "dirs.h"
#include "convert.h"
#include "dynamic-string.h"
#include "execution.h"
#include "file.h"
#include "log.h"
#include "ovsdb-error.h"
#include "ovsdb-json.h"
#include "ovsdb-parser.h"
#include "ovsdb.h"
#include "raft-file.h"
#include "schema.h"
#include "util.h"
#include "vlog.h"

/* -m given this many times: show-log detail level. */
static int show_log_verbosity;

/* --election-timer (create-cluster), checked when used. */
static const char *election_timer_arg;

/* --cid (join-cluster). */
static struct uuid join_cid;
static bool join_cid_set;

struct command {
    const char *name;
    int min_args, max_args;
    void (*handler)(int argc, char *argv[]);
};

static const struct command *get_commands(void);
static void parse_options(int argc, char *argv[]);
static void usage(void) DPS_NO_RETURN;
static void check_error(struct ovsdb_error *);
static int compare_strings(const void *, const void *);
static void read_raft_header(const char *db_name, struct raft_file_header *);

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
        OPT_RBAC_ROLE = UCHAR_MAX + 1,
        OPT_ELECTION_TIMER,
        OPT_CID
    };
    static const struct option long_options[] = {
        {"election-timer", required_argument, NULL, OPT_ELECTION_TIMER},
        {"cid", required_argument, NULL, OPT_CID},
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
        case OPT_ELECTION_TIMER:
            election_timer_arg = optarg;
            break;
        case OPT_CID:
            if (!uuid_from_string(&join_cid, optarg)
                || uuid_is_zero(&join_cid)) {
                util_fatal(0, "%s: not a valid UUID", optarg);
            }
            join_cid_set = true;
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
           "  [--election-timer=ms] create-cluster DB CONTENTS LOCAL\n"
           "    create clustered DB with given CONTENTS and LOCAL address\n"
           "  [--cid=UUID] join-cluster DB NAME LOCAL REMOTE...\n"
           "    join clustered DB with given NAME and LOCAL and REMOTE "
           "addrs\n"
           "  compact [DB [DST]]      compact DB in place, or into DST\n"
           "  convert [DB [SCHEMA [DST]]]  convert DB to SCHEMA, in place "
           "or into DST\n"
           "  needs-conversion [DB [SCHEMA]]  print \"yes\" if DB needs "
           "conversion to SCHEMA\n"
           "  db-name [DB]            report name of schema used by DB\n"
           "  db-version [DB]         report version of schema used by DB\n"
           "  db-cksum [DB]           report checksum of schema used by DB\n"
           "  db-cid DB               report cluster ID of clustered DB\n"
           "  db-sid DB               report server ID of clustered DB\n"
           "  db-local-address DB     report local address of clustered "
           "DB\n"
           "  db-is-clustered DB      test whether DB is clustered\n"
           "  db-is-standalone DB     test whether DB is standalone\n"
           "  schema-name [SCHEMA]    report SCHEMA's name\n"
           "  schema-version [SCHEMA] report SCHEMA's schema version\n"
           "  schema-cksum [SCHEMA]   report SCHEMA's checksum\n"
           "  query [DB] TRNS         execute read-only transaction on DB\n"
           "  transact [DB] TRNS      execute read/write transaction on DB\n"
           "  cluster-to-standalone DB DB    Convert clustered DB to\n"
           "      standalone DB when cluster is down and cannot be\n"
           "        revived\n"
           "  check-cluster DB...     check clustered DBs for consistency\n"
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
    char *db_name = arg_or(argc, argv, 1, default_db);
    struct ovsdb_log *log;
    bool clustered;

    /* A clustered database names its schema in its header, even before it
     * has joined its cluster and has a schema. */
    check_error(ovsdb_log_open(db_name, OVSDB_LOG_READ_ONLY, &log));
    clustered = !strcmp(ovsdb_log_get_magic(log), OVSDB_LOG_CLUSTER);
    ovsdb_log_close(log);
    if (clustered) {
        struct raft_file_header h;

        read_raft_header(db_name, &h);
        puts(h.name);
        raft_file_header_destroy(&h);
    } else {
        print_db_field(argc, argv, FIELD_NAME);
    }
    free(db_name);
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

/* Remembers row names for show-log: by row UUID (as written), the row's
 * "name" column as JSON text or, for a row without one, its UUID's first 8
 * digits. */
struct name_entry {
    struct ohmap_node node;
    char *uuid;
    char *name;
};

static struct name_entry *
find_name(const struct ohmap *names, const char *uuid)
{
    struct name_entry *e;

    OHMAP_FOR_EACH_WITH_HASH (e, node, ovsdb_json_ovs_hash(uuid), names) {
        if (!strcmp(e->uuid, uuid)) {
            return e;
        }
    }
    return NULL;
}

static void
set_name(struct ohmap *names, struct name_entry *e, const char *uuid,
         char *name)
{
    if (!e) {
        e = xzalloc(sizeof *e);
        e->uuid = xstrdup(uuid);
        ohmap_insert(names, &e->node, ovsdb_json_ovs_hash(uuid));
    } else {
        free(e->name);
    }
    e->name = name;
}

static void
remove_name(struct ohmap *names, struct name_entry *e)
{
    if (e) {
        ohmap_remove(names, &e->node);
        free(e->uuid);
        free(e->name);
        free(e);
    }
}

static void
clear_names(struct ohmap *names)
{
    struct name_entry *e;

    OHMAP_FOR_EACH_SAFE (e, node, names) {
        remove_name(names, e);
    }
    ohmap_destroy(names);
}

/* Returns the member names of JSON object 'object' in the order in which
 * Open vSwitch, having parsed it, walks them (the caller must free() the
 * array, not the names), and stores their number in '*n'. */
static const char **
ovs_member_order(const json_t *object, size_t *n)
{
    size_t count = json_object_size(object), i = 0;
    const char **names = xmalloc((count + 1) * sizeof *names);
    const char **ordered = xmalloc((count + 1) * sizeof *ordered);
    const char *key;
    size_t *order;
    json_t *value;

    json_object_foreach ((json_t *) object, key, value) {
        names[i++] = key;
    }
    order = ovsdb_json_ovs_order(names, count);
    for (i = 0; i < count; i++) {
        ordered[i] = names[order[i]];
    }
    free(order);
    free(names);
    *n = count;
    return ordered;
}

/* Returns the text show-log prints for 'value' of column 'column_name' in a
 * row of 'ts' (NULL if the schema has no such table): the datum, or the
 * JSON if the schema does not know the column or the value does not fit
 * it. */
static char *
column_value_string(const struct ovsdb_table_schema *ts,
                    const char *column_name, const json_t *value)
{
    const struct ovsdb_column *column;

    column = ts ? ovsdb_table_schema_find_column(ts, column_name) : NULL;
    if (column) {
        struct ovsdb_type type = column->type;
        struct ovsdb_datum datum;
        struct ovsdb_error *error;

        /* A diff may hold fewer or more elements than the column. */
        type.n_min = 0;
        type.n_max = OVSDB_UNLIMITED;
        error = ovsdb_datum_from_json(&datum, &type, value, NULL);
        if (!error) {
            struct ds ds = DS_EMPTY_INITIALIZER;

            ovsdb_datum_to_string(&datum, &column->type, &ds);
            ovsdb_datum_destroy(&datum, &column->type);
            return ds_steal_cstr(&ds);
        }
        ovsdb_error_destroy(error);
    }
    return ovsdb_json_to_string(value, OVSDB_JSON_SORT);
}

static void
print_row_changes(const struct ovsdb_table_schema *ts, const char *table_name,
                  const char *uuid, const json_t *row, bool is_diff,
                  struct ohmap *names)
{
    struct name_entry *entry = find_name(names, uuid);
    const char *old_name = entry ? entry->name : NULL;
    char *new_name = NULL;

    if (json_is_object(row)) {
        const json_t *name_json = json_object_get(row, "name");

        if (name_json) {
            new_name = ovsdb_json_to_string(name_json, OVSDB_JSON_SORT);
        }
    }

    printf("  table %s", table_name);
    if (!old_name) {
        if (new_name) {
            printf(" insert row %s (%.8s):\n", new_name, uuid);
        } else {
            printf(" insert row %.8s:\n", uuid);
        }
    } else {
        printf(" row %s (%.8s)%s:\n", old_name, uuid, is_diff ? " diff" : "");
    }

    if (json_is_object(row)) {
        if (show_log_verbosity > 1) {
            const char **columns;
            size_t n, i;

            columns = ovs_member_order(row, &n);
            for (i = 0; i < n; i++) {
                char *value = column_value_string(
                    ts, columns[i], json_object_get(row, columns[i]));

                printf("    %s=%s\n", columns[i], value);
                free(value);
            }
            free(columns);
        }
        if (new_name && (!old_name || strcmp(old_name, new_name))) {
            set_name(names, entry, uuid, new_name);
            new_name = NULL;
        } else if (!old_name) {
            set_name(names, entry, uuid, xmemdup0(uuid, strnlen(uuid, 8)));
        }
    } else if (json_is_null(row)) {
        printf("    delete row\n");
        remove_name(names, entry);
    }
    free(new_name);
}

/* Prints the tables that transaction 'record' changes, as "show-log -m"
 * does, after a new-line that ends the record's first line. */
static void
print_db_changes(const struct ovsdb_schema *schema, const json_t *record,
                 struct ohmap *names)
{
    const json_t *is_diff_json = json_object_get(record, "_is_diff");
    bool is_diff = is_diff_json && json_is_true(is_diff_json);
    const char **tables;
    size_t n_tables, i;
    bool first = true;

    tables = ovs_member_order(record, &n_tables);
    for (i = 0; i < n_tables; i++) {
        const json_t *rows = json_object_get(record, tables[i]);
        const struct ovsdb_table_schema *ts;
        const char **uuids;
        size_t n_rows, j;

        if (tables[i][0] == '_' || !json_is_object(rows)) {
            continue;
        }
        if (first) {
            putchar('\n');
            first = false;
        }
        ts = schema ? ovsdb_schema_find_table(schema, tables[i]) : NULL;
        uuids = ovs_member_order(rows, &n_rows);
        for (j = 0; j < n_rows; j++) {
            print_row_changes(ts, tables[i], uuids[j],
                              json_object_get(rows, uuids[j]), is_diff,
                              names);
        }
        free(uuids);
    }
    free(tables);
}

/* Prints what follows "record N:" for standalone transaction 'record': its
 * date and comment and, with -m, its changes. */
static void
print_txn_record(const struct ovsdb_schema *schema, const json_t *record,
                 struct ohmap *names)
{
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
    if (show_log_verbosity > 0) {
        print_db_changes(schema, record, names);
    }
}

/* Prints standalone record 'i' of a log, 'record' ("record 0" the schema,
 * which it stores in '*schemap'), as "show-log" does, without the final
 * new-line.  Returns the error of a schema that does not parse. */
static struct ovsdb_error *
print_standalone_record(size_t i, const json_t *record,
                        struct ovsdb_schema **schemap, struct ohmap *names)
{
    struct ovsdb_error *error = NULL;

    printf("record %zu:", i);
    if (i == 0) {
        error = ovsdb_schema_from_json(record, schemap);
        if (!error) {
            printf(" \"%s\" schema, version=\"%s\", cksum=\"%s\"",
                   (*schemap)->name, (*schemap)->version, (*schemap)->cksum);
        }
        putchar('\n');
    } else {
        print_txn_record(*schemap, record, names);
    }
    return error;
}

static void
print_uuid_prefix(const char *label, const struct uuid *uuid)
{
    char s[UUID_LEN + 1];

    uuid_to_string(uuid, s);
    printf(" %s: %.4s\n", label, s);
}

/* Prints <cluster-txn> 'data' ("[schema, txn]"), the snapshot of a header
 * (with 'prefix' "prev_") or the data of an entry, and makes a schema in it
 * the one '*schemap' holds.  A schema that does not parse ends the
 * program, as in Open vSwitch. */
static void
print_cluster_txn(const char *prefix, const json_t *data,
                  struct ovsdb_schema **schemap, struct ohmap *names)
{
    const json_t *schema_json, *txn;

    if (!json_is_array(data) || json_array_size(data) != 2) {
        return;
    }
    schema_json = json_array_get(data, 0);
    txn = json_array_get(data, 1);
    if (!json_is_null(schema_json)) {
        struct ovsdb_schema *schema;
        struct ovsdb_error *error = ovsdb_schema_from_json(schema_json,
                                                           &schema);

        if (error) {
            fflush(stdout);
            check_error(error);
        }
        printf(" %sschema: \"%s\", version=\"%s\", cksum=\"%s\"\n", prefix,
               schema->name, schema->version, schema->cksum);
        ovsdb_schema_destroy(*schemap);
        *schemap = schema;
    }
    if (json_is_object(txn)) {
        print_txn_record(*schemap, txn, names);
    }
}

static void
print_raft_header(const struct raft_file_header *h,
                  struct ovsdb_schema **schemap, struct ohmap *names)
{
    /* Open vSwitch's show-log quotes the name with mismatched quotes. */
    printf(" name: \"%s'\n", h->name);
    printf(" local address: \"%s\"\n", h->local_address);
    print_uuid_prefix("server_id", &h->sid);
    if (!uuid_is_zero(&h->cid)) {
        print_uuid_prefix("cluster_id", &h->cid);
    }
    if (h->joining) {
        /* In the order of Open vSwitch's set of strings. */
        size_t *order = ovsdb_json_ovs_order(
            (const char *const *) h->remote_addresses,
            h->n_remote_addresses);
        size_t i;

        fputs(" remote_addresses:", stdout);
        for (i = 0; i < h->n_remote_addresses; i++) {
            printf(" %s", h->remote_addresses[order[i]]);
        }
        putchar('\n');
        free(order);
    } else {
        struct ds servers = DS_EMPTY_INITIALIZER;

        printf(" prev_index: %"PRIu64"\n", h->prev_index);
        printf(" prev_term: %"PRIu64"\n", h->prev_term);
        raft_file_servers_format(h->prev_servers, &servers);
        printf(" prev_servers: %s\n", ds_cstr(&servers));
        ds_destroy(&servers);
        print_uuid_prefix("prev_eid", &h->prev_eid);
        print_cluster_txn("prev_", h->prev_data, schemap, names);
    }
}

static void
print_raft_record(const struct raft_file_record *r,
                  struct ovsdb_schema **schemap, struct ohmap *names)
{
    if (r->comment) {
        printf(" comment: \"%s\"\n", r->comment);
    }
    switch (r->type) {
    case RAFT_FILE_ENTRY:
        printf(" term: %"PRIu64"\n", r->term);
        printf(" index: %"PRIu64"\n", r->entry.index);
        if (r->entry.servers) {
            struct ds servers = DS_EMPTY_INITIALIZER;

            raft_file_servers_format(r->entry.servers, &servers);
            printf(" servers: %s\n", ds_cstr(&servers));
            ds_destroy(&servers);
        }
        if (r->entry.data) {
            print_uuid_prefix("eid", &r->entry.eid);
            print_cluster_txn("", r->entry.data, schemap, names);
        }
        break;
    case RAFT_FILE_TERM:
        printf(" term: %"PRIu64"\n", r->term);
        break;
    case RAFT_FILE_VOTE:
    case RAFT_FILE_LEADER:
        printf(" term: %"PRIu64"\n", r->term);
        print_uuid_prefix(r->type == RAFT_FILE_VOTE ? "vote" : "leader",
                          &r->sid);
        break;
    case RAFT_FILE_COMMIT_INDEX:
        printf(" commit_index: %"PRIu64"\n", r->commit_index);
        break;
    case RAFT_FILE_NOTE:
        printf(" note: \"%s\"\n", r->note);
        break;
    }
}

/* Prints clustered record 'i' of a log, 'record' ("record 0" the header),
 * as "show-log" does, without the final new-line.  A record that does not
 * parse is printed as its error. */
static void
print_cluster_record(size_t i, const json_t *record,
                     struct ovsdb_schema **schemap, struct ohmap *names)
{
    struct ovsdb_error *error;

    printf("record %zu:\n", i);
    if (i == 0) {
        struct raft_file_header h;

        error = raft_file_header_from_json(record, &h);
        if (!error) {
            print_raft_header(&h, schemap, names);
        }
        raft_file_header_destroy(&h);
    } else {
        struct raft_file_record r;

        error = raft_file_record_from_json(record, &r);
        if (!error) {
            print_raft_record(&r, schemap, names);
        }
        raft_file_record_destroy(&r);
    }
    if (error) {
        char *s = ovsdb_error_to_string(error);

        puts(s);
        free(s);
        ovsdb_error_destroy(error);
    }
}

static void
do_show_log(int argc, char *argv[])
{
    char *db_name = arg_or(argc, argv, 1, default_db);
    struct ovsdb_schema *schema = NULL;
    struct ovsdb_error *error;
    struct ovsdb_log *log;
    struct ohmap names;
    bool clustered;
    size_t i;

    check_error(ovsdb_log_open(db_name, OVSDB_LOG_READ_ONLY, &log));
    clustered = !strcmp(ovsdb_log_get_magic(log), OVSDB_LOG_CLUSTER);
    ohmap_init(&names);
    for (i = 0; ; i++) {
        json_t *record;

        error = ovsdb_log_read(log, &record);
        if (error || !record) {
            break;
        }
        if (clustered) {
            print_cluster_record(i, record, &schema, &names);
        } else {
            error = print_standalone_record(i, record, &schema, &names);
        }
        json_decref(record);
        putchar('\n');
        if (error) {
            break;
        }
    }
    fflush(stdout);
    clear_names(&names);
    ovsdb_schema_destroy(schema);
    ovsdb_log_close(log);
    free(db_name);
    check_error(error);
}

/* Opens 'db_name' for reading and stores its clustered header in '*h',
 * exiting with Open vSwitch's message if it is not clustered or the header
 * does not parse. */
static void
read_raft_header(const char *db_name, struct raft_file_header *h)
{
    struct ovsdb_error *error;
    struct ovsdb_log *log;
    json_t *json;

    check_error(ovsdb_log_open(db_name, OVSDB_LOG_READ_ONLY, &log));
    if (strcmp(ovsdb_log_get_magic(log), OVSDB_LOG_CLUSTER)) {
        util_fatal(0, "%s: not a clustered database", db_name);
    }
    check_error(ovsdb_log_read(log, &json));
    if (!json) {
        check_error(ovsdb_io_error(EOF, "%s: unexpected end of file",
                                   db_name));
    }
    ovsdb_log_close(log);
    error = raft_file_header_from_json(json, h);
    json_decref(json);
    if (error) {
        raft_file_header_destroy(h);
        check_error(error);
    }
}

/* Creates 'db_name' as a clustered database file whose only records are
 * 'header' and, if nonnull, 'entry'. */
static void
write_cluster_file(const char *db_name,
                   const struct raft_file_header *header,
                   const struct raft_file_record *entry)
{
    struct ovsdb_error *error;
    struct ovsdb_log *log;
    json_t *json;

    check_error(ovsdb_log_open(db_name, OVSDB_LOG_CREATE_EXCL, &log));
    ovsdb_log_set_magic(log, OVSDB_LOG_CLUSTER);
    json = raft_file_header_to_json(header);
    error = ovsdb_log_write(log, json);
    json_decref(json);
    if (!error && entry) {
        json = raft_file_record_to_json(entry);
        error = ovsdb_log_write(log, json);
        json_decref(json);
    }
    if (!error) {
        error = ovsdb_log_commit_block(log);
    }
    ovsdb_log_close(log);
    if (error) {
        unlink(db_name);
    }
    check_error(error);
}

/* Reads the schema and data that "create-cluster" starts a cluster with
 * from 'contents', a schema file or a standalone database, into a
 * <cluster-txn>. */
static json_t *
read_cluster_contents(const char *contents, struct ovsdb_schema **schemap)
{
    struct ovsdb_error *error;
    json_t *txn;

    error = ovsdb_schema_from_file(contents, schemap);
    if (!error) {
        txn = json_object();
    } else {
        char *comment = xasprintf("created from %s", contents);
        struct ovsdb *db;

        /* Not a schema: then it must be a standalone database, and its
         * error, if not, is the one to report. */
        ovsdb_error_destroy(error);
        check_error(ovsdb_file_open(contents, OVSDB_FILE_READ_ONLY, &db));
        txn = ovsdb_file_snapshot_to_json(db, comment);
        json_object_set_new(txn, "_is_diff", json_true());
        *schemap = ovsdb_schema_clone(db->schema);
        ovsdb_destroy(db);
        free(comment);
    }
    ovsdb_schema_persist_ephemeral_columns(*schemap, contents);
    return txn;
}

static void
do_create_cluster(int argc DPS_UNUSED, char *argv[])
{
    const char *db_name = argv[1], *contents = argv[2], *local = argv[3];
    struct raft_file_header h;
    struct raft_file_record entry;
    struct ovsdb_schema *schema;
    uint64_t election_timer = 0;
    json_t *txn;

    if (election_timer_arg) {
        char *end;

        election_timer = strtoull(election_timer_arg, &end, 10);
        if (*end || end == election_timer_arg
            || election_timer < RAFT_FILE_ELECTION_TIMER_MIN
            || election_timer > RAFT_FILE_ELECTION_TIMER_MAX) {
            check_error(ovsdb_error("ovsdb error", "election timer must be "
                                    "between %d and %d, in msec.",
                                    RAFT_FILE_ELECTION_TIMER_MIN,
                                    RAFT_FILE_ELECTION_TIMER_MAX));
        }
    }
    txn = read_cluster_contents(contents, &schema);
    check_error(raft_file_address_validate(local));

    memset(&h, 0, sizeof h);
    uuid_generate(&h.sid);
    uuid_generate(&h.cid);
    h.name = xstrdup(schema->name);
    h.local_address = xstrdup(local);
    h.prev_term = 1;
    h.prev_index = 1;
    h.prev_servers = json_object();
    {
        char sid[UUID_LEN + 1];

        uuid_to_string(&h.sid, sid);
        json_object_set_new(h.prev_servers, sid, json_string(local));
    }
    h.prev_data = ovsdb_json_pair(ovsdb_schema_to_json(schema), txn);
    uuid_generate(&h.prev_eid);

    /* An election timer given explicitly is the log's first entry, as in
     * Open vSwitch. */
    memset(&entry, 0, sizeof entry);
    entry.type = RAFT_FILE_ENTRY;
    entry.term = 1;
    entry.entry.index = 2;
    entry.entry.election_timer = election_timer;
    write_cluster_file(db_name, &h, election_timer ? &entry : NULL);

    raft_file_header_destroy(&h);
    ovsdb_schema_destroy(schema);
}

static void
do_join_cluster(int argc, char *argv[])
{
    const char *db_name = argv[1], *name = argv[2], *local = argv[3];
    struct raft_file_header h;
    int i;

    if (!ovsdb_parser_is_id(name)) {
        util_fatal(0, "%s: not a valid schema name (use \"schema-name\" "
                   "command to find the correct name)", name);
    }
    check_error(raft_file_address_validate(local));
    for (i = 4; i < argc; i++) {
        check_error(raft_file_address_validate(argv[i]));
        if (!strcmp(argv[i], local)) {
            check_error(ovsdb_error("ovsdb error", "remote addresses cannot "
                                    "be the same as the local address"));
        }
    }

    memset(&h, 0, sizeof h);
    uuid_generate(&h.sid);
    if (join_cid_set) {
        h.cid = join_cid;
    }
    h.name = xstrdup(name);
    h.local_address = xstrdup(local);
    h.joining = true;
    for (i = 4; i < argc; i++) {
        raft_file_header_add_remote(&h, argv[i]);
    }
    qsort(h.remote_addresses, h.n_remote_addresses,
          sizeof *h.remote_addresses, compare_strings);
    write_cluster_file(db_name, &h, NULL);
    raft_file_header_destroy(&h);
}

static void
do_db_cid(int argc DPS_UNUSED, char *argv[])
{
    struct raft_file_header h;
    char s[UUID_LEN + 1];

    read_raft_header(argv[1], &h);
    if (uuid_is_zero(&h.cid)) {
        fprintf(stderr, "%s: cluster ID not yet known\n", argv[1]);
        exit(2);
    }
    uuid_to_string(&h.cid, s);
    puts(s);
    raft_file_header_destroy(&h);
}

static void
do_db_sid(int argc DPS_UNUSED, char *argv[])
{
    struct raft_file_header h;
    char s[UUID_LEN + 1];

    read_raft_header(argv[1], &h);
    uuid_to_string(&h.sid, s);
    puts(s);
    raft_file_header_destroy(&h);
}

static void
do_db_local_address(int argc DPS_UNUSED, char *argv[])
{
    struct raft_file_header h;

    read_raft_header(argv[1], &h);
    puts(h.local_address);
    raft_file_header_destroy(&h);
}

/* Exits 0 if 'db_name' holds records of 'magic', 2 if it holds others, or
 * 1 if it is not a database. */
static void
exit_if_magic(const char *db_name, const char *magic)
{
    struct ovsdb_log *log;
    bool match;

    check_error(ovsdb_log_open(db_name, OVSDB_LOG_READ_ONLY, &log));
    match = !strcmp(ovsdb_log_get_magic(log), magic);
    ovsdb_log_close(log);
    exit(match ? 0 : 2);
}

static void
do_db_is_clustered(int argc DPS_UNUSED, char *argv[])
{
    exit_if_magic(argv[1], OVSDB_LOG_CLUSTER);
}

static void
do_db_is_standalone(int argc DPS_UNUSED, char *argv[])
{
    exit_if_magic(argv[1], OVSDB_LOG_JSON);
}

/* Writes 'txn' (from a <cluster-txn>) to standalone 'log', if it is a
 * transaction record. */
static struct ovsdb_error *
write_standalone_txn(struct ovsdb_log *log, const json_t *data)
{
    const json_t *txn;

    if (!json_is_array(data) || json_array_size(data) != 2) {
        return NULL;
    }
    txn = json_array_get(data, 1);
    return json_is_object(txn) ? ovsdb_log_write(log, txn) : NULL;
}

/* cluster-to-standalone DB CLUSTERDB: the schema the cluster started with,
 * then the data of the snapshot and of every entry, as Open vSwitch 3.1
 * writes them (it keeps the first schema even across a conversion). */
static void
do_cluster_to_standalone(int argc DPS_UNUSED, char *argv[])
{
    const char *db_name = argv[1], *cluster_name = argv[2];
    struct ovsdb_log *in, *out;
    struct ovsdb_error *error;
    struct raft_file_header h;
    json_t *json;

    check_error(ovsdb_log_open(cluster_name, OVSDB_LOG_READ_ONLY, &in));
    check_error(ovsdb_log_open(db_name, OVSDB_LOG_CREATE_EXCL, &out));
    if (strcmp(ovsdb_log_get_magic(in), OVSDB_LOG_CLUSTER)) {
        /* Open vSwitch's message ends in a blank line. */
        util_fatal(0, "Database is not clustered db.\n");
    }

    check_error(ovsdb_log_read(in, &json));
    if (!json) {
        check_error(ovsdb_io_error(EOF, "%s: unexpected end of file",
                                   cluster_name));
    }
    error = raft_file_header_from_json(json, &h);
    json_decref(json);
    if (!error && !h.joining) {
        const json_t *data = h.prev_data;

        if (json_is_array(data) && json_array_size(data) == 2) {
            error = ovsdb_log_write(out, json_array_get(data, 0));
        }
        if (!error) {
            error = write_standalone_txn(out, data);
        }
    }
    raft_file_header_destroy(&h);

    while (!error && !h.joining) {
        struct raft_file_record r;

        error = ovsdb_log_read(in, &json);
        if (error || !json) {
            break;
        }
        error = raft_file_record_from_json(json, &r);
        json_decref(json);
        if (!error && r.type == RAFT_FILE_ENTRY && r.entry.data) {
            error = write_standalone_txn(out, r.entry.data);
        }
        raft_file_record_destroy(&r);
    }
    if (!error) {
        error = ovsdb_log_commit_block(out);
    }
    ovsdb_log_close(out);
    ovsdb_log_close(in);
    check_error(error);
}

/* One database of check-cluster. */
struct cluster_log {
    const char *name;
    struct raft_file_header header;
    size_t n_records;           /* After the header. */
};

static void
read_cluster_log(const char *name, struct cluster_log *cl)
{
    struct ovsdb_error *error;
    struct ovsdb_log *log;
    struct stat st;
    json_t *json;

    cl->name = name;
    cl->n_records = 0;
    if (!stat(name, &st) && !st.st_size) {
        /* Open vSwitch reads an empty file as a missing header. */
        check_error(ovsdb_error("syntax error", "Parsing raft header failed: "
                                "Object expected."));
    }
    check_error(ovsdb_log_open(name, OVSDB_LOG_READ_ONLY, &log));
    if (strcmp(ovsdb_log_get_magic(log), OVSDB_LOG_CLUSTER)) {
        check_error(ovsdb_error("ovsdb error", "%s: cannot identify file "
                                "type", name));
    }
    check_error(ovsdb_log_read(log, &json));
    if (!json) {
        check_error(ovsdb_io_error(EOF, "%s: unexpected end of file", name));
    }
    error = raft_file_header_from_json(json, &cl->header);
    json_decref(json);
    check_error(error);
    for (;;) {
        struct raft_file_record r;

        check_error(ovsdb_log_read(log, &json));
        if (!json) {
            break;
        }
        error = raft_file_record_from_json(json, &r);
        json_decref(json);
        raft_file_record_destroy(&r);
        check_error(error);
        cl->n_records++;
    }
    ovsdb_log_close(log);
}

/* check-cluster DB...: reads every record of each database and checks that
 * they belong to one cluster, with distinct servers, and that there is a
 * log to check.  (Open vSwitch also replays the logs against each other;
 * that part is not here yet.) */
static void
do_check_cluster(int argc, char *argv[])
{
    struct cluster_log *logs = xcalloc(argc, sizeof *logs);
    size_t n = 0, n_records = 0, i, j;
    int k;

    for (k = 1; k < argc; k++) {
        struct cluster_log *cl = &logs[n];

        read_cluster_log(argv[k], cl);
        if (cl->header.joining) {
            printf("%s has not joined the cluster, omitting\n", cl->name);
            raft_file_header_destroy(&cl->header);
            continue;
        }
        n++;
    }
    for (i = 0; i < n; i++) {
        for (j = 0; j < i; j++) {
            char a[UUID_LEN + 1], b[UUID_LEN + 1];

            if (uuid_equals(&logs[i].header.sid, &logs[j].header.sid)) {
                uuid_to_string(&logs[i].header.sid, a);
                fflush(stdout);
                util_fatal(0, "Duplicate server ID %.4s in %s and %s.", a,
                           logs[i].name, logs[j].name);
            }
            if (!uuid_equals(&logs[i].header.cid, &logs[j].header.cid)) {
                uuid_to_string(&logs[j].header.cid, a);
                uuid_to_string(&logs[i].header.cid, b);
                fflush(stdout);
                util_fatal(0, "%s has cluster ID %.4s but %s has cluster ID "
                           "%.4s", logs[j].name, a, logs[i].name, b);
            }
        }
        n_records += logs[i].n_records;
    }
    if (!n_records) {
        fflush(stdout);
        util_fatal(0, "all logs are empty");
    }
    for (i = 0; i < n; i++) {
        raft_file_header_destroy(&logs[i].header);
    }
    free(logs);
}

static int
compare_strings(const void *a_, const void *b_)
{
    const char *const *a = a_, *const *b = b_;

    return strcmp(*a, *b);
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
        { "create-cluster", 3, 3, do_create_cluster },
        { "join-cluster", 4, INT_MAX, do_join_cluster },
        { "db-cid", 1, 1, do_db_cid },
        { "db-sid", 1, 1, do_db_sid },
        { "db-local-address", 1, 1, do_db_local_address },
        { "db-is-clustered", 1, 1, do_db_is_clustered },
        { "db-is-standalone", 1, 1, do_db_is_standalone },
        { "cluster-to-standalone", 2, 2, do_cluster_to_standalone },
        { "check-cluster", 1, INT_MAX, do_check_cluster },
        { "help", 0, INT_MAX, do_help },
        { NULL, 0, 0, NULL },
    };
    return commands;
}
