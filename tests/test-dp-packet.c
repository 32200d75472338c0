/* Unit tests for lib/dp-packet.c: pools, batches, metadata and every
 * segment-chain operation at every split offset.
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
#include "util.h"

#define N 300                   /* Bytes in the test packets. */

static uint8_t pattern[9000];

static void
fill_pattern(void)
{
    for (size_t i = 0; i < sizeof pattern; i++) {
        pattern[i] = (uint8_t) (i * 7 + (i >> 8) + 1);
    }
}

static int
setup(void **state DPS_UNUSED)
{
    fill_pattern();
    dp_test_init("test-dp-packet");
    return 0;
}

static void
test_alloc_free(void **state DPS_UNUSED)
{
    struct dp_packet *p = dp_packet_alloc(dp_test_pools.std);

    assert_non_null(p);
    assert_int_equal(dp_packet_size(p), 0);
    assert_int_equal(dp_packet_n_segs(p), 1);
    assert_true(dp_packet_is_linear(p));
    assert_int_equal(dp_packet_headroom(p), DP_PACKET_HEADROOM);
    assert_int_equal(dp_packet_tailroom(p),
                     RTE_MBUF_DEFAULT_BUF_SIZE - DP_PACKET_HEADROOM);
    assert_int_equal(p->md.l3_ofs, DP_PACKET_OFS_NONE);
    assert_int_equal(dp_packet_pool_data_room(dp_test_pools.std),
                     RTE_MBUF_DEFAULT_BUF_SIZE);
    assert_ptr_equal(rte_mbuf_to_priv(&p->mbuf), &p->md);
    dp_packet_free(p);
    dp_packet_free(NULL);
    assert_true(dp_test_pools_full());
}

static void
test_metadata(void **state DPS_UNUSED)
{
    struct dp_packet *p = dp_packet_alloc(dp_test_pools.std);
    uint32_t v;

    assert_false(dp_packet_rss_hash(p, &v));
    assert_false(dp_packet_flow_mark(p, &v));
    dp_packet_set_rss_hash(p, 0xdeadbeef);
    dp_packet_set_flow_mark(p, 77);
    assert_true(dp_packet_rss_hash(p, &v));
    assert_int_equal(v, 0xdeadbeef);
    assert_true(dp_packet_flow_mark(p, &v));
    assert_int_equal(v, 77);
    dp_packet_md_reset(p);
    assert_false(dp_packet_rss_hash(p, &v));

    /* Receive flags: each of the four states for IP and L4. */
    static const struct {
        uint64_t flags;
        enum dp_csum ip, l4;
    } cases[] = {
        { 0, DP_CSUM_UNKNOWN, DP_CSUM_UNKNOWN },
        { RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_BAD,
          DP_CSUM_GOOD, DP_CSUM_BAD },
        { RTE_MBUF_F_RX_IP_CKSUM_BAD | RTE_MBUF_F_RX_L4_CKSUM_GOOD,
          DP_CSUM_BAD, DP_CSUM_GOOD },
        { RTE_MBUF_F_RX_IP_CKSUM_NONE | RTE_MBUF_F_RX_L4_CKSUM_NONE,
          DP_CSUM_PARTIAL, DP_CSUM_PARTIAL },
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        p->mbuf.ol_flags = cases[i].flags;
        dp_packet_csum_from_rx_flags(p);
        assert_int_equal(p->md.ip_csum, cases[i].ip);
        assert_int_equal(p->md.l4_csum, cases[i].l4);
    }
    p->mbuf.ol_flags = RTE_MBUF_F_RX_RSS_HASH | RTE_MBUF_F_RX_FDIR
                       | RTE_MBUF_F_RX_FDIR_ID;
    p->mbuf.hash.fdir.hi = 1234;
    dp_packet_md_reset(p);
    dp_packet_csum_from_rx_flags(p);
    assert_true(dp_packet_flow_mark(p, &v));
    assert_int_equal(v, 1234);
    assert_true(dp_packet_rss_hash(p, &v));
    p->mbuf.ol_flags = 0;
    dp_packet_free(p);
}

/* Put: a packet built byte range by byte range in tiny segments reads back
 * identical from every offset, for every size. */
static void
test_put_and_copy_out(void **state DPS_UNUSED)
{
    struct dp_packet *p = dp_packet_alloc(dp_test_pools.tiny);

    for (size_t ofs = 0; ofs < N; ofs += 7) {
        assert_int_equal(dp_packet_put(p, pattern + ofs, MIN(7, N - ofs)), 0);
    }
    assert_true(dp_test_equal(p, pattern, N));
    assert_int_equal(dp_packet_n_segs(p), 3);

    uint8_t buf[N];
    for (size_t ofs = 0; ofs <= N; ofs++) {
        for (size_t size = 0; ofs + size <= N; size += 13) {
            assert_int_equal(dp_packet_copy_out(p, ofs, size, buf), 0);
            assert_memory_equal(buf, pattern + ofs, size);

            const uint8_t *r = dp_packet_read(p, ofs, size, buf);
            assert_non_null(r);
            assert_memory_equal(r, pattern + ofs, size);
        }
        assert_int_not_equal(dp_packet_copy_out(p, ofs, N - ofs + 1, buf), 0);
        assert_null(dp_packet_read(p, ofs, N - ofs + 1, buf));
    }
    dp_packet_free(p);
}

/* Copy in at every offset of a chain split at every offset. */
static void
test_copy_in(void **state DPS_UNUSED)
{
    uint8_t expect[N], patch[40];

    memset(patch, 0xa5, sizeof patch);
    for (size_t first = 1; first <= 64; first += 9) {
        for (size_t ofs = 0; ofs + sizeof patch <= N; ofs += 11) {
            struct dp_packet *p = dp_test_chain(dp_test_pools.tiny, pattern,
                                                N, first, 64);
            assert_non_null(p);
            assert_int_equal(dp_packet_copy_in(p, ofs, sizeof patch, patch),
                             0);
            memcpy(expect, pattern, N);
            memcpy(expect + ofs, patch, sizeof patch);
            assert_true(dp_test_equal(p, expect, N));
            assert_int_not_equal(dp_packet_copy_in(p, N - 1, 2, patch), 0);
            dp_packet_free(p);
        }
    }
}

/* Pull every number of bytes from chains split at every offset. */
static void
test_pull(void **state DPS_UNUSED)
{
    for (size_t first = 1; first <= 64; first += 3) {
        for (size_t size = 0; size <= N; size++) {
            struct dp_packet *p = dp_test_chain(dp_test_pools.tiny, pattern,
                                                N, first, 64);
            p->md.l3_ofs = 100;
            assert_int_equal(dp_packet_pull(p, size), 0);
            assert_true(dp_test_equal(p, pattern + size, N - size));
            if (size < N) {
                assert_true(dp_packet_head_size(p) > 0);
            }
            assert_int_equal(p->md.l3_ofs,
                             size <= 100 ? 100 - size : DP_PACKET_OFS_NONE);
            assert_int_not_equal(dp_packet_pull(p, N - size + 1), 0);
            dp_packet_free(p);
        }
    }
}

/* Push into the headroom, by sliding, and by a new segment. */
static void
test_push(void **state DPS_UNUSED)
{
    uint8_t expect[N + 200];

    for (size_t first = 1; first <= 64; first += 7) {
        for (size_t size = 0; size <= 64; size++) {
            struct dp_packet *p = dp_test_chain(dp_test_pools.tiny, pattern,
                                                N, first, 64);
            p->md.l4_ofs = 40;
            uint8_t *h = dp_packet_push(p, size);
            assert_non_null(h);
            memset(h, 0xee, size);
            memset(expect, 0xee, size);
            memcpy(expect + size, pattern, N);
            assert_true(dp_test_equal(p, expect, N + size));
            assert_true(dp_packet_head_size(p) >= size);
            assert_int_equal(p->md.l4_ofs, 40 + size);
            dp_packet_free(p);
        }
    }

    /* Repeated pushes into a single-segment packet with no headroom. */
    struct dp_packet *p = dp_packet_alloc(dp_test_pools.tiny);
    p->mbuf.data_off = 0;
    assert_int_equal(dp_packet_put(p, pattern, 10), 0);
    for (int i = 0; i < 20; i++) {
        uint8_t *h = dp_packet_push(p, 14);
        assert_non_null(h);
        memset(h, i, 14);
    }
    for (int i = 0; i < 20; i++) {
        memset(expect + i * 14, 19 - i, 14);
    }
    memcpy(expect + 280, pattern, 10);
    assert_true(dp_test_equal(p, expect, 290));
    assert_null(dp_packet_push(p, RTE_PKTMBUF_HEADROOM + 65));
    assert_true(dp_test_equal(p, expect, 290));
    dp_packet_free(p);
}

/* Trim every number of bytes from chains split at every offset. */
static void
test_trim(void **state DPS_UNUSED)
{
    for (size_t first = 1; first <= 64; first += 3) {
        for (size_t size = 0; size <= N; size++) {
            struct dp_packet *p = dp_test_chain(dp_test_pools.tiny, pattern,
                                                N, first, 64);
            assert_int_equal(dp_packet_trim(p, size), 0);
            assert_true(dp_test_equal(p, pattern, N - size));
            for (const struct rte_mbuf *m = p->mbuf.next; m; m = m->next) {
                assert_true(m->data_len > 0);
            }
            assert_int_not_equal(dp_packet_trim(p, N - size + 1), 0);
            dp_packet_free(p);
        }
    }
}

static void
test_put_uninit(void **state DPS_UNUSED)
{
    struct dp_packet *p = dp_test_chain(dp_test_pools.tiny, pattern, 100,
                                        30, 64);
    uint8_t expect[200];

    memcpy(expect, pattern, 100);
    for (int i = 0; i < 5; i++) {
        uint8_t *t = dp_packet_put_uninit(p, 20);
        assert_non_null(t);
        memset(t, 0x30 + i, 20);
        memset(expect + 100 + i * 20, 0x30 + i, 20);
    }
    assert_true(dp_test_equal(p, expect, 200));
    assert_null(dp_packet_put_uninit(p, 64 + RTE_PKTMBUF_HEADROOM + 1));
    assert_true(dp_test_equal(p, expect, 200));
    dp_packet_free(p);
}

/* Make the first n bytes contiguous, every n, chains split everywhere. */
static void
test_make_contiguous(void **state DPS_UNUSED)
{
    const size_t room = RTE_PKTMBUF_HEADROOM + 64;

    for (size_t first = 1; first <= 64; first += 5) {
        for (size_t rest = 1; rest <= 64; rest += 21) {
            for (size_t size = 0; size <= N; size++) {
                struct dp_packet *p = dp_test_chain(dp_test_pools.tiny,
                                                    pattern, N, first, rest);
                assert_non_null(p);
                uint8_t *d = dp_packet_make_contiguous(p, size);
                if (size > room) {
                    assert_null(d);
                } else {
                    assert_non_null(d);
                    assert_true(dp_packet_head_size(p) >= size);
                    assert_memory_equal(d, pattern, size);
                }
                assert_true(dp_test_equal(p, pattern, N));
                dp_packet_free(p);
            }
        }
    }
}

static void
test_linearize(void **state DPS_UNUSED)
{
    for (size_t first = 1; first <= 1500; first += 97) {
        struct dp_packet *p = dp_test_chain(dp_test_pools.std, pattern, 1900,
                                            first, 111);
        assert_int_equal(dp_packet_linearize(p), 0);
        assert_true(dp_packet_is_linear(p));
        assert_true(dp_test_equal(p, pattern, 1900));
        dp_packet_free(p);
    }

    /* Too long for one segment: refused, nothing lost. */
    struct dp_packet *p = dp_test_chain(dp_test_pools.std, pattern, 5000,
                                        1000, 2000);
    assert_int_equal(dp_packet_linearize(p), ENOBUFS);
    assert_true(dp_test_equal(p, pattern, 5000));
    dp_packet_free(p);
}

static void
test_clone(void **state DPS_UNUSED)
{
    struct dp_packet *p = dp_test_chain(dp_test_pools.tiny, pattern, N, 10,
                                        50);
    p->md.in_port = 5;
    dp_packet_set_rss_hash(p, 99);

    struct dp_packet *c = dp_packet_clone(p);
    assert_non_null(c);
    assert_true(dp_test_equal(c, pattern, N));
    assert_int_equal(c->md.in_port, 5);
    assert_int_equal(c->md.rss_hash, 99);
    assert_int_equal(dp_packet_headroom(c), dp_packet_headroom(p));

    uint8_t zero[N] = { 0 };
    dp_packet_copy_in(c, 0, N, zero);
    assert_true(dp_test_equal(p, pattern, N));
    dp_packet_free(p);
    assert_true(dp_test_equal(c, zero, N));
    dp_packet_free(c);
}

/* A 9000-byte frame into 2 KB segments and back, and into tiny ones. */
static void
test_copy_to_pool(void **state DPS_UNUSED)
{
    struct dp_packet *j = dp_packet_alloc_data(dp_test_pools.jumbo, pattern,
                                               9000);
    assert_non_null(j);
    assert_true(dp_packet_is_linear(j));
    j->md.l4_ofs = 34;

    struct dp_packet *c = dp_packet_copy_to_pool(j, dp_test_pools.std);
    assert_non_null(c);
    assert_int_equal(dp_packet_n_segs(c), 5);
    assert_true(dp_test_equal(c, pattern, 9000));
    assert_int_equal(c->md.l4_ofs, 34);

    struct dp_packet *back = dp_packet_copy_to_pool(c, dp_test_pools.jumbo);
    assert_non_null(back);
    assert_true(dp_packet_is_linear(back));
    assert_true(dp_test_equal(back, pattern, 9000));

    struct dp_packet *t = dp_packet_copy_to_pool(back, dp_test_pools.tiny);
    assert_non_null(t);
    assert_true(dp_test_equal(t, pattern, 9000));
    assert_int_equal(dp_packet_linearize(t), ENOBUFS);

    dp_packet_free(j);
    dp_packet_free(c);
    dp_packet_free(back);
    dp_packet_free(t);

    /* A pool that runs dry: NULL, nothing leaked. */
    struct rte_mempool *little;
    little = dp_packet_pool_create("test-little", 3,
                                   RTE_MBUF_DEFAULT_BUF_SIZE);
    assert_non_null(little);
    j = dp_packet_alloc_data(dp_test_pools.jumbo, pattern, 9000);
    assert_null(dp_packet_copy_to_pool(j, little));
    assert_null(dp_packet_alloc_data(little, pattern, 9000));
    assert_int_equal(rte_mempool_avail_count(little), 3);
    dp_packet_free(j);
    dp_packet_pool_destroy(little);
}

static void
test_batch(void **state DPS_UNUSED)
{
    struct dp_packet_batch batch;
    struct dp_packet *p;
    size_t n = 0;

    dp_packet_batch_init(&batch);
    assert_int_equal(dp_packet_batch_alloc(dp_test_pools.std, &batch, 40),
                     DP_PACKET_BATCH_SIZE);
    assert_true(dp_packet_batch_is_full(&batch));
    p = dp_packet_alloc(dp_test_pools.std);
    assert_false(dp_packet_batch_add(&batch, p));
    dp_packet_free(p);
    DP_PACKET_BATCH_FOR_EACH (i, p, &batch) {
        assert_int_equal(dp_packet_size(p), 0);
        assert_int_equal(p->md.l2_ofs, DP_PACKET_OFS_NONE);
        n = i + 1;
    }
    assert_int_equal(n, DP_PACKET_BATCH_SIZE);
    dp_packet_batch_free(&batch);
    assert_int_equal(batch.count, 0);
    assert_true(dp_test_pools_full());
}

/* dp_packet_tx_pending() sees each kind of egress work; a batch's egress
 * summary starts empty, is not extended by dp_packet_batch_add(), and
 * dp_packet_batch_append() carries it over only while every packet of the
 * destination is covered. */
static void
test_batch_egress_summary(void **state DPS_UNUSED)
{
    struct dp_packet_batch clean, dirty, dst;
    struct dp_packet *p;

    p = dp_packet_alloc_data(dp_test_pools.std, pattern, 100);
    assert_false(dp_packet_tx_pending(p));
    for (int csum = DP_CSUM_UNKNOWN; csum <= DP_CSUM_PARTIAL; csum++) {
        p->md.ip_csum = csum;
        assert_int_equal(dp_packet_tx_pending(p), csum == DP_CSUM_PARTIAL);
        p->md.ip_csum = DP_CSUM_UNKNOWN;
        p->md.l4_csum = csum;
        assert_int_equal(dp_packet_tx_pending(p), csum == DP_CSUM_PARTIAL);
        p->md.l4_csum = DP_CSUM_UNKNOWN;
    }
    p->md.tso_segsz = 1000;
    assert_true(dp_packet_tx_pending(p));
    dp_packet_free(p);
    p = dp_test_chain(dp_test_pools.std, pattern, 100, 30, 30);
    assert_non_null(p);
    assert_true(dp_packet_tx_pending(p));
    dp_packet_free(p);

    dp_packet_batch_init(&clean);
    dp_packet_batch_init(&dirty);
    assert_int_equal(dp_packet_batch_alloc(dp_test_pools.std, &clean, 20),
                     20);
    assert_int_equal(dp_packet_batch_alloc(dp_test_pools.std, &dirty, 20),
                     20);
    assert_int_equal(clean.n_clean, 0);
    dp_packet_batch_set_clean(&clean, true);
    assert_int_equal(clean.n_clean, 20);

    /* Clean, then dirty, then clean again: only the first 20 covered. */
    dp_packet_batch_init(&dst);
    assert_int_equal(dp_packet_batch_append(&dst, &clean, 0), 20);
    assert_int_equal(dst.count, 20);
    assert_int_equal(dst.n_clean, 20);
    assert_int_equal(dp_packet_batch_append(&dst, &dirty, 0), 12);
    assert_int_equal(dst.count, DP_PACKET_BATCH_SIZE);
    assert_int_equal(dst.n_clean, 20);
    assert_int_equal(dp_packet_batch_append(&dst, &clean, 0), 0);
    for (size_t i = 0; i < DP_PACKET_BATCH_SIZE; i++) {
        assert_ptr_equal(dst.packets[i], (i < 20 ? clean.packets[i]
                                          : dirty.packets[i - 20]));
    }

    /* The rest of 'dirty', then clean ones: none covered; an added packet
     * is not covered either. */
    dp_packet_batch_init(&dst);
    assert_int_equal(dp_packet_batch_append(&dst, &dirty, 12), 8);
    assert_int_equal(dp_packet_batch_append(&dst, &clean, 10), 10);
    assert_int_equal(dst.count, 18);
    assert_int_equal(dst.n_clean, 0);
    dp_packet_batch_init(&dst);
    assert_int_equal(dp_packet_batch_append(&dst, &clean, 5), 15);
    assert_int_equal(dst.n_clean, 15);
    assert_true(dp_packet_batch_add(&dst, dirty.packets[0]));
    assert_int_equal(dst.n_clean, 15);
    assert_int_equal(dst.count, 16);
    dp_packet_batch_set_clean(&dst, false);
    assert_int_equal(dst.n_clean, 0);
    dp_packet_batch_unclean(&clean);
    assert_int_equal(clean.n_clean, 0);

    dp_packet_batch_free(&clean);
    assert_int_equal(clean.n_clean, 0);
    dp_packet_batch_free(&dirty);
    assert_true(dp_test_pools_full());
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        DP_TEST(test_alloc_free),
        DP_TEST(test_metadata),
        DP_TEST(test_put_and_copy_out),
        DP_TEST(test_copy_in),
        DP_TEST(test_pull),
        DP_TEST(test_push),
        DP_TEST(test_trim),
        DP_TEST(test_put_uninit),
        DP_TEST(test_make_contiguous),
        DP_TEST(test_linearize),
        DP_TEST(test_clone),
        DP_TEST(test_copy_to_pool),
        DP_TEST(test_batch),
        DP_TEST(test_batch_egress_summary),
    };
    return cmocka_run_group_tests_name("dp-packet", tests, setup,
                                       dp_test_teardown_group);
}
