/* Matches and flows for the classifier and ofproto unit tests.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef MATCH_TEST_H
#define MATCH_TEST_H 1

#include <stdint.h>
#include "match.h"

struct match match_test_ip_dst(uint32_t dst, int plen);
struct match_flow match_test_ip_flow(uint32_t src, uint32_t dst);

#endif /* match-test.h */
