/* Unit tests for the OVSDB transaction engine: every operation of RFC 7047
 * and the database-wide rules enforced at commit (ovsdb/execution.c,
 * transaction.c, condition.c, mutation.c).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "ovsdb/execution.h"
#include "ovsdb/ovsdb-error.h"
#include "ovsdb/ovsdb-json.h"
#include "ovsdb/ovsdb.h"
#include "ovsdb/schema.h"
#include "util.h"

static const char schema_json[] =
    "{\"name\":\"S\",\"tables\":{"
    "\"P\":{\"isRoot\":true,\"indexes\":[[\"name\"]],\"columns\":{"
    "  \"name\":{\"type\":\"string\"},"
    "  \"n\":{\"type\":\"integer\"},"
    "  \"r\":{\"type\":\"real\"},"
    "  \"fixed\":{\"type\":\"integer\",\"mutable\":false},"
    "  \"tags\":{\"type\":{\"key\":\"string\",\"min\":0,\"max\":2}},"
    "  \"nums\":{\"type\":{\"key\":\"integer\",\"min\":0,"
    "                      \"max\":\"unlimited\"}},"
    "  \"m\":{\"type\":{\"key\":\"string\",\"value\":\"string\",\"min\":0,"
    "                   \"max\":\"unlimited\"}},"
    "  \"kids\":{\"type\":{\"key\":{\"type\":\"uuid\",\"refTable\":\"C\"},"
    "                      \"min\":0,\"max\":\"unlimited\"}},"
    "  \"weak\":{\"type\":{\"key\":{\"type\":\"uuid\",\"refTable\":\"C\","
    "                      \"refType\":\"weak\"},\"min\":0,"
    "                      \"max\":\"unlimited\"}},"
    "  \"must\":{\"type\":{\"key\":{\"type\":\"uuid\",\"refTable\":\"W\","
    "                      \"refType\":\"weak\"},\"min\":0,\"max\":1}}}},"
    "\"C\":{\"columns\":{"
    "  \"n\":{\"type\":{\"key\":{\"type\":\"integer\",\"minInteger\":0,"
    "                            \"maxInteger\":100}}},"
    "  \"sub\":{\"type\":{\"key\":{\"type\":\"uuid\",\"refTable\":\"G\"},"
    "                     \"min\":0,\"max\":1}}}},"
    "\"G\":{\"columns\":{\"x\":{\"type\":\"integer\"}}},"
    "\"W\":{\"isRoot\":true,\"columns\":{\"x\":{\"type\":\"integer\"}}},"
    "\"L\":{\"isRoot\":true,\"maxRows\":2,"
    "       \"columns\":{\"x\":{\"type\":\"integer\"}}}}}";

static struct ovsdb *
create_db(void)
{
    struct ovsdb_schema *schema;
    json_t *json = json_loads(schema_json, 0, NULL);

    assert_non_null(json);
    assert_null(ovsdb_schema_from_json(json, &schema));
    json_decref(json);
    return ovsdb_create(schema);
}

/* Replaces every UUID in 's' by <N>, numbered in order of first
 * appearance, so that results compare exactly. */
static char *
normalize_uuids(const char *s)
{
    struct ds out = DS_EMPTY_INITIALIZER;
    char seen[64][UUID_LEN + 1];
    size_t n_seen = 0;

    while (*s) {
        struct uuid u;
        char buf[UUID_LEN + 1];

        if (strlen(s) >= UUID_LEN) {
            memcpy(buf, s, UUID_LEN);
            buf[UUID_LEN] = '\0';
            if (uuid_from_string(&u, buf)) {
                size_t i;

                for (i = 0; i < n_seen && strcmp(seen[i], buf); i++) {
                    continue;
                }
                if (i == n_seen && n_seen < ARRAY_SIZE(seen)) {
                    strcpy(seen[n_seen++], buf);
                }
                ds_put_format(&out, "<%zu>", i);
                s += UUID_LEN;
                continue;
            }
        }
        ds_put_char(&out, *s++);
    }
    return ds_steal_cstr(&out);
}

static const struct ovsdb_execute_options *exec_options;

/* Executes 'request' on 'db' and returns the result, sorted, UUIDs
 * normalized; "BLOCKED <ms>" if a wait would block. */
static char *
run(struct ovsdb *db, const char *request)
{
    json_error_t jerror;
    json_t *params = json_loads(request, 0, &jerror), *result;
    long long int timeout;
    char *s, *n;

    if (!params) {
        fail_msg("bad test request %s: %s", request, jerror.text);
    }
    result = ovsdb_execute(db, params, exec_options, &timeout);
    json_decref(params);
    if (!result) {
        return xasprintf("BLOCKED %lld", timeout);
    }
    s = ovsdb_json_to_string(result, OVSDB_JSON_SORT);
    json_decref(result);
    n = normalize_uuids(s);
    free(s);
    return n;
}

/* Executes 'request' on 'db', whose result does not matter. */
static void
run_ok(struct ovsdb *db, const char *request)
{
    free(run(db, request));
}

static void
check(struct ovsdb *db, const char *request, const char *expected)
{
    char *result = run(db, request);

    if (strcmp(result, expected)) {
        fail_msg("request %s\n  gave %s\n  expected %s", request, result,
                 expected);
    }
    free(result);
}

/* Like check(), but only requires 'expected' to occur in the result. */
static void
check_has(struct ovsdb *db, const char *request, const char *expected)
{
    char *result = run(db, request);

    if (!strstr(result, expected)) {
        fail_msg("request %s\n  gave %s\n  lacks %s", request, result,
                 expected);
    }
    free(result);
}

static size_t
count_rows(const struct ovsdb *db, const char *table)
{
    return ohmap_count(&ovsdb_get_table(db, table)->rows);
}

static void
test_insert_select(void **state DPS_UNUSED)
{
    struct ovsdb *db = create_db();

    check(db, "[\"S\",{\"op\":\"insert\",\"table\":\"P\",\"row\":"
          "{\"name\":\"a\",\"n\":1,\"tags\":[\"set\",[\"y\",\"x\"]]}}]",
          "[{\"uuid\":[\"uuid\",\"<0>\"]}]");
    check(db, "[\"S\",{\"op\":\"select\",\"table\":\"P\",\"where\":"
          "[[\"name\",\"==\",\"a\"]],\"columns\":[\"n\",\"tags\",\"m\"]}]",
          "[{\"rows\":[{\"m\":[\"map\",[]],\"n\":1,"
          "\"tags\":[\"set\",[\"x\",\"y\"]]}]}]");
    check(db, "[\"S\",{\"op\":\"select\",\"table\":\"P\",\"where\":"
          "[[\"n\",\">\",1]]}]", "[{\"rows\":[]}]");
    check(db, "[\"S\",{\"op\":\"select\",\"table\":\"P\",\"where\":[]}]",
          "[{\"rows\":[{\"_uuid\":[\"uuid\",\"<0>\"],\"_version\":"
          "[\"uuid\",\"<1>\"],\"fixed\":0,\"kids\":[\"set\",[]],"
          "\"m\":[\"map\",[]],\"must\":[\"set\",[]],\"n\":1,\"name\":\"a\","
          "\"nums\":[\"set\",[]],\"r\":0,\"tags\":[\"set\",[\"x\",\"y\"]],"
          "\"weak\":[\"set\",[]]}]}]");

    /* A given UUID, then its reuse. */
    check(db, "[\"S\",{\"op\":\"insert\",\"table\":\"W\",\"row\":{},"
          "\"uuid\":\"11111111-2222-3333-4444-555555555555\"},"
          "{\"op\":\"select\",\"table\":\"W\",\"where\":[[\"_uuid\",\"==\","
          "[\"uuid\",\"11111111-2222-3333-4444-555555555555\"]]],"
          "\"columns\":[\"x\"]}]",
          "[{\"uuid\":[\"uuid\",\"<0>\"]},{\"rows\":[{\"x\":0}]}]");
    check(db, "[\"S\",{\"op\":\"insert\",\"table\":\"W\",\"row\":{},"
          "\"uuid\":\"11111111-2222-3333-4444-555555555555\"}]",
          "[{\"details\":\"This UUID would duplicate a UUID already present "
          "within the table or deleted within the same transaction.\","
          "\"error\":\"duplicate uuid\",\"syntax\":\"\\\"<0>\\\"\"}]");
    check(db, "[\"S\",{\"op\":\"delete\",\"table\":\"W\",\"where\":[]},"
          "{\"op\":\"insert\",\"table\":\"W\",\"row\":{},"
          "\"uuid\":\"11111111-2222-3333-4444-555555555555\"}]",
          "[{\"count\":1},{\"details\":\"This UUID would duplicate a UUID "
          "already present within the table or deleted within the same "
          "transaction.\",\"error\":\"duplicate uuid\",\"syntax\":"
          "\"\\\"<0>\\\"\"}]");
    assert_int_equal(count_rows(db, "W"), 1);

    /* Boolean conditions and includes/excludes. */
    check(db, "[\"S\",{\"op\":\"select\",\"table\":\"P\",\"where\":[true],"
          "\"columns\":[\"n\"]},{\"op\":\"select\",\"table\":\"P\","
          "\"where\":[false],\"columns\":[\"n\"]},"
          "{\"op\":\"select\",\"table\":\"P\",\"where\":[[\"tags\","
          "\"includes\",\"x\"]],\"columns\":[\"n\"]},"
          "{\"op\":\"select\",\"table\":\"P\",\"where\":[[\"tags\","
          "\"excludes\",\"x\"]],\"columns\":[\"n\"]}]",
          "[{\"rows\":[{\"n\":1}]},{\"rows\":[]},{\"rows\":[{\"n\":1}]},"
          "{\"rows\":[]}]");
    ovsdb_destroy(db);
}

static void
test_named_uuids(void **state DPS_UNUSED)
{
    struct ovsdb *db = create_db();

    /* A reference may come before the insert that names it. */
    check(db, "[\"S\",{\"op\":\"insert\",\"table\":\"P\",\"row\":"
          "{\"name\":\"p\",\"kids\":[\"named-uuid\",\"c\"]}},"
          "{\"op\":\"insert\",\"table\":\"C\",\"row\":{\"n\":7},"
          "\"uuid-name\":\"c\"},"
          "{\"op\":\"select\",\"table\":\"P\",\"where\":[],"
          "\"columns\":[\"kids\"]}]",
          "[{\"uuid\":[\"uuid\",\"<0>\"]},{\"uuid\":[\"uuid\",\"<1>\"]},"
          "{\"rows\":[{\"kids\":[\"uuid\",\"<1>\"]}]}]");
    assert_int_equal(count_rows(db, "C"), 1);

    check(db, "[\"S\",{\"op\":\"insert\",\"table\":\"C\",\"row\":{},"
          "\"uuid-name\":\"x\"},{\"op\":\"insert\",\"table\":\"C\","
          "\"row\":{},\"uuid-name\":\"x\"}]",
          "[{\"uuid\":[\"uuid\",\"<0>\"]},{\"details\":\"This "
          "\\\"uuid-name\\\" appeared on an earlier \\\"insert\\\" "
          "operation.\",\"error\":\"duplicate uuid-name\",\"syntax\":"
          "\"\\\"x\\\"\"}]");
    check_has(db, "[\"S\",{\"op\":\"insert\",\"table\":\"P\",\"row\":"
              "{\"name\":\"q\",\"kids\":[\"named-uuid\",\"nope\"]}}]",
              "\"error\":\"referential integrity violation\"");
    ovsdb_destroy(db);
}

static void
test_atomicity(void **state DPS_UNUSED)
{
    struct ovsdb *db = create_db();

    check(db, "[\"S\",{\"op\":\"insert\",\"table\":\"W\",\"row\":{}},"
          "{\"op\":\"insert\",\"table\":\"W\",\"row\":{\"zz\":1}},"
          "{\"op\":\"insert\",\"table\":\"W\",\"row\":{}}]",
          "[{\"uuid\":[\"uuid\",\"<0>\"]},{\"details\":\"No column zz in "
          "table W.\",\"error\":\"unknown column\",\"syntax\":"
          "\"{\\\"zz\\\":1}\"},null]");
    assert_int_equal(count_rows(db, "W"), 0);

    check(db, "[\"S\",{\"op\":\"insert\",\"table\":\"W\",\"row\":{}},"
          "{\"op\":\"abort\"}]",
          "[{\"uuid\":[\"uuid\",\"<0>\"]},{\"details\":\"aborted by "
          "request\",\"error\":\"aborted\"}]");
    assert_int_equal(count_rows(db, "W"), 0);

    check(db, "[\"S\",{\"op\":\"insert\",\"table\":\"W\",\"row\":{},"
          "\"uuid-name\":\"w\"},{\"op\":\"update\",\"table\":\"W\","
          "\"where\":[],\"row\":{\"x\":5}},{\"op\":\"delete\",\"table\":"
          "\"W\",\"where\":[[\"x\",\"==\",5]]},{\"op\":\"bogus\"}]",
          "[{\"uuid\":[\"uuid\",\"<0>\"]},{\"count\":1},{\"count\":1},"
          "{\"details\":\"Parsing ovsdb operation 4 of 4 failed: No "
          "operation \\\"bogus\\\"\",\"error\":\"syntax error\",\"syntax\":"
          "\"{\\\"op\\\":\\\"bogus\\\"}\"}]");
    assert_int_equal(count_rows(db, "W"), 0);

    /* Malformed requests. */
    check(db, "{}", "{\"details\":\"array expected\",\"error\":"
          "\"syntax error\",\"syntax\":\"{}\"}");
    check(db, "[\"X\"]", "{\"details\":\"database name expected as first "
          "parameter\",\"error\":\"syntax error\",\"syntax\":"
          "\"[\\\"X\\\"]\"}");
    check(db, "[\"S\",5]", "[{\"details\":\"Parsing ovsdb operation 1 of 1 "
          "failed: Object expected.\",\"error\":\"syntax error\"}]");
    check(db, "[\"S\",{\"op\":\"insert\",\"row\":{}}]",
          "[{\"details\":\"Parsing ovsdb operation 1 of 1 failed: Required "
          "'table' member is missing.\",\"error\":\"syntax error\","
          "\"syntax\":\"{\\\"op\\\":\\\"insert\\\",\\\"row\\\":{}}\"}]");
    check(db, "[\"S\",{\"op\":\"insert\",\"table\":\"Q\"}]",
          "[{\"details\":\"Parsing ovsdb operation 1 of 1 failed: No table "
          "named Q.\",\"error\":\"syntax error\",\"syntax\":"
          "\"{\\\"op\\\":\\\"insert\\\",\\\"table\\\":\\\"Q\\\"}\"}]");
    check_has(db, "[\"S\",{\"op\":\"insert\",\"table\":\"W\",\"foo\":1}]",
              "Member 'foo' is present but not allowed here.");
    check_has(db, "[\"S\",{\"op\":\"insert\",\"table\":5}]",
              "Type mismatch for member 'table'.");
    check_has(db, "[\"S\",{\"op\":\"select\",\"table\":\"W\"}]",
              "Required 'where' member is missing.");
    check(db, "[\"S\"]", "[]");
    ovsdb_destroy(db);
}

static void
test_update_delete(void **state DPS_UNUSED)
{
    struct ovsdb *db = create_db();

    check(db, "[\"S\",{\"op\":\"insert\",\"table\":\"P\",\"row\":"
          "{\"name\":\"a\",\"fixed\":3}},{\"op\":\"insert\",\"table\":"
          "\"P\",\"row\":{\"name\":\"b\"}},{\"op\":\"update\",\"table\":"
          "\"P\",\"where\":[],\"row\":{\"n\":9}}]",
          "[{\"uuid\":[\"uuid\",\"<0>\"]},{\"uuid\":[\"uuid\",\"<1>\"]},"
          "{\"count\":2}]");
    check(db, "[\"S\",{\"op\":\"update\",\"table\":\"P\",\"where\":[],"
          "\"row\":{\"fixed\":1}}]",
          "[{\"details\":\"Cannot update immutable column fixed in table "
          "P.\",\"error\":\"constraint violation\",\"syntax\":"
          "\"{\\\"op\\\":\\\"update\\\",\\\"row\\\":{\\\"fixed\\\":1},"
          "\\\"table\\\":\\\"P\\\",\\\"where\\\":[]}\"}]");
    check_has(db, "[\"S\",{\"op\":\"update\",\"table\":\"P\",\"where\":[],"
              "\"row\":{\"_uuid\":[\"uuid\","
              "\"11111111-2222-3333-4444-555555555555\"]}}]",
              "Cannot update immutable column _uuid in table P.");
    check(db, "[\"S\",{\"op\":\"select\",\"table\":\"P\",\"where\":"
          "[[\"n\",\"==\",9],[\"name\",\"!=\",\"a\"]],"
          "\"columns\":[\"name\",\"fixed\"]}]",
          "[{\"rows\":[{\"fixed\":0,\"name\":\"b\"}]}]");
    check(db, "[\"S\",{\"op\":\"delete\",\"table\":\"P\",\"where\":"
          "[[\"name\",\"==\",\"a\"]]},{\"op\":\"delete\",\"table\":\"P\","
          "\"where\":[[\"name\",\"==\",\"a\"]]}]",
          "[{\"count\":1},{\"count\":0}]");
    assert_int_equal(count_rows(db, "P"), 1);

    check(db, "[\"S\",{\"op\":\"select\",\"table\":\"P\",\"where\":"
          "[[\"m\",\"<\",\"k\"]]}]",
          "[{\"details\":\"Type mismatch: \\\"<\\\" operator may not be "
          "applied to column m of type map of (string, string) pairs.\","
          "\"error\":\"syntax error\",\"syntax\":\"[\\\"m\\\",\\\"<\\\","
          "\\\"k\\\"]\"}]");
    check(db, "[\"S\",{\"op\":\"select\",\"table\":\"P\",\"where\":"
          "[[\"zz\",\"==\",1]]}]",
          "[{\"details\":\"No column zz in table P.\",\"error\":"
          "\"unknown column\",\"syntax\":\"[\\\"zz\\\",\\\"==\\\",1]\"}]");
    check(db, "[\"S\",{\"op\":\"select\",\"table\":\"P\",\"where\":"
          "[[\"n\",\"~\",1]]}]",
          "[{\"details\":\"No function named ~.\",\"error\":"
          "\"unknown function\"}]");
    check_has(db, "[\"S\",{\"op\":\"select\",\"table\":\"P\",\"where\":[],"
              "\"columns\":[\"nope\"]}]",
              "nope is not a valid column name");
    ovsdb_destroy(db);
}

static void
test_mutate(void **state DPS_UNUSED)
{
    struct ovsdb *db = create_db();

    run_ok(db, "[\"S\",{\"op\":\"insert\",\"table\":\"P\",\"row\":"
        "{\"name\":\"a\",\"n\":10,\"r\":1.5,\"nums\":[\"set\",[1,2]],"
        "\"m\":[\"map\",[[\"a\",\"1\"],[\"b\",\"2\"]]]}}]");
    check(db, "[\"S\",{\"op\":\"mutate\",\"table\":\"P\",\"where\":[],"
          "\"mutations\":[[\"n\",\"+=\",5],[\"n\",\"*=\",3],"
          "[\"n\",\"-=\",1],[\"n\",\"/=\",4],[\"n\",\"%=\",7],"
          "[\"r\",\"*=\",2],[\"nums\",\"+=\",10],"
          "[\"nums\",\"insert\",[\"set\",[1,5]]],"
          "[\"nums\",\"delete\",11],"
          "[\"m\",\"insert\",[\"map\",[[\"a\",\"9\"],[\"c\",\"3\"]]]],"
          "[\"m\",\"delete\",[\"set\",[\"b\"]]],"
          "[\"m\",\"delete\",[\"map\",[[\"c\",\"3\"],[\"a\",\"2\"]]]]]},"
          "{\"op\":\"select\",\"table\":\"P\",\"where\":[],\"columns\":"
          "[\"n\",\"r\",\"nums\",\"m\"]}]",
          "[{\"count\":1},{\"rows\":[{\"m\":[\"map\",[[\"a\",\"1\"]]],"
          "\"n\":4,\"nums\":[\"set\",[1,5,12]],\"r\":3}]}]");

    check(db, "[\"S\",{\"op\":\"mutate\",\"table\":\"P\",\"where\":[],"
          "\"mutations\":[[\"n\",\"/=\",0]]}]",
          "[{\"details\":\"Division by zero.\",\"error\":\"domain error\"}]");
    check(db, "[\"S\",{\"op\":\"mutate\",\"table\":\"P\",\"where\":[],"
          "\"mutations\":[[\"r\",\"/=\",0]]}]",
          "[{\"details\":\"Division by zero.\",\"error\":\"domain error\"}]");
    check(db, "[\"S\",{\"op\":\"mutate\",\"table\":\"P\",\"where\":[],"
          "\"mutations\":[[\"n\",\"+=\",9223372036854775807]]}]",
          "[{\"details\":\"Result of \\\"+=\\\" operation is out of "
          "range.\",\"error\":\"range error\"}]");
    check(db, "[\"S\",{\"op\":\"mutate\",\"table\":\"P\",\"where\":[],"
          "\"mutations\":[[\"n\",\"*=\",-9223372036854775807]]}]",
          "[{\"details\":\"Result of \\\"*=\\\" operation is out of "
          "range.\",\"error\":\"range error\"}]");
    check(db, "[\"S\",{\"op\":\"mutate\",\"table\":\"P\",\"where\":[],"
          "\"mutations\":[[\"nums\",\"*=\",0]]}]",
          "[{\"details\":\"Result of \\\"*=\\\" operation contains "
          "duplicates.\",\"error\":\"constraint violation\"}]");
    check(db, "[\"S\",{\"op\":\"mutate\",\"table\":\"P\",\"where\":[],"
          "\"mutations\":[[\"tags\",\"insert\",[\"set\",[\"a\",\"b\"]]],"
          "[\"tags\",\"insert\",\"c\"]]}]",
          "[{\"details\":\"Attempted to store 3 elements in set of up to 2 "
          "strings.\",\"error\":\"constraint violation\"}]");
    check(db, "[\"S\",{\"op\":\"mutate\",\"table\":\"P\",\"where\":[],"
          "\"mutations\":[[\"name\",\"+=\",\"k\"]]}]",
          "[{\"details\":\"Type mismatch: \\\"+=\\\" operator may not be "
          "applied to column name of type string.\",\"error\":"
          "\"syntax error\",\"syntax\":\"[\\\"name\\\",\\\"+=\\\","
          "\\\"k\\\"]\"}]");
    check_has(db, "[\"S\",{\"op\":\"mutate\",\"table\":\"P\",\"where\":[],"
              "\"mutations\":[[\"r\",\"%=\",2]]}]", "Type mismatch");
    check_has(db, "[\"S\",{\"op\":\"mutate\",\"table\":\"P\",\"where\":[],"
              "\"mutations\":[[\"n\",\"insert\",2]]}]", "Type mismatch");
    check_has(db, "[\"S\",{\"op\":\"mutate\",\"table\":\"P\",\"where\":[],"
              "\"mutations\":[[\"m\",\"+=\",2]]}]", "Type mismatch");
    check(db, "[\"S\",{\"op\":\"mutate\",\"table\":\"P\",\"where\":[],"
          "\"mutations\":[[\"fixed\",\"+=\",1]]}]",
          "[{\"details\":\"Cannot mutate immutable column fixed in table "
          "P.\",\"error\":\"constraint violation\",\"syntax\":"
          "\"[\\\"fixed\\\",\\\"+=\\\",1]\"}]");
    check(db, "[\"S\",{\"op\":\"mutate\",\"table\":\"P\",\"where\":[],"
          "\"mutations\":[[\"n\",\"^=\",1]]}]",
          "[{\"details\":\"No mutator named ^=.\",\"error\":"
          "\"unknown mutator\"}]");

    /* Range constraints apply to results. */
    run_ok(db, "[\"S\",{\"op\":\"insert\",\"table\":\"C\",\"row\":{\"n\":99},"
        "\"uuid-name\":\"c\"},{\"op\":\"mutate\",\"table\":\"P\",\"where\":"
        "[],\"mutations\":[[\"kids\",\"insert\",[\"named-uuid\",\"c\"]]]}]");
    check(db, "[\"S\",{\"op\":\"mutate\",\"table\":\"C\",\"where\":[],"
          "\"mutations\":[[\"n\",\"+=\",5]]}]",
          "[{\"details\":\"104 is not in the valid range 0 to 100 "
          "(inclusive)\",\"error\":\"constraint violation\"}]");
    check(db, "[\"S\",{\"op\":\"select\",\"table\":\"C\",\"where\":[],"
          "\"columns\":[\"n\"]}]", "[{\"rows\":[{\"n\":99}]}]");
    ovsdb_destroy(db);
}

static void
test_references(void **state DPS_UNUSED)
{
    struct ovsdb *db = create_db();

    /* Unreferenced rows of non-root tables are collected at once. */
    check(db, "[\"S\",{\"op\":\"insert\",\"table\":\"C\",\"row\":{}}]",
          "[{\"uuid\":[\"uuid\",\"<0>\"]}]");
    assert_int_equal(count_rows(db, "C"), 0);

    run_ok(db, "[\"S\",{\"op\":\"insert\",\"table\":\"P\",\"row\":"
        "{\"name\":\"p\",\"kids\":[\"set\",[[\"named-uuid\",\"c1\"],"
        "[\"named-uuid\",\"c2\"]]],\"weak\":[\"named-uuid\",\"c2\"]}},"
        "{\"op\":\"insert\",\"table\":\"C\",\"row\":{\"n\":1,"
        "\"sub\":[\"named-uuid\",\"g\"]},\"uuid-name\":\"c1\"},"
        "{\"op\":\"insert\",\"table\":\"C\",\"row\":{\"n\":2},"
        "\"uuid-name\":\"c2\"},"
        "{\"op\":\"insert\",\"table\":\"G\",\"row\":{},\"uuid-name\":\"g\"}]");
    assert_int_equal(count_rows(db, "C"), 2);
    assert_int_equal(count_rows(db, "G"), 1);

    /* A row with strong references cannot be deleted. */
    check_has(db, "[\"S\",{\"op\":\"delete\",\"table\":\"C\",\"where\":"
              "[[\"n\",\"==\",2]]}]",
              "{\"count\":1},{\"details\":\"cannot delete C row <0> because "
              "of 1 remaining reference(s)\",\"error\":\"referential "
              "integrity violation\"}");
    assert_int_equal(count_rows(db, "C"), 2);

    /* Dropping the strong reference collects c2 and removes the weak
     * reference to it. */
    check(db, "[\"S\",{\"op\":\"mutate\",\"table\":\"P\",\"where\":[],"
          "\"mutations\":[[\"kids\",\"delete\",[\"set\",[]]]]},"
          "{\"op\":\"select\",\"table\":\"C\",\"where\":[[\"n\",\"==\",2]],"
          "\"columns\":[\"n\"]}]",
          "[{\"count\":1},{\"rows\":[{\"n\":2}]}]");
    run_ok(db, "[\"S\",{\"op\":\"update\",\"table\":\"P\",\"where\":[],"
        "\"row\":{\"kids\":[\"set\",[]]}}]");
    assert_int_equal(count_rows(db, "C"), 0);
    /* Garbage collection cascades: G lost its only referrer. */
    assert_int_equal(count_rows(db, "G"), 0);
    check(db, "[\"S\",{\"op\":\"select\",\"table\":\"P\",\"where\":[],"
          "\"columns\":[\"weak\",\"kids\"]}]",
          "[{\"rows\":[{\"kids\":[\"set\",[]],\"weak\":[\"set\",[]]}]}]");

    /* Weak references to rows that never existed vanish. */
    check(db, "[\"S\",{\"op\":\"update\",\"table\":\"P\",\"where\":[],"
          "\"row\":{\"weak\":[\"uuid\","
          "\"01234567-89ab-cdef-0123-456789abcdef\"]}},"
          "{\"op\":\"select\",\"table\":\"P\",\"where\":[],"
          "\"columns\":[\"weak\"]}]",
          "[{\"count\":1},{\"rows\":[{\"weak\":[\"uuid\",\"<0>\"]}]}]");
    check(db, "[\"S\",{\"op\":\"select\",\"table\":\"P\",\"where\":[],"
          "\"columns\":[\"weak\"]}]",
          "[{\"rows\":[{\"weak\":[\"set\",[]]}]}]");

    /* Deleting a root row weakly referenced from a row outside the
     * transaction updates that row. */
    run_ok(db, "[\"S\",{\"op\":\"insert\",\"table\":\"W\",\"row\":{\"x\":1},"
        "\"uuid-name\":\"w\"},{\"op\":\"update\",\"table\":\"P\","
        "\"where\":[],\"row\":{\"must\":[\"named-uuid\",\"w\"]}}]");
    check(db, "[\"S\",{\"op\":\"select\",\"table\":\"P\",\"where\":"
          "[[\"must\",\"!=\",[\"set\",[]]]],\"columns\":[\"name\"]}]",
          "[{\"rows\":[{\"name\":\"p\"}]}]");
    run_ok(db, "[\"S\",{\"op\":\"delete\",\"table\":\"W\",\"where\":[]}]");
    check(db, "[\"S\",{\"op\":\"select\",\"table\":\"P\",\"where\":[],"
          "\"columns\":[\"must\"]}]",
          "[{\"rows\":[{\"must\":[\"set\",[]]}]}]");

    /* A strong reference to a row that does not exist. */
    check(db, "[\"S\",{\"op\":\"update\",\"table\":\"P\",\"where\":[],"
          "\"row\":{\"kids\":[\"uuid\","
          "\"01234567-89ab-cdef-0123-456789abcdef\"]}}]",
          "[{\"count\":1},{\"details\":\"Table P column kids row <0> "
          "references nonexistent row <1> in table C.\",\"error\":"
          "\"referential integrity violation\"}]");
    ovsdb_destroy(db);
}

static void
test_index_and_max_rows(void **state DPS_UNUSED)
{
    struct ovsdb *db = create_db();

    run_ok(db, "[\"S\",{\"op\":\"insert\",\"table\":\"P\",\"row\":"
        "{\"name\":\"a\"}},{\"op\":\"insert\",\"table\":\"P\",\"row\":"
        "{\"name\":\"b\"}}]");
    /* Which row comes first depends on the rows' "_version"s, as in Open
     * vSwitch (tests/ovsdb-diff-rfc.txt checks the order). */
    check_has(db, "[\"S\",{\"op\":\"insert\",\"table\":\"P\",\"row\":"
              "{\"name\":\"a\"}}]",
              "Transaction causes multiple rows in \\\"P\\\" table to have "
              "identical values (a) for index on column \\\"name\\\".  ");
    check_has(db, "[\"S\",{\"op\":\"insert\",\"table\":\"P\",\"row\":"
              "{\"name\":\"a\"}}]", "was inserted by this transaction.");
    check_has(db, "[\"S\",{\"op\":\"insert\",\"table\":\"P\",\"row\":"
              "{\"name\":\"a\"}}]", "existed in the database before this "
              "transaction and was not modified by the transaction.");
    check_has(db, "[\"S\",{\"op\":\"update\",\"table\":\"P\",\"where\":"
              "[[\"name\",\"==\",\"b\"]],\"row\":{\"name\":\"a\"}}]",
              "had the following index values before the transaction: "
              "b.");
    /* Swapping two names in one transaction is fine. */
    check(db, "[\"S\",{\"op\":\"update\",\"table\":\"P\",\"where\":"
          "[[\"name\",\"==\",\"b\"]],\"row\":{\"name\":\"c\"}},"
          "{\"op\":\"update\",\"table\":\"P\",\"where\":"
          "[[\"name\",\"==\",\"a\"]],\"row\":{\"name\":\"b\"}},"
          "{\"op\":\"update\",\"table\":\"P\",\"where\":"
          "[[\"name\",\"==\",\"c\"]],\"row\":{\"name\":\"a\"}}]",
          "[{\"count\":1},{\"count\":1},{\"count\":1}]");
    assert_int_equal(count_rows(db, "P"), 2);

    /* The committed index follows renames, deletions and rollbacks. */
    check(db, "[\"S\",{\"op\":\"update\",\"table\":\"P\",\"where\":"
          "[[\"name\",\"==\",\"a\"]],\"row\":{\"name\":\"x\"}}]",
          "[{\"count\":1}]");
    check(db, "[\"S\",{\"op\":\"insert\",\"table\":\"P\",\"row\":"
          "{\"name\":\"a\"}}]", "[{\"uuid\":[\"uuid\",\"<0>\"]}]");
    check_has(db, "[\"S\",{\"op\":\"insert\",\"table\":\"P\",\"row\":"
              "{\"name\":\"x\"}}]", "constraint violation");
    check(db, "[\"S\",{\"op\":\"delete\",\"table\":\"P\",\"where\":"
          "[[\"name\",\"==\",\"x\"]]},{\"op\":\"insert\",\"table\":"
          "\"P\",\"row\":{\"name\":\"x\"}}]",
          "[{\"count\":1},{\"uuid\":[\"uuid\",\"<0>\"]}]");
    check_has(db, "[\"S\",{\"op\":\"update\",\"table\":\"P\",\"where\":"
              "[[\"name\",\"==\",\"x\"]],\"row\":{\"name\":\"y\"}},"
              "{\"op\":\"abort\"}]", "aborted");
    check_has(db, "[\"S\",{\"op\":\"insert\",\"table\":\"P\",\"row\":"
              "{\"name\":\"x\"}}]", "constraint violation");
    check(db, "[\"S\",{\"op\":\"insert\",\"table\":\"P\",\"row\":"
          "{\"name\":\"y\"}}]", "[{\"uuid\":[\"uuid\",\"<0>\"]}]");
    assert_int_equal(count_rows(db, "P"), 4);

    check(db, "[\"S\",{\"op\":\"insert\",\"table\":\"L\",\"row\":{}},"
          "{\"op\":\"insert\",\"table\":\"L\",\"row\":{}},"
          "{\"op\":\"insert\",\"table\":\"L\",\"row\":{}}]",
          "[{\"uuid\":[\"uuid\",\"<0>\"]},{\"uuid\":[\"uuid\",\"<1>\"]},"
          "{\"uuid\":[\"uuid\",\"<2>\"]},{\"details\":\"transaction causes "
          "\\\"L\\\" table to contain 3 rows, greater than the "
          "schema-defined limit of 2 row(s)\",\"error\":"
          "\"constraint violation\"}]");
    assert_int_equal(count_rows(db, "L"), 0);
    ovsdb_destroy(db);
}

static bool
lock_held(const char *name, void *aux DPS_UNUSED)
{
    return !strcmp(name, "mine");
}

static void
test_wait_commit_comment_assert(void **state DPS_UNUSED)
{
    struct ovsdb_execute_options options;
    struct ovsdb *db = create_db();

    run_ok(db, "[\"S\",{\"op\":\"insert\",\"table\":\"W\",\"row\":"
        "{\"x\":1}}]");
    check(db, "[\"S\",{\"op\":\"wait\",\"table\":\"W\",\"where\":[],"
          "\"columns\":[\"x\"],\"until\":\"==\",\"rows\":[{\"x\":1}],"
          "\"timeout\":0},{\"op\":\"wait\",\"table\":\"W\",\"where\":[],"
          "\"columns\":[\"x\"],\"until\":\"!=\",\"rows\":[],"
          "\"timeout\":0}]", "[{},{}]");
    check(db, "[\"S\",{\"op\":\"wait\",\"table\":\"W\",\"where\":[],"
          "\"columns\":[\"x\"],\"until\":\"==\",\"rows\":[],"
          "\"timeout\":0}]",
          "[{\"details\":\"\\\"where\\\" clause test failed\",\"error\":"
          "\"timed out\"}]");
    check(db, "[\"S\",{\"op\":\"insert\",\"table\":\"W\",\"row\":{}},"
          "{\"op\":\"wait\",\"table\":\"W\",\"where\":[],"
          "\"columns\":[\"x\"],\"until\":\"==\",\"rows\":[],"
          "\"timeout\":250}]", "BLOCKED 250");
    check(db, "[\"S\",{\"op\":\"wait\",\"table\":\"W\",\"where\":[],"
          "\"columns\":[\"x\"],\"until\":\"==\",\"rows\":[]}]",
          "BLOCKED 9223372036854775807");
    assert_int_equal(count_rows(db, "W"), 1);

    memset(&options, 0, sizeof options);
    options.elapsed_msec = 300;
    options.lock_held = lock_held;
    exec_options = &options;
    check(db, "[\"S\",{\"op\":\"wait\",\"table\":\"W\",\"where\":[],"
          "\"columns\":[\"x\"],\"until\":\"==\",\"rows\":[],"
          "\"timeout\":250}]",
          "[{\"details\":\"\\\"wait\\\" timed out after 250 ms\",\"error\":"
          "\"timed out\"}]");
    check(db, "[\"S\",{\"op\":\"assert\",\"lock\":\"mine\"},"
          "{\"op\":\"assert\",\"lock\":\"theirs\"}]",
          "[{},{\"details\":\"Asserted lock theirs not held.\",\"error\":"
          "\"not owner\"}]");
    options.dry_run = true;
    check(db, "[\"S\",{\"op\":\"insert\",\"table\":\"W\",\"row\":{}}]",
          "[{\"uuid\":[\"uuid\",\"<0>\"]}]");
    assert_int_equal(count_rows(db, "W"), 1);
    exec_options = NULL;

    check(db, "[\"S\",{\"op\":\"assert\",\"lock\":\"mine\"}]",
          "[{\"details\":\"Asserted lock mine not held.\",\"error\":"
          "\"not owner\"}]");
    check(db, "[\"S\",{\"op\":\"commit\",\"durable\":true},"
          "{\"op\":\"comment\",\"comment\":\"hi\"}]", "[{},{}]");
    check_has(db, "[\"S\",{\"op\":\"commit\"}]",
              "Required 'durable' member is missing.");
    check_has(db, "[\"S\",{\"op\":\"wait\",\"table\":\"W\",\"where\":[],"
              "\"columns\":[\"x\"],\"until\":\"<\",\"rows\":[]}]",
              "\\\"until\\\" must be");
    ovsdb_destroy(db);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_insert_select),
        cmocka_unit_test(test_named_uuids),
        cmocka_unit_test(test_atomicity),
        cmocka_unit_test(test_update_delete),
        cmocka_unit_test(test_mutate),
        cmocka_unit_test(test_references),
        cmocka_unit_test(test_index_and_max_rows),
        cmocka_unit_test(test_wait_commit_comment_assert),
    };

    return cmocka_run_group_tests_name("ovsdb-txn", tests, NULL, NULL);
}
