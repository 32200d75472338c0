/* ovs-ofctl's flow syntax (see ofp-parse.h).  Its log module is
 * "ofp_table", the one Open vSwitch's tools warn about tables in.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ofp-parse.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "match.h"
#include "ofp-actions.h"
#include "ofp-flow.h"
#include "ofp-match.h"
#include "ofp-port.h"
#include "ofpbuf.h"
#include "packets.h"
#include "socket-util.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ofp_table);

/* What a command lets a flow say besides the match. */
enum {
    F_ACTIONS = 1 << 0,         /* actions=... (required). */
    F_PRIORITY = 1 << 1,
    F_TIMEOUT = 1 << 2,         /* idle_timeout, hard_timeout. */
    F_FLAGS = 1 << 3,           /* send_flow_rem, check_overlap... */
    F_OUT_PORT = 1 << 4,
    F_IMPORTANCE = 1 << 5,
};

static char *parse_flow(const char *string, int command, unsigned int fields,
                        const struct ofputil_port_map *,
                        struct ofputil_flow_mod *, struct ofpbuf *ofpacts)
    DPS_WARN_UNUSED_RESULT;
static bool is_ipv4_field(const struct match_field *);
static char *parse_field_value(const struct match_field *, const char *value,
                               union match_value *, union match_value *);
static char *parse_field(const char *name, const char *value,
                         const struct ofputil_port_map *, struct match *)
    DPS_WARN_UNUSED_RESULT;

/* The protocol shorthands. */
static const struct {
    const char *name;
    uint16_t dl_type;
    uint8_t nw_proto;           /* 0: none. */
} shorthands[] = {
    { "ip", ETH_TYPE_IP, 0 },
    { "ipv4", ETH_TYPE_IP, 0 },
    { "icmp", ETH_TYPE_IP, 1 },
    { "igmp", ETH_TYPE_IP, 2 },
    { "tcp", ETH_TYPE_IP, 6 },
    { "udp", ETH_TYPE_IP, 17 },
    { "sctp", ETH_TYPE_IP, 132 },
    { "ipv6", ETH_TYPE_IPV6, 0 },
    { "ip6", ETH_TYPE_IPV6, 0 },
    { "icmp6", ETH_TYPE_IPV6, 58 },
    { "tcp6", ETH_TYPE_IPV6, 6 },
    { "udp6", ETH_TYPE_IPV6, 17 },
    { "sctp6", ETH_TYPE_IPV6, 132 },
    { "arp", ETH_TYPE_ARP, 0 },
    { "rarp", 0x8035, 0 },
};

/* Names Open vSwitch takes for the fields of lib/match.h: in its flow
 * syntax ('in_flows') and in its field table ('in_fields', as --sort). */
static const struct {
    const char *alias;
    const char *name;
    bool in_flows;
    bool in_fields;
} field_aliases[] = {
    { "dl_src", "eth_src", true, true },
    { "dl_dst", "eth_dst", true, true },
    { "dl_type", "eth_type", true, true },
    { "nw_src", "ip_src", true, true },
    { "nw_dst", "ip_dst", true, true },
    { "ip_proto", "nw_proto", true, true },
    { "ip_ecn", "nw_ecn", true, true },
    { "tp_src", "tcp_src", true, true },
    { "tp_dst", "tcp_dst", true, true },
    { "icmpv4_type", "icmp_type", true, false },
    { "icmpv4_code", "icmp_code", true, false },
    { "nw_frag", "ip_frag", false, true },
    { "dl_vlan_pcp", "vlan_pcp", false, true },
};

bool
ofp_parse_key_value(char **stringp, char **keyp, char **valuep)
{
    static const char delimiters[] = ", \t\r\n";
    char *p = *stringp + strspn(*stringp, delimiters);

    if (!*p) {
        *stringp = p;
        return false;
    }

    *keyp = p;
    p += strcspn(p, ":=(, \t\r\n");
    char c = *p;
    if (c == '(') {
        /* key(value): up to the matching parenthesis. */
        *p++ = '\0';
        *valuep = p;
        for (int depth = 1; *p; p++) {
            if (*p == '(') {
                depth++;
            } else if (*p == ')' && !--depth) {
                *p++ = '\0';
                break;
            }
        }
    } else if (c == '=' || c == ':') {
        *p++ = '\0';
        *valuep = p;
        for (int depth = 0; *p; p++) {
            if (*p == '(') {
                depth++;
            } else if (*p == ')' && depth) {
                depth--;
            } else if (!depth && strchr(delimiters, *p)) {
                *p++ = '\0';
                break;
            }
        }
    } else {
        *valuep = p + strlen(p);        /* "" */
        if (c) {
            *p++ = '\0';
            *valuep = p - 1;
        }
    }
    *stringp = p;
    return true;
}

bool
ofp_parse_u64(const char *s, uint64_t *value)
{
    char *end;

    if (!*s || *s == '-' || *s == '+') {
        return false;
    }
    errno = 0;
    unsigned long long n = strtoull(s, &end, 0);
    if (errno || *end) {
        return false;
    }
    *value = n;
    return true;
}

bool
ofp_parse_mac(const char *s, struct eth_addr *mac)
{
    unsigned int b[6];
    int n = 0;

    if (sscanf(s, "%x:%x:%x:%x:%x:%x%n", &b[0], &b[1], &b[2], &b[3], &b[4],
               &b[5], &n) != 6 || s[n]) {
        return false;
    }
    uint8_t *p = (uint8_t *) mac;
    for (int i = 0; i < 6; i++) {
        if (b[i] > 0xff) {
            return false;
        }
        p[i] = b[i];
    }
    return true;
}

char *
ofp_parse_flow_mod(struct ofputil_flow_mod *fm, const char *string,
                   int command, const struct ofputil_port_map *map,
                   struct ofpbuf *ofpacts, uint32_t *usable_protocols)
{
    unsigned int fields;

    switch (command) {
    case OFPFC_ADD:
        fields = F_ACTIONS | F_TIMEOUT | F_PRIORITY | F_FLAGS | F_IMPORTANCE;
        break;
    case OFPFC_MODIFY:
    case OFPFC_MODIFY_STRICT:
        fields = F_ACTIONS | F_TIMEOUT | F_PRIORITY | F_FLAGS;
        break;
    case OFPFC_DELETE:
        fields = F_OUT_PORT;
        break;
    case OFPFC_DELETE_STRICT:
        fields = F_PRIORITY | F_OUT_PORT;
        break;
    default:
        return xasprintf("bad flow_mod command %d", command);
    }

    char *error = parse_flow(string, command, fields, map, fm, ofpacts);
    if (error) {
        return error;
    }
    *usable_protocols = ofputil_usable_protocols(&fm->match,
                                                 fm->cookie_mask);
    if (fm->flags & (OFPUTIL_FF_RESET_COUNTS | OFPUTIL_FF_NO_PKT_COUNTS
                     | OFPUTIL_FF_NO_BYT_COUNTS)) {
        /* OpenFlow 1.3+ flags: no OpenFlow 1.0 flow format has them. */
        *usable_protocols &= ~OFPUTIL_P_OF10_ANY;
    }
    /* An importance does not narrow them: Open vSwitch sends it where the
     * flow format has room for it (OpenFlow 1.4+) and drops it elsewhere. */
    return NULL;
}

char *
ofp_parse_flow_stats_request(struct ofputil_flow_stats_request *fsr,
                             bool aggregate, const char *string,
                             const struct ofputil_port_map *map,
                             uint32_t *usable_protocols)
{
    struct ofputil_flow_mod fm;
    struct ofpbuf ofpacts;

    ofpbuf_init(&ofpacts, 0);
    char *error = parse_flow(string, -1, F_OUT_PORT, map, &fm, &ofpacts);
    ofpbuf_uninit(&ofpacts);
    if (error) {
        return error;
    }

    memset(fsr, 0, sizeof *fsr);
    fsr->aggregate = aggregate;
    fsr->match = fm.match;
    fsr->cookie = fm.cookie;
    fsr->cookie_mask = fm.cookie_mask;
    fsr->out_port = fm.out_port;
    fsr->out_group = OFPG_ANY;
    fsr->table_id = fm.table_id;
    *usable_protocols = ofputil_usable_protocols(&fsr->match,
                                                 fsr->cookie_mask);
    return NULL;
}

char *
ofp_parse_exact_flow(const char *string, const struct ofputil_port_map *map,
                     struct match_flow *flow)
{
    char *copy = xstrdup(string);
    char *pos = copy;
    char *name, *value;
    char *error = NULL;
    struct match match;

    match_init_catchall(&match);
    match_set_in_port(&match, MATCH_OFPP_NONE);
    while (!error && ofp_parse_key_value(&pos, &name, &value)) {
        bool done = false;

        for (size_t i = 0; i < ARRAY_SIZE(shorthands); i++) {
            if (!strcmp(name, shorthands[i].name)) {
                match_set_dl_type(&match, htons(shorthands[i].dl_type));
                if (shorthands[i].nw_proto) {
                    match_set_nw_proto(&match, shorthands[i].nw_proto);
                }
                done = true;
                break;
            }
        }
        if (done) {
            continue;
        }

        const char *canonical = name;
        for (size_t i = 0; i < ARRAY_SIZE(field_aliases); i++) {
            if (field_aliases[i].in_flows
                && !strcmp(name, field_aliases[i].alias)) {
                canonical = field_aliases[i].name;
                break;
            }
        }
        const struct match_field *mf = (!strcmp(name, "dl_vlan")
                                        || !strcmp(name, "dl_vlan_pcp")
                                        || !strcmp(name, "vlan_pcp")
                                        ? NULL
                                        : match_field_by_name(canonical));
        bool special = (!strcmp(name, "in_port") || !strcmp(name, "dl_vlan")
                        || !strcmp(name, "dl_vlan_pcp")
                        || !strcmp(name, "vlan_pcp"));
        if (!mf && !special) {
            error = xasprintf("%s: unknown field %s", string, name);
        } else if (mf && !match_field_prereqs_ok(mf, &match)) {
            error = xasprintf("%s: prerequisites not met for setting %s",
                              string, name);
        } else {
            char *why = NULL;
            if (mf && strchr(value, '/')) {
                /* Exact values only: a mask must cover the whole field. */
                union match_value v, m;
                why = parse_field_value(mf, value, &v, &m);
                for (unsigned int i = 0; !why && i < mf->n_bits; i++) {
                    if (!(m.u8[mf->n_bytes - 1 - i / 8] & (1u << (i % 8)))) {
                        why = xasprintf("%s: wildcards not allowed here",
                                        value);
                    }
                }
            }
            if (!why) {
                why = parse_field(name, value, map, &match);
            }
            if (why) {
                error = xasprintf("%s: bad value for %s (%s)", string, name,
                                  why);
                free(why);
            }
        }
    }
    free(copy);
    if (!error) {
        *flow = match.flow;
    }
    return error;
}

char *
ofp_parse_field_value(const struct match_field *mf, const char *s,
                      union match_value *value, union match_value *mask)
{
    char *error = parse_field_value(mf, s, value, mask);
    if (!error) {
        /* Only the field's bits. */
        for (unsigned int i = mf->n_bits; i < 8 * mf->n_bytes; i++) {
            value->u8[mf->n_bytes - 1 - i / 8] &= ~(1u << (i % 8));
            mask->u8[mf->n_bytes - 1 - i / 8] &= ~(1u << (i % 8));
        }
    }
    return error;
}

/* Returns the field Open vSwitch's field table calls 'name' (its name or
 * its other name: "dl_src" as well as "eth_src"), or NULL. */
const struct match_field *
ofp_parse_field_name(const char *name)
{
    for (size_t i = 0; i < ARRAY_SIZE(field_aliases); i++) {
        if (field_aliases[i].in_fields
            && !strcmp(name, field_aliases[i].alias)) {
            name = field_aliases[i].name;
            break;
        }
    }
    return match_field_by_name(name);
}

/* The flags of a flow_mod, by name. */
static const struct {
    const char *name;
    uint16_t flag;
} flag_names[] = {
    { "send_flow_rem", OFPUTIL_FF_SEND_FLOW_REM },
    { "check_overlap", OFPUTIL_FF_CHECK_OVERLAP },
    { "reset_counts", OFPUTIL_FF_RESET_COUNTS },
    { "no_packet_counts", OFPUTIL_FF_NO_PKT_COUNTS },
    { "no_byte_counts", OFPUTIL_FF_NO_BYT_COUNTS },
};

/* What flow dumps print that a flow may carry back in: ignored. */
static const char *const stats_names[] = {
    "duration", "n_packets", "n_bytes", "idle_age", "hard_age",
};

static char * DPS_WARN_UNUSED_RESULT
parse_u16_keyword(const char *name, const char *value, uint16_t *out)
{
    uint64_t n;

    if (!ofp_parse_u64(value, &n) || n > UINT16_MAX) {
        return xasprintf("invalid %s \"%s\"", name, value);
    }
    *out = n;
    return NULL;
}

static char * DPS_WARN_UNUSED_RESULT
parse_cookie(const char *value, int command, struct ofputil_flow_mod *fm)
{
    char *copy = xstrdup(value);
    char *slash = strchr(copy, '/');
    uint64_t cookie, mask = 0;
    char *error = NULL;

    if (slash) {
        *slash = '\0';
    }
    if (!ofp_parse_u64(copy, &cookie)) {
        error = xasprintf("invalid numeric format %s", copy);
    } else if (slash && !strcmp(slash + 1, "-1")) {
        mask = UINT64_MAX;
    } else if (slash && !ofp_parse_u64(slash + 1, &mask)) {
        error = xasprintf("invalid numeric format %s", slash + 1);
    }
    if (!error) {
        if (command == OFPFC_ADD) {
            if (slash) {
                error = xstrdup("flow additions cannot use a cookie mask");
            } else {
                fm->new_cookie = fm->cookie = cookie;
            }
        } else if (slash) {
            fm->cookie = cookie;
            fm->cookie_mask = mask;
        } else {
            fm->new_cookie = cookie;
            fm->modify_cookie = true;
        }
    }
    free(copy);
    return error;
}

/* Parses 'string' for 'command' (-1: a statistics request) with what
 * 'fields' allows, into 'fm' and 'ofpacts'. */
static char *
parse_flow(const char *string, int command, unsigned int fields,
           const struct ofputil_port_map *map, struct ofputil_flow_mod *fm,
           struct ofpbuf *ofpacts)
{
    char *copy = xstrdup(string);
    char *actions = NULL;
    char *error = NULL;

    ofputil_flow_mod_init(fm);
    fm->command = command;
    fm->priority = OFP_DEFAULT_PRIORITY;
    fm->new_cookie = (command == OFPFC_MODIFY
                      || command == OFPFC_MODIFY_STRICT ? UINT64_MAX : 0);
    ofpbuf_clear(ofpacts);

    if (fields & F_ACTIONS) {
        char *act = strstr(copy, "action");
        if (act) {
            char *eq = strchr(act, '=');
            if (eq) {
                *act = '\0';
                actions = eq + 1;
            }
        }
        if (!actions) {
            free(copy);
            return xstrdup("must specify an action");
        }
    }

    char *pos = copy;
    char *name, *value;
    while (!error && ofp_parse_key_value(&pos, &name, &value)) {
        bool done = false;

        for (size_t i = 0; i < ARRAY_SIZE(shorthands); i++) {
            if (!strcmp(name, shorthands[i].name)) {
                match_set_dl_type(&fm->match, htons(shorthands[i].dl_type));
                if (shorthands[i].nw_proto) {
                    match_set_nw_proto(&fm->match, shorthands[i].nw_proto);
                }
                done = true;
                break;
            }
        }
        for (size_t i = 0; !done && (fields & F_FLAGS)
                           && i < ARRAY_SIZE(flag_names); i++) {
            if (!strcmp(name, flag_names[i].name)) {
                fm->flags |= flag_names[i].flag;
                done = true;
            }
        }
        for (size_t i = 0; !done && i < ARRAY_SIZE(stats_names); i++) {
            done = !strcmp(name, stats_names[i]);
        }
        if (done) {
            continue;
        }

        if (!strcmp(name, "table")) {
            uint64_t table;
            if (ofp_parse_u64(value, &table) && table > 255) {
                VLOG_WARN("table %"PRIu64" is outside the supported range "
                          "0 through 255", table);
            }
            if (!ofp_parse_u64(value, &table) || table > 255) {
                error = xasprintf("unknown table \"%s\"", value);
            } else {
                fm->table_id = table;
            }
        } else if (!strcmp(name, "out_port") && (fields & F_OUT_PORT)) {
            ofp_port_t port;
            if (!ofputil_port_parse(value, map, &port)) {
                error = xasprintf("%s is not a valid OpenFlow port", value);
            } else {
                fm->out_port = port;
            }
        } else if (!strcmp(name, "priority") && (fields & F_PRIORITY)) {
            uint16_t priority = 0;
            error = parse_u16_keyword(name, value, &priority);
            fm->priority = priority;
        } else if (!strcmp(name, "idle_timeout") && (fields & F_TIMEOUT)) {
            error = parse_u16_keyword(name, value, &fm->idle_timeout);
        } else if (!strcmp(name, "hard_timeout") && (fields & F_TIMEOUT)) {
            error = parse_u16_keyword(name, value, &fm->hard_timeout);
        } else if (!strcmp(name, "importance") && (fields & F_IMPORTANCE)) {
            error = parse_u16_keyword(name, value, &fm->importance);
        } else if (!strcmp(name, "cookie")) {
            error = parse_cookie(value, command, fm);
        } else {
            error = parse_field(name, value, map, &fm->match);
        }
    }

    if (!error && actions) {
        error = ofpacts_parse(actions, ofpacts, map);
        fm->ofpacts = ofpacts->data;
        fm->ofpacts_len = ofpacts->size;
    }
    free(copy);
    return error;
}



static void
put_int(const struct match_field *mf, uint64_t v, union match_value *value)
{
    memset(value, 0, sizeof *value);
    for (size_t i = mf->n_bytes; i-- > 0;) {
        value->u8[i] = v;
        v >>= 8;
    }
}

static bool
is_ipv4_field(const struct match_field *mf)
{
    return (mf->id == MATCH_F_IPV4_SRC || mf->id == MATCH_F_IPV4_DST
            || mf->id == MATCH_F_ARP_SPA || mf->id == MATCH_F_ARP_TPA);
}

/* Parses 'value' ("V" or "V/M") for field 'mf' into 'v' and 'm'. */
static char * DPS_WARN_UNUSED_RESULT
parse_field_value(const struct match_field *mf, const char *value,
                  union match_value *v, union match_value *m)
{
    char *copy = xstrdup(value);
    char *slash = strchr(copy, '/');
    char *error = NULL;

    memset(v, 0, sizeof *v);
    memset(m, 0xff, sizeof *m);
    if (slash) {
        *slash++ = '\0';
        if (!mf->maskable && !is_ipv4_field(mf)) {
            error = xasprintf("%s: field %s does not support masking", value,
                              mf->name);
            goto out;
        }
    }

    if (mf->n_bytes == 6) {
        if (!ofp_parse_mac(copy, &v->mac)
            || (slash && !ofp_parse_mac(slash, &m->mac))) {
            error = xasprintf("%s: invalid Ethernet address", value);
        }
    } else if (mf->n_bytes == 16) {
        int prefix;
        if (inet_pton(AF_INET6, copy, &v->ipv6) != 1) {
            error = xasprintf("%s: invalid IPv6 address", value);
        } else if (slash && strchr(slash, ':')) {
            if (inet_pton(AF_INET6, slash, &m->ipv6) != 1) {
                error = xasprintf("%s: invalid IPv6 address", value);
            }
        } else if (slash) {
            if (!util_str_to_int(slash, 10, &prefix)
                || prefix < 0 || prefix > 128) {
                error = xasprintf("%s: IPv6 network prefix bits not between "
                                  "0 and 128, inclusive", value);
            } else {
                memset(m, 0, sizeof *m);
                for (int i = 0; i < prefix; i++) {
                    m->u8[i / 8] |= 0x80 >> (i % 8);
                }
            }
        }
    } else if (is_ipv4_field(mf)) {
        uint32_t ip = 0, mask = UINT32_MAX;
        int prefix;
        if (!sock_ipv4_from_string(copy, &ip)) {
            error = xasprintf("%s: invalid IP address", value);
        } else if (slash && strchr(slash, '.')) {
            if (!sock_ipv4_from_string(slash, &mask)) {
                error = xasprintf("%s: invalid IP address", value);
            }
        } else if (slash) {
            if (!util_str_to_int(slash, 10, &prefix)
                || prefix < 0 || prefix > 32) {
                error = xasprintf("%s: IPv4 network prefix bits not between "
                                  "0 and 32, inclusive", value);
            } else {
                mask = prefix ? htonl(UINT32_MAX << (32 - prefix)) : 0;
            }
        }
        memcpy(v->u8, &ip, 4);
        memcpy(m->u8, &mask, 4);
    } else {
        uint64_t n, mask = UINT64_MAX;
        uint64_t max = (mf->n_bytes == 8 ? UINT64_MAX
                        : (UINT64_C(1) << (8 * mf->n_bytes)) - 1);
        if (!ofp_parse_u64(copy, &n) || (slash && !ofp_parse_u64(slash, &mask))) {
            error = xasprintf("%s: invalid numeric format", value);
        } else if (n > max || (slash && mask > max)) {
            error = xasprintf("%s: value too large for %d-byte field %s",
                              value, mf->n_bytes, mf->name);
        } else {
            put_int(mf, n, v);
            put_int(mf, mask, m);
        }
    }

out:
    free(copy);
    return error;
}

static char * DPS_WARN_UNUSED_RESULT
parse_field(const char *name, const char *value,
            const struct ofputil_port_map *map, struct match *match)
{
    uint64_t n;

    if (!strcmp(name, "in_port")) {
        ofp_port_t port;
        if (!ofputil_port_parse(value, map, &port)) {
            return xasprintf("%s: invalid or unknown port for in_port",
                             value);
        }
        match_set_in_port(match, port);
        return NULL;
    } else if (!strcmp(name, "dl_vlan")) {
        if (!ofp_parse_u64(value, &n) || n > UINT16_MAX) {
            return xasprintf("%s: invalid numeric format", value);
        }
        match_set_dl_vlan(match, htons(n == 0xffff ? 0xffff
                                       : n & VLAN_VID_MASK));
        return NULL;
    } else if (!strcmp(name, "dl_vlan_pcp") || !strcmp(name, "vlan_pcp")) {
        if (!ofp_parse_u64(value, &n) || n > UINT8_MAX) {
            return xasprintf("%s: invalid numeric format", value);
        }
        match_set_dl_vlan_pcp(match, n);
        return NULL;
    }

    for (size_t i = 0; i < ARRAY_SIZE(field_aliases); i++) {
        if (field_aliases[i].in_flows
            && !strcmp(name, field_aliases[i].alias)) {
            name = field_aliases[i].name;
            break;
        }
    }
    const struct match_field *mf = match_field_by_name(name);
    if (!mf || mf->id == MATCH_F_DL_VLAN) {
        return xasprintf("unknown keyword %s", name);
    }

    union match_value v, m;
    char *error = parse_field_value(mf, value, &v, &m);
    if (error) {
        return error;
    }
    /* ICMP types and codes match their whole tp_src/tp_dst, as the wire
     * decoders store them. */
    if (mf->id == MATCH_F_ICMPV4_TYPE || mf->id == MATCH_F_ICMPV6_TYPE) {
        match_set_tp_src_masked(match, htons(v.u8[0]), 0xffff);
    } else if (mf->id == MATCH_F_ICMPV4_CODE
               || mf->id == MATCH_F_ICMPV6_CODE) {
        match_set_tp_dst_masked(match, htons(v.u8[0]), 0xffff);
    } else {
        match_field_set(mf, &v, &m, match);
    }
    return NULL;
}
