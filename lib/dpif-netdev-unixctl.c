/* dpif-netdev unixctl commands, with Open vSwitch 3.1's names, arguments and
 * output layouts: dpctl/show, dpctl/dump-flows, dpctl/del-flows,
 * dpctl/add-flow, mod-flow, del-flow, get-flow,
 * dpif-netdev/pmd-stats-show, pmd-stats-clear, pmd-rxq-show,
 * pmd-perf-show, pmd-rxq-rebalance.  See dpif-netdev.h.
 *
 * Every command runs in the main thread.  Flow lists are read under each
 * thread's flow mutex; counters that PMDs write are loaded atomically.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "dpif-netdev-private.h"
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <rte_cycles.h>
#include "dp-flow.h"
#include "dpif-netdev-offload.h"
#include "dynamic-string.h"
#include "flow.h"
#include "netdev-offload.h"
#include "netdev.h"
#include "odp-util.h"
#include "ovs-numa.h"
#include "smap.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"

/* dpctl/dump-flows type=. */
enum dump_type {
    DUMP_PARTIAL = 1 << 0,
    DUMP_NOT_OFFLOADED = 1 << 1,
    DUMP_ALL = DUMP_PARTIAL | DUMP_NOT_OFFLOADED,
};

/* What dump_flows() dumps, and how. */
struct dump_opts {
    bool verbose;               /* -m. */
    bool names;                 /* Ports by name. */
    int pmd_core;               /* -2: all threads; -1: the main thread. */
    unsigned int type;          /* DUMP_*. */
    const struct flow *fkey;    /* filter=, or NULL. */
    const struct flow *fmask;
    bool headers;               /* dpctl's format, "flow-dump from ..."
                                 * lines; else dpif/dump-flows'. */
    bool (*keep_port)(uint32_t in_port, void *aux);     /* Or NULL. */
    void *aux;
};

static unixctl_cb_func dpctl_dump_dps;
static unixctl_cb_func dpctl_show;
static unixctl_cb_func dpctl_dump_flows;
static unixctl_cb_func dpctl_del_flows;
static unixctl_cb_func pmd_stats_show;
static unixctl_cb_func pmd_stats_clear;
static unixctl_cb_func pmd_rxq_show;
static unixctl_cb_func pmd_perf_show;
static unixctl_cb_func pmd_rxq_rebalance;
static unixctl_cb_func dpctl_offload_stats_show;
static unixctl_cb_func dpctl_add_flow;
static unixctl_cb_func dpctl_mod_flow;
static unixctl_cb_func dpctl_del_flow;
static unixctl_cb_func dpctl_get_flow;
static unixctl_cb_func dpctl_add_dp;
static unixctl_cb_func dpctl_del_dp;
static unixctl_cb_func dpctl_add_if;
static unixctl_cb_func dpctl_del_if;
static unixctl_cb_func dpctl_set_if;
static unixctl_cb_func subtable_lookup_info_get;
static char *add_if(struct dp_netdev *, const char *arg, int *error);
static char *del_if(struct dp_netdev *, const char *name, int *error);
static char *set_if(struct dp_netdev *, const char *arg, int *error);
static unixctl_cb_func subtable_lookup_prio_set;
static unixctl_cb_func dpif_impl_get;
static unixctl_cb_func dpif_impl_set;
static unixctl_cb_func miniflow_parser_get;
static unixctl_cb_func miniflow_parser_set;

static void
dpctl_dump_dps(struct unixctl_conn *conn, int argc DPS_UNUSED,
               const char *argv[] DPS_UNUSED, void *dp_ DPS_UNUSED);
static void
dpctl_show(struct unixctl_conn *conn, int argc, const char *argv[],
           void *dp_);
static void
dump_flows(struct dp_netdev *dp, const struct dump_opts *o, struct ds *ds);
static void
dpctl_dump_flows(struct unixctl_conn *conn, int argc, const char *argv[],
                 void *dp_);
static void
dpctl_del_flows(struct unixctl_conn *conn, int argc, const char *argv[],
                void *dp_);
static void
pmd_stats_show(struct unixctl_conn *conn, int argc, const char *argv[],
               void *dp_);
static void
pmd_stats_clear(struct unixctl_conn *conn, int argc, const char *argv[],
                void *dp_);
static void
pmd_rxq_show(struct unixctl_conn *conn, int argc, const char *argv[],
             void *dp_);
static void
pmd_perf_show(struct unixctl_conn *conn, int argc, const char *argv[],
              void *dp_);
static void
pmd_rxq_rebalance(struct unixctl_conn *conn, int argc, const char *argv[],
                  void *dp_);
static void dpctl_offload_stats_show(struct unixctl_conn *conn, int argc,
                                     const char *argv[], void *dp_);
static void flow_cmd_error(struct unixctl_conn *, const char *what,
                           int error);
static char *in_port_by_number(const struct dp_netdev *, const char *s);
static void put_flow_stats(struct ds *, const struct dp_flow_stats *,
                           long long int now);
static void flow_cmd_reply(struct unixctl_conn *,
                           const struct dp_flow_stats *);
static void put_vlan_field(struct ds *, const char *name, unsigned int v,
                           unsigned int m, unsigned int full);
static size_t threads_of(struct dp_netdev *, struct dp_netdev_pmd *[],
                         size_t max);

/* Registers the commands for 'dp'. */
void
dp_netdev_unixctl_register(struct dp_netdev *dp)
{
    unixctl_command_register("dpctl/dump-dps", "", 0, 0, dpctl_dump_dps,
                             dp);
    unixctl_command_register("dpctl/show", "[-s] [dp...]", 0, 3,
                             dpctl_show, dp);
    unixctl_command_register("dpctl/dump-flows",
                             "[-m] [--names] [dp] [filter=..] [type=..] "
                             "[pmd=..]", 0, 7, dpctl_dump_flows, dp);
    unixctl_command_register("dpctl/del-flows", "[dp]", 0, 1,
                             dpctl_del_flows, dp);
    unixctl_command_register("dpif-netdev/pmd-stats-show",
                             "[-pmd core] [dp]", 0, 3, pmd_stats_show, dp);
    unixctl_command_register("dpif-netdev/pmd-stats-clear",
                             "[-pmd core] [dp]", 0, 3, pmd_stats_clear, dp);
    unixctl_command_register("dpif-netdev/pmd-rxq-show",
                             "[-pmd core] [-secs secs] [dp]", 0, 5,
                             pmd_rxq_show, dp);
    unixctl_command_register("dpif-netdev/pmd-perf-show",
                             "[-nh] [-it iter-history-len] "
                             "[-ms ms-history-len] [-pmd core] [dp]", 0, 8,
                             pmd_perf_show, dp);
    unixctl_command_register("dpif-netdev/pmd-rxq-rebalance", "[dp]", 0, 1,
                             pmd_rxq_rebalance, dp);
    unixctl_command_register("dpctl/offload-stats-show", "[dp]", 0, 1,
                             dpctl_offload_stats_show, dp);
    unixctl_command_register("dpctl/add-flow", "[dp] flow actions", 2, 3,
                             dpctl_add_flow, dp);
    unixctl_command_register("dpctl/mod-flow", "[dp] flow actions", 2, 3,
                             dpctl_mod_flow, dp);
    unixctl_command_register("dpctl/del-flow", "[dp] flow", 1, 2,
                             dpctl_del_flow, dp);
    unixctl_command_register("dpctl/get-flow", "[dp] ufid", 1, 2,
                             dpctl_get_flow, dp);
    unixctl_command_register("dpctl/add-dp", "dp [iface...]", 1, INT_MAX,
                             dpctl_add_dp, dp);
    unixctl_command_register("dpctl/del-dp", "dp", 1, 1, dpctl_del_dp, dp);
    unixctl_command_register("dpctl/add-if", "dp iface...", 2, INT_MAX,
                             dpctl_add_if, dp);
    unixctl_command_register("dpctl/del-if", "dp iface...", 2, INT_MAX,
                             dpctl_del_if, dp);
    unixctl_command_register("dpctl/set-if", "dp iface...", 2, INT_MAX,
                             dpctl_set_if, dp);
    unixctl_command_register("dpif-netdev/subtable-lookup-info-get", "", 0, 0,
                             subtable_lookup_info_get, dp);
    unixctl_command_register("dpif-netdev/subtable-lookup-prio-set",
                             "[lookup_func] [prio]", 2, 2,
                             subtable_lookup_prio_set, dp);
    unixctl_command_register("dpif-netdev/dpif-impl-get", "", 0, 0,
                             dpif_impl_get, dp);
    unixctl_command_register("dpif-netdev/dpif-impl-set",
                             "dpif_implementation_name", 1, 1, dpif_impl_set,
                             dp);
    unixctl_command_register("dpif-netdev/miniflow-parser-get", "", 0, 0,
                             miniflow_parser_get, dp);
    unixctl_command_register("dpif-netdev/miniflow-parser-set",
                             "[-pmd core] miniflow_implementation_name "
                             "[study_pkt_cnt]", 1, 4, miniflow_parser_set,
                             dp);
}

/* If 'arg' is one of the flow dumps' options "-m" ("--more"), "--names" or
 * "--no-names", applies it to '*verbose' or '*names' (-1 until set) and
 * returns true. */
bool
dp_netdev_parse_dump_option(const char *arg, bool *verbose, int *names)
{
    if (!strcmp(arg, "-m") || !strcmp(arg, "--more")) {
        *verbose = true;
    } else if (!strcmp(arg, "--names")) {
        *names = 1;
    } else if (!strcmp(arg, "--no-names")) {
        *names = 0;
    } else {
        return false;
    }
    return true;
}

/* dpif/dump-flows: appends to 'ds' the flows of 'dp' whose input port
 * 'keep_port' accepts, in dpctl/dump-flows' format ('verbose' its -m,
 * 'names' ports by name) without the per-thread headers. */
void
dp_netdev_dump_flows_of(struct dp_netdev *dp, struct ds *ds, bool verbose,
                        bool names,
                        bool (*keep_port)(uint32_t in_port, void *aux),
                        void *aux)
{
    struct dump_opts opts = {
        .verbose = verbose, .names = names, .pmd_core = -2,
        .type = DUMP_ALL, .keep_port = keep_port, .aux = aux,
    };
    dump_flows(dp, &opts, ds);
}

/* Datapath names a command may be given: ours, in any of the forms
 * Open vSwitch accepts. */
static bool
is_dp_name(const char *s)
{
    return (!strcmp(s, DP_NETDEV_NAME) || !strcmp(s, "netdev@ovs-netdev")
            || !strcmp(s, "netdev") || !strcmp(s, "ovs-netdev"));
}

/* Parses "[-pmd core] [dp]" style options.  Returns NULL, or an error
 * message. */
static char *
parse_pmd_args(int argc, const char *argv[], int *core, bool *no_header,
               int *secs)
{
    *core = -1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-pmd") && i + 1 < argc) {
            if (!util_str_to_int(argv[++i], 10, core) || *core < 0) {
                return xasprintf("Invalid pmd core: %s", argv[i]);
            }
        } else if (!strcmp(argv[i], "-secs") && secs && i + 1 < argc) {
            if (!util_str_to_int(argv[++i], 10, secs) || *secs <= 0) {
                return xasprintf("Invalid number of seconds: %s", argv[i]);
            }
        } else if ((!strcmp(argv[i], "-it") || !strcmp(argv[i], "-ms"))
                   && i + 1 < argc) {
            i++;                /* Histories are not kept: accepted. */
        } else if (!strcmp(argv[i], "-nh") && no_header) {
            *no_header = true;
        } else if (!is_dp_name(argv[i])) {
            return xasprintf("invalid datapath or option \"%s\"", argv[i]);
        }
    }
    return NULL;
}

static const char *
port_name(void *dp_, uint32_t port_no)
{
    const struct dp_netdev *dp = dp_;
    struct dp_netdev_port *port = dp_netdev_lookup_port(dp, port_no);

    return port ? netdev_get_name(port->netdev) : NULL;
}

/* dpctl/dump-dps. */

static void
dpctl_dump_dps(struct unixctl_conn *conn, int argc DPS_UNUSED,
               const char *argv[] DPS_UNUSED, void *dp_ DPS_UNUSED)
{
    unixctl_command_reply(conn, "netdev@" DP_NETDEV_NAME "\n");
}

/* dpctl/show. */

static void
put_stat(struct ds *ds, const char *name, uint64_t v)
{
    if (v == UINT64_MAX) {
        ds_put_format(ds, "%s:?", name);
    } else {
        ds_put_format(ds, "%s:%"PRIu64, name, v);
    }
}

static void
dpctl_show(struct unixctl_conn *conn, int argc, const char *argv[],
           void *dp_)
{
    struct dp_netdev *dp = dp_;
    struct dp_netdev_stats st;
    struct ds ds = DS_EMPTY_INITIALIZER;
    bool stats = false;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-s") || !strcmp(argv[i], "--statistics")) {
            stats = true;
        } else if (!is_dp_name(argv[i])) {
            char *msg = xasprintf("datapath \"%s\" does not exist", argv[i]);
            unixctl_command_reply_error(conn, msg);
            free(msg);
            return;
        }
    }

    dp_netdev_get_stats(dp, &st);
    ds_put_format(&ds, "netdev@%s:\n", DP_NETDEV_NAME);
    ds_put_format(&ds, "  lookups: hit:%"PRIu64" missed:%"PRIu64
                  " lost:%"PRIu64"\n", st.n_hit, st.n_missed, st.n_lost);
    ds_put_format(&ds, "  flows: %"PRIu64"\n", st.n_flows);
    for (size_t i = 0; i < dp->n_ports; i++) {
        const struct dp_netdev_port *port = dp->ports[i];
        const char *type = netdev_get_type(port->netdev);

        /* Open vSwitch shows its internal ports as "tap" devices, or as
         * "dummy-internal" ones in tests (dummy ports enabled). */
        if (!strcmp(type, "internal")) {
            type = (netdev_is_type_supported("dummy") ? "dummy-internal"
                    : "tap");
        }
        ds_put_format(&ds, "  port %"PRIu32": %s", port->port_no,
                      netdev_get_name(port->netdev));
        if (strcmp(type, "system")) {
            struct smap cfg = SMAP_INITIALIZER;
            const struct smap_node *node;

            ds_put_format(&ds, " (%s", type);
            netdev_get_config(port->netdev, &cfg);
            SMAP_FOR_EACH (node, &cfg) {
                ds_put_format(&ds, "%s%s=%s", node == cfg.nodes ? ": " : ", ",
                              node->key, node->value);
            }
            smap_destroy(&cfg);
            ds_put_char(&ds, ')');
        }
        ds_put_char(&ds, '\n');

        if (stats) {
            struct netdev_stats s;

            memset(&s, 0xff, sizeof s);
            netdev_get_stats(port->netdev, &s);
            ds_put_cstr(&ds, "    ");
            put_stat(&ds, "RX packets", s.rx_packets);
            put_stat(&ds, " errors", s.rx_errors);
            put_stat(&ds, " dropped", s.rx_dropped);
            put_stat(&ds, " overruns", s.rx_over_err);
            put_stat(&ds, " frame", s.rx_frame_err);
            ds_put_cstr(&ds, "\n    ");
            put_stat(&ds, "TX packets", s.tx_packets);
            put_stat(&ds, " errors", s.tx_errors);
            put_stat(&ds, " dropped", s.tx_dropped);
            put_stat(&ds, " aborted", UINT64_MAX);
            put_stat(&ds, " carrier", UINT64_MAX);
            ds_put_cstr(&ds, "\n    ");
            put_stat(&ds, "collisions", s.collisions);
            ds_put_cstr(&ds, "\n    ");
            put_stat(&ds, "RX bytes", s.rx_bytes);
            put_stat(&ds, "  TX bytes", s.tx_bytes);
            ds_put_char(&ds, '\n');
        }
    }
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
}

/* dpctl/dump-flows. */

static void
put_u_masked(struct ds *ds, const char *name, uint64_t v, uint64_t m,
             uint64_t full, bool hex_value)
{
    ds_put_format(ds, "%s%s", name, *name ? "=" : "");
    ds_put_format(ds, hex_value && v ? "%#"PRIx64 : "%"PRIu64, v);
    if (m != full) {
        ds_put_format(ds, m ? "/%#"PRIx64 : "/%"PRIu64, m);
    }
}

static void
put_mac_masked(struct ds *ds, const char *name, const struct eth_addr *v,
               const struct eth_addr *m)
{
    static const struct eth_addr ones = { { 0xff, 0xff, 0xff, 0xff, 0xff,
                                            0xff } };
    const uint8_t *b = v->ea;

    ds_put_format(ds, "%s=%02x:%02x:%02x:%02x:%02x:%02x", name,
                  b[0], b[1], b[2], b[3], b[4], b[5]);
    if (memcmp(m, &ones, sizeof ones)) {
        b = m->ea;
        ds_put_format(ds, "/%02x:%02x:%02x:%02x:%02x:%02x",
                      b[0], b[1], b[2], b[3], b[4], b[5]);
    }
}

static void
put_ip4_masked(struct ds *ds, const char *name, dps_be32 v, dps_be32 m)
{
    char buf[INET_ADDRSTRLEN];

    ds_put_format(ds, "%s=%s", name, inet_ntop(AF_INET, &v, buf, sizeof buf));
    if (m != UINT32_MAX) {
        ds_put_format(ds, "/%s", inet_ntop(AF_INET, &m, buf, sizeof buf));
    }
}

static void
put_ip6_masked(struct ds *ds, const char *name, const struct ipv6_addr *v,
               const struct ipv6_addr *m)
{
    char buf[INET6_ADDRSTRLEN];
    bool full = true;

    for (int i = 0; i < 16; i++) {
        full = full && m->s6[i] == 0xff;
    }
    ds_put_format(ds, "%s=%s", name, inet_ntop(AF_INET6, v, buf, sizeof buf));
    if (!full) {
        ds_put_format(ds, "/%s", inet_ntop(AF_INET6, m, buf, sizeof buf));
    }
}

/* A VLAN field "NAME=V", with "/0xM" unless 'm' is 'full'. */
static void
put_vlan_field(struct ds *ds, const char *name, unsigned int v,
               unsigned int m, unsigned int full)
{
    ds_put_format(ds, "%s=%u", name, v);
    if (m != full) {
        ds_put_format(ds, "/0x%x", m);
    }
}

/* Open vSwitch leaves "frag" out, even in verbose output, when its mask is
 * empty: it is an enumeration, not a number. */
static void
put_frag(struct ds *ds, uint8_t v, uint8_t m)
{
    if (m) {
        ds_put_format(ds, ",frag=%s", (!(v & FLOW_NW_FRAG_ANY) ? "no"
                                       : v & FLOW_NW_FRAG_LATER ? "later"
                                       : "first"));
    }
}

/* TCP flags as Open vSwitch prints them in a flow: "0/0" unmasked, names
 * joined by '|' when exact ("0" for none), "+name-name" for the bits of a
 * partial mask. */
static void
format_tcp_flags_verbose(struct ds *ds, uint16_t v, uint16_t m)
{
    static const char *const names[] = {
        "fin", "syn", "rst", "psh", "ack", "urg", "ece", "cwr", "ns",
    };

    if (!m) {
        ds_put_cstr(ds, "0/0");
    } else if (m == TCP_FLAGS_MASK) {
        bool first = true;

        for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
            if (v & (1u << i)) {
                ds_put_format(ds, "%s%s", first ? "" : "|", names[i]);
                first = false;
            }
        }
        if (v & ~((1u << ARRAY_SIZE(names)) - 1) & TCP_FLAGS_MASK) {
            ds_put_format(ds, "%s0x%x", first ? "" : "|",
                          v & ~((1u << ARRAY_SIZE(names)) - 1)
                          & TCP_FLAGS_MASK);
            first = false;
        }
        if (first) {
            ds_put_char(ds, '0');
        }
    } else {
        for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
            if (m & (1u << i)) {
                ds_put_format(ds, "%c%s", v & (1u << i) ? '+' : '-',
                              names[i]);
            }
        }
    }
}

/* Appends 'k' under 'm' in the verbose form of "dpctl/dump-flows -m": every
 * attribute that applies to the packet, every field with its mask. */
static void
format_flow_verbose(struct ds *ds, const struct flow *k, const struct flow *m,
                    const char *in_port_name)
{
    int n_tags = 0;

    bool exact = flow_mask_meta_exact(m);

    if (exact) {
        /* An exact-match flow, as Open vSwitch prints its metadata. */
        ds_put_cstr(ds, "skb_priority(0),skb_mark(0),ct_state(0/0xff),"
                    "ct_zone(0),ct_mark(0),ct_label(0),");
    } else {
        ds_put_cstr(ds, "skb_priority(0/0),skb_mark(0/0),ct_state(0/0),"
                    "ct_zone(0/0),ct_mark(0/0),ct_label(0/0),");
    }
    ds_put_format(ds, "recirc_id(%"PRIu32"),dp_hash(%s),", k->recirc_id,
                  exact ? "0" : "0/0");
    if (in_port_name) {
        ds_put_format(ds, "in_port(%s)", in_port_name);
    } else {
        ds_put_format(ds, "in_port(%"PRIu32")", k->in_port);
    }
    bool pt_wild = flow_mask_packet_type_wild(m);
    ds_put_cstr(ds, (pt_wild ? ",packet_type(ns=0/0,id=0/0),eth("
                     : ",packet_type(ns=0,id=0),eth("));
    put_mac_masked(ds, "src", &k->dl_src, &m->dl_src);
    put_mac_masked(ds, ",dst", &k->dl_dst, &m->dl_dst);
    ds_put_char(ds, ')');

    for (int i = 0; i < 2 && (k->vlan_tci[i] & htons(VLAN_CFI)); i++) {
        uint16_t tci = ntohs(k->vlan_tci[i]), mt = ntohs(m->vlan_tci[i]);

        ds_put_format(ds, ",eth_type(0x%04x),vlan(", ntohs(k->vlan_tpid[i]));
        /* Open vSwitch prints these masks in hex, 0 as "0x0". */
        put_vlan_field(ds, "vid", tci & VLAN_VID_MASK, mt & VLAN_VID_MASK,
                       VLAN_VID_MASK);
        put_vlan_field(ds, ",pcp", (tci & VLAN_PCP_MASK) >> VLAN_PCP_SHIFT,
                       (mt & VLAN_PCP_MASK) >> VLAN_PCP_SHIFT, 7);
        ds_put_cstr(ds, "),encap(");
        n_tags++;
    }
    ds_put_format(ds, "%seth_type(0x%04x", n_tags ? "" : ",",
                  ntohs(k->dl_type));
    if (m->dl_type != htons(0xffff)) {
        ds_put_format(ds, "/0x%04x", ntohs(m->dl_type));
    }
    ds_put_char(ds, ')');

    uint16_t dl_type = ntohs(k->dl_type);
    bool l4 = !(k->nw_frag & FLOW_NW_FRAG_LATER);
    if (dl_type == ETH_TYPE_IP) {
        ds_put_cstr(ds, ",ipv4(");
        put_ip4_masked(ds, "src", k->nw_src, m->nw_src);
        put_ip4_masked(ds, ",dst", k->nw_dst, m->nw_dst);
        put_u_masked(ds, ",proto", k->nw_proto, m->nw_proto, 0xff, false);
        put_u_masked(ds, ",tos", k->nw_tos, m->nw_tos, 0xff, true);
        put_u_masked(ds, ",ttl", k->nw_ttl, m->nw_ttl, 0xff, false);
        put_frag(ds, k->nw_frag, m->nw_frag);
        ds_put_char(ds, ')');
    } else if (dl_type == ETH_TYPE_IPV6) {
        ds_put_cstr(ds, ",ipv6(");
        put_ip6_masked(ds, "src", &k->ipv6_src, &m->ipv6_src);
        put_ip6_masked(ds, ",dst", &k->ipv6_dst, &m->ipv6_dst);
        put_u_masked(ds, ",label", ntohl(k->ipv6_label),
                     ntohl(m->ipv6_label), IPV6_LABEL_MASK, true);
        put_u_masked(ds, ",proto", k->nw_proto, m->nw_proto, 0xff, false);
        put_u_masked(ds, ",tclass", k->nw_tos, m->nw_tos, 0xff, true);
        put_u_masked(ds, ",hlimit", k->nw_ttl, m->nw_ttl, 0xff, false);
        put_frag(ds, k->nw_frag, m->nw_frag);
        ds_put_char(ds, ')');
    } else if (dl_type == ETH_TYPE_ARP) {
        ds_put_cstr(ds, ",arp(");
        put_ip4_masked(ds, "sip", k->nw_src, m->nw_src);
        put_ip4_masked(ds, ",tip", k->nw_dst, m->nw_dst);
        put_u_masked(ds, ",op", ntohs(k->arp_op), ntohs(m->arp_op), 0xffff,
                     false);
        put_mac_masked(ds, ",sha", &k->arp_sha, &m->arp_sha);
        put_mac_masked(ds, ",tha", &k->arp_tha, &m->arp_tha);
        ds_put_char(ds, ')');
    }

    if ((dl_type == ETH_TYPE_IP || dl_type == ETH_TYPE_IPV6) && l4) {
        const char *name = NULL;
        bool icmp = false;

        switch (k->nw_proto) {
        case IPPROTO_TCP_: name = "tcp"; break;
        case IPPROTO_UDP_: name = "udp"; break;
        case IPPROTO_SCTP_: name = "sctp"; break;
        case IPPROTO_ICMP_:
            name = dl_type == ETH_TYPE_IP ? "icmp" : NULL;
            icmp = true;
            break;
        case IPPROTO_ICMPV6_:
            name = dl_type == ETH_TYPE_IPV6 ? "icmpv6" : NULL;
            icmp = true;
            break;
        }
        if (name) {
            ds_put_format(ds, ",%s(", name);
            put_u_masked(ds, icmp ? "type" : "src", ntohs(k->tp_src),
                         ntohs(m->tp_src), icmp ? 0xff : 0xffff, false);
            put_u_masked(ds, icmp ? ",code" : ",dst", ntohs(k->tp_dst),
                         ntohs(m->tp_dst), icmp ? 0xff : 0xffff, false);
            ds_put_char(ds, ')');
        }
        /* A flow put by hand has the attribute only if it matches it. */
        if (k->nw_proto == IPPROTO_TCP_
            && (!pt_wild || k->tcp_flags || m->tcp_flags)) {
            ds_put_cstr(ds, ",tcp_flags(");
            format_tcp_flags_verbose(ds, ntohs(k->tcp_flags),
                                     ntohs(m->tcp_flags) & TCP_FLAGS_MASK);
            ds_put_char(ds, ')');
        }
    }
    for (int i = 0; i < n_tags; i++) {
        ds_put_char(ds, ')');
    }
}

/* Open vSwitch's one-letter names of TCP flags, in its order. */
static void
format_tcp_flags(struct ds *ds, uint16_t flags)
{
    static const struct { uint16_t bit; char c; } names[] = {
        { TCP_SYN, 'S' }, { TCP_FIN, 'F' }, { TCP_PSH, 'P' },
        { TCP_RST, 'R' }, { TCP_URG, 'U' }, { TCP_ACK, '.' },
        { TCP_ECE, 'E' }, { TCP_CWR, 'C' }, { TCP_NS, 'N' },
    };

    for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
        if (flags & names[i].bit) {
            ds_put_char(ds, names[i].c);
        }
    }
    if (flags & 0xe00) {
        ds_put_format(ds, "[%"PRIx16"]", (uint16_t) (flags & 0xe00));
    }
}

/* Appends 'st' to 'ds' as Open vSwitch prints a flow's statistics:
 * "packets:N, bytes:N, used:Xs" ("used:never"), then the TCP flags seen. */
static void
put_flow_stats(struct ds *ds, const struct dp_flow_stats *st,
               long long int now)
{
    ds_put_format(ds, "packets:%"PRIu64", bytes:%"PRIu64", used:",
                  st->n_packets, st->n_bytes);
    if (st->used) {
        ds_put_format(ds, "%.3fs", (now - st->used) / 1000.0);
    } else {
        ds_put_cstr(ds, "never");
    }
    if (st->tcp_flags) {
        ds_put_cstr(ds, ", flags:");
        format_tcp_flags(ds, st->tcp_flags);
    }
}

/* Appends 'node''s flow to 'ds' as dpctl/dump-flows prints it ('verbose'
 * for -m, 'names' for ports by name), or with 'dpif' as dpif/dump-flows
 * does: the same, except that its -m form has the UFID followed by a space
 * and nothing about where the flow runs. */
static void
format_dump_flow(struct ds *ds, struct dp_netdev *dp,
                 const struct dp_netdev_flow_node *node, bool verbose,
                 bool names, bool dpif, long long int now)
{
    const struct dp_flow *f = node->flow;
    const struct dp_flow_actions *fa = dp_flow_get_actions(f);
    struct dp_flow_stats st;
    struct flow key, mask;

    flow_key_to_flow(&f->key, &key);
    flow_key_to_flow(&f->mask, &mask);
    if (verbose) {
        char ufid[DP_UFID_STRLEN];
        struct flow first;

        dp_flow_ufid_format(&f->ufid, ufid);
        ds_put_format(ds, dpif ? "%s " : "%s, ", ufid);
        flow_key_to_flow(&node->first_key, &first);
        format_flow_verbose(ds, &first, &mask,
                            names ? port_name(dp, key.in_port) : NULL);
    } else {
        size_t start = ds->length;

        if (node->by_hand) {
            struct flow given;

            flow_key_to_flow(&node->first_key, &given);
            odp_flow_format_put(&given, &mask, ds);
        } else {
            odp_flow_format(&key, &mask, ds);
        }
        if (names) {
            const char *name = port_name(dp, key.in_port);
            char *num = xasprintf("in_port(%"PRIu32")", key.in_port);
            char *p = strstr(ds_cstr(ds) + start, num);

            if (name && p) {
                char *rest = xstrdup(p + strlen(num));
                ds_truncate(ds, p - ds_cstr(ds));
                ds_put_format(ds, "in_port(%s)%s", name, rest);
                free(rest);
            }
            free(num);
        }
    }

    dp_flow_get_stats(f, &st);
    ds_put_cstr(ds, ", ");
    put_flow_stats(ds, &st, now);
    if (verbose && !dpif) {
        /* Open vSwitch's order: the offload state, then the layer that
         * executes the actions (always ours: partial offload). */
        if (dp_flow_get_mark(f) != DP_FLOW_MARK_NONE) {
            ds_put_cstr(ds, ", offloaded:partial");
        }
        ds_put_cstr(ds, ", dp:ovs");
    }

    struct dp_actions acts = {
        .actions = (struct dp_action *) fa->data,
        .n_actions = fa->size / sizeof(struct dp_action),
        .allocated = fa->size / sizeof(struct dp_action),
    };
    ds_put_cstr(ds, ", actions:");
    dp_actions_format_names(&acts, ds, names ? port_name : NULL, dp);
    if (verbose && !dpif) {
        /* Open vSwitch reports how many 64-bit words of its own flow layout
         * the mask uses in each of the two halves of its miniflow map.
         * Counted here on that layout: our metadata word is two there
         * (in_port, recirc_id), packet_type is one more, the Ethernet
         * words are the same two, and the VLAN word and everything from
         * L3 on fall as Open vSwitch 3.1 counts them (checked side by side
         * in tests/vswitchd-diff.at). */
        uint64_t map = f->mask.map;
        int unit0 = ((map & 1) ? 2 : 0) + !flow_mask_packet_type_wild(&mask)
                    + __builtin_popcountll(map & 0x6);
        /* Open vSwitch keeps the TCP flags in a word of their own. */
        int unit1 = __builtin_popcountll(map >> 4) + !!mask.tcp_flags;
        ds_put_format(ds, ", dp-extra-info:miniflow_bits(%d,%d)",
                      unit0, unit1);
    }
    ds_put_char(ds, '\n');
}

/* Which flows "type=" selects: a set of these bits, as Open vSwitch's
 * dpctl takes a comma-separated list.  Every flow here is executed by the
 * datapath ("dp:ovs"), offloaded partially or not at all, so "ovs" selects
 * them all, "partially-offloaded" the offloaded ones, "non-offloaded" the
 * others, and "offloaded" (fully), "dpdk" and "tc" none. */

/* Returns true if 'node' passes the filter 'fkey'/'fmask' (every field the
 * filter names equal in the key of the flow's first packet) and 'type'. */
static bool
dump_filter_match(const struct dp_netdev_flow_node *node,
                  const struct flow *fkey, const struct flow *fmask,
                  enum dump_type type)
{
    bool offloaded = dp_flow_get_mark(node->flow) != DP_FLOW_MARK_NONE;

    if (!(type & (offloaded ? DUMP_PARTIAL : DUMP_NOT_OFFLOADED))) {
        return false;
    }
    if (fkey) {
        struct flow key;
        const uint64_t *k = (const uint64_t *) &key;
        const uint64_t *fk = (const uint64_t *) fkey;
        const uint64_t *fm = (const uint64_t *) fmask;

        flow_key_to_flow(&node->first_key, &key);
        for (size_t i = 0; i < FLOW_N_WORDS; i++) {
            if ((k[i] ^ fk[i]) & fm[i]) {
                return false;
            }
        }
    }
    return true;
}


static bool
dump_keep(const struct dp_netdev_flow_node *node, const struct dump_opts *o)
{
    if (!dump_filter_match(node, o->fkey, o->fmask, o->type)) {
        return false;
    }
    if (o->keep_port) {
        struct flow key;

        flow_key_to_flow(&node->first_key, &key);
        return o->keep_port(key.in_port, o->aux);
    }
    return true;
}

/* Appends to 'ds' the flows of 'dp' that 'o' selects, thread by thread
 * (the main thread first), each thread's oldest first. */
static void
dump_flows(struct dp_netdev *dp, const struct dump_opts *o, struct ds *ds)
{
    long long int now = time_msec();
    struct dp_netdev_pmd *pmds[1 + 1024];
    size_t n = 0;

    /* The main thread first, then the PMDs, as Open vSwitch dumps. */
    pmds[n++] = dp->main_pmd;
    for (size_t i = 0; i < dp->n_pmds && n < ARRAY_SIZE(pmds); i++) {
        pmds[n++] = dp->pmds[i];
    }
    for (size_t i = 0; i < n; i++) {
        struct dp_netdev_pmd *pmd = pmds[i];

        if (o->pmd_core != -2 && o->pmd_core != pmd->core_id) {
            continue;
        }
        pthread_mutex_lock(&pmd->flow_mutex);
        bool any = false;
        for (struct dp_netdev_flow_node *node = pmd->flows; node && !any;
             node = node->next) {
            any = dump_keep(node, o);
        }
        if (any && o->headers) {
            if (pmd->core_id == OVS_CORE_UNSPEC) {
                ds_put_cstr(ds, "flow-dump from the main thread:\n");
            } else {
                ds_put_format(ds, "flow-dump from pmd on cpu core: %d\n",
                              pmd->core_id);
            }
        }
        /* Oldest first. */
        struct dp_netdev_flow_node *last = pmd->flows;
        while (last && last->next) {
            last = last->next;
        }
        for (struct dp_netdev_flow_node *node = last; node;
             node = node->prev) {
            if (dump_keep(node, o)) {
                format_dump_flow(ds, dp, node, o->verbose, o->names,
                                 !o->headers, now);
            }
        }
        pthread_mutex_unlock(&pmd->flow_mutex);
    }
}

static void
dpctl_dump_flows(struct unixctl_conn *conn, int argc, const char *argv[],
                 void *dp_)
{
    struct dp_netdev *dp = dp_;
    struct ds ds = DS_EMPTY_INITIALIZER;
    bool verbose = false;
    int names = -1;
    int pmd_core = -2;          /* -2: all; -1: the main thread. */
    unsigned int type = DUMP_ALL;
    struct flow fkey, fmask;
    bool filter = false;

    for (int i = 1; i < argc; i++) {
        if (dp_netdev_parse_dump_option(argv[i], &verbose, &names)) {
            continue;
        } else if (!strncmp(argv[i], "filter=", 7)) {
            char *err = odp_flow_parse(argv[i] + 7, &fkey, &fmask);

            if (err) {
                char *msg = xasprintf("Failed to parse filter (%s)", err);
                unixctl_command_reply_error(conn, msg);
                free(msg);
                free(err);
                return;
            }
            filter = true;
        } else if (!strncmp(argv[i], "type=", 5)) {
            char *list = xstrdup(argv[i] + 5);
            char *save = NULL;

            type = 0;
            for (char *t = strtok_r(list, ",", &save); t;
                 t = strtok_r(NULL, ",", &save)) {
                if (!strcmp(t, "all") || !strcmp(t, "ovs")) {
                    type |= DUMP_ALL;
                } else if (!strcmp(t, "partially-offloaded")) {
                    type |= DUMP_PARTIAL;
                } else if (!strcmp(t, "non-offloaded")) {
                    type |= DUMP_NOT_OFFLOADED;
                } else if (strcmp(t, "offloaded") && strcmp(t, "dpdk")
                           && strcmp(t, "tc")) {
                    char *msg = xasprintf("ovs-vswitchd: Failed to parse "
                                          "type (%s) (Invalid argument)", t);
                    unixctl_command_reply_error(conn, msg);
                    free(msg);
                    free(list);
                    return;
                }
            }
            free(list);
        } else if (!strncmp(argv[i], "pmd=", 4)) {
            if (!util_str_to_int(argv[i] + 4, 10, &pmd_core)
                || pmd_core < -1) {
                unixctl_command_reply_error(conn, "invalid pmd id");
                return;
            }
        } else if (!is_dp_name(argv[i])) {
            char *msg = xasprintf("invalid argument \"%s\"", argv[i]);
            unixctl_command_reply_error(conn, msg);
            free(msg);
            return;
        }
    }
    if (names < 0) {
        names = verbose;
    }

    struct dump_opts opts = {
        .verbose = verbose, .names = names, .pmd_core = pmd_core,
        .type = type, .fkey = filter ? &fkey : NULL, .fmask = &fmask,
        .headers = true,
    };
    dump_flows(dp, &opts, &ds);
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
}

static void
dpctl_del_flows(struct unixctl_conn *conn, int argc, const char *argv[],
                void *dp_)
{
    if (argc > 1 && !is_dp_name(argv[1])) {
        unixctl_command_reply_error(conn, "datapath does not exist");
        return;
    }
    dp_netdev_flush_flows(dp_);
    unixctl_command_reply(conn, "");
}

/* PMD statistics. */

static int
thread_cmp(const void *a_, const void *b_)
{
    const struct dp_netdev_pmd *a = *(struct dp_netdev_pmd *const *) a_;
    const struct dp_netdev_pmd *b = *(struct dp_netdev_pmd *const *) b_;

    /* PMDs by NUMA node and core, the main thread last. */
    if ((a->core_id < 0) != (b->core_id < 0)) {
        return a->core_id < 0 ? 1 : -1;
    }
    if (a->numa_id != b->numa_id) {
        return a->numa_id < b->numa_id ? -1 : 1;
    }
    return a->core_id < b->core_id ? -1 : a->core_id > b->core_id;
}

/* Fills 'out' with the threads to show ('core' -1: all; else that PMD). */
static size_t
select_threads(const struct dp_netdev *dp, int core, bool with_main,
               struct dp_netdev_pmd **out)
{
    size_t n = 0;

    for (size_t i = 0; i < dp->n_pmds; i++) {
        if (core < 0 || dp->pmds[i]->core_id == core) {
            out[n++] = dp->pmds[i];
        }
    }
    if (with_main && core < 0) {
        out[n++] = dp->main_pmd;
    }
    qsort(out, n, sizeof *out, thread_cmp);
    return n;
}

static void
put_thread_header(struct ds *ds, const struct dp_netdev_pmd *pmd)
{
    if (pmd->core_id == OVS_CORE_UNSPEC) {
        ds_put_cstr(ds, "main thread:\n");
    } else {
        ds_put_format(ds, "pmd thread numa_id %d core_id %d:\n",
                      pmd->numa_id, pmd->core_id);
    }
}

static double
ratio(uint64_t a, uint64_t b)
{
    return b ? (double) a / b : 0;
}

/* The labels of the counters, from PMD_STATS (NULL: no line of their own). */
static const char *const pmd_stat_show_labels[PMD_N_STATS] = {
#define PMD_STAT(ENUM, SHOW_LABEL, PERF_LABEL) SHOW_LABEL,
    PMD_STATS
#undef PMD_STAT
};

static const char *const pmd_stat_perf_labels[PMD_N_STATS] = {
#define PMD_STAT(ENUM, SHOW_LABEL, PERF_LABEL) PERF_LABEL,
    PMD_STATS
#undef PMD_STAT
};

/* Appends pmd-stats-show's line for counter 'stat' of 's'. */
static void
put_pmd_stat(struct ds *ds, const uint64_t s[PMD_N_STATS],
         enum pmd_stat_type stat)
{
    ds_put_format(ds, "  %s: %"PRIu64"\n", pmd_stat_show_labels[stat],
                  s[stat]);
}

static void
format_pmd_stats(struct ds *ds, const struct dp_netdev_pmd *pmd)
{
    uint64_t s[PMD_N_STATS];

    dp_netdev_pmd_get_stats(pmd, s);

    uint64_t rx = s[PMD_STAT_RECV];
    uint64_t passes = rx + s[PMD_STAT_RECIRC];
    uint64_t idle = s[PMD_STAT_CYCLES_IDLE];
    uint64_t busy = s[PMD_STAT_CYCLES_BUSY];
    uint64_t total = idle + busy;

    put_thread_header(ds, pmd);
    put_pmd_stat(ds, s, PMD_STAT_RECV);
    put_pmd_stat(ds, s, PMD_STAT_RECIRC);
    ds_put_format(ds, "  avg. datapath passes per packet: %.02f\n",
                  ratio(passes, rx));
    /* The caches in the order a packet meets them. */
    for (int i = PMD_STAT_PHWOL_HIT; i <= PMD_STAT_MASKED_HIT; i++) {
        put_pmd_stat(ds, s, i);
    }
    ds_put_format(ds, "  avg. subtable lookups per megaflow hit: %.02f\n",
                  ratio(s[PMD_STAT_MASKED_LOOKUP], s[PMD_STAT_MASKED_HIT]));
    put_pmd_stat(ds, s, PMD_STAT_MISS);
    put_pmd_stat(ds, s, PMD_STAT_LOST);
    ds_put_format(ds, "  avg. packets per output batch: %.02f\n",
                  ratio(s[PMD_STAT_SENT_PKTS], s[PMD_STAT_SENT_BATCHES]));
    if (!total) {
        return;
    }
    ds_put_format(ds, "  %s: %"PRIu64" (%.02f%%)\n",
                  pmd_stat_show_labels[PMD_STAT_CYCLES_IDLE], idle,
                  idle * 100.0 / total);
    ds_put_format(ds, "  %s: %"PRIu64" (%.02f%%)\n",
                  pmd_stat_show_labels[PMD_STAT_CYCLES_BUSY], busy,
                  busy * 100.0 / total);
    if (!rx) {
        return;
    }
    ds_put_format(ds,
                  "  avg cycles per packet: %.02f (%"PRIu64"/%"PRIu64")\n"
                  "  avg processing cycles per packet: "
                  "%.02f (%"PRIu64"/%"PRIu64")\n",
                  ratio(total, rx), total, rx, ratio(busy, rx), busy, rx);
}

/* Parses the arguments of pmd-stats-show and pmd-stats-clear ([-pmd
 * CORE] [DP]) and returns the threads they select, '*n' of them, in a
 * malloc()ed array; or replies to 'conn' with the error and returns NULL. */
static struct dp_netdev_pmd **
pmd_stats_threads(struct unixctl_conn *conn, struct dp_netdev *dp, int argc,
                  const char *argv[], size_t *n)
{
    struct dp_netdev_pmd **pmds = xcalloc(dp->n_pmds + 1, sizeof *pmds);
    int core;
    char *err = parse_pmd_args(argc, argv, &core, NULL, NULL);

    if (err) {
        unixctl_command_reply_error(conn, err);
        free(err);
        free(pmds);
        return NULL;
    }
    *n = select_threads(dp, core, true, pmds);
    return pmds;
}

static void
pmd_stats_show(struct unixctl_conn *conn, int argc, const char *argv[],
               void *dp_)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    size_t n;
    struct dp_netdev_pmd **pmds = pmd_stats_threads(conn, dp_, argc, argv,
                                                    &n);

    if (!pmds) {
        return;
    }
    for (size_t i = 0; i < n; i++) {
        format_pmd_stats(&ds, pmds[i]);
    }
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
    free(pmds);
}

static void
pmd_stats_clear(struct unixctl_conn *conn, int argc, const char *argv[],
                void *dp_)
{
    size_t n;
    struct dp_netdev_pmd **pmds = pmd_stats_threads(conn, dp_, argc, argv,
                                                    &n);

    if (!pmds) {
        return;
    }
    for (size_t i = 0; i < n; i++) {
        dp_netdev_pmd_clear_stats(pmds[i]);
    }
    unixctl_command_reply(conn, "");
    free(pmds);
}

/* pmd-rxq-show. */

static int
rxq_name_cmp(const void *a_, const void *b_)
{
    const struct dp_netdev_rxq *a = *(struct dp_netdev_rxq *const *) a_;
    const struct dp_netdev_rxq *b = *(struct dp_netdev_rxq *const *) b_;
    int c = strcmp(netdev_get_name(a->port->netdev),
                   netdev_get_name(b->port->netdev));

    return c ? c : a->queue_id < b->queue_id ? -1 : a->queue_id > b->queue_id;
}

/* Sums the last 'n' intervals (most recent first) of 'v'. */
static uint64_t
sum_intervals(const uint64_t *v, unsigned int idx, int n)
{
    uint64_t sum = 0;

    for (int i = 1; i <= n; i++) {
        sum += v[(idx + DP_N_RXQ_INTERVALS - i) % DP_N_RXQ_INTERVALS];
    }
    return sum;
}

static void
pmd_rxq_show(struct unixctl_conn *conn, int argc, const char *argv[],
             void *dp_)
{
    struct dp_netdev *dp = dp_;
    struct dp_netdev_pmd **pmds = xcalloc(dp->n_pmds + 1, sizeof *pmds);
    struct ds ds = DS_EMPTY_INITIALIZER;
    int core, secs = DP_N_RXQ_INTERVALS * DP_RXQ_INTERVAL_MS / 1000;
    char *err = parse_pmd_args(argc, argv, &core, NULL, &secs);

    if (err) {
        unixctl_command_reply_error(conn, err);
        free(err);
        free(pmds);
        return;
    }

    int n_iv = (secs * 1000 + DP_RXQ_INTERVAL_MS - 1) / DP_RXQ_INTERVAL_MS;
    if (n_iv > DP_N_RXQ_INTERVALS) {
        n_iv = DP_N_RXQ_INTERVALS;
    }
    secs = n_iv * DP_RXQ_INTERVAL_MS / 1000;
    ds_put_format(&ds, "Displaying last %d seconds pmd usage %%\n", secs);

    size_t n = select_threads(dp, core, false, pmds);
    for (size_t i = 0; i < n; i++) {
        struct dp_netdev_pmd *pmd = pmds[i];
        struct dp_netdev_rxq **rxqs = xcalloc(pmd->n_polls + 1,
                                              sizeof *rxqs);
        uint64_t total = sum_intervals(pmd->intervals_total,
                                       pmd->interval_idx, n_iv);
        uint64_t busy = sum_intervals(pmd->intervals_busy,
                                      pmd->interval_idx, n_iv);
        uint64_t rxq_sum = 0;

        put_thread_header(&ds, pmd);
        ds_put_format(&ds, "  isolated : %s\n",
                      pmd->isolated ? "true" : "false");
        if (pmd->n_polls) {
            memcpy(rxqs, pmd->polls, pmd->n_polls * sizeof *rxqs);
            qsort(rxqs, pmd->n_polls, sizeof *rxqs, rxq_name_cmp);
        }
        for (size_t j = 0; j < pmd->n_polls; j++) {
            const struct dp_netdev_rxq *rxq = rxqs[j];
            uint64_t c = sum_intervals(rxq->intervals, rxq->interval_idx,
                                       n_iv);

            rxq_sum += c;
            ds_put_format(&ds, "  port: %-16s  queue-id: %2d %s  pmd usage: ",
                          netdev_get_name(rxq->port->netdev), rxq->queue_id,
                          "(enabled) ");
            if (total) {
                ds_put_format(&ds, "%2"PRIu64" %%", c * 100 / total);
            } else {
                ds_put_cstr(&ds, "NOT AVAIL");
            }
            ds_put_char(&ds, '\n');
        }
        if (pmd->n_polls) {
            ds_put_cstr(&ds, "  overhead: ");
            if (total) {
                uint64_t over = busy > rxq_sum ? busy - rxq_sum : 0;
                ds_put_format(&ds, "%2"PRIu64" %%", over * 100 / total);
            } else {
                ds_put_cstr(&ds, "NOT AVAIL");
            }
            ds_put_char(&ds, '\n');
        }
        free(rxqs);
    }
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
    free(pmds);
}

/* pmd-perf-show. */

/* Appends "  LABEL:" and 'v' right-aligned so that numbers end in column
 * 34, as Open vSwitch lays them out. */
static void
put_perf(struct ds *ds, const char *label, uint64_t v)
{
    int width = 34 - 3 - (int) strlen(label);

    ds_put_format(ds, "  %s:%*"PRIu64, label, width > 0 ? width : 1, v);
}

/* The same for counter 'stat' of 's', under its pmd-perf-show label. */
static void
put_perf_stat(struct ds *ds, const uint64_t s[PMD_N_STATS],
              enum pmd_stat_type stat)
{
    put_perf(ds, pmd_stat_perf_labels[stat], s[stat]);
}

static void
format_pmd_perf(struct ds *ds, const struct dp_netdev_pmd *pmd,
                bool header)
{
    uint64_t s[PMD_N_STATS];
    uint64_t tsc_hz = rte_get_tsc_hz();
    long long int now_wall = time_wall_msec();
    double duration = (now_wall - pmd->stats_zero_msec) / 1000.0;
    uint64_t total_tsc = rte_rdtsc() - pmd->stats_zero_tsc;

    dp_netdev_pmd_get_stats(pmd, s);

    uint64_t iters = s[PMD_STAT_ITER];
    uint64_t idle = s[PMD_STAT_CYCLES_IDLE], busy = s[PMD_STAT_CYCLES_BUSY];
    uint64_t used = idle + busy;
    uint64_t rx = s[PMD_STAT_RECV];
    uint64_t passes = rx + s[PMD_STAT_RECIRC];
    double us_per_cycle = tsc_hz ? 1e6 / tsc_hz : 0;

    if (header) {
        time_t t = now_wall / 1000;
        struct tm tm;
        char buf[32];

        localtime_r(&t, &tm);
        strftime(buf, sizeof buf, "%H:%M:%S", &tm);
        ds_put_format(ds, "\nTime: %s.%03lld\n", buf, now_wall % 1000);
        ds_put_format(ds, "Measurement duration: %.3f s\n", duration);
        ds_put_char(ds, '\n');
    }
    put_thread_header(ds, pmd);
    ds_put_char(ds, '\n');

    put_perf_stat(ds, s, PMD_STAT_ITER);
    ds_put_format(ds, "  (%.2f us/it)\n",
                  ratio(used, iters) * us_per_cycle);
    put_perf(ds, "- Used TSC cycles", used);
    ds_put_format(ds, "  (%5.1f %% of total cycles)\n",
                  ratio(used, total_tsc) * 100);
    put_perf_stat(ds, s, PMD_STAT_ITER_IDLE);
    ds_put_format(ds, "  (%5.1f %% of used cycles)\n",
                  ratio(idle, used) * 100);
    put_perf_stat(ds, s, PMD_STAT_ITER_BUSY);
    ds_put_format(ds, "  (%5.1f %% of used cycles)\n",
                  ratio(busy, used) * 100);
    put_perf_stat(ds, s, PMD_STAT_ITER_SLEEP);
    ds_put_format(ds, "  (%5.1f %% of iterations)\n",
                  ratio(s[PMD_STAT_ITER_SLEEP], iters) * 100);
    put_perf_stat(ds, s, PMD_STAT_SLEEP_US);
    ds_put_format(ds, "  (%3.0f us/iteration avg.)\n",
                  ratio(s[PMD_STAT_SLEEP_US], iters));

    put_perf_stat(ds, s, PMD_STAT_RECV);
    if (rx) {
        uint64_t upcalls = s[PMD_STAT_MISS] + s[PMD_STAT_LOST];

        ds_put_format(ds, "  (%.0f Kpps, %.0f cycles/pkt)\n",
                      duration > 0 ? rx / duration / 1000 : 0,
                      ratio(busy, rx));
        put_perf(ds, "Datapath passes", passes);
        ds_put_format(ds, "  (%.2f passes/pkt)\n", ratio(passes, rx));
        /* The caches in the order a packet meets them. */
        for (int i = PMD_STAT_PHWOL_HIT; i < PMD_STAT_MASKED_HIT; i++) {
            put_perf_stat(ds, s, i);
            ds_put_format(ds, "  (%5.1f %%)\n", ratio(s[i], passes) * 100);
        }
        put_perf_stat(ds, s, PMD_STAT_MASKED_HIT);
        ds_put_format(ds, "  (%5.1f %%, %.2f subtbl lookups/hit)\n",
                      ratio(s[PMD_STAT_MASKED_HIT], passes) * 100,
                      ratio(s[PMD_STAT_MASKED_LOOKUP],
                            s[PMD_STAT_MASKED_HIT]));
        put_perf_stat(ds, s, PMD_STAT_MISS);
        ds_put_format(ds, "  (%5.1f %%, %.1f us/upcall)\n",
                      ratio(s[PMD_STAT_MISS], passes) * 100,
                      ratio(s[PMD_STAT_CYCLES_UPCALL], upcalls)
                      * us_per_cycle);
        put_perf_stat(ds, s, PMD_STAT_LOST);
        ds_put_format(ds, "  (%5.1f %%)\n",
                      ratio(s[PMD_STAT_LOST], passes) * 100);
    } else {
        ds_put_char(ds, '\n');
    }

    put_perf_stat(ds, s, PMD_STAT_SENT_PKTS);
    if (s[PMD_STAT_SENT_PKTS]) {
        ds_put_format(ds, "  (%.0f Kpps)\n",
                      (duration > 0
                       ? s[PMD_STAT_SENT_PKTS] / duration / 1000 : 0));
        put_perf_stat(ds, s, PMD_STAT_SENT_BATCHES);
        ds_put_format(ds, "  (%.2f pkts/batch)\n",
                      ratio(s[PMD_STAT_SENT_PKTS],
                            s[PMD_STAT_SENT_BATCHES]));
    } else {
        ds_put_char(ds, '\n');
    }
}

static void
pmd_perf_show(struct unixctl_conn *conn, int argc, const char *argv[],
              void *dp_)
{
    struct dp_netdev *dp = dp_;
    struct dp_netdev_pmd **pmds = xcalloc(dp->n_pmds + 1, sizeof *pmds);
    struct ds ds = DS_EMPTY_INITIALIZER;
    bool no_header = false;
    int core;
    char *err = parse_pmd_args(argc, argv, &core, &no_header, NULL);

    if (err) {
        unixctl_command_reply_error(conn, err);
        free(err);
        free(pmds);
        return;
    }

    size_t n = select_threads(dp, core, false, pmds);
    for (size_t i = 0; i < n; i++) {
        format_pmd_perf(&ds, pmds[i], !no_header);
    }
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
    free(pmds);
}

static void
pmd_rxq_rebalance(struct unixctl_conn *conn, int argc, const char *argv[],
                  void *dp_)
{
    if (argc > 1 && !is_dp_name(argv[1])) {
        unixctl_command_reply_error(conn, "datapath does not exist");
        return;
    }
    dp_netdev_request_rebalance(dp_);
    unixctl_command_reply(conn, "pmd rxq rebalance requested.");
}

/* dpctl/offload-stats-show [dp]: the offload threads' statistics, in Open
 * vSwitch 3.1's layout (the total first, then each thread). */
static void
dpctl_offload_stats_show(struct unixctl_conn *conn, int argc,
                         const char *argv[], void *dp_)
{
    static const char *const labels[] = {
        "                Enqueued offloads",
        "                Inserted offloads",
        "  Cumulative Average latency (us)",
        "   Cumulative Latency stddev (us)",
        " Exponential Average latency (us)",
        "  Exponential Latency stddev (us)",
    };
    enum { N_LABELS = ARRAY_SIZE(labels) };
    struct dp_netdev *dp = dp_;

    if (argc > 1 && !is_dp_name(argv[1])) {
        unixctl_command_reply_error(conn, "ovs-vswitchd: datapath not "
                                    "found (Invalid argument)");
        return;
    }
    struct dp_offload *ofl = __atomic_load_n(&dp->offload, __ATOMIC_ACQUIRE);
    if (!ofl) {
        unixctl_command_reply_error(conn, "ovs-vswitchd: retrieving offload "
                                    "statistics (Invalid argument)");
        return;
    }

    unsigned int n = dp_offload_n_threads(ofl);
    uint64_t values[NETDEV_OFFLOAD_MAX_THREADS][N_LABELS];
    double totals[N_LABELS] = { 0 };
    for (unsigned int t = 0; t < n; t++) {
        struct dp_offload_stats st;
        double v[N_LABELS];

        dp_offload_get_stats(ofl, t, &st);
        v[0] = st.enqueued;
        v[1] = st.inserted;
        v[2] = st.cma_mean;
        v[3] = st.cma_stddev;
        v[4] = st.ema_mean;
        v[5] = st.ema_stddev;
        for (int i = 0; i < N_LABELS; i++) {
            values[t][i] = v[i];
            totals[i] += v[i];
        }
    }
    /* Counts add up; latencies are averaged over the threads. */
    for (int i = 2; i < N_LABELS; i++) {
        totals[i] /= n;
    }

    struct ds ds = DS_EMPTY_INITIALIZER;
    ds_put_cstr(&ds, "HW Offload stats:\n");
    for (int i = 0; i < N_LABELS; i++) {
        ds_put_format(&ds, "     Total %s: %6"PRIu64"\n", labels[i],
                      (uint64_t) totals[i]);
    }
    for (unsigned int t = 0; t < n; t++) {
        for (int i = 0; i < N_LABELS; i++) {
            ds_put_format(&ds, "     [%3u] %s: %6"PRIu64"\n", t, labels[i],
                          values[t][i]);
        }
    }
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
}

/* dpctl/add-flow, mod-flow, del-flow and get-flow, with Open vSwitch's
 * options, arguments and messages ("ovs-vswitchd: WHAT (ERROR)"). */

/* The options Open vSwitch's dpctl commands take, and the other
 * arguments. */
struct flow_cmd {
    bool stats;                 /* -s, --statistics. */
    bool clear;                 /* --clear. */
    bool may_create;            /* --may-create. */
    bool verbose;               /* -m, --more. */
    int names;                  /* --names 1, --no-names 0, else -1. */
    const char *args[3];        /* The others: [dp] and the command's. */
    int n_args;
};

/* Parses 'argv' into 'cmd', for a command that takes 'n_wanted' arguments
 * after an optional datapath.  On error, replies and returns false. */
static bool
flow_cmd_parse(struct unixctl_conn *conn, int argc, const char *argv[],
               int n_wanted, struct flow_cmd *cmd)
{
    memset(cmd, 0, sizeof *cmd);
    cmd->names = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];

        if (!strcmp(a, "-s") || !strcmp(a, "--statistics")) {
            cmd->stats = true;
        } else if (!strcmp(a, "--clear")) {
            cmd->clear = true;
        } else if (!strcmp(a, "--may-create")) {
            cmd->may_create = true;
        } else if (dp_netdev_parse_dump_option(a, &cmd->verbose,
                                               &cmd->names)) {
            /* -m, --names, --no-names. */
        } else if (a[0] == '-' && a[1]) {
            char *msg = xasprintf("Unrecognized option %s", a);
            unixctl_command_reply_error(conn, msg);
            free(msg);
            return false;
        } else if (cmd->n_args < (int) ARRAY_SIZE(cmd->args)) {
            cmd->args[cmd->n_args++] = a;
        }
    }
    if (cmd->n_args < n_wanted) {
        char *msg = xasprintf("\"%s\" command requires at least %d "
                              "arguments", argv[0], n_wanted);
        unixctl_command_reply_error(conn, msg);
        free(msg);
        return false;
    }
    if (cmd->n_args > n_wanted && !is_dp_name(cmd->args[0])) {
        flow_cmd_error(conn, "datapath not found", EINVAL);
        return false;
    }
    if (cmd->names < 0) {
        cmd->names = cmd->verbose;
    }
    return true;
}

/* Replies to 'conn' with the error "ovs-vswitchd: WHAT (strerror)" on a
 * line of its own ('error' 0: without the parenthesis), as Open vSwitch's
 * dpctl words its errors. */
static void
flow_cmd_error(struct unixctl_conn *conn, const char *what, int error)
{
    struct ds msg = DS_EMPTY_INITIALIZER;

    ds_put_format(&msg, "%s: %s", util_program_name(), what);
    if (error) {
        ds_put_format(&msg, " (%s)", strerror(error));
    }
    ds_put_char(&msg, '\n');
    unixctl_command_reply_error(conn, ds_cstr(&msg));
    ds_destroy(&msg);
}

/* Parses the flow argument 'text' of a flow command: an optional UFID
 * (then '*has_ufid' is set), then, unless 'key' is NULL, a flow key whose
 * in_port() may name a port of 'dp'.  Replies with Open vSwitch's error and
 * returns false if either is wrong. */
static bool
flow_cmd_parse_flow(struct unixctl_conn *conn, struct dp_netdev *dp,
                    const char *text, struct dp_ufid *ufid, bool *has_ufid,
                    struct flow *key, struct flow *mask, bool *complete,
                    bool put)
{
    int n = dp_flow_ufid_parse(text, ufid);

    if (n < 0) {
        flow_cmd_error(conn, "parsing flow ufid", -n);
        return false;
    }
    *has_ufid = n > 0;
    if (!key) {
        return true;
    }
    text += n;
    text += strspn(text, " ,");

    char *s = in_port_by_number(dp, text);
    char *err = odp_flow_parse_put(s, key, mask, complete);
    free(s);
    if (err) {
        /* Open vSwitch says what it was parsing only for a put. */
        char *what = put ? xasprintf("parsing flow key (%s)", err) : err;
        flow_cmd_error(conn, what, EINVAL);
        if (what != err) {
            free(what);
        }
        free(err);
        return false;
    }
    return true;
}

/* Returns a copy of flow key 's' with a port name in its in_port()
 * replaced by the port's number, as Open vSwitch reads port names there.
 * (An unknown name is left for the parser to refuse.) */
static char *
in_port_by_number(const struct dp_netdev *dp, const char *s)
{
    const char *p = strstr(s, "in_port(");
    if (!p || (p > s && p[-1] != ',' && p[-1] != ' ')) {
        return xstrdup(s);
    }
    p += strlen("in_port(");

    size_t len = strcspn(p, ")");
    for (size_t i = 0; i < dp->n_ports; i++) {
        const char *name = netdev_get_name(dp->ports[i]->netdev);

        if (strlen(name) == len && !strncmp(p, name, len)) {
            return xasprintf("%.*s%"PRIu32"%s", (int) (p - s), s,
                             dp->ports[i]->port_no, p + len);
        }
    }
    return xstrdup(s);
}

/* dpctl/add-flow and dpctl/mod-flow: puts a flow with 'flags'
 * (DP_NETDEV_PUT_*) besides those the options give. */
static void
flow_cmd_put(struct unixctl_conn *conn, int argc, const char *argv[],
             struct dp_netdev *dp, unsigned int flags)
{
    struct dp_actions acts = DP_ACTIONS_INITIALIZER;
    struct flow key, mask;
    struct dp_flow_stats st;
    struct flow_cmd cmd;
    struct dp_ufid ufid;
    bool has_ufid, complete;

    if (!flow_cmd_parse(conn, argc, argv, 2, &cmd)
        || !flow_cmd_parse_flow(conn, dp, cmd.args[cmd.n_args - 2], &ufid,
                                &has_ufid, &key, &mask, &complete, true)) {
        return;
    }
    char *err = odp_actions_parse(cmd.args[cmd.n_args - 1], &acts);
    if (err) {
        flow_cmd_error(conn, "parsing actions", EINVAL);
        free(err);
        dp_actions_destroy(&acts);
        return;
    }

    if (cmd.clear) {
        flags |= DP_NETDEV_PUT_ZERO_STATS;
    }
    if (cmd.may_create) {
        flags |= DP_NETDEV_PUT_CREATE;
    }
    int error = (!complete ? EINVAL
                 : dp_netdev_flow_put(dp, &key, &mask, &acts,
                                      has_ufid ? &ufid : NULL, flags, &st));
    dp_actions_destroy(&acts);
    if (error) {
        flow_cmd_error(conn, "updating flow table", error);
    } else {
        flow_cmd_reply(conn, cmd.stats ? &st : NULL);
    }
}

/* Replies to a flow command that succeeded: with the flow's counters 'st'
 * on a line if nonnull (-s), else nothing. */
static void
flow_cmd_reply(struct unixctl_conn *conn, const struct dp_flow_stats *st)
{
    struct ds ds = DS_EMPTY_INITIALIZER;

    if (st) {
        put_flow_stats(&ds, st, time_msec());
        ds_put_char(&ds, '\n');
    }
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
}

/* dpctl/add-flow [dp] flow actions. */
static void
dpctl_add_flow(struct unixctl_conn *conn, int argc, const char *argv[],
               void *dp_)
{
    flow_cmd_put(conn, argc, argv, dp_, DP_NETDEV_PUT_CREATE);
}

/* dpctl/mod-flow [dp] flow actions. */
static void
dpctl_mod_flow(struct unixctl_conn *conn, int argc, const char *argv[],
               void *dp_)
{
    flow_cmd_put(conn, argc, argv, dp_, DP_NETDEV_PUT_MODIFY);
}

/* dpctl/del-flow [dp] flow: by its UFID, or by the one its key gives. */
static void
dpctl_del_flow(struct unixctl_conn *conn, int argc, const char *argv[],
               void *dp_)
{
    struct dp_netdev *dp = dp_;
    struct flow key, mask;
    struct dp_flow_stats st;
    struct flow_cmd cmd;
    struct dp_ufid ufid;
    bool has_ufid, complete;

    if (!flow_cmd_parse(conn, argc, argv, 1, &cmd)
        || !flow_cmd_parse_flow(conn, dp, cmd.args[cmd.n_args - 1], &ufid,
                                &has_ufid, &key, &mask, &complete, false)) {
        return;
    }
    if (!has_ufid) {
        dp_netdev_flow_ufid(&key, &mask, &ufid);
    }

    int error = dp_netdev_flow_del(dp, &ufid, &st);
    if (error) {
        flow_cmd_error(conn, (error == ENOENT
                                    ? "deleting flow (No such file or "
                                      "directory)\nPerhaps you need to "
                                      "specify a UFID?"
                                    : "deleting flow"),
                       error == ENOENT ? 0 : error);
    } else {
        flow_cmd_reply(conn, cmd.stats ? &st : NULL);
    }
}

/* dpctl/get-flow [dp] ufid: the flow as dpctl/dump-flows prints it, from
 * the first thread that has it. */
static void
dpctl_get_flow(struct unixctl_conn *conn, int argc, const char *argv[],
               void *dp_)
{
    struct dp_netdev *dp = dp_;
    struct flow_cmd cmd;
    struct dp_ufid ufid;
    bool has_ufid;

    if (!flow_cmd_parse(conn, argc, argv, 1, &cmd)) {
        return;
    }

    /* Open vSwitch answers a bad UFID, or none, with its error message as
     * a successful reply. */
    int n = dp_flow_ufid_parse(cmd.args[cmd.n_args - 1], &ufid);
    has_ufid = n > 0;
    if (!has_ufid) {
        char *msg = xasprintf("%s: parsing flow ufid%s\n",
                              util_program_name(),
                              n ? " (Invalid argument)" : "");
        unixctl_command_reply(conn, msg);
        free(msg);
        return;
    }

    struct ds ds = DS_EMPTY_INITIALIZER;
    struct dp_netdev_pmd *pmds[1 + 1024];
    size_t n_pmds = threads_of(dp, pmds, ARRAY_SIZE(pmds));
    bool found = false;

    for (size_t i = 0; i < n_pmds && !found; i++) {
        pthread_mutex_lock(&pmds[i]->flow_mutex);
        struct dp_netdev_flow_node *node
            = dp_netdev_pmd_find_ufid(pmds[i], &ufid);
        if (node) {
            format_dump_flow(&ds, dp, node, cmd.verbose, cmd.names, false,
                             time_msec());
            found = true;
        }
        pthread_mutex_unlock(&pmds[i]->flow_mutex);
    }
    if (found) {
        unixctl_command_reply(conn, ds_cstr(&ds));
    } else {
        flow_cmd_error(conn, "getting flow", ENOENT);
    }
    ds_destroy(&ds);
}

/* The implementation commands of Open vSwitch's userspace datapath, in its
 * layouts, for dpswitch's one implementation of each: the classifier's
 * subtable lookup ("generic"), the datapath's input processing
 * ("dpif_scalar") and flow key extraction ("scalar").  Open vSwitch's
 * others (AVX-512 variants, "autovalidator", "study") do not exist here
 * and are refused with its words for an unknown name. */

/* The priority subtable-lookup-prio-set gave "generic" (Open vSwitch's
 * default 1): shown, and changing nothing, as there is no other. */
static int generic_lookup_prio = 1;

/* dpif-netdev/subtable-lookup-info-get: the lookup function, with the
 * number of subtables (of every thread's classifier) using it. */
static void
subtable_lookup_info_get(struct unixctl_conn *conn, int argc DPS_UNUSED,
                         const char *argv[] DPS_UNUSED, void *dp_)
{
    struct dp_netdev *dp = dp_;
    struct dp_netdev_pmd *pmds[1 + 1024];
    size_t n_subtables = 0;
    size_t n = threads_of(dp, pmds, ARRAY_SIZE(pmds));

    for (size_t i = 0; i < n; i++) {
        pthread_mutex_lock(&pmds[i]->flow_mutex);
        n_subtables += dpcls_n_subtables(&pmds[i]->cls);
        pthread_mutex_unlock(&pmds[i]->flow_mutex);
    }

    char *reply = xasprintf("Available dpcls implementations:\n"
                            "  generic (Use count: %zu, "
                            "Priority: %d)\n", n_subtables,
                            generic_lookup_prio);
    unixctl_command_reply(conn, reply);
    free(reply);
}

/* dpif-netdev/subtable-lookup-prio-set NAME PRIO.  The priority is read
 * as Open vSwitch reads it (atoi(): text that is no number is 0); with one
 * function nothing is ever re-assigned. */
static void
subtable_lookup_prio_set(struct unixctl_conn *conn, int argc DPS_UNUSED,
                         const char *argv[], void *dp_ DPS_UNUSED)
{
    if (strcmp(argv[1], "generic")) {
        unixctl_command_reply_error(conn, "error, subtable lookup function "
                                    "not found\n");
        return;
    }
    generic_lookup_prio = atoi(argv[2]);
    unixctl_command_reply(conn, "Lookup priority change affected 0 dpcls "
                          "ports and 0 subtables.\n");
}

/* Appends " (pmds: " and the PMD threads' cores, or "none", and ")". */
static void
put_impl_pmds(struct ds *ds, const struct dp_netdev *dp)
{
    ds_put_cstr(ds, "pmds: ");
    if (!dp->n_pmds) {
        ds_put_cstr(ds, "none");
    }
    for (size_t i = 0; i < dp->n_pmds; i++) {
        ds_put_format(ds, "%s%d", i ? "," : "", dp->pmds[i]->core_id);
    }
    ds_put_cstr(ds, ")\n");
}

/* dpif-netdev/dpif-impl-get. */
static void
dpif_impl_get(struct unixctl_conn *conn, int argc DPS_UNUSED,
              const char *argv[] DPS_UNUSED, void *dp_)
{
    struct ds ds = DS_EMPTY_INITIALIZER;

    ds_put_cstr(&ds, "Available DPIF implementations:\n  dpif_scalar (");
    put_impl_pmds(&ds, dp_);
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
}

/* dpif-netdev/dpif-impl-set NAME. */
static void
dpif_impl_set(struct unixctl_conn *conn, int argc DPS_UNUSED,
              const char *argv[], void *dp_ DPS_UNUSED)
{
    if (strcmp(argv[1], "dpif_scalar")) {
        char *msg = xasprintf("DPIF implementation not available: Unknown "
                              "DPIF implementation %s.\n", argv[1]);
        unixctl_command_reply_error(conn, msg);
        free(msg);
        return;
    }
    unixctl_command_reply(conn, "DPIF implementation set to dpif_scalar.\n");
}

/* dpif-netdev/miniflow-parser-get. */
static void
miniflow_parser_get(struct unixctl_conn *conn, int argc DPS_UNUSED,
                    const char *argv[] DPS_UNUSED, void *dp_)
{
    struct ds ds = DS_EMPTY_INITIALIZER;

    ds_put_cstr(&ds, "Available MFEX implementations:\n"
                "  scalar (available: True ");
    put_impl_pmds(&ds, dp_);
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
}

/* dpif-netdev/miniflow-parser-set [-pmd CORE] NAME [STUDY_COUNT]. */
static void
miniflow_parser_set(struct unixctl_conn *conn, int argc, const char *argv[],
                    void *dp_)
{
    const struct dp_netdev *dp = dp_;
    const char *name = NULL;
    char *msg = NULL;
    int core = -1;

    for (int i = 1; i < argc && !msg; i++) {
        if (!strcmp(argv[i], "-pmd") && i + 1 < argc) {
            if (!util_str_to_int(argv[++i], 10, &core) || core < 0) {
                msg = xasprintf("Error: miniflow extract parser not changed, "
                                "PMD thread %s not in use, pass a valid pmd "
                                "thread ID.\n", argv[i]);
            }
        } else if (!name) {
            name = argv[i];
        } else {
            msg = xasprintf("Error: unknown argument %s.\n", argv[i]);
        }
    }
    if (!msg && !name) {
        msg = xstrdup("Error: no miniflow extract implementation given.\n");
    }
    if (!msg && strcmp(name, "scalar")) {
        msg = xasprintf("Error: unknown miniflow extract implementation "
                        "%s.\n", name);
    }
    if (!msg && core >= 0) {
        bool found = false;

        for (size_t i = 0; i < dp->n_pmds; i++) {
            found = found || dp->pmds[i]->core_id == core;
        }
        if (!found) {
            msg = xasprintf("Error: miniflow extract parser not changed, "
                            "PMD thread %d not in use, pass a valid pmd "
                            "thread ID.\n", core);
        }
    }
    if (msg) {
        unixctl_command_reply_error(conn, msg);
        free(msg);
        return;
    }
    unixctl_command_reply(conn, "Miniflow extract implementation set to "
                          "scalar.\n");
}

/* Stores in 'pmds' (room for 'max') the main thread, then the PMDs, and
 * returns how many. */
static size_t
threads_of(struct dp_netdev *dp, struct dp_netdev_pmd *pmds[], size_t max)
{
    size_t n = 0;

    pmds[n++] = dp->main_pmd;
    for (size_t i = 0; i < dp->n_pmds && n < max; i++) {
        pmds[n++] = dp->pmds[i];
    }
    return n;
}

/* dpctl/add-dp, del-dp, add-if, del-if, set-if, as Open vSwitch's
 * userspace datapath answers them.  There is one datapath, created with
 * the switch: "netdev@ovs-netdev".  Unlike Open vSwitch, dpswitch cannot
 * make a second netdev datapath (its name is refused as invalid) or a
 * system (kernel) one; a datapath of an unknown type does not exist in
 * either. */

/* Returns 0 if 'name' ("TYPE@NAME", or "NAME" for a system datapath) is
 * ours, else the error Open vSwitch's opening it gives: EINVAL for another
 * netdev name (or "ovs-netdev" without its type), ENODEV for a system
 * datapath, EAFNOSUPPORT for an unknown type. */
static int
dp_name_check(const char *name)
{
    const char *at = strchr(name, '@');
    size_t type_len = at ? (size_t) (at - name) : 0;

    if (!at || (type_len == 6 && !strncmp(name, "system", 6))) {
        return strcmp(at ? at + 1 : name, DP_NETDEV_NAME) ? ENODEV : EINVAL;
    }
    if (type_len != 6 || strncmp(name, "netdev", 6)) {
        return EAFNOSUPPORT;
    }
    return strcmp(at + 1, DP_NETDEV_NAME) ? EINVAL : 0;
}

/* dpctl/add-dp DP [IFACE...]: ours exists; others cannot be made here. */
static void
dpctl_add_dp(struct unixctl_conn *conn, int argc DPS_UNUSED,
             const char *argv[], void *dp_ DPS_UNUSED)
{
    int error = dp_name_check(argv[1]);

    flow_cmd_error(conn, "add_dp",
                   (!error ? EEXIST : error == ENODEV ? EAFNOSUPPORT
                    : error));
}

/* dpctl/del-dp DP: as in Open vSwitch, deleting the datapath the bridges
 * use succeeds and leaves it to them (it goes with the last bridge). */
static void
dpctl_del_dp(struct unixctl_conn *conn, int argc DPS_UNUSED,
             const char *argv[], void *dp_ DPS_UNUSED)
{
    int error = dp_name_check(argv[1]);

    if (error) {
        flow_cmd_error(conn, "opening datapath", error);
    } else {
        unixctl_command_reply(conn, "");
    }
}

/* An interface argument "NAME[,KEY=VALUE]...": its name, type= and
 * port_no= if given, and its other options in 'options'. */
struct if_arg {
    char *name;
    const char *type;
    const char *port_no;
    struct smap options;
    char *buf;
};

static void
if_arg_parse(const char *arg, struct if_arg *ifa)
{
    char *save = NULL;

    memset(ifa, 0, sizeof *ifa);
    smap_init(&ifa->options);
    ifa->buf = xstrdup(arg);
    char *p = strchr(ifa->buf, ',');
    if (p) {
        *p++ = '\0';
    }
    ifa->name = ifa->buf;
    for (char *kv = p ? strtok_r(p, ",", &save) : NULL; kv;
         kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        const char *value = eq ? eq + 1 : "";

        if (eq) {
            *eq = '\0';
        }
        if (!strcmp(kv, "type")) {
            ifa->type = value;
        } else if (!strcmp(kv, "port_no")) {
            ifa->port_no = value;
        } else {
            smap_add(&ifa->options, kv, value);
        }
    }
}

static void
if_arg_destroy(struct if_arg *ifa)
{
    smap_destroy(&ifa->options);
    free(ifa->buf);
}

static struct dp_netdev_port *
port_by_name(const struct dp_netdev *dp, const char *name)
{
    for (size_t i = 0; i < dp->n_ports; i++) {
        if (!strcmp(netdev_get_name(dp->ports[i]->netdev), name)) {
            return dp->ports[i];
        }
    }
    return NULL;
}

/* Runs an interface command: checks its datapath argv[1], then calls 'one'
 * for each interface argument, which returns NULL, or what failed (for
 * flow_cmd_error(), with '*error') to stop at and reply. */
static void
if_cmd_run(struct unixctl_conn *conn, int argc, const char *argv[],
           struct dp_netdev *dp,
           char *(*one)(struct dp_netdev *, const char *arg, int *error))
{
    int error = dp_name_check(argv[1]);

    if (error) {
        flow_cmd_error(conn, "opening datapath", error);
        return;
    }
    for (int i = 2; i < argc; i++) {
        char *what = one(dp, argv[i], &error);

        if (what) {
            flow_cmd_error(conn, what, error);
            free(what);
            return;
        }
    }
    unixctl_command_reply(conn, "");
}

/* dpctl/add-if DP IFACE...: a port that exists is refused as Open vSwitch
 * refuses it; a new one too, differently: ports are added through the
 * database here (Open vSwitch adds it, then its bridges remove it as not
 * theirs). */
static void
dpctl_add_if(struct unixctl_conn *conn, int argc, const char *argv[],
             void *dp_)
{
    if_cmd_run(conn, argc, argv, dp_, add_if);
}

static char *
add_if(struct dp_netdev *dp, const char *arg, int *error)
{
    struct if_arg ifa;
    unsigned int port_no;
    char *what;

    if_arg_parse(arg, &ifa);
    if (port_by_name(dp, ifa.name)) {
        what = xasprintf("%s: failed to open network device", ifa.name);
        *error = EEXIST;
    } else {
        what = xasprintf("adding %s to netdev@%s failed", ifa.name,
                         DP_NETDEV_NAME);
        *error = (ifa.port_no && util_str_to_uint(ifa.port_no, 10, &port_no)
                  && dp_netdev_lookup_port(dp, port_no) ? EBUSY
                  : EOPNOTSUPP);
    }
    if_arg_destroy(&ifa);
    return what;
}

/* dpctl/del-if DP IFACE...: removes the ports from the datapath (behind
 * their bridge's back, as in Open vSwitch). */
static void
dpctl_del_if(struct unixctl_conn *conn, int argc, const char *argv[],
             void *dp_)
{
    if_cmd_run(conn, argc, argv, dp_, del_if);
}

static char *
del_if(struct dp_netdev *dp, const char *name, int *error)
{
    struct dp_netdev_port *port = port_by_name(dp, name);

    *error = 0;
    if (!port || !port->port_no) {
        return xasprintf("no port named %s", name);
    }
    *error = dp_netdev_port_del(dp, port->port_no);
    return (*error ? xasprintf("deleting port %s from netdev@%s failed",
                               name, DP_NETDEV_NAME)
            : NULL);
}

/* dpctl/set-if DP IFACE...: the type and port number cannot change; other
 * options are given to the port's netdev (until the database's options
 * are applied again). */
static void
dpctl_set_if(struct unixctl_conn *conn, int argc, const char *argv[],
             void *dp_)
{
    if_cmd_run(conn, argc, argv, dp_, set_if);
}

static char *
set_if(struct dp_netdev *dp, const char *arg, int *error)
{
    struct if_arg ifa;
    char *what = NULL;

    *error = 0;
    if_arg_parse(arg, &ifa);
    struct dp_netdev_port *port = port_by_name(dp, ifa.name);
    const char *type = port ? netdev_get_type(port->netdev) : NULL;
    if (!port) {
        what = xasprintf("%s: failed to query port in netdev@%s",
                         ifa.name, DP_NETDEV_NAME);
        *error = ENODEV;
    } else if (ifa.type && strcmp(ifa.type, type)) {
        what = xasprintf("%s: can't change type from %s to %s",
                         ifa.name, type, ifa.type);
    } else if (ifa.port_no
               && strtoul(ifa.port_no, NULL, 10) != port->port_no) {
        what = xasprintf("%s: can't change port number from %"PRIu32
                         " to %s", ifa.name, port->port_no, ifa.port_no);
    } else if (!smap_is_empty(&ifa.options)) {
        struct smap cfg = SMAP_INITIALIZER;
        const struct smap_node *node;
        char *err = NULL;

        netdev_get_config(port->netdev, &cfg);
        SMAP_FOR_EACH (node, &ifa.options) {
            smap_remove(&cfg, node->key);
            smap_add(&cfg, node->key, node->value);
        }
        *error = netdev_set_config(port->netdev, &cfg, &err);
        if (*error) {
            what = xasprintf("%s: failed to configure network device%s%s",
                             ifa.name, err ? ": " : "", err ? err : "");
        }
        free(err);
        smap_destroy(&cfg);
    }
    if_arg_destroy(&ifa);
    return what;
}
