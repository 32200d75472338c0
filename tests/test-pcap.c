/* Unit tests for lib/pcap-file.c: the file and record headers byte for
 * byte, round trips of linear and chained packets, both byte orders, the
 * nanosecond variant, truncation at the snapshot length and malformed
 * files.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include "dp-packet.h"
#include "dp-test.h"
#include "pcap-file.h"
#include "util.h"

static uint8_t pattern[300000];
static char file_name[64];

static int
setup(void **state DPS_UNUSED)
{
    for (size_t i = 0; i < sizeof pattern; i++) {
        pattern[i] = (uint8_t) (i * 31 + (i >> 9) + 3);
    }
    dp_test_init("test-pcap");
    return 0;
}

static int
make_name(void **state DPS_UNUSED)
{
    snprintf(file_name, sizeof file_name, "/tmp/test-pcap-XXXXXX");
    close(mkstemp(file_name));
    return 0;
}

static int
remove_file(void **state)
{
    unlink(file_name);
    return dp_test_check_no_leak(state);
}

#define PCAP_TEST(FUNC) cmocka_unit_test_setup_teardown(FUNC, make_name, \
                                                        remove_file)

/* Reads the whole of 'file_name' into a malloc()ed buffer. */
static uint8_t *
slurp(size_t *sizep)
{
    FILE *f = fopen(file_name, "rb");
    uint8_t *buf = xmalloc(400000);

    assert_non_null(f);
    *sizep = fread(buf, 1, 400000, f);
    fclose(f);
    return buf;
}

static void
spew(const void *data, size_t size)
{
    FILE *f = fopen(file_name, "wb");

    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    fclose(f);
}

static uint32_t
get_u32(const uint8_t *p)
{
    uint32_t x;

    memcpy(&x, p, 4);
    return x;
}

static void
test_header_and_records(void **state DPS_UNUSED)
{
    struct pcap_file *pf;
    struct timeval before, after;
    uint8_t *buf;
    size_t size;

    gettimeofday(&before, NULL);
    assert_int_equal(pcap_file_open_write(file_name, &pf), 0);
    assert_string_equal(pcap_file_name(pf), file_name);

    /* The header alone is on disk at once. */
    buf = slurp(&size);
    assert_int_equal(size, 24);
    assert_int_equal(get_u32(buf), 0xa1b2c3d4);
    assert_int_equal(buf[4] | buf[5] << 8, 2);
    assert_int_equal(buf[6] | buf[7] << 8, 4);
    assert_int_equal(get_u32(buf + 8), 0);
    assert_int_equal(get_u32(buf + 12), 0);
    assert_int_equal(get_u32(buf + 16), 262144);
    assert_int_equal(get_u32(buf + 20), 1);
    free(buf);

    /* A chain of 5 segments: every byte, in order, flushed at once. */
    struct dp_packet *p = dp_test_chain(dp_test_pools.std, pattern, 1000,
                                        200, 200);
    assert_int_equal(dp_packet_n_segs(p), 5);
    assert_int_equal(pcap_file_write(pf, p), 0);
    dp_packet_free(p);
    assert_int_equal(pcap_file_write_data(pf, pattern + 5, 60), 0);
    gettimeofday(&after, NULL);

    buf = slurp(&size);
    assert_int_equal(size, 24 + 16 + 1000 + 16 + 60);
    const uint8_t *r = buf + 24;
    long long int ts = get_u32(r) * 1000000LL + get_u32(r + 4);
    assert_true(get_u32(r + 4) < 1000000);
    assert_true(ts >= before.tv_sec * 1000000LL + before.tv_usec);
    assert_true(ts <= after.tv_sec * 1000000LL + after.tv_usec);
    assert_int_equal(get_u32(r + 8), 1000);
    assert_int_equal(get_u32(r + 12), 1000);
    assert_memory_equal(r + 16, pattern, 1000);
    r += 16 + 1000;
    assert_int_equal(get_u32(r + 8), 60);
    assert_int_equal(get_u32(r + 12), 60);
    assert_memory_equal(r + 16, pattern + 5, 60);
    free(buf);
    pcap_file_close(pf);
    pcap_file_close(NULL);
}

static void
test_round_trip(void **state DPS_UNUSED)
{
    static const size_t sizes[] = { 14, 60, 1514, 2000, 9000 };
    struct pcap_file *pf;
    struct dp_packet *p;

    assert_int_equal(pcap_file_open_write(file_name, &pf), 0);
    for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
        /* Odd segment sizes, from the tiny pool. */
        p = dp_test_chain(dp_test_pools.tiny, pattern + i, sizes[i],
                          MIN(sizes[i], 7), 61);
        assert_non_null(p);
        assert_int_equal(pcap_file_write(pf, p), 0);
        dp_packet_free(p);
    }
    pcap_file_close(pf);

    /* Read back as raw bytes... */
    long long int usec;
    size_t size;
    void *data;

    assert_int_equal(pcap_file_open_read(file_name, &pf), 0);
    for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
        assert_int_equal(pcap_file_read_data(pf, &data, &size, &usec), 0);
        assert_int_equal(size, sizes[i]);
        assert_memory_equal(data, pattern + i, size);
        assert_true(usec > 0);
        free(data);
    }
    assert_int_equal(pcap_file_read_data(pf, &data, &size, NULL), EOF);
    assert_null(data);
    pcap_file_close(pf);

    /* ...and as packets, chains where the pool's segments are small. */
    assert_int_equal(pcap_file_open_read(file_name, &pf), 0);
    for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
        assert_int_equal(pcap_file_read(pf, dp_test_pools.std, &p), 0);
        assert_true(dp_test_equal(p, pattern + i, sizes[i]));
        assert_true(dp_test_chain_ok(p));
        assert_int_equal(dp_packet_n_segs(p) > 1, sizes[i] > RTE_MBUF_DEFAULT_DATAROOM);
        dp_packet_free(p);
    }
    assert_int_equal(pcap_file_read(pf, dp_test_pools.std, &p), EOF);
    assert_null(p);
    pcap_file_close(pf);
}

static void
test_snaplen(void **state DPS_UNUSED)
{
    struct pcap_file *pf;
    size_t size;
    uint8_t *buf;
    void *data;

    assert_int_equal(pcap_file_open_write(file_name, &pf), 0);
    assert_int_equal(pcap_file_write_data(pf, pattern, 262145), 0);
    pcap_file_close(pf);

    buf = slurp(&size);
    assert_int_equal(size, 24 + 16 + 262144);
    assert_int_equal(get_u32(buf + 24 + 8), 262144);
    assert_int_equal(get_u32(buf + 24 + 12), 262145);
    free(buf);

    assert_int_equal(pcap_file_open_read(file_name, &pf), 0);
    assert_int_equal(pcap_file_read_data(pf, &data, &size, NULL), 0);
    assert_int_equal(size, 262144);
    assert_memory_equal(data, pattern, size);
    free(data);
    pcap_file_close(pf);
}

/* A file written big-endian with nanosecond stamps, by hand. */
static void
test_other_byte_order(void **state DPS_UNUSED)
{
    static const uint8_t file[] = {
        0xa1, 0xb2, 0x3c, 0x4d, 0, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0xff, 0xff, 0, 0, 0, 1,
        /* ts 1000 s + 2500000 ns, 3 bytes of 5. */
        0, 0, 0x03, 0xe8, 0, 0x26, 0x25, 0xa0, 0, 0, 0, 3, 0, 0, 0, 5,
        0xde, 0xad, 0xbe,
    };
    struct pcap_file *pf;
    long long int usec;
    size_t size;
    void *data;

    spew(file, sizeof file);
    assert_int_equal(pcap_file_open_read(file_name, &pf), 0);
    assert_int_equal(pcap_file_read_data(pf, &data, &size, &usec), 0);
    assert_int_equal(size, 3);
    assert_memory_equal(data, "\xde\xad\xbe", 3);
    assert_int_equal(usec, 1000 * 1000000LL + 2500);
    free(data);
    assert_int_equal(pcap_file_read_data(pf, &data, &size, NULL), EOF);
    pcap_file_close(pf);
}

static void
test_malformed(void **state DPS_UNUSED)
{
    uint8_t header[24] = {
        0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 4, 0, 1, 0, 0, 0,
    };
    uint8_t file[64];
    struct pcap_file *pf;
    size_t size;
    void *data;

    /* Missing, empty, short, bad magic, wrong link type. */
    assert_int_equal(pcap_file_open_read("/nonexistent/x.pcap", &pf), ENOENT);
    assert_null(pf);
    assert_int_equal(pcap_file_open_write("/nonexistent/x.pcap", &pf),
                     ENOENT);
    assert_null(pf);
    spew("", 0);
    assert_int_equal(pcap_file_open_read(file_name, &pf), EINVAL);
    spew(header, 20);
    assert_int_equal(pcap_file_open_read(file_name, &pf), EINVAL);
    memcpy(file, header, 24);
    file[0] = 0;
    spew(file, 24);
    assert_int_equal(pcap_file_open_read(file_name, &pf), EINVAL);
    memcpy(file, header, 24);
    file[20] = 101;             /* LINKTYPE_RAW. */
    spew(file, 24);
    assert_int_equal(pcap_file_open_read(file_name, &pf), EINVAL);
    assert_null(pf);

    /* A header only: a clean end. */
    spew(header, 24);
    assert_int_equal(pcap_file_open_read(file_name, &pf), 0);
    assert_int_equal(pcap_file_read_data(pf, &data, &size, NULL), EOF);
    pcap_file_close(pf);

    /* A torn record header, a record shorter than it says, a length over
     * the snapshot length, microseconds out of range. */
    static const struct {
        size_t size;
        uint32_t words[4];
    } bad[] = {
        { 10, { 1, 0, 4, 4 } },
        { 16 + 3, { 1, 0, 4, 4 } },
        { 16, { 1, 0, 262145, 262145 } },
        { 16 + 4, { 1, 1000000, 4, 4 } },
    };
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        memset(file, 0, sizeof file);
        memcpy(file, header, 24);
        memcpy(file + 24, bad[i].words, 16);
        spew(file, 24 + bad[i].size);
        assert_int_equal(pcap_file_open_read(file_name, &pf), 0);
        assert_int_equal(pcap_file_read_data(pf, &data, &size, NULL),
                         EINVAL);
        assert_null(data);
        pcap_file_close(pf);
    }
}

/* Random garbage after a good header, and random flips in a good file: the
 * reader returns records or an error and never reads out of bounds. */
static void
test_garbage(void **state DPS_UNUSED)
{
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    uint8_t file[4096];

    for (int round = 0; round < 300; round++) {
        size_t size = 24 + (round * 37) % (sizeof file - 24);

        for (size_t i = 0; i < size; i++) {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            file[i] = seed;
        }
        /* A valid header, and small record lengths now and then. */
        memcpy(file, "\xd4\xc3\xb2\xa1\x02\x00\x04\x00", 8);
        memset(file + 8, 0, 8);
        memcpy(file + 16, "\x00\x00\x04\x00\x01\x00\x00\x00", 8);
        if (round % 2 && size >= 40) {
            uint32_t len = seed % 64;

            memcpy(file + 24 + 8, &len, 4);
            file[24 + 6] = 0;   /* Microseconds below a million. */
            file[24 + 7] = 0;
        }
        spew(file, size);

        struct pcap_file *pf;
        assert_int_equal(pcap_file_open_read(file_name, &pf), 0);
        int error;
        size_t n = 0;
        do {
            size_t len;
            void *data;

            error = pcap_file_read_data(pf, &data, &len, NULL);
            if (!error) {
                assert_true(len <= size);
                n++;
            }
            free(data);
        } while (!error);
        assert_true(error == EOF || error == EINVAL);
        assert_true(n <= size / 16);
        pcap_file_close(pf);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        PCAP_TEST(test_header_and_records),
        PCAP_TEST(test_round_trip),
        PCAP_TEST(test_snaplen),
        PCAP_TEST(test_other_byte_order),
        PCAP_TEST(test_malformed),
        PCAP_TEST(test_garbage),
    };

    util_set_program_name("test-pcap");
    return cmocka_run_group_tests(tests, setup, dp_test_teardown_group);
}
