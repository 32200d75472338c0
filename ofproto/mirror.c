/* Port mirroring (see mirror.h).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ofproto/mirror.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "ofproto/normal.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ofproto_dpif_mirror);

#define MIRROR_VLAN_BITMAP_SIZE ((NORMAL_MAX_VLAN + 1) / 8)

struct mirror {
    uint64_t id;
    char *name;
    bool all_vlans;                     /* select_vlan was empty. */
    uint8_t vlans[MIRROR_VLAN_BITMAP_SIZE];
    bool has_out_port;
    uint32_t out_port;
    uint16_t out_vlan;
    mirror_mask_t dups;                 /* Mirrors with the same output,
                                         * this one included. */
    uint64_t n_packets, n_bytes;        /* Main thread only. */
};

/* A datapath port that some mirror selects or outputs to. */
struct mirror_port {
    uint32_t dp_port;
    mirror_mask_t src, dst, out;
    char *out_name;                     /* Port name if 'out'. */
};

struct mirror_set {
    struct mirror *mirrors[MIRROR_MAX]; /* NULL: a free index. */
    struct mirror_port *ports;
    size_t n_ports;
    uint32_t *flood_ports;              /* The bridge's ports, flood order. */
    size_t n_flood_ports;
    char *config;                       /* Configuration as text. */
};

static void mirror_set_format(const struct mirror_config *, size_t n,
                              const uint32_t *ports, size_t n_ports,
                              struct ds *);
static struct mirror_port *mirror_set_port(struct mirror_set *,
                                           uint32_t dp_port);
static const struct mirror_port *mirror_set_find_port(
    const struct mirror_set *, uint32_t dp_port);
static void mirror_set_clear_ports(struct mirror_set *);
static void mirror_configure(struct mirror *, const struct mirror_config *);
static bool mirror_same_output(const struct mirror *, const struct mirror *);
static void mirror_destroy(struct mirror *);

/* Creates a set with no mirrors. */
struct mirror_set *
mirror_set_create(void)
{
    return xzalloc(sizeof (struct mirror_set));
}

/* Frees 'ms' (which may be NULL). */
void
mirror_set_destroy(struct mirror_set *ms)
{
    if (ms) {
        for (size_t i = 0; i < MIRROR_MAX; i++) {
            mirror_destroy(ms->mirrors[i]);
        }
        mirror_set_clear_ports(ms);
        free(ms->flood_ports);
        free(ms->config);
        free(ms);
    }
}

/* Replaces the mirrors of 'ms' by the 'n' of 'cfgs', for a bridge whose
 * datapath ports are the 'n_ports' of 'ports', in flood order.  A mirror keeps its index and statistics while its 'id' stays;
 * new ones take the lowest free index, and a mirror over MIRROR_MAX is
 * left out with a warning (as Open vSwitch's).  Returns true if anything a
 * translation reads changed (megaflows of the bridge need revalidation),
 * false if the configuration is the one 'ms' has. */
bool
mirror_set_reconfigure(struct mirror_set *ms,
                       const struct mirror_config *cfgs, size_t n,
                       const uint32_t *ports, size_t n_ports)
{
    struct ds text = DS_EMPTY_INITIALIZER;

    mirror_set_format(cfgs, n, ports, n_ports, &text);
    if (ms->config && !strcmp(ms->config, ds_cstr(&text))) {
        ds_destroy(&text);
        return false;
    }
    free(ms->config);
    ms->config = ds_steal_cstr(&text);

    /* Mirrors that are gone free their index. */
    for (size_t i = 0; i < MIRROR_MAX; i++) {
        struct mirror *m = ms->mirrors[i];
        bool kept = false;

        for (size_t j = 0; m && j < n && !kept; j++) {
            kept = cfgs[j].id == m->id;
        }
        if (m && !kept) {
            mirror_destroy(m);
            ms->mirrors[i] = NULL;
        }
    }

    mirror_set_clear_ports(ms);
    for (size_t j = 0; j < n; j++) {
        const struct mirror_config *cfg = &cfgs[j];
        size_t idx = MIRROR_MAX;

        for (size_t i = 0; i < MIRROR_MAX && idx == MIRROR_MAX; i++) {
            if (ms->mirrors[i] && ms->mirrors[i]->id == cfg->id) {
                idx = i;
            }
        }
        for (size_t i = 0; i < MIRROR_MAX && idx == MIRROR_MAX; i++) {
            if (!ms->mirrors[i]) {
                ms->mirrors[i] = xzalloc(sizeof *ms->mirrors[i]);
                ms->mirrors[i]->id = cfg->id;
                idx = i;
            }
        }
        if (idx == MIRROR_MAX) {
            VLOG_WARN("maximum of %d port mirrors reached, cannot create %s",
                      MIRROR_MAX, cfg->name);
            continue;
        }

        mirror_mask_t bit = (mirror_mask_t) 1 << idx;
        mirror_configure(ms->mirrors[idx], cfg);
        for (size_t k = 0; k < cfg->n_src_ports; k++) {
            mirror_set_port(ms, cfg->src_ports[k])->src |= bit;
        }
        for (size_t k = 0; k < cfg->n_dst_ports; k++) {
            mirror_set_port(ms, cfg->dst_ports[k])->dst |= bit;
        }
        if (cfg->has_out_port && cfg->out_port != MIRROR_PORT_NONE) {
            struct mirror_port *mp = mirror_set_port(ms, cfg->out_port);

            mp->out |= bit;
            if (!mp->out_name) {
                mp->out_name = xstrdup(cfg->out_port_name
                                       ? cfg->out_port_name : "");
            }
        }
    }

    for (size_t i = 0; i < MIRROR_MAX; i++) {
        struct mirror *m = ms->mirrors[i];

        if (m) {
            m->dups = 0;
            for (size_t j = 0; j < MIRROR_MAX; j++) {
                if (ms->mirrors[j] && mirror_same_output(m, ms->mirrors[j])) {
                    m->dups |= (mirror_mask_t) 1 << j;
                }
            }
        }
    }

    free(ms->flood_ports);
    ms->flood_ports = xmalloc(MAX(n_ports, 1) * sizeof *ports);
    if (n_ports) {
        memcpy(ms->flood_ports, ports, n_ports * sizeof *ports);
    }
    ms->n_flood_ports = n_ports;
    return true;
}

/* Returns true if 'ms' has no mirror (translation can skip it). */
bool
mirror_set_is_empty(const struct mirror_set *ms)
{
    return !ms || !ms->n_ports;
}

/* Returns the mirrors that select packets arriving on 'dp_port'. */
mirror_mask_t
mirror_set_src_mirrors(const struct mirror_set *ms, uint32_t dp_port)
{
    const struct mirror_port *mp = mirror_set_find_port(ms, dp_port);
    return mp ? mp->src : 0;
}

/* Returns the mirrors that select packets leaving on 'dp_port'. */
mirror_mask_t
mirror_set_dst_mirrors(const struct mirror_set *ms, uint32_t dp_port)
{
    const struct mirror_port *mp = mirror_set_find_port(ms, dp_port);
    return mp ? mp->dst : 0;
}

/* If 'dp_port' is the output port of a mirror (and so takes no part in
 * forwarding), returns its name; otherwise NULL. */
const char *
mirror_set_output_name(const struct mirror_set *ms, uint32_t dp_port)
{
    const struct mirror_port *mp = mirror_set_find_port(ms, dp_port);
    return mp && mp->out ? mp->out_name : NULL;
}

/* Sends the copies that the mirrors of 'mirrors' make of a packet in
 * 'vlan' (the VLAN the selecting port gives it), with key 'flow', by
 * calling 'output' for each port a copy goes out of; 'nb' has the ports'
 * VLAN settings.  Mirrors in '*done' are skipped; each one that copies
 * adds its duplicates (those with the same output) to '*done', before its
 * outputs, which may select further mirrors (through the translation)
 * with the same '*done'.  Adds what the decision read to 'mask'.  Returns
 * the mirrors that copied the packet (for the statistics). */
mirror_mask_t
mirror_set_copy(const struct mirror_set *ms, struct normal_bridge *nb,
                mirror_mask_t mirrors, uint16_t vlan, const struct flow *flow,
                struct flow *mask, mirror_mask_t *done,
                mirror_output_cb *output, void *aux)
{
    mirror_mask_t used = 0;

    mirrors &= ~*done;
    while (mirrors) {
        int idx = __builtin_ctz(mirrors);
        mirror_mask_t bit = (mirror_mask_t) 1 << idx;
        const struct mirror *m = ms->mirrors[idx];

        mirrors &= ~bit;
        if (!m || (!m->all_vlans
                   && !((m->vlans[vlan / 8] >> (vlan % 8)) & 1))) {
            continue;
        }
        used |= bit;
        *done |= m->dups;

        if (m->has_out_port) {
            output(aux, m->out_port, vlan);
        } else {
            memset(&mask->dl_dst, 0xff, sizeof mask->dl_dst);
            if (vlan != m->out_vlan && !normal_is_reserved(&flow->dl_dst)) {
                /* Every port that carries the VLAN, the input port too
                 * (as Open vSwitch does). */
                for (size_t i = 0; i < ms->n_flood_ports; i++) {
                    uint32_t p = ms->flood_ports[i];

                    if (!mirror_set_output_name(ms, p)
                        && normal_port_carries_vlan(nb, p, m->out_vlan)) {
                        output(aux, p, m->out_vlan);
                    }
                }
            }
        }
        mirrors &= ~*done;
    }
    return used;
}

/* Counts 'n_packets' packets of 'n_bytes' bytes for each mirror of
 * 'mirrors'.  Main thread. */
void
mirror_set_credit(struct mirror_set *ms, mirror_mask_t mirrors,
                  uint64_t n_packets, uint64_t n_bytes)
{
    for (size_t i = 0; i < MIRROR_MAX; i++) {
        struct mirror *m = ms->mirrors[i];

        if (m && (mirrors >> i) & 1) {
            m->n_packets += n_packets;
            m->n_bytes += n_bytes;
        }
    }
}

/* Stores the statistics of the mirror with 'id' (Mirror:statistics
 * tx_packets and tx_bytes).  Returns false, storing nothing, if 'ms' has no
 * such mirror (it was refused). */
bool
mirror_set_get_stats(const struct mirror_set *ms, uint64_t id,
                     uint64_t *n_packets, uint64_t *n_bytes)
{
    for (size_t i = 0; i < MIRROR_MAX; i++) {
        const struct mirror *m = ms->mirrors[i];

        if (m && m->id == id) {
            *n_packets = m->n_packets;
            *n_bytes = m->n_bytes;
            return true;
        }
    }
    return false;
}

/* Appends the configuration to 'ds' as text, to notice changes. */
static void
mirror_set_format(const struct mirror_config *cfgs, size_t n,
                  const uint32_t *ports, size_t n_ports, struct ds *ds)
{
    for (size_t i = 0; i < n_ports; i++) {
        ds_put_format(ds, "%"PRIu32",", ports[i]);
    }
    for (size_t i = 0; i < n; i++) {
        const struct mirror_config *c = &cfgs[i];

        ds_put_format(ds, "\n%"PRIx64" %s src", c->id, c->name);
        for (size_t j = 0; j < c->n_src_ports; j++) {
            ds_put_format(ds, ",%"PRIu32, c->src_ports[j]);
        }
        ds_put_cstr(ds, " dst");
        for (size_t j = 0; j < c->n_dst_ports; j++) {
            ds_put_format(ds, ",%"PRIu32, c->dst_ports[j]);
        }
        ds_put_cstr(ds, " vlans");
        for (size_t j = 0; j < c->n_vlans; j++) {
            ds_put_format(ds, ",%u", c->vlans[j]);
        }
        if (c->has_out_port) {
            ds_put_format(ds, " port %"PRIu32" %s", c->out_port,
                          c->out_port_name ? c->out_port_name : "");
        } else {
            ds_put_format(ds, " vlan %u", c->out_vlan);
        }
    }
}

/* The entry of 'dp_port', added if there is none. */
static struct mirror_port *
mirror_set_port(struct mirror_set *ms, uint32_t dp_port)
{
    for (size_t i = 0; i < ms->n_ports; i++) {
        if (ms->ports[i].dp_port == dp_port) {
            return &ms->ports[i];
        }
    }
    ms->ports = xrealloc(ms->ports, (ms->n_ports + 1) * sizeof *ms->ports);
    struct mirror_port *mp = &ms->ports[ms->n_ports++];
    memset(mp, 0, sizeof *mp);
    mp->dp_port = dp_port;
    return mp;
}

static const struct mirror_port *
mirror_set_find_port(const struct mirror_set *ms, uint32_t dp_port)
{
    for (size_t i = 0; ms && i < ms->n_ports; i++) {
        if (ms->ports[i].dp_port == dp_port) {
            return &ms->ports[i];
        }
    }
    return NULL;
}

static void
mirror_set_clear_ports(struct mirror_set *ms)
{
    for (size_t i = 0; i < ms->n_ports; i++) {
        free(ms->ports[i].out_name);
    }
    free(ms->ports);
    ms->ports = NULL;
    ms->n_ports = 0;
}

/* Sets 'm''s selection and output from 'cfg' (its statistics stay). */
static void
mirror_configure(struct mirror *m, const struct mirror_config *cfg)
{
    free(m->name);
    m->name = xstrdup(cfg->name ? cfg->name : "");
    memset(m->vlans, 0, sizeof m->vlans);
    m->all_vlans = !cfg->n_vlans;
    for (size_t i = 0; i < cfg->n_vlans; i++) {
        uint16_t vlan = cfg->vlans[i];

        if (vlan <= NORMAL_MAX_VLAN) {
            m->vlans[vlan / 8] |= 1u << (vlan % 8);
        }
    }
    m->has_out_port = cfg->has_out_port;
    m->out_port = cfg->has_out_port ? cfg->out_port : MIRROR_PORT_NONE;
    m->out_vlan = cfg->has_out_port ? 0 : cfg->out_vlan;
}

/* Returns true if 'a' and 'b' send their copies to the same place. */
static bool
mirror_same_output(const struct mirror *a, const struct mirror *b)
{
    return (a->has_out_port == b->has_out_port
            && (a->has_out_port ? a->out_port == b->out_port
                : a->out_vlan == b->out_vlan));
}

static void
mirror_destroy(struct mirror *m)
{
    if (m) {
        free(m->name);
        free(m);
    }
}
