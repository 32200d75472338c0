/* Unit tests for OVSDB monitors (ovsdb/monitor.c): the JSON of initial
 * contents and of changes, for the "monitor" (v1) and "monitor_cond" (v2)
 * protocols, with columns, select flags and conditions.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "ovsdb/execution.h"
#include "ovsdb/monitor.h"
#include "ovsdb/ovsdb-error.h"
#include "ovsdb/ovsdb-json.h"
#include "ovsdb/ovsdb.h"
#include "ovsdb/schema.h"
#include "util.h"

static const char schema_json[] =
    "{\"name\":\"S\",\"tables\":{\"T\":{\"columns\":{"
    "\"name\":{\"type\":\"string\"},"
    "\"n\":{\"type\":\"integer\"},"
    "\"tags\":{\"type\":{\"key\":\"string\",\"min\":0,"
    "                    \"max\":\"unlimited\"}}}}}}";

/* The monitor under test, and the changes of the last commit for it. */
static struct ovsdb_monitor *monitor;
static json_t *last_changes;

static void
commit_cb(const struct ovsdb_txn *txn, void *aux DPS_UNUSED)
{
    if (last_changes) {
        json_decref(last_changes);
    }
    last_changes = monitor ? ovsdb_monitor_get_changes(monitor, txn) : NULL;
}

static struct ovsdb *
create_db(void)
{
    struct ovsdb_schema *schema;
    json_t *json = json_loads(schema_json, 0, NULL);
    struct ovsdb *db;

    assert_null(ovsdb_schema_from_json(json, &schema));
    json_decref(json);
    db = ovsdb_create(schema);
    db->commit_cb = commit_cb;
    return db;
}

/* Runs 'request' on 'db' (it must succeed). */
static void
run(struct ovsdb *db, const char *request)
{
    json_t *params = json_loads(request, 0, NULL), *result;
    long long int timeout;
    char *s;

    assert_non_null(params);
    result = ovsdb_execute(db, params, NULL, &timeout);
    s = ovsdb_json_to_string(result, OVSDB_JSON_SORT);
    if (strstr(s, "\"error\"")) {
        fail_msg("%s failed: %s", request, s);
    }
    free(s);
    json_decref(result);
    json_decref(params);
}

/* Returns 'json' as sorted text with row UUIDs replaced by the "name" they
 * carry in 'db' ("<gone>" for rows no longer there), so results compare
 * exactly. */
static char *
render(struct ovsdb *db, const json_t *json)
{
    json_t *copy;
    const char *table_name;
    json_t *table;
    char *s;

    if (!json) {
        return xstrdup("null");
    }
    copy = json_object();
    json_object_foreach ((json_t *) json, table_name, table) {
        json_t *rows = json_object();
        const char *uuid_s;
        json_t *update;

        json_object_foreach (table, uuid_s, update) {
            struct ovsdb_table *t = ovsdb_get_table(db, table_name);
            struct uuid uuid;
            const struct ovsdb_row *row;

            assert_true(uuid_from_string(&uuid, uuid_s));
            row = ovsdb_table_get_row(t, &uuid);
            json_object_set(
                rows,
                row ? row->fields[ovsdb_table_schema_find_column(
                                      t->schema, "name")->index]
                      .keys[0].string
                    : "<gone>", update);
        }
        json_object_set_new(copy, table_name, rows);
    }
    s = ovsdb_json_to_string(copy, OVSDB_JSON_SORT);
    json_decref(copy);
    return s;
}

static void
check_json(struct ovsdb *db, const json_t *json, const char *expected)
{
    char *s = render(db, json);

    if (strcmp(s, expected)) {
        fail_msg("got %s\n  expected %s", s, expected);
    }
    free(s);
}

static void
start(struct ovsdb *db, const char *requests,
      enum ovsdb_monitor_version version, const char *initial)
{
    json_t *json = json_loads(requests, 0, NULL), *id = json_string("m");
    json_t *init;

    assert_non_null(json);
    assert_null(ovsdb_monitor_create(db, id, json, version, &monitor));
    json_decref(json);
    json_decref(id);
    init = ovsdb_monitor_get_initial(monitor);
    check_json(db, init, initial);
    json_decref(init);
}

static void
finish(struct ovsdb *db)
{
    ovsdb_monitor_destroy(monitor);
    monitor = NULL;
    if (last_changes) {
        json_decref(last_changes);
        last_changes = NULL;
    }
    ovsdb_destroy(db);
}

static const char populate[] =
    "[\"S\",{\"op\":\"insert\",\"table\":\"T\",\"row\":{\"name\":\"a\","
    "\"n\":1,\"tags\":[\"set\",[\"x\"]]}},{\"op\":\"insert\",\"table\":"
    "\"T\",\"row\":{\"name\":\"b\",\"n\":7}}]";

static void
test_v1(void **state DPS_UNUSED)
{
    struct ovsdb *db = create_db();

    run(db, populate);
    start(db, "{\"T\":{\"columns\":[\"name\",\"n\"]}}", OVSDB_MONITOR_V1,
          "{\"T\":{\"a\":{\"new\":{\"n\":1,\"name\":\"a\"}},"
          "\"b\":{\"new\":{\"n\":7,\"name\":\"b\"}}}}");
    run(db, "[\"S\",{\"op\":\"update\",\"table\":\"T\",\"where\":"
        "[[\"name\",\"==\",\"a\"]],\"row\":{\"n\":2}}]");
    check_json(db, last_changes, "{\"T\":{\"a\":{\"new\":{\"n\":2,"
               "\"name\":\"a\"},\"old\":{\"n\":1}}}}");
    /* A change to an unmonitored column says nothing. */
    run(db, "[\"S\",{\"op\":\"update\",\"table\":\"T\",\"where\":"
        "[[\"name\",\"==\",\"a\"]],\"row\":{\"tags\":[\"set\",[]]}}]");
    check_json(db, last_changes, "null");
    run(db, "[\"S\",{\"op\":\"delete\",\"table\":\"T\",\"where\":"
        "[[\"name\",\"==\",\"b\"]]},{\"op\":\"insert\",\"table\":\"T\","
        "\"row\":{\"name\":\"c\"}}]");
    check_json(db, last_changes, "{\"T\":{\"<gone>\":{\"old\":{\"n\":7,"
               "\"name\":\"b\"}},\"c\":{\"new\":{\"n\":0,"
               "\"name\":\"c\"}}}}");
    finish(db);
}

static void
test_v1_select(void **state DPS_UNUSED)
{
    struct ovsdb *db = create_db();

    run(db, populate);
    start(db, "{\"T\":{\"columns\":[\"n\",\"name\"],\"select\":"
          "{\"initial\":false,\"insert\":false}}}", OVSDB_MONITOR_V1, "{}");
    run(db, "[\"S\",{\"op\":\"insert\",\"table\":\"T\",\"row\":"
        "{\"name\":\"c\"}}]");
    check_json(db, last_changes, "null");
    run(db, "[\"S\",{\"op\":\"delete\",\"table\":\"T\",\"where\":"
        "[[\"name\",\"==\",\"c\"]]}]");
    check_json(db, last_changes, "{\"T\":{\"<gone>\":{\"old\":{\"n\":0,"
               "\"name\":\"c\"}}}}");
    finish(db);
}

static void
test_v2_conditions(void **state DPS_UNUSED)
{
    struct ovsdb *db = create_db();
    json_t *updates, *change;
    struct ovsdb_error *error;

    run(db, populate);
    start(db, "{\"T\":[{\"columns\":[\"name\",\"n\",\"tags\"],"
          "\"where\":[[\"n\",\">\",5]]}]}", OVSDB_MONITOR_V2,
          "{\"T\":{\"b\":{\"initial\":{\"n\":7,\"name\":\"b\"}}}}");

    /* "a" enters the selection: an insert with its non-default columns. */
    run(db, "[\"S\",{\"op\":\"update\",\"table\":\"T\",\"where\":"
        "[[\"name\",\"==\",\"a\"]],\"row\":{\"n\":9}}]");
    check_json(db, last_changes, "{\"T\":{\"a\":{\"insert\":{\"n\":9,"
               "\"name\":\"a\",\"tags\":\"x\"}}}}");
    /* A modification carries changed columns, sets as differences. */
    run(db, "[\"S\",{\"op\":\"mutate\",\"table\":\"T\",\"where\":"
        "[[\"name\",\"==\",\"a\"]],\"mutations\":[[\"tags\",\"insert\","
        "[\"set\",[\"y\"]]],[\"tags\",\"delete\",\"x\"]]}]");
    check_json(db, last_changes, "{\"T\":{\"a\":{\"modify\":{\"tags\":"
               "[\"set\",[\"x\",\"y\"]]}}}}");
    /* "b" leaves it: a delete. */
    run(db, "[\"S\",{\"op\":\"update\",\"table\":\"T\",\"where\":"
        "[[\"name\",\"==\",\"b\"]],\"row\":{\"n\":0}}]");
    check_json(db, last_changes, "{\"T\":{\"b\":{\"delete\":null}}}");
    /* Rows outside the selection say nothing. */
    run(db, "[\"S\",{\"op\":\"insert\",\"table\":\"T\",\"row\":"
        "{\"name\":\"c\",\"n\":1}}]");
    check_json(db, last_changes, "null");

    /* New conditions: the client hears what enters and what leaves. */
    change = json_loads("{\"T\":[{\"where\":[[\"n\",\"<\",5]]}]}", 0, NULL);
    error = ovsdb_monitor_change_conditions(monitor, change, &updates);
    assert_null(error);
    check_json(db, updates, "{\"T\":{\"a\":{\"delete\":null},"
               "\"b\":{\"insert\":{\"name\":\"b\"}},"
               "\"c\":{\"insert\":{\"n\":1,\"name\":\"c\"}}}}");
    json_decref(updates);
    json_decref(change);

    /* A row is selected if ANY clause holds (Open vSwitch's monitor_cond
     * semantics, unlike a transaction's "where"): "a" enters by its name,
     * "c" stays by its n, "b" matches neither and leaves. */
    change = json_loads("{\"T\":[{\"where\":[[\"name\",\"==\",\"a\"],"
                        "[\"n\",\"==\",1]]}]}", 0, NULL);
    error = ovsdb_monitor_change_conditions(monitor, change, &updates);
    assert_null(error);
    check_json(db, updates, "{\"T\":{\"a\":{\"insert\":{\"n\":9,"
               "\"name\":\"a\",\"tags\":\"y\"}},"
               "\"b\":{\"delete\":null}}}");
    json_decref(updates);
    json_decref(change);

    change = json_loads("{\"X\":[{\"where\":[]}]}", 0, NULL);
    error = ovsdb_monitor_change_conditions(monitor, change, &updates);
    assert_non_null(error);
    ovsdb_error_destroy(error);
    json_decref(change);
    finish(db);
}

static void
test_errors(void **state DPS_UNUSED)
{
    static const char *const bad[] = {
        "{\"X\":{}}",
        "{\"T\":{\"columns\":[\"nope\"]}}",
        "{\"T\":{\"select\":{\"insert\":1}}}",
        "{\"T\":{\"bogus\":1}}",
        "[]",
    };
    struct ovsdb *db = create_db();
    size_t i;

    for (i = 0; i < ARRAY_SIZE(bad); i++) {
        json_t *json = json_loads(bad[i], JSON_DECODE_ANY, NULL);
        struct ovsdb_monitor *m;
        struct ovsdb_error *error;

        error = ovsdb_monitor_create(db, json_null(), json,
                                     OVSDB_MONITOR_V2, &m);
        if (!error) {
            fail_msg("%s was accepted", bad[i]);
        }
        assert_null(m);
        ovsdb_error_destroy(error);
        json_decref(json);
    }
    ovsdb_destroy(db);
}

/* Creates a monitor of 'db' for 'requests' with id null. */
static struct ovsdb_monitor *
create(struct ovsdb *db, const char *requests,
       enum ovsdb_monitor_version version)
{
    json_t *json = json_loads(requests, 0, NULL);
    struct ovsdb_monitor *m;

    assert_non_null(json);
    assert_null(ovsdb_monitor_create(db, json_null(), json, version, &m));
    json_decref(json);
    return m;
}

/* ovsdb-server shares one serialized update among monitors for which
 * ovsdb_monitor_same_updates() is true: it must be true only when every
 * transaction gives both the same updates. */
static void
test_same_updates(void **state DPS_UNUSED)
{
    static const struct {
        const char *requests;
        enum ovsdb_monitor_version version;
    } others[] = {
        /* Another version. */
        { "{\"T\":[{\"columns\":[\"name\",\"n\"],\"where\":"
          "[[\"n\",\">\",5]]}]}", OVSDB_MONITOR_V3 },
        /* Columns in another order, or another set of them. */
        { "{\"T\":[{\"columns\":[\"n\",\"name\"],\"where\":"
          "[[\"n\",\">\",5]]}]}", OVSDB_MONITOR_V2 },
        { "{\"T\":[{\"columns\":[\"name\"],\"where\":"
          "[[\"n\",\">\",5]]}]}", OVSDB_MONITOR_V2 },
        /* Other select flags. */
        { "{\"T\":[{\"columns\":[\"name\",\"n\"],\"where\":"
          "[[\"n\",\">\",5]],\"select\":{\"delete\":false}}]}",
          OVSDB_MONITOR_V2 },
        /* Another condition: value, function, column, none. */
        { "{\"T\":[{\"columns\":[\"name\",\"n\"],\"where\":"
          "[[\"n\",\">\",6]]}]}", OVSDB_MONITOR_V2 },
        { "{\"T\":[{\"columns\":[\"name\",\"n\"],\"where\":"
          "[[\"n\",\">=\",5]]}]}", OVSDB_MONITOR_V2 },
        { "{\"T\":[{\"columns\":[\"name\",\"n\"],\"where\":"
          "[[\"name\",\"==\",\"5\"]]}]}", OVSDB_MONITOR_V2 },
        { "{\"T\":[{\"columns\":[\"name\",\"n\"]}]}",
          OVSDB_MONITOR_V2 },
    };
    static const char base[] =
        "{\"T\":[{\"columns\":[\"name\",\"n\"],\"where\":"
        "[[\"n\",\">\",5]]}]}";
    struct ovsdb *db = create_db();
    struct ovsdb_monitor *a = create(db, base, OVSDB_MONITOR_V2);
    struct ovsdb_monitor *b = create(db, base, OVSDB_MONITOR_V2);
    struct ovsdb *db2 = create_db();
    struct ovsdb_monitor *c = create(db2, base, OVSDB_MONITOR_V2);
    json_t *change, *updates;
    size_t i;

    assert_true(ovsdb_monitor_same_updates(a, b));
    assert_int_equal(ovsdb_monitor_hash(a), ovsdb_monitor_hash(b));
    /* Another database. */
    assert_false(ovsdb_monitor_same_updates(a, c));
    for (i = 0; i < ARRAY_SIZE(others); i++) {
        struct ovsdb_monitor *m = create(db, others[i].requests,
                                         others[i].version);

        if (ovsdb_monitor_same_updates(a, m)
            || ovsdb_monitor_same_updates(m, a)) {
            fail_msg("%s is the same as %s", others[i].requests, base);
        }
        ovsdb_monitor_destroy(m);
    }

    /* Changing one monitor's conditions sets it apart. */
    change = json_loads("{\"T\":[{\"where\":[[\"n\",\"<\",5]]}]}", 0,
                        NULL);
    assert_null(ovsdb_monitor_change_conditions(b, change, &updates));
    json_decref(updates);
    json_decref(change);
    assert_false(ovsdb_monitor_same_updates(a, b));

    ovsdb_monitor_destroy(a);
    ovsdb_monitor_destroy(b);
    ovsdb_monitor_destroy(c);
    ovsdb_destroy(db);
    ovsdb_destroy(db2);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_v1),
        cmocka_unit_test(test_v1_select),
        cmocka_unit_test(test_v2_conditions),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_same_updates),
    };

    return cmocka_run_group_tests_name("ovsdb-monitor", tests, NULL, NULL);
}
