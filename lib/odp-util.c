/* Text forms of flow keys and masks.  See odp-util.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "odp-util.h"
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "dp-actions.h"
#include "dp-packet.h"
#include "dynamic-string.h"
#include "flow.h"
#include "packets.h"
#include "util.h"

/* How a field is stored in struct flow and written in text. */
enum field_type {
    FT_U32,             /* uint32_t, host order, decimal. */
    FT_BE16,            /* Decimal. */
    FT_BE16_HEX,        /* 0x%04x. */
    FT_BE16_U8,         /* 0...255 in a dps_be16, decimal (ICMP). */
    FT_U8,              /* Decimal. */
    FT_U8_HEX,          /* %#x. */
    FT_LABEL,           /* IPv6 flow label, %#x. */
    FT_FRAG,            /* no, first, later. */
    FT_TCP_FLAGS,       /* syn|ack or hex. */
    FT_VID,             /* VLAN id bits of a TCI. */
    FT_PCP,             /* VLAN priority bits of a TCI. */
    FT_MAC,
    FT_IPV4,
    FT_IPV6,
};

struct odp_field {
    const char *name;   /* "" for an attribute that is a bare value. */
    uint16_t ofs;       /* Offset in struct flow. */
    uint8_t type;       /* enum field_type. */
};

#define F(NAME, MEMBER, TYPE) { NAME, offsetof(struct flow, MEMBER), TYPE }

struct odp_attr {
    const char *name;
    struct odp_field fields[8];     /* Ends with a NULL name. */
};

static const struct odp_attr attrs[] = {
#define A_RECIRC 0
    { "recirc_id", { F("", recirc_id, FT_U32) } },
#define A_IN_PORT 1
    { "in_port", { F("", in_port, FT_U32) } },
#define A_ETH 2
    { "eth", { F("src", dl_src, FT_MAC), F("dst", dl_dst, FT_MAC) } },
#define A_ETH_TYPE 3
    { "eth_type", { F("", dl_type, FT_BE16_HEX) } },
#define A_VLAN 4
    { "vlan", { F("vid", vlan_tci, FT_VID), F("pcp", vlan_tci, FT_PCP) } },
#define A_IPV4 5
    { "ipv4", { F("src", nw_src, FT_IPV4), F("dst", nw_dst, FT_IPV4),
                F("proto", nw_proto, FT_U8), F("tos", nw_tos, FT_U8_HEX),
                F("ttl", nw_ttl, FT_U8), F("frag", nw_frag, FT_FRAG) } },
#define A_IPV6 6
    { "ipv6", { F("src", ipv6_src, FT_IPV6), F("dst", ipv6_dst, FT_IPV6),
                F("label", ipv6_label, FT_LABEL), F("proto", nw_proto, FT_U8),
                F("tclass", nw_tos, FT_U8_HEX), F("hlimit", nw_ttl, FT_U8),
                F("frag", nw_frag, FT_FRAG) } },
#define A_TCP 7
    { "tcp", { F("src", tp_src, FT_BE16), F("dst", tp_dst, FT_BE16) } },
#define A_UDP 8
    { "udp", { F("src", tp_src, FT_BE16), F("dst", tp_dst, FT_BE16) } },
#define A_SCTP 9
    { "sctp", { F("src", tp_src, FT_BE16), F("dst", tp_dst, FT_BE16) } },
#define A_ICMP 10
    { "icmp", { F("type", tp_src, FT_BE16_U8),
                F("code", tp_dst, FT_BE16_U8) } },
#define A_ICMPV6 11
    { "icmpv6", { F("type", tp_src, FT_BE16_U8),
                  F("code", tp_dst, FT_BE16_U8) } },
#define A_TCP_FLAGS 12
    { "tcp_flags", { F("", tcp_flags, FT_TCP_FLAGS) } },
#define A_ARP 13
    { "arp", { F("sip", nw_src, FT_IPV4), F("tip", nw_dst, FT_IPV4),
               F("op", arp_op, FT_BE16), F("sha", arp_sha, FT_MAC),
               F("tha", arp_tha, FT_MAC) } },
#define A_ND 14
    { "nd", { F("target", nd_target, FT_IPV6), F("sll", arp_sha, FT_MAC),
              F("tll", arp_tha, FT_MAC) } },
};
#undef F

static const char *const tcp_flag_names[] = {
    "fin", "syn", "rst", "psh", "ack", "urg", "ece", "cwr", "ns",
};

/* Formatting state: where the next attribute goes. */
struct formatter {
    struct ds *ds;
    const struct flow *key;
    const struct flow *mask;    /* NULL: every field exact. */
    bool first;
    bool unmasked;              /* Values as they are, not under 'mask'. */
};

static bool format_attr(struct formatter *, int attr, int tag);
static void format_value(struct ds *, enum field_type, const void *value);
static void format_tcp_flags_masked(struct ds *, uint64_t value,
                                    uint64_t mask);
static bool field_mask(const struct formatter *, const struct odp_field *,
                       int tag, uint8_t *buf);
static size_t field_size(enum field_type);
static uint64_t num_get(enum field_type, const void *);
static void num_put(enum field_type, void *, uint64_t);
static uint64_t num_full(enum field_type);
/* What parsing has found so far. */
struct parse_state {
    int n_tags;                 /* vlan() attributes. */
    uint32_t seen;              /* 1 << A_*, for each attribute found. */
    bool packet_type;           /* packet_type() found. */
    const char *error_at;       /* Start of the attribute that failed. */
    bool unmasked;              /* Keep values as given, not masked. */
};

static char *parse_list(struct flow *, struct flow *, const char **,
                        int depth, struct parse_state *);
static char *parse_attr(struct flow *, struct flow *, const char *name,
                        char *args, struct parse_state *);
static char *parse_field(const struct odp_field *, int tag, const char *text,
                         struct flow *, struct flow *, bool unmasked);
static char *parse_value(enum field_type, const char *, void *value,
                         bool is_mask);
static bool key_complete(const struct flow *key, const struct flow *mask,
                         const struct parse_state *);
static void format_flow(const struct flow *key, const struct flow *mask,
                        bool unmasked, struct ds *);
static char *parse_push_vlan(char *args, struct dp_actions *);
static char *parse_set(const char *text, struct dp_actions *);
static int mac_mask_kind(const struct eth_addr *);

/* Appends 'key', masked by 'mask' (NULL: exact, every field of every
 * attribute that applies), to 'ds' in datapath flow syntax. */
void
odp_flow_format(const struct flow *key, const struct flow *mask,
                struct ds *ds)
{
    format_flow(key, mask, false, ds);
}

/* Like odp_flow_format(), printing each field's value as it is in 'key'
 * rather than under its mask: as Open vSwitch prints a flow put by hand
 * ("dpctl/add-flow"), whose key it keeps as given. */
void
odp_flow_format_put(const struct flow *key, const struct flow *mask,
                    struct ds *ds)
{
    format_flow(key, mask, true, ds);
}

/* Like odp_flow_format() for compact keys. */
void
odp_flow_key_format(const struct flow_key *key, const struct flow_key *mask,
                    struct ds *ds)
{
    struct flow k, m;

    flow_key_to_flow(key, &k);
    if (mask) {
        flow_key_to_flow(mask, &m);
    }
    odp_flow_format(&k, mask ? &m : NULL, ds);
}

/* Parses datapath flow syntax 's' into 'key' and, if 'mask' is not NULL,
 * 'mask' (a field written without a mask is exact; one not written is
 * wildcarded).  Returns NULL, or an error message the caller must free. */
char *
odp_flow_parse(const char *s, struct flow *key, struct flow *mask)
{
    struct parse_state st = { .n_tags = 0 };
    struct flow scratch;

    memset(key, 0, sizeof *key);
    mask = mask ? mask : &scratch;
    memset(mask, 0, sizeof *mask);

    char *error = parse_list(key, mask, &s, 0, &st);
    if (!error && *s) {
        error = xasprintf("unexpected \"%s\"", s);
    }
    return error;
}

/* Parses flow syntax 's' and composes a packet from 'pool' that has that
 * key, with 'l4_payload_size' zero bytes of payload (flow_compose()).
 * Stores the packet in '*packetp' and returns NULL, or stores NULL and
 * returns an error message the caller must free. */
char *
odp_packet_compose(const char *s, struct rte_mempool *pool,
                   size_t l4_payload_size, struct dp_packet **packetp)
{
    struct flow flow;
    char *error = odp_flow_parse(s, &flow, NULL);

    *packetp = NULL;
    if (error) {
        return error;
    }
    *packetp = flow_compose(pool, &flow, l4_payload_size);
    return *packetp ? NULL : xstrdup("cannot compose packet: out of buffers "
                                     "or too large");
}

/* Parses flow key 's' of "ovs-appctl dpctl/add-flow" and the commands like
 * it.  On a syntax error, returns Open vSwitch's message for it ("syntax
 * error at" and the text from the attribute that failed on), which the
 * caller must free.  Otherwise returns NULL, with 'key' and 'mask' as
 * odp_flow_parse() fills them (and FLOW_MASK_PACKET_TYPE_WILD in 'mask' if
 * 's' has no packet_type()), and sets '*complete' to whether 's' has every
 * attribute Open vSwitch's userspace datapath wants for such a flow: the
 * input port, Ethernet, an exact eth_type and, for IPv4, IPv6 and ARP, the
 * attribute of that protocol and of the L4 protocol an unfragmented (or
 * first fragment) IP packet names. */
char *
odp_flow_parse_put(const char *s, struct flow *key, struct flow *mask,
                   bool *complete)
{
    struct parse_state st = { .unmasked = true };
    const char *p = s;

    memset(key, 0, sizeof *key);
    memset(mask, 0, sizeof *mask);
    char *error = parse_list(key, mask, &p, 0, &st);
    if (error || *p) {
        free(error);
        return xasprintf("syntax error at %s", error ? st.error_at : p);
    }
    *complete = key_complete(key, mask, &st);
    if (!st.packet_type) {
        mask->pad1[1] = FLOW_MASK_PACKET_TYPE_WILD;
    }
    return NULL;
}

/* Parses datapath actions 's' (Open vSwitch's syntax: port numbers, drop,
 * push_vlan(), pop_vlan, set() of eth(), ipv4(), tcp(), udp() or sctp()
 * fields, separated by commas) into 'acts', which it clears first.
 * Returns NULL, or an error message the caller must free (for Open
 * vSwitch's other actions too: this datapath does not execute them). */
char *
odp_actions_parse(const char *s, struct dp_actions *acts)
{
    dp_actions_clear(acts);
    for (;;) {
        s += strspn(s, " \t\n,");
        if (!*s) {
            return NULL;
        }

        size_t len = strcspn(s, ",(");
        char *error = NULL;
        if (s[0] >= '0' && s[0] <= '9') {
            char *word = xmemdup0(s, len);
            unsigned int port;

            if (util_str_to_uint(word, 10, &port)) {
                dp_actions_put_output(acts, port);
            } else {
                error = xasprintf("bad port \"%s\"", word);
            }
            free(word);
            s += len;
        } else if (len == 4 && !strncmp(s, "drop", 4)) {
            s += len;
        } else if (len == 8 && !strncmp(s, "pop_vlan", 8)) {
            dp_actions_put_pop_vlan(acts);
            s += len;
        } else if (s[len] == '(' && (len == 9 || len == 3)
                   && (!strncmp(s, "push_vlan", len)
                       || !strncmp(s, "set", len))) {
            bool push = len == 9;
            const char *args = s + len + 1;
            const char *end = strchr(args, ')');

            if (end && !push) {
                end = strchr(end + 1, ')');
            }
            if (!end) {
                return xasprintf("%.*s(: missing \")\"", (int) len, s);
            }
            char *text = xmemdup0(args, end - args);
            error = (push ? parse_push_vlan(text, acts)
                     : parse_set(text, acts));
            free(text);
            s = end + 1;
        } else {
            return xasprintf("unsupported action \"%.*s\"", (int) len, s);
        }
        if (error) {
            return error;
        }
        s += strspn(s, " \t\n");
        if (*s && *s != ',') {
            return xasprintf("expected \",\" at \"%s\"", s);
        }
    }
}

/* Formats attribute 'attr' (for VLAN tag 'tag') if its mask selects any of
 * its fields.  Returns true if it printed something. */
static bool
format_attr(struct formatter *f, int attr, int tag)
{
    const struct odp_attr *a = &attrs[attr];
    bool printed = false;

    for (const struct odp_field *fl = a->fields; fl->name; fl++) {
        uint8_t mask[16], value[16];

        if (!field_mask(f, fl, tag, mask)) {
            continue;
        }

        size_t size = field_size(fl->type);
        size_t ofs = fl->ofs + (fl->type == FT_VID || fl->type == FT_PCP
                                ? tag * 2 : 0);
        memcpy(value, (const uint8_t *) f->key + ofs, size);

        ds_put_cstr(f->ds, printed ? "," : f->first ? "" : ",");
        if (!printed) {
            ds_put_format(f->ds, "%s(", a->name);
        }
        printed = true;
        f->first = false;
        if (fl->name[0]) {
            ds_put_format(f->ds, "%s=", fl->name);
        }

        bool exact;
        if (size == 1 || size == 2 || size == 4) {
            exact = num_get(fl->type, mask) == num_full(fl->type);
            if (!f->unmasked) {
                num_put(fl->type, value, (num_get(fl->type, value)
                                          & num_get(fl->type, mask)));
            }
        } else {
            exact = true;
            for (size_t i = 0; i < size; i++) {
                exact = exact && mask[i] == 0xff;
                value[i] &= f->unmasked ? 0xff : mask[i];
            }
        }
        if (fl->type == FT_TCP_FLAGS && !exact) {
            format_tcp_flags_masked(f->ds, num_get(fl->type, value),
                                    num_get(fl->type, mask));
            continue;
        }
        format_value(f->ds, fl->type, value);
        if (!exact) {
            ds_put_char(f->ds, '/');
            format_value(f->ds, fl->type == FT_FRAG ? FT_U8_HEX : fl->type,
                         mask);
        }
    }
    if (printed) {
        ds_put_char(f->ds, ')');
    }
    return printed;
}

/* Formats TCP flags 'value' under partial 'mask' as "+syn-ack": each flag
 * the mask selects, with + if it must be set and - if it must be clear.
 * Reserved bits have no names: if the mask selects one, value/mask in hex. */
static void
format_tcp_flags_masked(struct ds *ds, uint64_t value, uint64_t mask)
{
    if (mask >> ARRAY_SIZE(tcp_flag_names)) {
        ds_put_format(ds, "0x%03"PRIx64"/0x%03"PRIx64, value, mask);
        return;
    }
    for (size_t i = 0; i < ARRAY_SIZE(tcp_flag_names); i++) {
        if (mask & (1u << i)) {
            ds_put_format(ds, "%c%s", value & (1u << i) ? '+' : '-',
                          tcp_flag_names[i]);
        }
    }
}

/* Stores in 'buf' the mask of field 'fl' (of VLAN tag 'tag'), in the
 * field's own representation, and returns true if it selects any bit. */
static bool
field_mask(const struct formatter *f, const struct odp_field *fl, int tag,
           uint8_t *buf)
{
    size_t size = field_size(fl->type);

    if (!f->mask) {
        if (size > 4) {
            memset(buf, 0xff, size);
        } else {
            num_put(fl->type, memset(buf, 0, size), num_full(fl->type));
        }
        return true;
    }

    size_t ofs = fl->ofs + (fl->type == FT_VID || fl->type == FT_PCP
                            ? tag * 2 : 0);
    memcpy(buf, (const uint8_t *) f->mask + ofs, size);
    if (size <= 4) {
        uint64_t m = num_get(fl->type, buf);

        memset(buf, 0, size);
        num_put(fl->type, buf, m);
        return m != 0;
    }
    for (size_t i = 0; i < size; i++) {
        if (buf[i]) {
            return true;
        }
    }
    return false;
}

static void
format_value(struct ds *ds, enum field_type type, const void *value)
{
    char buf[INET6_ADDRSTRLEN];
    uint64_t v = 0;

    if (field_size(type) <= 4) {
        v = num_get(type, value);
    }
    switch (type) {
    case FT_U32:
    case FT_BE16:
    case FT_BE16_U8:
    case FT_U8:
    case FT_VID:
    case FT_PCP:
        ds_put_format(ds, "%"PRIu64, v);
        break;
    case FT_BE16_HEX:
        ds_put_format(ds, "0x%04"PRIx64, v);
        break;
    case FT_U8_HEX:
    case FT_LABEL:
        ds_put_format(ds, v ? "%#"PRIx64 : "%"PRIu64, v);
        break;
    case FT_FRAG:
        ds_put_cstr(ds, (v & FLOW_NW_FRAG_LATER ? "later"
                         : v & FLOW_NW_FRAG_ANY ? "first" : "no"));
        break;
    case FT_TCP_FLAGS:
        if (!v || v >> ARRAY_SIZE(tcp_flag_names)) {
            /* Reserved bits have no names: the number says it all. */
            ds_put_format(ds, v ? "0x%03"PRIx64 : "0", v);
            break;
        }
        for (size_t i = 0; i < ARRAY_SIZE(tcp_flag_names); i++) {
            if (v & (1u << i)) {
                v &= ~(1u << i);
                ds_put_format(ds, "%s%s", tcp_flag_names[i], v ? "|" : "");
            }
        }
        break;
    case FT_MAC:
        eth_addr_format(value, buf);
        ds_put_cstr(ds, buf);
        break;
    case FT_IPV4:
        ds_put_cstr(ds, inet_ntop(AF_INET, value, buf, sizeof buf));
        break;
    case FT_IPV6:
        ds_put_cstr(ds, inet_ntop(AF_INET6, value, buf, sizeof buf));
        break;
    }
}

/* Returns the bytes a field of 'type' takes in struct flow. */
static size_t
field_size(enum field_type type)
{
    switch (type) {
    case FT_U32:
    case FT_LABEL:
    case FT_IPV4:
        return 4;
    case FT_BE16:
    case FT_BE16_HEX:
    case FT_BE16_U8:
    case FT_TCP_FLAGS:
    case FT_VID:
    case FT_PCP:
        return 2;
    case FT_U8:
    case FT_U8_HEX:
    case FT_FRAG:
        return 1;
    case FT_MAC:
        return ETH_ADDR_LEN;
    case FT_IPV6:
        return 16;
    }
    return 0;
}

/* Reads a numeric field (size 4 or less) of 'type' at 'p' as a number. */
static uint64_t
num_get(enum field_type type, const void *p)
{
    uint32_t u32;
    uint16_t u16;

    switch (field_size(type)) {
    case 4:
        memcpy(&u32, p, 4);
        return (type == FT_U32 ? u32
                : type == FT_LABEL ? ntohl(u32) & IPV6_LABEL_MASK
                : ntohl(u32));
    case 2:
        memcpy(&u16, p, 2);
        u16 = ntohs(u16);
        return (type == FT_VID ? u16 & VLAN_VID_MASK
                : type == FT_PCP ? u16 >> VLAN_PCP_SHIFT
                : type == FT_TCP_FLAGS ? u16 & TCP_FLAGS_MASK
                : type == FT_BE16_U8 ? u16 & 0xff : u16);
    default:
        return *(const uint8_t *) p;
    }
}

/* Writes number 'v' into the numeric field of 'type' at 'p' (only the bits
 * that belong to the field, for VLAN TCI parts). */
static void
num_put(enum field_type type, void *p, uint64_t v)
{
    uint32_t u32;
    uint16_t u16;

    switch (field_size(type)) {
    case 4:
        u32 = type == FT_U32 ? v : htonl(v);
        memcpy(p, &u32, 4);
        break;
    case 2:
        memcpy(&u16, p, 2);
        u16 = ntohs(u16);
        if (type == FT_VID) {
            u16 = (u16 & ~VLAN_VID_MASK) | (v & VLAN_VID_MASK);
        } else if (type == FT_PCP) {
            u16 = (u16 & ~VLAN_PCP_MASK) | ((v << VLAN_PCP_SHIFT)
                                            & VLAN_PCP_MASK);
        } else {
            u16 = v;
        }
        u16 = htons(u16);
        memcpy(p, &u16, 2);
        break;
    default:
        *(uint8_t *) p = v;
        break;
    }
}

/* Returns the exact-match mask of a numeric field of 'type'. */
static uint64_t
num_full(enum field_type type)
{
    switch (type) {
    case FT_U32:
        return UINT32_MAX;
    case FT_LABEL:
        return IPV6_LABEL_MASK;
    case FT_IPV4:
        return UINT32_MAX;
    case FT_BE16:
    case FT_BE16_HEX:
        return UINT16_MAX;
    case FT_BE16_U8:
    case FT_U8:
    case FT_U8_HEX:
        return UINT8_MAX;
    case FT_FRAG:
        return FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER;
    case FT_TCP_FLAGS:
        return TCP_FLAGS_MASK;
    case FT_VID:
        return VLAN_VID_MASK;
    case FT_PCP:
        return VLAN_PCP_MASK >> VLAN_PCP_SHIFT;
    case FT_MAC:
    case FT_IPV6:
        break;
    }
    return 0;
}

/* Parses a comma-separated list of attributes from '*sp' into 'key' and
 * 'mask', up to the end of the string or, inside encap() ('depth' > 0), the
 * closing parenthesis, which is left in '*sp'. */
static char *
parse_list(struct flow *key, struct flow *mask, const char **sp, int depth,
           struct parse_state *st)
{
    const char *s = *sp;
    char *error = NULL;

    for (;;) {
        s += strspn(s, " \t\n");
        if (!*s || (*s == ')' && depth)) {
            break;
        }

        st->error_at = s;
        size_t name_len = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_");
        if (!name_len || s[name_len] != '(') {
            error = xasprintf("syntax error at \"%s\"", s);
            break;
        }

        char *name = xmemdup0(s, name_len);
        s += name_len + 1;
        if (!strcmp(name, "encap")) {
            if (depth >= 2) {
                error = xstrdup("encap() nested too deeply");
            } else {
                error = parse_list(key, mask, &s, depth + 1, st);
                if (!error && *s != ')') {
                    error = xstrdup("encap(: missing \")\"");
                }
            }
        } else {
            const char *end = strchr(s, ')');
            if (!end) {
                error = xasprintf("%s(: missing \")\"", name);
            } else {
                char *args = xmemdup0(s, end - s);

                error = parse_attr(key, mask, name, args, st);
                free(args);
                s = end;
            }
        }
        free(name);
        if (error) {
            break;
        }
        s++;                    /* The ')'. */
        s += strspn(s, " \t\n");
        if (*s == ',') {
            s++;
        } else if (*s && *s != ')') {
            error = xasprintf("expected \",\" at \"%s\"", s);
            break;
        }
    }
    if (!error && !depth && *s == ')') {
        error = xstrdup("unbalanced \")\"");
    }
    *sp = s;
    return error;
}

static char *
parse_attr(struct flow *key, struct flow *mask, const char *name, char *args,
           struct parse_state *st)
{
    if (!strcmp(name, "packet_type")) {
        st->packet_type = true;
        /* Ethernet is the only packet type here. */
        return (!strcmp(args, "ns=0,id=0") ? NULL
                : xasprintf("packet_type(%s): only Ethernet is supported",
                            args));
    }

    const struct odp_attr *a = NULL;
    for (size_t i = 0; i < ARRAY_SIZE(attrs); i++) {
        if (!strcmp(attrs[i].name, name)) {
            a = &attrs[i];
            break;
        }
    }
    if (!a) {
        return xasprintf("unknown attribute \"%s\"", name);
    }
    st->seen |= UINT32_C(1) << (a - attrs);

    int tag = 0;
    if (a == &attrs[A_VLAN]) {
        uint16_t tpid = ntohs(key->dl_type);

        if (st->n_tags >= 2) {
            return xstrdup("more than two vlan() attributes");
        }
        if (tpid != ETH_TYPE_VLAN && tpid != ETH_TYPE_VLAN_8021AD) {
            return xstrdup("vlan() must follow eth_type(0x8100) or "
                           "eth_type(0x88a8)");
        }
        tag = st->n_tags++;
        key->vlan_tpid[tag] = key->dl_type;
        mask->vlan_tpid[tag] = UINT16_MAX;
        key->vlan_tci[tag] |= htons(VLAN_CFI);
        mask->vlan_tci[tag] |= htons(VLAN_CFI);
        key->dl_type = mask->dl_type = 0;
    }

    if (!a->fields[0].name[0]) {
        return parse_field(&a->fields[0], 0, args, key, mask, st->unmasked);
    }

    char *save = NULL;
    for (char *item = strtok_r(args, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
        item += strspn(item, " ");

        char *eq = strchr(item, '=');
        if (!eq) {
            return xasprintf("%s(): \"%s\" is not field=value", name, item);
        }
        *eq = '\0';

        const struct odp_field *fl;
        for (fl = a->fields; fl->name; fl++) {
            if (!strcmp(fl->name, item)) {
                break;
            }
        }
        if (!fl->name) {
            return xasprintf("%s(): unknown field \"%s\"", name, item);
        }

        char *error = parse_field(fl, tag, eq + 1, key, mask, st->unmasked);
        if (error) {
            char *e = xasprintf("%s(%s=...): %s", name, item, error);
            free(error);
            return e;
        }
    }
    return NULL;
}

/* Parses "value" or "value/mask" of field 'fl' into 'key' and 'mask'. */
static char *
parse_field(const struct odp_field *fl, int tag, const char *text,
            struct flow *key, struct flow *mask, bool unmasked)
{
    size_t size = field_size(fl->type);
    size_t ofs = fl->ofs + (fl->type == FT_VID || fl->type == FT_PCP
                            ? tag * 2 : 0);
    uint8_t *k = (uint8_t *) key + ofs;
    uint8_t *m = (uint8_t *) mask + ofs;
    uint8_t value[16], mvalue[16];
    char *error;

    if (fl->type == FT_TCP_FLAGS && (text[0] == '+' || text[0] == '-')) {
        /* "+syn-ack": flags that must be set (+) or clear (-). */
        uint64_t v = 0, mk = 0;

        while (*text) {
            bool set = *text++ == '+';
            size_t len = strcspn(text, "+-");
            size_t i;

            for (i = 0; i < ARRAY_SIZE(tcp_flag_names); i++) {
                if (strlen(tcp_flag_names[i]) == len
                    && !strncmp(text, tcp_flag_names[i], len)) {
                    break;
                }
            }
            if (i == ARRAY_SIZE(tcp_flag_names) || (text[-1] != '+'
                                                    && text[-1] != '-')) {
                return xasprintf("bad TCP flags \"%s\"", text);
            }
            v |= set ? 1u << i : 0;
            mk |= 1u << i;
            text += len;
        }
        num_put(fl->type, k, v);
        num_put(fl->type, m, mk);
        return NULL;
    }

    const char *slash = strchr(text, '/');
    char *vtext = slash ? xmemdup0(text, slash - text) : xstrdup(text);
    memset(value, 0, sizeof value);
    error = parse_value(fl->type, vtext, value, false);
    free(vtext);
    if (error) {
        return error;
    }
    if (slash) {
        memset(mvalue, 0, sizeof mvalue);
        error = parse_value(fl->type, slash + 1, mvalue, true);
        if (error) {
            return error;
        }
    } else if (size > 4) {
        memset(mvalue, 0xff, size);
    } else {
        memset(mvalue, 0, size);
        num_put(fl->type, mvalue, num_full(fl->type));
    }

    if (size <= 4) {
        uint64_t v = num_get(fl->type, value);
        uint64_t mk = num_get(fl->type, mvalue);

        num_put(fl->type, k, unmasked ? v : v & mk);
        num_put(fl->type, m, mk);
    } else {
        for (size_t i = 0; i < size; i++) {
            k[i] = unmasked ? value[i] : value[i] & mvalue[i];
            m[i] = mvalue[i];
        }
    }
    return NULL;
}

/* Parses 'text' as a value of 'type' (or, if 'is_mask', a mask, which for
 * addresses may be a prefix length) into 'value', in the field's
 * representation. */
static char *
parse_value(enum field_type type, const char *text, void *value,
            bool is_mask)
{
    if (type == FT_MAC) {
        return (eth_addr_parse(text, value) ? NULL
                : xasprintf("bad Ethernet address \"%s\"", text));
    }
    if (type == FT_IPV4 || type == FT_IPV6) {
        int af = type == FT_IPV4 ? AF_INET : AF_INET6;
        unsigned int bits = type == FT_IPV4 ? 32 : 128;
        unsigned int prefix;

        if (inet_pton(af, text, value) == 1) {
            return NULL;
        }
        if (is_mask && util_str_to_uint(text, 10, &prefix) && prefix <= bits) {
            uint8_t *b = value;

            memset(b, 0, bits / 8);
            for (unsigned int i = 0; i < prefix; i++) {
                b[i / 8] |= 0x80 >> (i % 8);
            }
            return NULL;
        }
        return xasprintf("bad IP%s address \"%s\"",
                         type == FT_IPV4 ? "v4" : "v6", text);
    }

    uint64_t v = 0;
    if (type == FT_FRAG && !is_mask) {
        if (!strcmp(text, "no")) {
            v = 0;
        } else if (!strcmp(text, "first")) {
            v = FLOW_NW_FRAG_ANY;
        } else if (!strcmp(text, "later")) {
            v = FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER;
        } else {
            return xasprintf("bad frag \"%s\" (no, first or later)", text);
        }
    } else if (type == FT_TCP_FLAGS && !is_mask && text[0] >= 'a'
               && text[0] <= 'z') {
        const char *p = text;

        while (*p) {
            size_t len = strcspn(p, "|");
            size_t i;

            for (i = 0; i < ARRAY_SIZE(tcp_flag_names); i++) {
                if (strlen(tcp_flag_names[i]) == len
                    && !strncmp(p, tcp_flag_names[i], len)) {
                    break;
                }
            }
            if (i == ARRAY_SIZE(tcp_flag_names)) {
                return xasprintf("bad TCP flags \"%s\"", text);
            }
            v |= 1u << i;
            p += len + (p[len] == '|');
        }
    } else {
        char *end;

        errno = 0;
        v = strtoull(text, &end, 0);
        if (errno || end == text || *end || text[0] == '-'
            || v > num_full(type)) {
            return xasprintf("bad value \"%s\"", text);
        }
    }
    num_put(type, value, v);
    return NULL;
}

/* Returns true if the key of "dpctl/add-flow" that parsing 'st' found has
 * every attribute it needs (see odp_flow_parse_put()). */
static bool
key_complete(const struct flow *key, const struct flow *mask,
             const struct parse_state *st)
{
#define SEEN(A) (st->seen & (UINT32_C(1) << (A)))
    if (!SEEN(A_IN_PORT) || (!SEEN(A_ETH) && !st->packet_type)
        || mask->dl_type != htons(0xffff)) {
        return false;
    }

    uint16_t dl_type = ntohs(key->dl_type);
    if (dl_type == ETH_TYPE_ARP) {
        return SEEN(A_ARP);
    }
    if (dl_type != ETH_TYPE_IP && dl_type != ETH_TYPE_IPV6) {
        return true;
    }
    bool v6 = dl_type == ETH_TYPE_IPV6;
    if (!SEEN(v6 ? A_IPV6 : A_IPV4)) {
        return false;
    }
    if (key->nw_frag & FLOW_NW_FRAG_LATER) {
        return true;
    }
    switch (key->nw_proto) {
    case IPPROTO_TCP_:
        return SEEN(A_TCP);
    case IPPROTO_UDP_:
        return SEEN(A_UDP);
    case IPPROTO_SCTP_:
        return SEEN(A_SCTP);
    case IPPROTO_ICMP_:
        return v6 || SEEN(A_ICMP);
    case IPPROTO_ICMPV6_:
        return !v6 || SEEN(A_ICMPV6);
    default:
        return true;
    }
#undef SEEN
}

/* Parses the arguments of push_vlan() ("vid=N,pcp=N" in any order, with
 * optional "tpid=0x8100|0x88a8" and "cfi=0|1") into a push_vlan action. */
static char *
parse_push_vlan(char *args, struct dp_actions *acts)
{
    unsigned int vid = 0, pcp = 0, tpid = ETH_TYPE_VLAN, cfi = 1;
    char *save = NULL;

    for (char *item = strtok_r(args, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '=');
        unsigned int *v = NULL;
        unsigned int max = 0;

        item += strspn(item, " ");
        if (eq) {
            *eq = '\0';
            if (!strcmp(item, "vid")) {
                v = &vid, max = VLAN_VID_MASK;
            } else if (!strcmp(item, "pcp")) {
                v = &pcp, max = 7;
            } else if (!strcmp(item, "tpid")) {
                v = &tpid, max = UINT16_MAX;
            } else if (!strcmp(item, "cfi")) {
                v = &cfi, max = 1;
            }
        }
        if (!v || !util_str_to_uint(eq + 1, 0, v) || *v > max) {
            return xasprintf("push_vlan(): bad \"%s\"", item);
        }
    }
    if (tpid != ETH_TYPE_VLAN && tpid != ETH_TYPE_VLAN_8021AD) {
        return xasprintf("push_vlan(): bad tpid 0x%04x", tpid);
    }
    dp_actions_put_push_vlan(acts, htons(tpid),
                             htons(vid | (pcp << VLAN_PCP_SHIFT)
                                   | (cfi ? VLAN_CFI : 0)));
    return NULL;
}

/* Parses the argument of set(), one attribute of flow syntax ("eth(...)",
 * "ipv4(...)", "tcp(...)", "udp(...)" or "sctp(...)") whose fields are
 * those to write, into a set-field action. */
static char *
parse_set(const char *text, struct dp_actions *acts)
{
    struct flow key, mask;
    char *error = odp_flow_parse(text, &key, &mask);
    size_t len = strcspn(text, "(");

    if (error) {
        return error;
    }
    if (len == 3 && !strncmp(text, "eth", 3)) {
        int src = mac_mask_kind(&mask.dl_src);
        int dst = mac_mask_kind(&mask.dl_dst);

        if (src < 0 || dst < 0) {
            return xstrdup("set(eth()): masked addresses");
        }
        dp_actions_put_set_eth(acts, src ? &key.dl_src : NULL,
                               dst ? &key.dl_dst : NULL);
        return NULL;
    }
    if (len == 4 && !strncmp(text, "ipv4", 4)) {
        uint8_t fields = ((mask.nw_src ? DP_SET_IPV4_SRC : 0)
                          | (mask.nw_dst ? DP_SET_IPV4_DST : 0)
                          | (mask.nw_tos ? DP_SET_IPV4_TOS : 0)
                          | (mask.nw_ttl ? DP_SET_IPV4_TTL : 0));

        if ((mask.nw_src && mask.nw_src != UINT32_MAX)
            || (mask.nw_dst && mask.nw_dst != UINT32_MAX)
            || (mask.nw_ttl && mask.nw_ttl != 0xff)
            || mask.nw_proto || mask.nw_frag) {
            return xstrdup("set(ipv4()): only src, dst, tos and ttl");
        }
        dp_actions_put_set_ipv4_masked(acts, fields, key.nw_src, key.nw_dst,
                                       key.nw_tos, mask.nw_tos, key.nw_ttl);
        return NULL;
    }

    uint8_t proto = (len == 3 && !strncmp(text, "tcp", 3) ? IPPROTO_TCP_
                     : len == 3 && !strncmp(text, "udp", 3) ? IPPROTO_UDP_
                     : len == 4 && !strncmp(text, "sctp", 4) ? IPPROTO_SCTP_
                     : 0);
    if (!proto || (mask.tp_src && mask.tp_src != UINT16_MAX)
        || (mask.tp_dst && mask.tp_dst != UINT16_MAX)) {
        return xasprintf("unsupported set(%s)", text);
    }
    dp_actions_put_set_l4(acts, proto,
                          ((mask.tp_src ? DP_SET_L4_SRC : 0)
                           | (mask.tp_dst ? DP_SET_L4_DST : 0)),
                          key.tp_src, key.tp_dst);
    return NULL;
}

/* Returns 0 if 'mask' is all zeros, 1 if all ones, -1 otherwise. */
static int
mac_mask_kind(const struct eth_addr *mask)
{
    int zeros = 0, ones = 0;

    for (int i = 0; i < 6; i++) {
        zeros += !mask->ea[i];
        ones += mask->ea[i] == 0xff;
    }
    return zeros == 6 ? 0 : ones == 6 ? 1 : -1;
}

/* odp_flow_format(), or with 'unmasked' odp_flow_format_put(). */
static void
format_flow(const struct flow *key, const struct flow *mask, bool unmasked,
            struct ds *ds)
{
    struct formatter f = { .ds = ds, .key = key, .mask = mask,
                           .first = true, .unmasked = unmasked };
    int n_tags = 0;

    bool meta_exact = mask && flow_mask_meta_exact(mask);
    if (meta_exact) {
        /* As Open vSwitch prints an exact-match flow. */
        ds_put_cstr(ds, "skb_priority(0),skb_mark(0),"
                    "ct_state(-new-est-rel-rpl-inv-trk-snat-dnat),"
                    "ct_zone(0),ct_mark(0),ct_label(0)");
        f.first = false;
    }
    format_attr(&f, A_RECIRC, 0);
    if (meta_exact) {
        ds_put_cstr(ds, ",dp_hash(0)");
    }
    bool pt_wild = mask && flow_mask_packet_type_wild(mask);
    if (format_attr(&f, A_IN_PORT, 0) && !pt_wild) {
        /* Open vSwitch's userspace datapath matches the packet type exactly
         * and prints it after the port; here it is always Ethernet. */
        ds_put_cstr(ds, ",packet_type(ns=0,id=0)");
    }
    if (!format_attr(&f, A_ETH, 0) && pt_wild) {
        /* Without the packet type, "eth()" says it is Ethernet. */
        ds_put_cstr(ds, f.first ? "eth()" : ",eth()");
        f.first = false;
    }
    for (int i = 0; i < 2 && (key->vlan_tci[i] & htons(VLAN_CFI)); i++) {
        if (!f.first) {
            ds_put_char(ds, ',');
        }
        ds_put_format(ds, "eth_type(0x%04x),", ntohs(key->vlan_tpid[i]));
        f.first = true;
        if (!format_attr(&f, A_VLAN, i)) {
            ds_put_cstr(ds, "vlan()");
        }
        ds_put_cstr(ds, ",encap(");
        f.first = true;
        n_tags++;
    }
    format_attr(&f, A_ETH_TYPE, 0);

    uint16_t dl_type = ntohs(key->dl_type);
    bool l4 = (!(key->nw_frag & FLOW_NW_FRAG_LATER)
               && (!mask || mask->nw_proto));
    if (mask && !mask->dl_type) {
        /* Nothing beyond L2 can be matched. */
    } else if (dl_type == ETH_TYPE_IP || dl_type == ETH_TYPE_IPV6) {
        bool v6 = dl_type == ETH_TYPE_IPV6;

        format_attr(&f, v6 ? A_IPV6 : A_IPV4, 0);
        if (l4) {
            switch (key->nw_proto) {
            case IPPROTO_TCP_:
                format_attr(&f, A_TCP, 0);
                format_attr(&f, A_TCP_FLAGS, 0);
                break;
            case IPPROTO_UDP_:
                format_attr(&f, A_UDP, 0);
                break;
            case IPPROTO_SCTP_:
                format_attr(&f, A_SCTP, 0);
                break;
            case IPPROTO_ICMP_:
                if (!v6) {
                    format_attr(&f, A_ICMP, 0);
                }
                break;
            case IPPROTO_ICMPV6_:
                if (v6) {
                    uint16_t type = ntohs(key->tp_src);

                    format_attr(&f, A_ICMPV6, 0);
                    if ((type == ND_NEIGHBOR_SOLICIT
                         || type == ND_NEIGHBOR_ADVERT) && !key->tp_dst) {
                        format_attr(&f, A_ND, 0);
                    }
                }
                break;
            }
        }
    } else if (dl_type == ETH_TYPE_ARP) {
        format_attr(&f, A_ARP, 0);
    }
    for (int i = 0; i < n_tags; i++) {
        ds_put_char(ds, ')');
    }
}
