/* Helpers shared by the datapath unit tests, fuzz targets and benchmarks:
 * EAL set-up with heap-backed pools, chains with chosen segment sizes.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef DP_TEST_H
#define DP_TEST_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "dp-packet.h"
#include "flow.h"
#include "packets.h"

/* Pools every datapath test can use, made by dp_test_init(). */
struct dp_test_pools {
    struct rte_mempool *std;    /* 2 KB data room segments. */
    struct rte_mempool *tiny;   /* 64-byte data room: long chains. */
    struct rte_mempool *jumbo;  /* Room for a 9000-byte frame in one. */
};

extern struct dp_test_pools dp_test_pools;

void dp_test_init(const char *name);
void dp_test_fini(void);
bool dp_test_pools_full(void);

struct dp_packet *dp_test_eth_packet(struct rte_mempool *, size_t size,
                                     uint8_t fill);
struct dp_packet *dp_test_chain(struct rte_mempool *, const void *data,
                                size_t size, size_t first, size_t rest);
bool dp_test_chain_ok(const struct dp_packet *);
/* The packet of flow 'f' with 20 bytes of L4 payload, as it is (SHAPE_WHOLE),
 * cut to 30 bytes (SHAPE_CUT) or as a chain of 20- then 16-byte segments
 * (SHAPE_CHAIN), which split the headers: what header parsers are tested
 * on. */
enum dp_test_shape {
    DP_TEST_SHAPE_WHOLE,
    DP_TEST_SHAPE_CUT,
    DP_TEST_SHAPE_CHAIN,
};
struct dp_packet *dp_test_shaped_packet(const struct flow *f,
                                        enum dp_test_shape);
/* cmocka fixtures: group teardown (dp_test_fini()) and a per-test teardown
 * that fails the test if a segment leaked. */
int dp_test_teardown_group(void **state);
int dp_test_check_no_leak(void **state);

/* A cmocka test case 'FUNC' checked for leaks. */
#define DP_TEST(FUNC) cmocka_unit_test_teardown(FUNC, dp_test_check_no_leak)

bool dp_test_equal(const struct dp_packet *, const void *data, size_t size);

/* Sample flows and helpers to write more. */
#define DP_TEST_MAX_FLOWS 32
extern const struct eth_addr dp_test_mac1, dp_test_mac2;
extern const struct ipv6_addr dp_test_v6a, dp_test_v6b;
size_t dp_test_sample_flows(struct flow *flows);
void dp_test_base_flow(struct flow *, uint16_t dl_type);
void dp_test_ipv4_flow(struct flow *, uint8_t proto);
void dp_test_ipv6_flow(struct flow *, uint8_t proto);
void dp_test_ports(struct flow *, uint16_t src, uint16_t dst);

#endif /* dp-test.h */
