/* Unit tests for lib/odp-util.c: datapath flow syntax for keys and masks,
 * round trips, errors, and packets composed from flow strings.
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
#include "dp-packet.h"
#include "dp-test.h"
#include "dynamic-string.h"
#include "flow.h"
#include "odp-util.h"
#include "util.h"

static int
setup(void **state DPS_UNUSED)
{
    dp_test_init("test-odp");
    return 0;
}

/* Parses 's' (with a mask if 'masked'), formats the result and checks that
 * it reads back as 'expect' (or 's' itself if 'expect' is NULL). */
static void
check_roundtrip(const char *s, bool masked, const char *expect)
{
    struct flow key, mask;
    char *error = odp_flow_parse(s, &key, masked ? &mask : NULL);

    if (error) {
        fail_msg("%s: %s", s, error);
    }

    struct ds ds = DS_EMPTY_INITIALIZER;
    odp_flow_format(&key, masked ? &mask : NULL, &ds);
    assert_string_equal(ds_cstr(&ds), expect ? expect : s);
    ds_destroy(&ds);
}

static void
test_exact_forms(void **state DPS_UNUSED)
{
    check_roundtrip("recirc_id(0),in_port(1),packet_type(ns=0,id=0),"
                    "eth(src=00:00:00:00:00:01,dst=00:00:00:00:00:02),"
                    "eth_type(0x0800),ipv4(src=10.0.0.1,dst=10.0.0.2,proto=6,"
                    "tos=0,ttl=64,frag=no),tcp(src=1,dst=2),"
                    "tcp_flags(syn|ack)", false, NULL);
    check_roundtrip("recirc_id(0),in_port(7),packet_type(ns=0,id=0),"
                    "eth(src=0a:00:00:00:00:01,"
                    "dst=ff:ff:ff:ff:ff:ff),eth_type(0x0806),"
                    "arp(sip=10.0.0.1,tip=10.0.0.254,op=1,"
                    "sha=0a:00:00:00:00:01,tha=00:00:00:00:00:00)",
                    false, NULL);
    check_roundtrip("recirc_id(0),in_port(2),packet_type(ns=0,id=0),"
                    "eth(src=00:11:22:33:44:55,"
                    "dst=66:77:88:99:aa:bb),eth_type(0x86dd),"
                    "ipv6(src=2001:db8::1,dst=fe80::abcd,label=0x12345,"
                    "proto=58,tclass=0x71,hlimit=255,frag=no),"
                    "icmpv6(type=135,code=0),nd(target=fe80::abcd,"
                    "sll=00:11:22:33:44:55,tll=00:00:00:00:00:00)",
                    false, NULL);
    check_roundtrip("recirc_id(0),in_port(1),packet_type(ns=0,id=0),"
                    "eth(src=00:00:00:00:00:01,"
                    "dst=00:00:00:00:00:02),eth_type(0x88a8),"
                    "vlan(vid=100,pcp=0),encap(eth_type(0x8100),"
                    "vlan(vid=200,pcp=3),encap(eth_type(0x0800),"
                    "ipv4(src=1.2.3.4,dst=5.6.7.8,proto=17,tos=0xb8,ttl=1,"
                    "frag=first),udp(src=53,dst=5353)))", false, NULL);
    check_roundtrip("recirc_id(0),in_port(1),packet_type(ns=0,id=0),"
                    "eth(src=00:00:00:00:00:01,"
                    "dst=00:00:00:00:00:02),eth_type(0x0800),"
                    "ipv4(src=1.2.3.4,dst=5.6.7.8,proto=17,tos=0,ttl=1,"
                    "frag=later)", false, NULL);
    check_roundtrip("recirc_id(0),in_port(1),packet_type(ns=0,id=0),"
                    "eth(src=00:00:00:00:00:01,"
                    "dst=00:00:00:00:00:02),eth_type(0x0800),"
                    "ipv4(src=1.2.3.4,dst=5.6.7.8,proto=1,tos=0,ttl=1,"
                    "frag=no),icmp(type=8,code=0)", false, NULL);
    check_roundtrip("recirc_id(0),in_port(1),packet_type(ns=0,id=0),"
                    "eth(src=00:00:00:00:00:01,"
                    "dst=00:00:00:00:00:02),eth_type(0x0800),"
                    "ipv4(src=1.2.3.4,dst=5.6.7.8,proto=132,tos=0,ttl=1,"
                    "frag=no),sctp(src=38412,dst=36412)", false, NULL);

    /* Spaces, packet_type and a different order are accepted. */
    check_roundtrip(" in_port(1) , packet_type(ns=0,id=0),recirc_id(0),"
                    "eth(dst=00:00:00:00:00:02, src=00:00:00:00:00:01),"
                    "eth_type(0x0800),ipv4(proto=6,src=10.0.0.1,"
                    "dst=10.0.0.2,ttl=64,tos=0,frag=no),tcp(dst=2,src=1),"
                    "tcp_flags(0x012)", false,
                    "recirc_id(0),in_port(1),packet_type(ns=0,id=0),"
                    "eth(src=00:00:00:00:00:01,"
                    "dst=00:00:00:00:00:02),eth_type(0x0800),"
                    "ipv4(src=10.0.0.1,dst=10.0.0.2,proto=6,tos=0,ttl=64,"
                    "frag=no),tcp(src=1,dst=2),tcp_flags(syn|ack)");
}

static void
test_masked_forms(void **state DPS_UNUSED)
{
    /* What dpctl/dump-flows shows for a NORMAL-style megaflow. */
    check_roundtrip("recirc_id(0),in_port(1),packet_type(ns=0,id=0),"
                    "eth(dst=00:00:00:00:00:02),eth_type(0x0800),"
                    "ipv4(frag=no)", true, NULL);
    check_roundtrip("recirc_id(0),in_port(1),packet_type(ns=0,id=0),"
                    "eth(src=00:00:00:00:00:00/01:00:00:00:00:00,"
                    "dst=00:00:00:00:00:02),eth_type(0x0800),"
                    "ipv4(src=10.0.0.0/255.255.255.0,proto=6,tos=0/0xfc,"
                    "frag=no),tcp(dst=80),tcp_flags(0x002/0x0ff)",
                    true,
                    "recirc_id(0),in_port(1),packet_type(ns=0,id=0),"
                    "eth(src=00:00:00:00:00:00/01:00:00:00:00:00,"
                    "dst=00:00:00:00:00:02),eth_type(0x0800),"
                    "ipv4(src=10.0.0.0/255.255.255.0,proto=6,tos=0/0xfc,"
                    "frag=no),tcp(dst=80),"
                    "tcp_flags(-fin+syn-rst-psh-ack-urg-ece-cwr)");
    check_roundtrip("recirc_id(0),in_port(1),eth_type(0x86dd),"
                    "ipv6(src=2001:db8::/32,frag=no)", true,
                    "recirc_id(0),in_port(1),packet_type(ns=0,id=0),"
                    "eth_type(0x86dd),ipv6(src=2001:db8::/ffff:ffff::,"
                    "frag=no)");
    check_roundtrip("in_port(3),eth_type(0x0800),ipv4(src=10.0.0.0/8)", true,
                    "in_port(3),packet_type(ns=0,id=0),eth_type(0x0800),"
                    "ipv4(src=10.0.0.0/255.0.0.0)");
    check_roundtrip("eth_type(0x8100),vlan(vid=10),encap(eth_type(0x0800))",
                    true, NULL);
    check_roundtrip("eth_type(0x0800),ipv4(proto=6),tcp_flags(+syn-ack)", true,
                    NULL);
    check_roundtrip("eth_type(0x0800),ipv4(proto=6),tcp_flags(0x800/0x800)",
                    true, NULL);
    check_roundtrip("", true, "");

    /* Value bits outside the mask are dropped. */
    check_roundtrip("eth_type(0x0800),ipv4(dst=10.1.2.3/255.255.0.0)", true,
                    "eth_type(0x0800),ipv4(dst=10.1.0.0/255.255.0.0)");
}

static void
test_errors(void **state DPS_UNUSED)
{
    static const char *const bad[] = {
        "in_port(1",
        "in_port(1))",
        "in_port(x)",
        "in_port(4294967296)",
        "in_port(-1)",
        "nosuch(1)",
        "in_port(1) in_port(2)",
        "eth(src=00:00:00:00:00)",
        "eth(src=00:00:00:00:00:00:00)",
        "eth(foo=1)",
        "eth(src)",
        "eth_type(0x10000)",
        "ipv4(src=1.2.3)",
        "ipv4(src=1.2.3.4/33)",
        "ipv4(frag=maybe)",
        "ipv4(ttl=256)",
        "ipv6(label=0x100000)",
        "ipv6(src=fe80::1::2)",
        "icmp(type=256)",
        "tcp_flags(syn|nope)",
        "vlan(vid=1)",
        "eth_type(0x0800),vlan(vid=1)",
        ("eth_type(0x8100),vlan(vid=1),encap(eth_type(0x8100),vlan(vid=2),"
         "encap(eth_type(0x8100),vlan(vid=3)))"),
        "encap(eth_type(0x0800)",
        "packet_type(ns=1,id=0x894f)",
        "in_port(1),",
        ",",
        "(1)",
    };

    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        struct flow key, mask;
        char *error = odp_flow_parse(bad[i], &key, &mask);

        if (!error) {
            /* "in_port(1)," is the one trailing comma tolerated. */
            if (!strcmp(bad[i], "in_port(1),")) {
                continue;
            }
            fail_msg("\"%s\" parsed", bad[i]);
        }
        free(error);
    }
}

/* Every sample flow: format, parse back, compose a packet from the string,
 * extract it, and get the same string again. */
static void
test_sample_flows(void **state DPS_UNUSED)
{
    struct flow flows[DP_TEST_MAX_FLOWS];
    size_t n = dp_test_sample_flows(flows);

    for (size_t i = 0; i < n; i++) {
        struct ds s1 = DS_EMPTY_INITIALIZER, s2 = DS_EMPTY_INITIALIZER;
        struct flow back, extracted;
        struct dp_packet *p;

        odp_flow_format(&flows[i], NULL, &s1);
        char *error = odp_flow_parse(ds_cstr(&s1), &back, NULL);
        if (error) {
            fail_msg("%s: %s", ds_cstr(&s1), error);
        }
        assert_memory_equal(&back, &flows[i], sizeof back);

        error = odp_packet_compose(ds_cstr(&s1), dp_test_pools.std, 5, &p);
        assert_null(error);
        flow_extract(p, &extracted);
        odp_flow_format(&extracted, NULL, &s2);
        assert_string_equal(ds_cstr(&s1), ds_cstr(&s2));
        dp_packet_free(p);

        /* Compact keys print the same. */
        struct flow_key key;
        flow_key_from_flow(&key, &flows[i]);
        ds_clear(&s2);
        odp_flow_key_format(&key, NULL, &s2);
        assert_string_equal(ds_cstr(&s1), ds_cstr(&s2));

        ds_destroy(&s1);
        ds_destroy(&s2);
    }

    struct dp_packet *p;
    char *error = odp_packet_compose("in_port(1),eth(", dp_test_pools.std, 0,
                                     &p);
    assert_non_null(error);
    assert_null(p);
    free(error);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        DP_TEST(test_exact_forms),
        DP_TEST(test_masked_forms),
        DP_TEST(test_errors),
        DP_TEST(test_sample_flows),
    };
    return cmocka_run_group_tests_name("odp", tests, setup,
                                       dp_test_teardown_group);
}
