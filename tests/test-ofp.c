/* Unit tests for lib/ofpbuf.c and the action list of lib/ofp-actions.c.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "ofp-actions.h"
#include "ofpbuf.h"
#include "util.h"

static void
test_ofpbuf_grow_and_pull(void **state DPS_UNUSED)
{
    struct ofpbuf b;

    ofpbuf_init(&b, 0);
    b.header = ofpbuf_put_zeros(&b, 8);
    for (int i = 0; i < 1000; i++) {
        uint8_t byte = i;
        ofpbuf_put(&b, &byte, 1);
    }
    assert_int_equal(b.size, 1008);
    assert_ptr_equal(b.header, b.data);
    assert_int_equal(ofpbuf_header_size(&b), 1008);

    assert_null(ofpbuf_at(&b, 1000, 9));
    assert_non_null(ofpbuf_at(&b, 1000, 8));
    ofpbuf_pull(&b, 8);
    assert_int_equal(((uint8_t *) b.data)[5], 5);
    assert_null(ofpbuf_try_pull(&b, 1001));
    assert_int_equal(b.size, 1000);
    ofpbuf_uninit(&b);
}

static void
test_ofpbuf_hex(void **state DPS_UNUSED)
{
    struct ofpbuf b;
    const char *end;

    ofpbuf_init(&b, 0);
    ofpbuf_put_hex(&b, "01 00 00.08 0000 0001x", &end);
    assert_int_equal(b.size, 8);
    assert_memory_equal(b.data, "\x01\x00\x00\x08\x00\x00\x00\x01", 8);
    assert_string_equal(end, "x");
    ofpbuf_uninit(&b);
}

static void
test_ofpact_list(void **state DPS_UNUSED)
{
    struct ofpbuf ofpacts;

    ofpbuf_init(&ofpacts, 0);
    ofpact_put_OUTPUT(&ofpacts)->port = 5;
    ofpact_put_STRIP_VLAN(&ofpacts);

    struct ofpact_note *note = ofpact_put_NOTE(&ofpacts);
    ofpbuf_put(&ofpacts, "abc", 3);
    note = ofpacts.header;
    note->length = 3;
    note = ofpact_finish(&ofpacts, &note->ofpact);

    struct ofpact_nest *on = ofpact_put_WRITE_ACTIONS(&ofpacts);
    size_t start = ofpacts.size;
    ofpact_put_OUTPUT(&ofpacts)->port = OFPP_CONTROLLER;
    ofpact_put_GROUP(&ofpacts)->group_id = 7;
    on = (struct ofpact_nest *) ((char *) ofpacts.data + start
                                 - offsetof(struct ofpact_nest, actions));
    ofpacts.header = on;
    ofpact_finish(&ofpacts, &on->ofpact);
    ofpact_put_GOTO_TABLE(&ofpacts)->table_id = 3;

    enum ofpact_type expected[] = {
        OFPACT_OUTPUT, OFPACT_STRIP_VLAN, OFPACT_NOTE, OFPACT_WRITE_ACTIONS,
        OFPACT_GOTO_TABLE,
    };
    const struct ofpact *a;
    size_t n = 0;
    OFPACT_FOR_EACH (a, ofpacts.data, ofpacts.size) {
        assert_true(n < ARRAY_SIZE(expected));
        assert_int_equal(a->type, expected[n]);
        assert_int_equal(((char *) a - (char *) ofpacts.data)
                         & (OFPACT_ALIGNTO - 1), 0);
        n++;
    }
    assert_int_equal(n, ARRAY_SIZE(expected));
    assert_int_equal(ofpacts.size % OFPACT_ALIGNTO, 0);

    assert_true(ofpacts_output_to_port(ofpacts.data, ofpacts.size, 5));
    assert_true(ofpacts_output_to_port(ofpacts.data, ofpacts.size,
                                       OFPP_CONTROLLER));
    assert_false(ofpacts_output_to_port(ofpacts.data, ofpacts.size, 6));
    assert_true(ofpacts_output_to_group(ofpacts.data, ofpacts.size, 7));
    assert_false(ofpacts_output_to_group(ofpacts.data, ofpacts.size, 8));
    assert_true(ofpact_is_instruction(OFPACT_GOTO_TABLE));
    assert_string_equal(ofpact_name(OFPACT_STRIP_VLAN), "strip_vlan");

    struct ofpbuf *copy = ofpbuf_clone(&ofpacts);
    assert_true(ofpacts_equal(ofpacts.data, ofpacts.size,
                              copy->data, copy->size));
    ofpbuf_delete(copy);
    ofpbuf_uninit(&ofpacts);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ofpbuf_grow_and_pull),
        cmocka_unit_test(test_ofpbuf_hex),
        cmocka_unit_test(test_ofpact_list),
    };
    return cmocka_run_group_tests_name("ofp", tests, NULL, NULL);
}
