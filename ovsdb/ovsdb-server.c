/* ovsdb-server: serves OVSDB databases to JSON-RPC clients (RFC 7047 with
 * Open vSwitch's extensions).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>
#include "convert.h"
#include "coverage.h"
#include "daemon.h"
#include "dirs.h"
#include "dynamic-string.h"
#include "execution.h"
#include "fatal-signal.h"
#include "file.h"
#include "json.h"
#include "jsonrpc.h"
#include "memory.h"
#include "monitor.h"
#include "ohmap.h"
#include "ovsdb-error.h"
#include "ovsdb-json.h"
#include "ovsdb.h"
#include "poll-loop.h"
#include "raft.h"
#include "relay.h"
#include "replay.h"
#include "replication.h"
#include "schema.h"
#include "stream.h"
#include "stream-ssl.h"
#include "timeval.h"
#include "transaction.h"
#include "txn-log.h"
#include "unixctl.h"
#include "util.h"
#include "vlog.h"
#include "vlog-compat.h"

VLOG_DEFINE_THIS_MODULE(ovsdb_server);

/* A database served. */
struct db {
    char *file_name;            /* NULL for "_Server"; "relay:DB:REMOTE"
                                 * for a relay. */
    struct ovsdb *ovsdb;
    struct relay *relay;        /* Relay mode (see relay.c), or NULL. */
    struct raft *raft;          /* Clustered: its server, else NULL. */
    uint64_t cluster_seqno;     /* raft_get_change_seqno() last seen. */
    bool cluster_schema;        /* "_Server" shows its schema. */

    /* Automatic compaction (see run_compaction()). */
    long long int last_compact; /* When the file was last rewritten. */
    long long int next_compact; /* Earliest time for the next one. */
    off_t compact_size;         /* File size after the last rewrite. */
};

/* Open vSwitch's thresholds for compacting a database file on its own: not
 * sooner than 10 to 20 minutes (random) after the previous compaction, and
 * only once the log has 100 records, exceeds 10 MB and has doubled; or in
 * any case once a day if anything was written. */
#define COMPACT_MIN_MSEC (10 * 60 * 1000)
#define COMPACT_MIN_RECORDS 100
#define COMPACT_MIN_SIZE (10 * 1024 * 1024)
#define COMPACT_MAX_MSEC (24LL * 60 * 60 * 1000)

/* Most bytes queued for one client before it is disconnected. */
#define MAX_BACKLOG (64u * 1024 * 1024)

/* A passive remote ("punix:...", "ptcp:...", "pssl:...") or a
 * "db:DB,TABLE,COLUMN" that names some. */
struct remote {
    char *name;
    struct pstream *listener;   /* NULL if not (yet) open. */
    long long int next_try;     /* When to retry a failed listen or
                                 * connection. */

    /* An active remote ("unix:", "tcp:", "ssl:"): we connect out to a
     * manager, and serve it as a client, reconnecting with back-off. */
    bool active;
    struct stream *connecting;  /* Connection in progress, or NULL. */
    int backoff;                /* Next retry delay, in ms. */

    /* Clients of this remote may only read ("read_only" in the row of a
     * "db:" remote's table, as Open vSwitch reads it). */
    bool read_only;

    /* For the "status" column of the remote's row: when an active remote's
     * connection last came up and last went down (0 for never). */
    long long int connected_at;
    long long int disconnected_at;
};

/* One client connection. */
struct session {
    struct session *next;
    struct jsonrpc *rpc;
    struct ovsdb_monitor **monitors;
    size_t n_monitors;
    bool change_aware;
    bool read_only;             /* From its remote: no changes allowed. */
    char *active_name;          /* Active remote we connected to, or NULL
                                 * for a client that connected to us. */
    char *passive_name;         /* Passive remote that accepted us, or
                                 * NULL. */

    /* Inactivity probe, for TCP and SSL (Open vSwitch's default: 5 s).
     * After 'probe_interval' ms without input, send an "echo"; after as
     * long again, disconnect. */
    int probe_interval;         /* 0 for none. */
    unsigned long long int rx_bytes; /* Input seen so far. */
    long long int last_rx;      /* When input last arrived. */
    bool probe_sent;

    /* Set when a schema conversion disconnects a client that did not ask
     * for "set_db_change_aware" (as Open vSwitch does): the session reads
     * no more requests and goes once its queued output is written. */
    bool closing;
};

#define PROBE_INTERVAL 5000

/* A "transact" request whose "wait" is not satisfied yet. */
struct trigger {
    struct trigger *next;
    struct session *session;
    struct db *db;
    json_t *id;
    json_t *params;
    long long int created;
    long long int deadline;     /* LLONG_MAX for none. */
    json_t *results;            /* Proposed to its cluster: the results to
                                 * reply once it commits, else NULL. */
    bool convert;               /* A "convert" of a clustered database. */
};

/* An OVSDB lock: 'holders[0]' owns it, the others wait in order. */
struct lock {
    char *name;
    struct session **holders;
    size_t n_holders;
};

static struct db **dbs;
static size_t n_dbs;
static struct db *server_db;        /* Also in 'dbs', last. */
static struct remote *remotes;
static size_t n_remotes;
static struct session *sessions;
static struct trigger *triggers;

static void start_trigger(struct session *, struct db *,
                          const struct jsonrpc_msg *, bool convert);
static void trigger_free(struct trigger *);
static bool cluster_convert_try(struct trigger *);
static struct ovsdb_error *convert_db(const struct db *, const json_t *,
                                      struct ovsdb **);
static void convert_failed(struct session *, const struct db *,
                           const json_t *id, struct ovsdb_error *);
static void disconnect_unaware_sessions(const struct db *);
static struct lock *locks;
static size_t n_locks;
static char server_id[UUID_LEN + 1];
static bool exiting;

/* The remotes and database files as changed at run time, in an unlinked
 * temporary file that a process restarted by --monitor inherits and reads,
 * so that what ovsdb-server/add-remote and friends did outlives a crash
 * (as in Open vSwitch). */
static FILE *config_file;

/* --run=COMMAND: the command, and its process while it runs. */
static char *run_command;
static pid_t run_pid;

/* Remotes found through "db:DB,TABLE,COLUMN" remotes, re-read whenever a
 * database changes. */
static struct remote *db_remotes;
static size_t n_db_remotes;
static bool db_changed = true;

/* Every 2.5 s, as Open vSwitch, the rows that "db:" remotes read their
 * targets from get their "is_connected" and "status" columns updated. */
#define STATUS_INTERVAL 2500
static long long int status_timer;

/* The transaction request being executed, or NULL, and the results array
 * that ovsdb_execute() will return for it if it commits (see commit_cb()):
 * commit_cb() sends that reply itself, before the other clients' updates,
 * and sets 'committing_replied'. */
static struct trigger *committing;
static json_t *committing_results;
static bool committing_replied;

/* SSL files: a file name, or "db:DB,TABLE,COLUMN" to read it from the
 * database (as ovs-ctl asks for). */
static char *ssl_private_key, *ssl_certificate, *ssl_ca_cert;
static bool ssl_bootstrap;

/* Active-backup replication: the active server to replicate from
 * (--sync-from, ovsdb-server/set-active-ovsdb-server), whether we are its
 * backup now (then clients may not change the replicated databases), and
 * --active. */
static char *sync_from;
static bool is_backup;
static bool start_active;

static const char server_schema[] =
    "{\"name\":\"_Server\",\"version\":\"1.2.0\","
    "\"cksum\":\"3009684573 744\",\"tables\":{\"Database\":{\"columns\":{"
    "\"name\":{\"type\":\"string\"},"
    "\"model\":{\"type\":{\"key\":{\"type\":\"string\",\"enum\":[\"set\","
    "[\"standalone\",\"clustered\",\"relay\"]]}}},"
    "\"connected\":{\"type\":\"boolean\"},"
    "\"leader\":{\"type\":\"boolean\"},"
    "\"schema\":{\"type\":{\"key\":\"string\",\"min\":0}},"
    "\"cid\":{\"type\":{\"key\":\"uuid\",\"min\":0}},"
    "\"sid\":{\"type\":{\"key\":\"uuid\",\"min\":0}},"
    "\"index\":{\"type\":{\"key\":\"integer\",\"min\":0}}}}}}";

static void parse_options(int argc, char *argv[], char **unixctl_pathp,
                          char ***db_namesp, size_t *n_db_namesp);
static void usage(void) DPS_NO_RETURN;
static char *open_db(const char *file_name);
static void create_server_db(void);
static void server_db_add_row(const struct db *);
static void add_remote(const char *name);
static void run_remotes(void);
static void ssl_set(char **, const char *);
static void start_run_command(void);
static void save_config(void);
static void load_config(char ***db_namesp, size_t *n_db_namesp);
static void check_run_command(void);
static char *check_db_spec(const char *spec);
static void reply_sorted(struct unixctl_conn *, const char **names,
                         size_t n);
static void update_db_config(void);
static void update_remote_status(void);
static void run_clusters(void);
static void update_cluster_row(struct db *);
static void run_sessions(void);
static void run_triggers(bool force);
static void wait_all(void);
static void session_destroy(struct session *);
static void remote_close(struct remote *);
static void commit_cb(const struct ovsdb_txn *, void *aux);
static void trim_heap(void);
static void cancel_db_users(struct db *, bool notify_all);
static void memory_report_cb(struct memory_report *, void *aux);
static void run_compaction(void);
static void schedule_compaction(struct db *);
static unixctl_cb_func exit_cb, compact_cb, list_dbs_cb, list_remotes_cb,
    add_remote_cb, remove_remote_cb, add_db_cb, remove_db_cb,
    cluster_status_cb, cluster_leave_cb, cluster_kick_cb,
    cluster_change_election_timer_cb, cluster_id_cb;
static void register_replication_commands(void);
static void register_cluster_commands(void);
static void get_db_storage_status_cb(struct unixctl_conn *, int argc,
                                     const char *argv[], void *aux);
static void memory_trim_cb(struct unixctl_conn *, int argc,
                           const char *argv[], void *aux);
static void reconnect_cb(struct unixctl_conn *, int argc,
                         const char *argv[], void *aux);
static void disable_monitor_cond_cb(struct unixctl_conn *, int argc,
                                    const char *argv[], void *aux);
static void perf_counters_cb(struct unixctl_conn *, int argc,
                             const char *argv[], void *aux);
static void tlog_set_cb(struct unixctl_conn *, int argc, const char *argv[],
                        void *aux);
static void tlog_list_cb(struct unixctl_conn *, int argc, const char *argv[],
                         void *aux);

/* ovsdb-server/memory-trim-on-compaction (off by default, as in Open
 * vSwitch 3.1). */
static bool trim_on_compaction;

/* ovsdb-server/disable-monitor-cond: "monitor_cond" and
 * "monitor_cond_since" are refused as unknown methods from then on. */
static bool monitor_cond_disabled;
static void become_backup(void);
static void restart_replication(void);
static void become_active(void);

int
main(int argc, char *argv[])
{
    struct unixctl_server *unixctl;
    char *unixctl_path = NULL;
    char **db_names;
    size_t n_db_names, i;
    struct uuid sid;
    int error;

    util_set_program_name(argv[0]);
    vlog_init();
    vlog_add_module_names(vlog_compat_ovsdb_server);
    fatal_signal_init();
    parse_options(argc, argv, &unixctl_path, &db_names, &n_db_names);

    uuid_generate(&sid);
    uuid_to_string(&sid, server_id);
    srandom(sid.parts[0]);

    config_file = tmpfile();
    if (!config_file) {
        util_fatal(errno, "could not create a temporary file");
    }
    daemon_start();
    /* A process that --monitor started again takes the remotes and
     * databases its predecessor last had. */
    load_config(&db_names, &n_db_names);

    /* Open databases before daemonizing completes, so that errors reach
     * the user who started us. */
    for (i = 0; i < n_db_names; i++) {
        char *msg = open_db(db_names[i]);

        if (msg) {
            util_fatal(0, "%s", msg);
        }
        free(db_names[i]);
    }
    free(db_names);
    create_server_db();
    save_config();
    for (i = 0; i < n_remotes; i++) {
        char *msg = check_db_spec(remotes[i].name);

        if (msg) {
            /* Open vSwitch's message ends in an empty line. */
            util_fatal(0, "%s\n", msg);
        }
    }
    /* Reading a large database parses its records into JSON trees and
     * frees them again; give those pages back to the system rather than
     * keep them resident for the life of the server. */
    trim_heap();

    error = unixctl_server_create(unixctl_path, &unixctl);
    if (error) {
        util_fatal(error, "could not create the control socket");
    }
    coverage_register_unixctl_commands();
    memory_register_unixctl_commands();
    memory_register_reporter(memory_report_cb, NULL);
    unixctl_command_register("exit", "", 0, 0, exit_cb, NULL);
    unixctl_command_register("ovsdb-server/compact", "", 0, 1,
                             compact_cb, NULL);
    unixctl_command_register("ovsdb-server/list-dbs", "", 0, 0,
                             list_dbs_cb, NULL);
    unixctl_command_register("ovsdb-server/list-remotes", "", 0, 0,
                             list_remotes_cb, NULL);
    unixctl_command_register("ovsdb-server/add-remote", "REMOTE", 1, 1,
                             add_remote_cb, NULL);
    unixctl_command_register("ovsdb-server/remove-remote", "REMOTE", 1, 1,
                             remove_remote_cb, NULL);
    unixctl_command_register("ovsdb-server/add-db", "DB", 1, 1, add_db_cb,
                             NULL);
    unixctl_command_register("ovsdb-server/remove-db", "DB", 1, 1,
                             remove_db_cb, NULL);
    unixctl_command_register("ovsdb-server/get-db-storage-status", "DB", 1, 1,
                             get_db_storage_status_cb, NULL);
    unixctl_command_register("ovsdb-server/memory-trim-on-compaction",
                             "on|off", 1, 1, memory_trim_cb, NULL);
    unixctl_command_register("ovsdb-server/reconnect", "", 0, 0,
                             reconnect_cb, NULL);
    unixctl_command_register("ovsdb-server/disable-monitor-cond", "", 0, 0,
                             disable_monitor_cond_cb, NULL);
    unixctl_command_register("ovsdb-server/perf-counters-show", "", 0, 0,
                             perf_counters_cb, (void *) "show");
    unixctl_command_register("ovsdb-server/perf-counters-clear", "", 0, 0,
                             perf_counters_cb, NULL);
    unixctl_command_register("ovsdb-server/tlog-set", "DB:TABLE on|off", 2, 2,
                             tlog_set_cb, NULL);
    unixctl_command_register("ovsdb-server/tlog-list", "", 0, 0,
                             tlog_list_cb, NULL);
    register_replication_commands();
    if (sync_from && !start_active) {
        become_backup();
    }

    /* Listen before telling the parent that we are ready, so that
     * clients can connect as soon as "ovsdb-server --detach" returns. */
    update_db_config();
    db_changed = false;
    run_remotes();

    daemon_complete();
    VLOG_INFO("%s (dpswitch) %s", util_program_name(),
              util_program_version());
    if (run_command) {
        start_run_command();
    }

    while (!exiting) {
        fatal_signal_run();
        if (run_pid) {
            check_run_command();
        }
        coverage_run();
        unixctl_server_run(unixctl);
        if (db_changed) {
            db_changed = false;
            update_db_config();
        }
        for (i = 0; i < n_dbs; i++) {
            if (dbs[i]->relay) {
                relay_run(dbs[i]->relay);
            }
        }
        if (is_backup && !replication_run()) {
            /* As in Open vSwitch, a backup whose replication fails becomes
             * active (its clients may write again). */
            replication_stop();
            is_backup = false;
        }
        run_clusters();
        for (i = 0; i < n_dbs; i++) {
            ovsdb_txn_history_run(dbs[i]->ovsdb);
        }
        run_remotes();
        run_sessions();
        run_triggers(false);
        run_compaction();
        if (time_msec() >= status_timer) {
            status_timer = time_msec() + STATUS_INTERVAL;
            update_remote_status();
        }

        fatal_signal_wait();
        unixctl_server_wait(unixctl);
        wait_all();
        if (is_backup) {
            replication_wait();
        }
        for (i = 0; i < n_dbs; i++) {
            if (dbs[i]->relay) {
                relay_wait(dbs[i]->relay);
            }
            if (dbs[i]->raft) {
                raft_wait(dbs[i]->raft);
            }
        }
        if (exiting) {
            poll_immediate_wake();
        }
        if (run_pid) {
            /* No SIGCHLD handling: look again soon. */
            poll_timer_wait(50);
        }
        poll_block();
    }

    while (sessions) {
        session_destroy(sessions);
    }
    replication_stop();
    free(sync_from);

    for (i = 0; i < n_remotes; i++) {
        remote_close(&remotes[i]);
    }
    free(remotes);
    for (i = 0; i < n_db_remotes; i++) {
        remote_close(&db_remotes[i]);
    }
    free(db_remotes);
    free(ssl_private_key);
    free(ssl_certificate);
    free(ssl_ca_cert);
    for (i = 0; i < n_dbs; i++) {
        relay_destroy(dbs[i]->relay);
        ovsdb_destroy(dbs[i]->ovsdb);
        free(dbs[i]->file_name);
        free(dbs[i]);
    }
    free(dbs);
    for (i = 0; i < n_locks; i++) {
        free(locks[i].name);
        free(locks[i].holders);
    }
    free(locks);
    unixctl_server_destroy(unixctl);
    free(unixctl_path);
    return 0;
}

/* Writes the remotes and database files to 'config_file'. */
static void
save_config(void)
{
    json_t *json = json_object(), *names = json_array();
    size_t i;
    char *s;

    for (i = 0; i < n_remotes; i++) {
        json_array_append_new(names, json_string(remotes[i].name));
    }
    json_object_set_new(json, "remotes", names);
    names = json_array();
    for (i = 0; i < n_dbs; i++) {
        if (dbs[i]->file_name) {
            json_array_append_new(names, json_string(dbs[i]->file_name));
        }
    }
    json_object_set_new(json, "db_filenames", names);
    s = ovsdb_json_to_string(json, 0);
    json_decref(json);
    if (fseek(config_file, 0, SEEK_SET)
        || ftruncate(fileno(config_file), 0)
        || fputs(s, config_file) < 0 || fflush(config_file)) {
        VLOG_WARN("failed to save the remotes and databases (%s)",
                  util_strerror(errno));
    }
    free(s);
}

/* If 'config_file' holds what save_config() wrote (in a process that
 * --monitor restarted), replaces the remotes and '*db_namesp' by what it
 * says. */
static void
load_config(char ***db_namesp, size_t *n_db_namesp)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    const json_t *names;
    json_t *json;
    size_t i;
    int c;

    rewind(config_file);
    while ((c = getc(config_file)) != EOF) {
        ds_put_char(&ds, c);
    }
    json = ds.length ? json_loads(ds_cstr(&ds), 0, NULL) : NULL;
    ds_destroy(&ds);
    if (!json) {
        return;
    }

    for (i = 0; i < n_remotes; i++) {
        remote_close(&remotes[i]);
    }
    n_remotes = 0;
    names = json_object_get(json, "remotes");
    for (i = 0; i < json_array_size(names); i++) {
        if (json_is_string(json_array_get(names, i))) {
            add_remote(json_string_value(json_array_get(names, i)));
        }
    }

    for (i = 0; i < *n_db_namesp; i++) {
        free((*db_namesp)[i]);
    }
    names = json_object_get(json, "db_filenames");
    *n_db_namesp = 0;
    *db_namesp = xrealloc(*db_namesp,
                          (json_array_size(names) + 1) * sizeof **db_namesp);
    for (i = 0; i < json_array_size(names); i++) {
        if (json_is_string(json_array_get(names, i))) {
            (*db_namesp)[(*n_db_namesp)++]
                = xstrdup(json_string_value(json_array_get(names, i)));
        }
    }
    json_decref(json);
}

/* Starts --run's command with /bin/sh. */
static void
start_run_command(void)
{
    run_pid = fork();
    if (run_pid < 0) {
        util_fatal(errno, "%s: fork failed", run_command);
    } else if (!run_pid) {
        execl("/bin/sh", "sh", "-c", run_command, (char *) NULL);
        _exit(127);
    }
}

/* Once --run's command has exited, makes the server exit: with status 0
 * if the command succeeded, otherwise with Open vSwitch's message and
 * status 1. */
static void
check_run_command(void)
{
    int status;
    pid_t pid = waitpid(run_pid, &status, WNOHANG);

    if (pid != run_pid) {
        return;
    }
    run_pid = 0;
    if (WIFEXITED(status) && !WEXITSTATUS(status)) {
        exiting = true;
    } else if (WIFEXITED(status)) {
        util_fatal(0, "%s: child exited, exit status %d", run_command,
                   WEXITSTATUS(status));
    } else if (WIFSIGNALED(status)) {
        util_fatal(0, "%s: child exited, killed (%s)%s", run_command,
                   strsignal(WTERMSIG(status)),
                   WCOREDUMP(status) ? ", core dumped" : "");
    } else {
        util_fatal(0, "%s: child exited, status %d", run_command, status);
    }
}

static void
parse_options(int argc, char *argv[], char **unixctl_pathp,
              char ***db_namesp, size_t *n_db_namesp)
{
    enum {
        OPT_REMOTE = UCHAR_MAX + 1,
        OPT_UNIXCTL,
        OPT_RUN,
        OPT_SYNC_FROM,
        OPT_SYNC_EXCLUDE,
        OPT_ACTIVE,
        STREAM_SSL_OPTION_ENUMS,
        DAEMON_OPTION_ENUMS,
        VLOG_OPTION_ENUMS,
        REPLAY_OPTION_ENUMS,
    };
    static const struct option long_options[] = {
        {"remote", required_argument, NULL, OPT_REMOTE},
        {"unixctl", required_argument, NULL, OPT_UNIXCTL},
        {"run", required_argument, NULL, OPT_RUN},
        {"sync-from", required_argument, NULL, OPT_SYNC_FROM},
        {"sync-exclude-tables", required_argument, NULL, OPT_SYNC_EXCLUDE},
        {"active", no_argument, NULL, OPT_ACTIVE},
        STREAM_SSL_LONG_OPTIONS,
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        DAEMON_LONG_OPTIONS,
        VLOG_LONG_OPTIONS,
        REPLAY_LONG_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    size_t i;

    for (;;) {
        int c = getopt_long(argc, argv, "p:c:C:hVv::", long_options,
                            NULL);

        if (c == -1) {
            break;
        }
        switch (c) {
        case OPT_REMOTE:
            add_remote(optarg);
            break;

        case OPT_UNIXCTL:
            free(*unixctl_pathp);
            *unixctl_pathp = xstrdup(optarg);
            break;

        case OPT_RUN:
            free(run_command);
            run_command = xstrdup(optarg);
            break;

        case OPT_SYNC_FROM:
            free(sync_from);
            sync_from = xstrdup(optarg);
            break;

        case OPT_SYNC_EXCLUDE:
            replication_set_excluded(optarg);
            break;

        case OPT_ACTIVE:
            start_active = true;
            break;

        case 'p':
            ssl_set(&ssl_private_key, optarg);
            break;

        case 'c':
            ssl_set(&ssl_certificate, optarg);
            break;

        case 'C':
            ssl_set(&ssl_ca_cert, optarg);
            ssl_bootstrap = false;
            break;

        case OPT_BOOTSTRAP_CA_CERT:
            ssl_set(&ssl_ca_cert, optarg);
            ssl_bootstrap = true;
            break;

        STREAM_SSL_CONFIG_OPTION_HANDLERS

        case 'h':
            usage();

        case 'V':
            util_print_version();
            exit(EXIT_SUCCESS);

        DAEMON_OPTION_HANDLERS
        VLOG_OPTION_HANDLERS
        REPLAY_OPTION_HANDLERS

        case '?':
            exit(EXIT_FAILURE);

        default:
            abort();
        }
    }

    *n_db_namesp = argc - optind;
    *db_namesp = xcalloc(*n_db_namesp + 1, sizeof **db_namesp);
    for (i = 0; i < *n_db_namesp; i++) {
        (*db_namesp)[i] = xstrdup(argv[optind + i]);
    }
    if (!*n_db_namesp) {
        (*db_namesp)[0] = xasprintf("%s/conf.db", dirs_dbdir());
        *n_db_namesp = 1;
    }
}

static void
usage(void)
{
    printf("%s: Open vSwitch database server\n"
           "usage: %s [OPTIONS] [DATABASE...]\n"
           "where each DATABASE is a database file in ovsdb format.\n"
           "The default DATABASE, if none is given, is\n%s/conf.db.\n"
           "\nJSON-RPC options (may be specified any number of times):\n"
           "  --remote=REMOTE         listen on REMOTE (punix:FILE,\n"
           "                          ptcp:PORT[:IP], pssl:PORT[:IP]), or\n"
           "                          db:DB,TABLE,COLUMN for the remotes\n"
           "                          named there\n"
           "  --run COMMAND           run COMMAND as subprocess then exit\n"
           "\nActive-backup options:\n"
           "  --sync-from=SERVER      replicate the databases of active\n"
           "                          SERVER (unix:, tcp:, ssl:) as its\n"
           "                          backup\n"
           "  --sync-exclude-tables=DB:TABLE[,DB:TABLE]...\n"
           "                          do not replicate these tables\n"
           "  --active                start as active despite --sync-from\n"
           "\nSSL options (FILE may be db:DB,TABLE,COLUMN):\n"
           "  -p, --private-key=FILE  private key\n"
           "  -c, --certificate=FILE  certificate for the private key\n"
           "  -C, --ca-cert=FILE      CA certificate to verify peers\n"
           "  --bootstrap-ca-cert=FILE  likewise, fetched from the peer\n"
           "                          if FILE does not exist\n",
           util_program_name(), util_program_name(), dirs_dbdir());
    daemon_usage();
    vlog_usage();
    replay_usage();
    printf("\nOther options:\n"
           "  --unixctl=SOCKET        override default control socket name\n"
           "  -h, --help              display this help message\n"
           "  -V, --version           display version information\n");
    exit(EXIT_SUCCESS);
}

/* ------------------------------------------------------------------------
 * Databases.
 * ------------------------------------------------------------------------ */

static struct db *
add_db(char *file_name, struct ovsdb *ovsdb)
{
    struct db *db;

    dbs = xrealloc(dbs, (n_dbs + 1) * sizeof *dbs);
    db = dbs[n_dbs++] = xzalloc(sizeof *db);
    db->file_name = file_name;
    db->ovsdb = ovsdb;
    ovsdb->commit_cb = commit_cb;
    ovsdb->commit_aux = NULL;
    db->raft = ovsdb_file_get_raft(ovsdb->file);
    if (db->raft) {
        register_cluster_commands();
    }
    if (ovsdb->file) {
        schedule_compaction(db);
    }
    return db;
}

static struct db *
find_db(const char *name)
{
    size_t i;

    for (i = 0; i < n_dbs; i++) {
        if (!strcmp(dbs[i]->ovsdb->schema->name, name)) {
            return dbs[i];
        }
    }
    return NULL;
}

static struct ovsdb *relay_get_db(void *db_);
static void relay_install(void *db_, struct ovsdb_schema *);
static void relay_set_connected(void *db_, bool connected);
static void relay_reply(void *db_, void *session, struct jsonrpc_msg *);

static const struct relay_ops relay_ops = {
    relay_get_db, relay_install, relay_set_connected, relay_reply,
};

/* Serves "relay:DB:REMOTE" 'spec': an empty database named DB until the
 * relay has the remote's schema.  Returns NULL, or an error message that the
 * caller must free. */
static char *
open_relay_db(const char *spec)
{
    char *db_name, *remotes, *msg;
    struct ovsdb_schema *schema;
    struct ovsdb_error *error;
    json_t *json;
    struct db *db;

    msg = relay_parse(spec, &db_name, &remotes);
    if (msg) {
        return msg;
    }
    if (find_db(db_name)) {
        msg = xasprintf("%s: duplicate database name %s", spec, db_name);
    } else {
        json = json_pack("{s:s, s:{}}", "name", db_name, "tables");
        error = ovsdb_schema_from_json(json, &schema);
        json_decref(json);
        if (error) {
            char *s = ovsdb_error_to_string(error);

            ovsdb_error_destroy(error);
            msg = xasprintf("%s: %s", spec, s);
            free(s);
        } else {
            db = add_db(xstrdup(spec), ovsdb_create(schema));
            db->relay = relay_create(db_name, remotes, &relay_ops, db);
            if (server_db) {
                server_db_add_row(db);
            }
        }
    }
    free(db_name);
    free(remotes);
    return msg;
}

/* Opens 'file_name' (or a relay, for "relay:DB:REMOTE") and serves it.
 * Returns NULL, or an error message that the caller must free. */
static char *
open_db(const char *file_name)
{
    struct ovsdb_error *error;
    char *name;
    struct ovsdb *ovsdb;
    struct db *db;

    if (!strncmp(file_name, "relay:", 6)) {
        return open_relay_db(file_name);
    }

    /* Check the name first, without taking the file's lock: fcntl() locks
     * belong to the process, so opening and closing a second descriptor
     * for a file we already serve would release our lock on it. */
    error = ovsdb_file_read_db_name(file_name, &name);
    if (!error) {
        if (find_db(name)) {
            char *s = xasprintf("%s: duplicate database name %s", file_name,
                                name);

            free(name);
            return s;
        }
        free(name);
        error = ovsdb_file_open(file_name, (OVSDB_FILE_TRUNCATE_TAIL
                                            | OVSDB_FILE_CLUSTERED), &ovsdb);
    }
    if (error) {
        char *s = ovsdb_error_to_string(error);

        ovsdb_error_destroy(error);
        return s;
    }
    db = add_db(xstrdup(file_name), ovsdb);
    if (server_db) {
        server_db_add_row(db);
    }
    return NULL;
}

/* Runs 'ops' (a JSON array of operations) on the "_Server" database. */
static void
server_db_transact(json_t *ops)
{
    long long int timeout;
    json_t *result;

    json_array_insert_new(ops, 0, json_string("_Server"));
    result = ovsdb_execute(server_db->ovsdb, ops, NULL, &timeout);
    util_assert(result != NULL);
    json_decref(result);
    json_decref(ops);
}

/* Adds the "Database" row that describes 'db'.  A relay's row, as in Open
 * vSwitch, has no schema until the remote's arrives, is "connected" while
 * the relay is in sync, and never "leader". */
static void
server_db_add_row(const struct db *db)
{
    const struct ovsdb_schema *s = db->ovsdb->schema;
    json_t *op = json_object(), *row = json_object(), *ops = json_array();
    json_t *schema_json = ovsdb_schema_to_json(s);
    char *schema_text = ovsdb_json_to_string(schema_json, OVSDB_JSON_SORT);

    json_object_set_new(row, "name", json_string(s->name));
    if (db->raft) {
        json_object_set_new(row, "model", json_string("clustered"));
    } else {
        json_object_set_new(row, "model",
                            json_string(db->relay ? "relay" : "standalone"));
    }
    json_object_set_new(row, "connected", json_boolean(!db->relay));
    json_object_set_new(row, "leader", json_boolean(!db->relay));
    if (!db->relay) {
        json_object_set_new(row, "schema", json_string(schema_text));
    }
    json_object_set_new(op, "op", json_string("insert"));
    json_object_set_new(op, "table", json_string("Database"));
    json_object_set_new(op, "row", row);
    json_array_append_new(ops, op);
    free(schema_text);
    json_decref(schema_json);
    server_db_transact(ops);
    if (db->raft) {
        struct db *cdb = (struct db *) db;

        /* The cluster's columns. */
        cdb->cluster_seqno = raft_get_change_seqno(db->raft) - 1;
        update_cluster_row(cdb);
    }
}

/* Creates the "_Server" database with one "Database" row per database. */
static void
create_server_db(void)
{
    struct ovsdb_schema *schema;
    struct ovsdb_error *error;
    size_t i, n = n_dbs;
    json_t *json;

    json = json_loads(server_schema, 0, NULL);
    error = ovsdb_schema_from_json(json, &schema);
    util_assert(!error);
    json_decref(json);
    server_db = add_db(NULL, ovsdb_create(schema));
    for (i = 0; i <= n; i++) {
        server_db_add_row(dbs[i]);
    }
}

/* Relay callbacks (see relay.h); 'db_' is the relay's struct db. */
static struct ovsdb *
relay_get_db(void *db_)
{
    struct db *db = db_;

    return db->ovsdb;
}

static void install_converted_db(struct db *, struct ovsdb *);
static void send_msg(struct session *, struct jsonrpc_msg *);

static void
relay_install(void *db_, struct ovsdb_schema *schema)
{
    struct db *db = db_;

    if (ovsdb_schema_equal(schema, db->ovsdb->schema)) {
        ovsdb_schema_destroy(schema);
    } else {
        struct ovsdb *new = ovsdb_create(schema);

        /* As in Open vSwitch 3.1, a relay keeps a transaction history,
         * under the ids its remote's "update3"s carry. */
        ovsdb_txn_history_init(new, true);
        install_converted_db(db, new);
    }
}

static void
relay_set_connected(void *db_, bool connected)
{
    struct db *db = db_;
    json_t *ops = json_array();

    json_array_append_new(ops, json_pack(
                              "{s:s, s:s, s:[[s,s,s]], s:{s:b}}",
                              "op", "update", "table", "Database",
                              "where", "name", "==",
                              db->ovsdb->schema->name,
                              "row", "connected", connected));
    server_db_transact(ops);
}

static void
relay_reply(void *db_ DPS_UNUSED, void *session, struct jsonrpc_msg *reply)
{
    send_msg(session, reply);
}

/* ------------------------------------------------------------------------
 * Remotes and sessions.
 * ------------------------------------------------------------------------ */

static void
add_remote(const char *name)
{
    struct remote *r;
    size_t i;

    for (i = 0; i < n_remotes; i++) {
        if (!strcmp(remotes[i].name, name)) {
            return;
        }
    }
    remotes = xrealloc(remotes, (n_remotes + 1) * sizeof *remotes);
    r = &remotes[n_remotes++];
    memset(r, 0, sizeof *r);
    r->name = xstrdup(name);
    r->active = strncmp(name, "db:", 3) && pstream_verify_name(name);
    r->backoff = 1000;
    db_changed = true;
}

static struct session *session_create(struct jsonrpc *);

static struct session *
find_active_session(const char *name)
{
    struct session *s;

    for (s = sessions; s; s = s->next) {
        if (s->active_name && !strcmp(s->active_name, name)) {
            return s;
        }
    }
    return NULL;
}

static void
retry_later(struct remote *r)
{
    r->next_try = time_msec() + r->backoff;
    r->backoff = MIN(r->backoff * 2, 8000);
}

/* Connects active remote 'r' if it has no session, with back-off from 1
 * to 8 seconds between attempts. */
static void
run_active_remote(struct remote *r)
{
    struct session *s;
    int error;

    if (find_active_session(r->name)) {
        return;
    }
    if (!r->connecting) {
        if (time_msec() < r->next_try) {
            return;
        }
        error = stream_open(r->name, &r->connecting);
        if (error) {
            VLOG_WARN("%s: connection failed (%s)", r->name,
                      util_strerror(error));
            r->connecting = NULL;
            retry_later(r);
            return;
        }
    }
    error = stream_connect(r->connecting);
    if (error == EAGAIN) {
        return;
    } else if (error) {
        VLOG_WARN("%s: connection failed (%s)", r->name,
                  error == EOF ? "End of file" : util_strerror(error));
        stream_close(r->connecting);
        r->connecting = NULL;
        retry_later(r);
        return;
    }
    VLOG_INFO("%s: connected", r->name);
    s = session_create(jsonrpc_open(r->connecting));
    s->active_name = xstrdup(r->name);
    s->read_only = r->read_only;
    r->connecting = NULL;
    r->backoff = 1000;
    r->connected_at = time_msec();
}

static void
remote_wait(const struct remote *r)
{
    if (r->active) {
        if (r->connecting) {
            stream_connect_wait(r->connecting);
        } else if (!find_active_session(r->name)) {
            poll_timer_wait_until(r->next_try);
        }
    } else if (r->listener) {
        pstream_wait(r->listener);
    } else if (strncmp(r->name, "db:", 3)) {
        poll_timer_wait_until(r->next_try);
    }
}

static void
remote_close(struct remote *r)
{
    if (r->listener) {
        pstream_close(r->listener);
        r->listener = NULL;
    }
    if (r->connecting) {
        stream_close(r->connecting);
        r->connecting = NULL;
    }
    if (r->active) {
        struct session *s = find_active_session(r->name);

        if (s) {
            session_destroy(s);
        }
    }
    free(r->name);
    r->name = NULL;
}

/* Opens 'r' if it is not open yet and accepts its new connections. */
static void
run_remote(struct remote *r)
{
    int n;

    if (!strncmp(r->name, "db:", 3)) {
        return;
    }
    if (r->active) {
        run_active_remote(r);
        return;
    }
    if (!r->listener) {
        int error;

        if (time_msec() < r->next_try) {
            return;
        }
        error = pstream_open(r->name, &r->listener);
        if (error) {
            VLOG_ERR("%s: listen failed: %s", r->name, util_strerror(error));
            r->listener = NULL;
            r->next_try = time_msec() + 1000;
            return;
        }
        if (pstream_get_bound_port(r->listener) > 0) {
            VLOG_INFO("%s: listening on port %d", r->name,
                      pstream_get_bound_port(r->listener));
        }
    }
    /* Accept a bounded number per iteration to stay responsive. */
    for (n = 0; n < 50; n++) {
        struct stream *stream;
        int error = pstream_accept(r->listener, &stream);

        if (error) {
            if (error != EAGAIN) {
                VLOG_WARN("%s: accept failed: %s", r->name,
                          util_strerror(error));
            }
            break;
        }
        struct session *s = session_create(jsonrpc_open(stream));

        s->read_only = r->read_only;
        s->passive_name = xstrdup(r->name);
    }
}

static struct session *
session_create(struct jsonrpc *rpc)
{
    struct session *s = xzalloc(sizeof *s);
    struct session **tailp;

    s->rpc = rpc;
    s->probe_interval = (stream_or_pstream_needs_probes(jsonrpc_get_name(rpc))
                         > 0 ? PROBE_INTERVAL : 0);
    s->last_rx = time_msec();
    /* Oldest first: sessions are served, and sent their updates, in the
     * order they connected. */
    for (tailp = &sessions; *tailp; tailp = &(*tailp)->next) {
        continue;
    }
    *tailp = s;
    return s;
}

static void
run_remotes(void)
{
    size_t i;

    for (i = 0; i < n_remotes; i++) {
        run_remote(&remotes[i]);
    }
    for (i = 0; i < n_db_remotes; i++) {
        run_remote(&db_remotes[i]);
    }
}

/* Looks up the database, table and column that "db:DB,TABLE,COLUMN" 'spec'
 * names.  Returns NULL and stores them, or returns Open vSwitch's error text
 * for the first part that is missing (which the caller must free()). */
static char *
resolve_db_spec(const char *spec, struct db **dbp,
                struct ovsdb_table **tablep,
                const struct ovsdb_column **columnp)
{
    char *copy, *db_name, *table_name, *column_name, *save = NULL;
    char *error = NULL;

    copy = xstrdup(spec + 3);
    db_name = strtok_r(copy, ",", &save);
    table_name = strtok_r(NULL, ",", &save);
    column_name = strtok_r(NULL, ",", &save);
    if (!db_name || !table_name || !column_name) {
        error = xasprintf("\"%s\": invalid syntax", spec);
    } else if (!(*dbp = find_db(db_name))) {
        error = xasprintf("\"%s\": no database named %s", spec, db_name);
    } else if (!(*tablep = ovsdb_get_table((*dbp)->ovsdb, table_name))) {
        error = xasprintf("\"%s\": no table named %s", spec, table_name);
    } else if (!(*columnp = ovsdb_table_schema_find_column(
                     (*tablep)->schema, column_name))) {
        error = xasprintf("\"%s\": table \"%s\" has no column \"%s\"",
                          spec, table_name, column_name);
    }
    free(copy);
    return error;
}

/* Returns the string in the "target" column of 'row' (a row of 'table', or
 * NULL), or NULL if there is none. */
static const char *
row_target(const struct ovsdb_table *table, const struct ovsdb_row *row)
{
    const struct ovsdb_column *tc
        = ovsdb_table_schema_find_column(table->schema, "target");

    return (row && tc && tc->type.key.type == OVSDB_TYPE_STRING
            && row->fields[tc->index].n
            ? row->fields[tc->index].keys[0].string : NULL);
}

/* Returns the strings that "db:DB,TABLE,COLUMN" 'spec' names: the string
 * values of COLUMN in every row of TABLE or, where COLUMN references rows
 * of a table with a "target" column (such as Manager), their targets.  If
 * 'read_onlysp' is nonnull, stores there a parallel array that says which
 * came from a row whose "read_only" is true. */
static char **
read_db_strings(const char *spec, size_t *np, bool **read_onlysp)
{
    const struct ovsdb_column *column;
    struct ovsdb_table *table;
    char **strings = NULL;
    bool *read_onlys = NULL;
    struct ovsdb_row *row;
    struct db *db;
    char *error;

    *np = 0;
    if (read_onlysp) {
        *read_onlysp = NULL;
    }
    error = resolve_db_spec(spec, &db, &table, &column);
    if (error) {
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);

        VLOG_WARN_RL(&rl, "%s: no such database, table or column", spec);
        free(error);
        return NULL;
    }

    OHMAP_FOR_EACH (row, node, &table->rows) {
        const struct ovsdb_datum *datum = &row->fields[column->index];
        const struct ovsdb_base_type *key = &column->type.key;
        unsigned int i;

        for (i = 0; i < datum->n; i++) {
            const char *value = NULL;
            bool read_only = false;

            if (key->type == OVSDB_TYPE_STRING) {
                value = datum->keys[i].string;
            } else if (ovsdb_base_type_is_ref(key)) {
                struct ovsdb_table *target = &db->ovsdb->tables[
                    key->uuid.ref_table->index];
                const struct ovsdb_column *ro
                    = ovsdb_table_schema_find_column(target->schema,
                                                     "read_only");
                const struct ovsdb_row *trow
                    = ovsdb_table_get_row(target, &datum->keys[i].uuid);

                value = row_target(target, trow);
                /* As in Open vSwitch: a boolean "read_only" column (OVN's
                 * Connection tables have one) makes the remote's clients
                 * read-only. */
                if (ro && trow && ro->type.key.type == OVSDB_TYPE_BOOLEAN
                    && trow->fields[ro->index].n) {
                    read_only = trow->fields[ro->index].keys[0].boolean;
                }
            }
            if (value) {
                strings = xrealloc(strings, (*np + 1) * sizeof *strings);
                read_onlys = xrealloc(read_onlys,
                                      (*np + 1) * sizeof *read_onlys);
                read_onlys[*np] = read_only;
                strings[(*np)++] = xstrdup(value);
            }
        }
    }
    if (read_onlysp) {
        *read_onlysp = read_onlys;
    } else {
        free(read_onlys);
    }
    return strings;
}

/* Brings the remotes and SSL files that come from databases up to date. */
static void
update_db_config(void)
{
    static char *applied[3];
    struct remote *wanted = NULL;
    size_t n_wanted = 0, i, j;
    char **files[3] = { &ssl_private_key, &ssl_certificate, &ssl_ca_cert };
    char *values[3] = { NULL, NULL, NULL };

    for (i = 0; i < n_remotes; i++) {
        bool *read_onlys;
        char **names;
        size_t n;

        if (strncmp(remotes[i].name, "db:", 3)) {
            continue;
        }
        names = read_db_strings(remotes[i].name, &n, &read_onlys);
        for (j = 0; j < n; j++) {
            bool active = pstream_verify_name(names[j]) != 0;

            if (active && stream_verify_name(names[j])) {
                static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);

                VLOG_WARN_RL(&rl, "%s: not a valid remote", names[j]);
                free(names[j]);
                continue;
            }
            wanted = xrealloc(wanted, (n_wanted + 1) * sizeof *wanted);
            memset(&wanted[n_wanted], 0, sizeof *wanted);
            wanted[n_wanted].active = active;
            wanted[n_wanted].backoff = 1000;
            wanted[n_wanted].read_only = read_onlys[j];
            wanted[n_wanted++].name = names[j];
        }
        free(names);
        free(read_onlys);
    }

    /* Keep the listeners, connections and back-off of the remotes that
     * are still wanted; close the others. */
    for (i = 0; i < n_wanted; i++) {
        for (j = 0; j < n_db_remotes; j++) {
            struct remote *old = &db_remotes[j];

            if (old->name && !strcmp(old->name, wanted[i].name)) {
                wanted[i].listener = old->listener;
                wanted[i].connecting = old->connecting;
                wanted[i].next_try = old->next_try;
                wanted[i].backoff = old->backoff;
                wanted[i].connected_at = old->connected_at;
                wanted[i].disconnected_at = old->disconnected_at;
                old->listener = NULL;
                old->connecting = NULL;
                free(old->name);
                old->name = NULL;
            }
        }
    }
    for (j = 0; j < n_db_remotes; j++) {
        if (db_remotes[j].name) {
            remote_close(&db_remotes[j]);
        }
    }
    free(db_remotes);
    db_remotes = wanted;
    n_db_remotes = n_wanted;

    for (i = 0; i < 3; i++) {
        if (*files[i] && !strncmp(*files[i], "db:", 3)) {
            char **strings;
            size_t n;

            strings = read_db_strings(*files[i], &n, NULL);
            if (n) {
                values[i] = strings[0];
                for (j = 1; j < n; j++) {
                    free(strings[j]);
                }
            }
            free(strings);
        } else if (*files[i]) {
            values[i] = xstrdup(*files[i]);
        }
    }
    /* Load files only when their names change, not on every commit. */
    if (values[0] && values[1]
        && (!applied[0] || strcmp(applied[0], values[0])
            || !applied[1] || strcmp(applied[1], values[1]))) {
        stream_ssl_set_key_and_cert(values[0], values[1]);
        for (i = 0; i < 2; i++) {
            free(applied[i]);
            applied[i] = xstrdup(values[i]);
        }
    }
    if (values[2] && (!applied[2] || strcmp(applied[2], values[2]))) {
        stream_ssl_set_ca_cert_file(values[2], ssl_bootstrap);
        free(applied[2]);
        applied[2] = xstrdup(values[2]);
    }
    for (i = 0; i < 3; i++) {
        free(values[i]);
    }
}

/* Appends "key=value" to the status map 'pairs' (keys in sorted order, as
 * the database keeps them). */
static void
status_add(json_t *pairs, const char *key, const char *value)
{
    json_t *pair = json_array();

    json_array_append_new(pair, json_string(key));
    json_array_append_new(pair, json_string(value));
    json_array_append_new(pairs, pair);
}

static void
status_add_secs(json_t *pairs, const char *key, long long int since)
{
    char buf[32];

    snprintf(buf, sizeof buf, "%lld",
             since ? (time_msec() - since) / 1000 : 0);
    status_add(pairs, key, buf);
}

/* Space-separated names of the locks that 's' holds ('held') or waits for
 * (!'held'), or "" for none. */
static void
session_lock_names(const struct session *s, bool held, struct ds *names)
{
    for (size_t i = 0; i < n_locks; i++) {
        for (size_t j = 0; j < locks[i].n_holders; j++) {
            if (locks[i].holders[j] == s && (j == 0) == held) {
                if (names->length) {
                    ds_put_char(names, ' ');
                }
                ds_put_cstr(names, locks[i].name);
            }
        }
    }
}

/* Returns the "status" map of remote 'r' as an OVSDB map in JSON and
 * stores in '*connected' whether a client is connected through it, as Open
 * vSwitch reports them: a passive remote gives its bound port, its number
 * of connections if more than one and zero times; an active one its
 * connection state, the seconds since it last connected and disconnected
 * (once it has) and the locks its session holds or waits for. */
static json_t *
remote_status(const struct remote *r, bool *connected)
{
    json_t *pairs = json_array(), *map = json_array();
    struct session *s;

    if (!r->active) {
        int port = r->listener ? pstream_get_bound_port(r->listener) : -1;
        size_t n = 0;

        for (s = sessions; s; s = s->next) {
            n += s->passive_name && !strcmp(s->passive_name, r->name);
        }
        *connected = n > 0;
        if (port > 0) {
            char buf[16];

            snprintf(buf, sizeof buf, "%d", port);
            status_add(pairs, "bound_port", buf);
        }
        if (n > 1) {
            char buf[32];

            snprintf(buf, sizeof buf, "%zu", n);
            status_add(pairs, "n_connections", buf);
        }
        status_add(pairs, "sec_since_connect", "0");
        status_add(pairs, "sec_since_disconnect", "0");
    } else {
        const char *state;

        s = find_active_session(r->name);
        *connected = s != NULL;
        if (s) {
            struct ds held = DS_EMPTY_INITIALIZER;
            struct ds waiting = DS_EMPTY_INITIALIZER;

            session_lock_names(s, true, &held);
            session_lock_names(s, false, &waiting);
            if (held.length) {
                status_add(pairs, "locks_held", ds_cstr(&held));
            }
            if (waiting.length) {
                status_add(pairs, "locks_waiting", ds_cstr(&waiting));
            }
            ds_destroy(&held);
            ds_destroy(&waiting);
            state = s->probe_sent ? "IDLE" : "ACTIVE";
        } else {
            state = r->connecting ? "CONNECTING" : "BACKOFF";
        }
        if (r->connected_at) {
            status_add_secs(pairs, "sec_since_connect", r->connected_at);
        }
        if (r->disconnected_at && !s) {
            status_add_secs(pairs, "sec_since_disconnect",
                            r->disconnected_at);
        }
        status_add(pairs, "state", state);
    }
    json_array_append_new(map, json_string("map"));
    json_array_append_new(map, pairs);
    return map;
}

static const struct remote *
find_db_remote(const char *name)
{
    for (size_t i = 0; i < n_db_remotes; i++) {
        if (db_remotes[i].name && !strcmp(db_remotes[i].name, name)) {
            return &db_remotes[i];
        }
    }
    return NULL;
}

/* Adds to 'ops' an "update" of the "is_connected" and "status" columns
 * (those of the two that 'table' has) of 'row' if they differ from what
 * remote 'r', the one that the row's "target" names, reports. */
static void
update_remote_row(json_t *ops, const struct ovsdb_table *table,
                  const struct ovsdb_row *row, const struct remote *r)
{
    const struct ovsdb_column *cc
        = ovsdb_table_schema_find_column(table->schema, "is_connected");
    const struct ovsdb_column *sc
        = ovsdb_table_schema_find_column(table->schema, "status");
    json_t *new_row = json_object();
    bool connected;
    json_t *status = remote_status(r, &connected);

    if (cc && cc->type.key.type == OVSDB_TYPE_BOOLEAN
        && ovsdb_type_is_scalar(&cc->type)
        && row->fields[cc->index].keys[0].boolean != connected) {
        json_object_set_new(new_row, "is_connected", json_boolean(connected));
    }
    if (sc && sc->type.key.type == OVSDB_TYPE_STRING
        && sc->type.value.type == OVSDB_TYPE_STRING) {
        json_t *old = ovsdb_datum_to_json(&row->fields[sc->index], &sc->type);

        if (!json_equal(old, status)) {
            json_object_set(new_row, "status", status);
        }
        json_decref(old);
    }
    json_decref(status);

    if (json_object_size(new_row)) {
        json_t *op = json_object(), *where = json_array();
        json_t *clause = json_array(), *uuid = json_array();
        char id[UUID_LEN + 1];

        uuid_to_string(ovsdb_row_get_uuid(row), id);
        json_array_append_new(uuid, json_string("uuid"));
        json_array_append_new(uuid, json_string(id));
        json_array_append_new(clause, json_string("_uuid"));
        json_array_append_new(clause, json_string("=="));
        json_array_append_new(clause, uuid);
        json_array_append_new(where, clause);
        json_object_set_new(op, "op", json_string("update"));
        json_object_set_new(op, "table", json_string(table->schema->name));
        json_object_set_new(op, "where", where);
        json_object_set_new(op, "row", new_row);
        json_array_append_new(ops, op);
    } else {
        json_decref(new_row);
    }
}

/* Writes the connection state of the remotes that "db:DB,TABLE,COLUMN"
 * remotes name into the rows that name them (Open vSwitch's Manager
 * "is_connected" and "status"), in one transaction per database and only
 * where something changed. */
/* Keeps the "_Server" row of clustered 'db' as Open vSwitch does: its
 * "leader", "connected", "cid", "sid" and "index" (the last entry applied).
 * A server that has not joined yet has no schema and no "cid". */
static void
update_cluster_row(struct db *db)
{
    uint64_t seqno = raft_get_change_seqno(db->raft);
    char cid[UUID_LEN + 1], sid[UUID_LEN + 1];
    struct uuid c, s;
    json_t *ops, *row;

    if (!server_db || seqno == db->cluster_seqno) {
        return;
    }
    db->cluster_seqno = seqno;
    raft_get_ids(db->raft, &c, &s);
    uuid_to_string(&c, cid);
    uuid_to_string(&s, sid);
    row = json_pack("{s:b, s:b, s:[s,s], s:I}",
                    "leader", raft_is_leader(db->raft),
                    "connected", raft_is_connected(db->raft),
                    "sid", "uuid", sid,
                    "index", (json_int_t) raft_get_applied_index(db->raft));
    json_object_set_new(row, "cid", (uuid_is_zero(&c)
                                     ? json_pack("[s,[]]", "set")
                                     : json_pack("[s,s]", "uuid", cid)));
    if (raft_is_joining(db->raft)) {
        json_object_set_new(row, "schema", json_pack("[s,[]]", "set"));
        json_object_set_new(row, "index", json_pack("[s,[]]", "set"));
        db->cluster_schema = false;
    } else if (!db->cluster_schema) {
        json_t *schema_json = ovsdb_schema_to_json(db->ovsdb->schema);
        char *text = ovsdb_json_to_string(schema_json, OVSDB_JSON_SORT);

        json_object_set_new(row, "schema", json_string(text));
        json_decref(schema_json);
        free(text);
        db->cluster_schema = true;
    }
    ops = json_array();
    json_array_append_new(ops, json_pack("{s:s, s:s, s:[[s,s,s]], s:o}",
                                         "op", "update", "table", "Database",
                                         "where", "name", "==",
                                         db->ovsdb->schema->name,
                                         "row", row));
    server_db_transact(ops);
}

/* Wakes the transactions waiting on clustered 'db'. */
static void
wake_db_triggers(const struct db *db)
{
    for (struct trigger *t = triggers; t; t = t->next) {
        if (t->db == db) {
            t->deadline = 0;
        }
    }
}

/* Runs the Raft servers of the clustered databases: installs a database
 * that replaces one (a snapshot from the leader), retries the waiting
 * transactions when something changed, and keeps "_Server" up to date. */
static void
run_clusters(void)
{
    size_t i;

    for (i = 0; i < n_dbs; i++) {
        struct db *db = dbs[i];
        enum raft_proposal_state state;
        struct ovsdb *new;
        bool proposer = false;

        if (!db->raft) {
            continue;
        }
        raft_run(db->raft);
        new = raft_take_new_db(db->raft);
        if (new) {
            /* A snapshot from the leader, or a conversion. */
            if (!ovsdb_schema_equal(new->schema, db->ovsdb->schema)) {
                disconnect_unaware_sessions(db);
            }
            db->ovsdb->file = NULL;
            raft_attach(db->raft, new, new->file);
            install_converted_db(db, new);
        }
        state = raft_proposal_state(db->raft, NULL);
        for (struct trigger *t = triggers; t; t = t->next) {
            proposer |= t->db == db && t->results;
        }
        if (state != RAFT_PROPOSAL_NONE && state != RAFT_PROPOSAL_PENDING) {
            if (proposer) {
                wake_db_triggers(db);
            } else {
                /* Its client went away. */
                raft_proposal_clear(db->raft);
            }
        }
        if (raft_get_change_seqno(db->raft) != db->cluster_seqno) {
            wake_db_triggers(db);
            update_cluster_row(db);
        }
    }
}

static void
update_remote_status(void)
{
    for (size_t i = 0; i < n_remotes; i++) {
        const struct ovsdb_column *column;
        struct ovsdb_table *table, *target;
        const struct ovsdb_row *row;
        struct db *db;
        char *error;
        json_t *ops;

        if (strncmp(remotes[i].name, "db:", 3)) {
            continue;
        }
        error = resolve_db_spec(remotes[i].name, &db, &table, &column);
        if (error || !ovsdb_base_type_is_ref(&column->type.key)) {
            /* Plain strings have no row to report in. */
            free(error);
            continue;
        }
        target = &db->ovsdb->tables[column->type.key.uuid.ref_table->index];

        ops = json_array();
        OHMAP_FOR_EACH (row, node, &table->rows) {
            const struct ovsdb_datum *datum = &row->fields[column->index];

            for (unsigned int k = 0; k < datum->n; k++) {
                const struct ovsdb_row *trow
                    = ovsdb_table_get_row(target, &datum->keys[k].uuid);
                const char *name = row_target(target, trow);
                const struct remote *r = name ? find_db_remote(name) : NULL;

                if (r) {
                    update_remote_row(ops, target, trow, r);
                }
            }
        }
        if (json_array_size(ops)) {
            long long int timeout;

            json_array_insert_new(ops, 0,
                                  json_string(db->ovsdb->schema->name));
            json_decref(ovsdb_execute(db->ovsdb, ops, NULL, &timeout));
        }
        json_decref(ops);
    }
}

/* If 'spec' is "db:DB,TABLE,COLUMN", checks that the database, table and
 * column exist, and returns Open vSwitch's error text if not (which the
 * caller must free()); otherwise returns NULL. */
static char *
check_db_spec(const char *spec)
{
    const struct ovsdb_column *column;
    struct ovsdb_table *table;
    struct db *db;

    return (strncmp(spec, "db:", 3) ? NULL
            : resolve_db_spec(spec, &db, &table, &column));
}

static void
ssl_set(char **file, const char *value)
{
    free(*file);
    *file = xstrdup(value);
}

static void
send_msg(struct session *s, struct jsonrpc_msg *msg)
{
    jsonrpc_send(s->rpc, msg);
}

static void
send_error(struct session *s, const json_t *id, struct ovsdb_error *error)
{
    send_msg(s, jsonrpc_create_error(ovsdb_error_to_json(error), id));
    ovsdb_error_destroy(error);
}

static void release_locks(struct session *);

static void
session_destroy(struct session *s)
{
    struct session **p;
    struct trigger **tp;
    size_t i;

    for (p = &sessions; *p != s; p = &(*p)->next) {
        continue;
    }
    *p = s->next;
    for (tp = &triggers; *tp; ) {
        struct trigger *t = *tp;

        if (t->session == s) {
            *tp = t->next;
            trigger_free(t);
        } else {
            tp = &t->next;
        }
    }
    release_locks(s);
    for (i = 0; i < n_dbs; i++) {
        if (dbs[i]->relay) {
            relay_forget_client(dbs[i]->relay, s);
        }
    }
    for (i = 0; i < s->n_monitors; i++) {
        ovsdb_monitor_destroy(s->monitors[i]);
    }
    free(s->monitors);
    if (s->active_name) {
        /* Reconnect to the manager after a pause. */
        size_t i;

        for (i = 0; i < n_remotes + n_db_remotes; i++) {
            struct remote *r = (i < n_remotes ? &remotes[i]
                                : &db_remotes[i - n_remotes]);

            if (r->name && !strcmp(r->name, s->active_name)) {
                retry_later(r);
                r->disconnected_at = time_msec();
            }
        }
        free(s->active_name);
    }
    free(s->passive_name);
    jsonrpc_close(s->rpc);
    free(s);
}

/* ------------------------------------------------------------------------
 * Locks.
 * ------------------------------------------------------------------------ */

static struct lock *
find_lock(const char *name, bool create)
{
    size_t i;

    for (i = 0; i < n_locks; i++) {
        if (!strcmp(locks[i].name, name)) {
            return &locks[i];
        }
    }
    if (!create) {
        return NULL;
    }
    locks = xrealloc(locks, (n_locks + 1) * sizeof *locks);
    memset(&locks[n_locks], 0, sizeof locks[n_locks]);
    locks[n_locks].name = xstrdup(name);
    return &locks[n_locks++];
}

static void
notify_lock(struct session *s, const char *method, const char *name)
{
    json_t *params = json_array();

    json_array_append_new(params, json_string(name));
    send_msg(s, jsonrpc_create_notify(method, params));
}

/* Removes 's' from 'lock'; if it owned it, the next waiter gets it. */
static void
lock_remove(struct lock *lock, struct session *s)
{
    size_t i;

    for (i = 0; i < lock->n_holders; i++) {
        if (lock->holders[i] == s) {
            memmove(&lock->holders[i], &lock->holders[i + 1],
                    (lock->n_holders - i - 1) * sizeof *lock->holders);
            lock->n_holders--;
            if (i == 0 && lock->n_holders) {
                notify_lock(lock->holders[0], "locked", lock->name);
            }
            return;
        }
    }
}

static void
release_locks(struct session *s)
{
    size_t i;

    for (i = 0; i < n_locks; i++) {
        lock_remove(&locks[i], s);
    }
}

static bool
lock_held(const char *name, void *s_)
{
    struct lock *lock = find_lock(name, false);

    return lock && lock->n_holders && lock->holders[0] == s_;
}

static json_t *
locked_result(bool locked)
{
    json_t *result = json_object();

    json_object_set_new(result, "locked", json_boolean(locked));
    return result;
}

static void
handle_lock(struct session *s, const struct jsonrpc_msg *msg)
{
    const json_t *name_json = json_array_get(msg->params, 0);
    struct lock *lock;
    const char *name;
    size_t i;

    if (json_array_size(msg->params) != 1 || !json_is_string(name_json)) {
        send_error(s, msg->id, ovsdb_syntax_error(msg->params, NULL,
                                                  "%s request should have "
                                                  "a single string "
                                                  "parameter", msg->method));
        return;
    }
    name = json_string_value(name_json);
    lock = find_lock(name, true);

    if (!strcmp(msg->method, "unlock")) {
        lock_remove(lock, s);
        send_msg(s, jsonrpc_create_reply(json_object(), msg->id));
        return;
    }
    for (i = 0; i < lock->n_holders; i++) {
        if (lock->holders[i] == s) {
            break;
        }
    }
    if (i < lock->n_holders && strcmp(msg->method, "steal")) {
        send_error(s, msg->id, ovsdb_syntax_error(msg->params, NULL,
                                                  "Session already owns "
                                                  "or is waiting for lock "
                                                  "%s", name));
        return;
    }
    if (!strcmp(msg->method, "steal")) {
        struct session *victim = lock->n_holders ? lock->holders[0] : NULL;

        if (i < lock->n_holders) {
            lock_remove(lock, s);
            victim = lock->n_holders ? lock->holders[0] : NULL;
        }
        lock->holders = xrealloc(lock->holders, (lock->n_holders + 1)
                                 * sizeof *lock->holders);
        memmove(&lock->holders[1], &lock->holders[0],
                lock->n_holders * sizeof *lock->holders);
        lock->holders[0] = s;
        lock->n_holders++;
        if (victim && victim != s) {
            notify_lock(victim, "stolen", name);
            lock_remove(lock, victim);
        }
        send_msg(s, jsonrpc_create_reply(locked_result(true), msg->id));
    } else {
        lock->holders = xrealloc(lock->holders, (lock->n_holders + 1)
                                 * sizeof *lock->holders);
        lock->holders[lock->n_holders++] = s;
        send_msg(s, jsonrpc_create_reply(locked_result(lock->n_holders == 1),
                                         msg->id));
    }
}

/* ------------------------------------------------------------------------
 * Methods.
 * ------------------------------------------------------------------------ */

static struct db *
lookup_db(struct session *s, const struct jsonrpc_msg *msg)
{
    const json_t *name = json_array_get(msg->params, 0);
    struct db *db;

    if (!json_is_string(name)) {
        send_error(s, msg->id, ovsdb_syntax_error(msg->params, NULL,
                                                  "database name expected "
                                                  "as first parameter"));
        return NULL;
    }
    db = find_db(json_string_value(name));
    if (!db) {
        send_error(s, msg->id, ovsdb_syntax_error(msg->params,
                                                  "unknown database",
                                                  "%s request specifies "
                                                  "unknown database %s",
                                                  msg->method,
                                                  json_string_value(name)));
    } else if ((db->relay && !relay_is_ready(db->relay))
               || (db->raft && raft_is_joining(db->raft))) {
        send_error(s, msg->id, ovsdb_error(
                       "database not available", "%s request specifies "
                       "database %s which is not yet available because it "
                       "has not completed joining its cluster", msg->method,
                       json_string_value(name)));
        db = NULL;
    }
    return db;
}

static bool txn_writes(const json_t *params);

/* For trigger 't', a transaction that writes to a clustered database:
 * RAFT_PROPOSAL_PENDING if it must wait (its proposal, or another, has not
 * committed; no leader is known), RAFT_PROPOSAL_DONE or _FAILED if its
 * proposal ended and 't' has been replied to, otherwise (execute it)
 * RAFT_PROPOSAL_NONE. */
static enum raft_proposal_state
cluster_trigger(struct trigger *t)
{
    struct raft *raft = t->db->raft;
    enum raft_proposal_state state;
    const char *reason;

    state = raft_proposal_state(raft, &reason);
    if (!t->results) {
        return (state != RAFT_PROPOSAL_NONE || !raft_is_connected(raft)
                ? RAFT_PROPOSAL_PENDING : RAFT_PROPOSAL_NONE);
    }
    switch (state) {
    case RAFT_PROPOSAL_PENDING:
        return state;
    case RAFT_PROPOSAL_DONE:
        send_msg(t->session, jsonrpc_create_reply(t->results, t->id));
        t->results = NULL;
        break;
    case RAFT_PROPOSAL_FAILED:
    case RAFT_PROPOSAL_NONE: {
        struct ovsdb_error *error = ovsdb_error("cluster error", "%s",
                                                reason ? reason
                                                : "transaction failed");

        json_array_append_new(t->results, ovsdb_error_to_json(error));
        ovsdb_error_destroy(error);
        send_msg(t->session, jsonrpc_create_reply(t->results, t->id));
        t->results = NULL;
        state = RAFT_PROPOSAL_FAILED;
        break;
    }
    case RAFT_PROPOSAL_RETRY:
        json_decref(t->results);
        t->results = NULL;
        break;
    }
    raft_proposal_clear(raft);
    /* The other transactions that waited for this proposal to end may
     * already have looked in this pass (newer triggers come first) and
     * gone back to waiting: without a wake-up nothing would run them
     * again, and their clients (ovs-vswitchd acknowledging cur_cfg, after
     * a leader change) would wait for ever. */
    wake_db_triggers(t->db);
    poll_immediate_wake();
    return state;
}

/* If executing 't' produced 'result' by proposing its transaction to the
 * cluster (the last element is then the proposal's "error"), keeps the
 * results for the reply and returns true. */
static bool
cluster_proposed(struct trigger *t, json_t *result)
{
    size_t n = json_array_size(result);
    const json_t *last = n ? json_array_get(result, n - 1) : NULL;
    const char *tag = json_string_value(json_object_get(last, "error"));

    if (!tag || strcmp(tag, "cluster proposal")
        || raft_proposal_state(t->db->raft, NULL) != RAFT_PROPOSAL_PENDING) {
        return false;
    }
    json_array_remove(result, n - 1);
    t->results = result;
    return true;
}

/* Runs 't'.  Returns true if it is finished (replied to). */
static bool
trigger_try(struct trigger *t, long long int now)
{
    struct ovsdb_execute_options options;
    long long int timeout;
    json_t *result;

    if (t->convert) {
        return cluster_convert_try(t);
    }
    memset(&options, 0, sizeof options);
    options.elapsed_msec = now - t->created;
    options.lock_held = lock_held;
    options.aux = t->session;
    /* The "_Server" database is read-only to clients. */
    options.dry_run = t->db == server_db;
    /* A backup's clients may not change what it replicates (nor, as in
     * Open vSwitch, the tables it excludes). */
    options.read_only = (t->session->read_only
                         || (is_backup && t->db != server_db));
    options.resultsp = &committing_results;
    if (t->db->raft && !options.read_only && !options.dry_run
        && txn_writes(t->params)) {
        switch (cluster_trigger(t)) {
        case RAFT_PROPOSAL_PENDING:
            t->deadline = LLONG_MAX;
            return false;
        case RAFT_PROPOSAL_DONE:
        case RAFT_PROPOSAL_FAILED:
            return true;
        case RAFT_PROPOSAL_NONE:
        case RAFT_PROPOSAL_RETRY:
            break;
        }
    }
    committing = t;
    committing_replied = false;
    result = ovsdb_execute(t->db->ovsdb, t->params, &options, &timeout);
    committing = NULL;
    committing_results = NULL;
    if (result && t->db->raft && cluster_proposed(t, result)) {
        t->deadline = LLONG_MAX;
        return false;
    }
    if (!result) {
        t->deadline = (timeout == LLONG_MAX ? LLONG_MAX
                       : now + timeout);
        return false;
    }
    if (committing_replied) {
        json_decref(result);
    } else {
        send_msg(t->session, jsonrpc_create_reply(result, t->id));
    }
    return true;
}

/* Returns true if transaction 'params' has an operation that changes the
 * database (which a relay forwards). */
static bool
txn_writes(const json_t *params)
{
    static const char *const writes[] = {
        "insert", "update", "mutate", "delete",
    };
    size_t i, j;

    for (i = 1; i < json_array_size(params); i++) {
        const char *op = json_string_value(
            json_object_get(json_array_get(params, i), "op"));

        for (j = 0; op && j < ARRAY_SIZE(writes); j++) {
            if (!strcmp(op, writes[j])) {
                return true;
            }
        }
    }
    return false;
}

static void
handle_transact(struct session *s, const struct jsonrpc_msg *msg)
{
    struct db *db = lookup_db(s, msg);

    if (!db) {
        return;
    }
    if (db->relay && !s->read_only && txn_writes(msg->params)) {
        relay_forward(db->relay, s, msg->id, msg->params);
        return;
    }
    start_trigger(s, db, msg, false);
}

/* Runs the request 'msg' from 's' on 'db' ("transact", or if 'convert' a
 * "convert" of a clustered database) now, or keeps it to run again until
 * it is replied to. */
static void
start_trigger(struct session *s, struct db *db, const struct jsonrpc_msg *msg,
              bool convert)
{
    struct trigger *t = xzalloc(sizeof *t);

    t->session = s;
    t->db = db;
    t->id = json_incref(msg->id);
    t->params = json_incref(msg->params);
    t->created = time_msec();
    t->convert = convert;
    if (trigger_try(t, t->created)) {
        trigger_free(t);
    } else {
        t->next = triggers;
        triggers = t;
    }
}

static void
trigger_free(struct trigger *t)
{
    json_decref(t->id);
    json_decref(t->params);
    json_decref(t->results);
    free(t);
}

static void
handle_cancel(struct session *s, const struct jsonrpc_msg *msg)
{
    const json_t *id = json_array_get(msg->params, 0);
    struct trigger **tp;

    for (tp = &triggers; *tp; tp = &(*tp)->next) {
        struct trigger *t = *tp;

        if (t->session == s && id && json_equal(t->id, id)) {
            send_error(s, t->id, ovsdb_error("canceled", NULL));
            *tp = t->next;
            trigger_free(t);
            return;
        }
    }
}

/* Returns transaction id 'txnid' as "monitor_cond_since" replies and
 * "update3" notifications carry it: a string, all zeros for none. */
static json_t *
txnid_json(const struct uuid *txnid)
{
    char s[UUID_LEN + 1];

    uuid_to_string(txnid, s);
    return json_string(s);
}

static struct ovsdb_monitor **
find_monitor(struct session *s, const json_t *id)
{
    size_t i;

    for (i = 0; i < s->n_monitors; i++) {
        if (json_equal(ovsdb_monitor_get_id(s->monitors[i]), id)) {
            return &s->monitors[i];
        }
    }
    return NULL;
}

static void
handle_monitor(struct session *s, const struct jsonrpc_msg *msg,
               enum ovsdb_monitor_version version)
{
    size_t n_params = version == OVSDB_MONITOR_V3 ? 4 : 3;
    const json_t *id = json_array_get(msg->params, 1);
    struct ovsdb_monitor *m;
    struct ovsdb_error *error;
    json_t *initial, *result;
    struct db *db;

    if (json_array_size(msg->params) != n_params
        && !(version != OVSDB_MONITOR_V3
             && json_array_size(msg->params) == 2)) {
        send_error(s, msg->id, ovsdb_syntax_error(msg->params, NULL,
                                                  "invalid parameters"));
        return;
    }
    db = lookup_db(s, msg);
    if (!db) {
        return;
    }
    if (find_monitor(s, id)) {
        send_error(s, msg->id, ovsdb_syntax_error(id, NULL,
                                                  "duplicate monitor ID"));
        return;
    }
    {
        json_t *empty = json_object();
        const json_t *requests = json_array_get(msg->params, 2);

        error = ovsdb_monitor_create(db->ovsdb, id,
                                     requests ? requests : empty, version,
                                     &m);
        json_decref(empty);
    }
    if (error) {
        send_error(s, msg->id, error);
        return;
    }
    s->monitors = xrealloc(s->monitors,
                           (s->n_monitors + 1) * sizeof *s->monitors);
    s->monitors[s->n_monitors++] = m;

    if (version == OVSDB_MONITOR_V3) {
        /* With the client's last transaction in the history (clustered and
         * relay databases), only what changed since; otherwise everything
         * (a standalone database has no history and says the all-zero
         * id). */
        const char *last_id = json_string_value(json_array_get(msg->params,
                                                               3));
        struct ovsdb_txn_history_entry *const *entries;
        bool found = false;
        size_t n_entries;
        struct uuid since;

        if (last_id && uuid_from_string(&since, last_id)
            && ovsdb_txn_history_since(db->ovsdb, &since, &entries,
                                       &n_entries)) {
            found = true;
            initial = ovsdb_monitor_get_changes_since(m, entries, n_entries);
        } else {
            initial = ovsdb_monitor_get_initial(m);
        }
        result = json_array();
        json_array_append_new(result, json_boolean(found));
        json_array_append_new(result, txnid_json(
                                  ovsdb_txn_history_last_id(db->ovsdb)));
        json_array_append_new(result, initial);
    } else {
        result = ovsdb_monitor_get_initial(m);
    }
    send_msg(s, jsonrpc_create_reply(result, msg->id));
}

static void
handle_monitor_cond_change(struct session *s, const struct jsonrpc_msg *msg)
{
    const json_t *id = json_array_get(msg->params, 0);
    const json_t *new_id = json_array_get(msg->params, 1);
    struct ovsdb_monitor **mp;
    struct ovsdb_error *error;
    json_t *updates;

    if (json_array_size(msg->params) != 3) {
        send_error(s, msg->id, ovsdb_syntax_error(msg->params, NULL,
                                                  "invalid parameters"));
        return;
    }
    mp = find_monitor(s, id);
    if (!mp) {
        send_error(s, msg->id, ovsdb_syntax_error(id, NULL,
                                                  "unknown monitor"));
        return;
    }
    if (!json_equal(id, new_id) && find_monitor(s, new_id)) {
        send_error(s, msg->id, ovsdb_syntax_error(new_id, NULL,
                                                  "duplicate monitor ID"));
        return;
    }
    error = ovsdb_monitor_change_conditions(*mp, json_array_get(msg->params,
                                                                2),
                                            &updates);
    if (error) {
        send_error(s, msg->id, error);
        return;
    }
    ovsdb_monitor_set_id(*mp, new_id);
    send_msg(s, jsonrpc_create_reply(json_object(), msg->id));
    if (updates) {
        json_t *params = json_array();

        json_array_append_new(params, json_deep_copy(new_id));
        if (ovsdb_monitor_get_version(*mp) == OVSDB_MONITOR_V3) {
            json_array_append_new(params, txnid_json(
                                      ovsdb_txn_history_last_id(
                                          ovsdb_monitor_get_db(*mp))));
        }
        json_array_append_new(params, updates);
        send_msg(s, jsonrpc_create_notify(
                     ovsdb_monitor_get_version(*mp) == OVSDB_MONITOR_V3
                     ? "update3" : "update2", params));
    }
}

static void
handle_monitor_cancel(struct session *s, const struct jsonrpc_msg *msg)
{
    const json_t *id = json_array_get(msg->params, 0);
    struct ovsdb_monitor **mp;

    mp = json_array_size(msg->params) == 1 ? find_monitor(s, id) : NULL;
    if (!mp) {
        send_error(s, msg->id, ovsdb_syntax_error(msg->params, NULL,
                                                  "unknown monitor"));
        return;
    }
    ovsdb_monitor_destroy(*mp);
    *mp = s->monitors[--s->n_monitors];
    send_msg(s, jsonrpc_create_reply(json_object(), msg->id));
}

static struct ovsdb_error *write_converted_db(struct db *, struct ovsdb *);
static void install_converted_db(struct db *, struct ovsdb *);

/* The "convert" method (Open vSwitch's extension of RFC 7047): params
 * [DB-NAME, SCHEMA].  Converts database DB-NAME to SCHEMA, whose name
 * must be DB-NAME, and rewrites its file with the new schema and the
 * converted rows; the reply is an empty object.  Then, as Open vSwitch
 * 3.1 does, every client that did not send "set_db_change_aware" is
 * disconnected (it reconnects and reads the new schema), the monitors of
 * the others on DB-NAME are canceled with a "monitor_canceled"
 * notification, their blocked transactions on it fail with "canceled",
 * and the "schema" column of DB-NAME's row in "_Server" changes. */
static void
handle_convert(struct session *s, const struct jsonrpc_msg *msg)
{
    struct ovsdb_error *error;
    struct ovsdb *new = NULL;
    struct db *db;

    if (!json_is_array(msg->params) || json_array_size(msg->params) != 2) {
        send_error(s, msg->id, ovsdb_syntax_error(msg->params, NULL,
                                                  "array expected"));
        return;
    }
    db = lookup_db(s, msg);
    if (!db) {
        return;
    }
    if (db == server_db) {
        send_error(s, msg->id, ovsdb_error("not allowed", "conversion is "
                                           "not allowed for read-only "
                                           "database %s",
                                           db->ovsdb->schema->name));
        return;
    }
    if (db->raft) {
        /* The conversion is an entry of the cluster's log. */
        start_trigger(s, db, msg, true);
        return;
    }
    error = convert_db(db, json_array_get(msg->params, 1), &new);
    if (!error) {
        error = write_converted_db(db, new);
        if (error) {
            ovsdb_destroy(new);
        }
    }
    if (error) {
        convert_failed(s, db, msg->id, error);
        return;
    }
    VLOG_INFO("%s: converted database %s to schema version %s",
              jsonrpc_get_name(s->rpc), new->schema->name,
              new->schema->version);
    send_msg(s, jsonrpc_create_reply(json_object(), msg->id));
    disconnect_unaware_sessions(db);
    install_converted_db(db, new);
}

/* Converts 'db' to the schema in 'schema_json', which must have 'db''s
 * name, into '*newp'. */
static struct ovsdb_error *
convert_db(const struct db *db, const json_t *schema_json,
           struct ovsdb **newp)
{
    struct ovsdb_schema *schema;
    struct ovsdb_error *error;

    *newp = NULL;
    error = ovsdb_schema_from_json(schema_json, &schema);
    if (!error && strcmp(schema->name, db->ovsdb->schema->name)) {
        error = ovsdb_error("invalid parameters", "new schema name (%s) "
                            "does not match database name (%s)",
                            schema->name, db->ovsdb->schema->name);
    }
    if (!error && db->raft) {
        /* A cluster keeps every column.  (Open vSwitch 3.1's server takes
         * ephemeral columns into the entry and then fails to apply it.) */
        ovsdb_schema_persist_ephemeral_columns(schema, "convert");
    }
    if (!error) {
        error = ovsdb_convert(db->ovsdb, schema, newp);
    }
    ovsdb_schema_destroy(schema);
    return error;
}

/* Logs and replies 'error' (taken) to the conversion request 'id'. */
static void
convert_failed(struct session *s, const struct db *db, const json_t *id,
               struct ovsdb_error *error)
{
    char *text = ovsdb_error_to_string(error);

    VLOG_INFO("%s: conversion of database %s failed: %s",
              jsonrpc_get_name(s->rpc), db->ovsdb->schema->name, text);
    free(text);
    send_error(s, id, error);
}

/* Like Open vSwitch after a conversion of 'db', drops the sessions that
 * did not send "set_db_change_aware" before they see anything more: their
 * blocked transactions end with the connection, not with an error. */
static void
disconnect_unaware_sessions(const struct db *db)
{
    struct session *other;

    for (other = sessions; other; other = other->next) {
        if (!other->change_aware && !other->closing) {
            VLOG_INFO("%s: disconnecting (committed %s database schema "
                      "conversion)", jsonrpc_get_name(other->rpc),
                      db->ovsdb->schema->name);
            other->closing = true;
            poll_immediate_wake();
        }
    }
}

/* Runs trigger 't', a "convert" of a clustered database, as Open vSwitch
 * does: once no other proposal is in progress and a leader is known, the
 * converted database (the new schema and every row) is proposed as one
 * entry; the reply waits for it to commit.  Each server replaces its
 * database when it applies the entry (run_clusters()).  Returns true once
 * 't' is replied to. */
static bool
cluster_convert_try(struct trigger *t)
{
    struct raft *raft = t->db->raft;
    enum raft_proposal_state state;
    struct ovsdb_error *error;
    const char *reason;
    struct ovsdb *new;
    json_t *data;

    state = raft_proposal_state(raft, &reason);
    if (t->results) {
        if (state == RAFT_PROPOSAL_PENDING) {
            return false;
        }
        json_decref(t->results);
        t->results = NULL;
        raft_proposal_clear(raft);
        if (state == RAFT_PROPOSAL_DONE) {
            send_msg(t->session, jsonrpc_create_reply(json_object(), t->id));
            return true;
        } else if (state != RAFT_PROPOSAL_RETRY) {
            send_error(t->session, t->id,
                       ovsdb_error("cluster error", "%s",
                                   reason ? reason : "conversion failed"));
            return true;
        }
        state = RAFT_PROPOSAL_NONE;
    }
    if (state != RAFT_PROPOSAL_NONE || !raft_is_connected(raft)) {
        t->deadline = LLONG_MAX;
        return false;
    }
    error = convert_db(t->db, json_array_get(t->params, 1), &new);
    if (error) {
        convert_failed(t->session, t->db, t->id, error);
        return true;
    }
    data = ovsdb_file_snapshot_to_json(new, "converted by ovsdb-server");
    if (!data) {
        data = json_object();
    }
    json_object_set_new(data, "_is_diff", json_true());
    error = raft_propose(raft, ovsdb_schema_to_json(new->schema), data);
    ovsdb_destroy(new);
    if (error && raft_proposal_tag(error)
        && raft_proposal_state(raft, NULL) == RAFT_PROPOSAL_PENDING) {
        ovsdb_error_destroy(error);
        t->results = json_object();
        t->deadline = LLONG_MAX;
        return false;
    }
    if (!error) {
        error = ovsdb_error("cluster error", "conversion not proposed");
    }
    convert_failed(t->session, t->db, t->id, error);
    return true;
}

static void
handle_request(struct session *s, struct jsonrpc_msg *msg)
{
    const char *method = msg->method;

    if (!strcmp(method, "transact")) {
        handle_transact(s, msg);
    } else if (!strcmp(method, "monitor")) {
        handle_monitor(s, msg, OVSDB_MONITOR_V1);
    } else if ((!strcmp(method, "monitor_cond")
                || !strcmp(method, "monitor_cond_since"))
               && monitor_cond_disabled) {
        send_error(s, msg->id, ovsdb_error("unknown method", NULL));
    } else if (!strcmp(method, "monitor_cond")) {
        handle_monitor(s, msg, OVSDB_MONITOR_V2);
    } else if (!strcmp(method, "monitor_cond_since")) {
        handle_monitor(s, msg, OVSDB_MONITOR_V3);
    } else if (!strcmp(method, "monitor_cond_change")) {
        handle_monitor_cond_change(s, msg);
    } else if (!strcmp(method, "monitor_cancel")) {
        handle_monitor_cancel(s, msg);
    } else if (!strcmp(method, "convert")) {
        handle_convert(s, msg);
    } else if (!strcmp(method, "get_schema")) {
        struct db *db = lookup_db(s, msg);

        if (db) {
            send_msg(s, jsonrpc_create_reply(
                         ovsdb_schema_to_json(db->ovsdb->schema), msg->id));
        }
    } else if (!strcmp(method, "list_dbs")) {
        json_t *names = json_array();
        size_t i;

        for (i = 0; i < n_dbs; i++) {
            json_array_append_new(names,
                                  json_string(dbs[i]->ovsdb->schema->name));
        }
        send_msg(s, jsonrpc_create_reply(names, msg->id));
    } else if (!strcmp(method, "echo")) {
        send_msg(s, jsonrpc_create_reply(json_deep_copy(msg->params),
                                         msg->id));
    } else if ((!strcmp(method, "lock") || !strcmp(method, "steal")
                || !strcmp(method, "unlock")) && is_backup) {
        send_msg(s, jsonrpc_create_error(
                     json_string("lock and unlock methods not allowed, DB "
                                 "server is read only."), msg->id));
    } else if (!strcmp(method, "lock") || !strcmp(method, "steal")
               || !strcmp(method, "unlock")) {
        handle_lock(s, msg);
    } else if (!strcmp(method, "get_server_id")) {
        send_msg(s, jsonrpc_create_reply(json_string(server_id), msg->id));
    } else if (!strcmp(method, "set_db_change_aware")) {
        const json_t *b = json_array_get(msg->params, 0);

        s->change_aware = b && json_is_true(b);
        send_msg(s, jsonrpc_create_reply(json_object(), msg->id));
    } else {
        send_error(s, msg->id, ovsdb_error("unknown method", NULL));
    }
}

/* Runs the inactivity probe of 's'.  Returns true if 's' must go. */
static bool
run_probe(struct session *s)
{
    unsigned long long int rx = jsonrpc_get_received_bytes(s->rpc);
    long long int now = time_msec();

    if (!s->probe_interval) {
        return false;
    }
    if (rx != s->rx_bytes) {
        s->rx_bytes = rx;
        s->last_rx = now;
        s->probe_sent = false;
    } else if (now - s->last_rx >= s->probe_interval) {
        if (s->probe_sent) {
            VLOG_WARN("%s: no response to inactivity probe after %d "
                      "seconds, disconnecting", jsonrpc_get_name(s->rpc),
                      s->probe_interval / 1000);
            return true;
        }
        send_msg(s, jsonrpc_create_request("echo", json_array(), NULL));
        s->probe_sent = true;
        s->last_rx = now;
    }
    return false;
}

static void
run_sessions(void)
{
    struct session *s, *next;

    for (s = sessions; s; s = next) {
        int i, error = 0;

        next = s->next;
        jsonrpc_run(s->rpc);
        if (s->closing) {
            if (jsonrpc_get_status(s->rpc) || !jsonrpc_get_backlog(s->rpc)) {
                session_destroy(s);
            }
            continue;
        }
        /* Handle a bounded number of messages so that one busy client
         * cannot starve the others. */
        for (i = 0; i < 50; i++) {
            struct jsonrpc_msg *msg;

            error = jsonrpc_recv(s->rpc, &msg);
            if (error) {
                break;
            }
            if (msg->type == JSONRPC_REQUEST) {
                handle_request(s, msg);
            } else if (msg->type == JSONRPC_NOTIFY
                       && !strcmp(msg->method, "cancel")) {
                handle_cancel(s, msg);
            }
            jsonrpc_msg_destroy(msg);
        }
        if (i == 50) {
            poll_immediate_wake();
        }
        if (run_probe(s)) {
            session_destroy(s);
            continue;
        }
        error = jsonrpc_get_status(s->rpc);
        if (!error && jsonrpc_get_backlog(s->rpc) > MAX_BACKLOG) {
            /* A client that stops reading must not make us buffer without
             * limit; it can reconnect and start over. */
            VLOG_WARN("%s: disconnecting client: %zu bytes of replies and "
                      "updates not read", jsonrpc_get_name(s->rpc),
                      jsonrpc_get_backlog(s->rpc));
            session_destroy(s);
            continue;
        }
        if (error) {
            if (error != EOF) {
                VLOG_WARN("%s: disconnecting client: %s",
                          jsonrpc_get_name(s->rpc),
                          error == EPROTO ? "protocol error"
                          : util_strerror(error));
            }
            session_destroy(s);
        }
    }
}

/* Retries blocked transactions: all of them if 'force' (the database
 * changed), else those whose deadline passed. */
static void
run_triggers(bool force)
{
    long long int now = time_msec();
    struct trigger **tp;

    for (tp = &triggers; *tp; ) {
        struct trigger *t = *tp;

        if ((force || now >= t->deadline) && trigger_try(t, now)) {
            *tp = t->next;
            trigger_free(t);
        } else {
            tp = &t->next;
        }
    }
}

static void
wait_all(void)
{
    struct trigger *t;
    struct session *s;
    size_t i;

    for (i = 0; i < n_remotes; i++) {
        remote_wait(&remotes[i]);
    }
    for (i = 0; i < n_db_remotes; i++) {
        remote_wait(&db_remotes[i]);
    }
    poll_timer_wait_until(status_timer);
    for (s = sessions; s; s = s->next) {
        jsonrpc_wait(s->rpc);
        if (s->closing) {
            /* Only its output matters now. */
            continue;
        }
        jsonrpc_recv_wait(s->rpc);
        if (s->probe_interval) {
            poll_timer_wait_until(s->last_rx + s->probe_interval);
        }
    }
    for (t = triggers; t; t = t->next) {
        if (t->deadline != LLONG_MAX) {
            poll_timer_wait_until(t->deadline);
        }
    }
    for (i = 0; i < n_dbs; i++) {
        if (dbs[i]->ovsdb->file) {
            poll_timer_wait_until(dbs[i]->next_compact);
        }
    }
}

/* Notes that 'db' was just opened or compacted. */
static void
schedule_compaction(struct db *db)
{
    long long int now = time_msec();

    db->last_compact = now;
    db->next_compact = now + COMPACT_MIN_MSEC + random() % COMPACT_MIN_MSEC;
    db->compact_size = ovsdb_file_get_size(db->ovsdb->file);
}

static void
compact_db(struct db *db, const char *why)
{
    struct ovsdb_error *error;

    VLOG_INFO("compacting %s database %s", db->ovsdb->schema->name, why);
    error = ovsdb_file_compact(db->ovsdb, "compacting database online");
    if (error) {
        char *s = ovsdb_error_to_string(error);

        VLOG_WARN("%s: compaction failed: %s", db->file_name, s);
        free(s);
        ovsdb_error_destroy(error);
    } else if (trim_on_compaction) {
        trim_heap();
    }
    schedule_compaction(db);
}

/* Compacts the database files that have grown enough, with Open vSwitch's
 * thresholds. */
static void
run_compaction(void)
{
    long long int now = time_msec();
    size_t i;

    for (i = 0; i < n_dbs; i++) {
        struct db *db = dbs[i];
        size_t n_records;
        off_t size;

        if (!db->ovsdb->file || now < db->next_compact) {
            continue;
        }
        /* The schema and one snapshot are not growth. */
        n_records = ovsdb_file_get_n_records(db->ovsdb->file);
        size = ovsdb_file_get_size(db->ovsdb->file);
        if (n_records >= COMPACT_MIN_RECORDS + 2
            && size >= COMPACT_MIN_SIZE && size >= 2 * db->compact_size) {
            compact_db(db, "automatically");
        } else if (now - db->last_compact >= COMPACT_MAX_MSEC
                   && n_records > 2) {
            compact_db(db, "automatically, a day after the last time");
        } else {
            /* Look again in a minute. */
            db->next_compact = now + 60 * 1000;
        }
    }
}

/* One notification computed for a committed transaction, shared by every
 * monitor that would send the same bytes: the same updates (see
 * ovsdb_monitor_same_updates()) and an equal id.  Fifty clients that
 * monitor a table the same way cost one update and one serialization. */
struct shared_update {
    struct ohmap_node node;     /* In commit_cb()'s map, by monitor hash. */
    const struct ovsdb_monitor *monitor; /* The first monitor to ask. */
    struct ds message;          /* The serialized notification. */
    bool empty;                 /* No updates: send nothing. */
};

static struct shared_update *find_shared_update(const struct ohmap *,
                                                const struct ovsdb_monitor *,
                                                uint32_t hash);
static void compose_update(struct shared_update *, const struct ovsdb_txn *);
static void send_updates(struct session *, const struct ovsdb_txn *,
                         struct ohmap *shared);

/* Sends monitor updates for a committed transaction and retries blocked
 * transactions, which it may have unblocked.
 *
 * The client whose request committed gets its own updates first and then
 * its reply, as it always did on its connection; the other clients get
 * theirs after that reply, so that the writer can send its next request
 * while the server is still writing updates. */
static void
commit_cb(const struct ovsdb_txn *txn, void *aux DPS_UNUSED)
{
    struct session *writer = committing ? committing->session : NULL;
    struct shared_update *su;
    struct ohmap shared;
    struct session *s;

    db_changed = true;
    poll_immediate_wake();
    ovsdb_txn_log(txn);

    ohmap_init(&shared);
    if (writer) {
        send_updates(writer, txn, &shared);
        if (committing_results) {
            send_msg(writer, jsonrpc_create_reply(
                         json_incref(committing_results), committing->id));
            committing_replied = true;
        }
    }
    for (s = sessions; s; s = s->next) {
        if (s != writer) {
            send_updates(s, txn, &shared);
        }
    }
    OHMAP_FOR_EACH_SAFE (su, node, &shared) {
        ohmap_remove(&shared, &su->node);
        ds_destroy(&su->message);
        free(su);
    }
    ohmap_destroy(&shared);

    /* Retrying here would nest transactions; do it from the main loop. */
    if (triggers) {
        poll_immediate_wake();
        for (struct trigger *t = triggers; t; t = t->next) {
            t->deadline = 0;
        }
    }
}

/* Returns the free memory at the top and in the middle of the heap to the
 * system, where the C library can. */
static void
trim_heap(void)
{
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

/* Sends 's' the updates that 'txn' means for its monitors, computing each
 * distinct one once and keeping it in 'shared' for the other sessions. */
static void
send_updates(struct session *s, const struct ovsdb_txn *txn,
             struct ohmap *shared)
{
    size_t i;

    if (s->closing) {
        return;
    }
    for (i = 0; i < s->n_monitors; i++) {
        struct ovsdb_monitor *m = s->monitors[i];
        struct shared_update *su;
        uint32_t hash;

        if (ovsdb_monitor_get_db(m) != ovsdb_txn_get_db(txn)) {
            continue;
        }
        hash = ovsdb_monitor_hash(m);
        su = find_shared_update(shared, m, hash);
        if (!su) {
            su = xzalloc(sizeof *su);
            su->monitor = m;
            ds_init(&su->message);
            compose_update(su, txn);
            ohmap_insert(shared, &su->node, hash);
        }
        if (!su->empty) {
            jsonrpc_send_serialized(s->rpc, su->message.string,
                                    su->message.length);
        }
    }
}

static struct shared_update *
find_shared_update(const struct ohmap *shared, const struct ovsdb_monitor *m,
                   uint32_t hash)
{
    struct shared_update *su;

    OHMAP_FOR_EACH_WITH_HASH (su, node, hash, shared) {
        if (ovsdb_monitor_same_updates(su->monitor, m)
            && json_equal(ovsdb_monitor_get_id(su->monitor),
                          ovsdb_monitor_get_id(m))) {
            return su;
        }
    }
    return NULL;
}

/* Computes what 'txn' means for 'su->monitor' and serializes it, as
 * jsonrpc_send() would, into 'su->message'. */
static void
compose_update(struct shared_update *su, const struct ovsdb_txn *txn)
{
    const struct ovsdb_monitor *m = su->monitor;
    enum ovsdb_monitor_version v = ovsdb_monitor_get_version(m);
    json_t *updates = ovsdb_monitor_get_changes(m, txn);
    json_t *params, *json;

    if (!updates) {
        su->empty = true;
        return;
    }
    params = json_array();
    json_array_append_new(params, json_deep_copy(ovsdb_monitor_get_id(m)));
    if (v == OVSDB_MONITOR_V3) {
        json_array_append_new(params, txnid_json(ovsdb_txn_get_txnid(txn)));
    }
    json_array_append_new(params, updates);
    json = jsonrpc_msg_to_json(jsonrpc_create_notify(
                                   v == OVSDB_MONITOR_V1 ? "update"
                                   : v == OVSDB_MONITOR_V2 ? "update2"
                                   : "update3", params));
    jsonx_to_ds(json, 0, &su->message);
    json_decref(json);
}

/* ------------------------------------------------------------------------
 * unixctl commands.
 * ------------------------------------------------------------------------ */

static void
exit_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
        const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    exiting = true;
    unixctl_command_reply(conn, NULL);
}

static void
compact_cb(struct unixctl_conn *conn, int argc, const char *argv[],
           void *aux DPS_UNUSED)
{
    struct ds errors = DS_EMPTY_INITIALIZER;
    struct db *only = NULL;
    size_t i;

    if (argc > 1) {
        only = find_db(argv[1]);
        if (!only) {
            unixctl_command_reply_error(conn, "no database by that name");
            return;
        } else if (only == server_db) {
            unixctl_command_reply_error(conn,
                                        "cannot compact built-in databases");
            return;
        }
    }
    for (i = 0; i < n_dbs; i++) {
        struct db *db = dbs[i];
        struct ovsdb_error *error;

        if (!db->file_name || db->relay || (only && db != only)) {
            continue;
        }
        VLOG_INFO("compacting %s database by user request",
                  db->ovsdb->schema->name);
        error = ovsdb_file_compact(db->ovsdb, "compacting database online");
        schedule_compaction(db);
        if (error) {
            char *s = ovsdb_error_to_string(error);

            ds_put_format(&errors, "%s\n", s);
            free(s);
            ovsdb_error_destroy(error);
        } else if (trim_on_compaction) {
            trim_heap();
        }
    }
    if (errors.length) {
        unixctl_command_reply_error(conn, ds_cstr(&errors));
    } else {
        unixctl_command_reply(conn, NULL);
    }
    ds_destroy(&errors);
}

/* Registers the cluster/ commands, once: as in Open vSwitch, only a server
 * that has opened a clustered database has them. */
static void
register_cluster_commands(void)
{
    static bool registered;

    if (registered) {
        return;
    }
    registered = true;
    unixctl_command_register("cluster/status", "DB", 1, 1,
                             cluster_status_cb, NULL);
    unixctl_command_register("cluster/leave", "DB", 1, 1,
                             cluster_leave_cb, NULL);
    unixctl_command_register("cluster/kick", "DB SERVER", 2, 2,
                             cluster_kick_cb, NULL);
    unixctl_command_register("cluster/change-election-timer", "DB TIME", 2, 2,
                             cluster_change_election_timer_cb, NULL);
    unixctl_command_register("cluster/cid", "DB", 1, 1, cluster_id_cb,
                             (void *) "cid");
    unixctl_command_register("cluster/sid", "DB", 1, 1, cluster_id_cb,
                             (void *) "sid");
}

static void
get_db_storage_status_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
                         const char *argv[], void *aux DPS_UNUSED)
{
    if (!find_db(argv[1])) {
        unixctl_command_reply_error(conn, "Failed to find the database.");
    } else {
        /* A storage error stops the server (or, in a cluster, shows in
         * cluster/status), so a database still served is fine. */
        unixctl_command_reply(conn, "status: ok");
    }
}

static void
memory_trim_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
               const char *argv[], void *aux DPS_UNUSED)
{
    if (!strcmp(argv[1], "on")) {
        trim_on_compaction = true;
    } else if (!strcmp(argv[1], "off")) {
        trim_on_compaction = false;
    } else {
        unixctl_command_reply_error(conn, "invalid argument");
        return;
    }
    VLOG_INFO("memory trimming after compaction %s.",
              trim_on_compaction ? "enabled" : "disabled");
    unixctl_command_reply(conn, NULL);
}

/* Drops every client connection, saying why: clients of passive remotes
 * reconnect on their own, active remotes are connected again by
 * run_remotes(). */
static void
disconnect_all_sessions(const char *why)
{
    for (struct session *s = sessions; s; s = s->next) {
        if (!s->closing) {
            VLOG_INFO("%s: disconnecting (%s)", jsonrpc_get_name(s->rpc),
                      why);
            s->closing = true;
        }
    }
    poll_immediate_wake();
}

static void
reconnect_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
             const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    disconnect_all_sessions("user ran ovsdb-server/reconnect");
    unixctl_command_reply(conn, NULL);
}

static void
disable_monitor_cond_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
                        const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    monitor_cond_disabled = true;
    disconnect_all_sessions("user ran ovsdb-server/disable-monitor-cond");
    unixctl_command_reply(conn, NULL);
}

/* ovsdb-server/perf-counters-show and -clear: Open vSwitch reads hardware
 * performance counters where Linux offers them to it; dpswitch keeps none,
 * and says what Open vSwitch says where it has none. */
static void
perf_counters_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
                 const char *argv[] DPS_UNUSED, void *show)
{
    unixctl_command_reply(conn, show ? "performance counter is not "
                          "supported on this platform" : NULL);
}

/* ovsdb-server/tlog-set DB:TABLE on|off. */
static void
tlog_set_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
            const char *argv[], void *aux DPS_UNUSED)
{
    const char *colon = strchr(argv[1], ':');
    bool on;

    if (!colon || colon == argv[1] || !colon[1]) {
        unixctl_command_reply_error(conn, "invalid DB:TABLE argument");
        return;
    }
    if (!strcasecmp(argv[2], "on")) {
        on = true;
    } else if (!strcasecmp(argv[2], "off")) {
        on = false;
    } else {
        unixctl_command_reply_error(conn, "invalid command argument");
        return;
    }

    char *db_name = xmemdup0(argv[1], colon - argv[1]);
    struct db *db = find_db(db_name);
    free(db_name);
    if (!db) {
        unixctl_command_reply_error(conn, "no such database");
        return;
    }
    const struct ovsdb_schema *schema = db->ovsdb->schema;
    for (size_t i = 0; i < schema->n_tables; i++) {
        if (!strcmp(schema->tables[i]->name, colon + 1)) {
            db->ovsdb->tables[i].log = on;
            unixctl_command_reply(conn, NULL);
            return;
        }
    }
    unixctl_command_reply_error(conn, "no such table");
}

static int
compare_table_schemas(const void *a_, const void *b_)
{
    const struct ovsdb_table_schema *const *a = a_, *const *b = b_;

    return strcmp((*a)->name, (*b)->name);
}

/* ovsdb-server/tlog-list: the databases in Open vSwitch's order (that of
 * its hash map of them), each one's tables by name. */
static void
tlog_list_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
             const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    const char **names = xmalloc((n_dbs + 1) * sizeof *names);
    struct ds ds = DS_EMPTY_INITIALIZER;

    for (size_t i = 0; i < n_dbs; i++) {
        names[i] = dbs[i]->ovsdb->schema->name;
    }
    size_t *order = ovsdb_json_ovs_order(names, n_dbs);
    ds_put_cstr(&ds, "database        table                       logging\n"
                "--------        -----                       -------\n");
    for (size_t i = 0; i < n_dbs; i++) {
        const struct ovsdb *ovsdb = dbs[order[i]]->ovsdb;
        size_t n = ovsdb->schema->n_tables;
        const struct ovsdb_table_schema **tables
            = xmalloc((n + 1) * sizeof *tables);

        ds_put_format(&ds, "%-16s \n", ovsdb->schema->name);
        for (size_t j = 0; j < n; j++) {
            tables[j] = ovsdb->schema->tables[j];
        }
        qsort(tables, n, sizeof *tables, compare_table_schemas);
        for (size_t j = 0; j < n; j++) {
            ds_put_format(&ds, "                %-27s %s\n", tables[j]->name,
                          ovsdb->tables[tables[j]->index].log ? "ON" : "OFF");
        }
        free(tables);
    }
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
    free(order);
    free(names);
}

/* Finds clustered database argv[1] for a cluster/ command, or replies with
 * an error and returns NULL. */
static struct db *
find_cluster_db(struct unixctl_conn *conn, const char *name)
{
    struct db *db = find_db(name);

    if (!db) {
        unixctl_command_reply_error(conn, "unknown database");
    } else if (!db->raft) {
        unixctl_command_reply_error(conn, "database is not clustered");
        db = NULL;
    }
    return db;
}

/* cluster/status DB: in Open vSwitch 3.1's layout. */
static void
cluster_status_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
                  const char *argv[], void *aux DPS_UNUSED)
{
    struct db *db = find_cluster_db(conn, argv[1]);
    struct ds ds = DS_EMPTY_INITIALIZER;

    if (db) {
        raft_format_status(db->raft, &ds);
        unixctl_command_reply(conn, ds_cstr(&ds));
    }
    ds_destroy(&ds);
}

/* cluster/cid DB, cluster/sid DB. */
static void
cluster_id_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
              const char *argv[], void *which)
{
    struct db *db = find_cluster_db(conn, argv[1]);
    char s[UUID_LEN + 1];
    struct uuid cid, sid;

    if (db) {
        raft_get_ids(db->raft, &cid, &sid);
        if (!strcmp(which, "cid") && uuid_is_zero(&cid)) {
            unixctl_command_reply_error(conn, "not yet known");
            return;
        }
        uuid_to_string(!strcmp(which, "cid") ? &cid : &sid, s);
        unixctl_command_reply(conn, s);
    }
}

/* cluster/leave DB: this server leaves its cluster. */
static void
cluster_leave_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
                 const char *argv[], void *aux DPS_UNUSED)
{
    struct db *db = find_cluster_db(conn, argv[1]);
    char *msg;

    if (db) {
        msg = raft_leave(db->raft);
        if (msg) {
            unixctl_command_reply_error(conn, msg);
            free(msg);
        } else {
            unixctl_command_reply(conn, NULL);
        }
    }
}

/* cluster/kick DB SERVER: removes another server from the cluster. */
static void
cluster_kick_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
                const char *argv[], void *aux DPS_UNUSED)
{
    struct db *db = find_cluster_db(conn, argv[1]);
    char *msg;

    if (db) {
        msg = raft_kick(db->raft, argv[2]);
        if (msg) {
            unixctl_command_reply_error(conn, msg);
            free(msg);
        } else {
            unixctl_command_reply(conn, "started removal");
        }
    }
}

/* cluster/change-election-timer DB TIME (on the leader). */
static void
cluster_change_election_timer_cb(struct unixctl_conn *conn,
                                 int argc DPS_UNUSED, const char *argv[],
                                 void *aux DPS_UNUSED)
{
    struct db *db = find_cluster_db(conn, argv[1]);
    char *end, *msg;
    unsigned long long ms;

    if (!db) {
        return;
    }
    ms = strtoull(argv[2], &end, 10);
    if (*end || !*argv[2]) {
        unixctl_command_reply_error(conn, "invalid election timer value");
        return;
    }
    msg = raft_change_election_timer(db->raft, ms);
    if (msg) {
        unixctl_command_reply_error(conn, msg);
        free(msg);
    } else {
        char *reply = xasprintf("change of election timer initiated.");

        unixctl_command_reply(conn, reply);
        free(reply);
    }
}

static void
list_dbs_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
            const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    const char **names = xmalloc((n_dbs + 1) * sizeof *names);
    size_t i;

    for (i = 0; i < n_dbs; i++) {
        names[i] = dbs[i]->ovsdb->schema->name;
    }
    reply_sorted(conn, names, n_dbs);
    free(names);
}

static int
compare_strings(const void *a_, const void *b_)
{
    const char *const *a = a_, *const *b = b_;

    return strcmp(*a, *b);
}

/* Replies to 'conn' with the 'n' 'names', one per line, sorted (as Open
 * vSwitch lists databases and remotes). */
static void
reply_sorted(struct unixctl_conn *conn, const char **names, size_t n)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    size_t i;

    qsort(names, n, sizeof *names, compare_strings);
    for (i = 0; i < n; i++) {
        ds_put_format(&ds, "%s\n", names[i]);
    }
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
}

static void
list_remotes_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
                const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    const char **names = xmalloc((n_remotes + 1) * sizeof *names);
    size_t i;

    for (i = 0; i < n_remotes; i++) {
        names[i] = remotes[i].name;
    }
    reply_sorted(conn, names, n_remotes);
    free(names);
}

static void
add_remote_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
              const char *argv[], void *aux DPS_UNUSED)
{
    char *error;

    if (strncmp(argv[1], "db:", 3) && pstream_verify_name(argv[1])
        && stream_verify_name(argv[1])) {
        unixctl_command_reply_error(conn, "unknown remote type");
        return;
    }
    error = check_db_spec(argv[1]);
    if (error) {
        unixctl_command_reply_error(conn, error);
        free(error);
        return;
    }
    add_remote(argv[1]);
    save_config();
    unixctl_command_reply(conn, NULL);
}

static void
remove_remote_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
                 const char *argv[], void *aux DPS_UNUSED)
{
    size_t i;

    for (i = 0; i < n_remotes; i++) {
        if (!strcmp(remotes[i].name, argv[1])) {
            remote_close(&remotes[i]);
            remotes[i] = remotes[--n_remotes];
            save_config();
            unixctl_command_reply(conn, NULL);
            return;
        }
    }
    unixctl_command_reply_error(conn, "no such remote");
}

static void
add_db_cb(struct unixctl_conn *conn, int argc DPS_UNUSED, const char *argv[],
          void *aux DPS_UNUSED)
{
    char *msg = open_db(argv[1]);

    if (msg) {
        unixctl_command_reply_error(conn, msg);
        free(msg);
    } else {
        db_changed = true;
        save_config();
        if (is_backup) {
            /* Replicate the new database too, from a new connection. */
            restart_replication();
        }
        unixctl_command_reply(conn, NULL);
    }
}

/* Stops serving database 'db': its monitors are canceled (with a
 * "monitor_canceled" notification), its blocked transactions fail, and its
 * "_Server" row goes. */
static void
remove_db(struct db *db)
{
    json_t *ops, *op, *where;
    size_t i;

    cancel_db_users(db, true);

    ops = json_array();
    op = json_object();
    where = json_array();
    json_array_append_new(where, json_pack("[s,s,s]", "name", "==",
                                           db->ovsdb->schema->name));
    json_object_set_new(op, "op", json_string("delete"));
    json_object_set_new(op, "table", json_string("Database"));
    json_object_set_new(op, "where", where);
    json_array_append_new(ops, op);
    server_db_transact(ops);

    for (i = 0; i < n_dbs; i++) {
        if (dbs[i] == db) {
            memmove(&dbs[i], &dbs[i + 1], (n_dbs - i - 1) * sizeof *dbs);
            n_dbs--;
            break;
        }
    }
    relay_destroy(db->relay);
    ovsdb_destroy(db->ovsdb);
    free(db->file_name);
    free(db);
    db_changed = true;
}

/* Cancels the monitors and the blocked transactions of every session on
 * 'db'.  Each canceled monitor gets a "monitor_canceled" notification if
 * 'notify_all' or its session sent "set_db_change_aware"; each
 * transaction gets a "canceled" error; a session being disconnected gets
 * neither. */
static void
cancel_db_users(struct db *db, bool notify_all)
{
    struct trigger **tp;
    struct session *s;
    size_t i;

    for (s = sessions; s; s = s->next) {
        for (i = 0; i < s->n_monitors; ) {
            struct ovsdb_monitor *m = s->monitors[i];

            if (ovsdb_monitor_get_db(m) == db->ovsdb) {
                if ((notify_all || s->change_aware) && !s->closing) {
                    json_t *params = json_array();

                    json_array_append_new(params, json_deep_copy(
                                              ovsdb_monitor_get_id(m)));
                    send_msg(s, jsonrpc_create_notify("monitor_canceled",
                                                      params));
                }
                ovsdb_monitor_destroy(m);
                s->monitors[i] = s->monitors[--s->n_monitors];
            } else {
                i++;
            }
        }
    }
    for (tp = &triggers; *tp; ) {
        struct trigger *t = *tp;

        if (t->db == db && !(t->convert && t->results)) {
            if (!t->session->closing) {
                send_error(t->session, t->id, ovsdb_error("canceled", NULL));
            }
            *tp = t->next;
            trigger_free(t);
        } else {
            tp = &t->next;
        }
    }
}

/* Writes 'new', the conversion of 'db''s database to a new schema, to
 * 'db''s file: the new schema and a snapshot of the rows, replacing the
 * file atomically.  On error nothing changes. */
static struct ovsdb_error *
write_converted_db(struct db *db, struct ovsdb *new)
{
    struct ovsdb *old = db->ovsdb;
    struct ovsdb_error *error;

    if (!old->file) {
        return NULL;
    }
    new->file = old->file;
    old->file = NULL;
    error = ovsdb_file_compact(new, "converted by ovsdb-server");
    if (error) {
        old->file = new->file;
        new->file = NULL;
    }
    return error;
}

/* Makes 'new', written by write_converted_db(), the database that 'db'
 * serves: cancels the monitors and blocked transactions on the old one
 * and updates the "schema" column of its "_Server" row. */
static void
install_converted_db(struct db *db, struct ovsdb *new)
{
    struct ovsdb *old = db->ovsdb;
    json_t *ops, *op, *where, *row, *schema_json;
    char *schema_text;

    cancel_db_users(db, false);
    new->commit_cb = old->commit_cb;
    new->commit_aux = old->commit_aux;
    db->ovsdb = new;
    ovsdb_destroy(old);
    if (new->file) {
        schedule_compaction(db);
    }

    schema_json = ovsdb_schema_to_json(new->schema);
    schema_text = ovsdb_json_to_string(schema_json, OVSDB_JSON_SORT);
    json_decref(schema_json);
    ops = json_array();
    op = json_object();
    where = json_array();
    row = json_object();
    json_array_append_new(where, json_pack("[s,s,s]", "name", "==",
                                           new->schema->name));
    json_object_set_new(row, "schema", json_string(schema_text));
    json_object_set_new(op, "op", json_string("update"));
    json_object_set_new(op, "table", json_string("Database"));
    json_object_set_new(op, "where", where);
    json_object_set_new(op, "row", row);
    json_array_append_new(ops, op);
    free(schema_text);
    server_db_transact(ops);
    db_changed = true;
}

static void
remove_db_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
             const char *argv[], void *aux DPS_UNUSED)
{
    struct db *db = find_db(argv[1]);

    if (!db) {
        unixctl_command_reply_error(conn, "Failed to find the database.");
    } else if (db == server_db) {
        unixctl_command_reply_error(conn, "Cannot remove the _Server "
                                    "database.");
    } else {
        remove_db(db);
        save_config();
        if (is_backup) {
            restart_replication();
        }
        unixctl_command_reply(conn, NULL);
    }
}

/* "memory/show": the figures Open vSwitch's ovsdb-server reports. */
static void
memory_report_cb(struct memory_report *report, void *aux DPS_UNUSED)
{
    unsigned long long int atoms = 0, cells = 0, weak_refs = 0;
    unsigned long long int n_monitors = 0, n_sessions = 0;
    unsigned long long int n_txn_history = 0, n_txn_history_atoms = 0;
    struct session *sess;
    size_t i, t;

    for (i = 0; i < n_dbs; i++) {
        const struct ovsdb *db = dbs[i]->ovsdb;

        for (t = 0; t < db->schema->n_tables; t++) {
            const struct ovsdb_table *table = &db->tables[t];
            const struct ovsdb_table_schema *ts = table->schema;
            struct ovsdb_row *row;

            OHMAP_FOR_EACH (row, node, &table->rows) {
                size_t c;

                for (c = 0; c < ts->n_columns; c++) {
                    const struct ovsdb_type *type = &ts->columns[c]->type;
                    unsigned int n = row->fields[c].n;

                    cells++;
                    atoms += n * (type->value.type == OVSDB_TYPE_VOID
                                  ? 1 : 2);
                    if (ovsdb_base_type_is_weak_ref(&type->key)) {
                        weak_refs += n;
                    }
                    if (ovsdb_base_type_is_weak_ref(&type->value)) {
                        weak_refs += n;
                    }
                }
            }
        }
    }
    for (sess = sessions; sess; sess = sess->next) {
        n_sessions++;
        n_monitors += sess->n_monitors;
    }
    for (i = 0; i < n_dbs; i++) {
        n_txn_history += dbs[i]->ovsdb->n_txn_history;
        n_txn_history_atoms += dbs[i]->ovsdb->n_txn_history_atoms;
    }
    /* As in Open vSwitch, the history's figures only when nonzero. */
    if (n_txn_history) {
        memory_report_add(report, "txn-history", n_txn_history);
    }
    if (n_txn_history_atoms) {
        memory_report_add(report, "txn-history-atoms", n_txn_history_atoms);
    }
    memory_report_add(report, "atoms", atoms);
    memory_report_add(report, "cells", cells);
    memory_report_add(report, "monitors", n_monitors);
    memory_report_add(report, "n-weak-refs", weak_refs);
    if (n_sessions) {
        memory_report_add(report, "sessions", n_sessions);
    }
}

/* ------------------------------------------------------------------------
 * Active-backup replication (see replication.c).
 * ------------------------------------------------------------------------ */

static struct ovsdb *
replication_find_db(const char *name)
{
    struct db *db = find_db(name);

    return db && db != server_db ? db->ovsdb : NULL;
}

/* (Re)starts replicating every database we serve from 'sync_from'. */
static void
restart_replication(void)
{
    char **names = xcalloc(n_dbs + 1, sizeof *names);
    size_t i, n = 0;

    for (i = 0; i < n_dbs; i++) {
        if (dbs[i] != server_db && !dbs[i]->relay) {
            names[n++] = dbs[i]->ovsdb->schema->name;
        }
    }
    replication_set_find_db(replication_find_db);
    replication_start(sync_from, names, n);
    free(names);
}

/* Changing role closes every client connection, as in Open vSwitch, so
 * that clients reconnect and see the server as it is now. */
static void
close_all_sessions(void)
{
    while (sessions) {
        session_destroy(sessions);
    }
}

static void
become_backup(void)
{
    restart_replication();
    is_backup = true;
    close_all_sessions();
}

static void
become_active(void)
{
    replication_stop();
    is_backup = false;
    close_all_sessions();
}

static void
set_active_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
              const char *argv[], void *aux DPS_UNUSED)
{
    free(sync_from);
    sync_from = xstrdup(argv[1]);
    unixctl_command_reply(conn, NULL);
}

static void
get_active_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
              const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    unixctl_command_reply(conn, sync_from);
}

static void
connect_active_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
                  const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    if (!sync_from) {
        /* Open vSwitch answers this without an error status. */
        unixctl_command_reply(conn, "Unable to connect: active server is "
                              "not specified.\n");
        return;
    }
    if (!is_backup) {
        become_backup();
    }
    unixctl_command_reply(conn, NULL);
}

static void
disconnect_active_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
                     const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    become_active();
    unixctl_command_reply(conn, NULL);
}

static void
set_probe_interval_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
                      const char *argv[], void *aux DPS_UNUSED)
{
    char *end;
    long int msec = strtol(argv[1], &end, 10);

    if (!*argv[1] || *end || msec < 0 || msec > INT_MAX) {
        unixctl_command_reply(conn, "Invalid probe interval, integer value "
                              "expected");
        return;
    }
    replication_set_probe_interval(msec);
    unixctl_command_reply(conn, NULL);
}

static void
set_exclude_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
               const char *argv[], void *aux DPS_UNUSED)
{
    replication_set_excluded(argv[1]);
    if (is_backup) {
        /* Start over with the new set, as Open vSwitch does. */
        restart_replication();
    }
    unixctl_command_reply(conn, NULL);
}

static void
get_exclude_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
               const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    char *list = replication_get_excluded();
    char *reply = *list ? xasprintf("%s\n", list) : NULL;

    unixctl_command_reply(conn, reply);
    free(reply);
    free(list);
}

static void
sync_status_cb(struct unixctl_conn *conn, int argc DPS_UNUSED,
               const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    char *status = is_backup ? replication_status() : NULL;
    char *reply = xasprintf("state: %s\n%s", is_backup ? "backup" : "active",
                            status ? status : "");

    unixctl_command_reply(conn, reply);
    free(reply);
    free(status);
}

static void
register_replication_commands(void)
{
    unixctl_command_register("ovsdb-server/set-active-ovsdb-server", "", 1,
                             1, set_active_cb, NULL);
    unixctl_command_register("ovsdb-server/get-active-ovsdb-server", "", 0,
                             0, get_active_cb, NULL);
    unixctl_command_register("ovsdb-server/connect-active-ovsdb-server", "",
                             0, 0, connect_active_cb, NULL);
    unixctl_command_register("ovsdb-server/disconnect-active-ovsdb-server",
                             "", 0, 0, disconnect_active_cb, NULL);
    unixctl_command_register(
        "ovsdb-server/set-active-ovsdb-server-probe-interval", "", 1, 1,
        set_probe_interval_cb, NULL);
    unixctl_command_register("ovsdb-server/set-sync-exclude-tables", "", 1,
                             1, set_exclude_cb, NULL);
    unixctl_command_register("ovsdb-server/get-sync-exclude-tables", "", 0,
                             0, get_exclude_cb, NULL);
    unixctl_command_register("ovsdb-server/sync-status", "", 0, 0,
                             sync_status_cb, NULL);
}
