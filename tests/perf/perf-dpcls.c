/* perf-dpcls: what the datapath's flow caches cost per packet.
 *
 * For 1, 1k, 100k and 1M megaflows spread over 1, 4 and 16 masks, it times
 * (a) dpcls_lookup() on batches of 32 keys, every key matching a megaflow
 * picked at random (the classifier path: the EMC missed), and (b) the
 * cache pipeline a PMD runs: hash each key, look it up in the EMC, send the
 * misses to the classifier in one batch and insert them into the EMC with
 * probability 1/100.  Keys come from a set of up to 1M distinct keys visited
 * in random order, so with many flows the EMC thrashes, as it does in a real
 * switch.  Then it shows what sorting the subtables by hits gains when most
 * traffic hits one subtable, and times EMC hits alone (4k flows that fit in
 * the EMC).
 *
 * Usage: perf-dpcls [SECONDS_PER_CELL]    (default 0.3)
 *
 * Run it alone on a quiet machine (no busy-polling process on its CPU).
 * Instructions come from perf_event_open(); where the kernel offers no
 * hardware counters (many VMs) that column says n/a.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <rte_prefetch.h>
#include "dp-emc.h"
#include "dp-flow.h"
#include "dp-rcu.h"
#include "dpcls.h"
#include "dpif-test.h"
#include "perf/perf-counter.h"
#include "util.h"

#define BATCH DPCLS_MAX_BATCH
#define MAX_KEYS (1u << 20)

static double
now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct result {
    double ns;                  /* Per packet. */
    double instructions;        /* Per packet, or -1. */
    double extra;               /* Lookups per hit, or EMC hit ratio. */
};

struct setup {
    struct dp_rcu *rcu;
    struct dpcls cls;
    struct dp_flow **flows;
    size_t n_flows;
    struct flow_key *keys;      /* Each matches some flow. */
    uint32_t *hashes;           /* flow_key_hash() of each key. */
    size_t n_keys;
};

static void
setup_create(struct setup *s, size_t n_flows, size_t n_masks)
{
    struct flow_key masks[16], key;
    uint64_t w[FLOW_N_WORDS];

    dpif_test_seed(n_flows * 31 + n_masks);
    s->rcu = dp_rcu_create(1);
    dpcls_init(&s->cls, s->rcu);

    /* Masks like a learning switch's and an L3/L4 policy's: in_port, MACs,
     * VLAN, then IPv4 addresses, prefixes and ports in various
     * combinations. */
    for (size_t m = 0; m < n_masks; m++) {
        memset(w, 0, sizeof w);
        w[0] = UINT64_MAX;                      /* in_port, recirc_id */
        w[2] = UINT64_C(0xffff00000000ffff) >> (m % 2) * 16;
        w[3] = m & 2 ? UINT64_MAX : 0;
        w[4] = m & 4 ? UINT64_MAX : UINT64_C(0xffffff00ffffffff);
        w[9] = m & 8 ? UINT64_C(0xff00000000) : 0;
        w[14] = m & 1 ? UINT64_C(0xffffffff) : UINT64_C(0xffff);
        w[1] = (m / 4 == 1) ? UINT64_MAX : 0;
        dpif_test_key_from_words(&masks[m], w);
    }

    s->flows = xcalloc(n_flows, sizeof *s->flows);
    s->n_flows = 0;
    while (s->n_flows < n_flows) {
        dpif_test_random_key(&key, 0.1);
        struct dp_flow *f = dp_flow_create(s->rcu, &key,
                                           &masks[s->n_flows % n_masks],
                                           NULL, 0, NULL);
        if (dpcls_insert(&s->cls, &f->cr, &f->key, &f->mask)) {
            dp_flow_unref(f);
        } else {
            s->flows[s->n_flows++] = f;
        }
    }
    dp_rcu_barrier(s->rcu);

    s->n_keys = MAX(MIN(n_flows, (size_t) MAX_KEYS), (size_t) 4096);
    s->keys = xcalloc(s->n_keys, sizeof *s->keys);
    s->hashes = xcalloc(s->n_keys, sizeof *s->hashes);
    for (size_t i = 0; i < s->n_keys; i++) {
        const struct dp_flow *f = s->flows[dpif_test_random() % n_flows];

        dpif_test_matching_key(&s->keys[i], &f->key, &f->mask);
        s->hashes[i] = flow_key_hash(&s->keys[i], 0);
    }
    dp_rcu_register(s->rcu, 0);
}

static void
setup_destroy(struct setup *s)
{
    dp_rcu_unregister(s->rcu, 0);
    for (size_t i = 0; i < s->n_flows; i++) {
        dpcls_remove(&s->cls, &s->flows[i]->cr);
        dp_flow_unref(s->flows[i]);
    }
    dpcls_destroy(&s->cls);
    dp_rcu_destroy(s->rcu);
    free(s->flows);
    free(s->keys);
    free(s->hashes);
}

/* Visits keys in a fixed pseudo-random order: steps of a stride prime to
 * the number of keys.  'ahead' runs one batch in front and prefetches, as a
 * PMD prefetches the next packets' headers. */
struct cursor {
    const struct flow_key *keys;
    size_t n, stride, pos, ahead;
};

static void
cursor_init(struct cursor *c, const struct setup *s)
{
    c->keys = s->keys;
    c->n = s->n_keys;
    c->stride = 611953 % c->n;  /* A prime: odd and not a multiple of 5. */
    c->pos = 0;
    c->ahead = 0;
    for (int i = 0; i < BATCH; i++) {
        c->ahead += c->stride;
        c->ahead -= c->ahead >= c->n ? c->n : 0;
    }
}

/* Returns the index of the next key. */
static inline size_t
cursor_next(struct cursor *c)
{
    size_t k = c->pos;

    rte_prefetch0(&c->keys[c->ahead]);
    rte_prefetch0((const char *) &c->keys[c->ahead] + 64);
    c->ahead += c->stride;
    c->ahead -= c->ahead >= c->n ? c->n : 0;
    c->pos += c->stride;
    c->pos -= c->pos >= c->n ? c->n : 0;
    return k;
}

static struct result
run_dpcls(struct setup *s, double seconds)
{
    struct result r = { 0, -1, 0 };
    unsigned int n_lookups = 0;
    double start, elapsed, instructions;
    struct cursor c;
    size_t n = 0;

    cursor_init(&c, s);
    perf_counter_start();
    start = now_s();
    do {
        for (int rep = 0; rep < 64; rep++) {
            const struct flow_key *kp[BATCH];
            struct dpcls_rule *rules[BATCH];

            for (int i = 0; i < BATCH; i++) {
                kp[i] = &s->keys[cursor_next(&c)];
            }
            if (!dpcls_lookup(&s->cls, kp, BATCH, rules, &n_lookups)) {
                util_fatal(0, "unexpected miss");
            }
            n += BATCH;
        }
        dp_rcu_quiescent(s->rcu, 0);
        elapsed = now_s() - start;
    } while (elapsed < seconds);
    instructions = perf_counter_stop();

    r.ns = elapsed * 1e9 / n;
    r.instructions = instructions >= 0 ? instructions / n : -1;
    r.extra = (double) n_lookups / n;
    return r;
}

static struct result
run_pipeline(struct setup *s, struct dp_emc *emc, double seconds)
{
    struct result r = { 0, -1, 0 };
    size_t n = 0, n_emc_hits = 0;
    double start, elapsed, instructions;
    struct cursor c;

    cursor_init(&c, s);
    perf_counter_start();
    start = now_s();
    do {
        for (int rep = 0; rep < 64; rep++) {
            const struct flow_key *miss_keys[BATCH];
            struct dpcls_rule *rules[BATCH];
            size_t idx[BATCH], n_miss = 0;
            struct dp_flow *flows[BATCH];
            uint32_t sink = 0;

            for (int i = 0; i < BATCH; i++) {
                idx[i] = cursor_next(&c);
                dp_emc_prefetch(emc, s->hashes[idx[i]]);
            }
            for (int i = 0; i < BATCH; i++) {
                size_t k = idx[i];
                uint32_t hash = flow_key_hash(&s->keys[k], 0);

                flows[i] = dp_emc_lookup(emc, &s->keys[k], hash);
                if (!flows[i]) {
                    miss_keys[n_miss] = &s->keys[k];
                    idx[n_miss++] = k;
                }
            }
            n_emc_hits += BATCH - n_miss;
            if (n_miss) {
                dpcls_lookup(&s->cls, miss_keys, n_miss, rules, NULL);
                for (size_t i = 0; i < n_miss; i++) {
                    struct dp_flow *f = CONTAINER_OF(rules[i],
                                                     struct dp_flow, cr);
                    dp_emc_probabilistic_insert(emc, miss_keys[i],
                                                s->hashes[idx[i]], f);
                    sink += f->mark;
                }
            }
            if (sink == 42) {
                putchar(' ');
            }
            n += BATCH;
        }
        dp_rcu_quiescent(s->rcu, 0);
        elapsed = now_s() - start;
    } while (elapsed < seconds);
    instructions = perf_counter_stop();

    r.ns = elapsed * 1e9 / n;
    r.instructions = instructions >= 0 ? instructions / n : -1;
    r.extra = 100.0 * n_emc_hits / n;
    return r;
}

static void
print_cell(const struct result *r)
{
    printf(" | %7.1f", r->ns);
    if (r->instructions >= 0) {
        printf(" %6.0f", r->instructions);
    } else {
        printf(" %6s", "n/a");
    }
}

int
main(int argc, char *argv[])
{
    double seconds = argc > 1 ? strtod(argv[1], NULL) : 0.3;
    static const size_t flow_counts[] = { 1, 1000, 100000, 1000000 };
    static const size_t mask_counts[] = { 1, 4, 16 };

    util_set_program_name(argv[0]);
    perf_counter_open();
    printf("flow caches, batches of %d keys, %.2f s per cell%s\n\n", BATCH,
           seconds, !perf_counter_available() ? " (no instruction counter here)" : "");
    printf("%9s %6s | %14s %8s | %14s %8s\n", "", "",
           "dpcls lookup", "subtbl/", "EMC -> dpcls", "EMC");
    printf("%9s %6s | %7s %6s %8s | %7s %6s %8s\n", "megaflows", "masks",
           "ns/pkt", "instr", "hit", "ns/pkt", "instr", "hit %");

    for (size_t f = 0; f < ARRAY_SIZE(flow_counts); f++) {
        for (size_t m = 0; m < ARRAY_SIZE(mask_counts); m++) {
            size_t n_flows = flow_counts[f], n_masks = mask_counts[m];
            struct setup s;

            if (n_masks > n_flows) {
                continue;
            }
            setup_create(&s, n_flows, n_masks);

            struct result a = run_dpcls(&s, seconds);
            struct dp_emc *emc = dp_emc_create();
            struct result b = run_pipeline(&s, emc, seconds);
            dp_emc_destroy(emc);

            printf("%9zu %6zu", n_flows, n_masks);
            print_cell(&a);
            printf(" %8.2f", a.extra);
            print_cell(&b);
            printf(" %8.1f\n", b.extra);
            fflush(stdout);
            setup_destroy(&s);
        }
    }

    /* Skewed traffic: 90% of the keys match megaflows of the subtable
     * created last.  Sorting the subtables by hits puts it first. */
    struct setup s;
    setup_create(&s, 1600, 16);
    for (size_t i = 0; i < s.n_keys; i++) {
        size_t f = dpif_test_random() % (s.n_flows / 16) * 16;
        f += i % 10 ? 15 : dpif_test_random() % 15;
        dpif_test_matching_key(&s.keys[i], &s.flows[f]->key,
                               &s.flows[f]->mask);
        s.hashes[i] = flow_key_hash(&s.keys[i], 0);
    }
    struct result unsorted = run_dpcls(&s, seconds);
    dpcls_sort_subtables(&s.cls);
    dp_rcu_quiescent(s.rcu, 0);
    struct result sorted = run_dpcls(&s, seconds);
    printf("\nskewed traffic, 1600 megaflows over 16 masks, 90%% in the last:"
           "\n  subtables in insertion order: %.1f ns/pkt, %.2f subtables/hit"
           "\n  after dpcls_sort_subtables(): %.1f ns/pkt, %.2f subtables/hit"
           "\n", unsorted.ns, unsorted.extra, sorted.ns, sorted.extra);
    setup_destroy(&s);

    /* EMC hits alone: every key cached (inserted on every miss). */
    setup_create(&s, 4096, 4);
    struct dp_emc *emc = dp_emc_create();
    dp_emc_set_insert_inv_prob(emc, 1);
    run_pipeline(&s, emc, seconds / 4);
    struct result c = run_pipeline(&s, emc, seconds);
    printf("\nEMC hit path (4096 flows, insert-inv-prob 1): %.1f ns/pkt, ",
           c.ns);
    if (c.instructions >= 0) {
        printf("%.0f instructions/pkt, ", c.instructions);
    }
    printf("%.1f%% EMC hits\n", c.extra);
    dp_emc_destroy(emc);
    setup_destroy(&s);

    perf_counter_close();
    return 0;
}
