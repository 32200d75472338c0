/* Unit tests for ofproto/mac-learning.c, with a fake clock.
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
#include <stdlib.h>
#include <string.h>
#include "ofproto/mac-learning.h"
#include "util.h"

#define SEC 1000LL

static struct eth_addr
mac(uint32_t n)
{
    struct eth_addr ea = { { 0x50, 0x54, 0x00, (n >> 16) & 0xff,
                             (n >> 8) & 0xff, n & 0xff } };
    return ea;
}

/* Records change callbacks. */
struct changes {
    int n;
    enum mac_learning_change last;
    uint16_t vlan;
    struct eth_addr mac;
    uint32_t old_port;
    uint32_t new_port;
};

static void
record_change(void *aux, enum mac_learning_change why, uint16_t vlan,
              const struct eth_addr *ea, uint32_t old_port, uint32_t new_port)
{
    struct changes *c = aux;

    c->n++;
    c->last = why;
    c->vlan = vlan;
    c->mac = *ea;
    c->old_port = old_port;
    c->new_port = new_port;
}

static void
test_defaults_and_ranges(void **state DPS_UNUSED)
{
    struct mac_learning *ml = mac_learning_create(0, 0);

    assert_int_equal(mac_learning_get_idle_time(ml), 300);
    assert_int_equal(mac_learning_get_max_entries(ml), 8192);
    mac_learning_set_idle_time(ml, 1);
    assert_int_equal(mac_learning_get_idle_time(ml), 15);
    mac_learning_set_idle_time(ml, 100000);
    assert_int_equal(mac_learning_get_idle_time(ml), 3600);
    mac_learning_set_max_entries(ml, 1);
    assert_int_equal(mac_learning_get_max_entries(ml), 10);
    mac_learning_set_max_entries(ml, 5000000);
    assert_int_equal(mac_learning_get_max_entries(ml), 1000000);
    mac_learning_set_max_entries(ml, 2048);
    assert_int_equal(mac_learning_get_max_entries(ml), 2048);
    assert_int_equal(mac_learning_count(ml), 0);
    assert_true(mac_learning_next_expiry(ml) == LLONG_MAX);
    mac_learning_destroy(ml);
    mac_learning_destroy(NULL);
}

static void
test_learn_lookup(void **state DPS_UNUSED)
{
    struct mac_learning *ml = mac_learning_create(0, 0);
    struct eth_addr a = mac(1), b = mac(2);
    struct eth_addr bcast = { { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff } };
    struct eth_addr mcast = { { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 } };
    uint64_t seqno = mac_learning_seqno(ml);

    assert_int_equal(mac_learning_lookup(ml, 0, &a), MAC_LEARNING_PORT_NONE);
    assert_int_equal(mac_learning_learn(ml, 0, &a, 1, 0), MAC_LEARNING_ADDED);
    assert_true(mac_learning_seqno(ml) > seqno);
    seqno = mac_learning_seqno(ml);
    assert_int_equal(mac_learning_lookup(ml, 0, &a), 1);

    /* The same address in another VLAN is another entry. */
    assert_int_equal(mac_learning_lookup(ml, 10, &a), MAC_LEARNING_PORT_NONE);
    assert_int_equal(mac_learning_learn(ml, 10, &a, 2, 0),
                     MAC_LEARNING_ADDED);
    assert_int_equal(mac_learning_lookup(ml, 10, &a), 2);
    assert_int_equal(mac_learning_lookup(ml, 0, &a), 1);
    seqno = mac_learning_seqno(ml);

    /* Refreshing changes nothing a flow depends on. */
    assert_int_equal(mac_learning_learn(ml, 0, &a, 1, 5 * SEC),
                     MAC_LEARNING_REFRESHED);
    assert_true(mac_learning_seqno(ml) == seqno);

    /* Multicast sources and the reserved port are never learned. */
    assert_int_equal(mac_learning_learn(ml, 0, &bcast, 1, 0),
                     MAC_LEARNING_REFUSED);
    assert_int_equal(mac_learning_learn(ml, 0, &mcast, 1, 0),
                     MAC_LEARNING_REFUSED);
    assert_int_equal(mac_learning_learn(ml, 0, &b, MAC_LEARNING_PORT_NONE, 0),
                     MAC_LEARNING_REFUSED);
    assert_int_equal(mac_learning_count(ml), 2);
    mac_learning_destroy(ml);
}

static void
test_move(void **state DPS_UNUSED)
{
    struct mac_learning *ml = mac_learning_create(0, 0);
    struct eth_addr a = mac(1);
    struct changes c = { 0 };
    struct mac_learning_stats stats;

    mac_learning_set_change_cb(ml, record_change, &c);
    assert_int_equal(mac_learning_learn(ml, 5, &a, 1, 0), MAC_LEARNING_ADDED);
    assert_int_equal(c.n, 1);
    assert_int_equal(c.last, MAC_LEARNING_CHANGE_ADDED);
    assert_int_equal(c.old_port, MAC_LEARNING_PORT_NONE);
    assert_int_equal(c.new_port, 1);

    uint64_t seqno = mac_learning_seqno(ml);
    assert_int_equal(mac_learning_learn(ml, 5, &a, 3, SEC),
                     MAC_LEARNING_MOVED);
    assert_true(mac_learning_seqno(ml) > seqno);
    assert_int_equal(mac_learning_lookup(ml, 5, &a), 3);
    assert_int_equal(c.n, 2);
    assert_int_equal(c.last, MAC_LEARNING_CHANGE_MOVED);
    assert_int_equal(c.vlan, 5);
    assert_memory_equal(&c.mac, &a, sizeof a);
    assert_int_equal(c.old_port, 1);
    assert_int_equal(c.new_port, 3);
    assert_int_equal(mac_learning_count(ml), 1);

    mac_learning_get_stats(ml, &stats);
    assert_int_equal(stats.n_learned, 1);
    assert_int_equal(stats.n_moved, 1);
    mac_learning_clear_stats(ml);
    mac_learning_get_stats(ml, &stats);
    assert_int_equal(stats.n_learned + stats.n_moved, 0);
    mac_learning_destroy(ml);
}

static void
test_aging(void **state DPS_UNUSED)
{
    struct mac_learning *ml = mac_learning_create(0, 0);
    struct eth_addr a = mac(1), b = mac(2);
    struct changes c = { 0 };
    struct mac_learning_entry *entries;
    struct mac_learning_stats stats;

    mac_learning_set_change_cb(ml, record_change, &c);
    mac_learning_learn(ml, 0, &a, 1, 0);
    mac_learning_learn(ml, 0, &b, 2, 100 * SEC);
    assert_true(mac_learning_next_expiry(ml) == 300 * SEC);

    /* Ages are whole seconds since the entry was last seen. */
    assert_int_equal(mac_learning_get_entries(ml, 250 * SEC + 999, &entries),
                     2);
    assert_memory_equal(&entries[0].mac, &a, sizeof a);
    assert_int_equal(entries[0].age, 250);
    assert_memory_equal(&entries[1].mac, &b, sizeof b);
    assert_int_equal(entries[1].age, 150);
    free(entries);

    /* Not yet... */
    assert_int_equal(mac_learning_run(ml, 300 * SEC - 1), 0);
    assert_int_equal(mac_learning_lookup(ml, 0, &a), 1);

    /* ...now, and nothing expires without mac_learning_run(). */
    assert_int_equal(mac_learning_lookup(ml, 0, &a), 1);
    assert_int_equal(mac_learning_run(ml, 300 * SEC), 1);
    assert_int_equal(mac_learning_lookup(ml, 0, &a), MAC_LEARNING_PORT_NONE);
    assert_int_equal(c.last, MAC_LEARNING_CHANGE_EXPIRED);
    assert_int_equal(c.old_port, 1);

    /* Traffic from an address keeps it alive. */
    mac_learning_learn(ml, 0, &b, 2, 350 * SEC);
    assert_int_equal(mac_learning_run(ml, 400 * SEC), 0);
    assert_true(mac_learning_next_expiry(ml) == 650 * SEC);
    assert_int_equal(mac_learning_run(ml, 650 * SEC), 1);
    assert_int_equal(mac_learning_count(ml), 0);
    mac_learning_get_stats(ml, &stats);
    assert_int_equal(stats.n_expired, 2);

    /* Ages count whole seconds, each time truncated first. */
    mac_learning_learn(ml, 0, &a, 1, 900 * SEC + 900);
    assert_int_equal(mac_learning_get_entries(ml, 901 * SEC + 100,
                                              &entries), 1);
    assert_int_equal(entries[0].age, 1);
    free(entries);
    assert_true(mac_learning_next_expiry(ml) == 1200 * SEC);
    assert_int_equal(mac_learning_run(ml, 1200 * SEC - 1), 0);
    assert_int_equal(mac_learning_run(ml, 1200 * SEC), 1);

    /* A shorter aging time applies to existing entries. */
    mac_learning_learn(ml, 0, &a, 1, 2000 * SEC);
    mac_learning_set_idle_time(ml, 20);
    assert_int_equal(mac_learning_run(ml, 2019 * SEC), 0);
    assert_int_equal(mac_learning_run(ml, 2020 * SEC), 1);
    mac_learning_destroy(ml);
}

static void
test_capacity(void **state DPS_UNUSED)
{
    struct mac_learning *ml = mac_learning_create(0, 2048);
    struct changes c = { 0 };
    struct mac_learning_stats stats;

    for (uint32_t i = 0; i < 2048; i++) {
        struct eth_addr ea = mac(i);

        assert_int_equal(mac_learning_learn(ml, i % 3, &ea, 1 + i % 7,
                                            i * 10),
                         MAC_LEARNING_ADDED);
    }
    assert_int_equal(mac_learning_count(ml), 2048);

    /* Refresh the oldest: the second oldest is evicted instead. */
    struct eth_addr e0 = mac(0), e1 = mac(1), e2 = mac(2), new = mac(99999);
    mac_learning_learn(ml, 0, &e0, 1, 30000);
    mac_learning_set_change_cb(ml, record_change, &c);
    assert_int_equal(mac_learning_learn(ml, 0, &new, 4, 30001),
                     MAC_LEARNING_ADDED);
    assert_int_equal(mac_learning_count(ml), 2048);
    assert_int_equal(c.n, 2);
    assert_int_equal(mac_learning_lookup(ml, 1, &e1), MAC_LEARNING_PORT_NONE);
    assert_int_equal(mac_learning_lookup(ml, 0, &e0), 1);
    assert_int_equal(mac_learning_lookup(ml, 2, &e2), 3);
    assert_int_equal(mac_learning_lookup(ml, 0, &new), 4);
    mac_learning_get_stats(ml, &stats);
    assert_int_equal(stats.n_evicted, 1);
    assert_int_equal(stats.n_learned, 2049);

    /* Every entry is still found after the table grew. */
    for (uint32_t i = 2; i < 2048; i++) {
        struct eth_addr ea = mac(i);

        assert_int_equal(mac_learning_lookup(ml, i % 3, &ea), 1 + i % 7);
    }

    /* Shrinking evicts the least recently seen at once. */
    mac_learning_set_max_entries(ml, 100);
    assert_int_equal(mac_learning_count(ml), 100);
    assert_int_equal(mac_learning_lookup(ml, 0, &new), 4);
    assert_int_equal(mac_learning_lookup(ml, 0, &e0), 1);
    assert_int_equal(mac_learning_lookup(ml, 2, &e2), MAC_LEARNING_PORT_NONE);
    mac_learning_destroy(ml);
}

static void
test_flush(void **state DPS_UNUSED)
{
    struct mac_learning *ml = mac_learning_create(0, 0);

    for (uint32_t i = 0; i < 30; i++) {
        struct eth_addr ea = mac(i);

        mac_learning_learn(ml, i % 3, &ea, i % 5, 0);
    }
    uint64_t seqno = mac_learning_seqno(ml);
    assert_int_equal(mac_learning_flush_vlan(ml, 1), 10);
    assert_true(mac_learning_seqno(ml) > seqno);
    assert_int_equal(mac_learning_flush_vlan(ml, 1), 0);
    assert_int_equal(mac_learning_flush_port(ml, 4), 4);
    assert_int_equal(mac_learning_flush_port(ml, MAC_LEARNING_PORT_NONE), 0);
    assert_int_equal(mac_learning_count(ml), 16);
    for (uint32_t i = 0; i < 30; i++) {
        struct eth_addr ea = mac(i);
        uint32_t port = mac_learning_lookup(ml, i % 3, &ea);

        if (i % 3 == 1 || i % 5 == 4) {
            assert_int_equal(port, MAC_LEARNING_PORT_NONE);
        } else {
            assert_int_equal(port, i % 5);
        }
    }
    assert_int_equal(mac_learning_flush(ml), 16);
    assert_int_equal(mac_learning_count(ml), 0);
    mac_learning_destroy(ml);
}

static void
test_static(void **state DPS_UNUSED)
{
    struct mac_learning *ml = mac_learning_create(0, 10);
    struct eth_addr a = mac(1), b = mac(2);
    struct eth_addr mcast = { { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 } };
    struct mac_learning_entry *entries;

    assert_int_equal(mac_learning_add_static(ml, 0, &mcast, 1), EINVAL);
    mac_learning_learn(ml, 0, &a, 1, 0);
    assert_int_equal(mac_learning_add_static(ml, 0, &a, 2), 0);
    assert_int_equal(mac_learning_lookup(ml, 0, &a), 2);

    /* Static entries neither move nor age. */
    assert_int_equal(mac_learning_learn(ml, 0, &a, 3, SEC),
                     MAC_LEARNING_REFUSED);
    assert_int_equal(mac_learning_learn(ml, 0, &a, 2, SEC),
                     MAC_LEARNING_REFRESHED);
    assert_int_equal(mac_learning_run(ml, 100000 * SEC), 0);
    assert_int_equal(mac_learning_lookup(ml, 0, &a), 2);
    assert_true(mac_learning_next_expiry(ml) == LLONG_MAX);

    mac_learning_learn(ml, 0, &b, 4, 100000 * SEC);
    assert_int_equal(mac_learning_get_entries(ml, 100001 * SEC, &entries), 2);
    assert_false(entries[0].is_static);
    assert_int_equal(entries[0].age, 1);
    assert_true(entries[1].is_static);
    assert_int_equal(entries[1].age, 0);
    free(entries);

    /* Nor are they evicted: a table full of them refuses to learn. */
    for (uint32_t i = 10; i < 20; i++) {
        struct eth_addr ea = mac(i);

        assert_int_equal(mac_learning_add_static(ml, 0, &ea, 1),
                         i < 19 ? 0 : ENOSPC);
    }
    assert_int_equal(mac_learning_lookup(ml, 0, &b), MAC_LEARNING_PORT_NONE);
    assert_int_equal(mac_learning_learn(ml, 0, &b, 4, 0),
                     MAC_LEARNING_REFUSED);

    assert_true(mac_learning_delete(ml, 0, &a));
    assert_false(mac_learning_delete(ml, 0, &a));
    assert_int_equal(mac_learning_flush(ml), 9);
    mac_learning_destroy(ml);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_and_ranges),
        cmocka_unit_test(test_learn_lookup),
        cmocka_unit_test(test_move),
        cmocka_unit_test(test_aging),
        cmocka_unit_test(test_capacity),
        cmocka_unit_test(test_flush),
        cmocka_unit_test(test_static),
    };
    return cmocka_run_group_tests_name("mac-learning", tests, NULL, NULL);
}
