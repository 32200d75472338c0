/* Checksums.  See csum.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "csum.h"
#include <string.h>
#ifdef __SSE4_2__
#include <nmmintrin.h>
#endif
#include "dp-packet.h"
#include "util.h"

static uint64_t sum_words(uint64_t sum, const uint8_t *data, size_t size);
static uint32_t fold64(uint64_t sum);

/* Adds the 'size' bytes at 'data' to the one's complement sum 'partial' and
 * returns the new (unfolded) sum.  An odd last byte counts as if followed by
 * a zero byte; so 'data' must start at an even offset of the checksummed
 * range, or the caller must swap the bytes of the result (csum_packet() does
 * this across segments). */
uint32_t
csum_add(uint32_t partial, const void *data, size_t size)
{
    return fold64(sum_words(partial, data, size));
}

/* Adds 'word' (up to 32 bits, as it lies in memory) to 'partial' and returns
 * the new unfolded sum, carry kept. */
uint32_t
csum_add_word(uint32_t partial, uint32_t word)
{
    return fold64((uint64_t) partial + word);
}

/* Folds 'partial' to 16 bits, without complementing it. */
uint16_t
csum_fold(uint32_t partial)
{
    partial = (partial & 0xffff) + (partial >> 16);
    partial = (partial & 0xffff) + (partial >> 16);
    return partial;
}

/* Folds and complements 'partial': the value for a checksum field. */
uint16_t
csum_finish(uint32_t partial)
{
    return ~csum_fold(partial);
}

/* Returns checksum 'csum' updated for one 16-bit word of the covered data
 * changing from 'old_word' to 'new_word' (RFC 1624, equation 3).  A wrong
 * checksum stays wrong by the same amount. */
uint16_t
csum_update16(uint16_t csum, uint16_t old_word, uint16_t new_word)
{
    uint32_t sum = (uint16_t) ~csum;

    sum += (uint16_t) ~old_word;
    sum += new_word;
    return csum_finish(sum);
}

/* Like csum_update16() for a 32-bit value (two adjacent words, as they lie in
 * memory). */
uint16_t
csum_update32(uint16_t csum, uint32_t old_word, uint32_t new_word)
{
    uint32_t sum = (uint16_t) ~csum;

    sum += (uint16_t) ~(old_word & 0xffff);
    sum += (uint16_t) ~(old_word >> 16);
    sum += new_word & 0xffff;
    sum += new_word >> 16;
    return csum_finish(sum);
}

/* Like csum_update16() for 'size' bytes (even, starting at an even offset of
 * the covered data) changing from 'old_bytes' to 'new_bytes'. */
uint16_t
csum_update_bytes(uint16_t csum, const void *old_bytes,
                  const void *new_bytes, size_t size)
{
    const uint8_t *o = old_bytes;
    const uint8_t *n = new_bytes;
    uint32_t sum = (uint16_t) ~csum;

    for (size_t i = 0; i + 1 < size; i += 2) {
        uint16_t ow, nw;

        memcpy(&ow, o + i, 2);
        memcpy(&nw, n + i, 2);
        sum += (uint16_t) ~ow;
        sum += nw;
    }
    return csum_finish(fold64(sum));
}

/* Adds the 'size' bytes of 'p' starting at 'offset' to 'partial', across
 * segments, and returns the new unfolded sum.  'offset' counts as the start
 * of the checksummed range (an even position).  The range must lie within
 * the packet. */
uint32_t
csum_packet(const struct dp_packet *p, size_t offset, size_t size,
            uint32_t partial)
{
    const struct rte_mbuf *seg = &p->mbuf;
    uint64_t sum = partial;
    bool odd = false;

    while (seg && offset >= seg->data_len) {
        offset -= seg->data_len;
        seg = seg->next;
    }
    for (; seg && size; seg = seg->next) {
        size_t n = MIN(size, seg->data_len - offset);
        uint32_t s = fold64(sum_words(0, rte_pktmbuf_mtod_offset(
                                          seg, const uint8_t *, offset), n));

        if (odd) {
            /* This piece starts at an odd position of the range: its bytes
             * pair up the other way round (RFC 1071 §2(B)). */
            s = csum_fold(s);
            s = ((s & 0xff) << 8) | (s >> 8);
        }
        sum += s;
        odd ^= n & 1;
        size -= n;
        offset = 0;
    }
    return fold64(sum);
}

/* Continues CRC32c (Castagnoli, reflected polynomial 0x82f63b78) 'crc' over
 * the 'size' bytes at 'data' and returns it.  Start with 0xffffffff and
 * complement the end result. */
uint32_t
csum_crc32c(uint32_t crc, const void *data_, size_t size)
{
    const uint8_t *data = data_;

#ifdef __SSE4_2__
    for (; size >= 8; size -= 8, data += 8) {
        uint64_t w;

        memcpy(&w, data, 8);
        crc = (uint32_t) _mm_crc32_u64(crc, w);
    }
    for (; size; size--, data++) {
        crc = _mm_crc32_u8(crc, *data);
    }
#else
    for (; size; size--, data++) {
        crc ^= *data;
        for (int bit = 0; bit < 8; bit++) {
            crc = (crc >> 1) ^ (0x82f63b78u & -(crc & 1u));
        }
    }
#endif
    return crc;
}

/* Like csum_crc32c() over 'size' bytes of 'p' at 'offset', across segments.
 * The range must lie within the packet. */
uint32_t
csum_crc32c_packet(const struct dp_packet *p, size_t offset, size_t size,
                   uint32_t crc)
{
    const struct rte_mbuf *seg = &p->mbuf;

    while (seg && offset >= seg->data_len) {
        offset -= seg->data_len;
        seg = seg->next;
    }
    for (; seg && size; seg = seg->next) {
        size_t n = MIN(size, seg->data_len - offset);

        crc = csum_crc32c(crc, rte_pktmbuf_mtod_offset(seg, const uint8_t *,
                                                   offset), n);
        size -= n;
        offset = 0;
    }
    return crc;
}

/* Adds 'size' bytes at 'data' to 'sum', 32 bits at a time. */
static uint64_t
sum_words(uint64_t sum, const uint8_t *data, size_t size)
{
    for (; size >= 4; size -= 4, data += 4) {
        uint32_t w;

        memcpy(&w, data, 4);
        sum += w;
    }
    if (size >= 2) {
        uint16_t w;

        memcpy(&w, data, 2);
        sum += w;
        data += 2;
        size -= 2;
    }
    if (size) {
        uint8_t last[2] = { data[0], 0 };
        uint16_t w;

        memcpy(&w, last, 2);
        sum += w;
    }
    return sum;
}

/* Folds 64-bit sum 'sum' into 32 bits without losing carries. */
static uint32_t
fold64(uint64_t sum)
{
    sum = (sum & 0xffffffff) + (sum >> 32);
    sum = (sum & 0xffffffff) + (sum >> 32);
    return sum;
}
