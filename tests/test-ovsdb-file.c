/* Unit tests for OVSDB storage: the record log (ovsdb/log.c) and database
 * files (ovsdb/file.c): framing, SHA-1 checks, torn and corrupt tails,
 * replay of diffs, compaction.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "dynamic-string.h"
#include "ovsdb/execution.h"
#include "ovsdb/file.h"
#include "ovsdb/log.h"
#include "ovsdb/ovsdb-error.h"
#include "ovsdb/ovsdb-json.h"
#include "ovsdb/ovsdb.h"
#include "ovsdb/schema.h"
#include "util.h"

static char *dir;

static int
setup(void **state DPS_UNUSED)
{
    char template[] = "/tmp/test-ovsdb-file.XXXXXX";

    dir = xstrdup(mkdtemp(template));
    return 0;
}

static int
teardown(void **state DPS_UNUSED)
{
    char *cmd = xasprintf("rm -rf '%s'", dir);
    int rc = system(cmd);

    free(cmd);
    free(dir);
    return rc ? -1 : 0;
}

static char *
path(const char *name)
{
    return xasprintf("%s/%s", dir, name);
}

static char *
read_file(const char *name)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    FILE *f = fopen(name, "r");
    int c;

    assert_non_null(f);
    while ((c = getc(f)) != EOF) {
        ds_put_char(&ds, c);
    }
    fclose(f);
    return ds_steal_cstr(&ds);
}

static void
write_file(const char *name, const char *content, size_t size)
{
    FILE *f = fopen(name, "w");

    assert_non_null(f);
    assert_int_equal(fwrite(content, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
}

static void
test_log_roundtrip(void **state DPS_UNUSED)
{
    char *name = path("log1");
    struct ovsdb_log *log;
    json_t *json;
    char *content;

    unlink(name);
    assert_null(ovsdb_log_open(name, OVSDB_LOG_CREATE_EXCL, &log));
    json = json_pack("{s:i}", "a", 1);
    assert_null(ovsdb_log_write(log, json));
    json_decref(json);
    json = json_pack("{s:s,s:f}", "s", "x\n", "r", 1.0);
    assert_null(ovsdb_log_write(log, json));
    json_decref(json);
    assert_null(ovsdb_log_commit_block(log));
    ovsdb_log_close(log);

    content = read_file(name);
    assert_string_equal(content,
                        "OVSDB JSON 8 8a3d961f7fe8ef7b41d461059884a9461be85059\n"
                        "{\"a\":1}\n"
                        "OVSDB JSON 18 5afa3fadc451ecef9c16c2d0c21d3f8bfdc134b2\n"
                        "{\"s\":\"x\\n\",\"r\":1}\n");
    free(content);

    assert_null(ovsdb_log_open(name, OVSDB_LOG_READ_ONLY, &log));
    assert_string_equal(ovsdb_log_get_magic(log), OVSDB_LOG_JSON);
    assert_null(ovsdb_log_read(log, &json));
    assert_int_equal(json_integer_value(json_object_get(json, "a")), 1);
    json_decref(json);
    assert_null(ovsdb_log_read(log, &json));
    assert_true(json_is_object(json));
    assert_string_equal(json_string_value(json_object_get(json, "s")), "x\n");
    json_decref(json);
    assert_null(ovsdb_log_read(log, &json));
    assert_null(json);
    assert_int_equal(ovsdb_log_get_n_records(log), 2);
    ovsdb_log_close(log);

    /* CREATE_EXCL refuses an existing file. */
    {
        struct ovsdb_error *error = ovsdb_log_open(name,
                                                   OVSDB_LOG_CREATE_EXCL,
                                                   &log);
        assert_non_null(error);
        assert_int_equal(error->errno_, EEXIST);
        ovsdb_error_destroy(error);
    }
    free(name);
}

/* Writes three records to 'name' and returns the file's contents. */
static char *
make_three_records(const char *name)
{
    struct ovsdb_log *log;
    int i;

    unlink(name);
    assert_null(ovsdb_log_open(name, OVSDB_LOG_CREATE, &log));
    for (i = 0; i < 3; i++) {
        json_t *json = json_pack("{s:i}", "i", i);

        assert_null(ovsdb_log_write(log, json));
        json_decref(json);
    }
    ovsdb_log_close(log);
    return read_file(name);
}

/* Reads 'name' and returns the number of good records and the error text
 * of the bad one (or NULL). */
static size_t
read_all(const char *name, char **errorp)
{
    struct ovsdb_error *error;
    struct ovsdb_log *log;
    size_t n = 0;

    *errorp = NULL;
    assert_null(ovsdb_log_open(name, OVSDB_LOG_READ_ONLY, &log));
    for (;;) {
        json_t *json;

        error = ovsdb_log_read(log, &json);
        if (error) {
            *errorp = ovsdb_error_to_string(error);
            ovsdb_error_destroy(error);
            break;
        } else if (!json) {
            break;
        }
        json_decref(json);
        n++;
    }
    ovsdb_log_close(log);
    return n;
}

/* Writes to 'name' the first record of 'content' followed by 'tail', and
 * checks that reading stops after that record with an error that contains
 * 'message' or, if 'message' is NULL, that 'tail' reads as one good
 * record. */
static void
expect_bad_tail(const char *name, const char *content, const char *tail,
                const char *message)
{
    size_t first = strstr(content + 1, "OVSDB JSON") - content;
    char *file = xasprintf("%.*s%s", (int) first, content, tail);
    char *error;

    write_file(name, file, strlen(file));
    if (message) {
        assert_int_equal(read_all(name, &error), 1);
        assert_non_null(error);
        if (!strstr(error, message)) {
            fail_msg("\"%s\" lacks \"%s\"", error, message);
        }
        free(error);
    } else {
        assert_int_equal(read_all(name, &error), 2);
        assert_null(error);
    }
    free(file);
}

/* Checks that opening 'name' fails with an error that contains
 * 'message'. */
static void
expect_open_error(const char *name, const char *message)
{
    struct ovsdb_log *log;
    struct ovsdb_error *error = ovsdb_log_open(name, OVSDB_LOG_READ_ONLY,
                                               &log);
    char *s;

    assert_non_null(error);
    s = ovsdb_error_to_string(error);
    if (!strstr(s, message)) {
        fail_msg("\"%s\" lacks \"%s\"", s, message);
    }
    free(s);
    ovsdb_error_destroy(error);
}

static void
test_log_damage(void **state DPS_UNUSED)
{
    char *name = path("log2");
    char *content = make_three_records(name);
    size_t len = strlen(content);
    struct ovsdb_log *log;
    off_t n_bytes;
    char *error, *copy;

    assert_int_equal(read_all(name, &error), 3);
    assert_null(error);

    /* Torn tail: the last record is cut short. */
    write_file(name, content, len - 3);
    assert_int_equal(read_all(name, &error), 2);
    assert_non_null(strstr(error, "I/O error"));
    assert_non_null(strstr(error, "End of file"));
    free(error);

    /* Torn header. */
    copy = xstrdup(content);
    write_file(name, copy, strstr(copy, "{\"i\":2}") - copy - 10);
    assert_int_equal(read_all(name, &error), 2);
    assert_non_null(strstr(error, "parse error at offset"));
    free(error);

    /* Corrupted byte: the SHA-1 no longer matches. */
    *strstr(copy, "{\"i\":1}") = '[';
    write_file(name, copy, len);
    assert_int_equal(read_all(name, &error), 1);
    assert_non_null(strstr(error, "have SHA-1 hash"));
    assert_non_null(strstr(error, "but should have hash"));
    free(error);

    /* Truncating the tail keeps the good record, and writes go on after
     * it. */
    assert_null(ovsdb_log_open(name, OVSDB_LOG_READ_WRITE, &log));
    {
        json_t *json;

        assert_null(ovsdb_log_read(log, &json));
        json_decref(json);
        error = NULL;
        {
            struct ovsdb_error *e = ovsdb_log_read(log, &json);

            assert_non_null(e);
            ovsdb_error_destroy(e);
        }
        assert_null(ovsdb_log_truncate_tail(log, &n_bytes));
        assert_true(n_bytes > 0);
        json = json_pack("{s:i}", "i", 9);
        assert_null(ovsdb_log_write(log, json));
        json_decref(json);
    }
    ovsdb_log_close(log);
    assert_int_equal(read_all(name, &error), 2);
    assert_null(error);

    /* Garbage instead of a header, and an empty file: not logs at all, as
     * Open vSwitch says on opening them. */
    write_file(name, "hello\n", 6);
    expect_open_error(name, "unexpected file format");
    write_file(name, "", 0);
    expect_open_error(name, "cannot identify file type");

    /* Garbage after a good record; a header whose words are wrong, quoted
     * only up to its magic word, as Open vSwitch quotes it. */
    expect_bad_tail(name, content, "hello\n", "in header line \"hello\"");
    expect_bad_tail(name, content, "OVSDB JSON 3  "
                    "5f36b2ea290645ee34d943220a14b54ee5ea5be5\n{}\n",
                    "in header line \"OVSDB JSON\"");
    expect_bad_tail(name, content, "OVSDB CLUSTER 3 "
                    "5f36b2ea290645ee34d943220a14b54ee5ea5be5\n{}\n",
                    "in header line \"OVSDB CLUSTER\"");
    /* A length past the end of the file, even a "negative" one. */
    expect_bad_tail(name, content, "OVSDB JSON -3 "
                    "5f36b2ea290645ee34d943220a14b54ee5ea5be5\n{}\n",
                    "error reading 18446744073709551613 bytes");
    /* Upper-case digits are a valid hash; a record must be an object. */
    expect_bad_tail(name, content, "OVSDB JSON 3 "
                    "5F36B2EA290645EE34D943220A14B54EE5EA5BE5\n{}\n", NULL);
    expect_bad_tail(name, content, "OVSDB JSON 4 "
                    "6d7e0100a388d5914d5a530b405235ce85fea122\n[1]\n",
                    "are not a JSON object");

    /* Valid framing around invalid JSON. */
    write_file(name, "OVSDB JSON 4 a5892d77b6d256be99a917cf941b8cb3ab0e5de5\n"
               "{{{\n", 59);
    assert_int_equal(read_all(name, &error), 0);
    assert_non_null(error);
    free(error);

    free(copy);
    free(content);
    free(name);
}

static void
test_log_replace(void **state DPS_UNUSED)
{
    char *name = path("log3");
    char *content = make_three_records(name), *error;
    struct ovsdb_log *log;
    json_t *records[1];

    assert_null(ovsdb_log_open(name, OVSDB_LOG_READ_WRITE, &log));
    records[0] = json_pack("{s:s}", "only", "one");
    assert_null(ovsdb_log_replace(log, records, 1));
    json_decref(records[0]);
    records[0] = json_pack("{s:i}", "after", 1);
    assert_null(ovsdb_log_write(log, records[0]));
    json_decref(records[0]);
    ovsdb_log_close(log);
    assert_int_equal(read_all(name, &error), 2);
    assert_null(error);
    free(content);
    free(name);
}

/* A clustered log: "OVSDB CLUSTER" records, found again on opening; a
 * standalone record in it is damage. */
static void
test_log_magic(void **state DPS_UNUSED)
{
    char *name = path("log4");
    struct ovsdb_log *log;
    char *content, *error;
    json_t *json;

    unlink(name);
    assert_null(ovsdb_log_open(name, OVSDB_LOG_CREATE_EXCL, &log));
    ovsdb_log_set_magic(log, OVSDB_LOG_CLUSTER);
    json = json_pack("{s:i}", "a", 1);
    assert_null(ovsdb_log_write(log, json));
    json_decref(json);
    ovsdb_log_close(log);
    content = read_file(name);
    assert_string_equal(content,
                        "OVSDB CLUSTER 8 "
                        "8a3d961f7fe8ef7b41d461059884a9461be85059\n"
                        "{\"a\":1}\n");

    assert_null(ovsdb_log_open(name, OVSDB_LOG_READ_WRITE, &log));
    assert_string_equal(ovsdb_log_get_magic(log), OVSDB_LOG_CLUSTER);
    assert_null(ovsdb_log_read(log, &json));
    json_decref(json);
    assert_null(ovsdb_log_read(log, &json));
    assert_null(json);
    /* Appends keep the log's kind; so does replacing it. */
    json = json_pack("{s:i}", "b", 2);
    assert_null(ovsdb_log_write(log, json));
    assert_null(ovsdb_log_replace(log, &json, 1));
    json_decref(json);
    ovsdb_log_close(log);
    free(content);
    content = read_file(name);
    assert_string_equal(content,
                        "OVSDB CLUSTER 8 "
                        "60b08985859458a69aa27965b50b0a06f7559805\n"
                        "{\"b\":2}\n");
    free(content);

    content = xasprintf("OVSDB CLUSTER 8 "
                        "8a3d961f7fe8ef7b41d461059884a9461be85059\n"
                        "{\"a\":1}\n"
                        "OVSDB JSON 8 "
                        "8a3d961f7fe8ef7b41d461059884a9461be85059\n"
                        "{\"a\":1}\n");
    write_file(name, content, strlen(content));
    assert_int_equal(read_all(name, &error), 1);
    assert_non_null(strstr(error, "in header line \"OVSDB JSON\""));
    free(error);
    free(content);
    free(name);
}

static const char schema_json[] =
    "{\"name\":\"S\",\"version\":\"1.0.0\",\"tables\":{"
    "\"P\":{\"isRoot\":true,\"columns\":{"
    "  \"name\":{\"type\":\"string\"},"
    "  \"n\":{\"type\":\"integer\"},"
    "  \"eph\":{\"type\":\"integer\",\"ephemeral\":true},"
    "  \"one\":{\"type\":{\"key\":\"integer\",\"min\":0,\"max\":1}},"
    "  \"nums\":{\"type\":{\"key\":\"integer\",\"min\":0,"
    "                      \"max\":\"unlimited\"}},"
    "  \"m\":{\"type\":{\"key\":\"string\",\"value\":\"string\",\"min\":0,"
    "                   \"max\":\"unlimited\"}},"
    "  \"kids\":{\"type\":{\"key\":{\"type\":\"uuid\",\"refTable\":\"C\"},"
    "                      \"min\":0,\"max\":\"unlimited\"}}}},"
    "\"C\":{\"columns\":{\"x\":{\"type\":\"integer\"}}}}}";

static char *
transact(struct ovsdb *db, const char *request)
{
    json_t *params = json_loads(request, 0, NULL), *result;
    long long int timeout;
    char *s;

    assert_non_null(params);
    result = ovsdb_execute(db, params, NULL, &timeout);
    assert_non_null(result);
    s = ovsdb_json_to_string(result, OVSDB_JSON_SORT);
    json_decref(result);
    json_decref(params);
    return s;
}

static char *
dump(struct ovsdb *db)
{
    return transact(db, "[\"S\",{\"op\":\"select\",\"table\":\"P\","
                    "\"where\":[],\"columns\":[\"name\",\"n\",\"eph\","
                    "\"one\",\"nums\",\"m\",\"kids\"]},{\"op\":\"select\","
                    "\"table\":\"C\",\"where\":[],\"columns\":[\"x\"]}]");
}

static struct ovsdb *
create_and_open(const char *name)
{
    struct ovsdb_schema *schema;
    struct ovsdb *db;
    json_t *json = json_loads(schema_json, 0, NULL);

    unlink(name);
    assert_null(ovsdb_schema_from_json(json, &schema));
    json_decref(json);
    assert_null(ovsdb_file_create(name, schema));
    ovsdb_schema_destroy(schema);
    assert_null(ovsdb_file_open(name, 0, &db));
    return db;
}

static void
apply_changes(struct ovsdb *db)
{
    static const char *const requests[] = {
        "[\"S\",{\"op\":\"insert\",\"table\":\"P\",\"row\":{\"name\":\"a\","
        "\"n\":1,\"eph\":5,\"nums\":[\"set\",[1,2,3]],\"m\":[\"map\","
        "[[\"k\",\"v\"],[\"x\",\"y\"]]],\"kids\":[\"named-uuid\",\"c\"]}},"
        "{\"op\":\"insert\",\"table\":\"C\",\"row\":{\"x\":7},"
        "\"uuid-name\":\"c\"},{\"op\":\"comment\",\"comment\":\"first\"}]",
        "[\"S\",{\"op\":\"mutate\",\"table\":\"P\",\"where\":[],"
        "\"mutations\":[[\"nums\",\"delete\",2],[\"nums\",\"insert\",9],"
        "[\"m\",\"delete\",[\"set\",[\"k\"]]],[\"m\",\"insert\",[\"map\","
        "[[\"z\",\"1\"]]]],[\"n\",\"+=\",1]]}]",
        "[\"S\",{\"op\":\"update\",\"table\":\"P\",\"where\":[],\"row\":"
        "{\"m\":[\"map\",[[\"x\",\"changed\"],[\"z\",\"1\"]]],\"one\":4,"
        "\"eph\":6}}]",
        "[\"S\",{\"op\":\"update\",\"table\":\"P\",\"where\":[],\"row\":"
        "{\"one\":[\"set\",[]]}},{\"op\":\"insert\",\"table\":\"P\","
        "\"row\":{\"name\":\"b\"}},{\"op\":\"commit\",\"durable\":true}]",
        "[\"S\",{\"op\":\"delete\",\"table\":\"P\",\"where\":"
        "[[\"name\",\"==\",\"b\"]]},{\"op\":\"update\",\"table\":\"P\","
        "\"where\":[],\"row\":{\"kids\":[\"set\",[]]}}]",
        ("[\"S\",{\"op\":\"update\",\"table\":\"P\",\"where\":[],"
         "\"row\":{\"eph\":7}}]"),
    };
    size_t i;

    for (i = 0; i < ARRAY_SIZE(requests); i++) {
        char *s = transact(db, requests[i]);

        if (strstr(s, "error")) {
            fail_msg("request %zu failed: %s", i, s);
        }
        free(s);
    }
}

static void
test_file_replay(void **state DPS_UNUSED)
{
    char *name = path("db1"), *before, *after, *content;
    struct ovsdb *db = create_and_open(name);

    apply_changes(db);
    before = dump(db);
    /* Ephemeral values are not stored. */
    assert_non_null(strstr(before, "\"eph\":7"));
    assert_int_equal(ovsdb_file_get_n_records(db->file), 6);
    ovsdb_destroy(db);

    content = read_file(name);
    assert_non_null(strstr(content, "\"_comment\":\"first\""));
    assert_non_null(strstr(content, "\"_is_diff\":true"));
    assert_null(strstr(content, "\"eph\":5"));
    assert_null(strstr(content, "\"eph\":7"));
    /* Sets and maps are stored as differences, other columns whole. */
    assert_non_null(strstr(content, "\"nums\":[\"set\",[2,9]]"));
    assert_non_null(strstr(content, "\"one\":[\"set\",[]]"));
    free(content);

    assert_null(ovsdb_file_open(name, OVSDB_FILE_READ_ONLY, &db));
    after = dump(db);
    assert_non_null(strstr(after, "\"eph\":0"));
    assert_string_equal(strstr(before, "\"kids\""), strstr(after, "\"kids\""));
    ovsdb_destroy(db);
    free(before);
    free(after);
    free(name);
}

static void
test_file_compact(void **state DPS_UNUSED)
{
    char *name = path("db2"), *before, *after, *copy_name = path("db2c");
    struct ovsdb *db = create_and_open(name);
    struct stat st1, st2;

    apply_changes(db);
    before = dump(db);
    assert_int_equal(stat(name, &st1), 0);
    assert_null(ovsdb_file_compact(db, "compacted by test"));
    assert_int_equal(stat(name, &st2), 0);
    assert_true(st2.st_size < st1.st_size);
    /* The database stays writable after compaction. */
    free(transact(db, "[\"S\",{\"op\":\"mutate\",\"table\":\"P\",\"where\":"
                  "[],\"mutations\":[[\"n\",\"+=\",10]]}]"));
    unlink(copy_name);
    assert_null(ovsdb_file_save_copy(copy_name, db, NULL));
    ovsdb_destroy(db);

    assert_null(ovsdb_file_open(name, OVSDB_FILE_READ_ONLY, &db));
    after = dump(db);
    assert_non_null(strstr(after, "\"n\":12"));
    ovsdb_destroy(db);
    free(after);
    assert_null(ovsdb_file_open(copy_name, OVSDB_FILE_READ_ONLY, &db));
    after = dump(db);
    assert_non_null(strstr(after, "\"n\":12"));
    ovsdb_destroy(db);
    free(before);
    free(after);
    free(name);
    free(copy_name);
}

static void
test_file_torn_tail(void **state DPS_UNUSED)
{
    char *name = path("db3"), *content, *good, *after;
    struct ovsdb_error *error;
    struct ovsdb *db = create_and_open(name);
    size_t len;

    apply_changes(db);
    ovsdb_destroy(db);
    assert_null(ovsdb_file_open(name, OVSDB_FILE_READ_ONLY, &db));
    good = dump(db);
    ovsdb_destroy(db);

    /* Append half of a record, as a crash in mid-write would. */
    content = read_file(name);
    len = strlen(content);
    {
        FILE *f = fopen(name, "a");

        assert_non_null(f);
        fputs("OVSDB JSON 500 0123456789012345678901234567890123456789\n"
              "{\"P\":", f);
        fclose(f);
    }

    /* Without permission to repair, opening fails and changes nothing. */
    error = ovsdb_file_open(name, 0, &db);
    assert_non_null(error);
    ovsdb_error_destroy(error);

    /* With it, the tail goes and everything before it stays. */
    assert_null(ovsdb_file_open(name, OVSDB_FILE_TRUNCATE_TAIL, &db));
    after = dump(db);
    assert_string_equal(after, good);
    free(after);
    free(transact(db, "[\"S\",{\"op\":\"insert\",\"table\":\"P\","
                  "\"row\":{\"name\":\"new\"}}]"));
    ovsdb_destroy(db);
    free(content);
    content = read_file(name);
    assert_true(strlen(content) > len);
    assert_null(strstr(content, "0123456789012345678901234567890123456789"));

    assert_null(ovsdb_file_open(name, OVSDB_FILE_READ_ONLY, &db));
    after = dump(db);
    assert_non_null(strstr(after, "\"new\""));
    ovsdb_destroy(db);
    free(after);
    free(good);
    free(content);
    free(name);
}

static void
test_file_lock(void **state DPS_UNUSED)
{
    char *name = path("db4");
    struct ovsdb *db = create_and_open(name), *db2;
    struct ovsdb_error *error;

    /* A second writer in this process is refused by the lock (fcntl locks
     * are per process, so test through a child). */
    pid_t pid = fork();

    assert_true(pid >= 0);
    if (!pid) {
        error = ovsdb_file_open(name, 0, &db2);
        _exit(error && error->errno_ == EAGAIN ? 0 : 1);
    } else {
        int status;

        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
    ovsdb_destroy(db);
    free(name);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_log_roundtrip),
        cmocka_unit_test(test_log_damage),
        cmocka_unit_test(test_log_replace),
        cmocka_unit_test(test_log_magic),
        cmocka_unit_test(test_file_replay),
        cmocka_unit_test(test_file_compact),
        cmocka_unit_test(test_file_torn_tail),
        cmocka_unit_test(test_file_lock),
    };

    return cmocka_run_group_tests_name("ovsdb-file", tests, setup, teardown);
}
