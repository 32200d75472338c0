/* Checksum arithmetic: the Internet checksum (RFC 1071), full and
 * incremental (RFC 1624), over memory and over packets' segments; CRC32c
 * for SCTP (RFC 3309, RFC 4960).  Protocol checksums of packets and the
 * checksum states are in dp-packet-csum.h.
 *
 * Arithmetic convention: a one's complement sum does not depend on byte
 * order (RFC 1071 §2(B)), so sums here add 16-bit words as they lie in
 * memory, read in host order, and the final checksum is stored back the
 * same way.  'partial' values are 32-bit accumulators not yet folded.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef CSUM_H
#define CSUM_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dp_packet;

/* Arithmetic. */
uint32_t csum_add(uint32_t partial, const void *data, size_t size);
uint32_t csum_add_word(uint32_t partial, uint32_t word);
uint16_t csum_fold(uint32_t partial);
uint16_t csum_finish(uint32_t partial);
uint16_t csum_update16(uint16_t csum, uint16_t old_word, uint16_t new_word);
uint16_t csum_update32(uint16_t csum, uint32_t old_word, uint32_t new_word);
uint16_t csum_update_bytes(uint16_t csum, const void *old_bytes,
                           const void *new_bytes, size_t size);
uint32_t csum_packet(const struct dp_packet *, size_t offset, size_t size,
                     uint32_t partial);
uint32_t csum_crc32c(uint32_t crc, const void *data, size_t size);
uint32_t csum_crc32c_packet(const struct dp_packet *, size_t offset,
                            size_t size, uint32_t crc);

#endif /* csum.h */
