/* Text forms of flow keys and masks in Open vSwitch's datapath flow syntax,
 * as `ovs-appctl dpctl/dump-flows` prints them and `netdev-dummy/receive`
 * reads them:
 *
 *   recirc_id(0),in_port(1),packet_type(ns=0,id=0),
 *   eth(src=00:00:00:00:00:01,dst=00:00:00:00:00:02),eth_type(0x0800),
 *   ipv4(src=10.0.0.1,dst=10.0.0.2,proto=6,tos=0,ttl=64,frag=no),
 *   tcp(src=1,dst=2),tcp_flags(syn)
 *
 * VLAN tags: eth_type(0x8100),vlan(vid=10,pcp=0),encap(eth_type(0x0800),...)
 * with one more level for a second tag.  A masked field prints as
 * value/mask; a field its mask ignores is left out, and so is an attribute
 * whose fields are all left out.
 *
 * odp_flow_parse_put() and odp_actions_parse() read the flows and actions
 * of "ovs-appctl dpctl/add-flow" and the commands like it.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef ODP_UTIL_H
#define ODP_UTIL_H 1

#include <stdbool.h>
#include <stddef.h>
#include "compiler.h"

struct dp_actions;
struct dp_packet;
struct ds;
struct flow;
struct flow_key;
struct rte_mempool;

void odp_flow_format(const struct flow *key, const struct flow *mask,
                     struct ds *);
void odp_flow_format_put(const struct flow *key, const struct flow *mask,
                         struct ds *);
void odp_flow_key_format(const struct flow_key *key,
                         const struct flow_key *mask, struct ds *);
char *odp_flow_parse(const char *s, struct flow *key, struct flow *mask)
    DPS_WARN_UNUSED_RESULT;
char *odp_packet_compose(const char *s, struct rte_mempool *,
                         size_t l4_payload_size, struct dp_packet **)
    DPS_WARN_UNUSED_RESULT;
char *odp_flow_parse_put(const char *s, struct flow *key, struct flow *mask,
                         bool *complete)
    DPS_WARN_UNUSED_RESULT;
char *odp_actions_parse(const char *s, struct dp_actions *)
    DPS_WARN_UNUSED_RESULT;

#endif /* odp-util.h */
