/* Unit tests for ofproto/ofproto-xlate.c: OpenFlow tables into datapath
 * actions and megaflow masks.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "ofp-actions.h"
#include "ofpbuf.h"
#include "ofproto/normal.h"
#include "ofproto/ofproto-xlate.h"
#include "ofproto/ofproto.h"
#include "util.h"

/* Three access ports in VLAN 0 and the local port; datapath numbers are
 * the OpenFlow ones plus 10, so that the tests see which is which. */
static const struct normal_port_config nports[] = {
    { .ofport = 1, .dp_port = 11, .vlan_mode = NORMAL_VLAN_TRUNK },
    { .ofport = 2, .dp_port = 12, .vlan_mode = NORMAL_VLAN_TRUNK },
    { .ofport = 3, .dp_port = 13, .vlan_mode = NORMAL_VLAN_TRUNK },
    { .ofport = NORMAL_OFPORT_LOCAL, .dp_port = 0,
      .vlan_mode = NORMAL_VLAN_TRUNK },
};
static const struct xlate_port xports[] = {
    { 1, 11, true }, { 2, 12, true }, { 3, 13, true },
    { MATCH_OFPP_LOCAL, 0, true },
};

struct fixture {
    struct ofproto *ofproto;
    struct normal_bridge *nb;
    struct xlate_bridge xb;
};

static int
setup(void **state)
{
    struct fixture *fx = xzalloc(sizeof *fx);
    struct normal_bridge_config cfg = {
        .ports = nports, .n_ports = ARRAY_SIZE(nports),
    };

    fx->ofproto = ofproto_create("br0");
    fx->nb = normal_bridge_create();
    assert_int_equal(normal_bridge_reconfigure(fx->nb, &cfg), 0);
    fx->xb.ofproto = fx->ofproto;
    fx->xb.nb = fx->nb;
    fx->xb.ports = xports;
    fx->xb.n_ports = ARRAY_SIZE(xports);
    *state = fx;
    return 0;
}

static int
teardown(void **state)
{
    struct fixture *fx = *state;
    ofproto_destroy(fx->ofproto);
    normal_bridge_destroy(fx->nb);
    free(fx);
    return 0;
}

static void
add(struct fixture *fx, uint8_t table, const struct match *m, int priority,
    const struct ofpbuf *acts)
{
    assert_int_equal(ofproto_add_flow(fx->ofproto, table, m, priority,
                                      acts->data, acts->size, 0),
                     OFPROTO_OK);
}

static struct flow
udp_key(uint32_t dp_in_port, uint8_t ttl)
{
    struct flow f;
    memset(&f, 0, sizeof f);
    f.in_port = dp_in_port;
    f.dl_src = (struct eth_addr) { { 0x50, 0x54, 0, 0, 0, 1 } };
    f.dl_dst = (struct eth_addr) { { 0x50, 0x54, 0, 0, 0, 2 } };
    f.dl_type = htons(ETH_TYPE_IP);
    f.nw_src = htonl(0x0a000001);
    f.nw_dst = htonl(0x0a000002);
    f.nw_proto = IPPROTO_UDP_;
    f.nw_ttl = ttl;
    f.tp_src = htons(1000);
    f.tp_dst = htons(2000);
    return f;
}

/* Translates 'key' and checks the datapath actions. */
static void
check_xlate(struct fixture *fx, const struct flow *key, const char *want,
            struct flow *mask)
{
    struct xlate_out out;
    struct ds s;

    xlate_out_init(&out);
    assert_int_equal(ofproto_xlate(&fx->xb, key, 1000, &out), 0);
    ds_init(&s);
    dp_actions_format(&out.actions, &s);
    assert_string_equal(ds_cstr(&s), want);
    ds_destroy(&s);
    if (mask) {
        *mask = out.mask;
    }
    xlate_out_destroy(&out);
}

/* The default flow, priority=0 actions=NORMAL, gives exactly NORMAL's
 * actions and mask. */
static void
test_default_normal(void **state)
{
    struct fixture *fx = *state;
    struct match all;
    struct ofpbuf acts;
    struct flow key = udp_key(11, 64), mask;
    struct normal_xlate_out nout;

    match_init_catchall(&all);
    ofpbuf_init(&acts, 0);
    ofpact_put_OUTPUT(&acts)->port = OFPP_NORMAL;
    add(fx, 0, &all, 0, &acts);
    ofpbuf_uninit(&acts);

    check_xlate(fx, &key, "12,13,0", &mask);    /* Flood: unknown dst. */

    struct normal_bridge *nb2 = normal_bridge_create();
    struct normal_bridge_config cfg = {
        .ports = nports, .n_ports = ARRAY_SIZE(nports),
    };
    assert_int_equal(normal_bridge_reconfigure(nb2, &cfg), 0);
    normal_xlate_out_init(&nout);
    normal_xlate(nb2, &key, 1000, &nout);
    assert_memory_equal(&mask, &nout.mask, sizeof mask);
    normal_xlate_out_destroy(&nout);
    normal_bridge_destroy(nb2);

    /* In the other direction the learned address is used. */
    struct flow back = udp_key(12, 64);
    back.dl_src = key.dl_dst;
    back.dl_dst = key.dl_src;
    check_xlate(fx, &back, "11", NULL);
}

static void
test_output_and_mask(void **state)
{
    struct fixture *fx = *state;
    struct match all, m;
    struct ofpbuf acts;
    struct flow mask;

    match_init_catchall(&all);
    ofpbuf_init(&acts, 0);
    ofpact_put_OUTPUT(&acts)->port = OFPP_NORMAL;
    add(fx, 0, &all, 0, &acts);

    match_init_catchall(&m);
    match_set_in_port(&m, 1);
    ofpbuf_clear(&acts);
    ofpact_put_OUTPUT(&acts)->port = 2;
    ofpact_put_OUTPUT(&acts)->port = 1;     /* The input port: skipped. */
    ofpact_put_OUTPUT(&acts)->port = 9;     /* No such port. */
    add(fx, 0, &m, 100, &acts);

    struct flow key = udp_key(11, 64);
    check_xlate(fx, &key, "12", &mask);
    /* in_port's subtable answered: the catch-all's was never probed and
     * NORMAL never ran, so no Ethernet address is in the mask. */
    assert_int_equal(mask.in_port, UINT32_MAX);
    assert_int_equal(mask.dl_type, 0xffff);
    struct eth_addr zero = { { 0 } };
    assert_memory_equal(&mask.dl_dst, &zero, sizeof zero);
    assert_int_equal(mask.nw_src, 0);

    /* IN_PORT sends it back; FLOOD everywhere else. */
    ofpbuf_clear(&acts);
    ofpact_put_OUTPUT(&acts)->port = OFPP_IN_PORT;
    ofpact_put_OUTPUT(&acts)->port = OFPP_FLOOD;
    add(fx, 0, &m, 100, &acts);
    check_xlate(fx, &key, "11,12,13,0", NULL);

    /* Port 2 still goes through NORMAL. */
    key = udp_key(12, 64);
    check_xlate(fx, &key, "11,13,0", NULL);

    /* A port not in the bridge: nothing to install. */
    struct xlate_out out;
    xlate_out_init(&out);
    key.in_port = 99;
    assert_int_equal(ofproto_xlate(&fx->xb, &key, 0, &out), ENODEV);
    xlate_out_destroy(&out);
    ofpbuf_uninit(&acts);
}

static void
test_rewrites(void **state)
{
    struct fixture *fx = *state;
    struct match all;
    struct ofpbuf acts;
    struct flow mask;

    match_init_catchall(&all);
    ofpbuf_init(&acts, 0);
    ofpact_put_SET_ETH_SRC(&acts)->mac
        = (struct eth_addr) { { 0, 0, 0, 0, 0, 0xaa } };
    ofpact_put_SET_IPV4_DST(&acts)->ipv4 = htonl(0xc0a80001);
    ofpact_put_SET_L4_DST_PORT(&acts)->port = 53;
    ofpact_put_DEC_TTL(&acts);
    ofpact_put_OUTPUT(&acts)->port = 2;
    struct ofpact_vlan_vid *vv = ofpact_put_SET_VLAN_VID(&acts);
    vv->vlan_vid = 10;
    vv->push_vlan_if_needed = true;
    ofpact_put_OUTPUT(&acts)->port = 3;
    ofpact_put_STRIP_VLAN(&acts);
    ofpact_put_OUTPUT(&acts)->port = OFPP_LOCAL;
    add(fx, 0, &all, 0, &acts);

    struct flow key = udp_key(11, 64);
    check_xlate(fx, &key,
                "set(eth(src=00:00:00:00:00:aa)),"
                "set(ipv4(dst=192.168.0.1,ttl=63)),set(udp(dst=53)),12,"
                "push_vlan(vid=10,pcp=0),13,pop_vlan,0", &mask);
    assert_int_equal(mask.nw_ttl, 0xff);        /* dec_ttl looked. */
    assert_int_equal(mask.nw_proto, 0xff);      /* mod_tp_dst looked. */
    /* Written: the megaflow matches it (as Open vSwitch's does), so that
     * it may leave out the set action of a packet that holds the value. */
    assert_int_equal(mask.nw_dst, UINT32_MAX);
    assert_int_equal(mask.tp_dst, UINT16_MAX);

    /* A packet that already holds the values gets no set action for
     * them: only the TTL changes. */
    key = udp_key(11, 64);
    key.dl_src = (struct eth_addr) { { 0, 0, 0, 0, 0, 0xaa } };
    key.nw_dst = htonl(0xc0a80001);
    key.tp_dst = htons(53);
    check_xlate(fx, &key,
                "set(ipv4(ttl=63)),12,push_vlan(vid=10,pcp=0),13,pop_vlan,0",
                NULL);

    /* TTL 1: dec_ttl ends the pipeline with an invalid_ttl packet-in
     * (reason 2) of the packet as the actions before it left it, as Open
     * vSwitch's does; the first state frozen in this process is 1. */
    key = udp_key(11, 1);
    check_xlate(fx, &key,
                "set(eth(src=00:00:00:00:00:aa)),set(ipv4(dst=192.168.0.1)),"
                "set(udp(dst=53)),userspace(pid=0,controller(reason=2,"
                "dont_send=0,continuation=0,recirc_id=1,rule_cookie=0,"
                "controller_id=0,max_len=65535))", NULL);

    /* mod_nw_tos writes the DSCP bits alone, and mod_nw_ecn the ECN
     * bits: masked writes of the TOS, which the megaflow matches in the
     * bits written. */
    ofpbuf_clear(&acts);
    ofpact_put_SET_IP_DSCP(&acts)->dscp = 0x10;
    ofpact_put_OUTPUT(&acts)->port = 2;
    ofpact_put_SET_IP_ECN(&acts)->ecn = 1;
    ofpact_put_OUTPUT(&acts)->port = 3;
    add(fx, 0, &all, 0, &acts);
    key = udp_key(11, 64);
    key.nw_tos = 0x03;
    check_xlate(fx, &key, "set(ipv4(tos=0x10/0xfc)),12,"
                "set(ipv4(tos=0x11)),13", &mask);
    assert_int_equal(mask.nw_tos, 0xff);
    ofpbuf_uninit(&acts);
}

static void
test_resubmit_goto_move(void **state)
{
    struct fixture *fx = *state;
    struct match all, m;
    struct ofpbuf acts;
    struct flow mask;

    /* Table 0: write metadata, move nw_src[0..7] to reg0, go to 1. */
    match_init_catchall(&all);
    ofpbuf_init(&acts, 0);
    struct ofpact_reg_move *mv = ofpact_put_REG_MOVE(&acts);
    mv->src = (struct ofp_subfield) { MATCH_F_IPV4_SRC, 0, 8 };
    mv->dst = (struct ofp_subfield) { MATCH_F_REG0, 0, 8 };
    struct ofpact_metadata *md = ofpact_put_WRITE_METADATA(&acts);
    md->metadata = htobe64(5);
    md->mask = htobe64(0xff);
    ofpact_put_GOTO_TABLE(&acts)->table_id = 1;
    add(fx, 0, &all, 0, &acts);

    /* Table 1: reg0=1 and metadata=5 -> resubmit to table 2, then port 3. */
    match_init_catchall(&m);
    match_set_reg_masked(&m, 0, 1, UINT32_MAX);
    match_set_metadata_masked(&m, 5, UINT64_MAX);
    ofpbuf_clear(&acts);
    struct ofpact_resubmit *rs = ofpact_put_RESUBMIT(&acts);
    rs->in_port = OFPP_IN_PORT;
    rs->table_id = 2;
    ofpact_put_OUTPUT(&acts)->port = 3;
    add(fx, 1, &m, 10, &acts);

    /* Table 2: output to 2. */
    ofpbuf_clear(&acts);
    ofpact_put_OUTPUT(&acts)->port = 2;
    add(fx, 2, &all, 0, &acts);

    struct flow key = udp_key(11, 64);          /* nw_src 10.0.0.1. */
    check_xlate(fx, &key, "12,13", &mask);
    assert_int_equal(mask.nw_src, htonl(0xff)); /* The bits moved. */

    key.nw_src = htonl(0x0a000002);             /* reg0=2: table 1 miss. */
    check_xlate(fx, &key, "drop", NULL);

    /* A resubmit loop stops at the limits and drops. */
    ofpbuf_clear(&acts);
    rs = ofpact_put_RESUBMIT(&acts);
    rs->in_port = OFPP_IN_PORT;
    rs->table_id = 2;
    ofpact_put_OUTPUT(&acts)->port = 2;
    add(fx, 2, &all, 0, &acts);
    key.nw_src = htonl(0x0a000001);
    struct xlate_out out;
    xlate_out_init(&out);
    assert_int_equal(ofproto_xlate(&fx->xb, &key, 0, &out), 0);
    assert_true(out.error);
    assert_int_equal(out.actions.n_actions, 0);
    xlate_out_destroy(&out);
    ofpbuf_uninit(&acts);
}

static void
test_version(void **state)
{
    struct fixture *fx = *state;
    struct match all;
    struct ofpbuf acts;
    struct xlate_out out;
    struct flow key = udp_key(11, 64);

    match_init_catchall(&all);
    ofpbuf_init(&acts, 0);
    ofpact_put_OUTPUT(&acts)->port = 2;
    add(fx, 0, &all, 0, &acts);
    xlate_out_init(&out);
    ofproto_xlate(&fx->xb, &key, 0, &out);
    assert_int_equal(out.version, ofproto_version(fx->ofproto));
    uint64_t v = out.version;
    xlate_out_destroy(&out);

    add(fx, 0, &all, 1, &acts);
    assert_true(ofproto_version(fx->ofproto) > v);
    ofpbuf_uninit(&acts);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_default_normal, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_output_and_mask, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_rewrites, setup, teardown),
        cmocka_unit_test_setup_teardown(test_resubmit_goto_move, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_version, setup, teardown),
    };
    return cmocka_run_group_tests_name("ofproto-xlate", tests, NULL, NULL);
}
