/* The 32-bit Murmur3 steps that Open vSwitch's hash functions are built
 * from, for the places where dpswitch must reproduce one of OVS's hash
 * values exactly (its hash maps' iteration order, a bond's bucket).
 * dpswitch's own hash tables do not need these.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef MURMUR_H
#define MURMUR_H 1

#include <stdint.h>

/* Mixes the 32-bit 'word' into 'hash' (one Murmur3 body step). */
static inline uint32_t
murmur_add(uint32_t hash, uint32_t word)
{
    word *= 0xcc9e2d51;
    word = word << 15 | word >> 17;
    word *= 0x1b873593;
    hash ^= word;
    hash = hash << 13 | hash >> 19;
    return hash * 5 + 0xe6546b64;
}

/* Murmur3's final avalanche of 'hash' after 'n_bytes' bytes. */
static inline uint32_t
murmur_finish(uint32_t hash, uint32_t n_bytes)
{
    hash ^= n_bytes;
    hash ^= hash >> 16;
    hash *= 0x85ebca6b;
    hash ^= hash >> 13;
    hash *= 0xc2b2ae35;
    hash ^= hash >> 16;
    return hash;
}

#endif /* murmur.h */
