/* Unit tests for lib/dynamic-string.c.
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
#include "util.h"

static void
test_empty(void **state DPS_UNUSED)
{
    struct ds ds = DS_EMPTY_INITIALIZER;

    assert_string_equal(ds_cstr_ro(&ds), "");
    assert_string_equal(ds_cstr(&ds), "");
    assert_int_equal(ds.length, 0);
    ds_destroy(&ds);
}

static void
test_put_and_grow(void **state DPS_UNUSED)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    char expected[10001];

    for (int i = 0; i < 10000; i++) {
        ds_put_char(&ds, 'a' + i % 26);
        expected[i] = 'a' + i % 26;
    }
    expected[10000] = '\0';
    assert_int_equal(ds.length, 10000);
    assert_string_equal(ds_cstr(&ds), expected);

    ds_clear(&ds);
    ds_put_cstr(&ds, "abc");
    ds_put_buffer(&ds, "defgh", 2);
    ds_put_char_multiple(&ds, '-', 3);
    assert_string_equal(ds_cstr(&ds), "abcde---");
    ds_truncate(&ds, 2);
    assert_string_equal(ds_cstr(&ds), "ab");
    ds_truncate(&ds, 50);
    assert_string_equal(ds_cstr(&ds), "ab");
    ds_destroy(&ds);
}

static void
test_format(void **state DPS_UNUSED)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    char big[5000];

    ds_put_format(&ds, "%d:%s", 12, "x");
    assert_string_equal(ds_cstr(&ds), "12:x");

    memset(big, 'q', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    ds_put_format(&ds, "[%s]", big);
    assert_int_equal(ds.length, 4 + 2 + sizeof big - 1);
    assert_int_equal(ds.string[4], '[');
    assert_int_equal(ds.string[ds.length - 1], ']');
    assert_int_equal(strlen(ds.string), ds.length);
    ds_destroy(&ds);
}

static void
test_hex_chomp_steal_swap(void **state DPS_UNUSED)
{
    struct ds a = DS_EMPTY_INITIALIZER;
    struct ds b = DS_EMPTY_INITIALIZER;
    const unsigned char bytes[] = { 0x00, 0xab, 0x7f, 0xff };
    char *s;

    ds_put_hex(&a, bytes, sizeof bytes);
    assert_string_equal(ds_cstr(&a), "00ab7fff");

    ds_put_cstr(&b, "line\n\n\n");
    ds_chomp(&b, '\n');
    assert_string_equal(ds_cstr(&b), "line");

    ds_swap(&a, &b);
    assert_string_equal(ds_cstr(&a), "line");
    assert_string_equal(ds_cstr(&b), "00ab7fff");

    s = ds_steal_cstr(&a);
    assert_string_equal(s, "line");
    assert_int_equal(a.length, 0);
    assert_null(a.string);
    free(s);
    ds_destroy(&b);
}

static void
test_strftime(void **state DPS_UNUSED)
{
    struct ds ds = DS_EMPTY_INITIALIZER;

    /* 2026-11-30T09:05:42.123Z */
    ds_put_strftime(&ds, "%Y-%m-%dT%H:%M:%S.###Z", 1796029542123LL, true);
    assert_string_equal(ds_cstr(&ds), "2026-11-30T09:05:42.123Z");
    ds_clear(&ds);
    ds_put_strftime(&ds, "%H:%M:%S.##", 7LL, true);
    assert_string_equal(ds_cstr(&ds), "00:00:00.00");
    ds_destroy(&ds);
}

static void
test_get_line(void **state DPS_UNUSED)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    FILE *f = tmpfile();

    assert_non_null(f);
    fputs("first\nsecond\nlast", f);
    rewind(f);
    assert_int_equal(ds_get_line(&ds, f), 0);
    assert_string_equal(ds_cstr(&ds), "first");
    assert_int_equal(ds_get_line(&ds, f), 0);
    assert_string_equal(ds_cstr(&ds), "second");
    assert_int_equal(ds_get_line(&ds, f), 0);
    assert_string_equal(ds_cstr(&ds), "last");
    assert_int_equal(ds_get_line(&ds, f), EOF);
    fclose(f);
    ds_destroy(&ds);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_put_and_grow),
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_hex_chomp_steal_swap),
        cmocka_unit_test(test_strftime),
        cmocka_unit_test(test_get_line),
    };
    return cmocka_run_group_tests_name("dynamic-string", tests, NULL, NULL);
}
