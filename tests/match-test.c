/* Matches and flows for the classifier and ofproto unit tests.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "match-test.h"
#include <string.h>
#include "packets.h"

/* Returns a match on IPv4 packets whose destination is in 'dst'/'plen'
 * (host byte order; 'plen' 0 matches every destination). */
struct match
match_test_ip_dst(uint32_t dst, int plen)
{
    struct match m;

    match_init_catchall(&m);
    match_set_dl_type(&m, htons(ETH_TYPE_IP));
    match_set_nw_dst_masked(&m, htonl(dst),
                            plen ? htonl(UINT32_MAX << (32 - plen)) : 0);
    return m;
}

/* Returns an IPv4 flow from 'src' to 'dst' (host byte order), every other
 * field zero. */
struct match_flow
match_test_ip_flow(uint32_t src, uint32_t dst)
{
    struct match_flow f;

    memset(&f, 0, sizeof f);
    f.dp.dl_type = htons(ETH_TYPE_IP);
    f.dp.nw_src = htonl(src);
    f.dp.nw_dst = htonl(dst);
    return f;
}
