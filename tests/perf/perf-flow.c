/* perf-flow: what flow extraction plus hashing costs per packet, in
 * nanoseconds and instructions, for a mix of packet kinds, with packets in
 * one segment and in chains.  Prints a table.
 *
 * Usage: perf-flow [N_PACKETS_PER_ROW]
 *
 * Run it alone on a quiet machine (no busy-polling process on its CPU).
 * Instructions come from perf_event_open().  Where the kernel offers no
 * hardware counters (many VMs), run it under callgrind as well, which counts
 * them exactly (its times mean nothing, so it prints instructions only):
 *
 *   valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.%p \
 *       tests/perf/perf-flow 20000
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HAVE_CALLGRIND 1
#endif
#endif
#include "dp-packet-csum.h"
#include "dp-packet.h"
#include "dp-test.h"
#include "perf/perf-counter.h"
#include "flow.h"
#include "util.h"

#define N_PACKETS 256           /* Distinct packets cycled through. */

/* How the packets of a row are laid out in segments. */
enum layout {
    LINEAR,                     /* One segment. */
    CHAIN_HEAD,                 /* 128 bytes in the first, headers there. */
    CHAIN_SPLIT,                /* 20 bytes in the first: headers split. */
};

static const char *const layout_names[] = {
    "1 segment", "chain, headers in 1st", "chain, headers split",
};

/* A packet kind: which sample flows make it up. */
struct kind {
    const char *name;
    int flows[8];               /* Indexes into dp_test_sample_flows(). */
    int n_flows;
};

/* Under callgrind: the instructions counted since the last
 * CALLGRIND_ZERO_STATS, which this dumps and reads back; -1 otherwise. */
static double
callgrind_instructions(void)
{
#ifdef HAVE_CALLGRIND
    static int n_dumps;
    char name[64], line[256];
    double count = -1;

    if (!RUNNING_ON_VALGRIND) {
        return -1;
    }
    CALLGRIND_DUMP_STATS;
    snprintf(name, sizeof name, "/tmp/cg.%ld.%d", (long) getpid(),
             ++n_dumps);

    FILE *file = fopen(name, "r");
    while (file && fgets(line, sizeof line, file)) {
        if (!strncmp(line, "summary: ", 9) || !strncmp(line, "totals: ", 8)) {
            count = strtod(strchr(line, ' ') + 1, NULL);
        }
    }
    if (file) {
        fclose(file);
        unlink(name);
    }
    return count;
#else
    return -1;
#endif
}

static void
callgrind_zero(void)
{
#ifdef HAVE_CALLGRIND
    CALLGRIND_ZERO_STATS;
#endif
}

static double
now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static struct dp_packet *
make_packet(const struct flow *flow, size_t payload, enum layout layout)
{
    struct dp_packet *p = flow_compose(dp_test_pools.std, flow, payload);
    uint8_t buf[2048];
    size_t size = dp_packet_size(p);

    if (layout == LINEAR) {
        return p;
    }
    dp_packet_copy_out(p, 0, size, buf);
    dp_packet_free(p);
    return dp_test_chain(dp_test_pools.std, buf, size,
                         layout == CHAIN_HEAD ? 128 : 20, 512);
}

/* Times 'n' extractions and hashes over 'packets'; stores ns and
 * instructions per packet. */
static void
run(struct dp_packet **packets, size_t n_packets, size_t n,
    double *ns, double *instructions)
{
    struct flow_key key;
    uint32_t sink = 0;

    /* Warm up caches and branch predictors. */
    for (size_t i = 0; i < n_packets * 4; i++) {
        flow_extract_key(packets[i % n_packets], &key);
        sink += flow_key_hash(&key, 0);
    }

    perf_counter_start();
    callgrind_zero();
    double start = now_ns();
    for (size_t i = 0; i < n; i++) {
        struct dp_packet *p = packets[i % n_packets];

        flow_extract_key(p, &key);
        sink += flow_key_hash(&key, 0);
    }
    double elapsed = now_ns() - start;
    double counted = callgrind_instructions();
    if (perf_counter_available()) {
        counted = perf_counter_stop();
    }
    *ns = counted >= 0 && !perf_counter_available() ? -1 : elapsed / n;
    *instructions = counted >= 0 ? counted / n : -1;
    if (sink == 42) {
        putchar(' ');           /* Keeps the work from being optimised out. */
    }
}

/* Times dp_packet_tx_prepare() with nothing pending. */
static double
run_tx_prepare(struct dp_packet **packets, size_t n_packets, size_t n)
{
    double start = now_ns();

    for (size_t i = 0; i < n; i++) {
        dp_packet_tx_prepare(packets[i % n_packets], DP_TX_UDP_CSUM);
    }
    return (now_ns() - start) / n;
}

int
main(int argc, char *argv[])
{
    size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 4000000;
    struct flow flows[DP_TEST_MAX_FLOWS];

    util_set_program_name(argv[0]);
    dp_test_sample_flows(flows);
    dp_test_init("perf-flow");
    perf_counter_open();

    /* Indexes follow dp_test_sample_flows(). */
    static const struct kind kinds[] = {
        { "IPv4 TCP", { 3 }, 1 },
        { "IPv4 UDP", { 4 }, 1 },
        { "QinQ IPv4 TCP", { 2 }, 1 },
        { "IPv6 TCP", { 10 }, 1 },
        { "IPv6 ND", { 17 }, 1 },
        { "ARP", { 20 }, 1 },
        { "mix", { 3, 4, 10, 11, 2, 6, 17, 20 }, 8 },
    };

    printf("flow extraction + hash, %zu packets per row%s\n\n", n,
           !perf_counter_available() ? " (no instruction counter here)" : "");
    printf("%-15s", "packets");
    for (int l = 0; l < 3; l++) {
        printf(" | %22s", layout_names[l]);
    }
    printf("\n%-15s", "");
    for (int l = 0; l < 3; l++) {
        printf(" | %10s %11s", "ns/pkt", "instr/pkt");
    }
    printf("\n");

    for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
        printf("%-15s", kinds[k].name);
        for (int l = 0; l < 3; l++) {
            struct dp_packet *packets[N_PACKETS];

            for (size_t i = 0; i < N_PACKETS; i++) {
                int f = kinds[k].flows[i % kinds[k].n_flows];
                packets[i] = make_packet(&flows[f], 64 + (i % 7) * 200, l);
                util_assert(packets[i]);
            }

            double ns, instructions;
            run(packets, N_PACKETS, n, &ns, &instructions);
            if (ns >= 0) {
                printf(" | %10.1f", ns);
            } else {
                printf(" | %10s", "n/a");
            }
            if (instructions >= 0) {
                printf(" %11.0f", instructions);
            } else {
                printf(" %11s", "n/a");
            }
            fflush(stdout);
            for (size_t i = 0; i < N_PACKETS; i++) {
                dp_packet_free(packets[i]);
            }
        }
        printf("\n");
    }

    /* The egress step for packets with no checksum pending. */
    struct dp_packet *packets[N_PACKETS];
    for (size_t i = 0; i < N_PACKETS; i++) {
        packets[i] = make_packet(&flows[4], 64, LINEAR);
        packets[i]->md.ip_csum = DP_CSUM_GOOD;
        packets[i]->md.l4_csum = DP_CSUM_BAD;
    }
    printf("\ndp_packet_tx_prepare(), nothing pending: %.2f ns/pkt\n",
           run_tx_prepare(packets, N_PACKETS, n));
    for (size_t i = 0; i < N_PACKETS; i++) {
        dp_packet_free(packets[i]);
    }

    perf_counter_close();
    dp_test_fini();
    return 0;
}
