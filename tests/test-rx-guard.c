/* Tests of the AddressSanitizer guard zones of received packets (see
 * dp_packet_poison() in lib/dp-packet.h): every packet netdev_rxq_recv()
 * returns, from the "dummy" and "dummy-pmd" port types and from a "dpdk"
 * port on net_ring, has its headroom and tailroom poisoned, the functions
 * that grow a packet move the zones with it, and a read or a write of one
 * byte beyond a received packet is reported by ASan.
 *
 * The overrun runs in a child process whose sanitizer report goes to a pipe
 * that the test reads.  In a build without ASan nothing can detect it: the
 * child then must survive the stray byte (it lies in the mbuf's tailroom),
 * and the test checks that instead, so the same program passes in both
 * builds and checks what each can do.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "dp-packet.h"
#include "dp-test.h"
#include "dpdk.h"
#include "dynamic-string.h"
#include "netdev-dpdk.h"
#include "netdev-dummy.h"
#include "netdev-provider.h"
#include "netdev.h"
#include "smap.h"
#include "util.h"
#if DP_PACKET_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

static struct dp_packet *
make_packet(size_t size, uint8_t fill)
{
    struct dp_packet *p = dp_test_eth_packet(dpdk_default_pool(), size, fill);

    assert_non_null(p);
    return p;
}

/* Checks that the data of every segment of 'p' is addressable and the bytes
 * right before and after it are not (ASan builds; nothing to check else). */
static void
check_guards(const struct dp_packet *p)
{
#if DP_PACKET_ASAN
    for (const struct rte_mbuf *m = &p->mbuf; m; m = m->next) {
        const char *buf = m->buf_addr;
        const char *data = buf + m->data_off;

        assert_null(__asan_region_is_poisoned((void *) data, m->data_len));
        if (m->data_off + m->data_len < m->buf_len) {
            assert_true(__asan_address_is_poisoned(data + m->data_len));
            assert_true(__asan_address_is_poisoned(buf + m->buf_len - 1));
        }
        /* ASan tracks 8-byte granules: only whole ones before the data can
         * be poisoned. */
        if (m->data_off >= 8) {
            assert_true(__asan_address_is_poisoned(buf));
        }
        if (m->data_off && !(m->data_off % 8)) {
            assert_true(__asan_address_is_poisoned(data - 1));
        }
    }
#else
    assert_non_null(p);
#endif
}

/* Checks that the whole buffer of every segment of 'p' is addressable. */
static void
check_no_guards(const struct dp_packet *p)
{
#if DP_PACKET_ASAN
    for (const struct rte_mbuf *m = &p->mbuf; m; m = m->next) {
        assert_null(__asan_region_is_poisoned(m->buf_addr, m->buf_len));
    }
#else
    assert_non_null(p);
#endif
}

/* In a child process, reads (or writes, if 'write') the byte right after
 * the first segment's data of 'p' and, with ASan, checks the report. */
static void
overrun(const struct dp_packet *p, bool write)
{
    int fds[2];

    assert_int_equal(pipe(fds), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (!pid) {
        close(fds[0]);
#if DP_PACKET_ASAN
        __sanitizer_set_report_fd((void *) (intptr_t) fds[1]);
#endif
        volatile char *end = (volatile char *) dp_packet_data(p)
                             + dp_packet_head_size(p);
        if (write) {
            *end = 'x';
        } else {
            char c = *end;
            (void) c;
        }
        _exit(0);
    }
    close(fds[1]);

    struct ds report = DS_EMPTY_INITIALIZER;
    char buf[4096];
    ssize_t n;
    while ((n = read(fds[0], buf, sizeof buf)) > 0) {
        ds_put_buffer(&report, buf, n);
    }
    close(fds[0]);

    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
#if DP_PACKET_ASAN
    const char *s = ds_cstr(&report);
    if (!strstr(s, "use-after-poison")
        || !strstr(s, write ? "WRITE of size 1" : "READ of size 1")) {
        fail_msg("no ASan report of the %s overrun; child said:\n%s",
                 write ? "write" : "read", s);
    }
    assert_false(WIFEXITED(status) && !WEXITSTATUS(status));
#else
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
#endif
    ds_destroy(&report);
}

/* Receives the one packet waiting on 'rxq' and checks it the way each test
 * does: guards in place, an overrun each way reported; then grows it at both
 * ends (the zones move) and frees it (they go). */
static void
check_received(struct netdev_rxq *rxq, size_t size, uint8_t fill)
{
    struct dp_packet_batch batch;

    assert_int_equal(netdev_rxq_recv(rxq, &batch, NULL), 0);
    assert_int_equal(batch.count, 1);
    struct dp_packet *p = batch.packets[0];
    uint8_t last;
    assert_int_equal(dp_packet_size(p), size);
    assert_int_equal(dp_packet_copy_out(p, size - 1, 1, &last), 0);
    assert_int_equal(last, fill);
    check_guards(p);
    overrun(p, false);
    overrun(p, true);

    /* Legitimate growth: a VLAN-sized push and a one-byte append. */
    char *head = dp_packet_push(p, 4);
    assert_non_null(head);
    memset(head, 0, 4);
    check_guards(p);
    uint8_t tail = 0xab;
    assert_int_equal(dp_packet_put(p, &tail, 1), 0);
    check_guards(p);
    assert_int_equal(dp_packet_size(p), size + 5);
    overrun(p, false);

    struct rte_mbuf *m = &p->mbuf;
    dp_packet_free(p);
    check_no_guards(dp_packet_from_mbuf(m));
}

static void
test_dummy(void **state DPS_UNUSED)
{
    const char *types[] = { "dummy", "dummy-pmd" };

    for (size_t i = 0; i < ARRAY_SIZE(types); i++) {
        struct netdev *netdev = NULL;
        struct netdev_rxq *rxq;
        char *err = NULL;
        char *name = xasprintf("guard%zu", i);

        assert_int_equal(netdev_open(name, types[i], &netdev, &err), 0);
        assert_int_equal(netdev_rxq_open(netdev, &rxq, 0), 0);

        /* Built packets carry guards already (dp_packet_put() sets them):
         * take them off, so that only the receive path can set them. */
        struct dp_packet *p = make_packet(64, 7);
        dp_packet_unpoison(p);
        assert_int_equal(netdev_dummy_queue_packet(netdev, 0, p), 0);
        check_received(rxq, 64, 7);

        /* A chain (a jumbo frame in 2 KB segments): every segment. */
        p = make_packet(5000, 9);
        dp_packet_unpoison(p);
        assert_int_equal(netdev_dummy_queue_packet(netdev, 0, p), 0);
        struct dp_packet_batch batch;
        assert_int_equal(netdev_rxq_recv(rxq, &batch, NULL), 0);
        assert_int_equal(batch.count, 1);
        assert_true(dp_packet_n_segs(batch.packets[0]) > 1);
        check_guards(batch.packets[0]);
        dp_packet_batch_free(&batch);

        netdev_rxq_close(rxq);
        netdev_close(netdev);
        free(name);
    }
}

static void
test_dpdk_ring(void **state DPS_UNUSED)
{
    struct netdev *netdev = NULL;
    struct netdev_rxq *rxq;
    char *err = NULL;

    assert_int_equal(netdev_open("guardring", "dpdk", &netdev, &err), 0);
    struct smap options = SMAP_INITIALIZER;
    smap_add(&options, "dpdk-devargs", "net_ring3");
    assert_int_equal(netdev_set_config(netdev, &options, &err), 0);
    smap_destroy(&options);
    assert_int_equal(netdev_reconfigure(netdev, &err), 0);
    assert_int_equal(netdev_rxq_open(netdev, &rxq, 0), 0);

    /* What is sent on net_ring comes back: the same mbuf, which
     * netdev_send() unpoisoned and netdev_rxq_recv() guards again. */
    for (int round = 0; round < 2; round++) {
        struct dp_packet_batch batch;

        dp_packet_batch_init(&batch);
        dp_packet_batch_add(&batch, make_packet(100 + round, 3));
        assert_int_equal(netdev_send(netdev, 0, &batch, true), 0);
        check_received(rxq, 100 + round, 3);
    }

    netdev_rxq_close(rxq);
    netdev_close(netdev);
}

int
main(int argc DPS_UNUSED, char *argv[])
{
    struct smap cfg = SMAP_INITIALIZER;
    char *extra = xasprintf("--no-huge --no-pci --file-prefix=test-rx-guard-%ld",
                            (long) getpid());

    util_set_program_name(argv[0]);
    smap_add(&cfg, "dpdk-init", "true");
    smap_add(&cfg, "dpdk-alloc-mem", "256");
    smap_add(&cfg, "dpdk-extra", extra);
    dpdk_init(&cfg);
    netdev_dpdk_register();
    netdev_dummy_register(NETDEV_DUMMY_ON);
    smap_destroy(&cfg);
    free(extra);

    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dummy),
        cmocka_unit_test(test_dpdk_ring),
    };
    return cmocka_run_group_tests_name("rx-guard", tests, NULL, NULL);
}
