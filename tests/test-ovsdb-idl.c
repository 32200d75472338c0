/* Unit tests for lib/ovsdb-idl.c, against our ovsdb-server (ovsdb/ in the
 * build directory) serving a small test schema in a private directory.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "json.h"
#include "jsonrpc.h"
#include "ovsdb-idl.h"
#include "ovsdb/ovsdb-data.h"
#include "ovsdb/schema.h"
#include "ovsdb/uuid.h"
#include "poll-loop.h"
#include "timeval.h"
#include "util.h"

static const char test_schema[] =
    "{\"name\": \"idltest\", \"version\": \"1.0.0\", \"tables\": {\n"
    " \"simple\": {\"columns\": {\n"
    "   \"name\": {\"type\": \"string\"},\n"
    "   \"i\": {\"type\": \"integer\"},\n"
    "   \"s\": {\"type\": {\"key\": \"string\", \"min\": 0,"
    " \"max\": \"unlimited\"}},\n"
    "   \"m\": {\"type\": {\"key\": \"string\", \"value\": \"string\","
    " \"min\": 0, \"max\": \"unlimited\"}},\n"
    "   \"ref\": {\"type\": {\"key\": {\"type\": \"uuid\","
    " \"refTable\": \"child\"}, \"min\": 0, \"max\": \"unlimited\"}}},\n"
    "  \"indexes\": [[\"name\"]], \"isRoot\": true},\n"
    " \"child\": {\"columns\": {\"n\": {\"type\": \"integer\"}}}}}\n";

static char dir[256];
static char remote[PATH_MAX + 16];
static pid_t server_pid;

static void
run_cmd(const char *cmd)
{
    int status = system(cmd);

    assert_int_equal(status, 0);
}

static void
start_server(void)
{
    char sock[PATH_MAX + 16], db[PATH_MAX + 16], ctl[PATH_MAX + 16];
    char log[PATH_MAX + 32];
    struct stat st;
    int i;

    snprintf(sock, sizeof sock, "--remote=punix:%s/db.sock", dir);
    snprintf(ctl, sizeof ctl, "--unixctl=%s/ctl", dir);
    snprintf(log, sizeof log, "--log-file=%s/ovsdb-server.log", dir);
    snprintf(db, sizeof db, "%s/db", dir);
    server_pid = fork();
    assert_true(server_pid >= 0);
    if (!server_pid) {
        execl("ovsdb/ovsdb-server", "ovsdb-server", sock, ctl, log,
              "-vconsole:off", db, (char *) NULL);
        _exit(127);
    }
    snprintf(sock, sizeof sock, "%s/db.sock", dir);
    for (i = 0; i < 500 && stat(sock, &st); i++) {
        usleep(10000);
    }
    assert_int_equal(stat(sock, &st), 0);
}

static void
stop_server(void)
{
    char sock[PATH_MAX + 16];

    if (server_pid > 0) {
        kill(server_pid, SIGTERM);
        waitpid(server_pid, NULL, 0);
        server_pid = 0;
    }
    snprintf(sock, sizeof sock, "%s/db.sock", dir);
    unlink(sock);
}

static int
group_setup(void **state DPS_UNUSED)
{
    char cmd[3 * PATH_MAX];
    FILE *f;

    snprintf(dir, sizeof dir, "/tmp/test-ovsdb-idl.XXXXXX");
    if (!mkdtemp(dir)) {
        return -1;
    }
    snprintf(cmd, sizeof cmd, "%s/schema", dir);
    f = fopen(cmd, "w");
    if (!f) {
        return -1;
    }
    fputs(test_schema, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "ovsdb/ovsdb-tool create %s/db %s/schema",
             dir, dir);
    if (system(cmd)) {
        return -1;
    }
    snprintf(remote, sizeof remote, "unix:%s/db.sock", dir);
    start_server();
    return 0;
}

static int
group_teardown(void **state DPS_UNUSED)
{
    char cmd[PATH_MAX + 16];

    stop_server();
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) ? -1 : 0;
}

/* Runs 'idl' until it is monitoring and its seqno differs from 'seqno',
 * for at most 10 s. */
static void
run_until_change(struct ovsdb_idl *idl, unsigned int seqno)
{
    long long int deadline = time_msec() + 10000;

    for (;;) {
        ovsdb_idl_run(idl);
        if (ovsdb_idl_is_monitoring(idl)
            && ovsdb_idl_get_seqno(idl) != seqno) {
            return;
        }
        assert_true(time_msec() < deadline);
        ovsdb_idl_wait(idl);
        poll_timer_wait_until(deadline);
        poll_block();
    }
}

static struct ovsdb_idl *
connect_idl(void)
{
    struct ovsdb_idl *idl = ovsdb_idl_create(remote, "idltest", true);

    run_until_change(idl, 0);
    return idl;
}

/* Runs 'idl' until 'cond(idl, aux)' holds, for at most 10 s. */
static void
run_until(struct ovsdb_idl *idl, bool (*cond)(struct ovsdb_idl *, void *),
          void *aux)
{
    long long int deadline = time_msec() + 10000;

    for (;;) {
        ovsdb_idl_run(idl);
        if (ovsdb_idl_is_monitoring(idl) && cond(idl, aux)) {
            return;
        }
        assert_true(time_msec() < deadline);
        ovsdb_idl_wait(idl);
        poll_timer_wait(100);
        poll_block();
    }
}

static const struct ovsdb_column *
column(struct ovsdb_idl *idl, const char *table, const char *name)
{
    const struct ovsdb_table_schema *ts = ovsdb_idl_get_table(idl, table);
    const struct ovsdb_column *c;

    assert_non_null(ts);
    c = ovsdb_table_schema_find_column(ts, name);
    assert_non_null(c);
    return c;
}

static const struct ovsdb_idl_row *
find_simple(struct ovsdb_idl *idl, const char *name)
{
    const struct ovsdb_table_schema *ts = ovsdb_idl_get_table(idl, "simple");
    const struct ovsdb_column *c = column(idl, "simple", "name");
    const struct ovsdb_idl_row *row;

    OVSDB_IDL_FOR_EACH_ROW (row, idl, ts) {
        const struct ovsdb_datum *d = ovsdb_idl_row_get(row, c);

        if (d->n == 1 && !strcmp(d->keys[0].string, name)) {
            return row;
        }
    }
    return NULL;
}

static bool
has_simple(struct ovsdb_idl *idl, void *name)
{
    return find_simple(idl, name) != NULL;
}

static bool
lacks_simple(struct ovsdb_idl *idl, void *name)
{
    return find_simple(idl, name) == NULL;
}

static void
write_string(struct ovsdb_idl_txn *txn, const struct ovsdb_idl_row *row,
             const struct ovsdb_column *c, const char *s)
{
    struct ovsdb_datum d;

    ovsdb_datum_init_default(&d, &c->type);
    free(d.keys[0].string);
    d.keys[0].string = xstrdup(s);
    ovsdb_idl_txn_write(txn, row, c, &d);
}

static void
write_int(struct ovsdb_idl_txn *txn, const struct ovsdb_idl_row *row,
          const struct ovsdb_column *c, int64_t i)
{
    struct ovsdb_datum d;

    ovsdb_datum_init_default(&d, &c->type);
    d.keys[0].integer = i;
    ovsdb_idl_txn_write(txn, row, c, &d);
}

static void
insert_simple(struct ovsdb_idl *idl, const char *name, int64_t i)
{
    struct ovsdb_idl_txn *txn = ovsdb_idl_txn_create(idl);
    const struct ovsdb_idl_row *row;

    row = ovsdb_idl_txn_insert(txn, ovsdb_idl_get_table(idl, "simple"));
    write_string(txn, row, column(idl, "simple", "name"), name);
    write_int(txn, row, column(idl, "simple", "i"), i);
    assert_int_equal(ovsdb_idl_txn_commit_block(txn), TXN_SUCCESS);
    ovsdb_idl_txn_destroy(txn);
}

static void
delete_simple(struct ovsdb_idl *idl, const char *name)
{
    struct ovsdb_idl_txn *txn = ovsdb_idl_txn_create(idl);
    const struct ovsdb_idl_row *row = find_simple(idl, name);

    assert_non_null(row);
    ovsdb_idl_txn_delete(txn, row);
    assert_int_equal(ovsdb_idl_txn_commit_block(txn), TXN_SUCCESS);
    ovsdb_idl_txn_destroy(txn);
    run_until(idl, lacks_simple, (void *) name);
}

/* The replica follows another client's changes. */
static void
test_replica(void **state DPS_UNUSED)
{
    struct ovsdb_idl *a = connect_idl(), *b = connect_idl();
    const struct ovsdb_idl_row *row;
    unsigned int seqno;

    assert_string_equal(ovsdb_idl_get_monitor_method(a),
                        "monitor_cond_since");
    assert_null(find_simple(a, "one"));
    seqno = ovsdb_idl_get_seqno(b);
    insert_simple(a, "one", 1);
    run_until(b, has_simple, "one");
    assert_true(ovsdb_idl_get_seqno(b) != seqno);
    row = find_simple(b, "one");
    assert_int_equal(ovsdb_idl_row_get_by_name(row, "i")->keys[0].integer, 1);
    assert_null(ovsdb_idl_row_get_by_name(row, "nonexistent"));
    assert_int_equal(ovsdb_idl_row_get_by_name(row, "s")->n, 0);

    delete_simple(a, "one");
    run_until(b, lacks_simple, "one");
    ovsdb_idl_destroy(a);
    ovsdb_idl_destroy(b);
}

static bool
child_count_is(struct ovsdb_idl *idl, void *n)
{
    return ovsdb_idl_count_rows(idl, ovsdb_idl_get_table(idl, "child"))
           == (size_t) (uintptr_t) n;
}

/* Inserts referring to each other, reads of the transaction's own writes,
 * sets and maps through "modify" updates, and the real UUIDs. */
static void
test_txn_insert_refs(void **state DPS_UNUSED)
{
    struct ovsdb_idl *idl = connect_idl(), *b = connect_idl();
    const struct ovsdb_column *ref = column(idl, "simple", "ref");
    const struct ovsdb_column *m = column(idl, "simple", "m");
    const struct ovsdb_idl_row *row, *child;
    struct ovsdb_idl_txn *txn;
    struct ovsdb_datum d;
    struct uuid temp;

    txn = ovsdb_idl_txn_create(idl);
    ovsdb_idl_txn_add_comment(txn, "test %d", 1);
    row = ovsdb_idl_txn_insert(txn, ovsdb_idl_get_table(idl, "simple"));
    child = ovsdb_idl_txn_insert(txn, ovsdb_idl_get_table(idl, "child"));
    temp = *ovsdb_idl_row_get_uuid(child);
    assert_true(ovsdb_idl_row_is_new(child));
    write_string(txn, row, column(idl, "simple", "name"), "two");
    write_int(txn, child, column(idl, "child", "n"), 7);

    ovsdb_datum_init_empty(&d);
    {
        union ovsdb_atom atom;

        atom.uuid = temp;
        ovsdb_datum_add(&d, &atom, NULL, &ref->type);
    }
    ovsdb_idl_txn_write(txn, row, ref, &d);
    /* The transaction sees its own rows and writes. */
    assert_non_null(find_simple(idl, "two"));
    assert_int_equal(ovsdb_idl_row_get(row, ref)->n, 1);
    assert_int_equal(ovsdb_idl_txn_commit_block(txn), TXN_SUCCESS);
    assert_non_null(ovsdb_idl_txn_get_insert_uuid(txn, &temp));
    temp = *ovsdb_idl_txn_get_insert_uuid(txn, &temp);
    ovsdb_idl_txn_destroy(txn);

    run_until(b, has_simple, "two");
    run_until(b, child_count_is, (void *) (uintptr_t) 1);
    row = find_simple(b, "two");
    assert_true(uuid_equals(&ovsdb_idl_row_get(row, ref)->keys[0].uuid,
                            &temp));

    /* A map change arrives as an update2 "modify" diff. */
    run_until(idl, has_simple, "two");
    txn = ovsdb_idl_txn_create(idl);
    row = find_simple(idl, "two");
    ovsdb_datum_init_empty(&d);
    {
        union ovsdb_atom k, v;

        k.string = (char *) "k";
        v.string = (char *) "v";
        ovsdb_datum_add(&d, &k, &v, &m->type);
    }
    ovsdb_idl_txn_write(txn, row, m, &d);
    assert_int_equal(ovsdb_idl_txn_commit_block(txn), TXN_SUCCESS);
    ovsdb_idl_txn_destroy(txn);
    {
        long long int deadline = time_msec() + 10000;

        for (;;) {
            row = find_simple(b, "two");
            if (ovsdb_idl_row_get(row, m)->n == 1) {
                break;
            }
            assert_true(time_msec() < deadline);
            ovsdb_idl_run(b);
            ovsdb_idl_wait(b);
            poll_timer_wait(100);
            poll_block();
        }
        assert_string_equal(ovsdb_idl_row_get(row, m)->values[0].string,
                            "v");
    }

    /* Dropping the reference garbage-collects the child. */
    txn = ovsdb_idl_txn_create(idl);
    row = find_simple(idl, "two");
    ovsdb_datum_init_empty(&d);
    ovsdb_idl_txn_write(txn, row, ref, &d);
    assert_int_equal(ovsdb_idl_txn_commit_block(txn), TXN_SUCCESS);
    ovsdb_idl_txn_destroy(txn);
    run_until(b, child_count_is, (void *) (uintptr_t) 0);

    delete_simple(idl, "two");
    ovsdb_idl_destroy(idl);
    ovsdb_idl_destroy(b);
}

/* A verified column that changed behind our back: TRY_AGAIN. */
static void
test_txn_verify(void **state DPS_UNUSED)
{
    struct ovsdb_idl *a = connect_idl(), *b = connect_idl();
    const struct ovsdb_column *i = column(a, "simple", "i");
    struct ovsdb_idl_txn *txn;
    const struct ovsdb_idl_row *row;

    insert_simple(a, "three", 3);
    run_until(a, has_simple, "three");
    run_until(b, has_simple, "three");

    /* b changes i; a, still unaware, verifies the old value. */
    txn = ovsdb_idl_txn_create(b);
    write_int(txn, find_simple(b, "three"), column(b, "simple", "i"), 30);
    assert_int_equal(ovsdb_idl_txn_commit_block(txn), TXN_SUCCESS);
    ovsdb_idl_txn_destroy(txn);

    txn = ovsdb_idl_txn_create(a);
    row = find_simple(a, "three");
    if (ovsdb_idl_row_get(row, i)->keys[0].integer == 3) {
        ovsdb_idl_txn_verify(txn, row, i);
        write_int(txn, row, i, 4);
        assert_int_equal(ovsdb_idl_txn_commit_block(txn), TXN_TRY_AGAIN);
    }
    ovsdb_idl_txn_destroy(txn);

    /* After the update arrives, the retry succeeds. */
    {
        long long int deadline = time_msec() + 10000;

        while (ovsdb_idl_row_get(find_simple(a, "three"), i)->keys[0].integer
               != 30) {
            assert_true(time_msec() < deadline);
            ovsdb_idl_run(a);
            ovsdb_idl_wait(a);
            poll_timer_wait(100);
            poll_block();
        }
    }
    txn = ovsdb_idl_txn_create(a);
    row = find_simple(a, "three");
    ovsdb_idl_txn_verify(txn, row, i);
    write_int(txn, row, i, 4);
    assert_int_equal(ovsdb_idl_txn_commit_block(txn), TXN_SUCCESS);
    ovsdb_idl_txn_destroy(txn);

    /* A transaction that changes nothing is UNCHANGED. */
    txn = ovsdb_idl_txn_create(a);
    ovsdb_idl_txn_verify(txn, find_simple(a, "three"), i);
    assert_int_equal(ovsdb_idl_txn_commit_block(txn), TXN_UNCHANGED);
    ovsdb_idl_txn_destroy(txn);

    delete_simple(a, "three");
    ovsdb_idl_destroy(a);
    ovsdb_idl_destroy(b);
}

/* The server's errors come back with their details; increments; raw ops;
 * dry runs. */
static void
test_txn_errors_and_increment(void **state DPS_UNUSED)
{
    struct ovsdb_idl *idl = connect_idl();
    const struct ovsdb_column *i = column(idl, "simple", "i");
    struct ovsdb_idl_txn *txn;
    const struct ovsdb_idl_row *row;
    json_t *op;
    size_t idx;

    insert_simple(idl, "four", 4);
    run_until(idl, has_simple, "four");

    /* A duplicate in the "name" index. */
    txn = ovsdb_idl_txn_create(idl);
    row = ovsdb_idl_txn_insert(txn, ovsdb_idl_get_table(idl, "simple"));
    write_string(txn, row, column(idl, "simple", "name"), "four");
    assert_int_equal(ovsdb_idl_txn_commit_block(txn), TXN_ERROR);
    assert_non_null(strstr(ovsdb_idl_txn_get_error(txn),
                           "constraint violation"));
    ovsdb_idl_txn_destroy(txn);

    /* Increment, and a raw "select" op. */
    txn = ovsdb_idl_txn_create(idl);
    row = find_simple(idl, "four");
    ovsdb_idl_txn_increment(txn, row, i);
    op = json_pack("{s:s, s:s, s:[], s:[s]}", "op", "select", "table",
                   "simple", "where", "columns", "name");
    idx = ovsdb_idl_txn_add_op(txn, op);
    json_decref(op);
    assert_int_equal(ovsdb_idl_txn_commit_block(txn), TXN_SUCCESS);
    assert_int_equal(ovsdb_idl_txn_get_increment_new_value(txn), 5);
    assert_non_null(json_object_get(ovsdb_idl_txn_get_op_result(txn, idx),
                                    "rows"));
    ovsdb_idl_txn_destroy(txn);

    /* A dry run succeeds without changing anything. */
    txn = ovsdb_idl_txn_create(idl);
    ovsdb_idl_txn_set_dry_run(txn);
    write_int(txn, find_simple(idl, "four"), i, 100);
    assert_int_equal(ovsdb_idl_txn_commit_block(txn), TXN_SUCCESS);
    ovsdb_idl_txn_destroy(txn);
    assert_int_equal(ovsdb_idl_row_get(find_simple(idl, "four"),
                                       i)->keys[0].integer != 100, 1);

    delete_simple(idl, "four");
    ovsdb_idl_destroy(idl);
}

static bool
has_lock(struct ovsdb_idl *idl, void *aux DPS_UNUSED)
{
    return ovsdb_idl_has_lock(idl);
}

static bool
is_contended(struct ovsdb_idl *idl, void *aux DPS_UNUSED)
{
    return ovsdb_idl_is_lock_contended(idl);
}

/* Locks: lock, contention, steal, "stolen", unlock, "locked". */
static void
test_locks(void **state DPS_UNUSED)
{
    struct ovsdb_idl *a = connect_idl(), *b = connect_idl();
    struct ovsdb_idl_txn *txn;

    ovsdb_idl_set_lock(a, "mylock");
    run_until(a, has_lock, NULL);
    ovsdb_idl_set_lock(b, "mylock");
    run_until(b, is_contended, NULL);
    assert_false(ovsdb_idl_has_lock(b));

    /* b cannot commit while it lacks the lock. */
    txn = ovsdb_idl_txn_create(b);
    assert_int_equal(ovsdb_idl_txn_commit_block(txn), TXN_NOT_LOCKED);
    ovsdb_idl_txn_destroy(txn);

    ovsdb_idl_steal_lock(b, "mylock");
    run_until(b, has_lock, NULL);
    run_until(a, is_contended, NULL);
    assert_false(ovsdb_idl_has_lock(a));

    /* b releases the lock; a, still queued, gets "locked". */
    ovsdb_idl_set_lock(b, NULL);
    ovsdb_idl_run(b);
    run_until(a, has_lock, NULL);

    /* a holds the lock: its transactions carry an "assert" and succeed. */
    insert_simple(a, "five", 5);
    run_until(a, has_simple, "five");
    delete_simple(a, "five");

    ovsdb_idl_destroy(a);
    ovsdb_idl_destroy(b);
}

/* A restarted server: the IDL reconnects and resynchronizes, and a
 * transaction that was in flight reports TRY_AGAIN. */
static void
test_reconnect(void **state DPS_UNUSED)
{
    struct ovsdb_idl *idl = ovsdb_idl_create(remote, "idltest", true);
    struct ovsdb_idl_txn *txn;
    unsigned int seqno;

    ovsdb_idl_set_db_change_aware(idl, true);
    run_until_change(idl, 0);
    insert_simple(idl, "six", 6);
    run_until(idl, has_simple, "six");

    stop_server();
    txn = ovsdb_idl_txn_create(idl);
    write_int(txn, find_simple(idl, "six"), column(idl, "simple", "i"), 60);
    {
        long long int deadline = time_msec() + 10000;

        while (ovsdb_idl_is_connected(idl)) {
            assert_true(time_msec() < deadline);
            ovsdb_idl_run(idl);
            ovsdb_idl_wait(idl);
            poll_timer_wait(100);
            poll_block();
        }
    }
    assert_int_equal(ovsdb_idl_txn_commit(txn), TXN_TRY_AGAIN);
    ovsdb_idl_txn_destroy(txn);

    /* Change the database while the IDL is away. */
    {
        char cmd[3 * PATH_MAX];

        snprintf(cmd, sizeof cmd, "ovsdb/ovsdb-tool transact %s/db "
                 "'[\"idltest\", {\"op\": \"insert\", \"table\": \"simple\","
                 " \"row\": {\"name\": \"seven\"}}]' >/dev/null", dir);
        run_cmd(cmd);
    }
    seqno = ovsdb_idl_get_seqno(idl);
    start_server();
    run_until(idl, has_simple, "seven");
    assert_true(ovsdb_idl_get_seqno(idl) != seqno);
    assert_non_null(find_simple(idl, "six"));

    delete_simple(idl, "six");
    delete_simple(idl, "seven");
    ovsdb_idl_destroy(idl);
}

/* Registering a subset: other columns read as defaults; a table or column
 * the server lacks is dropped. */
static void
test_registration(void **state DPS_UNUSED)
{
    struct ovsdb_idl *a = connect_idl();
    struct ovsdb_idl *idl = ovsdb_idl_create(remote, "idltest", true);
    const struct ovsdb_table_schema *ts;
    const struct ovsdb_idl_row *row;

    ovsdb_idl_add_column(idl, "simple", "name");
    ovsdb_idl_add_column(idl, "simple", "nosuchcolumn");
    ovsdb_idl_add_table(idl, "nosuchtable");
    run_until_change(idl, 0);
    insert_simple(a, "eight", 8);
    run_until(idl, has_simple, "eight");
    row = find_simple(idl, "eight");
    assert_int_equal(ovsdb_idl_row_get_by_name(row, "i")->keys[0].integer, 0);
    ts = ovsdb_idl_get_table(idl, "simple");
    assert_true(ovsdb_idl_is_replicated(idl, ts,
                                        column(idl, "simple", "name")));
    assert_false(ovsdb_idl_is_replicated(idl, ts,
                                         column(idl, "simple", "i")));
    assert_null(ovsdb_idl_first_row(idl, ovsdb_idl_get_table(idl, "child")));

    run_until(a, has_simple, "eight");
    delete_simple(a, "eight");
    ovsdb_idl_destroy(idl);
    ovsdb_idl_destroy(a);
}

/* An unknown database: the server's error is kept. */
static bool
has_db_error(struct ovsdb_idl *idl, void *aux DPS_UNUSED)
{
    return ovsdb_idl_get_db_error(idl) != NULL;
}

static void
test_unknown_db(void **state DPS_UNUSED)
{
    struct ovsdb_idl *idl = ovsdb_idl_create(remote, "nosuchdb", true);
    long long int deadline = time_msec() + 10000;

    while (!has_db_error(idl, NULL)) {
        assert_true(time_msec() < deadline);
        ovsdb_idl_run(idl);
        ovsdb_idl_wait(idl);
        poll_timer_wait(100);
        poll_block();
    }
    assert_false(ovsdb_idl_is_monitoring(idl));
    assert_null(ovsdb_idl_get_schema(idl));
    ovsdb_idl_destroy(idl);
}

/* No server at all, without retry: the IDL gives up. */
static void
test_no_server(void **state DPS_UNUSED)
{
    struct ovsdb_idl *idl = ovsdb_idl_create("unix:/nonexistent/db.sock",
                                             "idltest", false);
    long long int deadline = time_msec() + 10000;

    while (ovsdb_idl_is_alive(idl)) {
        assert_true(time_msec() < deadline);
        ovsdb_idl_run(idl);
        ovsdb_idl_wait(idl);
        poll_timer_wait(100);
        poll_block();
    }
    assert_int_equal(ovsdb_idl_get_last_error(idl), ENOENT);
    assert_false(ovsdb_idl_has_ever_connected(idl));
    ovsdb_idl_destroy(idl);
}

/* A scripted server, to see the IDL fall back from monitor_cond_since to
 * monitor_cond and to monitor, and start over on "monitor_canceled". */
struct mock {
    struct jsonrpc_session *session;
    bool cond;                  /* Accept monitor_cond (else only monitor)? */
    int n_schema_requests;
    char *method;               /* Monitor method that succeeded. */
};

static const char mock_row[] = "d6c3f1b4-1a2b-4c5d-8e9f-0123456789ab";

static void
mock_run(struct mock *m)
{
    struct jsonrpc_msg *msg;

    jsonrpc_session_run(m->session);
    while ((msg = jsonrpc_session_recv(m->session)) != NULL) {
        json_t *reply = NULL, *error = NULL;

        if (msg->type != JSONRPC_REQUEST) {
            jsonrpc_msg_destroy(msg);
            continue;
        }
        if (!strcmp(msg->method, "get_schema")) {
            m->n_schema_requests++;
            reply = jsonx_from_string(test_schema, NULL);
        } else if (!strcmp(msg->method, "monitor")
                   || (!strcmp(msg->method, "monitor_cond") && m->cond)) {
            bool v2 = !strcmp(msg->method, "monitor_cond");

            free(m->method);
            m->method = xstrdup(msg->method);
            reply = json_pack("{s:{s:{s:{s:i, s:s}}}}", "simple", mock_row,
                              v2 ? "initial" : "new", "i", 5, "name", "x");
        } else {
            error = json_pack("{s:s}", "error", "unknown method");
        }
        jsonrpc_session_send(m->session,
                             error ? jsonrpc_create_error(error, msg->id)
                             : jsonrpc_create_reply(reply, msg->id));
        jsonrpc_msg_destroy(msg);
    }
}

static void
mock_notify(struct mock *m, const char *method, json_t *params)
{
    jsonrpc_session_send(m->session, jsonrpc_create_notify(method, params));
}

static void
run_both_until(struct ovsdb_idl *idl, struct mock *m,
               bool (*cond)(struct ovsdb_idl *, void *), void *aux)
{
    long long int deadline = time_msec() + 10000;

    for (;;) {
        mock_run(m);
        ovsdb_idl_run(idl);
        if (ovsdb_idl_is_monitoring(idl) && cond(idl, aux)) {
            return;
        }
        assert_true(time_msec() < deadline);
        jsonrpc_session_wait(m->session);
        jsonrpc_session_recv_wait(m->session);
        ovsdb_idl_wait(idl);
        poll_timer_wait(50);
        poll_block();
    }
}

static bool
simple_i_is(struct ovsdb_idl *idl, void *i)
{
    const struct ovsdb_idl_row *row = find_simple(idl, "x");

    return row && ovsdb_idl_row_get_by_name(row, "i")->keys[0].integer
                  == (intptr_t) i;
}

static bool
always(struct ovsdb_idl *idl DPS_UNUSED, void *aux DPS_UNUSED)
{
    return true;
}

static void
fallback_test(bool cond)
{
    char name[PATH_MAX + 16];
    struct mock m;
    struct ovsdb_idl *idl;
    json_t *monid = json_pack("[s, s]", "monid", "idltest");

    memset(&m, 0, sizeof m);
    m.cond = cond;
    snprintf(name, sizeof name, "%s/mock.sock", dir);
    unlink(name);
    snprintf(name, sizeof name, "punix:%s/mock.sock", dir);
    m.session = jsonrpc_session_open(name, true);
    jsonrpc_session_run(m.session);
    snprintf(name, sizeof name, "unix:%s/mock.sock", dir);
    idl = ovsdb_idl_create(name, "idltest", true);

    run_both_until(idl, &m, simple_i_is, (void *) 5);
    assert_string_equal(ovsdb_idl_get_monitor_method(idl),
                        cond ? "monitor_cond" : "monitor");
    assert_string_equal(m.method, cond ? "monitor_cond" : "monitor");

    /* A change in the form of the method in use. */
    if (cond) {
        mock_notify(&m, "update2",
                    json_pack("[O, {s:{s:{s:{s:i}}}}]", monid, "simple",
                              mock_row, "modify", "i", 6));
    } else {
        mock_notify(&m, "update",
                    json_pack("[O, {s:{s:{s:{s:i}, s:{s:i, s:s}}}}]", monid,
                              "simple", mock_row, "old", "i", 5, "new",
                              "i", 6, "name", "x"));
    }
    run_both_until(idl, &m, simple_i_is, (void *) 6);

    /* "monitor_canceled": the IDL asks for the schema again. */
    mock_notify(&m, "monitor_canceled", json_pack("[O]", monid));
    {
        long long int deadline = time_msec() + 10000;

        while (m.n_schema_requests < 2 || !ovsdb_idl_is_monitoring(idl)) {
            assert_true(time_msec() < deadline);
            run_both_until(idl, &m, always, NULL);
            mock_run(&m);
            ovsdb_idl_run(idl);
            poll_timer_wait(10);
            poll_block();
        }
    }
    run_both_until(idl, &m, simple_i_is, (void *) 5);

    /* A delete. */
    if (cond) {
        mock_notify(&m, "update2", json_pack("[O, {s:{s:{s:n}}}]", monid,
                                             "simple", mock_row, "delete"));
    } else {
        mock_notify(&m, "update", json_pack("[O, {s:{s:{s:{s:i}}}}]",
                                            monid, "simple", mock_row,
                                            "old", "i", 5));
    }
    run_both_until(idl, &m, lacks_simple, "x");

    json_decref(monid);
    ovsdb_idl_destroy(idl);
    jsonrpc_session_close(m.session);
    free(m.method);
}

static void
test_fallback_monitor_cond(void **state DPS_UNUSED)
{
    fallback_test(true);
}

static void
test_fallback_monitor(void **state DPS_UNUSED)
{
    fallback_test(false);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replica),
        cmocka_unit_test(test_txn_insert_refs),
        cmocka_unit_test(test_txn_verify),
        cmocka_unit_test(test_txn_errors_and_increment),
        cmocka_unit_test(test_locks),
        cmocka_unit_test(test_reconnect),
        cmocka_unit_test(test_registration),
        cmocka_unit_test(test_unknown_db),
        cmocka_unit_test(test_no_server),
        cmocka_unit_test(test_fallback_monitor_cond),
        cmocka_unit_test(test_fallback_monitor),
    };

    signal(SIGPIPE, SIG_IGN);
    return cmocka_run_group_tests_name("ovsdb-idl", tests, group_setup,
                                       group_teardown);
}
