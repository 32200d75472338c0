/* Unit tests for lib/json.c: serialization, builders and the incremental
 * parser.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "json.h"
#include "util.h"

/* Parses 's', which must be valid JSON. */
static json_t *
parse(const char *s)
{
    char *error;
    json_t *json = jsonx_from_string(s, &error);

    if (!json) {
        fail_msg("parsing %s: %s", s, error);
    }
    assert_null(error);
    return json;
}

/* Checks that 'in' parses and serializes, with 'flags', as 'out'. */
static void
check_roundtrip(const char *in, int flags, const char *out)
{
    json_t *json = parse(in);
    char *s = jsonx_to_string(json, flags);

    assert_string_equal(s, out);
    free(s);
    json_decref(json);
}

static void
test_compact(void **state DPS_UNUSED)
{
    check_roundtrip(" { \"b\" : 1 , \"a\" : [ 1 , 2.5 , true , false , null ] "
                    ", \"c\": {} , \"d\": [] } ", 0,
                    "{\"b\":1,\"a\":[1,2.5,true,false,null],\"c\":{},"
                    "\"d\":[]}");
    /* Insertion order is kept, not sorted... */
    check_roundtrip("{\"z\":1,\"y\":2,\"x\":3}", 0,
                    "{\"z\":1,\"y\":2,\"x\":3}");
    /* ...unless asked. */
    check_roundtrip("{\"z\":1,\"y\":2,\"x\":3}", JSONX_SORT_KEYS,
                    "{\"x\":3,\"y\":2,\"z\":1}");
    check_roundtrip("[]", 0, "[]");
    check_roundtrip("\"x\"", 0, "\"x\"");
    check_roundtrip("-0", 0, "0");
}

static void
test_numbers(void **state DPS_UNUSED)
{
    /* Integers stay integers, reals stay reals. */
    check_roundtrip("[1, 1.0, -3, -3.0, 1e3, 0.1, 1.5e300, 2.5e-7]", 0,
                    "[1,1.0,-3,-3.0,1000.0,0.1,1.5e+300,2.5e-07]");
    check_roundtrip("[9223372036854775807, -9223372036854775808]", 0,
                    "[9223372036854775807,-9223372036854775808]");
    /* The shortest form that reads back as the same double. */
    check_roundtrip("[0.30000000000000004, 3.141592653589793]", 0,
                    "[0.30000000000000004,3.141592653589793]");
}

static void
test_strings(void **state DPS_UNUSED)
{
    /* Non-ASCII stays UTF-8; only quotes, backslashes and control
     * characters are escaped; '/' is not. */
    check_roundtrip("\"caf\\u00e9 \xe2\x82\xac \\ud83d\\ude00 a/b\"", 0,
                    "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 a/b\"");
    check_roundtrip("\"q\\\" b\\\\ \\b\\f\\n\\r\\t \\u0001\\u001f\\u0000x\"", 0,
                    "\"q\\\" b\\\\ \\b\\f\\n\\r\\t \\u0001\\u001f\\u0000x\"");

    /* jansson cannot parse a NUL in a key, but can hold one. */
    json_t *json = json_object();
    char *s;

    json_object_setn_new(json, "k\0ey", 4, json_integer(1));
    s = jsonx_to_string(json, 0);
    assert_string_equal(s, "{\"k\\u0000ey\":1}");
    free(s);
    json_decref(json);
}

static void
test_pretty(void **state DPS_UNUSED)
{
    check_roundtrip("{\"a\":[1,{\"b\":null}],\"c\":{},\"d\":[]}",
                    JSONX_PRETTY,
                    "{\n"
                    "  \"a\": [\n"
                    "    1,\n"
                    "    {\n"
                    "      \"b\": null\n"
                    "    }\n"
                    "  ],\n"
                    "  \"c\": {},\n"
                    "  \"d\": []\n"
                    "}");
    check_roundtrip("[1]", JSONX_PRETTY, "[\n  1\n]");
}

static void
test_to_ds_appends(void **state DPS_UNUSED)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    json_t *json = json_pack("{s:i}", "n", 5);

    ds_put_cstr(&ds, "x=");
    jsonx_to_ds(json, 0, &ds);
    jsonx_to_ds(NULL, 0, &ds);
    assert_string_equal(ds_cstr(&ds), "x={\"n\":5}null");
    ds_destroy(&ds);
    json_decref(json);
}

static void
test_builders(void **state DPS_UNUSED)
{
    const char *strings[] = { "a", "b\xff", "\xc3\xa9" };
    json_t *json;
    char *s;

    json = jsonx_array(3, json_integer(1), json_string("x"), json_array());
    s = jsonx_to_string(json, 0);
    assert_string_equal(s, "[1,\"x\",[]]");
    assert_false(jsonx_is_string_array(json));
    free(s);
    json_decref(json);

    json = jsonx_array(0);
    assert_true(jsonx_is_string_array(json));
    json_decref(json);

    /* Invalid UTF-8 becomes U+FFFD rather than failing. */
    json = jsonx_string_array(strings, ARRAY_SIZE(strings));
    assert_true(jsonx_is_string_array(json));
    s = jsonx_to_string(json, 0);
    assert_string_equal(s, "[\"a\",\"b\xef\xbf\xbd\",\"\xc3\xa9\"]");
    free(s);
    json_decref(json);

    json = jsonx_string("\xed\xa0\x80z\xc0\xaf\xf4\x90\x80\x80");
    assert_string_equal(json_string_value(json),
                        "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbdz"
                        "\xef\xbf\xbd\xef\xbf\xbd"
                        "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
    json_decref(json);

    assert_false(jsonx_is_string_array(NULL));
    assert_string_equal(jsonx_type_name(NULL), "null");
    json = parse("[{},[],\"\",1,1.5,true,false,null]");
    {
        static const char *const names[] = {
            "object", "array", "string", "integer", "real", "boolean",
            "boolean", "null",
        };
        for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
            assert_string_equal(jsonx_type_name(json_array_get(json, i)),
                                names[i]);
        }
    }
    json_decref(json);
}

static void
test_from_string_errors(void **state DPS_UNUSED)
{
    static const char *const bad[] = {
        "", "   ", "[1] [2]", "[1,]", "{\"a\"}", "tru", "[", "\"abc",
        "\xff", "[\"\xc3\"]", "nul", "1 2",
    };

    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        char *error;
        json_t *json = jsonx_from_string(bad[i], &error);

        if (json) {
            fail_msg("\"%s\" parsed", bad[i]);
        }
        assert_non_null(error);
        free(error);
    }
    assert_null(jsonx_from_string("[", NULL));
}

/* The incremental parser. */

/* A stream of values with every awkward feature: strings holding brackets,
 * braces, escaped quotes and backslashes; nesting; whitespace of each kind
 * between values and none at all; non-ASCII text; a top-level scalar. */
static const char stream_text[] =
    "{\"method\":\"echo\",\"params\":[\"a]}\\\"\\\\\"],\"id\":1}"
    "  \r\n\t[1,[2,[3,{\"x\":\"{[\"}]]]"
    "{\"result\":\"caf\xc3\xa9 \\u00e9\",\"error\":null,\"id\":\"\\\\\"}\n"
    "\"top\"  [] {}"
    "[-1.5e3, true, false, null]";

static const char *const stream_values[] = {
    "{\"method\":\"echo\",\"params\":[\"a]}\\\"\\\\\"],\"id\":1}",
    "[1,[2,[3,{\"x\":\"{[\"}]]]",
    "{\"result\":\"caf\xc3\xa9 \xc3\xa9\",\"error\":null,\"id\":\"\\\\\"}",
    "\"top\"",
    "[]",
    "{}",
    "[-1500.0,true,false,null]",
};

/* Takes every value now available from 'p', appending each serialized to
 * 'got' (an array of 'n_got' strings).  Returns the last status. */
static int
drain(struct jsonx_parser *p, char **got, size_t *n_got, size_t max)
{
    for (;;) {
        json_t *json;
        int error = jsonx_parser_next(p, &json);

        if (error) {
            assert_null(json);
            return error;
        }
        assert_true(*n_got < max);
        got[(*n_got)++] = jsonx_to_string(json, 0);
        json_decref(json);
    }
}

static void
check_stream_values(char **got, size_t n_got)
{
    assert_int_equal(n_got, ARRAY_SIZE(stream_values));
    for (size_t i = 0; i < n_got; i++) {
        assert_string_equal(got[i], stream_values[i]);
        free(got[i]);
    }
}

/* Feeds 'stream_text' in two pieces, split at every possible offset. */
static void
test_parser_split_everywhere(void **state DPS_UNUSED)
{
    size_t len = strlen(stream_text);

    for (size_t split = 0; split <= len; split++) {
        struct jsonx_parser *p = jsonx_parser_create(0, 0);
        char *got[16];
        size_t n_got = 0;

        jsonx_parser_feed(p, stream_text, split);
        assert_int_equal(drain(p, got, &n_got, ARRAY_SIZE(got)), EAGAIN);
        jsonx_parser_feed(p, stream_text + split, len - split);
        assert_int_equal(drain(p, got, &n_got, ARRAY_SIZE(got)), EAGAIN);
        assert_true(jsonx_parser_is_idle(p));
        jsonx_parser_finish(p);
        assert_int_equal(drain(p, got, &n_got, ARRAY_SIZE(got)), EOF);
        check_stream_values(got, n_got);
        jsonx_parser_destroy(p);
    }
}

/* Feeds 'stream_text' one byte at a time, and all at once. */
static void
test_parser_bytewise_and_whole(void **state DPS_UNUSED)
{
    size_t len = strlen(stream_text);
    struct jsonx_parser *p;
    char *got[16];
    size_t n_got;

    p = jsonx_parser_create(0, 0);
    n_got = 0;
    for (size_t i = 0; i < len; i++) {
        jsonx_parser_feed(p, &stream_text[i], 1);
        assert_int_equal(drain(p, got, &n_got, ARRAY_SIZE(got)), EAGAIN);
    }
    jsonx_parser_finish(p);
    assert_int_equal(drain(p, got, &n_got, ARRAY_SIZE(got)), EOF);
    check_stream_values(got, n_got);
    jsonx_parser_destroy(p);

    p = jsonx_parser_create(0, 0);
    n_got = 0;
    jsonx_parser_feed(p, stream_text, len);
    assert_int_equal(drain(p, got, &n_got, ARRAY_SIZE(got)), EAGAIN);
    assert_int_equal(jsonx_parser_get_buffered(p), 0);
    check_stream_values(got, n_got);
    /* After EOF, further feeding is ignored. */
    jsonx_parser_finish(p);
    jsonx_parser_feed(p, "[1]", 3);
    assert_int_equal(drain(p, got, &n_got, ARRAY_SIZE(got)), EOF);
    jsonx_parser_destroy(p);
}

/* A number at the top level ends at a delimiter or at the end of input. */
static void
test_parser_bare_scalars(void **state DPS_UNUSED)
{
    struct jsonx_parser *p = jsonx_parser_create(0, 0);
    json_t *json;

    jsonx_parser_feed(p, "12", 2);
    assert_int_equal(jsonx_parser_next(p, &json), EAGAIN);
    jsonx_parser_feed(p, "3 true", 6);
    assert_int_equal(jsonx_parser_next(p, &json), 0);
    assert_int_equal(json_integer_value(json), 123);
    json_decref(json);
    assert_int_equal(jsonx_parser_next(p, &json), EAGAIN);
    assert_false(jsonx_parser_is_idle(p));
    jsonx_parser_finish(p);
    assert_int_equal(jsonx_parser_next(p, &json), 0);
    assert_true(json_is_true(json));
    json_decref(json);
    assert_int_equal(jsonx_parser_next(p, &json), EOF);
    jsonx_parser_destroy(p);
}

/* Feeds 'input' (of 'size' bytes) in one piece after a good value, then
 * finishes if 'finish', and checks that the parser yields the good value
 * and then fails with 'error' and a message containing 'message'. */
static void
check_parser_error(const char *input, size_t size, bool finish,
                   size_t max_size, int max_depth,
                   int error, const char *message)
{
    struct jsonx_parser *p = jsonx_parser_create(max_size, max_depth);
    json_t *json;

    jsonx_parser_feed(p, "[\"ok\"] ", 7);
    jsonx_parser_feed(p, input, size);
    if (finish) {
        jsonx_parser_finish(p);
    }
    assert_int_equal(jsonx_parser_next(p, &json), 0);
    json_decref(json);
    assert_null(jsonx_parser_get_error(p));

    assert_int_equal(jsonx_parser_next(p, &json), error);
    assert_null(json);
    if (!strstr(jsonx_parser_get_error(p), message)) {
        fail_msg("error \"%s\" lacks \"%s\"", jsonx_parser_get_error(p),
                 message);
    }

    /* Errors are sticky, and further input is ignored. */
    jsonx_parser_feed(p, "[1]", 3);
    assert_int_equal(jsonx_parser_next(p, &json), error);
    assert_null(json);
    jsonx_parser_destroy(p);
}

static void
test_parser_garbage(void **state DPS_UNUSED)
{
    check_parser_error("x[1]", 4, false, 0, 0, EPROTO,
                       "'x' (0x78) where a value should start");
    check_parser_error("\x01", 1, false, 0, 0, EPROTO, "(0x01)");
    check_parser_error("}", 1, false, 0, 0, EPROTO, "unexpected '}'");
    check_parser_error("[1,,2]", 6, false, 0, 0, EPROTO, "syntax error");
    check_parser_error("{\"a\" 1}", 7, false, 0, 0, EPROTO, "syntax error");
    check_parser_error("[1}", 3, false, 0, 0, EPROTO, "syntax error");
    check_parser_error("trueish ", 8, false, 0, 0, EPROTO, "syntax error");
    check_parser_error("[\"\\q\"]", 6, false, 0, 0, EPROTO, "syntax error");
    check_parser_error("[\"\\ud800\"]", 10, false, 0, 0, EPROTO,
                       "syntax error");
    /* A NUL byte outside a string. */
    check_parser_error("[1,\0]", 5, false, 0, 0, EPROTO, "syntax error");
}

static void
test_parser_truncated(void **state DPS_UNUSED)
{
    static const char *const truncated[] = {
        "{", "[1,2", "{\"a\":\"b", "\"abc", "[\"\\", "{\"a\":[{}]",
    };

    for (size_t i = 0; i < ARRAY_SIZE(truncated); i++) {
        check_parser_error(truncated[i], strlen(truncated[i]), true, 0, 0,
                           EPROTO, "truncated");
    }
    /* Without the end of input, the same text just waits. */
    struct jsonx_parser *p = jsonx_parser_create(0, 0);
    json_t *json;

    jsonx_parser_feed(p, "{\"a\":", 5);
    assert_int_equal(jsonx_parser_next(p, &json), EAGAIN);
    assert_false(jsonx_parser_is_idle(p));
    jsonx_parser_destroy(p);
}

static void
test_parser_invalid_utf8(void **state DPS_UNUSED)
{
    static const char *const bad[] = {
        "[\"\xff\"]",                   /* Never valid. */
        "[\"\xc3\"]",                   /* Missing continuation. */
        "[\"\xc0\xaf\"]",               /* Overlong '/'. */
        "[\"\xed\xa0\x80\"]",           /* Surrogate. */
        "[\"\xf4\x90\x80\x80\"]",       /* Above U+10FFFF. */
        "{\"\xfe\":1}",                 /* In a key. */
    };

    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        check_parser_error(bad[i], strlen(bad[i]), false, 0, 0, EPROTO,
                           "invalid UTF-8");
    }
}

static void
test_parser_depth(void **state DPS_UNUSED)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    struct jsonx_parser *p;
    json_t *json;

    /* Exactly at the limit: accepted. */
    ds_put_char_multiple(&ds, '[', 10);
    ds_put_char_multiple(&ds, ']', 10);
    p = jsonx_parser_create(0, 10);
    jsonx_parser_feed(p, ds_cstr(&ds), ds.length);
    assert_int_equal(jsonx_parser_next(p, &json), 0);
    json_decref(json);
    jsonx_parser_destroy(p);

    /* One deeper: rejected as soon as the opening bracket arrives, without
     * waiting for the rest. */
    check_parser_error("[{\"a\":[[[[[[[[[", 15, false, 0, 10, EPROTO,
                       "deeper than 10 levels");

    /* The default limit stops a stream of brackets. */
    ds_clear(&ds);
    ds_put_char_multiple(&ds, '[', 100000);
    check_parser_error(ds_cstr(&ds), ds.length, false, 0, 0, EPROTO,
                       "deeper than 1000 levels");
    ds_destroy(&ds);
}

static void
test_parser_oversized(void **state DPS_UNUSED)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    struct jsonx_parser *p;
    json_t *json;

    /* 100 bytes exactly: accepted. */
    ds_put_cstr(&ds, "[\"");
    ds_put_char_multiple(&ds, 'a', 96);
    ds_put_cstr(&ds, "\"]");
    assert_int_equal(ds.length, 100);
    p = jsonx_parser_create(100, 0);
    jsonx_parser_feed(p, "   ", 3);   /* Leading whitespace is free. */
    jsonx_parser_feed(p, ds_cstr(&ds), ds.length);
    assert_int_equal(jsonx_parser_next(p, &json), 0);
    json_decref(json);
    jsonx_parser_destroy(p);

    /* 101 bytes, complete: rejected. */
    ds_truncate(&ds, 98);
    ds_put_cstr(&ds, "a\"]");
    check_parser_error(ds_cstr(&ds), ds.length, false, 100, 0, EMSGSIZE,
                       "longer than 100 bytes");

    /* An endless string is rejected once it passes the limit, without
     * waiting for its end. */
    p = jsonx_parser_create(100, 0);
    jsonx_parser_feed(p, "[\"", 2);
    for (int i = 0; i < 98; i++) {
        assert_int_equal(jsonx_parser_next(p, &json), EAGAIN);
        jsonx_parser_feed(p, "a", 1);
    }
    assert_int_equal(jsonx_parser_next(p, &json), EAGAIN);
    jsonx_parser_feed(p, "a", 1);
    assert_int_equal(jsonx_parser_next(p, &json), EMSGSIZE);
    assert_non_null(strstr(jsonx_parser_get_error(p), "oversized"));
    jsonx_parser_destroy(p);

    /* The limit can change on the way. */
    p = jsonx_parser_create(100, 0);
    jsonx_parser_set_max_size(p, 10);
    jsonx_parser_feed(p, "[1,2,3,4,5,6]", 13);
    assert_int_equal(jsonx_parser_next(p, &json), EMSGSIZE);
    jsonx_parser_destroy(p);
    ds_destroy(&ds);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compact),
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_pretty),
        cmocka_unit_test(test_to_ds_appends),
        cmocka_unit_test(test_builders),
        cmocka_unit_test(test_from_string_errors),
        cmocka_unit_test(test_parser_split_everywhere),
        cmocka_unit_test(test_parser_bytewise_and_whole),
        cmocka_unit_test(test_parser_bare_scalars),
        cmocka_unit_test(test_parser_garbage),
        cmocka_unit_test(test_parser_truncated),
        cmocka_unit_test(test_parser_invalid_utf8),
        cmocka_unit_test(test_parser_depth),
        cmocka_unit_test(test_parser_oversized),
    };

    return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
