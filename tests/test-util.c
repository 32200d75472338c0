/* Unit tests for lib/util.c.
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
#include "util.h"

static void
test_str_to_int(void **state DPS_UNUSED)
{
    int i;

    assert_true(util_str_to_int("42", 10, &i));
    assert_int_equal(i, 42);
    assert_true(util_str_to_int("-7", 10, &i));
    assert_int_equal(i, -7);
    assert_true(util_str_to_int("0x1f", 16, &i));
    assert_int_equal(i, 31);
    assert_true(util_str_to_int("0x1f", 0, &i));
    assert_int_equal(i, 31);

    assert_false(util_str_to_int("", 10, &i));
    assert_false(util_str_to_int("12a", 10, &i));
    assert_int_equal(i, 0);
    assert_false(util_str_to_int("a12", 10, &i));
    assert_false(util_str_to_int("99999999999", 10, &i));
    assert_false(util_str_to_int("-99999999999", 10, &i));
}

static void
test_str_to_uint(void **state DPS_UNUSED)
{
    unsigned int u;

    assert_true(util_str_to_uint("4294967295", 10, &u));
    assert_int_equal(u, 4294967295u);
    assert_false(util_str_to_uint("4294967296", 10, &u));
    assert_false(util_str_to_uint("-1", 10, &u));
    assert_int_equal(u, 0);
}

static void
test_str_to_llong_and_double(void **state DPS_UNUSED)
{
    long long ll;
    double d;

    assert_true(util_str_to_llong("-9223372036854775808", 10, &ll));
    assert_true(ll < 0);
    assert_false(util_str_to_llong("9223372036854775808", 10, &ll));
    assert_true(util_str_to_double("1.5e3", &d));
    assert_true(d == 1500.0);
    assert_false(util_str_to_double("1.5x", &d));
    assert_false(util_str_to_double("", &d));
}

static void
test_prefix_suffix_base(void **state DPS_UNUSED)
{
    assert_true(util_str_has_prefix("ptcp:6640", "ptcp:"));
    assert_false(util_str_has_prefix("tcp:6640", "ptcp:"));
    assert_true(util_str_has_prefix("x", ""));
    assert_true(util_str_has_suffix("ovsdb-server.pid", ".pid"));
    assert_false(util_str_has_suffix("d", ".pid"));
    assert_string_equal(util_base_name("/usr/sbin/ovsdb-server"),
                        "ovsdb-server");
    assert_string_equal(util_base_name("ovs-appctl"), "ovs-appctl");
    assert_string_equal(util_base_name("/dir/"), "");
}

static void
test_abs_file_name(void **state DPS_UNUSED)
{
    char *s;

    s = util_abs_file_name("/var/run", "x.pid");
    assert_string_equal(s, "/var/run/x.pid");
    free(s);
    s = util_abs_file_name("/var/run/", "x.pid");
    assert_string_equal(s, "/var/run/x.pid");
    free(s);
    s = util_abs_file_name("/var/run", "/tmp/y");
    assert_string_equal(s, "/tmp/y");
    free(s);
    s = util_abs_file_name(NULL, "rel");
    assert_non_null(s);
    assert_true(s[0] == '/');
    assert_true(util_str_has_suffix(s, "/rel"));
    free(s);
}

static void
test_program_name(void **state DPS_UNUSED)
{
    util_set_program_name("/usr/lib/x/lt-ovsdb-server");
    assert_string_equal(util_program_name(), "ovsdb-server");
    util_set_program_name("ovs-appctl");
    assert_string_equal(util_program_name(), "ovs-appctl");
}

static void
test_alloc(void **state DPS_UNUSED)
{
    char *s = xasprintf("%s-%d", "a", 7);
    char *t = xmemdup0("abcdef", 3);
    char *z = xzalloc(16);
    void *empty = xmalloc(0);

    assert_string_equal(s, "a-7");
    assert_string_equal(t, "abc");
    for (int i = 0; i < 16; i++) {
        assert_int_equal(z[i], 0);
    }
    assert_non_null(empty);
    free(s);
    free(t);
    free(z);
    free(empty);
}

static void
test_strerror(void **state DPS_UNUSED)
{
    assert_string_equal(util_strerror(EOF), "End of file");
    assert_string_equal(util_strerror(ENOENT), strerror(ENOENT));
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_str_to_int),
        cmocka_unit_test(test_str_to_uint),
        cmocka_unit_test(test_str_to_llong_and_double),
        cmocka_unit_test(test_prefix_suffix_base),
        cmocka_unit_test(test_abs_file_name),
        cmocka_unit_test(test_program_name),
        cmocka_unit_test(test_alloc),
        cmocka_unit_test(test_strerror),
    };
    return cmocka_run_group_tests_name("util", tests, NULL, NULL);
}
