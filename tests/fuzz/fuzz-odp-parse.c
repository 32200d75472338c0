/* Fuzz target: the datapath flow syntax parser.
 *
 * Input: a flow string.  Checks that whatever parses prints in a form that
 * parses back and prints identically, and that composing a packet from any
 * key that parses is safe.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "dp-packet.h"
#include "dp-test.h"
#include "dynamic-string.h"
#include "flow.h"
#include "fuzz.h"
#include "odp-util.h"
#include "util.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = xmemdup0((const char *) data, size);
    struct flow key, mask;
    char *error;

    /* Masked: print, parse, print again: the same text. */
    error = odp_flow_parse(s, &key, &mask);
    if (!error) {
        struct ds s1 = DS_EMPTY_INITIALIZER, s2 = DS_EMPTY_INITIALIZER;
        struct flow key2, mask2;

        odp_flow_format(&key, &mask, &s1);
        error = odp_flow_parse(ds_cstr(&s1), &key2, &mask2);
        FUZZ_CHECK(!error, "printed masked key does not parse");
        odp_flow_format(&key2, &mask2, &s2);
        FUZZ_CHECK(!strcmp(ds_cstr(&s1), ds_cstr(&s2)),
                   "masked key text is not stable");
        ds_destroy(&s1);
        ds_destroy(&s2);
    }
    free(error);

    /* Exact: compose a packet, extract it. */
    struct dp_packet *p;
    error = odp_packet_compose(s, dp_test_pools.std, size % 64, &p);
    if (!error) {
        struct flow flow;

        dp_packet_poison(p);
        flow_extract(p, &flow);
        dp_packet_unpoison(p);
        dp_packet_free(p);
    }
    free(error);
    free(s);
    return 0;
}
