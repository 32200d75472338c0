/* Helpers shared by the flow cache tests and benchmark: random keys, masks
 * and keys that match a given megaflow.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef DPIF_TEST_H
#define DPIF_TEST_H 1

#include <stdbool.h>
#include <stdint.h>
#include "flow.h"

/* A seedable generator, so a failure can be replayed. */
void dpif_test_seed(uint64_t seed);
uint64_t dpif_test_random(void);

void dpif_test_random_key(struct flow_key *, double zero_prob);
void dpif_test_random_mask(struct flow_key *, double word_prob);
void dpif_test_matching_key(struct flow_key *, const struct flow_key *key,
                            const struct flow_key *mask);
void dpif_test_key_from_words(struct flow_key *, const uint64_t *words);
void dpif_test_key_to_words(const struct flow_key *, uint64_t *words);

#endif /* dpif-test.h */
