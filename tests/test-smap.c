/* Unit tests for lib/smap.c: every function, key order, replacement,
 * removal, typed getters and the strict parsers' error messages.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "smap.h"
#include "util.h"

/* Returns "k=v, k=v" for 'smap' (static buffer). */
static const char *
fmt(const struct smap *smap)
{
    static char buf[1024];
    struct ds ds = DS_EMPTY_INITIALIZER;

    smap_format(smap, &ds);
    snprintf(buf, sizeof buf, "%s", ds_cstr(&ds));
    ds_destroy(&ds);
    return buf;
}

static void
test_add_get_order(void **state DPS_UNUSED)
{
    struct smap smap = SMAP_INITIALIZER;
    const struct smap_node *node;
    size_t n = 0;

    assert_true(smap_is_empty(&smap));
    assert_int_equal(smap_count(&smap), 0);
    assert_null(smap_get(&smap, "a"));
    SMAP_FOR_EACH (node, &smap) {   /* No array yet: no iteration. */
        fail();
    }
    assert_string_equal(fmt(&smap), "");

    smap_add(&smap, "m", "1");
    smap_add(&smap, "b", "2");
    smap_add(&smap, "z", "3");
    smap_add(&smap, "a", "4");
    smap_add_format(&smap, "k", "%d-%s", 42, "x");
    assert_int_equal(smap_count(&smap), 5);
    assert_false(smap_is_empty(&smap));
    assert_string_equal(fmt(&smap), "a=4, b=2, k=42-x, m=1, z=3");

    /* Adding a key that is present replaces its value. */
    smap_add(&smap, "m", "one");
    smap_add_format(&smap, "a", "%s", "four");
    assert_int_equal(smap_count(&smap), 5);
    assert_string_equal(smap_get(&smap, "m"), "one");
    assert_string_equal(smap_get(&smap, "a"), "four");

    /* Iteration is in key order. */
    const char *prev = "";
    SMAP_FOR_EACH (node, &smap) {
        assert_true(strcmp(prev, node->key) < 0);
        prev = node->key;
        n++;
    }
    assert_int_equal(n, 5);

    assert_true(smap_contains(&smap, "z"));
    assert_false(smap_contains(&smap, "y"));
    assert_false(smap_contains(&smap, ""));
    assert_string_equal(smap_get_def(&smap, "y", "dflt"), "dflt");
    assert_string_equal(smap_get_def(&smap, "z", "dflt"), "3");
    assert_null(smap_get_def(&smap, "y", NULL));

    /* Many keys: growth keeps order and lookups. */
    for (int i = 0; i < 200; i++) {
        char key[16];

        snprintf(key, sizeof key, "key%03d", (i * 37) % 200);
        smap_add_format(&smap, key, "%d", (i * 37) % 200);
    }
    assert_int_equal(smap_count(&smap), 205);
    for (int i = 0; i < 200; i++) {
        char key[16], value[16];

        snprintf(key, sizeof key, "key%03d", i);
        snprintf(value, sizeof value, "%d", i);
        assert_string_equal(smap_get(&smap, key), value);
    }
    smap_destroy(&smap);
    assert_true(smap_is_empty(&smap));
    smap_destroy(&smap);        /* Twice is fine. */
    smap_destroy(NULL);
}

static void
test_remove_clear(void **state DPS_UNUSED)
{
    struct smap smap;

    smap_init(&smap);
    smap_add(&smap, "a", "1");
    smap_add(&smap, "b", "2");
    smap_add(&smap, "c", "3");
    assert_false(smap_remove(&smap, "x"));
    assert_true(smap_remove(&smap, "b"));
    assert_false(smap_remove(&smap, "b"));
    assert_string_equal(fmt(&smap), "a=1, c=3");
    assert_true(smap_remove(&smap, "c"));
    assert_true(smap_remove(&smap, "a"));
    assert_true(smap_is_empty(&smap));
    smap_add(&smap, "d", "4");
    assert_string_equal(fmt(&smap), "d=4");

    smap_clear(&smap);
    assert_true(smap_is_empty(&smap));
    assert_null(smap_get(&smap, "d"));
    smap_add(&smap, "e", "5");          /* Usable after clear. */
    assert_string_equal(fmt(&smap), "e=5");
    smap_destroy(&smap);
}

static void
test_clone_swap_equal(void **state DPS_UNUSED)
{
    struct smap a = SMAP_INITIALIZER, b = SMAP_INITIALIZER, c, e;

    smap_add(&a, "x", "1");
    smap_add(&a, "y", "2");
    smap_clone(&c, &a);
    assert_true(smap_equal(&a, &c));
    assert_string_equal(fmt(&c), "x=1, y=2");

    /* Independent copies. */
    smap_add(&c, "x", "9");
    assert_string_equal(smap_get(&a, "x"), "1");
    assert_false(smap_equal(&a, &c));
    smap_add(&c, "x", "1");
    assert_true(smap_equal(&a, &c));
    smap_add(&c, "z", "3");
    assert_false(smap_equal(&a, &c));
    assert_false(smap_equal(&c, &a));
    smap_remove(&c, "z");
    smap_remove(&c, "y");
    smap_add(&c, "w", "2");             /* Same count, other key. */
    assert_false(smap_equal(&a, &c));

    smap_init(&e);
    smap_clone(&b, &e);                 /* Cloning an empty map. */
    assert_true(smap_is_empty(&b));
    assert_true(smap_equal(&b, &e));
    assert_false(smap_equal(&a, &b));

    smap_swap(&a, &b);
    assert_true(smap_is_empty(&a));
    assert_string_equal(fmt(&b), "x=1, y=2");

    smap_destroy(&a);
    smap_destroy(&b);
    smap_destroy(&c);
    smap_destroy(&e);
}

static void
test_typed_getters(void **state DPS_UNUSED)
{
    struct smap smap = SMAP_INITIALIZER;

    smap_add(&smap, "t", "true");
    smap_add(&smap, "T", "TRUE");
    smap_add(&smap, "f", "false");
    smap_add(&smap, "junk", "maybe");
    smap_add(&smap, "i", "-42");
    smap_add(&smap, "big", "99999999999");
    smap_add(&smap, "hexish", "0x10");
    smap_add(&smap, "octish", "010");
    smap_add(&smap, "space", " 5");
    smap_add(&smap, "trail", "5 ");
    smap_add(&smap, "empty", "");
    smap_add(&smap, "u", "18446744073709551615");
    smap_add(&smap, "neg", "-1");

    assert_true(smap_get_bool(&smap, "t", false));
    assert_true(smap_get_bool(&smap, "T", false));
    assert_false(smap_get_bool(&smap, "f", true));
    assert_false(smap_get_bool(&smap, "junk", false));
    assert_true(smap_get_bool(&smap, "junk", true));
    assert_true(smap_get_bool(&smap, "absent", true));
    assert_false(smap_get_bool(&smap, "absent", false));

    assert_int_equal(smap_get_int(&smap, "i", 7), -42);
    assert_int_equal(smap_get_int(&smap, "big", 7), 7);
    assert_int_equal(smap_get_int(&smap, "junk", 7), 7);
    assert_int_equal(smap_get_int(&smap, "absent", 7), 7);
    assert_int_equal(smap_get_int(&smap, "empty", 7), 7);
    assert_int_equal(smap_get_int(&smap, "space", 7), 7);
    assert_int_equal(smap_get_int(&smap, "trail", 7), 7);
    /* Decimal only, as in Open vSwitch: "010" is ten, "0x10" is junk. */
    assert_int_equal(smap_get_int(&smap, "octish", 7), 10);
    assert_int_equal(smap_get_int(&smap, "hexish", 7), 7);

    assert_true(smap_get_ullong(&smap, "u", 1) == ULLONG_MAX);
    assert_true(smap_get_ullong(&smap, "big", 1) == 99999999999ULL);
    assert_true(smap_get_ullong(&smap, "neg", 1) == 1);
    assert_true(smap_get_ullong(&smap, "i", 1) == 1);
    assert_true(smap_get_ullong(&smap, "junk", 1) == 1);
    assert_true(smap_get_ullong(&smap, "empty", 1) == 1);
    assert_true(smap_get_ullong(&smap, "space", 1) == 1);
    assert_true(smap_get_ullong(&smap, "absent", 3) == 3);
    assert_true(smap_get_ullong(&smap, "octish", 1) == 10);
    smap_destroy(&smap);

    /* One past the largest value is an error, not a wrap. */
    smap_add(&smap, "u", "18446744073709551616");
    assert_true(smap_get_ullong(&smap, "u", 1) == 1);
    smap_destroy(&smap);
}

static void
test_parse_bool(void **state DPS_UNUSED)
{
    struct smap smap = SMAP_INITIALIZER;
    bool value;
    char *error;

    smap_add(&smap, "t", "true");
    smap_add(&smap, "f", "false");
    smap_add(&smap, "bad", "yes");
    smap_add(&smap, "upper", "TRUE");

    value = false;
    assert_null(smap_parse_bool(&smap, "t", &value));
    assert_true(value);
    assert_null(smap_parse_bool(&smap, "f", &value));
    assert_false(value);

    /* Absent: no error, value untouched. */
    value = true;
    assert_null(smap_parse_bool(&smap, "absent", &value));
    assert_true(value);

    error = smap_parse_bool(&smap, "bad", &value);
    assert_non_null(error);
    assert_string_equal(error, "bad: \"yes\" is not \"true\" or \"false\"");
    assert_true(value);
    free(error);
    error = smap_parse_bool(&smap, "upper", &value);
    assert_non_null(error);
    free(error);
    smap_destroy(&smap);
}

static void
test_parse_int(void **state DPS_UNUSED)
{
    struct smap smap = SMAP_INITIALIZER;
    long long int value;
    char *error;

    smap_add(&smap, "ok", "17");
    smap_add(&smap, "neg", "-3");
    smap_add(&smap, "word", "seven");
    smap_add(&smap, "trail", "7x");
    smap_add(&smap, "empty", "");
    smap_add(&smap, "space", " 7");
    smap_add(&smap, "huge", "99999999999999999999");
    smap_add(&smap, "hex", "0x1f");
    smap_add(&smap, "lead0", "08");

    value = 0;
    assert_null(smap_parse_int(&smap, "ok", 1, 100, &value));
    assert_int_equal(value, 17);
    assert_null(smap_parse_int(&smap, "neg", -10, 10, &value));
    assert_int_equal(value, -3);
    assert_null(smap_parse_int(&smap, "lead0", 0, 10, &value));
    assert_int_equal(value, 8);

    /* Bounds are inclusive. */
    assert_null(smap_parse_int(&smap, "ok", 17, 17, &value));
    assert_int_equal(value, 17);

    value = 5;
    assert_null(smap_parse_int(&smap, "absent", 0, 10, &value));
    assert_int_equal(value, 5);

    static const struct {
        const char *key;
        long long int min, max;
        const char *message;
    } errors[] = {
        { "ok", 18, 100, "ok: 17 is out of range 18 to 100" },
        { "ok", 1, 16, "ok: 17 is out of range 1 to 16" },
        { "neg", 0, 10, "neg: -3 is out of range 0 to 10" },
        { "word", 0, 10, "word: \"seven\" is not an integer" },
        { "trail", 0, 10, "trail: \"7x\" is not an integer" },
        { "empty", 0, 10, "empty: \"\" is not an integer" },
        { "space", 0, 10, "space: \" 7\" is not an integer" },
        { "hex", 0, 100, "hex: \"0x1f\" is not an integer" },
        { "huge", 0, LLONG_MAX,
          "huge: 99999999999999999999 is out of range 0 to "
          "9223372036854775807" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(errors); i++) {
        value = 5;
        error = smap_parse_int(&smap, errors[i].key, errors[i].min,
                               errors[i].max, &value);
        assert_non_null(error);
        assert_string_equal(error, errors[i].message);
        assert_int_equal(value, 5);
        free(error);
    }
    smap_destroy(&smap);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_get_order),
        cmocka_unit_test(test_remove_clear),
        cmocka_unit_test(test_clone_swap_equal),
        cmocka_unit_test(test_typed_getters),
        cmocka_unit_test(test_parse_bool),
        cmocka_unit_test(test_parse_int),
    };

    util_set_program_name("test-smap");
    return cmocka_run_group_tests(tests, NULL, NULL);
}
