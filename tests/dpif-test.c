/* Helpers shared by the flow cache tests and benchmark.  See dpif-test.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "dpif-test.h"
#include <string.h>

static uint64_t state = UINT64_C(0x9e3779b97f4a7c15);

/* Restarts the generator from 'seed'. */
void
dpif_test_seed(uint64_t seed)
{
    state = seed ? seed : 1;
}

/* Returns 64 random bits (xorshift64*). */
uint64_t
dpif_test_random(void)
{
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * UINT64_C(0x2545f4914f6cdd1d);
}

static bool
chance(double p)
{
    return (dpif_test_random() >> 11) * 0x1.0p-53 < p;
}

/* Makes 'key' a random key whose words are each zero (absent) with
 * probability 'zero_prob'. */
void
dpif_test_random_key(struct flow_key *key, double zero_prob)
{
    uint64_t words[FLOW_N_WORDS];

    for (size_t i = 0; i < FLOW_N_WORDS; i++) {
        words[i] = chance(zero_prob) ? 0 : dpif_test_random();
    }
    dpif_test_key_from_words(key, words);
}

/* Makes 'mask' a random mask that uses each word with probability
 * 'word_prob', the whole word or a random part of it, as megaflow masks do
 * (whole addresses, prefixes, a few flag bits). */
void
dpif_test_random_mask(struct flow_key *mask, double word_prob)
{
    uint64_t words[FLOW_N_WORDS];

    for (size_t i = 0; i < FLOW_N_WORDS; i++) {
        if (!chance(word_prob)) {
            words[i] = 0;
        } else if (chance(0.5)) {
            words[i] = UINT64_MAX;
        } else if (chance(0.5)) {
            words[i] = UINT64_MAX << (dpif_test_random() % 64);
        } else {
            words[i] = dpif_test_random() | 1;
        }
    }
    dpif_test_key_from_words(mask, words);
}

/* Makes 'dst' a random key that agrees with 'key' in every bit of
 * 'mask'. */
void
dpif_test_matching_key(struct flow_key *dst, const struct flow_key *key,
                       const struct flow_key *mask)
{
    uint64_t k[FLOW_N_WORDS], m[FLOW_N_WORDS];

    dpif_test_key_to_words(key, k);
    dpif_test_key_to_words(mask, m);
    for (size_t i = 0; i < FLOW_N_WORDS; i++) {
        uint64_t r = chance(0.2) ? 0 : dpif_test_random();
        k[i] = (k[i] & m[i]) | (r & ~m[i]);
    }
    dpif_test_key_from_words(dst, k);
}

/* Makes 'key' the compact form of the FLOW_N_WORDS 'words'. */
void
dpif_test_key_from_words(struct flow_key *key, const uint64_t *words)
{
    struct flow flow;

    memcpy(&flow, words, sizeof flow);
    memset(key, 0, sizeof *key);
    flow_key_from_flow(key, &flow);
}

/* Stores the FLOW_N_WORDS words of 'key' in 'words'. */
void
dpif_test_key_to_words(const struct flow_key *key, uint64_t *words)
{
    for (unsigned int i = 0; i < FLOW_N_WORDS; i++) {
        words[i] = flow_key_get_word(key, i);
    }
}
