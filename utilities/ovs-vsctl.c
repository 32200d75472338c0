/* ovs-vsctl: configures ovs-vswitchd through its database, with Open
 * vSwitch's command language, options, output formats, messages and exit
 * statuses.
 *
 * A run: parse the global options and the commands ("--"-separated, each
 * with its own options), connect an IDL (lib/ovsdb-idl.h) to the database,
 * and whenever the replica changes run every command against it inside one
 * transaction.  A command reads the replica (which shows the transaction's
 * own changes) and writes through the transaction; what it reads to decide
 * is verified, so a concurrent change makes the commit TRY_AGAIN and the
 * whole command list runs again on the fresh replica.  After a successful
 * commit the outputs are printed in command order and, unless --no-wait, the
 * program waits for ovs-vswitchd to report cur_cfg >= the next_cfg this
 * transaction set.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db-ctl.h"
#include "dirs.h"
#include "dynamic-string.h"
#include "fatal-signal.h"
#include "json.h"
#include "ovsdb-idl.h"
#include "ovsdb/ovsdb-data.h"
#include "ovsdb/ovsdb-error.h"
#include "ovsdb/schema.h"
#include "ovsdb/uuid.h"
#include "poll-loop.h"
#include "stream-ssl.h"
#include "table.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(vsctl);

/* Exit status when a command fails, as in Open vSwitch. */
#define VSCTL_EXIT_FAILURE 1

/* Seconds of waiting for ovs-vswitchd before telling the user. */
#define VSCTL_WAIT_HINT_SEC 5

/* ------------------------------------------------------------------------
 * Options.
 * ------------------------------------------------------------------------ */

static char *db;                /* --db. */
static bool wait_for_reload = true;
static int timeout;             /* --timeout, seconds; 0 = none. */
static bool retry;
static bool leader_only = true;   /* --no-leader-only clears it. */
static bool dry_run;
static bool oneline;
static enum table_format format = TABLE_FORMAT_LIST;
static enum table_data data_format = TABLE_DATA_STRING;
static bool data_set;
static bool headings = true;
static bool pretty;
static char *columns_opt;       /* --columns. */
static char *invocation;        /* For the transaction comment. */

static int compare_strings(const void *, const void *);

static void DPS_NO_RETURN
usage(void)
{
    printf("\
%s: dpswitch's ovs-vsctl: configures ovs-vswitchd through its database\n\
usage: %s [OPTIONS] COMMAND [ARG...] [-- [OPTIONS] COMMAND [ARG...]]...\n\
\n\
Open vSwitch commands:\n\
  init                        initialize database, if not yet initialized\n\
  show                        print overview of database contents\n\
  emer-reset                  reset configuration to clean state\n\
\n\
Bridge commands:\n\
  add-br BRIDGE               create a new bridge named BRIDGE\n\
  add-br BRIDGE PARENT VLAN   create new fake BRIDGE in PARENT on VLAN\n\
  del-br BRIDGE               delete BRIDGE and all of its ports\n\
  list-br                     print the names of all the bridges\n\
  br-exists BRIDGE            exit 2 if BRIDGE does not exist\n\
  br-to-vlan BRIDGE           print the VLAN which BRIDGE is on\n\
  br-to-parent BRIDGE         print the parent of BRIDGE\n\
  br-set-external-id BRIDGE KEY VALUE  set KEY on BRIDGE to VALUE\n\
  br-set-external-id BRIDGE KEY  unset KEY on BRIDGE\n\
  br-get-external-id BRIDGE KEY  print value of KEY on BRIDGE\n\
  br-get-external-id BRIDGE  list key-value pairs on BRIDGE\n\
\n\
Port commands (a bond is considered to be a single port):\n\
  list-ports BRIDGE           print the names of all the ports on BRIDGE\n\
  add-port BRIDGE PORT        add network device PORT to BRIDGE\n\
  add-bond BRIDGE PORT IFACE...  add bonded port PORT in BRIDGE from IFACES\n\
  add-bond-iface BOND IFACE   add IFACE as a new bond interface to BOND\n\
  del-bond-iface [BOND] IFACE delete IFACE from its bond (or BOND)\n\
  del-port [BRIDGE] PORT      delete PORT (which may be bonded) from BRIDGE\n\
  port-to-br PORT             print name of bridge that contains PORT\n\
\n\
Interface commands (a bond consists of multiple interfaces):\n\
  list-ifaces BRIDGE          print the names of all interfaces on BRIDGE\n\
  iface-to-br IFACE           print name of bridge that contains IFACE\n\
\n\
Controller commands:\n\
  get-controller BRIDGE      print the controllers for BRIDGE\n\
  del-controller BRIDGE      delete the controllers for BRIDGE\n\
  [--inactivity-probe=MSECS]\n\
  set-controller BRIDGE TARGET...  set the controllers for BRIDGE\n\
  get-fail-mode BRIDGE       print the fail-mode for BRIDGE\n\
  del-fail-mode BRIDGE       delete the fail-mode for BRIDGE\n\
  set-fail-mode BRIDGE MODE  set the fail-mode for BRIDGE to MODE\n\
\n\
Manager commands:\n\
  get-manager                print the managers\n\
  del-manager                delete the managers\n\
  [--inactivity-probe=MSECS]\n\
  set-manager TARGET...      set the list of managers to TARGET...\n\
\n\
SSL commands:\n\
  get-ssl                     print the SSL configuration\n\
  del-ssl                     delete the SSL configuration\n\
  set-ssl PRIV-KEY CERT CA-CERT  set the SSL configuration\n\
\n\
Database commands:\n\
  list TBL [REC]              list RECord (or all records) in TBL\n\
  find TBL CONDITION...       list records satisfying CONDITION in TBL\n\
  get TBL REC COL[:KEY]       print values of COLumns in RECord in TBL\n\
  set TBL REC COL[:KEY]=VALUE set COLumn values in RECord in TBL\n\
  add TBL REC COL [KEY=]VALUE add (KEY=)VALUE to COLumn in RECord in TBL\n\
  remove TBL REC COL [KEY=]VALUE  remove (KEY=)VALUE from COLumn\n\
  clear TBL REC COL           clear values from COLumn in RECord in TBL\n\
  create TBL COL[:KEY]=VALUE  create and initialize new record\n\
  destroy TBL REC             delete RECord from TBL\n\
  wait-until TBL REC [COL[:KEY]=VALUE]  wait until condition is true\n\
\n\
Options:\n\
  --db=DATABASE               connect to DATABASE\n\
                              (default: unix:%s/db.sock)\n\
  --no-wait                   do not wait for ovs-vswitchd to reconfigure\n\
  --retry                     keep trying to connect to server forever\n\
  --no-leader-only            accept a server that is not the leader\n\
  -t, --timeout=SECS          wait at most SECS seconds for ovs-vswitchd\n\
  --dry-run                   do not commit changes to database\n\
  --oneline                   print exactly one line of output per command\n\
  -f, --format=FORMAT         list, table, html, csv or json\n\
  -d, --data=FORMAT           string, bare or json\n\
  --columns=COL,...           columns of list and find to print\n\
  --bare                      --format=list --data=bare --no-headings\n\
  --no-headings               omit table headings\n\
  --pretty                    indent JSON output\n\
  -v, --verbose[=SPEC]        set logging levels\n\
PKI configuration (required to use SSL):\n\
  -p, --private-key=FILE      file with private key\n\
  -c, --certificate=FILE      file with certificate for private key\n\
  -C, --ca-cert=FILE          file with peer CA certificate\n\
  --bootstrap-ca-cert=FILE    file with peer CA certificate to read or create\n\
  --ssl-protocols=PROTOS      list of SSL protocols to enable\n\
  --ssl-ciphers=CIPHERS       list of SSL ciphers to enable\n\
  -h, --help                  display this help message\n\
  -V, --version               display version information\n",
           util_program_name(), util_program_name(), dirs_rundir());
    exit(EXIT_SUCCESS);
}

static void
parse_format(const char *s)
{
    if (!strcmp(s, "list")) {
        format = TABLE_FORMAT_LIST;
    } else if (!strcmp(s, "table")) {
        format = TABLE_FORMAT_TABLE;
    } else if (!strcmp(s, "html")) {
        format = TABLE_FORMAT_HTML;
    } else if (!strcmp(s, "csv")) {
        format = TABLE_FORMAT_CSV;
    } else if (!strcmp(s, "json")) {
        format = TABLE_FORMAT_JSON;
    } else {
        db_ctl_fatal("unknown output format \"%s\"", s);
    }
}

static void
parse_data(const char *s)
{
    if (!strcmp(s, "string")) {
        data_format = TABLE_DATA_STRING;
    } else if (!strcmp(s, "bare")) {
        data_format = TABLE_DATA_BARE;
    } else if (!strcmp(s, "json")) {
        data_format = TABLE_DATA_JSON;
    } else {
        db_ctl_fatal("unknown data format \"%s\"", s);
    }
    data_set = true;
}

/* Parses the global options.  Options that belong to commands (such as
 * "--may-exist" before the first command) are collected in '*prep'.
 * Returns the index of the first command argument. */
static int
parse_options(int argc, char *argv[], char ***prep, size_t *n_prep)
{
    enum {
        OPT_DB = UCHAR_MAX + 1, OPT_NO_WAIT, OPT_DRY_RUN, OPT_ONELINE,
        OPT_RETRY, OPT_COLUMNS, OPT_BARE, OPT_NO_HEADINGS, OPT_PRETTY,
        OPT_NO_SYSLOG, OPT_LOCAL, OPT_NO_LEADER_ONLY,
        VLOG_OPTION_ENUMS,
        STREAM_SSL_OPTION_ENUMS
    };
    static const struct option long_options[] = {
        {"db", required_argument, NULL, OPT_DB},
        {"no-wait", no_argument, NULL, OPT_NO_WAIT},
        {"dry-run", no_argument, NULL, OPT_DRY_RUN},
        {"oneline", no_argument, NULL, OPT_ONELINE},
        {"retry", no_argument, NULL, OPT_RETRY},
        {"no-leader-only", no_argument, NULL, OPT_NO_LEADER_ONLY},
        {"timeout", required_argument, NULL, 't'},
        {"format", required_argument, NULL, 'f'},
        {"data", required_argument, NULL, 'd'},
        {"columns", required_argument, NULL, OPT_COLUMNS},
        {"bare", no_argument, NULL, OPT_BARE},
        {"no-headings", no_argument, NULL, OPT_NO_HEADINGS},
        {"pretty", no_argument, NULL, OPT_PRETTY},
        {"no-syslog", no_argument, NULL, OPT_NO_SYSLOG},
        VLOG_LONG_OPTIONS,
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        /* Command options given before the first command. */
        {"may-exist", no_argument, NULL, OPT_LOCAL},
        {"if-exists", no_argument, NULL, OPT_LOCAL},
        {"with-iface", no_argument, NULL, OPT_LOCAL},
        {"real", no_argument, NULL, OPT_LOCAL},
        {"fake", no_argument, NULL, OPT_LOCAL},
        {"fake-iface", no_argument, NULL, OPT_LOCAL},
        {"bootstrap", no_argument, NULL, OPT_LOCAL},
        {"all", no_argument, NULL, OPT_LOCAL},
        {"id", required_argument, NULL, OPT_LOCAL},
        {"inactivity-probe", required_argument, NULL, OPT_LOCAL},
        STREAM_SSL_LONG_OPTIONS,
        {NULL, 0, NULL, 0},
    };

    opterr = 0;
    for (;;) {
        int prev = optind;
        int c = getopt_long(argc, argv, "+f:d:t:hVv::p:c:C:", long_options, NULL);

        if (c == -1) {
            break;
        }
        switch (c) {
        case OPT_DB:
            free(db);
            db = xstrdup(optarg);
            break;
        case OPT_NO_WAIT:
            wait_for_reload = false;
            break;
        case OPT_NO_LEADER_ONLY:
            /* With several remotes, a cluster member that is not the
             * leader will do too. */
            leader_only = false;
            break;
        case OPT_DRY_RUN:
            dry_run = true;
            break;
        case OPT_ONELINE:
            oneline = true;
            break;
        case OPT_RETRY:
            retry = true;
            break;
        case 't':
            if (!util_str_to_int(optarg, 10, &timeout) || timeout < 0) {
                db_ctl_fatal("value %s on -t or --timeout is invalid", optarg);
            }
            break;
        case 'f':
            parse_format(optarg);
            break;
        case 'd':
            parse_data(optarg);
            break;
        case OPT_COLUMNS:
            free(columns_opt);
            columns_opt = xstrdup(optarg);
            break;
        case OPT_BARE:
            format = TABLE_FORMAT_LIST;
            data_format = TABLE_DATA_BARE;
            data_set = true;
            headings = false;
            break;
        case OPT_NO_HEADINGS:
            headings = false;
            break;
        case OPT_PRETTY:
            pretty = true;
            break;
        case OPT_NO_SYSLOG:
            break;
        VLOG_OPTION_HANDLERS
        case 'h':
            usage();
        case 'V':
            printf("ovs-vsctl (dpswitch) %s\n", PACKAGE_VERSION);
            exit(EXIT_SUCCESS);
        STREAM_SSL_OPTION_HANDLERS

        case OPT_LOCAL:
            *prep = xrealloc(*prep, (*n_prep + 1) * sizeof **prep);
            /* "--id @x": joined as "--id=@x".  Each entry is the caller's
             * to free. */
            (*prep)[(*n_prep)++] = (optind - prev == 2
                                    ? xasprintf("%s=%s", argv[prev],
                                                argv[prev + 1])
                                    : xstrdup(argv[prev]));
            break;
        case '?':
            if (optopt) {
                db_ctl_fatal("invalid option '-%c'; use --help for help",
                            optopt);
            }
            db_ctl_fatal("unrecognized option '%s'; use --help for help",
                        argv[prev]);
        case ':':
            db_ctl_fatal("option '%s' requires an argument", argv[prev]);
        default:
            abort();
        }
    }
    return optind;
}

/* ------------------------------------------------------------------------
 * Tables and columns.
 * ------------------------------------------------------------------------ */

static const struct db_ctl_row_id row_ids[] = {
    {"AutoAttach", "Bridge", "name", "auto_attach"},
    {"Bridge", "Bridge", "name", NULL},
    {"Controller", "Bridge", "name", "controller"},
    {"Flow_Sample_Collector_Set", "Flow_Sample_Collector_Set", "id", NULL},
    {"Flow_Table", "Flow_Table", "name", NULL},
    {"IPFIX", "Bridge", "name", "ipfix"},
    {"Interface", "Interface", "name", NULL},
    {"Manager", "Manager", "target", NULL},
    {"Mirror", "Mirror", "name", NULL},
    {"NetFlow", "Bridge", "name", "netflow"},
    {"Open_vSwitch", "Open_vSwitch", NULL, NULL},
    {"Port", "Port", "name", NULL},
    {"QoS", "Port", "name", "qos"},
    {"SSL", "Open_vSwitch", NULL, "ssl"},
    {"sFlow", "Bridge", "name", "sflow"},
};

struct vsctl_ctx {
    struct db_ctl_context base;         /* What the generic commands use. */
    const struct ovsdb_idl_row *ovs;    /* The Open_vSwitch row. */

    /* Cache of bridges, ports and interfaces, rebuilt when invalid. */
    bool cache_valid;
    struct vsctl_bridge *bridges;
    size_t n_bridges;
    struct vsctl_port *ports;
    size_t n_ports;
    struct vsctl_iface *ifaces;
    size_t n_ifaces;

    /* Interfaces created, to check after ovs-vswitchd reconfigures. */
    struct uuid *new_ifaces;
    size_t n_new_ifaces;
};

static void invalidate_cache(struct vsctl_ctx *);

static struct vsctl_ctx *
vsctl_ctx_cast(struct db_ctl_context *base)
{
    return CONTAINER_OF(base, struct vsctl_ctx, base);
}

/* db_ctl_context's 'invalidate_cache': a generic command changed rows. */
static void
vsctl_invalidate_cache(struct db_ctl_context *base)
{
    invalidate_cache(vsctl_ctx_cast(base));
}

static const struct ovsdb_table_schema *
table_schema(const struct vsctl_ctx *ctx, const char *name)
{
    const struct ovsdb_table_schema *ts
        = ovsdb_idl_get_table(ctx->base.idl, name);

    if (!ts) {
        db_ctl_fatal("database lacks table %s", name);
    }
    return ts;
}

static const struct ovsdb_column *
column_schema(const struct ovsdb_table_schema *ts, const char *name)
{
    const struct ovsdb_column *c = ovsdb_table_schema_find_column(ts, name);

    if (!c) {
        db_ctl_fatal("%s table lacks column %s", ts->name, name);
    }
    return c;
}



/* ------------------------------------------------------------------------
 * Row access helpers.
 * ------------------------------------------------------------------------ */

static const struct ovsdb_datum *
get_col(const struct ovsdb_idl_row *row, const char *name)
{
    const struct ovsdb_datum *d = ovsdb_idl_row_get_by_name(row, name);

    if (!d) {
        db_ctl_fatal("%s table lacks column %s",
                    ovsdb_idl_row_get_table(row)->name, name);
    }
    return d;
}

static const char *
get_string(const struct ovsdb_idl_row *row, const char *name)
{
    const struct ovsdb_datum *d = get_col(row, name);

    return d->n ? d->keys[0].string : "";
}

static void
verify(struct vsctl_ctx *ctx, const struct ovsdb_idl_row *row,
       const char *name)
{
    ovsdb_idl_txn_verify(ctx->base.txn, row,
                         column_schema(ovsdb_idl_row_get_table(row), name));
}

static void
write_datum(struct vsctl_ctx *ctx, const struct ovsdb_idl_row *row,
            const char *name, struct ovsdb_datum *datum)
{
    ovsdb_idl_txn_write(ctx->base.txn, row,
                        column_schema(ovsdb_idl_row_get_table(row), name),
                        datum);
}

/* Writes 'atom' (NULL: nothing, for an optional column) as the whole value
 * of column 'name' of 'row'. */
static void
write_atom(struct vsctl_ctx *ctx, const struct ovsdb_idl_row *row,
           const char *name, const union ovsdb_atom *atom)
{
    const struct ovsdb_column *c
        = column_schema(ovsdb_idl_row_get_table(row), name);
    struct ovsdb_datum d;

    ovsdb_datum_init_empty(&d);
    if (atom) {
        ovsdb_datum_add(&d, atom, NULL, &c->type);
    }
    ovsdb_idl_txn_write(ctx->base.txn, row, c, &d);
}

static void
write_string(struct vsctl_ctx *ctx, const struct ovsdb_idl_row *row,
             const char *name, const char *value)
{
    union ovsdb_atom atom;

    atom.string = (char *) value;
    write_atom(ctx, row, name, value ? &atom : NULL);
}

static void
write_bool(struct vsctl_ctx *ctx, const struct ovsdb_idl_row *row,
           const char *name, bool value)
{
    union ovsdb_atom atom;

    atom.boolean = value;
    write_atom(ctx, row, name, &atom);
}

static void
write_int(struct vsctl_ctx *ctx, const struct ovsdb_idl_row *row,
          const char *name, int64_t value)
{
    union ovsdb_atom atom;

    atom.integer = value;
    write_atom(ctx, row, name, &atom);
}

/* Writes a set of references 'uuids' to 'name' of 'row'. */
static void
write_uuids(struct vsctl_ctx *ctx, const struct ovsdb_idl_row *row,
            const char *name, const struct uuid *uuids, size_t n)
{
    const struct ovsdb_column *c
        = column_schema(ovsdb_idl_row_get_table(row), name);
    struct ovsdb_datum d;
    size_t i;

    ovsdb_datum_init_empty(&d);
    for (i = 0; i < n; i++) {
        union ovsdb_atom atom;

        atom.uuid = uuids[i];
        ovsdb_datum_add(&d, &atom, NULL, &c->type);
    }
    ovsdb_idl_txn_write(ctx->base.txn, row, c, &d);
}

/* Adds ('add') or removes reference 'uuid' in column 'name' of 'row'. */
static void
update_ref(struct vsctl_ctx *ctx, const struct ovsdb_idl_row *row,
           const char *name, const struct uuid *uuid, bool add)
{
    const struct ovsdb_column *c
        = column_schema(ovsdb_idl_row_get_table(row), name);
    struct ovsdb_datum d;
    union ovsdb_atom atom;
    unsigned int idx;

    ovsdb_datum_clone(&d, ovsdb_idl_row_get(row, c), &c->type);
    atom.uuid = *uuid;
    idx = ovsdb_datum_find_key(&d, &atom, OVSDB_TYPE_UUID);
    if (add && idx == UINT_MAX) {
        ovsdb_datum_add(&d, &atom, NULL, &c->type);
    } else if (!add && idx != UINT_MAX) {
        ovsdb_datum_remove(&d, idx, &c->type);
    }
    ovsdb_idl_txn_verify(ctx->base.txn, row, c);
    ovsdb_idl_txn_write(ctx->base.txn, row, c, &d);
}

static const struct ovsdb_idl_row *
insert_row(struct vsctl_ctx *ctx, const char *table)
{
    return ovsdb_idl_txn_insert(ctx->base.txn, table_schema(ctx, table));
}

static const struct ovsdb_idl_row *
ref_row(const struct vsctl_ctx *ctx, const char *table,
        const struct uuid *uuid)
{
    return ovsdb_idl_get_row(ctx->base.idl, table_schema(ctx, table), uuid);
}

/* ------------------------------------------------------------------------
 * The bridge/port/interface cache.
 * ------------------------------------------------------------------------ */

struct vsctl_bridge {
    char *name;
    const struct ovsdb_idl_row *row;    /* Bridge row; NULL if fake. */
    size_t parent;                      /* Index of the parent if fake. */
    const struct ovsdb_idl_row *fake_port; /* Port row of a fake bridge. */
    int vlan;
};

struct vsctl_port {
    const struct ovsdb_idl_row *row;
    size_t bridge;
};

struct vsctl_iface {
    const struct ovsdb_idl_row *row;
    size_t port;
};

static void
invalidate_cache(struct vsctl_ctx *ctx)
{
    size_t i;

    for (i = 0; i < ctx->n_bridges; i++) {
        free(ctx->bridges[i].name);
    }
    free(ctx->bridges);
    free(ctx->ports);
    free(ctx->ifaces);
    ctx->bridges = NULL;
    ctx->ports = NULL;
    ctx->ifaces = NULL;
    ctx->n_bridges = ctx->n_ports = ctx->n_ifaces = 0;
    ctx->cache_valid = false;
}

static int
port_vlan(const struct ovsdb_idl_row *port)
{
    const struct ovsdb_datum *tag = get_col(port, "tag");

    if (tag->n && tag->keys[0].integer >= 0
        && tag->keys[0].integer <= 4095) {
        return tag->keys[0].integer;
    }
    return -1;
}

static bool
port_is_fake_bridge(const struct ovsdb_idl_row *port)
{
    const struct ovsdb_datum *fake = get_col(port, "fake_bridge");

    return fake->n && fake->keys[0].boolean && port_vlan(port) >= 0;
}

static size_t
cache_find_bridge(const struct vsctl_ctx *ctx, const char *name)
{
    size_t i;

    for (i = 0; i < ctx->n_bridges; i++) {
        if (!strcmp(ctx->bridges[i].name, name)) {
            return i;
        }
    }
    return SIZE_MAX;
}

static bool
cache_has_port(const struct vsctl_ctx *ctx, const char *name)
{
    size_t i;

    for (i = 0; i < ctx->n_ports; i++) {
        if (!strcmp(get_string(ctx->ports[i].row, "name"), name)) {
            return true;
        }
    }
    return false;
}

static bool
cache_has_iface(const struct vsctl_ctx *ctx, const char *name)
{
    size_t i;

    for (i = 0; i < ctx->n_ifaces; i++) {
        if (!strcmp(get_string(ctx->ifaces[i].row, "name"), name)) {
            return true;
        }
    }
    return false;
}

static size_t
add_bridge(struct vsctl_ctx *ctx, const char *name,
           const struct ovsdb_idl_row *row, size_t parent,
           const struct ovsdb_idl_row *fake_port, int vlan)
{
    struct vsctl_bridge *b;

    ctx->bridges = xrealloc(ctx->bridges,
                            (ctx->n_bridges + 1) * sizeof *ctx->bridges);
    b = &ctx->bridges[ctx->n_bridges];
    b->name = xstrdup(name);
    b->row = row;
    b->parent = parent;
    b->fake_port = fake_port;
    b->vlan = vlan;
    return ctx->n_bridges++;
}

static void
populate_cache(struct vsctl_ctx *ctx)
{
    const struct ovsdb_datum *bridges;
    unsigned int i, j, k;

    if (ctx->cache_valid) {
        return;
    }
    invalidate_cache(ctx);
    ctx->cache_valid = true;
    if (!ctx->ovs) {
        return;
    }
    verify(ctx, ctx->ovs, "bridges");
    bridges = get_col(ctx->ovs, "bridges");

    /* Real bridges, then the fake bridges their ports define. */
    for (i = 0; i < bridges->n; i++) {
        const struct ovsdb_idl_row *br = ref_row(ctx, "Bridge",
                                                 &bridges->keys[i].uuid);
        const char *name;

        if (!br) {
            continue;
        }
        name = get_string(br, "name");
        if (cache_find_bridge(ctx, name) != SIZE_MAX) {
            VLOG_WARN("%s: database contains duplicate bridge name", name);
            continue;
        }
        add_bridge(ctx, name, br, SIZE_MAX, NULL, 0);
    }
    for (i = 0; i < ctx->n_bridges; i++) {
        const struct ovsdb_idl_row *br = ctx->bridges[i].row;
        const struct ovsdb_datum *ports;

        if (!br) {
            continue;
        }
        verify(ctx, br, "ports");
        ports = get_col(br, "ports");
        for (j = 0; j < ports->n; j++) {
            const struct ovsdb_idl_row *port
                = ref_row(ctx, "Port", &ports->keys[j].uuid);

            if (port && port_is_fake_bridge(port)
                && cache_find_bridge(ctx, get_string(port, "name"))
                   == SIZE_MAX) {
                add_bridge(ctx, get_string(port, "name"), NULL, i, port,
                           port_vlan(port));
            }
        }
    }

    /* Ports and interfaces. */
    for (i = 0; i < ctx->n_bridges; i++) {
        const struct ovsdb_idl_row *br = ctx->bridges[i].row;
        const struct ovsdb_datum *ports;

        if (!br) {
            continue;
        }
        ports = get_col(br, "ports");
        for (j = 0; j < ports->n; j++) {
            const struct ovsdb_idl_row *port
                = ref_row(ctx, "Port", &ports->keys[j].uuid);
            const struct ovsdb_datum *ifaces;
            size_t owner = i;
            int vlan;

            if (!port) {
                continue;
            }
            if (cache_has_port(ctx, get_string(port, "name"))) {
                VLOG_WARN("%s: database contains duplicate port name",
                          get_string(port, "name"));
                continue;
            }
            vlan = port_vlan(port);
            if (vlan >= 0) {
                size_t b;

                for (b = 0; b < ctx->n_bridges; b++) {
                    if (!ctx->bridges[b].row && ctx->bridges[b].parent == i
                        && ctx->bridges[b].vlan == vlan) {
                        owner = b;
                        break;
                    }
                }
            }
            ctx->ports = xrealloc(ctx->ports,
                                  (ctx->n_ports + 1) * sizeof *ctx->ports);
            ctx->ports[ctx->n_ports].row = port;
            ctx->ports[ctx->n_ports].bridge = owner;
            ctx->n_ports++;

            ifaces = get_col(port, "interfaces");
            for (k = 0; k < ifaces->n; k++) {
                const struct ovsdb_idl_row *iface
                    = ref_row(ctx, "Interface", &ifaces->keys[k].uuid);

                if (!iface) {
                    continue;
                }
                if (cache_has_iface(ctx, get_string(iface, "name"))) {
                    VLOG_WARN("%s: database contains duplicate interface "
                              "name", get_string(iface, "name"));
                    continue;
                }
                ctx->ifaces = xrealloc(ctx->ifaces, (ctx->n_ifaces + 1)
                                       * sizeof *ctx->ifaces);
                ctx->ifaces[ctx->n_ifaces].row = iface;
                ctx->ifaces[ctx->n_ifaces].port = ctx->n_ports - 1;
                ctx->n_ifaces++;
            }
        }
    }
}

static struct vsctl_bridge *
find_bridge(struct vsctl_ctx *ctx, const char *name, bool must_exist)
{
    size_t i;

    populate_cache(ctx);
    i = cache_find_bridge(ctx, name);
    if (i == SIZE_MAX) {
        if (must_exist) {
            db_ctl_fatal("no bridge named %s", name);
        }
        return NULL;
    }
    return &ctx->bridges[i];
}

static struct vsctl_bridge *
find_real_bridge(struct vsctl_ctx *ctx, const char *name, bool must_exist)
{
    struct vsctl_bridge *br = find_bridge(ctx, name, must_exist);

    if (br && !br->row) {
        db_ctl_fatal("%s is a fake bridge", name);
    }
    return br;
}

static struct vsctl_port *
find_port(struct vsctl_ctx *ctx, const char *name, bool must_exist)
{
    size_t i;

    populate_cache(ctx);
    for (i = 0; i < ctx->n_ports; i++) {
        struct vsctl_port *port = &ctx->ports[i];

        if (!strcmp(get_string(port->row, "name"), name)) {
            if (!strcmp(name, ctx->bridges[port->bridge].name)) {
                break;
            }
            return port;
        }
    }
    if (must_exist) {
        db_ctl_fatal("no port named %s", name);
    }
    return NULL;
}

static struct vsctl_iface *
find_iface(struct vsctl_ctx *ctx, const char *name, bool must_exist)
{
    size_t i;

    populate_cache(ctx);
    for (i = 0; i < ctx->n_ifaces; i++) {
        struct vsctl_iface *iface = &ctx->ifaces[i];

        if (!strcmp(get_string(iface->row, "name"), name)) {
            struct vsctl_port *port = &ctx->ports[iface->port];

            if (!strcmp(name, ctx->bridges[port->bridge].name)) {
                break;
            }
            return iface;
        }
    }
    if (must_exist) {
        db_ctl_fatal("no interface named %s", name);
    }
    return NULL;
}

static const char *
port_bridge_name(struct vsctl_ctx *ctx, const struct vsctl_port *port)
{
    return ctx->bridges[port->bridge].name;
}

/* Fails if 'name' is taken by a bridge, port or interface. */
static void
check_conflicts(struct vsctl_ctx *ctx, const char *name, const char *msg)
{
    size_t i;

    populate_cache(ctx);
    verify(ctx, ctx->ovs, "bridges");
    if (cache_find_bridge(ctx, name) != SIZE_MAX) {
        db_ctl_fatal("%s because a bridge named %s already exists", msg,
                    name);
    }
    for (i = 0; i < ctx->n_ports; i++) {
        if (!strcmp(get_string(ctx->ports[i].row, "name"), name)) {
            db_ctl_fatal("%s because a port named %s already exists on "
                        "bridge %s", msg, name,
                        port_bridge_name(ctx, &ctx->ports[i]));
        }
    }
    for (i = 0; i < ctx->n_ifaces; i++) {
        if (!strcmp(get_string(ctx->ifaces[i].row, "name"), name)) {
            db_ctl_fatal("%s because an interface named %s already exists "
                        "on bridge %s", msg, name,
                        port_bridge_name(ctx,
                                         &ctx->ports[ctx->ifaces[i].port]));
        }
    }
}

/* The bridge row that holds a bridge's ports: its own, or its parent's. */
static const struct ovsdb_idl_row *
bridge_row(struct vsctl_ctx *ctx, const struct vsctl_bridge *br)
{
    return br->row ? br->row : ctx->bridges[br->parent].row;
}

/* ------------------------------------------------------------------------
 * Output tables (list, find).
 * ------------------------------------------------------------------------ */


/* Appends 't' to 'out' in the format the options ask for. */
static void
print_table(const struct table *t, struct ds *out)
{
    const struct table_style style = {
        .format = format,
        .data = data_format,
        .headings = headings,
        .pretty = pretty,
        .json_flags = 0,
        .csv_specials = "\n\",",
    };

    table_format(t, &style, out);
}


/* ------------------------------------------------------------------------
 * Open vSwitch commands.
 * ------------------------------------------------------------------------ */

static void
cmd_init(struct db_ctl_context *ctx_ DPS_UNUSED,
         struct db_ctl_command *cmd DPS_UNUSED)
{
    /* The root row is inserted, if missing, before any command runs. */
}

struct show_table {
    const char *table;
    const char *name_column;
    const char *columns[4];
};

static const struct show_table show_tables[] = {
    {"Open_vSwitch", NULL, {"manager_options", "bridges", "ovs_version"}},
    {"Bridge", "name", {"controller", "fail_mode", "datapath_type",
                        "ports"}},
    {"Port", "name", {"tag", "trunks", "interfaces"}},
    {"Interface", "name", {"type", "options", "error", "bfd_status"}},
    {"Controller", "target", {"is_connected"}},
    {"Manager", "target", {"is_connected"}},
};

static const struct show_table *
find_show_table(const char *name)
{
    size_t i;

    for (i = 0; i < sizeof show_tables / sizeof show_tables[0]; i++) {
        if (!strcmp(show_tables[i].table, name)) {
            return &show_tables[i];
        }
    }
    return NULL;
}

static void
show_row(struct vsctl_ctx *ctx, const struct ovsdb_idl_row *row, int level,
         struct ds *out)
{
    const struct ovsdb_table_schema *ts = ovsdb_idl_row_get_table(row);
    const struct show_table *st = find_show_table(ts->name);
    size_t i;

    ds_put_char_multiple(out, ' ', level * 4);
    if (st && st->name_column) {
        const struct ovsdb_column *c
            = ovsdb_table_schema_find_column(ts, st->name_column);

        ds_put_format(out, "%s ", ts->name);
        if (c) {
            ovsdb_datum_to_string(ovsdb_idl_row_get(row, c), &c->type, out);
        }
    } else {
        char s[UUID_LEN + 1];

        uuid_to_string(ovsdb_idl_row_get_uuid(row), s);
        ds_put_cstr(out, s);
    }
    ds_put_char(out, '\n');

    if (!st) {
        return;
    }
    for (i = 0; i < 4 && st->columns[i]; i++) {
        const struct ovsdb_column *c
            = ovsdb_table_schema_find_column(ts, st->columns[i]);
        const struct ovsdb_datum *d;

        if (!c) {
            continue;
        }
        d = ovsdb_idl_row_get(row, c);
        if (c->type.key.type == OVSDB_TYPE_UUID
            && c->type.key.uuid.ref_table_name
            && c->type.value.type == OVSDB_TYPE_VOID) {
            const struct ovsdb_table_schema *rts
                = ovsdb_idl_get_table(ctx->base.idl,
                                      c->type.key.uuid.ref_table_name);
            unsigned int j;

            for (j = 0; rts && j < d->n; j++) {
                const struct ovsdb_idl_row *ref
                    = ovsdb_idl_get_row(ctx->base.idl, rts, &d->keys[j].uuid);

                if (ref) {
                    show_row(ctx, ref, level + 1, out);
                }
            }
        } else if (!ovsdb_datum_is_default(d, &c->type)) {
            ds_put_char_multiple(out, ' ', (level + 1) * 4);
            ds_put_format(out, "%s: ", c->name);
            ovsdb_datum_to_string(d, &c->type, out);
            ds_put_char(out, '\n');
        }
    }
}

static void
cmd_show(struct db_ctl_context *ctx_,
         struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    const struct ovsdb_idl_row *row;

    OVSDB_IDL_FOR_EACH_ROW (row, ctx->base.idl,
                            table_schema(ctx, "Open_vSwitch")) {
        show_row(ctx, row, 0, &cmd->output);
    }
}

static void
clear_columns(struct vsctl_ctx *ctx, const struct ovsdb_idl_row *row,
              const char *const *names)
{
    const struct ovsdb_table_schema *ts = ovsdb_idl_row_get_table(row);

    for (; *names; names++) {
        const struct ovsdb_column *c
            = ovsdb_table_schema_find_column(ts, *names);
        struct ovsdb_datum d;

        if (c) {
            ovsdb_datum_init_default(&d, &c->type);
            ovsdb_idl_txn_write(ctx->base.txn, row, c, &d);
        }
    }
}

static void
clear_table(struct vsctl_ctx *ctx, const char *table)
{
    const struct ovsdb_table_schema *ts = ovsdb_idl_get_table(ctx->base.idl,
                                                              table);
    const struct ovsdb_idl_row *row, *next;

    if (!ts) {
        return;
    }
    for (row = ovsdb_idl_first_row(ctx->base.idl, ts); row; row = next) {
        next = ovsdb_idl_next_row(row);
        ovsdb_idl_txn_delete(ctx->base.txn, row);
    }
}

static void
cmd_emer_reset(struct db_ctl_context *ctx_,
               struct db_ctl_command *cmd DPS_UNUSED)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    static const char *const ovs_cols[] = {
        "manager_options", "ssl", NULL
    };
    static const char *const bridge_cols[] = {
        "controller", "fail_mode", "mirrors", "netflow", "sflow", "ipfix",
        "flood_vlans", "other_config", NULL
    };
    static const char *const port_cols[] = { "other_config", NULL };
    static const char *const iface_cols[] = {
        "ingress_policing_rate", "ingress_policing_burst", NULL
    };
    const struct ovsdb_idl_row *row;

    clear_columns(ctx, ctx->ovs, ovs_cols);
    OVSDB_IDL_FOR_EACH_ROW (row, ctx->base.idl, table_schema(ctx, "Bridge")) {
        const struct ovsdb_datum *oc = get_col(row, "other_config");
        struct ovsdb_datum keep;
        unsigned int i;

        clear_columns(ctx, row, bridge_cols);
        /* Keep only the keys that are not about the controller
         * connection, as Open vSwitch does: "hwaddr" survives. */
        ovsdb_datum_init_empty(&keep);
        for (i = 0; i < oc->n; i++) {
            if (!strcmp(oc->keys[i].string, "hwaddr")) {
                const struct ovsdb_column *c
                    = column_schema(ovsdb_idl_row_get_table(row),
                                    "other_config");

                ovsdb_datum_add(&keep, &oc->keys[i], &oc->values[i],
                                &c->type);
            }
        }
        if (keep.n) {
            write_datum(ctx, row, "other_config", &keep);
        } else {
            ovsdb_datum_destroy(&keep, &column_schema(
                                    ovsdb_idl_row_get_table(row),
                                    "other_config")->type);
        }
    }
    OVSDB_IDL_FOR_EACH_ROW (row, ctx->base.idl, table_schema(ctx, "Port")) {
        clear_columns(ctx, row, port_cols);
    }
    OVSDB_IDL_FOR_EACH_ROW (row, ctx->base.idl,
                            table_schema(ctx, "Interface")) {
        clear_columns(ctx, row, iface_cols);
    }
    clear_table(ctx, "Mirror");
    clear_table(ctx, "Controller");
    clear_table(ctx, "Manager");
    clear_table(ctx, "SSL");
    clear_table(ctx, "NetFlow");
    clear_table(ctx, "sFlow");
    clear_table(ctx, "IPFIX");
    clear_table(ctx, "Flow_Sample_Collector_Set");
    invalidate_cache(ctx);
}

/* ------------------------------------------------------------------------
 * Bridge commands.
 * ------------------------------------------------------------------------ */

static void
cmd_add_br(struct db_ctl_context *ctx_,
           struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    bool may_exist = db_ctl_has_option(cmd, "--may-exist");
    const char *br_name = cmd->argv[1];
    const char *parent_name = NULL;
    const struct ovsdb_idl_row *iface, *port;
    int vlan = 0;

    if (!br_name[0]) {
        db_ctl_fatal("bridge name must not be empty string");
    }
    if (cmd->argc == 4) {
        parent_name = cmd->argv[2];
        vlan = atoi(cmd->argv[3]);
        if (vlan < 0 || vlan > 4095) {
            db_ctl_fatal("%s: vlan must be between 0 and 4095",
                        cmd->argv[0]);
        }
    } else if (cmd->argc != 2) {
        db_ctl_fatal("'%s' command takes exactly 1 or 3 arguments",
                    cmd->argv[0]);
    }

    populate_cache(ctx);
    if (may_exist) {
        struct vsctl_bridge *br = find_bridge(ctx, br_name, false);

        if (br) {
            if (!parent_name) {
                if (!br->row) {
                    db_ctl_fatal("\"--may-exist add-br %s\" but %s is a VLAN "
                                "bridge for VLAN %d", br_name, br_name,
                                br->vlan);
                }
            } else {
                if (br->row) {
                    db_ctl_fatal("\"--may-exist add-br %s %s %d\" but %s is "
                                "not a VLAN bridge", br_name, parent_name,
                                vlan, br_name);
                } else if (strcmp(ctx->bridges[br->parent].name,
                                  parent_name)) {
                    db_ctl_fatal("\"--may-exist add-br %s %s %d\" but %s has "
                                "the wrong parent %s", br_name, parent_name,
                                vlan, br_name,
                                ctx->bridges[br->parent].name);
                } else if (br->vlan != vlan) {
                    db_ctl_fatal("\"--may-exist add-br %s %s %d\" but %s is "
                                "a VLAN bridge for the wrong VLAN %d",
                                br_name, parent_name, vlan, br_name,
                                br->vlan);
                }
            }
            return;
        }
    }
    {
        char *msg = xasprintf("cannot create a bridge named %s", br_name);

        check_conflicts(ctx, br_name, msg);
        free(msg);
    }

    if (!parent_name) {
        const struct ovsdb_idl_row *br;

        iface = insert_row(ctx, "Interface");
        write_string(ctx, iface, "name", br_name);
        write_string(ctx, iface, "type", "internal");

        port = insert_row(ctx, "Port");
        write_string(ctx, port, "name", br_name);
        write_uuids(ctx, port, "interfaces", ovsdb_idl_row_get_uuid(iface),
                    1);

        br = insert_row(ctx, "Bridge");
        write_string(ctx, br, "name", br_name);
        write_uuids(ctx, br, "ports", ovsdb_idl_row_get_uuid(port), 1);

        update_ref(ctx, ctx->ovs, "bridges", ovsdb_idl_row_get_uuid(br),
                   true);
    } else {
        struct vsctl_bridge *parent = find_bridge(ctx, parent_name, false);

        if (parent && !parent->row) {
            db_ctl_fatal("cannot create bridge with fake bridge as parent");
        }
        if (!parent) {
            db_ctl_fatal("parent bridge %s does not exist", parent_name);
        }
        iface = insert_row(ctx, "Interface");
        write_string(ctx, iface, "name", br_name);
        write_string(ctx, iface, "type", "internal");

        port = insert_row(ctx, "Port");
        write_string(ctx, port, "name", br_name);
        write_uuids(ctx, port, "interfaces", ovsdb_idl_row_get_uuid(iface),
                    1);
        write_bool(ctx, port, "fake_bridge", true);
        write_int(ctx, port, "tag", vlan);

        update_ref(ctx, parent->row, "ports", ovsdb_idl_row_get_uuid(port),
                   true);
    }
    ctx->new_ifaces = xrealloc(ctx->new_ifaces, (ctx->n_new_ifaces + 1)
                               * sizeof *ctx->new_ifaces);
    ctx->new_ifaces[ctx->n_new_ifaces++] = *ovsdb_idl_row_get_uuid(iface);
    invalidate_cache(ctx);
}

/* Removes port row 'port' from the bridge row that holds it, and deletes it
 * and its interfaces, so that later commands of the same invocation no
 * longer find them by name ("del-port br0 p1 -- add-port br1 p1"). */
static void
del_port_row(struct vsctl_ctx *ctx, const struct vsctl_port *port)
{
    const struct ovsdb_idl_row *br
        = bridge_row(ctx, &ctx->bridges[port->bridge]);
    size_t port_idx = port - ctx->ports;
    const struct ovsdb_idl_row *port_row = port->row;

    update_ref(ctx, br, "ports", ovsdb_idl_row_get_uuid(port_row), false);
    for (size_t i = 0; i < ctx->n_ifaces; i++) {
        if (ctx->ifaces[i].port == port_idx) {
            ovsdb_idl_txn_delete(ctx->base.txn, ctx->ifaces[i].row);
        }
    }
    ovsdb_idl_txn_delete(ctx->base.txn, port_row);
}

static void
del_bridge(struct vsctl_ctx *ctx, struct vsctl_bridge *br)
{
    size_t idx = br - ctx->bridges;
    size_t i;

    if (br->row) {
        /* Deleting a real bridge drops its ports and its fake bridges
         * with it. */
        update_ref(ctx, ctx->ovs, "bridges", ovsdb_idl_row_get_uuid(br->row),
                   false);
    } else {
        const struct ovsdb_idl_row *parent = ctx->bridges[br->parent].row;

        for (i = 0; i < ctx->n_ports; i++) {
            if (ctx->ports[i].bridge == idx) {
                update_ref(ctx, parent, "ports",
                           ovsdb_idl_row_get_uuid(ctx->ports[i].row), false);
            }
        }
    }
    invalidate_cache(ctx);
}

static void
cmd_del_br(struct db_ctl_context *ctx_,
           struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    bool must_exist = !db_ctl_has_option(cmd, "--if-exists");
    struct vsctl_bridge *br = find_bridge(ctx, cmd->argv[1], must_exist);

    if (br) {
        del_bridge(ctx, br);
    }
}

static int
compare_strings(const void *a_, const void *b_)
{
    const char *const *a = a_;
    const char *const *b = b_;

    return strcmp(*a, *b);
}

/* Prints 'names' sorted, one a line. */
static void
output_sorted(struct db_ctl_command *cmd, const char **names, size_t n)
{
    size_t i;

    qsort(names, n, sizeof *names, compare_strings);
    for (i = 0; i < n; i++) {
        if (i && !strcmp(names[i], names[i - 1])) {
            continue;
        }
        ds_put_format(&cmd->output, "%s\n", names[i]);
    }
}

static void
cmd_list_br(struct db_ctl_context *ctx_,
            struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    bool real = db_ctl_has_option(cmd, "--real");
    bool fake = db_ctl_has_option(cmd, "--fake");
    const char **names;
    size_t i, n = 0;

    if (real && fake) {
        db_ctl_fatal("list-br: --real and --fake may not be used together");
    }
    populate_cache(ctx);
    names = xcalloc(ctx->n_bridges + 1, sizeof *names);
    for (i = 0; i < ctx->n_bridges; i++) {
        bool is_fake = !ctx->bridges[i].row;

        if ((real && is_fake) || (fake && !is_fake)) {
            continue;
        }
        names[n++] = ctx->bridges[i].name;
    }
    output_sorted(cmd, names, n);
    free(names);
}

static void
cmd_br_exists(struct db_ctl_context *ctx_,
              struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    if (!find_bridge(ctx, cmd->argv[1], false)) {
        exit(2);
    }
}

static void
cmd_br_to_vlan(struct db_ctl_context *ctx_,
               struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    struct vsctl_bridge *br = find_bridge(ctx, cmd->argv[1], true);

    ds_put_format(&cmd->output, "%d\n", br->row ? 0 : br->vlan);
}

static void
cmd_br_to_parent(struct db_ctl_context *ctx_,
                 struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    struct vsctl_bridge *br = find_bridge(ctx, cmd->argv[1], true);

    ds_put_format(&cmd->output, "%s\n",
                  br->row ? br->name : ctx->bridges[br->parent].name);
}

/* The row whose external_ids a bridge's external ids live in: the Bridge
 * row of a real bridge, the Port row of a fake one. */
static const struct ovsdb_idl_row *
external_ids_row(struct vsctl_bridge *br)
{
    return br->row ? br->row : br->fake_port;
}

static void
cmd_br_set_external_id(struct db_ctl_context *ctx_,
                       struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    struct vsctl_bridge *br = find_bridge(ctx, cmd->argv[1], true);
    const struct ovsdb_idl_row *row = external_ids_row(br);
    const struct ovsdb_column *c
        = column_schema(ovsdb_idl_row_get_table(row), "external_ids");
    struct ovsdb_datum d;
    union ovsdb_atom key;
    unsigned int idx;

    ovsdb_idl_txn_verify(ctx->base.txn, row, c);
    ovsdb_datum_clone(&d, ovsdb_idl_row_get(row, c), &c->type);
    key.string = cmd->argv[2];
    idx = ovsdb_datum_find_key(&d, &key, OVSDB_TYPE_STRING);
    if (idx != UINT_MAX) {
        ovsdb_datum_remove(&d, idx, &c->type);
    }
    if (cmd->argc > 3) {
        union ovsdb_atom value;

        value.string = cmd->argv[3];
        ovsdb_datum_add(&d, &key, &value, &c->type);
    }
    ovsdb_idl_txn_write(ctx->base.txn, row, c, &d);
}

static void
cmd_br_get_external_id(struct db_ctl_context *ctx_,
                       struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    struct vsctl_bridge *br = find_bridge(ctx, cmd->argv[1], true);
    const struct ovsdb_idl_row *row = external_ids_row(br);
    const struct ovsdb_datum *d;
    unsigned int i;

    verify(ctx, row, "external_ids");
    d = get_col(row, "external_ids");
    for (i = 0; i < d->n; i++) {
        if (cmd->argc > 2) {
            if (!strcmp(d->keys[i].string, cmd->argv[2])) {
                ds_put_format(&cmd->output, "%s\n", d->values[i].string);
            }
        } else {
            ds_put_format(&cmd->output, "%s=%s\n", d->keys[i].string,
                          d->values[i].string);
        }
    }
}

/* ------------------------------------------------------------------------
 * Port and interface commands.
 * ------------------------------------------------------------------------ */

static void
cmd_list_ports(struct db_ctl_context *ctx_,
               struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    struct vsctl_bridge *br = find_bridge(ctx, cmd->argv[1], true);
    size_t idx = br - ctx->bridges;
    const char **names = xcalloc(ctx->n_ports + 1, sizeof *names);
    size_t i, n = 0;

    verify(ctx, bridge_row(ctx, br), "ports");
    for (i = 0; i < ctx->n_ports; i++) {
        const char *name = get_string(ctx->ports[i].row, "name");

        if (ctx->ports[i].bridge == idx && strcmp(name, br->name)) {
            names[n++] = name;
        }
    }
    output_sorted(cmd, names, n);
    free(names);
}

static void
cmd_list_ifaces(struct db_ctl_context *ctx_,
                struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    struct vsctl_bridge *br = find_bridge(ctx, cmd->argv[1], true);
    size_t idx = br - ctx->bridges;
    const char **names = xcalloc(ctx->n_ifaces + 1, sizeof *names);
    size_t i, n = 0;

    verify(ctx, bridge_row(ctx, br), "ports");
    for (i = 0; i < ctx->n_ifaces; i++) {
        const char *name = get_string(ctx->ifaces[i].row, "name");

        if (ctx->ports[ctx->ifaces[i].port].bridge == idx
            && strcmp(name, br->name)) {
            names[n++] = name;
        }
    }
    output_sorted(cmd, names, n);
    free(names);
}

static void
add_port(struct vsctl_ctx *ctx, struct db_ctl_command *cmd,
         const char *br_name, const char *port_name, bool may_exist,
         bool fake_iface, char **iface_names, int n_ifaces,
         char **settings, int n_settings)
{
    const struct ovsdb_idl_row *port, *br_row;
    struct vsctl_bridge *br;
    struct uuid *ifaces;
    int fake_vlan;
    int i;

    if (!port_name[0]) {
        db_ctl_fatal("port name must not be empty string");
    }
    for (i = 0; i < n_ifaces; i++) {
        if (!iface_names[i][0]) {
            db_ctl_fatal("interface name must not be empty string");
        }
    }
    populate_cache(ctx);
    if (may_exist) {
        struct vsctl_port *vp = find_port(ctx, port_name, false);

        if (vp) {
            struct vsctl_bridge *want = find_bridge(ctx, br_name, true);
            size_t j;
            int n_have = 0;

            if (want != &ctx->bridges[vp->bridge]) {
                db_ctl_fatal("\"--may-exist add-port %s %s\" but %s is "
                            "actually attached to bridge %s", br_name,
                            port_name, port_name, port_bridge_name(ctx, vp));
            }
            /* The interfaces must match exactly. */
            for (j = 0; j < ctx->n_ifaces; j++) {
                if (&ctx->ports[ctx->ifaces[j].port] == vp) {
                    const char *name = get_string(ctx->ifaces[j].row,
                                                  "name");
                    int k;

                    for (k = 0; k < n_ifaces; k++) {
                        if (!strcmp(iface_names[k], name)) {
                            break;
                        }
                    }
                    if (k == n_ifaces) {
                        n_have = -1;
                        break;
                    }
                    n_have++;
                }
            }
            if (n_have != n_ifaces) {
                struct ds want_s = DS_EMPTY_INITIALIZER;
                struct ds have_s = DS_EMPTY_INITIALIZER;
                const char **have = xcalloc(ctx->n_ifaces + 1,
                                            sizeof *have);
                char **sorted = xmemdup(iface_names,
                                        n_ifaces * sizeof *iface_names);
                size_t n = 0;

                for (j = 0; j < ctx->n_ifaces; j++) {
                    if (&ctx->ports[ctx->ifaces[j].port] == vp) {
                        have[n++] = get_string(ctx->ifaces[j].row, "name");
                    }
                }
                qsort(have, n, sizeof *have, compare_strings);
                qsort(sorted, n_ifaces, sizeof *sorted, compare_strings);
                for (j = 0; j < (size_t) n_ifaces; j++) {
                    ds_put_format(&want_s, "%s%s", j ? " " : "",
                                  sorted[j]);
                }
                for (j = 0; j < n; j++) {
                    ds_put_format(&have_s, "%s%s", j ? ", " : "", have[j]);
                }
                db_ctl_fatal("\"--may-exist add-bond %s %s %s\" but %s "
                            "actually has interface(s) %s", br_name,
                            port_name, ds_cstr(&want_s), port_name,
                            ds_cstr(&have_s));
            }
            return;
        }
    }
    {
        char *msg = xasprintf("cannot create a port named %s", port_name);

        check_conflicts(ctx, port_name, msg);
        free(msg);
        for (i = 0; i < n_ifaces; i++) {
            msg = xasprintf("cannot create an interface named %s",
                            iface_names[i]);
            check_conflicts(ctx, iface_names[i], msg);
            free(msg);
        }
    }
    br = find_bridge(ctx, br_name, true);
    /* 'br' points into the cache, which the settings below invalidate. */
    br_row = bridge_row(ctx, br);
    fake_vlan = br->row ? -1 : br->vlan;

    ifaces = xcalloc(n_ifaces, sizeof *ifaces);
    for (i = 0; i < n_ifaces; i++) {
        const struct ovsdb_idl_row *iface = insert_row(ctx, "Interface");

        write_string(ctx, iface, "name", iface_names[i]);
        ifaces[i] = *ovsdb_idl_row_get_uuid(iface);
        ctx->new_ifaces = xrealloc(ctx->new_ifaces, (ctx->n_new_ifaces + 1)
                                   * sizeof *ctx->new_ifaces);
        ctx->new_ifaces[ctx->n_new_ifaces++] = ifaces[i];
    }
    port = insert_row(ctx, "Port");
    write_string(ctx, port, "name", port_name);
    write_uuids(ctx, port, "interfaces", ifaces, n_ifaces);
    if (fake_iface) {
        write_bool(ctx, port, "bond_fake_iface", true);
    }
    if (fake_vlan >= 0) {
        write_int(ctx, port, "tag", fake_vlan);
    }
    free(ifaces);
    for (i = 0; i < n_settings; i++) {
        db_ctl_set_column(&ctx->base, table_schema(ctx, "Port"), port,
                          settings[i]);
    }
    update_ref(ctx, br_row, "ports", ovsdb_idl_row_get_uuid(port), true);
    invalidate_cache(ctx);
    (void) cmd;
}

static void
cmd_add_port(struct db_ctl_context *ctx_,
             struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    bool may_exist = db_ctl_has_option(cmd, "--may-exist");

    add_port(ctx, cmd, cmd->argv[1], cmd->argv[2], may_exist, false,
             &cmd->argv[2], 1, &cmd->argv[3], cmd->argc - 3);
}

static void
cmd_add_bond(struct db_ctl_context *ctx_,
             struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    bool may_exist = db_ctl_has_option(cmd, "--may-exist");
    bool fake_iface = db_ctl_has_option(cmd, "--fake-iface");
    int n_ifaces, i;

    n_ifaces = cmd->argc - 3;
    for (i = 3; i < cmd->argc; i++) {
        if (strchr(cmd->argv[i], '=')) {
            n_ifaces = i - 3;
            break;
        }
    }
    if (n_ifaces < 2) {
        db_ctl_fatal("add-bond requires at least 2 interfaces, but only "
                    "%d were specified", n_ifaces);
    }
    add_port(ctx, cmd, cmd->argv[1], cmd->argv[2], may_exist, fake_iface,
             &cmd->argv[3], n_ifaces, &cmd->argv[3 + n_ifaces],
             cmd->argc - 3 - n_ifaces);
}

static void
cmd_del_port(struct db_ctl_context *ctx_,
             struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    bool must_exist = !db_ctl_has_option(cmd, "--if-exists");
    bool with_iface = db_ctl_has_option(cmd, "--with-iface");
    const char *target = cmd->argv[cmd->argc - 1];
    struct vsctl_port *port = NULL;

    size_t i;

    populate_cache(ctx);
    /* A bridge's local port cannot go alone (with --if-exists, the command
     * does nothing instead). */
    for (i = 0; i < ctx->n_ports; i++) {
        if (!strcmp(get_string(ctx->ports[i].row, "name"), target)
            && !strcmp(target, port_bridge_name(ctx, &ctx->ports[i]))) {
            if (!must_exist) {
                return;
            }
            db_ctl_fatal("cannot delete port %s because it is the local "
                         "port for bridge %s (deleting this port requires "
                         "deleting the entire bridge)", target, target);
        }
    }
    if (!with_iface) {
        port = find_port(ctx, target, must_exist);
    } else {
        port = find_port(ctx, target, false);
        if (!port) {
            struct vsctl_iface *iface = find_iface(ctx, target, false);

            if (iface) {
                port = &ctx->ports[iface->port];
            }
        }
        if (must_exist && !port) {
            db_ctl_fatal("no port or interface named %s", target);
        }
    }
    if (!port) {
        return;
    }
    if (cmd->argc == 3) {
        struct vsctl_bridge *br = find_bridge(ctx, cmd->argv[1], true);
        struct vsctl_bridge *owner = &ctx->bridges[port->bridge];

        if (owner != br) {
            if (!owner->row && &ctx->bridges[owner->parent] == br) {
                db_ctl_fatal("bridge %s does not have a port %s (although "
                            "its child bridge %s does)", cmd->argv[1],
                            cmd->argv[2], owner->name);
            }
            db_ctl_fatal("bridge %s does not have a port %s", cmd->argv[1],
                        cmd->argv[2]);
        }
    }
    del_port_row(ctx, port);
    invalidate_cache(ctx);
}

static void
cmd_add_bond_iface(struct db_ctl_context *ctx_,
                   struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    bool may_exist = db_ctl_has_option(cmd, "--may-exist");
    const char *port_name = cmd->argv[1], *iface_name = cmd->argv[2];
    const struct ovsdb_idl_row *port_row, *iface;
    struct vsctl_port *port = find_port(ctx, port_name, true);
    char *msg;

    if (may_exist) {
        struct vsctl_iface *old = find_iface(ctx, iface_name, false);

        if (old) {
            if (&ctx->ports[old->port] != port) {
                db_ctl_fatal("\"--may-exist add-bond-iface %s %s\" but %s is "
                            "actually attached to port %s", port_name,
                            iface_name, iface_name,
                            get_string(ctx->ports[old->port].row, "name"));
            }
            return;
        }
    }
    msg = xasprintf("cannot create an interface named %s", iface_name);
    check_conflicts(ctx, iface_name, msg);
    free(msg);

    port_row = port->row;
    iface = insert_row(ctx, "Interface");
    write_string(ctx, iface, "name", iface_name);
    update_ref(ctx, port_row, "interfaces", ovsdb_idl_row_get_uuid(iface),
               true);
    ctx->new_ifaces = xrealloc(ctx->new_ifaces, (ctx->n_new_ifaces + 1)
                               * sizeof *ctx->new_ifaces);
    ctx->new_ifaces[ctx->n_new_ifaces++] = *ovsdb_idl_row_get_uuid(iface);
    invalidate_cache(ctx);
}

static void
cmd_del_bond_iface(struct db_ctl_context *ctx_,
                   struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    bool must_exist = !db_ctl_has_option(cmd, "--if-exists");
    const char *iface_name = cmd->argv[cmd->argc - 1];
    struct vsctl_iface *iface = find_iface(ctx, iface_name, must_exist);
    struct vsctl_port *port;

    if (!iface) {
        return;
    }
    port = &ctx->ports[iface->port];
    if (cmd->argc == 3 && find_port(ctx, cmd->argv[1], true) != port) {
        db_ctl_fatal("port %s does not have an interface %s", cmd->argv[1],
                    iface_name);
    }
    if (get_col(port->row, "interfaces")->n <= 1) {
        db_ctl_fatal("cannot delete last interface from port %s",
                    get_string(port->row, "name"));
    }
    update_ref(ctx, port->row, "interfaces",
               ovsdb_idl_row_get_uuid(iface->row), false);
    invalidate_cache(ctx);
}

static void
cmd_port_to_br(struct db_ctl_context *ctx_,
               struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    struct vsctl_port *port = find_port(ctx, cmd->argv[1], true);

    ds_put_format(&cmd->output, "%s\n", port_bridge_name(ctx, port));
}

static void
cmd_iface_to_br(struct db_ctl_context *ctx_,
                struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    struct vsctl_iface *iface = find_iface(ctx, cmd->argv[1], true);

    ds_put_format(&cmd->output, "%s\n",
                  port_bridge_name(ctx, &ctx->ports[iface->port]));
}

/* ------------------------------------------------------------------------
 * Controller, fail-mode, manager and SSL commands.
 * ------------------------------------------------------------------------ */

/* Prints the targets of the rows 'refs' of 'table', sorted. */
static void
output_targets(struct vsctl_ctx *ctx, struct db_ctl_command *cmd,
               const char *table, const struct ovsdb_datum *refs)
{
    const char **names = xcalloc(refs->n + 1, sizeof *names);
    size_t n = 0;
    unsigned int i;

    for (i = 0; i < refs->n; i++) {
        const struct ovsdb_idl_row *row = ref_row(ctx, table,
                                                  &refs->keys[i].uuid);

        if (row) {
            names[n++] = get_string(row, "target");
        }
    }
    output_sorted(cmd, names, n);
    free(names);
}

static void
cmd_get_controller(struct db_ctl_context *ctx_,
                   struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    struct vsctl_bridge *br = find_bridge(ctx, cmd->argv[1], true);
    const struct ovsdb_idl_row *row = bridge_row(ctx, br);

    verify(ctx, row, "controller");
    output_targets(ctx, cmd, "Controller", get_col(row, "controller"));
}

static void
cmd_del_controller(struct db_ctl_context *ctx_,
                   struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    struct vsctl_bridge *br = find_real_bridge(ctx, cmd->argv[1], true);

    write_uuids(ctx, br->row, "controller", NULL, 0);
}

/* Warns, as Open vSwitch's ovs-vsctl does, about a controller or manager
 * 'target' whose connection type (the text before ':') is none of those
 * that Open vSwitch's connections know. */
static void
check_target_type(const char *target)
{
    static const char *const types[] = {
        "tcp", "ssl", "unix", "ptcp", "pssl", "punix"
    };
    size_t len = strcspn(target, ":");
    size_t i;

    if (target[len] == ':') {
        for (i = 0; i < sizeof types / sizeof types[0]; i++) {
            if (strlen(types[i]) == len && !strncmp(target, types[i], len)) {
                return;
            }
        }
    }
    VLOG_WARN("target type \"%s\" is possibly erroneous", target);
}

/* Sets the "inactivity_probe" of a new Controller or Manager 'row' from
 * 'cmd''s --inactivity-probe=MSECS, if given (read as atoll() does, as Open
 * vSwitch's ovs-vsctl reads it). */
static void
write_inactivity_probe(struct vsctl_ctx *ctx,
                       const struct db_ctl_command *cmd,
                       const struct ovsdb_idl_row *row)
{
    const char *msecs = db_ctl_command_option(cmd, "--inactivity-probe");

    if (msecs) {
        write_int(ctx, row, "inactivity_probe", atoll(msecs));
    }
}

static void
cmd_set_controller(struct db_ctl_context *ctx_,
                   struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    struct vsctl_bridge *br = find_real_bridge(ctx, cmd->argv[1], true);
    struct uuid *uuids = xcalloc(cmd->argc, sizeof *uuids);
    int i;

    for (i = 2; i < cmd->argc; i++) {
        const struct ovsdb_idl_row *c = insert_row(ctx, "Controller");

        check_target_type(cmd->argv[i]);
        write_string(ctx, c, "target", cmd->argv[i]);
        write_inactivity_probe(ctx, cmd, c);
        uuids[i - 2] = *ovsdb_idl_row_get_uuid(c);
    }
    write_uuids(ctx, br->row, "controller", uuids, cmd->argc - 2);
    free(uuids);
}

static void
cmd_get_fail_mode(struct db_ctl_context *ctx_,
                  struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    struct vsctl_bridge *br = find_bridge(ctx, cmd->argv[1], true);
    const struct ovsdb_idl_row *row = bridge_row(ctx, br);
    const struct ovsdb_datum *d;

    verify(ctx, row, "fail_mode");
    d = get_col(row, "fail_mode");
    if (d->n && *d->keys[0].string) {
        ds_put_format(&cmd->output, "%s\n", d->keys[0].string);
    }
}

static void
cmd_del_fail_mode(struct db_ctl_context *ctx_,
                  struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    struct vsctl_bridge *br = find_real_bridge(ctx, cmd->argv[1], true);

    write_string(ctx, br->row, "fail_mode", NULL);
}

static void
cmd_set_fail_mode(struct db_ctl_context *ctx_,
                  struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    struct vsctl_bridge *br = find_real_bridge(ctx, cmd->argv[1], true);
    const char *mode = cmd->argv[2];

    if (strcmp(mode, "standalone") && strcmp(mode, "secure")) {
        db_ctl_fatal("fail-mode must be \"standalone\" or \"secure\"");
    }
    write_string(ctx, br->row, "fail_mode", mode);
}

static void
cmd_get_manager(struct db_ctl_context *ctx_,
                struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    verify(ctx, ctx->ovs, "manager_options");
    output_targets(ctx, cmd, "Manager", get_col(ctx->ovs,
                                                "manager_options"));
}

static void
cmd_del_manager(struct db_ctl_context *ctx_,
                struct db_ctl_command *cmd DPS_UNUSED)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    verify(ctx, ctx->ovs, "manager_options");
    write_uuids(ctx, ctx->ovs, "manager_options", NULL, 0);
}

static void
cmd_set_manager(struct db_ctl_context *ctx_,
                struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    struct uuid *uuids = xcalloc(cmd->argc, sizeof *uuids);
    int i;

    verify(ctx, ctx->ovs, "manager_options");
    for (i = 1; i < cmd->argc; i++) {
        const struct ovsdb_idl_row *m = insert_row(ctx, "Manager");

        check_target_type(cmd->argv[i]);
        write_string(ctx, m, "target", cmd->argv[i]);
        write_inactivity_probe(ctx, cmd, m);
        uuids[i - 1] = *ovsdb_idl_row_get_uuid(m);
    }
    write_uuids(ctx, ctx->ovs, "manager_options", uuids, cmd->argc - 1);
    free(uuids);
}

/* ------------------------------------------------------------------------
 * Conntrack zones and their timeout policies.
 * ------------------------------------------------------------------------ */

/* Returns the Datapath row that the Open_vSwitch record's "datapaths" names
 * 'name', or NULL. */
static const struct ovsdb_idl_row *
find_datapath(struct vsctl_ctx *ctx, const char *name)
{
    const struct ovsdb_datum *dps = get_col(ctx->ovs, "datapaths");
    union ovsdb_atom key;
    unsigned int idx;

    key.string = (char *) name;
    idx = ovsdb_datum_find_key(dps, &key, OVSDB_TYPE_STRING);
    return (idx == UINT_MAX ? NULL
            : ref_row(ctx, "Datapath", &dps->values[idx].uuid));
}

static const struct ovsdb_idl_row *
must_find_datapath(struct vsctl_ctx *ctx, const char *name)
{
    const struct ovsdb_idl_row *dp = find_datapath(ctx, name);

    if (!dp) {
        db_ctl_fatal("datapath %s does not exist", name);
    }
    return dp;
}

/* Parses "zone=ZONE" as Open vSwitch reads it (the number as atoi() reads
 * it: "7x" is 7). */
static int64_t
parse_zone(const char *arg)
{
    if (strncmp(arg, "zone=", 5)) {
        db_ctl_fatal("\"%s\": expected zone=ZONE_ID", arg);
    }
    return atoi(arg + 5);
}

/* Returns the index of 'zone' in the "ct_zones" map 'zones', or UINT_MAX. */
static unsigned int
find_zone(const struct ovsdb_datum *zones, int64_t zone)
{
    union ovsdb_atom key;

    key.integer = zone;
    return ovsdb_datum_find_key(zones, &key, OVSDB_TYPE_INTEGER);
}

/* Returns a CT_Timeout_Policy row whose "timeouts" are 'timeouts': an
 * existing one (zones with the same policies share it, as in Open vSwitch)
 * or a new one.  Takes ownership of 'timeouts'. */
static const struct ovsdb_idl_row *
timeout_policy_row(struct vsctl_ctx *ctx, struct ovsdb_datum *timeouts)
{
    const struct ovsdb_table_schema *ts = table_schema(ctx,
                                                       "CT_Timeout_Policy");
    const struct ovsdb_column *c = column_schema(ts, "timeouts");
    const struct ovsdb_idl_row *row;

    OVSDB_IDL_FOR_EACH_ROW (row, ctx->base.idl, ts) {
        if (ovsdb_datum_equals(ovsdb_idl_row_get(row, c), timeouts,
                               &c->type)) {
            ovsdb_datum_destroy(timeouts, &c->type);
            return row;
        }
    }
    row = insert_row(ctx, "CT_Timeout_Policy");
    ovsdb_idl_txn_write(ctx->base.txn, row, c, timeouts);
    return row;
}

/* add-zone-tp DATAPATH zone=ZONE POLICY=SECONDS...: each POLICY once (the
 * first one given counts), the value as atoi() reads it; the server checks
 * the policy names and ranges. */
static void
cmd_add_zone_tp(struct db_ctl_context *ctx_, struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    bool may_exist = db_ctl_has_option(cmd, "--may-exist");
    const struct ovsdb_idl_row *dp = must_find_datapath(ctx, cmd->argv[1]);
    int64_t zone = parse_zone(cmd->argv[2]);
    const struct ovsdb_idl_row *ct_zone, *tp;
    const struct ovsdb_column *zones_col, *tp_col, *timeouts_col;
    struct ovsdb_datum zones, timeouts;
    union ovsdb_atom key, value;
    unsigned int idx;
    int i;

    zones_col = column_schema(ovsdb_idl_row_get_table(dp), "ct_zones");
    timeouts_col = column_schema(table_schema(ctx, "CT_Timeout_Policy"),
                                 "timeouts");
    tp_col = column_schema(table_schema(ctx, "CT_Zone"), "timeout_policy");
    ovsdb_datum_clone(&zones, ovsdb_idl_row_get(dp, zones_col),
                      &zones_col->type);
    idx = find_zone(&zones, zone);
    if (idx != UINT_MAX && !may_exist) {
        db_ctl_fatal("zone id %"PRId64" already exists", zone);
    }

    ovsdb_datum_init_empty(&timeouts);
    for (i = 3; i < cmd->argc; i++) {
        const char *eq = strchr(cmd->argv[i], '=');
        char *name = (eq ? xmemdup0(cmd->argv[i], eq - cmd->argv[i])
                      : xstrdup(cmd->argv[i]));

        key.string = name;
        if (ovsdb_datum_find_key(&timeouts, &key, OVSDB_TYPE_STRING)
            == UINT_MAX) {
            value.integer = eq ? atoi(eq + 1) : 0;
            ovsdb_datum_add(&timeouts, &key, &value, &timeouts_col->type);
        }
        free(name);
    }
    tp = timeout_policy_row(ctx, &timeouts);

    if (idx != UINT_MAX) {
        ct_zone = ref_row(ctx, "CT_Zone", &zones.values[idx].uuid);
    } else {
        ct_zone = insert_row(ctx, "CT_Zone");
        key.integer = zone;
        value.uuid = *ovsdb_idl_row_get_uuid(ct_zone);
        ovsdb_datum_add(&zones, &key, &value, &zones_col->type);
    }
    write_uuids(ctx, ct_zone, tp_col->name, ovsdb_idl_row_get_uuid(tp), 1);
    ovsdb_idl_txn_verify(ctx->base.txn, dp, zones_col);
    ovsdb_idl_txn_write(ctx->base.txn, dp, zones_col, &zones);
}

/* del-zone-tp DATAPATH zone=ZONE: the zone's CT_Zone and, once unused, its
 * policy go as unreferenced rows. */
static void
cmd_del_zone_tp(struct db_ctl_context *ctx_, struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    bool must_exist = !db_ctl_has_option(cmd, "--if-exists");
    const struct ovsdb_idl_row *dp = must_find_datapath(ctx, cmd->argv[1]);
    int64_t zone = parse_zone(cmd->argv[2]);
    const struct ovsdb_column *zones_col;
    struct ovsdb_datum zones;
    unsigned int idx;

    zones_col = column_schema(ovsdb_idl_row_get_table(dp), "ct_zones");
    ovsdb_datum_clone(&zones, ovsdb_idl_row_get(dp, zones_col),
                      &zones_col->type);
    idx = find_zone(&zones, zone);
    if (idx == UINT_MAX) {
        ovsdb_datum_destroy(&zones, &zones_col->type);
        if (must_exist) {
            db_ctl_fatal("zone id %"PRId64" does not exist", zone);
        }
        return;
    }
    ovsdb_datum_remove(&zones, idx, &zones_col->type);
    ovsdb_idl_txn_verify(ctx->base.txn, dp, zones_col);
    ovsdb_idl_txn_write(ctx->base.txn, dp, zones_col, &zones);
}

/* list-zone-tp DATAPATH: "Zone:ZONE, Timeout Policies: NAME=SECONDS ..." for
 * each zone, in zone order. */
static void
cmd_list_zone_tp(struct db_ctl_context *ctx_, struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    const struct ovsdb_idl_row *dp = find_datapath(ctx, cmd->argv[1]);
    const struct ovsdb_datum *zones;
    unsigned int i, j;

    if (!dp) {
        db_ctl_fatal("datapath: %s record not found", cmd->argv[1]);
    }
    zones = get_col(dp, "ct_zones");
    for (i = 0; i < zones->n; i++) {
        const struct ovsdb_idl_row *ct_zone
            = ref_row(ctx, "CT_Zone", &zones->values[i].uuid);
        const struct ovsdb_datum *tp_ref = (ct_zone
                                            ? get_col(ct_zone,
                                                      "timeout_policy")
                                            : NULL);
        const struct ovsdb_idl_row *tp
            = (tp_ref && tp_ref->n
               ? ref_row(ctx, "CT_Timeout_Policy", &tp_ref->keys[0].uuid)
               : NULL);

        ds_put_format(&cmd->output, "Zone:%"PRId64", Timeout Policies:",
                      zones->keys[i].integer);
        if (tp) {
            const struct ovsdb_datum *timeouts = get_col(tp, "timeouts");

            for (j = 0; j < timeouts->n; j++) {
                ds_put_format(&cmd->output, " %s=%"PRId64,
                              timeouts->keys[j].string,
                              timeouts->values[j].integer);
            }
        }
        ds_put_char(&cmd->output, '\n');
    }
}

static void
cmd_get_ssl(struct db_ctl_context *ctx_,
            struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    const struct ovsdb_datum *ssl_ref;
    const struct ovsdb_idl_row *ssl;

    verify(ctx, ctx->ovs, "ssl");
    ssl_ref = get_col(ctx->ovs, "ssl");
    if (!ssl_ref->n) {
        return;
    }
    ssl = ref_row(ctx, "SSL", &ssl_ref->keys[0].uuid);
    if (!ssl) {
        return;
    }
    ds_put_format(&cmd->output, "Private key: %s\n",
                  get_string(ssl, "private_key"));
    ds_put_format(&cmd->output, "Certificate: %s\n",
                  get_string(ssl, "certificate"));
    ds_put_format(&cmd->output, "CA Certificate: %s\n",
                  get_string(ssl, "ca_cert"));
    ds_put_format(&cmd->output, "Bootstrap: %s\n",
                  get_col(ssl, "bootstrap_ca_cert")->keys[0].boolean
                  ? "true" : "false");
}

static void
cmd_del_ssl(struct db_ctl_context *ctx_,
            struct db_ctl_command *cmd DPS_UNUSED)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    const struct ovsdb_datum *ssl_ref = get_col(ctx->ovs, "ssl");

    if (ssl_ref->n) {
        const struct ovsdb_idl_row *ssl = ref_row(ctx, "SSL",
                                                  &ssl_ref->keys[0].uuid);

        verify(ctx, ctx->ovs, "ssl");
        if (ssl) {
            ovsdb_idl_txn_delete(ctx->base.txn, ssl);
        }
        write_uuids(ctx, ctx->ovs, "ssl", NULL, 0);
    }
}

static void
cmd_set_ssl(struct db_ctl_context *ctx_,
            struct db_ctl_command *cmd)
{
    struct vsctl_ctx *ctx = vsctl_ctx_cast(ctx_);
    bool bootstrap = db_ctl_has_option(cmd, "--bootstrap");
    const struct ovsdb_datum *ssl_ref = get_col(ctx->ovs, "ssl");
    const struct ovsdb_idl_row *ssl;

    verify(ctx, ctx->ovs, "ssl");
    if (ssl_ref->n) {
        ssl = ref_row(ctx, "SSL", &ssl_ref->keys[0].uuid);
        if (ssl) {
            ovsdb_idl_txn_delete(ctx->base.txn, ssl);
        }
    }
    ssl = insert_row(ctx, "SSL");
    write_string(ctx, ssl, "private_key", cmd->argv[1]);
    write_string(ctx, ssl, "certificate", cmd->argv[2]);
    write_string(ctx, ssl, "ca_cert", cmd->argv[3]);
    write_bool(ctx, ssl, "bootstrap_ca_cert", bootstrap);
    write_uuids(ctx, ctx->ovs, "ssl", ovsdb_idl_row_get_uuid(ssl), 1);
}

/* ------------------------------------------------------------------------
 * The command table.
 * ------------------------------------------------------------------------ */

static const struct db_ctl_command_syntax vsctl_commands[] = {
    {"init", 0, 0, cmd_init, "", true},
    {"show", 0, 0, cmd_show, "", false},
    {"emer-reset", 0, 0, cmd_emer_reset, "", true},

    {"add-br", 1, 3, cmd_add_br, "--may-exist", true},
    {"del-br", 1, 1, cmd_del_br, "--if-exists", true},
    {"list-br", 0, 0, cmd_list_br, "--real,--fake", false},
    {"br-exists", 1, 1, cmd_br_exists, "", false},
    {"br-to-vlan", 1, 1, cmd_br_to_vlan, "", false},
    {"br-to-parent", 1, 1, cmd_br_to_parent, "", false},
    {"br-set-external-id", 2, 3, cmd_br_set_external_id, "", true},
    {"br-get-external-id", 1, 2, cmd_br_get_external_id, "", false},

    {"list-ports", 1, 1, cmd_list_ports, "", false},
    {"add-port", 2, INT_MAX, cmd_add_port, "--may-exist", true},
    {"add-bond", 4, INT_MAX, cmd_add_bond, "--may-exist,--fake-iface", true},
    {"del-port", 1, 2, cmd_del_port, "--if-exists,--with-iface", true},
    {"add-bond-iface", 2, 2, cmd_add_bond_iface, "--may-exist", true},
    {"del-bond-iface", 1, 2, cmd_del_bond_iface, "--if-exists", true},
    {"port-to-br", 1, 1, cmd_port_to_br, "", false},

    {"list-ifaces", 1, 1, cmd_list_ifaces, "", false},
    {"iface-to-br", 1, 1, cmd_iface_to_br, "", false},

    {"get-controller", 1, 1, cmd_get_controller, "", false},
    {"del-controller", 1, 1, cmd_del_controller, "", true},
    {"set-controller", 1, INT_MAX, cmd_set_controller, "--inactivity-probe=",
     true},
    {"get-fail-mode", 1, 1, cmd_get_fail_mode, "", false},
    {"del-fail-mode", 1, 1, cmd_del_fail_mode, "", true},
    {"set-fail-mode", 2, 2, cmd_set_fail_mode, "", true},

    {"get-manager", 0, 0, cmd_get_manager, "", false},
    {"del-manager", 0, 0, cmd_del_manager, "", true},
    {"set-manager", 1, INT_MAX, cmd_set_manager, "--inactivity-probe=",
     true},

    {"add-zone-tp", 3, INT_MAX, cmd_add_zone_tp, "--may-exist", true},
    {"del-zone-tp", 2, 2, cmd_del_zone_tp, "--if-exists", true},
    {"list-zone-tp", 1, 1, cmd_list_zone_tp, "", false},

    {"get-ssl", 0, 0, cmd_get_ssl, "", false},
    {"del-ssl", 0, 0, cmd_del_ssl, "", true},
    {"set-ssl", 3, 3, cmd_set_ssl, "--bootstrap", true},
};

/* ------------------------------------------------------------------------
 * Running the commands.
 * ------------------------------------------------------------------------ */

enum run_result { RUN_DONE, RUN_TRY_AGAIN };

static void
print_output(struct db_ctl_command *commands, size_t n_commands)
{
    size_t i;

    for (i = 0; i < n_commands; i++) {
        struct db_ctl_command *cmd = &commands[i];

        if (cmd->table) {
            /* --oneline leaves tables ("list", "find") as they are. */
            print_table(cmd->table, &cmd->output);
            fputs(ds_cstr(&cmd->output), stdout);
        } else if (oneline) {
            const char *s = ds_cstr(&cmd->output);
            size_t len = cmd->output.length;
            size_t j;

            if (len && s[len - 1] == '\n') {
                len--;
            }
            for (j = 0; j < len; j++) {
                if (s[j] == '\n') {
                    fputs("\\n", stdout);
                } else if (s[j] == '\\') {
                    fputs("\\\\", stdout);
                } else {
                    putchar(s[j]);
                }
            }
            putchar('\n');
        } else {
            fputs(ds_cstr(&cmd->output), stdout);
        }
    }
    fflush(stdout);
}

static void
reset_outputs(struct db_ctl_command *commands, size_t n_commands)
{
    size_t i;

    for (i = 0; i < n_commands; i++) {
        ds_clear(&commands[i].output);
        table_destroy(commands[i].table);
        commands[i].table = NULL;
        commands[i].has_created = false;
    }
}

/* Waits for ovs-vswitchd to catch up with 'next_cfg'. */
static void
wait_for_vswitchd(struct vsctl_ctx *ctx, int64_t next_cfg)
{
    long long int start = time_msec();
    bool hinted = false;

    for (;;) {
        const struct ovsdb_table_schema *ts;
        const struct ovsdb_idl_row *ovs;

        ovsdb_idl_run(ctx->base.idl);
        fatal_signal_run();
        if (!ovsdb_idl_is_alive(ctx->base.idl)) {
            db_ctl_fatal("%s: database connection failed (%s)",
                        db, util_strerror(ovsdb_idl_get_last_error(
                                              ctx->base.idl)));
        }
        if (ovsdb_idl_get_db_error(ctx->base.idl)) {
            db_ctl_fatal("%s: %s", db, ovsdb_idl_get_db_error(ctx->base.idl));
        }
        ts = ovsdb_idl_get_table(ctx->base.idl, "Open_vSwitch");
        ovs = ts ? ovsdb_idl_first_row(ctx->base.idl, ts) : NULL;
        if (ovs && ovsdb_idl_is_monitoring(ctx->base.idl)) {
            const struct ovsdb_datum *cur = get_col(ovs, "cur_cfg");
            int64_t cur_cfg = cur->n ? cur->keys[0].integer : 0;

            if (cur_cfg >= next_cfg) {
                break;
            }
            if (!hinted
                && time_msec() - start >= VSCTL_WAIT_HINT_SEC * 1000) {
                hinted = true;
                fprintf(stderr, "%s: waiting for ovs-vswitchd to apply the "
                        "change (Open_vSwitch next_cfg=%"PRId64", cur_cfg="
                        "%"PRId64"); is ovs-vswitchd running?  Use "
                        "--no-wait not to wait, or --timeout to bound the "
                        "wait.\n", util_program_name(), next_cfg, cur_cfg);
            }
        }
        ovsdb_idl_wait(ctx->base.idl);
        fatal_signal_wait();
        if (!hinted) {
            poll_timer_wait_until(start + VSCTL_WAIT_HINT_SEC * 1000);
        }
        poll_block();
    }

    /* Report interfaces that ovs-vswitchd could not set up. */
    {
        const struct ovsdb_table_schema *its
            = ovsdb_idl_get_table(ctx->base.idl, "Interface");
        size_t i;

        for (i = 0; its && i < ctx->n_new_ifaces; i++) {
            const struct ovsdb_idl_row *iface
                = ovsdb_idl_get_row(ctx->base.idl, its, &ctx->new_ifaces[i]);
            const struct ovsdb_datum *ofport, *error;

            if (!iface) {
                continue;
            }
            ofport = get_col(iface, "ofport");
            error = get_col(iface, "error");
            if (!ofport->n || ofport->keys[0].integer == -1) {
                if (error->n) {
                    fprintf(stderr, "%s: Error detected while setting up "
                            "'%s': %s.  See ovs-vswitchd log for details.\n",
                            util_program_name(), get_string(iface, "name"),
                            error->keys[0].string);
                } else {
                    fprintf(stderr, "%s: Error detected while setting up "
                            "'%s'.  See ovs-vswitchd log for details.\n",
                            util_program_name(), get_string(iface, "name"));
                }
                fprintf(stderr, "%s: The default log directory is "
                        "\"%s\".\n", util_program_name(), dirs_logdir());
            }
        }
    }
}

/* Runs every command in one transaction. */
static enum run_result
run_commands(struct ovsdb_idl *idl, struct db_ctl_command *commands,
             size_t n_commands)
{
    struct vsctl_ctx ctx;
    enum ovsdb_idl_txn_status status;
    struct ovsdb_symbol *sym;
    enum run_result result = RUN_DONE;
    int64_t next_cfg = 0;
    bool any_rw = false;
    size_t i;

    memset(&ctx, 0, sizeof ctx);
    ctx.base.row_ids = row_ids;
    ctx.base.n_row_ids = ARRAY_SIZE(row_ids);
    ctx.base.columns = columns_opt;
    ctx.base.invalidate_cache = vsctl_invalidate_cache;
    ctx.base.idl = idl;
    ctx.base.txn = ovsdb_idl_txn_create(idl);
    ctx.base.symtab = ovsdb_symbol_table_create();
    if (dry_run) {
        ovsdb_idl_txn_set_dry_run(ctx.base.txn);
    }
    ovsdb_idl_txn_add_comment(ctx.base.txn, "ovs-vsctl: %s", invocation);

    ctx.ovs = ovsdb_idl_first_row(idl, table_schema(&ctx, "Open_vSwitch"));
    if (!ctx.ovs) {
        /* An empty database: create the root row, guarded by a "wait"
         * that the table is still empty. */
        json_t *op = json_pack("{s:s, s:s, s:[], s:[], s:s, s:[], s:i}",
                               "op", "wait", "table", "Open_vSwitch",
                               "where", "columns", "until", "==", "rows",
                               "timeout", 0);

        ovsdb_idl_txn_add_precondition(ctx.base.txn, op);
        json_decref(op);
        ctx.ovs = insert_row(&ctx, "Open_vSwitch");
    }
    for (i = 0; i < n_commands; i++) {
        any_rw |= commands[i].syntax->rw;
    }
    if (wait_for_reload && any_rw) {
        ovsdb_idl_txn_increment(ctx.base.txn, ctx.ovs,
                                column_schema(ovsdb_idl_row_get_table(
                                                  ctx.ovs), "next_cfg"));
    }

    for (i = 0; i < n_commands; i++) {
        commands[i].syntax->run(&ctx.base, &commands[i]);
        if (ctx.base.try_again) {
            result = RUN_TRY_AGAIN;
            goto out;
        }
    }

    /* Every "@name" used must name a row that was created, and a row
     * created with --id should be referred to. */
    OHMAP_FOR_EACH (sym, node, &ctx.base.symtab->symbols) {
        if (!sym->created) {
            db_ctl_fatal("row id \"%s\" is referenced but never created "
                        "(e.g. with \"-- --id=%s create ...\")",
                        sym->name, sym->name);
        }
        if (!sym->strong_ref) {
            VLOG_WARN("row id \"%s\" was created but %s, so it will not "
                      "actually appear in the database", sym->name,
                      sym->weak_ref
                      ? "only a weak reference to it was inserted"
                      : "no reference to it was inserted");
        }
    }

    status = ovsdb_idl_txn_commit_block(ctx.base.txn);
    if (status == TXN_INCOMPLETE) {
        abort();
    }
    switch (status) {
    case TXN_UNCHANGED:
    case TXN_SUCCESS:
        break;
    case TXN_TRY_AGAIN:
        result = RUN_TRY_AGAIN;
        goto out;
    case TXN_ERROR:
        db_ctl_fatal("transaction error: %s",
                    ovsdb_idl_txn_get_error(ctx.base.txn));
    case TXN_NOT_LOCKED:
        db_ctl_fatal("database not locked");
    case TXN_UNCOMMITTED:
    case TXN_INCOMPLETE:
    case TXN_ABORTED:
    default:
        db_ctl_fatal("unexpected transaction status: %s",
                    ovsdb_idl_txn_status_to_string(status));
    }
    if (status == TXN_SUCCESS && wait_for_reload && any_rw) {
        next_cfg = ovsdb_idl_txn_get_increment_new_value(ctx.base.txn);
    }

    /* "create" prints the new row's UUID. */
    for (i = 0; i < n_commands; i++) {
        if (commands[i].has_created) {
            const struct uuid *real
                = ovsdb_idl_txn_get_insert_uuid(ctx.base.txn,
                                                &commands[i].created);
            char s[UUID_LEN + 1];

            uuid_to_string(real ? real : &commands[i].created, s);
            ds_put_format(&commands[i].output, "%s\n", s);
        }
    }
    /* Interfaces to check after reconfiguration: their real UUIDs. */
    for (i = 0; i < ctx.n_new_ifaces; i++) {
        const struct uuid *real
            = ovsdb_idl_txn_get_insert_uuid(ctx.base.txn, &ctx.new_ifaces[i]);

        if (real) {
            ctx.new_ifaces[i] = *real;
        }
    }
    print_output(commands, n_commands);

    ovsdb_idl_txn_destroy(ctx.base.txn);
    ctx.base.txn = NULL;
    invalidate_cache(&ctx);
    if (next_cfg && !dry_run) {
        wait_for_vswitchd(&ctx, next_cfg);
    }

out:
    if (ctx.base.txn) {
        ovsdb_idl_txn_destroy(ctx.base.txn);
    }
    invalidate_cache(&ctx);
    ovsdb_symbol_table_destroy(ctx.base.symtab);
    free(ctx.new_ifaces);
    if (result == RUN_TRY_AGAIN) {
        reset_outputs(commands, n_commands);
    }
    return result;
}

static char *
default_db(void)
{
    return xasprintf("unix:%s/db.sock", dirs_rundir());
}

int
main(int argc, char *argv[])
{
    struct db_ctl_command *commands = NULL;
    size_t n_commands = 0;
    char **pre = NULL;
    size_t n_pre = 0;
    static struct ovsdb_idl *idl;   /* Static: reachable at exit(). */
    unsigned int seqno = 0;
    struct ds inv = DS_EMPTY_INITIALIZER;
    int first, i, start;

    util_set_program_name(argv[0]);
    db_ctl_register_commands(vsctl_commands, ARRAY_SIZE(vsctl_commands));
    vlog_set_levels(NULL, VLF_CONSOLE, VLL_WARN);
    vlog_set_levels(vlog_module_from_name("reconnect"), VLF_CONSOLE,
                    VLL_WARN);
    fatal_signal_init();

    for (i = 0; i < argc; i++) {
        ds_put_format(&inv, "%s%s", i ? " " : "", argv[i]);
    }
    invocation = ds_steal_cstr(&inv);

    first = parse_options(argc, argv, &pre, &n_pre);
    if (!db) {
        db = default_db();
    }

    /* Commands, separated by "--". */
    start = first;
    for (i = first; i <= argc; i++) {
        if (i == argc || !strcmp(argv[i], "--")) {
            if (i > start) {
                commands = xrealloc(commands,
                                    (n_commands + 1) * sizeof *commands);
                db_ctl_parse_command(i - start, &argv[start],
                              &commands[n_commands],
                              n_commands ? NULL : pre,
                              n_commands ? 0 : n_pre);
                n_commands++;
            } else if (!n_commands && n_pre && i == argc) {
                db_ctl_fatal("missing command name (use --help for help)");
            }
            start = i + 1;
        }
    }
    if (!n_commands) {
        db_ctl_fatal("missing command name (use --help for help)");
    }
    if (timeout) {
        alarm(timeout);
    }

    idl = ovsdb_idl_create(db, "Open_vSwitch", retry);
    ovsdb_idl_set_leader_only(idl, leader_only);
    for (;;) {
        ovsdb_idl_run(idl);
        fatal_signal_run();
        if (!ovsdb_idl_is_alive(idl)) {
            int error = ovsdb_idl_get_last_error(idl);

            /* A server that would not do leaves no error: Open vSwitch
             * then prints "()". */
            db_ctl_fatal("%s: database connection failed (%s)", db,
                        (ovsdb_idl_gave_up(idl) ? ""
                         : util_strerror(error ? error : ECONNRESET)));
        }
        if (ovsdb_idl_get_db_error(idl)) {
            db_ctl_fatal("%s: %s", db, ovsdb_idl_get_db_error(idl));
        }
        if (ovsdb_idl_is_monitoring(idl)
            && ovsdb_idl_get_seqno(idl) != seqno) {
            seqno = ovsdb_idl_get_seqno(idl);
            if (run_commands(idl, commands, n_commands) == RUN_DONE) {
                break;
            }
            /* Try again at the next change after the one we ran against:
             * the change that defeated us may have arrived already, while
             * we waited for the reply, so look again before sleeping. */
            if (ovsdb_idl_get_seqno(idl) != seqno) {
                poll_immediate_wake();
            }
        }
        ovsdb_idl_wait(idl);
        fatal_signal_wait();
        poll_block();
    }

    ovsdb_idl_destroy(idl);
    for (i = 0; i < (int) n_commands; i++) {
        size_t j;

        ds_destroy(&commands[i].output);
        table_destroy(commands[i].table);
        for (j = 0; j < commands[i].n_options; j++) {
            free(commands[i].options[j].name);
            free(commands[i].options[j].value);
        }
        free(commands[i].options);
    }
    free(commands);
    for (i = 0; i < (int) n_pre; i++) {
        free(pre[i]);
    }
    free(pre);
    free(db);
    free(columns_opt);
    free(invocation);
    return 0;
}
