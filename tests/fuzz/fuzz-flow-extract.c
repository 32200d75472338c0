/* Fuzz target: flow extraction on chains split at fuzzer-chosen offsets.
 *
 * Input: byte 0 chooses the first segment's size, byte 1 the size of the
 * following segments, the rest is the packet.  Checks that extraction of
 * the chain agrees with that of the same bytes in one segment, that the
 * datapath flow text of the key parses back to the same key, that the
 * simple-match parse finds the same fields, that software
 * checksum completion yields checksums that verify, and that header rewrites
 * (then egress) keep good checksums good and bad ones bad.  ASan watches the segments'
 * head- and tailroom, so any read outside the packet is caught.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "dp-packet-csum.h"
#include "dp-packet.h"
#include "dp-test.h"
#include "dynamic-string.h"
#include "flow.h"
#include "fuzz.h"
#include "odp-util.h"
#include "packets.h"
#include "util.h"

#define MAX_SIZE 2000

static void check_checksums(const struct dp_packet *);
static void check_rewrites(const struct dp_packet *);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) {
        return 0;
    }

    size_t first = 1 + data[0] % 64;
    size_t rest = 1 + data[1] % 192;
    data += 2;
    size = MIN(size - 2, MAX_SIZE);

    struct dp_packet *linear = dp_packet_alloc_data(dp_test_pools.std, data,
                                                    size);
    struct dp_packet *chain = dp_test_chain(dp_test_pools.tiny, data, size,
                                            first, rest);
    FUZZ_CHECK(linear && chain, "out of packet buffers");

    struct flow f1, f2;
    dp_packet_poison(linear);
    dp_packet_poison(chain);
    uint32_t r1 = flow_extract(linear, &f1);
    uint32_t r2 = flow_extract(chain, &f2);
    dp_packet_unpoison(linear);
    dp_packet_unpoison(chain);

    /* A chain whose first segment is short is examined through a window of
     * FLOW_MAX_HEADER_SIZE bytes; below that, results must be identical. */
    if (!(r2 & FLOW_ERR_HDR_LIMIT)) {
        FUZZ_CHECK(r1 == r2, "chain and linear results differ");
        FUZZ_CHECK(!memcmp(&f1, &f2, sizeof f1), "chain and linear differ");
        FUZZ_CHECK(linear->md.l3_ofs == chain->md.l3_ofs
                   && linear->md.l4_ofs == chain->md.l4_ofs,
                   "chain and linear offsets differ");
    }
    FUZZ_CHECK(!(r1 & FLOW_ERR_HDR_LIMIT), "window limit on linear packet");

    /* Compact key and text form round trips; direct extraction into a
     * compact key gives the same key. */
    struct flow_key key, key2;
    struct flow back;
    flow_key_from_flow(&key, &f1);
    flow_extract_key(linear, &key2);
    FUZZ_CHECK(flow_key_equal(&key, &key2), "flow_extract_key() differs");
    flow_extract_key(chain, &key2);
    FUZZ_CHECK((r2 & FLOW_ERR_HDR_LIMIT) || flow_key_equal(&key, &key2),
               "flow_extract_key() differs on chain");
    flow_key_to_flow(&key, &back);
    FUZZ_CHECK(!memcmp(&back, &f1, sizeof f1), "compact key round trip");

    /* The simple-match parse finds the fields extraction found, and the
     * same offsets and TCP flags. */
    struct dp_packet_md md = linear->md;
    uint16_t tcp_flags;
    uint32_t fields = flow_parse_simple(linear, &tcp_flags);
    FUZZ_CHECK(fields == flow_simple_pack(f1.dl_type, f1.vlan_tci[0],
                                          f1.nw_frag)
               && tcp_flags == ntohs(f1.tcp_flags),
               "flow_parse_simple() differs");
    FUZZ_CHECK(linear->md.l3_ofs == md.l3_ofs && linear->md.l4_ofs == md.l4_ofs
               && linear->md.l4_proto == md.l4_proto,
               "flow_parse_simple() offsets differ");

    struct ds s = DS_EMPTY_INITIALIZER;
    odp_flow_format(&f1, NULL, &s);
    char *error = odp_flow_parse(ds_cstr(&s), &back, NULL);
    FUZZ_CHECK(!error, "printed key does not parse");
    FUZZ_CHECK(!memcmp(&back, &f1, sizeof f1), "text round trip");
    ds_destroy(&s);

    check_checksums(chain);
    check_rewrites(chain);

    dp_packet_free(linear);
    dp_packet_free(chain);
    return 0;
}

/* Completing every checksum in software gives checksums that verify. */
static void
check_checksums(const struct dp_packet *p)
{
    struct dp_packet *q = dp_packet_clone(p);
    FUZZ_CHECK(q, "out of packet buffers");

    q->md.ip_csum = DP_CSUM_PARTIAL;
    q->md.l4_csum = DP_CSUM_PARTIAL;
    dp_packet_tx_prepare(q, 0);
    FUZZ_CHECK(q->md.ip_csum != DP_CSUM_PARTIAL
               && q->md.l4_csum != DP_CSUM_PARTIAL, "still partial");

    enum dp_csum ip = q->md.ip_csum, l4 = q->md.l4_csum;
    q->md.ip_csum = q->md.l4_csum = DP_CSUM_UNKNOWN;
    dp_packet_csum_verify(q);
    FUZZ_CHECK(ip != DP_CSUM_GOOD || q->md.ip_csum == DP_CSUM_GOOD,
               "completed IP checksum does not verify");
    FUZZ_CHECK(l4 != DP_CSUM_GOOD || q->md.l4_csum == DP_CSUM_GOOD,
               "completed L4 checksum does not verify");
    dp_packet_free(q);
}

/* Rewrites on checksums in state unknown keep right ones right and wrong
 * ones wrong. */
static void
check_rewrites(const struct dp_packet *p)
{
    struct dp_packet *q = dp_packet_clone(p);
    FUZZ_CHECK(q, "out of packet buffers");

    q->md.ip_csum = q->md.l4_csum = DP_CSUM_UNKNOWN;
    dp_packet_csum_verify(q);
    enum dp_csum ip = q->md.ip_csum, l4 = q->md.l4_csum;

    q->md.ip_csum = q->md.l4_csum = DP_CSUM_UNKNOWN;
    packet_set_ipv4_addr(q, true, htonl(0xc0000201));
    packet_set_ipv4_tos_ttl(q, 0x48, 17);
    static const struct ipv6_addr a6 = { { 0x20, 0x01, [15] = 0x77 } };
    packet_set_ipv6_addr(q, false, &a6);
    packet_set_l4_ports(q, htons(4321), htons(0));

    dp_packet_csum_verify(q);
    FUZZ_CHECK(q->md.ip_csum == ip, "IP checksum state changed");
    FUZZ_CHECK(q->md.l4_csum == l4, "L4 checksum state changed");
    dp_packet_free(q);

    /* The same rewrites on verified states (good ones become partial), then
     * egress on a port with no offload: good stays good, bad stays bad. */
    q = dp_packet_clone(p);
    FUZZ_CHECK(q, "out of packet buffers");
    q->md.ip_csum = q->md.l4_csum = DP_CSUM_UNKNOWN;
    dp_packet_csum_verify(q);
    packet_set_ipv4_addr(q, true, htonl(0xc0000201));
    packet_set_ipv4_tos_ttl(q, 0x48, 17);
    packet_set_ipv6_addr(q, false, &a6);
    packet_set_l4_ports(q, htons(4321), htons(0));
    dp_packet_tx_prepare(q, 0);
    q->md.ip_csum = q->md.l4_csum = DP_CSUM_UNKNOWN;
    dp_packet_csum_verify(q);
    FUZZ_CHECK(q->md.ip_csum == ip, "IP checksum state not kept at egress");
    FUZZ_CHECK(q->md.l4_csum == l4, "L4 checksum state not kept at egress");
    dp_packet_free(q);
}
