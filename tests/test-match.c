/* Unit tests for lib/match.c: setters, the field table, prerequisites.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "match.h"
#include "util.h"

static void
test_catchall_and_exact(void **state DPS_UNUSED)
{
    struct match a, b;
    struct match_flow f;

    match_init_catchall(&a);
    assert_true(match_is_catchall(&a));

    memset(&f, 0, sizeof f);
    f.in_port = 3;
    f.dp.in_port = 77;          /* Datapath port: never matched. */
    f.dp.dl_type = htons(ETH_TYPE_IP);
    f.dp.nw_src = htonl(0x0a000001);
    f.regs[5] = 42;
    match_init_exact(&b, &f);
    assert_false(match_is_catchall(&b));
    assert_true(match_matches_flow(&b, &f));
    assert_true(match_matches_flow(&a, &f));
    f.dp.in_port = 78;
    assert_true(match_matches_flow(&b, &f));
    f.regs[5] = 43;
    assert_false(match_matches_flow(&b, &f));
}

static void
test_setters_normalize(void **state DPS_UNUSED)
{
    struct match m;
    struct match_flow f;

    match_init_catchall(&m);
    match_set_dl_type(&m, htons(ETH_TYPE_IP));
    match_set_nw_src_masked(&m, htonl(0x0a0102ff), htonl(0xffffff00));
    assert_int_equal(m.flow.dp.nw_src, htonl(0x0a010200));
    match_set_reg_masked(&m, 3, 0xabcd, 0xff00);
    assert_int_equal(m.flow.regs[3], 0xab00);
    match_set_xreg_masked(&m, 1, 0x1122334455667788ULL, UINT64_MAX);
    assert_int_equal(m.flow.regs[2], 0x11223344);
    assert_int_equal(m.flow.regs[3], 0x55667788);
    assert_int_equal(m.mask.regs[3], 0xffffffff);

    memset(&f, 0, sizeof f);
    f.dp.dl_type = htons(ETH_TYPE_IP);
    f.dp.nw_src = htonl(0x0a010299);
    f.regs[2] = 0x11223344;
    f.regs[3] = 0x55667788;
    assert_true(match_matches_flow(&m, &f));
    f.dp.nw_src = htonl(0x0a010399);
    assert_false(match_matches_flow(&m, &f));
}

static void
test_vlan(void **state DPS_UNUSED)
{
    struct match m;

    match_init_catchall(&m);
    match_set_dl_vlan(&m, htons(10));
    assert_int_equal(m.flow.dp.vlan_tci[0], htons(VLAN_CFI | 10));
    assert_int_equal(m.mask.dp.vlan_tci[0], htons(0x1fff));
    match_set_dl_vlan_pcp(&m, 5);
    assert_int_equal(m.flow.dp.vlan_tci[0], htons(0xa000 | VLAN_CFI | 10));
    assert_int_equal(m.mask.dp.vlan_tci[0], htons(0xffff));

    match_init_catchall(&m);
    match_set_dl_vlan(&m, htons(0xffff));       /* No tag. */
    assert_int_equal(m.flow.dp.vlan_tci[0], 0);
    assert_int_equal(m.mask.dp.vlan_tci[0], 0xffff);

    /* vlan_vid=0x1000/0x1000: any tag. */
    match_init_catchall(&m);
    match_set_vlan_vid_masked(&m, htons(0x1000), htons(0x1000));
    assert_int_equal(m.mask.dp.vlan_tci[0], htons(VLAN_CFI));
}

static void
test_field_table(void **state DPS_UNUSED)
{
    for (int i = 0; i < MATCH_N_FIELDS; i++) {
        const struct match_field *mf = match_field_info(i);
        assert_int_equal(mf->id, i);
        assert_non_null(mf->name);
        assert_ptr_equal(match_field_by_name(mf->name), mf);
        assert_true(mf->n_bytes <= 16);
        assert_true(mf->offset + mf->container_size
                    <= sizeof(struct match_flow));
    }
    assert_null(match_field_by_name("no_such_field"));

    /* Each field's set and get agree, and set touches only its bits. */
    for (int i = 0; i < MATCH_N_FIELDS; i++) {
        const struct match_field *mf = match_field_info(i);
        union match_value v, out;
        struct match_flow f;

        memset(&v, 0, sizeof v);
        memset(v.u8, 0xff, mf->n_bytes);
        if (mf->n_bits % 8) {
            v.u8[0] = (1 << (mf->n_bits % 8)) - 1;
        }
        memset(&f, 0, sizeof f);
        match_field_set_flow(mf, &v, &f);
        match_field_get(mf, &f, &out);
        assert_memory_equal(&v, &out, sizeof v);

        unsigned int n_set = 0;
        const uint8_t *p = (const uint8_t *) &f;
        for (size_t j = 0; j < sizeof f; j++) {
            n_set += __builtin_popcount(p[j]);
        }
        assert_int_equal(n_set, mf->n_bits);
    }

    /* Subfields land where the datapath key keeps them. */
    struct match m;
    union match_value v, mask;
    match_init_catchall(&m);
    memset(&v, 0, sizeof v);
    memset(&mask, 0, sizeof mask);
    v.u8[0] = 5;
    match_field_set(match_field_info(MATCH_F_VLAN_PCP), &v, NULL, &m);
    assert_int_equal(m.flow.dp.vlan_tci[0], htons(0xa000));
    assert_int_equal(m.mask.dp.vlan_tci[0], htons(0xe000));
    v.u8[0] = 0x2e;
    match_field_set(match_field_info(MATCH_F_IP_DSCP), &v, NULL, &m);
    assert_int_equal(m.flow.dp.nw_tos, 0x2e << 2);
    v.be16 = htons(80);
    mask.be16 = htons(0xfff0);
    match_field_set(match_field_info(MATCH_F_TCP_DST), &v, &mask, &m);
    assert_int_equal(m.flow.dp.tp_dst, htons(80 & 0xfff0));
    assert_int_equal(m.mask.dp.tp_dst, htons(0xfff0));
    v.be16 = htons(0x0102);
    match_field_set(match_field_info(MATCH_F_IN_PORT), &v, NULL, &m);
    assert_int_equal(m.flow.in_port, 0x0102);

    /* in_port has one exact mask, whether a protocol's field or the
     * setter gave it: NXM and OpenFlow 1.0 must name the same rule. */
    struct match m2;
    match_init_catchall(&m);
    match_init_catchall(&m2);
    match_field_set(match_field_info(MATCH_F_IN_PORT), &v, NULL, &m);
    match_set_in_port(&m2, 0x0102);
    assert_int_equal(m.mask.in_port, UINT32_MAX);
    assert_true(match_equal(&m, &m2));
}

static void
test_prereqs(void **state DPS_UNUSED)
{
    struct match m;
    enum match_field_id bad;

    match_init_catchall(&m);
    match_set_tp_dst_masked(&m, htons(80), htons(0xffff));
    assert_false(match_check_prereqs(&m, &bad));
    assert_int_equal(bad, MATCH_F_TCP_DST);

    match_set_dl_type(&m, htons(ETH_TYPE_IP));
    assert_false(match_check_prereqs(&m, NULL));
    match_set_nw_proto(&m, IPPROTO_TCP_);
    assert_true(match_check_prereqs(&m, NULL));

    match_init_catchall(&m);
    match_set_nw_src_masked(&m, htonl(1), htonl(0xffffffff));
    assert_false(match_check_prereqs(&m, NULL));
    match_set_dl_type(&m, htons(ETH_TYPE_ARP));
    assert_true(match_check_prereqs(&m, NULL));     /* arp_spa. */

    /* OXM's vlan_pcp needs a tag (vlan_vid). */
    union match_value pcp = { .u8 = { 3 } };
    match_init_catchall(&m);
    match_field_set(match_field_info(MATCH_F_VLAN_PCP), &pcp, NULL, &m);
    assert_false(match_check_prereqs(&m, NULL));
    match_set_vlan_vid_masked(&m, htons(0x1000), htons(0x1000));
    assert_true(match_check_prereqs(&m, NULL));

    struct ipv6_addr t = { { 0xfe, 0x80 } }, ones;
    memset(&ones, 0xff, sizeof ones);
    match_init_catchall(&m);
    match_set_dl_type(&m, htons(ETH_TYPE_IPV6));
    match_set_nw_proto(&m, IPPROTO_ICMPV6_);
    match_set_nd_target_masked(&m, &t, &ones);
    assert_false(match_check_prereqs(&m, &bad));
    assert_int_equal(bad, MATCH_F_ND_TARGET);
    match_set_tp_src_masked(&m, htons(ND_NEIGHBOR_SOLICIT), htons(0xffff));
    assert_true(match_check_prereqs(&m, NULL));
}

static void
test_equal_hash(void **state DPS_UNUSED)
{
    struct match a, b;

    match_init_catchall(&a);
    match_set_nw_dst_masked(&a, htonl(0x01020304), htonl(0xffff0000));
    match_init_catchall(&b);
    match_set_nw_dst_masked(&b, htonl(0x0102ffff), htonl(0xffff0000));
    assert_true(match_equal(&a, &b));
    assert_int_equal(match_hash(&a, 0), match_hash(&b, 0));
    match_set_nw_ttl(&b, 3);
    assert_false(match_equal(&a, &b));
    assert_true(match_mask_is_subset(&a.mask, &b.mask));
    assert_false(match_mask_is_subset(&b.mask, &a.mask));
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_catchall_and_exact),
        cmocka_unit_test(test_setters_normalize),
        cmocka_unit_test(test_vlan),
        cmocka_unit_test(test_field_table),
        cmocka_unit_test(test_prereqs),
        cmocka_unit_test(test_equal_hash),
    };
    return cmocka_run_group_tests_name("match", tests, NULL, NULL);
}
