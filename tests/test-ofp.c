/* Unit tests for lib/ofpbuf.c, the action list of lib/ofp-actions.c and the
 * flow message codecs of lib/ofp-match.c, lib/ofp-flow.c and
 * lib/ofp-actions-of11.c (golden bytes
 * as Debian's ovs-ofctl 3.1 sends them and its ovs-vswitchd answers).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <arpa/inet.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "ofp-actions.h"
#include "ofp-flow.h"
#include "ofp-match.h"
#include "ofp-msgs.h"
#include "ofp-parse.h"
#include "ofp-port.h"
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

static struct ofpbuf *
hex_msg(const char *hex)
{
    struct ofpbuf *b = ofpbuf_new(0);
    const char *end;

    ofpbuf_put_hex(b, hex, &end);
    assert_string_equal(end, "");
    return b;
}

static void
assert_same_bytes(const struct ofpbuf *a, const struct ofpbuf *b)
{
    assert_int_equal(a->size, b->size);
    /* Everything but the xid. */
    assert_memory_equal(a->data, b->data, 4);
    assert_memory_equal((const uint8_t *) a->data + 8,
                        (const uint8_t *) b->data + 8, a->size - 8);
}

/* Decodes 'hex' (a flow_mod), checks it re-encodes to the same bytes in
 * the same flow format, and returns the decoded text of its match. */
static char *
flow_mod_round_trip(const char *hex, struct ofputil_flow_mod *fm,
                    struct ofpbuf *ofpacts)
{
    struct ofpbuf *msg = hex_msg(hex);
    const struct ofp_header *oh = msg->data;
    enum ofpraw raw;

    assert_int_equal(ofpraw_decode(&raw, oh), 0);
    assert_int_equal(ofputil_decode_flow_mod(fm, oh, false, ofpacts), 0);
    struct ofpbuf *out = ofputil_encode_flow_mod(
        fm, (raw == OFPRAW_NXT_FLOW_MOD ? OFPUTIL_P_OF10_NXM
             : raw == OFPRAW_OFPT13_FLOW_MOD ? OFPUTIL_P_OF13_OXM
             : OFPUTIL_P_OF10_STD), false);
    assert_same_bytes(msg, out);
    ofpbuf_delete(out);
    ofpbuf_delete(msg);
    return match_to_string(&fm->match, fm->priority);
}

static void
test_flow_mod_of10(void **state DPS_UNUSED)
{
    struct ofputil_flow_mod fm;
    struct ofpbuf ofpacts;
    char *s;

    ofpbuf_init(&ofpacts, 0);
    /* add-flow "in_port=1,ip,nw_src=10.0.0.0/8,actions=output:2". */
    s = flow_mod_round_trip(
        "010e005000000006003818ee00010000000000000000000000000000000008"
        "00000000000a000000000000000000000000000000000000000000000000008000"
        "ffffffffffff00000000000800020000", &fm, &ofpacts);
    assert_string_equal(s, "ip,in_port=1,nw_src=10.0.0.0/8");
    free(s);
    assert_int_equal(fm.command, OFPFC_ADD);
    assert_int_equal(fm.table_id, 0xff);
    assert_int_equal(fm.priority, OFP_DEFAULT_PRIORITY);
    assert_int_equal(fm.buffer_id, OFP_NO_BUFFER);
    assert_int_equal(fm.out_port, OFPP_NONE);
    assert_true(fm.modify_cookie);
    assert_int_equal(fm.new_cookie, 0);
    assert_int_equal(fm.cookie_mask, 0);
    assert_int_equal(fm.match.flow.in_port, 1);
    assert_int_equal(fm.match.mask.dp.nw_src, htonl(0xff000000));
    assert_int_equal(fm.ofpacts->type, OFPACT_OUTPUT);
    assert_int_equal(ofpact_get_OUTPUT(fm.ofpacts)->port, 2);

    /* "priority=100,dl_vlan=5,dl_vlan_pcp=3,dl_src=00:11:22:33:44:55,
     * tcp,tp_src=1,tp_dst=80,nw_tos=8,cookie=0x1234,idle_timeout=10,
     * hard_timeout=20,send_flow_rem,check_overlap,
     * actions=mod_vlan_vid:7,output:1". */
    s = flow_mod_round_trip(
        "010e0058000000060008200900000011223344550000000000000005030008"
        "000806000000000000000000000001005000000000000012340000000a0014"
        "0064ffffffffffff000300010008000700000000000800010000",
        &fm, &ofpacts);
    assert_string_equal(s, "priority=100,tcp,dl_vlan=5,dl_vlan_pcp=3,"
                        "dl_src=00:11:22:33:44:55,nw_tos=8,tp_src=1,"
                        "tp_dst=80");
    free(s);
    assert_int_equal(fm.cookie, 0x1234);
    assert_int_equal(fm.new_cookie, 0x1234);
    assert_int_equal(fm.idle_timeout, 10);
    assert_int_equal(fm.hard_timeout, 20);
    assert_int_equal(fm.flags, OFPUTIL_FF_SEND_FLOW_REM
                               | OFPUTIL_FF_CHECK_OVERLAP);

    /* "dl_vlan=0xffff,arp,arp_op=2,nw_dst=1.2.3.4,actions=NORMAL". */
    s = flow_mod_round_trip(
        "010e005000000006002020cd0000000000000000000000000000ffff000008"
        "060002000000000000010203040000000000000000000000000000000000008000"
        "ffffffffffff000000000008fffa0000", &fm, &ofpacts);
    assert_string_equal(s, "arp,vlan_tci=0x0000,arp_tpa=1.2.3.4,arp_op=2");
    free(s);

    /* --strict del-flows "priority=5,in_port=1". */
    s = flow_mod_round_trip(
        "010e004800000006003820fe000100000000000000000000000000000000000000"
        "00000000000000000000000000000000000000000000000004000000000005"
        "ffffffffffff0000", &fm, &ofpacts);
    assert_string_equal(s, "priority=5,in_port=1");
    free(s);
    assert_int_equal(fm.command, OFPFC_DELETE_STRICT);
    assert_int_equal(fm.ofpacts_len, 0);
    ofpbuf_uninit(&ofpacts);
}

static void
test_flow_mod_nxm(void **state DPS_UNUSED)
{
    static const struct {
        const char *hex;
        const char *match;
    } cases[] = {
        { "0104005000000008000023200000000d0000000000000000000000000000"
          "8000ffffffffffff0000001900000000000000000602080000000c010600"
          "0014020050000100040000000500000000000000",
          "tcp,reg0=0x5,tp_dst=80" },
        { "0104006800000008000023200000000d0000000000000000000000000000"
          "8000ffffffffffff0000002f0000000000000000060286dd000127202001"
          "0db8000000000000000000000000ffffffff00000000000000000000000000"
          "013a01040000000008fffe0000",
          "ipv6,ipv6_src=2001:db8::/32,nw_ttl=4" },
        { "0104005000000008000023200000000d0000000000000000000000000000"
          "8000ffffffffffff0000001b00000000000000000602080000000c010600"
          "0015041000f00000014504000200120000000000",
          "tcp,tp_dst=0x1000/0xf000,tcp_flags=+syn-ack" },
        { "0104006000000008000023200000000d0000000000000000000000000000"
          "8000ffffffffffff000000300000000000000000030c01000000000001000000"
          "00000001070800000010000000f08000051000000000000000050000000000"
          "0000ff",
          "reg3=0x10/0xf0,metadata=0x5/0xff,"
          "dl_dst=01:00:00:00:00:00/01:00:00:00:00:00" },
    };
    struct ofputil_flow_mod fm;
    struct ofpbuf ofpacts;

    ofpbuf_init(&ofpacts, 0);
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        char *s = flow_mod_round_trip(cases[i].hex, &fm, &ofpacts);
        assert_string_equal(s, cases[i].match);
        free(s);
    }

    /* del-flows "cookie=0x10/0xff,tcp": the cookie filter. */
    char *s = flow_mod_round_trip(
        "0104005000000008000023200000000d0000000000000000000300000000"
        "8000ffffffffffff0000001f00000000000000000602080000000c010600"
        "013d10000000000000001000000000000000ff00", &fm, &ofpacts);
    assert_string_equal(s, "tcp");
    free(s);
    assert_int_equal(fm.command, OFPFC_DELETE);
    assert_int_equal(fm.cookie, 0x10);
    assert_int_equal(fm.cookie_mask, 0xff);
    ofpbuf_uninit(&ofpacts);
}

/* OpenFlow 1.3 flow_mods as Debian's ovs-ofctl -O OpenFlow13 sends them
 * (OXM match, instructions, OpenFlow 1.1+ actions): decoded, printed and
 * re-encoded to the same bytes. */
static void
test_flow_mod_of13(void **state DPS_UNUSED)
{
    static const struct {
        const char *hex;
        const char *match;
        const char *actions;
    } cases[] = {
        /* table=1,cookie=0x5,priority=6,tcp,tp_dst=80,
         * actions=clear_actions,write_actions(output:3) */
        { "040e00680000000200000000000000050000000000000000010000000000"
          "0006ffffffffffffffffffffffff000000000001001580000a0208008000"
          "14010680001c020050000000000500080000000000030018000000000000"
          "0010000000030000000000000000",
          "priority=6,tcp,tp_dst=80",
          "clear_actions,write_actions(output:3)" },
        /* priority=6,in_port=1,dl_vlan=5,actions=mod_dl_src:...,
         * strip_vlan,goto_table:1 (set_field and pop_vlan on the wire) */
        { "040e00700000000200000000000000000000000000000000000000000000"
          "0006ffffffffffffffffffffffff00000000000100128000000400000001"
          "80000c021005000000000000000400200000000000190010800008060000"
          "00000001000000120008000000000001000801000000",
          "priority=6,in_port=1,dl_vlan=5", NULL },
        /* ipv6,ipv6_src=2001:db8::/32,actions=dec_ttl,mod_nw_ttl:9,
         * output:3 (a match whose padding is short of its entries'). */
        { "040e00880000000200000000000000000000000000000000000000000000"
          "8000ffffffffffffffffffffffff000000000001002e80000a0286dd8000"
          "352020010db8000000000000000000000000ffffffff0000000000000000"
          "000000000000000400280000000000180008000000000017000809000000"
          "00000010000000030000000000000000",
          "ipv6,ipv6_src=2001:db8::/32", "dec_ttl,mod_nw_ttl:9,output:3" },
        /* table=1,arp,arp_op=1,actions=write_metadata:0x5/0xff,
         * goto_table:2 */
        { "040e00600000000200000000000000000000000000000000010000000000"
          "8000ffffffffffffffffffffffff000000000001001080000a0208068000"
          "2a0200010002001800000000000000000000000500000000000000ff0001"
          "000802000000",
          "arp,arp_op=1", "write_metadata:0x5/0xff,goto_table:2" },
        /* in_port=LOCAL,udp,tp_src=53,actions=push_vlan:0x8100,
         * set_field:4196->vlan_vid,CONTROLLER:128,output:in_port */
        { "040e00900000000200000000000000000000000000000000000000000000"
          "8000ffffffffffffffffffffffff000000000001001d80000004fffffffe"
          "80000a020800800014011180001e02003500000000040040000000000011"
          "0008810000000019001080000c02106400000000000000000010fffffffd"
          "008000000000000000000010fffffff80000000000000000",
          "udp,in_port=LOCAL,tp_src=53", NULL },
    };
    struct ofputil_flow_mod fm;
    struct ofpbuf ofpacts;

    ofpbuf_init(&ofpacts, 0);
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        char *s = flow_mod_round_trip(cases[i].hex, &fm, &ofpacts);
        assert_string_equal(s, cases[i].match);
        free(s);
        if (cases[i].actions) {
            struct ds d = DS_EMPTY_INITIALIZER;
            ofpacts_format(fm.ofpacts, fm.ofpacts_len, NULL, &d);
            assert_string_equal(ds_cstr(&d), cases[i].actions);
            ds_destroy(&d);
        }
        assert_int_equal(fm.command, OFPFC_ADD);
        assert_false(fm.modify_cookie);
    }

    /* del-flows "cookie=0x10/0xff,tcp,out_port=2": all tables, the cookie
     * filter, the out_port in 16 bits. */
    char *s = flow_mod_round_trip(
        "040e004000000002000000000000001000000000000000ffff0300000000"
        "8000ffffffff00000002ffffffff000000000001000f80000a0208008000"
        "14010600", &fm, &ofpacts);
    assert_string_equal(s, "tcp");
    free(s);
    assert_int_equal(fm.command, OFPFC_DELETE);
    assert_int_equal(fm.table_id, OFPTT_ALL);
    assert_int_equal(fm.cookie, 0x10);
    assert_int_equal(fm.cookie_mask, 0xff);
    assert_int_equal(fm.out_port, 2);
    assert_int_equal(fm.out_group, OFPG_ANY);
    ofpbuf_uninit(&ofpacts);
}

/* Decodes an OpenFlow 1.3 ADD flow_mod of table 'table' with OXM entries
 * 'match' and instructions 'insts' (hex, both unpadded: padding is added
 * to the match). */
static enum ofperr
decode_of13_flow_mod(uint8_t table, const char *match, const char *insts)
{
    struct ofpbuf *b = ofpraw_alloc(OFPRAW_OFPT13_FLOW_MOD, OFP13_VERSION,
                                    1, 0);
    uint8_t *p = ofpbuf_put_zeros(b, 40);
    const char *end;

    p[16] = table;
    memset(p + 24, 0xff, 12);           /* buffer, out_port, out_group. */
    size_t ofs = b->size;
    ofpbuf_put_zeros(b, 4);
    ofpbuf_put_hex(b, match, &end);
    size_t len = b->size - ofs;
    ofp_put_be16((uint8_t *) b->data + ofs, OFPMT_OXM);
    ofp_put_be16((uint8_t *) b->data + ofs + 2, len);
    ofpbuf_put_zeros(b, (len + 7) / 8 * 8 - len);
    ofpbuf_put_hex(b, insts, &end);
    ofpmsg_update_length(b);

    struct ofputil_flow_mod fm;
    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 0);
    enum ofperr error = ofputil_decode_flow_mod(&fm, b->data, false,
                                                &ofpacts);
    ofpbuf_uninit(&ofpacts);
    ofpbuf_delete(b);
    return error;
}

static void
test_of13_errors(void **state DPS_UNUSED)
{
#define IN_PORT "80000004 00000001"
#define APPLY(LEN) "0004" LEN " 00000000 "
    static const struct {
        uint8_t table;
        const char *match;
        const char *insts;
        enum ofperr error;
    } cases[] = {
        { 0, IN_PORT, APPLY("0018") "00000010 00000002 ffff 000000000000",
          0 },
        /* Table 255 only for deletes. */
        { 255, IN_PORT, APPLY("0018") "00000010 00000002 ffff 000000000000",
          OFPERR_OFPFMFC_BAD_TABLE_ID },
        /* OXM in_port masked; tcp_dst without its prerequisites; the NXM
         * cookie entry, which has no place in an OXM match. */
        { 0, "80000108 00000001 ffffffff", "", OFPERR_OFPBMC_BAD_MASK },
        { 0, "80001c02 0050", "", OFPERR_OFPBMC_BAD_PREREQ },
        { 0, "00013c08 0000000000000001", "", OFPERR_OFPBMC_BAD_FIELD },
        /* Instructions: unknown, twice, a meter (none exist), a bad
         * length, an experimenter. */
        { 0, IN_PORT, "00090008 00000000", OFPERR_OFPBIC_UNKNOWN_INST },
        { 0, IN_PORT, "00050008 00000000 00050008 00000000",
          OFPERR_OFPBIC_DUP_INST },
        { 0, IN_PORT, "00060008 00000001", OFPERR_OFPMMFC_UNKNOWN_METER },
        { 0, IN_PORT, "00010010 01000000 00000000 00000000",
          OFPERR_OFPBIC_BAD_LEN },
        { 0, IN_PORT, "ffff0008 00002320", OFPERR_OFPBIC_BAD_EXPERIMENTER },
        /* Actions: push_vlan of 0x0800; set_field of a VID without
         * OFPVID_PRESENT, of a field set_field cannot write, masked
         * (before OpenFlow 1.5), with an entry that runs past the action;
         * an output to the invalid port range; MPLS (not supported). */
        { 0, IN_PORT, APPLY("0010") "00110008 08000000",
          OFPERR_OFPBAC_BAD_ARGUMENT },
        { 0, IN_PORT, APPLY("0018") "00190010 80000c02 0064 000000000000",
          OFPERR_OFPBAC_BAD_SET_ARGUMENT },
        { 0, IN_PORT, APPLY("0018") "00190010 80000a02 0800 000000000000",
          OFPERR_OFPBAC_BAD_SET_TYPE },
        { 0, IN_PORT, APPLY("0020") "00190018 8000090c 000000000001 "
          "ffffffffffff 00000000", OFPERR_OFPBAC_BAD_SET_ARGUMENT },
        { 0, IN_PORT, APPLY("0018") "00190010 80000810 000000000001 0000",
          OFPERR_OFPBAC_BAD_SET_LEN },
        { 0, IN_PORT, APPLY("0018") "00000010 ffffff00 ffff 000000000000",
          OFPERR_OFPBAC_BAD_OUT_PORT },
        { 0, IN_PORT, APPLY("0010") "00140008 08000000",
          OFPERR_OFPBAC_BAD_TYPE },
    };
#undef IN_PORT
#undef APPLY

    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        assert_int_equal(decode_of13_flow_mod(cases[i].table,
                                              cases[i].match,
                                              cases[i].insts),
                         cases[i].error);
    }
}

/* An NXT_FLOW_MOD ADD with nx_match 'match' (hex, unpadded) and
 * 'command'. */
static enum ofperr
decode_nxm_flow_mod(const char *match, int command)
{
    struct ofpbuf *b = ofpraw_alloc(OFPRAW_NXT_FLOW_MOD, OFP10_VERSION, 1,
                                    0);
    uint8_t *p = ofpbuf_put_zeros(b, 32);
    struct ofpbuf m;
    const char *end;

    p[9] = command;
    p[14] = 0x80;
    memset(p + 16, 0xff, 6);
    ofpbuf_init(&m, 0);
    ofpbuf_put_hex(&m, match, &end);
    p = (uint8_t *) b->data + 16;
    p[24] = m.size >> 8;
    p[25] = m.size;
    ofpbuf_put(b, m.data, m.size);
    ofpbuf_put_zeros(b, (m.size + 7) / 8 * 8 - m.size);
    ofpmsg_update_length(b);
    ofpbuf_uninit(&m);

    struct ofputil_flow_mod fm;
    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 0);
    enum ofperr error = ofputil_decode_flow_mod(&fm, b->data, false,
                                                &ofpacts);
    ofpbuf_uninit(&ofpacts);
    ofpbuf_delete(b);
    return error;
}

static void
test_nxm_errors(void **state DPS_UNUSED)
{
    /* ip_src without eth_type=0x0800. */
    assert_int_equal(decode_nxm_flow_mod("00000e04 0a000001", 0),
                     OFPERR_OFPBMC_BAD_PREREQ);
    /* eth_type twice. */
    assert_int_equal(decode_nxm_flow_mod("00000602 0800 00000602 0800", 0),
                     OFPERR_OFPBMC_DUP_FIELD);
    /* Unknown NXM_NX field 127. */
    assert_int_equal(decode_nxm_flow_mod("0001fe04 00000000", 0),
                     OFPERR_OFPBMC_BAD_FIELD);
    /* eth_type with a mask other than all-ones or all-zeros. */
    assert_int_equal(decode_nxm_flow_mod("00000704 0800ff00", 0),
                     OFPERR_OFPBMC_BAD_MASK);
    assert_int_equal(decode_nxm_flow_mod("00000704 0800ffff", 0), 0);
    /* eth_dst 1-bits outside the mask. */
    assert_int_equal(decode_nxm_flow_mod(
                         "0000030c 030000000000 010000000000", 0),
                     OFPERR_OFPBMC_BAD_WILDCARDS);
    /* A length that is not the field's is another (unknown) header; one
     * running past the match is a bad length. */
    assert_int_equal(decode_nxm_flow_mod("00000603 080000", 0),
                     OFPERR_OFPBMC_BAD_FIELD);
    assert_int_equal(decode_nxm_flow_mod("00000608 0800", 0),
                     OFPERR_OFPBMC_BAD_LEN);
    /* nw_tos with ECN bits. */
    assert_int_equal(decode_nxm_flow_mod("00000602 0800 00000a01 09", 0),
                     OFPERR_OFPBMC_BAD_VALUE);
    /* An add may not filter on the cookie; a delete may. */
    assert_int_equal(decode_nxm_flow_mod(
                         "00013d10 0000000000000001 00000000000000ff", 0),
                     OFPERR_NXBRC_NXM_INVALID);
    assert_int_equal(decode_nxm_flow_mod(
                         "00013d10 0000000000000001 00000000000000ff", 3),
                     0);
    /* In order, with prerequisites first: fine. */
    assert_int_equal(decode_nxm_flow_mod(
                         "00000602 0800 00000c01 06 00001402 0050", 0), 0);
    /* Bad command. */
    assert_int_equal(decode_nxm_flow_mod("", 9),
                     OFPERR_OFPFMFC_BAD_COMMAND);
}

static void
test_flow_stats(void **state DPS_UNUSED)
{
    /* dump-flows "table=3,out_port=2,ip". */
    struct ofpbuf *msg = hex_msg(
        "0110002800000008ffff000000002320000000000000000000020006030000"
        "000000060208000000");
    struct ofputil_flow_stats_request fsr;
    assert_int_equal(ofputil_decode_flow_stats_request(&fsr, msg->data), 0);
    assert_false(fsr.aggregate);
    assert_int_equal(fsr.table_id, 3);
    assert_int_equal(fsr.out_port, 2);
    char *s = match_to_string(&fsr.match, OFP_DEFAULT_PRIORITY);
    assert_string_equal(s, "ip");
    free(s);
    struct ofpbuf *out = ofputil_encode_flow_stats_request(
        &fsr, OFPUTIL_P_OF10_NXM);
    assert_same_bytes(msg, out);
    ofpbuf_delete(out);

    /* Debian's reply to it: one flow in table 5, re-encoded the same. */
    struct ofpbuf *reply = hex_msg(
        "0111008000000008ffff000000002320000000000000000000680500000000"
        "0011e1a3000007000000000025000100010000000000000000000000000000"
        "000000000000000000000000060286dd00012810000000000000000000000000"
        "00000001" "00000c0111000016020035000000ffff001000002320000efff807"
        "000000");
    struct ofpbuf **parts = xmalloc(sizeof *parts);
    size_t n_parts = 1;
    parts[0] = ofputil_start_flow_stats_reply(msg->data);

    struct ofpbuf ofpacts, b;
    ofpbuf_init(&ofpacts, 0);
    ofpbuf_use_const(&b, reply->data, reply->size);
    struct ofputil_flow_stats fs;
    int n = 0;
    while (!ofputil_decode_flow_stats_reply(&fs, &b, &ofpacts)) {
        struct ds ds = DS_EMPTY_INITIALIZER;
        ofputil_flow_stats_format(&ds, &fs, NULL, false);
        assert_string_equal(ds_cstr(&ds), "table=5, priority=7,udp6,"
                            "ipv6_dst=::1,tp_src=53 actions=resubmit(,7)");
        ds_destroy(&ds);
        ofputil_append_flow_stats_reply(&fs, &parts, &n_parts);
        n++;
    }
    assert_int_equal(n, 1);
    assert_int_equal(n_parts, 1);
    assert_same_bytes(reply, parts[0]);
    ofpbuf_delete(parts[0]);
    free(parts);
    ofpbuf_uninit(&ofpacts);
    ofpbuf_delete(reply);

    /* Aggregate. */
    struct ofputil_aggregate_stats as = { 7, 700, 3 }, as2;
    fsr.aggregate = true;
    struct ofpbuf *req = ofputil_encode_flow_stats_request(
        &fsr, OFPUTIL_P_OF10_NXM);
    out = ofputil_encode_aggregate_stats_reply(&as, req->data);
    assert_int_equal(ofputil_decode_aggregate_stats_reply(&as2, out->data),
                     0);
    assert_int_equal(as2.packet_count, 7);
    assert_int_equal(as2.byte_count, 700);
    assert_int_equal(as2.flow_count, 3);
    ofpbuf_delete(out);
    ofpbuf_delete(req);
    ofpbuf_delete(msg);
}

static void
test_flow_removed(void **state DPS_UNUSED)
{
    struct ofputil_flow_removed fr, fr2;

    memset(&fr, 0, sizeof fr);
    match_set_dl_type(&fr.match, htons(0x0800));
    match_set_nw_src_masked(&fr.match, htonl(0x0a000000),
                            htonl(0xff000000));
    fr.cookie = 0x55;
    fr.priority = 9;
    fr.reason = 1;
    fr.table_id = 4;
    fr.duration_sec = 3;
    fr.duration_nsec = 5000000;
    fr.idle_timeout = 60;
    fr.packet_count = 2;
    fr.byte_count = 120;

    for (int nxm = 0; nxm < 2; nxm++) {
        struct ofpbuf *b = ofputil_encode_flow_removed(
            &fr, nxm ? OFPUTIL_P_OF10_NXM : OFPUTIL_P_OF10_STD);
        assert_int_equal(ofputil_decode_flow_removed(&fr2, b->data), 0);
        assert_true(match_equal(&fr.match, &fr2.match));
        assert_int_equal(fr2.cookie, 0x55);
        assert_int_equal(fr2.priority, 9);
        assert_int_equal(fr2.reason, 1);
        assert_int_equal(fr2.table_id, nxm ? 4 : 255);
        assert_int_equal(fr2.duration_nsec, 5000000);
        assert_int_equal(fr2.byte_count, 120);
        ofpbuf_delete(b);
    }
}

static void
test_parse_key_value(void **state DPS_UNUSED)
{
    char *copy = xstrdup(" a=1, b:2 c(x,(y)),d\tactions=output:1,drop");
    static const char *const want[][2] = {
        { "a", "1" }, { "b", "2" }, { "c", "x,(y)" }, { "d", "" },
        { "actions", "output:1" }, { "drop", "" },
    };
    char *pos = copy, *key, *value;
    size_t n = 0;

    while (ofp_parse_key_value(&pos, &key, &value)) {
        assert_true(n < ARRAY_SIZE(want));
        assert_string_equal(key, want[n][0]);
        assert_string_equal(value, want[n][1]);
        n++;
    }
    assert_int_equal(n, ARRAY_SIZE(want));
    free(copy);
}

/* Parses 'flow' for 'command', then prints it back as dump-flows would. */
static char *
reformat(const char *flow, int command, uint32_t *usable,
         struct ofputil_flow_mod *fm)
{
    struct ofputil_port_map map = OFPUTIL_PORT_MAP_INITIALIZER;
    struct ofpbuf ofpacts;
    struct ds s = DS_EMPTY_INITIALIZER;

    ofputil_port_map_add(&map, 7, "p7");
    ofpbuf_init(&ofpacts, 0);
    char *error = ofp_parse_flow_mod(fm, flow, command, &map, &ofpacts,
                                     usable);
    assert_null(error);
    match_format(&fm->match, NULL, &s, fm->priority, OFP_DEFAULT_PRIORITY);
    ds_put_cstr(&s, " actions=");
    ofpacts_format(fm->ofpacts, fm->ofpacts_len, NULL, &s);

    /* The wire form decodes to the same flow. */
    enum ofputil_protocol protocol = (*usable & OFPUTIL_P_OF10_STD
                                      ? OFPUTIL_P_OF10_STD
                                      : OFPUTIL_P_OF10_NXM);
    struct ofpbuf *msg = ofputil_encode_flow_mod(fm, protocol, true);
    struct ofputil_flow_mod fm2;
    struct ofpbuf ofpacts2;
    ofpbuf_init(&ofpacts2, 0);
    assert_int_equal(ofputil_decode_flow_mod(&fm2, msg->data, true,
                                             &ofpacts2), 0);
    char *m1 = match_to_string(&fm->match, fm->priority);
    char *m2 = match_to_string(&fm2.match, fm2.priority);
    assert_string_equal(m1, m2);
    free(m1);
    free(m2);
    assert_int_equal(fm->priority, fm2.priority);
    assert_int_equal(fm->table_id, fm2.table_id);
    struct ds s2 = DS_EMPTY_INITIALIZER;
    ofpacts_format(fm2.ofpacts, fm2.ofpacts_len, NULL, &s2);
    assert_string_equal(strstr(ds_cstr(&s), "actions=") + 8, ds_cstr(&s2));
    ds_destroy(&s2);
    ofpbuf_delete(msg);
    ofpbuf_uninit(&ofpacts2);
    ofpbuf_uninit(&ofpacts);
    ofputil_port_map_destroy(&map);
    return ds_steal_cstr(&s);
}

static void
test_parse_flow_mod(void **state DPS_UNUSED)
{
    static const struct {
        const char *in, *out;
        bool of10;
    } cases[] = {
        { "in_port=1,actions=output:2", "in_port=1 actions=output:2", true },
        { "tcp nw_src=10.0.0.0/8 tp_dst=80 priority=5 actions=mod_dl_src:"
          "00:11:22:33:44:55,2",
          "priority=5,tcp,nw_src=10.0.0.0/8,tp_dst=80 actions=mod_dl_src:"
          "00:11:22:33:44:55,output:2", true },
        { "ip,nw_dst=1.2.3.4/255.255.0.0,actions=drop",
          "ip,nw_dst=1.2.0.0/16 actions=drop", true },
        { "udp,tp_src=0x10/0xf0,actions=NORMAL",
          "udp,tp_src=0x10/0xf0 actions=NORMAL", false },
        { "in_port=p7,dl_vlan=5,dl_vlan_pcp=3,actions=strip_vlan,LOCAL",
          "in_port=7,dl_vlan=5,dl_vlan_pcp=3 actions=strip_vlan,LOCAL",
          true },
        { "dl_vlan=0xffff,actions=IN_PORT,FLOOD,ALL",
          "vlan_tci=0x0000 actions=IN_PORT,FLOOD,ALL", true },
        { "arp,nw_src=1.2.3.4,actions=CONTROLLER:64,mod_vlan_vid:9",
          "arp,arp_spa=1.2.3.4 actions=CONTROLLER:64,mod_vlan_vid:9", true },
        { "table=3,icmp,icmp_type=8,actions=mod_nw_src:9.9.9.9,"
          "mod_tp_dst:99,output:p7",
          "icmp,icmp_type=8 actions=mod_nw_src:9.9.9.9,mod_tp_dst:99,"
          "output:7", true },
    };

    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct ofputil_flow_mod fm;
        uint32_t usable;
        char *s = reformat(cases[i].in, OFPFC_ADD, &usable, &fm);

        assert_string_equal(s, cases[i].out);
        assert_int_equal(!!(usable & OFPUTIL_P_OF10_STD), cases[i].of10);
        assert_true(usable & OFPUTIL_P_OF10_NXM);
        free(s);
    }

    /* Cookies: an add's is the new cookie; a modify's without a mask too,
     * with a mask it filters. */
    struct ofputil_flow_mod fm;
    uint32_t usable;
    char *s = reformat("cookie=0x10,actions=drop", OFPFC_ADD, &usable, &fm);
    assert_true(fm.new_cookie == 0x10 && !fm.cookie_mask);
    free(s);
    s = reformat("cookie=0x10,actions=drop", OFPFC_MODIFY, &usable, &fm);
    assert_true(fm.modify_cookie && fm.new_cookie == 0x10);
    free(s);
    s = reformat("cookie=0x10/-1,actions=drop", OFPFC_MODIFY, &usable, &fm);
    assert_true(!fm.modify_cookie && fm.cookie == 0x10
                && fm.cookie_mask == UINT64_MAX);
    assert_false(usable & OFPUTIL_P_OF10_STD);
    free(s);
    s = reformat("table=2,check_overlap,send_flow_rem,idle_timeout=5,"
                 "hard_timeout=6,actions=drop", OFPFC_ADD, &usable, &fm);
    assert_int_equal(fm.table_id, 2);
    assert_int_equal(fm.idle_timeout, 5);
    assert_int_equal(fm.hard_timeout, 6);
    assert_int_equal(fm.flags, (OFPUTIL_FF_CHECK_OVERLAP
                                | OFPUTIL_FF_SEND_FLOW_REM));
    free(s);
}

static void
test_parse_errors(void **state DPS_UNUSED)
{
    static const struct {
        int command;
        const char *in, *error;
    } cases[] = {
        { OFPFC_ADD, "in_port=1", "must specify an action" },
        { OFPFC_ADD, "foo=1,actions=drop", "unknown keyword foo" },
        { OFPFC_ADD, "out_port=1,actions=drop", "unknown keyword out_port" },
        { OFPFC_DELETE, "priority=5", "unknown keyword priority" },
        { OFPFC_ADD, "in_port=x,actions=drop",
          "x: invalid or unknown port for in_port" },
        { OFPFC_ADD, "dl_src=zz,actions=drop", "zz: invalid Ethernet address" },
        { OFPFC_ADD, "ip,nw_src=1.2.3.4/33,actions=drop",
          "1.2.3.4/33: IPv4 network prefix bits not between 0 and 32, "
          "inclusive" },
        { OFPFC_ADD, "tcp,tp_src=70000,actions=drop",
          "70000: value too large for 2-byte field tcp_src" },
        { OFPFC_ADD, "priority=70000,actions=drop",
          "invalid priority \"70000\"" },
        { OFPFC_ADD, "cookie=1/2,actions=drop",
          "flow additions cannot use a cookie mask" },
        { OFPFC_ADD, "actions=bogus", "unknown action bogus" },
        { OFPFC_ADD, "actions=drop,1",
          "\"drop\" must not be accompanied by any other action or "
          "instruction" },
        { OFPFC_ADD, "actions=mod_vlan_vid:4096",
          "4096: not a valid VLAN VID" },
        { OFPFC_ADD, "actions=mod_tp_src:x", "invalid source port \"x\"" },
        { OFPFC_ADD, "actions=note:zz", "bad hex digit in `note' argument" },
    };

    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct ofputil_flow_mod fm;
        struct ofpbuf ofpacts;
        uint32_t usable;

        ofpbuf_init(&ofpacts, 0);
        char *error = ofp_parse_flow_mod(&fm, cases[i].in, cases[i].command,
                                         NULL, &ofpacts, &usable);
        assert_non_null(error);
        assert_string_equal(error, cases[i].error);
        free(error);
        ofpbuf_uninit(&ofpacts);
    }
}

/* Actions as text: each parses, prints back as Open vSwitch 3.1's
 * ovs-ofctl shows it once through OpenFlow 1.0 (a set_field without an
 * OpenFlow 1.0 action becomes loads), and survives encoding and decoding
 * unchanged. */
static void
test_actions_text_and_of10(void **state DPS_UNUSED)
{
    static const struct {
        const char *in, *out;
    } cases[] = {
        { "load:0x2->NXM_NX_IP_ECN[]", "load:0x2->NXM_NX_IP_ECN[]" },
        { "load:0x5->NXM_NX_REG0[0..3],load:1->NXM_NX_REG1[7]",
          "load:0x5->NXM_NX_REG0[0..3],load:0x1->NXM_NX_REG1[7]" },
        { "load:0->reg5[]", "load:0->NXM_NX_REG5[]" },
        { "move:NXM_OF_ETH_SRC[]->NXM_OF_ETH_DST[]",
          "move:NXM_OF_ETH_SRC[]->NXM_OF_ETH_DST[]" },
        { "move:reg0[0..3]->reg1[4..7]",
          "move:NXM_NX_REG0[0..3]->NXM_NX_REG1[4..7]" },
        { "move:NXM_NX_REG1[]->OXM_OF_METADATA[0..31]",
          "move:NXM_NX_REG1[]->OXM_OF_METADATA[0..31]" },
        { "mod_nw_ecn:1,mod_nw_ttl:9",
          "load:0x1->NXM_NX_IP_ECN[],load:0x9->NXM_NX_IP_TTL[]" },
        { "set_field:00:11:22:33:44:55->eth_src,set_field:10.1.1.1->ip_dst,"
          "set_field:99->udp_dst",
          "mod_dl_src:00:11:22:33:44:55,mod_nw_dst:10.1.1.1,mod_tp_dst:99" },
        { "set_field:4->ip_dscp,set_field:1->vlan_pcp",
          "mod_nw_tos:16,mod_vlan_pcp:1" },
        { "set_field:5->reg3,set_field:0x3/0x3->reg4,set_field:7->nw_ttl",
          "load:0x5->NXM_NX_REG3[],load:0x3->NXM_NX_REG4[0..1],"
          "load:0x7->NXM_NX_IP_TTL[]" },
        { "set_field:0x1234567890->metadata",
          "load:0x1234567890->OXM_OF_METADATA[]" },
        { "set_field:::1->ipv6_src",
          "load:0x1->NXM_NX_IPV6_SRC[0..63],"
          "load:0->NXM_NX_IPV6_SRC[64..127]" },
        { "set_field:0xa/0xf0f->reg2",
          "load:0xa->NXM_NX_REG2[0..3],load:0->NXM_NX_REG2[8..11]" },
    };

    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct ofpbuf acts, msg, back;
        struct ds s;

        ofpbuf_init(&acts, 0);
        char *error = ofpacts_parse(cases[i].in, &acts, NULL);
        assert_null(error);

        ofpbuf_init(&msg, 0);
        size_t len = ofpacts_put_openflow_actions(acts.data, acts.size, &msg,
                                                  OFP10_VERSION);
        ofpbuf_init(&back, 0);
        assert_int_equal(ofpacts_pull_openflow_actions(&msg, len,
                                                       OFP10_VERSION, &back),
                         0);
        ds_init(&s);
        ofpacts_format(back.data, back.size, NULL, &s);
        assert_string_equal(ds_cstr(&s), cases[i].out);

        /* What came off the wire encodes to the same bytes again. */
        struct ofpbuf again;
        ofpbuf_init(&again, 0);
        ofpacts_put_openflow_actions(back.data, back.size, &again,
                                     OFP10_VERSION);
        assert_int_equal(again.size, len);
        ofpbuf_uninit(&again);

        /* The text printed parses back to the same list. */
        struct ofpbuf reparsed;
        ofpbuf_init(&reparsed, 0);
        assert_null(ofpacts_parse(ds_cstr(&s), &reparsed, NULL));
        assert_true(ofpacts_equal(reparsed.data, reparsed.size, back.data,
                                  back.size));
        ofpbuf_uninit(&reparsed);
        ds_destroy(&s);
        ofpbuf_uninit(&back);
        ofpbuf_uninit(&msg);
        ofpbuf_uninit(&acts);
    }

    /* set_field as written prints as written; push_vlan too. */
    struct ofpbuf acts;
    struct ds s;
    ofpbuf_init(&acts, 0);
    assert_null(ofpacts_parse("set_field:10.1.1.1->ip_dst,set_field:5->reg3,"
                              "push_vlan:0x8100", &acts, NULL));
    ds_init(&s);
    ofpacts_format(acts.data, acts.size, NULL, &s);
    assert_string_equal(ds_cstr(&s), "set_field:10.1.1.1->ip_dst,"
                        "set_field:0x5->reg3,push_vlan:0x8100");
    ds_destroy(&s);
    ofpbuf_uninit(&acts);
}

/* NXAST_REG_LOAD and NXAST_REG_MOVE on the wire: the bytes Debian's
 * ovs-ofctl 3.1 sends for load:0x2->NXM_NX_IP_ECN[] and
 * move:NXM_NX_REG0[0..15]->NXM_OF_TCP_DST[], and what is refused. */
static void
test_nx_load_move_wire(void **state DPS_UNUSED)
{
    static const uint8_t load[] = {
        0xff, 0xff, 0x00, 0x18, 0x00, 0x00, 0x23, 0x20, 0x00, 0x07,
        0x00, 0x01, 0x00, 0x01, 0x38, 0x01, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x02,
    };
    static const uint8_t move[] = {
        0xff, 0xff, 0x00, 0x18, 0x00, 0x00, 0x23, 0x20, 0x00, 0x06,
        0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x04,
        0x00, 0x00, 0x14, 0x02,
    };
    struct ofpbuf msg, acts, out;
    struct ds s;

    for (int i = 0; i < 2; i++) {
        const uint8_t *wire = i ? move : load;
        ofpbuf_init(&msg, 0);
        ofpbuf_put(&msg, wire, 24);
        ofpbuf_init(&acts, 0);
        assert_int_equal(ofpacts_pull_openflow_actions(&msg, 24,
                                                       OFP10_VERSION, &acts),
                         0);
        ds_init(&s);
        ofpacts_format(acts.data, acts.size, NULL, &s);
        assert_string_equal(ds_cstr(&s),
                            i ? "move:NXM_NX_REG0[0..15]->NXM_OF_TCP_DST[]"
                              : "load:0x2->NXM_NX_IP_ECN[]");
        ds_destroy(&s);
        ofpbuf_init(&out, 0);
        ofpacts_put_openflow_actions(acts.data, acts.size, &out,
                                     OFP10_VERSION);
        assert_int_equal(out.size, 24);
        assert_memory_equal(out.data, wire, 24);
        ofpbuf_uninit(&out);
        ofpbuf_uninit(&acts);
        ofpbuf_uninit(&msg);
    }

    /* A value wider than the bits, bits past the field, an unknown field,
     * a short action. */
    static const struct {
        size_t ofs;
        uint8_t byte;
        size_t len;
        enum ofperr error;
    } bad[] = {
        { 23, 0x04, 24, OFPERR_OFPBAC_BAD_ARGUMENT },   /* 4 in 2 bits. */
        { 11, 0x41, 24, OFPERR_OFPBAC_BAD_ARGUMENT },   /* ofs 1, 2 bits. */
        { 14, 0x7e, 24, OFPERR_OFPBAC_BAD_ARGUMENT },   /* No such field. */
        { 3, 0x10, 16, OFPERR_OFPBAC_BAD_LEN },
    };
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        uint8_t wire[24];
        memcpy(wire, load, sizeof wire);
        wire[bad[i].ofs] = bad[i].byte;
        ofpbuf_init(&msg, 0);
        ofpbuf_put(&msg, wire, bad[i].len);
        ofpbuf_init(&acts, 0);
        assert_int_equal(ofpacts_pull_openflow_actions(&msg, bad[i].len,
                                                       OFP10_VERSION, &acts),
                         bad[i].error);
        assert_int_equal(acts.size, 0);
        ofpbuf_uninit(&acts);
        ofpbuf_uninit(&msg);
    }
}

/* ofproto/trace's flow syntax: exact values, each field after the ones it
 * needs, Open vSwitch's messages. */
static void
test_parse_exact_flow(void **state DPS_UNUSED)
{
    static const struct {
        const char *in, *error;
    } cases[] = {
        { "in_port=1,tcp,nw_src=10.0.0.1,tp_dst=80", NULL },
        { "in_port=1,foo=1", "in_port=1,foo=1: unknown field foo" },
        { "in_port=1,nw_src=1.1.1.1",
          "in_port=1,nw_src=1.1.1.1: prerequisites not met for setting "
          "nw_src" },
        { "tcp,nw_src=10.0.0.0/8",
          "tcp,nw_src=10.0.0.0/8: bad value for nw_src (10.0.0.0/8: "
          "wildcards not allowed here)" },
        { "in_port=1,dl_dst=junk",
          "in_port=1,dl_dst=junk: bad value for dl_dst (junk: invalid "
          "Ethernet address)" },
    };

    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct match_flow flow;
        char *error = ofp_parse_exact_flow(cases[i].in, NULL, &flow);
        if (cases[i].error) {
            assert_non_null(error);
            assert_string_equal(error, cases[i].error);
        } else {
            assert_null(error);
            assert_int_equal(flow.in_port, 1);
            assert_int_equal(flow.dp.nw_proto, 6);
            assert_int_equal(flow.dp.tp_dst, htons(80));
        }
        free(error);
    }

    /* No in_port: OFPP_NONE, as Open vSwitch's "in_port=ANY". */
    struct match_flow flow;
    assert_null(ofp_parse_exact_flow("tcp", NULL, &flow));
    assert_int_equal(flow.in_port, 0xffff);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ofpbuf_grow_and_pull),
        cmocka_unit_test(test_ofpbuf_hex),
        cmocka_unit_test(test_ofpact_list),
        cmocka_unit_test(test_flow_mod_of10),
        cmocka_unit_test(test_flow_mod_nxm),
        cmocka_unit_test(test_flow_mod_of13),
        cmocka_unit_test(test_of13_errors),
        cmocka_unit_test(test_nxm_errors),
        cmocka_unit_test(test_flow_stats),
        cmocka_unit_test(test_flow_removed),
        cmocka_unit_test(test_parse_key_value),
        cmocka_unit_test(test_parse_flow_mod),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_actions_text_and_of10),
        cmocka_unit_test(test_nx_load_move_wire),
        cmocka_unit_test(test_parse_exact_flow),
    };
    return cmocka_run_group_tests_name("ofp", tests, NULL, NULL);
}
