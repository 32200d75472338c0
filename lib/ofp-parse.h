/* ovs-ofctl's flow syntax (ovs-ofctl(8) "Flow Syntax", ovs-fields(7)):
 * text to flow_mods and flow statistics requests.
 *
 * A flow is a list of "key=value" (or "key:value", or a bare "key")
 * separated by commas or white space: match fields (in_port, dl_src,
 * nw_src=10.0.0.0/8...), the protocol shorthands (ip, tcp, udp, arp, icmp,
 * ipv6...), and, as the command allows, table, priority, cookie[/mask],
 * idle_timeout, hard_timeout, importance, out_port, the flags
 * (send_flow_rem, check_overlap, reset_counts...), and last "actions=" with
 * the rest of the text in ovs-actions(7) syntax (ofpacts_parse()).
 *
 * Each parser returns NULL, or an error message (Open vSwitch's words,
 * where it has them) that the caller frees.  '*usable_protocols' gets the
 * flow formats that can carry the result (OFPUTIL_P_*).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OFP_PARSE_H
#define OFP_PARSE_H 1

#include <stdbool.h>
#include <stdint.h>
#include "compiler.h"

struct ofpbuf;
struct ofputil_flow_mod;
struct ofputil_flow_stats_request;
struct ofputil_port_map;

/* Takes the next "key=value" off '*stringp' (see the header): '*keyp' and
 * '*valuep' point into the string, which this modifies ('*valuep' is ""
 * for a bare key; a "key(value)" gives what is inside the parentheses).
 * Returns false at the end of the string. */
bool ofp_parse_key_value(char **stringp, char **keyp, char **valuep);

/* Value parsers shared with the action parser: an Ethernet address
 * "xx:xx:xx:xx:xx:xx" and a dotted-quad IPv4 address (network order); an
 * unsigned number, decimal or hex ("0x...").
 * Each returns false if 's' is not one. */
struct eth_addr;
bool ofp_parse_u64(const char *s, uint64_t *);
bool ofp_parse_mac(const char *s, struct eth_addr *);

/* Parses 'string' as a flow for flow_mod 'command' (OFPFC_*) into 'fm',
 * its actions into 'ofpacts' (which 'fm' then points into). */
char *ofp_parse_flow_mod(struct ofputil_flow_mod *fm, const char *string,
                         int command, const struct ofputil_port_map *,
                         struct ofpbuf *ofpacts, uint32_t *usable_protocols)
    __attribute__((__warn_unused_result__));

/* Parses 'string' as the flow filter of dump-flows ('aggregate' false) or
 * dump-aggregate: match fields, table, cookie/mask, out_port. */
char *ofp_parse_flow_stats_request(struct ofputil_flow_stats_request *,
                                   bool aggregate, const char *string,
                                   const struct ofputil_port_map *,
                                   uint32_t *usable_protocols)
    __attribute__((__warn_unused_result__));

/* Parses 'string' as ofproto/trace's flow ("in_port=1,tcp,tp_dst=80"): the
 * fields of one packet, exact (no masks), each after the fields it needs
 * ("ip" before "nw_src"), as Open vSwitch's parse_ofp_exact_flow() reads
 * it, into 'flow' (the fields it does not name zero, in_port OFPP_NONE).
 * Returns NULL or an error message in Open vSwitch's words (the caller
 * frees it). */
struct match_flow;
char *ofp_parse_exact_flow(const char *string,
                           const struct ofputil_port_map *,
                           struct match_flow *flow)
    __attribute__((__warn_unused_result__));

/* Parses 's', a value of field 'mf' as a flow writes it ("10.0.0.1",
 * "0x5/0xf"), into 'value' and 'mask' (all ones without "/MASK").  Returns
 * NULL or an error message (the caller frees it). */
struct match_field;
union match_value;
char *ofp_parse_field_value(const struct match_field *, const char *s,
                            union match_value *value,
                            union match_value *mask)
    __attribute__((__warn_unused_result__));

/* Returns the field that Open vSwitch's field table names 'name' (its
 * name or its other name, "dl_src" as well as "eth_src"), or NULL. */
struct match_field;
const struct match_field *ofp_parse_field_name(const char *name);

#endif /* ofp-parse.h */
